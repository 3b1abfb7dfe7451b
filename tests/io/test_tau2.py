"""tau2-bench results files (``tau2 run --save-to``, from sierra-research/tau2-bench ``data_model/simulation.py``):
one attempt per simulation, the agent's LLM the model, the domain the task, reward 1 a success; simulations tau2
leaves out of its metrics read as missing; the "dir" storage's index read and its simulation files left out."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.errors import InputError


def info(llm: str = "gpt-4.1", domain: str = "airline", impl: str = "llm_agent", trials: int = 2) -> dict:
    """``Results.info`` as tau2 writes it (the user guidelines first, as the model's field order puts them)."""
    return {"git_commit": "abc123", "num_trials": trials, "max_steps": 200, "max_errors": 10,
            "user_info": {"implementation": "user_simulator", "llm": "gpt-4.1", "llm_args": {"temperature": 0.0},
                          "global_simulation_guidelines": "You are a customer. " * 20},
            "agent_info": {"implementation": impl, "llm": llm, "llm_args": {"temperature": 0.0}},
            "environment_info": {"domain_name": domain, "policy": "# Airline agent policy\n" * 30, "tool_defs": None},
            "seed": 300}


def simulation(task: str, trial: int, reward: float | None, termination: str = "user_stop") -> dict:
    return {"id": f"sim-{task}-{trial}", "task_id": task, "timestamp": "2025-06-01T10:00:00",
            "start_time": "2025-06-01T10:00:00", "end_time": "2025-06-01T10:01:00", "duration": 60.0,
            "termination_reason": termination, "agent_cost": 0.05, "user_cost": 0.01,
            "reward_info": None if reward is None else {"reward": reward, "db_check": None, "reward_basis": ["DB"]},
            "messages": [{"role": "assistant", "content": "Hello", "turn_idx": 0}], "trial": trial, "seed": 1}


def results(sims: list[dict], **kw) -> bytes:
    return json.dumps({"timestamp": "2025-06-01T10:00:00", "info": info(**kw),
                       "tasks": [{"id": str(i), "description": {"purpose": "x"}} for i in range(3)],
                       "simulations": sims}, indent=2).encode()


SIMS = [simulation("0", 0, 1.0), simulation("0", 1, 0.0), simulation("1", 0, 1.0), simulation("1", 1, 0.5),
        simulation("2", 0, 0.0, "infrastructure_error"), simulation("2", 1, 1.0 - 1e-9)]


def test_detected_by_its_info_block():
    assert io.detect_format(("results.json", results(SIMS))) == "tau2"
    assert io.detect_format(("r.json", b'{"info": {"model": "m"}, "results": []}')) != "tau2"


def test_one_attempt_per_simulation_and_the_non_evaluable_missing():
    ds = io.load([("2025-06-01_airline_gpt-4.1.json", results(SIMS))])
    a = ds.attempts.astype({"model": str, "task": str, "question_id": str}).sort_values(["question_id", "trial"])
    assert set(a["model"]) == {"gpt-4.1"} and set(a["task"]) == {"tau2-airline"}
    assert a["question_id"].tolist() == ["0", "0", "1", "1", "2", "2"] and a["trial"].tolist() == [0, 1, 0, 1, 0, 1]
    # by hand: reward 1 (within 1e-6) a success, 0.5 a failure, the infrastructure error missing
    np.testing.assert_array_equal(a["is_correct"].to_numpy(), [1.0, 0.0, 1.0, 0.0, np.nan, 1.0])
    assert a["score"].tolist()[3] == 0.5 and a["tau2_termination"].tolist()[4] == "infrastructure_error"
    assert np.allclose(a["cost"], 0.05) and np.allclose(a["latency"], 60.0)
    notes = " ".join(ds.report.notes)
    assert "1 simulation ended in infrastructure_error, which tau2 leaves out of its metrics" in notes
    assert "1 attempts (17%) have a partial score strictly between 0 and 1 in 'score'" in notes  # 0.5; 1 - 1e-9 is 1
    assert not ds.ready  # the missing outcome asks for the user's choice
    dropped = io.apply_choices(ds, missing_outcomes="drop")
    assert dropped.ready and len(dropped.attempts) == 5


def test_agent_implementation_and_several_domains():
    ds = io.load([("a.json", results(SIMS[:2], impl="llm_agent_solo", domain="telecom")),
                  ("b.json", results(SIMS[:2], llm="claude-sonnet-4", domain="retail"))])
    pairs = set(zip(ds.attempts["model"].astype(str), ds.attempts["task"].astype(str)))
    assert pairs == {("gpt-4.1 (llm_agent_solo)", "tau2-telecom"), ("claude-sonnet-4", "tau2-retail")}


def test_the_dir_storage_reads_its_index_and_leaves_the_simulation_files(tmp_path):
    run = tmp_path / "run"
    (run / "simulations").mkdir(parents=True)
    index = [{"id": s["id"], "task_id": s["task_id"], "trial": s["trial"],
              "reward": (s["reward_info"] or {}).get("reward"), "termination_reason": s["termination_reason"],
              "agent_cost": 0.05, "duration": 60.0} for s in SIMS]
    (run / "results.json").write_text(json.dumps({"timestamp": "t", "info": info(), "tasks": [],
                                                  "simulation_index": index}))
    for s in SIMS:
        (run / "simulations" / f"{s['id']}.json").write_text(json.dumps(s))
    ds = io.load(run)
    assert [s.format for s in ds.sources] == ["tau2"] and len(ds.attempts) == 6
    assert any("6 tau2 simulation files in simulations/" in n for n in ds.report.notes)


def test_refusals():
    with pytest.raises(InputError, match="holds no simulations"):
        io.load([("results.json", results([]))])
    bad = results([{**SIMS[0], "trial": None}])
    with pytest.raises(InputError, match=r"simulation 1 needs a task_id and an integer trial"):
        io.load([("results.json", bad)])
    with pytest.raises(InputError, match="nothing can be mapped"):
        io.load([("results.json", results(SIMS))], mapping={"model": "info"})
