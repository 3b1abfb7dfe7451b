"""Shared sidebar: dataset, task and credibility level (rendered by app.py on every page)."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard.state import session as state
from dashboard.compute.results import ALL_TASKS, cluster_candidates, groups_of, models_of, tasks_of
from dashboard.data.access import ActiveData, active_data
from dashboard.state.session import KEY_CONFIDENCE, KEY_DATASET, KEY_MODELS, KEY_PRIOR, KEY_SCOPE, KEY_TASK
from dashboard.state.graded import graded_scored
from dashboard.state.rubric import adopt_data_default, workspace as rubric_workspace
from dashboard.share.links import presenting
from dashboard.text import code_span, md
from scorio_core.errors import InputError
from scorio_core.store.publish import CONFIDENCE_LEVELS  # one source: `publish` checks the same levels
from scorio_core.uncertainty import DEFAULT_PRIOR, DEFAULT_SCOPE, PRIOR_HELP, PRIORS, SCOPE_HELP, SCOPES

__all__ = ["PageContext", "render_sidebar", "page_context", "refresh_rubric_note", "ignored_link_values",
           "CONFIDENCE_LEVELS"]

DEFAULT_CONFIDENCE = 0.95
_RUBRIC_NOTE = "_sidebar_rubric_note"
_IGNORED = "_link_ignored_values"


@dataclass(frozen=True)
class PageContext:
    """What every page works on: the active data, the task and the credibility level."""

    data: ActiveData
    task: str
    tasks: tuple[str, ...]
    confidence: float
    prior: str = DEFAULT_PRIOR
    scope: str = DEFAULT_SCOPE
    models: tuple[str, ...] = ()
    short_names: bool = True
    cluster_column: str | None = None

    def labels(self, models) -> dict[str, str]:
        """Display name per model: shortened (:func:`scorio_core.report.names.display_names`) or the full name."""
        from scorio_core.report.names import display_names

        names = [str(m) for m in models]
        return display_names(names) if self.short_names else {m: m for m in names}

    def shown(self, models) -> list[str]:
        """``models`` narrowed by the sidebar's model filter (all of them when it is empty), in their order."""
        if not self.models:
            return [str(m) for m in models]
        keep = set(self.models)
        return [str(m) for m in models if str(m) in keep]


def _percent(level: float) -> str:
    return f"{level:.0%}"


#: Short widget labels of the priors and scopes (the full labels are in scorio_core.uncertainty).
PRIOR_CHOICES = {"empirical-bayes": "Empirical Bayes (calibrated)", "uniform": "Uniform (paper)", "jeffreys": "Jeffreys"}
SCOPE_CHOICES = {"questions-fixed": "Trials (questions fixed)", "questions-sampled": "Trials and questions"}


def _seed(key: str, fallback, options, format_func=str, widget_default=None, aliases=()) -> None:
    """Give a shared widget a valid value before it exists, unless the URL provides one.

    A value already in the session is kept when still valid; on first load a valid value in
    the URL wins, so shared links reopen the same view. Bound widgets write their
    *formatted* option to the URL (e.g. the dataset's title, "95%"), so both forms count.

    A widget whose fallback is not its first option must say so with its own default
    (``widget_default``, passed to the widget too): Streamlit does not write a value set in
    code to the URL when the widget first appears in the same run, and a later page switch
    could then reset a bound widget to its first option while the browser still showed the
    fallback (seen with the credibility level: 80% computed, 95% shown). The shared widgets
    also keep their value with ``persist_state="session"``, so a value restored in code (a
    share link, an imported manifest) survives page switches the same way.
    """
    if key in st.session_state:
        if st.session_state[key] not in options:
            st.session_state[key] = fallback
        return
    url = st.query_params.get(key)
    if url is not None and url in _link_forms(options, format_func, *aliases):
        return
    if url is not None and key != KEY_DATASET:  # a link value this data lacks: the default applies, and the user is told
        st.session_state.setdefault(_IGNORED, {})[key] = (
            f"The link's {key} {url[:80]!r} is not one of this data's choices; showing {format_func(fallback)} instead.")
    if widget_default is not None and fallback == widget_default:
        return  # the widget starts at its own default: a value set in code here would be lost on a later remount
    st.session_state[key] = fallback


def _link_forms(options, *format_funcs) -> set[str]:
    """Every form of the options a link may carry: the option itself and each formatted label (older links
    carry older labels, e.g. a bundled dataset's full title)."""
    return {str(o) for o in options} | {f(o) for f in format_funcs for o in options}


