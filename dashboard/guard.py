"""Bad input in a page becomes one clear ``st.error``, never a traceback; data not ready says what to choose."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st

from dashboard.text import md
from scorio_core.errors import InputError
from scorio_core.io import Dataset, blocking_finding

__all__ = ["OUT_OF_MEMORY", "blocking_notice", "blocking_in_app_terms", "graded_block", "partial_credit_offer",
           "user_errors"]

#: Where the app's user makes a data-quality choice (the core's messages name the Python API and the CLI flag).
CHOICE_IN_APP = "choose how to treat them under 'Your choices' in the Data page's Data quality tab"

#: The other way for graded scores (:func:`partial_credit_offer`'s button, shown below the notice).
GRADED_IN_APP = " (a threshold), or keep their partial credit: *Give partial credit instead*"

#: The error shown where a computation runs out of memory (plain text, no user data).
OUT_OF_MEMORY = (
    "this server does not have the memory it needs for this data. Select fewer models, analyse one task "
    "at a time (not all tasks pooled), or load a smaller part of the data (split the files by task). The "
    "server's administrator can lower SCORIO_MAX_DENSE_CELLS so that such data is refused when it loads "
    "(README, Limits)."
)


def blocking_in_app_terms(issues) -> list[str]:
    """The data-quality report's blocking issues with the app's way to resolve them.

    The core's messages (:func:`scorio_core.io.blocking_messages`) end with "; choose ... apply_choices(...) or
    --flag" for scripts; in the app the choice is a widget on the Data page. Each issue keeps its finding
    (counts and keys) and gets :data:`CHOICE_IN_APP` instead of the API advice. Plain text: escape it for Markdown.
    """
    return [blocking_finding(issue) + "; " + CHOICE_IN_APP + (GRADED_IN_APP if "non-binary outcome" in issue else "")
            + "." for issue in issues]


@contextmanager
def user_errors(what: str, *, stop: bool = True):
    """Show ``InputError``/``ValueError`` raised inside the block as an error and stop the page.

    ``what`` names the view ("the leaderboard"); the message says why and what to change. With ``stop=False``
    the page goes on after the error (the rest of the block is skipped), so controls below it that can fix
    the problem still render. A ``MemoryError`` (numpy's "Unable to allocate ..." included) becomes the same
    kind of message, :data:`OUT_OF_MEMORY`, never a traceback with the server's paths; the app keeps running.
    """
    try:
        yield
    except (InputError, ValueError) as exc:
        st.error(f"Could not compute {what}: {md(exc)}", icon=":material/error:")
        if stop:
            st.stop()
    except MemoryError:
        st.error(f"Could not compute {what}: {OUT_OF_MEMORY}", icon=":material/error:")
        if stop:
            st.stop()


def blocking_notice(dataset: Dataset) -> bool:
    """Show why results cannot be computed yet; returns True if the page should stop."""
    if dataset.ready:
        return False
    st.warning(
        "This dataset needs a data-quality choice before results can be computed: "
        + " ".join(md(issue) for issue in blocking_in_app_terms(dataset.report.blocking)),
        icon=":material/rule:",
    )
    partial_credit_offer(dataset, "guard_partial_credit")
    st.page_link("pages/data/data.py", label="Open the Data page to choose", icon=":material/table_view:")
    return True


def graded_block(dataset: Dataset) -> bool:
    """True when graded scores (no 0/1 outcome) are among what blocks the data."""
    return dataset.attempts is not None and any("non-binary outcome" in b for b in dataset.report.blocking)


def _give_partial_credit(dataset: Dataset) -> None:
    from dashboard.state.graded import use_score_values

    use_score_values(dataset)


def partial_credit_offer(dataset: Dataset, key: str) -> None:
    """Where graded scores block the data: a button keeping their partial credit (rubric 'Score values').

    The other route, a threshold, is on the Data page. A score with more than 12 values is offered rounded to 0.1
    (the caption says by how much that moves the mean scores, measured); one that cannot be offered says why.
    """
    if not graded_block(dataset):
        return
    from dashboard.state.graded import offered_for
    from scorio_core.leaderboard.graded import offered_score_values, score_value_schema

    ctx = st.session_state.get("_page_context")  # (the sidebar's, this run): its data id keys the cached offer
    data_id = getattr(getattr(ctx, "data", None), "data_id", None)
    schema = offered_for(data_id, dataset) if data_id is not None else offered_score_values(dataset.attempts)
    if schema is None:
        try:
            score_value_schema(dataset.attempts)
        except InputError as exc:
            st.caption(f"Partial credit by score value is not offered here: {md(exc)}")
        return
    st.button("Give partial credit instead (rubric: Score values)", key=key, icon=":material/percent:",
              on_click=_give_partial_credit, args=(dataset,),
              help="Keep the graded scores: one rubric category per score value found in the data (rounded to 0.1 "
                   "where there are more than 12), each weighted by its value, so every attempt earns its score and "
                   "nothing is binarized (the CLI's `--schema score-values`). Bayes@N and avg@N use it; the Pass@k "
                   "family needs 0/1 outcomes and is not shown. Edit or replace it on the Rubric page.")
    st.caption(f"{md(schema.name)}: {md(schema.description)}")
