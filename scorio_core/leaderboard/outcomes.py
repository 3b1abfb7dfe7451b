"""Outcomes of one task: the (L, M, N) category tensor and (L, M, C+1) counts.

The bridge between loaded tables (:mod:`scorio_core.io`) and the numeric core
(:mod:`scorio_core.eval`, :mod:`scorio_core.ranking.rank`, :mod:`scorio_core.dynamics.convergence`).
Missing cells (a model that did not answer a question) have zero trials; they are never
filled. Unequal trial counts are kept as they are (ragged); views that need a complete
rectangle call :meth:`Outcomes.complete_block`, which says what it dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.limits import check_dense

__all__ = ["Outcomes", "CompleteBlock", "from_attempts", "from_counts", "graded_rows", "BINARY_LABELS"]

BINARY_LABELS = ("wrong", "correct")


@dataclass(frozen=True, eq=False)
class Outcomes:
    """Category outcomes of L models on M questions of one task.

    Attributes
    ----------
    task : str
    models : tuple of str, length L
    questions : tuple of str, length M
    weights : ndarray of float, shape (C+1,)
        Rubric weight of each category.
    labels : tuple of str, length C+1
    counts : ndarray of int64, shape (L, M, C+1)
        Category counts per model and question; a row summing to 0 is a missing cell.
    R : ndarray of int16, shape (L, M, N), or None
        Category code of each trial in source trial order, -1 where a cell has fewer than
        ``N`` trials. ``None`` when only counts are known (trial order unknown).
    excluded : int
        Attempts left out because no rubric category matched them (reported, not filled).
    notes : tuple of str
    question_tasks : tuple of str, length M, or None
        Each question's task where tasks are pooled (``ALL_TASKS``): the empirical-Bayes prior is then fitted per
        task (:mod:`scorio_core.uncertainty.strata`). None for one task.
    """

    task: str
    models: tuple[str, ...]
    questions: tuple[str, ...]
    weights: np.ndarray
    labels: tuple[str, ...]
    counts: np.ndarray
    R: np.ndarray | None = None
    excluded: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)
    question_tasks: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.question_tasks is not None and len(self.question_tasks) != len(self.questions):
            raise ValueError(f"question_tasks has {len(self.question_tasks)} entries for {len(self.questions)} "
                             "questions; subset both with Outcomes.keep_questions.")

    def keep_questions(self, keep: np.ndarray) -> "Outcomes":
        """These outcomes on the questions where ``keep`` (bool, shape (M,)) is True (counts, trial order, tasks)."""
        keep = np.asarray(keep, dtype=bool)
        tasks = self.question_tasks
        return replace(self, questions=tuple(q for q, k in zip(self.questions, keep) if k), counts=self.counts[:, keep],
                       R=None if self.R is None else self.R[:, keep],
                       question_tasks=None if tasks is None else tuple(t for t, k in zip(tasks, keep) if k))

    def strata(self) -> np.ndarray | None:
        """Task code of each question (M,) where several tasks are pooled, else None (one prior per model)."""
        if self.question_tasks is None or len(set(self.question_tasks)) < 2:
            return None
        return pd.factorize(pd.Series(self.question_tasks, dtype=object), sort=False)[0].astype(np.int64)

    @property
    def n_models(self) -> int:
        """Number of models L."""
        return len(self.models)

    @property
    def n_questions(self) -> int:
        """Number of questions M (union over models)."""
        return len(self.questions)

    @property
    def n_categories(self) -> int:
        """Number of categories C+1."""
        return int(self.weights.size)

    @property
    def n_trials(self) -> np.ndarray:
        """Trials per (model, question), shape (L, M); 0 marks a missing cell."""
        c = self.counts
        if c.dtype == np.int64 and c.ndim == 3 and 2 <= c.shape[2] <= 8:  # adding the slices: ~5x faster, same integers
            out = c[..., 0] + c[..., 1]
            for j in range(2, c.shape[2]):
                out += c[..., j]
            return out
        return c.sum(axis=2)

    @property
    def is_binary(self) -> bool:
        """True for two categories weighted ``[0, 1]`` (correct / wrong)."""
        return self.n_categories == 2 and np.array_equal(self.weights, [0.0, 1.0])

    @property
    def has_order(self) -> bool:
        """Whether trial order is known (attempt-level data)."""
        return self.R is not None

    def is_complete(self) -> bool:
        """Every model answered every question with the same number of trials."""
        n = self.n_trials
        return bool(n.min() > 0 and np.all(n == n.flat[0]))

    def select_models(self, models: list[str] | tuple[str, ...]) -> "Outcomes":
        """Outcomes restricted to ``models`` (in the given order)."""
        index = [self.models.index(m) for m in models]
        return Outcomes(
            task=self.task,
            models=tuple(models),
            questions=self.questions,
            weights=self.weights,
            labels=self.labels,
            counts=self.counts[index],
            R=None if self.R is None else self.R[index],
            excluded=self.excluded,
            notes=self.notes,
            question_tasks=self.question_tasks,
        )

    def complete_block(self, ragged: bool = False) -> "CompleteBlock":
        """The largest rectangle views like trajectories and convergence@n need.

        Keeps the questions every model answered and the first ``N_min`` trials of each
        cell, where ``N_min`` is the smallest trial count among kept cells, and says what it
        dropped. With count data (no order) only the question intersection applies.
        ``ragged=True`` keeps every trial instead: cells with fewer than ``N_max`` trials are
        padded with -1 (:mod:`scorio_core.dynamics.ragged`) and ``n_trials`` is ``N_max``.
        """
        n = self.n_trials
        keep_q = np.all(n > 0, axis=0)
        if not np.any(keep_q):
            from scorio_core.items.linking import shared_models_hint  # not at the top: items imports this module

            hint = shared_models_hint(self.models, n > 0)
            raise InputError(
                f"task '{self.task}': no question was answered by all {len(self.models)} selected models (each "
                f"answered {_span((n > 0).sum(axis=1))} of {self.n_questions}); rank a subset of models "
                f"that share questions (CLI: trajectory or convergence --models A B ...{hint}); the Leaderboard ranks "
                "every model on the questions it answered."
            )
        notes = []
        kept, gone = None, ""  # task codes of the kept questions where they pool several tasks; tasks left out whole
        if self.strata() is not None:
            kept = self.strata()[keep_q]
            lost = dict.fromkeys(t for t, k in zip(self.question_tasks, keep_q) if not k).keys() - {
                t for t, k in zip(self.question_tasks, keep_q) if k}
            names = sorted(map(str, lost))
            listed = ("" if not names else names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if len(names) <= 5
                      else ", ".join(names[:4]) + f" and {len(names) - 4} more")
            gone = f" (every question of task{'s' if len(names) > 1 else ''} {listed})" if names else ""
            kept = kept if np.unique(kept).size >= 2 else None
        dropped_q = int((~keep_q).sum())
        if dropped_q:
            notes.append(f"{dropped_q} of {self.n_questions} questions not answered by every model were left out{gone}")
        n_kept = n[:, keep_q]
        n_min = int(n_kept.min())
        if ragged and int(n_kept.max()) > n_min:
            notes.append(f"every trial kept: cells have {n_min}-{int(n_kept.max())} trials (ragged)")
            return CompleteBlock(
                models=self.models,
                questions=tuple(q for q, k in zip(self.questions, keep_q) if k),
                weights=self.weights,
                R=None if self.R is None else self.R[:, keep_q, : int(n_kept.max())],
                counts=self.counts[:, keep_q],
                n_trials=int(n_kept.max()),
                notes=tuple(notes),
                strata=kept,
            )
        if self.R is not None:
            if int(n_kept.max()) > n_min:
                notes.append(f"cells truncated to their first {n_min} trials (trial counts range {n_min}-{int(n_kept.max())})")
            R = self.R[:, keep_q, :n_min]
        else:
            R = None
        return CompleteBlock(
            models=self.models,
            questions=tuple(q for q, k in zip(self.questions, keep_q) if k),
            weights=self.weights,
            R=R,
            counts=self.counts[:, keep_q],
            n_trials=n_min,
            notes=tuple(notes),
            strata=kept,
        )


@dataclass(frozen=True, eq=False)
class CompleteBlock:
    """A rectangular block: every model, the same questions and ``n_trials`` trials each.

    ``R`` (shape (L, M, N)) is set for attempt-level data; ``counts`` (L, M, C+1) always.
    ``notes`` say what was dropped to make the block rectangular. ``strata``: task code of each
    question (M,) where the block pools several tasks (the empirical-Bayes prior is then fitted
    per (model, task), as the leaderboard's), else None.
    """

    models: tuple[str, ...]
    questions: tuple[str, ...]
    weights: np.ndarray
    R: np.ndarray | None
    counts: np.ndarray
    n_trials: int
    notes: tuple[str, ...]
    strata: np.ndarray | None = None


def _appear_in_code_order(codes: np.ndarray) -> bool:
    """Whether non-negative codes first appear as 0, 1, 2, ... (then first-appearance codes are the codes themselves).

    True exactly when every code is at most one more than the largest code before it: each new largest
    code is then the next integer, so every code up to the running maximum was already seen
    (``codes - 1`` is compared, so small integer dtypes cannot overflow).
    """
    if codes.size == 0:
        return True
    return bool(codes[0] == 0 and (codes[1:] - 1 <= np.maximum.accumulate(codes)[:-1]).all())


def _ordered_unique(values: pd.Series, as_str: bool = False) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes in order of first appearance and the distinct values (``as_str``: of ``values.astype(str)``).

    A categorical column is factorized through its integer codes (10^7 rows: 0.04 s instead of
    0.8 s for ``astype(str)``); the result is the same whenever the categories' string forms are
    distinct and no value is missing, otherwise the plain path below runs.
    """
    if isinstance(values.dtype, pd.CategoricalDtype) and len(values):
        codes = values.cat.codes.to_numpy()
        ncat = len(values.cat.categories)
        if ncat and int(codes.min()) >= 0:
            names = pd.Series(pd.Categorical.from_codes(np.arange(ncat), dtype=values.dtype))
            if as_str:  # the same conversion, applied once per category (pandas converts categories, then takes)
                names = names.astype(str)
            if not names.isna().any() and names.is_unique:
                if _appear_in_code_order(codes):  # a sorted table: the codes are already first-appearance codes
                    return codes.astype(np.int64), tuple(str(u) for u in names.to_numpy()[:int(codes.max()) + 1])
                first, order = pd.factorize(codes, sort=False)
                return first.astype(np.int64), tuple(str(u) for u in names.to_numpy()[order])
    if as_str:
        values = values.astype(str)
    codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64), tuple(str(u) for u in uniques)


