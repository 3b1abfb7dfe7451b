"""Per-question views of two or more models' outcomes: pass rates, flaky questions, disagreements.

Pure numpy/pandas helpers behind the Compare and Data pages and the ``compare`` CLI (re-exported by
:mod:`scorio_core.ranking.compare`):

* :func:`question_scores` / :func:`question_summary`: per-question pass rates, flaky
  questions (``0 < pass rate < 1``) and questions where models disagree;
* :func:`disagreement_table`: per-question outcomes of two models, where one solves and the
  other does not first; :func:`outcome_counts`, :func:`question_set_note`.

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.3.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "question_scores",
    "question_summary",
    "disagreement_table",
    "question_set_note",
    "few_common_note",
    "outcome_counts",
    "OUTCOME_LABELS",
    "DISAGREEMENT_COLUMNS",
]

#: Per-question outcome labels of :func:`disagreement_table`, in display order.
OUTCOME_LABELS = (
    "only A solves",
    "only B solves",
    "both, A more often",
    "both, B more often",
    "both, equally often",
    "both always",
    "neither",
    "not answered by both",
)

#: Columns of :func:`disagreement_table`.
DISAGREEMENT_COLUMNS = (
    "question",
    "outcome",
    "n_a",
    "correct_a",
    "rate_a",
    "score_a",
    "n_b",
    "correct_b",
    "rate_b",
    "score_b",
    "diff",
)



def question_scores(outcomes) -> tuple[np.ndarray, np.ndarray]:
    """Mean weighted score per (model, question) and the trials behind it.

    Parameters
    ----------
    outcomes : scorio_core.leaderboard.outcomes.Outcomes
        Counts of shape (L, M, C+1) and weights (C+1,).

    Returns
    -------
    scores : ndarray of float, shape (L, M)
        ``counts @ w / n``; the pass rate for binary outcomes; NaN where the model did not
        answer the question.
    n : ndarray of int64, shape (L, M)
        Trials per cell (0 = missing).
    """
    n = outcomes.counts.sum(axis=2)
    total = outcomes.counts @ np.asarray(outcomes.weights, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(n > 0, total / np.where(n > 0, n, 1), np.nan)
    return scores, n


def _pass_rates(task_outcomes) -> tuple[np.ndarray, np.ndarray, bool]:
    """Pass rates (L, M) from binary outcomes, else the rubric score rescaled to [0, 1]."""
    if task_outcomes.binary is not None:
        rates, n = question_scores(task_outcomes.binary)
        return rates, n, True
    scores, n = question_scores(task_outcomes.rubric)
    w = np.asarray(task_outcomes.rubric.weights, dtype=float)
    span = float(w.max() - w.min())
    rates = (scores - float(w.min())) / span if span > 0 else np.zeros_like(scores)
    return rates, n, False


def question_summary(task_outcomes, models=None) -> pd.DataFrame:
    """Per-question pass rates of the selected models, flaky cells and disagreement.

    Parameters
    ----------
    task_outcomes : scorio_core.leaderboard.table.TaskOutcomes
    models : sequence of str, optional
        Models to consider (default: all, in the outcomes' order).

    Returns
    -------
    DataFrame
        One row per question (outcomes order): ``question``, ``index`` (position in the
        outcomes), ``mean_rate`` (mean pass rate over the selected models that answered),
        ``n_models`` (selected models that answered), ``n_flaky`` (selected models with
        ``0 < pass rate < 1`` on it), ``disagree`` (answered by at least two selected
        models whose pass rates differ), ``all_correct``, ``all_wrong``.
        ``attrs["binary"]`` says whether rates are binary pass rates (True) or the rubric
        score rescaled to [0, 1] (data without is_correct).
    """
    rates, n, binary = _pass_rates(task_outcomes)
    names = tuple(task_outcomes.models)
    chosen = names if models is None else tuple(models)
    unknown = [m for m in chosen if m not in names]
    if unknown:
        raise ValueError(f"models must be in the outcomes; unknown: {', '.join(map(str, unknown[:5]))}.")
    source = task_outcomes.binary if binary else task_outcomes.rubric
    index = [source.models.index(m) for m in chosen if m in source.models]
    r = rates[index]
    answered = n[index] > 0
    n_models = answered.sum(axis=0)
    with np.errstate(invalid="ignore"):
        mean_rate = np.where(n_models > 0, np.nansum(r, axis=0) / np.maximum(n_models, 1), np.nan)
        hi = np.where(answered, r, -np.inf).max(axis=0, initial=-np.inf)
        lo = np.where(answered, r, np.inf).min(axis=0, initial=np.inf)
    flaky = answered & (r > 0) & (r < 1)
    frame = pd.DataFrame(
        {
            "question": list(source.questions),
            "index": np.arange(len(source.questions)),
            "mean_rate": mean_rate,
            "n_models": n_models.astype(np.int64),
            "n_flaky": flaky.sum(axis=0).astype(np.int64),
            "disagree": (n_models >= 2) & (hi > lo),
            "all_correct": (n_models > 0) & (lo >= 1),
            "all_wrong": (n_models > 0) & (hi <= 0),
        }
    )
    frame.attrs["binary"] = binary
    return frame


def _outcome(rate_a: float, rate_b: float) -> str:
    if not (np.isfinite(rate_a) and np.isfinite(rate_b)):
        return OUTCOME_LABELS[7]
    if rate_a > 0 and rate_b == 0:
        return OUTCOME_LABELS[0]
    if rate_b > 0 and rate_a == 0:
        return OUTCOME_LABELS[1]
    if rate_a == 0 and rate_b == 0:
        return OUTCOME_LABELS[6]
    if rate_a >= 1 and rate_b >= 1:
        return OUTCOME_LABELS[5]
    if rate_a > rate_b:
        return OUTCOME_LABELS[2]
    if rate_b > rate_a:
        return OUTCOME_LABELS[3]
    return OUTCOME_LABELS[4]


def disagreement_table(task_outcomes, model_a: str, model_b: str) -> pd.DataFrame:
    """Per-question outcomes of two models, where one solves and the other does not first.

    Parameters
    ----------
    task_outcomes : scorio_core.leaderboard.table.TaskOutcomes
    model_a, model_b : str
        Two different models of the outcomes.

    Returns
    -------
    DataFrame
        Columns :data:`DISAGREEMENT_COLUMNS`, one row per question answered by either model:
        trials ``n_*``, correct trials ``correct_*`` and pass rate ``rate_*`` (binary
        correctness; NaN without is_correct), mean rubric score ``score_*`` (equals the
        rate under binary correctness), ``diff = score_a - score_b`` and ``outcome`` (one
        of :data:`OUTCOME_LABELS`; "solves" means at least one correct trial). Sorted by
        outcome (only A / only B first), then by ``|diff|`` descending.

    Raises
    ------
    ValueError
        Unknown model, or the same model twice.
    """
    models = tuple(task_outcomes.models)
    for m in (model_a, model_b):
        if m not in models:
            raise ValueError(f"model must be one of the data's models; got {m!r}.")
    if model_a == model_b:
        raise ValueError(f"choose two different models; got {model_a!r} twice.")
    rubric = task_outcomes.rubric
    scores, n = question_scores(rubric)
    ia, ib = rubric.models.index(model_a), rubric.models.index(model_b)
    frame = pd.DataFrame({"question": list(rubric.questions), "n_a": n[ia], "score_a": scores[ia], "n_b": n[ib], "score_b": scores[ib]})
    binary = task_outcomes.binary
    if binary is not None:
        pos = {q: i for i, q in enumerate(binary.questions)}
        rows = np.array([pos.get(q, -1) for q in rubric.questions])
        for suffix, model in (("a", model_a), ("b", model_b)):
            correct = np.full(len(rows), np.nan)
            rate = np.full(len(rows), np.nan)
            if model in binary.models:
                cell = binary.counts[binary.models.index(model)]
                ok = rows >= 0
                c = cell[rows[ok]]
                tot = c.sum(axis=1)
                correct[ok] = np.where(tot > 0, c[:, 1], np.nan)
                with np.errstate(invalid="ignore", divide="ignore"):
                    rate[ok] = np.where(tot > 0, c[:, 1] / np.where(tot > 0, tot, 1), np.nan)
            frame[f"correct_{suffix}"] = correct
            frame[f"rate_{suffix}"] = rate
        ra, rb = frame["rate_a"].to_numpy(), frame["rate_b"].to_numpy()
    else:
        frame["correct_a"] = frame["correct_b"] = frame["rate_a"] = frame["rate_b"] = np.nan
        w = np.asarray(rubric.weights, dtype=float)
        span = float(w.max() - w.min()) or 1.0
        ra = (frame["score_a"].to_numpy() - w.min()) / span
        rb = (frame["score_b"].to_numpy() - w.min()) / span
    frame["diff"] = frame["score_a"] - frame["score_b"]
    frame["outcome"] = [_outcome(a, b) for a, b in zip(ra, rb)]
    frame = frame[(frame["n_a"] > 0) | (frame["n_b"] > 0)]
    order = {label: i for i, label in enumerate(OUTCOME_LABELS)}
    frame = frame.assign(_o=frame["outcome"].map(order), _d=-frame["diff"].abs().fillna(0.0))
    frame = frame.sort_values(["_o", "_d", "question"], kind="stable").drop(columns=["_o", "_d"])
    return frame.reset_index(drop=True)[list(DISAGREEMENT_COLUMNS)]


def outcome_counts(table: pd.DataFrame) -> dict[str, int]:
    """Number of questions per outcome label of a :func:`disagreement_table` (label order)."""
    counts = table["outcome"].value_counts()
    return {label: int(counts.get(label, 0)) for label in OUTCOME_LABELS}


def question_set_note(table: pd.DataFrame, model_a: str, model_b: str) -> str | None:
    """What a comparison of two models that answered different questions compares, or None when they answered the same.

    Parameters
    ----------
    table : DataFrame
        :func:`disagreement_table` of ``model_a`` and ``model_b`` (columns ``n_a``, ``n_b``: trials per question).
    model_a, model_b : str
        The two models' names, for the sentence.

    Returns
    -------
    str or None
        How many questions each and both answered, what the difference compares, and what would fix it; else None.

    Examples
    --------
    >>> t = pd.DataFrame({"n_a": [4, 4, 4, 0], "n_b": [4, 0, 4, 4]})
    >>> question_set_note(t, "A", "B")[:62]
    'A answered 3 questions and B 3; 2 were answered by both. Each '
    """
    a, b = table["n_a"].to_numpy() > 0, table["n_b"].to_numpy() > 0
    n_a, n_b, both = int(a.sum()), int(b.sum()), int((a & b).sum())
    if n_a == n_b == both:
        return None
    fix = ("To compare them on the same questions, keep only the questions every model answered (Data page; CLI: "
           "--intersect-questions)." if both >= 2 else
           "They share too few questions to be compared on the same ones: count a question a model did not answer as "
           "wrong (the Leaderboard's 'Missing counts as incorrect'; CLI: leaderboard --question-set missing-incorrect), "
           "or run both models on the same questions.")
    return (f"{model_a} answered {n_a:,} questions and {model_b} {n_b:,}; {both:,} were answered by both. Each model's Bayes@N "
            "covers its own questions, so the difference compares the two models together with their question sets (a model "
            f"that skipped hard questions looks better); question by question, only the {both:,} shared ones can be paired. "
            + fix)


def few_common_note(counts) -> str | None:
    """What paired comparisons (questions sampled) do for pairs of models sharing fewer than 2 questions, or None.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts of the scored models (a row of zeros: the question was not answered).

    Returns
    -------
    str or None
        How many of the L (L - 1) / 2 pairs share fewer than 2 questions: for them
        :func:`scorio_core.ranking.paired_sd.paired_sd_matrix` cannot estimate a covariance and compares them
        unpaired (each model's own question-sampling variance), wider than a paired comparison; a model that
        answered fewer than 2 questions keeps the questions-fixed sd, which understates the uncertainty of this scope.
        None when every pair shares at least 2 questions. One (L, M) x (M, L) product.

    Examples
    --------
    >>> c = np.zeros((3, 4, 2), dtype=int); c[0, :2] = c[1, 2:] = c[2, :] = 1
    >>> few_common_note(c)[:48]
    '1 of the 3 pairs of models shares fewer than 2 q'
    """
    answered = (np.asarray(counts).sum(axis=-1) > 0).astype(float)
    n = answered.shape[0]
    common = answered @ answered.T
    few = int(np.count_nonzero(np.triu(common < 2, k=1)))
    if few == 0:
        return None
    pairs = n * (n - 1) // 2
    fix = ("keep only the questions every model answered (Data page; CLI: --intersect-questions) to compare every pair "
           "on the same questions" if int(answered.all(axis=0).sum()) >= 2 else
           "too few questions were answered by every model to keep only those: count a question a model did not answer "
           "as wrong (question set 'missing-incorrect') or run the models on the same questions")
    which = "the two models share" if pairs == 1 else f"{few:,} of the {pairs:,} pairs of models " + (
        "shares" if few == 1 else "share")
    return (f"{which[0].upper() + which[1:]} fewer than 2 questions: no covariance between them can be estimated, so "
            "they are compared unpaired (each model's own question-sampling variance; wider than a paired comparison, "
            "and where a model answered fewer than 2 questions, trial noise only); "
            f"{fix}.")
