"""The user's reading of a table's outcomes, applied when loading: text labels recoded, numbers on a scale.

The loaders never guess what a label means (:mod:`scorio_core.io.formats.recoding` refuses text with the recoding
to write). A user who confirms it passes the recoding to :func:`scorio_core.io.load` (``recode=``; CLI
``--recode LABEL=VALUE``, the app's *Recode outcome labels*): :func:`check_recoding`, then :func:`recode_outcomes`
on the raw table's outcome column (or a wide table's trial cells) before validation. A value ``"missing"`` reads a
label as an attempt without an outcome, left to the ``missing_outcomes`` choice: a recoding never fills an outcome.

Outcomes scored on another scale (percentages) are divided by the full score the user gives
(``outcome_scale=``; CLI ``--outcome-scale 100``, the app's *Outcome scale*): :func:`check_outcome_scale`, then
:func:`rescale_outcomes`, before any recoding (whose values are on the 0-1 scale). The loaders never rescale by
themselves: a score of 1 on a 0-100 scale would otherwise read as a full success. :func:`read_as_given` applies both
to a generic table and records them in the part's mapping and notes.
"""

from __future__ import annotations

from contextlib import contextmanager

from scorio_core.io.formats.recorded_errors import errors_as_missing, recorded_errors_note
from scorio_core.io.formats.recoding import MISSING  # defined there: the hints name it, and _canonical imports them

__all__ = ["MISSING", "check_outcome_scale", "check_recoding", "parse_recoding", "read_as_given", "recode_outcomes",
           "recoding_text", "rescale_outcomes", "uncovered_labels", "unmatched_recoding", "unmatched_scale"]


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
        if not recode or exc.field != "is_correct" or getattr(exc, "labels", None) is None:
            raise  # not a refusal of text labels (a number out of range keeps its own advice, e.g. the scale)
        err = InputError(exc.message + f" The recoding given ({recoding_text(recode)}) does not cover this value: add "
                         "it (e.g. --recode LABEL=VALUE), or leave the recoding out.", source=exc.source, line=exc.line,
                         row=exc.row, field=exc.field)
        err.labels = getattr(exc, "labels", None)
        raise err from None


def check_outcome_scale(scale) -> float | None:
    """The outcome column's full score (``--outcome-scale``) checked: a finite number above 0, or None (no scale).

    Raises
    ------
    InputError
        A value that is not a number above 0 (``field="outcome_scale"``).

    >>> check_outcome_scale("100"), check_outcome_scale(None)
    (100.0, None)
    """
    import math

    from scorio_core.errors import InputError

    if scale is None:
        return None
    try:
        value = float(scale)
    except (TypeError, ValueError):
        value = float("nan")
    if not (math.isfinite(value) and value > 0):
        raise InputError(f"the outcome scale must be a number above 0, the outcome column's full score (e.g. 100 for "
                         f"percentages, --outcome-scale 100); got {scale!r}.", field="outcome_scale")
    return value


