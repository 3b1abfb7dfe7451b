"""Share links (issue 14): an immutable snapshot of the analysis, opened with ``?analysis=<id>``.

**Share** stores the analysis (``{"manifest": ..., "views": ...}``: the manifest of
:mod:`scorio_core.report.manifest` with data, data-quality choices, rubric and settings, plus the
page widgets of :data:`VIEW_KEYS` such as the compared models) as an immutable analysis of the workspace, after saving the
active dataset there too (a bundled dataset is saved like an upload, so the link does not depend
on this checkout's files), and returns its id. Opening a link on any session, machine or after
a restart validates the id, reads the snapshot from the catalog and restores it through the
same plan as an uploaded manifest (:func:`dashboard.share.export.restore_plan`); when the id is
unknown or the data cannot be matched, the sidebar says so instead of silently showing the demo.
"""

from __future__ import annotations

import hashlib
import json

import streamlit as st

from dashboard.share import export
from dashboard.state import rubric as rubric_state
from dashboard.state import session as state
from dashboard.data.bundled import BUNDLED
from dashboard.text import md
from dashboard.data.workspace import BUNDLED_COPY_PREFIX, WS_PREFIX, owner, remember, workspace, ws_id
from scorio_core.errors import InputError
from scorio_core.report.manifest import manifest_to_json
from scorio_core.store import NotFoundError, validate_id
from scorio_core.store.publish import analysis_state

__all__ = ["LINK_PARAM", "VIEW_PARAM", "RESULTS_PATHS", "PRESENT_FIGURES", "PRESENT_FIGURES_KEY", "PresentedSection",
           "landing_path", "presented_figures", "presentation_footer", "hide_settings", "base_url", "share_analysis", "open_link", "render_link_notice", "link_failure", "share_query",
           "presenting", "presented_settings", "autosave"]

LINK_PARAM = "analysis"
VIEW_PARAM = "view"
_APPLIED = "_link_applied"
_NOTICE = "_link_notice"
# every analysis id this session opened or saved: a rerun whose address still carries an earlier one (the browser's
# copy, sent before the new draft's id reached it) must not restore that analysis over the session's edits; a reopened
# draft's first change reverted a rubric category just added, in the page and in the saved draft (helper QA)
_SEEN = "_link_seen"
_DRAFTS = "_autosave_drafts"  # this session's draft of each dataset it changed
_FAILED = "_link_failed"  # the id of a link that could not be opened (presentation: nothing shown in its place)
_BASELINE = "_autosave_baseline"
_FIRST_VIEWS = "_autosave_first_views"  # each view control's first value this session (its default, or the link's)
_DRAFT = "_autosave_draft"
_SAVED = "_autosave_digest"
_DRAFT_DATASET = "_autosave_dataset"
#: Page widgets an analysis carries beside its manifest (compared models, figure settings); values
#: are checked on restore (simple JSON values only) and again by each page (``ensure_*``).
VIEW_KEYS = (
    "models", "lb_top", "lb_methods", "lb_method", "lb_method_options",
    "cmp_a", "cmp_b", "cmp_only_diff",
    "traj_metric", "traj_k", "traj_tau", "traj_order", "traj_scheme", "traj_replicates", "traj_seed", "traj_highlight",
    "traj_band_models", "conv_methods", "conv_pass_ks", "conv_k", "conv_tau", "conv_scheme", "conv_replicates",
    "conv_seed", "conv_gold", "conv_models",
    "sens_schemas", "sens_ci", "sens_highlight", "sens_n", "sens_seed", "sens_shift", "sens_target", "sens_weight_range",
    "present_figures", "cluster_column",
    "q_irt", "q_flags", "q_question", "q_rank_without", "q_exclude",
)
_MAX_LIST = 1000


def _simple(value) -> bool:
    if isinstance(value, bool) or isinstance(value, (int, str)):
        return not isinstance(value, str) or len(value) <= 1000
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, (list, tuple)):
        return len(value) <= _MAX_LIST and all(_simple(v) and not isinstance(v, (list, tuple)) for v in value)
    return False


