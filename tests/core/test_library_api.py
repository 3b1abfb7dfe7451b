"""The library as a notebook user calls it: documented names exist, entry points take what the app passes,
wrong inputs get errors that say what to pass, and ``import scorio_core`` reaches every subpackage lazily."""

from __future__ import annotations

import ast
import builtins
import io as pyio
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scorio_core import eval as E
from scorio_core import io, rubric
from scorio_core.errors import InputError
from scorio_core.eval.batch import _bayes_batch, _binary_question_scores, bayes_batch, binary_question_scores
from scorio_core.leaderboard.table import categorization_for, leaderboard, outcomes_for

ROOT = Path(__file__).resolve().parents[2]


def _csv(n_models: int = 3, n_questions: int = 6, n_trials: int = 4) -> bytes:
    rng = np.random.default_rng(1)
    lines = ["model,question,trial,correct"]
    for m in range(n_models):
        for q in range(n_questions):
            lines += [f"m{m},q{q},{t},{int(rng.random() < 0.3 + 0.2 * m)}" for t in range(n_trials)]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def dataset():
    return io.load([("t.csv", _csv())])


# ----------------------------------------------------------------------------- docs/ARCHITECTURE.md names
def _defined_names() -> set[str]:
    names = set()
    for base in ("scorio_core", "dashboard", "pages"):
        for path in (ROOT / base).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Assign):
                    names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_architecture_calls_name_functions_that_exist():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code spans only (they may wrap lines)
    called = {m.group(1).split(".")[-1] for span in re.findall(r"`([^`]+)`", text)
              for m in re.finditer(r"([A-Za-z_][\w.]*)\(", span)}
    assert {"bayes_batch", "ranks_with_ties", "load"} <= called  # the extraction sees the API text
    pandas_methods = {"astype", "groupby"}  # pandas, named in the text on pandas behaviour
    missing = sorted(called - _defined_names() - pandas_methods - set(dir(builtins)))
    assert not missing, f"docs/ARCHITECTURE.md calls {missing}, which nothing defines"


def test_architecture_count_level_spelling_works():
    counts = np.array([[2, 3], [1, 4]])
    assert E.bayes(E.CategoryCounts(counts, None), None) == E.bayes(np.array([[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]]))
    assert E.pass_at_k(E.BinaryCounts([3, 4], [5, 5]), 2) == pytest.approx((0.9 + 1.0) / 2)


# ----------------------------------------------------------------------------- planner takes a TaskOutcomes
def test_plan_next_and_project_goal_take_task_outcomes(dataset):
    from scorio_core.plan import plan_next, project_goal

    task = outcomes_for(dataset)
    whole, rubric_only = plan_next(task, draws=200), plan_next(task.rubric, draws=200)
    assert (whole.stop, whole.reason, whole.batch) == (rubric_only.stop, rubric_only.reason, rubric_only.batch)
    a = project_goal(task, replays=1, batches=1, draws=200)
    b = project_goal(task.rubric, replays=1, batches=1, draws=200)
    np.testing.assert_array_equal(a.probability, b.probability)


def test_planner_refuses_other_objects_with_what_to_pass(dataset):
    from scorio_core.plan import plan_next

    with pytest.raises(TypeError, match=r"Outcomes or TaskOutcomes .*outcomes_for\(.*got Dataset"):
        plan_next(dataset)


def test_dynamics_say_what_to_pass_for_outcomes(dataset):
    from scorio_core.dynamics.convergence import bootstrap_convergence
    from scorio_core.dynamics.trajectory import rank_trajectory

    task = outcomes_for(dataset)
    for given in (task, task.rubric):
        with pytest.raises(TypeError, match=r"complete_block\(ragged=True\)\.R"):
            rank_trajectory(given)
        with pytest.raises(TypeError, match=type(given).__name__):
            bootstrap_convergence(given, replicates=2)
    block = task.rubric.complete_block(ragged=True)
    assert rank_trajectory(block.R, w=block.weights).ranks.shape == (block.R.shape[0], block.R.shape[2])  # (L, N)


