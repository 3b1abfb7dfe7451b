"""Categorize attempts under a rubric schema: thresholds, first-match categories, coverage.

Paper Appendix F.1: every attempt is mapped to one of the categories ``0..C`` of a schema
(Table 5) through rubric variables and thresholds (Table 4); Bayes@N then uses the category
codes ``R`` and the weights ``w``. :func:`categorize` is the one-call entry point;
:class:`BoundRubric` keeps the parsed schema and the converted signals so that repeated
calls with other thresholds (sensitivity analysis) only redo what depends on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.rubric.coverage import CoverageReport, build_report, data_issues, relevant_notes, static_issues
from scorio_core.rubric.kernel import BOOL, NUMBER, as_mask, evaluate
from scorio_core.rubric.nodes import names
from scorio_core.rubric.schema import Schema
from scorio_core.rubric.table import SignalTable, as_table
from scorio_core.rubric.thresholds import ThresholdValue, check_frozen, check_shift, percentile

__all__ = [
    "BoundRubric",
    "Categorization",
    "CategoryCounts",
    "bind",
    "categorize",
    "category_counts",
    "compute_thresholds",
    "validate",
]


@dataclass(frozen=True, eq=False)
class Categorization:
    """Category of every attempt under one schema, with thresholds and coverage.

    Attributes
    ----------
    codes : ndarray of shape (n_attempts,), int16
        Category index ``0..C`` of each row of the attempt table (same order); -1 where no
        category matched.
    labels : tuple of str
        Category labels, length ``C+1``.
    weights : ndarray of shape (C+1,), float64
        Rubric weights ``w``.
    thresholds : dict of str to float
        Threshold values used; pass back as ``thresholds=`` to freeze them.
    coverage : CoverageReport
        Unmatched attempts, empty categories, missing signals, ...
    schema : Schema
        The schema applied.
    threshold_details : tuple of ThresholdValue
        How each threshold was obtained (percentile, filter, number of values).
    """

    codes: np.ndarray
    labels: tuple
    weights: np.ndarray
    thresholds: dict
    coverage: CoverageReport
    schema: Schema
    threshold_details: tuple = ()

    def scores(self) -> np.ndarray:
        """Weight of each attempt's category, shape ``(n_attempts,)``; NaN where unmatched."""
        out = np.full(self.codes.shape, np.nan)
        matched = self.codes >= 0
        out[matched] = self.weights[self.codes[matched]]
        return out

    def require_complete(self) -> Categorization:
        """Return self, or raise InputError if some attempts matched no category."""
        issue = self.coverage.unmatched()
        if issue is not None:
            shown = "; ".join(str(e) for e in issue.examples[:3])
            raise InputError(f"schema {self.schema.name!r}: {issue.message} For example {shown}.")
        return self


