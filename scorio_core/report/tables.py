"""Leaderboard tables as CSV (safe against spreadsheet formula injection) and Markdown (LaTeX: :mod:`.latex`).

Only CSV is formula-neutralised (a spreadsheet opens it); Markdown and LaTeX show names exactly, with the
format's special characters escaped and control characters (a newline in a model name) written visibly as
``\\n``, ``\\t``, ... so one name stays one table cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pandas as pd

from scorio_core.choices import is_fallback_interval

__all__ = ["neutralize_formulas", "formula_note", "without_negative_zero", "with_context", "to_csv", "to_markdown",
           "visible_controls", "presentation_table", "trial_spans", "interval_note", "interval_name",
           "interval_abbrev", "interval_labels", "leaderboard_markdown", "estimate_header", "tie_marks",
           "FORMULA_PREFIXES"]

#: Leading characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def neutralize_formulas(frame: pd.DataFrame) -> pd.DataFrame:
    """Prefix text cells that start with ``= + - @`` (or tab/CR) with a single quote.

    Only text cells change; numbers (including negative numbers) are left as numbers.

    >>> neutralize_formulas(pd.DataFrame({"model": ["=HYPERLINK(1)", "gpt"], "mu": [-0.5, 0.7]})).to_dict("list")
    {'model': ["'=HYPERLINK(1)", 'gpt'], 'mu': [-0.5, 0.7]}
    """
    out = frame.copy()
    for column in out.columns:
        series = out[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series):
            text = series.astype("string")
            risky = text.str.startswith(FORMULA_PREFIXES).fillna(False)
            if risky.any():
                out[column] = series.where(~risky.to_numpy(), "'" + text.astype(str))
    out.columns = [("'" + c) if isinstance(c, str) and c.startswith(FORMULA_PREFIXES) else c for c in out.columns]
    return out


def formula_note(frame: pd.DataFrame) -> str:
    """A sentence when :func:`neutralize_formulas` changes cells of ``frame`` (names starting ``= + - @``); else "".

    A script joining the CSV on model names must know that ``=cmd()`` was written ``'=cmd()``.

    >>> formula_note(pd.DataFrame({"model": ["=cmd()", "gpt"]}))
    "1 text cell began with = + - @ (e.g. '=cmd()') and was written with a leading ' so that spreadsheets show it as text, not a formula: strip the ' to join on it."
    >>> formula_note(pd.DataFrame({"model": ["gpt"], "mu": [-0.5]}))
    ''
    """
    risky = []
    for column in frame.columns:
        series = frame[column]
        if series.dtype == object or pd.api.types.is_string_dtype(series):
            text = series.astype("string")
            risky.extend(text[text.str.startswith(FORMULA_PREFIXES).fillna(False)].astype(str).tolist())
    if not risky:
        return ""
    return (f"{len(risky):,} text cell{'s' if len(risky) > 1 else ''} began with = + - @ (e.g. {risky[0][:40]!r}) and "
            f"{'were' if len(risky) > 1 else 'was'} written with a leading ' so that spreadsheets show "
            f"{'them' if len(risky) > 1 else 'it'} as text, not a formula: strip the ' to join on it.")


def with_context(frame: pd.DataFrame, *, dataset: str, rubric: str) -> pd.DataFrame:
    """``frame`` with ``dataset`` and ``rubric`` columns appended (the same value on every row), so an exported CSV
    still says what it ranks once renamed or forwarded (the Markdown and HTML exports say it in their text).

    >>> list(with_context(pd.DataFrame({"model": ["a"]}), dataset="d.csv", rubric="Binary correctness").columns)
    ['model', 'dataset', 'rubric']
    """
    return frame.assign(dataset=str(dataset), rubric=str(rubric))


def to_csv(frame: pd.DataFrame) -> str:
    """CSV text with formula-injection neutralised, full float precision, ``\\n`` line ends."""
    return neutralize_formulas(frame).to_csv(index=False, lineterminator="\n")


#: Characters that Markdown (GitHub-flavoured, incl. inline HTML) gives a meaning.
_MD_SPECIAL = r"([\\`*_\[\]<>|~$])"  # $: GitHub renders $...$ as math

_CONTROL = re.compile(r"\r\n|[\x00-\x1f\x7f]")
_CONTROL_NAMES = {"\r\n": r"\n", "\n": r"\n", "\r": r"\r", "\t": r"\t"}


def visible_controls(text: str) -> str:
    r"""Control characters written as backslash escapes, so text stays on one line (one table cell).

    >>> print(visible_controls("a\nb\tc\x00"))
    a\nb\tc\x00
    """
    def name(match: re.Match) -> str:
        c = match.group(0)
        return _CONTROL_NAMES[c] if c in _CONTROL_NAMES else f"\\x{ord(c):02x}"

    return _CONTROL.sub(name, str(text))


def _text_columns(frame: pd.DataFrame) -> list:
    return [c for c in frame.columns if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c])]


def _one_line(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells and headers with control characters made visible (see :func:`visible_controls`)."""
    out = frame.copy()
    for column in _text_columns(out):
        out[column] = out[column].map(lambda v: v if v is None or v is pd.NA or (isinstance(v, float) and v != v)
                                      else visible_controls(v))
    out.columns = [visible_controls(c) if isinstance(c, str) else c for c in out.columns]
    return out


