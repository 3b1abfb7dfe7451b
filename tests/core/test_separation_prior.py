"""Trials needed under the prior the user chose (issue 13: priors on every view)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.eval.batch import bayes_batch
from scorio_core.ranking.separation import trials_needed
from scorio_core.uncertainty import bayes_dirichlet, fit_dirichlet_prior, projection_alpha
from tests.paths import MATHARENA

A = [[20, 60]] * 30  # 75% on each of 30 questions, N = 80
B = [[24, 56]] * 30  # 70%


def test_uniform_pseudo_counts_are_the_default():
    base = trials_needed(A, B)
    same = trials_needed(A, B, alpha_a=[1, 1], alpha_b=[1.0, 1.0])
    assert (base.n_needed, base.n_power, base.n_power_range) == (same.n_needed, same.n_power, same.n_power_range)
    np.testing.assert_array_equal(base.z, same.z)


def test_projection_follows_eq15_with_real_pseudo_counts():
    alpha = np.array([0.5, 0.5])
    res = trials_needed(A, B, alpha_a=alpha, alpha_b=alpha, n_max=200)
    # z at N: rates fixed at (counts + alpha) / (80 + 1), counts N * rates, Dirichlet(alpha) posterior of Eq. 15
    for N in (1, 80, 200):
        moments = []
        for c in (np.array(A[0]), np.array(B[0])):
            rates = (c + alpha) / (c + alpha).sum()
            mu, sigma = bayes_dirichlet(np.tile(N * rates, (30, 1)), [0.0, 1.0], alpha)
            moments.append((mu, sigma))
        (ma, sa), (mb, sb) = moments
        assert res.z[N - 1] == pytest.approx(abs(ma - mb) / np.hypot(sa, sb), rel=1e-12)
    assert res.n_needed == 16 and res.n_power == 35  # uniform: 17 and 37 (doctest)


def test_bad_pseudo_counts():
    with pytest.raises(ValueError, match="alpha_a must hold 2 finite pseudo-counts > 0"):
        trials_needed(A, B, alpha_a=[0.0, 1.0])
    with pytest.raises(ValueError, match="alpha_b"):
        trials_needed(A, B, alpha_b=[1.0, 1.0, 1.0])


def test_projection_alpha():
    counts = np.tile([[3, 1], [0, 4], [2, 2], [4, 0], [1, 3]], (2, 1))  # 10 questions: MIN_REPEATED_QUESTIONS
    assert projection_alpha(counts, "uniform")[0].tolist() == [1.0, 1.0]
    assert projection_alpha(counts, "jeffreys")[0].tolist() == [0.5, 0.5]
    alpha, note = projection_alpha(counts, "empirical-bayes")
    np.testing.assert_allclose(alpha, fit_dirichlet_prior(counts).alpha)
    assert note == ""
    alpha, note = projection_alpha(np.array([[0, 4], [0, 4]]), "empirical-bayes")  # all correct: not identified
    assert alpha.tolist() == [1.0, 1.0] and note == ("the empirical-Bayes prior is not identified for this model "
                                                     "(every trial in one category); the projection uses the uniform "
                                                     "prior")  # plain words, not the fit's method code
    _, note = projection_alpha(np.array([[0, 1], [1, 0], [1, 0]]), "empirical-bayes")  # N = 1: its cause, not the rule
    assert note == ("the empirical-Bayes prior is not identified for this model (N = 1: one trial per question); the "
                    "projection uses the uniform prior")
    _, note = projection_alpha(np.array([[0, 2], [1, 1], [1, 0]]), "empirical-bayes")  # N = 2 on 3 questions: the rule
    assert ("(N = 1, fewer than 10 questions tried twice or more, fewer than 20 pairs of trials of a question (N = "
            "2 on fewer than 20 questions), or fewer than 2 questions whose trials disagree)") in note and "fallback" not in note


def test_uniform_reference_equality_kept():
    # the projection at the observed N with alpha = 1 is the paper's Bayes@N on the observed rates' expectation
    mu, sigma = bayes_batch(np.array(A)[None], np.array([0.0, 1.0]))
    assert mu[0] == pytest.approx((60 + 1) / 82)  # hand: (c + 1) / (N + 2)


@pytest.mark.parametrize("prior", ["uniform", "jeffreys", "empirical-bayes"])
def test_cli_compare_records_the_prior(capsys, prior):
    code = main(["compare", str(MATHARENA), "--models", "o3-mini (high)", "o1 (medium)", "--prior", prior,
                 "--output", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["trials_needed"]["prior"] == prior == report["settings"]["prior"]
    assert isinstance(report["trials_needed"]["prior_notes"], list)


def test_one_note_when_both_models_fall_back_alike(tmp_path, capsys):
    # N = 1 for both models: one sentence naming both and the cause, not the same rule twice (QA 2026-12-03)
    rows = ["model,question_id,is_correct"] + [f"{m},q{q},{(q + i) % 2}" for i, m in enumerate("ab") for q in range(12)]
    path = tmp_path / "n1.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["compare", str(path), "--models", "a", "b", "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["trials_needed"]["prior_notes"]
    assert notes == ["a and b: the empirical-Bayes prior is not identified for either model (N = 1: one trial per "
                     "question); the projection uses the uniform prior"]
