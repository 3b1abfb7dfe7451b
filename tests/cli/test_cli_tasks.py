"""``python -m scorio_core tasks``: stable JSON, table/CSV output, errors."""

from __future__ import annotations

import json

import pytest

from scorio_core.cli import main
from scorio_core.cli.tasks import CELL_KEYS, COMBINED_KEYS

CSV = "model,task,question_id,trial,is_correct\n" + "\n".join(
    f"{m},{t},{q},{i},{v}" for (m, t, q), vs in {
        ("A", "t1", "q1"): (1, 1), ("A", "t1", "q2"): (1, 0), ("A", "t2", "q1"): (0, 0), ("A", "t2", "q2"): (1, 0),
        ("B", "t1", "q1"): (0, 1), ("B", "t1", "q2"): (0, 1), ("B", "t2", "q1"): (1, 1), ("B", "t2", "q2"): (1, 1),
        ("C", "t1", "q1"): (1, 1),
    }.items() for i, v in enumerate(vs)
) + "\n"


@pytest.fixture
def dump(tmp_path):
    path = tmp_path / "tiny.csv"
    path.write_text(CSV)
    return str(path)


def test_json_is_stable(dump, capsys):
    assert main(["tasks", dump, "--threshold", "0.5", "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:4] == ["tasks", "models", "cells", "combined"]
    assert {"weighting", "prior", "scope", "interval", "threshold"} <= set(out)
    assert out["tasks"] == ["t1", "t2"] and out["models"] == ["A", "B", "C"]
    assert out["prior"] == "uniform" and out["scope"] == "questions-fixed" and out["threshold"] == 0.5
    assert out["data_choices"] == []  # no data-quality choice made
    assert all(list(c) == list(CELL_KEYS) for c in out["cells"])
    assert all(list(c) == list(COMBINED_KEYS) for c in out["combined"])
    cell = next(c for c in out["cells"] if (c["model"], c["task"]) == ("A", "t1"))
    # hand: (3/4 + 2/4) / 2 = 0.625; avg (1 + 0.5) / 2 = 0.75; q2 flaky
    assert cell["bayes"] == pytest.approx(0.625) and cell["avg"] == pytest.approx(0.75)
    assert (cell["n"], cell["n_max"], cell["m"], cell["passed"], cell["flaky"]) == (2, 2, 2, True, 1)
    # the verdict beside its interval: undecided where [lo, hi] holds the threshold (the rule's verdict kept)
    assert list(CELL_KEYS).index("undecided") == list(CELL_KEYS).index("passed") + 1
    assert all(c["undecided"] is (c["lo"] <= 0.5 <= c["hi"]) for c in out["cells"] if c["passed"] is not None)
    assert cell["undecided"] is True and "can flip" in out["undecided_rule"]
    combined = {c["model"]: c for c in out["combined"]}
    assert combined["A"]["score"] == pytest.approx(0.5) and combined["A"]["reason"] == ""
    assert combined["C"]["score"] is None and "t2" in combined["C"]["reason"]
    assert "macro average" in out["weighting"]


def test_no_threshold_gives_null_passed(dump, capsys):
    assert main(["tasks", dump, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all(c["passed"] is None and c["undecided"] is None for c in out["cells"]) and out["threshold"] is None


def test_table_and_csv(dump, capsys):
    assert main(["tasks", dump, "--threshold", "0.5"]) == 0
    text = capsys.readouterr().out
    assert "bayes" in text and "combined:" in text and "lo, hi:" in text
    assert main(["tasks", dump, "--output", "csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == ",".join(CELL_KEYS) and len(lines) == 1 + 5


def test_bad_input_is_one_error_line(dump, capsys):
    assert main(["tasks", dump, "--confidence", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
    assert main(["tasks", dump, "--task", "nope"]) == 2


def test_ragged_trials_show_the_fewest_and_the_most(tmp_path, capsys):
    # q1 has 1 trial, q2 has 3: "n" alone (1) would hide that most answers had three trials
    path = tmp_path / "ragged.csv"
    path.write_text("model,question_id,trial,is_correct\nA,q1,0,1\nA,q2,0,1\nA,q2,1,0\nA,q2,2,1\nB,q1,0,0\nB,q2,0,1\n")
    assert main(["tasks", str(path), "--output", "json"]) == 0
    cells = {c["model"]: c for c in json.loads(capsys.readouterr().out)["cells"]}
    assert (cells["A"]["n"], cells["A"]["n_max"]) == (1, 3) and (cells["B"]["n"], cells["B"]["n_max"]) == (1, 1)


def test_data_quality_choices_are_listed_and_an_emptied_task_named(tmp_path, capsys):
    """C's attempts on t2 have no outcome. Counted as incorrect, C is scored there and the JSON/table say which choice
    filled which cells; dropped, C has no t2 data left and its combined reason names the choice."""
    path = tmp_path / "holes.csv"
    path.write_text(CSV + "C,t1,q2,0,1\nC,t2,q1,0,\nC,t2,q2,0,\n")
    assert main(["tasks", str(path), "--missing-outcomes", "incorrect", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["data_choices"] == ["missing_outcomes=incorrect: 2 attempts without an outcome counted as incorrect "
                                   "(C on t2: 2)."]
    assert main(["tasks", str(path), "--missing-outcomes", "drop"]) == 0
    text = capsys.readouterr().out
    assert "no data left on task t2 (the choice missing_outcomes=drop removed every row)" in text
    assert "note: Data-quality choices applied before scoring: missing_outcomes=drop: removed 2 attempts" in text
    assert main(["tasks", str(path), "--missing-outcomes", "drop", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["data_choices"][0].startswith("missing_outcomes=drop: removed 2")
