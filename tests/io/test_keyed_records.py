"""JSON documents that keep their records under a key, per question: EvalPlus's ``eval_results.json``
(``{"eval": {"HumanEval/0": [sample, ...], ...}}``, each sample's ``base_status`` / ``plus_status`` 'pass' or 'fail').

QA 2026-12-04: such a file written on one line was read as a single JSON Lines record (its ``eval`` object dropped),
and refused with "no column found for required field 'question_id'"; written across lines it was refused as "expected
a JSON array of records".
"""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

#: 3 problems x 3 samples; plus_status passes where (problem + sample) % 3 != 0 (the stricter test set)
EVAL = {"date": "2024-05-01 10:00", "hash": "abc", "eval": {
    f"HumanEval/{i}": [{"task_id": f"HumanEval/{i}", "solution": "def f(): ...", "base_status": "pass",
                        "plus_status": "pass" if (i + j) % 3 else "fail", "base_fail_tests": [], "plus_fail_tests": []}
                       for j in range(3)] for i in range(3)}}


@pytest.mark.parametrize("indent", [None, 2])  # one line (read as a record before), or pretty-printed
def test_evalplus_samples_are_the_records(tmp_path, indent):
    path = tmp_path / "gpt-4o.eval_results.json"
    path.write_text(json.dumps(EVAL, indent=indent))
    with pytest.raises(InputError, match="'is_correct' is ambiguous: candidates 'base_status', 'plus_status'"):
        io.load([str(path)])
    ds = io.load([str(path)], mapping={"is_correct": "plus_status"}, recode={"pass": 1, "fail": 0})
    counts = ds.to_counts().set_index("question_id")
    # by hand: (i + j) % 3 == 0 fails once per problem (j = 0, 2, 1 for i = 0, 1, 2): 2 of 3 each
    assert counts["n_trials"].to_dict() == {f"HumanEval/{i}": 3 for i in range(3)}
    assert counts["n_correct"].to_dict() == {f"HumanEval/{i}": 2 for i in range(3)}
    assert any("the arrays under 'eval', one per key" in n for n in ds.report.notes)


def test_a_one_line_document_with_an_array_is_records(tmp_path, capsys):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"model": "m", "details": [{"question_id": q, "correct": q % 2} for q in range(4)]}))
    assert main(["leaderboard", str(path), "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["model"], r["avg"]) for r in out["rows"]] == [("m", 0.5)]  # by hand: questions 1 and 3 of 4; the
    assert any("the document's 'model' applied" in n["message"] for n in out["notes"])  # document's model, said


def test_a_one_line_record_is_still_json_lines(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"model": "m", "question_id": "q1", "correct": 1, "tokens": [1, 2]}))
    assert len(io.load([str(path)]).attempts) == 1
