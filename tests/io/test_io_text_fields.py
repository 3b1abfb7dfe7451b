"""Issue 16: the format readers keep per-attempt text for the drill-down (input, target, answer, ...)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.leaderboard.drilldown import question_attempts
from scorio_core.io._text import TEXT_LIMIT, clip, messages_text

FORMATS = Path(__file__).resolve().parents[1] / "fixtures" / "formats"
HELM = FORMATS / "helm"


def test_lm_eval_keeps_prompt_target_response_and_filtered_response():
    a = io.load(str(FORMATS / "lm_eval_harness")).attempts
    raw = [json.loads(line) for line in (FORMATS / "lm_eval_harness").glob("samples_*.jsonl").__next__().read_text().splitlines()]
    first = a[a["question_id"] == str(raw[0]["doc_id"])].iloc[0]
    assert first["input"] == raw[0]["arguments"]["gen_args_0"]["arg_0"]
    assert first["target"] == raw[0]["target"] == "3"
    assert first["answer"] == raw[0]["resps"][0][0]
    assert first["extracted_answer"] == raw[0]["filtered_resps"][0]


def test_inspect_keeps_input_target_answer_scorer_answer_and_transcript():
    path = FORMATS / "inspect_ai" / "data_arc_qwen.json"
    doc = json.loads(path.read_text())
    a = io.load(str(path)).attempts
    s = doc["samples"][0]
    row = a[a["question_id"] == str(s["id"])].iloc[0]
    assert row["input"] == s["input"]
    assert row["target"] == s["target"] == "A"
    assert row["answer"] == s["output"]["completion"]
    assert row["extracted_answer"] == s["scores"]["choice"]["answer"]
    assert row["explanation"] == s["scores"]["choice"]["explanation"]
    assert row["transcript"].startswith("[user]\n" + s["messages"][0]["content"][:40])
    assert "\n\n[assistant]\n" in row["transcript"]


def test_inspect_eval_archive_keeps_the_same_text():
    a = io.load(str(FORMATS / "inspect_ai" / "log_read_sample.eval")).attempts
    b = io.load(str(FORMATS / "inspect_ai" / "log_read_sample.json")).attempts
    for col in ("input", "target", "answer", "extracted_answer", "transcript"):
        assert a[col].tolist() == b[col].tolist()


def test_helm_keeps_instance_text_correct_references_and_completion():
    run = HELM / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2"
    a = io.load(str(run)).attempts
    state = json.loads((run / "scenario_state.json").read_text())
    rs = state["request_states"][0]
    row = a[a["question_id"] == rs["instance"]["id"]].iloc[0]
    assert row["input"] == rs["instance"]["input"]["text"]
    assert row["answer"] == rs["result"]["completions"][0]["text"]
    correct = [r["output"]["text"] for r in rs["instance"]["references"] if "correct" in r["tags"]]
    letter = {v: k for k, v in rs["output_mapping"].items()}[correct[0]]
    assert row["target"] == f"{letter}: {correct[0]}"
    qa = io.load(str(HELM / "narrative_qa-model=openai_gpt2")).attempts
    assert qa["target"].iloc[0] == "The school Mascot | the schools mascot"  # free-text references, no letters


def test_csv_without_text_has_no_text_columns():
    a = io.load(str(Path(__file__).resolve().parents[2] / "data" / "tau_bench_airline_gpt4o_trials.csv")).attempts
    assert not {"input", "transcript", "answer"} & set(a.columns)


def test_long_text_is_cut_with_a_marker_never_silently():
    text = "y" * (TEXT_LIMIT + 1234)
    out = clip(text, "run.json")
    assert out.startswith("y" * TEXT_LIMIT) and out.endswith("[... 1,234 more characters not kept here; the full text is in run.json]")
    assert clip("y" * TEXT_LIMIT, "run.json") == "y" * TEXT_LIMIT


def test_transcript_renders_parts_reasoning_and_tool_calls_as_text():
    out = messages_text([
        {"role": "system", "content": "be brief"},
        {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "think"}, {"type": "text", "text": "<b>4</b>"}],
         "tool_calls": [{"function": "bash"}]},
        {"role": "tool", "content": [{"type": "image"}]},
    ])
    assert out == "[system]\nbe brief\n\n[assistant]\n[reasoning] think\n<b>4</b>\n[tool calls: bash]\n\n[tool]\n[image]"


@pytest.mark.parametrize("path", ["inspect_ai/data_arc_qwen.json", "lm_eval_harness"])
def test_drilldown_returns_the_text_fields(path):
    ds = io.load(str(FORMATS / path))
    a = ds.attempts
    frame = question_attempts(ds, str(a["task"].iloc[0]), str(a["question_id"].iloc[0]))
    assert {"input", "target", "answer", "extracted_answer"} <= set(frame.columns)
    assert frame["answer"].iloc[0] == a["answer"].iloc[0]


def test_lm_eval_list_metrics_give_each_trial_its_own_response(tmp_path):
    rec = {"doc_id": 7, "target": "4", "arguments": [["2+2=", {"until": ["\n"]}]], "resps": [["4", "5"]],
           "filtered_resps": [["4", "5"]], "filter": "none", "metrics": ["exact_match"], "exact_match": [1.0, 0.0]}
    mc = {"doc_id": 8, "target": 2, "arguments": {"gen_args_0": {"arg_0": "Q?", "arg_1": " A"}},
          "resps": [[["-1.5", "False"]]], "filtered_resps": [["-1.5", "False"]], "filter": "none",
          "metrics": ["exact_match"], "exact_match": [0.0, 1.0]}
    path = tmp_path / "samples_toy_2026-01-01T00-00-00.000000.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(mc) + "\n")
    a = io.load(str(path)).attempts.sort_values(["question_id", "trial"])
    first = a[a["question_id"] == "7"]
    assert first["answer"].tolist() == ["4", "5"] and first["extracted_answer"].tolist() == ["4", "5"]
    assert first["input"].tolist() == ["2+2=", "2+2="] and first["target"].tolist() == ["4", "4"]
    second = a[a["question_id"] == "8"]
    assert second["target"].tolist() == ["2", "2"] and second["input"].tolist() == ["Q?", "Q?"]
    assert second["answer"].isna().all()  # log-likelihoods are numbers, not text: not kept
