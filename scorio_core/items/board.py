"""IRT abilities as a leaderboard: rank models by their 2PL (or Rasch) ability with Laplace intervals.

Abilities put every model on one scale even when models answered different questions (a question's
difficulty and discrimination are estimated from every model that answered it), so this ranking is
robust to unequal question sets where a mean over each model's own questions is not. The table has
the leaderboard's columns, so the leaderboard's figures and rank-tie rules apply unchanged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.items.linking import group_numbers
from scorio_core.items.report import Diagnostics
from scorio_core.ranking.rank import competition_ranks, ranks_with_ties

__all__ = ["ABILITY_COLUMNS", "SMALL_DESIGN", "ability_board", "ability_interval_label", "coverage_note", "unlinked_note"]

#: Columns of :func:`ability_board` (the leaderboard's, for its figures and exports).
ABILITY_COLUMNS = ("model", "rank", "rank_ci", "mu", "sigma", "lo", "hi", "n_questions", "interval", "group")


def ability_interval_label(diagnostics: Diagnostics) -> str:
    """What an ability interval covers, in words (shown with every ability table)."""
    kind = "2PL" if diagnostics.fit.model == "2pl" else "Rasch"
    scale = ", on the ability prior's scale with that scale's uncertainty" if kind == "2PL" else ""
    return (f"{diagnostics.confidence:.0%} interval of the {kind} ability (logit scale): posterior mode (MAP, "
            f"weakly informative priors{scale}) +- z x Laplace standard error; questions fixed")


#: Below these (answering models, answered questions) the Laplace intervals were measured to cover less than their level.
SMALL_DESIGN = (20, 100)


def coverage_note(diagnostics: Diagnostics) -> str | None:
    """Say what the intervals' coverage was measured to be on a table this small (None on larger ones).

    Measured by simulation (helper QA, 2026-12-02, 100 replications per design, 95% intervals, 2PL): 8 models x 30
    questions x 1 trial: difficulties 0.841, abilities 0.907; 8 x 30 x 4 with discriminations LogNormal(1, 0.3):
    discriminations 0.897; 4 x 40 x 4: discriminations 0.854; against 0.94-0.99 at 30 x 200 x 4 (docs/items.md).
    """
    fit = diagnostics.fit
    models, questions = int((np.asarray(fit.answered) > 0).sum()), int((np.asarray(fit.n_models) > 0).sum())
    if models >= SMALL_DESIGN[0] and questions >= SMALL_DESIGN[1]:
        return None
    # the short side by name: "150 models x 40 questions is a small table ... more models" misread a wide table
    short = " and ".join(w for w, few in (("models", models < SMALL_DESIGN[0]), ("questions", questions < SMALL_DESIGN[1]))
                         if few)
    return (f"{models} model{'s' if models != 1 else ''} x {questions} question{'s' if questions != 1 else ''}: few "
            f"{short} for these Laplace intervals (fewer than {SMALL_DESIGN[0]} models or {SMALL_DESIGN[1]} questions): "
            "on simulated tables of 4-8 models x 30-40 questions, 95% intervals covered the truth at 0.84-0.91 "
            "(difficulties, abilities) and 0.85-0.90 (discriminations), against 0.94-0.99 at 30 models x 200 "
            f"questions; read them as approximate. More {short} make them closer to their level.")


def unlinked_note(diagnostics: Diagnostics) -> str | None:
    """Say when the models fall into groups that share no question (:func:`scorio_core.items.irt.linked_groups`).

    Abilities are then comparable within a group only: across groups their order comes from the priors (each
    group's questions taken as equally hard on average), not from the data. None when every model that answered
    is linked to every other.
    """
    fit = diagnostics.fit
    groups = getattr(fit, "groups", None)
    if groups is None:
        return None
    labels = group_numbers(groups)  # 1 = the largest group, as the leaderboard numbers them
    n = int(labels.max()) if labels.size else 0
    if n < 2:
        return None
    names = [[m for m, g in zip(fit.models, labels) if g == k] for k in range(1, n + 1)]
    shown = "; ".join(", ".join(group[:5]) + (f" and {len(group) - 5} more" if len(group) > 5 else "")
                      for group in names[:4]) + ("; ..." if n > 4 else "")
    return (f"The models fall into {n} groups that share no question, directly or through other models ({shown}). "
            "Abilities are comparable within a group; across groups their order comes from the priors (each group's "
            "questions taken as equally hard on average), not from the data, so ranks across groups are not "
            "supported: ranks (with or without CI ties) count only models of the same group, and the table lists "
            "the groups one after the other. Questions answered by models of several groups would link them.")


def ability_board(diagnostics: Diagnostics, *, tie_rule: str = "pairwise") -> pd.DataFrame:
    """Leaderboard rows from an IRT fit: models ranked by ability, with intervals and CI-tie ranks.

    Parameters
    ----------
    diagnostics : Diagnostics
        :func:`scorio_core.items.report.diagnose` of one task.
    tie_rule : {"pairwise", "paper", "upper-bound", "none"}
        Rule of ``rank_ci`` (:func:`scorio_core.ranking.rank.ranks_with_ties`) at the diagnostics'
        confidence. The abilities' standard errors are used as if independent (their Laplace
        covariance is left out): the unconditioned Laplace standard errors of the joint mode
        (``fit.theta_se_joint``, :mod:`scorio_core.items.spread`), not those given the 2PL scale, which called
        models of equal ability credibly different at 0.14-0.23 of pairs against a nominal 0.10. When the models fall into groups that share no question
        (``fit.groups``, :func:`unlinked_note`), ``rank`` and ``rank_ci`` are ranks within the model's group: the
        data order no pair across groups (their order comes from the priors), so no such pair is ordered.

    Returns
    -------
    DataFrame
        Columns :data:`ABILITY_COLUMNS`, best first: ``mu`` the ability, ``sigma`` its Laplace
        standard error, ``lo``/``hi`` the interval of ``diagnostics`` (normal), ``rank`` the
        competition rank of ``mu`` (within the model's linked group), ``n_questions`` the questions the model
        answered, ``group`` the linked group (1 = the largest, :func:`~scorio_core.items.linking.group_numbers`; 1 for every
        model when all are linked),
        rows sorted by group, then rank. A model that answered no question has NaN ``mu``, no rank and no group
        (its ability would be the prior's).

    Notes
    -----
    Source: the 2PL/Rasch MAP fit of :mod:`scorio_core.items.irt` (Lord 1980; Embretson & Reise 2000).
    The interval's coverage was measured by simulation (``benchmarks/bench_items_recovery.py --designs``:
    0.93-0.98 for 95% intervals at 30 models x 200 questions x 4 trials over six designs; docs/items.md).
    """
    fit = diagnostics.fit
    answered = np.asarray(fit.answered)
    seen = answered > 0
    mu = np.where(seen, fit.theta, np.nan)
    sigma = np.where(seen, fit.theta_se, np.nan)
    models = diagnostics.models.set_index("model")
    rank = pd.array([pd.NA] * len(mu), dtype="Int64")
    rank_ci = pd.array([pd.NA] * len(mu), dtype="Int64")
    group = pd.array([pd.NA] * len(mu), dtype="Int64")
    if seen.any():
        vals = mu[seen]
        # ties: the unconditioned Laplace SE (items.spread; the SE given the 2PL scale called equal models different)
        joint = getattr(fit, "theta_se_joint", None)
        fixed = np.asarray(joint, dtype=float)[seen] if joint is not None else sigma[seen]
        groups = getattr(fit, "groups", None)
        labels = group_numbers(groups)[seen] if groups is not None else np.ones(vals.size, dtype=np.int64)
        point, within = np.empty(vals.size, dtype=np.int64), np.empty(vals.size, dtype=np.int64)
        for g in np.unique(labels):  # a loop over unlinked groups (usually one): no pair across them is ordered
            members = labels == g
            point[members] = competition_ranks(vals[members], tol=0.0)  # 1 + models strictly ahead (no scipy.stats)
            within[members] = ranks_with_ties(vals[members], fixed[members], diagnostics.confidence, rule=tie_rule)
        rank[np.flatnonzero(seen)] = point
        rank_ci[np.flatnonzero(seen)] = within
        group[np.flatnonzero(seen)] = labels
    table = pd.DataFrame({
        "model": list(fit.models), "rank": rank, "rank_ci": rank_ci, "mu": mu, "sigma": sigma,
        "lo": np.where(seen, models.loc[list(fit.models), "ability_lo"].to_numpy(float), np.nan),
        "hi": np.where(seen, models.loc[list(fit.models), "ability_hi"].to_numpy(float), np.nan),
        "n_questions": answered.astype(np.int64), "interval": ability_interval_label(diagnostics), "group": group,
    }, columns=list(ABILITY_COLUMNS))
    return table.sort_values(["group", "rank", "model"], na_position="last", kind="stable").reset_index(drop=True)