def _unknown_link_value(key: str, options, *format_funcs) -> str | None:
    """The URL's value for ``key`` on a session's first run when it names no option (else None)."""
    if key in st.session_state:
        return None
    url = st.query_params.get(key)
    if url is None or url in _link_forms(options, *format_funcs):
        return None
    return url


def render_sidebar() -> PageContext | None:
    """Render the shared widgets and return the page context (None if no data could load)."""
    state.init_state()
    state.apply_pending_selection()
    # the presentation view says what it shows in its footer: no toast over the title (on phones it covered it, QA F7)
    if state.apply_pending_restore() and not presenting():
        st.toast("Analysis restored: data, rubric and settings.", icon=":material/restore:")
    options = state.dataset_options()
    missing = _unknown_link_value(KEY_DATASET, options, state.dataset_short_label, state.dataset_label)
    if missing is not None:
        st.session_state["_link_missing"] = (missing, state.active_key())
    _seed(KEY_DATASET, state.active_key(), options, state.dataset_short_label, aliases=(state.dataset_label,))
    missing, fallback = st.session_state.get("_link_missing", (None, None))
    if missing is not None and st.session_state.get(KEY_DATASET) != fallback:
        st.session_state.pop("_link_missing", None)  # the user picked another dataset
        missing = None
    with st.sidebar:
        same_name = [o for o in options if missing is not None and state.dataset_label(o).split(" (#")[0] == missing]
        if len(same_name) > 1:  # a hand-written link by name, and several saved datasets carry it
            st.warning(f"The link names the dataset {code_span(missing)}, which {len(same_name)} saved datasets are "
                       f"called ({md(', '.join(state.dataset_label(o) for o in same_name[:5]))}). Showing the demo data "
                       "instead; pick one under Dataset (a share link from the Export page names exactly one).",
                       icon=":material/link_off:")
        elif missing is not None:
            st.warning(f"The link names the dataset {code_span(missing)}, which is not available here (deleted, private "
                       "to another session, or never saved). Showing the demo data instead; upload the files on the "
                       "Data page to work on them.", icon=":material/link_off:")
        st.selectbox(
            "Dataset",
            options,
            format_func=state.dataset_short_label,
            key=KEY_DATASET,
            bind="query-params", persist_state="session",
            help="Bundled real results, or your uploads from the Data page.",
        )
        try:
            data = active_data()
        except InputError as exc:
            st.error(f"Could not load this dataset: {md(str(exc))}")
            return None
        tasks = tuple(tasks_of(data.data_id, data.dataset))
        task_options = tasks_of(data.data_id, data.dataset, True) + ([ALL_TASKS] if len(tasks) > 1 else [])
        _seed(KEY_TASK, task_options[0], task_options)
        st.selectbox(
            "Task",
            task_options,
            key=KEY_TASK,
            bind="query-params", persist_state="session",
            help="Tasks with the most models first; 'all tasks' pools the questions of every task (each question "
                 "weighs the same).",
        )
        available = models_of(data.data_id, data.dataset, st.session_state[KEY_TASK])
        _seed_models(available)
        groups = groups_of(data.data_id, data.dataset)
        in_groups = _group_filter(groups, available)
        st.multiselect(
            "Models",
            available,
            key=KEY_MODELS,
            bind="query-params", persist_state="session",
            placeholder=f"All {len(available)} models" if len(available) != 1 else "The only model",
            help="Narrow every results page to these models (type to search); kept in the link. Ranks and intervals "
                 "are still computed with every model, so a model keeps its rank when others are hidden.",
        )
        st.toggle("Short model names", value=True, key="short_names", bind="query-params", persist_state="session",
                  help="Drop organisation prefixes and release dates (e.g. anthropic/claude-3-5-sonnet-20241022 -> "
                       "claude-3-5-sonnet) in tables and charts when the names stay unique; hover and exports keep "
                       "the full name.")
        _seed(KEY_CONFIDENCE, DEFAULT_CONFIDENCE, CONFIDENCE_LEVELS, _percent, widget_default=DEFAULT_CONFIDENCE)
        st.select_slider(
            "Credibility level",
            options=CONFIDENCE_LEVELS,
            value=DEFAULT_CONFIDENCE,
            key=KEY_CONFIDENCE,
            bind="query-params", persist_state="session",
            format_func=_percent,
            help=(
                "Intervals are central credible intervals at this level (z = 1.96 at 95%). "
                "Rank ties count a model as credibly better than another when the probability that it is better "
                "reaches this level (one-sided: z = 1.645 at 95%); the Leaderboard's *Rank ties* help says how each "
                "rule uses it."
            ),
        )
        _seed(KEY_PRIOR, DEFAULT_PRIOR, PRIORS, PRIOR_CHOICES.get)
        st.selectbox(
            "Prior",
            PRIORS,
            key=KEY_PRIOR,
            bind="query-params", persist_state="session",
            format_func=PRIOR_CHOICES.get,
            help=(
                "What is assumed about a question's success rate before its trials are seen. "
                + " ".join(f"**{PRIOR_CHOICES[p]}**: {PRIOR_HELP[p]}." for p in PRIORS) + " Details: docs/metrics.md."
            ),
        )
        _seed(KEY_SCOPE, DEFAULT_SCOPE, SCOPES, SCOPE_CHOICES.get)
        st.radio(
            "Intervals cover",
            SCOPES,
            key=KEY_SCOPE,
            bind="query-params", persist_state="session",
            format_func=SCOPE_CHOICES.get,
            help=(
                " ".join(f"**{SCOPE_CHOICES[k]}**: {SCOPE_HELP[k]}." for k in SCOPES)
            ),
        )
        mapped = cluster_mapping(data)
        cluster_column = mapped if st.session_state[KEY_SCOPE] == "questions-sampled" else None
        if st.session_state[KEY_SCOPE] == "questions-sampled":
            _cluster_note(data, mapped)
        st.session_state[_RUBRIC_NOTE] = st.empty()
        adopt_data_default(data.data_id, data.dataset)  # category codes without is_correct: the category-code rubric
        data = graded_scored(data)  # graded scores under a rubric that reads them: partial credit, not blocked
        refresh_rubric_note()
    return PageContext(data=data, task=st.session_state[KEY_TASK], tasks=tasks, confidence=float(st.session_state[KEY_CONFIDENCE]),
                       prior=st.session_state[KEY_PRIOR], scope=st.session_state[KEY_SCOPE],
                       models=_effective_models(available, in_groups),
                       short_names=bool(st.session_state.get("short_names", True)), cluster_column=cluster_column)


