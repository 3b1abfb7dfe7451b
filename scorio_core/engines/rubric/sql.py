"""Rubric categories in SQL: per-(model, task, question) category counts without an attempt table.

A bound rubric (schema + resolved threshold values) is translated into
``CASE WHEN <cond_0> THEN 0 WHEN <cond_1> THEN 1 ... ELSE -1 END`` over the canonical DuckDB
relation of the input files (:mod:`scorio_core.engines.duckdb_engine`) and grouped by
(model, task, question). The result feeds rubric-weighted Bayes@N exactly as the pandas path
(:func:`scorio_core.leaderboard.table.categorization_for` + :func:`scorio_core.leaderboard.outcomes.from_attempts`)
does (paper Appendix F).

Semantics (each rule is the one of :mod:`scorio_core.rubric.kernel`):

* three-valued (Kleene) logic: the kernel's ``(T, F)`` pairs are Kleene's strong logic, which
  is SQL's NULL logic for ``AND``/``OR``/``NOT``; a missing value is SQL NULL;
* numbers are DOUBLE, NaN mapped to NULL (numpy comparisons with NaN are neither true nor
  false); infinities compare as values (as in numpy);
* ``true``/``false`` values (variables, literals) compare with ``=``/``<>`` only; unknown on
  either side gives unknown (the kernel's ``same``/``differ``);
* text compares with a quoted literal by equality; a missing text value is unknown;
* a category matches only where its condition is definitely true (``CASE WHEN`` skips NULL);
  first match wins; ``-1`` for no match.

Safety: every constant (literals, thresholds, paths) is a prepared-statement parameter;
column names come from the files' schemas and are spliced only through
:func:`~scorio_core.engines._sql.quote_ident`. User text is never formatted into SQL.

Counting with it (files -> category counts -> task outcomes) is
:mod:`scorio_core.engines.rubric.counts`.

Unsupported (raises :class:`~scorio_core.engines._sql.EngineUnsupported`, so ``--engine
auto`` falls back to pandas): derived signals (any signal :func:`derive_signals` would add),
percentile thresholds that are not frozen unless their per-task columns are given
(:mod:`scorio_core.engines.rubric.percentiles`), unknown names and type errors, count tables,
columns whose pandas type cannot be predicted exactly from the DuckDB type (see
:func:`_column_plan`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from scorio_core.engines._sql import EngineUnsupported

__all__ = ["SQLRubric", "ThresholdColumn", "category_case", "compile_rubric", "condition_compiler", "constant_thresholds"]

# ----------------------------------------------------------------------------- SQL fragments
@dataclass
class _Frag:
    """SQL text with ``?`` placeholders and their parameters, in order."""

    text: str
    params: list = field(default_factory=list)

    def __add__(self, other: _Frag) -> _Frag:
        return _Frag(self.text + other.text, self.params + other.params)


def _join(parts, sep: str) -> _Frag:
    out = _Frag("")
    for i, p in enumerate(parts):
        out = out + (_Frag(sep) + p if i else p)
    return out


def _param(value, sql_type: str) -> _Frag:
    return _Frag(f"CAST(? AS {sql_type})", [value])


# ----------------------------------------------------------------------------- translation
@dataclass(frozen=True)
class ThresholdColumn:
    """A threshold whose value differs per task: its column (SQL text, or a Spark column; NULL where undefined)."""

    expr: object


class _SQL:
    """How :func:`_translate` writes DuckDB SQL: :class:`_Frag` text with ``?`` parameters."""

    engine = "DuckDB"

    def const(self, value, kind: str) -> _Frag:
        return _param(value, {"bool": "BOOLEAN", "text": "VARCHAR", "number": "DOUBLE"}[kind])

    def signal(self, expr) -> _Frag:
        return _Frag(expr)

    def paren(self, x: _Frag) -> _Frag:
        return _Frag("(") + x + _Frag(")")

    def not_(self, x: _Frag) -> _Frag:
        return _Frag("(NOT ") + x + _Frag(")")

    def boolop(self, op: str, xs: list) -> _Frag:
        return _Frag("(") + _join(xs, f" {op.upper()} ") + _Frag(")")

    def compare(self, op: str, left: _Frag, right: _Frag) -> _Frag:
        op = {"==": "=", "!=": "<>"}.get(op, op)
        return _Frag("(") + left + _Frag(f" {op} ") + right + _Frag(")")


def _translate(node, signal_sql: Mapping, variables: Mapping, thresholds: Mapping, kinds, depth=0, backend=None):
    """One type-checked expression node -> a backend expression (SQL text by default; Spark columns with
    :class:`scorio_core.engines.rubric.spark.SparkColumns`). Booleans, DOUBLE or text; NaN -> NULL."""
    from scorio_core.rubric.kernel import BOOL, NUMBER
    from scorio_core.rubric.nodes import BoolOp, Compare, Const, Name, Not

    b = backend if backend is not None else _SQL()
    if depth > 2_000:
        raise EngineUnsupported(f"the rubric's conditions nest too deeply for the {b.engine} engine; use --engine pandas.")
    rec = lambda n: _translate(n, signal_sql, variables, thresholds, kinds, depth + 1, b)  # noqa: E731
    if isinstance(node, Const):
        v = node.value
        if isinstance(v, bool):
            return b.const(v, "bool")
        if isinstance(v, str):
            return b.const(v, "text")
        v = float(v)
        return b.const(None if np.isnan(v) else v, "number")
    if isinstance(node, Name):
        name = node.name
        if name in variables:  # inlined, parenthesised
            return b.paren(rec(variables[name]))
        if name in thresholds:
            if isinstance(thresholds[name], ThresholdColumn):  # a per-task value: a column of the relation
                return b.signal(thresholds[name].expr)
            v = float(thresholds[name])
            return b.const(None if np.isnan(v) else v, "number")  # NaN threshold: every comparison unknown
        if name in signal_sql:
            return b.signal(signal_sql[name])
        raise EngineUnsupported(f"rubric name {name!r} is not a column the {b.engine} engine reads; use --engine pandas.")
    if isinstance(node, Not):
        return b.not_(rec(node.operand))
    if isinstance(node, BoolOp):
        return b.boolop(node.op, [rec(o) for o in node.operands])
    assert isinstance(node, Compare)
    kind = kinds(node.left)
    if kind not in (BOOL, NUMBER) and node.op not in ("==", "!="):  # type checking forbids it already
        raise EngineUnsupported(f"'{node.op}' on {kind} values is not supported.")
    return b.compare(node.op, rec(node.left), rec(node.right))


@dataclass(frozen=True)
class SQLRubric:
    """A rubric compiled to SQL.

    Attributes
    ----------
    conditions : tuple of (str, list)
        One ``(sql, params)`` per category ``0..C``: a boolean SQL expression (NULL = unknown); with a Spark
        backend, one boolean ``pyspark.sql.Column`` per category instead.
    labels : tuple of str
        Category labels, length ``C+1``.
    weights : ndarray of shape (C+1,)
        Rubric weights ``w``.
    thresholds : dict of str to float
        Threshold values used (schema order).
    """

    conditions: tuple
    labels: tuple
    weights: np.ndarray
    thresholds: dict

    def case(self) -> tuple[str, list]:
        """``CASE WHEN c0 THEN 0 ... ELSE -1 END`` (first match wins; NULL never matches) and its parameters."""
        return category_case([_Frag(t, list(p)) for t, p in self.conditions])


def category_case(conditions) -> tuple[str, list]:
    """``CASE WHEN <cond_0> THEN 0 WHEN <cond_1> THEN 1 ... ELSE -1 END`` with its parameters."""
    frag = _Frag("CASE")
    for i, c in enumerate(conditions):
        frag = frag + _Frag(" WHEN ") + c + _Frag(f" THEN {int(i)}")
    frag = frag + _Frag(" ELSE -1 END")
    return frag.text, frag.params


def compile_rubric(schema, signal_sql: Mapping, kind_of, frozen: Mapping | None = None, *, backend=None,
                   per_task: Mapping | None = None) -> SQLRubric:
    """Translate a schema into one SQL condition per category (or one Spark column, with ``backend``).

    Parameters
    ----------
    schema : scorio_core.rubric.Schema
        Type-checked against ``kind_of`` first (errors raise as in the pandas engine).
    signal_sql : dict of str to str
        SQL expression of each signal name (a quoted column of the relation; DOUBLE for
        numbers with NaN already NULL, VARCHAR for text).
    kind_of : callable
        ``kind_of(name)`` -> ``"number"``, ``"text"`` or None for signals (as
        :meth:`scorio_core.rubric.SignalTable.kind`).
    frozen : dict of str to float, optional
        Frozen threshold values (``--freeze-thresholds``).
    backend : object, optional
        Expression builder (``const``, ``signal``, ``paren``, ``not_``, ``boolop``, ``compare``, ``engine``);
        the default writes DuckDB SQL, :class:`scorio_core.engines.rubric.spark.SparkColumns` Spark columns
        (``signal_sql`` then maps names to columns and ``conditions`` holds one column per category).
    per_task : dict of str to str or Column, optional
        Column of each percentile threshold computed per task (SQL text, or a Spark column with the
        Spark backend; :mod:`scorio_core.engines.rubric.percentiles`); without it a percentile
        threshold that is not frozen is refused.

    Returns
    -------
    SQLRubric

    Raises
    ------
    EngineUnsupported
        A percentile threshold that is not frozen (its value needs the data), a name without SQL.
    InputError
        Bad frozen values (as :func:`scorio_core.rubric.thresholds.check_frozen`).
    """
    thresholds = constant_thresholds(schema, frozen)
    columns: dict[str, ThresholdColumn] = {}
    for name in schema.threshold_order:
        if name in thresholds:
            continue
        if per_task is None or name not in per_task:
            engine = backend.engine if backend is not None else "DuckDB"
            raise EngineUnsupported(f"threshold {name!r} is a percentile of the data; the {engine} engine supports absolute "
                                    "(or frozen) thresholds only; use --engine pandas.")
        columns[name] = ThresholdColumn(per_task[name])
    translate = condition_compiler(schema, signal_sql, kind_of, backend)
    conditions = []
    for i, c in enumerate(schema.categories):
        expr = translate(f"category:{i}", {**thresholds, **columns}, c.condition, f"condition of category {c.label!r}")
        conditions.append(expr if backend is not None else (expr.text, expr.params))
    return SQLRubric(tuple(conditions), tuple(schema.labels), np.asarray(schema.weights, dtype=float), thresholds)


def constant_thresholds(schema, frozen: Mapping | None) -> dict[str, float]:
    """Values of the thresholds that do not depend on the data: absolute ones and frozen ones (schema order).

    Raises
    ------
    InputError
        Bad frozen values (as :func:`scorio_core.rubric.thresholds.check_frozen`).
    """
    from scorio_core.rubric.thresholds import check_frozen

    values, _ = check_frozen(schema, frozen)
    out: dict[str, float] = {}
    for name in schema.threshold_order:
        t = schema.threshold_map[name]
        if name in values:
            out[name] = values[name]
        elif t.kind == "absolute":
            out[name] = float(t.value)
    return out


def condition_compiler(schema, signal_sql: Mapping, kind_of, backend=None):
    """``translate(key, thresholds, text, what)``: the expression ``key`` of :meth:`Schema.expressions`
    (``category:<i>``, ``where:<name>``), type-checked, as a backend expression; thresholds given as
    numbers or :class:`ThresholdColumn`; ``text`` (the source) and ``what`` name it in type errors."""
    from scorio_core.rubric.kernel import BOOL, NUMBER, TEXT, check
    from scorio_core.rubric.nodes import BoolOp, Compare, Const, Name, Not

    exprs = schema.expressions()
    variables = {v.name: exprs[f"variable:{v.name}"] for v in schema.variables}

    def kind_name(name: str):
        if name in schema.variable_map:
            return BOOL
        if name in schema.threshold_map:
            return NUMBER
        return kind_of(name)

    def kinds(node):
        if isinstance(node, Const):
            return BOOL if isinstance(node.value, bool) else TEXT if isinstance(node.value, str) else NUMBER
        if isinstance(node, Name):
            return kind_name(node.name)
        if isinstance(node, (Not, BoolOp, Compare)):
            return BOOL
        return None  # pragma: no cover

    def translate(key: str, thresholds: Mapping, text: str, what: str):
        check(exprs[key], kind_name, text, what)
        return _translate(exprs[key], signal_sql, variables, thresholds, kinds, backend=backend)

    return translate


