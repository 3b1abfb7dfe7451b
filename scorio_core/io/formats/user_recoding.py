"""The user's recoding of outcome labels: what they confirm a text label means, applied when loading.

The loaders never guess what a label means (:mod:`scorio_core.io.formats.recoding` refuses text with the recoding
to write). A user who confirms it passes the recoding to :func:`scorio_core.io.load` (``recode=``; CLI
``--recode LABEL=VALUE``, the app's *Recode outcome labels*): :func:`check_recoding`, then :func:`recode_outcomes`
on the raw table's outcome column (or a wide table's trial cells) before validation. A value ``"missing"`` reads a
label as an attempt without an outcome, left to the ``missing_outcomes`` choice: a recoding never fills an outcome.
"""

from __future__ import annotations

from contextlib import contextmanager

__all__ = ["MISSING", "check_recoding", "parse_recoding", "recode_outcomes", "recoding_text", "uncovered_labels",
           "unmatched_recoding"]


def check_recoding(recode) -> dict[str, float | None]:
    """A user's outcome recoding ``{label: value}`` validated, its labels stripped and lower-cased.

    Parameters
    ----------
    recode : mapping of str to float or None, or iterable of (label, value) pairs
        Text labels of the outcome column and the outcome each stands for, in [0, 1] (e.g. ``{"pass": 1,
        "fail": 0}``; Inspect's ``{"C": 1, "I": 0, "P": 0.5, "N": 0}``), or None (or ``"missing"``) for a label that
        marks an attempt without an outcome (an API error, a timeout): it is then read as a missing outcome, which
        the data-quality choice ``missing_outcomes`` resolves, never filled by the recoding itself.

    Returns
    -------
    dict of str to float or None
        Keys compared without case or surrounding spaces, as :func:`recode_outcomes` matches them.

    Raises
    ------
    InputError
        An empty label, a label that is already a number or a true/false word (read as such without recoding), a
        label read as a missing outcome (``NA``, ``null`` ...: ``--missing-outcomes`` decides those), a value
        outside [0, 1], or one label given two values.

    >>> check_recoding({" Pass": 1, "fail": "0", "ERROR": "missing"})
    {'pass': 1.0, 'fail': 0.0, 'error': None}
    """
    from scorio_core.errors import InputError

    out: dict[str, float | None] = {}
    for label, value in (recode.items() if hasattr(recode, "items") else recode):
        key = str(label).strip().lower()
        if value is None or (isinstance(value, str) and value.strip().lower() == MISSING):
            number = None
        else:
            try:
                number = float(value)
            except (TypeError, ValueError):
                number = float("nan")
        if not key:
            raise InputError("an outcome recoding has an empty label; give LABEL=VALUE, e.g. --recode pass=1.", field="recode")
        if _is_number(key) or key in ("true", "false", "t", "f"):
            raise InputError(f"the outcome recoding's label {str(label)!r} is already read as an outcome (a number or "
                             "true/false); recode text labels only, such as pass/fail.", field="recode")
        if key in _MISSING_WORDS:
            raise InputError(f"the outcome recoding's label {str(label)!r} marks a missing outcome; to count missing "
                             "outcomes as incorrect, choose it: --missing-outcomes incorrect (CLI) or the Data page's "
                             "missing-outcomes choice.", field="recode")
        if number is not None and not 0 <= number <= 1:  # NaN fails too
            raise InputError(f"the outcome recoding gives {str(label)!r} the value {value!r}; an outcome is a number "
                             f"from 0 (incorrect) to 1 (correct), or '{MISSING}' (an attempt without an outcome).",
                             field="recode")
        if key in out and out[key] != number:
            raise InputError(f"the outcome recoding gives {str(label)!r} two values ({_shown(out[key])} and "
                             f"{_shown(number)}; labels are compared without case).", field="recode")
        out[key] = number
    return out


#: The value that reads a label as an attempt without an outcome (``--recode error=missing``); what such attempts
#: count as is then the user's data-quality choice (``--missing-outcomes drop|incorrect``), as for empty cells.
MISSING = "missing"


def _shown(value) -> str:
    return MISSING if value is None else f"{value:g}"


