"""Notes in the commands' JSON output: one shape for every command.

Every ``notes`` list a command prints (``leaderboard``, ``tasks``, ``compare``, ``ranks``, ``questions``,
``trajectory``, ``convergence``, ``methods``, ``plan``'s ``status.notes``, ``quality``'s ``report.notes``,
``publish``) holds objects ``{"code": str, "message": str, ...}``: ``code`` is a stable snake_case key a script
can match on, ``message`` the sentence the table output prints, and some codes carry more fields (``task``,
``models``, ``finding``). A script reads every command's notes the same way.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["as_notes", "loader_notes", "note", "note_messages", "rank_pairing_note"]


def note(code: str, message: str, **fields: Any) -> dict:
    """One note object.

    Parameters
    ----------
    code : str
        Stable snake_case key (e.g. ``"load"``, ``"bootstrap_auto"``).
    message : str
        The sentence shown to people.
    **fields
        Extra keys carried beside them (``task``, ``models``, ...).

    Returns
    -------
    dict
        ``{"code": code, "message": message, **fields}``.

    Examples
    --------
    >>> note("load", "a.csv: 3 rows skipped")
    {'code': 'load', 'message': 'a.csv: 3 rows skipped'}
    """
    return {"code": code, "message": message, **fields}


def as_notes(items: Iterable[str | dict], code: str) -> list[dict]:
    """Notes as objects: a string becomes ``{"code": code, "message": string}``; an object is kept.

    Parameters
    ----------
    items : iterable of str or dict
        Sentences, or note objects (each with ``code`` and ``message``).
    code : str
        The code given to the sentences.

    Returns
    -------
    list of dict

    Raises
    ------
    ValueError
        An object without ``code`` or ``message``.

    Examples
    --------
    >>> as_notes(["x", {"code": "y", "message": "z"}], "data")
    [{'code': 'data', 'message': 'x'}, {'code': 'y', 'message': 'z'}]
    """
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(note(code, item))
        elif isinstance(item, dict) and "code" in item and "message" in item:
            out.append(item)
        else:
            raise ValueError(f"a note must be a sentence or an object with 'code' and 'message'; got {item!r}.")
    return out


def note_messages(items: Iterable[str | dict]) -> list[str]:
    """The sentences of notes (objects' ``message``, strings as they are), for table output.

    Examples
    --------
    >>> note_messages([{"code": "a", "message": "b"}, "c"])
    ['b', 'c']
    """
    return [item["message"] if isinstance(item, dict) else str(item) for item in items]


def rank_pairing_note(task: str, metric: str, scope: str, tie_rule: str, frame, outcomes,
                      cluster_column: str | None = None) -> dict:
    """The ``rank_pairing`` note (questions sampled): whether rank_ci pairs the models over their common questions
    (Miller 2024), as ``leaderboard`` and ``export`` say it.

    Parameters
    ----------
    task, metric, scope, tie_rule : str
        The task and the leaderboard's settings (``scope`` is ``questions-sampled`` where the note applies).
    frame : DataFrame
        The task's leaderboard (``model``, ``mu``).
    outcomes : TaskOutcomes
        The task's outcomes (``rubric.models``, ``rubric.counts``, ``rubric.questions``).
    cluster_column : str, optional
        The column whose clusters made the intervals cluster-robust: rank_ci is then unpaired (conservative).

    Returns
    -------
    dict
        ``{"code": "rank_pairing", "task", "paired", "message"}``, ``message`` starting ``"{task}: "``.
    """
    from scorio_core.ranking.paired import ranks_are_paired

    clustered = cluster_column is not None
    paired = not clustered and ranks_are_paired(metric, scope, tie_rule, int(frame["mu"].notna().sum()),
                                                len(outcomes.rubric.questions))
    text = ("rank_ci pairs each two models over the questions both answered (paired difference, Miller 2024)"
            if paired else "rank_ci compares each model's own cluster-robust interval (questions clustered by "
            f"{cluster_column!r}), unpaired: conservative" if clustered else
            "rank_ci compares each model's own interval as if independent; the models answered the "
            "same questions, so the ties are conservative (pairing covers Bayes@N with the pairwise rule; "
            "`compare --scope questions-sampled` pairs two models)")
    if paired:  # pairs sharing < 2 questions fall back to the questions-fixed sd: say so, not "paired"
        from scorio_core.ranking.disagreement import few_common_note

        scored = set(frame.loc[frame["mu"].notna(), "model"].astype(str))
        rows = [i for i, m in enumerate(outcomes.rubric.models) if str(m) in scored]
        few = few_common_note(outcomes.rubric.counts[rows])
        text += f"; {few[0].lower() + few[1:-1]}" if few else ""
    return {"code": "rank_pairing", "task": task, "paired": paired, "message": f"{task}: {text}."}


def loader_notes(dataset, *, engine: str = "pandas", said: Iterable[str] = ()) -> tuple[str, ...]:
    """What loading found (``dataset.report.notes``), as every command lists it among its notes (code ``load``) and the
    Leaderboard page shows it.

    From an engine's count table (``engine`` other than "pandas") only the notes about an input file (``"<file>:
    ..."``, as the pandas loader words them, e.g. partial credit beside a 0/1 outcome) and those on ids or names written
    two ways, not its lines saying how it counted; from every engine the default that joined per-model files into one task, which decides what is ranked
    together. Texts in ``said`` (shown already, e.g. a notice's finding) are left out; each text once.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
    engine : str, default "pandas"
        The engine that read the data.
    said : iterable of str, optional

    Returns
    -------
    tuple of str
    """
    from scorio_core.io._merge import PER_MODEL_WORDS
    from scorio_core.io.quality.names import WRITTEN_TWO_WAYS

    report = getattr(dataset, "report", None)
    notes = tuple(getattr(report, "notes", ()))
    if engine != "pandas":  # (and the ids or names written two ways, which every engine finds alike)
        files = tuple(f"{s.name}: " for s in getattr(dataset, "sources", ()) or ())
        notes = tuple(n for n in notes if files and str(n).startswith(files) or WRITTEN_TWO_WAYS in str(n))
    joined = tuple(d for d in getattr(report, "defaults", ()) if PER_MODEL_WORDS in d)
    skip = set(said)
    return tuple(text for text in dict.fromkeys(notes + joined) if text not in skip)