def without_negative_zero(frame: pd.DataFrame, decimals: int = 4) -> pd.DataFrame:
    """Float columns rounded to ``decimals`` with ``-0`` made ``0`` (a shown "-0.0000" reads as a sign).

    >>> without_negative_zero(pd.DataFrame({"x": [-0.0, -0.00001, 0.25]}))["x"].map(str).tolist()
    ['0.0', '0.0', '0.25']
    """
    out = frame.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            out[column] = out[column].round(decimals) + 0.0
    return out


def _md_text(text: str) -> str:
    """Plain text (model names included) that renders literally in Markdown."""
    return re.sub(_MD_SPECIAL, r"\\\1", visible_controls(text))


def to_markdown(frame: pd.DataFrame, floatfmt: str = ".4f") -> str:
    """GitHub-flavoured Markdown table; text cells render literally, one line each.

    Markdown syntax in user text (links, emphasis, inline HTML, pipes) is backslash-escaped and control
    characters are written visibly (:func:`visible_controls`); names are not formula-neutralised (no
    spreadsheet evaluates Markdown: ``@cf/meta/llama`` stays ``@cf/meta/llama``).

    >>> print(to_markdown(pd.DataFrame({"model": ["[x](javascript:1) **b** <b>", "@cf/x", "a\\nb"]})))
    | model                               |
    |-------------------------------------|
    | \\[x\\](javascript:1) \\*\\*b\\*\\* \\<b\\> |
    | @cf/x                               |
    | a\\\\nb                              |
    >>> print(to_markdown(pd.DataFrame({"x": [0.5, float("nan")]})))
    |      x |
    |--------|
    | 0.5000 |
    |        |
    """
    safe = _one_line(without_negative_zero(frame))
    for column in _text_columns(safe):
        escaped = safe[column].astype("string").str.replace(_MD_SPECIAL, r"\\\1", regex=True)
        safe[column] = escaped.astype(object).where(escaped.notna(), "")  # a missing cell is empty
    for column in safe.columns[safe.isna().any()]:  # a missing number too (tabulate wrote "nan")
        safe[column] = safe[column].astype(object).where(safe[column].notna(), None)
    return safe.to_markdown(index=False, floatfmt=floatfmt, tablefmt="github", missingval="")


