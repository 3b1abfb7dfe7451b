"""Rubric schemas: thresholds, rubric variables and ordered categories with weights.

A schema maps every attempt to one of the categories ``0..C`` (paper Appendix F.1 and F.2):
the first category whose condition is true wins. Conditions are written in the safe
language of :mod:`scorio_core.rubric.expr` over

* **thresholds** (paper Table 4): named numbers, absolute (``value``) or a percentile of a
  signal over the analysed attempts (``percentile``, ``of``, optional ``where`` filter);
* **rubric variables** (paper Table 4): named true/false conditions, e.g.
  ``high_conf: completion_bpt <= tau_high``;
* **signals**: columns of the attempt table (:mod:`scorio_core.rubric.signals`).

Schemas are immutable and hashable; every expression is parsed and every reference checked
(no cycles between variables and thresholds) when the schema is built.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np

from scorio_core.errors import InputError
from scorio_core.rubric.expr import parse
from scorio_core.rubric.nodes import (
    _KEYWORDS,
    _PY_KEYWORDS,
    Node,
    _is_name_char,
    _is_name_start,
    names,
)

__all__ = ["MAX_ITEMS", "Category", "Schema", "Threshold", "Variable"]

MAX_ITEMS = 256
MAX_LABEL_CHARS = 200
MAX_NAME_CHARS = 64


def _check_identifier(name: object, what: str) -> str:
    if not isinstance(name, str) or not name:
        raise InputError(f"{what} must be a non-empty string; got {name!r}.")
    ok = (
        len(name) <= MAX_NAME_CHARS
        and _is_name_start(name[0])
        and all(_is_name_char(c) for c in name)
        and name.lower() not in _KEYWORDS
        and name.lower() not in _PY_KEYWORDS
        and not name.startswith("__")
    )
    if not ok:
        raise InputError(
            f"{what} must be a name of letters, digits and '_' (not starting with a digit or "
            f"'__', at most {MAX_NAME_CHARS} characters, not a keyword); got {name!r}."
        )
    return name


def _check_text(value: object, what: str, limit: int, allow_empty: bool = True) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()) or len(value) > limit:
        rule = "a non-empty string" if not allow_empty else "a string"
        raise InputError(f"{what} must be {rule} of at most {limit} characters; got {value!r:.80}.")
    return value


def _check_condition(text: object, what: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{what} must be a non-empty string; got {text!r:.80}.")
    parse(text, what)  # ExpressionError (an InputError) with the position of the problem


#: Largest rubric weight magnitude accepted from users (scores stay finite in every sum).
MAX_ABS_WEIGHT = 1e6


def _check_number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputError(f"{what} must be a number; got {value!r}.")
    if not math.isfinite(float(value)):
        raise InputError(f"{what} must be finite; got {value!r}.")
    return float(value)


@dataclass(frozen=True)
class Threshold:
    """A named number used in conditions: absolute, or a percentile of the data.

    Parameters
    ----------
    name : str
        Identifier used in conditions, e.g. ``tau_high``.
    value : float, optional
        Absolute value. Exactly one of ``value`` and ``percentile`` is given.
    percentile : float, optional
        Percentile in [0, 100] of signal ``of`` over the analysed attempts (numpy's default
        linear method, NaN and infinite values excluded, pooled across models).
    of : str, optional
        Signal the percentile is taken of (required with ``percentile``).
    where : str, optional
        Condition selecting the attempts the percentile is taken over, e.g. ``wrong``
        (paper Table 4: tau_low_wrong is the 60th percentile among wrong attempts).
    description : str
        Free text shown in the app.
    """

    name: str
    value: float | None = None
    percentile: float | None = None
    of: str | None = None
    where: str | None = None
    description: str = ""

    def __post_init__(self) -> None:
        _check_identifier(self.name, "threshold name")
        what = f"threshold {self.name!r}"
        _check_text(self.description, f"description of {what}", 2_000)
        if (self.value is None) == (self.percentile is None):
            raise InputError(f"{what} needs exactly one of 'value' (absolute) and 'percentile'.")
        if self.value is not None:
            object.__setattr__(self, "value", _check_number(self.value, f"value of {what}"))
            if self.of is not None or self.where is not None:
                raise InputError(f"{what}: 'of' and 'where' only go with 'percentile'.")
            return
        q = _check_number(self.percentile, f"percentile of {what}")
        if not 0.0 <= q <= 100.0:
            raise InputError(f"percentile of {what} must be in [0, 100]; got {self.percentile!r}.")
        object.__setattr__(self, "percentile", q)
        _check_text(self.of, f"'of' (the signal) of {what}", MAX_LABEL_CHARS, allow_empty=False)
        if self.where is not None:
            _check_condition(self.where, f"'where' of {what}")

    @property
    def kind(self) -> str:
        """``"absolute"`` or ``"percentile"``."""
        return "absolute" if self.value is not None else "percentile"


@dataclass(frozen=True)
class Variable:
    """A named true/false rubric variable, e.g. ``wrong: is_correct < 0.5`` (paper Table 4)."""

    name: str
    condition: str
    description: str = ""

    def __post_init__(self) -> None:
        _check_identifier(self.name, "variable name")
        _check_text(self.description, f"description of variable {self.name!r}", 2_000)
        _check_condition(self.condition, f"condition of variable {self.name!r}")


@dataclass(frozen=True)
class Category:
    """One outcome category: label, condition (first match wins) and rubric weight."""

    label: str
    condition: str
    weight: float
    description: str = ""

    def __post_init__(self) -> None:
        _check_text(self.label, "category label", MAX_LABEL_CHARS, allow_empty=False)
        what = f"category {self.label!r}"
        weight = _check_number(self.weight, f"weight of {what}")
        if abs(weight) > MAX_ABS_WEIGHT:
            raise InputError(f"weight of {what} must lie in [-{MAX_ABS_WEIGHT:g}, {MAX_ABS_WEIGHT:g}]; got {self.weight!r}. "
                             "Rescale the weights (only their ratios and differences matter for the ranking).")
        object.__setattr__(self, "weight", weight)
        _check_text(self.description, f"description of {what}", 2_000)
        _check_condition(self.condition, f"condition of {what}")


@dataclass(frozen=True)
class Schema:
    """An ordered categorical rubric (paper Appendix F, Tables 4 and 5).

    Parameters
    ----------
    name : str
        Display name, e.g. ``"Format Aware"``.
    categories : sequence of Category
        Categories ``0..C`` in order; an attempt gets the first category whose condition is
        true. Category 0 is conventionally "invalid" in the paper's schemata.
    variables : sequence of Variable
        Rubric variables the conditions may use (may refer to each other, without cycles).
    thresholds : sequence of Threshold
        Thresholds the conditions may use.
    description, source : str
        What the rubric measures; where it comes from (paper table, package, user).
    origin : str, optional
        File name the schema was read from (:func:`~scorio_core.rubric.load_schema`): errors found
        when it meets data name it. Not part of the schema's identity (equality, hash, JSON).

    Raises
    ------
    InputError
        On an invalid name, label, weight or condition, duplicate labels or names, more
        than 256 categories/variables/thresholds, or a cycle between variables/thresholds.

    Examples
    --------
    >>> s = Schema("Binary", [Category("wrong", "is_correct < 0.5", 0),
    ...                       Category("correct", "is_correct >= 0.5", 1)])
    >>> s.labels, s.weights.tolist(), s.signals
    (('wrong', 'correct'), [0.0, 1.0], ('is_correct',))
    """

    name: str
    categories: tuple = ()
    variables: tuple = ()
    thresholds: tuple = ()
    description: str = ""
    source: str = ""
    origin: str = dataclasses.field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_text(self.name, "schema name", MAX_LABEL_CHARS, allow_empty=False)
        _check_text(self.description, "schema description", 5_000)
        _check_text(self.source, "schema source", 2_000)
        for attr, cls in (("categories", Category), ("variables", Variable), ("thresholds", Threshold)):
            items = getattr(self, attr)
            if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
                raise InputError(f"schema {attr} must be a list; got {type(items).__name__}.")
            items = tuple(items)
            if len(items) > MAX_ITEMS:
                raise InputError(f"a schema has at most {MAX_ITEMS} {attr}; got {len(items)}.")
            for item in items:
                if not isinstance(item, cls):
                    raise InputError(f"schema {attr} must hold {cls.__name__} objects; got {item!r:.80}.")
            object.__setattr__(self, attr, items)
        if not self.categories:
            raise InputError(f"schema {self.name!r} needs at least one category.")
        _no_duplicates([c.label for c in self.categories], "category label")
        _no_duplicates([v.name for v in self.variables] + [t.name for t in self.thresholds],
                       "variable/threshold name")
        _ = self.dependency_order  # computed now: raises on a cycle

    # -------------------------------------------------------------- derived views
    @property
    def labels(self) -> tuple[str, ...]:
        """Category labels, shape ``(C+1,)``."""
        return tuple(c.label for c in self.categories)

    @property
    def weights(self) -> np.ndarray:
        """Rubric weights ``w`` of shape ``(C+1,)``, float64 (a fresh array)."""
        return np.array([c.weight for c in self.categories], dtype=np.float64)

    @functools.cached_property
    def variable_map(self) -> dict[str, Variable]:
        """Variables by name."""
        return {v.name: v for v in self.variables}

    @functools.cached_property
    def threshold_map(self) -> dict[str, Threshold]:
        """Thresholds by name."""
        return {t.name: t for t in self.thresholds}

    @functools.cached_property
    def signals(self) -> tuple[str, ...]:
        """Signal names the schema reads (neither variables nor thresholds), in order."""
        defined = self.variable_map.keys() | self.threshold_map.keys()
        seen: dict[str, None] = {}
        for node in self.expressions().values():
            for name in names(node):
                if name not in defined:
                    seen.setdefault(name, None)
        for t in self.thresholds:
            if t.of is not None:
                seen.setdefault(t.of, None)
        return tuple(seen)

    def expressions(self) -> dict[str, Node]:
        """Every parsed expression, keyed ``category:<i>``, ``variable:<name>``, ``where:<name>``."""
        out: dict[str, Node] = {}
        for v in self.variables:
            out[f"variable:{v.name}"] = parse(v.condition)
        for t in self.thresholds:
            if t.where is not None:
                out[f"where:{t.name}"] = parse(t.where)
        for i, c in enumerate(self.categories):
            out[f"category:{i}"] = parse(c.condition)
        return out

    @property
    def threshold_order(self) -> tuple[str, ...]:
        """Threshold names in an order where each one's ``where`` only needs earlier ones."""
        return tuple(n for n in self.dependency_order if n in self.threshold_map)

    # -------------------------------------------------------------- edits
    def with_weights(self, weights) -> Schema:
        """Return a copy with new weights (length ``C+1``), keeping everything else."""
        values = list(np.ravel(np.asarray(weights, dtype=object)))
        if len(values) != len(self.categories):
            raise InputError(
                f"weights must have one value per category ({len(self.categories)}); got {len(values)}."
            )
        cats = tuple(dataclasses.replace(c, weight=w) for c, w in zip(self.categories, values))
        return dataclasses.replace(self, categories=cats)

    def replace(self, **changes) -> Schema:
        """Return a copy with fields replaced (validated again)."""
        return dataclasses.replace(self, **changes)

    # -------------------------------------------------------------- internals
    @functools.cached_property
    def dependency_order(self) -> tuple[str, ...]:
        """Variable and threshold names, each after everything it refers to."""
        deps: dict[str, list[str]] = {}
        defined = {v.name for v in self.variables} | {t.name for t in self.thresholds}
        for v in self.variables:
            deps[v.name] = [n for n in names(parse(v.condition)) if n in defined]
        for t in self.thresholds:
            if t.of in defined:
                raise InputError(
                    f"threshold {t.name!r}: 'of' must name a signal; {t.of!r} is a variable or threshold."
                )
            deps[t.name] = [n for n in names(parse(t.where)) if n in defined] if t.where else []
        order: list[str] = []
        state: dict[str, int] = {}  # 1 = visiting, 2 = done

        for start, first in deps.items():  # iterative depth-first search: no recursion limit
            if state.get(start):
                continue
            stack = [(start, iter(first))]
            state[start] = 1
            while stack:
                node, children = stack[-1]
                child = next(children, None)
                if child is None:
                    stack.pop()
                    state[node] = 2
                    order.append(node)
                elif state.get(child) == 1:
                    path = [n for n, _ in stack]
                    cycle = path[path.index(child):] + [child]
                    raise InputError("variables and thresholds refer to each other in a cycle: "
                                     + " -> ".join(cycle) + ".")
                elif not state.get(child):
                    state[child] = 1
                    stack.append((child, iter(deps[child])))
        return tuple(order)


def _no_duplicates(items: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item in seen:
            raise InputError(f"duplicate {what} {item!r}; each must be unique.")
        seen.add(item)
