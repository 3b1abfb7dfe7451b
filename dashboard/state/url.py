"""URL query parameters: validated before any widget reads them (issue 17).

A shared link may carry anything. Every parameter is bounded in length, numeric widget
parameters must be finite and in range; an invalid one is dropped from the URL and the user
is told which and why (nothing from the URL ever reaches a file path or SQL string).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["MAX_PARAM_CHARS", "VALIDATED_WHERE_USED", "MAX_PARAM_VALUES", "MAX_KEY_CHARS", "NUMERIC_PARAMS", "invalid_params", "sanitize_query_params",
           "relabel_param", "read_choice_param"]

#: Longest accepted value of one query parameter (dataset names, model names, choices).
MAX_PARAM_CHARS = 256
#: Most values of one repeated parameter (``?models=a&models=b``).
MAX_PARAM_VALUES = 1000
#: Longest accepted parameter name.
MAX_KEY_CHARS = 64
#: Parameters validated where they are used, so an invalid value is reported there (not dropped silently here).
VALIDATED_WHERE_USED = ("analysis",)
#: Numeric widget parameters: (low, high, integer).
NUMERIC_PARAMS = {"lb_tau": (0.0, 1.0, False), "lb_k": (1, 1_000_000, True)}


def invalid_params(params: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Parameters to drop and why, from ``{name: [values...]}``.

    >>> invalid_params({"lb_tau": ["NaN"], "lb_k": ["2"], "dataset": ["x" * 300], "task": ["t"]})
    {'lb_tau': 'not a finite number', 'dataset': 'longer than 256 characters'}
    """
    bad: dict[str, str] = {}
    for key, values in params.items():
        if len(key) > MAX_KEY_CHARS:
            bad[key[:MAX_KEY_CHARS] + "..."] = f"name longer than {MAX_KEY_CHARS} characters"
            continue
        if len(values) > MAX_PARAM_VALUES:
            bad[key] = f"more than {MAX_PARAM_VALUES} values"
            continue
        if any(len(v) > MAX_PARAM_CHARS for v in values):
            bad[key] = f"longer than {MAX_PARAM_CHARS} characters"
            continue
        if key in NUMERIC_PARAMS and values:
            low, high, integer = NUMERIC_PARAMS[key]
            try:
                number = float(values[-1])
            except ValueError:
                bad[key] = "not a number"
                continue
            if not math.isfinite(number):
                bad[key] = "not a finite number"
            elif not low <= number <= high:
                bad[key] = f"outside [{low:g}, {high:g}]"
            elif integer and number != int(number):
                bad[key] = "not a whole number"
    return bad


def sanitize_query_params() -> dict[str, str]:
    """Drop invalid parameters from ``st.query_params``; returns ``{name: reason}`` of those dropped."""
    import streamlit as st

    params = {key: st.query_params.get_all(key) for key in st.query_params.keys()}
    # the link's analysis id is checked where it is opened (store validate_id: 22 id characters, nothing else reaches
    # the catalog); dropped here, a mangled presentation link showed the current data as if shared (helper QA)
    bad = {key: reason for key, reason in invalid_params(params).items() if key not in VALIDATED_WHERE_USED}
    dropped = [key for key in params if key in bad or len(key) > MAX_KEY_CHARS]
    for key in dropped:
        del st.query_params[key]
    _forget_initial(dropped)
    return bad


def relabel_param(key: str, value: str) -> None:
    """Replace URL parameter ``key`` with ``value``, also in the copy a bound widget's first value comes from.

    For a link that spells a choice as the CLI does (``?lb_method=bradley_terry``) where the bound box reads its
    label; the same internal copy as :func:`_forget_initial` (without it, only ``st.query_params`` changes).
    """
    import streamlit as st

    st.query_params[key] = value
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        with get_session_state().query_params() as qp:
            if key in qp._initial_query_params:
                qp._initial_query_params[key] = value
    except (AttributeError, RuntimeError, KeyError):  # pragma: no cover - another Streamlit version, or no session
        pass


def _forget_initial(keys) -> None:
    """Drop ``keys`` from the URL values Streamlit seeds bound widgets with on a page's first run.

    Deleting a parameter from ``st.query_params`` leaves the copy Streamlit took of the URL, from which a widget with
    ``bind="query-params"`` takes its first value (``lb_k=1e309`` reached ``number_input`` as infinity and raised).
    Streamlit has no public call for this; without the internal one the widget's own checks are all that remain.
    """
    if not keys:
        return
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        with get_session_state().query_params() as qp:
            for key in keys:
                qp._initial_query_params.pop(key, None)
    except (AttributeError, RuntimeError, KeyError):  # pragma: no cover - another Streamlit version, or no session
        pass


def read_choice_param(key: str, labels: Mapping[str, str], what: str) -> str | None:
    """Accept a bound select box's URL parameter spelled as the CLI spells it; drop one it cannot read.

    A bound box reads its shown label from the URL (``?lb_metric=avg%40N``); a link written by hand or by a script
    names the choice as the CLI does (``?lb_metric=avg``), which the box would ignore without a word.

    Parameters
    ----------
    key : str
        The widget's key and URL parameter.
    labels : mapping of str to str
        Choice (as the CLI spells it) to the label the box shows.
    what : str
        The choice in words, for the message (e.g. "metric").

    Returns
    -------
    str or None
        A sentence for the reader when the parameter named no choice (it is then dropped), else None.
    """
    import streamlit as st

    raw = st.query_params.get(key)
    if raw is None or raw in labels.values():
        return None
    if raw in labels:
        relabel_param(key, labels[raw])
        return None
    del st.query_params[key]
    _forget_initial([key])
    shown = ", ".join(list(labels)[:12])
    return f"The link names the {what} {raw[:80]!r}, which is not offered here (one of: {shown}); the default is shown."
