"""Bundled demo datasets (files in ``data/``; see ``data/README.md`` for sources and licences)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["BundledDataset", "BUNDLED", "DEFAULT_DATASET", "DATA_DIR"]

DATA_DIR = Path(__file__).resolve().parents[1] / "data"


@dataclass(frozen=True)
class BundledDataset:
    """A dataset shipped with the app."""

    key: str
    title: str
    files: tuple[str, ...]
    description: str

    @property
    def paths(self) -> list[Path]:
        return [DATA_DIR / f for f in self.files]


BUNDLED: dict[str, BundledDataset] = {
    d.key: d
    for d in (
        BundledDataset(
            "matharena-aime-2025-I",
            "MathArena AIME 2025 I (16 models, N=4)",
            ("matharena_aime_2025_I_counts.csv",),
            "16 models x 15 AIME 2025 I problems, 4 runs each; counts per question (no trial order). "
            "Source: eth-sri/matharena.ai (MIT).",
        ),
        BundledDataset(
            "arc-agi-1",
            "ARC-AGI-1 public eval (12 models, N=2)",
            ("arc_agi_1_public_eval_trials.csv",),
            "12 models x 419 test pairs x 2 attempts, one row per attempt. Two models miss a few pairs. "
            "Source: arcprize/arc-agi-benchmarking (MIT).",
        ),
        BundledDataset(
            "livebench-2025-01",
            "LiveBench 2025-01-13 (93 models, 18 tasks, N=1)",
            ("livebench_2025-01-13_N1.csv.gz",),
            "93 models x 1,136 questions, one trial each; continuous score and binary correct; has duplicates. "
            "Source: sambowyer/bayes_evals (MIT).",
        ),
        BundledDataset(
            "tau-bench-airline",
            "tau-bench airline, gpt-4o (1 model, N=4)",
            ("tau_bench_airline_gpt4o_trials.csv",),
            "1 model x 50 tasks x 4 trials with reward, messages and user cost. Source: sierra-research/tau-bench (MIT).",
        ),
        BundledDataset(
            "scorio-aime25-q06",
            "scorio AIME'25 q06 verifier trials (1 model, N=80)",
            ("scorio_aime25_q06_verifier_trials.csv",),
            "1 model x 1 question x 80 trials with CompassVerifier scores. Source: mohsenhariri/scorio (MIT).",
        ),
    )
}

DEFAULT_DATASET = "matharena-aime-2025-I"
