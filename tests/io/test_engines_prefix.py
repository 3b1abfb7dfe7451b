"""Prefix counts in DuckDB -> rank trajectories identical to ``rank_trajectory`` on the pandas-loaded data (issue 15)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import outcomes_for  # noqa: E402
from scorio_core.cli import main  # noqa: E402
from scorio_core.dynamics.prefix import trajectory_from_prefix_stats  # noqa: E402
from scorio_core.dynamics.trajectory import rank_trajectory  # noqa: E402
from scorio_core.errors import InputError  # noqa: E402
from scorio_core.engines import NotReadyError  # noqa: E402
from scorio_core.engines.prefix import prefix_stats  # noqa: E402


def _rows(R: np.ndarray, task: str, models=None, trial_base: int = 0, shuffle_seed: int | None = 1) -> pd.DataFrame:
    """Attempt rows of a ragged tensor (-1 = no trial), trials numbered trial_base + 3 t, rows shuffled."""
    L, M, N = R.shape
    models = models or [f"m{i}" for i in range(L)]
    li, qi, ti = np.nonzero(R >= 0)
    frame = pd.DataFrame({
        "model": np.asarray(models, dtype=object)[li],
        "task": task,
        "question": [f"q{q}" for q in qi],
        "trial": trial_base + 3 * ti,
        "correct": R[li, qi, ti].astype(int),
    })
    if shuffle_seed is not None:
        frame = frame.sample(frac=1.0, random_state=shuffle_seed).reset_index(drop=True)
    return frame


#: (metric, k, tau) of every binary trajectory metric; k = 2 stays within the fewest trials of the fixtures
METRICS = [("bayes", 1, None), ("avg", 1, None), ("pass@k", 2, None), ("pass^k", 2, None), ("g-pass@k_tau", 2, 0.5),
           ("mg-pass@k", 2, None), ("maj@k", 2, None), ("auc@k", 2, None)]
PRIORS = ["uniform", "jeffreys", "empirical-bayes"]


def _pandas_trajectory(path, task, metric, prior, k=1, tau=None):
    ds = io.load(str(path))
    block = outcomes_for(ds, task).binary.complete_block(ragged=True)
    return block, rank_trajectory(block.R, metric, k=k, tau=tau, prior=prior)


def _assert_same(stats, block, t_ref, metric, prior, k=1, tau=None):
    t = trajectory_from_prefix_stats(stats, metric, prior, k=k, tau=tau)
    assert stats.models == block.models
    assert list(stats.notes) == list(block.notes)
    np.testing.assert_array_equal(t.n, t_ref.n)
    np.testing.assert_array_equal(t.ranks, t_ref.ranks)
    np.testing.assert_array_equal(t.gold_ranks, t_ref.gold_ranks)
    np.testing.assert_allclose(t.scores, t_ref.scores, rtol=0, atol=1e-12)
    if metric == "bayes":
        np.testing.assert_allclose(t.sigma, t_ref.sigma, rtol=0, atol=1e-12)
    else:
        assert t.sigma is None and t_ref.sigma is None
    np.testing.assert_allclose(t.kendall_tau, t_ref.kendall_tau, rtol=0, atol=1e-12, equal_nan=True)
    assert t.convergence == t_ref.convergence and t.prior == t_ref.prior and t.metric == t_ref.metric
    assert (t.k, t.tau) == (t_ref.k, t_ref.tau)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("prefix")
    rng = np.random.default_rng(7)
    # task a: complete, 4 models (two identical -> ties), an all-correct question
    A = (rng.random((4, 6, 5)) < 0.6).astype(int)
    A[1] = A[0]
    A[:, 0, :] = 1
    # task b: ragged N per question, a question model 2 never answered (left out)
    B = (rng.random((3, 7, 6)) < 0.5).astype(int)
    B[:, 1, 3:] = -1
    B[0, 2, 1:] = -1
    B[:, 4, 5:] = -1
    B[2, 6, :] = -1
    frame = pd.concat([_rows(A, "a", ["zeta", "alpha", "m10", "m2"]), _rows(B, "b", ["m2", "zeta", "beta"], 100)],
                      ignore_index=True)
    frame.to_parquet(d / "runs.parquet", index=False)
    frame.to_csv(d / "runs.csv", index=False)
    return d


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
@pytest.mark.parametrize("task", ["a", "b"])
@pytest.mark.parametrize("prior", PRIORS)
def test_same_as_rank_trajectory(files, suffix, task, prior):
    path = files / f"runs.{suffix}"
    stats = prefix_stats(str(path), task=task)
    assert stats.ragged == (task == "b")
    fewest = int(stats.final.n.min())  # task b: a cell with 1 trial, so the Pass@k family runs with k = 1
    assert (fewest >= 2) == (task == "a")
    for metric, k, tau in METRICS:
        k = min(k, fewest)
        block, t_ref = _pandas_trajectory(path, task, metric, prior, k, tau)
        _assert_same(stats, block, t_ref, metric, prior, k, tau)


@settings(max_examples=25, deadline=None)
@given(
    L=st.integers(1, 4), M=st.integers(1, 5), N=st.integers(1, 6), seed=st.integers(0, 2**31 - 1),
    ragged=st.booleans(), p=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
)
def test_property_random_tensors(tmp_path_factory, L, M, N, seed, ragged, p):
    rng = np.random.default_rng(seed)
    R = (rng.random((L, M, N)) < p).astype(int)
    if ragged:
        lengths = rng.integers(1, N + 1, size=(L, M))
        R[np.arange(N)[None, None, :] >= lengths[..., None]] = -1
    path = tmp_path_factory.mktemp("prop") / "r.parquet"
    _rows(R, "t", shuffle_seed=seed % 1000).to_parquet(path, index=False)
    stats = prefix_stats(str(path), hash_files=False)
    fewest = int(stats.final.n.min())
    for metric, k, tau in METRICS:
        k = min(k, fewest)
        for prior in PRIORS:
            block, t_ref = _pandas_trajectory(path, None, metric, prior, k, tau)
            _assert_same(stats, block, t_ref, metric, prior, k, tau)


def test_refusals(tmp_path, files):
    with pytest.raises(InputError, match="2 tasks"):
        prefix_stats(str(files / "runs.parquet"))
    with pytest.raises(InputError, match="not in the data"):
        prefix_stats(str(files / "runs.parquet"), task="zzz")
    (tmp_path / "dup.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,0,0\n")
    with pytest.raises(NotReadyError, match="duplicate"):
        prefix_stats(str(tmp_path / "dup.csv"))
    (tmp_path / "soft.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,0.4\n")
    with pytest.raises(NotReadyError, match="non-binary"):
        prefix_stats(str(tmp_path / "soft.csv"))
    (tmp_path / "bad.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,maybe\n")
    with pytest.raises(InputError, match="is_correct") as err:
        prefix_stats(str(tmp_path / "bad.csv"))
    assert "bad.csv" in str(err.value)
    stats = prefix_stats(str(files / "runs.parquet"), task="b")
    with pytest.raises(InputError, match="unknown trajectory metric"):
        trajectory_from_prefix_stats(stats, "pass@2")
    with pytest.raises(InputError, match="unknown prior"):
        trajectory_from_prefix_stats(stats, "bayes", "flat")
    with pytest.raises(ValueError, match="k <= 1"):  # ragged task b: one cell has a single trial
        trajectory_from_prefix_stats(stats, "pass@k", k=2)
    with pytest.raises(ValueError, match="tau is required"):
        trajectory_from_prefix_stats(stats, "g-pass@k_tau", k=2)


def _cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("task", "prior", "extra"), [
    ("a", "uniform", []), ("b", "jeffreys", []), ("b", "empirical-bayes", []),
    ("a", "empirical-bayes", ["--metric", "g-pass@k_tau", "--k", "2", "--tau", "0.5"]),
    ("b", "uniform", ["--metric", "pass^k"]),
])
def test_cli_duckdb_matches_pandas(capsys, files, task, prior, extra):
    payloads = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _cli(capsys, "trajectory", str(files / "runs.parquet"), "--task", task, "--engine", engine,
                              "--prior", prior, *extra, "--output", "json")
        assert code == 0, err
        payloads[engine] = json.loads(out)
        assert payloads[engine].pop("engine") == engine
    a, b = payloads["pandas"], payloads["duckdb"]
    assert a.keys() == b.keys()
    for key in a:
        if key in ("scores", "sigma", "kendall_tau"):
            if a[key] is None:
                assert b[key] is None, key
                continue
            np.testing.assert_allclose(np.array(b[key], dtype=float), np.array(a[key], dtype=float), rtol=0, atol=1e-12)
        else:
            assert b[key] == a[key], key


def test_cli_engine_choice(capsys, files):
    path = str(files / "runs.parquet")
    # a rubric schema needs attempt rows: --engine duckdb refuses it in one line
    schema = files / "schema.json"
    schema.write_text(json.dumps({
        "format": "scorio-rubric", "version": 1, "name": "binary", "thresholds": [], "variables": [],
        "categories": [{"label": "wrong", "condition": "is_correct < 0.5", "weight": 0.0},
                       {"label": "right", "condition": "is_correct >= 0.5", "weight": 1.0}]}))
    code, out, err = _cli(capsys, "trajectory", path, "--task", "a", "--engine", "duckdb", "--schema", str(schema))
    assert code == 2 and err.count("\n") == 1 and "--engine pandas" in err
    code, out, err = _cli(capsys, "trajectory", path, "--task", "a", "--schema", str(schema), "--output", "json")
    assert code == 0 and json.loads(out)["engine"] == "pandas", err
    # auto with a glob picks DuckDB, for the default (empirical-Bayes) prior and the Pass@k family too
    glob = str(files / "*.parquet")
    for extra in ([], ["--metric", "pass@k", "--k", "2"]):
        code, out, err = _cli(capsys, "trajectory", glob, "--task", "a", *extra, "--output", "json")
        assert code == 0, err
        assert json.loads(out)["engine"] == "duckdb"
    # a bad k is one line naming the fix, as with pandas
    code, out, err = _cli(capsys, "trajectory", path, "--task", "b", "--engine", "duckdb", "--metric", "pass@k", "--k", "2")
    assert code == 2 and err.count("\n") == 1 and "k <= 1" in err
