"""Attempts in no rubric category (issue 16): excluded and counted, or counted as a chosen category."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import Categorization, leaderboard, outcomes_for
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.rubric.rerank import UNMATCHED_EXCLUDE, apply_unmatched, check_unmatched_policy, unmatched_by_model

ATTEMPTS = pd.DataFrame({
    "model": ["a"] * 4 + ["b"] * 4,
    "task": ["t"] * 6 + ["u"] * 2,
    "question_id": ["q0", "q0", "q1", "q1"] * 2,
})


def test_policy_and_per_model_counts_by_hand():
    cat = Categorization(np.array([0, -1, 1, 1, -1, -1, -1, 0], dtype=np.int16), np.array([0.0, 1.0]), ("wrong", "right"))
    mask = (ATTEMPTS["task"] == "t").to_numpy()
    table = unmatched_by_model(ATTEMPTS, cat.codes, mask)
    assert table.to_dict("list") == {"model": ["a", "b"], "attempts": [4, 2], "unmatched": [1, 2]}
    assert apply_unmatched(cat, mask, UNMATCHED_EXCLUDE) is cat
    counted = apply_unmatched(cat, mask, "right")
    assert counted.codes.tolist() == [0, 1, 1, 1, 1, 1, -1, 0]  # task u stays outside the scope
    assert check_unmatched_policy("wrong", cat.labels) == 0 and check_unmatched_policy(None, cat.labels) is None
    with pytest.raises(InputError, match="not a category of this rubric; use 'exclude' or one of 'wrong', 'right'"):
        apply_unmatched(cat, mask, "maybe")


def test_excluding_changes_m_and_n_counting_keeps_them():
    frame = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "question_id": ["q0", "q0", "q1", "q1"] * 2,
                          "trial": [0, 1] * 4, "is_correct": [1, 0, 1, 1, 0, 0, 1, 0]})
    ds = io.load([("x.csv", frame.to_csv(index=False).encode())])
    codes = np.array([1, 0, 1, 1, -1, -1, 1, 0], dtype=np.int16)  # model b: q0 matched nothing
    cat = Categorization(codes, np.array([0.0, 1.0]), ("wrong", "correct"))
    excluded = leaderboard(outcomes_for(ds, None, cat), prior="uniform").set_index("model")
    assert excluded.loc["b", "n_questions"] == 1 and excluded.loc["b", "avg"] == 0.5
    mask = np.ones(8, dtype=bool)
    as_wrong = leaderboard(outcomes_for(ds, None, apply_unmatched(cat, mask, "wrong")), prior="uniform").set_index("model")
    assert as_wrong.loc["b", "n_questions"] == 2 and as_wrong.loc["b", "avg"] == 0.25  # (0 + 0 + 1 + 0) / 4


def test_cli_reports_and_applies_the_policy(tmp_path, capsys):
    rows = ["model,question,seed,correct,has_box"]
    rows += [f"m{m},q{q},{t},{(q + t + m) % 2},{'' if (q == 0 and t == 0) else (t % 2)}"
             for m in range(2) for q in range(3) for t in range(4)]
    path = tmp_path / "boxes.csv"
    path.write_text("\n".join(rows) + "\n")
    schema = "Format Compliance & Correctness"
    assert main(["leaderboard", str(path), "--schema", schema, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unmatched"] == {"policy": "exclude", "count": 2, "by_model": {"m0": 1, "m1": 1}}
    assert any(n["code"] == "unmatched" and "2 attempts matched no rubric category" in n["message"] for n in out["notes"])
    assert {r["model"]: r["n_trials"] for r in out["rows"]} == {"m0": 3, "m1": 3}
    assert main(["leaderboard", str(path), "--schema", schema, "--unmatched", "Fully Non-Compliant", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["unmatched"] == "Fully Non-Compliant" and {r["n_trials"] for r in out["rows"]} == {4}
    assert main(["leaderboard", str(path), "--schema", schema, "--unmatched", "nope"]) == 2
    assert "not a category of this rubric" in capsys.readouterr().err
