"""Rendering of the data-quality report and the user's data-quality choices (Data page)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.state import rubric as rubric_state
from dashboard.state import session as state
from dashboard.state.widgets import LOADER_NOTES_SHOWN
from dashboard.guard import blocking_in_app_terms
from dashboard.text import md
from scorio_core import rubric
from scorio_core.io import DUPLICATE_POLICIES, Dataset
from scorio_core.leaderboard.graded import score_values_spec

__all__ = ["render_summary", "render_report", "render_choices", "render_sources"]


def render_summary(dataset: Dataset) -> None:
    """Headline numbers of a dataset as metrics."""
    report = dataset.report
    cols = st.columns(5)
    cols[0].metric("Models", report.n_models, border=True)
    cols[1].metric("Tasks", report.n_tasks, border=True)
    cols[2].metric("Questions", report.n_questions, border=True)
    cols[3].metric("Rows", f"{report.n_rows:,}", border=True)
    # one short word: "attempts" was cut to "atte..." in a fifth of the page at 1280 px
    cols[4].metric("Layout", "trials" if dataset.attempts is not None else "counts", border=True,
                   help="trials: one row per attempt (trial order known); counts: correct trials out of N per question.")


def _saturated(right: int, wrong: int) -> str:
    """The questions no model separates, without a zero part ("1 question every model always gets wrong").

    >>> _saturated(0, 1), _saturated(2, 0), _saturated(3, 1)
    ('1 question every model always gets wrong (it does not separate models)', \
'2 questions every model always gets right (they do not separate models)', \
'3 questions every model always gets right and 1 always wrong (they do not separate models)')
    """
    why = f"({'they do' if right + wrong != 1 else 'it does'} not separate models)"
    if right and wrong:
        return f"{right:,} question{'s' if right != 1 else ''} every model always gets right and {wrong:,} always wrong {why}"
    count, how = (right, "right") if right else (wrong, "wrong")
    return f"{count:,} question{'s' if count != 1 else ''} every model always gets {how} {why}"


def render_report(dataset: Dataset) -> None:
    """Every finding of the quality report, blocking issues first. Text only, never HTML."""
    report = dataset.report
    for issue in blocking_in_app_terms(report.blocking):
        st.error(md(issue), icon=":material/block:")
    findings = []
    if getattr(report, "n_absent", 0):  # a model with rows on other tasks and none on this one: not ranked there
        absent = int(report.n_absent)
        shown = ", ".join(f"{m} on {t}" for m, t in report.absent[:3])
        findings.append(f"{absent:,} model/task pair{'s have' if absent != 1 else ' has'} no rows at all (e.g. {shown}): "
                        "those models are not ranked on those tasks")
    if report.question_gaps:
        gaps = len(report.question_gaps)
        findings.append(f"{gaps:,} model/task pair{'s miss' if gaps != 1 else ' misses'} questions other models answered")
    if report.missing_cells:
        cells = int(report.missing_cells)
        findings.append(f"{cells:,} (model, question) cell{'s have' if cells != 1 else ' has'} no attempts")
    if report.unequal_trials:
        pairs = len(report.unequal_trials)
        findings.append(f"{pairs:,} model/task pair{'s have' if pairs != 1 else ' has'} unequal trials per question")
    if report.n_all_correct or report.n_all_wrong:
        findings.append(_saturated(int(report.n_all_correct), int(report.n_all_wrong)))
    if report.n_non_binary:
        odd = int(report.n_non_binary)
        findings.append(f"{odd:,} outcome{'s are' if odd != 1 else ' is'} not 0/1")
    for text in findings:
        st.warning(md(text), icon=":material/warning:")
    lines = list(report.defaults) + list(report.notes)
    for note in lines[:2 * LOADER_NOTES_SHOWN]:
        st.info(md(note), icon=":material/info:")
    if len(lines) > 2 * LOADER_NOTES_SHOWN:  # a folder of hundreds of files, a line or two each
        with st.expander(f"{len(lines) - 2 * LOADER_NOTES_SHOWN} more lines from loading the files", icon=":material/info:"):
            for note in lines[2 * LOADER_NOTES_SHOWN:]:
                st.markdown(md(note))
    for choice in report.choices:
        st.success(f"Applied: {md(choice)}", icon=":material/check:")
    if not (report.blocking or findings or report.defaults or report.notes):
        st.success("No data-quality problems found.", icon=":material/check:")
    if report.question_gaps:
        with st.expander("Models with missing questions"):
            st.dataframe(pd.DataFrame([g._asdict() if hasattr(g, "_asdict") else g for g in report.question_gaps]), hide_index=True)
    if report.unequal_trials:
        with st.expander("Unequal trials per question"):
            st.dataframe(pd.DataFrame([t._asdict() if hasattr(t, "_asdict") else t for t in report.unequal_trials]), hide_index=True)


def render_choices(key: str, raw: Dataset) -> None:
    """Widgets for the explicit data-quality choices; applying them reruns the app."""
    report = raw.report
    current = state.choices_for(key)
    counts = raw.attempts is None  # correct trials out of N per question: no attempt rows to choose about
    has_score = not counts and "score" in raw.attempts.columns
    # why each choice is greyed out (a choice already applied stays open, so it can be undone)
    why = {
        "intersect": None if report.question_gaps or current.get("intersect_questions") else
        "every model answered every question of its task",
        "duplicates": None if report.n_duplicate_keys or current.get("duplicates") else
        ("a count table has no (model, question, trial) rows" if counts else "no duplicate rows found"),
        "binarize": None if has_score else
        ("a count table holds correct counts, not per-attempt scores" if counts else "the data has no score column"),
        "missing": None if report.n_missing_outcomes or current.get("missing_outcomes") else
        ("a count table has no attempt rows" if counts else "every attempt has an outcome"),
    }
    applicable = any(reason is None for reason in why.values())
    with st.form(f"choices_{key}", border=True):
        st.markdown("**Your choices** (recorded in exports; nothing is dropped or filled without one)")
        if not applicable:
            st.caption(("Not applicable to count tables (correct trials out of N per question, no attempt rows)"
                        if counts else "None of these choices applies to this data")
                       + ": " + md("; ".join(why.values())) + ".")

        def help_for(name: str) -> str | None:
            return None if why[name] is None else f"Not applicable: {why[name]}."

        intersect = st.checkbox(
            "Keep only questions every model answered (per task)",
            value=bool(current.get("intersect_questions", False)),
            disabled=why["intersect"] is not None, help=help_for("intersect"),
        )
        dup_options = ["(no choice)"] + [p for p in DUPLICATE_POLICIES if p != ("as-trials" if counts else "sum")]
        dup_default = current.get("duplicates") or "(no choice)"
        duplicates = st.selectbox(
            "Duplicate (model, question, trial) rows",
            dup_options,
            index=dup_options.index(dup_default) if dup_default in dup_options else 0,
            disabled=why["duplicates"] is not None,
            help=help_for("duplicates") or (
                "keep-first / keep-last: one row of each repeated key counts; drop: none of them; "
                + ("sum: the repeated rows' trials and correct counts are added." if counts else
                   "as-trials: every row is an attempt of its own (files that are separate runs of the same questions, "
                   "each numbering its trials from the start); the trials of each question are renumbered in load order.")),
        )
        threshold = st.number_input(
            "Binarize the soft score: correct when score > threshold (AISBench uses 0.5)",
            min_value=0.0,
            max_value=1.0,
            value=float(current.get("binarize_threshold", 0.5)),
            step=0.05,
            disabled=not has_score,
            help=help_for("binarize") or (
                "Graded scores (e.g. 0, 0.5, 1) can also keep their partial credit: the CLI ranks them with a rubric "
                "whose categories read the score, without a threshold (`python -m scorio_core leaderboard FILE "
                "--schema RUBRIC.json`; `python -m scorio_core rubric FILE --schema RUBRIC.json` checks it covers "
                "every attempt). Here: the button *Give partial credit instead* below the choices."),
        )
        binarize = st.checkbox("Apply the threshold", value="binarize_threshold" in current, disabled=not has_score)
        missing = st.selectbox(
            "Attempts without an outcome",
            ["(no choice)", "drop", "incorrect"],
            index=["(no choice)", "drop", "incorrect"].index(current.get("missing_outcomes") or "(no choice)"),
            disabled=why["missing"] is not None, help=help_for("missing"),
        )
        if st.form_submit_button("Apply choices", type="primary", disabled=not applicable,
                                 help=None if applicable else "No choice applies to this data."):
            state.set_choices(
                key,
                {
                    "intersect_questions": intersect,
                    "duplicates": None if duplicates == "(no choice)" else duplicates,
                    "binarize_threshold": threshold if binarize else None,
                    "missing_outcomes": None if missing == "(no choice)" else missing,
                },
            )
            if binarize and score_values_spec(rubric_state.workspace().schema):  # the threshold decides now
                rubric_state.use_schema(rubric.get_schema(rubric.DEFAULT_SCHEMA))
            st.rerun()


def render_sources(dataset: Dataset) -> None:
    """Where the data came from (file, format, SHA-256, rows, column mapping) and a preview."""
    sources = pd.DataFrame([s.to_dict() for s in dataset.sources])
    if "mapping" in sources:
        sources["mapping"] = sources["mapping"].map(lambda m: ", ".join(f"{k} <- {v}" for k, v in m.items()))
    st.dataframe(sources, hide_index=True, width="stretch",
                 column_config={"sha256": st.column_config.TextColumn("SHA-256", help="Recorded in the analysis manifest.")})
    st.caption("Preview: the first 200 rows of the canonical table.")
    st.dataframe(dataset.table.head(200), hide_index=True, width="stretch", height=320)
