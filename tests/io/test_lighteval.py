"""lighteval output folders: ``details/<model_name>/<date_id>/details_<task>_<date_id>.parquet`` beside
``results/<model_name>/results_<date_id>.json`` (``EvaluationTracker.save``).

Found before (2026-12-05): an output folder was refused on its results file ("no column found for required field
'question_id'"), and its details folder on duplicates: every model was named after the file (the model is only in
the folders, ``meta-llama/Llama-3.1-8B-Instruct`` two of them)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

DATE = "2025-01-01T12-30-45.123456"
MODELS = ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct")
TASKS = ("lighteval|gsm8k|5", "lighteval|arc:challenge|0")


def correct(k, t, q) -> float:
    return float((q + k + t) % 3 == 0)


def write_output(base, models=MODELS, metric=lambda k, t, q: {"acc": correct(k, t, q)}):
    for k, model in enumerate(models):
        details = base / "details" / model / DATE
        details.mkdir(parents=True)
        for t, task in enumerate(TASKS):
            rows = [{"doc": {"query": f"Q{q}", "choices": ["a", "b"], "gold_index": 0, "id": str(q)},
                     "model_response": {"text": ["a"]}, "metric": metric(k, t, q)} for q in range(6)]
            pd.DataFrame(rows).to_parquet(details / f"details_{task}_{DATE}.parquet", index=False)
        results = base / "results" / model
        results.mkdir(parents=True)
        (results / f"results_{DATE}.json").write_text(json.dumps({
            "config_general": {"model_name": model}, "results": {TASKS[0]: {"acc": 0.33}}, "versions": {},
            "config_tasks": {}, "summary_tasks": {}, "summary_general": {}}, indent=2))
    return base


def test_an_output_folder_names_models_by_their_folders(tmp_path):
    ds = io.load([str(write_output(tmp_path))])
    assert {s.format for s in ds.sources} == {"lighteval"}
    assert ds.report.models == tuple(sorted(MODELS)) and ds.report.tasks == tuple(sorted(TASKS))
    counts = ds.to_counts().astype({"model": str, "task": str}).groupby(["model", "task"])["n_correct"].sum()
    for k, model in enumerate(MODELS):
        for t, task in enumerate(TASKS):
            assert counts[(model, task)] == sum(correct(k, t, q) for q in range(6))  # by hand: 2 of 6 each
    assert any("lighteval: 2 results files (aggregated scores) not read" in n for n in ds.report.notes)


def test_a_rate_metric_is_read_as_counts_by_hand(tmp_path, capsys):
    rates = [0.75, 0.5, 0.0, 1.0, 0.25, 0.5]
    write_output(tmp_path, MODELS[:1], lambda k, t, q: {"avg@n:n=4": rates[q]})
    assert main(["leaderboard", str(tmp_path), "--task", TASKS[0], "--prior", "uniform", "--output", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    # by hand: successes 3, 2, 0, 4, 1, 2 of 4; uniform prior (c + 1) / 6 averaged; avg@4 = 12 / 24
    assert row["model"] == MODELS[0] and row["n_trials"] == 4
    assert row["avg"] == pytest.approx(12 / 24) and row["mu"] == pytest.approx((4 + 3 + 1 + 5 + 2 + 3) / 6 / 6)


def test_the_results_file_alone_is_refused_with_the_flag_that_writes_details(tmp_path):
    write_output(tmp_path, MODELS[:1])
    with pytest.raises(InputError, match="--save-details"):
        io.load([str(tmp_path / "results")])


def test_a_mapping_names_the_model_otherwise(tmp_path):
    write_output(tmp_path)
    ds = io.load([str(tmp_path / "details")], mapping={"model": "@folder:2"})
    assert ds.report.models == ("Llama-3.1-8B-Instruct", "Qwen2.5-7B-Instruct")


def test_details_outside_a_run_folder_stay_a_plain_table(tmp_path):
    rows = pd.DataFrame({"model": ["m"] * 3, "question_id": ["a", "b", "c"], "correct": [1, 0, 1]})
    rows.to_parquet(tmp_path / f"details_x_{DATE}.parquet", index=False)
    ds = io.load([str(tmp_path / f"details_x_{DATE}.parquet")])
    assert ds.sources[0].format == "parquet" and ds.report.models == ("m",)


def test_an_uploaded_output_folder_is_stored_as_rows(tmp_path):
    from scorio_core.io import roots

    base = write_output(tmp_path / "out")
    files = [(p.relative_to(base.parent).as_posix(), p.read_bytes()) for p in sorted(base.rglob("*")) if p.is_file()]
    with roots.uploaded_folder(files) as (data_root, pattern):
        dataset, _, stored = roots.load_matches(roots.resolve_in_root(data_root, pattern))
    assert dataset.report.models == tuple(sorted(MODELS))
    assert len(stored) == 1 and stored[0][0].endswith(".attempts.parquet")