def view_state() -> dict:
    """The page widgets of :data:`VIEW_KEYS` that hold simple values (what an analysis carries besides its manifest).

    A value that is still the default a page applied for its data (:func:`dashboard.state.widgets.follow_default`'s
    ``_default:<key>``) is left out, so the opened analysis applies its own data's default: the Leaderboard's "Show:
    all" applied on a 16-model dataset was carried into the presentation of a 150-model upload shared without
    revisiting the Leaderboard (an 8,000 px page, QA 2026-12-03), where the sharer would have seen the top 50.
    """
    return {k: (list(v) if isinstance(v, tuple) else v) for k in VIEW_KEYS
            if k in st.session_state and _simple(v := st.session_state[k])
            and not (f"_default:{k}" in st.session_state and st.session_state[f"_default:{k}"] == v)}


def _analysis_state(ctx, active) -> dict:
    manifest = json.loads(manifest_to_json(export.build_manifest(ctx, active, export.current_settings(ctx))))
    return analysis_state(manifest, view_state())  # the CLI's ``publish`` stores the same shape


def _dataset_id(ctx, ws) -> str:
    """The workspace id of the active dataset, saving it first when it is bundled or session-only."""
    key = ctx.data.key
    existing = ws_id(key)
    if existing is not None:
        return existing
    if key in BUNDLED:
        files = [(p.name, p.read_bytes()) for p in BUNDLED[key].paths]
        record = ws.save_dataset(BUNDLED_COPY_PREFIX + key, files, ctx.data.raw, owner=None)  # not listed as an upload
    else:
        upload = state.uploads()[key]
        record = ws.save_dataset(upload.name, list(upload.files), ctx.data.raw, owner=owner())
        remember(record.id, record.name)
    return record.id


def share_analysis(ctx, active, page: str) -> str:
    """Save an immutable snapshot of what is on screen; returns its id (128-bit random).

    Raises
    ------
    InputError
        The workspace cannot be opened or is full (the message says which).
    """
    ws = workspace()
    if ws is None:
        raise InputError("sharing needs the workspace, which cannot be opened on this server (README, Workspace).")
    draft = ws.save_analysis(_dataset_id(ctx, ws), _analysis_state(ctx, active), page=page, owner=owner())
    snapshot = ws.share_analysis(draft.id).id
    ws.delete_analysis(draft.id, purge=True)  # only the snapshot is kept, as the CLI's publish does (a row nothing referenced)
    return snapshot


def base_url() -> str:
    """The app's root address as the browser sees it (scheme, host, port; no path or query)."""
    url = getattr(st.context, "url", None) or ""
    if "://" not in url:
        return ""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{rest.split('/', 1)[0].split('?', 1)[0]}/"


def presenting() -> bool:
    """Whether the URL asks for the presentation view (``&view=present``)."""
    return st.query_params.get(VIEW_PARAM) == "present"


def presented_settings(ctx, n_min: int, n_max: int) -> tuple[str, int, float, str]:
    """``(metric, k, tau, tie rule)`` of the presentation view, from the (restored) session, validated."""
    from scorio_core.leaderboard.metrics import METRICS
    from scorio_core.ranking.rank import DEFAULT_TIE_RULE, TIE_RULES

    s = export.current_settings(ctx)
    metric = s.metric if s.metric in METRICS else "bayes"
    k_max = max(n_min, 1) if metric != "max@k" else 10 * max(n_max, 1)
    k = min(max(int(s.k), 1), k_max)
    tau = s.tau if 0.0 <= s.tau <= 1.0 else 0.5
    return metric, k, tau, s.tie_rule if s.tie_rule in TIE_RULES else DEFAULT_TIE_RULE


#: URL paths of the results pages a share link may open (Streamlit derives them from the file names).
RESULTS_PATHS = ("leaderboard", "tasks", "compare", "questions", "trajectories", "convergence", "sensitivity")

#: Figures the sharer may add to the presentation view's fixed story (headline, leaderboard, pairwise heatmap).
PRESENT_FIGURES = ("Rank distribution", "Score vs cost", "IRT ability", "Method agreement")
#: Session key of the sharer's choice (a view key: the snapshot carries it).
PRESENT_FIGURES_KEY = "present_figures"
_CREATED = "_link_created"


