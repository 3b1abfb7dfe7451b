"""Method agreement (issue 38) under the leaderboard's "missing counts as incorrect": the filled cells are counted,
Bayes@N ranks as the leaderboard's under the same set, the CLI passes the choice through."""

from __future__ import annotations

import json

from scorio_core import io
from scorio_core.cli import main
from scorio_core.leaderboard.methods import method_agreement
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from tests.core.test_method_agreement import _write


def test_missing_counts_as_incorrect_ranks_disjoint_models_and_says_how_many_cells(tmp_path, capsys):
    # as above: no question has all three; missing-incorrect fills the 7 missing cells with 3 wrong trials each
    # (3: the most any model tried each question), so every model has 5 questions x 3 trials:
    # x solved q0, q1 (6 of 15), y q2 (3 of 15), z q4 (3 of 15)
    path = _write(tmp_path, {"x": {0, 1}, "y": {2}, "z": {4}},
                  missing={("z", 0), ("z", 1), ("z", 2), ("x", 3), ("x", 4), ("y", 3), ("y", 4)})
    outcomes = outcomes_for(io.load([path]))
    report = method_agreement(outcomes, ["bayes", "avg"], question_set="missing-incorrect")
    assert report.question_set == "missing-incorrect" and (report.n_questions, report.n_trials) == (5, 3)
    assert report.notes[0].startswith("7 missing (model, question) cells counted as answered wrongly")
    avg = dict(zip(report.agreement.models, report.agreement.ranks[report.agreement.methods.index("avg")]))
    assert avg == {"x": 1.0, "y": 2.0, "z": 2.0}  # 6/15 against 3/15 and 3/15
    board = leaderboard(outcomes, question_set="missing-incorrect").set_index("model")  # Bayes@N as the leaderboard's
    bayes = dict(zip(report.agreement.models, report.agreement.ranks[0]))
    assert all(bayes[m] == board.loc[m, "rank"] for m in bayes)
    main(["methods", path, "--methods", "bayes,avg", "--question-set", "missing-incorrect", "--output", "json"])
    task = json.loads(capsys.readouterr().out)["tasks"][0]
    assert task["question_set"] == "missing-incorrect" and task["n_questions"] == 5
    assert any("7 missing (model, question) cells" in n["message"] for n in task["notes"])
