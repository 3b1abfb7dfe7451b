"""Skewed spreads in the rank comparisons: rows whose empirical-Bayes prior is not identified (exact-binomial rows,
e.g. N = 1) are compared with the Beta the rank distribution draws them from, on the side facing the other model
(``sigma`` below the mean, ``sigma_up`` above), not a symmetric normal that puts mass on impossible scores.

QA (a leaderboard maintainer's 300-model dump): a model that ran each of 27 questions once, 26 right (0.963, binomial
sd 0.036, exact interval [0.810, 0.999]), was ranked credibly better than 238 of 245 models, 13 of them with means
inside its interval, and 5 of the top 12 were N = 1 models.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtr, ndtri
from scipy.stats import beta

from scorio_core.cli import main
from scorio_core.ranking.rank import paper_chains, pairwise_confidence, ranks_with_ties
from scorio_core.uncertainty.fallback import beta_sides

Z95 = 1.959963984540054


def _brute_pairwise(mu, down, up, confidence):
    z = ndtri(confidence)
    better = (mu[None, :] - mu[:, None] > 1e-12) & (mu[None, :] - mu[:, None] >= z * np.sqrt(up[:, None] ** 2 + down[None, :] ** 2))
    return 1 + better.sum(axis=1)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 150), st.integers(0, 2**31 - 1), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_grouped_pairwise_ranks_equal_the_all_pairs_rule_with_skewed_spreads(n, seed, confidence):
    rng = np.random.default_rng(seed)
    mu = np.round(rng.uniform(0, 1, n), int(rng.integers(1, 4)))  # rounding makes equal means
    down, up = rng.uniform(0, 0.1, n), rng.uniform(0, 0.1, n)
    assert np.array_equal(ranks_with_ties(mu, down, confidence, rule="pairwise", sigma_up=up),
                          _brute_pairwise(mu, down, up, confidence))
    assert np.array_equal(ranks_with_ties(mu, down, confidence, rule="pairwise", sigma_up=down),
                          ranks_with_ties(mu, down, confidence, rule="pairwise"))  # symmetric: as before
    rho = pairwise_confidence(mu, down, up)
    assert np.allclose(rho + rho.T, 1.0)
    i, j = np.unravel_index(np.argmax(mu[:, None] - mu[None, :]), (n, n))  # i far above j
    if mu[i] > mu[j] and np.hypot(down[i], up[j]) > 0:
        assert rho[i, j] == pytest.approx(float(ndtr((mu[i] - mu[j]) / np.hypot(down[i], up[j]))), rel=1e-12)


def test_each_rule_uses_the_higher_models_spread_below_and_the_lower_models_above():
    # a 0.90 with 0.05 below and 0.01 above; b 0.80 with 0.01 both sides; c 0.95 with 0.01 both
    mu, down, up = np.array([0.90, 0.80, 0.95]), np.array([0.05, 0.01, 0.01]), np.array([0.01, 0.01, 0.01])
    # a vs b: z = 0.10 / hypot(0.05, 0.01) = 1.96 >= 1.645; c vs a: 0.05 / hypot(0.01, 0.01) = 3.54
    assert ranks_with_ties(mu, down, rule="pairwise", sigma_up=up).tolist() == [2, 3, 1]
    # with a's 0.05 on both sides, c vs a: 0.05 / hypot(0.01, 0.05) = 0.98: c is not credibly above a
    assert ranks_with_ties(mu, down, rule="pairwise").tolist() == [1, 3, 1]
    # upper-bound: a's interval [0.90 - 1.96 * 0.05, 0.90 + 1.96 * 0.01] = [0.802, 0.920]; b's hi 0.8196 < 0.802? no
    assert ranks_with_ties(mu, down, rule="upper-bound", sigma_up=up).tolist() == [2, 2, 1]
    # paper: c | a: 0.05 / hypot(0.01 (c below), 0.01 (a above)) = 3.5 -> new rank; a | b: 0.10 / hypot(0.05, 0.01)
    assert ranks_with_ties(mu, down, rule="paper", sigma_up=up).tolist() == [2, 3, 1]
    assert paper_chains(mu, down, sigma_up=up) == []


def test_beta_sides_are_the_moment_matched_betas_quantiles_by_hand():
    x, sd = 26 / 27, float(np.sqrt(26 / 27 * (1 / 27) / 27))
    k = x * (1 - x) / sd**2 - 1  # = 26 exactly: Beta(26 x, 26 (1 - x))
    assert k == pytest.approx(26.0)
    down, up = beta_sides([x], [sd])
    assert down[0] == pytest.approx((x - beta.ppf(0.025, 26 * x, 26 * (1 - x))) / Z95, rel=1e-9)
    assert up[0] == pytest.approx((beta.ppf(0.975, 26 * x, 26 * (1 - x)) - x) / Z95, rel=1e-9)
    assert down[0] > sd > up[0]  # skewed toward the lower scores
    # no Beta: sd 0, an estimate at a bound, a variance no score in [0, 1] has, a rubric scale
    d, u = beta_sides([0.5, 1.0, 0.5, 1.5], [0.0, 0.1, 0.5, 0.2], 0.0, 1.0)
    assert d.tolist() == u.tolist() == [0.0, 0.1, 0.5, 0.2]
    d2, u2 = beta_sides([2 * x], [2 * sd], 0.0, 2.0)  # the same Beta on [0, 2]: twice the spreads
    assert (d2[0], u2[0]) == pytest.approx((2 * down[0], 2 * up[0]), rel=1e-12)
    # so skewed that its 2.5% quantile lies above the mean (Beta(3.0, 0.0008): a Pass@6 row found by hypothesis,
    # which made `down` negative and the leaderboard raise): the symmetric sd on that side, never a negative spread
    d3, u3 = beta_sides([0.99972944], [0.00822328])
    assert beta.ppf(0.025, *_beta_params(0.99972944, 0.00822328)) > 0.99972944
    assert d3[0] == pytest.approx(0.00822328) and 0 < u3[0] < 0.00822328


def _beta_params(x, sd):
    k = x * (1 - x) / sd**2 - 1
    return x * k, (1 - x) * k


def test_an_n1_model_near_1_is_not_credibly_above_a_well_measured_model_inside_its_range(tmp_path, capsys):
    """The QA case in small: n1 ran 27 questions once, 26 right; many ran the same 27 questions 16 times at about
    0.895 (sd ~0.015). The symmetric binomial sd (0.036) put many credibly below (z = 1.75); the Beta's spread below
    (0.050) does not (z = 1.34), while a model far lower (0.70) stays credibly below."""
    rows = ["model,question,trial,correct"]
    rows += [f"n1,q{q},0,{int(q != 0)}" for q in range(27)]
    right = [14, 15, 14, 14, 15, 14, 14, 15, 14, 14] * 3  # of 16 per question: mean 0.894
    rows += [f"many,q{q},{t},{int(t < right[q])}" for q in range(27) for t in range(16)]
    low = [11, 12, 10, 13, 11, 12, 10, 11, 12, 10] * 3
    rows += [f"low,q{q},{t},{int(t < low[q])}" for q in range(27) for t in range(16)]
    path = tmp_path / "mixed.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    board = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    n1, many = board["n1"], board["many"]
    assert n1["interval_kind"] == "exact-binomial" and n1["sigma"] == pytest.approx(np.sqrt(26 / 27 / 27 / 27))
    symmetric = ranks_with_ties([n1["mu"], many["mu"]], [n1["sigma"], many["sigma"]], rule="pairwise").tolist()
    assert symmetric == [1, 2]  # what the leaderboard said before
    assert (n1["rank_ci"], many["rank_ci"]) == (1, 1)
    assert board["low"]["rank_ci"] == 3
    assert main(["compare", str(path), "--models", "n1", "many", "--output", "json"]) == 0
    p = json.loads(capsys.readouterr().out)["difference"]["p_a_gt_b"]
    assert 0.5 < p < 0.95  # as rank_ci: not credible at 95% (the symmetric normal said 0.96)
