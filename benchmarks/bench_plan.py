"""Replay benchmark of the planner (issue 39): budget used, agreement and stop errors on recorded data.

For each bundled dataset with complete per-question results, each replay

1. starts from a seed sample: 1 trial of 20% of the questions (the same questions for every model);
2. asks for the next batch (``--batch`` = 2% of the recorded trials, at least 8), answers each requested
   cell with trials drawn **without replacement** from that cell's recorded trials (hypergeometric on its
   counts; the planner is told how many recorded trials each cell still holds, ``max_trials``), appends them,
   and asks again, until the goal holds (``stop``) or the recorded data are used up (counted as not stopped);
3. records the fraction of the recorded trials used, the final leader, and whether it stopped.

The full-data decision is the planner's own verdict on every recorded trial (top-1 at ``--confidence``);
"agreement" is the share of replays whose final leader equals the full-data leader, and the error rate of
``stop`` decisions the share of stopped replays that named another model. Three allocation rules run on the
same seed samples in the same run: the planner, uniform round-robin (every cell with recorded trials left, the
least-run first), and a UCB-E-style rule (Audibert, Bubeck & Munos 2010: each trial to the model with the
highest ``mean + sqrt(a / n)``, on its least-run question; ``a = 2``), all with the planner's stopping rule.

    .venv/bin/python benchmarks/bench_plan.py [--replays 50] [--datasets matharena,paper,arc,livebench]
    .venv/bin/python benchmarks/bench_plan.py --goal width --datasets tau   # one model: the width goal

With ``--goal width`` (W defaults to 1.25 x the widest full-data interval, so the full data meet it) "agreement"
is the share of replays whose final intervals contain every full-data mean; UCB-E (a best-arm rule) is not run.

Targets (issue 39): where the full data identify the top model at 95%, the planner agrees with them in >= 95%
of replays, uses <= 30% of the budget on the median dataset, and fewer trials than uniform on every dataset.
Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import outcomes_for, task_names  # noqa: E402
from scorio_core.plan import plan_next  # noqa: E402

DATASETS = {
    "matharena": ("matharena_aime_2025_I_counts.csv", None),
    "paper": ("paper_simulation.csv.gz", None),
    "arc": ("arc_agi_1_public_eval_trials.csv", None),
    "livebench": ("livebench_2025-01-13_N1.csv.gz", "math/math_comp"),
    "tau": ("tau_bench_airline_gpt4o_trials.csv", None),  # one model: the width goal only
}
RULES = ("planner", "uniform", "ucb-e")
UCB_A = 2.0


def load(name: str):
    """Binary counts (L, M, 2) of one bundled dataset's task."""
    path, task = DATASETS[name]
    ds = io.load([str(ROOT / "data" / path)])
    return outcomes_for(ds, task or task_names(ds)[0]).rubric


def seed_sample(full, rng):
    """1 trial of 20% of the questions (same for every model), drawn from the recorded trials."""
    n_full = full.n_trials
    L, M = n_full.shape
    chosen = rng.choice(M, size=max(1, int(round(0.2 * M))), replace=False)
    take = np.zeros((L, M), dtype=np.int64)
    take[:, chosen] = np.minimum(n_full[:, chosen], 1)
    return take


def draw(full_counts, used, take, rng):
    """Add ``take`` more recorded trials per cell, without replacement: the counts drawn (L, M, 2)."""
    left = full_counts - used
    good = rng.hypergeometric(left[..., 1], left[..., 0], np.maximum(take, 0)) if take.any() else np.zeros(take.shape, int)
    good = np.where(take > 0, good, 0)
    return np.stack([take - good, good], axis=-1)


def uniform_take(left_trials, run, batch):
    """Round-robin: the cells with recorded trials left, least-run first (index order on ties)."""
    L, M = left_trials.shape
    order = np.lexsort((np.arange(L * M), run.ravel()))
    order = order[left_trials.ravel()[order] > 0][:batch]
    take = np.zeros(L * M, dtype=np.int64)
    take[order] = 1
    return take.reshape(L, M)


def ucb_take(counts, left_trials, batch):
    """UCB-E: trials to the model with the highest mean + sqrt(a / n), each on its least-run question with trials left."""
    L, M = left_trials.shape
    take = np.zeros((L, M), dtype=np.int64)
    n = counts.sum(axis=(1, 2)).astype(float)
    s = counts[..., 1].sum(axis=1).astype(float)
    run = counts.sum(axis=2).astype(float)
    left = left_trials.astype(np.int64).copy()
    for _ in range(batch):  # sequential by design (each pick changes the index); a batch is small
        avail = left.sum(axis=1) > 0
        if not avail.any():
            break
        index = np.where(avail, s / np.maximum(n, 1) + np.sqrt(UCB_A / np.maximum(n, 1)), -np.inf)
        l = int(np.argmax(index))
        q = int(np.argmin(np.where(left[l] > 0, run[l], np.inf)))
        take[l, q] += 1
        left[l, q] -= 1
        run[l, q] += 1
        n[l] += 1
        s[l] += s[l] / max(n[l] - 1, 1)  # expected success (outcomes are drawn after the batch)
    return take


