"""The complete-grid shortcuts for count tables equal the general code paths.

``compute_report`` and ``outcomes.from_counts`` skip cell keys when a count table is a complete
grid in canonical order (an engine's count table); the report and the tensor must be the ones the
general paths compute on the same rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from scorio_core.io.quality import compute as _quality
from scorio_core.io._canonical import natural_categories
from scorio_core.io.quality.compute import compute_report
from scorio_core.leaderboard.outcomes import from_counts


def _table(L, T, Q, seed, *, drop=0, vary=False, all_right=False):
    rng = np.random.default_rng(seed)
    m, t, q = np.meshgrid(np.arange(L), np.arange(T), np.arange(Q), indexing="ij")
    n = np.full(m.size, 4, dtype=np.int64)
    if vary:
        n[rng.integers(0, n.size)] = 6
    c = rng.integers(0, 5, m.size).clip(max=n)
    if all_right:
        c[q.ravel() == 0] = n[q.ravel() == 0]
    frame = pd.DataFrame({"model": [f"m{i}" for i in m.ravel()], "task": [f"t{i}" for i in t.ravel()],
                          "question_id": [f"q{i}" for i in q.ravel()], "n_trials": n, "n_correct": c})
    if drop:
        frame = frame.drop(index=rng.choice(len(frame), size=min(drop, len(frame) - 1), replace=False))
    for key in ("model", "task", "question_id"):
        frame[key] = natural_categories(frame[key].astype("category"))
    return frame.reset_index(drop=True)


@settings(max_examples=60, deadline=None)
@given(L=st.integers(1, 5), T=st.integers(1, 3), Q=st.integers(1, 6), seed=st.integers(0, 10**6),
       drop=st.sampled_from([0, 0, 1, 3]), vary=st.booleans(), all_right=st.booleans())
def test_grid_report_equals_general_report(L, T, Q, seed, drop, vary, all_right):
    table = _table(L, T, Q, seed, drop=drop, vary=vary, all_right=all_right)
    got = compute_report(table, "counts", source_names=("x",))
    shuffled = table.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    if len(shuffled) > 1 and (shuffled.index == table.index).all():
        shuffled = table.iloc[::-1].reset_index(drop=True)
    want = compute_report(shuffled if len(table) > 1 else table, "counts", source_names=("x",))
    assert got == want
    fast = _quality._grid_report(table, *(table[k].cat.codes.to_numpy() for k in ("model", "task", "question_id")),
                                 (table["model"].cat.categories, table["task"].cat.categories,
                                  table["question_id"].cat.categories, len(table["question_id"].cat.categories)))
    # the shortcut runs exactly on complete grids with one trial count per task (checked here with pandas)
    tq = table["task"].astype(str) + "/" + table["question_id"].astype(str)
    complete = len(table) == table["model"].nunique() * tq.nunique()
    even = (table.groupby("task", observed=True)["n_trials"].nunique() == 1).all()
    assert (fast is not None) == bool(complete and even)


def test_grid_report_finds_saturated_questions_and_is_used(monkeypatch):
    table = _table(3, 2, 4, 0, all_right=True)
    calls = []
    real = _quality._grid_report
    monkeypatch.setattr(_quality, "_grid_report", lambda *a: calls.append(real(*a)) or calls[-1])
    report = compute_report(table, "counts")
    assert calls and calls[0] is not None
    assert report.n_all_correct >= 2 and ("t0", "q0") in report.all_correct and report.n_questions == 8
    assert report.models == ("m0", "m1", "m2") and report.tasks == ("t0", "t1") and report.missing_cells == 0


@settings(max_examples=40, deadline=None)
@given(L=st.integers(1, 5), Q=st.integers(1, 6), seed=st.integers(0, 10**6), drop=st.sampled_from([0, 1]))
def test_from_counts_grid_equals_bincount_path(L, Q, seed, drop):
    import scorio_core.leaderboard.outcomes as outcomes

    table = _table(L, 1, Q, seed, drop=drop)
    got = from_counts(table, "t0")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(outcomes, "_is_grid", lambda *a: False)
        want = from_counts(table, "t0")
    assert got.models == want.models and got.questions == want.questions
    np.testing.assert_array_equal(got.counts, want.counts)
    assert got.counts.sum() == table["n_trials"].sum()
