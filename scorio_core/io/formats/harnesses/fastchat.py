"""FastChat ``llm_judge`` judgments (MT-Bench and its kin): ``data/<bench>/model_judgment/<judge>_single.jsonl``.

Source: lm-sys/FastChat ``fastchat/llm_judge/gen_judgment.py`` and ``common.py`` (``run_judge_single`` writes one line
per (model, question, turn): ``{"question_id", "model", "judge": [judge model, prompt name], "user_prompt",
"judgment", "score", "turn", "tstamp"}``; the score is the judge's rating 1-10, -1 when no rating could be parsed) and
``show_result.py`` (drops the -1 scores, averages the ratings per model, per turn and over both).

- the model is ``model``; the task ``<bench>/<judge model>`` (``mt_bench/gpt-4``: the bench folder above
  ``model_judgment/``, else the file name without ``_single``), so two judges' files are two tasks, not duplicates;
- the question is ``question_id``, and each turn of a multi-turn question is a question of its own
  (``81/turn2``): MT-Bench's second turn is a follow-up prompt, not a repeat of the first, so turns are never read as
  trials (a table reader would take them for two trials of one question); one attempt per (model, question);
- the outcome is the rating as a category code 1-10: the default rubric weighs code / 10 (the top code), so Bayes@N is
  FastChat's mean score over 10 with its uncertainty; a judgment rated -1 (none parsed) is left out, as FastChat's
  ``show_result`` leaves it out, said with its count.

Pairwise judgments (``<judge>_pair.jsonl``: ``model_1``, ``model_2``, ``g1_winner``) are read by
:mod:`.fastchat_pairs` (against a baseline).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import SCALE_LABEL, json_lines
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_fastchat_judgment", "read_fastchat", "turn_of"]

FORMAT = "fastchat-judge"
_SINGLE = frozenset({"question_id", "model", "judge", "score", "turn"})
_PAIR = frozenset({"question_id", "model_1", "model_2", "g1_winner"})


def is_fastchat_judgment(record: Mapping) -> bool:
    """Whether a JSON Lines record is a FastChat llm_judge judgment (single-answer grading or pairwise).

    >>> is_fastchat_judgment({"question_id": 81, "model": "vicuna-13b", "judge": ["gpt-4", "single-v1"],
    ...                       "judgment": "Rating: [[7]]", "score": 7, "turn": 1, "tstamp": 1.7e9})
    True
    >>> is_fastchat_judgment({"question_id": 81, "model": "m", "score": 7})
    False
    """
    keys = set(record)
    return _SINGLE <= keys or _PAIR <= keys


def _task(src: Source, judge: str) -> str:
    """``<bench>/<judge>``: the bench folder above ``model_judgment/``, else the file's stem unless it only names the
    judge (an upload of ``gpt-4_single.jsonl``: ``llm_judge/gpt-4``)."""
    path = src.path
    bench = path.parent.parent.name if path is not None and path.parent.name == "model_judgment" else None
    stem = Path(src.name).stem.removesuffix("_single")
    bench = bench or (stem if stem != judge else "llm_judge")
    return f"{bench}/{judge}" if judge else bench


def turn_of(rec: Mapping, source: str, line: int) -> int:
    """A judgment's turn (1 when absent), refused naming the line when it is not a whole number."""
    turn = rec.get("turn")
    if turn is None:
        return 1
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise InputError(f"turn is {turn!r}, not a whole number.", source=source, line=line, field="turn")
    return turn


def read_fastchat(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a FastChat single-answer judgment file (see the module docstring): one attempt per (model, question, turn).

    Parameters
    ----------
    src : Source
        ``<judge>_single.jsonl`` (a path, or an upload: the task is then named after the file).
    mapping : dict, optional
        ``--map task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model, task, question_id (``<question_id>``, or ``<question_id>/turn<k>`` when questions have several
        turns), trial (0), category (the rating 1-10; judgments rated -1 left out, said).

    Raises
    ------
    InputError
        Pairwise judgments, invalid JSON or a line without model / question / score (naming the line), a rating
        outside 1-10 other than -1, another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "FastChat judgments have fixed fields (model, question_id, turn, score)",
                          ("task",))
    rows, judges, failed = [], set(), 0
    for n, rec in json_lines(src, what="a FastChat judgment (a JSON object)"):
        if _PAIR <= set(rec) and "model" not in rec:
            raise InputError("FastChat pairwise judgments (model_1 against model_2, g1_winner): Bayes@N scores each "
                             "model's own answers, so preferences between two models are not read; load the single-"
                             "answer grading (<judge>_single.jsonl, gen_judgment.py --mode single).", source=src.name,
                             line=n)
        model, qid, score = rec.get("model"), rec.get("question_id"), rec.get("score")
        if model is None or qid is None or isinstance(score, bool) or not isinstance(score, (int, float)):
            raise InputError("expected a FastChat judgment: model, question_id and a numeric score on every line.",
                             source=src.name, line=n, field="score" if model is not None and qid is not None else None)
        if score != -1 and not (1 <= score <= 10 and float(score).is_integer()):
            raise InputError(f"the rating is {score!r}: FastChat rates 1-10 (-1 when the judge gave none).",
                             source=src.name, line=n, field="score")
        judge = rec.get("judge")
        judges.add(str(judge[0]) if isinstance(judge, list) and judge else str(judge or ""))
        if score == -1:
            failed += 1
            continue
        rows.append((str(model), str(qid), turn_of(rec, src.name, n), float(score)))
    if not rows:
        raise InputError("the judgment file holds no rating" + (" (every score is -1: the judge gave none)" if failed
                         else "") + ".", source=src.name)
    frame = pd.DataFrame(rows, columns=["model", "question_id", "turn", "category"])
    multi = frame["turn"].nunique() > 1
    if multi:
        frame["question_id"] = frame["question_id"] + "/turn" + frame["turn"].astype(str)
    judge = " + ".join(sorted(j for j in judges if j))
    named = folder_names(src.path, levels, src.name) if levels else {}
    task = named.get("task") or _task(src, judge)
    frame = frame.drop(columns="turn").assign(task=task, trial=0)[["model", "task", "question_id", "trial", "category"]]
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns}, source=src.name)
    frame[SCALE_LABEL] = FORMAT  # the ratings' scale, 1-10, kept where the attempts are stored
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=task, locate=lambda i: {"row": i + 1})
    part.mapping.update({"task": part.mapping["task"] if "task" in named else f"<bench folder / judge: {task}>",
                         "question_id": "question_id" + (" + turn" if multi else ""), "trial": "<one judgment>",
                         "category": "score (the judge's rating 1-10)"})
    part.defaults.append(f"{src.name}: FastChat single-answer ratings by {judge or 'the judge'}: each rating 1-10 a "
                         "category code (the default rubric weighs code / 10, so Bayes@N is the mean rating / 10)"
                         + ("; each turn its own question (a follow-up prompt, not a repeat)" if multi else "") + ".")
    if failed:
        part.notes.append(f"{src.name}: {failed:,} judgment{'s' * (failed > 1)} without a rating (score -1: the judge's "
                          "output had none) left out, as FastChat's show_result leaves them out: those (model, "
                          "question) pairs have no attempt; rerun gen_judgment.py to rate them.")
    return part
