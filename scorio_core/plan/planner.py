r"""What to run next: the planner's public function and its result.

:func:`plan_next` reads the outcomes of one task so far, checks the goal on the Bayes@N posterior
(stop or continue, with a one-sentence reason) and, when the goal does not hold yet, proposes the
next batch of (model, question, trials) rows (:mod:`scorio_core.plan.allocate`). docs/metrics.md,
"What to run next (planner)", states the method, its sources and what holds under adaptive stopping.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from scorio_core.arrays.order import canonical_outcomes
from scorio_core.errors import InputError
from scorio_core.plan.allocate import Allocation, allocate
from scorio_core.plan.goals import check_goal, evaluate_goal
from scorio_core.plan.linking import group_check, linking_trials
from scorio_core.plan.posterior import cell_posterior, score_draws
from scorio_core.plan.prior_fit import default_plan_prior, fixed_prior_pull_note
from scorio_core.uncertainty.posterior import FALLBACK_LABELS, check_scope
from scorio_core.uncertainty.priors import check_prior, not_identified_rule

__all__ = ["Plan", "per_trial_costs", "plan_next", "task_counts"]


def task_counts(outcomes):
    """The :class:`~scorio_core.leaderboard.outcomes.Outcomes` the planner reads from ``outcomes``.

    A :class:`~scorio_core.leaderboard.table.TaskOutcomes` (``outcomes_for(dataset, task)``) gives its rubric
    outcomes, the Bayes@N counts that the CLI's ``plan`` and the Plan page pass; an ``Outcomes`` is returned as is.

    Raises
    ------
    TypeError
        Anything else, naming its type and what to pass.
    """
    if hasattr(outcomes, "rubric") and not hasattr(outcomes, "counts"):
        outcomes = outcomes.rubric
    if not all(hasattr(outcomes, name) for name in ("counts", "weights", "models", "questions")):
        raise TypeError(f"outcomes must be one task's Outcomes or TaskOutcomes (scorio_core.leaderboard.table.outcomes_for("
                        f"dataset, task), or its .rubric); got {type(outcomes).__name__}.")
    return outcomes


@dataclass(frozen=True, eq=False)
class Plan:
    """The planner's decision and next batch.

    Attributes
    ----------
    stop : bool
        Nothing more to run: the goal holds, or nothing can be run under the limits that would lower its error
        (``decision`` tells them apart; ``stop`` without ``goal["holds"]`` means the limits stop it).
    reason : str
        One sentence: why stop, or ``"continue: ..."`` with the goal's probability (only when continuing).
    goal : dict
        The goal and its arguments (``goal, k, pair, width, tolerance, confidence``) with
        ``probability``, ``holds`` and ``unlinked`` (the goal compares models of groups that share no
        question: it cannot hold, whatever ``probability`` says).
    batch : list of dict
        Rows ``model, task, question_id (None: new questions from the pool), trials, expected_gain``,
        by expected gain (descending), then model and question; empty when ``stop``. Rows that link
        groups sharing no question carry ``expected_gain`` NaN (the goal's error across them is not modelled).
    status : dict
        ``scope, prior, draws, seed, models`` (per model: ``model, mean, sd, lo, hi, p_best, trials,
        questions, missing_questions, var_trials, var_questions``), ``uncertainty`` (which part each kind
        of run reduces), ``notes`` (sentences) and ``notices`` (coded objects, e.g. ``disconnected_groups``).
    spent : dict
        ``trials`` per model, ``total_trials``, ``cost_per_trial`` per model and ``total_cost``.
    decision : {"goal_holds", "cannot_progress", "continue"}
        The goal holds; it does not, and nothing can be run under the limits that would lower its error; or
        run the batch.
    """

    stop: bool
    reason: str
    goal: dict
    batch: list = field(default_factory=list)
    status: dict = field(default_factory=dict)
    spent: dict = field(default_factory=dict)
    decision: str = "continue"

    def to_dict(self) -> dict:
        """The CLI's JSON object: ``stop, decision, reason, goal, batch, spent, status``."""
        return {"stop": self.stop, "decision": self.decision, "reason": self.reason, "goal": self.goal,
                "batch": self.batch, "spent": self.spent, "status": self.status}


def _costs(costs, models: tuple[str, ...]) -> np.ndarray:
    L = len(models)
    if costs is None:
        return np.ones(L)
    if isinstance(costs, dict):
        missing = [m for m in models if m not in costs]
        if missing:
            raise InputError(f"costs: no per-trial cost for model {missing[0]!r} ({len(missing)} models without one).")
        values = np.array([costs[m] for m in models], dtype=float)
    else:
        values = np.asarray(costs, dtype=float)
        if values.shape != (L,):
            raise InputError(f"costs must give one per-trial cost per model ({L}); got shape {values.shape}.")
    if not np.all(np.isfinite(values) & (values > 0)):
        bad = int(np.flatnonzero(~(np.isfinite(values) & (values > 0)))[0])
        raise InputError(f"costs must be finite and > 0; got {values[bad]!r} for model {models[bad]!r}.")
    return values


def _capacity(max_trials, shape: tuple[int, int]) -> np.ndarray | None:
    if max_trials is None:
        return None
    try:
        cap = np.broadcast_to(np.asarray(max_trials, dtype=float), shape)
    except (TypeError, ValueError) as exc:
        raise InputError(f"max_trials must be a number or an array of shape {shape} (models x questions); "
                         f"got {np.shape(max_trials)}.") from exc
    if np.isnan(cap).any() or (cap < 0).any():
        raise InputError("max_trials must be >= 0 in every cell (no NaN).")
    return cap


def _check_int(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < low:
        raise InputError(f"{name} must be an integer >= {low}; got {name}={value!r}.")
    return int(value)


def _uncertainty(scope: str, post, contenders: np.ndarray, pool: int) -> str:
    if scope == "questions-fixed":
        return ("questions-fixed: all the uncertainty is trial noise on these questions; more trials on them "
                "reduce it (new questions would change the estimand)")
    sel = contenders if contenders.any() else np.isfinite(post.fixed.mu)
    vt, vq = float(post.var_trials[sel].sum()), float(post.var_questions[sel].sum())
    share = vq / (vt + vq) if vt + vq > 0 else 0.0
    text = (f"questions-sampled: {share:.0%} of the deciding models' variance comes from which questions were "
            f"sampled (only new questions from the pool reduce it) and {1 - share:.0%} from trials within the "
            "answered questions (more trials on them reduce it)")
    if pool and share > 0.5:
        text += f"; the question-sampling part dominates, so the batch asks for {pool} new questions from the pool"
    return text


def in_order(value, shape: tuple, by_model, by_question=None):
    """A per-model (L,) or per-cell (L, M) argument in the canonical order of :func:`plan_next`'s outcomes; anything
    else (None, a dict by model name, a scalar, a wrong shape, which the checks then refuse) as given."""
    if value is None or isinstance(value, dict) or np.shape(value) != tuple(shape):
        return value
    out = np.asarray(value)[by_model]
    return out if by_question is None else out[:, by_question]


def _not_yet(reason: str) -> str:
    """A goal check's ``"continue: ..."`` sentence for a stop: the goal does not hold (never "continue")."""
    return "the goal does not hold: " + reason.removeprefix("continue: ")


def _unlinked_reason(goal: str, n_groups: int, stop: bool) -> str:
    """Why a goal across groups of models that share no question does not hold, and what would answer it."""
    why = (f"{goal} cannot be decided: the models it compares fall into {n_groups:,} groups that share no question, "
           "so their scores average different questions and the goal's probability compares the question sets as "
           "much as the models; running models of each group on the other groups' questions would answer it")
    if stop:
        return (f"stop without the goal: {why}, but every such (model, question) cell is at its trial limit "
                "(raise the limit to link the groups)")
    return f"continue: {why}, and the batch does that"


def per_trial_costs(dataset, task: str, column: str, outcomes) -> dict[str, float]:
    """Per-trial cost of each model from a cost column of the data.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
    task : str
    column : str
        A cost column (:func:`scorio_core.leaderboard.costs.cost_columns`), e.g. ``cost``.
    outcomes : scorio_core.leaderboard.outcomes.Outcomes or TaskOutcomes
        The task's outcomes (a TaskOutcomes: its rubric outcomes): a per-model total (a column constant within each model, e.g. a reported
        total cost) is spread over the model's trials; a per-attempt column gives its mean per attempt.

    Returns
    -------
    dict of str to float
        Model -> cost of one trial.

    Raises
    ------
    InputError
        A model without a numeric value in ``column`` (named, with the raw value).
    """
    from scorio_core.leaderboard.costs import model_costs

    found = model_costs(dataset, task, column)
    if found.left_out:
        model, raw = found.left_out[0]
        raise InputError(f"cost column {column}: model {model!r} has no numeric cost ({raw!r}).")
    values = dict(zip(found.values["model"], found.values["value"]))
    if found.column.level == "model":
        outcomes = task_counts(outcomes)
        trials = dict(zip(outcomes.models, outcomes.n_trials.sum(axis=1)))
        values = {m: v / max(int(trials.get(m, 1)), 1) for m, v in values.items()}
    return values


def plan_next(outcomes, goal: str = "top-1", *, k: int | None = None, pair=None, width: float | None = None,
              tolerance: float = 0.01, confidence: float = 0.95, batch: int = 200, costs=None,
              scope: str = "questions-fixed", prior: str | None = None, seed: int = 0,
              draws: int = 4000, max_trials=None) -> Plan:
    r"""Decide whether a goal holds and, if not, which trials to run next.

    Parameters
    ----------
    outcomes : scorio_core.leaderboard.outcomes.Outcomes or TaskOutcomes
        One task's counts so far, shape (L, M, C+1); ragged and missing cells allowed. A TaskOutcomes
        (``outcomes_for(dataset, task)``) is read through its rubric outcomes, as the CLI's ``plan`` and the
        Plan page pass them (:func:`task_counts`).
    goal : {"top-1", "top-k", "ranking", "pair", "width"}, default "top-1"
        See :data:`scorio_core.choices.PLAN_GOAL_HELP`.
    k : int, optional
        ``top-k``: size of the top set, ``1 <= k < L``.
    pair : sequence of two str, optional
        ``pair``: the two models.
    width : float, optional
        ``width``: target width of every credible interval (score units).
    tolerance : float, default 0.01
        ``ranking`` and ``pair``: models closer than this may be declared tied.
    confidence : float, default 0.95
        Posterior probability the goal must reach; also the level of the intervals.
    batch : int, default 200
        Trials in the next batch (a pool row counts one trial per new question per model).
    costs : dict of str to float or array-like of shape (L,), optional
        Cost of one trial of each model (default 1).
    scope : {"questions-fixed", "questions-sampled"}, default "questions-fixed"
    prior : {"uniform", "empirical-bayes", "jeffreys"}, optional
        Default (:func:`scorio_core.plan.prior_fit.default_plan_prior`): the leaderboard's empirical-Bayes prior for
        ``width`` (the goal is about the leaderboard's intervals), else uniform. For the ranking goals the planner's
        default is the uniform prior, not the leaderboard's empirical-Bayes one: in adaptive
        replays the empirical-Bayes prior stopped wrongly above the nominal level (docs/metrics.md, "What
        holds under adaptive stopping").
    seed : int, default 0
        Seed of the Monte-Carlo draws: same input and seed, same plan, whatever order the models and questions come
        in (drawn in their natural order, :func:`scorio_core.arrays.order.canonical_outcomes`; per-model results in
        the input's order).
    draws : int, default 4000
        Joint posterior draws for the goal's probability.
    max_trials : int or array-like of shape (L, M), optional
        At most this many more trials per (model, question) cell, e.g. a per-cell budget, or what a
        replay of recorded data still holds (``benchmarks/bench_plan.py``); None: no limit. Pool rows
        (new questions) are not limited by it.

    Returns
    -------
    Plan

    Raises
    ------
    InputError
        A bad goal argument (named), ``batch < 1``, ``draws < 100``, bad costs or ``max_trials``
        negative or of another shape.
    TypeError
        ``outcomes`` neither an Outcomes nor a TaskOutcomes.
    ValueError
        Unknown scope or prior.

    Notes
    -----
    Stops when the goal holds on the posterior at ``confidence``, or when no trial can lower the
    goal's approximate error (every gain 0; ``decision`` is then ``"cannot_progress"``). A goal that compares
    models of groups sharing no question (:mod:`scorio_core.plan.linking`) never holds: the batch runs models of
    each group on the other groups' questions, and ``status["notices"]`` carries the ``disconnected_groups``
    notice. Sources: Chen, Lin, Yucesan & Chick (2000), Discrete Event
    Dynamic Systems 10, 251-270 (OCBA); Frazier, Powell & Dayanik (2008), SIAM J. Control Optim. 47,
    2410-2439 (knowledge gradient); Rubin (1981), Ann. Statist. 9, 130-134 (Bayesian bootstrap);
    Hariri et al., ICLR 2026, arXiv:2510.04265 (Bayes@N).
    """
    outcomes = task_counts(outcomes)
    canon, by_model, by_question = canonical_outcomes(outcomes)
    if canon is not outcomes:  # drawn (and ties broken) in natural order; the per-model results in the input's order
        shape = np.shape(outcomes.counts)[:2]
        plan = plan_next(canon, goal, k=k, pair=pair, width=width, tolerance=tolerance, confidence=confidence,
                         batch=batch, costs=in_order(costs, shape[:1], by_model), scope=scope, prior=prior, seed=seed,
                         draws=draws, max_trials=in_order(max_trials, shape, by_model, by_question))
        rank = {m: i for i, m in enumerate(outcomes.models)}
        status = {**plan.status, "models": sorted(plan.status["models"], key=lambda row: rank[row["model"]])}
        spent = {**plan.spent, **{key: {m: plan.spent[key][m] for m in outcomes.models}
                                  for key in ("trials", "cost_per_trial")}}
        return replace(plan, status=status, spent=spent)
    check_scope(scope)
    prior = default_plan_prior(goal) if prior is None else prior
    check_prior(prior)
    models = tuple(outcomes.models)
    spec = check_goal(goal, models, k=k, pair=pair, width=width, tolerance=tolerance, confidence=confidence)
    batch = _check_int("batch", batch, 1)
    n_draws = _check_int("draws", draws, 100)
    cost = _costs(costs, models)
    post = cell_posterior(outcomes.counts, outcomes.weights, prior, spec.confidence)
    if scope == "questions-sampled":
        mu, sigma, lo, hi = post.fixed.mu, post.sampled.sigma, post.sampled.lo, post.sampled.hi
    else:  # the score on every question of the task (CellPosterior.task_mu)
        mu, sigma, lo, hi = post.task_mu, post.task_sigma, post.task_lo, post.task_hi
    rng = np.random.default_rng(seed)
    sample = score_draws(post, scope, n_draws, rng)
    check = evaluate_goal(spec, models, mu, sample, lo, hi)
    winner = np.argmax(np.where(np.isfinite(sample), sample, -np.inf), axis=1)
    p_best = np.bincount(winner, minlength=len(models)) / n_draws
    groups = group_check(outcomes, spec, models, mu)
    holds = check.holds and not groups.crosses
    stop, reason = holds, check.reason
    alloc = None
    room = _capacity(max_trials, outcomes.counts.shape[:2])
    if groups.crosses:  # no order across unlinked groups: link them first (what the leaderboard's notice asks for)
        link = linking_trials(groups, outcomes.n_trials > 0, batch, room)
        alloc = Allocation(link, np.full(link.shape, np.nan), np.zeros(len(models), np.int64), np.zeros(len(models)))
        stop = int(link.sum()) == 0
        reason = _unlinked_reason(spec.name, groups.n_groups, stop)
    elif not stop:
        cov = np.cov(sample, rowvar=False) if scope == "questions-sampled" else None
        alloc = allocate(spec, post, mu, check.a, check.b, check.ties, batch, cost, scope, cov, room)
        if alloc.trials.sum() + alloc.pool_trials.sum() == 0:
            stop = True
            reason = ("nothing to run lowers the goal's error (every expected gain is 0, or every cell is at its "
                      f"trial limit), so the planner stops without the goal: {_not_yet(check.reason)}")
    rows = []
    if not stop:
        li, qi = np.nonzero(alloc.trials)
        rows = [{"model": models[l], "task": outcomes.task, "question_id": outcomes.questions[q],
                 "trials": int(alloc.trials[l, q]), "expected_gain": float(alloc.gain[l, q])} for l, q in zip(li, qi)]
        rows += [{"model": models[l], "task": outcomes.task, "question_id": None, "trials": int(alloc.pool_trials[l]),
                  "expected_gain": float(alloc.pool_gain[l])} for l in np.flatnonzero(alloc.pool_trials)]
        rows.sort(key=lambda r: (-np.nan_to_num(r["expected_gain"]), r["model"], r["question_id"] is None,
                                 r["question_id"] or ""))
    n = outcomes.n_trials
    answered = n > 0
    per_model = []
    for l, name in enumerate(models):
        per_model.append({
            "model": name, "mean": float(mu[l]), "sd": float(sigma[l]), "lo": float(lo[l]), "hi": float(hi[l]),
            "p_best": float(p_best[l]), "trials": int(n[l].sum()),
            "questions": int(answered[l].sum()), "missing_questions": int((~answered[l]).sum()),
            "var_trials": float(post.var_trials[l]), "var_questions": float(post.var_questions[l]),
        })
    contenders = np.zeros(len(models), dtype=bool)
    contenders[check.a] = True
    contenders[check.b] = True
    pool = int(alloc.pool_trials.max()) if alloc is not None and alloc.pool_trials.size else 0
    notes = []
    planned = sum(row["trials"] for row in rows)
    if not stop and planned < batch and groups.crosses:
        notes.append(f"{planned:,} of the {batch:,} trials asked for are planned: every other cell that would link the "
                     "groups is at its trial limit")
    elif not stop and planned < batch:  # never a silently shorter batch
        notes.append(f"{planned:,} of the {batch:,} trials asked for are planned: no further trial has an expected gain "
                     "(the goal's approximate error is already 0 after them, or every cell is at its trial limit)")
    missing = [m for m, r in zip(models, per_model) if r["missing_questions"]]
    if missing:
        notes.append(("models with unanswered questions (their score covers every question of the task: the unanswered "
                      "ones are extrapolated from the answered ones, with the variance that adds, until trials there "
                      "inform them): " if scope == "questions-fixed"
                      else "models with unanswered questions (a trial there adds the question to the model's score): ")
                     + ", ".join(missing[:20]) + (f" and {len(missing) - 20:,} more" if len(missing) > 20 else ""))
    fell_back = [m for m, how in zip(models, post.fixed.method) if how in FALLBACK_LABELS]
    if fell_back:  # N = 1: the pooled binomial sd, not a posterior one (as the leaderboard's exact intervals say)
        from scorio_core.ranking.paired import names_phrase

        its = "its" if len(fell_back) == 1 else "their"
        from scorio_core.uncertainty.fallback_draws import FALLBACK_DRAWS
        from scorio_core.uncertainty.priors import shortage_cause

        counts = np.asarray(outcomes.counts)
        cause = shortage_cause(counts[[models.index(m) for m in fell_back]]) if counts.ndim == 3 else None
        notes.append(f"the empirical-Bayes prior is not identified for {names_phrase(fell_back)} "
                     f"({cause or not_identified_rule(degenerate=True)}): " + (
                         f"{its} draws come from {FALLBACK_DRAWS.format(its=its)}, as in ranks (with unanswered "
                         "questions: the normal of the score on every question)"
                         if scope == "questions-fixed" else
                         f"{its} draws use the pooled binomial spread around the pooled mean")
                     + ", so the goal's probability is an approximation there, not a posterior one "
                     "(more trials per question, or a uniform or Jeffreys prior, give a posterior)")
    pulled = fixed_prior_pull_note(post, outcomes.counts, outcomes.weights, prior, models)
    if pulled:  # a fixed prior far from the data: its stops err more often than the confidence allows
        notes.append(pulled)
    status = {"scope": scope, "prior": prior, "draws": n_draws, "seed": seed, "probability": check.probability,
              "models": per_model, "uncertainty": _uncertainty(scope, post, contenders, pool), "notes": notes,
              "notices": [{**groups.notice, "task": outcomes.task}] if groups.notice else []}
    goal_dict = {"goal": spec.name, "k": spec.k, "pair": list(pair) if spec.pair else None, "width": spec.width,
                 "tolerance": spec.tolerance, "confidence": spec.confidence, "probability": check.probability,
                 "holds": holds, "unlinked": groups.crosses}
    spent = {"trials": {m: r["trials"] for m, r in zip(models, per_model)}, "total_trials": int(n.sum()),
             "cost_per_trial": {m: float(c) for m, c in zip(models, cost)},
             "total_cost": float((n.sum(axis=1) * cost).sum())}
    decision = "goal_holds" if holds else "cannot_progress" if stop else "continue"
    return Plan(stop, reason, goal_dict, rows, status, spent, decision)
