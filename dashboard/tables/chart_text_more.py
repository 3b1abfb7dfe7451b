"""Text alternatives of the remaining charts (continues :mod:`dashboard.tables.chart_text`, same style).

One plain sentence per chart (what a sighted reader takes from it) and, where the figure holds numbers no table on
the page shows, the table behind it; numbers rounded as the figure's hover or cell text prints them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.tables.chart_text import _grid, _pct, rank_frame

__all__ = ["flag_summary", "flag_frame", "item_curve_summary", "item_curve_frame", "projection_summary",
           "projection_frame", "band_summary", "band_table", "bump_summary", "bump_table", "rank_share_summary",
           "rank_share_frame", "category_summary", "category_frame", "scatter_summary", "agreement_summary",
           "agreement_frame", "cost_summary", "cost_frame"]


def _s(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def flag_summary(counts) -> str:
    """One sentence on the flag bars: questions per flag, most first.

    >>> flag_summary({"flaky": 3, "saturated": 0, "unsolved": 5})
    'Questions per flag: unsolved 5, flaky 3, saturated 0.'
    """
    if not any(int(v) for v in counts.values()):
        return "Questions per flag: no question flagged."
    ranked = sorted(counts.items(), key=lambda kv: -int(kv[1]))
    return "Questions per flag: " + ", ".join(f"{k} {int(v):,}" for k, v in ranked) + "."


def flag_frame(counts) -> pd.DataFrame:
    """The bars as a table: ``flag, questions``, in the chart's order.

    >>> flag_frame({"flaky": 3, "unsolved": 5}).to_dict("list")
    {'flag': ['flaky', 'unsolved'], 'questions': [3, 5]}
    """
    return pd.DataFrame({"flag": [str(k) for k in counts], "questions": [int(v) for v in counts.values()]})


def item_curve_summary(question: str, a: float, b: float, observed) -> str:
    """One sentence on a question's item characteristic curve: its difficulty and discrimination, and the spread
    of the models' observed success rates (NaN: no trial).

    >>> item_curve_summary("q1", 1.3, 0.42, [0.0, 0.5, np.nan, 1.0])
    'Item characteristic curve of question q1: difficulty b = 0.42 (50% success at that ability), discrimination a = 1.30; 3 models observed, success rates from 0.000 to 1.000.'
    """
    rates = np.asarray(observed, dtype=float)
    rates = rates[np.isfinite(rates)]
    seen = (f"{_s(len(rates), 'model')} observed, success rates from {rates.min():.3f} to {rates.max():.3f}"
            if len(rates) else "no model observed")
    return (f"Item characteristic curve of question {question}: difficulty b = {b:.2f} (50% success at that ability), "
            f"discrimination a = {a:.2f}; {seen}.")


def item_curve_frame(names, theta, observed) -> pd.DataFrame:
    """The models' dots: ``model, ability`` (2 decimals) and ``observed success`` (3), ablest first.

    >>> item_curve_frame(["a", "b"], [0.1234, 1.5], [0.5, np.nan]).to_dict("list")
    {'model': ['b', 'a'], 'ability': [1.5, 0.12], 'observed success': [nan, 0.5]}
    """
    frame = pd.DataFrame({"model": [str(m) for m in names], "ability": np.round(np.asarray(theta, float), 2),
                          "observed success": np.round(np.asarray(observed, float), 3)})
    return frame.sort_values("ability", ascending=False, kind="stable").reset_index(drop=True)


def _projection(trials, probability):
    T, P = np.asarray(trials, dtype=float), np.asarray(probability, dtype=float)
    return np.median(T, axis=0), P.mean(axis=0)


def projection_summary(trials, probability, *, confidence: float, goal_label: str = "the goal") -> str:
    """One sentence on the goal projection: the mean probability over replays now and after the last batch, and the
    first batch whose mean reaches ``confidence``.

    >>> projection_summary([[0, 10, 20], [0, 10, 30]], [[0.5, 0.9, 0.97], [0.5, 0.8, 0.95]], confidence=0.95)
    'Projected probability of the goal against trials spent, over 2 replays: mean 0.500 now and 0.960 after 25 more trials (median); the mean reaches 95% after 25 trials.'
    """
    spent, mean = _projection(trials, probability)
    reach = np.flatnonzero(mean >= confidence)
    when = (f"the mean reaches {_pct(confidence)} after {spent[reach[0]]:,.0f} trials" if len(reach) else
            f"the mean stays below {_pct(confidence)}")
    return (f"Projected probability of {goal_label} against trials spent, over {_s(len(np.asarray(trials)), 'replay')}: "
            f"mean {mean[0]:.3f} now and {mean[-1]:.3f} after {spent[-1]:,.0f} more trials (median); {when}.")


def projection_frame(trials, probability) -> pd.DataFrame:
    """The mean line as a table: ``batch, trials spent (median), mean probability`` (3 decimals).

    >>> projection_frame([[0, 10], [0, 30]], [[0.5, 0.91], [0.5, 0.95]]).to_dict("list")
    {'batch': [0, 1], 'trials spent (median)': [0, 20], 'mean probability': [0.5, 0.93]}
    """
    spent, mean = _projection(trials, probability)
    return pd.DataFrame({"batch": list(range(len(spent))), "trials spent (median)": np.round(spent).astype(int).tolist(),
                         "mean probability": np.round(mean, 3).tolist()})


def band_summary(band: pd.DataFrame, models, *, confidence: float) -> str:
    """One sentence on the credible-band panels (``band``: ``model, n, mu, lo, hi``): each drawn model's mean and
    interval after the last n (first 10).

    >>> b = pd.DataFrame({"model": ["a", "a"], "n": [1, 2], "mu": [0.5, 0.61234], "lo": [0.2, 0.5], "hi": [0.8, 0.7]})
    >>> band_summary(b, ["a"], confidence=0.95)
    'Posterior mean after each of n = 1 to 2 trials with its central 95% interval, 1 model; after all trials: a 0.6123 [0.5000, 0.7000].'
    """
    names = [str(m) for m in models]
    rows = band[band["model"].astype(str).isin(names)]
    if rows.empty:
        return "Credible bands: nothing to draw."
    last = rows[rows["n"] == rows["n"].max()].set_index("model")
    ends = ", ".join(f"{m} {last.loc[m, 'mu']:.4f} [{last.loc[m, 'lo']:.4f}, {last.loc[m, 'hi']:.4f}]"
                     for m in names[:10] if m in last.index)
    more = f" (first 10 of {len(names)})" if len(names) > 10 else ""
    return (f"Posterior mean after each of n = {int(rows['n'].min())} to {int(rows['n'].max())} trials with its central "
            f"{_pct(confidence)} interval, {_s(len(names), 'model')}; after all trials{more}: {ends}.")


def band_table(band: pd.DataFrame, models) -> pd.DataFrame:
    """The panels as a long table ``model, n, mean, low, high`` (4 decimals) at n = 1, 2, 5, 10... and the last.

    >>> b = pd.DataFrame({"model": ["a", "a"], "n": [1, 2], "mu": [0.5, 0.61234], "lo": [0.2, 0.5], "hi": [0.8, 0.7]})
    >>> band_table(b, ["a"]).to_dict("list")
    {'model': ['a', 'a'], 'n': [1, 2], 'mean': [0.5, 0.6123], 'low': [0.2, 0.5], 'high': [0.8, 0.7]}
    """
    parts = []
    for m in [str(m) for m in models]:
        rows = band[band["model"].astype(str) == m].sort_values("n")
        rows = rows.iloc[_grid(rows["n"].to_numpy(int))] if len(rows) else rows
        parts.append(pd.DataFrame({"model": m, "n": rows["n"].astype(int), "mean": rows["mu"].round(4),
                                   "low": rows["lo"].round(4), "high": rows["hi"].round(4)}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["model", "n", "mean", "low", "high"])


def _ranks(table: pd.DataFrame, schemas, models) -> pd.DataFrame:
    wide = table.pivot_table(index="model", columns="schema", values="rank", sort=False)
    return wide.reindex(index=[str(m) for m in models], columns=list(schemas))


def bump_summary(table: pd.DataFrame, schemas, models) -> str:
    """One sentence on a bump chart (``table``: ``schema, model, rank``): who moves most and how many keep their rank.

    >>> t = pd.DataFrame({"schema": ["S", "S", "T", "T"], "model": ["a", "b", "a", "b"], "rank": [1, 2, 2, 1]})
    >>> bump_summary(t, ["S", "T"], ["a", "b"])
    'Rank of 2 models under 2 schemata (S, T): a moves most (from 1 to 2); 0 models keep one rank under every schema.'
    """
    R = _ranks(table, schemas, models)
    head = f"Rank of {_s(len(R), 'model')} under {len(schemas)} schemata ({', '.join(map(str, schemas))})"
    span = (R.max(axis=1) - R.min(axis=1)).dropna()
    if span.empty:
        return f"{head}: nothing ranked."
    mover = span.idxmax()
    kept = int((span == 0).sum())
    if span.max() == 0:
        return f"{head}: every model keeps its rank."
    path = [int(r) for r in R.loc[mover].dropna()]
    return (f"{head}: {mover} moves most (from {path[0]} to {' to '.join(map(str, path[1:]))}); "
            f"{_s(kept, 'model')} {'keeps' if kept == 1 else 'keep'} one rank under every schema.")


def bump_table(table: pd.DataFrame, schemas, models) -> pd.DataFrame:
    """The bump chart as a table: one row per model, its rank under each schema (empty where unscored).

    >>> t = pd.DataFrame({"schema": ["S", "S", "T"], "model": ["a", "b", "a"], "rank": [1, 2, 2]})
    >>> bump_table(t, ["S", "T"], ["a", "b"]).to_dict("records")
    [{'model': 'a', 'S': 1, 'T': 2}, {'model': 'b', 'S': 2, 'T': None}]
    """
    R = _ranks(table, schemas, models).round().astype("Int64")
    R.columns = [str(c) for c in R.columns]
    return R.reset_index().rename(columns={"index": "model"})


def rank_share_summary(models, share, base_ranks, *, n_rubrics: int) -> str:
    """One sentence on the perturbation heatmap: how often the unperturbed leader keeps rank 1, and how many models
    hold their unperturbed rank in most perturbed rubrics.

    >>> rank_share_summary(["a", "b"], [[0.9, 0.1], [0.1, 0.9]], [1, 2], n_rubrics=50)
    'Share of 50 perturbed rubrics in which each of 2 models holds each rank: a, first unperturbed, keeps rank 1 in 90%; 2 of 2 models hold their unperturbed rank in most of them.'
    """
    names = [str(m) for m in models]
    P = np.asarray(share, dtype=float)
    base = np.asarray(base_ranks, dtype=int)
    if not names:
        return "Rank shares: no model."
    lead = int(np.argmin(base))
    held = sum(P[i, base[i] - 1] > 0.5 for i in range(len(names)))
    return (f"Share of {n_rubrics} perturbed rubrics in which each of {len(names)} models holds each rank: "
            f"{names[lead]}, first unperturbed, keeps rank 1 in {P[lead, 0]:.0%}; {held} of {len(names)} models hold "
            "their unperturbed rank in most of them.")


def rank_share_frame(models, share, base_ranks) -> pd.DataFrame:
    """The heatmap as a table (as :func:`dashboard.tables.chart_text.rank_frame`) with the unperturbed rank.

    >>> rank_share_frame(["a"], [[1.0]], [1]).to_dict("records")
    [{'model': 'a', 'unperturbed rank': 1, 'rank 1': '>99%'}]
    """
    frame = rank_frame(models, np.asarray(share, dtype=float))
    frame.insert(1, "unperturbed rank", [int(r) for r in base_ranks])
    return frame


def _shares(counts, unmatched) -> np.ndarray:
    C = np.column_stack([np.asarray(counts, float), np.asarray(unmatched, float)])
    total = C.sum(axis=1, keepdims=True)
    return np.divide(100 * C, total, out=np.zeros_like(C), where=total > 0)


def category_summary(models, labels, counts, unmatched, weights) -> str:
    """One sentence on the category bars: the share of the highest-weight category, highest and lowest model.

    >>> category_summary(["a", "b"], ["wrong", "right"], [[1, 3], [3, 1]], [0, 0], [0, 1])
    "Share of each model's attempts per rubric category, 2 models: 'right' (the highest weight) from 75.0% (a) to 25.0% (b)."
    """
    names = [str(m) for m in models]
    if not names:
        return "Category shares: no model."
    S = _shares(counts, unmatched)
    top = int(np.argmax(np.asarray(weights, dtype=float)))
    hi, lo = int(np.argmax(S[:, top])), int(np.argmin(S[:, top]))
    lost = float(np.asarray(unmatched, float).sum())
    extra = f"; {_s(int(lost), 'attempt')} match{'es' if lost == 1 else ''} no category" if lost else ""
    return (f"Share of each model's attempts per rubric category, {_s(len(names), 'model')}: '{labels[top]}' (the "
            f"highest weight) from {S[hi, top]:.1f}% ({names[hi]}) to {S[lo, top]:.1f}% ({names[lo]}){extra}.")


def category_frame(models, labels, counts, unmatched) -> pd.DataFrame:
    """The bars as a table: attempts per model and category in percent (1 decimal, as on hover).

    >>> category_frame(["a"], ["wrong", "right"], [[1, 3]], [0]).to_dict("records")
    [{'model': 'a', 'wrong': 25.0, 'right': 75.0}]
    """
    S = np.round(_shares(counts, unmatched), 1)
    cols = [f"{label}" for label in labels]
    frame = pd.DataFrame(S[:, :-1], columns=cols)
    if np.asarray(unmatched, float).sum():
        frame["no category"] = S[:, -1]
    frame.insert(0, "model", [str(m) for m in models])
    return frame


def scatter_summary(table: pd.DataFrame, *, name_a: str, name_b: str, score_label: str) -> str:
    """One sentence on the question scatter (``score_a, score_b``): on how many questions each is ahead.

    >>> t = pd.DataFrame({"score_a": [1.0, 0.5, 0.2, np.nan], "score_b": [0.5, 0.5, 0.9, 1.0]})
    >>> scatter_summary(t, name_a="a", name_b="b", score_label="pass rate")
    'Pass rate of a against b on 3 questions both answered: a higher on 1, b higher on 1, equal on 1.'
    """
    rows = table[table["score_a"].notna() & table["score_b"].notna()]
    diff = np.round(rows["score_a"].to_numpy(float), 3) - np.round(rows["score_b"].to_numpy(float), 3)
    return (f"{score_label[:1].upper() + score_label[1:]} of {name_a} against {name_b} on {_s(len(rows), 'question')} "
            f"both answered: {name_a} higher on {int((diff > 0).sum())}, {name_b} higher on {int((diff < 0).sum())}, "
            f"equal on {int((diff == 0).sum())}.")


def agreement_summary(labels, tau_b) -> str:
    """One sentence on the method agreement heatmap: the most and least agreeing pair of methods.

    >>> agreement_summary(["A", "B", "C"], [[1, 0.9, 0.2], [0.9, 1, np.nan], [0.2, np.nan, 1]])
    "Kendall's tau_b between the rankings of 3 methods: most alike A and B (0.90), least alike A and C (0.20)."
    """
    names = [str(m) for m in labels]
    T = np.asarray(tau_b, dtype=float)
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names)) if np.isfinite(T[i, j])]
    head = f"Kendall's tau_b between the rankings of {_s(len(names), 'method')}"
    if not pairs:
        return f"{head}: no pair of rankings to compare."
    hi, lo = max(pairs, key=lambda p: T[p]), min(pairs, key=lambda p: T[p])
    return (f"{head}: most alike {names[hi[0]]} and {names[hi[1]]} ({T[hi]:.2f}), least alike {names[lo[0]]} and "
            f"{names[lo[1]]} ({T[lo]:.2f}).")


def agreement_frame(labels, tau_b) -> pd.DataFrame:
    """The heatmap's cells as printed (2 decimals, empty where undefined): one row per method.

    >>> agreement_frame(["A", "B"], [[1, 0.912], [0.912, 1]]).to_dict("records")
    [{'method': 'A', 'A': '1.00', 'B': '0.91'}, {'method': 'B', 'A': '0.91', 'B': '1.00'}]
    """
    names = [str(m) for m in labels]
    T = np.asarray(tau_b, dtype=float)
    frame = pd.DataFrame(np.where(np.isfinite(T), np.char.mod("%.2f", np.nan_to_num(T)), ""), columns=names)
    frame.insert(0, "method", names)
    return frame


def _costs(table: pd.DataFrame, costs: pd.DataFrame, log_x: bool) -> pd.DataFrame:
    merged = table[["model", "mu", "lo", "hi"]].merge(costs, on="model", how="inner")
    merged = merged[merged["mu"].notna() & np.isfinite(merged["value"].astype(float))]
    return (merged[merged["value"] > 0] if log_x else merged).sort_values("value", kind="stable")


def cost_summary(table: pd.DataFrame, costs: pd.DataFrame, *, x_title: str, log_x: bool = False, labels=None) -> str:
    """One sentence on the score vs cost scatter: the cheapest, the costliest and the best model with their values.

    >>> t = pd.DataFrame({"model": ["a", "b"], "mu": [0.5, 0.8], "lo": [0.4, 0.7], "hi": [0.6, 0.9]})
    >>> cost_summary(t, pd.DataFrame({"model": ["a", "b"], "value": [1.5, 30.0]}), x_title="cost (USD)")
    'Mean against cost (USD) for 2 models: lowest a (1.5, mean 0.5000), highest b (30, mean 0.8000); best mean b.'
    """
    labels = dict(labels or {})
    rows = _costs(table, costs, log_x)
    if rows.empty:
        return f"Mean against {x_title}: no model has a value."

    def name(row) -> str:
        return labels.get(str(row["model"]), str(row["model"]))

    lo, hi, best = rows.iloc[0], rows.iloc[-1], rows.loc[rows["mu"].idxmax()]
    return (f"Mean against {x_title} for {_s(len(rows), 'model')}: lowest {name(lo)} ({lo['value']:,.4g}, mean "
            f"{lo['mu']:.4f}), highest {name(hi)} ({hi['value']:,.4g}, mean {hi['mu']:.4f}); best mean {name(best)}.")


def cost_frame(table: pd.DataFrame, costs: pd.DataFrame, *, x_title: str, log_x: bool = False,
               labels=None) -> pd.DataFrame:
    """The dots as a table, lowest value first: ``model, <x_title>, mean, low, high`` (4 significant digits; 4
    decimals).

    >>> t = pd.DataFrame({"model": ["a"], "mu": [0.51234], "lo": [0.4], "hi": [0.6]})
    >>> cost_frame(t, pd.DataFrame({"model": ["a"], "value": [1.23456]}), x_title="cost").to_dict("records")
    [{'model': 'a', 'cost': '1.235', 'mean': 0.5123, 'low': 0.4, 'high': 0.6}]
    """
    labels = dict(labels or {})
    rows = _costs(table, costs, log_x)
    return pd.DataFrame({"model": [labels.get(str(m), str(m)) for m in rows["model"]],
                         x_title: [f"{v:,.4g}" for v in rows["value"]], "mean": rows["mu"].round(4).tolist(),
                         "low": rows["lo"].round(4).tolist(), "high": rows["hi"].round(4).tolist()})
