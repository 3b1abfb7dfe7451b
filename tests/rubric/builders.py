"""Builders for rubric tests: hand-made attempt tables (imported by the test modules)."""

from __future__ import annotations

import numpy as np
import pandas as pd

# Frozen thresholds used by the hand-made schema tests, so expected categories can be
# written by hand from paper Table 5 without computing percentiles.
FROZEN = {
    "tau_high": 1.0,
    "tau_low_wrong": 1.5,
    "tau_prompt": 3.0,
    "len_p33": 0.2,
    "len_p66": 0.5,
    "corr_p33": 0.8,
    "corr_p66": 1.2,
}

# A valid, in-distribution, mid-length attempt: every paper signal present, not invalid.
BASE_ROW = {
    "repeated_pattern": 0.0,
    "compass_context_A": 0.3,
    "compass_context_B": 0.3,
    "compass_context_C": 0.1,
    "is_correct": 1.0,
    "has_box": 1.0,
    "completion_bpt": 0.9,
    "prompt_bpt": 2.0,
    "token_ratio": 0.3,
}


def make_attempts(rows, base=None, model="m") -> pd.DataFrame:
    """One attempt per dict (over ``base`` defaults), with model/task/question_id/trial."""
    base = BASE_ROW if base is None else base
    records = []
    for i, row in enumerate(rows):
        record = {"model": row.get("model", model), "task": "t", "question_id": f"q{i}", "trial": 0}
        record.update(base)
        record.update({k: v for k, v in row.items() if k != "model"})
        records.append(record)
    return pd.DataFrame.from_records(records)


def random_attempts(rng, n_models=3, n_questions=20, n_trials=8, missing=0.0) -> pd.DataFrame:
    """Random attempts with every paper signal; ``missing`` = share of NaN per signal."""
    n = n_models * n_questions * n_trials
    model = np.repeat([f"m{i}" for i in range(n_models)], n_questions * n_trials)
    question = np.tile(np.repeat([f"q{j}" for j in range(n_questions)], n_trials), n_models)
    trial = np.tile(np.arange(n_trials), n_models * n_questions)
    frame = pd.DataFrame({
        "model": model, "task": "t", "question_id": question, "trial": trial,
        "is_correct": rng.integers(0, 2, n).astype(float),
        "has_box": rng.integers(0, 2, n).astype(float),
        "repeated_pattern": (rng.random(n) < 0.05).astype(float),
        "completion_bpt": np.round(rng.gamma(2.0, 0.5, n), 2),
        "prompt_bpt": np.round(rng.gamma(3.0, 1.0, n), 2),
        "token_ratio": np.round(rng.random(n), 3),
        "compass_context_A": rng.random(n),
        "compass_context_B": rng.random(n) * 0.5,
        "compass_context_C": rng.random(n) * 0.6,
    })
    if missing:
        for col in ("is_correct", "has_box", "completion_bpt", "prompt_bpt", "token_ratio"):
            frame.loc[rng.random(n) < missing, col] = np.nan
    return frame
