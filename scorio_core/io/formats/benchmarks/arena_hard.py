"""Arena-Hard-Auto judgments: ``data/<bench>/model_judgment/<judge>/<model>.jsonl``, each question's answer judged
against one baseline model's answer.

Source: lmarena/arena-hard-auto ``gen_judgment.py`` (one line per question: ``{"uid", "category", "judge", "model",
"baseline", "games": [game 1, game 2]}``; v0.1 wrote ``question_id`` and no category or baseline; each game
``{"score": "A>B", ...}``, the verdict the judge's output matched, null where none did) and ``show_result.py``
(game 1 puts the baseline's answer first (A) and the model's second (B), game 2 swaps them; a verdict is one of
``A>>B``, ``A>B``, ``A=B``, ``B>A``, ``B>>A`` and their mirror spellings ``A<B``, ``B<<A`` ...; the score counts a
win 1, a tie 0.5, a loss 0, a decisive one (``>>``) three times).

- the model is ``model``; the question ``uid`` (v0.1: ``question_id``); the task ``<category>/<judge>``
  (``hard_prompt/gpt-4.1``; v0.1 records carry no category: ``arena-hard/<judge>``), so two judges' verdicts are two
  tasks, as two judge folders are two leaderboards in show_result;
- each game is one trial (trial 0 the baseline first, trial 1 the model first): the position swap is Arena-Hard's
  own repeat of the judgment;
- the outcome is the verdict from the model's side as a category code: 0 much worse than the baseline (``>>`` for
  the baseline), 1 worse, 2 tie, 3 better, 4 much better. The default rubric weighs code / 4, the strength of the
  preference (a tie 0.5); Arena-Hard's win rate with ties half is the rubric 0, 0, 0.5, 1, 1 (``--schema``), and
  show_result's score (decisive verdicts counted three times, a ratio of weighted counts, not a rubric) is printed
  beside it in the loading report (``quality``, the Data page) for each file;
- a game without a verdict (null, or a label not among the above) has no attempt, said with its count (show_result
  leaves out the whole question when either game has none).

Every score is relative to the baseline named in the notes; one task's questions against two baselines are refused.
``model_answer/`` and ``question.jsonl`` beside judgments (a bench folder loaded whole) are left out, said
(:func:`skip_arena_hard_files`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import SCALE_LABEL, json_lines, leave_out, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_arena_hard", "read_arena_hard", "skip_arena_hard_files", "verdict_codes"]

FORMAT = "arena-hard"
_VERDICT = re.compile(r"^\s*([AB])\s*(>>|>|=|<<|<)\s*([AB])\s*$")
_STRENGTH = {">>": 2, ">": 1, "=": 0, "<": -1, "<<": -2}


def is_arena_hard(record: Mapping) -> bool:
    """Whether a JSON Lines record is an Arena-Hard-Auto judgment (a model's answer judged in games against a baseline).

    >>> is_arena_hard({"uid": "q1", "category": "hard_prompt", "judge": "gpt-4.1", "model": "m", "baseline": "b",
    ...                "games": [{"score": "A>B"}, {"score": "B>A"}]})
    True
    >>> is_arena_hard({"question_id": 1, "model": "m", "score": 7})
    False
    """
    games = record.get("games")
    return ("model" in record and ("uid" in record or "question_id" in record) and isinstance(games, list)
            and all(g is None or isinstance(g, dict) for g in games))


def verdict_codes(labels, model_first) -> np.ndarray:
    """Category codes of Arena-Hard verdicts from the judged model's side.

    Parameters
    ----------
    labels : array-like of object, shape (n,)
        The games' verdicts (``"A>>B"``, ``"B=A"`` ...; None or another text where the judge gave none).
    model_first : array-like of bool, shape (n,)
        Whether the model's answer was A (game 2) rather than B (game 1).

    Returns
    -------
    numpy.ndarray of float, shape (n,)
        0 much worse than the baseline, 1 worse, 2 tie, 3 better, 4 much better; NaN without a verdict.

    >>> verdict_codes(["A>>B", "A>>B", "B=A", "A<B", "oops", None], [False, True, False, False, False, True]).tolist()
    [0.0, 4.0, 2.0, 3.0, nan, nan]
    """
    labels = pd.Series(np.asarray(labels, dtype=object), dtype=object)
    strength = {}
    for label in labels.dropna().unique():  # a handful of distinct spellings
        found = _VERDICT.match(str(label))
        if found and found[1] != found[3]:
            strength[label] = _STRENGTH[found[2]] * (1 if found[1] == "A" else -1)  # A over B
    a_over_b = labels.map(strength).to_numpy(dtype=float)
    return np.where(np.asarray(model_first, dtype=bool), a_over_b, -a_over_b) + 2.0


def _answer_side(src: Source) -> bool:
    parts = src.path.parts if src.path is not None else ()
    return not src.is_dir and ("model_answer" in parts[:-1] or src.name in ("question.jsonl", "arena_hard_battles.jsonl"))


def skip_arena_hard_files(srcs: list[Source]) -> list[Source]:
    """Leave out Arena-Hard's ``model_answer/*.jsonl`` and ``question.jsonl`` beside its judgments (a bench folder
    loaded whole), saying how many; nothing is left out when no judgment is loaded."""
    side = [s for s in srcs if s.path is not None and _answer_side(s)]
    if not side or len(side) == len(srcs) or not any(_judgment(s) for s in srcs if not _answer_side(s)):
        return srcs
    return leave_out(srcs, side, f"Arena-Hard: {len(side):,} file{'s' * (len(side) > 1)} of questions and model answers "
                     "beside the judgments not read (model_answer/, question.jsonl: no verdict).", "")


def _judgment(src: Source) -> bool:
    if src.is_dir or not src.name.endswith((".jsonl", ".jsonl.gz")):
        return False
    try:
        record = json.loads(src.text_head(1 << 20).split(b"\n", 1)[0])
    except (ValueError, UnicodeDecodeError, OSError):
        return False
    return isinstance(record, dict) and is_arena_hard(record)


def read_arena_hard(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read an Arena-Hard-Auto judgment file (see the module docstring): one attempt per game with a verdict.

    Parameters
    ----------
    src : Source
        ``model_judgment/<judge>/<model>.jsonl``.
    mapping : dict, optional
        ``--map task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model, task (``<category>/<judge>``), question_id (``uid``), trial (the game: 0 the baseline's answer
        first, 1 the model's), category (the verdict's code, 0 much worse than the baseline ... 4 much better: the
        scale :data:`scorio_core.rubric.FORMAT_CODE_SCALES` weighs).

    Raises
    ------
    InputError
        A line that is not a judgment (no model, question or games; naming it), one task judged against two baselines,
        a file without any verdict, another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "Arena-Hard judgments have fixed fields (model, uid, games' verdicts)",
                          ("task",))
    models, qids, tasks, labels, games, baselines, fields = [], [], [], [], [], {}, set()
    for n, rec in json_lines(src, what="an Arena-Hard judgment (a JSON object)"):
        if not is_arena_hard(rec) or not rec["model"] or not isinstance(rec.get("uid", rec.get("question_id")),
                                                                          (str, int)):
            raise InputError("expected an Arena-Hard judgment: model, uid (or question_id) and a list of games on "
                             "every line.", source=src.name, line=n)
        judge = rec.get("judge")
        judge = judge[0] if isinstance(judge, list) and judge else judge  # FastChat-style [model, prompt]
        for field, value in (("judge", judge), ("category", rec.get("category")), ("baseline", rec.get("baseline")),
                             ("model", rec["model"])):
            if value is not None and not isinstance(value, str):
                raise InputError(f"{field} is {value!r}, not a name.", source=src.name, line=n, field=field)
        judge = (judge or "").strip()
        task = f"{rec.get('category') or 'arena-hard'}" + (f"/{judge}" if judge else "")
        baseline = rec.get("baseline")
        if baseline is not None and baselines.setdefault(task, str(baseline)) != str(baseline):
            raise InputError(f"task {task!r} has answers judged against two baselines ({baselines[task]!r} and "
                             f"{baseline!r}): a score is relative to its baseline, so they cannot be pooled; load "
                             "each baseline's judgments as its own run.", source=src.name, line=n, field="baseline")
        field = "uid" if "uid" in rec else "question_id"
        fields.add(field)
        qid = rec[field]
        for g, game in enumerate(rec["games"]):
            models.append(rec["model"])
            qids.append(qid)
            tasks.append(task)
            label = game.get("score") if isinstance(game, dict) else None
            labels.append(label if isinstance(label, str) else None)  # no verdict: said below
            games.append(g)
    if not labels:
        raise InputError("the judgment file holds no game.", source=src.name)
    games = np.asarray(games, dtype=np.int64)
    code = verdict_codes(labels, games % 2 == 1)
    kept = ~np.isnan(code)
    if not kept.any():
        raise InputError("no game has a verdict (every score is null or unreadable): rerun gen_judgment.py for them.",
                         source=src.name)
    named = folder_names(src.path, levels, src.name) if levels and src.path is not None else {}
    frame = pd.DataFrame({"model": np.asarray(models, dtype=object)[kept].astype(str),
                          "task": named.get("task") or np.asarray(tasks, dtype=object)[kept],
                          "question_id": np.asarray(qids, dtype=object)[kept], "trial": games[kept],
                          "category": code[kept], SCALE_LABEL: FORMAT})
    part = tool_part(frame, src.name, FORMAT, "arena-hard", lambda i: {"row": i + 1}, named,
                     {"task": "<category / judge>", "question_id": " / ".join(sorted(fields)), "trial": "<game: 0 baseline first, 1 model first>",
                      "category": "games[].score (the verdict from the model's side: 0 much worse ... 4 much better)"})
    base = "; ".join(f"{t}: '{b}'" for t, b in baselines.items()) or "the baseline of the judge config (not recorded)"
    part.defaults.append(f"{src.name}: Arena-Hard judgments of {', '.join(sorted(set(frame['model'])))} against the "
                         f"baseline ({base}): each game a trial, the verdict a category code (0 much worse, 1 worse, "
                         "2 tie, 3 better, 4 much better; the default rubric weighs code / 4).")
    part.defaults.append(_show_result_note(src.name, frame))  # the tool's own numbers, beside Bayes@N's (Data page)
    if n := int((~kept).sum()):
        part.notes.append(f"{src.name}: {n:,} game{'s' * (n > 1)} without a verdict (null or unreadable score) "
                          f"{'have' if n > 1 else 'has'} no attempt: those questions have fewer trials (show_result "
                          "leaves out the whole question).")
    return part


def _show_result_note(name: str, frame: pd.DataFrame) -> str:
    """Arena-Hard's own numbers for each (model, task) of a file, to set beside Bayes@N's."""
    code = frame["category"].to_numpy()
    win = np.where(code > 2, 1.0, np.where(code == 2, 0.5, 0.0))
    times = np.where((code == 0) | (code == 4), 3.0, 1.0)
    keys = frame["model"].astype(str) + " on " + frame["task"].astype(str)
    table = pd.DataFrame({"k": keys, "w": win * times, "t": times, "win": win}).groupby("k", sort=True)
    sums = table.sum()
    parts = [f"{k}: {100 * r.w / r.t:.1f}% (win rate with ties half {100 * r.win / c:.1f}%)"
             for (k, r), c in zip(sums.iterrows(), table.size())]
    return (f"{name}: Arena-Hard's own score (show_result: a decisive verdict counted three times) for "
            + "; ".join(parts[:5]) + (f"; ... ({len(parts) - 5} more)" if len(parts) > 5 else "")
            + ". Bayes@N's default rubric weighs the verdict code / 4; the rubric 0, 0, 0.5, 1, 1 is the win rate.")
