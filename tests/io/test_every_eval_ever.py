"""Every Eval Ever's instance-level records (evaleval/every_eval_ever, ``instance_level_eval.schema.json`` 0.2.1).

One JSON object per sample: ``model_id``, ``evaluation_name`` (the task), ``sample_id``, ``evaluation.is_correct`` and
``evaluation.score``, token usage, and ``error`` (a timeout, a refusal, an API error). They load as a generic JSONL;
an attempt whose ``error`` is set keeps the file's outcome and the notes say how many and how they were counted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError


def _record(model: str, task: str, sample: str, correct: bool, error: str | None = None) -> dict:
    """One record with the schema's required fields (values invented; the shape follows the schema)."""
    return {
        "schema_version": "0.2.1", "evaluation_id": f"{model}/{task}", "model_id": model, "evaluation_name": task,
        "sample_id": sample, "sample_hash": None, "interaction_type": "single_turn",
        "input": {"raw": "Question?", "formatted": None, "reference": ["A"], "choices": ["A", "B"]},
        "output": {"raw": [" A" if correct else " B"], "reasoning_trace": []}, "messages": None,
        "answer_attribution": [{"turn_idx": 0, "source": "output.raw", "extracted_value": "A" if correct else "B",
                                "extraction_method": "exact_match", "is_terminal": True}],
        "evaluation": {"score": float(correct), "is_correct": correct, "num_turns": None, "tool_calls_count": None},
        "token_usage": {"input_tokens": 300, "output_tokens": 1, "total_tokens": 301, "input_tokens_cache_write": None,
                        "input_tokens_cache_read": None, "reasoning_tokens": None},
        "performance": {"latency_ms": None, "time_to_first_token_ms": None, "generation_time_ms": 680.0,
                        "additional_details": None},
        "error": error, "metadata": None,
    }


# openai/gpt2: mmlu 2 of 4 correct (one of the wrong ones an API error), gsm8k 1 of 2; llama: mmlu 3 of 4
RECORDS = ([_record("openai/gpt2", "mmlu", f"id{q}", c, e) for q, (c, e) in
            enumerate([(True, None), (False, "API error: 529 overloaded"), (True, None), (False, None)])]
           + [_record("openai/gpt2", "gsm8k", f"g{q}", c) for q, c in enumerate([True, False])]
           + [_record("meta-llama/Llama-3.2-1B", "mmlu", f"id{q}", c) for q, c in enumerate([True, True, False, True])])
DATA = ("\n".join(json.dumps(r) for r in RECORDS) + "\n").encode()


def test_the_records_load_with_the_evaluation_name_as_task():
    ds = io.load([("instances.jsonl", DATA)])
    mapping = dict(ds.sources[0].mapping)
    assert (mapping["model"], mapping["task"], mapping["question_id"], mapping["is_correct"]) == (
        "model_id", "evaluation_name", "sample_id", "evaluation.is_correct")
    means = ds.attempts.groupby(["model", "task"], observed=True)["is_correct"].mean().to_dict()
    assert means == {("meta-llama/Llama-3.2-1B", "mmlu"): 0.75, ("openai/gpt2", "gsm8k"): 0.5,
                     ("openai/gpt2", "mmlu"): 0.5}  # by hand, above


def test_an_attempt_that_records_an_error_is_counted_as_the_file_says_and_said():
    ds = io.load([("instances.jsonl", DATA)])
    (note,) = [n for n in ds.report.notes if "an error in column" in n]
    assert note.startswith("instances.jsonl: 1 attempt records an error in column 'error' (e.g. 'API error: 529 "
                           "overloaded'); it counts as the outcome column says: 1 incorrect.")
    assert "--missing-outcomes drop" in note
    clean = ("\n".join(json.dumps({**r, "error": None}) for r in RECORDS) + "\n").encode()
    assert not [n for n in io.load([("instances.jsonl", clean)]).report.notes if "an error in column" in n]


