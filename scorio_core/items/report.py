"""Question diagnostics of one task as tables: the IRT fit, the flags, and the questions to leave out.

What the Questions page, the ``questions`` CLI and ``leaderboard --exclude-flagged`` share:
:func:`diagnose` fits the item response model to a task's outcomes (binary correctness when the
data has it, else the rubric's weights in [0, 1]) and returns one row per question (difficulty,
discrimination and their Laplace intervals, information, flags, reason) and one per model (ability
and its interval); :func:`exclude_questions` removes questions from a task's outcomes, so a
leaderboard can be recomputed without the flagged ones (the flags are heuristics: compare before
acting on them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import ndtri

from scorio_core.items.linking import group_numbers
from scorio_core.errors import InputError
from scorio_core.items.flags import FLAG_CODES, flag_questions
from scorio_core.items.irt import IRTFit, fit_irt, from_outcomes

__all__ = ["Diagnostics", "QUESTION_COLUMNS", "MODEL_COLUMNS", "diagnose", "flagged_questions", "exclude_questions",
           "check_flag_codes", "weights_as_successes_note"]

#: Columns of :attr:`Diagnostics.questions` (also the CLI's JSON keys per question).
QUESTION_COLUMNS = ("task", "question_id", "difficulty", "difficulty_lo", "difficulty_hi", "discrimination",
                    "discrimination_lo", "discrimination_hi", "information", "success_rate", "n_models", "flags",
                    "reason")
#: Columns of :attr:`Diagnostics.models`.
MODEL_COLUMNS = ("task", "model", "ability", "ability_lo", "ability_hi", "answered", "group")


@dataclass(frozen=True, eq=False)
class Diagnostics:
    """Item response diagnostics of one task (:func:`diagnose`).

    Attributes
    ----------
    task : str
    fit : IRTFit
    questions : DataFrame
        One row per question, columns :data:`QUESTION_COLUMNS`; ``flags`` is a tuple of codes,
        ``reason`` one line per flag joined by "; ".
    models : DataFrame
        One row per model, columns :data:`MODEL_COLUMNS`.
    confidence : float
        Level of the ``_lo``/``_hi`` intervals (normal, Laplace standard errors).
    outcome : str
        What counts as a success: ``"binary correctness"`` or ``"rubric weights"``.
    """

    task: str
    fit: IRTFit
    questions: pd.DataFrame
    models: pd.DataFrame
    confidence: float
    outcome: str


def weights_as_successes_note(task: str, rubric: str) -> str:
    """What an item fit on a rubric's weights assumed (the ``rubric_weights`` note of ``questions`` and of
    ``leaderboard --exclude-flagged``); ``rubric`` names the rubric and its weights (docs/items.md)."""
    return (f"{task}: the item fit reads the rubric {rubric}, each attempt counting its weight as a success (a weight "
            "of 0.5 is half a success), as the Questions page does; binomial on these weighted counts is an "
            "approximation, and so are the intervals and the flags (docs/items.md). Flaky means attempts in two "
            "categories.")


def check_flag_codes(codes) -> tuple[str, ...]:
    """Validate flag codes (a comma-separated string or a sequence); returns them as a tuple.

    Raises
    ------
    ValueError
        An unknown code (the message lists the known ones).
    """
    items = [c.strip() for c in codes.split(",")] if isinstance(codes, str) else [str(c).strip() for c in codes]
    items = [c for c in items if c]
    bad = [c for c in items if c not in FLAG_CODES]
    if bad:
        raise ValueError(f"unknown question flag {bad[0]!r}; flags: {', '.join(FLAG_CODES)}.")
    return tuple(dict.fromkeys(items))


def diagnose(task_outcomes, *, model: str = "2pl", confidence: float = 0.95, b_prior: str = "empirical-bayes",
             **flag_options) -> Diagnostics:
    """Fit the IRT model to one task and flag its questions.

    Parameters
    ----------
    task_outcomes : TaskOutcomes or Outcomes
        From :func:`scorio_core.leaderboard.table.outcomes_for`; binary correctness is used when the
        data has it (``.binary``), else the rubric outcomes (weights must lie in [0, 1]).
    model : {"2pl", "rasch"}, default "2pl"
        :func:`scorio_core.items.fit_irt`'s model.
    b_prior : {"empirical-bayes", "fixed"}, default "empirical-bayes"
        :func:`scorio_core.items.fit_irt`'s difficulty prior.
    confidence : float, default 0.95
        Level of the normal intervals ``estimate +- z * SE`` (Laplace standard errors).
    **flag_options
        Thresholds of :func:`scorio_core.items.flag_questions`.

    Returns
    -------
    Diagnostics

    Raises
    ------
    InputError
        No question or model, rubric weights outside [0, 1], a 2PL fit with fewer than 2 models.
    ValueError
        ``confidence`` outside (0, 1).
    """
    if not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must be in (0, 1); got {confidence!r}.")
    outcomes = getattr(task_outcomes, "binary", None) or getattr(task_outcomes, "rubric", task_outcomes)
    binary = getattr(task_outcomes, "binary", None) is not None or np.array_equal(np.asarray(outcomes.weights), [0, 1])
    s, n, models, questions = from_outcomes(outcomes)
    if s.size == 0:
        raise InputError(f"task '{outcomes.task}' has no scored question to diagnose.")
    fit = fit_irt(s, n, model=model, models=models, questions=questions, b_prior=b_prior)
    # flaky: a model's attempts in two categories (FLAKY_RULE), not a partial-credit category (a draw, s = 0.5 of 1)
    disagree = (np.asarray(outcomes.counts) > 0).sum(axis=2) >= 2
    flags = flag_questions(fit, s, n, disagree=disagree, **flag_options)
    z = float(ndtri(0.5 + float(confidence) / 2))
    task = str(outcomes.task)
    q = pd.DataFrame({
        "task": task, "question_id": list(questions),
        "difficulty": fit.b, "difficulty_lo": fit.b - z * fit.b_se, "difficulty_hi": fit.b + z * fit.b_se,
        "discrimination": fit.a, "discrimination_lo": fit.a - z * fit.a_se, "discrimination_hi": fit.a + z * fit.a_se,
        "information": flags["information"].to_numpy(float), "success_rate": flags["success_rate"].to_numpy(float),
        "n_models": flags["n_models"].to_numpy(np.int64), "flags": list(flags["flags"]),
        "reason": [r.replace("\n", "; ") for r in flags["reasons"]],
    }, columns=list(QUESTION_COLUMNS))
    m = pd.DataFrame({
        "task": task, "model": list(models), "ability": fit.theta, "ability_lo": fit.theta - z * fit.theta_se,
        "ability_hi": fit.theta + z * fit.theta_se, "answered": fit.answered.astype(np.int64),
        # the linked group (items.linking): abilities compare within a group only; None for a model with no answer
        "group": [int(g) if g >= 0 else None for g in (group_numbers(fit.groups) if fit.groups is not None
                                                         else np.ones(len(models), dtype=np.int64))],
    }, columns=list(MODEL_COLUMNS))
    return Diagnostics(task, fit, q, m, float(confidence), "binary correctness" if binary else "rubric weights")


def flagged_questions(diagnostics: Diagnostics, codes) -> tuple[str, ...]:
    """Question ids carrying any of ``codes`` (:func:`check_flag_codes`), in the task's order."""
    wanted = set(check_flag_codes(codes))
    table = diagnostics.questions
    return tuple(str(q) for q, f in zip(table["question_id"], table["flags"]) if wanted & set(f))


