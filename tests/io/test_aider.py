"""Aider's benchmark results (``tmp.benchmarks/<run>/<lang>/exercises/practice/<exercise>/.aider.results.json``, from
Aider-AI/aider ``benchmark/benchmark.py``): a run folder is one run, one attempt per exercise (passed within its
tries), the exercises' own files left out, runs of one model its trials; uploads, mixed runs and bad files refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io._sources import is_data_name


def result(exercise: str, outcomes: list[bool], model: str = "gpt-4o", fmt: str = "diff", **extra) -> dict:
    """One exercise as ``run_test_real`` writes it."""
    return {"testdir": f"/benchmarks/x/{exercise}", "testcase": exercise, "model": model, "edit_format": fmt,
            "tests_outcomes": outcomes, "cost": 0.25, "duration": 30.0, "test_timeouts": 0, "commit_hash": "abc1234",
            "num_error_outputs": 0, **extra}


def write_run(root, run: str, results: dict, extra_exercises=()) -> None:
    """A polyglot run folder: ``{(lang, exercise): dict or None (no results file)}``, with each exercise's own files."""
    for (lang, ex), doc in {**results, **{k: None for k in extra_exercises}}.items():
        folder = root / run / lang / "exercises" / "practice" / ex
        (folder / ".meta").mkdir(parents=True, exist_ok=True)
        (folder / ".meta" / "config.json").write_text('{"files": {"solution": ["x"]}}')  # hidden: never walked
        if lang == "javascript":
            (folder / "package.json").write_text('{"name": "exercise", "version": "1.0.0"}')
        if lang == "cpp":
            (folder / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.5)\n")
        if doc is not None:
            (folder / ".aider.results.json").write_text(json.dumps(doc, indent=4))


def test_the_results_file_is_data_and_detected():
    assert is_data_name(".aider.results.json") and not is_data_name(".aider.chat.history.json")
    assert io.detect_format((".aider.results.json", json.dumps(result("grep", [True])).encode())) == "aider"
    # renamed, by its content
    assert io.detect_format(("grep.json", json.dumps(result("grep", [False, True])).encode())) == "aider"


def test_a_run_folder_is_one_run_and_runs_of_a_model_its_trials(tmp_path):
    write_run(tmp_path, "2024-12-21-10-00-00--gpt4o", {
        ("python", "bowling"): result("bowling", [True]),
        ("javascript", "bowling"): result("bowling", [False, True]),
        ("cpp", "bank-account"): result("bank-account", [False, False])})
    write_run(tmp_path, "2024-12-22-10-00-00--gpt4o-again", {
        ("python", "bowling"): result("bowling", [False, False]),
        ("javascript", "bowling"): result("bowling", [True])}, extra_exercises=[("cpp", "bank-account")])
    write_run(tmp_path, "2024-12-23-10-00-00--o1-architect", {
        ("python", "bowling"): result("bowling", [True], model="o1", fmt="architect", editor_model="gpt-4o"),
        ("javascript", "bowling"): {"exception": "litellm.APIError: overloaded"},
        ("cpp", "bank-account"): result("bank-account", [], model="o1", fmt="architect", editor_model="gpt-4o")})
    ds = io.load(tmp_path)
    assert ds.ready, ds.report.blocking
    assert [s.format for s in ds.sources] == ["aider"] * 3
    a = ds.attempts.astype({"model": str, "question_id": str, "task": str})
    assert set(a["task"]) == {"aider-polyglot"}
    assert set(a["model"]) == {"gpt-4o (diff)", "o1 + gpt-4o (architect)"}
    gpt = a[a["model"] == "gpt-4o (diff)"].sort_values(["trial", "question_id"])
    # by hand: the outcome is the last try; the same exercise name in two languages is two questions
    assert gpt["question_id"].tolist() == ["cpp/bank-account", "javascript/bowling", "python/bowling",
                                           "javascript/bowling", "python/bowling"]
    assert gpt["trial"].tolist() == [0, 0, 0, 1, 1]
    assert gpt["is_correct"].tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]
    assert gpt["aider_status"].tolist()[:3] == ["failed 2 tries", "passed on try 2", "passed on try 1"]
    assert np.allclose(gpt["cost"], 0.25) and np.allclose(gpt["latency"], 30.0)
    o1 = a[a["model"] == "o1 + gpt-4o (architect)"].sort_values("question_id")
    # the exception counts 0 as aider counts it; no tests run is not a pass
    assert o1["is_correct"].tolist() == [0.0, 0.0, 1.0]
    assert o1["aider_status"].tolist() == ["no tests run", "exception", "passed on try 1"]
    notes = " ".join(ds.report.notes)
    assert "6 other files in the exercise folders not read" in notes  # per run a package.json and a CMakeLists.txt
    assert "1 of 3 exercise folders have no results file" in notes
    assert "exception counted as failures, as aider counts them; --errors-as-missing" in notes
    assert "not independent trials" in notes
    missing = io.load(tmp_path, errors_as_missing=True).attempts
    exc = missing[(missing["model"].astype(str) == "o1 + gpt-4o (architect)")
                  & (missing["question_id"].astype(str) == "javascript/bowling")]
    assert exc["is_correct"].isna().all() and len(exc) == 1


