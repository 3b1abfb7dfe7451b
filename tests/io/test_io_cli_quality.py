"""``python -m scorio_core quality``: report and formats, JSON and table output, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scorio_core.cli import main

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
FORMATS = REPO / "tests" / "fixtures" / "formats"


def test_quality_json_on_livebench(capsys):
    assert main(["quality", str(DATA / "livebench_2025-01-13_N1.csv.gz"), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sources"][0]["format"] == "csv" and out["sources"][0]["mapping"]["is_correct"] == "correct"
    r = out["report"]
    assert (r["n_rows"], r["n_duplicate_keys"], r["n_conflicting_keys"]) == (93624, 590, 59)  # data README
    assert r["blocking"] and r["choices"] == []


def test_quality_choices_are_applied_and_recorded(capsys):
    args = ["quality", str(DATA / "livebench_2025-01-13_N1.csv.gz"), "--duplicates", "keep-first", "--binarize-threshold", "0.5", "--output", "json"]
    assert main(args) == 0
    r = json.loads(capsys.readouterr().out)["report"]
    assert r["blocking"] == [] and r["n_rows"] == 93624 - 590
    # apply_choices order: binarize, missing outcomes, duplicates, intersect.
    # 1372: rows where correct != (score > 0.5), counted with Python's csv module on the file
    assert r["choices"][0] == "binarize_threshold=0.5: is_correct = score > 0.5 for 93624 attempts with a score (1372 outcomes set or changed)."
    # where: the 590 rows are on two coding tasks (data README), so a math leaderboard does not read them as its own
    assert r["choices"][1] == ("duplicates=keep-first: removed 590 rows (coding/LCB_generation: 340, "
                               "coding/coding_completion: 250).")


def test_quality_table_output_and_map(capsys, tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("model,problem,idx,correct\nm,p1,1,1\nm,p2,2,0\n")
    assert main(["quality", str(f), "--map", "question_id=problem"]) == 0
    out = capsys.readouterr().out
    assert "r.csv  format=csv  layout=attempts  rows=2" in out and "question_id<-problem" in out
    assert "ready: no blocking issues" in out


def test_quality_formats_listing(capsys):
    assert main(["quality", "--formats"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("csv ") and "inspect-eval" in out and "helm" in out
    assert main(["quality", "--formats", "--output", "json"]) == 0
    names = [f["name"] for f in json.loads(capsys.readouterr().out)["formats"]]
    assert "lm-eval-samples" in names


def test_quality_folder_of_dumps(capsys):
    assert main(["quality", str(FORMATS / "inspect_ai"), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {s["format"] for s in out["sources"]} == {"inspect-eval", "inspect-json"}
    assert out["report"]["n_models"] == 6  # the six eval.model values of the seven logs


def test_quality_errors_are_one_line_with_status_2(capsys, tmp_path):
    f = tmp_path / "results.csv"
    f.write_text("model,question,trial,correct\nm,q,0,yes\n")
    assert main(["quality", str(f)]) == 2
    err = capsys.readouterr().err
    assert err == "error: results.csv line 2: field 'is_correct' (the outcome: column 'correct') must be 0 or 1 (true/false); got 'yes'.\n"
    assert main(["quality"]) == 2
    assert "give at least one PATH" in capsys.readouterr().err
    assert main(["quality", str(f), "--duplicates", "first"]) == 2
    assert capsys.readouterr().err.startswith("error: argument --duplicates: invalid choice")


def test_quality_subprocess_no_traceback(tmp_path):
    garbage = tmp_path / "x.csv"
    garbage.write_bytes(bytes(range(256)) * 8)
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "quality", str(garbage)], capture_output=True, text=True, cwd=REPO, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: x.csv: the file") and "Traceback" not in proc.stderr


def test_quality_under_an_engine_reports_what_blocks_the_counting(tmp_path, capsys):
    # QA (engine parity, 2026-12-02): `quality --engine duckdb` exited 2 on the problems it exists to report
    path = tmp_path / "dups.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,0,1\na,q1,0,1\na,q2,0,0\nb,q1,0,1\nb,q2,0,\n")
    assert main(["quality", str(path), "--output", "json"]) == 0
    pandas = json.loads(capsys.readouterr().out)
    assert main(["quality", str(path), "--engine", "duckdb", "--output", "json"]) == 0
    duck = json.loads(capsys.readouterr().out)
    assert duck["engine"] == "duckdb" and duck["report"]["ready"] is False
    assert duck["report"]["blocking"] == pandas["report"]["blocking"] and len(pandas["report"]["blocking"]) == 2
    assert "--engine pandas gives the full report" in duck["notes"][0]["message"]
    assert duck["notes"][0]["code"] == "engine_not_ready"
    assert main(["quality", str(path), "--engine", "duckdb"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("BLOCKING (choose before computing metrics):") and "duplicate row shares" in text
