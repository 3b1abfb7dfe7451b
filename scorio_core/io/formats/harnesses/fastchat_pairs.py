"""FastChat ``llm_judge`` pairwise judgments against a baseline: ``data/<bench>/model_judgment/<judge>_pair.jsonl``.

Source: lm-sys/FastChat ``fastchat/llm_judge/gen_judgment.py --mode pairwise-baseline`` and ``common.py``
(``play_a_match_pair`` writes one line per (model, question, turn): ``{"question_id", "model_1", "model_2",
"g1_winner", "g2_winner", "judge": [judge model, prompt name], ..., "turn"}``; model_1 the judged model, model_2 the
baseline (``--baseline-model``, gpt-3.5-turbo by default); game 1 shows model_1's answer first, game 2 swaps them;
each winner ``"model_1"``, ``"model_2"``, ``"tie"`` or ``"error"``) and ``show_result.py --mode pairwise-baseline``
(drops a line with an error in either game; a tie in game 1, or games that disagree, is a tie; ``win_rate_adjusted``
counts a win 1 and a tie 0.5).

- the model is the one judged against the baseline (the name every line shares is the baseline); the task
  ``<bench>/<judge> vs <baseline>`` (``mt_bench/gpt-4 vs gpt-3.5-turbo``), apart from the single-answer ratings'
  ``<bench>/<judge>``; each turn its own question (``81/turn2``), as for the ratings;
- one attempt per line, FastChat's verdict from the model's side as a category code: 0 the baseline's answer
  preferred, 1 tie (or the two games disagree), 2 the model's preferred; the default rubric (code / 2) is
  ``win_rate_adjusted``;
- a line with an error in either game has no attempt, said, as show_result drops it.

Judgments of every pair of models (``--mode pairwise-all``: no model in every line) are refused: Bayes@N scores each
model against one fixed baseline. Beside a ``<judge>_single.jsonl`` in the same load the pairwise file is left out,
said (its codes are on another scale than the ratings, and one rubric reads every task): load it on its own
(:func:`skip_fastchat_pairs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import SCALE_LABEL, json_lines, leave_out, tool_part
from scorio_core.io.formats.harnesses.fastchat import turn_of
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "PAIR_KEYS", "read_fastchat_pairs", "skip_fastchat_pairs"]

FORMAT = "fastchat-pair"
#: The keys of a FastChat pairwise judgment line.
PAIR_KEYS = frozenset({"question_id", "model_1", "model_2", "g1_winner"})


def _is_file(src: Source, suffix: str) -> bool:
    return not src.is_dir and Path(src.name).name.endswith((f"{suffix}.jsonl", f"{suffix}.jsonl.gz"))


def skip_fastchat_pairs(srcs: list[Source]) -> list[Source]:
    """Leave out FastChat's ``<judge>_pair.jsonl`` when a ``<judge>_single.jsonl`` is in the same load, saying so."""
    pairs = [s for s in srcs if _is_file(s, "_pair")]
    if not pairs or not any(_is_file(s, "_single") for s in srcs):
        return srcs
    return leave_out(srcs, pairs, f"FastChat: {len(pairs):,} pairwise judgment file{'s' * (len(pairs) > 1)} beside the "
                     "single-answer ratings not read (verdicts against a baseline, on another scale than the 1-10 "
                     "ratings, and one rubric reads every task): load the _pair.jsonl on its own.", "")


def _task(src: Source, judge: str, baseline: str) -> str:
    path = src.path
    bench = path.parent.parent.name if path is not None and path.parent.name == "model_judgment" else None
    stem = Path(src.name).name.split(".")[0].removesuffix("_pair")
    bench = bench or (stem if stem != judge else "llm_judge")
    return f"{bench}/{judge} vs {baseline}" if judge else f"{bench} vs {baseline}"


