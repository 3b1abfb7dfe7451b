"""scorio_core.tasks: models x tasks matrix, pass/fail, flaky questions and the combined score."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtri

from scorio_core import io
from scorio_core.leaderboard.table import categorization_for, leaderboard, outcomes_for
from scorio_core.tasks import CELL_COLUMNS, TaskMatrix, combined_score, per_task_categorization, task_matrix

# model, task, question -> outcomes of trials 0 and 1 (2 models x 2 tasks x 2 questions x N = 2)
TINY = {
    ("A", "t1", "q1"): (1, 1), ("A", "t1", "q2"): (1, 0),
    ("A", "t2", "q1"): (0, 0), ("A", "t2", "q2"): (1, 0),
    ("B", "t1", "q1"): (0, 1), ("B", "t1", "q2"): (0, 1),
    ("B", "t2", "q1"): (1, 1), ("B", "t2", "q2"): (1, 1),
}


def _write(tmp_path, outcomes, name="tiny.csv"):
    rows = ["model,task,question_id,trial,is_correct"]
    for (m, t, q), values in outcomes.items():
        rows += [f"{m},{t},{q},{i},{v}" for i, v in enumerate(values)]
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return io.load([str(path)])


@pytest.fixture
def tiny(tmp_path):
    return _write(tmp_path, TINY)


def test_hand_computed_cells(tiny):
    tm = task_matrix(tiny, prior="uniform", threshold=0.5)
    assert tm.tasks == ("t1", "t2") and tm.models == ("A", "B")
    assert list(tm.cells.columns) == list(CELL_COLUMNS)
    cells = tm.cells.set_index(["model", "task"])
    # hand: uniform prior, Beta(c+1, N-c+1) per question, N = 2: mean (c+1)/4, var ab/80
    expected = {  # bayes, sigma^2, avg, flaky, passed (avg >= 0.5)
        ("A", "t1"): ((3 / 4 + 2 / 4) / 2, (3 / 80 + 4 / 80) / 4, 0.75, 1, True),
        ("A", "t2"): ((1 / 4 + 2 / 4) / 2, (3 / 80 + 4 / 80) / 4, 0.25, 1, False),
        ("B", "t1"): ((2 / 4 + 2 / 4) / 2, (4 / 80 + 4 / 80) / 4, 0.50, 2, True),  # 0.5 >= 0.5 passes
        ("B", "t2"): ((3 / 4 + 3 / 4) / 2, (3 / 80 + 3 / 80) / 4, 1.00, 0, True),
    }
    for key, (mu, var, avg, flaky, passed) in expected.items():
        row = cells.loc[key]
        assert row["bayes"] == pytest.approx(mu, abs=1e-12), key
        assert row["sigma"] == pytest.approx(np.sqrt(var), abs=1e-12), key
        assert row["avg"] == pytest.approx(avg, abs=1e-12), key
        assert (row["n"], row["n_max"], row["m"], row["flaky"]) == (2, 2, 2, flaky), key
        assert bool(row["passed"]) is passed, key
        assert row["lo"] <= row["bayes"] <= row["hi"]
    assert set(tm.cells["prior"]) == {"uniform"} and set(tm.cells["scope"]) == {"questions-fixed"}


def test_no_threshold_leaves_passed_na(tiny):
    assert task_matrix(tiny, prior="uniform").cells["passed"].isna().all()


def test_pass_on_bayes(tiny):
    cells = task_matrix(tiny, prior="uniform", threshold=0.6, pass_on="bayes").cells.set_index(["model", "task"])
    assert bool(cells.loc[("A", "t1"), "passed"]) and not bool(cells.loc[("B", "t1"), "passed"])  # 0.625, 0.5


@pytest.mark.parametrize("prior", ["uniform", "jeffreys", "empirical-bayes"])
@pytest.mark.parametrize("scope", ["questions-fixed", "questions-sampled"])
def test_cells_equal_the_leaderboard_of_each_task(tiny, prior, scope):
    tm = task_matrix(tiny, prior=prior, scope=scope, confidence=0.9)
    for task in tm.tasks:
        board = leaderboard(outcomes_for(tiny, task), metric="bayes", prior=prior, scope=scope, confidence=0.9)
        board = board.set_index("model")
        cells = tm.cells[tm.cells["task"] == task].set_index("model").loc[board.index]
        for ours, theirs in (("bayes", "mu"), ("sigma", "sigma"), ("lo", "lo"), ("hi", "hi"), ("avg", "avg"),
                             ("n", "n_trials"), ("m", "n_questions"), ("interval", "interval")):
            assert cells[ours].tolist() == board[theirs].tolist(), (task, ours)


def test_cells_equal_the_leaderboard_on_bundled_livebench():
    from dashboard.data.bundled import BUNDLED

    data = io.apply_choices(io.load([str(p) for p in BUNDLED["livebench-2025-01"].paths]), duplicates="keep-first")
    tm = task_matrix(data)
    for task in tm.tasks[:3]:
        board = leaderboard(outcomes_for(data, task)).set_index("model")
        cells = tm.cells[tm.cells["task"] == task].set_index("model").loc[board.index]
        np.testing.assert_array_equal(cells[["bayes", "lo", "hi", "avg"]].to_numpy(float),
                                      board[["mu", "lo", "hi", "avg"]].to_numpy(float))
    # N = 1: the empirical-Bayes prior is not identified, so the intervals are exact binomial ones, and the
    # matrix's label must say so (it said "credible interval ... Dirichlet fitted" before)
    # (two kinds of fallback: N = 1, and every trial in one category; each label says which cells it covers)
    assert tm.interval.startswith("of ") and ": 95% exact binomial (Clopper-Pearson) interval on the pooled" in tm.interval
    assert "Dirichlet fitted" not in tm.interval


def test_rubric_per_task_equals_the_leaderboard(tmp_path):
    # the bundled paper simulation split into two tasks; a built-in rubric with per-task thresholds
    from dashboard.data.bundled import BUNDLED

    attempts = io.load([str(p) for p in BUNDLED["paper-simulation"].paths]).attempts.copy()
    attempts = attempts[attempts["model"].isin(["mimic-01", "mimic-02", "mimic-03"]) & (attempts["trial"] < 8)]
    qid = attempts["question_id"].astype(str)
    attempts["task"] = np.where(qid.isin(sorted(set(qid))[:15]), "first", "second")
    path = tmp_path / "split.csv"
    attempts.to_csv(path, index=False)
    data = io.load([str(path)])
    per_task = per_task_categorization(data, "Format Aware")
    tm = task_matrix(data, categorization=per_task, prior="uniform")
    assert tm.tasks == ("first", "second")
    for task in tm.tasks:
        cat, _ = categorization_for(data, "Format Aware", task)
        board = leaderboard(outcomes_for(data, task, cat), prior="uniform").set_index("model")
        cells = tm.cells[tm.cells["task"] == task].set_index("model").loc[board.index]
        assert cells["bayes"].tolist() == board["mu"].tolist() and cells["lo"].tolist() == board["lo"].tolist()


def test_combined_score_formula(tiny):
    tm = task_matrix(tiny, prior="uniform", confidence=0.9)
    combined = combined_score(tm).set_index("model")
    mu = tm.pivot("bayes")
    sd = tm.pivot("sigma")
    z = ndtri(0.95)
    for model in ("A", "B"):
        score = mu.loc[model].mean()
        sigma = np.sqrt((sd.loc[model] ** 2).sum()) / 2
        row = combined.loc[model]
        assert row["score"] == pytest.approx(score, abs=1e-15)
        assert row["sigma"] == pytest.approx(sigma, abs=1e-15)
        assert (row["lo"], row["hi"]) == pytest.approx((score - z * sigma, score + z * sigma), abs=1e-15)
        assert row["reason"] == "" and row["n_tasks"] == 2
    # hand: A = (0.625 + 0.375) / 2, B = (0.5 + 0.75) / 2; sigma_A = sqrt(7/320 + 7/320) / 2
    assert combined.loc["A", "score"] == pytest.approx(0.5) and combined.loc["B", "score"] == pytest.approx(0.625)
    assert combined.loc["A", "sigma"] == pytest.approx(np.sqrt(14 / 320) / 2)


def test_model_missing_a_task_gets_nan_with_a_reason(tmp_path):
    data = _write(tmp_path, {**TINY, ("C", "t1", "q1"): (1, 0), ("C", "t1", "q2"): (1, 1)})
    tm = task_matrix(data, prior="uniform")
    assert tm.models == ("A", "B", "C")
    assert np.isnan(tm.pivot("bayes").loc["C", "t2"])
    row = combined_score(tm).set_index("model").loc["C"]
    assert np.isnan(row["score"]) and np.isnan(row["lo"]) and np.isnan(row["hi"])
    assert "t2" in row["reason"] and "all 2 tasks" in row["reason"] and row["n_tasks"] == 1


def test_a_task_emptied_by_a_choice_is_named_in_the_reason(tmp_path):
    """C's every attempt on t2 lacks an outcome; dropping them leaves C no data there: the reason names the
    choice that removed it (a reader must not take it for a task C never ran)."""
    data = _write(tmp_path, {**TINY, ("C", "t1", "q1"): (1, 0), ("C", "t1", "q2"): (1, 1),
                             ("C", "t2", "q1"): ("", ""), ("C", "t2", "q2"): ("", "")})
    dropped = io.apply_choices(data, missing_outcomes="drop")
    assert ("C", "t2", "missing_outcomes=drop") in dropped.report.emptied
    tm = task_matrix(dropped, prior="uniform")
    row = combined_score(tm, emptied=dropped.report.emptied).set_index("model").loc["C"]
    assert np.isnan(row["score"]) and row["n_tasks"] == 1
    assert row["reason"] == ("no data left on task t2 (the choice missing_outcomes=drop removed every row): "
                             "the combined score needs all 2 tasks")
    assert combined_score(tm).set_index("model").loc["C", "reason"].startswith("no data on task t2")


def test_single_task(tmp_path):
    data = _write(tmp_path, {k: v for k, v in TINY.items() if k[1] == "t1"})
    tm = task_matrix(data, prior="uniform")
    combined = combined_score(tm).set_index("model")
    assert tm.tasks == ("t1",)
    assert combined["score"].tolist() == tm.pivot("bayes")["t1"].tolist()
    # nothing is combined: the task's own interval, not a normal one around it
    assert combined["lo"].tolist() == tm.pivot("lo")["t1"].tolist()
    assert combined["hi"].tolist() == tm.pivot("hi")["t1"].tolist()


def test_single_task_with_one_trial_keeps_the_exact_binomial_interval(tmp_path):
    # N = 1: the empirical-Bayes prior is not identified and each cell's interval is Clopper-Pearson on the
    # pooled answers; the combined score once was 0.75 +/- 1.96 * 0.433 = [-0.10, 1.60]
    data = _write(tmp_path, {("A", "t", "q1"): (1,), ("B", "t", "q1"): (0,)})
    tm = task_matrix(data)
    combined = combined_score(tm).set_index("model")
    assert "exact binomial" in tm.interval
    # hand: Clopper-Pearson for 1 of 1 is [0.025, 1], for 0 of 1 [0, 0.975]
    assert combined.loc["A", ["lo", "hi"]].tolist() == pytest.approx([0.025, 1.0], abs=1e-12)
    assert combined.loc["B", ["lo", "hi"]].tolist() == pytest.approx([0.0, 0.975], abs=1e-12)
    # another confidence than the cells' is the normal interval, clipped to [0, 1]
    other = combined_score(tm, confidence=0.9).set_index("model")
    assert other.loc["A", "hi"] == 1.0 and other.loc["B", "lo"] == 0.0


def test_combined_interval_is_clipped_to_the_rubric_range(tiny):
    tm = task_matrix(tiny, prior="uniform")
    assert tm.score_ranges == ((0.0, 1.0), (0.0, 1.0))
    cells = pd.DataFrame({"model": ["A", "A"], "task": ["t1", "t2"], "bayes": [0.98, 0.99], "sigma": [0.05, 0.05],
                          "m": 3})
    wide = TaskMatrix(cells, ("t1", "t2"), ("A",), 0.95, "uniform", "questions-fixed", None)
    row = combined_score(wide).iloc[0]
    # hand: 0.985 + 1.96 * sqrt(2 * 0.05^2) / 2 = 1.054 > 1, clipped; the low end is not
    assert row["hi"] == 1.0 and row["lo"] == pytest.approx(0.985 - ndtri(0.975) * np.sqrt(0.005) / 2, abs=1e-12)
    scaled = TaskMatrix(cells, ("t1", "t2"), ("A",), 0.95, "uniform", "questions-fixed", None,
                        score_ranges=((0.0, 2.0), (0.0, 1.0)))
    assert combined_score(scaled).iloc[0]["hi"] == pytest.approx(0.985 + ndtri(0.975) * np.sqrt(0.005) / 2)


def test_score_ranges_follow_the_rubric_weights(tmp_path):
    from dashboard.data.bundled import BUNDLED

    data = io.load([str(p) for p in BUNDLED["paper-simulation"].paths])
    per_task = per_task_categorization(data, "Format+Confidence")
    tm = task_matrix(data, categorization=per_task, prior="uniform")
    weights = per_task[tm.tasks[0]].weights
    assert tm.score_ranges == ((float(min(weights)), float(max(weights))),)
    assert tm.score_ranges[0][1] > 1.0  # weights 0..5: a combined interval may reach above 1


def test_counts_data(tmp_path):
    path = tmp_path / "counts.csv"
    path.write_text("model,task,question_id,n_trials,n_correct\nA,t1,q1,4,2\nA,t2,q1,4,4\nB,t1,q1,4,0\nB,t2,q1,4,1\n")
    tm = task_matrix(io.load([str(path)]), prior="uniform")
    assert tm.pivot("flaky").loc["A"].tolist() == [1, 0] and tm.pivot("flaky").loc["B"].tolist() == [0, 1]


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"confidence": 1.0}, ValueError), ({"confidence": "x"}, TypeError), ({"threshold": float("nan")}, ValueError),
    ({"threshold": "0.5"}, TypeError), ({"pass_on": "median"}, ValueError), ({"prior": "flat"}, ValueError),
    ({"categorization": 3}, TypeError),
])
def test_bad_arguments(tiny, kwargs, error):
    with pytest.raises(error):
        task_matrix(tiny, **kwargs)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_combined_lies_between_the_task_scores(data):
    T = data.draw(st.integers(1, 6))
    L = data.draw(st.integers(1, 4))
    unit = st.floats(0.0, 1.0, allow_nan=False)
    mu = np.array(data.draw(st.lists(unit, min_size=L * T, max_size=L * T)))
    sd = np.array(data.draw(st.lists(st.floats(0.0, 0.3), min_size=L * T, max_size=L * T)))
    models, tasks = [f"m{i}" for i in range(L)], [f"t{j}" for j in range(T)]
    cells = pd.DataFrame({"model": np.repeat(models, T), "task": np.tile(tasks, L), "bayes": mu, "sigma": sd,
                          "m": 1})
    tm = TaskMatrix(cells, tuple(tasks), tuple(models), 0.95, "uniform", "questions-fixed", None)
    combined = combined_score(tm)
    grid = mu.reshape(L, T)
    score = combined["score"].to_numpy()
    assert np.all(score >= grid.min(axis=1) - 1e-12) and np.all(score <= grid.max(axis=1) + 1e-12)
    assert np.all(combined["lo"] <= combined["score"]) and np.all(combined["score"] <= combined["hi"])
    assert np.all(combined["lo"] >= 0.0) and np.all(combined["hi"] <= 1.0)


def test_combined_interval_covers_its_estimand_in_simulation():
    """The combined interval's coverage is measured, not assumed (benchmarks/bench_tasks_calibration.py runs the
    grid): three tasks of 30 questions, N = 4, 400 seeded replications under the default prior cover the macro
    average of the questions' means at 0.90-0.99 for 95% nominal; under the uniform prior (offsets that do not shrink)
    the same cell covers far less, so the check can fail."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_tasks_calibration.py"
    spec = importlib.util.spec_from_file_location("bench_tasks_calibration", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    coverage, width = bench.combined_coverage(3, 30, 4, reps=400, seed=7)
    assert 0.90 <= coverage <= 0.99 and 0 < width < 0.2
    uniform, _ = bench.combined_coverage(2, 300, 4, reps=400, seed=7, prior="uniform")
    assert uniform < 0.5


def test_pooled_question_names_that_collide_are_refused_naming_both(tmp_path):
    """Task ``a/b`` question ``c`` and task ``a`` question ``b/c`` would both pool as ``a/b/c``."""
    from scorio_core import io
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.table import ALL_TASKS, outcomes_for

    rows = ["model,task,question,trial,correct", "m,a/b,c,0,1", "m,a/b,c,1,0", "m,a,b/c,0,0", "m,a,b/c,1,0"]
    path = tmp_path / "clash.csv"
    path.write_text("\n".join(rows) + "\n")
    data = io.load([str(path)])
    assert outcomes_for(data, "a").rubric.n_questions == 1  # one task at a time is fine
    with pytest.raises(InputError, match=r"two read 'a/b/c'.*question 'c' of task 'a/b'.*question 'b/c' of task 'a'|"
                                         r"two read 'a/b/c'.*question 'b/c' of task 'a'.*question 'c' of task 'a/b'"):
        outcomes_for(data, ALL_TASKS)


def test_exact_ties_are_ordered_as_the_leaderboard_orders_them(capsys):
    """QA: MathArena under the uniform prior, DeepSeek-R1-Distill-Qwen-32B and o3-mini (low) tie exactly; the leaderboard
    lists them by name, the matrix (the Tasks page, ``tasks``) kept the data's order. Cells follow the leaderboard;
    ``models`` keeps the data's order."""
    import json
    from pathlib import Path

    from scorio_core.cli import main

    path = str(Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv")
    data = io.load([path])
    board = leaderboard(outcomes_for(data), prior="uniform")
    tied = board.set_index("model").loc[["DeepSeek-R1-Distill-Qwen-32B", "o3-mini (low)"], "mu"]
    assert tied.iloc[0] == tied.iloc[1]
    tm = task_matrix(data, prior="uniform")
    assert tm.cells["model"].tolist() == board["model"].tolist()
    assert list(tm.models) == [str(m) for m in outcomes_for(data).models]  # first appearance in the data
    assert main(["tasks", path, "--prior", "uniform", "--output", "json"]) == 0
    cells = [c["model"] for c in json.loads(capsys.readouterr().out)["cells"]]
    assert cells == board["model"].tolist()
