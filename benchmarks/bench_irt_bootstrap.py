"""IRT ability rank intervals: 200 question resamples in one batched Newton solve against one fit_irt per resample.

The Method agreement tab's (and ``methods --bootstrap``'s) IRT ability is refitted on every resample of the
questions. ``scorio_core.items.batch.irt_abilities_batch`` fits all resamples at once; the alternative is
``scorio_core.items.irt.fit_irt`` per resample, timed here on ``--fits`` resamples and scaled to 200. Seeded 2PL
tables (abilities N(0, 1), difficulties N(0, 1), discriminations LogNormal(0, 0.4), N trials per cell) and the
bundled MathArena counts; resample indices as the bootstrap draws them (seed 0). Also checks, on the resamples
timed, the largest difference in abilities and that the ranks are the same.

    .venv/bin/python benchmarks/bench_irt_bootstrap.py [--fits 20] [--sizes matharena,20x30x80,50x200x4]

Where the batch gains: below ~10,000 cells one fit's time is mostly call overhead, which the batch removes; above
it the arithmetic (an exp and a log per cell and trial point) dominates either way, so ``method_agreement`` batches
tables up to ``_IRT_BATCH_MAX_CELLS`` (6,000) and fits larger ones one resample at a time. Target: the batch
faster than one fit per resample on every size up to that bound (the "target" column; larger sizes: "report").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.items.batch import irt_abilities_batch  # noqa: E402
from scorio_core.items.irt import fit_irt  # noqa: E402
from scorio_core.limits import limit_blas_threads  # noqa: E402

#: Tables up to this many cells are batched in method_agreement (scorio_core.leaderboard.methods._IRT_BATCH_MAX_CELLS).
BATCH_MAX_CELLS = 6_000
ROOT = Path(__file__).resolve().parents[1]


def table(L: int, M: int, N: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    p = expit(rng.lognormal(0, 0.4, M)[None, :] * (rng.normal(size=L)[:, None] - rng.normal(size=M)[None, :]))
    n = np.full((L, M), float(N))
    return rng.binomial(n.astype(int), p).astype(float), n


def bundled():
    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for

    counts = np.asarray(outcomes_for(io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")])).binary.counts,
                        dtype=float)
    return counts[..., 1], counts.sum(axis=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=int, default=20, help="one-at-a-time fits timed per size (scaled to 200)")
    parser.add_argument("--sizes", default="matharena,20x30x80,20x100x4,40x100x4,30x300x4,50x200x4",
                        help="comma-separated LxMxN (or 'matharena' for the bundled counts)")
    parser.add_argument("--resamples", type=int, default=200)
    args = parser.parse_args()
    limit_blas_threads()  # one BLAS thread, as the app and the CLI
    B = args.resamples
    print(f"{'data':>12} {'model':>6} {'batched 200':>12} {'one by one (x200)':>18} {'speed-up':>9} {'max |diff|':>11} "
          f"{'ranks':>6} {'target':>8}")
    for size in args.sizes.split(","):
        s, n = bundled() if size == "matharena" else table(*(int(x) for x in size.split("x")))
        L, M = s.shape
        idx = np.random.default_rng(0).integers(0, M, size=(B, M))
        for model in ("2pl",) if L >= 3 else ("rasch",):
            start = time.perf_counter()
            theta, _ = irt_abilities_batch(s[:, idx].transpose(1, 0, 2), n[:, idx].transpose(1, 0, 2), model)
            batched = time.perf_counter() - start
            k = min(args.fits, B)
            start = time.perf_counter()
            one = np.array([fit_irt(s[:, q], n[:, q], model).theta for q in idx[:k]])
            single = (time.perf_counter() - start) * B / k
            diff = float(np.max(np.abs(theta[:k] - one)))
            same = all(np.array_equal(rankdata(-a, method="min"), rankdata(-b, method="min")) for a, b in zip(theta[:k], one))
            ok = batched < single if L * M <= BATCH_MAX_CELLS else None
            label = "report" if ok is None else ("ok" if ok else "MISSED")
            print(f"{size:>12} {model:>6} {batched:>11.2f}s {single:>17.2f}s {single / batched:>8.1f}x {diff:>11.1e} "
                  f"{'same' if same else 'DIFF':>6} {label:>8}")
    print(f"target: batched faster than one fit per resample up to {BATCH_MAX_CELLS:,} cells (larger: one fit per "
          "resample is used)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
