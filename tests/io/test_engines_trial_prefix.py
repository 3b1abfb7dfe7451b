"""A count table that keeps its trial order: ``load_counts(trial_prefix=True)`` -> exact observed trajectories (issue 15).

The DuckDB engine computes every task's prefix counts in one window pass beside the count
table; they are kept in the workspace with it, and give the same trajectories as
``rank_trajectory`` on the attempt rows, for every metric, prior and gold standard.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import outcomes_for  # noqa: E402
from scorio_core.dynamics.prefix import align_prefix_stats, trajectory_from_prefix_stats  # noqa: E402
from scorio_core.dynamics.trajectory import rank_trajectory  # noqa: E402
from scorio_core.engines import load_counts  # noqa: E402
from scorio_core.engines.prefix import prefix_stats  # noqa: E402
from scorio_core.engines.uploads import count_uploads  # noqa: E402
from scorio_core.store import Workspace  # noqa: E402
from tests.io.test_engines_prefix import METRICS, PRIORS, _assert_same, files  # noqa: E402,F401


def _block(path, task):
    return outcomes_for(io.load(str(path)), task).binary.complete_block(ragged=True)


def _aligned(stats, block):
    c = block.counts
    return align_prefix_stats(stats, block.models, c.sum(axis=2), c[:, :, 1])


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_every_task_in_one_pass_equals_rank_trajectory(files, suffix):
    path = files / f"runs.{suffix}"
    ds = load_counts(str(path), trial_prefix=True)
    assert set(ds.trial_prefix) == {"a", "b"}
    assert "trial order is kept as prefix counts" in ds.report.notes[0]
    for task in ("a", "b"):
        stats = ds.trial_prefix[task]
        block = _block(path, task)
        aligned = _aligned(stats, block)
        assert aligned is not None and aligned.models == block.models
        assert stats.notes == prefix_stats(str(path), task=task).notes  # same wording as the one-task query
        fewest = int(stats.final.n.min())
        for metric, k, tau in METRICS:
            k = min(k, fewest)
            for prior in PRIORS:
                ref = rank_trajectory(block.R, metric, k=k, tau=tau, prior=prior)
                _assert_same(aligned, block, ref, metric, prior, k, tau)
        for metric in ("bayes", "pass@k"):  # the page's "ranking stops changing at": the trajectory's own gold
            ref = rank_trajectory(block.R, metric, k=1, gold="replicate", prior="uniform")
            got = trajectory_from_prefix_stats(aligned, metric, "uniform", gold="replicate")
            np.testing.assert_array_equal(got.gold_ranks, ref.gold_ranks)
            np.testing.assert_array_equal(got.ranks, ref.ranks)
            assert got.convergence == ref.convergence


def test_kept_only_when_the_trial_order_is_known(tmp_path, files):
    path = files / "runs.parquet"
    assert load_counts(str(path)).trial_prefix is None  # off by default (one window pass more)
    frame = pd.read_parquet(path)
    frame.drop(columns=["trial"]).to_csv(tmp_path / "no_trial.csv", index=False)
    assert load_counts(str(tmp_path / "no_trial.csv"), trial_prefix=True).trial_prefix is None
    counts = frame.groupby(["model", "task", "question"], as_index=False).agg(n_trials=("correct", "size"),
                                                                             n_correct=("correct", "sum"))
    counts.to_csv(tmp_path / "counts.csv", index=False)
    assert load_counts(str(tmp_path / "counts.csv"), trial_prefix=True).trial_prefix is None
    uploaded = count_uploads([("runs.parquet", path.read_bytes())])  # the app's large uploads keep it
    assert set(uploaded.trial_prefix) == {"a", "b"}


def test_alignment_refuses_prefix_counts_of_other_data(files):
    path = files / "runs.parquet"
    stats = load_counts(str(path), trial_prefix=True).trial_prefix["a"]
    block = _block(path, "a")
    c = block.counts
    n, k = c.sum(axis=2), c[:, :, 1]
    assert _aligned(stats, block) is not None
    assert align_prefix_stats(None, block.models, n, k) is None
    assert align_prefix_stats(stats, block.models[:-1], n[:-1], k[:-1]) is None  # a model fewer
    assert align_prefix_stats(stats, ("x",) + block.models[1:], n, k) is None  # another model
    assert align_prefix_stats(stats, block.models, n[:, 1:], k[:, 1:]) is None  # a question fewer
    changed = k.copy()
    changed[0, 1] = n[0, 1] - changed[0, 1]  # one cell's count of correct answers differs
    assert (changed != k).any()
    assert align_prefix_stats(stats, block.models, n, changed) is None
    swapped = k.copy()
    swapped[[0, 2]] = swapped[[2, 0]]  # the same states under other model names
    if not np.array_equal(swapped, k):
        assert align_prefix_stats(stats, block.models, n, swapped) is None


def test_workspace_keeps_the_prefix_counts(tmp_path, files):
    path = files / "runs.parquet"
    ds = load_counts(str(path), trial_prefix=True)
    ws = Workspace(tmp_path / "ws")
    record = ws.save_dataset("runs", [("runs.parquet", path.read_bytes())], ds)
    back = ws.open_dataset(record.id)
    assert set(back.trial_prefix) == set(ds.trial_prefix)
    for task, stats in ds.trial_prefix.items():
        got = back.trial_prefix[task]
        assert (got.models, got.n_questions, got.notes, got.n_attempts) == (stats.models, stats.n_questions, stats.notes,
                                                                              stats.n_attempts)
        np.testing.assert_array_equal(got.n, stats.n)
        for part in ("live", "final"):
            for f in ("model", "n", "c", "count"):
                np.testing.assert_array_equal(getattr(getattr(got, part), f), getattr(getattr(stats, part), f))
    assert ws.gc(0).removed_blobs == 0  # the prefix blob is referenced (from the dataset's meta)
    assert ws.open_dataset(record.id).trial_prefix is not None
    # a damaged or missing prefix blob leaves the counts intact and the trial order unknown (never an error)
    import json
    import sqlite3

    from scorio_core.store.catalog import CATALOG_NAME

    with sqlite3.connect(tmp_path / "ws" / CATALOG_NAME) as conn:
        (meta,) = conn.execute("SELECT report_json FROM datasets WHERE id = ?", (record.id,)).fetchone()
    ws.blobs.remove(json.loads(meta)["trial_prefix"]["sha256"])
    again = ws.open_dataset(record.id)
    assert again.trial_prefix is None
    pd.testing.assert_frame_equal(again.counts, ds.counts)
    plain = load_counts(str(path))  # no prefix counts: nothing more is stored
    assert ws.open_dataset(ws.save_dataset("plain", [("p.parquet", b"x")], plain).id).trial_prefix is None
