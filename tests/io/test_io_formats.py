"""Every genuine dump in tests/fixtures/formats loads with the right models, questions, trials.

Expected numbers come from the tools' own summaries or an independent reader; each
assertion says which.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.errors import InputError

FORMATS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "formats"
INSPECT = FORMATS / "inspect_ai"
HELM = FORMATS / "helm"
LMEVAL = FORMATS / "lm_eval_harness"
SAMPLES = LMEVAL / "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl"
RESULTS = LMEVAL / "results_2026-01-21T03-44-18.458309.json"

# inspect_ai 0.3.285 `read_eval_log(f)`: (task, model, [(id, epoch, score value)]), run in a
# throwaway venv on these exact files (inspect_ai is not a dependency of the project).
INSPECT_EXPECTED = {
    "log_read_sample.eval": ("popularity", "ollama/gemma3", [(1, 1, "C")]),
    "log_read_sample.json": ("popularity", "ollama/gemma3", [(1, 1, "C")]),
    "log_streaming.eval": (
        "popularity",
        "azureai/Meta-Llama-3-1-405B-Instruct-jqf",
        [(1, 1, "I"), (2, 1, "C"), (1, 2, "C"), (2, 2, "C")],
    ),
    "mmlu-summary-choices.eval": ("inspect_evals/mmlu_0_shot", "openai/gpt-4o", [(1, 1, "I")]),
    "data_arc_qwen.json": ("inspect_evals/arc_easy", "ollama/qwen2.5:0.5b", [(1, 1, "C"), (2, 1, "I"), (3, 1, "I")]),
    "data_arc_sonnet.json": ("inspect_evals/arc_easy", "anthropic/claude-sonnet-4-0", [(i, 1, "C") for i in range(1, 6)]),
    "data_pubmedqa_gpt4o_mini.json": ("inspect_evals/pubmedqa", "openai/azure/gpt-4o-mini", [("12377809", 1, "C"), ("26163474", 1, "C")]),
}


def _triples(ds):
    t = ds.attempts
    return sorted(zip(t["question_id"].astype(str), t["trial"].astype(int), t["is_correct"]))


@pytest.mark.parametrize("name", sorted(INSPECT_EXPECTED))
def test_inspect_logs_match_inspect_ai_reader(name):
    task, model, samples = INSPECT_EXPECTED[name]
    ds = io.load(INSPECT / name)
    assert ds.sources[0].format == ("inspect-eval" if name.endswith(".eval") else "inspect-json")
    assert ds.report.models == (model,) and ds.report.tasks == (task,)
    value = {"C": 1.0, "I": 0.0}
    assert _triples(ds) == sorted((str(i), e, value[v]) for i, e, v in samples)
    assert ds.ready


def test_inspect_accuracy_equals_log_summary():
    for name in INSPECT_EXPECTED:
        path = INSPECT / name
        if name.endswith(".eval"):
            with zipfile.ZipFile(path) as zf:
                header = json.loads(zf.read("header.json"))
        else:
            header = json.loads(path.read_text())
        # the log's own results.scores[0].metrics.accuracy, computed by Inspect
        accuracy = header["results"]["scores"][0]["metrics"]["accuracy"]["value"]
        ds = io.load(path)
        assert ds.attempts["is_correct"].mean() == pytest.approx(accuracy)
        # results.total_samples counts sample x epoch records
        assert len(ds.attempts) == header["results"]["total_samples"]


def test_inspect_epochs_are_trials_and_signals():
    ds = io.load(INSPECT / "log_streaming.eval")
    t = ds.attempts
    assert sorted(t["trial"].unique().tolist()) == [1, 2]  # header eval.config.epochs == 2, 1-based
    assert t["finish_reason"].astype(str).unique().tolist() == ["stop"]
    # samples/1_epoch_2.json output.usage: input_tokens 66, output_tokens 2
    row = t[(t["question_id"] == "1") & (t["trial"] == 2)].iloc[0]
    assert (row["prompt_tokens"], row["completion_tokens"]) == (66, 2)
    m = dict(ds.sources[0].mapping)
    assert m["trial"] == "epoch" and m["is_correct"] == "scores.match.value"


def test_inspect_partial_credit_is_non_binary(tmp_path):
    log = json.loads((INSPECT / "data_arc_qwen.json").read_text())
    log["samples"][1]["scores"]["choice"]["value"] = "P"
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(log))
    ds = io.load(path)
    assert ds.report.n_non_binary == 1 and not ds.ready  # P = 0.5 needs a threshold
    assert ds.report.non_binary_examples == (0.5,)
    strict = io.apply_choices(ds, binarize_threshold=0.5)  # AISBench: correct iff score > 0.5
    assert _triples(strict) == [("1", 1, 1.0), ("2", 1, 0.0), ("3", 1, 0.0)]
    lenient = io.apply_choices(ds, binarize_threshold=0.4)
    assert _triples(lenient)[1] == ("2", 1, 1.0)


def test_inspect_several_scorers_need_a_choice(tmp_path):
    log = json.loads((INSPECT / "data_arc_qwen.json").read_text())
    for s in log["samples"]:
        s["scores"]["judge"] = {"value": 0.25}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(log))
    with pytest.raises(InputError, match=r"two.json: field 'is_correct' is ambiguous: scorers 'choice', 'judge'"):
        io.load(path)
    ds = io.load(path, mapping={"is_correct": "choice"})
    assert ds.attempts["scorer_judge"].tolist() == [0.25] * 3


def _helm_stats(run: Path) -> dict[str, tuple[float, int]]:
    """exact_match mean and num_instances per split from the run's own stats.json."""
    stats = json.loads((run / "stats.json").read_text())
    em, n = {}, {}
    for s in stats:
        name = s["name"]
        if "perturbation" in name:
            continue
        if name["name"] == "exact_match":
            em[name["split"]] = s["mean"]
        if name["name"] == "num_instances":
            n[name["split"]] = int(s["mean"])
    return {split: (em[split], n[split]) for split in em}


