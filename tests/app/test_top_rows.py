"""dashboard.tables.display.top_rows: the Leaderboard's "top n" keeps every model tied with the last one shown."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, strategies as st_

from dashboard.tables.display import top_rows


def test_a_top_n_view_never_cuts_between_models_with_the_same_rank():
    table = pd.DataFrame({"model": list("abcdefg"), "rank": [1, 2, 3, 3, 3, 6, np.nan]})
    rows, extra = top_rows(table, 3)  # c, d, e share rank 3: all three stay
    assert list(rows["model"]) == list("abcde") and extra == 2
    rows, extra = top_rows(table, 2)
    assert list(rows["model"]) == ["a", "b"] and extra == 0
    assert top_rows(table, 0)[0] is table and top_rows(table, 10)[0] is table and top_rows(table, 10)[1] == 0
    rows, extra = top_rows(table.iloc[[0, 1, 2, 6]], 3)  # no tie after the cut
    assert list(rows["model"]) == ["a", "b", "c"] and extra == 0
    nan_last = pd.DataFrame({"model": list("abc"), "rank": [1, np.nan, np.nan]})
    rows, extra = top_rows(nan_last, 2)  # a model without a score is never "tied"
    assert list(rows["model"]) == ["a", "b"] and extra == 0


@given(st_.lists(st_.integers(0, 5), min_size=1, max_size=30), st_.integers(1, 35))
def test_top_rows_keeps_whole_rank_groups(scores, limit):
    mu = np.sort(np.asarray(scores, dtype=float))[::-1]
    rank = pd.Series(mu).rank(method="min", ascending=False).to_numpy()
    table = pd.DataFrame({"model": [f"m{i}" for i in range(len(mu))], "rank": rank})
    rows, extra = top_rows(table, limit)
    assert len(rows) == min(limit, len(table)) + extra
    shown = set(rows["rank"])
    assert not (set(table["rank"].iloc[len(rows):]) & shown)  # no rank group split by the cut
