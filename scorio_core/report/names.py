"""Display names: shorter model names for tables and figures (the full name stays on hover and in exports).

Eval dumps name models like ``anthropic/claude-3-5-sonnet-20241022`` or
``hf_models/meta-llama__Llama-3.1-8B-Instruct``; on a leaderboard the organisation prefix and
the release date crowd out what tells models apart. The rules are conservative: a name is only
shortened when every shortened name stays unique, and exports always carry the full name.
"""

from __future__ import annotations

import re

__all__ = ["display_names"]

# a release date at the end: -20241022, -2024-10-22, _2024_10_22, @20241022 (not 4-digit snapshots like -0613)
_DATE = re.compile(r"[-_@ ](?:20\d{2}[-_]?\d{2}[-_]?\d{2})$")
_PREFIX = re.compile(r"^[A-Za-z0-9._\-]+/(?=.)")  # an organisation or folder: letters, digits, . _ - only


def _common_prefix(names: list[str]) -> str:
    """The longest prefix of every name that ends at a path-like separator (/, __ or :), e.g. ``runs/2025/``.

    Dashes are not cut: ``gpt-4o`` and ``gpt-4`` share ``gpt-`` but it is part of the name.
    """
    if len(names) < 2:
        return ""
    first, last = min(names), max(names)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    prefix = first[:i]
    ends = [prefix.rfind("/") + 1, prefix.rfind(":") + 1]
    if "__" in prefix:
        ends.append(prefix.rfind("__") + 2)
    return prefix[: max(ends)]


def display_names(models, max_chars: int = 36) -> dict[str, str]:
    """Short, unique display names for model names.

    Parameters
    ----------
    models : sequence of str
        Full model names (unique).
    max_chars : int, default 36
        Longer results are cut in the middle with "…".

    Returns
    -------
    dict of str to str
        Full name -> display name. Steps, each kept only if all names stay unique and
        non-empty: drop an ``org/`` prefix, drop a prefix shared by every model (ending at
        ``/``, ``__`` or ``:``), drop a trailing release date (``-20241022``, ``-2024-10-22``); then cut
        overlong names in the middle. Names that would collide keep their full form.

    Examples
    --------
    >>> display_names(["openai/gpt-4o-2024-08-06", "anthropic/claude-3-5-sonnet-20241022"])
    {'openai/gpt-4o-2024-08-06': 'gpt-4o', 'anthropic/claude-3-5-sonnet-20241022': 'claude-3-5-sonnet'}
    >>> display_names(["org/a-2024-01-01", "org/a-2024-02-01"])  # dates tell them apart: kept
    {'org/a-2024-01-01': 'a-2024-01-01', 'org/a-2024-02-01': 'a-2024-02-01'}
    """
    full = [str(m) for m in models]
    current = list(full)

    def attempt(step) -> None:
        nonlocal current
        shorter = [step(n) or n for n in current]
        if len(set(shorter)) == len(set(current)):
            current = shorter

    attempt(lambda n: _PREFIX.sub("", n))
    prefix = _common_prefix(current)
    if prefix:
        attempt(lambda n: n[len(prefix):])
    attempt(lambda n: _DATE.sub("", n))
    out = {}
    for name, short in zip(full, current):
        if len(short) > max_chars:
            keep = max_chars - 1
            short = short[: (keep + 1) // 2] + "…" + short[len(short) - keep // 2:]
        out[name] = short
    if len(set(out.values())) < len(set(full)):  # a middle cut collided: those keep the uncut form
        seen: dict[str, int] = {}
        for v in out.values():
            seen[v] = seen.get(v, 0) + 1
        out = {k: (current[full.index(k)] if seen[v] > 1 else v) for k, v in out.items()}
    return out
