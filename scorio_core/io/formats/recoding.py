"""Values a table holds that need recoding before they can be read, and what the loaders say about each.

The loaders refuse these rather than guess, with the recoding to write (a pandas line):

* Inspect AI's score letters: its scorers write ``C`` (correct), ``I`` (incorrect), ``P`` (partial) and ``N`` (no
  answer), which its ``value_to_float`` reads as 1, 0, 0.5 and 0. The Inspect reader applies that reading to logs
  (:mod:`scorio_core.io.formats.inspect_ai`); a CSV exported from Inspect's sample tables keeps the letters
  (:func:`letter_scores_hint`).
* Success/failure words such as pass/fail (:func:`binary_labels_hint`).
* Scores on a 0-100 scale (:func:`percent_scores_hint`).
* Trials labelled by text, such as run names (:func:`trial_labels_hint`).

A user who confirms what the labels mean passes that recoding to :func:`scorio_core.io.load` (``recode=``; CLI
``--recode LABEL=VALUE``, the app's *Recode outcome labels*): :func:`check_recoding`, then :func:`recode_outcomes`.
"""

from __future__ import annotations

from contextlib import contextmanager

__all__ = ["INSPECT_LETTERS", "BINARY_LABELS", "letter_scores_hint", "binary_labels_hint", "text_scores_hint",
           "percent_scores_hint", "trial_labels_hint", "check_recoding", "parse_recoding", "recode_outcomes",
           "recoding_text", "uncovered_labels", "unmatched_recoding", "outcome_labels", "mixed_labels_hint", "MISSING",
           "RECODE_HINT"]

#: The recoding this tool applies on the user's word, offered beside the pandas line for text labels of no known meaning.
RECODE_HINT = (" Or, for 0/1 (or partial) outcomes, have them read when loading: --recode LABEL=VALUE for each label (CLI), "
               "or Recode outcome labels under the app's Load button.")
#: Inspect AI's score letters and the value its ``value_to_float`` gives each.
INSPECT_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
#: Words an outcome column may hold for a success (1) and a failure (0), compared without case or spaces.
BINARY_LABELS = {**dict.fromkeys(("pass", "passed", "correct", "right", "yes", "success", "solved"), 1),
                 **dict.fromkeys(("fail", "failed", "incorrect", "wrong", "no", "failure", "unsolved"), 0)}


