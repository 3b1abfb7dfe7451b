"""The leaderboard's ``trial_position_effect`` note in every command that relies on exchangeable trials.

Model ``r`` succeeds at trial 1 and fails at trial 2 on most of 60 questions (a retry made only after a failure, as
ARC-AGI's o3): every command that analyses ``r`` says what the leaderboard says, in its own notes format, and says
nothing on the same data with ``r``'s trials exchangeable, on a command's other models, or on count data.
"""

from __future__ import annotations

import json

import pytest

from scorio_core.cli import main
from scorio_core.leaderboard.trial_order import trial_position_note

#: The leaderboard's finding starts so (trial_order.trial_position_notice).
FINDING = "r's success rate depends on the trial's position (trial 1: 90.0% of 60, trial 2: 5.0% of 60"
QUESTIONS = 60


def _rows(retry: bool) -> list[str]:
    """Models r, a, b on QUESTIONS questions, 2 trials each; ``retry``: r's trials depend on their position."""
    lines = []
    for q in range(QUESTIONS):
        if retry:  # 54 of 60 right at trial 1, 3 of 60 at trial 2
            r = (int(q < 54), int(q < 3))
        else:  # right on the same 29 questions at both trials
            r = (int(q < 29), int(q < 29))
        cells = {"r": r, "a": (q % 2, q % 2), "b": (int(q % 3 == 0), int(q % 3 != 2))}
        for model, outcome in cells.items():
            lines += [f"{model},t,q{q:02d},{trial},{outcome[trial]},{100 + 7 * ((q + trial) % 5)}"
                      for trial in range(2)]
    return lines


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trial_order")
    paths = {}
    for name, retry in (("retry", True), ("exchangeable", False)):
        paths[name] = folder / f"{name}.csv"
        paths[name].write_text("model,task,question_id,trial,is_correct,completion_tokens\n"
                               + "\n".join(_rows(retry)) + "\n")
    counts = folder / "counts.csv"  # r's totals as counts: no trial order, no note
    counts.write_text("model,task,question_id,n_trials,n_correct\n" + "".join(
        f"{m},t,q{q:02d},2,{c}\n" for q in range(QUESTIONS)
        for m, c in (("r", int(q < 54) + int(q < 3)), ("a", 2 * (q % 2)), ("b", int(q % 3 == 0) + int(q % 3 != 2)))))
    paths["counts"] = counts
    return paths


