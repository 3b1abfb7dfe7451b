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
from scorio_core.analysis import outcomes_for  # noqa: E402
from scorio_core.cli import main  # noqa: E402
from scorio_core.dynamics.prefix import trajectory_from_prefix_stats  # noqa: E402
from scorio_core.dynamics.trajectory import rank_trajectory  # noqa: E402
from scorio_core.errors import InputError  # noqa: E402
from scorio_core.io.engines import NotReadyError  # noqa: E402
from scorio_core.io.engines.prefix import prefix_stats  # noqa: E402


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


def _pandas_trajectory(path, task, metric, prior):
    ds = io.load(str(path))
    block = outcomes_for(ds, task).binary.complete_block(ragged=True)
    return block, rank_trajectory(block.R, metric, prior=prior)


def _assert_same(stats, block, t_ref, metric, prior):
    t = trajectory_from_prefix_stats(stats, metric, prior)
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
@pytest.mark.parametrize("metric", ["bayes", "avg"])
@pytest.mark.parametrize("prior", ["uniform", "jeffreys"])
def test_same_as_rank_trajectory(files, suffix, task, metric, prior):
    path = files / f"runs.{suffix}"
    block, t_ref = _pandas_trajectory(path, task, metric, prior)
    stats = prefix_stats(str(path), task=task)
    assert stats.ragged == (task == "b")
    _assert_same(stats, block, t_ref, metric, prior)


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
    for metric in ("bayes", "avg"):
        for prior in ("uniform", "jeffreys"):
            block, t_ref = _pandas_trajectory(path, None, metric, prior)
            _assert_same(stats, block, t_ref, metric, prior)


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
    stats = prefix_stats(str(files / "runs.parquet"), task="a")
    for metric in ("pass@k", "maj@k"):
        with pytest.raises(InputError, match="--engine pandas"):
            trajectory_from_prefix_stats(stats, metric)
    with pytest.raises(InputError, match="attempt rows"):
        trajectory_from_prefix_stats(stats, "bayes", "empirical-bayes")


def _cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("task", ["a", "b"])
@pytest.mark.parametrize("prior", ["uniform", "jeffreys"])
def test_cli_duckdb_matches_pandas(capsys, files, task, prior):
    payloads = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _cli(capsys, "trajectory", str(files / "runs.parquet"), "--task", task, "--engine", engine,
                              "--prior", prior, "--output", "json")
        assert code == 0, err
        payloads[engine] = json.loads(out)
        assert payloads[engine].pop("engine") == engine
    a, b = payloads["pandas"], payloads["duckdb"]
    assert a.keys() == b.keys()
    for key in a:
        if key in ("scores", "sigma", "kendall_tau"):
            np.testing.assert_allclose(np.array(b[key], dtype=float), np.array(a[key], dtype=float), rtol=0, atol=1e-12)
        else:
            assert b[key] == a[key], key


def test_cli_unsupported_combinations(capsys, files):
    path = str(files / "runs.parquet")
    code, out, err = _cli(capsys, "trajectory", path, "--task", "a", "--engine", "duckdb", "--metric", "pass@k", "--k", "2",
                          "--prior", "uniform")
    assert code == 2 and err.count("\n") == 1 and "--engine pandas" in err
    code, out, err = _cli(capsys, "trajectory", path, "--task", "a", "--engine", "duckdb")  # empirical-bayes default
    assert code == 2 and err.count("\n") == 1 and "--engine pandas" in err
    # auto with a glob picks DuckDB; an unsupported prior falls back to pandas
    glob = str(files / "*.parquet")
    code, out, err = _cli(capsys, "trajectory", glob, "--task", "a", "--output", "json")
    assert code == 0, err
    assert json.loads(out)["engine"] == "pandas"
    code, out, err = _cli(capsys, "trajectory", glob, "--task", "a", "--prior", "uniform", "--output", "json")
    assert code == 0, err
    assert json.loads(out)["engine"] == "duckdb"
