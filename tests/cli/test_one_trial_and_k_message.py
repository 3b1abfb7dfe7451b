"""``trajectory`` on N = 1 says why it says nothing; ``--k`` above the fewest trials names the fewest and the most.

Before: ``trajectory`` on one trial per question returned exit 0 with ``notes: []`` beside kendall_tau [1.0];
``leaderboard --metric pass@k --k 3`` on questions with 1 to 5 trials said "the most is N = 1".
"""

from __future__ import annotations

import json

from scorio_core.cli import main


def _csv(tmp_path, name, trials_per_question):
    rows = ["model,question_id,trial,correct"]
    for m in range(3):
        for q, n in enumerate(trials_per_question):
            rows += [f"m{m},q{q},{t},{int((m + q + t) % 3 == 0)}" for t in range(n)]
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_trajectory_with_one_trial_notes_it(tmp_path, capsys):
    path = _csv(tmp_path, "n1.csv", [1] * 6)
    assert main(["trajectory", path, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == [1] and out["convergence"] is None
    assert len(out["notes"]) == 1
    assert out["notes"][0]["message"].startswith("N = 1 trial per question: a trajectory needs at least 2 trials per question")
    assert "run N >= 2 trials per question" in out["notes"][0]["message"] and out["notes"][0]["code"] == "one_trial"
    assert main(["trajectory", path]) == 0  # the table says it too
    assert "note: N = 1 trial per question" in capsys.readouterr().out
    # two trials: no such note
    assert main(["trajectory", _csv(tmp_path, "n2.csv", [2] * 6), "--output", "json"]) == 0
    assert not any("N = 1" in n for n in json.loads(capsys.readouterr().out)["notes"])


def test_k_above_the_fewest_trials_names_fewest_and_most(tmp_path, capsys):
    path = _csv(tmp_path, "mixed.csv", [1, 5, 3, 5])  # every model: 1 trial on q0, up to 5 elsewhere
    assert main(["leaderboard", path, "--metric", "pass@k", "--k", "3"]) == 2
    err = capsys.readouterr().err
    assert ("--k 3 is more than the fewest trials per question of every model (the fewest is N = 1, the most N = 5): "
            "pass@k needs k trials on every question; choose --k 1 or smaller, or keep the questions with at least "
            "3 trials (run more trials on the others).") in err
    assert "the most is N = 1" not in err
    assert main(["leaderboard", path, "--metric", "pass@k", "--k", "6"]) == 2
    assert "choose --k 1 or smaller (no question has more than 5 trials)." in capsys.readouterr().err
    path = _csv(tmp_path, "equal.csv", [4] * 4)
    assert main(["leaderboard", path, "--metric", "pass@k", "--k", "5"]) == 2
    assert "(every question has N = 4 trials): pass@k needs k <= N; choose --k 4 or smaller" in capsys.readouterr().err
