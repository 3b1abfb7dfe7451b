"""CLI consistency (QA #3, #6, #7): category codes read alike by every command (or refused with a reason that fits
the command), each model's group in leaderboard rows and the CSV export when the models share no question, the
``disconnected_groups`` note in ``sensitivity``, and ``sources`` in ``compare``, ``plan`` and ``attempts``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from scorio_core import rubric
from scorio_core.cli import main
from scorio_core.report.notes import note_messages

CODES = Path(__file__).resolve().parents[1] / "fixtures" / "categories" / "codes.csv"


def run_json(capsys, *argv) -> dict:
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _split(tmp_path) -> str:
    """a, b, c answered q0-q3; d, e answered q4-q7: no question links the two groups."""
    rows = ["model,question_id,trial,is_correct"]
    for m, qs, solved in (("a", range(4), {0, 1, 2}), ("b", range(4), {0, 1}), ("c", range(4), {0}),
                          ("d", range(4, 8), {4, 5, 6, 7}), ("e", range(4, 8), {4})):
        rows += [f"{m},q{q},{t},{int(q in solved)}" for q in qs for t in range(3)]
    path = tmp_path / "split.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _thirds(tmp_path) -> Path:
    path = tmp_path / "thirds.json"
    path.write_text(json.dumps({"format": "scorio-rubric", "version": 1, "name": "thirds", "categories": [
        {"label": f"c{k}", "condition": f"category == {k}", "weight": k / 3} for k in range(4)]}))
    return path


def test_compare_scores_category_codes_with_the_leaderboards_default_rubric(tmp_path, capsys):
    out = run_json(capsys, "compare", CODES, "--models", "alpha", "beta")
    assert out["settings"]["schema"] == rubric.CATEGORY_CODES_SCHEMA
    assert any("rubric defaults to" in n for n in note_messages(out["notes"]))  # the weights it assumed, as the leaderboard says
    board = {r["model"]: r for r in run_json(capsys, "leaderboard", CODES)["rows"]}
    assert out["a"]["mu"] == board["alpha"]["mu"] and out["b"]["mu"] == board["beta"]["mu"]
    explicit = run_json(capsys, "compare", CODES, "--models", "alpha", "beta", "--schema", _thirds(tmp_path))
    assert explicit["difference"]["mean"] == pytest.approx(out["difference"]["mean"])
    assert not any("rubric defaults to" in n for n in note_messages(explicit["notes"]))
    assert [s["name"] for s in out["sources"]] == ["codes.csv"]


@pytest.mark.parametrize("argv, needs", [
    (["methods"], "method agreement"),
    (["leaderboard", "--method", "irt_ability"], "IRT"),
    (["leaderboard", "--method", "borda"], "borda"),
])
def test_binary_only_commands_refuse_category_codes_without_naming_a_flag_they_lack(argv, needs, capsys):
    assert main([argv[0], str(CODES), *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert needs in err and "0/1 outcomes" in err and "category codes (0, 1, 2, 3)" in err
    assert "--map is_correct=COLUMN" in err and "--schema" not in err and "Rubric page" not in err


def test_questions_fits_category_codes_under_the_default_rubric_as_the_page_does(capsys):
    # before 2026-12-05 refused ("IRT needs 0/1 outcomes") while the Questions page fitted the rubric's weights
    out = run_json(capsys, "questions", CODES)
    assert out["outcome"] == "rubric weights" and out["questions"]
    weighted = [n for n in out["notes"] if n["code"] == "rubric_weights"]
    assert weighted and "each attempt counting its weight as a success" in weighted[0]["message"]
    assert "weights assumed code / max code (0 -> 0, 1 -> 0.333, 2 -> 0.667, 3 -> 1)" in weighted[0]["message"]


def test_exclude_flagged_on_category_codes_says_the_flags_come_from_weighted_counts(capsys):
    out = run_json(capsys, "leaderboard", CODES, "--exclude-flagged", "saturated")
    (weighted,) = [n for n in out["notes"] if n["code"] == "rubric_weights"]
    assert weighted["task"] == "math" and "each attempt counting its weight as a success" in weighted["message"]
    assert "(code 0 -> 0, code 1 -> 0.333, code 2 -> 0.667, code 3 -> 1)" in weighted["message"]
    assert "so are the intervals and the flags" in weighted["message"]
    assert not [n for n in run_json(capsys, "leaderboard", CODES)["notes"] if n["code"] == "rubric_weights"]


def test_plan_scores_category_codes_with_the_default_rubric_or_schema(tmp_path, capsys):
    out = run_json(capsys, "plan", CODES, "--goal", "top-1", "--batch", "10", "--draws", "500")
    assert any("rubric defaults to" in n for n in note_messages(out["status"]["notes"]))
    assert [s["name"] for s in out["sources"]] == ["codes.csv"]
    mine = run_json(capsys, "plan", CODES, "--goal", "top-1", "--batch", "10", "--draws", "500",
                    "--schema", _thirds(tmp_path))
    assert not any("rubric defaults to" in n for n in note_messages(mine["status"]["notes"]))
    assert mine["status"]["models"] == out["status"]["models"]  # same weights as the default: same posterior


def test_sensitivity_on_category_codes_says_why_no_schema_applies_and_what_would(tmp_path, capsys):
    assert main(["sensitivity", str(CODES)]) == 2
    err = capsys.readouterr().err
    assert "category codes (0, 1, 2, 3) and no is_correct" in err and "--schemas" in err
    out = run_json(capsys, "sensitivity", CODES, "--schemas", _thirds(tmp_path))
    assert out["schemas"] == ["thirds"]


def test_leaderboard_rows_carry_the_group_when_models_share_no_question(tmp_path, capsys):
    path = _split(tmp_path)
    out = run_json(capsys, "leaderboard", path)
    (note,) = [n for n in out["notes"] if n["code"] == "disconnected_groups"]
    assert note["groups"] == [["a", "b", "c"], ["d", "e"]]
    assert {r["model"]: r["group"] for r in out["rows"]} == {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
    linked = run_json(capsys, "leaderboard", CODES)
    assert all("group" not in r for r in linked["rows"])  # one group: no key (documented)


def test_csv_export_carries_the_group_in_the_file(tmp_path, capsys):
    target = tmp_path / "board.csv"
    assert main(["export", _split(tmp_path), "--format", "csv", "--out", str(target)]) == 0
    assert "share no question" in capsys.readouterr().err  # the caveat stays on stderr too
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert {r["model"]: r["group"] for r in rows} == {"a": "1", "b": "1", "c": "1", "d": "2", "e": "2"}
    assert main(["export", str(CODES), "--format", "csv"]) == 0
    assert "group" not in next(csv.reader(io.StringIO(capsys.readouterr().out)))


def test_sensitivity_has_the_disconnected_groups_note(tmp_path, capsys):
    out = run_json(capsys, "sensitivity", _split(tmp_path))
    assert any(n.startswith("The models fall into 2 groups that share no question") for n in note_messages(out["notes"]))


def test_compare_plan_and_attempts_give_their_sources(tmp_path, capsys):
    path = _split(tmp_path)
    compared = run_json(capsys, "compare", path, "--models", "a", "b")
    planned = run_json(capsys, "plan", path, "--goal", "pair", "--pair", "a", "b", "--draws", "500")
    shown = run_json(capsys, "attempts", path, "--question", "q0")
    for out in (compared, planned, shown):
        (source,) = out["sources"]
        assert source["name"] == "split.csv" and len(source["sha256"]) == 64


def test_irt_groups_are_numbered_as_the_leaderboards(tmp_path, capsys):
    """Docs QA: Bayes@N numbered the groups 1 = the largest, `--method irt_ability` and `questions` 0, 1, ... in order
    of first appearance (a, b first here, though c, d, e are the larger group)."""
    path = tmp_path / "split.csv"
    rows = [f"{m},q{q},{t},{int((q + t + ord(m)) % 3 == 0)}" for m in "ab" for q in range(4) for t in range(2)]
    rows += [f"{m},q{q},{t},{int((q + t + ord(m)) % 2 == 0)}" for m in "cde" for q in range(4, 8) for t in range(2)]
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    expected = {"a": 2, "b": 2, "c": 1, "d": 1, "e": 1}
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    assert {r["model"]: r["group"] for r in json.loads(capsys.readouterr().out)["rows"]} == expected
    assert main(["leaderboard", str(path), "--method", "irt_ability", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["group"] for r in out["rows"]} == expected
    (note,) = [n for n in out["notes"] if n["code"] == "unlinked_groups"]
    assert note["groups"] == expected and "(c, d, e; a, b)" in note["message"]
    assert main(["questions", str(path), "--output", "json"]) == 0
    assert {r["model"]: r["group"] for r in json.loads(capsys.readouterr().out)["models"]} == expected
