"""Escaping audit (issue 17): every Markdown-rendering Streamlit call in pages/ and dashboard/
either passes literal text or user text escaped by :func:`dashboard.text.md`.

Streamlit renders the body of ``st.error/warning/info/success/markdown/caption/toast/write``
(and of ``header/subheader/title``) as Markdown, so a model, task or file name such as
``[x](javascript:alert(4)) **bold**`` would become a live link and bold text. The audit parses
every file (ast) and checks every positional argument (and ``body=``) of each such call,
whatever it is called on (``st``, a column, a container, ``(st.error if ... else st.warning)``):

* a string literal, a call ``md(...)``, a module constant (an ``UPPER_CASE`` name: developer
  text), a number-valued call (``len/int/float/round``, ``format_probability``) and a string
  method of a safe value (``md(x).capitalize()``) are safe;
* an f-string is safe when each ``{...}`` is safe or carries a numeric format spec
  (``{n:,}``, ``{x:.2f}``, ``{p:.0%}``: formatting a string with them raises);
* ``a + b``, ``x if c else y`` and ``sep.join(<safe> for ...)`` are safe when their parts are;
* anything else (a variable, ``str(exc)``, an attribute) must be escaped, or listed in
  :data:`VERIFIED` with the reason it cannot carry user text.

``VERIFIED`` is keyed by (file, source of the unescaped expression), e.g.
``("pages/results/compare.py", "pct")``: the smallest piece the audit could not prove safe.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDERERS = {"error", "warning", "info", "success", "markdown", "caption", "toast", "write", "header", "subheader", "title"}
NUMBER_CALLS = {"len", "int", "float", "round", "format_probability"}  # format_probability: '97.3%', '> 99.9%'
STR_METHODS = {"capitalize", "lower", "upper", "strip", "rstrip", "lstrip", "title"}

#: (file, ast.unparse of the argument) -> why it is safe. Verified by reading the code.
VERIFIED: dict[tuple[str, str], str] = {
    ("dashboard/panels/data.py", "shown"): "built two lines above from two ints only",
    ("dashboard/compute/dynamics.py", "view"): "a literal page title passed by the Trajectories/Convergence pages",
    ("dashboard/guard.py", "what"): "a literal view name passed by the pages (user_errors('the leaderboard'))",
    ("dashboard/panels/rubric.py", "matched"): "an int from prior_counts",
    ("dashboard/panels/rubric.py", "n_questions"): "a len()",
    ("dashboard/panels/rubric.py", "fate"): "literals, a weight formatted :g and md(active.unmatched), built just above",
    ("dashboard/panels/rubric.py", "per_model"): "', '.join of md(model) and ints formatted :, just above",
    ("dashboard/panels/rubric.py", "more"): "an int count in a literal, or ''",
    ("pages/data/rubric.py", "scope"): "a literal or f'task {md(ctx.task)}' (escaped) one line above",
    ("pages/results/compare.py", "pct"): "f'{ctx.confidence:.0%}' (a number)",
    ("pages/results/compare.py", "observed_trials(needed)"): "ints, or two joined by '-' "
                                                             "(scorio_core.ranking.separation.observed_trials)",
    ("pages/results/convergence.py", "run_estimate(block, int(replicates))"): "literals and numbers formatted :g/:.0f/:, "
                                                                                "(scorio_core.dynamics.budget)",
    ("pages/results/convergence.py", "note"): "default_note: literals, ints and a category count "
                                              "(scorio_core.dynamics.budget)",
    ("pages/results/convergence.py", "scheme"): "a segmented_control value restricted to the literals 'column'/'row'",
    ("pages/results/leaderboard.py", "spec.label"): "the label of a metric of the fixed METRICS registry",
    ("pages/results/leaderboard.py", "calibration.attrs['seed']"): "an int seed of the bundled calibration table",
    ("dashboard/panels/board_views.py", "result.column.how"): "CostColumn.how: a value of a literal dict "
                                                           "(scorio_core.leaderboard.costs)",
    ("pages/results/leaderboard.py", "k_said"): "k_notice: md() of the metric registry's sentence, literals and ints "
                                                "(dashboard.state.widgets)",
    ("dashboard/panels/server_open.py", "roots.ENV"): "the constant 'SCORIO_DATA_ROOTS'",
    ("dashboard/panels/server_open.py", "_size(matches.total_bytes)"): "an int formatted with a literal unit",
}


def _calls():
    for base in ("pages", "dashboard"):
        for path in sorted((ROOT / base).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), filename=rel)):
                if isinstance(node, ast.Call) and _is_renderer(node.func) and _bodies(node):
                    yield rel, node


def _bodies(call: ast.Call) -> list[ast.expr]:
    """Every argument rendered as Markdown: the positional ones (st.write takes several) and body=."""
    return list(call.args) + [k.value for k in call.keywords if k.arg == "body"]


def _is_renderer(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr in RENDERERS
    if isinstance(func, ast.IfExp):  # (st.error if bad else st.warning)(...)
        return _is_renderer(func.body) or _is_renderer(func.orelse)
    return False


def _is_md_call(node: ast.expr) -> bool:  # code_span(x) is a whole code span: verbatim, never markup
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("md", "code_span")


def _is_code_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "code"


def test_code_is_safe_inside_a_code_span_only():
    """dashboard.text.code leaves Markdown as typed (md()'s backslashes showed in commands to copy): it is safe between
    back-ticks and nowhere else."""
    assert safe(ast.parse('f"CLI: `--prior {code(p)} --x` and **{md(p)}**"', mode="eval").body)
    assert not safe(ast.parse('f"CLI: `--prior` {code(p)}"', mode="eval").body)


def _numeric_spec(spec: ast.expr | None) -> bool:
    if not isinstance(spec, ast.JoinedStr) or not all(isinstance(v, ast.Constant) for v in spec.values):
        return False
    text = "".join(str(v.value) for v in spec.values)
    return bool(text) and (text[-1] in "bcdeEfFgGnoxX%" or "," in text or "_" in text)


def unsafe_parts(node: ast.expr) -> list[ast.expr]:
    """The smallest sub-expressions of ``node`` not proven to give literal or md()-escaped text."""
    if isinstance(node, ast.Constant):
        return [] if isinstance(node.value, str) else [node]
    if _is_md_call(node):
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in NUMBER_CALLS:
        return []
    if isinstance(node, ast.Name) and node.id.isupper() and len(node.id) > 1:
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STR_METHODS and not node.args:
        return [node] if unsafe_parts(node.func.value) else []
    if isinstance(node, ast.JoinedStr):  # code(x) between back-ticks: a code span, where Markdown is not interpreted
        ticks = [sum(str(w.value).count("`") for w in node.values[:i] if isinstance(w, ast.Constant))
                 for i in range(len(node.values))]
        return [p for v, t in zip(node.values, ticks) if not (t % 2 and isinstance(v, ast.FormattedValue)
                                                              and _is_code_call(v.value)) for p in unsafe_parts(v)]
    if isinstance(node, ast.FormattedValue):
        return [] if _numeric_spec(node.format_spec) else unsafe_parts(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return unsafe_parts(node.left) + unsafe_parts(node.right)
    if isinstance(node, ast.IfExp):
        return unsafe_parts(node.body) + unsafe_parts(node.orelse)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant) and len(node.args) == 1
            and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp))):
        return unsafe_parts(node.args[0].elt)
    return [node]


def safe(node: ast.expr) -> bool:
    """True when ``node`` can only produce literal text or md()-escaped text."""
    return not unsafe_parts(node)


def _findings() -> list[tuple[str, int, str]]:
    out = []
    for rel, call in _calls():
        for part in (p for body in _bodies(call) for p in unsafe_parts(body)):
            if (rel, ast.unparse(part)) not in VERIFIED:
                out.append((rel, call.lineno, ast.unparse(part)))
    return out


def test_audit_sees_the_calls():
    calls = list(_calls())
    assert len(calls) > 100  # the walk reaches pages/ and dashboard/ (a broken walk would pass vacuously)
    assert any(rel == "dashboard/panels/rubric.py" and isinstance(c.func, ast.IfExp) for rel, c in calls)


def test_every_markdown_body_is_escaped_or_verified():
    findings = _findings()
    assert not findings, "user text reaches Markdown unescaped (wrap it in dashboard.text.md, or verify it):\n" + "\n".join(
        f"{rel}:{line}: {src}" for rel, line, src in findings
    )


def test_verified_entries_still_exist():
    present = {(rel, ast.unparse(p)) for rel, c in _calls() for body in _bodies(c) for p in unsafe_parts(body)}
    stale = [key for key in VERIFIED if key not in present]
    assert not stale, f"remove or update these VERIFIED entries: {stale}"


@pytest.mark.parametrize(
    ("source", "ok"),
    [
        ("st.error(md(str(exc)))", True),
        ("st.error(str(exc))", False),
        ("st.caption(f'{n:,} rows')", True),
        ("st.caption(f'model {name}')", False),
        ("st.caption(f'model {md(name)}')", True),
        ("st.info('a' + name)", False),
        ("st.markdown('\\n'.join(f'- {md(x)}' for x in xs))", True),
        ("st.markdown(', '.join(xs))", False),
        ("col.warning(label)", False),
    ],
)
def test_the_checker_itself(source, ok):
    call = ast.parse(source).body[0].value
    assert _is_renderer(call.func) and safe(call.args[0]) is ok


# --------------------------------------------------------------------------- widget labels
#: Widgets whose label (first positional argument or ``label=``) Streamlit renders as Markdown.
LABEL_WIDGETS = {"expander", "selectbox", "multiselect", "radio", "toggle", "checkbox", "button", "number_input",
                 "slider", "select_slider", "text_input", "text_area", "segmented_control", "pills", "metric",
                 "download_button", "file_uploader", "popover", "tabs", "link_button", "page_link", "color_picker"}
#: (file, source) -> why the label cannot carry user text.
VERIFIED_LABELS: dict[tuple[str, str], str] = {
    ("dashboard/state/widgets.py", "label"): "a literal of the calling page (top_models: 'Show', 'Show in the charts')",
    ("pages/results/compare.py", "pct"): "f'{ctx.confidence:.0%}' (a number)",
    ("pages/results/leaderboard.py", "tab_names"): "a list of literal tab titles built two lines above",
    ("dashboard/panels/rubric.py", "min(len(issue.examples), 5)"): "an int",
    ("dashboard/panels/upload.py", "guess.layout"): "one of the literals attempts/wide/counts (scorio_core.io._schema)",
    ("dashboard/panels/upload.py", "field_name"): "a canonical field name (model, task, question_id, ...), never a column name",
    ("pages/results/leaderboard.py", "len(loaded) - LOADER_NOTES_SHOWN"): "an int (notes beyond the ones shown)",
    ("dashboard/panels/quality.py", "len(lines) - 2 * LOADER_NOTES_SHOWN"): "an int (lines beyond the ones shown)",
}


def _label_calls():
    for base in ("pages", "dashboard"):
        for path in sorted((ROOT / base).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), filename=rel)):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LABEL_WIDGETS:
                    label = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "label"), None)
                    if label is not None:
                        yield rel, node, label


def _label_parts(label: ast.expr) -> list[ast.expr]:
    if isinstance(label, (ast.List, ast.Tuple)):  # st.tabs([...])
        return [p for e in label.elts for p in unsafe_parts(e)]
    return unsafe_parts(label)


def test_audit_sees_the_widget_labels():
    calls = list(_label_calls())
    assert len(calls) > 60 and any(c.func.attr == "expander" for _, c, _ in calls)


def test_every_widget_label_is_escaped_or_verified():
    findings = [(rel, call.lineno, ast.unparse(p)) for rel, call, label in _label_calls() for p in _label_parts(label)
                if (rel, ast.unparse(p)) not in VERIFIED_LABELS]
    assert not findings, "user text reaches a widget label unescaped (wrap it in dashboard.text.md, or verify it):\n" + \
        "\n".join(f"{rel}:{line}: {src}" for rel, line, src in findings)