def replay(full, rule: str, seed: int, batch: int, confidence: float, max_batches: int, prior: str = "uniform",
           goal: str = "top-1", width: float | None = None):
    rng = np.random.default_rng(seed)
    full_counts = np.asarray(full.counts, dtype=np.int64)
    total = int(full_counts.sum())
    used = np.zeros_like(full_counts)
    used += draw(full_counts, used, seed_sample(full, rng), rng)
    for _ in range(max_batches):
        current = dataclasses.replace(full, counts=used.copy(), R=None)
        left = (full_counts - used).sum(axis=2)
        plan = plan_next(current, goal, width=width, confidence=confidence, batch=batch, seed=int(rng.integers(2**31)),
                         draws=2000, max_trials=left, prior=prior)
        if plan.stop or not left.any():
            break
        if rule == "planner":
            take = np.zeros(left.shape, dtype=np.int64)
            mi = {m: i for i, m in enumerate(full.models)}
            qi = {q: j for j, q in enumerate(full.questions)}
            for row in plan.batch:  # the plan's rows (a few hundred at most)
                take[mi[row["model"]], qi[row["question_id"]]] += row["trials"]
        elif rule == "uniform":
            take = uniform_take(left, used.sum(axis=2), batch)
        else:
            take = ucb_take(used, left, batch)
        take = np.minimum(take, left)
        if not take.any():
            break
        used += draw(full_counts, used, take, rng)
    leader = plan.status["models"][int(np.argmax([m["p_best"] for m in plan.status["models"]]))]["model"]
    intervals = {m["model"]: (m["lo"], m["hi"]) for m in plan.status["models"]}
    return {"used": used.sum() / total, "stop": bool(plan.goal["holds"]), "leader": leader, "intervals": intervals}


def agrees(row: dict, goal: str, full_verdict) -> bool:
    """top-1: the replay's leader is the full data's; width: every full-data mean lies inside the replay's interval."""
    if goal == "top-1":
        return row["leader"] == max(full_verdict.status["models"], key=lambda m: m["p_best"])["model"]
    means = {m["model"]: m["mean"] for m in full_verdict.status["models"]}
    return all(lo <= means[model] <= hi for model, (lo, hi) in row["intervals"].items())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replays", type=int, default=50)
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--max-batches", type=int, default=200)
    parser.add_argument("--prior", default="uniform", help="the planner's prior (default uniform, the plan default)")
    parser.add_argument("--rules", default=",".join(RULES), help="allocation rules to run (planner,uniform,ucb-e)")
    parser.add_argument("--goal", choices=("top-1", "width"), default="top-1",
                        help="top-1, or width: every interval narrower than --width")
    parser.add_argument("--width", type=float, default=None,
                        help="the width goal's W (default: 1.25 x the widest interval on the full data, so the full data "
                             "meet it)")
    args = parser.parse_args()
    print(f"planner replays: {args.goal} at {args.confidence:.0%}, prior {args.prior}, {args.replays} replays per dataset "
          "and rule" + ("; agreement = every full-data mean inside the replay's final interval" if args.goal == "width"
                        else ""))
    print(f"{'dataset':10s} {'L x M':>9s} {'trials':>7s} {'full-data top-1':28s} {'rule':8s} {'budget used (median)':>21s} "
          f"{'agree':>6s} {'stopped':>8s} {'stop errors':>11s} {'s':>6s}")
    medians, ok = [], True
    for name in args.datasets.split(","):
        full = load(name)
        total = int(full.counts.sum())
        batch = max(8, int(round(0.02 * total)))
        if args.goal == "top-1" and full.counts.shape[0] < 2:
            print(f"{name:10s} skipped: {full.counts.shape[0]} model (top-1 needs 2; run --goal width)")
            continue
        width = args.width
        if args.goal == "width" and width is None:
            probe = plan_next(full, "width", width=1.0, confidence=args.confidence, batch=batch, seed=0, prior=args.prior)
            width = 1.25 * max(m["hi"] - m["lo"] for m in probe.status["models"])
        verdict = plan_next(full, args.goal, width=width, confidence=args.confidence, batch=batch, seed=0,
                            prior=args.prior)
        best = max(verdict.status["models"], key=lambda m: m["p_best"])
        identified = verdict.stop
        label = (f"{best['model'][:18]} P={best['p_best']:.2f}" if args.goal == "top-1" else f"W = {width:.4f}") + (
            "" if identified else " (not at 95%)")
        used_by_rule = {}
        for rule in args.rules.split(","):
            if rule == "ucb-e" and args.goal == "width":
                print(f"{name:10s} {'':>9s} {'':>7s} {label:28s} {rule:8s} (a best-arm rule: not run for the width goal)")
                continue
            t = time.perf_counter()
            rows = [replay(full, rule, 1000 * s + 7, batch, args.confidence, args.max_batches, args.prior, args.goal,
                           width) for s in range(args.replays)]
            used = np.array([r["used"] for r in rows])
            agree = np.mean([agrees(r, args.goal, verdict) for r in rows])
            stops = [r for r in rows if r["stop"]]
            errors = np.mean([not agrees(r, args.goal, verdict) for r in stops]) if stops else float("nan")
            used_by_rule[rule] = float(np.median(used))
            print(f"{name:10s} {full.counts.shape[0]:>3d} x {full.counts.shape[1]:<4d} {total:>7,d} {label:28s} {rule:8s} "
                  f"{np.median(used):>20.1%} {agree:>6.1%} {len(stops) / len(rows):>8.0%} {errors:>11.1%} "
                  f"{time.perf_counter() - t:>6.1f}")
            if rule == "planner" and identified and args.goal == "top-1":  # the targets are the top-1 goal's
                ok &= agree >= 0.95
                medians.append(float(np.median(used)))
        if identified and "uniform" in used_by_rule and "planner" in used_by_rule:
            fewer = used_by_rule["planner"] < used_by_rule["uniform"]
            ok &= fewer or args.goal != "top-1"
            print(f"{'':10s} planner uses fewer trials than uniform: {'yes' if fewer else 'NO'}")
    if medians:
        med = float(np.median(medians))
        print(f"median over identified datasets of the planner's budget used: {med:.1%} (target <= 30%: "
              f"{'met' if med <= 0.30 else 'MISSED'})")
        ok &= med <= 0.30
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