# ----------------------------------------------------------------------------- the rubric's CategoryCounts in eval
def test_eval_names_the_rubric_category_counts_and_the_way_to_per_question_counts(dataset):
    schema = rubric.get_schema("Binary correctness")
    cat = rubric.categorize(dataset.attempts, schema)
    pooled = rubric.category_counts(dataset.attempts, cat)
    for call in (lambda: E.bayes(pooled, cat.weights), lambda: E.avg(pooled), lambda: E.pass_at_k(pooled, 1),
                 lambda: E.bayes([[0, 1]], R0=pooled), lambda: E.CategoryCounts(pooled)):
        with pytest.raises(TypeError, match=r"per model pooled over questions.*outcomes_for\(dataset, task, "
                                            r"categorization_for"):
            call()
    # the way the message gives: per-question counts of one model
    o = outcomes_for(dataset, None, categorization_for(dataset, schema)[0]).rubric
    c = o.counts[0][o.counts[0].sum(1) > 0]
    codes = dataset.attempts.query("model == 'm0'").pivot(index="question_id", columns="trial", values="is_correct")
    assert E.bayes(E.CategoryCounts(c), o.weights) == pytest.approx(E.bayes(codes.to_numpy().astype(int)))


# ----------------------------------------------------------------------------- io.load's sources
@pytest.mark.parametrize("source,kind", [
    (pyio.BytesIO(b"model,question,trial,correct\n"), "BytesIO"),
    (b"model,question,trial,correct\n", "bytes"),
    ([b"model,question,trial,correct\n"], "bytes"),
    (None, "NoneType"),
    (5, "int"),
    ([5], "int"),
    (pyio.StringIO("model\n"), "StringIO"),
])
def test_load_names_the_type_and_the_accepted_forms(source, kind):
    with pytest.raises(InputError, match=rf"{kind}\b.*a path .*a list of paths, \(name, bytes\) pairs"):
        io.load(source)


def test_load_reads_named_file_objects(tmp_path):
    data = _csv(2, 2, 2)
    buffer = pyio.BytesIO(data)
    buffer.name = "buffered.csv"
    path = tmp_path / "onfile.csv"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        from_handle = io.load(handle)
    expected = io.load([("x.csv", data)]).attempts
    for ds, name in ((io.load(buffer), "buffered.csv"), (from_handle, "onfile.csv")):
        assert ds.sources[0].name == name
        assert ds.attempts[["model", "question_id", "trial", "is_correct"]].equals(
            expected[["model", "question_id", "trial", "is_correct"]])


# ----------------------------------------------------------------------------- README's estimate
def test_estimate_is_mu_for_bayes_and_readme_says_so(dataset):
    task = outcomes_for(dataset)
    board = leaderboard(task, metric="bayes")
    np.testing.assert_array_equal(board["estimate"].to_numpy(), board["mu"].to_numpy())
    avg = leaderboard(task, metric="avg")
    np.testing.assert_allclose(avg["estimate"].to_numpy(), avg["avg"].to_numpy())
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| posterior mean of the metric"))
    assert "equals `mu` for Bayes@N" in row and "e.g. observed avg@N" not in row


