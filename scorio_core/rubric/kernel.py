"""Vectorized three-valued evaluation of parsed conditions (numpy only).

A boolean value is a pair ``(T, F)`` of boolean arrays (or numpy bool scalars): ``T`` marks
attempts where the condition is definitely true, ``F`` where it is definitely false, and
neither where it is unknown because a signal it needs is missing (NaN). This is Kleene's
strong three-valued logic, the one SQL uses for NULL:

* a comparison with a missing operand is unknown (``x < t`` and ``x >= t`` are both
  unknown when ``x`` is NaN), so ``not`` never turns a missing value into a match;
* ``a and b`` is false as soon as one side is false, ``a or b`` true as soon as one side is
  true, whatever the other side;
* a category matches only where its condition is definitely true.

Numbers are float64 arrays or Python floats; text columns are :class:`TextColumn` codes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from typing import NamedTuple

import numpy as np

from scorio_core.rubric.nodes import BoolOp, Compare, Const, ExpressionError, Name, Node, Not

__all__ = ["Lookup", "TextColumn", "as_mask", "check", "evaluate"]

BOOL, NUMBER, TEXT = "true/false", "number", "text"


class TextColumn(NamedTuple):
    """A text signal as integer codes (-1 = missing) and the code of each distinct value."""

    codes: np.ndarray
    index: dict


# lookup(name) -> (kind, value); kind in {BOOL, NUMBER, TEXT}; None if the name is unknown.
Lookup = Callable[[str], "tuple[str, object] | None"]


def check(node: Node, kind_of: Callable[[str], str | None], text: str, where: str | None = None) -> None:
    """Type-check a condition before evaluating it.

    Parameters
    ----------
    node : Node
        Parsed condition.
    kind_of : callable
        ``kind_of(name)`` returns ``"true/false"`` (rubric variables), ``"number"``
        (thresholds, numeric signals) or ``"text"`` (text signals), or None if unknown.
    text : str
        The condition text (for error positions).
    where : str, optional
        Context for messages.

    Raises
    ------
    ExpressionError
        If the whole condition is not true/false, a name is unknown, ``and``/``or``/``not``
        get a number or text, or a comparison mixes kinds (``<`` on text or true/false,
        number vs text, two text signals).
    """

    def fail(message: str, pos: int):
        raise ExpressionError(message, text, pos, where)

    def kind(cur: Node) -> str:
        if isinstance(cur, Const):
            value = cur.value
            return BOOL if isinstance(value, bool) else TEXT if isinstance(value, str) else NUMBER
        if isinstance(cur, Name):
            found = kind_of(cur.name)
            if found is None:
                fail(f"unknown name {cur.name!r}", cur.pos)
            return found
        if isinstance(cur, Not):
            need_bool(cur.operand, "'not'")
            return BOOL
        if isinstance(cur, BoolOp):
            for operand in cur.operands:
                need_bool(operand, f"'{cur.op}'")
            return BOOL
        left, right = kind(cur.left), kind(cur.right)
        if left != right:
            hint = ""
            for side, k in ((cur.left, left), (cur.right, right)):
                if k == BOOL and isinstance(side, Name):
                    hint = f" ({side.name!r} is already true/false: use it directly, or 'not {side.name}')"
            fail(f"cannot compare a {left} with a {right}{hint}", cur.pos)
        if left in (BOOL, TEXT) and cur.op not in ("==", "!="):
            fail(f"'{cur.op}' needs numbers; {left} values only support == and !=", cur.pos)
        if left == TEXT and not (isinstance(cur.left, Const) or isinstance(cur.right, Const)):
            fail("comparing two text signals is not supported; compare one with a quoted string", cur.pos)
        return BOOL

    def need_bool(cur: Node, what: str) -> None:
        got = kind(cur)
        if got != BOOL:
            shown = f"{cur.name!r} is a {got}" if isinstance(cur, Name) else f"this is a {got}"
            example = f"{cur.name} >= 0.5" if isinstance(cur, Name) and got == NUMBER else "x == 'value'"
            fail(f"{what} needs a true/false value but {shown}; compare it, e.g. {example}", cur.pos)

    need_bool(node, "a condition")


def evaluate(node: Node, lookup: Lookup):
    """Evaluate a type-checked condition; returns ``(T, F)`` for true/false nodes.

    Parameters
    ----------
    node : Node
        A tree accepted by :func:`check`.
    lookup : callable
        ``lookup(name) -> (kind, value)`` with value ``(T, F)`` for true/false names, a
        float or float64 array of shape ``(n,)`` (NaN = missing) for numbers, a str or
        :class:`TextColumn` for text.

    Returns
    -------
    tuple of (ndarray or numpy.bool_, ndarray or numpy.bool_)
        ``T`` (definitely true) and ``F`` (definitely false), disjoint, broadcastable to
        ``(n,)``.
    """
    if isinstance(node, Const):
        value = node.value
        if isinstance(value, bool):
            return np.bool_(value), np.bool_(not value)
        return value
    if isinstance(node, Name):
        return lookup(node.name)[1]
    if isinstance(node, Not):
        true, false = evaluate(node.operand, lookup)
        return false, true
    if isinstance(node, BoolOp):
        parts = [evaluate(operand, lookup) for operand in node.operands]
        trues = [p[0] for p in parts]
        falses = [p[1] for p in parts]
        if node.op == "and":
            return reduce(np.logical_and, trues), reduce(np.logical_or, falses)
        return reduce(np.logical_or, trues), reduce(np.logical_and, falses)
    assert isinstance(node, Compare)
    return _compare(node.op, evaluate(node.left, lookup), evaluate(node.right, lookup))


def _compare(op: str, left, right):
    if isinstance(left, tuple) and not isinstance(left, TextColumn):
        (t1, f1), (t2, f2) = left, right
        same = (t1 & t2) | (f1 & f2)
        differ = (t1 & f2) | (f1 & t2)
        return (same, differ) if op == "==" else (differ, same)
    if isinstance(left, (str, TextColumn)) or isinstance(right, (str, TextColumn)):
        return _compare_text(op, left, right)
    # Numbers: every numpy comparison with NaN is False, so T and F are both False there.
    if op == "<":
        return np.less(left, right), np.greater_equal(left, right)
    if op == "<=":
        return np.less_equal(left, right), np.greater(left, right)
    if op == ">":
        return np.greater(left, right), np.less_equal(left, right)
    if op == ">=":
        return np.greater_equal(left, right), np.less(left, right)
    equal = np.equal(left, right)
    differ = np.less(left, right) | np.greater(left, right)  # NaN-safe "!="
    return (equal, differ) if op == "==" else (differ, equal)


def _compare_text(op: str, left, right):
    if isinstance(left, str) and isinstance(right, str):
        equal, differ = np.bool_(left == right), np.bool_(left != right)
    else:
        column, literal = (left, right) if isinstance(left, TextColumn) else (right, left)
        code = column.index.get(literal)
        known = column.codes >= 0
        equal = column.codes == code if code is not None else np.zeros(column.codes.shape, bool)
        differ = known & ~equal
    return (equal, differ) if op == "==" else (differ, equal)


def as_mask(value, n: int) -> np.ndarray:
    """Broadcast one side (``T`` or ``F``) of a result to a boolean array of shape ``(n,)``."""
    array = np.asarray(value, dtype=bool)
    return np.broadcast_to(array, (n,)) if array.shape != (n,) else array