class CategoryCounts(NamedTuple):
    """Category counts per group (e.g. per model).

    Attributes
    ----------
    groups : tuple
        Group values in order of first appearance.
    labels : tuple of str
        Category labels, length ``C+1``.
    counts : ndarray of shape (G, C+1), int64
    unmatched : ndarray of shape (G,), int64
    """

    groups: tuple
    labels: tuple
    counts: np.ndarray
    unmatched: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Counts as a DataFrame indexed by group, one column per label."""
        return pd.DataFrame(self.counts, index=list(self.groups), columns=list(self.labels))


class BoundRubric:
    """A schema bound to one attempt table, for repeated categorization.

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        The attempts of the analysis (all models).
    schema : Schema
    max_tokens : int, optional
        Generation limit for ``token_ratio`` when the data has no ``max_tokens`` column.
    strict : bool
        Raise InputError on schema errors (unknown names, type errors); when False they
        are kept in :attr:`static` and :meth:`categorize` raises instead.

    Notes
    -----
    Variables and category conditions that do not depend on thresholds are evaluated once
    and cached, as are the filtered values each percentile is taken of; a call with a
    ``percentile_shift`` only recomputes the percentiles and what depends on them.
    """

    def __init__(self, attempts, schema: Schema, *, max_tokens: int | None = None, strict: bool = True):
        if not isinstance(schema, Schema):
            raise InputError(f"schema must be a Schema; got {type(schema).__name__} (see resolve_schema).")
        self.table: SignalTable = as_table(attempts, max_tokens)
        self.schema = schema
        raised: list = []
        self.static = tuple(static_issues(schema, self.table, raised))
        errors = [i for i in self.static if i.severity == "error"]
        self._error = None
        if len(errors) == 1 and raised:
            self._error = raised[0]  # keeps the position for editors
        elif errors:
            more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
            self._error = InputError(" ".join(i.message for i in errors[:3]) + more)
        if self._error is not None and schema.origin and not self._error.source:
            self._error = _located(self._error, schema.origin)
        if self._error is not None and strict:
            raise self._error
        self._exprs = schema.expressions()
        self._dynamic = self._threshold_dependent()
        self._static_memo: dict = {}
        self._value_cache: dict[str, np.ndarray] = {}
        self._mask_cache: dict[int, np.ndarray] = {}

    def _threshold_dependent(self) -> set[str]:
        schema = self.schema
        dynamic: set[str] = set(schema.threshold_map)
        for name in schema.dependency_order:  # dependencies come first
            if name in schema.variable_map and any(
                n in dynamic for n in names(self._exprs[f"variable:{name}"])
            ):
                dynamic.add(name)
        return dynamic - set(schema.threshold_map)

    def _depends(self, key: str) -> bool:
        return any(n in self._dynamic or n in self.schema.threshold_map for n in names(self._exprs[key]))

    def _lookup(self, values: dict, memo: dict):
        variables, table = self.schema.variable_map, self.table

        def lookup(name: str):
            if name in variables:
                store = memo if name in self._dynamic else self._static_memo
                if name not in store:
                    store[name] = evaluate(self._exprs[f"variable:{name}"], lookup)
                return BOOL, store[name]
            if name in values:
                return NUMBER, values[name]
            kind = table.kind(name)
            return kind, table.number(name) if kind == NUMBER else table.text(name)

        return lookup

    def _resolve(self, thresholds, percentile_shift):
        if self._error is not None:
            raise self._error
        schema = self.schema
        frozen, unused = check_frozen(schema, thresholds)
        shift = check_shift(schema, percentile_shift, frozen)
        values: dict[str, float] = {}
        memo: dict = {}
        lookup = self._lookup(values, memo)
        details = []
        for name in schema.threshold_order:
            t = schema.threshold_map[name]
            if name in frozen:
                d = ThresholdValue(name, frozen[name], "frozen", t.percentile, t.of, t.where)
            elif t.kind == "absolute":
                d = ThresholdValue(name, t.value, "absolute")
            else:
                data = self._percentile_values(name, lookup)
                q = t.percentile + shift.get(name, 0.0)
                d = ThresholdValue(name, percentile(data, q), "percentile", q, t.of, t.where, int(data.size))
            values[name] = d.value
            details.append(d)
        return tuple(details), unused, values, memo

    def _percentile_values(self, name: str, lookup) -> np.ndarray:
        if name in self._value_cache:
            return self._value_cache[name]
        t = self.schema.threshold_map[name]
        x = self.table.number(t.of)
        keep = np.isfinite(x)
        if t.where is not None:
            keep &= as_mask(evaluate(self._exprs[f"where:{name}"], lookup)[0], self.table.n_rows)
        data = x[keep]
        if t.where is None or not self._depends(f"where:{name}"):
            # sorted once: a percentile does not depend on the order, and np.percentile's selection on sorted values
            # is ~5x faster (the perturbation and threshold searches ask for hundreds of percentiles of one column)
            data = self._value_cache[name] = np.sort(data)
        return data

    def _masks(self, values: dict, memo: dict) -> list[np.ndarray]:
        lookup = self._lookup(values, memo)
        n = self.table.n_rows
        masks = []
        for i in range(len(self.schema.categories)):
            if i in self._mask_cache:
                masks.append(self._mask_cache[i])
                continue
            key = f"category:{i}"
            mask = as_mask(evaluate(self._exprs[key], lookup)[0], n)
            if not self._depends(key):
                self._mask_cache[i] = mask
            masks.append(mask)
        return masks

    def thresholds(self, thresholds=None, percentile_shift=None) -> tuple[ThresholdValue, ...]:
        """Threshold values with how each was obtained (see :func:`compute_thresholds`)."""
        return self._resolve(thresholds, percentile_shift)[0]

    def codes(self, thresholds=None, percentile_shift=None) -> np.ndarray:
        """Category codes only (int16, -1 unmatched): the fast path for perturbation loops."""
        _, _, values, memo = self._resolve(thresholds, percentile_shift)
        return _first_match(self._masks(values, memo), self.table.n_rows)

    def categorize(self, thresholds=None, percentile_shift=None) -> Categorization:
        """Categorize every attempt (see :func:`categorize`)."""
        details, unused, values, memo = self._resolve(thresholds, percentile_shift)
        masks = self._masks(values, memo)
        codes = _first_match(masks, self.table.n_rows)
        dynamic = data_issues(self.schema, self.table, codes, masks, details, unused)
        report = build_report(self.schema, self.table, codes, self.static, dynamic)
        return Categorization(codes, self.schema.labels, self.schema.weights,
                              {d.name: d.value for d in details}, report, self.schema, details)


def _first_match(masks: list[np.ndarray], n: int) -> np.ndarray:
    codes = np.full(n, -1, dtype=np.int16)
    for c in range(len(masks) - 1, -1, -1):  # later categories are overwritten by earlier ones
        codes[masks[c]] = c
    return codes


def _schema(schema) -> Schema:
    if isinstance(schema, Schema):
        return schema
    from scorio_core.rubric.jsonio import resolve_schema

    return resolve_schema(schema)


def bind(attempts, schema, *, max_tokens: int | None = None) -> BoundRubric:
    """Bind a schema (object, built-in name, JSON path or dict) to an attempt table."""
    return BoundRubric(attempts, _schema(schema), max_tokens=max_tokens)


def categorize(attempts, schema, thresholds=None, *, max_tokens=None, percentile_shift=None) -> Categorization:
    """Map every attempt to a category of a rubric schema (first matching category wins).

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        Canonical attempt table: one row per attempt, all models of the analysis.
    schema : Schema, str, path or dict
        A :class:`Schema`, a built-in name (:func:`list_schemas`), a JSON file or document.
    thresholds : dict of str to float, optional
        Frozen threshold values (e.g. ``previous.thresholds``); the others are computed.
        Use the main analysis' values to map prior attempts ``R0`` through the same rubric.
    max_tokens : int, optional
        Generation limit for ``token_ratio`` when the data has no ``max_tokens`` column.
    percentile_shift : dict of str to float, optional
        Percentile points added to percentile thresholds (sensitivity analysis).

    Returns
    -------
    Categorization
        ``codes`` (int16, aligned with the rows of ``attempts``, -1 = unmatched),
        ``labels``, ``weights``, ``thresholds``, ``coverage``.

    Raises
    ------
    InputError
        Unknown names (with suggestions), type errors in conditions, bad thresholds.

    Notes
    -----
    Conditions use three-valued logic (:mod:`scorio_core.rubric.kernel`): an attempt whose
    signals are missing matches no category rather than a wrong one, and is reported in
    ``coverage``. Paper Appendix F.1, Tables 4 and 5.

    References
    ----------
    Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model
    Evaluation", ICLR 2026, arXiv:2510.04265, Appendix F.1 (categorical schemata), Tables 4 and 5.

    Examples
    --------
    >>> import pandas as pd
    >>> attempts = pd.DataFrame({"model": ["a", "a", "b"], "question_id": ["1", "2", "1"],
    ...                          "trial": [0, 0, 0], "is_correct": [1.0, 0.0, 1.0],
    ...                          "has_box": [1.0, 1.0, 0.0]})
    >>> cat = categorize(attempts, "Format Aware")
    >>> cat.codes.tolist(), cat.labels[4], cat.weights.tolist()
    ([4, 2, 3], 'correct, boxed', [0.0, 0.0, 1.0, 2.0, 3.0])
    """
    bound = BoundRubric(attempts, _schema(schema), max_tokens=max_tokens)
    return bound.categorize(thresholds, percentile_shift)


def compute_thresholds(attempts, schema, thresholds=None, *, max_tokens=None, percentile_shift=None) -> dict:
    """Threshold values of a schema on the attempts, ``{name: value}`` (paper Table 4).

    Percentiles use ``np.percentile`` (linear) over the finite values of all attempts
    (pooled across models) where the threshold's ``where`` condition is true. Values in
    ``thresholds`` are kept as given (frozen); ``percentile_shift`` moves percentiles.

    References
    ----------
    Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model
    Evaluation", ICLR 2026, arXiv:2510.04265, Appendix F.1, Table 4 (thresholds).

    Examples
    --------
    >>> import pandas as pd
    >>> attempts = pd.DataFrame({"is_correct": [1.0, 0.0, 0.0, 1.0],
    ...                          "completion_bpt": [0.5, 1.0, 2.0, 0.7]})
    >>> compute_thresholds(attempts, "Conf-Wrong Penalty")["tau_low_wrong"]
    1.6
    """
    bound = BoundRubric(attempts, _schema(schema), max_tokens=max_tokens)
    return {d.name: d.value for d in bound.thresholds(thresholds, percentile_shift)}


def validate(attempts, schema, thresholds=None, *, max_tokens=None) -> CoverageReport:
    """Coverage report of a schema on attempts, without raising for schema problems.

    Reports unknown names (with suggestions) and type errors as issues of severity
    ``"error"``; otherwise categorizes and reports unmatched attempts, categories that
    can never match or are empty, missing signals and undefined thresholds.
    """
    bound = BoundRubric(attempts, _schema(schema), max_tokens=max_tokens, strict=False)
    if bound._error is None:
        return bound.categorize(thresholds).coverage
    n = bound.table.n_rows
    return CoverageReport(n, n, np.zeros(len(bound.schema.categories), np.int64), bound.static,
                          relevant_notes(bound.table.notes, bound.schema.signals))


def category_counts(attempts, categorization: Categorization, by: str = "model") -> CategoryCounts:
    """Count attempts per category within each group (default: per model).

    Parameters
    ----------
    attempts : pandas.DataFrame or SignalTable
        The table that was categorized (same rows, same order).
    categorization : Categorization
    by : str
        Grouping column.
    """
    frame = attempts.frame if isinstance(attempts, SignalTable) else attempts
    if not isinstance(frame, pd.DataFrame) or by not in frame.columns:
        raise InputError(f"category_counts needs a DataFrame with a {by!r} column.")
    if len(frame) != categorization.codes.shape[0]:
        raise InputError(
            f"attempts has {len(frame)} rows but the categorization has {categorization.codes.shape[0]}."
        )
    groups, uniques = pd.factorize(frame[by], use_na_sentinel=False)
    width = len(categorization.labels) + 1
    flat = groups.astype(np.int64) * width + categorization.codes.astype(np.int64) + 1
    table = np.bincount(flat, minlength=len(uniques) * width).reshape(len(uniques), width)
    return CategoryCounts(tuple(uniques), categorization.labels, table[:, 1:].copy(), table[:, 0].copy())


def _located(error: InputError, origin: str) -> InputError:
    """``error`` named after the rubric file it came from (an ExpressionError keeps its position)."""
    error.source = f"rubric file {origin}"
    error.args = (error._render(),)
    return error
