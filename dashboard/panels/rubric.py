"""Rubric-page widgets: schema picker, editable tables, thresholds, JSON in/out, prior R0.

Edits are kept in the session's :class:`dashboard.state.rubric.RubricWorkspace` on every
run, so they survive reruns and page switches; a table that does not build a valid schema
leaves the last valid one in force and the error is shown under the editor.
"""

from __future__ import annotations

import hashlib
import re

import streamlit as st

from dashboard.state import rubric as rubric_state
from dashboard.state import session as state
from dashboard.state.graded import offered_for, use_score_values
from dashboard.tables import display as tables
from dashboard.compute.results import prior_counts, task_outcomes, unmatched_table
from dashboard.tables.rubric_rows import in_order, normalize_order, rows_equal
from dashboard.text import md
from scorio_core import rubric
from scorio_core.errors import InputError
from scorio_core.leaderboard.graded import score_values_spec
from scorio_core.rubric.rerank import UNMATCHED_EXCLUDE

__all__ = [
    "render_picker",
    "render_editors",
    "render_weight_fields",
    "render_error",
    "render_thresholds",
    "render_coverage",
    "render_json",
    "render_prior",
    "render_unmatched",
    "render_signals",
    "CUSTOM",
]

CUSTOM = "Custom (edited or uploaded)"


#: The picker's entry for the rubric of the data's score values (offered where a score gives partial credit).
SCORE_VALUES_OPTION = "Score values (from the data: partial credit, weight = score)"


def _picked(data=None) -> None:
    name = st.session_state.get("rubric_schema")
    if name == SCORE_VALUES_OPTION and data is not None:
        use_score_values(data.dataset)
    elif name and name != CUSTOM:
        rubric_state.use_schema(rubric.get_schema(name))


def render_picker(data=None) -> None:
    """Built-in schema picker; picking one replaces the tables (edits are kept until then).

    ``data`` (:class:`dashboard.data.access.ActiveData`): where its scores give partial credit, the rubric of its
    score values is offered too."""
    ws = rubric_state.workspace()
    builtins = rubric.list_schemas()
    scores = data is not None and data.dataset.attempts is not None and offered_for(data.data_id, data.dataset) is not None
    data_built = scores and score_values_spec(ws.schema) is not None  # (an edited copy has another source)
    edited = not data_built and (ws.base not in builtins or ws.schema != rubric.get_schema(ws.base))
    options = builtins + ([SCORE_VALUES_OPTION] if scores else []) + ([CUSTOM] if edited else [])
    st.session_state["rubric_schema"] = SCORE_VALUES_OPTION if data_built else CUSTOM if edited else ws.base
    st.selectbox("Schema", options, key="rubric_schema", on_change=_picked, args=(data,),
                 help="The paper's 12 rubrics, the reference package's 5, and binary correctness"
                      + (", and the data's score values (partial credit)" if scores else "") + ". "
                      "Picking one replaces the tables below; download your edits first if you want to keep them.")
    if edited and ws.base in builtins:  # the base's description no longer describes the edited rubric
        st.caption(f"Edited from **{md(ws.base)}**: categories, conditions or weights differ from the built-in "
                   "schema (its description no longer applies). Download the JSON to keep these edits.")
    elif ws.schema.description:
        st.caption(md(ws.schema.description))


def _editor(ws, kind: str, config: dict, height="auto"):
    key = f"rubric_{kind}_{ws.version}"
    if key not in st.session_state and not rows_equal(ws.rows[kind], ws.current[kind]):
        ws.rows[kind] = ws.current[kind].copy()  # back on the page: start from the kept edits
    return st.data_editor(ws.rows[kind], key=key, num_rows="dynamic", column_config=config, hide_index=True,
                          width="stretch", height=height, column_order=list(config))


