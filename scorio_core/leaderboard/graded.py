"""Graded scores under a rubric: the data-quality gate of a command given ``--schema``.

A dump whose outcome is a graded score (``score`` in {0, 0.5, 1}, no 0/1 column) is refused by
:meth:`scorio_core.io.Dataset.require_ready` until a threshold binarizes it. A rubric whose categories
read ``score`` scores those attempts itself (partial credit: Bayes@N and avg@N with the rubric's
weights), so when it places every graded attempt in a category the threshold is not needed: the block
is lifted, said in a note, and nothing is binarized or dropped. Binary-only metrics (the Pass@k family)
still need 0/1 outcomes: :func:`~scorio_core.leaderboard.task_outcomes.outcomes_for` gives no binary
outcomes for such a task, so they are refused, never computed on the 0/1 attempts alone.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.leaderboard.outcomes import graded_rows  # (defined there: task_outcomes uses it too)

__all__ = ["MAX_SCORE_VALUES", "RUBRIC_ROUTE", "SCORE_VALUES", "SCORE_VALUES_SCHEMA", "graded_rows",
           "is_score_values", "lift_graded_block", "offered_score_values",
           "require_ready_graded", "score_values_spec", "threshold_schema", "resolve_data_schema", "score_value_schema"]

#: ``--schema`` value (and the app's choice) for :func:`score_value_schema`, built from the loaded data.
SCORE_VALUES = "score-values"
#: Name of that rubric.
SCORE_VALUES_SCHEMA = "Score values (partial credit: weight = score)"
#: At most this many distinct score values get one category each; more is a continuous score, to be binned.
MAX_SCORE_VALUES = 12

#: The route to partial credit, for a command that takes ``--schema`` (the threshold is the other route).
RUBRIC_ROUTE = ("Or, for partial credit instead of a threshold: --schema score-values (one category per score value, "
                "weighted by the value: each attempt earns its score), or a rubric whose categories read the score "
                "(--schema FILE, e.g. categories 'score < 0.25', 'score >= 0.25 and score < 0.75', 'score >= 0.75' "
                "weighted 0, 0.5, 1; check it with `python -m scorio_core rubric PATH --schema FILE`).")


def score_value_schema(attempts, step: float | None = None):
    """A rubric with one category per score value found in the data, weighted by the value (partial credit).

    Under it Bayes@N scores an attempt by its own graded score: the rubric-weighted avg@N is the mean score,
    and the posterior treats each question's outcomes as categorical over the observed values (paper Section 3;
    Appendix F for rubrics). Attempts with no score are placed by ``is_correct`` (0 or 1) when every attempt
    that has both agrees (``score`` = ``is_correct``); nothing is binarized or dropped.

    Parameters
    ----------
    attempts : pandas.DataFrame
        Canonical attempt rows with a ``score`` column (and ``is_correct``, ``model``).
    step : float, optional
        Round the scores to multiples of ``step`` first (``0.1``: 11 categories 0, 0.1, ..., 1), for a score with more
        distinct values than categories can hold (LiveBench's fractions, F1). Each category then covers the scores
        nearest its value (ties upward) and weighs that value; the description states, measured on ``attempts``, how
        far each model's mean rounded score lies from its mean score.

    Returns
    -------
    scorio_core.rubric.Schema
        Categories ``score v`` in increasing order, weight ``v``: condition ``score == v`` (each value written
        exactly), or with ``step`` the interval of scores rounding to ``v``; named :data:`SCORE_VALUES_SCHEMA` (with
        ``step``: "Score values rounded to ...").

    Raises
    ------
    InputError
        No score column or no score value; more than :data:`MAX_SCORE_VALUES` values (exact or rounded: a
        continuous score, to round with ``step``, bin in a rubric of your own or binarize); ``step`` not in (0, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> s = score_value_schema(pd.DataFrame({"is_correct": [0.0, None, 1.0], "score": [0.0, 0.5, 1.0]}))
    >>> s.labels, s.weights.tolist(), s.categories[1].condition
    (('score 0', 'score 0.5', 'score 1'), [0.0, 0.5, 1.0], 'score == 0.5')
    >>> r = score_value_schema(pd.DataFrame({"model": "m", "score": [0.0, 0.33, 0.4, 0.96]}), step=0.25)
    >>> r.labels, [c.condition for c in r.categories]
    (('score 0', 'score 0.25', 'score 0.5', 'score 1'), ['score < 0.125', 'score >= 0.125 and score < 0.375', 'score >= 0.375 and score < 0.875', 'score >= 0.875'])
    """
    from scorio_core.rubric import Category, Schema

    if attempts is None or "score" not in attempts.columns:
        raise InputError("the data has no score column, so there are no score values to give partial credit; "
                         "map the graded score's column (--map score=COLUMN).", field="score")
    if step is not None and not (0.0 < float(step) <= 1.0):
        raise InputError(f"the rounding step of score-values must lie in (0, 1] (e.g. score-values:0.1); got {step!r}.",
                         field="score")
    score, correct, fallback = _scores(attempts)
    known, by_correct = ~np.isnan(score), np.isnan(score) & ~np.isnan(correct)
    found = np.concatenate([score[known], correct[by_correct] if fallback else []])
    if step is not None:  # nearest multiple of step, ties upward (the conditions' half-open cells below)
        found = np.round(np.floor(np.round(found / step, 9) + 0.5) * step, 10)  # (0.15 / 0.1 is 1.4999...)
    values = np.unique(found)
    if not values.size:
        raise InputError("the score column is empty, so there are no score values to give partial credit.", field="score")
    if values.size > MAX_SCORE_VALUES:
        once = f" once rounded to {step:g}" if step is not None else ""
        raise InputError(f"the score takes {values.size:,} distinct values{once} ({values[0]:g} to {values[-1]:g}): too "
                         f"many for one category each (at most {MAX_SCORE_VALUES}: a Dirichlet prior over more categories "
                         "would outweigh each question's few trials); round it (--schema score-values:0.1, 11 "
                         "categories), bin it in a rubric of your own (categories 'score < 0.25', 'score >= 0.25 and "
                         "score < 0.75', 'score >= 0.75' weighted 0, 0.5, 1), or choose a threshold "
                         "(--binarize-threshold 0.5).", field="score")
    labels = [f"score {v:g}" for v in values]
    if len(set(labels)) < len(labels):  # values equal to 6 significant digits: write them in full
        labels = [f"score {v!r}" for v in values.tolist()]
    lows = [None] + [float(np.round(v - step / 2, 10)) for v in values[1:]] + [None] if step is not None else []
    categories = []
    for i, (label, v) in enumerate(zip(labels, values.tolist())):
        if step is None:
            condition = f"score == {v!r}"
        else:  # the scores nearest v: from the cell's lower edge to the next category's (no gap, no overlap)
            parts = ([f"score >= {lows[i]!r}"] if lows[i] is not None else []) + (
                [f"score < {lows[i + 1]!r}"] if lows[i + 1] is not None else [])
            condition = " and ".join(parts) or "score >= 0 or score < 0"
        if fallback and v in (0.0, 1.0):  # attempts with no score (e.g. another file's) placed by is_correct
            condition = f"{condition} or is_correct == {int(v)}" if step is None else f"({condition}) or is_correct == {int(v)}"
        categories.append(Category(label, condition, v))
    about = (" Attempts with no score are placed by is_correct (0 or 1)." if fallback else "")
    if step is None:
        return Schema(SCORE_VALUES_SCHEMA, tuple(categories), source="built from the data's score values",
                      description=("One category per score value found in the data (" + ", ".join(f"{v:g}" for v in values)
                                   + "), each weighted by its value: an attempt earns its own score (partial credit), "
                                   "nothing is binarized." + about))
    schema = Schema(f"Score values rounded to {step:g} (partial credit: weight = rounded score)", tuple(categories),
                    source=f"built from the data's score values, rounded to {step!r}")
    return replace(schema, description=(
        f"Each score rounded to the nearest multiple of {step:g} (ties upward), one category per rounded value found ("
        + ", ".join(f"{v:g}" for v in values) + "), weighted by that value: partial credit, nothing binarized."
        + _rounding_shift(attempts, score, schema) + about))


def _scores(attempts) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(score, is_correct, fallback)`` as float arrays (NaN: missing); ``fallback``: attempts with no score are
    placed by is_correct, which holds when some have none and no attempt with both disagrees."""
    n = len(attempts)
    score = (pd.to_numeric(attempts["score"], errors="coerce").to_numpy(np.float64) if "score" in attempts.columns
             else np.full(n, np.nan))
    correct = (attempts["is_correct"].to_numpy(np.float64, na_value=np.nan) if "is_correct" in attempts.columns
               else np.full(n, np.nan))
    both = ~np.isnan(score) & ~np.isnan(correct)
    fallback = bool((np.isnan(score) & ~np.isnan(correct)).any()) and not bool((score[both] != correct[both]).any())
    return score, correct, fallback


def _rounding_shift(attempts, score: np.ndarray, schema) -> str:
    """How far rounding moves the models' mean scores, measured (a sentence, or "" without a model column)."""
    from scorio_core.rubric import categorize

    if "model" not in attempts.columns:
        return ""
    codes = categorize(attempts, schema).codes
    known = ~np.isnan(score) & (codes >= 0)  # (attempts placed by is_correct are not rounded)
    shift = pd.Series(schema.weights[codes[known]] - score[known])
    by_model = shift.groupby(attempts["model"].to_numpy()[known]).mean().abs()
    if by_model.empty:
        return ""
    worst = by_model.idxmax()
    return (f" Measured on these data: a model's mean rounded score differs from its mean score by at most "
            f"{by_model.max():.4f} ({str(worst)[:80]}).")


def threshold_schema(attempts, threshold: float = 0.5):
    """The binarized reading of a graded score as a rubric: correct when score > ``threshold`` (0 or 1 credit).

    What a threshold on the Data page (``--binarize-threshold``) does to graded attempts, written as a rubric so it
    can stand beside the partial-credit one (rubric sensitivity: does partial credit change the ranking?). Attempts
    with no score are placed by ``is_correct`` under the same rule as :func:`score_value_schema`.

    Parameters
    ----------
    attempts : pandas.DataFrame
        Canonical attempt rows with a ``score`` column.
    threshold : float
        Correct iff score > threshold (AISBench uses 0.5).

    Returns
    -------
    scorio_core.rubric.Schema
        Categories ``score <= t`` (weight 0) and ``score > t`` (weight 1), named "Score > t (binarized)".

    Examples
    --------
    >>> import pandas as pd
    >>> [c.condition for c in threshold_schema(pd.DataFrame({"score": [0.0, 0.5, 1.0]})).categories]
    ['score <= 0.5', 'score > 0.5']
    """
    from scorio_core.rubric import Category, Schema

    fallback = _scores(attempts)[2]  # (0/1 scores load as is_correct alone, without a score column: placed by it)
    t = float(threshold)
    tail = (" or is_correct == 0", " or is_correct == 1") if fallback else ("", "")
    return Schema(f"Score > {t:g} (binarized)", (
        Category(f"score <= {t:g}", f"score <= {t!r}{tail[0]}", 0.0),
        Category(f"score > {t:g}", f"score > {t!r}{tail[1]}", 1.0)),
        source=f"a threshold on the data's graded scores ({t!r})",
        description=f"Correct when score > {t:g} (what a threshold on the graded scores gives), else wrong: no partial "
                    "credit." + (" Attempts with no score are placed by is_correct." if fallback else ""))


def is_score_values(schema) -> bool:
    """True for :data:`SCORE_VALUES` or ``score-values:STEP`` (any case, ``_`` for ``-``): built once the data is loaded."""
    if not isinstance(schema, str):
        return False
    name, _, _ = schema.strip().lower().replace("_", "-").partition(":")
    return name.strip() == SCORE_VALUES


def score_values_spec(schema) -> str | None:
    """``"score-values"`` (or ``"score-values:STEP"``) for a rubric :func:`score_value_schema` built, else None.

    Such a rubric follows the data: rebuilt from other data's scores (the app, when another dataset opens).
    """
    source = getattr(schema, "source", "")
    if not source.startswith("built from the data's score values"):
        return None
    _, sep, step = source.partition(", rounded to ")
    return SCORE_VALUES + (f":{step}" if sep else "")


def offered_score_values(attempts):
    """The score-values rubric to offer for ``attempts``: exact, else rounded to 0.1; None if neither builds.

    Offered only where the score gives partial credit (a value strictly between 0 and 1)."""
    if attempts is None or "score" not in attempts.columns:
        return None
    score = pd.to_numeric(attempts["score"], errors="coerce").to_numpy(np.float64)
    if not ((score > 0.0) & (score < 1.0)).any():
        return None
    for step in (None, 0.1):
        try:
            return score_value_schema(attempts, step)
        except InputError:
            continue
    return None


def _step_of(spec: str) -> float | None:
    """The rounding step of ``score-values:STEP`` (None without one)."""
    _, sep, text = spec.partition(":")
    if not sep:
        return None
    try:
        return float(text)
    except ValueError:
        raise InputError(f"--schema {spec.strip()!r}: the rounding step after 'score-values:' must be a number in (0, 1] "
                         "(e.g. score-values:0.1).", field="schema") from None


def resolve_data_schema(schema, dataset):
    """``schema`` with :data:`SCORE_VALUES` (``--schema score-values``, ``score-values:0.1`` rounded) built from the data.

    Parameters
    ----------
    schema : str, dict, path, Schema or None
        A command's ``--schema``.
    dataset : scorio_core.io.Dataset
        The loaded data.

    Returns
    -------
    Schema, or ``schema`` unchanged when it is not :data:`SCORE_VALUES`.

    Raises
    ------
    InputError
        As :func:`score_value_schema` (a count table has no scores).
    """
    if not is_score_values(schema):
        return schema
    if dataset.attempts is None:
        raise InputError("--schema score-values reads each attempt's score; a count table (correct trials out of N) "
                         "has none.", field="score")
    return score_value_schema(dataset.attempts, _step_of(schema))


def require_ready_graded(dataset, schema=None, *, takes_schema: bool = True, max_tokens: int | None = None,
                         notes: list | None = None, route: str = RUBRIC_ROUTE):
    """:meth:`~scorio_core.io.Dataset.require_ready` for a command that may score graded outcomes with a rubric.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        The loaded data, with the data-quality choices applied.
    schema : str, dict, path or scorio_core.rubric.Schema, optional
        The command's ``--schema``. When it reads ``score`` and places every graded attempt in a category,
        the non-binary block is lifted (a note in ``report.notes`` says so); other blocks remain.
    takes_schema : bool
        The command has ``--schema``: a refusal of graded scores names the rubric route too.
    max_tokens : int, optional
        Completion-token limit for the ``token_ratio`` signal.
    notes : list, optional
        A command's notes: the lifted block's note is appended (``{"code": "graded_by_rubric", "message"}``).
    route : str
        The sentence naming the rubric route in a refusal (default :data:`RUBRIC_ROUTE`, ``--schema``; the
        ``sensitivity`` command names its ``--schemas``).

    Returns
    -------
    scorio_core.io.Dataset
        ``dataset``, or a copy whose report no longer blocks on the graded scores.

    Raises
    ------
    InputError
        A choice is still needed (as ``require_ready``); with graded scores, the message says whether the
        rubric reads no score or which graded attempt it leaves in no category.
    """
    report = dataset.report
    if not report.n_non_binary or dataset.attempts is None or (schema is None and not takes_schema):
        return dataset.require_ready()
    if schema is None:
        try:
            return dataset.require_ready()
        except InputError as exc:
            raise InputError(f"{exc} {route}" if "non-binary outcome" in str(exc) else str(exc)) from None
    from scorio_core.leaderboard.task_outcomes import categorization_for
    from scorio_core.rubric import resolve_schema

    schema = resolve_schema(schema)
    codes = categorization_for(dataset, schema, max_tokens=max_tokens)[0].codes if "score" in schema.signals else None
    lifted, note = lift_graded_block(dataset, schema, codes)
    if notes is not None:
        notes.append({"code": "graded_by_rubric", "message": note})
    return lifted.require_ready()


def lift_graded_block(dataset, schema, codes):
    """``dataset`` without its graded-score block, when rubric ``schema`` scores every graded attempt.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data with attempt rows.
    schema : scorio_core.rubric.Schema
        The rubric in force.
    codes : ndarray of int, shape (n_attempts,), or None
        The rubric's category per attempt of ``dataset.attempts`` (-1: none); None when it does not read the score.

    Returns
    -------
    (Dataset, str)
        A copy whose report no longer blocks on the graded scores (other blocks stay), its note added to
        ``report.notes``; and that note.

    Raises
    ------
    InputError
        The rubric does not read ``score``, or leaves a graded attempt in no category (the first one named).
    """
    report = dataset.report
    names = ", ".join(s.name for s in dataset.sources[:3]) + (" ..." if len(dataset.sources) > 3 else "")
    graded = graded_rows(dataset.attempts)
    n = int(graded.sum())
    if "score" not in schema.signals or codes is None:
        raise InputError(f"{names}: {n:,} attempts have a graded score (and no 0/1 outcome), and rubric "
                         f"'{schema.name}' does not read the score (it reads {', '.join(schema.signals) or 'no signal'}), "
                         "so it cannot give them partial credit; use a rubric whose categories read 'score' (--schema "
                         "score-values), or choose a threshold: --binarize-threshold 0.5 (correct iff score > threshold).",
                         field="score")
    left = graded & (np.asarray(codes) < 0)
    if left.any():
        row = dataset.attempts.iloc[int(np.argmax(left))]
        raise InputError(
            f"{names}: rubric '{schema.name}' places {int(left.sum()):,} of the {n:,} attempts with a graded score in no "
            f"category (the first: model {str(row['model'])[:80]!r}, task {str(row['task'])[:80]!r}, question "
            f"{str(row['question_id'])[:80]!r}, score {row['score']}), so they would be scored by nothing; extend the "
            "rubric's conditions to cover them (check with `python -m scorio_core rubric PATH --schema FILE`), or "
            "choose a threshold: --binarize-threshold 0.5.", field="score")
    tasks = list(dict.fromkeys(dataset.attempts["task"].to_numpy()[graded].astype(str)))
    every = len(tasks) == dataset.attempts["task"].nunique()  # (else name them: the others keep their 0/1 metrics)
    where = "these data" if every else "task" + "s" * (len(tasks) > 1) + " " + ", ".join(tasks[:5]) + " ..." * (len(tasks) > 5)
    note = (f"{n:,} attempts have a graded score and no 0/1 outcome: rubric "
            f"'{schema.name}' scores them (partial credit, its weights), nothing is binarized. Metrics of 0/1 "
            f"outcomes (the Pass@k family, the ranking methods) are not computed on {where}; a threshold that "
            "binarizes the score gives them (the Data page's, or --binarize-threshold).")
    blocking = tuple(b for b in report.blocking if "non-binary outcome" not in b)
    return replace(dataset, report=replace(report, blocking=blocking, notes=tuple(report.notes) + (note,))), note
