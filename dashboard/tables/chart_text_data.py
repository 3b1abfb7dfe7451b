"""Text alternatives of the Data page's grids (pass rates, every trial): a one-sentence summary and a table each.

As :mod:`dashboard.tables.chart_text` (its a11y contract): the sentence is the chart's caption, the table is under
"Show as a table"; plain text, the caller escapes it (:func:`dashboard.text.md`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.tables.chart_text_more import _s

__all__ = ["rate_grid_summary", "rate_grid_frame", "trial_grid_summary", "trial_grid_frame"]


def rate_grid_summary(models, questions, rates, *, binary: bool) -> str:
    """One sentence on the per-question grid: questions every model always passes or always fails, and flaky cells.

    >>> rate_grid_summary(["a", "b"], ["q1", "q2", "q3"], [[1, 0, 0.5], [1, 0, np.nan]], binary=True)
    'Pass rate of 2 models on 3 questions: 1 question passed by every model on every trial, 1 failed by every model, 1 flaky cell (between 0 and 1), 1 cell not answered.'
    """
    R = np.asarray(rates, dtype=float).reshape(len(models), len(questions))
    what = "Pass rate" if binary else "Rescaled rubric score"
    answered = np.isfinite(R)
    all_pass = int(np.sum(np.all(~answered | (R == 1), axis=0) & answered.any(axis=0)))
    all_fail = int(np.sum(np.all(~answered | (R == 0), axis=0) & answered.any(axis=0)))
    flaky = int(np.sum(answered & (R > 0) & (R < 1)))
    missing = int((~answered).sum())
    gaps = f", {_s(missing, 'cell')} not answered" if missing else ""
    return (f"{what} of {_s(len(models), 'model')} on {_s(len(questions), 'question')}: {_s(all_pass, 'question')} "
            f"{'passed' if binary else 'scored the top weight'} by every model on every trial, {all_fail:,} "
            f"{'failed' if binary else 'the lowest'} by every model, {_s(flaky, 'flaky cell')} (between 0 and 1)"
            f"{gaps}.")


def rate_grid_frame(models, questions, rates, correct=None, trials=None, *, binary: bool) -> pd.DataFrame:
    """The grid as printed: one row per question, one column per model; ``correct/trials`` under binary correctness,
    else the rate to 2 decimals; empty where not answered.

    >>> rate_grid_frame(["a"], ["q1", "q2"], [[1.0, np.nan]], [[3, np.nan]], [[3, 0]], binary=True).to_dict("records")
    [{'question': 'q1', 'a': '3/3'}, {'question': 'q2', 'a': ''}]
    """
    R = np.asarray(rates, dtype=float).reshape(len(models), len(questions))
    if binary:
        C, N = np.asarray(correct, dtype=float), np.asarray(trials, dtype=float)
        text = np.where(np.isfinite(C), np.char.add(np.char.add(np.nan_to_num(C).astype(int).astype(str), "/"),
                                                    np.nan_to_num(N).astype(int).astype(str)), "")
    else:
        text = np.where(np.isfinite(R), np.char.mod("%.2f", np.nan_to_num(R)), "")
    frame = pd.DataFrame(text.T, columns=[str(m) for m in models])
    frame.insert(0, "question", [str(q) for q in questions])
    return frame


def trial_grid_summary(models, questions, codes, labels, rates) -> str:
    """One sentence on the per-trial grid (``codes``: (L, M, N) category codes, -1 none): the most common category
    and the flaky rows the diamonds mark (``0 < rates < 1``).

    >>> trial_grid_summary(["a"], ["q1", "q2"], np.array([[[1, 1], [0, -1]]]), ["wrong", "right"], [[1.0, 0.0]])
    "Every trial of 1 model on 2 questions (up to 2 trials each) by rubric category: most often 'right' (67% of 3 trials); 0 flaky rows."
    """
    C = np.asarray(codes, dtype=int)
    seen = C[C >= 0]
    R = np.asarray(rates, dtype=float)
    flaky = int(np.sum((R > 0) & (R < 1)))
    head = (f"Every trial of {len(models)} model{'' if len(models) == 1 else 's'} on {len(questions)} "
            f"question{'' if len(questions) == 1 else 's'} (up to {C.shape[-1]} trials each) by rubric category")
    rows = f"{flaky} flaky row{'' if flaky == 1 else 's'}"
    if not seen.size:
        return f"{head}: no trial in a category; {rows}."
    top = int(np.bincount(seen, minlength=len(labels)).argmax())
    return (f"{head}: most often '{labels[top]}' ({np.mean(seen == top):.0%} of {seen.size:,} trials); {rows}.")


def trial_grid_frame(models, questions, codes, labels) -> pd.DataFrame:
    """The grid as a table: one row per (model, question), each trial's category (empty: no trial or no category).

    >>> trial_grid_frame(["a"], ["q1"], np.array([[[1, -1]]]), ["wrong", "right"]).to_dict("records")
    [{'model': 'a', 'question': 'q1', 'trial 1': 'right', 'trial 2': ''}]
    """
    C = np.asarray(codes, dtype=int)
    L, M, N = C.shape
    names = np.array([*map(str, labels), ""], dtype=object)  # -1 picks the last: empty
    frame = pd.DataFrame(names[C.reshape(L * M, N)], columns=[f"trial {t}" for t in range(1, N + 1)])
    frame.insert(0, "question", [str(q) for q in questions] * L)
    frame.insert(0, "model", np.repeat([str(m) for m in models], M))
    return frame
