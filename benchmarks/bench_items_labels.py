"""Injected label errors (issue 37): does ``possibly_mislabeled`` find questions whose outcomes were inverted?

Three data sets: (a) a simulated 2PL set, 40 models x 200 questions x 4 trials (``theta ~ N(0, 1)``,
``b ~ N(0, 1)``, ``a ~ LogNormal(0, 0.3)``, redrawn per seed); (b) the bundled MathArena AIME 2025 I count
table (``data/matharena_aime_2025_I_counts.csv``, 16 models x 15 questions x 4); (c) the bundled paper
simulation (``data/paper_simulation.csv.gz``, attempts, 20 x 30 x 80). Per seed: invert the outcomes of 5% of
the questions (``ceil(0.05 M)``, at least 1: successes -> trials - successes for every model), chosen at random
among the questions whose success rates vary across models; fit the 2PL, flag (``scorio_core.items``, the
functions :func:`scorio_core.items.report.diagnose` runs); recall = share of the inverted questions flagged
``possibly_mislabeled``, false-flag rate = share of the untouched questions flagged. Averaged over ``--seeds``
seeds (default 20) and printed beside the targets (recall >= 0.8, false flags <= 0.05). The untouched data
are flagged too (seed-free), as the baseline of false flags.

    .venv/bin/python benchmarks/bench_items_labels.py [--seeds 20]

Exits with status 1 if the simulated set misses a target (the real sets are reported).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorio_core import io  # noqa: E402
from scorio_core.items import fit_irt, flag_questions  # noqa: E402
from scorio_core.items.irt import from_outcomes  # noqa: E402
from scorio_core.leaderboard.table import outcomes_for, task_names  # noqa: E402

TARGET_RECALL, TARGET_FALSE = 0.8, 0.05
SHARE = 0.05
REAL = {"MathArena AIME 2025 I (16 x 15 x 4)": ROOT / "data" / "matharena_aime_2025_I_counts.csv",
        "paper simulation (20 x 30 x 80)": ROOT / "data" / "paper_simulation.csv.gz"}


def simulated(seed: int, L: int = 40, M: int = 200, N: int = 4):
    rng = np.random.default_rng(10_000 + seed)
    theta, b, a = rng.normal(size=L), rng.normal(size=M), rng.lognormal(0.0, 0.3, size=M)
    n = np.full((L, M), N)
    return rng.binomial(n, expit(a * (theta[:, None] - b))).astype(float), n.astype(float)


def real_table(path: Path):
    ds = io.load([str(path)])
    task = task_names(ds)[0]
    outcomes = outcomes_for(ds, task)
    s, n, _, _ = from_outcomes(outcomes.binary or outcomes.rubric)
    return s, n


def invert(s: np.ndarray, n: np.ndarray, rng: np.random.Generator, share: float = SHARE):
    """Invert ``ceil(share M)`` (at least 1) random questions among those whose rates vary across models."""
    answered = n > 0
    rates = np.where(answered, s / np.where(answered, n, 1), np.nan)
    varying = np.flatnonzero(np.nanmax(rates, axis=0) > np.nanmin(rates, axis=0))
    k = min(varying.size, max(1, math.ceil(share * s.shape[1])))
    chosen = rng.choice(varying, size=k, replace=False)
    s = s.copy()
    s[:, chosen] = n[:, chosen] - s[:, chosen]
    return s, chosen


def flagged(s: np.ndarray, n: np.ndarray) -> np.ndarray:
    table = flag_questions(fit_irt(s, n), s, n)
    return np.array(["possibly_mislabeled" in f for f in table["flags"]])


def score(s: np.ndarray, n: np.ndarray, seed: int) -> tuple[float, float]:
    """Recall on the inverted questions and false-flag rate on the untouched ones, one seed."""
    s_bad, chosen = invert(s, n, np.random.default_rng(seed))
    flags = flagged(s_bad, n)
    untouched = np.ones(s.shape[1], bool)
    untouched[chosen] = False
    return float(flags[chosen].mean()), float(flags[untouched].mean())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    sets = {"simulated 2PL (40 x 200 x 4)": None} | {name: real_table(path) for name, path in REAL.items()}
    ok = True
    print(f"possibly_mislabeled on {SHARE:.0%} inverted questions, {args.seeds} seeds "
          f"(targets: recall >= {TARGET_RECALL}, false flags <= {TARGET_FALSE})")
    for name, table in sets.items():
        t = time.perf_counter()
        rows, base = [], []
        for seed in range(args.seeds):
            s, n = simulated(seed) if table is None else table
            rows.append(score(s, n, seed))
            if table is None or seed == 0:
                base.append(flagged(s, n).mean())
        recall, false = np.mean(rows, axis=0)
        hit = recall >= TARGET_RECALL and false <= TARGET_FALSE
        if table is None:
            ok &= bool(hit)
        print(f"  {name:38s} recall {recall:.3f} (target >= {TARGET_RECALL}) "
              f"{'ok' if recall >= TARGET_RECALL else 'MISSED':6s} false flags {false:.3f} (target <= {TARGET_FALSE}) "
              f"{'ok' if false <= TARGET_FALSE else 'MISSED':6s} | flagged without inversion {np.mean(base):.3f}; "
              f"{time.perf_counter() - t:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
