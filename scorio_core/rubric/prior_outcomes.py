"""Prior outcomes R0 from another dataset: its attempts through the same rubric, aligned with a task's questions.

Bayes@N takes optional prior outcomes R0 (Hariri et al., ICLR 2026, Algorithm 1 and Eq. 6; Appendix C): earlier
trials of each question, added to every model's Dirichlet pseudo-counts as if each model had already answered
them. The app's Rubric page takes them from another dataset or another model's attempts; the CLI's
``--prior-outcomes FILE [--prior-model NAME]`` of ``leaderboard``, ``tasks``, ``compare`` and ``export`` uses
:func:`prior_outcomes_for` (the same mapping; ``publish`` refuses the option: its shared analysis cannot carry R0 yet).
"""

from __future__ import annotations

import numpy as np

from scorio_core.errors import InputError
from scorio_core.rubric.rerank import PriorCounts, align_prior, prior_from_counts, prior_question_counts

__all__ = ["prior_outcomes_for", "prior_outcomes_note", "prior_outcomes_unused", "r0_pull_notice"]


def _one_model(dataset, model: str | None, source: str):
    """The rows of ``model`` (attempts or counts), or every row; InputError naming the models when it is absent."""
    table = dataset.attempts if dataset.attempts is not None else dataset.counts
    if model is None:
        return table
    names = [str(m) for m in dataset.report.models]
    if model not in names:
        shown = ", ".join(names[:20]) + (" ..." if len(names) > 20 else "")
        raise InputError(f"the prior outcomes have no model {model!r}; models there: {shown}.", source=source,
                         field="prior_model")
    return table.loc[(table["model"].astype(str) == model).to_numpy()].reset_index(drop=True)


def prior_outcomes_for(prior, task_outcomes, *, categorization=None, schema=None, model: str | None = None,
                       max_tokens: int | None = None, source: str = "prior outcomes") -> tuple[np.ndarray, int, PriorCounts]:
    """R0 for one task: the prior dataset's outcomes per question, mapped as the task's outcomes are.

    Parameters
    ----------
    prior : scorio_core.io.Dataset
        The dataset holding the prior trials (attempts, or a count table under binary correctness).
    task_outcomes : scorio_core.leaderboard.task_outcomes.TaskOutcomes
        The task being scored; its questions are matched by id (within the same task name when the prior has it,
        else over all of the prior's tasks: :func:`scorio_core.rubric.rerank.align_prior`).
    categorization : Categorization, optional
        The task's rubric categorization (None: binary correctness). Its thresholds are reused for the prior, so
        both datasets are categorized by the same values.
    schema : Schema, optional
        The rubric schema (needed with ``categorization``).
    model : str, optional
        Take only this model's trials of the prior dataset (default: every model's).
    max_tokens : int, optional
        Completion-token limit for the ``token_ratio`` signal.
    source : str
        The prior's name in error messages.

    Returns
    -------
    prior_counts : ndarray of int64, shape (L, M, C+1)
        The same R0 row for every model of the task (zeros where no prior trial matched).
    matched : int
        The task's questions that received prior trials.
    counts : PriorCounts
        The prior tallies per (task, question) (``n_unmatched``: prior attempts matching no category, left out).

    Raises
    ------
    InputError
        A rubric with a count-table prior, a ``model`` the prior does not hold, a category count that differs.
    """
    rows = _one_model(prior, model, source)
    if categorization is None:  # binary correctness: wrong / correct per question
        from scorio_core.io._dataset import attempts_to_counts

        counts = prior_from_counts(rows if prior.attempts is None else attempts_to_counts(rows, source))
    else:
        if prior.attempts is None:
            raise InputError("a count-table prior works with binary correctness only (a rubric needs the prior's "
                             "attempts): drop --schema or pass attempt-level prior outcomes.", source=source)
        from scorio_core.rubric import categorize, resolve_schema

        schema = resolve_schema(schema)
        result = categorize(rows, schema, dict(categorization.thresholds) or None, max_tokens=max_tokens)
        counts = prior_question_counts(rows, np.asarray(result.codes), len(result.labels))
    aligned, matched = align_prior(task_outcomes, counts)
    return aligned, matched, counts