def test_the_older_python_only_layout(tmp_path):
    for ex, outs in (("anagram", [True]), ("grep", [False, False])):
        (tmp_path / "2023-06-01--gpt-3.5" / ex).mkdir(parents=True)
        (tmp_path / "2023-06-01--gpt-3.5" / ex / ".aider.results.json").write_text(json.dumps(
            result(ex, outs, model="gpt-3.5-turbo-0613", fmt="whole")))
        (tmp_path / "2023-06-01--gpt-3.5" / ex / "notes.txt").write_text("a\tb\n1\t2\n")  # an exercise's file
    ds = io.load(tmp_path)
    a = ds.attempts.astype({"model": str, "question_id": str, "task": str}).sort_values("question_id")
    assert a["question_id"].tolist() == ["anagram", "grep"] and a["is_correct"].tolist() == [1.0, 0.0]
    assert set(a["task"]) == {"aider"} and set(a["model"]) == {"gpt-3.5-turbo-0613 (whole)"}
    assert any("2 other files in the exercise folders not read" in n for n in ds.report.notes)


def test_refusals_name_the_file_and_the_fix(tmp_path):
    with pytest.raises(InputError, match="every exercise's file has this name: load the run folder"):
        io.load([(".aider.results.json", json.dumps(result("grep", [True])).encode())])
    write_run(tmp_path / "mixed", "run", {("python", "grep"): result("grep", [True]),
                                          ("python", "bowling"): result("bowling", [True], model="o3")})
    with pytest.raises(InputError, match=r"several models \(gpt-4o \(diff\), o3 \(diff\)\).*run folder of its own"):
        io.load(tmp_path / "mixed")
    write_run(tmp_path / "bad", "run", {("python", "grep"): {**result("grep", []), "tests_outcomes": "passed"}})
    with pytest.raises(InputError, match=r"run/python/exercises/practice/grep/\.aider\.results\.json.*'tests_outcomes'"):
        io.load(tmp_path / "bad")
    with pytest.raises(InputError, match="--map model=.*nothing can be mapped"):
        io.load(tmp_path / "mixed", mapping={"model": "testcase"})
    # the same run folder twice (a copy) would count one run twice
    write_run(tmp_path / "twice" / "a", "run", {("python", "grep"): result("grep", [True])})
    write_run(tmp_path / "twice" / "b", "run", {("python", "grep"): result("grep", [True])})
    with pytest.raises(InputError, match="are the same report"):
        io.load(tmp_path / "twice")


@pytest.mark.parametrize("threshold", [None, 0])  # small files (pandas), and with DuckDB's size threshold at 0
def test_server_folders_store_the_rows_with_their_model_names(tmp_path, threshold):
    from scorio_core.io import roots

    write_run(tmp_path / "evals", "r1", {("python", "grep"): result("grep", [True]),
                                         ("javascript", "react"): result("react", [False])})
    write_run(tmp_path / "evals", "r2", {("python", "grep"): result("grep", [False], model="o3"),
                                         ("javascript", "react"): result("react", [True], model="o3")})
    root = roots.data_roots(str(tmp_path / "evals"))[0]
    dataset, engine, files = roots.load_matches(roots.resolve_in_root(root, "."), threshold=threshold)
    assert engine == "pandas" and len(files) == 1 and files[0][0].endswith(".attempts.parquet")
    again = io.load(files)  # what a session or the workspace re-reads: the models' names are in the rows now
    cols = ["model", "question_id", "trial", "is_correct"]
    key = lambda t: t[cols].astype({"model": str, "question_id": str}).sort_values(cols).reset_index(drop=True)
    assert key(again.attempts).equals(key(dataset.attempts)) and set(key(again.attempts)["model"]) == {"gpt-4o (diff)",
                                                                                                      "o3 (diff)"}
