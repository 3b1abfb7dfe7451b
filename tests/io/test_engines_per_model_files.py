"""Per-model files without a task column read by DuckDB: the tasks and report lines of the pandas loader.

Before: the DuckDB engine gave each file its stem as task, so ``gpt.csv`` + ``claude.csv`` (different models, the
same questions) were one benchmark under ``--engine pandas`` and two tasks of one model each under
``--engine duckdb`` (and under the auto engine once the files are large): a small and a large load of the same
files disagreed. The rule itself is tested in tests/io/test_io_per_model_files.py.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from scorio_core.cli import main  # noqa: E402
from scorio_core.engines import load_counts  # noqa: E402

KEY = ["model", "task", "question_id"]


def _csv(models, questions, trials=2, task=None) -> str:
    head = "model," + ("task," if task else "") + "question_id,trial,is_correct\n"
    return head + "".join(f"{m},{task + ',' if task else ''}q{q},{t},{(q * 7 + t + len(m)) % 3 == 0:d}\n"
                          for m in models for q in questions for t in range(trials))


def _bare(questions, shift) -> str:  # no model and no task column: the stem is both
    return "question_id,trial,is_correct\n" + "".join(f"q{q},{t},{(q + t + shift) % 2}\n" for q in questions for t in range(3))


def _named_like_the_file_table(model: str) -> str:  # 'idx', 'path', 'stem': columns of the engine's file table
    return "model,idx,path,stem,trial,is_correct\n" + "".join(f"{model},{q},p{q},s{q},{t},{(q + t) % 2}\n"
                                                             for q in range(3) for t in range(2))


CASES = {
    "readme": {"gpt.csv": _csv(["gpt"], range(6)), "claude.csv": _csv(["claude"], range(6))},
    "per-task files": {"gsm8k.csv": _csv("ab", range(4)), "math.csv": _csv("ab", range(4))},
    "disjoint questions": {"gpt.csv": _csv(["gpt"], range(0, 4)), "claude.csv": _csv(["claude"], range(4, 8))},
    "half shared": {"gpt.csv": _csv(["gpt"], range(0, 4)), "claude.csv": _csv(["claude"], range(2, 8))},
    "prefix": {f"aime_{m}.csv": _csv([m, m + "-mini"], range(5)) for m in ("gpt", "claude", "llama")},
    "shared model": {"aime_gpt.csv": _csv(["gpt"], range(5)), "aime_claude.csv": _csv(["claude", "gpt"], range(5))},
    "no model column": {"gpt.csv": _bare(range(4), 0), "claude.csv": _bare(range(4), 1)},
    "with a tasked file": {"gpt.csv": _csv(["gpt"], range(3)), "claude.csv": _csv(["claude"], range(3)),
                           "llama.csv": _csv(["llama"], range(2), task="aime")},
    # QA 2026-12-04: DuckDB refused these ("Ambiguous reference to column name 'idx'") when it joined its file table
    "columns named as the file table's": {"gpt.csv": _named_like_the_file_table("gpt"),
                                          "claude.csv": _named_like_the_file_table("claude")},
}


def _write(tmp_path, files) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in files]


def _norm(counts: pd.DataFrame) -> pd.DataFrame:
    out = counts[KEY + ["n_trials", "n_correct"]].astype({k: str for k in KEY})
    return out.sort_values(KEY).reset_index(drop=True).astype({"n_trials": "int64", "n_correct": "int64"})


@pytest.mark.parametrize("case", CASES)
def test_duckdb_gives_the_pandas_loaders_tasks_and_lines(tmp_path, case):
    paths = _write(tmp_path, CASES[case])
    want = io.load(paths)
    got = load_counts(paths, engine="duckdb")
    pd.testing.assert_frame_equal(_norm(got.counts), _norm(want.to_counts()))
    assert sorted(got.report.defaults) == sorted(want.report.defaults)


def test_the_readme_files_are_one_benchmark_under_every_duckdb_path(tmp_path, capsys):
    paths = _write(tmp_path, CASES["readme"])
    assert list(load_counts(paths, engine="duckdb").counts["task"].cat.categories) == ["benchmark"]
    # trial prefixes (trajectories) and rubric counts read the files through the same SELECT
    assert set(load_counts(paths, engine="duckdb", trial_prefix=True).trial_prefix) == {"benchmark"}
    outs = {}
    for engine in ("pandas", "duckdb"):
        for command in (["leaderboard"], ["leaderboard", "--schema", "exact_match"], ["trajectory"]):
            assert main([command[0], *paths, *command[1:], "--engine", engine, "--output", "json"]) == 0
            out = json.loads(capsys.readouterr().out)
            out.pop("engine", None)
            outs.setdefault(" ".join(command), []).append(out)
    for command, (pandas_out, duckdb_out) in outs.items():
        assert pandas_out == duckdb_out, command
    assert {r["task"] for r in outs["leaderboard"][0]["rows"]} == {"benchmark"}
    # the join decides what is ranked together: the command's notes say it, under every engine (QA, CLI maintainer)
    for out in outs["leaderboard"]:
        assert [n["message"] for n in out["notes"] if n["code"] == "load"] == [
            "gpt.csv, claude.csv: no task column; the files hold different models answering the same questions, so "
            "they form one task 'benchmark' (add a task column to name it or to keep them apart)."]


@pytest.mark.parametrize("yes, no", [("yes", "no"), ("y", "n"), ("Yes", "No")])
def test_duckdb_refuses_yes_no_outcomes_as_pandas_does(tmp_path, yes, no):
    # QA (engine parity, 2026-12-02): DuckDB's CSV sniffer typed a column of only yes/no as BOOLEAN and counted 'yes'
    # as correct, where the pandas loader (and Spark) refuse it; the outcome is now read as text, as the ids are
    from scorio_core.errors import InputError

    rows = "".join(f"{m},q{q},{t},{yes if (q + t) % 2 else no}\n" for m in "abc" for q in range(6) for t in range(3))
    path = tmp_path / "yesno.csv"
    path.write_text("model,question_id,trial,is_correct\n" + rows)
    with pytest.raises(InputError, match="must be 0 or 1"):
        io.load(path)
    with pytest.raises(InputError, match="field 'is_correct' must be 0 or 1 \\(true/false\\); got '(n|N)o?'"):
        load_counts(str(path), engine="duckdb")
    # true/false, t/f and 0/1 text still read, the same as pandas
    for true, false in (("true", "false"), ("T", "F"), ("1", "0")):
        path.write_text("model,question_id,trial,is_correct\n" + rows.replace(f",{yes}\n", f",{true}\n").replace(f",{no}\n", f",{false}\n"))
        pd.testing.assert_frame_equal(_norm(load_counts(str(path), engine="duckdb").counts), _norm(io.load(path).to_counts()))