def render_editors(table) -> None:
    """The categories table (always visible) and the variables/thresholds tables (expanders)."""
    ws = rubric_state.workspace()
    current = dict(ws.current)
    current["categories"] = _editor(ws, "categories", tables.category_editor_config())
    st.caption("First matching category wins; reorder with the Order column. Conditions use the rubric "
               "variables and thresholds below and the data's signals (and, or, not, comparisons).")
    with st.expander(f"Variables ({len(ws.current['variables'])})"):
        current["variables"] = _editor(ws, "variables", tables.variable_editor_config())
    with st.expander(f"Threshold definitions ({len(ws.current['thresholds'])})"):
        current["thresholds"] = _editor(ws, "thresholds", tables.threshold_editor_config())
    if not in_order(current["categories"]):
        current["categories"] = normalize_order(current["categories"])
        ws.rows = {k: v.copy() for k, v in current.items()}
        ws.version += 1
        rubric_state.commit_rows(current, table)
        st.rerun()
    rubric_state.commit_rows(current, table)


def render_weight_fields(table) -> None:
    """The categories' weights as labelled number fields in an expander: the same edit as the table's Weight column,
    operable with the keyboard and read by a screen reader (the data editor is a canvas grid; a11y QA). Labels and
    conditions stay in the table or a rubric JSON."""
    ws = rubric_state.workspace()
    rows = ws.current["categories"]
    with st.expander("Edit the weights as form fields (keyboard, screen reader)", icon=":material/keyboard:"):
        st.caption("The same weights as the table's Weight column; labels and conditions are edited in the table or "
                   "by uploading a rubric JSON below.")
        weights = []
        for i, (label, weight) in enumerate(zip(rows["label"], rows["weight"])):
            start = _number(weight)
            if not isinstance(label, str) or not label or start is None:  # a row being typed in the table
                weights.append(weight)
                continue
            weights.append(st.number_input(f"Weight of {md(label)}", value=start, step=0.5, format="%g",
                                           key=f"rubric_weight_{ws.version}_{i}_{start!r}"))  # a table edit: anew
    if any(_number(w) not in (None, _number(old)) for w, old in zip(weights, rows["weight"])):
        current = dict(ws.current)
        current["categories"] = rows.assign(weight=weights)
        ws.rows = {k: v.copy() for k, v in current.items()}
        ws.version += 1  # the table's editor starts from the new rows
        rubric_state.commit_rows(current, table)
        st.rerun()


def _number(value) -> float | None:
    """``value`` as a finite float, None for an empty or non-numeric cell."""
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if f == f and abs(f) != float("inf") else None


def render_error() -> None:
    """The error of the last edit (with a caret under the position), or nothing."""
    err = rubric_state.workspace().error
    if err is None:
        return
    st.error(md(err.message) + "\n\nThe last valid rubric stays in force until this is fixed.", icon=":material/error:")
    if err.expression is not None and err.position is not None:
        st.code(f"{err.expression}\n{' ' * err.position}^", language=None)


def render_weight_range() -> None:
    """Say what negative weights do to the score: it is a weighted mean of the categories, not a rate, and can be < 0."""
    schema = rubric_state.workspace().schema
    negative = [(label, float(w)) for label, w in zip(schema.labels, schema.weights) if float(w) < 0]
    if negative:
        st.warning(f"Negative weights: {md(', '.join(f'{label} (w = {w:g})' for label, w in negative[:5]))}. Bayes@N is then the mean category weight, between "
                   f"{min(map(float, schema.weights)):g} and {max(map(float, schema.weights)):g} (below 0 when penalised "
                   "answers dominate): a score, not a rate of correct answers; read the Leaderboard's headline as such.",
                   icon=":material/warning:")


def render_thresholds(active) -> None:
    """Threshold values on this data, and the freeze toggle."""
    ws = rubric_state.workspace()
    if active.scoped is None or not active.scoped.result.threshold_details:
        st.caption("This rubric has no thresholds.")
        return
    frame, config = tables.threshold_display(active.scoped.result.threshold_details, ws.frozen)
    st.dataframe(frame, column_config=config, hide_index=True, width="stretch")
    frozen = st.toggle(
        "Freeze these values", value=ws.frozen is not None, key="rubric_freeze",
        help="Frozen thresholds stay fixed when the data changes (another task, added models), so attempts are "
             "categorized exactly as now. Unfrozen, percentiles are recomputed over the attempts in scope.",
    )
    if frozen and ws.frozen is None:
        rubric_state.set_frozen(active.thresholds)
        st.rerun()
    elif not frozen and ws.frozen is not None:
        rubric_state.set_frozen(None)
        st.rerun()