def test_helm_suite_folder_with_what_summarize_writes_beside_the_runs(tmp_path):
    """Found 2026-12-05: a suite folder after helm-summarize (benchmark_output/runs/<suite>/: schema.json, runs.json,
    run_specs.json, groups/ ... beside the run folders), or benchmark_output/ whole (its scenarios/ hold the datasets
    HELM downloaded, as CSV), was refused ("run_specs.json: no column found for required field 'question_id'")."""
    import shutil

    suite = tmp_path / "benchmark_output" / "runs" / "v1"
    shutil.copytree(HELM, suite)
    (suite / "run_specs.json").write_text(json.dumps([{"name": "mmlu:subject=philosophy", "adapter_spec": {},
                                                       "scenario_spec": {}, "metric_specs": [], "groups": ["mmlu"]}]))
    (suite / "runs.json").write_text(json.dumps([{"run_path": "x", "run_spec": {"name": "mmlu"}, "stats": []}]))
    for name in ("schema.json", "summary.json", "costs.json", "groups.json", "groups_metadata.json",
                 "runs_to_run_suites.json"):
        (suite / name).write_text("{}")
    (suite / "groups" / "json").mkdir(parents=True)
    (suite / "groups" / "mmlu.json").write_text(json.dumps([{"title": "MMLU", "header": [], "rows": []}]))
    (suite / "groups" / "json" / "mmlu_accuracy.json").write_text(json.dumps({"title": "Accuracy", "rows": []}))
    data = tmp_path / "benchmark_output" / "scenarios" / "mmlu" / "data" / "test"
    data.mkdir(parents=True)
    (data / "philosophy_test.csv").write_text("What is 1+1?,1,2,3,4,B\n")
    alone = io.load(HELM)
    for path in (suite, tmp_path / "benchmark_output"):
        ds = io.load(path)
        assert ds.attempts.equals(alone.attempts) and len(ds.sources) == 3
        skipped = 10 if path == suite else 11  # 2 + 6 summaries + 2 group tables; + the scenarios CSV
        assert any(n.startswith(f"HELM: {skipped} files beside the run folders not read") for n in ds.report.notes)
    with pytest.raises(InputError, match="HELM's suite summary") as err:
        io.load([suite / "run_specs.json", suite / "runs.json"])
    assert "per_instance_stats.json" in str(err.value)