#: Session key of the column grouping questions into clusters (None/"" = independent questions); set on
#: the Data page (:func:`render_cluster_mapping`), carried by share links and manifests.
KEY_CLUSTER = "cluster_column"
_CLUSTER_PICK = "_cluster_pick"


def cluster_mapping(data) -> str | None:
    """The column mapped as question groups for this dataset, or None (checked against the data's columns).

    A value from a link (``?cluster_column=``) or a restored analysis is kept only when the data has that
    column constant within each question; otherwise questions are independent.
    """
    candidates = cluster_candidates(data.data_id, data.dataset)
    value = st.session_state[KEY_CLUSTER] if KEY_CLUSTER in st.session_state else st.query_params.get(KEY_CLUSTER)
    value = value if value in candidates else None
    # Written only when it changes: an unchanged view must not look edited (autosave would draft it and a
    # restore of that draft would undo the user's next widget change).
    if value:
        if st.session_state.get(KEY_CLUSTER) != value:
            st.session_state[KEY_CLUSTER] = value
        if st.query_params.get(KEY_CLUSTER) != value:
            st.query_params[KEY_CLUSTER] = value
    else:
        st.session_state.pop(KEY_CLUSTER, None)
        if KEY_CLUSTER in st.query_params:
            del st.query_params[KEY_CLUSTER]
    return value


def _cluster_note(data, column: str | None) -> None:
    """Under "Intervals cover": which questions count as independent (the mapping lives on the Data page)."""
    if column:
        st.caption(f"Questions grouped by **{md(column)}** (cluster-robust intervals); change it on the Data page.")
    elif cluster_candidates(data.data_id, data.dataset):
        st.caption("Questions count as independent. If they come in groups (a passage, a template), map the "
                   "group column on the Data page: intervals then widen to match.")


