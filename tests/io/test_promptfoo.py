"""promptfoo eval output: one attempt per result, (provider, prompt) the model, the test case the question and its
repeats the trials; errored results said and countable as missing; fields promptfoo fixes cannot be mapped."""

from __future__ import annotations

import json
import math

import pytest

from scorio_core import io
from scorio_core.errors import InputError

CASES = [("capital of France", {"country": "France"}), ("capital of Peru", {"country": "Peru"}),
         ("capital of Chad", {"country": "Chad"})]


def output(outcomes: dict, prompts=("concise",), repeat: int = 1, describe: bool = True, error_at=None,
           wrap: bool = True) -> bytes:
    """promptfoo output as ``evaluator.ts`` orders it: test case -> repeat -> provider -> prompt, testIdx counting
    (test case, repeat); ``outcomes[(provider, case, repeat)]`` is the success of every prompt."""
    results, test_idx = [], 0
    for c, (desc, vars_) in enumerate(CASES):
        for r in range(repeat):
            for provider in ("openai:gpt-4o", "anthropic:claude-3-5-sonnet"):
                for p, label in enumerate(prompts):
                    ok = outcomes[(provider, c, r)]
                    errored = error_at == (provider, c, r)
                    results.append({
                        "provider": {"id": provider, "label": ""}, "prompt": {"raw": f"{label}: {{{{country}}}}", "label": label},
                        "promptIdx": p, "testIdx": test_idx, "promptId": "h",
                        "testCase": {"description": desc if describe else None, "vars": vars_, "assert": []},
                        "vars": vars_, "success": ok and not errored, "score": 1.0 if ok else 0.25,
                        "failureReason": 2 if errored else (0 if ok else 1),
                        "error": "API error: 429 rate limited" if errored else None,
                        "latencyMs": 1500, "cost": 0.002, "tokenUsage": {"total": 30, "prompt": 20, "completion": 10},
                        "namedScores": {}, "gradingResult": {"pass": ok, "score": 1.0 if ok else 0.25, "reason": "r"}})
            test_idx += 1
    body = {"version": 3, "timestamp": "2026-01-01", "prompts": [{"label": p} for p in prompts], "results": results,
            "stats": {"successes": 0, "failures": 0, "errors": 0}}
    doc = {"evalId": "eval-abc", "results": body, "config": {"description": "capitals"}, "shareableUrl": None} if wrap else body
    return json.dumps(doc, indent=2).encode()


GPT, CLAUDE = "openai:gpt-4o", "anthropic:claude-3-5-sonnet"
ONE = {(GPT, 0, 0): True, (GPT, 1, 0): True, (GPT, 2, 0): False,
       (CLAUDE, 0, 0): True, (CLAUDE, 1, 0): False, (CLAUDE, 2, 0): False}


def test_detected_and_read_one_attempt_per_result():
    src = ("results.json", output(ONE))
    assert io.detect_format(src) == "promptfoo"
    ds = io.load([src])
    a = ds.attempts.astype({"model": str, "question_id": str, "task": str})
    assert sorted(a["model"].unique()) == [CLAUDE, GPT] and a["task"].unique().tolist() == ["capitals"]
    got = {(m, q): v for m, q, v in a[["model", "question_id", "is_correct"]].itertuples(index=False)}
    assert got == {(GPT, "capital of France"): 1.0, (GPT, "capital of Peru"): 1.0, (GPT, "capital of Chad"): 0.0,
                   (CLAUDE, "capital of France"): 1.0, (CLAUDE, "capital of Peru"): 0.0, (CLAUDE, "capital of Chad"): 0.0}
    assert (a["trial"] == 0).all()
    assert a["latency"].tolist() == [1.5] * 6 and a["completion_tokens"].tolist() == [10] * 6
    assert dict(ds.sources[0].mapping)["model"] == "provider (label, else id)"


def test_repeats_are_trials_and_prompts_split_models_by_hand():
    outcomes = {(p, c, r): (c + r) % 2 == 0 for p in (GPT, CLAUDE) for c in range(3) for r in range(3)}
    ds = io.load([("out.json", output(outcomes, prompts=("concise", "verbose"), repeat=3))])
    assert ds.ready, ds.report.blocking
    counts = ds.to_counts().astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    assert sorted(counts.index.get_level_values(0).unique()) == [f"{p} | {q}" for p in (CLAUDE, GPT) for q in ("concise", "verbose")]
    # case 0: repeats 0, 2 succeed (2 of 3); case 1: repeat 1 only (1 of 3); case 2: 2 of 3
    row = counts.loc[f"{GPT} | verbose"]
    assert row.loc[["capital of France", "capital of Peru", "capital of Chad"], "n_correct"].tolist() == [2, 1, 2]
    assert (counts["n_trials"] == 3).all()
    notes = " ".join(ds.report.notes)
    assert "each (provider, prompt) pair is a model" in notes and "run up to 3 times (--repeat)" in notes


def test_without_descriptions_a_test_case_is_named_by_its_first_test_index():
    outcomes = {(p, c, r): True for p in (GPT, CLAUDE) for c in range(3) for r in range(2)}
    ds = io.load([("out.json", output(outcomes, repeat=2, describe=False, wrap=False))])
    # testIdx counts (case, repeat): case c's runs are 2c and 2c + 1, named by the first
    assert sorted(ds.attempts["question_id"].astype(str).unique()) == ["test 0", "test 2", "test 4"]
    assert sorted(ds.attempts["trial"].unique().tolist()) == [0, 1]
    assert ds.attempts["task"].astype(str).unique().tolist() == ["out"]  # no config: the file stem


def test_errored_results_are_said_and_can_be_read_as_missing():
    src = ("results.json", output(ONE, error_at=(GPT, 0, 0)))
    ds = io.load([src])
    a = ds.attempts.astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    assert a.loc[(GPT, "capital of France"), "is_correct"] == 0.0
    assert any("1 result errored" in n and "429 rate limited" in n and "--errors-as-missing" in n for n in ds.report.notes)
    missing = io.load([src], errors_as_missing=True)
    m = missing.attempts.astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    assert math.isnan(m.loc[(GPT, "capital of France"), "is_correct"]) and missing.report.n_missing_outcomes == 1


def test_refusals_name_the_result_and_the_fix():
    with pytest.raises(InputError, match="nothing can be mapped"):
        io.load([("results.json", output(ONE))], mapping={"model": "provider.id"})
    doc = json.loads(output(ONE))
    doc["results"]["results"][4]["success"] = None
    with pytest.raises(InputError, match=r"result 5 \(testIdx 2\) needs a provider, an integer testIdx and success"):
        io.load([("results.json", json.dumps(doc).encode())])


def test_leaderboard_cli_by_hand(tmp_path, capsys):
    from scorio_core.cli import main

    (tmp_path / "results.json").write_bytes(output(ONE))
    assert main(["leaderboard", str(tmp_path / "results.json"), "--prior", "uniform", "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    # Bayes@N, uniform prior, N = 1: mean over test cases of (c + 1) / 3
    assert rows[GPT]["estimate"] == pytest.approx((2 + 2 + 1) / 3 / 3, abs=1e-12)
    assert rows[CLAUDE]["estimate"] == pytest.approx((2 + 1 + 1) / 3 / 3, abs=1e-12)