def landing_path(page: str) -> str:
    """URL path of the page a share link opens ("" for the Leaderboard, the default page); whitelisted.

    Raises
    ------
    ValueError
        ``page`` is not one of :data:`RESULTS_PATHS`.
    """
    if page not in RESULTS_PATHS:
        raise ValueError(f"page must be one of {', '.join(RESULTS_PATHS)}; got {page!r}.")
    return "" if page == "leaderboard" else page


def presented_figures() -> tuple[str, ...]:
    """The optional figures the sharer ticked for the presentation view (validated, in display order)."""
    chosen = st.session_state.get(PRESENT_FIGURES_KEY) or ()
    return tuple(f for f in PRESENT_FIGURES if f in chosen)


class PresentedSection:
    """A section of the presentation view: a heading over a container, shown in full (no tabs to click).

    Stands in for a tab of the Leaderboard page (``open`` as ``st.tabs`` containers have it);
    ``shown=False`` renders nothing, for the figures the sharer did not tick.
    """

    def __init__(self, title: str, shown: bool = True) -> None:
        self.open = shown
        self._box = st.container()
        if shown and title:
            self._box.header(md(title), divider="gray")

    def __enter__(self):
        return self._box.__enter__()

    def __exit__(self, *exc):
        return self._box.__exit__(*exc)


def presentation_footer(ctx, active, metric_label: str, tie_rule: str, intervals: str | None = None,
                        not_identified: bool = False, none_identified: bool = False) -> str:
    """What a presented analysis is, in one line for its footer: dataset, snapshot date, task, rubric, metric, prior,
    scope, credibility level and tie rule (plain text; escape it for Markdown). ``intervals`` names their kind
    (:func:`scorio_core.report.tables.interval_name`, plural; default "<level> credible intervals");
    ``not_identified``: some model's empirical-Bayes prior could not be fitted (N = 1), so the prior is not said to be
    "fitted" beside exact binomial intervals (:func:`scorio_core.choices.has_fallback_interval`); ``none_identified``:
    no model's was (:func:`scorio_core.choices.not_fitted_for_all`), so the footer says "any model", not "some"."""
    from scorio_core.uncertainty import PRIOR_LABELS, SCOPE_LABELS

    created = str(st.session_state.get(_CREATED) or "")
    when = f"snapshot of {created[:16].replace('T', ' ')} UTC" if created else "live analysis (not a snapshot)"
    prior = PRIOR_LABELS.get(ctx.prior, ctx.prior)
    if none_identified and ctx.prior == "empirical-bayes":
        prior = "empirical-Bayes prior, not identified for any model (too few repeated trials): exact binomial intervals"
    elif not_identified and ctx.prior == "empirical-bayes":
        prior = ("empirical-Bayes prior, not identified for some models (too few repeated trials): exact binomial "
                 "intervals there")
    return (f"{ctx.data.label} · {when} · task {ctx.task} · rubric {active.summary} · {metric_label} · "
            f"prior: {prior} · intervals cover {SCOPE_LABELS.get(ctx.scope, ctx.scope)} · "
            f"{intervals or f'{ctx.confidence:.0%} credible intervals'} · rank ties: {tie_rule}")


def hide_settings() -> None:
    """The presentation view is read-only: no sidebar (settings, navigation), and figures kept whole when printed."""
    st.html("<style>[data-testid='stSidebar'], [data-testid='stSidebarCollapsedControl'], "
            "[data-testid='stExpandSidebarButton'], [data-testid='stSidebarCollapseButton'] {display: none !important;} "
            "@media print { [data-testid='stPlotlyChart'], [data-testid='stDataFrame'], [data-testid='stVerticalBlock'] "
            "> div { break-inside: avoid; page-break-inside: avoid; } "
            "[data-testid='stHeader'], [data-testid='stToolbar'], [data-testid='stDecoration'] {display: none !important;} "
            "[data-testid='stApp'], [data-testid='stAppViewContainer'], [data-testid='stMain'], "
            "[data-testid='stAppScrollToBottomContainer'] {overflow: visible !important; height: auto !important; "
            "position: static !important;} }</style>")