def nothing_to_score(task: str, excluded: int) -> InputError:
    """The error when a rubric leaves no attempt of a task to score, with what to change (every engine raises it)."""
    return InputError(f"task '{task}': no attempts left to score (all {excluded} unmatched by the rubric). Count "
                      "unmatched attempts as one of the rubric's categories (app: Rubric page, 'Attempts in no "
                      "category count as'; CLI: --unmatched <category>), or choose a rubric whose categories "
                      "match this data.")


def from_attempts(
    attempts: pd.DataFrame,
    codes: np.ndarray,
    weights: np.ndarray,
    labels: tuple[str, ...],
    task: str,
) -> Outcomes:
    """Build :class:`Outcomes` from an attempt table and one category code per row.

    Parameters
    ----------
    attempts : DataFrame
        Canonical attempt rows of one task (``model, question_id, trial``, ...).
    codes : ndarray of int, shape (len(attempts),)
        Category of each attempt, ``-1`` when no rubric category matched (excluded, counted).
    weights : ndarray of float, shape (C+1,)
    labels : tuple of str, length C+1
    task : str

    Returns
    -------
    Outcomes
        Models in order of first appearance, questions likewise; trials ordered by the
        source's ``trial`` value within each cell.
    """
    codes = np.asarray(codes)
    if codes.shape != (len(attempts),):
        raise ValueError(f"codes must have one entry per attempt ({len(attempts)}); got shape {codes.shape}.")
    n_cat = int(np.asarray(weights).size)
    keep = codes >= 0
    excluded = int((~keep).sum())
    frame = attempts.loc[keep, ["model", "question_id", "trial"]].copy()
    frame["code"] = codes[keep].astype(np.int16)
    if frame.empty:
        raise nothing_to_score(task, excluded)
    model_idx, models = _ordered_unique(attempts["model"])
    question_idx, questions = _ordered_unique(attempts["question_id"], as_str=True)
    frame["m"] = model_idx[keep]
    frame["q"] = question_idx[keep]
    frame = frame.sort_values(["m", "q", "trial"], kind="stable")
    position = frame.groupby(["m", "q"], sort=False).cumcount().to_numpy()
    n_max = int(position.max()) + 1
    L, M = len(models), len(questions)
    check_dense(f"task {str(task)[:80]!r}", L, M, n_cat, n_max)
    R = np.full((L, M, n_max), -1, dtype=np.int16)
    mi, qi, ci = frame["m"].to_numpy(), frame["q"].to_numpy(), frame["code"].to_numpy()
    R[mi, qi, position] = ci
    counts = np.zeros((L, M, n_cat), dtype=np.int64)
    np.add.at(counts, (mi, qi, ci.astype(np.int64)), 1)
    notes = (f"{excluded} attempts matched no rubric category and were excluded",) if excluded else ()
    return Outcomes(
        task=task,
        models=models,
        questions=questions,
        weights=np.asarray(weights, dtype=float),
        labels=tuple(labels),
        counts=counts,
        R=R,
        excluded=excluded,
        notes=notes,
    )


