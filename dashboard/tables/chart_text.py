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
           "difference_frame", "trials_summary", "trials_frame", "trajectory_summary", "trajectory_frame",
           "interval_summary", "task_heatmap_summary", "convergence_chart_summary", "convergence_chart_frame",
           "tau_summary", "tau_frame"]


def _pct(confidence: float) -> str:
    return f"{int(round(confidence * 100))}%"


def pairwise_summary(models, rho, *, confidence: float) -> str:
    """One sentence on the pairwise heatmap: how many ordered pairs reach ``confidence``.

    >>> pairwise_summary(["a", "b", "c"], [[0.5, 0.97, 0.99], [0.03, 0.5, 0.6], [0.01, 0.4, 0.5]], confidence=0.95)
    'Heatmap of P(row model > column model) for 3 models: 2 of 3 pairs are ordered with at least 95% probability; the closest pair is b and c (P(b > c) = 0.60).'
    >>> nan = float("nan")
    >>> pairwise_summary(["a", "b", "c"], [[0.5, 0.97, nan], [0.03, 0.5, nan], [nan, nan, 0.5]], confidence=0.95)[53:]
    '1 of 1 pairs are ordered with at least 95% probability (2 pairs across groups that share no question are not compared); the closest pair is a and b (P(a > b) = 0.97).'
    """
    names = [str(m) for m in models]
    rho = np.asarray(rho, dtype=float)
    L = len(names)
    rows, cols = np.triu_indices(L, 1)
    if not rows.size:
        return f"Heatmap of P(row model > column model) for {L} model."
    upper, lower = rho[rows, cols], rho[cols, rows]
    ok = ~np.isnan(upper)  # NaN: a pair across groups that share no question (not compared)
    apart = "" if ok.all() else (f" ({int((~ok).sum()):,} pairs across groups that share no question are not "
                                 "compared)")
    if not ok.any():
        return f"Heatmap of P(row model > column model) for {L} models: no pair shares a question{apart}."
    sure = int((np.fmax(upper, lower)[ok] >= confidence).sum())
    k = np.flatnonzero(ok)[np.argmin(np.abs(upper[ok] - 0.5))]  # the first closest pair, row by row
    i, j = int(rows[k]), int(cols[k])
    return (f"Heatmap of P(row model > column model) for {L} models: {sure} of {int(ok.sum())} pairs are ordered with "
            f"at least {_pct(confidence)} probability{apart}; the closest pair is {names[i]} and {names[j]} "
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
    cells = np.where(np.isnan(rho), "not compared", cells)  # across groups that share no question
    np.fill_diagonal(cells, "")
    frame = pd.DataFrame(cells, columns=names)
    frame.insert(0, "model", names)
    return frame


def _percent(p) -> np.ndarray:
    """Shares of draws as the rank heatmap prints them: whole percents, ``>99%``, ``<1%`` (and ``0%`` for none)."""
    p = np.asarray(p, dtype=float)
    text = np.char.add(np.char.mod("%.0f", 100 * p), "%")
    return np.where(text == "100%", ">99%", np.where(p <= 0, "0%", np.where(p < 0.01, "<1%", text)))


def rank_summary(models, probabilities, groups=None) -> str:
    """One sentence on the rank-distribution heatmap: each end's most likely holder (with ``groups``, each row's
    group number: ranks are within groups, and every group has a first).

    >>> rank_summary(["a", "b"], [[0.8, 0.2], [0.2, 0.8]])
    "Heatmap of the probability that each of 2 models holds each rank: a is most likely first (80%); each model's most likely rank: a 1, b 2."
    >>> rank_summary(["a", "b", "c"], [[1, 0, 0], [0, 1, 0], [1, 0, 0]], groups=[1, 1, 2])[:96]
    'Heatmap of the probability that each of 3 models holds each rank within its group (2 groups that'
    """
    names = [str(m) for m in models]
    P = np.asarray(probabilities, dtype=float)
    if not len(names):
        return "Heatmap of rank probabilities: no model."
    if groups is not None:
        g = np.asarray(groups)
        modes = ", ".join(f"{m} {int(np.argmax(row)) + 1} (group {k})" for m, row, k in zip(names[:10], P[:10], g[:10]))
        more = f" (first 10 of {len(names)})" if len(names) > 10 else ""
        return (f"Heatmap of the probability that each of {len(names)} models holds each rank within its group "
                f"({np.unique(g).size} groups that share no question); each model's most likely rank in its "
                f"group{more}: {modes}.")
    first = int(np.argmax(P[:, 0]))
    modes = ", ".join(f"{m} {int(np.argmax(row)) + 1}" for m, row in zip(names[:10], P[:10]))
    more = f" (first 10 of {len(names)})" if len(names) > 10 else ""
    return (f"Heatmap of the probability that each of {len(names)} models holds each rank: {names[first]} is most "
            f"likely first ({_percent(P[first, 0])}); each model's most likely rank{more}: {modes}.")


def rank_frame(models, probabilities, groups=None) -> pd.DataFrame:
    """The heatmap as a table: one row per model, one column per rank (``rank 1``...), percents as printed (with
    ``groups``: a ``group`` column, and ranks within a group).

    >>> rank_frame(["a", "b"], [[0.996, 0.004], [0.004, 0.996]]).to_dict("records")
    [{'model': 'a', 'rank 1': '>99%', 'rank 2': '<1%'}, {'model': 'b', 'rank 1': '<1%', 'rank 2': '>99%'}]
    """
    P = np.asarray(probabilities, dtype=float)
    if groups is not None:  # ranks within a group: none beyond the largest group, and a group column
        P = P[:, :int(np.bincount(np.asarray(groups)).max())]
    frame = pd.DataFrame(_percent(P).reshape(P.shape), columns=[f"rank {r}" for r in range(1, P.shape[1] + 1)])
    frame.insert(0, "model", [str(m) for m in models])
    if groups is not None:
        frame.insert(1, "group", [int(k) for k in groups])
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


def interval_summary(table: pd.DataFrame, *, interval: str, labels=None, estimate: str = "mean", digits: int = 4,
                     column: str = "mu") -> str:
    """One sentence on a forest plot of ``table`` (``model, <column>, lo, hi``; NaN ``column``: not scored): both ends
    with their intervals, and how many intervals overlap the leader's.

    ``interval`` names the interval ("95% credible interval"); ``labels`` maps models to display names.

    >>> t = pd.DataFrame({"model": ["a", "b", "c"], "mu": [0.74, 0.6, 0.41], "lo": [0.7, 0.55, 0.38],
    ...                   "hi": [0.78, 0.71, 0.44]})
    >>> interval_summary(t, interval="95% credible interval")
    "3 models; highest mean a 0.7400 (95% credible interval 0.7000-0.7800), lowest c 0.4100 (95% credible interval 0.3800-0.4400); 1 other model's interval overlaps the leader's."
    """
    labels = dict(labels or {})
    scored = table[table[column].notna()].sort_values(column, ascending=False, kind="stable")
    unscored = len(table) - len(scored)
    # "3 models scored, 1 not": "(1 not scored)" after a count read as one of those counted (QA 2026-12-03: "50 models
    # (14 not scored)" under a top-50 chart beside 14 models without a score on every task)
    note = f" scored, {unscored} not" if unscored else ""
    if scored.empty:
        return f"No model scored ({unscored} without a score)." if unscored else "No model scored."

    def one(row) -> str:
        name = labels.get(str(row["model"]), str(row["model"]))
        return (f"{name} {row[column]:.{digits}f} ({interval} {row['lo']:.{digits}f}-{row['hi']:.{digits}f})")

    top, bottom = scored.iloc[0], scored.iloc[-1]
    if len(scored) == 1:
        return f"1 model{note}: {estimate} {one(top)}."
    overlap = int((scored["hi"].iloc[1:] >= top["lo"]).sum())
    said = (f"{overlap} other model's interval overlaps" if overlap == 1 else
            f"{overlap} other models' intervals overlap")
    values = scored[column].to_numpy(float)
    if values[0] == values[-1]:  # every model ties: no highest or lowest one to name
        return f"{len(scored)} models{note}, all with {estimate} {values[0]:.{digits}f}; {said} the leader's."
    # exact ties at either end: the named model is one of several (QA 2026-12-03: 300 models, 40 tied at the bottom)
    return (f"{len(scored)} models{note}; highest {estimate} {one(top)}{_tied(values, values[0], estimate)}, lowest "
            f"{one(bottom)}{_tied(values, values[-1], estimate)}; {said} the leader's.")


def _tied(values, value, what: str, thing: str = "model") -> str:
    """``", and k other models with the same mean"`` when ``k > 0`` other ``values`` equal ``value``, else ``""``.

    >>> _tied(np.array([0.9, 0.9, 0.5]), 0.9, "mean")
    ', and 1 other model with the same mean'
    >>> _tied(np.array([0.9, 0.5]), 0.5, "mean")
    ''
    """
    k = int((values == value).sum()) - 1
    return f", and {k} other {thing}{'' if k == 1 else 's'} with the same {what}" if k > 0 else ""


def task_heatmap_summary(cells: pd.DataFrame, models, tasks) -> str:
    """One sentence on the task heatmap (``cells``: ``model, task, bayes``): its highest and lowest cell (3 decimals,
    as printed) and the cells without data.

    >>> c = pd.DataFrame({"model": ["a", "a", "b"], "task": ["x", "y", "x"], "bayes": [0.9, 0.5, 0.2]})
    >>> task_heatmap_summary(c, ["a", "b"], ["x", "y"])
    'Bayes@N of 2 models on 2 tasks: highest a on x (0.900), lowest b on x (0.200); 1 cell without data.'
    """
    models, tasks = [str(m) for m in models], [str(t) for t in tasks]
    shown = cells[cells["model"].astype(str).isin(models) & cells["task"].astype(str).isin(tasks)
                  & cells["bayes"].notna()]
    empty = len(models) * len(tasks) - len(shown)
    head = (f"Bayes@N of {len(models)} model{'' if len(models) == 1 else 's'} on {len(tasks)} "
            f"task{'' if len(tasks) == 1 else 's'}")
    gaps = f"; {empty} cell{'' if empty == 1 else 's'} without data" if empty else ""
    if shown.empty:
        return f"{head}: no data{gaps}."
    hi, lo = shown.loc[shown["bayes"].idxmax()], shown.loc[shown["bayes"].idxmin()]
    if hi["bayes"] == lo["bayes"]:
        return f"{head}: every cell {hi['bayes']:.3f}{gaps}."
    values = shown["bayes"].to_numpy(float)
    return (f"{head}: highest {hi['model']} on {hi['task']} ({hi['bayes']:.3f}"
            f"{_tied(values, hi['bayes'], 'value', 'cell')}), lowest {lo['model']} on {lo['task']} "
            f"({lo['bayes']:.3f}{_tied(values, lo['bayes'], 'value', 'cell')}){gaps}.")


def convergence_chart_summary(summary: pd.DataFrame, curves: pd.DataFrame, *, n_max: int) -> str:
    """One sentence on the convergence@n chart: per method, the share of replicates whose ranking settles within
    ``n_max`` trials (most first) and the mean convergence@n of those that do; or that none settles.

    Methods are ordered by the share that settles, then by that mean: a mean over the 0.2% of replicates that settle
    is not "settling first" (a11y review).

    ``summary``: ``method, mean, no_convergence``; ``curves``: ``method, n, cdf``.

    >>> s = pd.DataFrame({"method": ["A", "B", "C"], "mean": [5.0, np.nan, 2.0], "no_convergence": [0.0, 1.0, 0.998]})
    >>> c = pd.DataFrame({"method": ["A"] * 3, "n": [1, 2, 3], "cdf": [0.2, 1.0, np.nan]})
    >>> convergence_chart_summary(s, c, n_max=3)
    'Share of bootstrap replicates whose ranking settles on the gold standard by n, for 3 methods (N = 3): A settles in every replicate (by n = 2; mean convergence@n 5.0), C in 0.2% of them (mean 2.0 among those), B in none within N trials.'
    """
    head = (f"Share of bootstrap replicates whose ranking settles on the gold standard by n, for {len(summary)} "
            f"method{'' if len(summary) == 1 else 's'} (N = {n_max})")
    share = 1.0 - summary["no_convergence"].astype(float)
    order = summary.assign(_s=share, _m=summary["mean"].astype(float)).sort_values(
        ["_s", "_m"], ascending=[False, True], kind="stable", na_position="last")
    if not (order["_s"] > 0).any():
        return f"{head}: no method's ranking settles on the gold standard within N = {n_max} trials."
    parts = []
    for i, (method, s, m) in enumerate(zip(order["method"], order["_s"], order["_m"])):
        if not s > 0 or not np.isfinite(m):
            parts.append(f"{method} in none within N trials" if i else f"{method} never settles within N trials")
            continue
        if s >= 1 - 1e-9:
            cdf = curves[(curves["method"] == method) & curves["cdf"].notna()]
            done = cdf[cdf["cdf"] >= 1 - 1e-9]
            by = f"by n = {int(done['n'].iloc[0])}; " if len(done) else ""
            parts.append(f"{method} {'settles ' if not i else ''}in every replicate ({by}mean convergence@n {m:.1f})")
        else:
            parts.append(f"{method} {'settles ' if not i else ''}in {format_probability(float(s))} of them"
                         f" (mean {m:.1f} among those)" if i else
                         f"{method} settles in {format_probability(float(s))} of replicates (mean convergence@n "
                         f"{m:.1f} among those)")
    return f"{head}: {', '.join(parts)}."


def _by_n(curves: pd.DataFrame, value: str) -> pd.DataFrame:
    """``curves``' ``value`` as a grid: one row per n (:func:`_grid` of them), one column per method, 4 decimals."""
    data = curves[curves[value].notna()]
    wide = data.pivot_table(index="n", columns="method", values=value, sort=False)
    wide = wide[list(dict.fromkeys(data["method"]))]
    n = wide.index.to_numpy(int)
    rows = _grid(n) if len(n) else []
    frame = wide.iloc[rows].round(4).reset_index().rename(columns={"n": "trials n"})
    frame.columns.name = None
    return frame


def convergence_chart_frame(curves: pd.DataFrame) -> pd.DataFrame:
    """The lower panel as a table: each method's share of replicates settled by n (``cdf``, 4 decimals as on hover).

    >>> convergence_chart_frame(pd.DataFrame({"method": ["A", "A"], "n": [1, 2], "cdf": [0.25, 1.0]})).to_dict("list")
    {'trials n': [1, 2], 'A': [0.25, 1.0]}
    """
    return _by_n(curves, "cdf")


def tau_summary(curves: pd.DataFrame) -> str:
    """One sentence on the Kendall's tau_b curves: each method's value at the last n (closest first).

    >>> tau_summary(pd.DataFrame({"method": ["A", "A", "B", "B"], "n": [1, 2, 1, 2], "tau": [0.5, 0.9, 0.4, np.nan]}))
    "Mean Kendall's tau_b with the gold standard after n = 1 to 2 trials for 2 methods; at the last n: A 0.9000, B undefined."
    """
    methods = list(dict.fromkeys(curves["method"]))
    if not len(curves):
        return "Mean Kendall's tau_b with the gold standard: nothing to draw."
    last = [(m, curves.loc[curves["method"] == m].sort_values("n")["tau"].iloc[-1]) for m in methods]
    last.sort(key=lambda x: (not np.isfinite(x[1]), -x[1] if np.isfinite(x[1]) else 0))
    ends = ", ".join(f"{m} {v:.4f}" if np.isfinite(v) else f"{m} undefined" for m, v in last)
    return (f"Mean Kendall's tau_b with the gold standard after n = {int(curves['n'].min())} to "
            f"{int(curves['n'].max())} trials for {len(methods)} method{'' if len(methods) == 1 else 's'}; "
            f"at the last n: {ends}.")


def tau_frame(curves: pd.DataFrame) -> pd.DataFrame:
    """The tau_b curves as a table: one row per n (as :func:`trials_frame` picks them), one column per method.

    >>> tau_frame(pd.DataFrame({"method": ["A", "A"], "n": [1, 2], "tau": [0.123456, 1.0]})).to_dict("list")
    {'trials n': [1, 2], 'A': [0.1235, 1.0]}
    """
    return _by_n(curves, "tau")