def letter_scores_hint(values, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column of Inspect AI's score letters, or "" when it holds anything else.

    A CSV exported from Inspect's sample tables keeps the scorer's letters (``C`` correct, ``I`` incorrect, ``P``
    partial, ``N`` no answer), which are not 0/1; the hint gives the recoding Inspect itself applies
    (:func:`scorio_core.io.formats.inspect_ai.value_to_float`), or loading the log, which this package reads with that recoding.

    Parameters
    ----------
    values : iterable
        The column's values (or the one that failed); None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns (one column per trial).

    Returns
    -------
    str
        A sentence starting with a space when every value is one of C, I, P, N and at least one is C or I; else "".

    >>> letter_scores_hint(["C", "I", "I"], "score")[:66]
    " These look like Inspect AI's scores (C correct, I incorrect, P pa"
    >>> letter_scores_hint(["correct", "I"])
    ''
    """
    texts = {str(v).strip() for v in values if v is not None and v == v}
    if not texts or not texts <= INSPECT_LETTERS.keys() or not texts & {"C", "I"}:
        return ""
    recode = "{" + ", ".join(f"'{k}': {v:g}" for k, v in INSPECT_LETTERS.items()) + "}"
    example = (f"the column the same way, e.g. with pandas: df['is_correct'] = df['{column}'].map({recode})" if column is not None
               else f"the trial columns the same way, e.g. with pandas: df[trial_columns] = df[trial_columns].replace({recode})")
    return (" These look like Inspect AI's scores (C correct, I incorrect, P partial, N no answer), which Inspect reads as "
            f"1, 0, 0.5 and 0: recode {example}, or load the Inspect log itself (.eval or .json), which is read that way"
            f"{_recode_option(INSPECT_LETTERS)}.")


def binary_labels_hint(values, column: str | None = "COLUMN") -> str:
    """The 0/1 recoding of an outcome column of two words such as pass/fail, or "" when it holds anything else.

    Parameters
    ----------
    values : iterable
        The column's distinct values; None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when every value is one of :data:`BINARY_LABELS` (any case) and both a
        success and a failure word occur; the map lists every spelling found. The loaders still refuse the
        column: which word means success is the user's to confirm.

    >>> pandas, ours = binary_labels_hint(["pass", "fail", "Pass"], "result").split("pandas: ")[1].split("; or ")
    >>> pandas, ours[:56]
    ("df['is_correct'] = df['result'].map({'fail': 0, 'Pass': 1, 'pass': 1})", 'have them read so when loading: --recode fail=0 --recode')
    >>> binary_labels_hint(["pass", "partial", "fail"]), binary_labels_hint(["yes", "right"])
    ('', '')
    """
    texts = sorted({str(v) for v in values if v is not None and v == v}, key=lambda t: (t.strip().lower(), t))
    read = [BINARY_LABELS.get(t.strip().lower()) for t in texts]
    if not texts or None in read or len(set(read)) < 2:
        return ""
    recode = "{" + ", ".join(f"{t!r}: {v}" for v, t in sorted(zip(read, texts), key=lambda p: p[0])) + "}"
    line = (f"df['is_correct'] = df['{column}'].map({recode})" if column is not None
            else f"df[trial_columns] = df[trial_columns].replace({recode})")
    return (f" These read as success/failure labels: recode them to 0/1, e.g. with pandas: {line}"
            f"{_recode_option(dict(zip((t.strip() for t in texts), read)))}.")


def _flag(label: str, value: str) -> str:
    """``--recode label=value`` as a shell word (quoted when the label has spaces or quotes)."""
    import shlex

    return f"--recode {shlex.quote(f'{label.strip().lower()}={value}')}"


def _recode_option(labels: dict) -> str:
    """The same recoding as this tool's option: ``--recode pass=1 ...`` (CLI) and the app's upload form."""
    given = {str(k).strip().lower(): v for k, v in labels.items()}
    flags = " ".join(_flag(k, f"{v:g}") for k, v in given.items())
    return f"; or have them read so when loading: {flags} (CLI), or Recode outcome labels under the app's Load button"


def mixed_labels_hint(texts) -> str:
    """What to do with a few words among an outcome column's numbers (``ERROR``, ``timeout`` ...).

    Such words usually mark attempts that produced no outcome; whether they count as failures or as missing
    outcomes is the user's choice, so the hint gives both recodings.

    >>> print(mixed_labels_hint(["ERROR", "timeout"]).split(": if")[0])
     The column also holds text among its numbers ('ERROR', 'timeout')
    >>> print(mixed_labels_hint(["yes"]).split(" (CLI)")[0])
     The column also holds success/failure words among its numbers ('yes'); or have them read so when loading: --recode yes=1
    """
    found = sorted({str(t).strip() for t in texts if str(t).strip()}, key=str.lower)
    shown = ", ".join(repr(t) for t in found[:5]) + (f" and {len(found) - 5:,} more" if len(found) > 5 else "")
    usual = [BINARY_LABELS.get(t.lower()) for t in found]
    if found and None not in usual:  # yes/no, pass/fail among 0/1: their usual reading, still the user's to confirm
        return f" The column also holds success/failure words among its numbers ({shown}){_recode_option(dict(zip(found, usual)))}."
    missing = " ".join(_flag(t, MISSING) for t in found[:5])
    return (f" The column also holds text among its numbers ({shown}): if these are attempts without an outcome (an "
            f"API error, a timeout), read them as missing and choose what missing outcomes count as: {missing} with "
            "--missing-outcomes drop (or incorrect); if they are failures, recode them to 0 (CLI: --recode LABEL=0; "
            "the app: Recode outcome labels under the Load button).")


def text_scores_hint(values, column: str | None = "COLUMN") -> str:
    """:func:`letter_scores_hint`, else :func:`binary_labels_hint` (same arguments): "" for other text.

    >>> text_scores_hint(["C", "I"]) == letter_scores_hint(["C", "I"])
    True
    """
    return letter_scores_hint(values, column) or binary_labels_hint(values, column)


def percent_scores_hint(low: float, high: float, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column whose scores look like percentages, or "" when they do not.

    Parameters
    ----------
    low, high : float
        The smallest and largest value of the column (NaN when it has none).
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when ``0 <= low`` and ``1 < high <= 100``; else "". The loaders never
        rescale by themselves: a score of 1 on a 0-100 scale would otherwise read as a full success.

    >>> percent_scores_hint(0, 100, "score")
    " If the column holds percentages (0 to 100), divide it by 100 first, e.g. with pandas: df['is_correct'] = df['score'] / 100."
    >>> percent_scores_hint(0, 250), percent_scores_hint(-1, 50), percent_scores_hint(0, 1)
    ('', '', '')
    """
    if not (0 <= low and 1 < high <= 100):  # NaN compares false: no hint
        return ""
    line = (f"df['is_correct'] = df['{column}'] / 100" if column is not None
            else "df[trial_columns] = df[trial_columns] / 100")
    return f" If the column holds percentages (0 to 100), divide it by 100 first, e.g. with pandas: {line}."


def trial_labels_hint(column: str = "COLUMN") -> str:
    """What to do with a trial column of text labels (run names, seeds written as words).

    Parameters
    ----------
    column : str
        The column's name, for the pandas line.

    Returns
    -------
    str
        A sentence starting with a space: number the labels (the same label the same number across models, so
        trials stay paired by label), or un-map the column, which numbers each (model, task, question)'s rows in
        row order.

    >>> trial_labels_hint("run")[:56]
    ' If the trials are labelled by text (run names), number '
    """
    return (" If the trials are labelled by text (run names), number them, e.g. with pandas: "
            f"df['trial'] = pd.factorize(df['{column}'])[0] (the same label gets the same number in every model), or "
            "un-map the column (--map trial=none in the CLI, or 'none' under the app's Column mapping): each (model, "
            "task, question)'s rows are then its trials in row order.")


def check_recoding(recode) -> dict[str, float]:
    """A user's outcome recoding ``{label: value}`` validated, its labels stripped and lower-cased.

    Parameters
    ----------
    recode : mapping of str to float or None
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
    for label, value in dict(recode).items():
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


def parse_recoding(items) -> dict[str, float]:
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
    seen: dict[str, str] = {}
    for label, value in pairs:  # the same label twice with two values is refused by check_recoding's merge
        if seen.setdefault(label.strip().lower(), value) != value:
            raise InputError(f"--recode gives {label.strip()!r} two values ({seen[label.strip().lower()]} and {value}).",
                             field="recode")
    return check_recoding(dict(pairs))


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


def outcome_labels(values, limit: int = 50) -> dict[str, float | None]:
    """The distinct text labels of an outcome column with the value each is known to stand for, else None.

    What the app's recoding form starts from: Inspect's letters when every label is one
    (:data:`INSPECT_LETTERS`), success/failure words (:data:`BINARY_LABELS`), and None (for the user to fill) for
    any other label. Labels are stripped and lower-cased, as a recoding compares them; at most ``limit``.

    >>> outcome_labels(["Pass", "fail ", "skipped"])
    {'fail': 0.0, 'pass': 1.0, 'skipped': None}
    >>> outcome_labels(["C", "I", "P"])
    {'c': 1.0, 'i': 0.0, 'p': 0.5}
    """
    texts = sorted({str(v).strip() for v in values if v is not None and v == v and str(v).strip()})[:limit]
    letters = set(texts) <= INSPECT_LETTERS.keys() and set(texts) & {"C", "I"}
    known = INSPECT_LETTERS if letters else {k: float(v) for k, v in BINARY_LABELS.items()}
    out = {t.lower(): known.get(t if letters else t.lower()) for t in texts}
    return dict(sorted(out.items()))