def presentation_table(frame: pd.DataFrame, *, metric_label: str = "Bayes@N", confidence: float = 0.95) -> pd.DataFrame:
    """Leaderboard rows with readable headers for Markdown/LaTeX/HTML (CSV keeps the raw columns).

    Columns: Rank, Rank (CI ties), Model, ``<metric> mean``, ``<pct> CrI low/high`` (:func:`interval_abbrev`:
    "exact CI" or "interval" where some intervals are exact binomial), sigma,
    avg@N (the observed mean score, next to the prior-based estimate), M (questions), N
    (trials per question; ``"1-12"`` where a model's differ, :func:`trial_spans`); ``"2 (tie)"`` in Rank (CI ties)
    where models share a rank (:func:`tie_marks`); a Task column when several tasks. Which prior and
    scope the intervals use is :func:`interval_note` (put it in the caption or below).

    >>> t = pd.DataFrame({"model": ["a"], "task": ["t"], "mu": [0.5], "lo": [0.4], "hi": [0.6], "sigma": [0.05],
    ...                   "avg": [0.55], "rank": [1], "rank_ci": [1], "n_questions": [3], "n_trials": [4]})
    >>> list(presentation_table(t).columns)
    ['Rank', 'Rank (CI ties)', 'Model', 'Bayes@N mean', '95% CrI low', '95% CrI high', 'sigma', 'avg@N (observed)', 'M', 'N']
    """
    short = interval_abbrev(frame, confidence)  # "95% CrI", or "95% exact CI" where the prior is not identified
    columns = {
        "rank": "Rank",
        "rank_ci": "Rank (CI ties)",
        "task": "Task",
        "model": "Model",
        "mu": estimate_header(frame, metric_label),
        "lo": f"{short} low",
        "hi": f"{short} high",
        "sigma": "sigma",
        "avg": "avg@N (observed)",
        "n_questions": "M",
        "n_trials": "N",
    }
    keep = [c for c in columns if c in frame.columns and (c != "task" or frame["task"].nunique() > 1)]
    out = frame[keep].rename(columns=columns)
    for col in ("Rank", "Rank (CI ties)", "M", "N"):
        if col in out:
            out[col] = out[col].astype("Int64")
    ties = tie_marks(frame)
    if ties is not None and "Rank (CI ties)" in out:  # a repeated number alone is easy to miss in print
        out["Rank (CI ties)"] = ties.to_numpy()
    spans = trial_spans(frame)
    if spans is not None and "N" in out:  # unequal trials: "1-12", not the smallest alone (that reads as N = 1)
        out["N"] = spans.to_numpy()
    return out.reset_index(drop=True)


def tie_marks(frame: pd.DataFrame) -> pd.Series | None:
    """``rank_ci`` as text with ``" (tie)"`` where models share it (within a task), as the HTML report writes it.

    Returns
    -------
    Series of str or None
        ``"3"`` or ``"3 (tie)"`` per row (empty where the rank is missing); None when no rank is shared or
        ``rank_ci`` is absent.

    >>> tie_marks(pd.DataFrame({"rank_ci": [1, 2, 2, 4]})).tolist()
    ['1', '2 (tie)', '2 (tie)', '4']
    >>> tie_marks(pd.DataFrame({"task": ["a", "b"], "rank_ci": [1, 1]})) is None
    True
    """
    if "rank_ci" not in frame.columns:
        return None
    ranks = frame["rank_ci"]
    keys = [frame["task"], ranks] if "task" in frame.columns else [ranks]
    shared = ranks.notna() & (ranks.groupby(keys, dropna=False).transform("size") > 1)
    if not bool(shared.any()):
        return None
    text = ranks.astype("Int64").astype("string").fillna("")
    return text.where(~shared, text + " (tie)").astype(object)


def estimate_header(frame: pd.DataFrame, metric_label: str) -> str:
    """The estimate's header: ``"Pooled rate"`` where every scored row is the N = 1 fallback (``interval_kind`` exact
    binomial: no prior fitted, the pooled observed rate), ``"<metric> mean or pooled rate"`` where some are.

    >>> t = pd.DataFrame({"mu": [0.5, 0.4], "interval_kind": ["exact-binomial", "credible"]})
    >>> [estimate_header(t.iloc[rows], "Bayes@N") for rows in ([0], [1], [0, 1])]
    ['Pooled rate', 'Bayes@N mean', 'Bayes@N mean or pooled rate']
    >>> estimate_header(t.iloc[[1]], "avg@N")  # not "avg@N mean" beside the export's "avg@N (observed)"
    'avg@N posterior mean'
    """
    mean = f"{metric_label} {'posterior ' if metric_label == 'avg@N' else ''}mean"  # beside "avg@N (observed)"
    if "interval_kind" not in frame.columns:
        return mean
    scored = frame["interval_kind"][frame["mu"].notna()] if "mu" in frame.columns else frame["interval_kind"]
    exact = scored.astype(str).eq("exact-binomial")
    if len(exact) and bool(exact.all()):
        return "Pooled rate"
    return f"{mean} or pooled rate" if bool(exact.any()) else mean