def rescale_outcomes(frame, columns, scale: float, locate, source: str) -> tuple[object, int]:
    """Divide the numbers of ``columns`` of a raw table by the outcome ``scale`` (percentages: 100).

    Parameters
    ----------
    frame : pandas.DataFrame
        A table as read, before :func:`scorio_core.io._canonical.canonicalize` (not modified).
    columns : list of str
        The outcome column, or a wide table's trial columns.
    scale : float
        :func:`check_outcome_scale`'s result: the full score, read as 1.
    locate : callable
        The reader's ``row -> {"line": ...}`` for error messages.
    source : str
        The file's name, for error messages.

    Returns
    -------
    (pandas.DataFrame, int)
        The table with every number (text cells parsed as numbers too) divided by ``scale``, and how many cells
        were. Text that is not a number (labels, true/false) and empty cells are left as they are, for the recoding
        and the loader's own checks; boolean columns are outcomes already and stay unchanged.

    Raises
    ------
    InputError
        A number below 0 or above ``scale``, naming the file, line and column; or, for a scale above 1, numbers that
        all lie within [0, 1] already (a 0/1 column divided by 100 would read every success as 0.01).
    """
    import numpy as np
    import pandas as pd

    from scorio_core.errors import InputError
    from scorio_core.io._canonical import _Ctx, _show

    out, hits, parsed = frame, 0, {}
    for col in columns:
        s = frame[col]
        if pd.api.types.is_bool_dtype(s.dtype):
            continue
        numeric = pd.api.types.is_numeric_dtype(s.dtype)
        v = (s if numeric else pd.to_numeric(s.astype("string").str.strip(), errors="coerce")).to_numpy(
            dtype=float, na_value=np.nan)
        bad = ~np.isnan(v) & ~((v >= 0) & (v <= scale))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise _Ctx(source, locate).error(i, "is_correct", f"(the outcome: column '{col}') must lie between 0 and "
                                             f"{scale:g}, the outcome scale given (--outcome-scale {scale:g}); got "
                                             f"{_show(s.iloc[i])}. Check the value, or the scale.")
        parsed[col] = (s, numeric, v)
    top = max((np.nanmax(v) for _, _, v in parsed.values() if (~np.isnan(v)).any()), default=np.nan)
    if scale > 1 and 0 < top <= 1:  # already on the 0-1 scale: dividing would read a full success as 1 / scale
        raise InputError(f"the outcome scale {scale:g} was given (--outcome-scale), but every number of the outcome "
                         f"column ({', '.join(map(repr, parsed))[:120]}) lies within [0, 1], the usual scale: divided "
                         f"by {scale:g}, a full success (1) would read as {1 / scale:g}. Leave the scale out, or check "
                         "the column.", source=source, field="outcome_scale")
    for col, (s, numeric, v) in parsed.items():
        found = ~np.isnan(v)
        if found.any():
            if out is frame:
                out = frame.copy(deep=False)
            if numeric:
                out[col] = v / scale
            else:
                column = s.to_numpy(dtype=object).copy()
                column[found] = v[found] / scale
                out[col] = pd.Series(column, index=s.index, dtype=object)
            hits += int(found.sum())
    return out, hits


def unmatched_scale(scale: float, sources):
    """The :class:`~scorio_core.errors.InputError` for an outcome scale no outcome was read through."""
    from scorio_core.errors import InputError

    return InputError(f"the outcome scale {scale:g} (--outcome-scale) was given, but no outcome was read through it: it "
                      "applies to the numbers in the outcome column of a table (CSV, TSV, Parquet, JSONL), not to count "
                      "tables or to Inspect, HELM and lm-eval logs; leave it out.",
                      source=", ".join(list(sources)[:3]), field="outcome_scale")


@contextmanager
def empty_id_column(frame, guess):
    """Re-raise an identifier column's "is empty" refusal, when the column is empty on every row, as what it is.

    A question id column with no value at all (lighteval's older details leave ``doc.id`` empty) cannot identify
    questions; the first empty row says little. The refusal then names the columns whose values vary, one of which
    may identify them (``--map question_id=COLUMN``). Other errors pass unchanged.
    """
    from scorio_core.errors import InputError

    try:
        yield
    except InputError as exc:
        column = guess.mapping.get(exc.field or "")
        if exc.field != "question_id" or "is empty" not in exc.message or column not in frame.columns:
            raise
        values = frame[column]
        if not (values.isna() | values.astype(str).str.strip().eq("")).all():
            raise
        taken = set(guess.mapping.values())
        vary = [str(c) for c in frame.columns if c not in taken and frame[c].astype(str).nunique() > 1][:5]
        raise InputError(f"column '{column}' (question_id) is empty on every row, so it cannot tell questions apart; map "
                         "a column that does: --map question_id=COLUMN (CLI) or the app's Column mapping"
                         + (f" (columns whose values vary: {', '.join(vary)})." if vary else "."),
                         source=exc.source, field="question_id") from exc