def _json(capsys, command: str, path, *argv) -> dict:
    assert main([command, str(path), *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _text(capsys, command: str, path, *argv) -> str:
    assert main([command, str(path), *map(str, argv), "--output", "table"]) == 0
    return capsys.readouterr().out


def _object_notes(notes) -> list[dict]:
    return [n for n in notes if n["code"] == "trial_position_effect"]


def _leaderboard_message(capsys, path) -> str:
    """The leaderboard's note's message: ``"t: "`` and the notice's text (a string note carries the text)."""
    (note,) = _object_notes(_json(capsys, "leaderboard", path)["notes"])
    assert note["task"] == "t" and note["message"].startswith("t: ")
    return note["message"]


def _text_of(message: str) -> str:
    return message.removeprefix("t: ")


def test_the_synthetic_retry_trips_the_detector_and_the_leaderboard(dumps, capsys):
    message = _leaderboard_message(capsys, dumps["retry"])
    assert _text_of(message).startswith(FINDING) and "So does" not in message  # r only: a and b are exchangeable
    assert not _object_notes(_json(capsys, "leaderboard", dumps["exchangeable"])["notes"])


def test_compare_names_r_beside_it_and_not_between_the_others(dumps, capsys):
    message = _text_of(_leaderboard_message(capsys, dumps["retry"]))
    (note,) = _object_notes(_json(capsys, "compare", dumps["retry"], "--models", "r", "a")["notes"])
    assert note["message"] == message and note["models"] == ["r"]  # the leaderboard's notice object
    assert not _object_notes(_json(capsys, "compare", dumps["retry"], "--models", "a", "b")["notes"])
    assert not _object_notes(_json(capsys, "compare", dumps["exchangeable"], "--models", "r", "a")["notes"])
    assert f"  note: {message}" in _text(capsys, "compare", dumps["retry"], "--models", "r", "a").splitlines()


def test_ranks_has_the_leaderboards_notice_object(dumps, capsys):
    message = _leaderboard_message(capsys, dumps["retry"])
    (note,) = _object_notes(_json(capsys, "ranks", dumps["retry"], "--draws", 200)["notes"])
    assert note["message"] == message and note["models"] == ["r"] and note["task"] == "t"
    assert not _object_notes(_json(capsys, "ranks", dumps["exchangeable"], "--draws", 200)["notes"])
    assert f"note: {message}" in _text(capsys, "ranks", dumps["retry"], "--draws", 200).splitlines()


def test_methods_adds_the_message_to_its_task(dumps, capsys):
    message = _text_of(_leaderboard_message(capsys, dumps["retry"]))
    (task,) = _json(capsys, "methods", dumps["retry"])["tasks"]
    (note,) = _object_notes(task["notes"])
    assert note["message"] == message
    (task,) = _json(capsys, "methods", dumps["exchangeable"])["tasks"]
    assert not _object_notes(task["notes"])
    assert f"  note: {message}" in _text(capsys, "methods", dumps["retry"]).splitlines()


def test_plan_says_a_stop_assumes_exchangeable_trials(dumps, capsys):
    message = _text_of(_leaderboard_message(capsys, dumps["retry"]))
    plan = _json(capsys, "plan", dumps["retry"], "--goal", "top-1", "--draws", 500)
    (said,) = _object_notes(plan["status"]["notes"])
    note = said["message"]
    assert note.startswith(message) and "A stop decision assumes exchangeable trials" in note
    pair = _json(capsys, "plan", dumps["retry"], "--goal", "pair", "--pair", "a", "b", "--draws", 500)
    assert not _object_notes(pair["status"]["notes"])  # the goal concerns a and b only
    clean = _json(capsys, "plan", dumps["exchangeable"], "--goal", "top-1", "--draws", 500)
    assert not _object_notes(clean["status"]["notes"])
    assert f"# note: {note}" in _text(capsys, "plan", dumps["retry"], "--goal", "top-1", "--draws", 500).splitlines()


def test_tasks_names_the_task(dumps, capsys):
    message = _leaderboard_message(capsys, dumps["retry"])
    (note,) = _object_notes(_json(capsys, "tasks", dumps["retry"])["notes"])
    assert note["task"] == "t" and note["message"] == message and note["models"] == ["r"]
    assert _json(capsys, "tasks", dumps["exchangeable"])["notes"] == []
    assert f"note: {message}" in _text(capsys, "tasks", dumps["retry"]).splitlines()


@pytest.mark.parametrize("command,argv", [("trajectory", ()), ("convergence", ("--replicates", 20))])
def test_trajectory_and_convergence_for_their_models(dumps, capsys, command, argv):
    message = _text_of(_leaderboard_message(capsys, dumps["retry"]))
    (note,) = _object_notes(_json(capsys, command, dumps["retry"], *argv)["notes"])
    assert note["message"] == message and note["models"] == ["r"]
    assert not _object_notes(_json(capsys, command, dumps["retry"], "--models", "a", "b", *argv)["notes"])
    assert not _object_notes(_json(capsys, command, dumps["exchangeable"], *argv)["notes"])
    assert f"note: {message}" in _text(capsys, command, dumps["retry"], *argv).splitlines()


def test_sensitivity(dumps, capsys):
    message = _text_of(_leaderboard_message(capsys, dumps["retry"]))
    assert [n["message"] for n in _object_notes(_json(capsys, "sensitivity", dumps["retry"])["notes"])] == [message]
    assert not _object_notes(_json(capsys, "sensitivity", dumps["exchangeable"])["notes"])
    assert f"note: {message}" in _text(capsys, "sensitivity", dumps["retry"]).splitlines()


def test_questions_and_leaderboard_methods(dumps, capsys):
    message = _leaderboard_message(capsys, dumps["retry"])
    (note,) = _object_notes(_json(capsys, "questions", dumps["retry"])["notes"])
    assert note["task"] == "t" and note["message"] == message
    assert not _object_notes(_json(capsys, "questions", dumps["exchangeable"])["notes"])
    assert f"note: {message}" in _text(capsys, "questions", dumps["retry"]).splitlines()
    for method in ("irt_ability", "avg"):
        notes = _json(capsys, "leaderboard", dumps["retry"], "--method", method)["notes"]
        assert [n["message"] for n in _object_notes(notes)] == [message]
        assert not _object_notes(_json(capsys, "leaderboard", dumps["exchangeable"], "--method", method)["notes"])


def test_count_data_has_no_trial_order_so_no_note(dumps, capsys):
    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for

    assert trial_position_note(outcomes_for(io.load([str(dumps["counts"])]), "t")) is None
    assert not _object_notes(_json(capsys, "compare", dumps["counts"], "--models", "r", "a")["notes"])
    assert _json(capsys, "tasks", dumps["counts"])["notes"] == []
    assert not _object_notes(_json(capsys, "ranks", dumps["counts"], "--draws", 200)["notes"])
