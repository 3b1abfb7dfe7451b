"""The empirical-Bayes difficulty prior of fit_irt (the default b_prior="empirical-bayes"): moment step and refit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from scorio_core.errors import InputError
from scorio_core.items import fit_irt, flag_questions, irt
from scorio_core.items._newton import laplace_se, newton_mode


def _simulate(L, M, N, seed, b_sd=1.0):
    rng = np.random.default_rng(seed)
    theta, b, a = rng.normal(size=L), rng.normal(0.0, b_sd, size=M), rng.lognormal(0.0, 0.3, size=M)
    n = np.full((L, M), N)
    return rng.binomial(n, expit(a * (theta[:, None] - b))), n


def test_moment_step_by_hand():
    # mean(b^2) = (1 + 1 + 4 + 4) / 4 = 2.5, mean(se^2) = 0.25: tau = sqrt(2.25) = 1.5
    seen = np.ones(4, dtype=bool)
    assert irt.difficulty_prior_sd([1.0, -1.0, 2.0, -2.0], [0.5] * 4, seen) == pytest.approx(1.5, rel=1e-15)
    # unanswered questions (the prior's 0 with SE 3) are left out
    b, se = [1.0, -1.0, 2.0, -2.0, 0.0], [0.5] * 4 + [3.0]
    assert irt.difficulty_prior_sd(b, se, np.array([True] * 4 + [False])) == pytest.approx(1.5, rel=1e-15)
    # clipped to the bounds: noise larger than the spread, a spread wider than the default, nothing answered
    assert irt.difficulty_prior_sd([0.1, -0.1], [1.0, 1.0], np.ones(2, bool)) == irt.B_PRIOR_SD_BOUNDS[0]
    assert irt.difficulty_prior_sd([9.0, -9.0], [0.1, 0.1], np.ones(2, bool)) == irt.B_PRIOR_SD_BOUNDS[1]
    assert irt.difficulty_prior_sd([1.0], [0.1], np.zeros(1, bool)) == irt.B_PRIOR_SD_BOUNDS[1]


def test_refit_is_the_mode_under_the_estimated_prior():
    s, n = _simulate(20, 60, 4, seed=5, b_sd=0.8)
    fit = fit_irt(s, n)  # the default
    sf, nf = irt.check_counts(s, n)
    L, M = sf.shape
    # what fit_irt does, step by step: first mode under N(0, 3^2), moment step, refit from that mode
    x1, *_ = newton_mode(irt._start(sf, nf, False), sf, nf, irt.PRIORS)
    se1 = laplace_se(x1, sf, nf, irt.PRIORS, fix_scale=x1[:L])[1]
    tau = irt.difficulty_prior_sd(x1[L:L + M], se1, np.ones(M, bool))
    assert fit.b_prior_sd == pytest.approx(tau, rel=1e-12)
    assert irt.B_PRIOR_SD_BOUNDS[0] < tau < irt.B_PRIOR_SD_BOUNDS[1]
    x2, *_ = newton_mode(x1, sf, nf, {**irt.PRIORS, "b": (0.0, tau)})
    theta0, b0, a0 = x2[:L], x2[L:L + M], x2[L + M:]
    np.testing.assert_allclose(fit.a[None, :] * (fit.theta[:, None] - fit.b[None, :]),
                               a0[None, :] * (theta0[:, None] - b0[None, :]), atol=1e-9)
    assert f"b~N(0,{tau:.3g}^2) estimated from the data" in fit.method
    # the tighter prior pulls the difficulties in: their spread is smaller than under N(0, 3^2)
    fixed = fit_irt(s, n, b_prior="fixed")
    assert fixed.b_prior_sd == 3.0 and "b~N(0,3^2)" in fixed.method and "estimated" not in fixed.method
    assert np.std(fit.b * fit.scale) < np.std(fixed.b * fixed.scale)


def test_few_questions_keep_the_default_and_rasch_works():
    s, n = _simulate(10, irt.MIN_QUESTIONS_FOR_B_PRIOR - 1, 4, seed=2)
    eb, fixed = fit_irt(s, n), fit_irt(s, n, b_prior="fixed")
    assert eb.b_prior_sd == 3.0
    np.testing.assert_array_equal(eb.theta, fixed.theta)
    s, n = _simulate(10, 40, 4, seed=3)
    rasch = fit_irt(s, n, model="rasch", b_prior="empirical-bayes")
    assert rasch.b_prior_sd < 3.0 and "Rasch MAP" in rasch.method and "estimated from the data" in rasch.method


def test_flags_use_the_fits_own_prior():
    from scorio_core.items.flags import sign_log_odds

    s, n = _simulate(20, 40, 4, seed=9)
    s[:, 0] = n[:, 0] * (np.argsort(np.argsort(s.sum(axis=1))) < 10)  # question 0: only the weakest half succeed
    fit = fit_irt(s, n, b_prior="empirical-bayes")
    c = fit.scale
    own = {"theta": (0.0, 1.0 / c), "b": (0.0, fit.b_prior_sd / c), "a": (c, 1.5 * c)}
    default = {**own, "b": (0.0, 3.0 / c)}
    np.testing.assert_array_equal(sign_log_odds(fit, s, n), sign_log_odds(fit, s, n, own))
    assert not np.array_equal(sign_log_odds(fit, s, n), sign_log_odds(fit, s, n, default))
    assert "possibly_mislabeled" in flag_questions(fit, s, n)["flags"][0]


def test_unknown_b_prior():
    with pytest.raises(InputError, match="unknown difficulty prior 'wide'"):
        fit_irt([[1, 0], [0, 1]], [[1, 1], [1, 1]], b_prior="wide")