@pytest.mark.parametrize("run", sorted(p.name for p in HELM.iterdir()))
def test_helm_runs_reproduce_stats_json(run):
    ds = io.load(HELM / run)
    t = ds.attempts
    expected = _helm_stats(HELM / run)
    assert set(t["split"]) == set(expected)
    for split, (mean, n) in expected.items():
        rows = t[t["split"] == split]
        assert len(rows) == n  # stats.json num_instances
        assert rows["is_correct"].mean() == pytest.approx(mean)  # stats.json exact_match
    assert t["trial"].unique().tolist() == [0]  # train_trial_index; adapter_spec.num_train_trials == 1
    assert t["question_id"].nunique() == len(t)


def test_helm_models_tasks_and_folder_of_runs():
    ds = io.load(HELM)  # a folder of three run folders
    # adapter_spec.model of each scenario_state.json
    assert ds.report.models == ("eleutherai/pythia-1b-v0", "openai/gpt2")
    # run_spec.json names without model=; splits other than test in brackets
    assert set(ds.report.tasks) == {
        "commonsense:dataset=hellaswag,method=multiple_choice_joint [valid]",
        "mmlu:subject=philosophy,method=multiple_choice_joint",
        "mmlu:subject=philosophy,method=multiple_choice_joint [valid]",
        "narrative_qa",
        "narrative_qa [valid]",
    }
    assert ds.report.n_rows == 10 + 10 + 5  # len(per_instance_stats.json) of the three runs
    assert {"prompt_tokens", "completion_tokens", "latency", "max_tokens", "finish_reason"} <= set(ds.attempts.columns)


def test_helm_uploaded_files_form_one_run(upload):
    run = HELM / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2"
    files = [upload(n, (run / n).read_bytes()) for n in ("per_instance_stats.json", "scenario_state.json", "run_spec.json")]
    ds = io.load(files)
    assert ds.report.models == ("openai/gpt2",) and ds.report.n_rows == 10
    with pytest.raises(InputError, match="needs per_instance_stats.json"):
        io.load([upload("scenario_state.json", (run / "scenario_state.json").read_bytes())])


def test_helm_outcome_stat_override():
    run = HELM / "narrative_qa-model=openai_gpt2"
    ds = io.load(run, mapping={"is_correct": "f1_score"})
    assert ds.report.n_non_binary > 0  # f1 is a soft score: a threshold is needed
    with pytest.raises(InputError, match="has no 'rouge_x' stat"):
        io.load(run, mapping={"is_correct": "rouge_x"})


def test_lm_eval_samples_with_results_file():
    ds = io.load(LMEVAL)
    results = json.loads(RESULTS.read_text())
    assert ds.report.models == (results["model_name"],)
    assert ds.report.tasks == ("math_perturbed_full",)
    # the samples file holds 10 lines, doc_id 0..9 (wc -l; results n-samples says 5000 upstream)
    assert sorted(ds.attempts["question_id"].astype(int)) == list(range(10))
    assert ds.attempts["trial"].unique().tolist() == [0]
    # results: "exact_match,none": 0.0 for math_perturbed_full
    assert ds.attempts["is_correct"].sum() == 0.0
    assert ds.report.n_all_wrong == 10
    formats = {s.name: (s.format, s.rows) for s in ds.sources}
    assert formats[RESULTS.name] == ("lm-eval-results", 0)
    assert formats[SAMPLES.name] == ("lm-eval-samples", 10)
    # what the run reports and what was loaded are compared (helper QA: neither gap was said)
    assert f"{RESULTS.name}: math_perturbed_full: 10 questions loaded of the 5,000 the results file counts" in \
        " ".join(ds.report.notes)
    assert (f"{RESULTS.name} reports 1 task with no samples loaded, not ranked here: math_rephrased_full (5,000 "
            "samples).") in " ".join(ds.report.notes)


