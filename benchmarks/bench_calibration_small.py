"""Coverage of the default interval with few repeated trials (MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS).

Simulation: one model per replication, M questions with true rates p_a drawn from a distribution, N trials
each; the target is theta = mean(p_a) of the drawn questions (questions fixed, the paper's estimand). For each
(distribution, M, N) the coverage of the 95% interval of the default prior (empirical Bayes) is printed for the
leaderboard's rule (fewer than ``MIN_REPEATED_QUESTIONS`` questions tried twice, or fewer than ``MIN_TRIAL_PAIRS``
pairs of trials of one question: the exact binomial interval on the pooled answers) beside the previous rule (10
questions tried twice, no pairs rule) and the first one (3 questions tried twice).

Target: the leaderboard's rule covers >= 0.92 in every cell (the main calibration benchmark's lower bound,
``bench_calibration.py``). Run: ``python benchmarks/bench_calibration_small.py [--reps 2000] [--seed 0]``; ``--pooled``:
two tasks pooled under one prior (the "all tasks" leaderboard; docs/metrics.md), with the fallback rows split out;
``--small-tasks``: many small tasks pooled; ``--disagreeing``: the rule of questions whose trials disagree on and off.
"""

from __future__ import annotations

import argparse

import numpy as np

from scorio_core.uncertainty import priors
from scorio_core.uncertainty.batch import posterior_summary_batch
from scorio_core.uncertainty.priors import MIN_DISAGREEING_QUESTIONS, MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS

DISTRIBUTIONS = {"p = 0.5": None, "U(0,1)": (1.0, 1.0), "Beta(0.5,0.5)": (0.5, 0.5), "Beta(1,5)": (1.0, 5.0),
                 "Beta(5,1)": (5.0, 1.0), "Beta(2,2)": (2.0, 2.0)}
M_VALUES = (3, 5, 8, 10, 12, 15, 20, 30)
N_VALUES = (2, 3, 4)
TARGET = 0.92


def coverage(rng, ab, m: int, n: int, reps: int, fit_from: int, pairs_from: int = 0, disagree_from: int = 0,
             width: bool = False):
    """Share of ``reps`` replications whose 95% interval covers mean(p_a), fitting EB from ``fit_from`` questions
    tried twice, ``pairs_from`` pairs of trials of one question and ``disagree_from`` questions whose trials disagree
    (``ab`` a number: every question at that rate); with ``width`` also the mean width and the share fallen back."""
    p = (np.full((reps, m), 0.5 if ab is None else ab) if not isinstance(ab, tuple) else rng.beta(ab[0], ab[1], (reps, m)))
    k = rng.binomial(n, p)
    saved = priors.MIN_REPEATED_QUESTIONS, priors.MIN_TRIAL_PAIRS, priors.MIN_DISAGREEING_QUESTIONS
    priors.MIN_REPEATED_QUESTIONS, priors.MIN_TRIAL_PAIRS, priors.MIN_DISAGREEING_QUESTIONS = fit_from, pairs_from, disagree_from
    try:
        s = posterior_summary_batch(np.stack([n - k, k], axis=-1), [0.0, 1.0], prior="empirical-bayes")
    finally:
        priors.MIN_REPEATED_QUESTIONS, priors.MIN_TRIAL_PAIRS, priors.MIN_DISAGREEING_QUESTIONS = saved
    theta = p.mean(axis=1)
    covered = (s.lo <= theta) & (theta <= s.hi)
    if not width:
        return float(np.mean(covered))
    return covered, s.hi - s.lo, np.char.startswith(s.method.astype(str), "fallback-n1")


#: Rates where few questions' trials disagree (all-or-nothing questions, or every question easy), for --disagreeing.
DISAGREEING = {"Beta(0.2,0.2)": (0.2, 0.2), "Beta(0.5,0.5)": (0.5, 0.5), "Beta(20,1)": (20.0, 1.0), "p = 0.9": 0.9,
               "p = 0.95": 0.95}