def render_coverage(active) -> None:
    """Coverage problems inline: unmatched attempts with examples, empty categories, missing signals."""
    if active.scoped is None:
        return
    coverage = active.scoped.result.coverage
    if coverage.ok and not coverage.warnings:
        st.success(f"All {coverage.n_attempts:,} attempts in scope match a category.", icon=":material/check:")
    # categories no attempt satisfies: one line, not a screen of them (a data-built rubric on one task of several)
    empty = [i for i in coverage.issues if i.kind == "empty_category" and "true for no attempt" in i.message]
    if len(empty) > 2:
        labels = [active.labels[i.category] for i in empty]
        st.warning(f"{len(empty)} categories are empty here (their conditions are true for no attempt in scope): "
                   + md(", ".join(labels[:12]) + (" ..." if len(labels) > 12 else "")) + ".", icon=":material/warning:")
    for issue in coverage.issues:
        if issue.severity == "info" or (len(empty) > 2 and issue in empty):
            continue
        (st.error if issue.severity == "error" else st.warning)(md(issue.message), icon=":material/warning:")
        if issue.examples and issue.kind in ("unmatched", "missing_values"):
            with st.expander(f"Examples ({min(len(issue.examples), 5)} of {issue.count:,})"):
                st.dataframe(tables.examples_display(issue.examples), hide_index=True, width="stretch")
    if coverage.notes:
        with st.expander(f"How derived signals were computed ({len(coverage.notes)})"):
            for note in coverage.notes:
                st.caption(md(note))


def _slug(name: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "-", name).strip("-").lower() or "rubric"


def render_json() -> None:
    """Download the rubric in force as JSON; upload one (replaces the tables)."""
    ws = rubric_state.workspace()
    left, right = st.columns([1, 1.4], vertical_alignment="center")
    left.download_button("Download JSON", rubric.schema_to_json(ws.schema), file_name=f"{_slug(ws.schema.name)}.json",
                         mime="application/json", icon=":material/download:", key="rubric_download", on_click="ignore")
    upload = right.file_uploader("Upload a rubric JSON", type=["json"], key="rubric_upload",
                                 help="A scorio-rubric document (format, version, thresholds, variables, categories).")
    if upload is None:
        return
    data = upload.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    if digest == ws.upload_digest:
        return
    try:
        schema = rubric.schema_from_json(data, source=upload.name)
    except InputError as exc:
        st.error(md(str(exc)), icon=":material/error:")
        st.caption("Nothing changed: the current rubric stays in force.")
        return
    rubric_state.use_schema(schema, base=schema.name)
    rubric_state.workspace().upload_digest = digest
    st.rerun()


def render_prior(ctx, active) -> None:
    """Optional prior R0: another dataset's or another model's attempts, through the same rubric."""
    ws = rubric_state.workspace()
    kinds = {"none": "None (uniform Dirichlet prior)", "dataset": "Another dataset", "model": "Another model's attempts"}
    current = ws.prior.get("kind", "none")
    kind = st.radio("Prior outcomes R0", list(kinds), format_func=kinds.get, index=list(kinds).index(current),
                    horizontal=True, key="rubric_prior_kind",
                    help="R0 adds prior trials per question to the prior of Bayes@N, as if every model had already "
                         "answered them. They are "
                         "mapped through this rubric with the thresholds shown above (frozen), and apply to every model.")
    key = None
    if kind == "dataset":
        options = [k for k in state.dataset_options() if k != ctx.data.key]
        if not options:
            st.caption("Upload a second dataset on the Data page to use it as a prior.")
        else:
            default = ws.prior.get("key") if ws.prior.get("key") in options else options[0]
            key = st.selectbox("Prior dataset", options, index=options.index(default), format_func=state.dataset_label,
                               key="rubric_prior_dataset")
    elif kind == "model":
        models = list(ctx.data.dataset.report.models)
        default = ws.prior.get("key") if ws.prior.get("key") in models else models[0]
        key = st.selectbox("Prior model", models, index=models.index(default), key="rubric_prior_model")
    if (kind, key) != (current, ws.prior.get("key")):
        rubric_state.set_prior(kind, key)
        st.rerun()
    if active.prior_error:
        st.warning(md(active.prior_error), icon=":material/warning:")
    elif active.prior is not None:
        _, matched = prior_counts(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization,
                                  active.prior_id, active.prior)
        n_questions = len(task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id,
                                        active.categorization).rubric.questions)
        if matched == 0:
            st.warning("The prior shares no question id with this task, so it changes nothing.", icon=":material/warning:")
        st.caption(f"In force: {md(active.prior_label)}; {matched} of {n_questions} questions matched by id. "
                   "Applies to Bayes@N and Max@k on every page.")