def prior_outcomes_note(task: str, matched: int, n_questions: int, counts: PriorCounts, label: str) -> dict:
    """The ``prior_outcomes`` note: where R0 came from, how many questions it matched, what it left out.

    Questions are matched by id within the prior's task of the same name; a prior without that task (an earlier
    run saved under another name, or another benchmark) is matched by id across all its tasks, and the note says so
    and names them (``matched_across``): coinciding ids of another benchmark would be applied too.

    >>> from scorio_core.rubric.rerank import PriorCounts
    >>> prior_outcomes_note("aime", 2, 3, PriorCounts(("aime",), ("q1",), np.array([[1, 3]]), 0), "old.csv")["message"][:60]
    'aime: prior outcomes R0 from old.csv (4 prior trials of 1 qu'
    """
    from scorio_core.leaderboard.task_outcomes import ALL_TASKS

    trials = int(counts.counts.sum())
    message = (f"{task}: prior outcomes R0 from {label} ({trials:,} prior trials of {len(counts.questions):,} questions) "
               f"added to every model's prior (paper Algorithm 1); {matched:,} of {n_questions:,} questions matched by "
               "id" + ("; the others keep the prior alone" if matched < n_questions else ""))
    across = [] if task == ALL_TASKS or task in counts.tasks else list(dict.fromkeys(counts.tasks))
    if across and matched:
        shown = ", ".join(f"'{t}'" for t in across[:5]) + (" ..." if len(across) > 5 else "")
        message += (f"; the prior has no task '{task}', so its questions were matched by id across its task"
                    f"{'s' if len(across) > 1 else ''} {shown}: check that they are the same questions (another "
                    "benchmark's ids that coincide would be applied too)")
    if counts.n_unmatched:
        message += f"; {counts.n_unmatched:,} prior attempts matched no rubric category and are left out"
    if matched == 0:
        message += ". No question matched, so R0 changes nothing: check that both files use the same question ids"
    return {"code": "prior_outcomes", "task": task, "source": label, "matched": matched, "n_questions": n_questions,
            "prior_trials": trials, "matched_across": across if matched else [], "message": message + "."}


def prior_outcomes_unused(note: dict, frame) -> dict:
    """The ``prior_outcomes`` note, saying which rows R0 did not enter: models whose empirical-Bayes prior the data
    do not identify get the observed mean with an exact binomial interval (``interval_kind``), without any prior.

    Parameters
    ----------
    note : dict
        :func:`prior_outcomes_note`'s note.
    frame : DataFrame
        The task's leaderboard (``model``, ``interval_kind``).

    Returns
    -------
    dict
        The note, with ``not_used`` (model names) and a sentence when some rows ignored R0.
    """
    kinds = frame["interval_kind"].astype(str).to_numpy() if "interval_kind" in frame else np.array([], dtype=str)
    unused = [str(m) for m, k in zip(frame["model"], kinds) if k == "exact-binomial"]
    if not unused:
        return note
    shown = ", ".join(unused[:10]) + (" ..." if len(unused) > 10 else "")
    return {**note, "not_used": unused, "message": note["message"][:-1] + (
        f"; it does not enter the rows of {shown}: their empirical-Bayes prior is not identified, so they are the "
        "observed mean with an exact binomial interval (--prior uniform adds R0 to the uniform prior, as the paper's "
        "Algorithm 1 does).")}


def r0_pull_notice(notice: dict, r0_note: dict) -> dict:
    """The leaderboard's ``prior_pull`` notice when R0 is given: the prior outcomes pull the means, not the prior.

    ``prior_pull`` says a prior moved a model's mean beyond its interval from its observed avg@N and advises another
    prior; with prior outcomes R0 added to every model's prior, the pull comes mostly from those trials, which
    another ``--prior`` would not remove.

    Parameters
    ----------
    notice : dict
        The ``prior_pull`` notice (:func:`scorio_core.leaderboard.checks.prior_pull_notice`).
    r0_note : dict
        The task's ``prior_outcomes`` note (:func:`prior_outcomes_note`).

    Returns
    -------
    dict
        The notice with ``finding`` and ``message`` saying that R0 pulls the means.
    """
    head = notice["finding"].split(": ", 1)[0]
    finding = (f"{head}: the prior outcomes R0 ({r0_note.get('source', 'prior outcomes')}: "
               f"{r0_note.get('prior_trials', 0):,} prior trials) are added to every model's prior and pull each mean "
               "toward their own success rates, and the interval does not include that pull; prior trials of models "
               "like these (or fewer of them) pull less, more trials of the models' own less still.")
    return {**notice, "finding": finding, "message": finding}

