"""Safe condition language of rubric schemas: tokenizer, parser, AST, printer.

A condition is a boolean expression over rubric variables, thresholds and signals::

    wrong and (boxed or completion_bpt <= tau_high)
    len_p33 < token_ratio <= len_p66
    finish_reason != "stop"

Grammar (``not`` binds looser than comparisons, as in Python)::

    expr       := or
    or         := and   (("or" | "||" | "|" | "∨") and)*
    and        := not   (("and" | "&&" | "&" | "∧") not)*
    not        := ("not" | "!" | "¬") not | comparison
    comparison := operand (CMP operand)*         CMP: == = != ≠ < <= ≤ > >= ≥
    operand    := NUMBER | "-" NUMBER | STRING | true | false | NAME | `quoted name`
                | "(" expr ")"

Chained comparisons mean what they mean in Python (``a < b <= c`` is ``a < b and b <= c``).

The text is read by a hand-written tokenizer and recursive-descent parser into frozen
dataclass nodes; it is never handed to ``eval``, ``exec``, ``compile``, ``pandas.eval`` or
the ``ast`` module. Anything outside the grammar (calls, attribute access, subscripts,
lambdas, comprehensions, arithmetic) is an :class:`ExpressionError`, a subclass of
:class:`scorio_core.errors.InputError`, naming the 1-based position.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from scorio_core.errors import InputError
from scorio_core.rubric.nodes import (
    _KEYWORDS,
    _PY_KEYWORDS,
    COMPARISONS,
    BoolOp,
    Compare,
    Const,
    ExpressionError,
    Name,
    Node,
    Not,
    _is_digit,
    _is_name_char,
    _is_name_start,
    names,
    to_source,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPRESSION_CHARS",
    "BoolOp",
    "Compare",
    "Const",
    "ExpressionError",
    "Name",
    "Node",
    "Not",
    "names",
    "parse",
    "to_source",
]

MAX_EXPRESSION_CHARS = 10_000
MAX_DEPTH = 50
MAX_NAME_CHARS = 200
MAX_STRING_CHARS = 1_000

# Longest spellings first so that "<=" wins over "<".
_SYMBOLS = (
    ("==", "=="), ("!=", "!="), ("<=", "<="), (">=", ">="), ("&&", "and"), ("||", "or"),
    ("=", "=="), ("<", "<"), (">", ">"), ("!", "not"), ("&", "and"), ("|", "or"),
    ("(", "("), (")", ")"), ("-", "-"), ("≤", "<="), ("≥", ">="), ("≠", "!="),
    ("∧", "and"), ("∨", "or"), ("¬", "not"),
)
_CHAR_HINTS = {
    ".": "attribute access is not supported",
    "[": "subscripts and lists are not supported",
    "]": "subscripts and lists are not supported",
    "{": "sets and dicts are not supported",
    "}": "sets and dicts are not supported",
    ",": "commas are not supported (no function calls or tuples)",
    ":": "':' is not supported (no lambdas, slices or dicts)",
    "+": "arithmetic is not supported; compare a signal with a number",
    "*": "arithmetic is not supported; compare a signal with a number",
    "/": "arithmetic is not supported; compare a signal with a number",
    "%": "arithmetic is not supported; compare a signal with a number",
    "@": "arithmetic is not supported; compare a signal with a number",
    "#": "comments are not supported",
    "\\": "backslashes are not supported",
    ";": "only one expression is allowed",
}


# ----------------------------------------------------------------------------- tokenizer
@dataclass(frozen=True)
class _Token:
    kind: str  # "num", "str", "name", "kw", "op", "end"
    value: object
    pos: int


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)

    def fail(message: str, pos: int):
        raise ExpressionError(message, text, pos)

    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif _is_digit(ch) or (ch == "." and i + 1 < n and _is_digit(text[i + 1])):
            start = i
            while i < n and _is_digit(text[i]):
                i += 1
            if i < n and text[i] == ".":
                i += 1
                while i < n and _is_digit(text[i]):
                    i += 1
            if i < n and text[i] in "eE":
                j = i + 1
                if j < n and text[j] in "+-":
                    j += 1
                if j < n and _is_digit(text[j]):
                    i = j
                    while i < n and _is_digit(text[i]):
                        i += 1
            if i < n and (_is_name_char(text[i]) or text[i] == "."):
                fail(f"malformed number {text[start:i + 1]!r}", start)
            value = float(text[start:i])
            if not math.isfinite(value):
                fail(f"number {text[start:i]!r} is out of range", start)
            tokens.append(_Token("num", value, start))
        elif _is_name_start(ch):
            start = i
            while i < n and _is_name_char(text[i]):
                i += 1
            word = text[start:i]
            lower = word.lower()
            if lower in _KEYWORDS:
                tokens.append(_Token("kw", _KEYWORDS[lower], start))
            elif lower in _PY_KEYWORDS:
                fail(
                    f"{word!r} is not part of the condition language (use and, or, not, "
                    "comparisons, numbers, true/false; quote a column with this name in backticks)",
                    start,
                )
            elif word.startswith("__"):
                fail(f"names starting with '__' are not allowed; got {word!r}", start)
            elif len(word) > MAX_NAME_CHARS:
                fail(f"name longer than {MAX_NAME_CHARS} characters", start)
            else:
                tokens.append(_Token("name", word, start))
        elif ch == "`":
            end = text.find("`", i + 1)
            newline = text.find("\n", i + 1)
            if end < 0 or (0 <= newline < end):
                fail("unterminated `quoted name`", i)
            word = text[i + 1 : end]
            if not word.strip() or len(word) > MAX_NAME_CHARS:
                fail(f"a `quoted name` must have 1 to {MAX_NAME_CHARS} characters", i)
            tokens.append(_Token("name", word, i))
            i = end + 1
        elif ch in "'\"":
            end = text.find(ch, i + 1)
            if end < 0:
                fail("unterminated string", i)
            value = text[i + 1 : end]
            if len(value) > MAX_STRING_CHARS or "\n" in value:
                fail(f"strings must be one line of at most {MAX_STRING_CHARS} characters", i)
            tokens.append(_Token("str", value, i))
            i = end + 1
        else:
            for spelling, op in _SYMBOLS:
                if text.startswith(spelling, i):
                    tokens.append(_Token("op" if op not in ("and", "or", "not") else "kw", op, i))
                    i += len(spelling)
                    break
            else:
                hint = _CHAR_HINTS.get(ch, "unexpected character")
                fail(f"{hint}: {ch!r}" if ch in _CHAR_HINTS else f"unexpected character {ch!r}", i)
    tokens.append(_Token("end", None, n))
    return tokens


# ----------------------------------------------------------------------------- parser
class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def fail(self, message: str, pos: int):
        raise ExpressionError(message, self.text, pos)

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"expression nested deeper than {MAX_DEPTH} levels", pos)

    def parse(self) -> Node:
        if self.peek().kind == "end":
            self.fail("empty condition (write true to match every attempt)", 0)
        node = self.parse_or()
        tok = self.peek()
        if tok.kind != "end":
            self.unexpected(tok, "an operator (and, or) or the end")
        return node

    def parse_or(self) -> Node:
        return self._nary("or", self.parse_and)

    def parse_and(self) -> Node:
        return self._nary("and", self.parse_not)

    def _nary(self, op: str, sub) -> Node:
        first = sub()
        items = [first]
        while self.peek().kind == "kw" and self.peek().value == op:
            self.take()
            items.append(sub())
        if len(items) == 1:
            return first
        flat: list[Node] = []
        for item in items:  # (a and b) and c -> and(a, b, c): same meaning, flatter tree
            flat.extend(item.operands if isinstance(item, BoolOp) and item.op == op else (item,))
        return BoolOp(op, tuple(flat), _pos(first))

    def parse_not(self) -> Node:
        tok = self.peek()
        if tok.kind == "kw" and tok.value == "not":
            self.take()
            self.enter(tok.pos)
            operand = self.parse_not()
            self.depth -= 1
            return Not(operand, tok.pos)
        return self.parse_comparison()

    def parse_comparison(self) -> Node:
        left = self.parse_operand()
        pairs: list[Compare] = []
        while self.peek().kind == "op" and self.peek().value in COMPARISONS:
            op_tok = self.take()
            right = self.parse_operand()
            pairs.append(Compare(op_tok.value, left, right, op_tok.pos))
            left = right
        if not pairs:
            return left
        return pairs[0] if len(pairs) == 1 else BoolOp("and", tuple(pairs), pairs[0].pos)

    def parse_operand(self) -> Node:
        tok = self.take()
        if tok.kind == "num":
            node: Node = Const(tok.value, tok.pos)
        elif tok.kind == "str":
            node = Const(tok.value, tok.pos)
        elif tok.kind == "kw" and tok.value in ("true", "false"):
            node = Const(tok.value == "true", tok.pos)
        elif tok.kind == "name":
            node = Name(tok.value, tok.pos)
        elif tok.kind == "op" and tok.value == "-":
            num = self.take()
            if num.kind != "num":
                self.fail("'-' must be followed by a number (arithmetic is not supported)", tok.pos)
            node = Const(-num.value, tok.pos)
        elif tok.kind == "op" and tok.value == "(":
            self.enter(tok.pos)
            if self.peek().kind == "op" and self.peek().value == ")":
                self.fail("empty parentheses", tok.pos)
            node = self.parse_or()
            close = self.take()
            if not (close.kind == "op" and close.value == ")"):
                self.i -= 1
                self.unexpected(close, "')'")
            self.depth -= 1
        else:
            self.i -= 1
            self.unexpected(tok, "a name, a number, a quoted string, true, false or '('")
        nxt = self.peek()
        if nxt.kind == "op" and nxt.value == "(":
            what = f"after {tok.value!r}" if tok.kind == "name" else "here"
            self.fail(f"function calls are not supported: unexpected '(' {what}", nxt.pos)
        return node

    def unexpected(self, tok: _Token, expected: str):
        if tok.kind == "end":
            self.fail(f"unexpected end of condition; expected {expected}", tok.pos)
        following = self.tokens[self.tokens.index(tok) + 1].pos
        shown = self.text[tok.pos : following].strip()[:40]  # the token as written
        self.fail(f"unexpected {shown!r}; expected {expected}", tok.pos)


def _pos(node: Node) -> int:
    return node.pos


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Node:
    return _Parser(text).parse()


def parse(text: str, where: str | None = None) -> Node:
    """Parse a condition into an AST without executing anything.

    Parameters
    ----------
    text : str
        The condition, at most ``MAX_EXPRESSION_CHARS`` (10,000) characters, nested at most
        ``MAX_DEPTH`` (50) levels.
    where : str, optional
        Context for error messages, e.g. ``"condition of category 'wrong'"``.

    Returns
    -------
    Node
        Immutable tree of :class:`Name`, :class:`Const`, :class:`Not`, :class:`BoolOp`
        and :class:`Compare` nodes. Equal texts give equal trees (positions are ignored
        by equality).

    Raises
    ------
    ExpressionError
        (an :class:`~scorio_core.errors.InputError`) for anything outside the grammar.

    Examples
    --------
    >>> parse("correct and completion_bpt <= tau_high")  # doctest: +NORMALIZE_WHITESPACE
    BoolOp(op='and', operands=(Name(name='correct', pos=0),
        Compare(op='<=', left=Name(name='completion_bpt', pos=12),
                right=Name(name='tau_high', pos=30), pos=27)), pos=0)
    >>> to_source(parse("0.2 < token_ratio ≤ 0.5 ∧ ¬boxed"))
    '0.2 < token_ratio and token_ratio <= 0.5 and not boxed'
    >>> parse("__import__('os')")
    Traceback (most recent call last):
    ...
    scorio_core.rubric.nodes.ExpressionError: names starting with '__' are not allowed; got '__import__' at position 1 in "__import__('os')".
    """
    if not isinstance(text, str):
        raise InputError(f"{where or 'condition'} must be a string; got {type(text).__name__}.")
    if len(text) > MAX_EXPRESSION_CHARS:
        message = (
            f"condition is {len(text):,} characters long; the limit is {MAX_EXPRESSION_CHARS:,}"
        )
        raise ExpressionError(message, text[:60], 0, where)
    try:
        return _parse_cached(text)
    except ExpressionError as err:
        raise err.located(where) if where else err from None

