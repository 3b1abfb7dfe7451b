"""Paths of the bundled data the tests read (one definition; ``data/`` ships with the repository)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
MATHARENA = DATA / "matharena_aime_2025_I_counts.csv"
ARC = DATA / "arc_agi_1_public_eval_trials.csv"
SIM = DATA / "paper_simulation.csv.gz"