def read_fastchat_pairs(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a FastChat pairwise-baseline judgment file (see the module docstring): one attempt per line.

    Parameters
    ----------
    src : Source
        ``<judge>_pair.jsonl``.
    mapping : dict, optional
        ``--map task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model, task, question_id, trial (0), category (0 the baseline preferred, 1 tie, 2 the model).

    Raises
    ------
    InputError
        A line without the pair's fields (naming it), judgments of every pair (no baseline), no line without an
        error, another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "FastChat judgments have fixed fields (model_1, model_2, question_id, "
                          "g1_winner, g2_winner)", ("task",))
    lines, judges = [], set()
    for n, rec in json_lines(src, what="a FastChat pairwise judgment (a JSON object)"):
        values = [rec.get(k) for k in ("model_1", "model_2", "question_id", "g1_winner", "g2_winner")]
        if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
            raise InputError("expected a FastChat pairwise judgment: model_1, model_2, question_id, g1_winner and "
                             "g2_winner on every line.", source=src.name, line=n)
        judge = rec.get("judge")
        judges.add(str(judge[0]) if isinstance(judge, list) and judge else str(judge or ""))
        lines.append([str(v) for v in values] + [turn_of(rec, src.name, n)])
    if not lines:
        raise InputError("the judgment file holds no judgment.", source=src.name)
    frame = pd.DataFrame(lines, columns=["model_1", "model_2", "question_id", "g1", "g2", "turn"])
    first = frame.iloc[0]  # the baseline is in every line: model_2 (FastChat's place for it) when it never changes
    is_in = {m: bool(((frame["model_1"] == m) | (frame["model_2"] == m)).all()) for m in (first["model_2"], first["model_1"])}
    baseline = next((m for m, every in is_in.items() if every), None)
    if baseline is None:
        raise InputError("FastChat judgments of pairs of models with no baseline common to every line (gen_judgment.py "
                         "--mode pairwise-all): Bayes@N scores each model against one fixed baseline; load "
                         "pairwise-baseline judgments (--mode pairwise-baseline) or the single-answer ratings "
                         "(<judge>_single.jsonl).", source=src.name)
    second = (frame["model_2"] == baseline).to_numpy()
    model = np.where(second, frame["model_1"], frame["model_2"])
    mine = np.where(second, "model_1", "model_2")  # the judged model's side in the winners
    g1, g2 = frame["g1"].to_numpy(), frame["g2"].to_numpy()
    error = (g1 == "error") | (g2 == "error")
    code = np.where((g1 == "tie") | (g1 != g2), 1.0, np.where(g1 == mine, 2.0, 0.0))
    judge = " + ".join(sorted(j for j in judges if j))
    named = folder_names(src.path, levels, src.name) if levels else {}
    task = named.get("task") or _task(src, judge, baseline)
    qid = frame["question_id"] + ("/turn" + frame["turn"].astype(str) if frame["turn"].nunique() > 1 else "")
    out = pd.DataFrame({"model": model, "task": task, "question_id": qid, "trial": 0, "category": code,
                        SCALE_LABEL: FORMAT})[~error]
    if out.empty:
        raise InputError("every judgment has an error in a game (the judge's verdict could not be parsed).",
                         source=src.name)
    part = tool_part(out, src.name, FORMAT, task, lambda i: {"row": i + 1}, named,
                     {"model": "model_1 / model_2 (the one not the baseline)", "task": f"<bench / judge vs baseline: "
                      f"{task}>", "question_id": "question_id" + (" + turn" if frame["turn"].nunique() > 1 else ""),
                      "trial": "<one judgment>", "category": "g1_winner, g2_winner (0 baseline, 1 tie or the games "
                      "disagree, 2 the model)"})
    part.defaults.append(f"{src.name}: FastChat pairwise judgments by {judge or 'the judge'} against the baseline "
                         f"'{baseline}': one attempt per (model, question, turn), the verdict a category code (0 the "
                         "baseline preferred, 1 tie or the two games disagree, 2 the model; the default rubric, code "
                         "/ 2, is show_result's win_rate_adjusted).")
    if n := int(error.sum()):
        part.notes.append(f"{src.name}: {n:,} judgment{'s' * (n > 1)} with an error in a game (no verdict parsed) "
                          f"{'have' if n > 1 else 'has'} no attempt, as FastChat's show_result drops them.")
    return part
