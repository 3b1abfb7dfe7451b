"""What a leaderboard cannot answer as shown: unequal question sets and paper-rule chains.

:func:`apply_question_set` compares models that answered different questions on their own
questions, the common ones, or with missing ones counted as wrong; :func:`leaderboard_notices`
returns the structured notes (stable ``code``) that the Leaderboard page, the CLI JSON and the
exports show. Used by :func:`scorio_core.leaderboard.table.leaderboard`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from scorio_core.choices import QUESTION_SETS
from scorio_core.errors import InputError
from scorio_core.io.quality.names import near_duplicate_models, similar_ids_sentence, similar_question_ids
from scorio_core.leaderboard.linking import common_mask, disconnected_groups_notice, missing_tasks_notice
from scorio_core.leaderboard.task_outcomes import TaskOutcomes

__all__ = ["QUESTION_SETS", "apply_question_set", "choices_of", "data_choices_notice", "emptied_on", "leaderboard_notices", "prior_pull_notice", "question_sets_differ",
           "question_sets_notice", "question_set_notes"]


_common_mask = common_mask  # the name table.py and older callers import


def _fill_missing(outcomes):
    """Missing (model, question) cells as answered wrongly, as often as the most-tried model."""
    n = outcomes.n_trials
    missing = n == 0
    if not missing.any():
        return outcomes
    n_fill = np.broadcast_to(n.max(axis=0), n.shape)
    low = int(np.argmin(outcomes.weights))
    counts = outcomes.counts.copy()
    counts[..., low] += np.where(missing, n_fill, 0)
    R = None
    if outcomes.R is not None:
        R = outcomes.R.copy()
        trial = np.arange(R.shape[2])
        R[missing[..., None] & (trial < n_fill[..., None])] = low
    return replace(outcomes, counts=counts, R=R)


def apply_question_set(task_outcomes, question_set: str = "own"):
    """Compare models on their own questions, the common ones, or with missing ones as wrong.

    Parameters
    ----------
    task_outcomes : TaskOutcomes
    question_set : {"own", "common", "missing-incorrect"}
        See :data:`QUESTION_SETS`. ``own`` returns the input unchanged.

    Returns
    -------
    TaskOutcomes
        With questions restricted (``common``) or missing cells filled with the lowest-weight
        category (``missing-incorrect``; an explicit choice, recorded by the caller).

    Raises
    ------
    ValueError
        Unknown ``question_set``.
    InputError
        ``common`` when no question was answered by every model.
    """
    if question_set not in QUESTION_SETS:
        raise ValueError(f"question_set must be one of {', '.join(QUESTION_SETS)}; got {question_set!r}.")
    if question_set == "own":
        return task_outcomes
    rubric = task_outcomes.rubric
    if question_set == "common":
        keep = _common_mask(task_outcomes)
        if keep.all():
            return task_outcomes
        if not keep.any():
            raise InputError(f"{task_outcomes.task}: no question was answered by every model; choose another question set.")
        change = lambda o: o.keep_questions(keep if o.questions == rubric.questions else np.isin(o.questions, np.asarray(rubric.questions)[keep]))  # noqa: E731
    else:
        change = _fill_missing
    new_rubric = change(rubric)
    binary = task_outcomes.binary
    new_binary = new_rubric if binary is rubric else (None if binary is None else change(binary))
    return TaskOutcomes(task_outcomes.task, new_binary, new_rubric)


def question_sets_notice(task_outcomes, question_set: str = "own", silent=()) -> dict | None:
    """The ``unequal_question_sets`` notice of :func:`leaderboard_notices` (models answered different questions), or None.

    ``silent``: models without an answered question (``not_scored``'s), not short. Also in ``ranks``' notes.
    """
    answered = task_outcomes.rubric.n_trials > 0
    per_model = answered.sum(axis=1)
    # a model with nothing answered and no score is the not_scored finding's; scored (missing-incorrect fills it), it is short
    short = {m: int(k) for m, k in zip(task_outcomes.models, per_model) if k < answered.shape[1] and m not in silent}
    if not short:
        return None
    counted = np.array([m not in silent for m in task_outcomes.models], dtype=bool)
    n_common = int(np.all(answered[counted], axis=0).sum())
    handled = {
        "own": "each model is scored on its own questions, so a model that skipped hard questions can rank higher",
        "common": f"only the {n_common} questions every model answered are used",
        "missing-incorrect": "a missing question counts as answered wrongly",
    }[question_set]
    similar = similar_question_ids(task_outcomes.rubric.questions, answered)  # '01' for some models, '1' for others
    finding = (f"{len(short)} of {len(per_model)} models answered fewer than all {answered.shape[1]} questions "
               f"({n_common} answered by every model); {handled}." + (" " + similar_ids_sentence(similar)) * bool(similar))
    return {
        "code": "unequal_question_sets",
        "message": finding + (" Choose the question set: own, common or missing-incorrect." if n_common else
                              " Choose the question set: own or missing-incorrect (common has no question here)."),
        "finding": finding,
        "models": {m: int(k) for m, k in zip(task_outcomes.models, per_model)},
        "n_questions": int(answered.shape[1]),
        "n_common": n_common,
        "question_set": question_set, "similar_question_ids": [list(g) for g in similar],
    }


def leaderboard_notices(
    task_outcomes,
    table: pd.DataFrame,
    *,
    confidence: float = 0.95,
    tie_rule: str = "pairwise",
    question_set: str = "own",
    emptied=None,
    choices=(),
    dataset_models=(),
    named_by_default=(),
) -> list[dict]:
    """Structured notices about a leaderboard: what the data cannot answer as shown.

    ``emptied`` maps models that a data-quality choice left without a row on this task to that choice
    (:meth:`scorio_core.io.QualityReport.emptied_models`): they are not in the table, and a reader must be told.
    ``choices`` are the data-quality choices applied to the dataset (:func:`choices_of`), each a line saying
    what it changed: a reader of the table must know that, e.g., attempts without an outcome were counted as wrong.
    ``dataset_models`` are every model of the dataset (:attr:`scorio_core.io.QualityReport.models`): those without a
    row on this task (and not ``emptied``) are named, so a reader does not look for them in vain.

    Returns
    -------
    list of dict
        Each has a stable ``code``, a ``message`` and a ``finding`` (the message without advice to
        the analyst, for reports and exports a reader gets):

        - ``unequal_question_sets``: models answered different questions; ``models`` maps each
          model to its number of answered questions, with ``n_questions`` (union),
          ``n_common``, the ``question_set`` in force and ``similar_question_ids`` (ids differing only in case,
          spaces or leading zeros that no model answered two of: :func:`scorio_core.io.quality.report.similar_question_ids`).
        - ``disconnected_groups``: the scored models fall into groups that share no question, directly or through
          other models (:func:`scorio_core.leaderboard.linking.disconnected_groups_notice`); ``groups`` lists the
          model names of each, largest first.
        - ``paper_chain``: under the paper rule, a rank group whose best and worst models are
          credibly different; ``models`` = [best, worst], ``probability`` = P(best > worst).
        - ``emptied_by_choice``: models not ranked because a data-quality choice removed all their rows;
          ``models`` maps each to the choice.
        - ``not_scored``: models in the table without an answered question (e.g. every question they
          answered excluded as flagged); ``models`` lists them. They do not count as answering fewer
          questions in ``unequal_question_sets``.
        - ``data_choices``: the data-quality choices applied before scoring (``choices``: their lines), first.
        - ``similar_model_names``: model names that differ only in letter case or spaces, kept as different models
          (:func:`scorio_core.io.quality.report.near_duplicate_models`).
        - ``absent_from_task``: models of the dataset (``dataset_models``) with no row on this task, not ranked here
          (e.g. a model that did not run it); ``models`` lists them.
        - ``missing_tasks``: with every task pooled (``ALL_TASKS``), models that answered no question of some task
          (:func:`scorio_core.leaderboard.linking.missing_tasks_notice`); ``models`` maps each to the tasks it lacks.
        - ``model_named_by_default``: models whose name is not in the data but taken from a file or folder name
          (``named_by_default``: the loader's lines, :func:`model_name_defaults`), e.g. an lm-eval samples file
          loaded without its results file.
        - ``prior_pull``: models whose interval excludes their own observed avg@N (:func:`prior_pull_notice`);
          ``models``.
        - ``trial_position_effect``: models whose success rate depends on the trial's position far beyond chance
          (trials not exchangeable, e.g. a retry after a failure;
          :func:`scorio_core.leaderboard.trial_order.trial_position_effects`); ``models``, ``effects``.
    """
    from scorio_core.ranking.rank import paper_chains, pairwise_confidence
    from scorio_core.uncertainty.fallback import comparison_sds
    out: list[dict] = []
    if choices:
        out.append(data_choices_notice(choices))
    if named_by_default:  # a leaderboard row named after a file: the reader must know the name is not the model's
        lines = list(named_by_default)
        finding = ("Model names taken from file or folder names, not from the data: " + " ".join(lines[:3])
                   + (f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""))
        out.append({"code": "model_named_by_default", "finding": finding, "message": finding})
    if emptied:
        gone = ", ".join(f"{m} ({c})" for m, c in list(emptied.items())[:10]) + (", ..." if len(emptied) > 10 else "")
        finding = (f"{len(emptied)} model{' is' if len(emptied) == 1 else 's are'} not ranked: a data-quality choice "
                   f"removed every row {'it' if len(emptied) == 1 else 'they'} had on this task: {gone}.")
        out.append({"code": "emptied_by_choice", "finding": finding, "models": dict(emptied),
                    "message": finding + " Undo that choice to rank them, or check their outcomes in the dump."})
    for finding in near_duplicate_models(task_outcomes.models):  # two rows that read 'gpt-4o': say they are two models
        out.append({"code": "similar_model_names", "finding": finding, "message": finding})
    here = set(task_outcomes.models)
    absent = [m for m in dict.fromkeys(str(m) for m in dataset_models) if m not in here and m not in (emptied or {})]
    if absent:  # the dataset has them, this task does not: the table is not missing them by mistake
        finding = (f"{len(absent)} of the dataset's {len(set(map(str, dataset_models)) | here):,} models "
                   f"{'has' if len(absent) == 1 else 'have'} no row on this task and {'is' if len(absent) == 1 else 'are'}"
                   f" not ranked here: {', '.join(absent[:10])}" + (f" and {len(absent) - 10:,} more" if len(absent) > 10
                                                                     else "") + ".")
        out.append({"code": "absent_from_task", "finding": finding, "models": absent,
                    "message": finding + " The Tasks page (CLI: tasks) shows which tasks each model ran."})
    answered = task_outcomes.rubric.n_trials > 0
    if (partial := missing_tasks_notice(task_outcomes, answered)) is not None:  # all tasks pooled: some tasks only
        out.append(partial)
    per_model = answered.sum(axis=1)
    unscored = set(table.loc[table["mu"].isna(), "model"].astype(str)) if "mu" in table.columns else set()
    silent = [m for m, k in zip(task_outcomes.models, per_model) if k == 0 and m in unscored and m not in (emptied or {})]
    if silent:  # in the table with no score (e.g. every question it answered excluded as flagged): say why
        finding = (f"{len(silent)} model{' has' if len(silent) == 1 else 's have'} no answered question here and "
                   f"{'is' if len(silent) == 1 else 'are'} not ranked: {', '.join(silent[:10])}"
                   + (", ..." if len(silent) > 10 else "") + ".")
        out.append({"code": "not_scored", "finding": finding, "message": finding, "models": silent})
    unequal = question_sets_notice(task_outcomes, question_set, silent)
    if unequal is not None:
        out.append(unequal)
    label = str(table["metric"].dropna().iloc[0]) if "metric" in table.columns and table["metric"].notna().any() else "score"
    apart = disconnected_groups_notice(task_outcomes, table, question_set, metric_label=label)
    if apart is not None:  # two groups without a shared question: their order compares question sets, not models
        out.append(apart)
    from scorio_core.leaderboard.trial_order import trial_position_effects, trial_position_notice

    binary = task_outcomes.binary
    order = trial_position_notice(trial_position_effects(binary)) if binary is not None else None
    if order is not None:  # the intervals assume exchangeable trials: a retry-after-failure dump must say it breaks that
        out.append(order)
    pulled = prior_pull_notice(table)
    if pulled is not None:  # the prior, not the data, sets these numbers: a reader comparing with avg@N must know
        out.append(pulled)
    if tie_rule == "paper":
        scored = table[table["mu"].notna()]
        if len(scored) >= 2:
            mu, (sigma, up) = scored["mu"].to_numpy(float), comparison_sds(scored, confidence)  # exact rows: skewed
            names = scored["model"].astype(str).tolist()
            for best, worst in paper_chains(mu, sigma, confidence, sigma_up=up):
                p = float(pairwise_confidence(mu[[best, worst]], sigma[[best, worst]], up[[best, worst]])[0, 1])
                rank_ci = scored["rank_ci"].iloc[best]
                finding = (f"The paper rule gives {names[best]} and {names[worst]} the same rank ({rank_ci}) through a "
                           f"chain of close neighbours, although P({names[best]} > {names[worst]}) = {p:.3f} "
                           f">= {confidence:.0%}.")
                out.append({
                    "code": "paper_chain",
                    "message": finding + " The pairwise rule ranks by the models credibly better.",
                    "finding": finding,
                    "models": [names[best], names[worst]],
                    "probability": p,
                })
    return out


def choices_of(dataset) -> tuple[str, ...]:
    """The data-quality choices applied to ``dataset`` (:attr:`scorio_core.io.QualityReport.choices`), one line each
    saying what it changed; empty when none was made (or the data's report does not track them)."""
    report = getattr(dataset, "report", None)
    return tuple(getattr(report, "choices", ()) or ())


def data_choices_notice(choices) -> dict:
    """The ``data_choices`` notice of :func:`leaderboard_notices`: what the applied data-quality choices changed.

    >>> data_choices_notice(["missing_outcomes=incorrect: 2 attempts without an outcome counted as incorrect (c on t: 2)."])["finding"]
    'Data-quality choices applied before scoring: missing_outcomes=incorrect: 2 attempts without an outcome counted as incorrect (c on t: 2).'
    """
    lines = [str(c).strip() for c in choices if str(c).strip()]
    finding = "Data-quality choices applied before scoring: " + " ".join(
        line if line.endswith(".") else line + "." for line in lines)
    return {"code": "data_choices", "finding": finding, "message": finding, "choices": lines}


def dataset_models(dataset) -> tuple[str, ...]:
    """Every model of ``dataset`` (its quality report's), for :func:`leaderboard_notices`' ``dataset_models``; empty
    where the data's report does not list them."""
    return tuple(getattr(getattr(dataset, "report", None), "models", ()) or ())


def model_name_defaults(dataset) -> tuple[str, ...]:
    """The loader's lines saying a model was named after a file or folder (``QualityReport.defaults``), for
    :func:`leaderboard_notices`' ``named_by_default``."""
    lines = getattr(getattr(dataset, "report", None), "defaults", ()) or ()
    return tuple(str(line) for line in lines if "model set to the" in str(line))


def emptied_on(dataset, task: str) -> dict[str, str]:
    """Models of ``task`` (or of every task, for :data:`~scorio_core.leaderboard.task_outcomes.ALL_TASKS`) that a
    data-quality choice left without a row, mapped to that choice: the ``emptied`` of :func:`leaderboard_notices`.

    Empty for data whose report does not track them (SQL engines apply the choices in the query).
    """
    from scorio_core.leaderboard.task_outcomes import ALL_TASKS

    report = getattr(dataset, "report", None)
    if report is None or not getattr(report, "emptied", ()):
        return {}
    return report.emptied_models(None if task == ALL_TASKS else task)


def question_sets_differ(task_outcomes, question_set: str = "own") -> bool:
    """Whether the leaderboard's models were scored on different questions: some model did not answer every
    question of the task and each is scored on its own (``question_set="own"``; ``common`` and
    ``missing-incorrect`` put every model on the same questions). For the verdict's "on these M questions"."""
    answered = np.asarray(task_outcomes.rubric.n_trials) > 0
    return question_set == "own" and bool(answered.size) and not bool(answered[answered.any(axis=1)].all())


def prior_pull_notice(table: pd.DataFrame, *, limit: int = 3, shown=None) -> dict | None:
    """Models whose interval excludes their own observed avg@N (Pass@k family: the metric's estimate from the trials):
    there the prior, not the data, sets the number.

    With few trials per question a fixed prior (uniform, Jeffreys) pulls every question's mean toward the middle
    further than the trials pull it back, and a questions-fixed interval does not include that pull (ARC-AGI at N = 2
    under the Jeffreys prior: claude-3-haiku avg@N 0.051 beside [0.181, 0.221]). Rows on the N = 1 fallback (pooled
    rate, exact binomial interval) hold their avg@N and are skipped.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows with ``model, mu, lo, hi, avg`` (and ``interval``, ``n_trials``, ``prior``).
    limit : int, default 3
        Models named with their numbers in the sentence; the rest are counted (``models`` lists all).
    shown : collection of str, optional
        The models a page shows (a model filter): only those are named, the others counted as hidden by the filter.

    Returns
    -------
    dict or None
        ``{"code": "prior_pull", "finding", "message", "models"}``, or None when every interval holds its avg@N.

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["a", "b"], "mu": [0.2, 0.5], "lo": [0.18, 0.4], "hi": [0.22, 0.6],
    ...                   "avg": [0.05, 0.5], "n_trials": [2, 2], "prior": ["jeffreys"] * 2})
    >>> print(prior_pull_notice(t)["finding"])
    The interval of a excludes its observed avg@N (avg@N 0.050, interval [0.180, 0.220]): with N = 2 trials per question the Jeffreys prior moves the mean this far from what was observed, and the interval does not include that pull; the empirical-Bayes prior (fitted to each model's questions) moves it less, more trials less still.
    """
    from scorio_core.choices import is_fallback_interval

    if not {"model", "mu", "lo", "hi", "avg"} <= set(table.columns):
        return None
    scored = table[table["mu"].notna()]
    lo, hi, avg = (scored[c].to_numpy(float) for c in ("lo", "hi", "avg"))
    # the Pass@k family's interval is about its own metric: compare it with the metric's estimate from the trials
    # (1 - (1 - p)^k is not avg@N); Bayes@N and avg@N with avg@N (Bayes@N's estimate is its posterior mean)
    metric = str(scored["metric"].iloc[0]) if "metric" in scored.columns and len(scored) else "Bayes@N"
    observed = "avg@N"
    if metric not in ("Bayes@N", "avg@N") and "estimate" in scored.columns:
        avg, observed = scored["estimate"].to_numpy(float), f"{metric} estimate"
    fallback = np.zeros(len(scored), bool)
    if "interval_kind" in scored.columns:
        fallback |= scored["interval_kind"].astype(str).eq("exact-binomial").to_numpy()
    if "interval" in scored.columns:
        fallback |= scored["interval"].map(is_fallback_interval).to_numpy(bool)
    off = ~fallback & np.isfinite(avg) & np.isfinite(lo) & np.isfinite(hi) & ((avg < lo - 1e-9) | (avg > hi + 1e-9))
    if not off.any():
        return None
    rows = scored[off]
    models = rows["model"].astype(str).tolist()
    numbers = [f"{observed} {a:.3f}, interval [{low:.3f}, {high:.3f}]" for a, low, high in zip(avg[off], rows["lo"], rows["hi"])]
    priors = rows["prior"].dropna().unique() if "prior" in rows.columns else []
    name = {"uniform": "uniform ", "jeffreys": "Jeffreys ", "empirical-bayes": "empirical-Bayes "}.get(
        str(priors[0]) if len(priors) == 1 else "", "")
    n = rows["n_trials"].min() if "n_trials" in rows.columns else np.nan
    trials = f"with N = {int(n)} trials per question " if pd.notna(n) else ""
    fixed = name in ("uniform ", "Jeffreys ")
    why = (f"{trials}the {name}prior moves the mean this far from what was observed, and the interval does not include "
           "that pull" + ("; the empirical-Bayes prior (fitted to each model's questions) moves it less, more trials "
                          "less still." if fixed else "; more trials per question would move it less."))
    visible = [shown is None or m in set(map(str, shown)) for m in models]
    named = [f"{m} ({x})" for m, x, v in zip(models, numbers, visible) if v]
    hidden = len(models) - len(named)
    if hidden:
        hidden_part = f"{hidden:,} model{'s' if hidden > 1 else ''} the model filter hides"
        who = (", ".join(named[:limit]) + (f", {len(named) - limit:,} more" if len(named) > limit else "")
               + " and " if named else "") + hidden_part
        finding = f"The intervals of {who} exclude their observed {observed}: {why}"
    elif len(models) == 1:
        finding = f"The interval of {models[0]} excludes its observed {observed} ({numbers[0]}): {why}"
    else:
        who = (", ".join(named[:-1]) + " and " + named[-1] if len(named) <= limit
               else ", ".join(named[:limit]) + f" and {len(named) - limit:,} more")
        finding = f"The intervals of {who} exclude their observed {observed}: {why}"
    advice = (" Choose the empirical-Bayes prior in the sidebar (CLI: --prior empirical-bayes) to let each model's "
              "questions set its prior." if fixed else "")
    return {"code": "prior_pull", "finding": finding, "message": finding + advice, "models": models}


def question_set_notes(task_outcomes, question_set: str = "own", *, task: str | None = None, table=None) -> list[dict]:
    """The ``unequal_question_sets`` and ``disconnected_groups`` notices of one task (as :func:`leaderboard_notices`
    words them; models without an answered question do not count as short), each with ``task`` when given: for the
    commands and pages that score a task without its leaderboard notices (``tasks``, ``publish``, the Tasks page).
    ``table``: the task's leaderboard, as :func:`~scorio_core.leaderboard.linking.disconnected_groups_notice`."""
    answered = task_outcomes.rubric.n_trials > 0
    silent = [m for m, k in zip(task_outcomes.models, answered.sum(axis=1)) if k == 0]
    found = [question_sets_notice(task_outcomes, question_set, silent),
             disconnected_groups_notice(task_outcomes, table, question_set)]
    return [{**note, **({"task": task} if task is not None else {})} for note in found if note is not None]
