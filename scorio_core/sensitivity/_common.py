"""Input checks shared by the across-schemata and perturbation analyses."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.rubric import Schema, SignalTable


# --------------------------------------------------------------------------- validation
def _table(attempts, max_tokens) -> SignalTable:
    if attempts is None:
        raise InputError(
            "rubric sensitivity needs attempt-level data with signals; count tables only "
            "support binary correctness."
        )
    if isinstance(attempts, SignalTable):
        return attempts
    if not isinstance(attempts, pd.DataFrame):
        raise TypeError(f"attempts must be a pandas DataFrame or SignalTable; got {type(attempts).__name__}.")
    if attempts.empty:
        raise InputError("the attempt table is empty.")
    return SignalTable(attempts, max_tokens=max_tokens)


def _missing_signals(schema: Schema, table: SignalTable) -> tuple[str, ...]:
    return tuple(s for s in schema.signals if bool(table.missing(s).all()))


def _real(value: object, name: str, low: float, high: float) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r}.")
    if not low <= float(value) <= high:
        raise ValueError(f"{name} must satisfy {low:g} <= {name} <= {high:g}; got {name}={value}.")
    return float(value)



# --------------------------------------------------------------------------- notes
def pooled_means_note(models, schemas=None, all_schemas: int = 1, ci_ties: bool = False,
                      tasks_pooled: bool = False, cause: str | None = None) -> str | None:
    """A note naming the models whose empirical-Bayes prior was not identified, so their Bayes@N is a pooled mean.

    Parameters
    ----------
    models : sequence of str
        Models whose fit fell back (``BatchSummary.method`` starting ``"fallback"``); empty: no note.
    schemas : sequence of str, optional
        The schemata where it happened, named when fewer than ``all_schemas`` of them.
    all_schemas : int
        How many schemata were ranked.
    ci_ties : bool
        Whether the analysis shows CI-tie ranks (then their sd is the pooled binomial one, not a posterior's).
    tasks_pooled : bool
        Several tasks pooled (the prior fitted per task): the rule may hold in any one of a model's tasks.
    cause : str, optional
        The one cause that holds for every model (:func:`scorio_core.uncertainty.priors.shortage_cause`); default
        (None) the whole rule. Ignored with ``tasks_pooled``.

    Returns
    -------
    str or None
        The note (:func:`scorio_core.uncertainty.posterior_summary_batch`'s fallback, docs/metrics.md), or None.
    """
    from scorio_core.ranking.paired import names_phrase
    from scorio_core.uncertainty.priors import not_identified_rule

    if not len(models):
        return None
    its = "its" if len(models) == 1 else "their"
    where = f" under {', '.join(schemas)}" if schemas and len(schemas) < all_schemas else ""
    where_rule = f"; in any one of {its} tasks" if tasks_pooled else ""
    return (f"the empirical-Bayes prior is not identified for {names_phrase(models)}{where} "
            f"({cause if cause and not tasks_pooled else not_identified_rule(degenerate=True)}{where_rule}): {its} Bayes@N is the observed mean over "
            f"{its} questions (moved half a trial toward 1/2 where all of a model's trials fell in one category), not "
            "a posterior mean"
            + (f", and {its} CI ties use the pooled binomial sd (skewed as a Beta near 0 or 1), a normal approximation" if ci_ties else ""))
