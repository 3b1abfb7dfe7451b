"""AST of the rubric condition language, its printer and its error type.

Nodes are frozen dataclasses; positions (0-based character offsets) are carried for error
messages but ignored by equality, so equal texts give equal trees. :func:`to_source` prints
a tree back to canonical text and ``parse(to_source(tree)) == tree`` for parsed trees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorio_core.errors import InputError

__all__ = [
    "COMPARISONS",
    "BoolOp",
    "Compare",
    "Const",
    "ExpressionError",
    "Name",
    "Node",
    "Not",
    "names",
    "to_source",
]

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
_KEYWORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false"}
_PY_KEYWORDS = frozenset(
    ["lambda", "import", "from", "as", "def", "class", "return", "yield", "await", "async", "with", "while", "for", "in", "is", "if", "else", "elif", "del", "global", "nonlocal", "pass", "raise", "try", "except", "finally", "assert", "break", "continue", "none"]
)


class ExpressionError(InputError):
    """A condition that is not a valid expression of the rubric language.

    Parameters
    ----------
    message : str
        What is wrong, without location.
    expression : str
        The full expression text.
    position : int
        0-based character offset of the problem (rendered 1-based).
    where : str, optional
        What the expression belongs to, e.g. ``"condition of category 'wrong'"``.
    """

    def __init__(self, message: str, expression: str, position: int, where: str | None = None):
        self.expression = expression
        self.position = position
        self.detail = message
        self.where = where
        start = max(0, position - 20)
        snippet = expression[start : position + 20].replace("\n", " ")
        if start > 0:
            snippet = "..." + snippet
        if position + 20 < len(expression):
            snippet += "..."
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{message} at position {position + 1} in {snippet!r}.", field=where)

    def located(self, where: str) -> ExpressionError:
        """Return the same error attributed to ``where`` (e.g. a category's condition)."""
        return ExpressionError(self.detail, self.expression, self.position, where)


# ----------------------------------------------------------------------------- AST nodes
@dataclass(frozen=True)
class Name:
    """A reference to a rubric variable, a threshold or a signal column."""

    name: str
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Const:
    """A literal: float (numbers), str (quoted text) or bool (true/false)."""

    value: float | str | bool
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Not:
    """Logical negation (three-valued: not unknown is unknown)."""

    operand: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True)
class BoolOp:
    """N-ary ``and`` / ``or`` over two or more operands."""

    op: str
    operands: tuple
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Compare:
    """One binary comparison ``left op right`` with op in ``== != < <= > >=``."""

    op: str
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)


Node = Name | Const | Not | BoolOp | Compare


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def _is_name_start(ch: str) -> bool:
    return ch == "_" or ("a" <= ch <= "z") or ("A" <= ch <= "Z")


def _is_name_char(ch: str) -> bool:
    return _is_name_start(ch) or _is_digit(ch)


def names(node: Node) -> list[str]:
    """Names referenced by an expression, in first-appearance order, without repeats.

    >>> from scorio_core.rubric.expr import parse
    >>> names(parse("a < b and not (c or a == 1)"))
    ['a', 'b', 'c']
    """
    seen: dict[str, None] = {}
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Name):
            seen.setdefault(cur.name, None)
        elif isinstance(cur, Not):
            stack.append(cur.operand)
        elif isinstance(cur, BoolOp):
            stack.extend(reversed(cur.operands))
        elif isinstance(cur, Compare):
            stack.extend((cur.right, cur.left))
    return list(seen)


_PRECEDENCE = {"or": 1, "and": 2}


def to_source(node: Node) -> str:
    """Render an AST back to canonical condition text (``parse(to_source(t)) == t``).

    >>> from scorio_core.rubric.expr import parse
    >>> to_source(parse("(a || b) && !(x=1)"))
    '(a or b) and not x == 1'
    """
    return _render(node, 0)


def _render(node: Node, parent: int) -> str:
    if isinstance(node, Name):
        return node.name if _plain_name(node.name) else f"`{node.name}`"
    if isinstance(node, Const):
        return _render_const(node.value)
    if isinstance(node, Not):
        text = "not " + _render(node.operand, 3)
        return f"({text})" if parent > 3 else text
    if isinstance(node, BoolOp):
        prec = _PRECEDENCE[node.op]
        text = f" {node.op} ".join(_render(op, prec + (_op_is(op, node.op))) for op in node.operands)
        return f"({text})" if parent >= prec else text
    if isinstance(node, Compare):
        text = f"{_render(node.left, 4)} {node.op} {_render(node.right, 4)}"
        return f"({text})" if parent >= 4 else text
    raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover


def _op_is(node: Node, op: str) -> int:
    """1 when ``node`` is a BoolOp of kind ``op`` (needs parentheses to keep its shape)."""
    return int(isinstance(node, BoolOp) and node.op == op)


def _plain_name(name: str) -> bool:
    return (
        bool(name)
        and _is_name_start(name[0])
        and all(_is_name_char(c) for c in name)
        and name.lower() not in _KEYWORDS
        and name.lower() not in _PY_KEYWORDS
        and not name.startswith("__")
    )


def _render_const(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'" if '"' in value else f'"{value}"'
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))
