"""Spark column expressions for rubric conditions (:func:`scorio_core.engines.rubric.sql.compile_rubric`'s Spark backend).

Spark's ``AND``/``OR``/``NOT`` and comparisons are SQL's three-valued logic (NULL = unknown), as
DuckDB's; constants travel as ``lit`` values, never as formatted text. Used by the Spark rubric
counts (:mod:`scorio_core.engines.rubric.spark`) and Spark percentile thresholds
(:mod:`scorio_core.engines.rubric.percentiles`).
"""

from __future__ import annotations

import functools
import operator

__all__ = ["SparkColumns"]

_SPARK_TYPES = {"bool": "boolean", "text": "string", "number": "double"}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class SparkColumns:
    """Expression builder for :func:`~scorio_core.engines.rubric.sql.compile_rubric`: rubric nodes -> Spark columns."""

    engine = "Spark"

    def const(self, value, kind: str):
        from pyspark.sql import functions as F

        return F.lit(value).cast(_SPARK_TYPES[kind])

    def signal(self, column):
        return column

    def paren(self, x):
        return x

    def not_(self, x):
        return ~x

    def boolop(self, op: str, xs: list):
        return functools.reduce(operator.and_ if op == "and" else operator.or_, xs)

    def compare(self, op: str, left, right):
        return _COMPARE[op](left, right)