# ----------------------------------------------------------------------------- lazy subpackages
def test_every_subpackage_is_reachable_lazily():
    code = (
        "import pkgutil, sys, scorio_core as sc\n"
        "assert not {'numpy', 'pandas', 'scipy'} & set(sys.modules), sorted({'numpy', 'pandas'} & set(sys.modules))\n"
        "names = [m.name for m in pkgutil.iter_modules(sc.__path__) if m.ispkg]\n"
        "assert len(names) >= 15, names\n"
        "assert 'io' in dir(sc) and 'eval' in dir(sc)\n"
        "assert callable(sc.io.load) and callable(sc.rubric.category_counts) and sc.eval.bayes\n"
        "for name in names:\n"
        "    assert getattr(sc, name).__name__ == 'scorio_core.' + name\n"
        "try:\n"
        "    sc.no_such_thing\n"
        "except AttributeError as exc:\n"
        "    assert 'no_such_thing' in str(exc)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


# ----------------------------------------------------------------------------- batch kernels' arguments
@pytest.mark.parametrize("args,kwargs,exc,match", [
    (("pass@k", [-1, 4], [5, 5]), {"k": 1}, ValueError, r"n_correct must lie in \[0, n_trials\]; got n_correct=-1"),
    (("pass@k", [6, 4], [5, 5]), {"k": 2}, ValueError, r"n_correct=6 with n_trials=5"),
    (("pass@k", [3, 4], [5, 5]), {"k": 0}, ValueError, r"k must be an integer >= 1; got k=0"),
    (("pass@k", [3, 4], [5, 5]), {"k": 1.5}, TypeError, r"k must be an integer"),
    (("pass@k", [0, 0], [-1, 5]), {"k": 1}, ValueError, r"n_trials must be >= 0"),
    (("pass@k", [1.5, 0], [5, 5]), {"k": 1}, ValueError, r"n_correct must hold finite whole numbers"),
    (("pass@k", [1, 0, 2], [5, 5]), {"k": 1}, ValueError, r"n_correct and n_trials must broadcast"),
    (("g-pass@k_tau", [1, 0], [5, 5]), {"k": 2, "tau": 1.5}, ValueError, r"tau must satisfy"),
    (("pass@2", [1, 0], [5, 5]), {}, ValueError, r"metric must be one of"),
])
def test_binary_question_scores_checks_its_arguments(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        binary_question_scores(*args, **kwargs)


@pytest.mark.parametrize("counts,w,prior,match", [
    ([[[2, 3], [1, 4]]], [0.0, 0.5, 1.0], None, r"w must have length C\+1 = 2"),
    ([[[2, 3, 0], [1, 4, 1]]], None, None, r"w is required when counts have C\+1 = 3"),
    ([[[2, -3], [1, 4]]], [0.0, 1.0], None, r"counts must be >= 0"),
    ([2, 3], [0.0, 1.0], None, r"counts must have shape \(\.\.\., M, C\+1\)"),
    ([[[2, 3], [1, 4]]], [0.0, 1.0], np.ones((3, 2)), r"prior_counts must broadcast"),
    ([[[2, 3], [1, 4]]], [0.0, 1.0], -np.ones((2, 2)), r"prior_counts must be > -1"),
    ([[[2, np.nan], [1, 4]]], [0.0, 1.0], None, r"counts must hold finite values"),
])
def test_bayes_batch_checks_its_arguments(counts, w, prior, match):
    with pytest.raises(ValueError, match=match):
        bayes_batch(np.asarray(counts), w, prior)


def test_batch_defaults_and_unchecked_variants_agree():
    counts = np.array([[[2, 3], [1, 4]], [[5, 0], [0, 5]]])
    mu, sigma = bayes_batch(counts)  # w=None: binary [0, 1]
    np.testing.assert_array_equal(mu, bayes_batch(counts, [0, 1])[0])
    assert (float(mu[0]), float(sigma[0])) == pytest.approx(E.bayes(np.array([[0, 0, 1, 1, 1], [0, 1, 1, 1, 1]])))
    np.testing.assert_array_equal(sigma, _bayes_batch(counts, np.array([0.0, 1.0]))[1])
    c, n = np.array([[0, 3, 5], [2, 2, 1]]), np.array([[5, 5, 5], [2, 3, 1]])
    for metric in ("avg", "pass@k", "pass^k", "mg-pass@k", "maj@k", "auc@k"):
        np.testing.assert_array_equal(binary_question_scores(metric, c, n, k=2), _binary_question_scores(metric, c, n, 2))
    assert binary_question_scores("pass@k", [3, 4], [5, 5], k=2).round(6).tolist() == [0.9, 1.0]
