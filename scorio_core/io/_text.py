"""Per-attempt text the format readers keep for the drill-down (input, target, answer, ...).

The loaders of lm-evaluation-harness, Inspect AI and HELM dumps keep, per attempt, the text a
reviewer needs to see *why* an answer was scored as it was (:data:`scorio_core.leaderboard.drilldown.TEXT_FIELDS`).
Dumps without these fields cost nothing: a column exists only when some attempt has the text.

Each field is kept as plain text up to :data:`TEXT_LIMIT` characters. A longer text is cut
there with an explicit marker saying how many characters were not kept and where the full
text is (the source file), so a reviewer never mistakes a cut transcript for the whole one.
"""

from __future__ import annotations

import json

__all__ = ["TEXT_LIMIT", "clip", "grading_hint", "messages_text", "as_text"]

#: Characters kept per text field and attempt (a transcript of ~5,000 words).
TEXT_LIMIT = 20_000


#: Column names of a model's answer and of the reference answer, in the order a hint names them (compared folded:
#: lower case, '-' and ' ' as '_').
PREDICTION_NAMES = ("pred", "prediction", "predicted", "predicted_answer", "model_answer", "extracted_answer",
                    "parsed_answer", "response_answer", "output_answer", "model_prediction")
REFERENCE_NAMES = ("gold", "gold_answer", "target", "reference", "reference_answer", "ground_truth", "gt", "gt_answer",
                   "expected", "expected_answer", "correct_answer", "answer", "label")


def grading_hint(columns) -> str:
    """A hint for a table with a model's answers and the reference answers but no outcome: scorio does not grade
    answers (what counts as a match, normalisation or equivalence, is the harness's choice); empty if the table does
    not have both.

    >>> grading_hint(["question_id", "pred", "answer", "category"])[:80]
    " The table has the model's answers ('pred') and reference answers ('answer') but"
    >>> grading_hint(["question_id", "answer"])
    ''
    """
    folded = {str(c).strip().lower().replace("-", "_").replace(" ", "_"): str(c) for c in columns}
    pred = next((folded[n] for n in PREDICTION_NAMES if n in folded), None)
    ref = next((folded[n] for n in REFERENCE_NAMES if n in folded and folded[n] != pred), None)
    if pred is None or ref is None:
        return ""
    return (f" The table has the model's answers ({pred!r}) and reference answers ({ref!r}) but no outcome: scorio "
            "does not grade answers (what counts as a match, normalisation or equivalence, is the evaluation's "
            "choice); grade them first into a 0/1 column, e.g. with pandas: "
            f"df['is_correct'] = (df[{pred!r}] == df[{ref!r}]).astype(int) for an exact match.")


def clip(text: str | None, source: str) -> str | None:
    """Cut ``text`` at :data:`TEXT_LIMIT` characters with an explicit marker.

    Examples
    --------
    >>> clip("short", "f.json")
    'short'
    >>> clip("x" * 20_005, "f.json")[-66:]
    'x[... 5 more characters not kept here; the full text is in f.json]'
    >>> clip(None, "f.json") is None
    True
    """
    if text is None or len(text) <= TEXT_LIMIT:
        return text
    return f"{text[:TEXT_LIMIT]}[... {len(text) - TEXT_LIMIT:,} more characters not kept here; the full text is in {source}]"


def _content_text(content) -> str:
    """Text of a chat message's ``content`` (a string, or a list of content parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                kind = part.get("type")
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
                elif isinstance(part.get("reasoning"), str):
                    parts.append(f"[reasoning] {part['reasoning']}")
                elif kind:
                    parts.append(f"[{kind}]")
        return "\n".join(parts)
    return "" if content is None else as_text(content) or ""


def messages_text(messages) -> str | None:
    """Render a chat transcript (a list of ``{role, content, tool_calls?}``) as plain text.

    Examples
    --------
    >>> print(messages_text([{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": [{"type": "text", "text": "4"}]}]))
    [user]
    2+2?
    <BLANKLINE>
    [assistant]
    4
    >>> messages_text([]) is None
    True
    """
    if not isinstance(messages, list) or not messages:
        return None
    blocks = []
    for m in messages:
        if not isinstance(m, dict):
            blocks.append(as_text(m) or "")
            continue
        body = _content_text(m.get("content"))
        calls = m.get("tool_calls")
        if isinstance(calls, list) and calls:
            names = ", ".join(str(c.get("function", "?")) if isinstance(c, dict) else "?" for c in calls)
            body = f"{body}\n[tool calls: {names}]" if body else f"[tool calls: {names}]"
        blocks.append(f"[{m.get('role', '?')}]\n{body}")
    return "\n\n".join(blocks)


def as_text(value) -> str | None:
    """Plain text of a loaded value: strings as is, lists of strings one per line, other JSON dumped.

    Examples
    --------
    >>> as_text("A"), as_text(["A", "B"]), as_text(None), as_text({"x": 1})
    ('A', 'A\\nB', None, '{"x": 1}')
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    if isinstance(value, list) and all(isinstance(v, dict) and "role" in v for v in value) and value:
        return messages_text(value)
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
