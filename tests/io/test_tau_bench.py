"""tau-bench (first version) results (``tau_bench/run.py``'s checkpoint file): one attempt per record, the model from
the file name, the domain from the tasks' reference actions, reward 1 a success, simulations that raised counted as
tau-bench counts them (or missing)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.errors import InputError

NAME = "tool-calling-{model}-0.0_range_0--1_user-gpt-4o-llm_1210123456.json"
AIRLINE = [{"name": "get_reservation_details", "kwargs": {"reservation_id": "4WQ150"}},
           {"name": "cancel_reservation", "kwargs": {"reservation_id": "4WQ150"}}]
RETAIL = [{"name": "find_user_id_by_email", "kwargs": {"email": "a@b.c"}},
          {"name": "get_order_details", "kwargs": {"order_id": "#W1"}}]


def record(task: int, trial: int, reward: float, actions=AIRLINE, error: str | None = None) -> dict:
    """One ``EnvRunResult`` as run.py dumps it (a raised simulation: reward 0 and info.error)."""
    info = ({"error": error, "traceback": "Traceback ..."} if error else
            {"task": {"user_id": "u1", "actions": actions, "instruction": "Cancel my trip.", "outputs": []},
             "source": "user", "user_cost": 0.01, "reward_info": {"reward": reward, "info": {"r_actions": reward}}})
    return {"task_id": task, "reward": reward, "info": info,
            "traj": [] if error else [{"role": "system", "content": "policy"}, {"role": "user", "content": "hi"}],
            "trial": trial}


def dump(records) -> bytes:
    return json.dumps(records, indent=2).encode()


RECORDS = [record(0, 0, 1.0), record(0, 1, 0.0), record(1, 0, 1.0 - 1e-9), record(1, 1, 0.0, error="RateLimitError")]


def test_detected_and_the_model_from_the_file_name():
    assert io.detect_format((NAME.format(model="gpt-4o"), dump(RECORDS))) == "tau-bench"
    ds = io.load([(NAME.format(model="gpt-4o"), dump(RECORDS)),
                  ("react-claude-3-5-sonnet-20240620-0.0_range_0-50_user-gpt-4o-llm_0612073827.json",
                   dump([record(0, 0, 0.0, RETAIL)]))])
    pairs = set(zip(ds.attempts["model"].astype(str), ds.attempts["task"].astype(str)))
    assert pairs == {("gpt-4o", "tau-bench-airline"), ("claude-3-5-sonnet-20240620 (react)", "tau-bench-retail")}


def test_rewards_and_errors_as_tau_bench_counts_them():
    ds = io.load([(NAME.format(model="gpt-4o"), dump(RECORDS))])
    a = ds.attempts.sort_values(["question_id", "trial"])
    # by hand: 1 - 1e-9 is a success (tau-bench's 1e-6 tolerance); the raised simulation counts 0
    assert a["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0] and a["trial"].tolist() == [0, 1, 0, 1]
    assert "1 simulation raised an error (info.error) counted as failures" in " ".join(ds.report.notes)
    missing = io.load([(NAME.format(model="gpt-4o"), dump(RECORDS))], errors_as_missing=True)
    np.testing.assert_array_equal(missing.attempts.sort_values(["question_id", "trial"])["is_correct"].to_numpy(),
                                  [1.0, 0.0, 1.0, np.nan])


def test_an_unknown_domain_and_file_name_are_said_and_a_folder_can_name_the_task(tmp_path):
    ds = io.load([("run.json", dump([record(0, 0, 1.0, actions=[]), record(1, 0, 0.0, actions=[])]))])
    assert set(ds.attempts["task"].astype(str)) == {"tau-bench"} and set(ds.attempts["model"].astype(str)) == {"run"}
    notes = " ".join(ds.report.notes)
    assert "the file name is not tau-bench's" in notes and "do not tell the domain" in notes
    (tmp_path / "retail").mkdir()
    (tmp_path / "retail" / NAME.format(model="o1")).write_bytes(dump([record(0, 0, 1.0, actions=[])]))
    ds = io.load(tmp_path / "retail", mapping={"task": "@folder"})
    assert set(ds.attempts["task"].astype(str)) == {"retail"}


def test_refusals():
    with pytest.raises(InputError, match="record 2 needs a task_id, an integer trial and a numeric reward"):
        io.load([(NAME.format(model="m"), dump([record(0, 0, 1.0), {**record(1, 0, 1.0), "reward": None}]))])
    with pytest.raises(InputError, match=r"only task can be named, by the file.s folder \(--map task=@folder:N\)"):
        io.load([(NAME.format(model="m"), dump(RECORDS))], mapping={"model": "traj"})