def test_lm_eval_pairs_by_path_either_way(upload):
    assert io.load(RESULTS).report.n_rows == 10  # samples found next to the results file
    assert io.load(SAMPLES).report.models[0].startswith("RylanSchaeffer/")  # results found next to samples
    lone = io.load([upload(SAMPLES.name, SAMPLES.read_bytes())])  # an upload has no folder
    assert lone.report.models == (SAMPLES.name.removesuffix(".jsonl"),)
    assert any("no matching results_<time>.json; model set to the file stem" in d for d in lone.report.defaults)
    with pytest.raises(InputError, match="only aggregate scores"):
        io.load([upload(RESULTS.name, RESULTS.read_bytes())])


def _repeat_records(k: int, per_response: bool) -> bytes:
    out = []
    for line in SAMPLES.read_text().splitlines()[:3]:
        rec = json.loads(line)
        text = rec["resps"][0][0]
        rec["resps"] = [[text] * k]
        rec["filtered_resps"] = [text] * k if per_response else [text]
        rec["exact_match"] = [1.0] + [0.0] * (k - 1) if per_response else 1.0
        out.append(json.dumps(rec))
    return ("\n".join(out) + "\n").encode()


def test_lm_eval_repeats(upload):
    results = RESULTS.read_bytes()
    scalar = io.load([upload("samples_x_2026-01-21T03-44-18.458309.jsonl", _repeat_records(4, False)), upload(RESULTS.name, results)])
    assert scalar.report.n_rows == 3 and scalar.attempts["trial"].unique().tolist() == [0]
    assert any("repeats > 1" in n for n in scalar.report.notes)  # 4 responses, one metric value
    listed = io.load([upload("samples_x_2026-01-21T03-44-18.458309.jsonl", _repeat_records(4, True)), upload(RESULTS.name, results)])
    assert listed.report.n_rows == 12 and sorted(listed.attempts["trial"].unique().tolist()) == [0, 1, 2, 3]
    assert listed.attempts.groupby("question_id", observed=True)["is_correct"].sum().tolist() == [1.0, 1.0, 1.0]


def test_lm_eval_results_with_embedded_samples(upload):
    doc = json.loads(RESULTS.read_text())
    doc["samples"] = {"math_perturbed_full": [json.loads(x) for x in SAMPLES.read_text().splitlines()]}
    ds = io.load([upload("results_embedded.json", json.dumps(doc).encode())])
    assert ds.sources[0].format == "lm-eval-results" and ds.report.n_rows == 10
    assert ds.report.models == (doc["model_name"],)


