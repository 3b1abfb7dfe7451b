"""Rubric engine: base signals -> rubric variables -> categories (paper Appendix F).

Every attempt of an evaluation dump is mapped to one of the categories ``0..C`` of a
schema; Bayes@N then scores the category codes with the schema's weights ``w``
(Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix F.1 and F.2,
Tables 4 and 5). Pure numpy/pandas, no Streamlit.

Typical use::

    from scorio_core import rubric
    cat = rubric.categorize(attempts, "Format Aware", max_tokens=32768)
    cat.codes, cat.labels, cat.weights, cat.thresholds, cat.coverage

    bound = rubric.bind(attempts, "Efficiency-Adjusted")      # sensitivity loops
    codes = bound.codes(percentile_shift={"len_p33": 5.0})

Conditions are parsed by a hand-written parser (:mod:`scorio_core.rubric.expr`) and never
executed as Python.
"""

from scorio_core.rubric.builtins import (
    BUILTIN_SCHEMAS,
    CATEGORY_CODES_SCHEMA,
    DEFAULT_SCHEMA,
    FORMAT_CODE_SCALES,
    SCALE_COLUMN,
    category_code_schema,
    code_weights_text,
    default_schema_for,
    default_schema_note,
    get_schema,
    list_schemas,
)
from scorio_core.rubric.coverage import CoverageReport, Issue
from scorio_core.rubric.engine import (
    BoundRubric,
    Categorization,
    CategoryCounts,
    bind,
    categorize,
    category_counts,
    compute_thresholds,
    validate,
)
from scorio_core.rubric.expr import ExpressionError, parse, to_source
from scorio_core.rubric.jsonio import (
    load_schema,
    resolve_schema,
    schema_from_json,
    schema_to_dict,
    schema_to_json,
)
from scorio_core.rubric.schema import Category, Schema, Threshold, Variable
from scorio_core.rubric.signals import KNOWN_SIGNALS, SignalInfo, derive_signals, list_signals
from scorio_core.rubric.table import Example, SignalTable
from scorio_core.rubric.thresholds import ThresholdValue

__all__ = [
    "BUILTIN_SCHEMAS",
    "CATEGORY_CODES_SCHEMA",
    "DEFAULT_SCHEMA",
    "FORMAT_CODE_SCALES",
    "KNOWN_SIGNALS",
    "SCALE_COLUMN",
    "BoundRubric",
    "Categorization",
    "Category",
    "CategoryCounts",
    "CoverageReport",
    "Example",
    "ExpressionError",
    "Issue",
    "Schema",
    "SignalInfo",
    "SignalTable",
    "Threshold",
    "ThresholdValue",
    "Variable",
    "bind",
    "categorize",
    "category_code_schema",
    "category_counts",
    "code_weights_text",
    "compute_thresholds",
    "default_schema_for",
    "default_schema_note",
    "derive_signals",
    "get_schema",
    "list_schemas",
    "list_signals",
    "load_schema",
    "parse",
    "resolve_schema",
    "schema_from_json",
    "schema_to_dict",
    "schema_to_json",
    "to_source",
    "validate",
]