def _is_grid(model_idx: np.ndarray, question_idx: np.ndarray, L: int, M: int) -> bool:
    """Whether row ``i`` is cell ``(i // M, i % M)``: model ``i // M``, question ``i % M`` (first-appearance codes)."""
    return bool((model_idx.reshape(L, M) == np.arange(L)[:, None]).all()
                and (question_idx.reshape(L, M) == np.arange(M)).all())


def from_counts(table: pd.DataFrame, task: str) -> Outcomes:
    """Build binary :class:`Outcomes` from a count table (``n_trials``, ``n_correct``).

    Trial order is unknown, so ``R`` is None: views that need an order assume
    exchangeable trials and resample within questions.
    """
    model_idx, models = _ordered_unique(table["model"])
    question_idx, questions = _ordered_unique(table["question_id"], as_str=True)
    L, M = len(models), len(questions)
    check_dense(f"task {str(task)[:80]!r}", L, M, 2)
    counts = np.zeros((L, M, 2), dtype=np.int64)
    n_trials = table["n_trials"].to_numpy(dtype=np.int64)
    n_correct = table["n_correct"].to_numpy(dtype=np.int64)
    n_wrong = n_trials - n_correct
    bound = max((abs(int(f(x, initial=0))) for x in (n_correct, n_wrong) for f in (np.min, np.max)), default=0)
    if len(n_trials) == L * M and L * M and _is_grid(model_idx, question_idx, L, M):
        # one row per cell in model-major order (an engine's complete count table): the tensor is a reshape
        counts[:, :, 1] = n_correct.reshape(L, M)
        counts[:, :, 0] = n_wrong.reshape(L, M)
    # float64 sums of these integers are exact (every partial sum < 2**53): bincount, not add.at
    elif bound * len(n_trials) < 2**53 and L * M and int(model_idx.min()) >= 0 and int(question_idx.min()) >= 0:
        cell = model_idx * M
        cell += question_idx
        flat = counts.reshape(L * M, 2)
        flat[:, 1] = np.bincount(cell, weights=n_correct, minlength=L * M)
        flat[:, 0] = np.bincount(cell, weights=n_wrong, minlength=L * M)
    else:
        np.add.at(counts, (model_idx, question_idx, 1), n_correct)
        np.add.at(counts, (model_idx, question_idx, 0), n_wrong)
    return Outcomes(
        task=task,
        models=models,
        questions=questions,
        weights=np.array([0.0, 1.0]),
        labels=BINARY_LABELS,
        counts=counts,
        R=None,
    )


def _span(values) -> str:
    """``"50"`` or ``"12-50"``: the smallest and largest of ``values`` as one count where they are equal."""
    low, high = int(np.min(values)), int(np.max(values))
    return f"{low}" if low == high else f"{low}-{high}"


def graded_rows(attempts: pd.DataFrame) -> np.ndarray:
    """Which attempts have a graded outcome: no 0/1 ``is_correct`` (nor category) and a score strictly between 0 and 1
    (or 0 or 1 in a task of such scores): :func:`scorio_core.io.quality.report.graded_mask`, the attempts
    :attr:`scorio_core.io.QualityReport.n_non_binary` counts.

    >>> graded_rows(pd.DataFrame({"is_correct": [1.0, np.nan, np.nan], "score": [1.0, 0.5, np.nan]})).tolist()
    [False, True, False]
    """
    from scorio_core.io.quality.report import graded_mask

    return graded_mask(attempts)
