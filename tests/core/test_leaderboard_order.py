"""scorio_core.leaderboard.order: the leaderboard's row order, shared by every view that lists models by a score."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from scorio_core.leaderboard.order import board_order


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from([0.1, 0.5, 0.9, np.nan])),
                min_size=1, max_size=8, unique_by=lambda t: t[0]))
def test_score_descending_ties_by_name_unscored_last(rows):
    frame = pd.DataFrame(rows, columns=["model", "score"])
    out = board_order(frame.sample(frac=1.0, random_state=0), "score")
    scored = out[out["score"].notna()]
    assert list(out["model"]) == list(scored["model"]) + list(out.loc[out["score"].isna(), "model"])
    keys = list(zip(-scored["score"], scored["model"]))
    assert keys == sorted(keys)