#: Outcome text the loaders read as missing (scorio_core.io._canonical), not recodable.
_MISSING_WORDS = frozenset({"nan", "none", "null", "na", "n/a"})


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_recoding(items) -> dict[str, float | None]:
    """``["pass=1", "fail=0"]`` (the CLI's repeated ``--recode LABEL=VALUE``) as a checked recoding.

    Raises
    ------
    InputError
        An item without ``=``, or what :func:`check_recoding` refuses.

    >>> parse_recoding(["pass=1", "fail = 0"])
    {'pass': 1.0, 'fail': 0.0}
    """
    from scorio_core.errors import InputError

    pairs = []
    for item in items or ():
        label, sep, value = str(item).rpartition("=")
        if not sep:
            raise InputError(f"--recode must look like LABEL=VALUE (e.g. --recode pass=1 --recode fail=0); got {item!r}.",
                             field="recode")
        pairs.append((label, value.strip()))
    return check_recoding(pairs)  # pairs, not a dict: a label given twice reaches the check twice


def recoding_text(recode) -> str:
    """The recoding as the provenance shows it: ``"'fail' -> 0, 'pass' -> 1"`` (labels sorted).

    >>> recoding_text({"pass": 1.0, "fail": 0.0})
    "'fail' -> 0, 'pass' -> 1"
    """
    return ", ".join(f"{k!r} -> {_shown(v)}" for k, v in sorted(dict(recode).items()))


def recode_outcomes(frame, columns, recode) -> tuple[object, int]:
    """Replace the outcome labels of ``recode`` in ``columns`` of a raw table by their values.

    Parameters
    ----------
    frame : pandas.DataFrame
        A table as read, before :func:`scorio_core.io._canonical.canonicalize` (not modified).
    columns : list of str
        The outcome column, or a wide table's trial columns.
    recode : dict of str to float or None
        :func:`check_recoding`'s result (lower-case keys; None reads a label as a missing outcome).

    Returns
    -------
    (pandas.DataFrame, int)
        The table with matched labels (compared without case or surrounding spaces) replaced by their values, and
        how many cells were replaced. Other values are left as they are, so a label the recoding misses is still
        refused by the loader, naming it. Numeric columns are returned unchanged.
    """
    import numpy as np
    import pandas as pd

    out, hits = frame, 0
    labels, values = list(recode), np.array(list(recode.values()), dtype=object)  # None: read as missing
    index = {label: i for i, label in enumerate(labels)}
    for col in columns:
        s = frame[col]
        if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
            continue
        codes = s.astype("string").str.strip().str.lower().map(index, na_action="ignore").to_numpy(dtype=float)
        found = ~np.isnan(codes)
        if found.any():
            if out is frame:
                out = frame.copy(deep=False)
            column = s.to_numpy(dtype=object).copy()
            column[found] = values[codes[found].astype(np.int64)]
            out[col] = pd.Series(column, index=s.index, dtype=object)
            hits += int(found.sum())
    return out, hits


def unmatched_recoding(recode, sources):
    """The :class:`~scorio_core.errors.InputError` for a recoding none of whose labels occurs in ``sources``."""
    from scorio_core.errors import InputError

    return InputError(f"no outcome value matched the recoding ({recoding_text(recode)}), compared without case with the "
                      "outcome column of each table (CSV, TSV, Parquet, JSONL); check the spelling, or leave it out.",
                      source=", ".join(list(sources)[:3]), field="recode")


@contextmanager
def uncovered_labels(recode):
    """Re-raise an outcome refusal made under a recoding with what the recoding missed (the value it names)."""
    from scorio_core.errors import InputError

    try:
        yield
    except InputError as exc:
        if not recode or exc.field != "is_correct" or "got '" not in exc.message:
            raise
        err = InputError(exc.message + f" The recoding given ({recoding_text(recode)}) does not cover this value: add "
                         "it (e.g. --recode LABEL=VALUE), or leave the recoding out.", source=exc.source, line=exc.line,
                         row=exc.row, field=exc.field)
        err.labels = getattr(exc, "labels", None)
        raise err from None
