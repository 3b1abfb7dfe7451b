"""``ranks``' ``method`` says how the draws were made: at N = 1 (empirical-Bayes prior not identified) every model is
drawn from a Beta matched to its pooled rate, which the output called "exact draws of every model's per-question
Dirichlet posterior" beside a ``prior_note`` saying the opposite (QA sweep on 250 models x 300 questions, N = 1)."""

from __future__ import annotations

import json

from scorio_core.cli import main
from scorio_core.ranking.posterior_ranks import RANK_METHOD


def _ranks(tmp_path, capsys, *extra) -> dict:
    path = tmp_path / "once.csv"
    path.write_text("model,question_id,is_correct\n" + "".join(
        f"m{i},q{q},{int((q * (i + 2)) % 5 < 2 + i % 2)}\n" for i in range(4) for q in range(12)))
    assert main(["ranks", str(path), *extra, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_trial_under_the_default_prior_says_beta_draws(tmp_path, capsys):
    doc = _ranks(tmp_path, capsys)
    assert "Dirichlet posterior" not in doc["method"] and "Beta moment-matched" in doc["method"]
    assert "not posterior draws" in doc["method"]


def test_an_identified_prior_keeps_the_dirichlet_description(tmp_path, capsys):
    assert _ranks(tmp_path, capsys, "--prior", "uniform")["method"] == RANK_METHOD
