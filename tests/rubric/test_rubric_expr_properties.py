"""Property tests of the condition language (hypothesis).

* Random valid expressions, printed with random spellings and parentheses, evaluate through
  the public ``categorize`` exactly as a slow per-row reference interpreter written here
  (Kleene three-valued logic, None = unknown).
* Printing is faithful: ``parse(to_source(t))`` evaluates like ``t``, and is a fixed point
  for parsed trees.
* Garbage never raises anything but InputError.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorio_core.errors import InputError
from scorio_core.rubric import Category, Schema, Threshold, Variable, categorize, parse, to_source
from scorio_core.rubric.nodes import BoolOp, Compare, Const, Name, Not

N_ROWS = 12
NUMERIC = ("x", "y")  # numeric signals with NaN
TEXTS = ("r",)  # text signal with None
BOOLS = ("p", "q")  # rubric variables: p = bp == 1, q = bq == 1 (bp, bq in {0, 1, NaN})
THRESHOLDS = {"t": 0.5}
VALUES = (-1.0, 0.0, 0.5, 1.0, 2.0)
WORDS = ("stop", "length", "x")

# ------------------------------------------------------------------ random data
data_strategy = st.fixed_dictionaries({
    "x": st.lists(st.sampled_from((*VALUES, math.nan)), min_size=N_ROWS, max_size=N_ROWS),
    "y": st.lists(st.sampled_from((*VALUES, math.nan)), min_size=N_ROWS, max_size=N_ROWS),
    "r": st.lists(st.sampled_from((*WORDS, None)), min_size=N_ROWS, max_size=N_ROWS),
    "bp": st.lists(st.sampled_from((0.0, 1.0, math.nan)), min_size=N_ROWS, max_size=N_ROWS),
    "bq": st.lists(st.sampled_from((0.0, 1.0, math.nan)), min_size=N_ROWS, max_size=N_ROWS),
})

# ------------------------------------------------------------------ random trees
numeric_operand = st.one_of(
    st.sampled_from(NUMERIC).map(Name),
    st.just(Name("t")),
    st.sampled_from(VALUES).map(Const),
)
num_compare = st.builds(Compare, st.sampled_from(("==", "!=", "<", "<=", ">", ">=")), numeric_operand, numeric_operand)
text_compare = st.builds(
    lambda op, word, flip: Compare(op, Const(word), Name("r")) if flip else Compare(op, Name("r"), Const(word)),
    st.sampled_from(("==", "!=")), st.sampled_from(WORDS), st.booleans(),
)
leaf = st.one_of(st.sampled_from(BOOLS).map(Name), st.booleans().map(Const), num_compare, text_compare)


def _extend(children):
    return st.one_of(
        children.map(Not),
        st.builds(BoolOp, st.sampled_from(("and", "or")), st.lists(children, min_size=2, max_size=3).map(tuple)),
        st.builds(Compare, st.sampled_from(("==", "!=")), children, children),
    )


tree_strategy = st.recursive(leaf, _extend, max_leaves=12)


# ------------------------------------------------------------------ reference interpreter
def ref_eval(node, row):
    """Per-row Kleene evaluation: True, False or None (unknown)."""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Name):
        if node.name in BOOLS:
            v = row["b" + node.name]
            return None if math.isnan(v) else v == 1.0
        if node.name in THRESHOLDS:
            return THRESHOLDS[node.name]
        return row[node.name]
    if isinstance(node, Not):
        v = ref_eval(node.operand, row)
        return None if v is None else not v
    if isinstance(node, BoolOp):
        vals = [ref_eval(o, row) for o in node.operands]
        if node.op == "and":
            return False if False in vals else (None if None in vals else True)
        return True if True in vals else (None if None in vals else False)
    a, b = ref_eval(node.left, row), ref_eval(node.right, row)
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
        return None
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op]


# ------------------------------------------------------------------ random printing
def render(node, draw) -> str:
    """Print with random spellings, random extra parentheses and random spacing."""
    sp = draw(st.sampled_from(("", " ", "  ", "\n")))
    ws = draw(st.sampled_from((" ", "  ", "\t", "\n ")))
    if isinstance(node, Name):
        text = draw(st.sampled_from((node.name, f"`{node.name}`")))
    elif isinstance(node, Const):
        if isinstance(node.value, bool):
            text = draw(st.sampled_from(("true", "TRUE", "True"))) if node.value else draw(
                st.sampled_from(("false", "FALSE", "False")))
        elif isinstance(node.value, str):
            text = draw(st.sampled_from((f"'{node.value}'", f'"{node.value}"')))
        else:
            text = draw(st.sampled_from((repr(node.value), f"{node.value:g}")))
            text = text.replace("-", draw(st.sampled_from(("-", "- "))))
    elif isinstance(node, Not):
        word = draw(st.sampled_from(("not ", "NOT ", "!", "¬")))
        text = f"{word}({render(node.operand, draw)})"
    elif isinstance(node, BoolOp):
        words = {"and": ("and", "AND", "&&", "&", "∧"), "or": ("or", "OR", "||", "|", "∨")}[node.op]
        parts = [f"({render(o, draw)})" for o in node.operands]
        text = parts[0]
        for part in parts[1:]:
            text += f"{ws}{draw(st.sampled_from(words))}{ws}{part}"
    else:
        ops = {"==": ("==", "="), "!=": ("!=", "≠"), "<=": ("<=", "≤"), ">=": (">=", "≥")}.get(node.op, (node.op,))
        text = f"({render(node.left, draw)}){sp}{draw(st.sampled_from(ops))}{sp}({render(node.right, draw)})"
    if draw(st.booleans()) and draw(st.booleans()):
        text = f"({sp}{text}{sp})"
    return text


def _kinds_ok(node) -> bool:
    """Keep only well-typed trees (== between a true/false and a number is a type error)."""
    def kind(n):
        if isinstance(n, Const):
            return "b" if isinstance(n.value, bool) else "s" if isinstance(n.value, str) else "n"
        if isinstance(n, Name):
            return "b" if n.name in BOOLS else "s" if n.name in TEXTS else "n"
        if isinstance(n, (Not, BoolOp)):
            ops = [n.operand] if isinstance(n, Not) else list(n.operands)
            return "b" if all(kind(o) == "b" for o in ops) else "?"
        k1, k2 = kind(n.left), kind(n.right)
        if k1 != k2 or k1 == "?" or (k1 in "bs" and n.op not in ("==", "!=")):
            return "?"
        if k1 == "s" and isinstance(n.left, Name) and isinstance(n.right, Name):
            return "?"
        return "b"
    return kind(node) == "b"


def _frame(data) -> pd.DataFrame:
    return pd.DataFrame({"x": data["x"], "y": data["y"], "r": pd.Series(data["r"], dtype=object),
                         "bp": data["bp"], "bq": data["bq"]})


def _engine_truth(frame, text):
    """(T, F) per row through the public API: a one-category schema for text and its negation."""
    variables = [Variable("p", "bp == 1"), Variable("q", "bq == 1")]
    thresholds = [Threshold("t", value=THRESHOLDS["t"])]
    out = []
    for cond in (text, f"not ({text})"):
        schema = Schema("prop", [Category("hit", cond, 1)], variables, thresholds)
        out.append(categorize(frame, schema).codes == 0)
    return out


pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=tree_strategy, data=data_strategy, draw=st.data())
def test_random_expressions_match_reference_interpreter(tree, data, draw):
    assume(_kinds_ok(tree))
    text = render(tree, draw.draw)
    frame = _frame(data)
    true, false = _engine_truth(frame, text)
    rows = frame.to_dict("records")
    for i, row in enumerate(rows):
        row["r"] = data["r"][i]
        expected = ref_eval(tree, row)
        assert (true[i], false[i]) == (expected is True, expected is False), (text, row)


@settings(max_examples=300, deadline=None)
@given(tree=tree_strategy, draw=st.data())
def test_printing_round_trip(tree, draw):
    assume(_kinds_ok(tree))
    reparsed = parse(to_source(tree))  # nested same-kind and/or are flattened here
    canonical = to_source(reparsed)
    assert parse(canonical) == reparsed  # printing a parsed tree is faithful ...
    assert to_source(parse(canonical)) == canonical  # ... and a fixed point
    assert parse(render(tree, draw.draw)) == reparsed  # any spelling gives the same tree


ALPHABET = "()<>=!&|~-+*/.,:;[]{}'\"`#@\\ \n\t0123456789eE_abcxyzAND∧∨¬≤≥≠²é"
FRAGMENTS = ("and", "or", "not", "true", "false", "lambda", "__import__", "import", "os", "for",
             "in", "if", "==", "<=", "(", ")", "x", "'stop'", "1e5", "-", ".", "`a b`")


@settings(max_examples=500, deadline=None)
@given(text=st.one_of(
    st.text(alphabet=ALPHABET, max_size=60),
    st.lists(st.sampled_from(FRAGMENTS), max_size=15).map(" ".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=15).map("".join),
    st.text(max_size=40),
))
def test_garbage_raises_only_input_error(text):
    try:
        tree = parse(text)
    except InputError:
        return
    assert parse(to_source(tree)) == tree
    frame = pd.DataFrame({"x": [1.0, np.nan], "r": ["stop", None]})
    try:
        categorize(frame, Schema("g", [Category("hit", text, 1)]))
    except InputError:
        pass