def render_cluster_mapping(ctx) -> None:
    """Data page: map a column of the data as the question groups ("none" = independent questions)."""
    candidates = cluster_candidates(ctx.data.data_id, ctx.data.dataset)
    if not candidates:
        return
    options = ["", *candidates]
    current = st.session_state.get(KEY_CLUSTER) or ""
    if st.session_state.get(_CLUSTER_PICK) != current:
        st.session_state[_CLUSTER_PICK] = current if current in options else ""

    def _changed() -> None:
        if st.session_state[_CLUSTER_PICK]:
            st.session_state[KEY_CLUSTER] = st.session_state[_CLUSTER_PICK]
        else:  # independent questions: neither the session nor the link carries a grouping
            st.session_state.pop(KEY_CLUSTER, None)
            if KEY_CLUSTER in st.query_params:
                del st.query_params[KEY_CLUSTER]

    st.selectbox("Questions grouped by", options, key=_CLUSTER_PICK, on_change=_changed,
                 format_func=lambda c: c or "none (independent questions)",
                 help="A column that puts questions in groups (a passage, a template, a source file). Questions of "
                      "one group are alike, so together they tell less than as many independent questions: under "
                      "\"Trials and questions\" intervals and comparisons widen to match (cluster-robust). "
                      "Offered: columns with one value per question.")
    if current and ctx.scope == "questions-fixed":
        st.caption("Used when intervals cover trials and questions (sidebar); intervals over these questions "
                   "do not depend on groups.")


GROUP_KEY = "groups"


def _group_filter(groups, available: list[str]) -> list[str] | None:
    """The family/organisation multiselect (when the data has groups); the models of the chosen groups, or None."""
    if groups is None:
        st.session_state.pop(GROUP_KEY, None)
        return None
    options = sorted({groups.of.get(m, "(none)") for m in available})
    if len(options) < 2:
        return None
    current = st.session_state[GROUP_KEY] if GROUP_KEY in st.session_state else st.query_params.get_all(GROUP_KEY)
    kept = [g for g in current or [] if g in options]
    if GROUP_KEY not in st.session_state or kept != list(current or []):
        st.session_state[GROUP_KEY] = kept
    st.multiselect("Organisation (from model names)" if groups.source == "name prefix" else f"Group ({md(groups.source)})",
                   options, key=GROUP_KEY, bind="query-params", persist_state="session", placeholder=f"All {len(options)}",
                   help="Narrow every results page to the models of these groups; kept in the link. "
                        + ("Groups are the organisation prefix of the model names (org/model; Qwen/ and qwen/ are one)." if groups.source == "name prefix"
                           else f"Groups come from the data's per-model column '{md(groups.source)}'."))
    chosen = st.session_state.get(GROUP_KEY) or []
    return groups.models_in(chosen, available) if chosen else None


def _effective_models(available: list[str], in_groups: list[str] | None) -> tuple[str, ...]:
    """The model filter in force: the Models selection, narrowed to the chosen groups (empty = every model)."""
    picked = [m for m in st.session_state.get(KEY_MODELS) or () if m in set(available)]
    if in_groups is None:
        return tuple(picked)
    both = [m for m in in_groups if not picked or m in set(picked)]
    if not both:
        st.sidebar.warning("No selected model is in the chosen groups: showing the chosen groups' models.",
                           icon=":material/filter_alt_off:")
        both = in_groups
    return tuple(both)


def _seed_models(available: list[str]) -> None:
    """Keep only filter values that name models of this data and task (a link may name others)."""
    known = set(available)
    if KEY_MODELS in st.session_state:
        current = st.session_state[KEY_MODELS] or []
    else:
        current = st.query_params.get_all(KEY_MODELS)
    kept = [m for m in current if m in known]
    if KEY_MODELS not in st.session_state and len(kept) < len(current):  # a link naming models this data lacks
        unknown = [m for m in current if m not in known]
        named = ", ".join(repr(m[:80]) for m in unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        st.session_state.setdefault(_IGNORED, {})[KEY_MODELS] = (
            f"The link's model filter names models this data does not have on this task ({named}); showing "
            + ("the others it names." if kept else "every model."))
    if kept != list(current) or KEY_MODELS not in st.session_state:
        st.session_state[KEY_MODELS] = kept


def refresh_rubric_note() -> None:
    """Show the rubric in force in the sidebar (the Rubric page calls this again after an edit)."""
    slot = st.session_state.get(_RUBRIC_NOTE)
    if slot is None:
        return
    schema = rubric_workspace().schema
    slot.caption(f"Rubric: **{md(schema.name)}** ({len(schema.categories)} categories) · set on the Rubric page")


def page_context() -> PageContext | None:
    """The context computed by the sidebar in this run (pages call this)."""
    return st.session_state.get("_page_context")


def ignored_link_values() -> list[str]:
    """Sentences naming each link value the data does not offer (``?task=``, ``?prior=``, ``?models=``...) and what
    applies instead; each is said once (the values are forgotten when read)."""
    return list(st.session_state.pop(_IGNORED, {}).values())
