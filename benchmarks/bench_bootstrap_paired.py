"""Bradley-Terry, Davidson and Rao-Kupper rank intervals: 200 question resamples in one batched Newton solve against one fit at a time.

``scorio_core.rank.bootstrap.bootstrap_ranks`` ranks the resamples of ``bradley_terry``, ``bradley_terry_davidson``, ``rao_kupper``,
their ``_map`` and ``plackett_luce_map``
with :mod:`scorio_core.rank.likelihood.paired_batch`; the alternative is the reference-exact fit per resample
(the reference's L-BFGS-B path), timed here on ``--fits`` resamples and scaled to 200. Seeded 1PL tensors
(abilities N(0, 1), difficulties N(0, 1)); the same resample indices as the bootstrap (seed 0). Also checks,
on the resamples timed, that the batched ranks equal the per-resample ranks ("same"), or at least that every
strict order agrees and every batched tie is within 1e-3 in the reference's log-strengths ("same order":
Davidson's optimum ties models with equal totals, which L-BFGS-B leaves ~1e-7 apart in either order).

    .venv/bin/python benchmarks/bench_bootstrap_paired.py [--fits 3] [--sizes 30x100x4,64x300x8,100x500x8]

Target (the app resamples these seven methods up to ``BATCHED_MODELS`` = 100 models): 200 resamples < 3 s there.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scorio_core.rank as rank  # noqa: E402
from scorio_core.rank.bootstrap import BATCHED_MODELS, bootstrap_ranks  # noqa: E402

TARGET_S = 3.0


def tensor(L: int, M: int, N: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=L)[:, None] - rng.normal(size=M)[None, :])))
    return (rng.random((L, M, N)) < p[..., None]).astype(int)


def _consistent(batched: np.ndarray, log_ref: np.ndarray) -> bool:
    """Every strict order of the batched ranks is the reference's, and its ties are within 1e-3 there."""
    if np.isnan(batched).all() or np.isnan(log_ref).all():
        return bool(np.isnan(batched).all() and np.isnan(log_ref).all())
    before = batched[:, None] < batched[None, :]
    tied = batched[:, None] == batched[None, :]
    gap = log_ref[:, None] - log_ref[None, :]
    return bool((gap[before] > 0).all() and (np.abs(gap[tied]) < 1e-3).all())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=int, default=3, help="one-at-a-time fits timed per size (scaled to 200)")
    parser.add_argument("--sizes", default="30x100x4,64x300x8,64x6000x1,100x500x8,100x2500x1,100x30x80",
                        help="models x questions x trials, comma-separated")
    args = parser.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)
    print(f"{'size':>14} {'method':>26} {'batched 200':>12} {'one at a time x200':>19} {'ratio':>6}  target     "
          "same   same order (ties within 1e-3)")
    for size in args.sizes.split(","):
        L, M, N = (int(v) for v in size.split("x"))
        R = tensor(L, M, N)
        idx = np.random.default_rng(0).integers(0, M, (200, M))
        for name in ("bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map",
                     "rao_kupper", "rao_kupper_map", "plackett_luce_map"):
            start = time.perf_counter()
            boot = bootstrap_ranks(R, [name], n_boot=200, seed=0)
            batched = time.perf_counter() - start
            same, agree, start = True, True, time.perf_counter()
            for b in range(args.fits):
                try:
                    ranks, strengths = getattr(rank, name)(R[:, idx[b]], return_scores=True)
                except ValueError:
                    ranks = strengths = np.full(L, np.nan)
                same &= bool(np.array_equal(ranks, boot.ranks[b, 0], equal_nan=True))
                agree &= _consistent(boot.ranks[b, 0], np.log(strengths))
            loop = (time.perf_counter() - start) / args.fits * 200
            target = f"< {TARGET_S:.0f} s " + ("met" if batched < TARGET_S else "missed") if L <= BATCHED_MODELS else "(none)"
            print(f"{size:>14} {name:>26} {batched:>10.2f} s {loop:>17.1f} s {loop / batched:>5.0f}x  {target:<10} "
                  f"{same!s:<6} {agree}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
