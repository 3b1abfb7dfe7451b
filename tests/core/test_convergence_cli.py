"""``python -m scorio_core convergence`` (JSON contract, count data, errors)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.dynamics.convergence import bootstrap_convergence

# sibling helper module; works with any pytest import mode
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_trajectory_cli import R, run_json, write_attempts, write_counts  # noqa: E402

pytest.importorskip("scorio_core.io")

KEYS = {"method", "replicates", "pmf", "cdf", "mean", "no_convergence", "kendall_tau_mean", "models", "n", "notes", "assumptions"}


def test_json_contract_matches_the_core(tmp_path, capsys):
    argv = ["convergence", write_attempts(tmp_path / "a.csv", R), "--replicates", "64", "--seed", "3", "--output", "json"]
    out = run_json(capsys, argv)
    assert KEYS <= set(out)
    res = bootstrap_convergence(R, replicates=64, seed=3, prior="empirical-bayes")  # the CLI's default prior
    assert out["method"] == "column" and out["replicates"] == 64 and out["seed"] == 3
    assert out["prior"] == "empirical-bayes"
    np.testing.assert_allclose(out["pmf"], res.pmf)
    np.testing.assert_allclose(out["cdf"], res.cdf)
    assert out["no_convergence"] == pytest.approx(res.no_convergence)
    assert len(out["kendall_tau_mean"]) == 4 and len(out["pmf"]) == 3
    assert out["worst_ranks"] == res.worst_ranks.astype(int).tolist()


def test_uniform_prior_is_the_papers(tmp_path, capsys):
    argv = ["convergence", write_attempts(tmp_path / "a.csv", R), "--replicates", "64", "--seed", "3", "--prior", "uniform",
            "--output", "json"]
    out = run_json(capsys, argv)
    res = bootstrap_convergence(R, replicates=64, seed=3)
    assert out["prior"] == "uniform" and res.prior == "uniform"
    np.testing.assert_allclose(out["pmf"], res.pmf)
    assert any("uniform prior" in a for a in out["assumptions"])


def test_count_data_row_bootstrap_and_column_refusal(tmp_path, capsys):
    path = write_counts(tmp_path / "c.csv", R)
    out = run_json(capsys, ["convergence", path, "--bootstrap", "row", "--replicates", "32", "--output", "json"])
    assert out["method"] == "row"
    assert any("exchangeable" in a for a in out["assumptions"])
    assert any("count data" in n["message"] for n in out["notes"])
    assert main(["convergence", path, "--bootstrap", "column"]) == 2
    assert "use --bootstrap row" in capsys.readouterr().err
    auto = run_json(capsys, ["convergence", path, "--replicates", "32", "--output", "json"])  # default auto
    assert auto["method"] == "row" and any("auto chose row-wise: count data" in n["message"] for n in auto["notes"])


def test_row_bootstrap_runs_from_duckdb_counts(tmp_path, capsys):
    """--bootstrap row needs counts only: DuckDB's count table gives the run of the pandas-loaded count table."""
    pytest.importorskip("duckdb")
    attempts, counts = write_attempts(tmp_path / "a.csv", R), write_counts(tmp_path / "c.csv", R)
    common = ["--bootstrap", "row", "--replicates", "32", "--seed", "5", "--output", "json"]
    duck = run_json(capsys, ["convergence", attempts, "--engine", "duckdb", *common])
    ref = run_json(capsys, ["convergence", counts, "--engine", "pandas", *common])
    assert duck["engine"] == "duckdb" and ref["engine"] == "pandas"
    assert duck["models"] == ref["models"] and duck["gold_ranks"] == ref["gold_ranks"]
    np.testing.assert_allclose(duck["pmf"], ref["pmf"])
    assert any("count data" in n["message"] for n in duck["notes"])
    assert main(["convergence", attempts, "--engine", "duckdb"]) == 2  # auto/column bootstrap needs the trial order
    assert "--engine pandas" in capsys.readouterr().err


def test_ragged_data_keeps_every_trial_and_resamples_row_wise(tmp_path, capsys):
    path = write_attempts(tmp_path / "a.csv", R)
    with open(path) as f:
        lines = f.read().splitlines()
    last = max(int(ln.split(",")[3]) for ln in lines[1:])
    kept = [ln for ln in lines if not (ln.startswith("m0,t1,q0,") and int(ln.split(",")[3]) == last)]
    path_r = tmp_path / "r.csv"
    path_r.write_text("\n".join(kept) + "\n")  # m0 has one trial fewer on q0
    out = run_json(capsys, ["convergence", str(path_r), "--replicates", "32", "--output", "json"])
    assert out["method"] == "row" and any("ragged" in n["message"] for n in out["notes"])
    assert any("own number of trials" in a for a in out["assumptions"])
    assert main(["convergence", str(path_r), "--bootstrap", "column"]) == 2
    assert "ragged" in capsys.readouterr().err
    traj = run_json(capsys, ["trajectory", str(path_r), "--output", "json"])
    assert len(traj["ranks"][0]) == R.shape[2]  # N_max trials, none dropped


def test_pass_family_and_table_output(tmp_path, capsys):
    path = write_attempts(tmp_path / "a.csv", R)
    out = run_json(capsys, ["convergence", path, "--metric", "g-pass@k_tau", "--k", "2", "--tau", "0.5", "--replicates", "16", "--output", "json"])
    assert out["k"] == 2 and out["tau"] == 0.5 and out["kendall_tau_mean"][0] is None
    assert main(["convergence", path, "--replicates", "16"]) == 0
    assert "mean convergence@n" in capsys.readouterr().out


@pytest.mark.parametrize("extra,match", [(["--replicates", "0"], "--replicates must be >= 1"), (["--bootstrap", "both"], "invalid choice")])
def test_errors(tmp_path, capsys, extra, match):
    assert main(["convergence", write_attempts(tmp_path / "a.csv", R), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and match in err


def test_every_model_tied_says_why_tau_b_is_undefined(tmp_path, capsys):
    # three models that solve every question in every trial: every ranking is one tie, tau_b is 0/0
    tied = np.ones((3, 5, 3), dtype=int)
    out = run_json(capsys, ["convergence", write_attempts(tmp_path / "a.csv", tied), "--replicates", "8", "--output", "json"])
    assert all(t is None for t in out["kendall_tau_mean"])  # NaN in the core, null in JSON
    assert any(note["message"].startswith("Kendall's tau_b is undefined (NaN): every model ties") for note in out["notes"])
    out = run_json(capsys, ["convergence", write_attempts(tmp_path / "b.csv", R), "--replicates", "8", "--output", "json"])
    assert not any("tau_b is undefined" in note for note in out["notes"])