def share_query(analysis_id: str, present: bool = False) -> str:
    """The query string of a share link (append it to the page's address)."""
    return f"?{LINK_PARAM}={analysis_id}" + (f"&{VIEW_PARAM}=present" if present else "")


def open_link() -> None:
    """Apply ``?analysis=<id>`` once per session (called by app.py before any widget exists).

    On later runs the id applied (the link's, or the session's own draft) is put back into the
    address bar when a page switch dropped it, so a reload reopens the same analysis.
    """
    raw = st.query_params.get(LINK_PARAM)
    applied = st.session_state.get(_APPLIED)
    if raw is None and applied is not None:
        # a page switch drops the parameter from the address bar: put it back, so a reload (or the address
        # copied from the browser) reopens this analysis instead of the defaults
        st.query_params[LINK_PARAM] = applied
        return
    if raw is None or applied == raw:
        return
    if raw in st.session_state.get(_SEEN, ()):  # an id this session already had: a stale address, not a new link
        st.query_params[LINK_PARAM] = applied
        return
    st.session_state.setdefault(_SEEN, set()).add(raw)
    st.session_state[_APPLIED] = raw
    st.session_state[_FAILED] = raw  # until the analysis is restored below
    ws = workspace()
    if ws is None:
        st.session_state[_NOTICE] = ("error", "This link cannot be opened: the workspace is not available on this server.")
        return
    try:
        record = ws.get_analysis(validate_id(raw))
        dataset = ws.get_dataset(record.dataset_id)
    except (InputError, TypeError, NotFoundError):
        st.session_state[_NOTICE] = ("error", "The link's analysis does not exist here (deleted, mistyped, or saved on "
                                              "another server). Showing the current data instead.")
        return
    remember(dataset.id, dataset.name)
    ignored = _snapshot_only(record)
    saved = record.state
    manifest = saved.get("manifest", saved)  # a bare manifest is accepted too
    views = saved.get("views") if isinstance(saved.get("views"), dict) else {}
    try:
        plan = export.restore_plan(json.dumps(manifest).encode(), "the shared analysis", dataset_key=f"{WS_PREFIX}{dataset.id}")
    except InputError as exc:
        st.session_state[_NOTICE] = ("error", f"The shared analysis cannot be read: {exc}")
        return
    if not plan.ok:
        st.session_state[_NOTICE] = ("error", "The shared analysis cannot be restored: " + " ".join(plan.problems))
        return
    export.apply_restore(plan)
    st.session_state.pop(_FAILED, None)
    state.queue_restore_more({k: v for k, v in views.items() if k in VIEW_KEYS and _simple(v)})
    st.session_state[_CREATED] = record.created
    kind = "snapshot" if record.immutable else "draft"
    parts = [f"Opened the shared analysis ({kind} of {record.created[:16].replace('T', ' ')} UTC).", *plan.warnings]
    if ignored:
        parts.append(f"Ignored the link's other parameters ({', '.join(ignored[:6])}{', ...' if len(ignored) > 6 else ''})"
                     ": a snapshot opens as it was saved.")
    st.session_state[_NOTICE] = ("info", " ".join(parts))


def _snapshot_only(record) -> list[str]:
    """A snapshot link opens as saved: drop the address's other parameters (``&prior=...`` would otherwise change
    what the 'snapshot' shows), also from the values Streamlit seeds bound widgets with; returns the names dropped.
    A draft keeps them (the session's own edits ride on its address)."""
    if not record.immutable:
        return []
    from dashboard.state.url import _forget_initial

    extra = [key for key in st.query_params.keys() if key not in (LINK_PARAM, VIEW_PARAM)]
    for key in extra:
        del st.query_params[key]
    _forget_initial(extra)
    return [key[:40] for key in extra]


