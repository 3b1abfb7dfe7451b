"""Text alternatives of charts: a one-sentence summary and, where a figure holds numbers shown nowhere else, a table.

A Plotly chart is one unnamed SVG for a screen reader (a11y QA): :func:`dashboard.panels.charts.chart` draws the
figure, the sentence from here as a caption, and the table under "Show as a table". The numbers are rounded as
the figure displays them (hover or cell text). Plain text: the caller escapes it (:func:`dashboard.text.md`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.text import probability_cells
from scorio_core.report.verdict import format_probability

__all__ = ["pairwise_summary", "pairwise_frame", "rank_summary", "rank_frame", "difference_summary",
           "difference_frame", "trials_summary", "trials_frame", "trajectory_summary", "trajectory_frame"]


def _pct(confidence: float) -> str:
    return f"{int(round(confidence * 100))}%"


def pairwise_summary(models, rho, *, confidence: float) -> str:
    """One sentence on the pairwise heatmap: how many ordered pairs reach ``confidence``.

    >>> pairwise_summary(["a", "b", "c"], [[0.5, 0.97, 0.99], [0.03, 0.5, 0.6], [0.01, 0.4, 0.5]], confidence=0.95)
    'Heatmap of P(row model > column model) for 3 models: 2 of 3 pairs are ordered with at least 95% probability; the closest pair is b and c (P(b > c) = 0.60).'
    """
    names = [str(m) for m in models]
    rho = np.asarray(rho, dtype=float)
    L = len(names)
    pairs = [(i, j) for i in range(L) for j in range(i + 1, L)]
    if not pairs:
        return f"Heatmap of P(row model > column model) for {L} model."
    sure = sum(max(rho[i, j], rho[j, i]) >= confidence for i, j in pairs)
    i, j = min(pairs, key=lambda p: abs(rho[p] - 0.5))
    return (f"Heatmap of P(row model > column model) for {L} models: {sure} of {len(pairs)} pairs are ordered with at "
            f"least {_pct(confidence)} probability; the closest pair is {names[i]} and {names[j]} "
            f"(P({names[i]} > {names[j]}) = {probability_cells(rho[i, j])}).")


def pairwise_frame(models, rho, *, confidence: float) -> pd.DataFrame:
    """The heatmap's cells as printed (two decimals, ``>.99``/``<.01``, ``*`` at ``confidence``): one row per model.

    >>> pairwise_frame(["a", "b"], [[0.5, 0.97], [0.03, 0.5]], confidence=0.95).to_dict("records")
    [{'model': 'a', 'a': '', 'b': '0.97*'}, {'model': 'b', 'a': '0.03', 'b': ''}]
    """
    names = [str(m) for m in models]
    rho = np.asarray(rho, dtype=float)
    cells = probability_cells(rho)
    cells = np.where(rho >= confidence, np.char.add(cells, "*"), cells)
    np.fill_diagonal(cells, "")
    frame = pd.DataFrame(cells, columns=names)
    frame.insert(0, "model", names)
    return frame


def _percent(p) -> np.ndarray:
    """Shares of draws as the rank heatmap prints them: whole percents, ``>99%``, ``<1%`` (and ``0%`` for none)."""
    p = np.asarray(p, dtype=float)
    text = np.char.add(np.char.mod("%.0f", 100 * p), "%")
    return np.where(text == "100%", ">99%", np.where(p <= 0, "0%", np.where(p < 0.01, "<1%", text)))


def rank_summary(models, probabilities) -> str:
    """One sentence on the rank-distribution heatmap: each end's most likely holder.

    >>> rank_summary(["a", "b"], [[0.8, 0.2], [0.2, 0.8]])
    "Heatmap of the probability that each of 2 models holds each rank: a is most likely first (80%); each model's most likely rank: a 1, b 2."
    """
    names = [str(m) for m in models]
    P = np.asarray(probabilities, dtype=float)
    if not len(names):
        return "Heatmap of rank probabilities: no model."
    first = int(np.argmax(P[:, 0]))
    modes = ", ".join(f"{m} {int(np.argmax(row)) + 1}" for m, row in zip(names[:10], P[:10]))
    more = f" (first 10 of {len(names)})" if len(names) > 10 else ""
    return (f"Heatmap of the probability that each of {len(names)} models holds each rank: {names[first]} is most "
            f"likely first ({_percent(P[first, 0])}); each model's most likely rank{more}: {modes}.")


def rank_frame(models, probabilities) -> pd.DataFrame:
    """The heatmap as a table: one row per model, one column per rank (``rank 1``...), percents as printed.

    >>> rank_frame(["a", "b"], [[0.996, 0.004], [0.004, 0.996]]).to_dict("records")
    [{'model': 'a', 'rank 1': '>99%', 'rank 2': '<1%'}, {'model': 'b', 'rank 1': '<1%', 'rank 2': '>99%'}]
    """
    P = np.asarray(probabilities, dtype=float)
    frame = pd.DataFrame(_percent(P).reshape(P.shape), columns=[f"rank {r}" for r in range(1, P.shape[1] + 1)])
    frame.insert(0, "model", [str(m) for m in models])
    return frame


def difference_summary(*, name_a: str, name_b: str, mean: float, lo: float, hi: float, rho: float,
                       confidence: float, kind: str = "credible") -> str:
    """One sentence on the posterior of ``A - B``.

    >>> difference_summary(name_a="a", name_b="b", mean=0.031, lo=-0.01, hi=0.07, rho=0.912, confidence=0.95)
    'Posterior density of a minus b: mean 0.0310, 95% credible interval [-0.0100, 0.0700], P(a > b) = 91.2%.'
    """
    what = "Posterior density" if kind == "credible" else "Density (normal approximation)"
    interval = "credible interval" if kind == "credible" else "interval"
    return (f"{what} of {name_a} minus {name_b}: mean {mean:.4f}, {_pct(confidence)} {interval} [{lo:.4f}, {hi:.4f}], "
            f"P({name_a} > {name_b}) = {format_probability(rho)}.")


def difference_frame(*, name_a: str, name_b: str, mean: float, lo: float, hi: float, rho: float,
                     confidence: float) -> pd.DataFrame:
    """The numbers the difference plot marks: mean, interval ends and both directions' probabilities.

    >>> difference_frame(name_a="a", name_b="b", mean=0.031, lo=-0.01, hi=0.07, rho=0.912, confidence=0.95)["value"].tolist()
    ['0.0310', '-0.0100', '0.0700', '91.2%', '8.8%']
    """
    return pd.DataFrame({
        "quantity": [f"mean of {name_a} minus {name_b}", f"lower end ({_pct(confidence)})",
                     f"upper end ({_pct(confidence)})", f"P({name_a} > {name_b})", f"P({name_b} > {name_a})"],
        "value": [f"{mean:.4f}", f"{lo:.4f}", f"{hi:.4f}", format_probability(rho), format_probability(1 - rho)],
    })


def _grid(n) -> list[int]:
    """Positions for a curve over ``n``: every point up to 20 of them; else 1, 2, 5, 10, 20, 50... and the last."""
    n = np.asarray(n, dtype=int)
    if len(n) <= 20:
        return list(range(len(n)))
    steps = [s * 10 ** e for e in range(0, 12) for s in (1, 2, 5)]
    picks = [int(np.searchsorted(n, s)) for s in steps if n[0] <= s <= n[-1]]
    return sorted(set(p for p in picks if p < len(n) and n[p] in steps) | {len(n) - 1})


def trials_summary(*, z_threshold: float, n_needed: int | None, n_observed: int, z_observed: float,
                   n_power: int | None, power: float, confidence: float, observed_label: str | None = None) -> str:
    """One sentence on the trials-needed curve.

    >>> trials_summary(z_threshold=1.645, n_needed=40, n_observed=8, z_observed=0.9, n_power=120, power=0.8,
    ...                confidence=0.95)
    'Projected separation z against trials per question: z = 0.90 at the observed N = 8; it reaches the 95% threshold (z = 1.645) at N = 40 (about 50% power) and 80% power at N = 120.'
    """
    reach = (f"it reaches the {_pct(confidence)} threshold (z = {z_threshold:.3f}) at N = {n_needed:,} (about 50% power)"
             if n_needed is not None else f"it does not reach the {_pct(confidence)} threshold (z = {z_threshold:.3f})")
    powered = f" and {power:.0%} power at N = {n_power:,}" if n_power else ""
    return (f"Projected separation z against trials per question: z = {z_observed:.2f} at the observed "
            f"N = {observed_label or n_observed}; {reach}{powered}.")


def trials_frame(n, z) -> pd.DataFrame:
    """The curve at 1, 2, 5, 10, 20, 50... trials per question and at its end (every N up to 20 points); z to two
    decimals, as on hover.

    >>> trials_frame(range(1, 31), np.arange(1, 31) / 10 + 0.004).to_dict("list")
    {'trials per question (N)': [1, 2, 5, 10, 20, 30], 'projected z': [0.1, 0.2, 0.5, 1.0, 2.0, 3.0]}
    """
    n, z = np.asarray(n, dtype=int), np.asarray(z, dtype=float)
    rows = _grid(n) if len(n) else []
    return pd.DataFrame({"trials per question (N)": n[rows].tolist(), "projected z": np.round(z[rows], 2).tolist()})


def trajectory_summary(models, n, ranks, *, convergence: int | None) -> str:
    """One sentence on the rank paths: the rank each drawn model ends at, and convergence@n.

    >>> trajectory_summary(["a", "b"], [1, 2, 3], [[2, 1, 1], [1, 2, 2]], convergence=2)
    'Rank of 2 models after each of n = 1 to 3 trials; after all trials: a 1, b 2; the ranking settles on the gold standard from n = 2.'
    """
    names = [str(m) for m in models]
    R = np.asarray(ranks, dtype=float).reshape(len(names), -1)
    n = np.asarray(n, dtype=int)
    if not len(names) or not len(n):
        return "Rank paths: nothing to draw."
    last = R[:, -1]
    ends = ", ".join(f"{m} {'undefined' if np.isnan(r) else int(r)}"
                     for m, r in sorted(zip(names, last), key=lambda x: (np.isnan(x[1]), x[1]))[:10])
    more = f" (best 10 of {len(names)})" if len(names) > 10 else ""
    settle = ("the ranking never settles on the gold standard" if convergence is None else
              f"the ranking settles on the gold standard from n = {convergence}")
    return (f"Rank of {len(names)} models after each of n = {n[0]} to {n[-1]} trials; after all trials{more}: {ends}; "
            f"{settle}.")


def trajectory_frame(models, n, ranks) -> pd.DataFrame:
    """Each drawn model's rank after n trials (every n up to 20; else n = 1, 2, 5, 10, 20, 50... and the last); empty
    where undefined (n < k).

    >>> trajectory_frame(["a", "b"], [1, 2, 3], [[np.nan, 1, 1], [np.nan, 2, 2]]).to_dict("records")
    [{'model': 'a', 'n = 1': None, 'n = 2': 1, 'n = 3': 1}, {'model': 'b', 'n = 1': None, 'n = 2': 2, 'n = 3': 2}]
    """
    names = [str(m) for m in models]
    n = np.asarray(n, dtype=int)
    R = np.asarray(ranks, dtype=float).reshape(len(names), -1)
    cols = _grid(n) if len(n) else []
    frame = pd.DataFrame({f"n = {n[c]}": pd.array(np.round(R[:, c]), dtype="Float64").astype("Int64") for c in cols})
    frame.insert(0, "model", names)
    return frame