def disagreeing(rng, reps: int) -> None:
    """Coverage, width and share fallen back with and without the rule of ``MIN_DISAGREEING_QUESTIONS`` (the other
    two rules in force), at M = 20-40 questions, N = 2-4 (where the other rules fit)."""
    print(f"95% interval coverage of mean(p_a), {reps} replications per cell: with the rule (fewer than "
          f"{MIN_DISAGREEING_QUESTIONS} questions whose trials disagree: exact binomial) / without; mean width with / "
          "without; share of replications fallen back with the rule")
    print("| rates | M | N | coverage with / without | width with / without | fallen back | without, where it falls back |")
    print("|---|---|---|---|---|---|---|")
    worst = [(1.0, None), (1.0, None)]
    for name, ab in DISAGREEING.items():
        for m, n in ((20, 2), (30, 2), (20, 3), (20, 4), (40, 3)):
            state = rng.bit_generator.state
            on = coverage(rng, ab, m, n, reps, MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS, MIN_DISAGREEING_QUESTIONS, True)
            rng.bit_generator.state = state  # the same replications without the rule
            off = coverage(rng, ab, m, n, reps, MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS, 0, True)
            new = on[2] & ~off[2]  # the replications this rule (not the other two) sends to the exact interval
            there = f"{off[0][new].mean():.3f} (width {off[1][new].mean():.3f})" if new.any() else "-"
            on, off = (float(on[0].mean()), float(on[1].mean()), float(new.mean())), (float(off[0].mean()), float(off[1].mean()))
            worst = [min(worst[0], (on[0], (name, m, n))), min(worst[1], (off[0], (name, m, n)))]
            print(f"| {name} | {m} | {n} | {on[0]:.3f} / {off[0]:.3f} | {on[1]:.3f} / {off[1]:.3f} | {on[2]:.2f} | {there} |",
                  flush=True)
    print(f"lowest coverage with the rule {worst[0][0]:.3f} at {worst[0][1]}, without {worst[1][0]:.3f} at {worst[1][1]} "
          f"(target >= {TARGET}): {'met' if worst[0][0] >= TARGET else 'missed'} with the rule")


#: Two tasks pooled ("all tasks"): (questions, trials, Beta rates) of each (docs/metrics.md, "All tasks pooled").
POOLED = (((40, 1, (2, 3)), (20, 10, (7, 3))), ((30, 2, (2, 3)), (30, 8, (7, 3))), ((30, 4, (1, 4)), (30, 4, (4, 1))),
          ((40, 1, (2, 2)), (20, 10, (2, 2))), ((15, 4, (0.2, 10)), (45, 4, (3, 2))))


def pooled(rng, reps: int) -> None:
    """Coverage and bias with two tasks' questions pooled, per :data:`POOLED` case: the leaderboard's prior fitted per
    task (``strata=``, :mod:`scorio_core.uncertainty.strata`) beside one prior per model over both tasks (before)."""
    print(f"two tasks pooled, one model, {reps} replications: coverage of mean(p_a) over both tasks' questions "
          f"(target >= {TARGET}); the leaderboard's prior per task / one prior over both tasks (before)")
    for (ma, na, aa), (mb, nb, ab) in POOLED:
        pa, pb = rng.beta(*aa, (reps, ma)), rng.beta(*ab, (reps, mb))
        counts = np.zeros((reps, ma + mb, 2), dtype=np.int64)
        counts[:, :ma, 1] = rng.binomial(na, pa)
        counts[:, ma:, 1] = rng.binomial(nb, pb)
        counts[:, :ma, 0], counts[:, ma:, 0] = na - counts[:, :ma, 1], nb - counts[:, ma:, 1]
        truth = np.concatenate([pa, pb], axis=1).mean(axis=1)
        tasks = np.repeat([0, 1], [ma, mb])
        s = posterior_summary_batch(counts, [0.0, 1.0], prior="empirical-bayes", strata=tasks)
        one = posterior_summary_batch(counts, [0.0, 1.0], prior="empirical-bayes")
        cov, cov_one = (float(np.mean((x.lo <= truth) & (truth <= x.hi))) for x in (s, one))
        fell_back = float(np.mean(s.method != "marginal-likelihood"))
        print(f"  {ma} x {na} at Beta{aa} + {mb} x {nb} at Beta{ab}: coverage {cov:.3f} "
              f"({'met' if cov >= TARGET else 'missed'}; fallback in {fell_back:.0%}), mean bias "
              f"{np.mean(s.mu - truth):+.3f}, mean width {np.mean(s.hi - s.lo):.3f} / before: coverage {cov_one:.3f}, "
              f"bias {np.mean(one.mu - truth):+.3f}, width {np.mean(one.hi - one.lo):.3f}", flush=True)
        back = s.method != "marginal-likelihood"
        if back.any() and not back.all():  # the same run split by row: what the whole-model fallback costs
            covered = (s.lo <= truth) & (truth <= s.hi)
            print(f"    split by row: fallback rows coverage {covered[back].mean():.3f}, width "
                  f"{np.mean((s.hi - s.lo)[back]):.3f}; fitted rows coverage {covered[~back].mean():.3f}, width "
                  f"{np.mean((s.hi - s.lo)[~back]):.3f}", flush=True)


