"""CLI: category codes without is_correct get the category-code rubric (said in ``notes``), equal to the same
weights given with ``--schema``; ``--map is_correct=none``; text labels; notes of signals the rubric does not read."""

from __future__ import annotations

import json
from pathlib import Path

from scorio_core import rubric
from scorio_core.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "categories"
CODES = FIXTURES / "codes.csv"


def run_json(capsys, *argv):
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_category_code_rubric_matches_the_same_weights_given_explicitly(tmp_path, capsys):
    out = run_json(capsys, "leaderboard", str(CODES), "--prior", "uniform")
    assert out["settings"]["schema"] == rubric.CATEGORY_CODES_SCHEMA
    (note,) = [n for n in out["notes"] if n["code"] == "default_schema"]
    assert "weights assumed code / max code (0 -> 0, 1 -> 0.333, 2 -> 0.667, 3 -> 1)" in note["message"]
    assert "--schema FILE" in note["message"]
    assert not [n for n in out["notes"] if "not derived" in n["message"]]  # the rubric reads only category
    mine = tmp_path / "thirds.json"
    mine.write_text(json.dumps({"format": "scorio-rubric", "version": 1, "name": "thirds", "categories": [
        {"label": f"c{k}", "condition": f"category == {k}", "weight": k / 3} for k in range(4)]}))
    explicit = run_json(capsys, "leaderboard", str(CODES), "--prior", "uniform", "--schema", str(mine))
    assert not [n for n in explicit["notes"] if n["code"] == "default_schema"]
    by_model = {r["model"]: r for r in explicit["rows"]}
    assert len(out["rows"]) == 3 and all(r["mu"] is not None for r in out["rows"])
    for row in out["rows"]:
        assert row["mu"] == by_model[row["model"]]["mu"] and row["sigma"] == by_model[row["model"]]["sigma"]


def test_binary_stays_the_default_when_is_correct_is_present(tmp_path, capsys):
    data = tmp_path / "both.csv"
    data.write_text("model,question_id,trial,category,is_correct\nm,q1,0,3,1\nm,q1,1,0,0\nm,q2,0,2,1\n")
    out = run_json(capsys, "leaderboard", str(data))
    assert out["settings"]["schema"] == "binary" and not [n for n in out["notes"] if n["code"] == "default_schema"]
    unmapped = run_json(capsys, "leaderboard", str(data), "--map", "is_correct=none")
    assert unmapped["settings"]["schema"] == rubric.CATEGORY_CODES_SCHEMA


def test_text_outcome_beside_codes_loads(capsys):
    out = run_json(capsys, "leaderboard", str(FIXTURES / "codes_outcome.csv"))
    assert out["settings"]["schema"] == rubric.CATEGORY_CODES_SCHEMA and len(out["rows"]) == 3
    assert "is_correct" not in out["sources"][0]["mapping"]


def test_label_only_dump_error_says_how_to_recode(capsys):
    assert main(["leaderboard", str(FIXTURES / "textlabel.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: textlabel.csv: ") and err.count("\n") == 1
    assert "text labels" in err and "'category' column" in err and "README, 'Text labels'" in err


def test_is_correct_none_is_accepted_and_binary_outcome_unmapped(capsys):
    assert main(["leaderboard", str(FIXTURES / "codes_outcome.csv"), "--map", "is_correct=none", "--output", "json"]) == 0
    capsys.readouterr()


def test_export_of_category_codes_uses_the_same_default_rubric_and_says_its_weights(capsys):
    # export resolved its schema before loading the data, so category codes without is_correct still failed there
    board = run_json(capsys, "leaderboard", str(CODES))
    assert main(["export", str(CODES), "--format", "csv"]) == 0
    captured = capsys.readouterr()
    assert "weights assumed code / max code" in captured.err
    rows = {r.split(",")[0]: r for r in captured.out.splitlines()[1:]}
    first = board["rows"][0]
    assert first["model"] in rows and f"{first['mu']:.6f}"[:6] in rows[first["model"]]
    assert main(["export", str(CODES), "--format", "md"]) == 0
    assert f"Rubric: {rubric.CATEGORY_CODES_SCHEMA.split(' (')[0]}" in capsys.readouterr().out.splitlines()[0]


def test_publish_says_the_rubric_the_link_opens_on(tmp_path, capsys):
    out = run_json(capsys, "publish", str(CODES), "--workspace", str(tmp_path / "ws"))
    assert len(out["notes"]) == 1 and "rubric defaults to 'Category codes" in out["notes"][0]["message"]
    assert out["notes"][0]["code"] == "default_schema"
    assert "0 -> 0, 1 -> 0.333, 2 -> 0.667, 3 -> 1" in out["notes"][0]["message"] and "--schema FILE" in out["notes"][0]["message"]
    mine = tmp_path / "thirds.json"
    mine.write_text(json.dumps({"format": "scorio-rubric", "version": 1, "name": "thirds", "categories": [
        {"label": f"c{k}", "condition": f"category == {k}", "weight": k / 3} for k in range(4)]}))
    assert run_json(capsys, "publish", str(CODES), "--workspace", str(tmp_path / "ws"), "--schema", str(mine))["notes"] == []
