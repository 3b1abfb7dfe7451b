"""Cluster-robust standard errors for the questions-sampled scope (issue 40, Miller 2024).

Hand values, invariants (hypothesis) and the coverage of the clustered interval measured by simulation on a pool
of clustered questions, with the unclustered interval beside it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit

from scorio_core.errors import InputError
from scorio_core.uncertainty.batch import posterior_summary_batch
from scorio_core.uncertainty.clustered import cluster_codes, clustered_pair_se, clustered_pair_se_matrix, clustered_se


def test_hand_values():
    # scores (1, 1, 0.5, 0.5, NaN) in clusters (0, 0, 1, 1, 2): mean 0.75 over 4 answered questions, cluster sums of the
    # deviations 0.5 and -0.5, C = 2 clusters answered: SE^2 = 2/1 * (0.25 + 0.25) / 16 = 0.0625
    assert clustered_se([[1.0, 1.0, 0.5, 0.5, np.nan]], [0, 0, 1, 1, 2])[0] == pytest.approx(0.25, abs=1e-15)
    # one cluster answered: cannot be estimated
    assert np.isnan(clustered_se([[1.0, 0.0, np.nan]], [0, 0, 1])[0])
    # paired: differences (0.5, 0.5, 0, 0) in clusters (0, 0, 1, 1): mean 0.25, sums 0.5 and -0.5 -> 0.25
    assert clustered_pair_se([0.5, 0.5, 0.0, 0.0, np.nan], [0, 0, 1, 1, 1]) == pytest.approx(0.25)
    assert list(cluster_codes(["p2", "p1", "p2", 7])) == [0, 1, 0, 2]
    with pytest.raises(InputError, match="cluster column 'passage' is empty for 1 of 3 questions"):
        cluster_codes(["a", None, "b"], column="passage")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=30))
def test_one_question_per_cluster_is_the_independent_formula(scores):
    x = np.array(scores)
    expected = np.std(x, ddof=1) / np.sqrt(x.size)
    assert clustered_se(x[None, :], np.arange(x.size))[0] == pytest.approx(expected, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(3, 12), st.integers(0, 2**31 - 1))
def test_pair_matrix_equals_each_pair(n_models, n_questions, seed):
    rng = np.random.default_rng(seed)
    scores = rng.random((n_models, n_questions))
    clusters = rng.integers(0, 3, n_questions)
    matrix = clustered_pair_se_matrix(scores, clusters)
    for i in range(n_models):
        for j in range(n_models):
            expected = clustered_pair_se(scores[i] - scores[j], clusters)  # NaN with one cluster, else 0 when i == j
            if np.isnan(expected):
                assert np.isnan(matrix[i, j])
            else:
                assert matrix[i, j] == pytest.approx(expected, abs=1e-12)


def test_clustered_interval_covers_the_pool_mean_by_simulation():
    """Pool: 4,000 clusters of 5 questions, p = expit(b + u_cluster + e_question) with u ~ N(0, 1.2^2) shared by a
    cluster and e ~ N(0, 0.5^2); 5 models (b from -1 to 1). Each of 300 replications draws 20 clusters (100 questions)
    and N = 4 trials per question. The estimand of the questions-sampled scope is each model's mean over the whole pool.
    Measured (seed 11): clustered 95% interval covers 0.953, the unclustered one (questions as independent) 0.771."""
    rng = np.random.default_rng(11)
    n_pool, size, n_clusters, n_trials, n_models = 4000, 5, 20, 4, 5
    b = np.linspace(-1.0, 1.0, n_models)
    logit = rng.normal(0, 1.2, n_pool)[:, None] + rng.normal(0, 0.5, (n_pool, size))
    p = expit(b[:, None, None] + logit[None])
    theta = p.reshape(n_models, -1).mean(axis=1)
    codes = np.repeat(np.arange(n_clusters), size)
    covered = {True: [], False: []}
    for _ in range(300):
        pq = p[:, rng.choice(n_pool, n_clusters, replace=False), :].reshape(n_models, -1)
        k = rng.binomial(n_trials, pq)
        counts = np.stack([n_trials - k, k], axis=-1)
        for clustered in (True, False):
            s = posterior_summary_batch(counts, [0, 1], scope="questions-sampled", clusters=codes if clustered else None)
            covered[clustered].append((s.lo <= theta) & (theta <= s.hi))
    clustered, independent = (float(np.mean(covered[c])) for c in (True, False))
    assert 0.92 <= clustered <= 0.995, clustered
    assert independent < 0.85 < clustered, (independent, clustered)  # too narrow when questions are not independent
    assert (round(clustered, 3), round(independent, 3)) == (0.953, 0.771)  # the numbers docs/metrics.md records


def test_leaderboard_labels_and_widens_with_clusters(tmp_path):
    from scorio_core import io
    from scorio_core.leaderboard.table import leaderboard, outcomes_for

    rows = ["model,question_id,trial,is_correct"]
    for m, shift in (("a", 0), ("b", 1)):
        for q in range(12):
            rows += [f"{m},q{q:02d},{t},{int((q // 4 + t + shift) % 3 == 0)}" for t in range(4)]  # blocks of 4 alike
    path = tmp_path / "c.csv"
    path.write_text("\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(path)]), None)
    clusters = {f"q{q:02d}": f"passage-{q // 4}" for q in range(12)}
    plain = leaderboard(outcomes, scope="questions-sampled").set_index("model")
    grouped = leaderboard(outcomes, scope="questions-sampled", clusters=clusters, cluster_column="passage").set_index("model")
    assert (grouped["sigma"] >= plain["sigma"] - 1e-12).all() and (grouped["mu"] == plain["mu"]).all()
    assert grouped["interval"].str.endswith("; questions in 3 clusters of 'passage' (cluster-robust)").all()
    fixed = leaderboard(outcomes, clusters=clusters)  # no effect with questions fixed
    assert not fixed["interval"].str.contains("cluster").any()
    other = leaderboard(outcomes, metric="pass@k", scope="questions-sampled", clusters=clusters, cluster_column="passage")
    assert other["interval"].str.contains("clusters of 'passage' not applied to Pass@k").all()


def _clustered_csv(path):
    rows = ["model,question_id,trial,is_correct,passage"]
    for m, shift in (("a", 0), ("b", 1), ("c", 2)):
        for q in range(12):
            rows += [f"{m},q{q:02d},{t},{int((q // 4 + t + shift) % 3 == 0)},p{q // 4}" for t in range(4)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_cli_cluster_column(tmp_path, capsys):
    import json

    from scorio_core.cli import main

    path = _clustered_csv(tmp_path / "c.csv")
    assert main(["leaderboard", path, "--scope", "questions-sampled", "--cluster-column", "passage", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["cluster_column"] == "passage"
    assert all(r["interval"].endswith("questions in 3 clusters of 'passage' (cluster-robust)") for r in out["rows"])
    assert any(n["code"] == "rank_pairing" and not n["paired"] and "cluster-robust" in n["message"] for n in out["notes"])
    # bad columns say what to do, one error line, exit 2
    assert main(["leaderboard", path, "--scope", "questions-sampled", "--cluster-column", "nope"]) == 2
    assert "cluster column 'nope' is not in the data; columns: passage" in capsys.readouterr().err
    assert main(["leaderboard", path, "--scope", "questions-sampled", "--cluster-column", "trial"]) == 2
    assert "has several values on question 'q00'" in capsys.readouterr().err
    assert main(["leaderboard", path, "--cluster-column", "passage", "--engine", "duckdb"]) == 2
    assert "--cluster-column needs the attempt-level loader" in capsys.readouterr().err


def test_cli_compare_is_paired_and_cluster_robust(tmp_path, capsys):
    import json

    from scorio_core.cli import main
    from scorio_core.ranking.paired import CLUSTERED_ASSUMPTION

    path = _clustered_csv(tmp_path / "c.csv")
    args = ["compare", path, "--models", "a", "b", "--scope", "questions-sampled", "--output", "json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)["difference"]
    assert main(args + ["--cluster-column", "passage"]) == 0
    report = json.loads(capsys.readouterr().out)
    got = report["difference"]
    assert report["settings"]["cluster_column"] == "passage"
    assert got["assumption"] == CLUSTERED_ASSUMPTION.format(m=12, c=3)
    # hand: per-question differences of a - b; the cluster-robust se over the 3 passages
    diffs = np.array([q["diff"] for q in report["questions"]], dtype=float)
    passage = np.array([int(q["question"][1:]) // 4 for q in report["questions"]])  # q00-q03 -> p0, ...
    se = clustered_pair_se(diffs, passage)
    assert got["sd"] >= se - 1e-12 and got["mean"] == plain["mean"]
    assert got["sd"] > plain["sd"]  # passages of alike questions: wider than with questions as independent


def test_cli_export_manifest_carries_the_cluster_column(tmp_path, capsys):
    """``export --cluster-column`` writes it into the manifest; ``--manifest`` restores it (same CSV)."""
    import json

    from scorio_core.cli import main
    from scorio_core.report.manifest import read_manifest

    path = _clustered_csv(tmp_path / "c.csv")
    base = ["export", path, "--scope", "questions-sampled"]
    assert main(base + ["--cluster-column", "passage", "--format", "manifest", "--out", str(tmp_path / "m.json")]) == 0
    capsys.readouterr()
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["settings"]["cluster_column"] == "passage"
    assert read_manifest((tmp_path / "m.json").read_bytes()).settings["cluster_column"] == "passage"
    assert main(base + ["--cluster-column", "passage", "--format", "csv"]) == 0
    direct = capsys.readouterr().out
    assert main(["export", path, "--manifest", str(tmp_path / "m.json"), "--format", "csv"]) == 0
    restored = capsys.readouterr().out
    assert restored == direct and "clusters of 'passage'" in direct
    assert main(base + ["--format", "csv"]) == 0
    assert "clusters of" not in capsys.readouterr().out  # independent questions without the column
    # an old manifest without the key restores independent questions
    doc["settings"].pop("cluster_column")
    (tmp_path / "old.json").write_text(json.dumps(doc))
    assert read_manifest((tmp_path / "old.json").read_bytes()).settings["cluster_column"] is None


def test_task_matrix_and_cli_tasks_use_the_clusters(tmp_path, capsys):
    """Per-task intervals are the leaderboard's cluster-robust ones; the CLI says which column grouped them."""
    import json

    from scorio_core import io
    from scorio_core.cli import main
    from scorio_core.leaderboard.table import leaderboard, outcomes_for
    from scorio_core.leaderboard.task_outcomes import question_clusters
    from scorio_core.tasks import task_matrix

    path = _clustered_csv(tmp_path / "c.csv")
    dataset = io.load([path])
    grouped = task_matrix(dataset, scope="questions-sampled", cluster_column="passage")
    plain = task_matrix(dataset, scope="questions-sampled")
    task = grouped.tasks[0]
    board = leaderboard(outcomes_for(dataset, task), scope="questions-sampled",
                        clusters=question_clusters(dataset, task, "passage"), cluster_column="passage")
    np.testing.assert_allclose(grouped.cells["lo"].to_numpy(), board["lo"].to_numpy(), rtol=0, atol=1e-15)
    widths = (grouped.cells["hi"] - grouped.cells["lo"]).to_numpy()
    assert (widths > (plain.cells["hi"] - plain.cells["lo"]).to_numpy() + 1e-9).any()
    assert grouped.interval.endswith("questions in clusters of 'passage' (cluster-robust)")
    assert task_matrix(dataset, cluster_column="passage").cluster_column is None  # questions fixed: no effect
    assert main(["tasks", path, "--scope", "questions-sampled", "--cluster-column", "passage", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cluster_column"] == "passage" and out["interval"] == grouped.interval
