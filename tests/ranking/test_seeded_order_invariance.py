"""Seeded Monte-Carlo results do not depend on the input's row order or the engine (scorio_core.arrays.order).

The pandas loader lists models and questions in first-appearance order, the engines in natural order; ``ranks``,
``plan`` (with its projection) and ``methods``' bootstrap draw in the natural order and map back, so a file's rows
shuffled, or counted by DuckDB, give the same numbers for the same seed; so does ``convergence``'s row-wise bootstrap
(the column-wise one resamples trials, whose order is data).
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.cli import main
from scorio_core.arrays.order import canonical_order, canonical_outcomes
from scorio_core.leaderboard.outcomes import Outcomes
from scorio_core.ranking.posterior_ranks import rank_summary

DATA = Path(__file__).resolve().parents[2] / "data"
COUNTS = DATA / "matharena_aime_2025_I_counts.csv"
TRIALS = DATA / "arc_agi_1_public_eval_trials.csv"


def _shuffled(src: Path, tmp_path: Path) -> Path:
    out = tmp_path / src.name  # same name: the JSON's sources differ only by the hash
    pd.read_csv(src).sample(frac=1.0, random_state=7).to_csv(out, index=False)
    return out


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    doc.pop("sources", None)
    doc.pop("engine", None)  # convergence names the engine that read the data
    return doc


def _by_model(doc: dict) -> str:
    """The JSON with every per-model list and dict ordered by model (the input's order is the caller's)."""
    status = doc.get("status", {})
    if "models" in status:
        status["models"] = sorted(status["models"], key=lambda r: r["model"])
    for key in ("trials", "cost_per_trial"):
        if key in doc.get("spent", {}):
            doc["spent"][key] = dict(sorted(doc["spent"][key].items()))
    for task in doc.get("tasks", []):
        task["models"] = sorted(task["models"], key=lambda r: r["model"])
        if task.get("bootstrap"):
            task["bootstrap"]["intervals"] = sorted(task["bootstrap"]["intervals"],
                                                    key=lambda r: (r["model"], r["method"]))
    return json.dumps(doc, sort_keys=True)


CONVERGENCE = ["convergence", "--bootstrap", "row", "--replicates", "40"]  # row-wise: draws per (model, question)


@pytest.mark.parametrize("command", [["ranks", "--draws", "500"],
                                     ["plan", "--draws", "500", "--project", "2", "--replays", "2"], CONVERGENCE])
def test_shuffled_rows_give_the_same_json(command, tmp_path, capsys):
    shuffled = _shuffled(COUNTS, tmp_path)
    base = _json(capsys, [command[0], str(COUNTS), *command[1:], "--output", "json", "--engine", "pandas"])
    again = _json(capsys, [command[0], str(shuffled), *command[1:], "--output", "json", "--engine", "pandas"])
    assert _by_model(base) == _by_model(again)


@pytest.mark.parametrize("command", [["ranks", "--draws", "500"], ["plan", "--draws", "500"], CONVERGENCE])
def test_pandas_and_duckdb_give_the_same_json(command, capsys):
    pytest.importorskip("duckdb")
    pandas = _json(capsys, [command[0], str(COUNTS), *command[1:], "--output", "json", "--engine", "pandas"])
    duckdb = _json(capsys, [command[0], str(COUNTS), *command[1:], "--output", "json", "--engine", "duckdb"])
    assert _by_model(pandas) == _by_model(duckdb)


@pytest.mark.parametrize("path", [COUNTS, TRIALS], ids=["counts", "trials"])
def test_methods_bootstrap_is_the_same_on_shuffled_rows(path, tmp_path, capsys):
    argv = ["--methods", "bayes,thompson,avg,borda", "--bootstrap", "20", "--question-set", "common", "--output",
            "json", "--engine", "pandas"]
    docs = [_json(capsys, ["methods", str(p), *argv]) for p in (path, _shuffled(path, tmp_path))]
    for doc in docs:  # the trial-position note names the flagged models in the input's order (no draw: not seeded)
        for task in doc["tasks"]:
            task["notes"] = [n for n in task["notes"]
                             if "depends on the trial's position" not in (n if isinstance(n, str) else n["message"])]
    assert docs[0]["tasks"][0]["bootstrap"]["intervals"]  # the rank intervals were drawn
    assert _by_model(docs[0]) == _by_model(docs[1])


def _outcomes(counts, models, questions) -> Outcomes:
    return Outcomes(task="t", models=tuple(models), questions=tuple(questions), weights=np.array([0.0, 1.0]),
                    labels=("wrong", "correct"), counts=np.asarray(counts, dtype=np.int64))


def test_plan_next_and_project_goal_do_not_depend_on_the_order():
    from scorio_core.plan import plan_next
    from scorio_core.plan.project import project_goal

    rng = np.random.default_rng(3)
    s = rng.integers(0, 5, size=(5, 12))
    counts = np.stack([4 - s, s], axis=2)
    models, questions = [f"m{i}" for i in range(5)], [f"q{j}" for j in range(12)]
    pm, pq = rng.permutation(5), rng.permutation(12)
    a = _outcomes(counts, models, questions)
    b = _outcomes(counts[pm][:, pq], [models[i] for i in pm], [questions[j] for j in pq])
    cost = np.arange(1.0, 6.0)
    pa = plan_next(a, "top-1", batch=40, draws=400, costs=cost)
    pb = plan_next(b, "top-1", batch=40, draws=400, costs=cost[pm])
    assert [r["model"] for r in pb.status["models"]] == list(b.models)  # the input's order
    assert sorted(pa.status["models"], key=str) == sorted(pb.status["models"], key=str)
    assert pa.batch == pb.batch and pa.goal == pb.goal and pa.spent["cost_per_trial"] == dict(zip(models, cost))
    ja = project_goal(a, "top-1", batches=2, replays=2, batch=40, draws=200)
    jb = project_goal(b, "top-1", batches=2, replays=2, batch=40, draws=200)
    assert np.array_equal(ja.trials, jb.trials) and np.array_equal(ja.probability, jb.probability)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_rank_summary_does_not_depend_on_the_model_order(L, M, seed):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 4, size=(L, M))
    counts = np.stack([3 - s, s], axis=2)
    models = [f"model-{i}" for i in rng.permutation(L)]
    perm = rng.permutation(L)
    a = rank_summary(models, counts, [0.0, 1.0], draws=300, seed=5)
    b = rank_summary([models[i] for i in perm], counts[perm], [0.0, 1.0], draws=300, seed=5)
    assert a == b


def test_canonical_outcomes_is_natural_order_and_keeps_already_sorted_inputs():
    o = _outcomes(np.ones((3, 3, 2)), ["m10", "m2", "a"], ["q1", "q10", "q2"])
    canon, by_model, by_question = canonical_outcomes(o)
    assert canon.models == ("a", "m2", "m10") and canon.questions == ("q1", "q2", "q10")
    assert by_model.tolist() == [2, 1, 0] and by_question.tolist() == [0, 2, 1]
    assert canonical_outcomes(canon)[0] is canon  # already canonical: the same object, the same draws as before
    assert canonical_order(["b", "a"], groups=["t1", "t0"]).tolist() == [1, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab-_ #.0123456789Z\u00e9\u0663", max_size=7), unique=True, max_size=8),
       st.data())
def test_canonical_order_is_the_natural_order_of_the_engines(names, data):
    from scorio_core.arrays.order import natural_key

    assert [names[i] for i in canonical_order(names)] == sorted(names, key=natural_key)
    groups = data.draw(st.lists(st.sampled_from(["t1", "t10", "t2", ""]), min_size=len(names), max_size=len(names)))
    expected = sorted(range(len(names)), key=lambda i: (natural_key(groups[i]), natural_key(names[i])))
    assert canonical_order(names, groups).tolist() == expected
