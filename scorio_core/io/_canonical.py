"""Raw table + column mapping -> canonical attempt or count table, validated vectorized.

Every value is checked with array operations; on the first bad value the row position is turned into a file
location (line or row) and an :class:`InputError` names the file, the location, the field, the value and what to
do. Nothing is filled with zeros: a non-binary outcome keeps its value in ``score`` and leaves ``is_correct`` NaN
until the user picks a threshold (:func:`scorio_core.io.apply_choices`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scorio_core.arrays.order import natural_key, natural_sorted
from scorio_core.errors import InputError, decimal_comma_hint
from scorio_core.io.quality.report import partial_credit_message
from scorio_core.io.formats.recoding import (RECODE_HINT, mixed_labels_hint, outcome_labels, percent_scores_hint,
                                             suggest_scale, text_scores_hint, topic_category, trial_labels_hint)
from scorio_core.io.formats.matrix import matrix_cell_error, melt_columns
from scorio_core.io._schema import (BINARY_SIGNALS, COUNT_COLUMNS, ID_COLUMNS, SIGNAL_COLUMNS, STRING_SIGNALS,
                                    TEXT_LABELS_HINT, MappingGuess, normalize_name)

__all__ = ["Part", "as_category", "canonicalize", "natural_categories", "natural_key"]
_TRUE, _FALSE = frozenset({"1", "1.0", "true", "t"}), frozenset({"0", "0.0", "false", "f"})


@dataclass
class Part:
    """One source's canonical table plus what the report must say about it."""

    source: str
    format: str
    layout: str  # "attempts" or "counts"
    table: pd.DataFrame
    mapping: dict[str, str]
    defaults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sha256: str = ""
    rows: int = 0
    #: What the user's reading applied (io.formats.user_recoding.read_as_given): cells recoded and rescaled.
    read: dict = field(default_factory=dict)


class _Ctx:
    def __init__(self, source: str, locate: Callable[[int], dict], origin: np.ndarray | None = None):
        self.source, self.locate, self.origin = source, locate, origin

    def error(self, pos: int, field_name: str, message: str) -> InputError:
        row = int(self.origin[pos]) if self.origin is not None else int(pos)
        try:
            where = self.locate(row)
        except Exception:  # noqa: BLE001 - a locator failure must not hide the real error
            where = {"row": row + 1}
        prefix = where.pop("context", "")
        return InputError(f"{prefix}field '{field_name}' {message}", source=self.source, field=field_name, **where)


def _show(value: object) -> str:
    return text if len(text := repr(value.item() if isinstance(value, np.generic) else value)) <= 60 else text[:57] + "...'"


