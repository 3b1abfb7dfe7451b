"""scorio_core.rank vs the reference scorio.rank on a 50 x 500 x 8 response tensor (issue 38), side by side.

Prints, for every method implemented so far, the median wall time of ours and of the reference over
a few runs on the same seeded tensor, the speed-up, and the target (at least the reference's speed;
>= 10x where the reference takes more than 1 s). Ranks are checked equal in the same run.

    .venv/bin/python benchmarks/bench_rank.py [--models 50 --questions 500 --trials 8] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scorio_core.rank as ours  # noqa: E402

METHODS = (
    "avg", "inverse_difficulty", "borda", "win_rate", "copeland", "minimax", "schulze", "ranked_pairs", "nanson",
    "baldwin", "majority_judgment", "kemeny_young", "pagerank", "spectral", "alpharank", "nash", "bradley_terry",
    "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map", "rao_kupper", "rao_kupper_map",
    "rank_centrality", "hodge_rank", "serial_rank", "elo", "glicko", "trueskill",
    "rasch", "rasch_map", "rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map", "thompson", "bayesian_mcmc",
    "plackett_luce", "plackett_luce_map", "bradley_terry_luce", "bradley_terry_luce_map", "davidson_luce",
    "davidson_luce_map", "dynamic_irt", "dynamic_irt:growth", "dynamic_irt:state_space", "mirt", "mirt:3pl",
    "rasch_mml", "rasch_mml_credible",
)
#: Entries ``function:variant`` run ``function`` with these keyword arguments (the longitudinal dynamic IRT
#: variants read axis 2 as time).
VARIANTS = {
    "dynamic_irt:growth": {"variant": "growth", "assume_time_axis": True},
    "dynamic_irt:state_space": {"variant": "state_space", "assume_time_axis": True},
    "mirt:3pl": {"model": "3pl"},
}
#: The reference's tie-aware Kemeny-Young solves one MILP per model pair (about 8 minutes at 50 models):
#: benchmarked on the first ``--kemeny-models`` models only.
SUBSET = {"kemeny_young"}
#: The reference's Davidson-Luce recomputes its O(L^3) normaliser in Python for every event and every
#: finite-difference point (hours at 50 x 500 x 8): benchmarked on the first ``--davidson-models`` models
#: and ``--davidson-questions`` questions only.
SMALL = {"davidson_luce", "davidson_luce_map"}
#: The reference's Rasch MML fails on the 50 x 500 x 8 tensor (its per-question L-BFGS-B M-step ends in an
#: "ABNORMAL" line search there, as on most tensors with 8 trials of 50 models): benchmarked
#: on the first ``--mml-trials`` trials, where it succeeds.
FEW_TRIALS = {"rasch_mml", "rasch_mml_credible"}


def _outcome(fn, R):
    """The ranks, or the error (type and message) for data a method cannot rank (timed all the same)."""
    try:
        return fn(R)
    except (ValueError, RuntimeError) as exc:
        return type(exc), str(exc)


def _same(a, b) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and a == b
    return bool(np.array_equal(a, b))


def _time(fn, R, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        _outcome(fn, R)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _function(module, name):
    """``module``'s method ``name``, or ``function:variant`` with the keyword arguments of :data:`VARIANTS`."""
    fn = getattr(module, name.partition(":")[0])
    kwargs = VARIANTS.get(name)
    return (lambda R: fn(R, **kwargs)) if kwargs else fn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=METHODS, help="benchmark only these methods")
    parser.add_argument("--kemeny-models", type=int, default=15, help="models kept for kemeny_young")
    parser.add_argument("--davidson-models", type=int, default=6, help="models kept for davidson_luce(_map)")
    parser.add_argument("--davidson-questions", type=int, default=20, help="questions kept for davidson_luce(_map)")
    parser.add_argument("--mml-trials", type=int, default=2, help="trials kept for rasch_mml(_credible)")
    args = parser.parse_args()
    import scorio.rank as ref

    rng = np.random.default_rng(38)
    skill = rng.random((args.models, 1, 1))
    R = (rng.random((args.models, args.questions, args.trials)) < skill).astype(int)
    print(f"R: {args.models} x {args.questions} x {args.trials}; median of {args.runs} runs")
    missed = False
    for name in args.only or METHODS:
        X = R[:args.kemeny_models] if name in SUBSET else R
        if name in SMALL:
            X = R[:args.davidson_models, :args.davidson_questions]
        if name in FEW_TRIALS:
            X = R[:, :, :args.mml_trials]
        f_ours, f_ref = _function(ours, name), _function(ref, name)
        same = _same(_outcome(f_ours, X), _outcome(f_ref, X))
        t_ours = _time(f_ours, X, args.runs)
        t_ref = _time(f_ref, X, args.runs)
        target = 10.0 if t_ref > 1.0 else 1.0
        ok = same and t_ref / t_ours >= target
        missed |= not ok
        label = f"{name} (L={X.shape[0]})" if name in SUBSET else name
        if name in SMALL | FEW_TRIALS:
            label = f"{name} ({X.shape[0]}x{X.shape[1]}x{X.shape[2]})"
        print(f"  {label:23s} ours {t_ours * 1e3:9.2f} ms   reference {t_ref * 1e3:9.2f} ms   "
              f"speed-up {t_ref / t_ours:7.1f}x  (target >= {target:g}x)  ranks equal: {same}  {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