def trial_spans(frame: pd.DataFrame) -> pd.Series | None:
    """Trials per question as text, ``"4"`` or ``"1-12"`` (smallest-largest), when some model's differ; else None.

    Parameters
    ----------
    frame : DataFrame
        Leaderboard rows with ``n_trials`` (smallest) and ``n_trials_max`` (largest) per model.

    Returns
    -------
    Series of str or None
        None when every row has one number of trials (or either column is missing).

    Examples
    --------
    >>> trial_spans(pd.DataFrame({"n_trials": [1, 4], "n_trials_max": [12, 4]})).tolist()
    ['1-12', '4']
    >>> trial_spans(pd.DataFrame({"n_trials": [4], "n_trials_max": [4]})) is None
    True
    """
    if "n_trials" not in frame.columns or "n_trials_max" not in frame.columns:
        return None
    low, high = frame["n_trials"].astype("Int64"), frame["n_trials_max"].astype("Int64")
    if not bool((low != high).fillna(False).any()):
        return None
    return pd.Series([("" if pd.isna(a) else f"{a}") if pd.isna(b) or a == b else f"{a}-{b}"
                      for a, b in zip(low, high)], index=frame.index, dtype=object)


def interval_name(frame: pd.DataFrame, confidence: float, *, plural: bool = False) -> str:
    """The kind of interval a leaderboard shows, in a few words: credible, or exact binomial where a model's
    empirical-Bayes prior is not identified (its ``interval`` label says so; N = 1 data).

    Parameters
    ----------
    frame : DataFrame
        Leaderboard rows; the ``interval`` labels of the scored rows (``mu`` not NaN) are read. Without an
        ``interval`` column every interval is taken as credible.
    confidence : float
        The level, e.g. 0.95.
    plural : bool, default False

    Returns
    -------
    str

    Examples
    --------
    >>> exact = "95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials (questions fixed)"
    >>> interval_name(pd.DataFrame({"mu": [0.5], "interval": ["95% credible interval; uniform prior"]}), 0.95)
    '95% credible interval'
    >>> interval_name(pd.DataFrame({"mu": [0.5, 0.4], "interval": [exact, exact]}), 0.95, plural=True)
    '95% exact binomial intervals'
    >>> interval_name(pd.DataFrame({"mu": [0.5, 0.4], "interval": ["95% credible interval", exact]}), 0.95)
    '95% credible interval (exact binomial where the prior is not identified)'
    """
    s = "s" if plural else ""
    pct = f"{confidence:.0%}"
    scored = frame[frame["mu"].notna()] if "mu" in frame.columns else frame
    labels = scored["interval"].dropna().astype(str) if "interval" in scored.columns else pd.Series([], dtype=str)
    exact = labels.map(is_fallback_interval).astype(bool)
    if len(labels) and exact.all():
        return f"{pct} exact binomial interval{s}"
    if exact.any():
        return f"{pct} credible interval{s} (exact binomial where the prior is not identified)"
    return f"{pct} credible interval{s}"


def interval_abbrev(frame: pd.DataFrame, confidence: float) -> str:
    """:func:`interval_name` for a column header or a hover line: "95% CrI" (credible), "95% exact CI" (every
    interval exact binomial) or "95% interval" (some of each; the caption or note says which is which).

    >>> exact = "95% exact binomial (Clopper-Pearson) interval on the pooled answers"
    >>> [interval_abbrev(pd.DataFrame({"mu": [0.5, 0.4], "interval": labels}), 0.95)
    ...  for labels in (["95% credible interval"] * 2, [exact, exact], ["95% credible interval", exact])]
    ['95% CrI', '95% exact CI', '95% interval']
    """
    name = interval_name(frame, confidence)
    pct = f"{confidence:.0%}"
    if name.endswith("credible interval"):
        return f"{pct} CrI"
    return f"{pct} exact CI" if name.endswith("exact binomial interval") else f"{pct} interval"


