"""Model groups: family or organisation of each model, for filtering and grouping leaderboards.

A group comes from a per-model column of the data (``family``, ``organisation`` /
``organization``, ``org``, ``provider``, ``vendor``, ``developer``: the first one present whose
value is the same on every row of a model), else from an organisation prefix every model name
carries (``anthropic/claude-3-5-sonnet`` -> ``anthropic``, as Inspect AI and many harnesses name
models; prefixes that differ only in letter case are one group, :func:`scorio_core.report.names.one_spelling`). Nothing is guessed beyond that: without such a column or prefix there are no groups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from scorio_core.report.names import one_spelling

__all__ = ["GROUP_COLUMNS", "ModelGroups", "model_groups"]

#: Per-model columns read as the model's group, in order of preference.
GROUP_COLUMNS = ("family", "organisation", "organization", "org", "provider", "vendor", "developer")
_PREFIX = re.compile(r"^([A-Za-z0-9._\-]+)/.")


@dataclass(frozen=True)
class ModelGroups:
    """Group of each model.

    Attributes
    ----------
    source : str
        Where the groups come from: a column name, or ``"name prefix"``.
    of : dict of str to str
        Group per model (every model of the data).
    notes : list of str
        Columns that were not used and why (a value that varies within a model).
    """

    source: str
    of: dict[str, str]
    notes: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[str]:
        """Group names, sorted."""
        return sorted(set(self.of.values()))

    def models_in(self, groups, models) -> list[str]:
        """``models`` (in their order) whose group is one of ``groups``."""
        keep = set(groups)
        return [m for m in models if self.of.get(str(m)) in keep]


def model_groups(table: pd.DataFrame | None) -> ModelGroups | None:
    """Groups of the models of an attempt or count table, or None when the data has none.

    Parameters
    ----------
    table : DataFrame
        ``Dataset.attempts`` or ``Dataset.counts`` (a ``model`` column and any others).

    Returns
    -------
    ModelGroups or None
        From the first column of :data:`GROUP_COLUMNS` (case-insensitive) that is non-empty and
        constant within every model (a model whose rows are all empty goes to ``"(none)"``), else
        from an ``org/`` prefix on every model name (with at least two distinct models; ``Qwen/`` and ``qwen/`` one
        group), else None.

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["a/x", "a/y", "b/z"], "is_correct": [1, 0, 1]})
    >>> g = model_groups(t); g.source, g.of
    ('name prefix', {'a/x': 'a', 'a/y': 'a', 'b/z': 'b'})
    >>> t["Family"] = ["llama", "llama", "qwen"]
    >>> model_groups(t).of["b/z"], model_groups(t).source
    ('qwen', 'Family')
    >>> model_groups(pd.DataFrame({"model": ["x", "y"]})) is None
    True
    """
    if table is None or "model" not in table.columns or table.empty:
        return None
    models = table["model"].astype(str)
    notes = []
    by_lower = {str(c).lower(): c for c in table.columns}
    for name in GROUP_COLUMNS:
        col = by_lower.get(name)
        if col is None:
            continue
        values = table[col].astype("string").str.strip().replace("", pd.NA)
        if values.isna().all():
            continue
        frame = pd.DataFrame({"model": models.to_numpy(), "group": values.to_numpy()})
        per_model = frame.groupby("model", sort=False)["group"].nunique(dropna=True)
        varying = per_model[per_model > 1]
        if len(varying):
            notes.append(f"column '{col}' is not used for groups: it varies within model '{varying.index[0]}'.")
            continue
        first = frame.dropna(subset=["group"]).drop_duplicates("model").set_index("model")["group"]
        of = {m: str(first.get(m, "(none)")) for m in pd.unique(models)}
        return ModelGroups(source=str(col), of=of, notes=notes)
    names = [str(m) for m in pd.unique(models)]
    prefixes = [_PREFIX.match(m) for m in names]
    if len(names) >= 2 and all(prefixes):
        of = one_spelling({m: p.group(1) for m, p in zip(names, prefixes)})  # Qwen/ and qwen/: one organisation
        return ModelGroups(source="name prefix", of=of, notes=notes)
    return None
