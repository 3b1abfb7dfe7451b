"""The category-code rubric (default for category codes without is_correct) and derivation notes that concern
only the signals a rubric reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import eval, io, rubric
from scorio_core.errors import InputError
from scorio_core.leaderboard.table import categorization_for, leaderboard, outcomes_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "categories"


def test_one_category_per_observed_code_weighted_code_over_max():
    s = rubric.category_code_schema(np.array([4, 0, 2, 2, np.nan]))
    assert s.name == rubric.CATEGORY_CODES_SCHEMA and "code / max code" in s.name and "Rubric page" in s.name
    assert s.labels == ("code 0", "code 2", "code 4")
    assert s.weights.tolist() == [0.0, 0.5, 1.0]
    assert [c.condition for c in s.categories] == ["category == 0", "category == 2", "category == 4"]
    assert rubric.category_code_schema([0, 0]).weights.tolist() == [0.0]
    with pytest.raises(InputError, match="no category codes"):
        rubric.category_code_schema([np.nan])


def test_default_only_without_is_correct():
    codes = io.load([str(FIXTURES / "codes.csv")])
    assert rubric.default_schema_for(codes).labels == ("code 0", "code 1", "code 2", "code 3")
    both = io.load([("both.csv", b"model,question_id,trial,category,is_correct\nm,q1,0,3,1\nm,q1,1,0,0\n")])
    assert rubric.default_schema_for(both) is None  # binary correctness stays the default
    assert rubric.default_schema_for(io.load([("b.csv", b"model,question_id,correct\nm,q1,1\n")])) is None
    note = rubric.default_schema_note(rubric.default_schema_for(codes))
    assert "code / max code (0 -> 0, 1 -> 0.333, 2 -> 0.667, 3 -> 1)" in note and "--schema FILE" in note


def test_bayes_under_the_default_equals_the_closed_form_by_hand():
    ds = io.load([str(FIXTURES / "codes.csv")])
    schema = rubric.default_schema_for(ds)
    cat, _ = categorization_for(ds, schema, "math")
    board = leaderboard(outcomes_for(ds, "math", cat), metric="bayes", prior="uniform").set_index("model")
    a = ds.attempts
    w = np.array([0, 1, 2, 3]) / 3
    for model in ("alpha", "beta", "gamma"):
        rows = a[a["model"] == model]
        # paper, uniform Dirichlet prior: mu = mean over questions of sum_k w_k (1 + n_k) / (N + C + 1), C + 1 = 4
        per_q = [(w * (1 + np.bincount(g["category"].to_numpy(int), minlength=4))).sum() / (len(g) + 4)
                 for _, g in rows.groupby("question_id", observed=True)]
        assert board.loc[model, "mu"] == pytest.approx(np.mean(per_q), abs=1e-12)
        R = np.stack([g.sort_values("trial")["category"].to_numpy(int) for _, g in rows.groupby("question_id", observed=True)])
        assert board.loc[model, "mu"] == pytest.approx(eval.bayes(R, w=w)[0], abs=1e-12)


def _notes(schema, frame):
    return " ".join(rubric.categorize(frame, schema).coverage.notes)


def test_not_derived_notes_only_for_signals_the_rubric_reads():
    frame = pd.DataFrame({"model": ["m"] * 2, "question_id": ["q1", "q2"], "trial": [0, 0],
                          "is_correct": [1.0, 0.0], "category": [3, 0]})
    quiet = _notes(rubric.category_code_schema([0, 3]), frame)
    assert "repeated_pattern not derived" not in quiet and "token_ratio not derived" not in quiet
    binary = _notes(rubric.DEFAULT_SCHEMA, frame)
    assert "not derived" not in binary
    exact = _notes("Exact Match", frame)  # reads repeated_pattern (invalid), not token_ratio
    assert "repeated_pattern not derived: the data has no finish_reason." in exact and "token_ratio" not in exact
    efficiency = _notes("Efficiency-Adjusted", frame)
    assert "token_ratio not derived: the data has no completion_tokens." in efficiency
    assert "token_ratio not derived" not in " ".join(rubric.validate(frame, "Exact Match").notes)  # coverage check
