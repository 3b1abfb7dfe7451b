"""The CLI is an installed console script that runs from any directory (issue 16, "Installable")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_console_script_runs_outside_the_repository(tmp_path):
    script = Path(sys.executable).with_name("scorio-dashboard")
    assert script.exists(), "make test installs the project (pip install -e .); run it, or pip install -e ."
    data = tmp_path / "counts.csv"
    shutil.copy(ROOT / "data" / "matharena_aime_2025_I_counts.csv", data)
    out = subprocess.run([str(script), "leaderboard", str(data), "--output", "json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert len(doc["rows"]) == 16 and doc["rows"][0]["model"] == "o3-mini (high)"


def test_convergence_table_lists_every_s_for_short_runs(tmp_path, capsys):
    from scorio_core.cli import main

    rows = ["model,question_id,trial,is_correct"]
    rows += [f"m{m},q{q},{t},{int((m + q * t) % 3 == 0)}" for m in range(3) for q in range(6) for t in range(5)]
    path = tmp_path / "a.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["convergence", str(path), "--replicates", "32", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["s"] == [1, 2, 3, 4] and len(doc["pmf"]) == 4 and doc["n"] == [1, 2, 3, 4, 5]
    assert main(["convergence", str(path), "--replicates", "32", "--output", "csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(",")[0] for line in lines[1:5]] == ["1", "2", "3", "4"]  # N = 5: s = 1..4, none skipped


def test_no_negative_zero_in_tables(tmp_path, capsys):
    from scorio_core.cli._common import emit_rows

    emit_rows([{"x": -0.0, "y": -1e-7}], ["x", "y"], "table")
    emit_rows([{"x": -0.0, "y": -1e-7}], ["x", "y"], "md")
    out = capsys.readouterr().out
    assert "-0.0" not in out and "0.0000" in out


def test_errors_under_output_json_are_json_on_stdout_too(tmp_path, capsys):
    """A pipeline parsing stdout gets JSON on failure as well; stderr keeps the one ``error:`` line; status 2."""
    from scorio_core.cli import main

    missing = str(tmp_path / "missing.csv")
    for argv in (["leaderboard", missing, "--output", "json"], ["leaderboard", missing, "--output=json"],
                 ["ranks", str(ROOT / "data" / "matharena_aime_2025_I_counts.csv"), "--bogus", "--output", "json"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        doc = json.loads(captured.out)
        assert doc["exit_status"] == 2 and captured.err == f"error: {doc['error']}\n"
    assert main(["leaderboard", missing]) == 2  # other outputs: stderr only, as before
    assert capsys.readouterr().out == ""
    # the module entry point: same contract in a real process, and a normal exit status
    out = subprocess.run([sys.executable, "-m", "scorio_core", "leaderboard", missing, "--output", "json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 2 and json.loads(out.stdout)["error"].endswith("file not found; check the path.")
