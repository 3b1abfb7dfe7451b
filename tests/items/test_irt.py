"""IRT fit on the count table (issue 37): recovery by simulation, gradient, hand case, invariants, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy.optimize import check_grad
from scipy.special import expit

from scorio_core.errors import InputError
from scorio_core.items import irt
from scorio_core.items._newton import neg_log_posterior
from scorio_core.items.irt import PRIORS, fit_irt, from_outcomes, item_information
from scorio_core.leaderboard.outcomes import Outcomes


def simulate(L, M, N, seed, log_a=(0.0, 0.3)):
    rng = np.random.default_rng(seed)
    theta, b, a = rng.normal(size=L), rng.normal(size=M), rng.lognormal(*log_a, size=M)
    n = np.full((L, M), N)
    return theta, b, a, rng.binomial(n, expit(a * (theta[:, None] - b))), n


def _coverage(fit, theta, b):
    return (np.mean(np.abs(fit.theta - theta) <= 1.96 * fit.theta_se), np.mean(np.abs(fit.b - b) <= 1.96 * fit.b_se))


def test_parameter_recovery_and_coverage():
    theta, b, a, s, n = simulate(30, 200, 8, seed=11)
    fit = fit_irt(s, n)
    assert fit.converged
    r_theta, r_b, r_a = (np.corrcoef(x, y)[0, 1] for x, y in ((fit.theta, theta), (fit.b, b), (fit.a, a)))
    print(f"recovery r(theta)={r_theta:.3f} r(b)={r_b:.3f} r(a)={r_a:.3f}")
    assert r_theta > 0.9 and r_b > 0.9 and r_a > 0.7
    # coverage of one replication is noisy (its 30 abilities share one scale error): average 16 replications
    runs = [simulate(30, 200, 8, seed=100 + k) for k in range(16)]
    cover = np.mean([_coverage(fit_irt(s_k, n_k), theta_k, b_k) for theta_k, b_k, _, s_k, n_k in runs], axis=0)
    print(f"95% coverage over 16 replications: abilities {cover[0]:.3f}, difficulties {cover[1]:.3f}")
    assert 0.9 <= cover[0] <= 0.995 and 0.9 <= cover[1] <= 0.995


def test_high_discriminations_keep_the_ability_scale():
    # discriminations ~2.7 (LLM benchmarks fit 2-3 on the abilities' scale): the joint mode's scale is pulled by the
    # a ~ N(1, 1.5^2) prior over 200 questions and stretched the abilities by ~60%, covering the truth at 0.36
    # (measured, 40 replications); on the abilities' scale (mean square 1, plus the scale's variance) 0.93
    covers, scales = [], []
    for k in range(8):
        theta, b, _, s, n = simulate(30, 200, 4, seed=200 + k, log_a=(1.0, 0.3))
        fit = fit_irt(s, n)
        covers.append(_coverage(fit, theta, b))
        scales.append(fit.scale)
        assert np.mean(fit.theta**2) == pytest.approx(1.0, rel=1e-9)
    cover = np.mean(covers, axis=0)
    print(f"scale {np.mean(scales):.2f}; 95% coverage: abilities {cover[0]:.3f}, difficulties {cover[1]:.3f}")
    assert np.mean(scales) > 1.3  # the mode was stretched: the case this test is about
    assert 0.88 <= cover[0] <= 0.99 and 0.88 <= cover[1] <= 0.99


def test_ability_scale_is_a_reparametrisation():
    # the rescaled fit has the likelihood of the mode: a (theta - b) unchanged, and the scale's variance is added
    _, _, _, s, n = simulate(12, 40, 4, seed=3)
    n[0] = s[0] = 0  # a model that answered nothing keeps its prior
    fit = fit_irt(s, n, b_prior="fixed")  # the first fit's mode (the refit under the estimated prior: test_b_prior)
    x, _, _, _ = irt.newton_mode(irt._start(*irt.check_counts(s, n), False), *irt.check_counts(s, n), PRIORS)
    theta0, b0, a0 = x[:12], x[12:52], x[52:]
    assert np.allclose(fit.a[None, :] * (fit.theta[1:, None] - fit.b[None, :]),
                       a0[None, :] * (theta0[1:, None] - b0[None, :]), atol=1e-9)
    assert fit.scale == pytest.approx(np.sqrt(np.mean(theta0[1:] ** 2)), rel=1e-12)
    assert fit.theta[0] == 0 and fit.theta_se[0] == pytest.approx(1.0, rel=1e-6)
    assert np.mean(fit.theta[1:] ** 2) == pytest.approx(1.0, rel=1e-12)
    assert fit_irt(s, n, model="rasch").scale == 1.0


def test_se_given_scale_is_the_laplace_se_conditioned_on_the_scale():
    # the mode's Laplace SEs with the scale held fixed, carried to the reported scale (theta / c, a x c): what rank
    # ties and the possibly_mislabeled sign test use
    _, _, _, s, n = simulate(10, 30, 4, seed=5)
    fit = fit_irt(s, n, b_prior="fixed")
    x, _, _, _ = irt.newton_mode(irt._start(*irt.check_counts(s, n), False), *irt.check_counts(s, n), PRIORS)
    theta_se0, _, a_se0 = irt.laplace_se(x, *irt.check_counts(s, n), PRIORS, False, fix_scale=x[:10])
    assert fit.scale_var > 0
    assert np.allclose(fit.se_given_scale(fit.theta, fit.theta_se), theta_se0 / fit.scale, rtol=1e-6)
    assert np.allclose(fit.se_given_scale(fit.a, fit.a_se), a_se0 * fit.scale, rtol=1e-6)
    rasch = fit_irt(s, n, model="rasch")
    assert np.array_equal(rasch.se_given_scale(rasch.theta, rasch.theta_se), rasch.theta_se)


@pytest.mark.parametrize("model", ["2pl", "rasch"])
def test_gradient_matches_finite_differences(model):
    _, _, _, s, n = simulate(5, 7, 3, seed=2)
    n[0, 1] = s[0, 1] = 0  # a missing cell
    rasch = model == "rasch"
    x = np.random.default_rng(3).normal(size=5 + 7 * (1 if rasch else 2))
    err = check_grad(lambda v: neg_log_posterior(v, s, n, PRIORS, rasch)[0],
                     lambda v: neg_log_posterior(v, s, n, PRIORS, rasch)[1], x)
    assert err < 1e-4 * np.sqrt(x.size)


def test_rasch_hand_case_is_symmetric():
    # model 1 solves both questions twice, model 0 none: swapping the models turns the table into its complement,
    # so theta is equal and opposite; the two questions are identical, and the priors centre them at b = 0
    fit = fit_irt([[0, 0], [2, 2]], [[2, 2], [2, 2]], model="rasch")
    assert fit.theta[0] == pytest.approx(-fit.theta[1], abs=1e-8) and fit.theta[1] > 0
    assert fit.b[0] == pytest.approx(fit.b[1], abs=1e-8) and fit.b[0] == pytest.approx(0, abs=1e-8)
    # [[1, 0], [2, 1]] of 2: swapping models and questions gives the complement (successes -> failures), and the
    # priors are symmetric about 0, so theta_0 = -theta_1 and b_0 = -b_1 (question 0, solved 3 of 4, is the easier)
    fit = fit_irt([[1, 0], [2, 1]], [[2, 2], [2, 2]], model="rasch")
    assert fit.b[0] < 0 < fit.b[1] and fit.theta[0] < 0 < fit.theta[1]
    assert fit.b[0] == pytest.approx(-fit.b[1], abs=1e-8) and fit.theta[0] == pytest.approx(-fit.theta[1], abs=1e-8)
    assert np.all(fit.a == 1) and np.all(fit.a_se == 0)


def test_extremes_are_finite_and_flagged_as_prior():
    s = np.array([[3, 0, 0], [3, 0, 1], [3, 0, 2]])
    n = np.array([[3, 3, 0], [3, 3, 3], [3, 3, 3]])
    n = np.vstack([n, np.zeros(3, int)])  # a model with no answer
    s = np.vstack([s, np.zeros(3, int)])
    fit = fit_irt(s, n)
    for x in (fit.theta, fit.theta_se, fit.b, fit.b_se, fit.a, fit.a_se):
        assert np.all(np.isfinite(x))
    assert fit.unanswered_models == ("3",)
    assert fit.theta[3] == pytest.approx(0, abs=1e-6)
    assert fit.b[0] < fit.b[2] < fit.b[1]  # all correct < mixed < all wrong


def test_disjoint_question_sets_and_one_trial():
    s = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]])
    n = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]])
    for model in ("2pl", "rasch"):
        fit = fit_irt(s, n, model=model)
        assert fit.converged and np.all(np.isfinite(fit.theta_se))


def test_one_model():
    fit = fit_irt([[1, 0, 2]], [[2, 2, 2]], model="rasch")
    assert fit.converged and fit.b[1] > fit.b[0] > fit.b[2]
    with pytest.raises(InputError, match="at least 2 models"):
        fit_irt([[1, 0, 2]], [[2, 2, 2]])


def _perm_fit(s, n, model):
    return fit_irt(s, n, model=model, tol=1e-11)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 6), st.sampled_from(["2pl", "rasch"]))
@example(1418, 2, 2, "2pl")  # both models at ability ~1e-17: the SEs were conditioned on rounding's direction (7% apart)
def test_permutation_invariance(seed, L, M, model):
    rng = np.random.default_rng(seed)
    n = rng.integers(0, 4, size=(L, M))
    assume(n.any())  # a table without any trial is refused (fit_irt: nothing to fit), not a permutation case
    s = rng.binomial(n, 0.5)
    pm, pq = rng.permutation(L), rng.permutation(M)
    f, g = _perm_fit(s, n, model), _perm_fit(s[pm][:, pq], n[pm][:, pq], model)
    for x, y in ((f.theta[pm], g.theta), (f.b[pq], g.b), (f.a[pq], g.a)):
        np.testing.assert_allclose(x, y, atol=1e-5)
    # standard errors invert the Hessian at the mode: with two models the 2PL's is ill-conditioned and relabelling
    # moves its inverse by rounding (seed 116, L = 2, M = 6: equal modes to 1e-20, SEs 1.5e-5 relative apart)
    for x, y in ((f.b_se[pq], g.b_se), (f.theta_se[pm], g.theta_se)):
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(1, 5), st.sampled_from(["2pl", "rasch"]))
def test_missing_rows_and_columns_equal_dropping_them(seed, L, M, model):
    rng = np.random.default_rng(seed)
    n = rng.integers(1, 4, size=(L, M))
    s = rng.binomial(n, 0.6)
    big_n = np.zeros((L + 1, M + 1), int)
    big_s = np.zeros_like(big_n)
    big_n[:L, 1:], big_s[:L, 1:] = n, s  # question 0 and the last model: every cell missing
    f, g = _perm_fit(s, n, model), _perm_fit(big_s, big_n, model)
    np.testing.assert_allclose(g.theta[:L], f.theta, atol=1e-5)
    np.testing.assert_allclose(g.b[1:], f.b, atol=1e-5)
    np.testing.assert_allclose(g.a[1:], f.a, atol=1e-5)
    assert g.theta[L] == pytest.approx(0, abs=1e-6) and g.b[0] == pytest.approx(0, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 6), st.sampled_from(["zeros", "ones", "random"]),
       st.sampled_from(["2pl", "rasch"]))
def test_finite_on_random_small_inputs(seed, L, M, kind, model):
    rng = np.random.default_rng(seed)
    n = rng.integers(0, 5, size=(L, M))
    assume(n.any())  # a table without any trial is refused (fit_irt: nothing to fit; tested on its own)
    s = {"zeros": np.zeros_like(n), "ones": n, "random": rng.binomial(n, 0.5)}[kind]
    fit = fit_irt(s, n, model=model)
    assert fit.converged
    for x in (fit.theta, fit.theta_se, fit.b, fit.b_se, fit.a, fit.a_se, [fit.log_posterior]):
        assert np.all(np.isfinite(x))


def test_information():
    np.testing.assert_allclose(item_information([1.0, 2.0], [0.0, 0.0], [0.0, 10.0]),
                               [[0.25, expit(10) * expit(-10)], [1.0, 4 * expit(20) * expit(-20)]])
    np.testing.assert_allclose(irt.test_information([1.0, 2.0], [0.0, 0.0], [0.0]), [1.25])


def test_from_outcomes():
    counts = np.array([[[1, 1, 0], [0, 0, 0]], [[0, 1, 1], [2, 0, 0]]])
    out = Outcomes(task="t", models=("m1", "m2"), questions=("q1", "q2"), weights=np.array([0.0, 0.5, 1.0]),
                   labels=("w", "p", "c"), counts=counts)
    s, n, models, questions = from_outcomes(out)
    np.testing.assert_allclose(s, [[0.5, 0], [1.5, 0]])
    np.testing.assert_allclose(n, [[2, 0], [2, 2]])
    assert models == ("m1", "m2") and questions == ("q1", "q2")
    bad = Outcomes(task="t", models=("m",), questions=("q",), weights=np.array([0.0, 2.0]), labels=("a", "b"),
                   counts=np.ones((1, 1, 2), int))
    with pytest.raises(InputError, match="weights in \\[0, 1\\]"):
        from_outcomes(bad)


@pytest.mark.parametrize("s, n, match", [
    ([[1, 0]], [[1, 1, 1]], "'successes' has shape"),
    ([1, 0], [1, 1], "'successes' must be a 2-D table"),
    ([[1, -1]], [[1, 1]], "'successes' must be non-negative"),
    ([[1, 0]], [[1, -2]], "'trials' must be non-negative"),
    ([[2, 0]], [[1, 1]], "'successes' exceeds 'trials' at model 0, question 0"),
    ([[0.5, 0]], [[1.5, 1]], "'trials' must be whole numbers"),
    ([[np.nan, 0]], [[1, 1]], "'successes' must be finite"),
    (np.zeros((0, 2)), np.zeros((0, 2)), "'trials' is empty"),
    (np.zeros((3, 4)), np.zeros((3, 4)), "every cell has 0 trials"),  # all missing: was the priors, unrefused
])
def test_bad_input(s, n, match):
    with pytest.raises(InputError, match=match):
        fit_irt(s, n, model="rasch")


def test_bad_model_and_names():
    with pytest.raises(InputError, match="unknown IRT model '3pl'"):
        fit_irt([[1]], [[1]], model="3pl")
    with pytest.raises(InputError, match="question names"):
        fit_irt([[1], [0]], [[1], [1]], questions=["a", "b"])


