"""QA (a lead's export): two models whose every question is solved twice or failed twice, two questions apart, were
shown as "steady ranks first ... ahead of rival with > 99.9% posterior probability" on intervals of +-0.008: the
empirical-Bayes fit put every question at 0 or 1 (no question's trials disagree, so its strength is not identified)."""

from __future__ import annotations

import json

import pytest
from scipy import stats

from scorio_core.cli import main


def test_all_or_nothing_questions_give_no_confident_leader(tmp_path, capsys):
    rows = [f"steady,q{q},{t},{int(q != 0)}" for q in range(20) for t in range(2)]
    rows += [f"rival,q{q},{t},{int(q >= 3)}" for q in range(20) for t in range(2)]
    path = tmp_path / "g2.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    board = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    steady = board["steady"]  # hand: the exact interval of 38 of 40 answers, not a posterior over 0/1 questions
    assert (steady["lo"], steady["hi"]) == pytest.approx((stats.beta.ppf(0.025, 38, 3), stats.beta.ppf(0.975, 39, 2)),
                                                         abs=1e-9)
    assert steady["interval"].startswith("95% exact binomial (Clopper-Pearson) interval on the pooled answers")
    assert "fewer than 2 questions whose trials disagree" in steady["interval"]
    assert steady["rank_ci"] == board["rival"]["rank_ci"]  # tied at 95%: two questions do not separate them
    assert main(["export", str(path), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert "No single leader at the 95% level" in out and "99.9%" not in out
