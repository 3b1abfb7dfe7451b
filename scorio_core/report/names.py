"""Display names: shorter model names for tables and figures (the full name stays on hover and in exports).

Eval dumps name models like ``anthropic/claude-3-5-sonnet-20241022`` or
``hf_models/meta-llama__Llama-3.1-8B-Instruct``; on a leaderboard the organisation prefix and
the release date crowd out what tells models apart. The rules are conservative: a name is only
shortened when every shortened name stays unique, and exports always carry the full name.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["display_names", "one_spelling", "organisations"]

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


_TOKENS = re.compile(r"([/_\-\s.:]+)")  # tokens and the separators between them (kept)


def _shared_tokens(names: list[str]) -> frozenset[str]:
    """Tokens (split at / _ - . : and spaces) that every name contains: they do not tell models apart."""
    if len(names) < 2:
        return frozenset()
    sets = [set(_TOKENS.split(n)[::2]) - {""} for n in names]
    return frozenset(set.intersection(*sets))


def _without_shared(name: str, shared: frozenset[str]) -> str:
    """``name`` with runs of shared tokens in its middle replaced by one "…" (the first and last tokens stay).

    >>> _without_shared("LLM/20250425_naive_agent_gemini-2.5-Pro-Exp-03-25", frozenset({"20250425", "naive", "agent"}))
    'LLM/…gemini-2.5-Pro-Exp-03-25'
    """
    parts = _TOKENS.split(name)  # token, sep, token, sep, ..., token
    tokens = parts[::2]
    if len(tokens) < 3 or not shared:
        return name
    drop = [0 < i < len(tokens) - 1 and t in shared for i, t in enumerate(tokens)]
    out, i = [], 0
    while i < len(tokens):
        if drop[i]:
            while i < len(tokens) and drop[i]:
                i += 1
            out.append("…")  # the run and its separators, up to the next kept token
        else:
            if out and out[-1] != "…":
                out.append(parts[2 * i - 1])  # the separator before a kept token
            out.append(tokens[i])
            i += 1
    text = "".join(out)
    # keep the separator a kept token had after the prefix (LLM/…), so the name still reads as a path
    if out and out[0] != "…" and len(out) > 1 and out[1] == "…":
        text = out[0] + parts[1] + "".join(out[1:])
    return text


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
        ``/``, ``__`` or ``:``), drop a trailing release date (``-20241022``, ``-2024-10-22``); then, in
        names still longer than ``max_chars``, replace tokens every model shares (split at ``/ _ - . :``)
        with "…", so what tells models apart stays; only then cut what is still overlong in the middle.
        Names that would collide keep their full form.

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
    shared = _shared_tokens(current)
    out = {}
    for name, short in zip(full, current):
        if len(short) > max_chars:
            short = _without_shared(short, shared)
        if len(short) > max_chars:
            keep = max_chars - 1
            short = short[: (keep + 1) // 2] + "…" + short[len(short) - keep // 2:]
        out[name] = short
    if len(set(out.values())) < len(set(full)):  # a middle cut collided: those keep the uncut form
        seen: dict[str, int] = {}
        for v in out.values():
            seen[v] = seen.get(v, 0) + 1
        uncut = dict(zip(full, current))
        out = {k: (uncut[k] if seen[v] > 1 else v) for k, v in out.items()}
    return out


#: Organisations by a family token of the model name (lower case), for names without an ``org/`` prefix.
_FAMILIES = {
    "gpt": "OpenAI", "o1": "OpenAI", "o3": "OpenAI", "o4": "OpenAI", "chatgpt": "OpenAI", "davinci": "OpenAI",
    "claude": "Anthropic", "gemini": "Google", "gemma": "Google", "palm": "Google", "llama": "Meta",
    "qwen": "Alibaba", "qwq": "Alibaba", "deepseek": "DeepSeek", "mistral": "Mistral", "mixtral": "Mistral",
    "codestral": "Mistral", "magistral": "Mistral", "grok": "xAI", "phi": "Microsoft", "command": "Cohere",
    "kimi": "Moonshot", "glm": "Zhipu", "yi": "01.AI", "nemotron": "NVIDIA", "olmo": "Ai2",
}


def organisations(models) -> dict[str, str]:
    """The organisation (or model family) of each model, where it can be derived, else "".

    Parameters
    ----------
    models : sequence of str

    Returns
    -------
    dict of str to str
        Full name -> the ``org/`` prefix of a hub-style name (``meta-llama/Llama-3.1-8B`` ->
        ``meta-llama``), else the maker of a known family token (``gpt-4o`` -> ``OpenAI``,
        ``claude-3-5-sonnet`` -> ``Anthropic``), else "" (never guessed from anything else); spellings that differ
        only in letter case are one (:func:`one_spelling`: ``openai/gpt-4o`` -> ``OpenAI``).

    Examples
    --------
    >>> organisations(["openai/gpt-4o", "claude-3-5-sonnet-20241022", "o3-mini (high)", "my-agent"])
    {'openai/gpt-4o': 'OpenAI', 'claude-3-5-sonnet-20241022': 'Anthropic', 'o3-mini (high)': 'OpenAI', 'my-agent': ''}
    """
    out = {}
    for model in (str(m) for m in models):
        prefix = _PREFIX.match(model)
        if prefix and "/" not in model[prefix.end():]:
            out[model] = prefix.group(0).rstrip("/")
            continue
        tokens = [t.lower() for t in re.split(r"[^A-Za-z0-9]+", model) if t]
        found = ""
        for token in tokens:
            family = _FAMILIES.get(token) or _FAMILIES.get(re.sub(r"\d.*$", "", token))
            if family:
                found = family
                break
        out[model] = found
    return one_spelling(out)


def one_spelling(labels: dict) -> dict:
    """``labels`` with the spellings of one organisation that differ only in letter case made one.

    Two harnesses write ``openai/gpt-4o`` and ``OpenAI/gpt-4o-mini`` (or one writes the prefix and the other only
    ``gpt-4o-mini``, whose maker reads ``OpenAI``): an organisation filter or column would list it twice. Only the
    label is unified; the model names stay as written.

    Parameters
    ----------
    labels : dict of str to str
        Organisation (or group) of each model; "" for none.

    Returns
    -------
    dict of str to str
        The same keys; where a label is written in more than one letter case, each replaced by one spelling: a known
        maker's (``OpenAI``, ``Meta``, ...) when one matches, else the spelling most models carry (the first seen on a
        tie). A label written one way is kept as written.

    Examples
    --------
    >>> one_spelling({"openai/gpt-4o": "openai", "gpt-4o-mini": "OpenAI", "Qwen/a": "Qwen", "qwen/b": "qwen",
    ...               "qwen/c": "qwen", "x": ""})
    {'openai/gpt-4o': 'OpenAI', 'gpt-4o-mini': 'OpenAI', 'Qwen/a': 'qwen', 'qwen/b': 'qwen', 'qwen/c': 'qwen', 'x': ''}
    """
    makers = {m.casefold(): m for m in _FAMILIES.values()}
    spelled: dict[str, str] = {}
    for label, _ in Counter(labels.values()).most_common():  # most models first; ties keep first-seen order
        spelled.setdefault(label.casefold(), label)
    clash = Counter(label.casefold() for label in set(labels.values()))
    spelled.update((k, m) for k, m in makers.items() if clash[k] > 1)
    return {model: spelled[label.casefold()] for model, label in labels.items()}
