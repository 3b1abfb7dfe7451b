"""Many IRT fits at once (items.batch): equal to one fit_irt per table, ties exact, errors; used by the Method
agreement view's rank intervals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit
from scipy.stats import rankdata

from scorio_core.items.batch import irt_abilities_batch
from scorio_core.items.irt import fit_irt


def _tables(L, M, N, B, seed, missing=0.0, ragged=False):
    """B tables of L models x M questions: a 2PL draw with some cells missing and unequal trials."""
    rng = np.random.default_rng(seed)
    theta, b, a = rng.normal(size=(B, L, 1)), rng.normal(size=(B, 1, M)), rng.lognormal(0, 0.4, size=(B, 1, M))
    n = rng.integers(1, N + 1, size=(B, L, M)) if ragged else np.full((B, L, M), N)
    n = np.where(rng.random((B, L, M)) < missing, 0, n)
    return rng.binomial(n, expit(a * (theta - b))).astype(float), n.astype(float)


def _one_by_one(s, n, model):
    return np.array([fit_irt(s[k], n[k], model).theta for k in range(len(s))])


@pytest.mark.parametrize("model", ["2pl", "rasch"])
@pytest.mark.parametrize("shape", [(6, 12, 4, 0.0, False), (9, 25, 3, 0.15, True), (4, 8, 1, 0.0, False)])
def test_equal_to_one_fit_per_table(model, shape):
    # 12 questions and more: the difficulty prior's SD is estimated and the table refitted; 8: the fixed prior
    L, M, N, missing, ragged = shape
    s, n = _tables(L, M, N, B=10, seed=hash(shape) % 1000, missing=missing, ragged=ragged)
    theta, converged = irt_abilities_batch(s, n, model)
    expected = _one_by_one(s, n, model)
    assert theta.shape == (10, L) and converged.all()
    np.testing.assert_allclose(theta, expected, rtol=0, atol=1e-8)
    for got, want in zip(theta, expected):  # the same ranks, ties included
        np.testing.assert_array_equal(rankdata(-got, method="min"), rankdata(-want, method="min"))


def test_resamples_of_the_bundled_data_rank_as_one_fit_each():
    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for

    out = outcomes_for(io.load([str(Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv")]))
    counts = np.asarray(out.binary.counts, dtype=float)
    s, n = counts[..., 1], counts.sum(axis=2)
    idx = np.random.default_rng(7).integers(0, s.shape[1], size=(40, s.shape[1]))
    for model in ("2pl", "rasch"):
        theta, _ = irt_abilities_batch(s[:, idx].transpose(1, 0, 2), n[:, idx].transpose(1, 0, 2), model)
        want = np.array([fit_irt(s[:, q], n[:, q], model).theta for q in idx])
        np.testing.assert_allclose(theta, want, rtol=0, atol=1e-8)
        ties = sum(s.shape[0] - np.unique(row).size for row in theta)
        assert ties == sum(s.shape[0] - np.unique(row).size for row in want) > 0  # models solving the same: ties


def test_identical_counts_give_exactly_equal_abilities():
    s, n = _tables(5, 14, 4, B=3, seed=1)
    s[:, 3], n[:, 3] = s[:, 1], n[:, 1]  # model 3 copies model 1 in every table
    theta, _ = irt_abilities_batch(s, n)
    assert np.array_equal(theta[:, 3], theta[:, 1])
    # Rasch: equal totals over equal trials suffice (the total is the sufficient statistic); the same in fit_irt
    s2 = s.copy()
    s2[:, 4] = s2[:, 1][:, ::-1]  # model 4: model 1's counts in reverse question order, same total
    n2 = n.copy()
    theta_r, _ = irt_abilities_batch(s2, n2, "rasch")
    assert np.array_equal(theta_r[:, 4], theta_r[:, 1])
    fit = fit_irt(s2[0], n2[0], "rasch")
    assert fit.theta[4] == fit.theta[1]


def test_refusals():
    s, n = _tables(3, 5, 2, B=2, seed=0)
    with pytest.raises(ValueError, match="same shape"):
        irt_abilities_batch(s[0], n[0])
    with pytest.raises(ValueError, match="successes <= trials"):
        irt_abilities_batch(n + 1, n)
    with pytest.raises(ValueError, match="unknown IRT model"):
        irt_abilities_batch(s, n, "3pl")
    with pytest.raises(ValueError, match="at least 2 models"):
        irt_abilities_batch(s[:, :1], n[:, :1])



def test_abilities_equal_up_to_rounding_tie_in_both_fits():
    # models x and y each fail a different one of two questions the data cannot tell apart (symmetric places of
    # the posterior without identical rows): their abilities are equal in exact arithmetic and came out a few ulps
    # apart, in an order that depended on the order of the sums (the batched and single fits ranked them differently)
    s = np.array([[3, 0, 3, 3, 3], [3, 3, 0, 3, 3], [0, 3, 0, 0, 0], [0, 0, 3, 0, 0]], dtype=float)
    n = np.full(s.shape, 3.0)
    fit = fit_irt(s, n)
    batch, _ = irt_abilities_batch(s[None], n[None])
    assert fit.theta[0] == fit.theta[1] and fit.theta[2] == fit.theta[3]
    assert batch[0, 0] == batch[0, 1] and batch[0, 2] == batch[0, 3]
    np.testing.assert_allclose(batch[0], fit.theta, rtol=0, atol=1e-12)


def test_close_groups_join_chains_and_keep_rows_apart():
    from scorio_core.arrays import close_groups, group_mean

    values = np.array([[1.0, 1.0 + 4e-10, 2.0, 1.0 + 8e-10], [1.0, 5.0, 1.0 + 2e-9, np.nan]])
    inverse = close_groups(values, 5e-10)
    assert inverse[0] == inverse[1] == inverse[3] != inverse[2]  # a chain of gaps <= atol is one group
    assert len({inverse[4], inverse[5], inverse[6], inverse[7]}) == 4  # 2e-9 apart: two groups; NaN alone
    assert inverse[0] != inverse[4]  # rows are independent
    tied = group_mean(values.ravel(), inverse).reshape(2, 4)
    assert tied[0, 0] == tied[0, 1] == tied[0, 3] and np.isnan(tied[1, 3])


@pytest.mark.parametrize("rate", [0.5, 1.0])
def test_equal_abilities_are_not_stretched_to_plus_or_minus_one(rate):
    # identical models (or every question solved): no spread to set the 2PL scale by; rescaling to mean square 1 put
    # every ability at exactly -1 or +1 (helper QA), a magnitude the data never gave; the batch agrees with fit_irt
    M = 8
    s = np.tile(np.round(rate * np.array([2, 1, 2, 0, 1, 2, 1, 2]))[None, :], (3, 1)) if rate < 1 else np.full((3, M), 2)
    n = np.full((3, M), 2)
    fit = fit_irt(s, n, "2pl")
    assert fit.scale == 1.0 and np.ptp(fit.theta) == 0.0
    assert abs(abs(fit.theta[0]) - 1.0) > 0.05
    theta, _ = irt_abilities_batch(s[None], n[None], "2pl")
    np.testing.assert_allclose(theta[0], fit.theta, atol=1e-6)