def _keep(outcomes, drop: set):
    keep = np.array([q not in drop for q in outcomes.questions], dtype=bool)
    if keep.all():
        return outcomes
    return outcomes.keep_questions(keep)


def exclude_questions(task_outcomes, questions):
    """``task_outcomes`` without ``questions`` (binary and rubric outcomes alike).

    Parameters
    ----------
    task_outcomes : TaskOutcomes
        From :func:`scorio_core.leaderboard.table.outcomes_for`.
    questions : iterable of str
        Question ids to leave out (ids not in the task are ignored).

    Returns
    -------
    TaskOutcomes
        The same object when nothing is removed.

    Raises
    ------
    InputError
        Every question of the task would be removed.
    """
    drop = {str(q) for q in questions}
    rubric = task_outcomes.rubric
    if not drop & set(rubric.questions):
        return task_outcomes
    if set(rubric.questions) <= drop:
        raise InputError(f"task '{task_outcomes.task}': every question is flagged; nothing would be left to rank. "
                         "Exclude fewer flags.")
    new_rubric = _keep(rubric, drop)
    binary = task_outcomes.binary
    new_binary = new_rubric if binary is rubric else (None if binary is None else _keep(binary, drop))
    return type(task_outcomes)(task_outcomes.task, new_binary, new_rubric)
