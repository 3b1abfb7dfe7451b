r"""Projected probability that a planning goal holds as trials are spent (the Plan page's chart).

Preposterior simulation on the current data: each replay draws every (model, question) cell's category
probabilities from its posterior (``Dirichlet(alpha_l + counts_lm)``, the prior the planner uses), then
repeats *plan the next batch* (:func:`scorio_core.plan.plan_next`) -> *run it* (category counts drawn
from those probabilities) -> *append*, recording the goal's posterior probability and the trials
spent after each batch. Averaged over replays this is the expected course of the goal's probability
under the planner if the model (the posterior) is right; it is a projection, not a guarantee.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from scorio_core.arrays.order import canonical_outcomes
from scorio_core.plan.planner import in_order, plan_next, task_counts
from scorio_core.plan.prior_fit import default_plan_prior
from scorio_core.uncertainty.batch import _CountStates, _prior_pseudo_counts, _whole_counts

__all__ = ["PROJECTION_BUDGET", "Projection", "project_goal", "projection_size"]

#: Work one projection may do, in cell-plans (models x questions x planned batches over all replays; one
#: cell-plan ~2 us, so ~8 s): :func:`projection_size`. Larger data get fewer replays (at least 2), then fewer batches.
PROJECTION_BUDGET = 4_000_000


@dataclass(frozen=True, eq=False)
class Projection:
    """Replays of the planner on data simulated from the current posterior.

    Attributes
    ----------
    trials : ndarray of float, shape (R, B+1)
        Trials spent after 0..B batches in each of R replays (0: the data so far).
    probability : ndarray of float, shape (R, B+1)
        The goal's posterior probability at those points (after a replay stops it keeps its last value).
    stopped : ndarray of bool, shape (R, B+1)
        Whether the replay had stopped by then.
    skipped_pool : int
        Trials on new questions from the pool (questions-sampled scope) that a replay could not run (no
        such questions exist in the data to draw from); they are left out of the projection.
    requested : tuple of int or None
        ``(replays, batches)`` asked for, when the work budget ran fewer (:func:`projection_size`); else None.
    note : str
        Why fewer replays or batches ran and how to ask for more; empty when none were cut.
    """

    trials: np.ndarray
    probability: np.ndarray
    stopped: np.ndarray
    skipped_pool: int = 0
    requested: tuple | None = None
    note: str = ""

    @property
    def replays(self) -> int:
        """Replays run R."""
        return int(self.trials.shape[0])

    @property
    def batches(self) -> int:
        """Batches per replay B."""
        return int(self.trials.shape[1] - 1)

    def describe(self, batch: int) -> str:
        """What the projection ran and found, in sentences (the Plan page's caption), with the budget's note.

        Parameters
        ----------
        batch : int
            Trials per batch the projection planned.

        Returns
        -------
        str
        """
        share = float(self.stopped[:, -1].mean())
        text = (f"{self.replays:,} replay{'s' if self.replays != 1 else ''} of {self.batches:,} "
                f"batch{'es' if self.batches != 1 else ''} of {batch:,} trials each, with outcomes drawn from the "
                f"current posterior (a projection: as right as the posterior is); {share:.0%} of the replays reached "
                "the goal within them.")
        if self.skipped_pool:
            text += f" {self.skipped_pool:,} trials on new questions could not be simulated and are left out."
        if self.note:
            text += f" Ran {self.note}."
        return text

    def summary(self) -> dict:
        """Median trials and mean probability per batch, with the share of replays stopped."""
        return {"trials": np.median(self.trials, axis=0).tolist(),
                "probability": self.probability.mean(axis=0).tolist(),
                "stopped": self.stopped.mean(axis=0).tolist()}


def _truth(outcomes, prior: str, rng: np.random.Generator) -> np.ndarray:
    """Category probabilities of every cell drawn from its posterior, shape (L, M, C+1)."""
    c = _whole_counts(np.asarray(outcomes.counts))
    n_answered = (c.sum(axis=2) > 0).sum(axis=1)
    alpha, _, _ = _prior_pseudo_counts(_CountStates.of(c), prior, n_answered > 0)
    g = rng.standard_gamma(c + alpha[:, None, :])  # Dirichlet draws by normalised gammas, vectorised over cells
    total = g.sum(axis=2, keepdims=True)
    return np.where(total > 0, g / np.where(total > 0, total, 1.0), 1.0 / c.shape[2])


def projection_size(n_models: int, n_questions: int, replays: int, batches: int,
                    budget: int | None = PROJECTION_BUDGET) -> tuple[int, int, str]:
    """Replays and batches a projection runs within a work budget, and a note when they are fewer than asked.

    Parameters
    ----------
    n_models, n_questions : int
        The task's shape (L, M).
    replays, batches : int
        Asked for (>= 1).
    budget : int or None, default :data:`PROJECTION_BUDGET`
        Cell-plans ``L * M * replays * batches`` allowed; None: no limit.

    Returns
    -------
    replays, batches : int
        ``replays`` cut first (not below 2 unless fewer were asked), then ``batches`` (not below 1).
    note : str
        Empty when nothing was cut; otherwise what ran instead of what, and the option that runs more.

    Examples
    --------
    >>> projection_size(10, 40, 8, 6)
    (8, 6, '')
    >>> projection_size(250, 2000, 8, 6)[:2]
    (2, 4)
    """
    cells = max(1, n_models * n_questions)
    if budget is None or cells * replays * batches <= budget:
        return replays, batches, ""
    r = int(min(replays, max(min(2, replays), budget // (cells * batches))))
    b = int(min(batches, max(1, budget // (cells * r))))
    cut = [f"{r} replays instead of {replays}"] if r < replays else []
    cut += [f"{b} batches instead of {batches}"] if b < batches else []
    note = (f"{' and '.join(cut)} to stay within the time budget ({n_models:,} models x {n_questions:,} questions); "
            "more replays: the CLI's --replays R (then exactly R replays of --project B batches run)")
    return r, b, note


def project_goal(outcomes, goal: str = "top-1", *, batches: int = 6, replays: int = 8, batch: int = 200, seed: int = 0,
                 prior: str | None = None, draws: int = 1000, budget: int | None = PROJECTION_BUDGET,
                 **options) -> Projection:
    r"""Replay the planner on data drawn from the current posterior (see the module docstring).

    Parameters
    ----------
    outcomes : scorio_core.leaderboard.outcomes.Outcomes or TaskOutcomes
        One task's counts so far, shape (L, M, C+1) (a TaskOutcomes: its rubric outcomes, as :func:`plan_next`).
    goal : str, default "top-1"
        As :func:`scorio_core.plan.plan_next`; so are ``batch``, ``prior`` and ``options`` (``k``,
        ``pair``, ``width``, ``tolerance``, ``confidence``, ``costs``, ``scope``, ``max_trials``: the per-cell
        limit at the start, used up by each replay's simulated runs).
    batches : int, default 6
        Batches per replay B (>= 1).
    replays : int, default 8
        Replays R (>= 1); each draws its own truth and outcomes from ``seed``.
    seed : int, default 0
    draws : int, default 1000
        Posterior draws per planning step (fewer than the planner's default: a projection).
    budget : int or None, default :data:`PROJECTION_BUDGET`
        Work budget (:func:`projection_size`): on large data fewer replays, then fewer batches, run; the
        result says so (``requested``, ``note``). None: exactly ``replays`` x ``batches``.

    Returns
    -------
    Projection

    Raises
    ------
    InputError
        As :func:`scorio_core.plan.plan_next`; ``batches`` or ``replays`` < 1.

    Notes
    -----
    A preposterior analysis (Raiffa & Schlaifer 1961): the future outcomes are drawn from the posterior
    predictive distribution, so the projection is as right as the posterior; the replay benchmark
    (``benchmarks/bench_plan.py``) checks the planner on recorded data instead. The replays loop over
    batches (sequential decisions) and replays; each step is vectorised over cells.
    """
    from scorio_core.errors import InputError

    for name, value in (("batches", batches), ("replays", replays)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InputError(f"{name} must be an integer >= 1; got {name}={value!r}.")
    # replayed in the models' and questions' natural order: any input order gives the same projection (plan_next)
    original = task_counts(outcomes)
    outcomes, by_model, by_question = canonical_outcomes(original)
    if "costs" in options:
        options["costs"] = in_order(options["costs"], original.counts.shape[:1], by_model)
    asked = (int(replays), int(batches))
    replays, batches, note = projection_size(*outcomes.counts.shape[:2], replays, batches, budget)
    cap = options.pop("max_trials", None)  # per-cell limit at the start; each replay's runs use it up
    cap = None if cap is None else in_order(np.broadcast_to(np.asarray(cap, dtype=float), outcomes.counts.shape[:2]),
                                            outcomes.counts.shape[:2], by_model, by_question)
    models, questions = list(outcomes.models), list(outcomes.questions)
    index_m = {m: i for i, m in enumerate(models)}
    index_q = {q: j for j, q in enumerate(questions)}
    trials = np.zeros((replays, batches + 1))
    prob = np.zeros((replays, batches + 1))
    stopped = np.zeros((replays, batches + 1), dtype=bool)
    skipped = 0
    base = float(np.asarray(outcomes.counts).sum())
    fixed = options.get("scope", "questions-fixed") == "questions-fixed"
    root = np.random.default_rng(seed)
    for r, rng in enumerate(root.spawn(replays)):
        theta = _truth(outcomes, prior or default_plan_prior(goal), rng)
        current = outcomes
        for b in range(batches + 1):
            left = None if cap is None else np.maximum(cap - (current.n_trials - outcomes.n_trials), 0)
            # after the last batch only the goal's probability and the stop decision are used: with questions
            # fixed a batch of 1 decides stop as the full batch does (empty iff no cell has a positive gain)
            size = 1 if b == batches and fixed else batch
            plan = plan_next(current, goal, batch=size, seed=int(rng.integers(2**31)), prior=prior, draws=draws,
                             max_trials=left, **options)
            trials[r, b] = float(current.counts.sum()) - base
            prob[r, b] = float(plan.goal["probability"])
            stopped[r, b] = plan.stop
            if plan.stop or b == batches:
                trials[r, b + 1:], prob[r, b + 1:], stopped[r, b + 1:] = trials[r, b], prob[r, b], plan.stop
                break
            rows = [row for row in plan.batch if row["question_id"] is not None]
            skipped += sum(row["trials"] for row in plan.batch if row["question_id"] is None)
            li = np.array([index_m[row["model"]] for row in rows], dtype=np.intp)
            qi = np.array([index_q[row["question_id"]] for row in rows], dtype=np.intp)
            n = np.array([row["trials"] for row in rows], dtype=np.int64)
            counts = np.array(current.counts, dtype=np.int64, copy=True)
            if n.size:
                counts[li, qi] += rng.multinomial(n, theta[li, qi])
            current = dataclasses.replace(current, counts=counts, R=None)
    return Projection(trials, prob, stopped, skipped, asked if note else None, note)