def _unmatched_changed() -> None:
    rubric_state.set_unmatched(st.session_state.get("rubric_unmatched", "exclude"))


def render_unmatched(ctx, active, *, choose: bool = True) -> None:
    """How many attempts matched no rubric category (per model) and what they count as.

    Shown on every page that uses the rubric; ``choose`` adds the choice (excluded, with M
    and N shown, or counted as one category), which applies to every page at once.
    """
    total = active.n_unmatched
    if total == 0 or ctx.data.dataset.attempts is None:
        return
    table = unmatched_table(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.scoped)
    hit = table[table["unmatched"] > 0]
    n_all = int(table["attempts"].sum())
    names = ctx.labels(table["model"])
    per_model = ", ".join(f"{md(names[m])} {int(u):,}/{int(a):,}" for m, u, a in
                          zip(hit["model"][:8], hit["unmatched"][:8], hit["attempts"][:8]))
    more = f" and {len(hit) - 8} more models" if len(hit) > 8 else ""
    if active.unmatched == UNMATCHED_EXCLUDE:
        fate = ("are **excluded**: M (questions) and N (trials) per model count categorised attempts only, and a "
                "question whose attempts all fell outside every category drops out of that model's score. Pass@k-family "
                "metrics use binary correctness of every attempt, so they do not see this exclusion")
    else:
        fate = (f"**count as '{md(active.unmatched)}'** (weight {active.weights[active.labels.index(active.unmatched)]:g}) "
                "for Bayes@N, avg@N and Max@k")
    with st.container(border=True):
        st.warning(f"**{total:,} of {n_all:,} attempts matched no rubric category** and {fate}. "
                   f"Per model (no category / attempts): {per_model}{more}.", icon=":material/help_center:")
        if choose:
            options = [UNMATCHED_EXCLUDE, *active.labels]
            st.session_state["rubric_unmatched"] = active.unmatched
            st.selectbox("Attempts in no category count as", options, key="rubric_unmatched",
                         on_change=_unmatched_changed,
                         format_func=lambda o: "Excluded (M and N shown per model)" if o == UNMATCHED_EXCLUDE else f"Category: {o}",
                         help="The rubric's conditions do not cover these attempts. Excluding them changes M and N per "
                              "model; counting them as a category keeps every attempt. The choice applies on every page "
                              "and is saved with the analysis.")


def render_signals(ctx, *, expanded: bool = False) -> None:
    """The data's rubric signals (:func:`dashboard.state.rubric.available_signals`) in an expander."""
    signals = rubric_state.available_signals(ctx.data.data_id, ctx.data.dataset, ctx.task)
    numbers = int((signals["kind"] == "number").sum())
    with st.expander(f"Signals of this data ({len(signals)}: {numbers:d} numeric or boolean)", expanded=expanded):
        st.caption("Every column of the attempts except model, task, question and trial, plus derived signals. Numbers "
                   "compare with <, >=, ...; text with == and a quoted string. *Used by* names the built-in schemata "
                   "that read the signal.")
        st.dataframe(signals, hide_index=True, width="stretch",
                     column_config={"signal": st.column_config.TextColumn("Signal"),
                                    "kind": st.column_config.TextColumn("Kind", width="small"),
                                    "missing": st.column_config.NumberColumn("Missing", format="%d", width="small"),
                                    "used_by": st.column_config.TextColumn("Used by built-in schemata"),
                                    "description": st.column_config.TextColumn("Description")})
