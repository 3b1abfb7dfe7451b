"""The rubric perturbation's batched fits (one posterior call for many codings) equal one call per coding."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.sensitivity import kernel
from scorio_core.uncertainty import PRIORS
from scorio_core.uncertainty.batch import posterior_shares


def _cells(L: int, M: int, N: int, tasks: int) -> kernel.Cells:
    rows = [(f"m{l}", f"t{q % tasks}", f"q{q}", t) for l in range(L) for q in range(M) for t in range(N)]
    return kernel.cells(pd.DataFrame(rows, columns=["model", "task", "question_id", "trial"]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 24), st.integers(1, 6), st.integers(1, 3), st.integers(2, 4),
       st.integers(1, 5), st.sampled_from(PRIORS), st.integers(0, 2**31 - 1))
def test_shares_of_equals_one_call_per_coding(L, M, N, tasks, K, P, prior, seed):
    where = _cells(L, M, N, tasks)
    rng = np.random.default_rng(seed)
    n = L * M * N
    codings = [rng.integers(-1, K, n) for _ in range(P)]  # -1: unmatched attempts
    got = kernel.shares_of(codings, where, K, prior)
    assert got.shape == (P, L, K)
    for p, codes in enumerate(codings):
        want = posterior_shares(kernel.category_counts(codes, where, K), prior, where.strata)
        np.testing.assert_allclose(got[p], want, rtol=1e-9, atol=1e-12, equal_nan=True)


def test_shares_of_no_coding():
    assert kernel.shares_of([], _cells(2, 3, 2, 1), 3, "uniform").shape == (0, 2, 3)


def test_threshold_flip_takes_the_first_shift_in_search_order():
    # three models; the leader (0) loses first at shift -3 (model 2 ahead), also at +5; the search goes
    # +1, -1, +2, -2, ... and asks for the shifts in batches, so a later batch's flip must not win
    asked = []

    def mu_at(shifts):
        asked.append(list(shifts))
        return np.array([[1.0, 0.5, 2.0] if s in (-3.0, 5.0) else [1.0, 0.5, 0.2] for s in shifts])

    assert kernel.threshold_flip(mu_at, 50.0, 0, 25.0) == (-3.0, 2)
    assert asked[0][:4] == [1.0, -1.0, 2.0, -2.0]
    # near the bound only the shifts inside 0..100 are tried; none flips -> (None, None)
    seen = []
    assert kernel.threshold_flip(lambda s: seen.extend(s) or np.tile([1.0, 0.0, 0.0], (len(s), 1)), 98.0, 0, 5.0) \
        == (None, None)
    assert seen == [1.0, -1.0, 2.0, -2.0, -3.0, -4.0, -5.0]