def test_scorio_verifier_json_equals_bundled_csv():
    repo = FORMATS.parents[2]
    js = io.load(FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json").attempts
    csv = io.load(repo / "data" / "scorio_aime25_q06_verifier_trials.csv").attempts
    assert len(js) == 80  # len(answers) == len(scores) == len(correct) == 80
    assert js["is_correct"].sum() == 32  # sum(correct), counted with Python's csv module on the CSV
    for col in ("model", "task", "question_id"):
        assert js[col].astype(str).tolist() == csv[col].astype(str).tolist()
    np.testing.assert_array_equal(js["trial"], csv["trial"])
    np.testing.assert_array_equal(js["is_correct"], csv["is_correct"])
    np.testing.assert_allclose(js["verifier_score"], csv["verifier_score"])
    assert js["answer"].astype(str).tolist() == csv["answer"].astype(str).tolist()


def test_scorio_jsonl_fields_map_to_canonical_signals(upload):
    recs = []
    for seed, correct in ((11, 1), (12, 0)):
        recs.append({
            "seed": seed, "data_id": 6, "model": "m",
            "output": {"finish_reason": "length" if seed == 12 else "stop", "num_completion_tokens": 100 * seed},
            "tokens": {"completion_ppl": 1.5, "prompt_ppl": 7.0, "completion_logprob_list": [-1.0, None, -3.0],
                       "completion_sum_logprob": -4.0},
            "processed_results": {"is_correct": correct, "has_box": 1},
        })
    data = ("\n".join(json.dumps(r) for r in recs) + "\n").encode()
    ds = io.load([upload("aime25.jsonl", data)])
    t = ds.attempts
    assert ds.sources[0].format == "scorio-jsonl"
    assert t["trial"].tolist() == [11, 12] and t["question_id"].tolist() == ["6", "6"]
    assert t["is_correct"].tolist() == [1.0, 0.0] and t["has_box"].tolist() == [1.0, 1.0]
    assert t["finish_reason"].astype(str).tolist() == ["stop", "length"]
    assert t["completion_tokens"].tolist() == [1100, 1200]
    assert t["completion_logprob_mean"].tolist() == [-2.0, -2.0]  # mean of [-1, -3], null skipped
    assert t["completion_ppl"].tolist() == [1.5, 1.5] and t["prompt_ppl"].tolist() == [7.0, 7.0]
    assert t["tokens.completion_sum_logprob"].tolist() == [-4.0, -4.0]  # other numeric fields kept
    assert ds.report.tasks == ("aime25",) and "task set to the file stem" in ds.report.defaults[0]
    # the line-by-line path (mixed is_correct types) gives the same table
    recs[1]["processed_results"]["is_correct"] = False
    mixed = io.load([upload("aime25.jsonl", ("\n".join(json.dumps(r) for r in recs) + "\n").encode())]).attempts
    pd.testing.assert_frame_equal(mixed[t.columns.tolist()], t, check_dtype=False, check_categorical=False)


def test_compass_fields_found_anywhere():
    data = b'{"seed":1,"data_id":"a","model":"m","processed_results":{"is_correct":1},"verifier":{"compass_context_A":0.9,"compass_context_B":0.05,"compass_context_C":0.05}}\n'
    t = io.load([("v.jsonl", data)]).attempts
    assert t[["compass_context_A", "compass_context_B", "compass_context_C"]].iloc[0].tolist() == [0.9, 0.05, 0.05]


def test_helm_single_file_path_joins_its_folder():
    run = HELM / "narrative_qa-model=openai_gpt2"
    a = io.load([run / "scenario_state.json", run / "per_instance_stats.json"])  # same run twice
    b = io.load(run / "scenario_state.json")
    assert a.report.n_rows == b.report.n_rows == 5 and a.sources[0].name == run.name


def test_lm_eval_runs_with_one_timestamp_in_several_model_folders(tmp_path):
    """details/<model>/results_<time>.json + samples_<task>_<time>.jsonl per model: when two models' runs share a
    timestamp (one file name in several folders), each samples file takes its own folder's results (was: every
    samples file took the last results file loaded, all rows under one model, refused as duplicates)."""
    import shutil

    samples = next(LMEVAL.glob("samples_*.jsonl"))
    results = next(LMEVAL.glob("results_*.json"))
    for m in ("a", "b", "c"):
        folder = tmp_path / f"org__model-{m}"
        folder.mkdir()
        shutil.copy(samples, folder / samples.name)
        doc = json.loads(results.read_text())
        doc["model_name"] = f"org/model-{m}"
        (folder / results.name).write_text(json.dumps(doc))
    ds = io.load([tmp_path])
    assert ds.ready, ds.report.blocking
    per_model = ds.attempts.groupby("model", observed=True)["question_id"].nunique().to_dict()
    assert per_model == {"org/model-a": 10, "org/model-b": 10, "org/model-c": 10}
    # results files of two folders, the samples of one: the other's samples are found beside its results on disk
    two = io.load([tmp_path / "org__model-a" / results.name, tmp_path / "org__model-b" / results.name,
                   tmp_path / "org__model-a" / samples.name])
    assert sorted(two.attempts["model"].astype(str).unique()) == ["org/model-a", "org/model-b"]
