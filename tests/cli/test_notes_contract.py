"""Every command's ``notes`` are objects with ``code`` and ``message`` (README: "The same quantity under each command's
JSON keys"): a CI parser reads them one way. CLI QA found sentences in compare, trajectory, convergence, plan,
methods, sensitivity, rubric, attempts and publish beside objects in leaderboard, tasks, ranks and questions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core.cli import main
from scorio_core.report.notes import as_notes, note, note_messages

DATA = Path(__file__).resolve().parents[2] / "data"
COUNTS = str(DATA / "matharena_aime_2025_I_counts.csv")
TRIALS = str(DATA / "arc_agi_1_public_eval_trials.csv")


def _notes_lists(obj, path="$"):
    """Every list under a key named ``notes`` (``prior_notes`` and the loader's ``report`` are other things)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "notes" and not path.endswith(".report"):
                yield f"{path}.{key}", value
            else:
                yield from _notes_lists(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _notes_lists(value, f"{path}[{i}]")


def _ragged(tmp_path) -> str:
    """b skipped q2 (unequal question sets) and N = 2 with one trial missing: notes in most commands."""
    rows = [f"{m},q{q},{t},{int((q * 3 + t + ord(m)) % 4 == 0)}" for m in "abc" for q in range(6) for t in range(2)
            if not (m == "b" and q == 2)]
    path = tmp_path / "ragged.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    return str(path)


COMMANDS = [
    ("leaderboard", [COUNTS]),
    ("tasks", [TRIALS]),
    ("compare", [TRIALS, "--models", "claude-3-haiku-20240307", "deepseek-r1"]),
    ("ranks", [TRIALS, "--draws", "200"]),
    ("questions", [COUNTS]),
    ("trajectory", ["RAGGED"]),
    ("convergence", ["RAGGED", "--replicates", "20"]),
    ("methods", [COUNTS, "--methods", "bayes,avg,borda"]),
    ("plan", [TRIALS, "--draws", "200"]),
    ("sensitivity", ["RAGGED"]),
    ("attempts", ["RAGGED", "--question", "q2", "--models", "a", "b"]),
]


@pytest.mark.parametrize("command,argv", COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_notes_list_holds_objects_with_code_and_message(command, argv, tmp_path, capsys):
    ragged = _ragged(tmp_path)
    argv = [ragged if a == "RAGGED" else a for a in argv]
    assert main([command, *argv, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    found = list(_notes_lists(out))
    assert found, f"{command}: no notes list in the JSON"
    said = 0
    for path, notes in found:
        assert isinstance(notes, list), path
        for item in notes:
            assert isinstance(item, dict) and set(item) >= {"code", "message"}, (path, item)
            assert isinstance(item["code"], str) and item["code"] == item["code"].lower() and " " not in item["code"]
            assert isinstance(item["message"], str) and item["message"], (path, item)
            said += 1
    if command in ("compare", "trajectory", "convergence", "plan", "methods", "attempts"):
        assert said, f"{command}: these data should say something (the contract would be untested)"


def test_publish_and_rubric_notes_are_objects(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SCORIO_WORKSPACE", str(tmp_path / "ws"))
    dump = tmp_path / "dump.csv"
    dump.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q + t) % 2 == 0)}\n" for m in "ab" for q in range(4) for t in range(2)) + "a,q0,0,1\n")
    assert main(["publish", str(dump), "--duplicates", "keep-first", "--workspace", str(tmp_path / "ws"),
                 "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert [n["code"] for n in notes] == ["data_choices"] and notes[0]["message"].startswith("Data-quality choices")
    assert main(["rubric", TRIALS, "--schema", "exact_match", "--output", "json"]) == 0
    for item in json.loads(capsys.readouterr().out)["notes"]:
        assert set(item) >= {"code", "message"}


def test_the_helpers():
    assert note("a", "b", task="t") == {"code": "a", "message": "b", "task": "t"}
    assert as_notes(["x", {"code": "y", "message": "z"}], "load") == [{"code": "load", "message": "x"},
                                                                       {"code": "y", "message": "z"}]
    with pytest.raises(ValueError, match="'code' and 'message'"):
        as_notes([{"message": "no code"}], "load")
    assert note_messages([{"code": "a", "message": "b"}, "c"]) == ["b", "c"]