def test_the_cli_ranks_the_records_per_task(tmp_path, capsys):
    path = tmp_path / "instances.jsonl"
    path.write_bytes(DATA)
    assert main(["leaderboard", str(path), "--task", "mmlu", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["avg"] for r in doc["rows"]} == {"meta-llama/Llama-3.2-1B": 0.75, "openai/gpt2": 0.5}
    assert any("an error in column" in n["message"] for n in doc["notes"])


def test_an_aggregate_record_is_refused_naming_its_instance_level_file():
    """The aggregate record (``eval.schema.json``) holds one score per evaluation: it names the JSONL to load."""
    doc = {"schema_version": "0.2.0", "evaluation_id": "ai2_arc/m/1", "model_info": {"name": "m", "id": "org/m"},
           "evaluation_results": [{"evaluation_name": "choice", "score_details": {"score": 0.33}}],
           "detailed_evaluation_results": {"format": "jsonl", "file_path": "instance_level_data/arc_m.jsonl"}}
    with pytest.raises(InputError) as info:
        io.load([("aggregate.json", json.dumps(doc).encode())])
    assert str(info.value) == ("aggregate.json: an Every Eval Ever aggregate record (one score per evaluation for "
                               "org/m): Bayes@N and its intervals need each question's outcomes; load its "
                               "instance-level file instead: 'instance_level_data/arc_m.jsonl' (JSON Lines).")


def test_aggregate_records_one_per_line_are_refused_too():
    lines = [{"schema_version": "0.2.0", "evaluation_id": f"arc/{m}/1", "model_info": {"id": m},
              "evaluation_results": [{"evaluation_name": "choice", "score_details": {"score": 0.5}}]} for m in "ab"]
    with pytest.raises(InputError) as info:
        io.load([("aggregate.jsonl", ("\n".join(json.dumps(r) for r in lines) + "\n").encode())])
    assert "an Every Eval Ever aggregate record (one score per evaluation for a)" in str(info.value)
    assert "it names no instance-level file" in str(info.value)


def test_errored_attempts_read_as_missing_on_the_user_s_word(tmp_path, capsys):
    """--errors-as-missing: the API error's outcome (and its score, so no threshold fills it back) is missing, left
    to --missing-outcomes; gpt2's mmlu mean is then 2 of 3 (dropped) or 2 of 4 (counted incorrect), by hand."""
    ds = io.load([("instances.jsonl", DATA)], errors_as_missing=True)
    errored = ds.attempts["question_id"].astype(str).eq("id1") & ds.attempts["model"].astype(str).eq("openai/gpt2")
    assert ds.attempts.loc[errored, ["is_correct", "score"]].isna().all(axis=None)
    assert int(ds.attempts["is_correct"].isna().sum()) == 1
    assert dict(ds.sources[0].mapping)["is_correct"] == (
        "evaluation.is_correct (attempts with an error in 'error' read as missing)")
    assert ("instances.jsonl: 1 attempt with an error in column 'error' read as missing outcomes (--errors-as-missing); "
            "what they count as is the missing-outcomes choice (drop them, or count them incorrect).") in ds.report.notes
    mmlu = {"task": "mmlu", "model": "openai/gpt2"}
    for choice, mean in (("drop", 2 / 3), ("incorrect", 0.5)):
        chosen = io.apply_choices(ds, missing_outcomes=choice).attempts
        rows = chosen[(chosen["task"] == mmlu["task"]) & (chosen["model"] == mmlu["model"])]
        assert rows["is_correct"].mean() == mean
    path = tmp_path / "instances.jsonl"
    path.write_bytes(DATA)
    assert main(["leaderboard", str(path), "--task", "mmlu", "--errors-as-missing", "--output", "json"]) == 2
    assert "--missing-outcomes" in capsys.readouterr().err  # refused until the user chooses
    assert main(["leaderboard", str(path), "--task", "mmlu", "--errors-as-missing", "--missing-outcomes", "drop",
                 "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["avg"] for r in doc["rows"]}["openai/gpt2"] == 2 / 3
    assert main(["leaderboard", str(path), "--errors-as-missing", "--engine", "duckdb"]) == 2
    assert "does not apply --errors-as-missing" in capsys.readouterr().err


def test_errors_as_missing_without_errors_or_rows_says_so():
    clean = ("\n".join(json.dumps({**r, "error": None}) for r in RECORDS) + "\n").encode()
    ds = io.load([("instances.jsonl", clean)], errors_as_missing=True)
    assert "instances.jsonl: no attempt records an error (--errors-as-missing: no error column has a value)." in (
        ds.report.notes)
    counts = io.load([("c.csv", b"model,question_id,n_trials,n_correct\na,q1,3,1\n")], errors_as_missing=True)
    assert any("does not apply to a counts table" in n for n in counts.report.notes)


def test_a_manifest_restores_errors_as_missing(tmp_path, capsys):
    path = tmp_path / "instances.jsonl"
    path.write_bytes(DATA)
    flags = ["--task", "mmlu", "--errors-as-missing", "--missing-outcomes", "drop"]
    assert main(["export", str(path), "--format", "manifest", *flags]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["data"]["reading"] == {"errors_as_missing": True}
    manifest = tmp_path / "m.json"
    manifest.write_text(json.dumps(doc))
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest)]) == 0
    out = capsys.readouterr()
    assert "# note: Files read as the manifest records: --errors-as-missing." in out.err
    assert main(["export", str(path), "--format", "csv", *flags]) == 0
    assert out.out == capsys.readouterr().out


GENUINE = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "every_eval_ever"  # schema 0.3.0 (README)


def test_the_genuine_datastore_folder_loads_its_samples_and_skips_the_aggregate():
    """A datastore folder holds ``{uuid}.json`` (the aggregate, 0.75 accuracy reported) beside
    ``{uuid}_samples.jsonl`` (one sample here, answered correctly): the samples load, the aggregate is skipped, said."""
    ds = io.load(GENUINE)
    rows = ds.attempts[["model", "task", "question_id", "is_correct"]].astype(object).values.tolist()
    assert rows == [["demo-org/demo-model", "demo-source.demo_bench", "demo_0001", 1.0]]
    assert ("f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json: an Every Eval Ever aggregate record (one score per evaluation); "
            "skipped, its per-sample records are read from f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl.") in (
        ds.report.notes)
    with pytest.raises(InputError) as info:  # the aggregate alone: refused, naming the file to load
        io.load(GENUINE / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json")
    assert "load its instance-level file instead: 'data/demo-source/demo-org/demo-model/" in str(info.value)


def test_which_error_values_mark_an_error():
    """Empty, missing and none/null/false/0/no mean no error (whatever the case and spaces); anything else is one."""
    import pandas as pd

    from scorio_core.io.formats.recorded_errors import errored_rows

    values = [None, "timeout", "", " None ", "FALSE", "0", True, 1, "API error", float("nan"), "no"]
    column, errored = errored_rows(pd.DataFrame({"Error": pd.Series(values, dtype=object)}))
    assert column == "Error"
    assert errored.tolist() == [False, True, False, False, False, False, True, True, True, False, False]
    assert errored_rows(pd.DataFrame({"outcome": [1]})) == (None, None)
