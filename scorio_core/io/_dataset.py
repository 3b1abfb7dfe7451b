"""The loaded dataset: one canonical table, its quality report and where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io.quality.compute import QualityReport
from scorio_core.io.quality.report import ADVICE, DUPLICATES_FINDING, with_duplicate_example
from scorio_core.io.formats.path_names import SHARED_STEM_WORDS

__all__ = ["Dataset", "SourceInfo", "attempts_to_counts", "RESERVED_TASK"]

#: The task name that means "all tasks pooled" (``scorio_core.leaderboard.task_outcomes.ALL_TASKS``); no data task may use it.
RESERVED_TASK = "all tasks"


class SourceInfo(NamedTuple):
    """One loaded input (a NamedTuple, so ``_asdict()`` gives its JSON form).

    Attributes
    ----------
    name : str
        File or folder name (never a full path).
    format : str
        Key of :data:`scorio_core.io.SUPPORTED_FORMATS` used to read it.
    sha256 : str
        SHA-256 of the bytes read (of every member file for a HELM folder).
    rows : int
        Rows the source contributed to the canonical table.
    layout : {"attempts", "counts"}
    mapping : tuple of (str, str)
        ``(canonical, source column)`` pairs used.
    """

    name: str
    format: str
    sha256: str
    rows: int
    layout: str = "attempts"
    mapping: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict:
        """JSON-serializable dict (``mapping`` as an object)."""
        out = self._asdict()
        out["mapping"] = dict(self.mapping)
        return out


@dataclass(frozen=True)
class Dataset:
    """Canonical evaluation data (docs/ARCHITECTURE.md, "Canonical tables").

    Exactly one of ``attempts`` and ``counts`` is set.

    Attributes
    ----------
    attempts : pandas.DataFrame or None
        One row per attempt: ``model, task, question_id`` (categorical of str), ``trial``
        (int64), ``is_correct`` (float64, 0.0/1.0; NaN when the outcome is non-binary,
        missing or only a ``category`` is given), optional ``category`` (Int64), then signals.
    counts : pandas.DataFrame or None
        One row per (model, task, question): ``model, task, question_id, n_trials,
        n_correct`` (int64), then extra columns. No trial order.
    report : QualityReport
    sources : tuple of SourceInfo
    row_source : numpy.ndarray of shape (n_rows,), optional
        Index into ``sources`` of the file each row came from (for conflict reports).
    trial_prefix : dict of str to PrefixStats, optional
        Count data only: per task, the trial order kept as prefix counts (question-state
        histograms after n = 1..N trials, :class:`scorio_core.engines.prefix.PrefixStats`),
        from which observed rank trajectories are exact
        (:func:`scorio_core.dynamics.prefix.trajectory_from_prefix_stats`). Set by the DuckDB
        engine with ``trial_prefix=True``; None when the trial order is unknown.
    """

    attempts: pd.DataFrame | None
    counts: pd.DataFrame | None
    report: QualityReport
    sources: tuple[SourceInfo, ...]
    row_source: np.ndarray | None = field(default=None, repr=False, compare=False)
    trial_prefix: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        table = self.attempts if self.attempts is not None else self.counts
        tasks = table["task"] if table is not None and "task" in table.columns else None
        names = tasks.cat.categories if tasks is not None and isinstance(tasks.dtype, pd.CategoricalDtype) else tasks
        if names is not None and (np.asarray(names, dtype=object) == RESERVED_TASK).any():
            raise InputError(f"a task is named '{RESERVED_TASK}', the name the dashboard and the CLI (--task) give to "
                             "every task pooled; rename that task in the file (e.g. 'all_tasks') and load it again.",
                             source=", ".join(s.name for s in self.sources[:3]) or None, field="task")

    @property
    def table(self) -> pd.DataFrame:
        """The canonical table that is set (attempts or counts)."""
        return self.attempts if self.attempts is not None else self.counts  # type: ignore[return-value]

    @property
    def layout(self) -> str:
        """``"attempts"`` or ``"counts"``."""
        return "attempts" if self.attempts is not None else "counts"

    @property
    def ready(self) -> bool:
        """True when no issue in ``report.blocking`` needs a user choice."""
        return not self.report.blocking

    def require_ready(self) -> Dataset:
        """Return self, or raise when a user choice is still needed.

        Raises
        ------
        InputError
            Naming the first blocking issue and the choice that resolves it.
        """
        if self.report.blocking:
            names = ", ".join(s.name for s in self.sources[:3]) + (" ..." if len(self.sources) > 3 else "")
            first = with_duplicate_example(self.report.blocking[0], (self.report.duplicates or (None,))[0],
                                           counts_layout=self.layout == "counts")
            r = self.report  # the first blocking message is about non-binary outcomes, then missing ones
            place = r.non_binary_at if r.n_non_binary else r.missing_outcome_at if r.n_missing_outcomes else ""
            if place and ADVICE in first:
                finding, advice = first.split(ADVICE, 1)
                first = f"{finding} (the first: {place}){ADVICE}{advice}"
            stem = [d for d in r.defaults if "no model column" in d]
            shared = [n for n in r.notes if SHARED_STEM_WORDS in n]
            if shared and DUPLICATES_FINDING.search(first):  # files of one name in several folders: not to be merged
                first = f"{first.split(ADVICE, 1)[0]}: {shared[0]} --duplicates would merge them."
            elif stem and r.n_conflicting_keys and DUPLICATES_FINDING.search(first):  # several models under one name
                first = (f"{first.split(ADVICE, 1)[0]}: {stem[0].split(': ', 1)[-1].rstrip('.')}, so the rows of "
                         "different models share one name. If the file holds several models, name their column: "
                         "--map model=COLUMN (Python: load(..., mapping={'model': COLUMN})); --duplicates would "
                         "merge them.")
            raise InputError(f"{names}: {first}")
        return self

    def to_counts(self) -> pd.DataFrame:
        """Count table (``model, task, question_id, n_trials, n_correct``).

        For attempt data this tallies binary outcomes per (model, task, question); trials are
        treated as exchangeable.

        Raises
        ------
        InputError
            If some attempts have no binary outcome (resolve with ``apply_choices`` first).
        """
        if self.counts is not None:
            return self.counts
        return attempts_to_counts(self.attempts, ", ".join(s.name for s in self.sources[:3]))


def attempts_to_counts(attempts: pd.DataFrame, source: str = "") -> pd.DataFrame:
    """Tally an attempt table into a count table (vectorized groupby).

    Raises
    ------
    InputError
        If ``is_correct`` has NaN (non-binary or missing outcomes).
    """
    ic = attempts["is_correct"].to_numpy(np.float64)
    if np.isnan(ic).any():
        raise InputError(
            (f"{int(np.isnan(ic).sum())} attempts have no binary outcome, so they cannot be counted; " if
             int(np.isnan(ic).sum()) != 1 else "1 attempt has no binary outcome, so it cannot be counted; ")
            + "choose a threshold or drop them with apply_choices first.",
            source=source or None,
            field="is_correct",
        )
    grouped = attempts.groupby(["model", "task", "question_id"], observed=True, sort=False)["is_correct"]
    out = grouped.agg(n_trials="size", n_correct="sum").reset_index()
    out["n_trials"] = out["n_trials"].astype(np.int64)
    out["n_correct"] = out["n_correct"].astype(np.int64)
    return out
