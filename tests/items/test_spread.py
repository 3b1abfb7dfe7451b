"""Whether an IRT fit's models differ (Cochran-Mantel-Haenszel) and the standard errors rank ties use."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from scorio_core.items.board import ability_board
from scorio_core.items.irt import fit_irt
from scorio_core.items.spread import SPREAD_ALPHA, ability_spread, spread_note


def test_two_models_two_questions_by_hand():
    # each question: A 3/3, B 0/3; N_j = 6, S_j = 3: E[s_A] = 1.5, d_A = 2 x 1.5 = 3;
    # c_j = 3 x 3 / (36 x 5) = 0.05, V = 2 x 0.05 x (6 x 3 - 9) = 0.9; stat = 9 / 0.9 = 10
    stat, df, p = ability_spread([[3, 3], [0, 0]], [[3, 3], [3, 3]])
    assert stat == pytest.approx(10.0, rel=1e-12) and df == 1 and p == pytest.approx(0.0015654022580025, rel=1e-9)


@pytest.mark.parametrize("table", [[[7, 3], [2, 8]], [[5, 5], [5, 5]], [[9, 1], [4, 6]], [[1, 11], [3, 2]]])
def test_one_question_is_the_mantel_haenszel_chi_square(table):
    # one 2 x 2 stratum: the CMH statistic is (N - 1) / N times Pearson's chi-square without continuity correction
    t = np.asarray(table)
    pearson = chi2_contingency(t, correction=False)[0]
    stat = ability_spread(t[:, [0]], t.sum(axis=1, keepdims=True))[0]
    assert stat == pytest.approx(pearson * (t.sum() - 1) / t.sum(), rel=1e-12, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 8), st.integers(0, 2**31 - 1))
def test_order_of_models_and_questions_does_not_matter(L, M, seed):
    rng = np.random.default_rng(seed)
    n = rng.integers(0, 4, (L, M))
    s = rng.binomial(n, rng.random((L, M)))
    pl, pm = rng.permutation(L), rng.permutation(M)
    a, b = ability_spread(s, n), ability_spread(s[pl][:, pm], n[pl][:, pm])
    assert a[1] == b[1] and a[0] == pytest.approx(b[0], rel=1e-9, abs=1e-9)


def test_models_without_answers_and_single_model_questions_add_nothing():
    s, n = np.array([[2, 1, 0], [0, 1, 0]]), np.array([[2, 2, 0], [2, 2, 0]])
    base = ability_spread(s, n)
    s2 = np.vstack([np.hstack([s, [[3], [0]]]), [[0, 0, 0, 0]]])  # q3 answered by one model; a model with no trials
    n2 = np.vstack([np.hstack([n, [[3], [0]]]), [[0, 0, 0, 0]]])
    assert ability_spread(s2, n2) == pytest.approx(base)
    assert ability_spread([[1, 2]], [[2, 2]]) == (0.0, 0, 1.0)  # one model: nothing to compare


def _null_table(seed, L=6, M=30, N=4, sd=0.0):
    rng = np.random.default_rng(seed)
    p = 1 / (1 + np.exp(-(rng.normal(0, sd, L)[:, None] - rng.normal(0, 1.5, M)[None])))
    s = rng.binomial(N, p).astype(float)
    return s, np.full_like(s, N)


def test_calibrated_under_equal_abilities_and_powerful_under_a_spread():
    # 300 simulated tables of equal abilities: the 5% test rejects about 5% (binomial sd 1.3%); ability SD 0.5: ~all
    null = np.array([ability_spread(*_null_table(seed))[2] for seed in range(300)])
    assert 0.02 <= np.mean(null < 0.05) <= 0.09
    spread = np.array([ability_spread(*_null_table(seed, L=10, M=50, sd=0.5))[2] for seed in range(50)])
    assert np.mean(spread < 0.05) >= 0.95


def test_rank_ties_use_the_unconditioned_standard_errors():
    # equal abilities: the SE given the 2PL scale called 0.14-0.23 of pairs different (nominal 0.10); the
    # unconditioned one stays at or below nominal, and the board's rank_ci follows it
    rates_joint, rates_given = [], []
    for seed in range(6):
        s, n = _null_table(100 + seed, L=10, M=50)
        fit = fit_irt(s, n)
        for se, out in ((fit.theta_se_joint, rates_joint), (fit.se_given_scale(fit.theta, fit.theta_se), rates_given)):
            z = (fit.theta[:, None] - fit.theta[None]) / np.hypot(se[:, None], se[None])
            out.append(np.mean(np.abs(z[np.triu_indices(10, 1)]) >= 1.6449))
    assert np.mean(rates_joint) <= 0.10 < np.mean(rates_given)


def test_board_rank_ci_uses_the_joint_standard_errors(monkeypatch):
    import pandas as pd

    import scorio_core.items.board as board

    s, n = _null_table(7, L=8, M=40)
    fit = fit_irt(s, n, models=[f"m{i}" for i in range(8)])
    seen = {}

    def spy(values, sigma, confidence, rule):
        seen["sigma"] = np.asarray(sigma)
        return np.ones(len(values), dtype=np.int64)

    monkeypatch.setattr(board, "ranks_with_ties", spy)

    class Diag:  # the fields ability_board reads
        pass

    d = Diag()
    d.fit, d.confidence = fit, 0.95
    d.models = pd.DataFrame({"model": list(fit.models), "ability_lo": fit.theta - 1, "ability_hi": fit.theta + 1})
    monkeypatch.setattr(board, "ability_interval_label", lambda diagnostics: "test")
    ability_board(d)
    assert np.allclose(seen["sigma"], fit.theta_se_joint)


def test_spread_note_only_when_the_models_do_not_differ():
    s, n = _null_table(3, L=6, M=30)
    fit = fit_irt(s, n)
    assert fit.spread_p > SPREAD_ALPHA
    note = spread_note(fit)
    assert "does not find the models' success rates to credibly differ" in note and "2PL scale" in note
    assert f"p = {fit.spread_p:.2g}" in note and "tied" not in note  # (weak evidence, not a tie: a pair can differ)
    rasch = fit_irt(s, n, model="rasch")
    assert "2PL" not in spread_note(rasch) and rasch.spread_p == fit.spread_p  # the test needs no fit
    s, n = _null_table(3, L=6, M=30, sd=1.0)
    assert spread_note(fit_irt(s, n)) is None
    one = fit_irt(s[:1], n[:1], model="rasch")  # engineer QA: one model read "do not credibly differ (p = 1)"
    assert one.spread_p == 1.0 and spread_note(one) is None