def interval_note(frame: pd.DataFrame) -> str:
    """What the intervals of a leaderboard cover (its ``interval`` column), as one sentence.

    >>> interval_note(pd.DataFrame({"interval": ["95% credible interval; covers trials (questions fixed); uniform prior"]}))
    'Intervals: 95% credible interval; covers trials (questions fixed); uniform prior.'
    """
    groups = interval_groups(frame)
    if len(groups) <= 1:
        return "".join(f"Intervals: {label}." for _, label in groups)
    return "Intervals: " + "; ".join(f"of {names}: {label}" for names, label in groups) + "."


def interval_groups(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """``(rows, label)`` per distinct interval label of the scored rows: which models (and tasks) each covers.

    ``rows`` names the models in a sentence (:func:`scorio_core.ranking.paired.names_phrase`; "model (task)" where the
    frame has several tasks); with one label it is every scored row.

    >>> interval_groups(pd.DataFrame({"model": ["a", "b", "c"], "mu": [0.5, 0.4, 0.3], "interval": ["x", "y", "x"]}))
    [('a and c', 'x'), ('b', 'y')]
    """
    from scorio_core.ranking.paired import names_phrase

    labels = interval_labels(frame)
    scored = frame[frame["mu"].notna()] if "mu" in frame.columns else frame
    rows = scored["model"].astype(str) if "model" in scored.columns else pd.Series("", index=scored.index)
    if "task" in scored.columns and scored["task"].nunique() > 1:  # one row per (model, task): name both
        rows = rows + " (" + scored["task"].astype(str) + ")"
    return [(names_phrase(rows[scored["interval"].astype(str) == label]), label) for label in labels]


def interval_labels(frame: pd.DataFrame) -> list[str]:
    """The distinct ``interval`` labels of a leaderboard's scored rows (``mu`` not NaN), in row order.

    A model without a score shows no interval, so its label is left out.

    >>> interval_labels(pd.DataFrame({"mu": [0.5, None, 0.4], "interval": ["a", "b", "a"]}))
    ['a']
    """
    if "interval" not in frame.columns:
        return []
    scored = frame[frame["mu"].notna()] if "mu" in frame.columns else frame
    return [str(v) for v in dict.fromkeys(scored["interval"].dropna())]


def leaderboard_markdown(table: pd.DataFrame, *, metric_label: str, confidence: float, verdict=None,
                         notes: Sequence[str] = (), context: Mapping[str, str] | None = None) -> str:
    """Markdown export of a leaderboard: what it is (``context``, e.g. ``{"Task": ..., "Rubric": ...}``, one line),
    the verdict's headline and basis (when given), a readable table, then what its intervals cover and ``notes``
    (e.g. the :func:`~scorio_core.leaderboard.checks.leaderboard_notices` messages: models that answered different
    questions), one row each of the *Note* table."""
    # the verdict's caveats (one-sided lead, few trials, N = 1 probabilities), all but what the intervals cover, which
    # interval_note says: a Markdown reader gets what the HTML report's reader gets
    said = [c for c in (verdict.caveats if verdict is not None else ()) if not c.startswith(("Intervals", "Interval:"))]
    head = ""
    if verdict is not None:
        head = f"**{_md_text(verdict.headline)}**\n\n" + (f"{_md_text(verdict.basis)}\n\n" if verdict.basis else "")
    if "P(" not in head:  # the table has no probabilities: a caveat about comparing them would point at nothing
        said = [c for c in said if not c.startswith("Each probability compares")]
    rows = [n for n in [interval_note(table), *notes, *said] if n]
    if context:  # which data, task and rubric the numbers are about: the HTML report's settings, in one line
        head = " · ".join(f"{_md_text(k)}: {_md_text(v)}" for k, v in context.items() if v) + "\n\n" + head
    body = head + to_markdown(presentation_table(table, metric_label=metric_label, confidence=confidence)) + "\n"
    return body + (f"\n{to_markdown(pd.DataFrame({'Note': rows}))}\n" if rows else "")
