"""A set of models that share questions (``items.linking.shared_subset``): for the views that need every model on
every question (trajectories, convergence@n) when the whole task has no common question."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorio_core.cli import main
from scorio_core.items.linking import shared_models_hint, shared_subset


@settings(max_examples=200, deadline=None)
@given(arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 15))), st.integers(1, 12))
def test_the_models_kept_answered_exactly_the_questions_returned(answered, k):
    found = shared_subset(answered, min_questions=k)
    if not (answered.sum(axis=0) >= 2).any():
        assert found is None
        return
    models, questions = found
    assert models.size >= 2 and questions.size >= 1
    assert answered[np.ix_(models, questions)].all()
    assert questions.tolist() == np.flatnonzero(answered[models].all(axis=0)).tolist()  # every question they share


def test_greedy_by_hand():
    # q0 and q1 are answered by 3 models each; q0 comes first (0, 1, 3), then q1 keeps 0 and 1, who also share nothing
    # else: 2 models on 2 questions. With one question wanted, the 3 models of q0 stay.
    answered = np.array([[1, 1, 0, 1], [1, 1, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]], dtype=bool)
    models, questions = shared_subset(answered, min_questions=2)
    assert (models.tolist(), questions.tolist()) == ([0, 1], [0, 1])
    models, questions = shared_subset(answered, min_questions=1)
    assert (models.tolist(), questions.tolist()) == ([0, 1, 3], [0])
    assert shared_subset(np.eye(3, dtype=bool)) is None  # no question answered by two models
    assert shared_models_hint(["a", "b"], np.eye(2, dtype=bool)) == ""
    assert shared_models_hint(["a b", "c"], np.ones((2, 3), dtype=bool)) == \
        "; e.g. these 2 models share 3 questions: --models 'a b' c"  # shell-quoted, copy-pasteable


def test_the_cli_names_a_set_that_ranks(tmp_path, capsys):
    rows = ["model,question_id,trial,is_correct"]
    for m, qs in {"a": range(0, 6), "b": range(0, 6), "c": range(3, 9), "d": range(6, 12)}.items():
        rows += [f"{m},q{q},{t},{(q + t) % 2}" for q in qs for t in range(3)]
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["trajectory", str(path), "--output", "json"]) == 2
    err = capsys.readouterr().err
    assert "e.g. these 2 models share 6 questions: --models a b" in err  # q3 (a, b, c) first, then q0 keeps a, b: q0-q5
    assert main(["trajectory", str(path), "--models", "a", "b", "--output", "json"]) == 0  # the hint's set ranks