def read_as_given(raw, src, fmt: str, recode=None, scale: float | None = None, errors_missing: bool = False):
    """A generic table's canonical :class:`~scorio_core.io._canonical.Part`, its outcomes read as the user gave them.

    Numbers are divided by ``scale`` (:func:`rescale_outcomes`), then text labels are recoded (``recode``:
    :func:`recode_outcomes`), then, with ``errors_missing``, the outcomes of attempts that record an error are read
    as missing (:func:`~scorio_core.io.formats.recorded_errors.errors_as_missing`; long tables only), then the table
    is validated; the part's mapping and notes say what was applied (``is_correct <- score (divided by 100)``), so the
    provenance and manifests record it.
    """
    from scorio_core.io._canonical import canonicalize

    frame, guess, hits, scaled, blanked = raw.frame, raw.guess, 0, 0, None  # a count table has no outcome labels
    columns = list(guess.wide_columns) if guess.layout == "wide" else [guess.mapping.get("is_correct")]
    notes = [f"{src.name}: --errors-as-missing does not apply to a {guess.layout} table (no row per attempt with its "
             "outcome): its outcomes are read as given."] if errors_missing and guess.layout != "attempts" else []
    if guess.layout != "counts" and None not in columns:
        if scale is not None:
            frame, scaled = rescale_outcomes(frame, columns, scale, raw.locate, src.name)
        if recode:
            frame, hits = recode_outcomes(frame, columns, recode)
        if errors_missing and guess.layout == "attempts":  # the graded score too: no threshold fills it back
            outcome_columns = [c for k, c in guess.mapping.items() if k in ("is_correct", "score")]
            frame, k, column = errors_as_missing(frame, outcome_columns)
            blanked = (k, column or "error")  # no column (or one empty on every line): no attempt records an error
    with uncovered_labels(recode), empty_id_column(frame, guess):
        part = canonicalize(frame, guess, source=src.name, fmt=fmt, locate=raw.locate, stem=src.stem, notes=raw.notes,
                            path_names=raw.path_names)
    scaled = scaled or getattr(raw, "rescaled", 0)  # a rate column in percent, divided before it became counts
    part.read, part.notes = {"recoded": hits, "rescaled": scaled}, part.notes + notes
    said = [f"divided by {scale:g}"] if scaled else []
    if hits:
        said.append(f"recoded: {recoding_text(recode)}")
    if blanked and blanked[0]:
        said.append(f"attempts with an error in '{blanked[1]}' read as missing")
    if blanked:
        part.notes.append(f"{src.name}: {blanked[0]:,} attempt{'s' * (blanked[0] > 1)} with an error in column "
                          f"'{blanked[1]}' read as missing outcomes (--errors-as-missing); what they count as is the "
                          "missing-outcomes choice (drop them, or count them incorrect)." if blanked[0] else
                          f"{src.name}: no attempt records an error (--errors-as-missing: no error column has a value).")
    if said:  # on every field read from the column (a graded score's too)
        keys = [guess.wide_field] if guess.layout == "wide" else [k for k, c in part.mapping.items() if c == columns[0]]
        for key in keys:
            part.mapping[key] += f" ({'; '.join(said)})"
    if scaled:
        part.notes.append(f"{src.name}: {scaled:,} outcomes divided by {scale:g}, the outcome scale given by the user "
                          f"(a score of {scale:g} reads as 1).")
    if hits:
        part.notes.append(f"{src.name}: {hits:,} outcome labels read as recoded by the user ({recoding_text(recode)}).")
    errors = None if blanked or guess.layout != "attempts" else recorded_errors_note(raw.frame, columns[0], src.name)
    if errors:
        part.notes.append(errors)  # an error column beside the outcome: said, never changed unless asked
    return part
