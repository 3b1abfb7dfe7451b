"""CLI: a metric that scores every model 0 at some k (mG-Pass@k, GeoSpectrum*@k at k = 1) is refused, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core.cli import main
from scorio_core.leaderboard.metrics import METRICS, k_problem, min_k

MATHARENA = str(Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv")


@pytest.mark.parametrize("metric, label", [("mg-pass@k", "mG-Pass@k"), ("geo-spectrum*@k", "GeoSpectrum*@k")])
def test_k_1_is_refused_with_the_fix(capsys, metric, label):
    """At k = 1 the sum over j from ceil(k/2) + 1 to k is empty: 16 rows of 0 [0, 0], all rank 1, empty notes."""
    assert main(["leaderboard", MATHARENA, "--metric", metric, "--k", "1"]) == 2
    err = capsys.readouterr().err
    assert f"{label} needs k >= 2: at k = 1" in err and "every model scores 0" in err and "pass --k 2 or more" in err
    assert main(["leaderboard", MATHARENA, "--metric", metric]) == 2  # the default --k 1 too
    capsys.readouterr()
    assert main(["leaderboard", MATHARENA, "--metric", metric, "--k", "2", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert len(rows) == 16 and max(r["mu"] for r in rows) > 0.5 and all(r["hi"] > r["lo"] for r in rows)


def test_export_refuses_it_too(capsys):
    assert main(["export", MATHARENA, "--metric", "mg-pass@k", "--format", "csv"]) == 2
    assert "pass --k 2 or more" in capsys.readouterr().err


def test_every_other_metric_tells_models_apart_at_k_1(capsys):
    """No other metric is identically 0 at k = 1 (maj@1, AUC@1 and Geom@1 are Pass@1); k below 1 keeps its message."""
    degenerate = {key for key in METRICS if k_problem(key, 1)}
    assert degenerate == {"mg-pass@k", "geo-spectrum*@k"} and all(k_problem(key, min_k(key)) is None for key in METRICS)
    for metric in sorted(set(METRICS) - degenerate):
        assert main(["leaderboard", MATHARENA, "--metric", metric, "--k", "1", "--output", "json"]) == 0, metric
        rows = json.loads(capsys.readouterr().out)["rows"]
        assert len({round(r["mu"], 6) for r in rows}) > 1, metric
    assert main(["leaderboard", MATHARENA, "--k", "0"]) == 2
    assert "--k must be >= 1; got 0." in capsys.readouterr().err
