"""Coverage report of a schema on an attempt table: what it cannot categorize, and why.

Static problems (found before any evaluation): unknown names (with suggestions), type
errors, signals the data lacks, conditions that can never be true. Data problems (found by
categorizing): attempts matched by no category, categories no attempt falls in (and which
earlier categories took their attempts), missing signal values, thresholds without data.
Each issue carries a count and up to five example rows (model, question_id, trial).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches
from typing import NamedTuple

import numpy as np

from scorio_core.rubric.kernel import check
from scorio_core.rubric.logic import never_true
from scorio_core.rubric.nodes import ExpressionError, names
from scorio_core.rubric.signals import KNOWN_SIGNALS
from scorio_core.rubric.table import SignalTable

__all__ = ["CoverageReport", "Issue", "build_report", "categorization_notes", "data_issues", "static_issues"]

ERROR, WARNING, INFO = "error", "warning", "info"


class Issue(NamedTuple):
    """One coverage finding.

    Attributes
    ----------
    kind : str
        ``unknown_name``, ``type_error``, ``absent_signal``, ``never_matches``,
        ``unmatched``, ``empty_category``, ``missing_values``, ``undefined_threshold``,
        ``name_shadows_column``, ``unused_frozen_threshold``.
    severity : str
        ``"error"`` (the schema cannot run on this data), ``"warning"`` or ``"info"``.
    message : str
        One readable sentence.
    count : int
        Attempts concerned (0 when not about attempts).
    examples : tuple of Example
        Up to five of those attempts.
    category : int or None
        Category index concerned, if any.
    names : tuple of str
        Names concerned (signals, variables, thresholds).
    """

    kind: str
    severity: str
    message: str
    count: int = 0
    examples: tuple = ()
    category: int | None = None
    names: tuple = ()

    def to_dict(self) -> dict:
        """JSON-ready dict (examples as dicts)."""
        out = self._asdict()
        out["examples"] = [e._asdict() for e in self.examples]
        out["names"] = list(self.names)
        return out


@dataclass(frozen=True)
class CoverageReport:
    """How a schema covers an attempt table.

    Attributes
    ----------
    n_attempts : int
    n_unmatched : int
        Attempts no category matched (code -1).
    counts : ndarray of shape (C+1,)
        Attempts per category, int64.
    issues : tuple of Issue
        Errors first, then warnings, then info.
    notes : tuple of str
        Signal derivation notes.
    """

    n_attempts: int
    n_unmatched: int
    counts: np.ndarray
    issues: tuple
    notes: tuple = ()

    @property
    def ok(self) -> bool:
        """True when every attempt is categorized and there is no error."""
        return self.n_unmatched == 0 and not self.errors

    @property
    def errors(self) -> tuple:
        """Issues of severity ``"error"``."""
        return tuple(i for i in self.issues if i.severity == ERROR)

    @property
    def warnings(self) -> tuple:
        """Issues of severity ``"warning"``."""
        return tuple(i for i in self.issues if i.severity == WARNING)

    def unmatched(self) -> Issue | None:
        """The ``unmatched`` issue (count and examples), or None if all attempts matched."""
        return next((i for i in self.issues if i.kind == "unmatched"), None)

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {
            "n_attempts": self.n_attempts,
            "n_unmatched": self.n_unmatched,
            "counts": self.counts.tolist(),
            "ok": self.ok,
            "issues": [i.to_dict() for i in self.issues],
            "notes": list(self.notes),
        }

    def summary(self) -> str:
        """Readable multi-line text: one line per issue."""
        lines = [f"{self.n_attempts} attempts, {self.n_unmatched} unmatched."]
        lines += [f"[{i.severity}] {i.message}" for i in self.issues]
        return "\n".join(lines)


def _where(key: str, schema) -> str:
    kind, _, ref = key.partition(":")
    if kind == "category":
        return f"condition of category {schema.categories[int(ref)].label!r}"
    return f"variable {ref!r}" if kind == "variable" else f"'where' of threshold {ref!r}"


def _text(key: str, schema) -> str:
    kind, _, ref = key.partition(":")
    if kind == "category":
        return schema.categories[int(ref)].condition
    return schema.variable_map[ref].condition if kind == "variable" else schema.threshold_map[ref].where


def kind_resolver(schema, table: SignalTable):
    """``kind_of(name)`` for type checking: variables, then thresholds, then signals."""

    def kind_of(name: str) -> str | None:
        if name in schema.variable_map:
            return "true/false"
        if name in schema.threshold_map:
            return "number"
        return table.kind(name)

    return kind_of


def static_issues(schema, table: SignalTable, raised: list | None = None) -> list[Issue]:
    """Problems found without evaluating: names, types, absent signals, impossible conditions.

    Type errors are also appended to ``raised`` as :class:`ExpressionError` (with position).
    """
    issues: list[Issue] = []
    kind_of = kind_resolver(schema, table)
    defined = schema.variable_map.keys() | schema.threshold_map.keys()
    candidates = sorted(table.columns | KNOWN_SIGNALS.keys() | defined)
    exprs = schema.expressions()
    unknown: dict[str, list[str]] = {}
    absent: dict[str, list[str]] = {}
    for key, node in exprs.items():
        bad = [n for n in names(node) if kind_of(n) is None]
        for n in bad:
            unknown.setdefault(n, []).append(_where(key, schema))
        for n in names(node):
            if n not in defined and not table.has(n) and n in KNOWN_SIGNALS:
                absent.setdefault(n, []).append(_where(key, schema))
        if not bad:
            try:
                check(node, kind_of, _text(key, schema), _where(key, schema))
            except ExpressionError as err:
                issues.append(Issue("type_error", ERROR, str(err), names=()))
                if raised is not None:
                    raised.append(err)
    for t in schema.thresholds:
        if t.of is None:
            continue
        where = f"'of' of threshold {t.name!r}"
        if table.kind(t.of) is None:
            unknown.setdefault(t.of, []).append(where)
        elif table.kind(t.of) == "text":
            issues.append(Issue("type_error", ERROR,
                                f"threshold {t.name!r}: cannot take a percentile of text signal {t.of!r}.",
                                names=(t.of,)))
        elif not table.has(t.of):
            absent.setdefault(t.of, []).append(where)
    for name, places in unknown.items():
        close = get_close_matches(name, candidates, n=3, cutoff=0.6)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        issues.append(Issue(
            "unknown_name", ERROR,
            f"unknown name {name!r} in {', '.join(places)}: not a variable, threshold or column "
            f"of the data.{hint}", names=(name,)))
    for name, places in absent.items():
        issues.append(Issue(
            "absent_signal", WARNING,
            f"signal {name!r} is not in the data: it is missing for every attempt, so conditions "
            f"on it are unknown (used by {', '.join(places)}).", count=table.n_rows, names=(name,)))
    for name in sorted(defined & table.columns):
        issues.append(Issue("name_shadows_column", WARNING,
                            f"{name!r} is defined by the schema and is also a data column; the "
                            "schema's definition is used.", names=(name,)))
    if any(i.severity == ERROR for i in issues):
        return issues
    variables = {k.split(":", 1)[1]: n for k, n in exprs.items() if k.startswith("variable:")}
    absolute = {t.name: t.value for t in schema.thresholds if t.kind == "absolute"}
    for i, category in enumerate(schema.categories):
        reason = never_true(exprs[f"category:{i}"], variables, absolute, frozenset(schema.threshold_map))
        if reason is not None:
            issues.append(Issue("never_matches", WARNING,
                                f"category {category.label!r} can never match: {reason}.", category=i))
    return issues


def unmatched_issue(n_unmatched: int, n: int, missing, absent, examples=()) -> Issue:
    """The warning for attempts that match no category (shared by the pandas and SQL rubric paths).

    ``missing`` lists ``(signal, k)``: k unmatched attempts lack the signal (k = 0 entries are
    skipped); ``absent`` names signals absent from the data.
    """
    parts = [f"{s} is missing on {k}" for s, k in missing if k]
    why = f"; among them {', '.join(parts)}" if parts else ""
    if absent:
        why += f"; absent from the data: {', '.join(absent)}"
    return Issue("unmatched", WARNING, f"{n_unmatched} of {n} attempts match no category{why}.", count=n_unmatched,
                 examples=examples)


def empty_category_issue(schema, c: int, n_satisfying: int, takers) -> Issue:
    """The warning for category ``c`` that no attempt fell into (shared by the pandas and SQL rubric paths).

    ``n_satisfying`` attempts satisfy its condition; ``takers`` are the codes of the earlier
    categories that took them (``-1`` entries ignored).
    """
    label = schema.categories[c].label
    if n_satisfying:
        labels = ", ".join(repr(schema.categories[j].label) for j in takers if j >= 0)
        message = (f"category {label!r} is empty: all {n_satisfying} attempts "
                   f"satisfying its condition were taken by earlier categories ({labels}).")
    else:
        message = f"category {label!r} is empty: its condition is true for no attempt."
    return Issue("empty_category", WARNING, message, category=c)


def data_issues(schema, table: SignalTable, codes: np.ndarray, masks: list, details, unused_frozen) -> list:
    """Problems found by categorizing: unmatched attempts, empty categories, missing values."""
    issues: list[Issue] = []
    n = table.n_rows
    unmatched = codes < 0
    n_unmatched = int(unmatched.sum())
    signals = [s for s in schema.signals if table.kind(s) is not None]
    if n_unmatched:
        # absent signals (missing for every attempt) are reported once as absent_signal, not counted here
        missing = [(s, int((table.missing(s) & unmatched).sum())) for s in signals if table.has(s)]
        issues.append(unmatched_issue(n_unmatched, n, missing, [s for s in signals if not table.has(s)],
                                      examples=table.examples(unmatched)))
    counts = np.bincount(codes[~unmatched].astype(np.int64), minlength=len(schema.categories))
    for c, category in enumerate(schema.categories):
        if counts[c] or n == 0:
            continue
        mask = masks[c]
        issues.append(empty_category_issue(schema, c, int(mask.sum()), np.unique(codes[mask]) if mask.any() else ()))
    for s in signals:
        if not table.has(s):
            continue  # reported once as absent_signal
        miss = table.missing(s)
        k = int(miss.sum())
        if k:
            issues.append(Issue("missing_values", WARNING,
                                f"signal {s!r} is missing on {k} of {n} attempts.",
                                count=k, examples=table.examples(miss), names=(s,)))
    for d in details:
        if d.kind == "percentile" and not np.isfinite(d.value):
            issues.append(undefined_threshold_issue(d.name, d.of, d.where))
    if unused_frozen:
        issues.append(Issue("unused_frozen_threshold", INFO,
                            "frozen thresholds not used by this schema: " + ", ".join(unused_frozen) + ".",
                            names=tuple(unused_frozen)))
    return issues


def undefined_threshold_issue(name: str, of: str, where: str | None) -> Issue:
    """A percentile threshold without a finite value to take it over (every comparison with it is unknown)."""
    cond = f" where {where}" if where else ""
    return Issue("undefined_threshold", WARNING, f"threshold {name!r} is undefined: no finite value of {of!r}{cond}; "
                 "every comparison with it is unknown.", names=(name,))


_NOT_DERIVED = re.compile(r"^(\w+) not derived\b")


def relevant_notes(notes, signals) -> tuple:
    """Signal derivation notes that concern a schema: "X not derived ..." only when the schema reads X.

    Parameters
    ----------
    notes : iterable of str
        Derivation notes (:func:`scorio_core.rubric.derive_signals`).
    signals : iterable of str
        Signals the schema reads (:attr:`scorio_core.rubric.Schema.signals`).

    Returns
    -------
    tuple of str
        ``notes`` without those saying a signal the schema does not read could not be derived.
    """
    read = set(signals)
    return tuple(n for n in notes if (m := _NOT_DERIVED.match(n)) is None or m.group(1) in read)


def build_report(schema, table, codes, static, dynamic) -> CoverageReport:
    """Assemble a :class:`CoverageReport` (errors first, then warnings, then info)."""
    rank = {ERROR: 0, WARNING: 1, INFO: 2}
    issues = sorted([*static, *dynamic], key=lambda i: rank[i.severity])
    valid = codes[codes >= 0].astype(np.int64)
    counts = np.bincount(valid, minlength=len(schema.categories)).astype(np.int64)
    return CoverageReport(table.n_rows, int((codes < 0).sum()), counts, tuple(issues),
                          relevant_notes(table.notes, schema.signals))


def categorization_notes(result, schema_name: str) -> list[str]:
    """What categorizing one scope found, one sentence each: the thresholds used, the attempts in no category, and
    the coverage notes and issues (derived signals, ...), as the leaderboard's ``rubric`` notes word them.

    Parameters
    ----------
    result : scorio_core.rubric.Categorization
        :func:`scorio_core.rubric.categorize` of the scope (``thresholds``, ``coverage``).
    schema_name : str

    Returns
    -------
    list of str
        Without a task prefix (the caller adds ``"{task}: "`` where a note names its task).
    """
    notes = []
    if result.thresholds:
        values = ", ".join(f"{k}={v:.6g}" for k, v in result.thresholds.items())
        notes.append(f"rubric '{schema_name}' thresholds: {values}")
    coverage = result.coverage
    if coverage.n_unmatched:
        notes.append(f"{coverage.n_unmatched} of {coverage.n_attempts} attempts matched no category and are excluded")
    notes.extend(str(n) for n in coverage.notes)
    notes.extend(str(getattr(i, "message", i)) for i in coverage.issues)
    return notes