def as_category(s: pd.Series, name: str, ctx: _Ctx) -> pd.Series:
    """Identifier column -> categorical of non-empty strings (sorted categories)."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = s.cat.categories
        if not pd.api.types.is_string_dtype(cats.dtype) or cats.dtype == object:
            texts = [_id_text(c) for c in cats]
            if len(set(texts)) == len(texts):
                s = s.cat.rename_categories(texts)
            else:  # 1 and "1" (JSON numbers and strings) are one identifier, as in a CSV
                unique, inverse = np.unique(np.asarray(texts, dtype=object).astype(str), return_inverse=True)
                codes = s.cat.codes.to_numpy()
                s = pd.Series(pd.Categorical.from_codes(np.where(codes >= 0, inverse[np.maximum(codes, 0)], -1),
                                                        categories=unique), index=s.index)
    else:
        missing = s.isna().to_numpy()
        if missing.any():
            raise ctx.error(int(np.flatnonzero(missing)[0]), name, "is empty; every row needs a value.")
        if pd.api.types.is_float_dtype(s.dtype):
            values = s.to_numpy()
            exact = (values == np.round(values)) & (np.abs(values) < 2**53)
            ints = np.where(exact, values, 0).astype(np.int64).astype(str)
            s = pd.Series(np.where(exact, ints, values.astype(str)), index=s.index)
        elif s.dtype == object:
            s = s.map(_id_text)
        s = s.astype(str).astype("category")
    codes = s.cat.codes.to_numpy()
    if (codes < 0).any():
        raise ctx.error(int(np.flatnonzero(codes < 0)[0]), name, "is empty; every row needs a value.")
    cats = s.cat.categories
    empty = np.flatnonzero(cats.astype(str).str.strip() == "")
    if empty.size:
        raise ctx.error(int(np.flatnonzero(np.isin(codes, empty))[0]), name, "is empty; every row needs a value.")
    return natural_categories(s)


def natural_categories(s: pd.Series) -> pd.Series:
    """Drop unused categories and order the rest naturally."""
    codes = s.cat.codes.to_numpy()
    used = np.bincount(codes[codes >= 0], minlength=len(s.cat.categories)) > 0
    if not used.all():
        s = s.cat.remove_unused_categories()
    cats = tuple(s.cat.categories)
    order = natural_sorted(cats)
    return s if order == cats else s.cat.reorder_categories(list(order))


def _id_text(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _numeric(s: pd.Series, name: str, ctx: _Ctx, what: str, text_hint: str = "") -> np.ndarray:
    """Column -> float64 array (NaN for empty); text that is not a number raises (with ``text_hint``)."""
    if isinstance(s.dtype, pd.CategoricalDtype):
        cats = pd.Series(np.asarray(s.cat.categories, dtype=object))
        values, bad_cat = _parse_numbers(cats)
        codes = s.cat.codes.to_numpy()
        safe = np.maximum(codes, 0)
        out = np.where(codes >= 0, values[safe] if len(cats) else np.nan, np.nan)
        bad = (codes >= 0) & (bad_cat[safe] if len(cats) else False)
    elif pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
        return s.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        out, bad = _parse_numbers(s)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ctx.error(i, name, f"{what}; got {_show(s.iloc[i])}.{decimal_comma_hint(s.iloc[i]) or text_hint}")
    return out


def _parse_numbers(s: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Text/object values -> (float64 with NaN for empty or bad, mask of bad values)."""
    obj = s.astype(object)
    text = obj.astype(str).str.strip().str.lower()
    empty = obj.isna().to_numpy() | text.isin(("", "nan", "none", "null", "na", "n/a")).to_numpy()
    text = text.mask(text.isin(_TRUE), "1").mask(text.isin(_FALSE), "0")
    out = pd.to_numeric(text.mask(empty, None), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    return out, np.isnan(out) & ~empty


#: Largest magnitude of an integer read from text that float64 keeps exactly (2**53): beyond it two
#: different ids (e.g. trial seeds) could collapse into one, so such values are refused.
_EXACT_INT = 2**53


def _integers(s: pd.Series, name: str, ctx: _Ctx, what: str, text_hint: str = "") -> np.ndarray:
    if pd.api.types.is_integer_dtype(s.dtype) and not s.isna().any():
        if s.dtype.kind == "u" and len(s) and int(s.max()) > np.iinfo(np.int64).max:
            i = int(np.argmax(s.to_numpy()))
            raise ctx.error(i, name, f"{what} below 2**63; got {_show(s.iloc[i])}. Renumber the values (e.g. 0, 1, 2, ...).")
        return s.to_numpy(dtype=np.int64)
    v = _numeric(s, name, ctx, what, text_hint)
    bad = ~np.isfinite(v) | (v != np.round(v))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        got = "an empty value" if np.isnan(v[i]) else _show(s.iloc[i])
        raise ctx.error(i, name, f"{what}; got {got}.")
    huge = np.abs(v) >= _EXACT_INT
    if huge.any():
        i = int(np.flatnonzero(huge)[0])
        raise ctx.error(i, name, f"{what} of magnitude below 2**53 = 9,007,199,254,740,992 (larger values cannot be kept "
                                 f"exactly, so different values could collapse into a false duplicate); got {_show(s.iloc[i])}. "
                                 "Renumber the values (e.g. 0, 1, 2, ...).")
    return v.astype(np.int64)


def _text_labels(s: pd.Series) -> bool:
    """Whether a column holds text labels ('correct', 'wrong' ...): two or more texts, no number nor true/false."""
    if not (cats := isinstance(s.dtype, pd.CategoricalDtype)) and (pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype)):
        return False
    values, bad = _parse_numbers(t := pd.Series(np.asarray(s.cat.categories, dtype=object)) if cats else s.reset_index(drop=True))
    return bool(not np.isfinite(values).any() and t[bad].nunique() >= 2)


