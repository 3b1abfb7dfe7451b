"""Cached question diagnostics for the Questions page (issue 37): the IRT fit, the flags, ranks without flags.

Keyed like :mod:`dashboard.compute.results`: ``data_id`` and ``rubric_id`` stand in for the unhashed
``_dataset`` and ``_categorization``. Results are shared and read-only: never mutate them.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.compute.results import task_outcomes
from scorio_core.items.report import Diagnostics, check_flag_codes, diagnose, exclude_questions, flagged_questions
from scorio_core.items.shift import rank_shift, success_rates
from scorio_core.leaderboard.table import leaderboard

__all__ = ["question_diagnostics", "question_rates", "rank_without"]


@st.cache_data(show_spinner="Fitting the item response model...", max_entries=32)
def question_diagnostics(data_id: str, _dataset, task: str, model: str = "2pl", rubric_id: str = "binary",
                         _categorization=None, confidence: float = 0.95) -> Diagnostics:
    """The IRT fit and question flags of one task (:func:`scorio_core.items.report.diagnose`).

    Parameters
    ----------
    data_id, _dataset, task, rubric_id, _categorization
        As :func:`dashboard.compute.results.task_outcomes`.
    model : {"2pl", "rasch"}, default "2pl"
    confidence : float, default 0.95
        Level of the Laplace intervals.

    Returns
    -------
    Diagnostics
        ``questions`` (one row per question, flags and reasons), ``models`` (abilities), ``fit``.

    Raises
    ------
    InputError
        No scored question, rubric weights outside [0, 1], or a 2PL fit with fewer than 2 models.
    """
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    return diagnose(outcomes, model=model, confidence=confidence)


@st.cache_data(show_spinner=False, max_entries=32)
def question_rates(data_id: str, _dataset, task: str, rubric_id: str = "binary", _categorization=None) -> pd.DataFrame:
    """Observed success rate per (model, question), (L, M) (:func:`scorio_core.items.shift.success_rates`)."""
    return success_rates(task_outcomes(data_id, _dataset, task, rubric_id, _categorization))


@st.cache_data(show_spinner="Ranking without the flagged questions...", max_entries=32)
def rank_without(data_id: str, _dataset, task: str, codes: tuple[str, ...], model: str = "2pl",
                 rubric_id: str = "binary", _categorization=None, *, prior: str = "empirical-bayes",
                 scope: str = "questions-fixed", confidence: float = 0.95
                 ) -> tuple[pd.DataFrame, tuple[str, ...], tuple[str, str]]:
    """Bayes@N ranks on every question and without the questions flagged with ``codes``.

    Parameters
    ----------
    data_id, _dataset, task, rubric_id, _categorization
        As :func:`dashboard.compute.results.task_outcomes`.
    codes : tuple of str
        Flag codes (:data:`scorio_core.items.FLAG_CODES`) whose questions are left out.
    model : {"2pl", "rasch"}
        The IRT model the flags come from.
    prior, scope, confidence
        Of :func:`scorio_core.leaderboard.table.leaderboard` (no prior R0, no question clusters).

    Returns
    -------
    (DataFrame, tuple of str, (str, str))
        :func:`scorio_core.items.shift.rank_shift` of the two leaderboards, the excluded question ids, and the
        kind of interval of each leaderboard for a header (:func:`scorio_core.report.tables.interval_abbrev`:
        "95% CrI", or "95% exact CI" where the empirical-Bayes prior is not identified).

    Raises
    ------
    InputError
        Every question carries one of ``codes`` (nothing would be left to rank), or :func:`question_diagnostics`'s.
    ValueError
        An unknown flag code.
    """
    codes = check_flag_codes(codes)
    diag = question_diagnostics(data_id, _dataset, task, model, rubric_id, _categorization, confidence)
    dropped = flagged_questions(diag, codes) if codes else ()
    outcomes = task_outcomes(data_id, _dataset, task, rubric_id, _categorization)
    options = dict(metric="bayes", prior=prior, scope=scope, confidence=confidence)
    before = leaderboard(outcomes, **options)
    after = leaderboard(exclude_questions(outcomes, dropped), **options) if dropped else before
    from scorio_core.report.tables import interval_abbrev

    kinds = (interval_abbrev(before, confidence), interval_abbrev(after, confidence))
    return rank_shift(before, after), dropped, kinds
