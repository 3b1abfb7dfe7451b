"""Widget defaults that survive page switches and data changes.

Widgets on the analysis pages keep their value in ``st.session_state`` under their ``key``
(``persist_state="session"``). Before a widget is drawn, :func:`ensure` puts a default in
place when there is none yet or when the stored value no longer fits the current data
(e.g. ``k`` larger than the new dataset's N, or a model that is not in it), so widgets are
created without ``value=``/``default=`` and Streamlit never warns about both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

__all__ = ["ensure", "ensure_choice", "ensure_subset", "follow_default", "TOP_CHOICES", "LOADER_NOTES_SHOWN", "MANY_MODELS", "top_models", "drawn_rows",
           "k_notice"]

#: The "Show" choices where hundreds of models would make a chart unreadable (Leaderboard, Tasks).
TOP_CHOICES = ["all", 5, 10, 20, 50]
#: More models than this: those views show the top 50 until the user picks another count.
MANY_MODELS = 100
#: Loading notes the Leaderboard shows as notices; the rest (a folder of hundreds of files) in one expander.
LOADER_NOTES_SHOWN = 3


def ensure(key: str, default, valid: Callable[[object], bool] | None = None) -> None:
    """Set ``st.session_state[key] = default`` if the key is missing or its value is not ``valid``."""
    if key not in st.session_state or (valid is not None and not valid(st.session_state[key])):
        st.session_state[key] = default


def ensure_choice(key: str, options: Sequence, default) -> None:
    """Keep a single-choice widget's value among ``options`` (else ``default``)."""
    ensure(key, default, lambda value: value in options)


def ensure_subset(key: str, options: Sequence, default: Sequence) -> None:
    """Keep a multi-choice widget's values among ``options``: drop the others.

    ``default`` when the key is missing, or when none of a non-empty selection fits (the
    data changed); an empty selection the user made stays empty.
    """
    current = st.session_state.get(key)
    if current is None:
        st.session_state[key] = list(default)
        return
    allowed = set(options)
    kept = [v for v in current if v in allowed]
    st.session_state[key] = kept if kept or not current else list(default)


def follow_default(key: str, options: Sequence, default) -> None:
    """Like :func:`ensure_choice`, and the value follows ``default`` while the user has not picked another.

    For defaults that depend on the data (e.g. how many bootstrap replicates fit a time budget): the default last
    applied is remembered under ``_default:<key>``; while the widget still holds it, a new default replaces it
    (another dataset, prior or model subset), and a value the user picked is kept as long as it is among
    ``options``.
    """
    marker = f"_default:{key}"
    applied = st.session_state.get(marker)
    if key in st.session_state and applied is not None and st.session_state[key] == applied:
        st.session_state[key] = default  # not chosen by the user: follow the current default
    ensure_choice(key, options, default)
    if st.session_state[key] == default:
        st.session_state[marker] = default


def top_models(key: str, models, *, help: str, label: str = "Show", where=None) -> list:
    """The models a chart draws: all of them up to :data:`MANY_MODELS`, else the first ``n`` (``models`` best first)
    by a "Show" choice of :data:`TOP_CHOICES` (the top 50 until the user picks another count).

    ``where`` is the container the choice goes in (default the page); ``help`` says what "best" means there. Ranks
    and tables stay computed over every model; the caller says when the chart shows fewer.
    """
    models = list(models)
    if len(models) <= MANY_MODELS:
        return models
    follow_default(key, TOP_CHOICES, 50)
    top = (where or st).selectbox(label, TOP_CHOICES, key=key, persist_state="session", help=help,
                                  format_func=lambda v: "all models" if v == "all" else f"top {v}")
    return models if top == "all" else models[:int(top)]


def drawn_rows(models, drawn) -> list[int]:
    """Positions in ``models`` of the names in ``drawn`` (what :func:`top_models` chose), in ``models``' order.

    >>> drawn_rows(["a", "b", "c"], ["c", "a"])
    [0, 2]
    """
    chosen = set(drawn)
    return [i for i, name in enumerate(models) if name in chosen]


def k_notice(metric: str, k: int, n_min: int, present: bool = False) -> str | None:
    """Markdown for the Leaderboard where ``k`` makes ``metric`` score every model 0 (mG-Pass@k at k = 1), else None.

    It says why and what to do: set k higher (up to ``n_min``, the fewest trials per question), or, where no model has
    enough trials, choose another metric; in the presentation view (no k box) it names the sharer's k.
    """
    from dashboard.text import md
    from scorio_core.leaderboard.metrics import k_problem, min_k

    problem = k_problem(metric, k)
    if problem is None:
        return None
    least = min_k(metric)
    fix = (f"No model has {least} trials on every question here (at most N = {n_min}): choose another metric."
           if n_min < least else f"The shared analysis uses k = {k}; open it without `&view=present` and set k to "
           f"{least} or more." if present else f"Set k to {least} or more above (at most N = {n_min} here).")
    return f"{md(problem)}. {md(fix) if n_min < least or not present else fix}"