def _outcome(s: pd.Series, name: str, ctx: _Ctx, user: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Outcome column -> (is_correct with NaN for non-binary/empty, raw values)."""
    where = f"column '{name}'" if name != "trial cells" else "the trial cells"  # the user's name, not only ours
    try:
        v = _numeric(s, "is_correct", ctx, f"(the outcome: {where}) must be 0 or 1 (true/false)")
    except InputError as exc:  # text labels: say how to recode them, never the mapping that just failed
        unmap = "; or un-map it: --map is_correct=none" if user else "; or map a 0/1 column: --map is_correct=COLUMN"
        wide, labels = name == "trial cells", _text_labels(s)  # wide: one column per trial, no single column to name
        numbers, bad = _parse_numbers(s)
        texts = pd.unique(s.dropna()) if labels else pd.unique(s.to_numpy(dtype=object)[bad])
        if not len(texts) or (not labels and ("decimal comma" in exc.message or not np.isfinite(numbers).any())):
            raise exc  # (not text labels: words among numbers get their hint; a lone word or a decimal comma not)
        hint = ((text_scores_hint(texts, None if wide else name)
                 or TEXT_LABELS_HINT[:-1] + ("" if wide else unmap) + "." + RECODE_HINT)
                if labels else mixed_labels_hint(texts))  # else numbers beside a few words (ERROR, timeout ...)
        err = InputError(exc.message + hint, source=exc.source, line=exc.line, row=exc.row, field=exc.field)
        err.labels = outcome_labels(texts)  # for the app's recoding form
        raise err
    bad = (v < 0) | (v > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        column = name if name != "trial cells" else "COLUMN"
        hint = percent_scores_hint(np.nanmin(v), np.nanmax(v), None if name == "trial cells" else name)
        hint += (f" If the column holds category codes, map it as the category: --map category={column} (CLI), or pick "
                 "it under the app's Column mapping, Override another field." if float(v[i]).is_integer() else "")
        raise suggest_scale(ctx.error(i, "is_correct", f"must be 0 or 1 (or a soft score in [0, 1]); got {_show(s.iloc[i])} "
                                      f"in column '{name}'.{hint}"), np.nanmin(v), np.nanmax(v))
    binary = (v == 0) | (v == 1)
    return np.where(binary, v, np.nan), v


def canonicalize(
    frame: pd.DataFrame,
    guess: MappingGuess,
    *,
    source: str,
    fmt: str,
    locate: Callable[[int], dict],
    stem: str,
    notes: list[str] | None = None,
    path_names: Mapping[str, str] | None = None,
) -> Part:
    """Validate a raw table and return it under canonical names and dtypes.

    ``path_names``: model and/or task named by the file's folder (``--map model=@folder``), which the mapping
    records as ``<folder: NAME>``; a field neither mapped nor named so takes ``stem``.

    Raises
    ------
    InputError
        On the first empty identifier, non-integer trial, outcome outside [0, 1],
        non-numeric signal, or invalid count, naming file, line/row, field and value.
    """
    notes = list(notes or [])
    mapping = dict(guess.mapping)
    frame = topic_category(frame, mapping, guess, notes, source)  # LiveBench's 'category' of words: a topic, not codes
    ctx = _Ctx(source, locate)
    columns = dict(mapping)  # field -> the frame's column (a wide table's melted cells under '__<field>__')
    if guess.layout == "wide":  # one column per trial, or a response matrix (one per question or model)
        wide = guess.wide_field
        frame, origin, empty = melt_columns(frame, guess.wide_columns, wide)
        ctx = _Ctx(source, locate, origin)
        listed = f"{', '.join(list(guess.wide_columns)[:4])}{' ...' if len(guess.wide_columns) > 4 else ''}"
        mapping[wide] = f"<wide: {listed}>" if wide == "trial" else f"<columns: {listed}>"
        columns[wide], outcome_col, trial_col = f"__{wide}__", "__outcome__", f"__{wide}__" if wide == "trial" else mapping.get("trial")
        if empty:
            notes.append(f"{source}: {empty} empty trial cells in the wide table are trials not run (no attempt rows)."
                         if wide == "trial" else f"{source}: {empty:,} empty cells of the response matrix are questions a "
                         "model was not run on (no attempt rows).")
    else:
        outcome_col, trial_col = mapping.get("is_correct"), mapping.get("trial")
    out: dict[str, object] = {}
    defaults: list[str] = []
    n = len(frame)
    for key in ("model", "task"):
        if key in mapping:
            out[key] = as_category(frame[columns[key]], key, ctx)
            continue
        if (name := (path_names or {}).get(key)) is None:
            _refuse_misspelled(frame, key, mapping, guess, source)
            defaults.append(f"{source}: no {key} column; {key} set to the file stem '{stem}'.")
        else:
            mapping[key] = f"<folder: {name}>"
        out[key] = pd.Series(pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=pd.Index([name or stem], dtype=str)))
    out["question_id"] = as_category(frame[columns["question_id"]], "question_id", ctx)
    layout = "counts" if guess.layout == "counts" else "attempts"
    if layout == "counts":
        nt = _integers(frame[mapping["n_trials"]], "n_trials", ctx, "must be a whole number >= 1")
        nc = _integers(frame[mapping["n_correct"]], "n_correct", ctx, "must be a whole number")
        for bad, fld, msg in ((nt < 1, "n_trials", "must be >= 1"), (nc < 0, "n_correct", "must be >= 0"),
                              (nc > nt, "n_correct", "must not exceed n_trials")):
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ctx.error(i, fld, f"{msg}; got n_trials={nt[i]}, n_correct={nc[i]}.")
        out["n_trials"], out["n_correct"] = nt, nc
    else:
        if trial_col is not None:
            out["trial"] = _integers(frame[trial_col], "trial", ctx, "must be a whole number (trial index or seed)", trial_labels_hint(trial_col))
        else:
            keys = pd.DataFrame({k: out[k].cat.codes for k in ("model", "task", "question_id")})
            out["trial"] = keys.groupby(list(keys.columns), sort=False).cumcount().to_numpy(dtype=np.int64)
            defaults.append(f"{source}: no trial column; trials numbered 0, 1, ... in row order within each (model, task, question).")
        if outcome_col is not None and "category" in mapping and "is_correct" not in guess.user and _text_labels(frame[outcome_col]):
            notes.append(f"{source}: column '{mapping.pop('is_correct')}' holds text, not 0/1 outcomes; with the category codes of "
                         f"column '{mapping['category']}' it is not read as is_correct (kept as a signal); to read a 0/1 column as "
                         "is_correct, pass --map is_correct=COLUMN (CLI) or pick it under the app's Column mapping.")
            outcome_col = None
        if outcome_col is not None:
            name = outcome_col if outcome_col != "__outcome__" else "trial cells"
            try:
                is_correct, raw = _outcome(frame[outcome_col], name, ctx, "is_correct" in guess.user)
            except InputError as exc:  # a response matrix's cell: name its column
                raise (exc if guess.layout != "wide" or guess.wide_field == "trial" else matrix_cell_error(exc, frame, guess.wide_field))
            out["is_correct"] = is_correct
            soft = np.isfinite(raw) & np.isnan(is_correct)
            if soft.any():
                if "score" in mapping and mapping["score"] != outcome_col:
                    raise InputError(
                        f"the outcome column '{outcome_col}' has values strictly between 0 and 1 and a separate "
                        f"score column '{mapping['score']}' exists; map a 0/1 column as the outcome (--map is_correct=COLUMN in "
                        "the CLI, or the app's Column mapping, Override another field), or drop one of them.",
                        source=source, field="is_correct")
                out["score"] = raw
                mapping["score"] = outcome_col
        else:
            out["is_correct"] = np.full(n, np.nan)
        if "category" in mapping:
            cat = _integers(frame[mapping["category"]], "category", ctx, "must be a whole-number category code") if not frame[mapping["category"]].isna().any() else None
            if cat is None:
                raise ctx.error(int(np.flatnonzero(frame[mapping["category"]].isna().to_numpy())[0]), "category",
                                "is empty; every attempt needs a category code.")
            if (cat < 0).any():
                i = int(np.flatnonzero(cat < 0)[0])
                raise ctx.error(i, "category", f"must be >= 0; got {cat[i]}.")
            out["category"] = pd.array(cat, dtype="Int64")
    used = {c for k, c in mapping.items() if k in ID_COLUMNS + ("is_correct", "category") + COUNT_COLUMNS}
    used |= set(guess.wide_columns) | {"__outcome__", "__trial__", "__question_id__", "__model__"}
    source_to_signal = {c: k for k, c in mapping.items() if k in SIGNAL_COLUMNS}
    for col in frame.columns:
        if col in used and col not in source_to_signal:
            continue
        name = source_to_signal.get(col, str(col))
        if name in out:
            if col == mapping.get("score") and name == "score":
                continue
            name = f"{name}_source"
            notes.append(f"{source}: column '{col}' renamed to '{name}' (its name is taken by a canonical column).")
        out[name] = _signal(frame[col], name, ctx, notes, source)
    table = pd.DataFrame(out, copy=False)  # share the reader's arrays; no second copy
    if layout == "attempts" and outcome_col is not None and mapping.get("score") not in (None, outcome_col):
        _partial_credit_note(table, outcome_col, mapping["score"], source, notes)
    return Part(source=source, format=fmt, layout=layout, table=table, mapping=mapping, defaults=defaults, notes=notes, rows=n)


def _refuse_misspelled(frame: pd.DataFrame, key: str, mapping: dict, guess: MappingGuess, source: str) -> None:
    """Raise when ``key`` (model or task) would be named after the file while a column looks like its misspelling.

    A header ``modle,tsk,qid,...`` otherwise loads every model as one named after the file (its trials then collide as
    duplicates, and "keep first" would rank nonsense). Only a column within a typo of the field's name (difflib ratio
    >= 0.75: ``modle``, ``tsk``, ``mdl``) holding two or more distinct values counts."""
    import difflib

    used = set(mapping.values()) | set(guess.wide_columns)
    names = {normalize_name(str(c)): c for c in frame.columns if c not in used}
    for near in difflib.get_close_matches(key, list(names), n=3, cutoff=0.75):
        column = names[near]
        if frame[column].nunique(dropna=True) >= 2:
            raise InputError(
                f"no '{key}' column, and column '{column}' looks like a misspelling of '{key}' (it holds "
                f"{frame[column].nunique(dropna=True):,} distinct values); without a '{key}' column every row gets the "
                f"file's name as its {key}. Rename the column to '{key}', or pass --map {key}={column} (CLI) or pick "
                f"it under the app's Column mapping, Override another field.", source=source, field=key)


def _signal(s: pd.Series, name: str, ctx: _Ctx, notes: list[str], source: str):
    if name in STRING_SIGNALS:
        return s.astype("category") if not isinstance(s.dtype, pd.CategoricalDtype) else s
    if name in SIGNAL_COLUMNS:
        if pd.api.types.is_integer_dtype(s.dtype) and not isinstance(s.dtype, pd.CategoricalDtype) and name not in BINARY_SIGNALS:
            return s.to_numpy()
        v = _numeric(s, name, ctx, "must be a number")
        if name in BINARY_SIGNALS and (~np.isnan(v) & (v != 0) & (v != 1)).any():
            i = int(np.flatnonzero(~np.isnan(v) & (v != 0) & (v != 1))[0])
            raise ctx.error(i, name, f"must be 0 or 1; got {_show(s.iloc[i])}.")
        if pd.api.types.is_integer_dtype(s.dtype) and not np.isnan(v).any():
            return v.astype(np.int64)
        return v
    if s.dtype == object:
        kind = pd.api.types.infer_dtype(s, skipna=True)  # one C-level pass over the column
        if kind in ("integer", "floating", "mixed-integer-float", "boolean", "decimal"):
            return pd.to_numeric(s, errors="coerce") if kind != "boolean" else s.astype("boolean")
        if kind in ("string", "empty"):
            return s.astype("str")
        notes.append(f"{source}: column '{name}' mixes value types ({kind}); kept as text.")
        return s.where(s.isna(), s.astype(str)).astype("str")
    return s


def _partial_credit_note(table: pd.DataFrame, outcome_col: str, score_col: str, source: str, notes: list) -> None:
    """Say how many attempts carry partial credit in the score column while correctness comes from another column
    (LiveBench: 17% of the rows score strictly between 0 and 1 with ``correct`` = 0): read from the 0/1 column, that
    credit is not counted, and the leaderboard differs from one averaging the scores."""
    if "score" not in table.columns or "is_correct" not in table.columns:
        return
    score = pd.to_numeric(table["score"], errors="coerce").to_numpy(dtype=float)
    correct = table["is_correct"].to_numpy(dtype=float)
    partial = np.isfinite(score) & (score > 0) & (score < 1) & ~np.isnan(correct)  # (no 0/1 outcome: graded, not this)
    k = int(partial.sum())
    if not k:
        return
    wrong = int(np.sum(partial & (correct == 0)))
    notes.append(partial_credit_message(source, k, len(table), wrong, score_col, outcome_col))