def link_failure() -> str | None:
    """Why the link in the address could not be opened in this session (None when it opened, or without a link).

    The presentation view shows this in place of any analysis (app.py): a stakeholder's link to a deleted or
    mistyped analysis must not show other data as if it were the one shared.
    """
    failed = st.session_state.get(_FAILED)
    notice = st.session_state.get(_NOTICE)
    if failed is None or failed != st.query_params.get(LINK_PARAM, st.session_state.get(_APPLIED)) or not notice:
        return None
    return notice[1].replace(" Showing the current data instead.", "")


def render_link_notice() -> None:
    """Show what happened to the link in the sidebar (kept until the user opens something else)."""
    notice = st.session_state.get(_NOTICE)
    if not notice:
        return
    kind, text = notice
    (st.error if kind == "error" else st.info)(md(text), icon=":material/link:")


def _digest(doc: dict) -> str:
    """What autosave compares: the manifest and the view values that differ from the first ones this session saw.

    A page's controls enter the session with their defaults on its first visit; counted as changes, a visitor who only
    looked at Compare or Questions from a snapshot link wrote a draft and the address bar swapped the snapshot's id
    for an editable draft's (helper QA, 2026-12-02).
    """
    first = st.session_state.setdefault(_FIRST_VIEWS, {})
    views = doc["views"]
    for key, value in views.items():
        first.setdefault(key, json.dumps(value, sort_keys=True, default=str))
    changed = {k: v for k, v in views.items() if json.dumps(v, sort_keys=True, default=str) != first[k]}
    manifest = {k: v for k, v in doc["manifest"].items() if k not in ("created", "versions")}
    stable = {"manifest": manifest, "views": changed}
    return hashlib.sha256(json.dumps(stable, sort_keys=True, default=str).encode()).hexdigest()


def autosave(ctx) -> str | None:
    """Save the analysis as a draft once the user changed something; the URL then carries its id.

    Called by app.py on every run after the sidebar (widget values of this run are in the
    session already). Nothing is written while the analysis is what the session opened with
    (visitors who only look create no rows); after the first change the draft is updated in
    place whenever the analysis changes, and ``?analysis=<draft id>`` in the URL makes a reload
    (or the same URL in another tab) restore data, choices, rubric edits and settings. Returns
    the draft id (None when nothing was saved).
    """
    if ctx is None or presenting():
        return None
    ws = workspace()
    if ws is None:
        return None
    try:
        doc = _analysis_state(ctx, rubric_state.active_rubric(ctx))
    except (InputError, ValueError, KeyError, TypeError):
        return None  # nothing consistent to save in this run (e.g. a rubric being edited)
    digest = _digest(doc)
    baseline = st.session_state.setdefault(_BASELINE, digest)
    draft_id = st.session_state.get(_DRAFT)
    if (digest == baseline and draft_id is None) or digest == st.session_state.get(_SAVED):
        return draft_id
    try:
        dataset_id = _dataset_id(ctx, ws)
        if st.session_state.get(_DRAFT_DATASET) != dataset_id:
            # a draft belongs to one dataset: another dataset continues the session's draft of it, if any (back and
            # forth between two datasets started a new draft each time: 9 drafts of one dataset in one session)
            draft_id = st.session_state.get(_DRAFTS, {}).get(dataset_id)
        try:
            draft = ws.save_analysis(dataset_id, doc, page="autosave", analysis_id=draft_id, owner=owner())
        except NotFoundError:
            if draft_id is None:
                raise
            # the session's draft was deleted meanwhile (workspace delete): a new one, not a session that stops saving
            draft = ws.save_analysis(dataset_id, doc, page="autosave", owner=owner())
    except (InputError, OSError) as exc:  # e.g. a full workspace: the session keeps working, and says so
        st.session_state[_NOTICE] = ("error", f"Changes are not being saved to the workspace: {exc}")
        return draft_id
    st.session_state[_DRAFT] = draft.id
    st.session_state[_DRAFT_DATASET] = dataset_id
    st.session_state.setdefault(_DRAFTS, {})[dataset_id] = draft.id
    st.session_state[_SAVED] = digest
    st.session_state[_APPLIED] = draft.id  # our own id in the URL: never re-applied
    st.session_state.setdefault(_SEEN, set()).add(draft.id)
    st.query_params[LINK_PARAM] = draft.id
    return draft.id
