"""Static check for conditions that can never be true, whatever the data.

The condition is expanded (rubric variables inlined), put in negation normal form and then
in disjunctive normal form; each conjunction is checked for bounds on one signal that
cannot hold together (``is_correct >= 0.5 and is_correct < 0.5``, ``x <= tau and
x > tau``, ``reason == "stop" and reason == "length"``). Percentile thresholds are
compared only with themselves (their value depends on the data); absolute thresholds by
value. The check is sound but incomplete: "never" is only reported when proven, and
large conditions (over 256 conjunctions) are not analysed.
"""

from __future__ import annotations

from itertools import product

from scorio_core.rubric.nodes import BoolOp, Compare, Const, Name, Node, Not, to_source

__all__ = ["never_true"]

MAX_TERMS = 256
MAX_NODES = 5_000
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


class _TooBig(Exception):
    pass


def never_true(node: Node, variables: dict, absolute: dict, thresholds=frozenset()) -> str | None:
    """Return why ``node`` can never be true, or None if that is not proven.

    Parameters
    ----------
    node : Node
        Parsed, type-checked condition.
    variables : dict
        Parsed condition of every rubric variable, by name.
    absolute : dict
        Values of absolute thresholds, by name (percentile thresholds are left symbolic).
    thresholds : set of str
        Names of all thresholds (kept on the right-hand side of comparisons).
    """
    try:
        terms = _dnf(_inline(node, variables, [0]), True)
    except _TooBig:
        return None
    reasons = []
    for term in terms:
        reason = _contradiction(term, absolute, thresholds)
        if reason is None:
            return None
        reasons.append(reason)
    return reasons[0] if reasons else "it is the constant false"


def _inline(node: Node, variables: dict, count: list) -> Node:
    count[0] += 1
    if count[0] > MAX_NODES:
        raise _TooBig
    if isinstance(node, Name) and node.name in variables:
        return _inline(variables[node.name], variables, count)
    if isinstance(node, Not):
        return Not(_inline(node.operand, variables, count))
    if isinstance(node, BoolOp):
        return BoolOp(node.op, tuple(_inline(o, variables, count) for o in node.operands))
    if isinstance(node, Compare) and any(
        _is_bool(side) or (isinstance(side, Name) and side.name in variables) for side in (node.left, node.right)
    ):
        a, b = _inline(node.left, variables, count), _inline(node.right, variables, count)
        same = BoolOp("or", (BoolOp("and", (a, b)), BoolOp("and", (Not(a), Not(b)))))
        differ = BoolOp("or", (BoolOp("and", (a, Not(b))), BoolOp("and", (Not(a), b))))
        return same if node.op == "==" else differ
    return node


def _is_bool(node: Node) -> bool:
    # After type checking, an operand is true/false iff it is a boolean literal, a logical
    # node, a comparison, or a variable name (variables are inlined before this is asked).
    return isinstance(node, (Not, BoolOp, Compare)) or (isinstance(node, Const) and isinstance(node.value, bool))


def _dnf(node: Node, positive: bool) -> list[tuple]:
    """Conjunctions (tuples of atoms) whose disjunction is ``node`` (negated if not positive)."""
    if isinstance(node, Not):
        return _dnf(node.operand, not positive)
    if isinstance(node, Const) and isinstance(node.value, bool):
        return [()] if node.value == positive else []
    if isinstance(node, BoolOp):
        conjunctive = (node.op == "and") == positive
        parts = [_dnf(o, positive) for o in node.operands]
        if not conjunctive:
            out = [t for p in parts for t in p]
        else:
            out = [()]
            for p in parts:
                out = [a + b for a, b in product(out, p)]
                if len(out) > MAX_TERMS:
                    raise _TooBig
        if len(out) > MAX_TERMS:
            raise _TooBig
        return out
    if isinstance(node, Compare):
        op = node.op if positive else _NEGATE[node.op]
        return [(Compare(op, node.left, node.right),)]
    return [()]  # a bare name that is not a variable: unconstrained


def _bound(node: Node, absolute: dict):
    """A comparable bound: ("num", float), ("sym", name), ("str", text), or None."""
    if isinstance(node, Const):
        return ("str", node.value) if isinstance(node.value, str) else ("num", float(node.value))
    if isinstance(node, Name) and node.name in absolute:
        return ("num", float(absolute[node.name]))
    return None


def _contradiction(term: tuple, absolute: dict, thresholds) -> str | None:
    lows: dict[str, list] = {}
    highs: dict[str, list] = {}
    equal: dict[str, list] = {}
    unequal: dict[str, list] = {}
    for atom in term:
        left, right, op = atom.left, atom.right, atom.op
        if isinstance(left, Name) and left.name in thresholds and not (
            isinstance(right, Name) and right.name in thresholds
        ):
            left, right, op = right, left, _FLIP[op]  # "tau < x" is read as "x > tau"
        lb, rb = _bound(left, absolute), _bound(right, absolute)
        if lb is not None and rb is not None:  # constant comparison
            if not _holds(op, lb, rb):
                return f"{to_source(atom)!r} is false"
            continue
        if isinstance(left, Name) and rb is None and isinstance(right, Name) and right.name not in absolute:
            rb = ("sym", right.name)  # signal vs percentile threshold (or vs another signal)
        elif lb is not None:
            left, right, op, rb = right, left, _FLIP[op], lb
        if not isinstance(left, Name) or rb is None:
            continue
        key = left.name
        entry = (rb, atom)
        if op in ("<", "<="):
            highs.setdefault(key, []).append((rb, op == "<", atom))
        elif op in (">", ">="):
            lows.setdefault(key, []).append((rb, op == ">", atom))
        elif op == "==":
            equal.setdefault(key, []).append(entry)
            lows.setdefault(key, []).append((rb, False, atom))
            highs.setdefault(key, []).append((rb, False, atom))
        else:
            unequal.setdefault(key, []).append(entry)
    for key in lows.keys() & highs.keys():
        for (lo, lo_strict, a), (hi, hi_strict, b) in product(lows[key], highs[key]):
            order = _order(lo, hi)
            if order is not None and (order > 0 or (order == 0 and (lo_strict or hi_strict))):
                return f"{to_source(a)!r} and {to_source(b)!r} cannot both hold"
    for key in equal.keys() & unequal.keys():
        for (v, a), (w, b) in product(equal[key], unequal[key]):
            if _order(v, w) == 0:
                return f"{to_source(a)!r} and {to_source(b)!r} cannot both hold"
    return None


def _order(a, b) -> int | None:
    """-1, 0, 1 comparing two bounds, or None when they are not comparable."""
    if a[0] != b[0]:
        return None
    if a[0] == "sym":
        return 0 if a[1] == b[1] else None
    if a[0] == "str":
        return 0 if a[1] == b[1] else 1  # two different texts: "x == 'a' and x == 'b'" fails
    return (a[1] > b[1]) - (a[1] < b[1])


def _holds(op: str, a, b) -> bool:
    if a[0] != b[0]:
        return True
    x, y = a[1], b[1]
    if op in ("==", "!="):
        return (x == y) == (op == "==")
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