#: Many small tasks pooled: (tasks, questions per task) at 4 trials, and the sd of the tasks' logit shifts.
SMALL_TASKS = ((40, 8), (10, 12))
TASK_SHIFTS = (0.0, 1.5)


def small_tasks(rng, reps: int) -> None:
    """Many small tasks pooled: logit-normal rates (question sd 1 around a task shift of sd 0 or 1.5), 4 trials each;
    the leaderboard's prior per task (whole-model exact interval where no task is identified) beside one prior over
    every question (docs/metrics.md, "All tasks pooled")."""
    from scipy.special import expit

    print(f"many small tasks pooled, one model, {reps} replications, 4 trials per question: coverage of mean(p_a) "
          f"(target >= {TARGET}); the leaderboard's prior per task / one prior over every question")
    for n_tasks, m in SMALL_TASKS:
        for shift in TASK_SHIFTS:
            logit = rng.normal(0.0, shift, (reps, n_tasks, 1)) + rng.normal(0.0, 1.0, (reps, n_tasks, m))
            p = expit(logit).reshape(reps, n_tasks * m)
            k = rng.binomial(4, p)
            counts = np.stack([4 - k, k], axis=-1)
            truth = p.mean(axis=1)
            tasks = np.repeat(np.arange(n_tasks), m)
            s = posterior_summary_batch(counts, [0.0, 1.0], prior="empirical-bayes", strata=tasks)
            one = posterior_summary_batch(counts, [0.0, 1.0], prior="empirical-bayes")
            cov, cov_one = (float(np.mean((x.lo <= truth) & (truth <= x.hi))) for x in (s, one))
            print(f"  {n_tasks} tasks x {m} questions x 4 trials, task shift sd {shift:g}: coverage {cov:.3f} "
                  f"({'met' if cov >= TARGET else 'missed'}; fallback in {np.mean(s.method != 'marginal-likelihood'):.0%}),"
                  f" width {np.mean(s.hi - s.lo):.3f} / one prior: coverage {cov_one:.3f}, width "
                  f"{np.mean(one.hi - one.lo):.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pooled", action="store_true", help="two tasks pooled under one prior instead")
    parser.add_argument("--small-tasks", action="store_true", help="many small tasks pooled instead")
    parser.add_argument("--disagreeing", action="store_true",
                        help="the rule of questions whose trials disagree (MIN_DISAGREEING_QUESTIONS) on and off instead")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    if args.disagreeing:
        disagreeing(rng, args.reps)
        return
    if args.pooled:
        pooled(rng, args.reps)
        return
    if args.small_tasks:
        small_tasks(rng, args.reps)
        return
    print(f"95% interval coverage of mean(p_a), {args.reps} replications per cell; leaderboard rule: EB fitted from "
          f"{MIN_REPEATED_QUESTIONS} questions tried twice and {MIN_TRIAL_PAIRS} pairs of trials of one question, else "
          "exact binomial on the pooled answers / 10 questions, no pairs rule (before) / EB fitted from 3 (the first "
          "rule)")
    print("| M | N | " + " | ".join(DISTRIBUTIONS) + " |")
    print("|---|---|" + "---|" * len(DISTRIBUTIONS))
    worst = (1.0, None)
    for m in M_VALUES:
        for n in N_VALUES:
            cells = []
            for name, ab in DISTRIBUTIONS.items():
                now = coverage(rng, ab, m, n, args.reps, MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS, MIN_DISAGREEING_QUESTIONS)
                before = coverage(rng, ab, m, n, args.reps, 10)  # (neither the pairs nor the disagreeing rule)
                old = coverage(rng, ab, m, n, args.reps, 3)
                worst = min(worst, (now, (name, m, n)))
                cells.append(f"{now:.3f} / {before:.3f} / {old:.3f}")
            print(f"| {m} | {n} | " + " | ".join(cells) + " |", flush=True)
    print(f"leaderboard rule: lowest coverage {worst[0]:.3f} at {worst[1]} (target >= {TARGET}): "
          f"{'met' if worst[0] >= TARGET else 'missed'}")


if __name__ == "__main__":
    main()
