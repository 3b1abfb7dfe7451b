"""The clustered interval's label says it is clustered, in every CLI output (audit fixture: 2 models, 40 questions in
8 passages)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from scorio_core.cli import main

DATA = str(Path(__file__).resolve().parents[1] / "fixtures" / "clustered_passages.csv")
CLUSTERED = "; questions in 8 clusters of 'passage' (cluster-robust)"


def _out(capsys, argv):
    assert main(argv) == 0
    return capsys.readouterr().out


def test_leaderboard_json_and_csv_label_the_clusters(capsys):
    sampled = ["leaderboard", DATA, "--scope", "questions-sampled"]
    plain = json.loads(_out(capsys, sampled + ["--output", "json"]))["rows"]
    grouped = json.loads(_out(capsys, sampled + ["--cluster-column", "passage", "--output", "json"]))["rows"]
    for p, g in zip(plain, grouped):
        assert g["interval"] == p["interval"] + CLUSTERED and g["sigma"] > p["sigma"]  # cluster-robust: wider
    rows = list(csv.DictReader(io.StringIO(_out(capsys, sampled + ["--cluster-column", "passage", "--output", "csv"]))))
    assert [r["interval"] for r in rows] == [g["interval"] for g in grouped]


def test_compare_labels_the_clusters(capsys):
    out = json.loads(_out(capsys, ["compare", DATA, "--models", "A", "B", "--scope", "questions-sampled",
                                   "--cluster-column", "passage", "--output", "json"]))
    assert out["a"]["interval"].endswith(CLUSTERED) and out["b"]["interval"].endswith(CLUSTERED)
    assert "cluster-robust standard error over their 8 clusters" in out["difference"]["assumption"]
