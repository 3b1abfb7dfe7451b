"""`sensitivity` on a rubric of one's own (helper QA, 2026-12-02): the perturbation runs on the very rubric ranked,
category-code data without is_correct works, and what a perturbation share means is said in every output."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.report.notes import note_messages

RUBRIC = {"format": "scorio-rubric", "version": 1, "categories": [
    {"label": "wrong", "condition": "category == 0", "weight": 0},
    {"label": "format_error", "condition": "category == 1", "weight": -0.5},
    {"label": "refused", "condition": "category == 2", "weight": 0.2},
    {"label": "partial", "condition": "category == 3", "weight": 0.5},
    {"label": "correct", "condition": "category == 4", "weight": 1}]}


@pytest.fixture
def dump(tmp_path):
    rng = np.random.default_rng(4)
    probs = {"A": [0.2, 0.1, 0.1, 0.3, 0.3], "B": [0.1, 0.3, 0.0, 0.0, 0.6], "C": [0.3, 0.0, 0.2, 0.2, 0.3],
             "D": [0.1, 0.0, 0.0, 0.5, 0.4]}
    rows = ["model,task,question_id,trial,category"]
    for m, p in probs.items():
        rows += [f"{m},t1,q{q:02d},{t},{rng.choice(5, p=p)}" for q in range(12) for t in range(4)]
    path = tmp_path / "codes.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _rubric(tmp_path, name):
    path = tmp_path / f"{name.replace(' ', '_')}.json"
    path.write_text(json.dumps({**RUBRIC, "name": name}))
    return str(path)


def _json(capsys, *argv):
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_file_named_like_a_built_in_is_perturbed_as_itself(dump, tmp_path, capsys):
    # a rubric file called "Binary correctness" was ranked as itself but perturbed as the built-in (one weight)
    out = _json(capsys, "sensitivity", dump, "--schemas", _rubric(tmp_path, "Binary correctness"), "--prior", "uniform",
                "--perturb", 40)
    (p,) = out["perturbation"]
    assert [q["name"] for q in p["parameters"]] == ["weight: format_error", "weight: refused", "weight: partial",
                                                    "weight: correct"]
    assert p["base_ranks"] == [r[0] for r in out["ranks"]]  # the ranks of the rubric ranked
    own = _json(capsys, "sensitivity", dump, "--schemas", _rubric(tmp_path, "R5"), "--prior", "uniform", "--perturb", 40)
    assert own["perturbation"][0]["parameters"] == p["parameters"]  # by its own name: was "unknown schema 'R5'"


def test_two_rubrics_with_one_name_are_refused(dump, tmp_path, capsys):
    assert main(["sensitivity", str(dump), "--schemas", f"Binary correctness,{_rubric(tmp_path, 'Binary correctness')}",
                 "--output", "json"]) == 2
    assert "two rubrics are named 'Binary correctness'" in json.loads(capsys.readouterr().out)["error"]


def test_binary_perturbation_says_it_cannot_move_a_rank(tmp_path, capsys):
    rows = ["model,question_id,trial,is_correct"] + [f"{m},q{q},{t},{int((q + t) % (i + 2) == 0)}"
                                                    for i, m in enumerate("abc") for q in range(8) for t in range(3)]
    path = tmp_path / "bin.csv"
    path.write_text("\n".join(rows) + "\n")
    out = _json(capsys, "sensitivity", path, "--schemas", "Binary correctness", "--perturb", 30)
    assert any("cannot change any rank" in n for n in note_messages(out["perturbation"][0]["notes"]))
    assert main(["sensitivity", str(path), "--schemas", "Binary correctness", "--perturb", "30"]) == 0
    assert "  note: one non-zero weight (correct)" in capsys.readouterr().out  # the table output says so too


def test_a_tie_for_first_picks_the_first_model_and_says_so(dump, tmp_path, capsys):
    equal = {**RUBRIC, "name": "Equal", "categories": [{**c, "weight": 0.5} for c in RUBRIC["categories"]]}
    path = tmp_path / "equal.json"
    path.write_text(json.dumps(equal))
    (p,) = _json(capsys, "sensitivity", dump, "--schemas", path, "--prior", "uniform", "--perturb", 20)["perturbation"]
    assert p["leader"] == "A" and any(n.startswith("4 models tie for first") for n in note_messages(p["notes"]))
