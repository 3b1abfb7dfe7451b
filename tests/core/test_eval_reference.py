"""Reference values for the evaluation API, each with its provenance.

The reference docs' own examples also run as doctests of the public functions; this file
adds the other seed documents (paper listings, AISBench, skill-eval) and hand calculations.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorio_core import eval as ev

R_BIN = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])  # reference docs' binary example
R_CAT = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])  # reference docs' categorical example
W3 = np.array([0.0, 0.5, 1.0])


@pytest.mark.parametrize(
    ("call", "expected", "digits"),
    [
        (lambda: ev.bayes(R_CAT, W3, np.array([[0, 2], [1, 2]])), (0.575, 0.084275), 6),  # reference docs, bayes
        (lambda: ev.bayes(R_CAT, W3), (0.5625, 0.091998), 6),  # reference docs, bayes without prior
        (lambda: ev.bayes_ci(R_BIN, bounds=(0.0, 1.0)), (0.642857, 0.118451, 0.4107, 0.875), 4),  # reference docs
        (lambda: ev.avg(R_BIN), (0.7, 0.165831), 6),  # reference docs, avg
        (lambda: ev.avg(R_CAT, W3), (0.6, 0.147196), 6),  # reference docs, weighted avg
        (lambda: ev.avg_ci(R_BIN, bounds=(0.0, 1.0)), (0.7, 0.1658, 0.375, 1.0), 4),  # reference docs
        (lambda: ev.avg_ci(R_CAT, W3), (0.6, 0.1472, 0.3115, 0.8885), 4),  # reference docs
        (lambda: ev.pass_at_k_ci(R_BIN, 2), (0.839286, 0.097263, 0.6487, 1.0), 4),  # reference docs
        (lambda: ev.pass_hat_k_ci(R_BIN, 2), (0.446429, 0.146167, 0.1599, 0.7329), 4),  # reference docs
        (lambda: ev.maj_at_k_ci(R_BIN, 3), (0.684524, 0.151958, 0.3867, 0.9824), 4),  # reference docs
        (lambda: ev.geom_at_k_ci(R_BIN, 2), (0.610666, 0.133107, 0.3498, 0.8716), 4),  # reference docs
        (lambda: ev.geom_ds_at_k_ci(R_BIN, 2), (0.612112, 0.132755, 0.3519, 0.8723), 4),  # reference docs
        (lambda: ev.max_at_k_ci(R_CAT, 2, w=W3), (0.75, 0.08812, 0.5773, 0.9227), 4),  # reference docs
    ],
)
def test_reference_doc_examples(call, expected, digits):
    got = call()
    assert tuple(round(v, digits) for v in got) == tuple(round(v, digits) for v in expected)


def test_paper_listing3_graded_rubric_by_hand():
    # paper Appendix G, Listing 3: R = [[0,2,1,0,2],[2,1,1,2,1]], w = (0, .5, 1), T = 8.
    # hand: nu = (3,2,3) and (1,4,3); mu = (4 + 5) / 16; row variances 0.1875 and 0.109375
    R = np.array([[0, 2, 1, 0, 2], [2, 1, 1, 2, 1]])
    mu, sigma = ev.bayes(R, W3)
    assert mu == pytest.approx(9 / 16, abs=1e-15)
    assert sigma == pytest.approx(math.sqrt((0.1875 + 0.109375) / (4 * 9)), rel=1e-13)


def test_paper_eq19_affine_relation_and_eq20():
    # paper Appendix B: mu = A + N/(1+C+N) a with A = sum(w)/(1+C+N); sigma_avg = T/N sigma
    R = R_CAT
    mu, sigma = ev.bayes(R, W3)
    a, sigma_a = ev.avg(R, W3)
    T, N = 1 + 2 + 5, 5
    assert mu == pytest.approx(W3.sum() / T + N / T * a, abs=1e-15)
    assert sigma_a == pytest.approx(T / N * sigma, rel=1e-13)


def test_aisbench_worked_example():
    # AISBench notes 2.3: n = k = 3; correct counts 2, 2, 1, 0 -> pass@3 .75, avg@3 .4167, cons@3 .5
    R = np.array([[1, 1, 0], [1, 0, 1], [0, 0, 1], [0, 0, 0]])
    assert ev.pass_at_k(R, 3) == pytest.approx(0.75)
    assert round(ev.avg(R)[0], 4) == 0.4167
    assert ev.cons_at_k(R) == 0.5
    assert ev.cons_at_k(R) == ev.maj_at_k(R, 3)  # cons@k is maj@k at k = N


def test_aisbench_pass_at_k_example():
    # AISBench notes 1.1: n=5, c=3, k=2 -> 1 - C(2,2)/C(5,2) = 0.9; and the product form
    R = np.array([[1, 1, 1, 0, 0]])
    assert ev.pass_at_k(R, 2) == pytest.approx(0.9)
    assert ev.pass_at_k(R, 2) == pytest.approx(1 - np.prod(1.0 - 2 / np.arange(5 - 3 + 1, 5 + 1)))
    # n=100, c=20 example: single-sample pass rate 0.2 = Pass@1
    R = np.array([[1] * 20 + [0] * 80])
    assert ev.pass_at_k(R, 1) == pytest.approx(0.2)


def test_skill_eval_examples():
    # ts-skill-eval-scoring: passAtK(5, 3, 5) = 1.0; passToTheK(0.8, 5) = 0.328
    assert ev.pass_at_k(np.array([[1, 1, 1, 0, 0]]), 5) == 1.0
    assert round(ev.pass_hat_k_naive(0.8, 5), 3) == 0.328
    # computeMultiTrialMetrics([T, T, F, T, T]) -> rate 0.8, passAtK 0.99 (naive), passToTheK 0.33
    assert math.floor(ev.pass_at_k_naive(0.8, 5) * 100) / 100 == 0.99
    assert round(ev.pass_hat_k_naive(0.8, 5), 2) == 0.33
    flaky = ev.flakiness(np.array([[1, 1, 0, 1, 1]]))
    assert flaky.flaky.tolist() == [True] and flaky.percent.tolist() == [20.0]  # minority 1 of 5


def test_competition_ranks_julia_example():
    # reference Julia docs: [0.95, 0.87, 0.87, 0.72, 0.65] -> [1, 2, 2, 4, 5]
    assert ev.competition_ranks_from_scores([0.95, 0.87, 0.87, 0.72, 0.65]).tolist() == [1, 2, 2, 4, 5]
    assert ev.competition_ranks_from_scores([0.5, 0.5 + 1e-13, 0.1]).tolist() == [1, 1, 3]  # within tol
    assert ev.competition_ranks_from_scores([0.1, 0.3, 0.2]).tolist() == [3, 1, 2]


def test_julia_avg_and_gpass_examples():
    # reference Julia docs: avg(R) = 0.7; g_pass_at_k_tao(R, 2, 0.5) = 0.95; (R, 2, 1.0) = 0.45
    assert ev.avg(R_BIN)[0] == pytest.approx(0.7)
    assert ev.g_pass_at_k_tau(R_BIN, 2, 0.5) == pytest.approx(0.95)
    assert ev.g_pass_at_k_tau(R_BIN, 2, 1.0) == pytest.approx(0.45)
    assert round(ev.mg_pass_at_k(R_BIN, 3), 6) == 0.166667  # reference Julia docs


def test_mg_pass_hand_calculation():
    # mG-Pass@3, m = 2: row [0,1,1,0,1] c=3: (2/3)*1*P(X=3) = (2/3)(1/10); row c=4: (2/3)*P(X=3) = (2/3)(4/10)
    expected = ((2 / 3) * (1 / 10) + (2 / 3) * (4 / 10)) / 2
    assert ev.mg_pass_at_k(R_BIN, 3) == pytest.approx(expected, abs=1e-15)


def test_tau_threshold_float_roundoff():
    # 0.3 * 10 = 3.0000000000000004 must still require 3 successes (ceil would give 4)
    R = np.array([[1, 1, 1, 0, 0, 0, 0, 0, 0, 0]])
    assert ev.g_pass_at_k_tau(R, 10, 0.3) == 1.0
