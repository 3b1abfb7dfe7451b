"""The trial-position warning of the result pages: the Leaderboard's, for the models a page analyses.

Bayes@N's intervals, the Pass@k family, trajectories, bootstraps, the planner's stop rule and the item fits treat a
model's trials of a question as exchangeable repeats. A dump whose second trial is made only after a failed first
(ARC-AGI's o3) breaks that; :func:`scorio_core.leaderboard.trial_order.trial_position_effects` finds it, and every page
whose result relies on exchangeable trials says so with :func:`trial_position_warning`.
"""

from __future__ import annotations

import streamlit as st

from dashboard.compute.explore import trial_effects_for
from dashboard.text import md
from scorio_core.leaderboard.trial_order import trial_position_notice

__all__ = ["trial_position_warning"]


def trial_position_warning(ctx, models=None, *, task: str | None = None, effects: list[dict] | None = None,
                           assumes: str = "", prefix: str = "") -> list[dict]:
    """Show the Leaderboard's trial-position warning for those of ``models`` whose trials are not exchangeable.

    Parameters
    ----------
    ctx : PageContext
        The page's context (data, task, display names).
    models : iterable of str, optional
        The models the page analyses (default: every model of the task).
    task : str, optional
        The task (default: the sidebar's, ``ctx.task``).
    effects : list of dict, optional
        Effects already found for ``task`` (e.g. a ``trial_position_effect`` notice's ``effects``); default: those of
        :func:`dashboard.compute.explore.trial_effects_for`, tested on every model of the task as the Leaderboard
        tests them.
    assumes : str, optional
        A sentence added after the finding: what on this page assumes exchangeable trials.
    prefix : str, optional
        Text put before the finding (e.g. the task's name on a page of every task).

    Returns
    -------
    list of dict
        The effects shown (empty: no warning), with the models' full names.
    """
    task = ctx.task if task is None else task
    if effects is None:
        effects = trial_effects_for(ctx.data.data_id, ctx.data.dataset, task)
    if models is not None:
        keep = {str(m) for m in models}
        effects = [e for e in effects if e["model"] in keep]
    if effects:  # e.g. ARC-AGI's o3: a second attempt only after a failed first; the Leaderboard says it, so must this page
        names = ctx.labels([e["model"] for e in effects])
        finding = trial_position_notice([{**e, "model": names.get(e["model"], e["model"])} for e in effects])["finding"]
        st.warning(f"{md(prefix)}{md(finding)}" + (f" {md(assumes)}" if assumes else ""), icon=":material/repeat:")
    return effects
