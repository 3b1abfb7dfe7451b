"""CRUXEval scored results: ``evaluation_results/<model>_temp<T>_<input|output>.json``.

Source: facebookresearch/cruxeval ``evaluation/evaluate_generations.py`` (``--scored_results_path``): one JSON object
``{"raw_generations": {"sample_<i>": [text, ...]}, "raw_scored_generations": {"sample_<i>": [true, false, ...]},
"pass_at_1": ..., "pass_at_5": ...}``: each problem's generations and, in the same order, whether each one passed;
``evaluation/read_results.py`` reads the model as the file name before ``_temp``, the temperature after it and the
mode (CRUXEval-I input prediction, CRUXEval-O output prediction) as its last part. The repository's samples are named
``sample_scored_<run>.json``.

Each problem's list is read as its trials (position = trial, as :mod:`..trial_lists` reads any list of outcomes); the
model is the run's model with its temperature (``codellama-7b (t0.2)``: runs at other temperatures are other
sampling settings and stay apart) and the task ``CRUXEval-I`` or ``CRUXEval-O``, when the file is so named; otherwise the
file stem names the model as for any file without a model field. The aggregated ``pass_at_k`` values are checked
against the lists (Pass@1 recomputed: a file whose lists do not give its own pass_at_1 is said, not trusted silently).
"""

from __future__ import annotations

import re

__all__ = ["cruxeval_records", "outcome_lists"]

_NAME = re.compile(r"^(?:sample_scored_)?(?P<model>.+)_temp(?P<temp>[\d.]+)_(?P<mode>input|output)\.json(?:\.gz)?$")
_MODES = {"input": "CRUXEval-I", "output": "CRUXEval-O"}


def outcome_lists(value: object) -> bool:
    """An object of per-trial outcome lists keyed by question (``{"sample_0": [true, false], ...}``): non-empty,
    every value a list of booleans, 0/1 numbers or nulls (the first 50 checked), at least one element somewhere.

    >>> outcome_lists({"sample_0": [True, False], "sample_1": [None, 1]}), outcome_lists({"sample_0": ["f(1)"]})
    (True, False)
    >>> outcome_lists({"a": []}), outcome_lists([True])
    (False, False)
    """
    if not isinstance(value, dict) or not value:
        return False
    head = list(value.values())[:50]
    return (all(isinstance(v, list) and all(x is None or isinstance(x, bool) or (isinstance(x, (int, float)) and x in (0, 1))
                                            for x in v) for v in head) and any(head))


def cruxeval_records(doc: dict, name: str) -> tuple[list[dict], list[str]] | None:
    """The attempt records of a document that is, or holds exactly one, object of outcome lists keyed by question
    (CRUXEval's ``raw_scored_generations``; ``{"q1": [1, 0, 1], ...}``), else None.

    Parameters
    ----------
    doc : dict
        The parsed JSON document.
    name : str
        The file's name (``codellama-7b_temp0.2_input.json`` names model and task; see the module docstring).

    Returns
    -------
    (records, notes) : (list of dict, list of str) or None
        One record per question: ``question_id`` (the key), ``is_correct`` (its list of outcomes: one trial each, by
        position), with ``model`` and ``task`` where the file name gives them; notes say where each came from and
        whether the file's own ``pass_at_1`` agrees with its lists.

    >>> recs, notes = cruxeval_records({"raw_generations": {"sample_0": ["f(1)", "f(2)"]},
    ...     "raw_scored_generations": {"sample_0": [True, False], "sample_1": [True, True]}, "pass_at_1": 75.0},
    ...     "phi-2_temp0.2_output.json")
    >>> [(r["model"], r["task"], r["question_id"], r["is_correct"]) for r in recs]
    [('phi-2 (t0.2)', 'CRUXEval-O', 'sample_0', [True, False]), ('phi-2 (t0.2)', 'CRUXEval-O', 'sample_1', [True, True])]
    """
    fields = [""] if outcome_lists(doc) else [k for k, v in doc.items() if outcome_lists(v)]
    if len(fields) != 1:
        return None
    lists = doc[fields[0]] if fields[0] else doc
    found = _NAME.match(name.rsplit("/", 1)[-1])
    ids = {"model": f"{found['model']} (t{found['temp']})", "task": _MODES[found["mode"]]} if found else {}
    records = [{**ids, "question_id": key, "is_correct": value} for key, value in lists.items()]
    notes = [f"{name}: the outcome lists{f' under {fields[0]!r}' if fields[0] else ''}, one per question keyed by its id (each list's position "
             f"the trial; {len(records):,} questions)" + (f"; model {ids['model']!r} and task {ids['task']!r} from the "
                                                          "file name (CRUXEval's <model>_temp<T>_<mode>.json)." if ids
                                                          else ".")]
    rates = [sum(map(bool, v)) / len(v) for v in lists.values() if v and None not in v]
    stated = doc.get("pass_at_1")
    if isinstance(stated, (int, float)) and rates and len(rates) == len(lists):
        mean = 100.0 * sum(rates) / len(rates)
        if abs(mean - stated) > 0.05:
            notes.append(f"{name}: the file's own pass_at_1 ({stated:.2f}) differs from the mean rate of its lists "
                         f"({mean:.2f}); the lists are what is read here.")
    return records, notes
