"""``plan``'s decision: the goal holds, nothing can be run under the limits, or continue; and no goal across groups
of models that share no question (QA: it declared a winner between groups answering disjoint questions)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.report.notes import note_messages

#: Success probability of each model; a1, a2 answer q00-q09 only, b1, b2 q10-q19 only (a2 strongest by far).
RATES = {"a1": 0.4, "a2": 0.95, "b1": 0.3, "b2": 0.5}


@pytest.fixture
def disjoint(tmp_path):
    rng = np.random.default_rng(0)
    rows = [f"{m},q{q:02d},{t},{int(rng.random() < p)}" for m, p in RATES.items()
            for q in (range(10) if m[0] == "a" else range(10, 20)) for t in range(4)]
    path = tmp_path / "disjoint.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    return path


@pytest.fixture
def n1(tmp_path):
    rng = np.random.default_rng(1)
    rates = np.array([0.5, 0.55, 0.6, 0.62, 0.7])
    rows = [f"m{l + 1},q{q:02d},0,{int(rng.random() < p)}" for l, p in enumerate(rates) for q in range(20)]
    path = tmp_path / "n1.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    return path


def _plan(capsys, *argv) -> dict:
    assert main(["plan", *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("goal", [["--goal", "top-1"], ["--goal", "top-k", "--k", "2"], ["--goal", "ranking"],
                                  ["--goal", "pair", "--pair", "a2", "b2"]])
def test_no_goal_across_groups_sharing_no_question(disjoint, capsys, goal):
    out = _plan(capsys, disjoint, *goal, "--seed", "0")
    assert out["stop"] is False and out["decision"] == "continue"
    assert out["goal"]["holds"] is False and out["goal"]["unlinked"] is True
    assert "share no question" in out["reason"] and "other groups' questions would answer it" in out["reason"]
    (notice,) = out["status"]["notices"]  # the leaderboard's coded notice
    assert notice["code"] == "disconnected_groups"
    assert sorted(map(sorted, notice["groups"])) == [["a1", "a2"], ["b1", "b2"]]
    assert main(["leaderboard", str(disjoint), "--output", "json"]) == 0
    (same,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "disconnected_groups"]
    assert notice["finding"] == same["finding"] and notice["groups"] == same["groups"]  # best first, as there
    assert notice["task"] == same["task"] == "disjoint"
    # the batch links the groups: each model runs the other group's questions, with no modelled gain
    batch = out["batch"]
    assert sum(r["trials"] for r in batch) == 200 and all(r["expected_gain"] is None for r in batch)
    own = {m: range(10) if m[0] == "a" else range(10, 20) for m in RATES}
    assert all(int(r["question_id"][1:]) not in own[r["model"]] for r in batch)
    planned = {r["model"] for r in batch}
    assert planned == ({"a2", "b2"} if "pair" in goal else set(RATES))


def test_linking_batch_connects_the_groups_and_then_the_goal_can_hold(disjoint, capsys):
    out = _plan(capsys, disjoint, "--goal", "top-1", "--batch", "4", "--seed", "0")
    rng = np.random.default_rng(5)
    rows = [f"{r['model']},{r['question_id']},{4 + i},{int(rng.random() < RATES[r['model']])}"
            for r in out["batch"] for i in range(r["trials"])]
    with disjoint.open("a") as f:
        f.write("\n".join(rows) + "\n")
    after = _plan(capsys, disjoint, "--goal", "top-1", "--seed", "0")
    assert after["status"]["notices"] == [] and after["goal"]["unlinked"] is False  # 4 trials link the two groups


def test_width_goal_and_a_pair_within_a_group_are_unaffected(disjoint, capsys):
    width = _plan(capsys, disjoint, "--goal", "width", "--width", "0.5")
    assert width["decision"] == "goal_holds" and width["goal"]["unlinked"] is False
    assert width["status"]["notices"][0]["code"] == "disconnected_groups"  # the data's groups are still said
    within = _plan(capsys, disjoint, "--goal", "pair", "--pair", "a1", "a2")
    assert within["goal"]["unlinked"] is False and within["decision"] == "goal_holds" and within["goal"]["holds"]


def test_table_output_carries_the_notice(disjoint, capsys):
    assert main(["plan", str(disjoint), "--goal", "top-1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# continue: top-1 cannot be decided")
    assert any(line.startswith("# note (disconnected_groups): The models fall into 2 groups") for line in lines)


def test_a_limit_shortens_the_linking_batch_and_says_so(disjoint, capsys):
    # the 40 unanswered cells that would link the groups may take 4 trials each: 160 of the 200 asked for
    out = _plan(capsys, disjoint, "--goal", "top-1", "--max-trials-per-question", "4")
    assert out["decision"] == "continue" and sum(r["trials"] for r in out["batch"]) == 160
    assert any("160 of the 200 trials" in n for n in note_messages(out["status"]["notes"]))


def test_stop_without_the_goal_is_cannot_progress_and_never_says_continue(n1, capsys):
    out = _plan(capsys, n1, "--goal", "top-1", "--max-trials-per-question", "1")
    assert out["stop"] is True and out["goal"]["holds"] is False and out["decision"] == "cannot_progress"
    assert out["batch"] == [] and "continue" not in out["reason"]
    assert out["reason"].startswith("nothing to run lowers the goal's error") and "does not hold" in out["reason"]
    free = _plan(capsys, n1, "--goal", "top-1")
    assert free["decision"] == "continue" and not free["stop"] and free["reason"].startswith("continue: ")


def test_help_tells_scripts_to_read_holds_or_decision(capsys):
    with pytest.raises(SystemExit):
        main(["plan", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "read goal.holds or decision (goal_holds | cannot_progress | continue)" in text
