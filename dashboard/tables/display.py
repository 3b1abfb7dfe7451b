"""Display tables for pages: column labels, formats and help texts (no metric math).

Each function returns ``(frame, column_config)`` ready for ``st.dataframe``; text cells are
shown as text by Streamlit (never as HTML).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from dashboard.tables.sizes import fit_width, id_column_help
from scorio_core.leaderboard.order import board_order
from scorio_core.report.names import organisations
from scorio_core.report.tables import estimate_header, interval_abbrev, interval_name, trial_spans

__all__ = [
    "interval_headers",
    "leaderboard_display",
    "pass_fail_display",
    "calibration_display",
    "calibration_summary",
    "rerank_display",
    "disagreement_display",
    "threshold_display",
    "examples_display",
    "category_editor_config",
    "variable_editor_config",
    "threshold_editor_config",
    "rank_interval_display",
    "top_rows",
]


def top_rows(table: pd.DataFrame, limit: int) -> tuple[pd.DataFrame, int]:
    """The first ``limit`` rows of a rank-ordered table, and every following row that shares the last one's rank.

    A "top 10" never cuts between models with the same rank (equal posterior means share a competition rank).

    Parameters
    ----------
    table : DataFrame
        Rows in rank order with a ``rank`` column (NaN for models without a score, last).
    limit : int
        How many rows were asked for (0 or less: every row).

    Returns
    -------
    rows : DataFrame
        The rows shown.
    extra : int
        How many rows beyond ``limit`` were kept because they tie with the last of the first ``limit``.
    """
    if limit <= 0 or len(table) <= limit:
        return table, 0
    last = table["rank"].iloc[limit - 1]
    tail = table.iloc[limit:]
    tied = int(np.cumprod((tail["rank"] == last).to_numpy()).sum()) if pd.notna(last) else 0
    return table.iloc[:limit + tied], tied


def interval_headers(confidence: float) -> tuple[str, str]:
    """Headers of an interval's two ends, the same in every table of the app (QA F11: "low"/"high" in one, "lo"/"hi"
    in another): ``("95% CI low", "95% CI high")`` at 0.95."""
    return f"{confidence:.0%} CI low", f"{confidence:.0%} CI high"


def leaderboard_display(table: pd.DataFrame, *, metric_label: str, k: int, confidence: float,
                        groups=None) -> tuple[pd.DataFrame, dict]:
    """Leaderboard rows ready for ``st.dataframe``: ordered columns and their ``column_config``.

    ``groups`` (the ``disconnected_groups`` notice's model lists, largest first): with two or more, a *Group* column
    after the ranks says which group each model is in (lead QA: 40 models in two groups sharing no question showed
    one order 1-40 with nothing in the table to tell the groups apart).
    """
    kind = interval_name(table, confidence)  # credible, or exact binomial where the prior is not identified
    clash = metric_label == "avg@N"  # the metric's column and the observed avg@N column would share a title
    # rows whose prior is not identified hold the pooled observed rate, not a posterior mean: the exports' header
    header = estimate_header(table, metric_label)  # (QA: N = 1 rows were headed "Bayes@N" here, "Pooled rate" there)
    pooled = header.lower().endswith("pooled rate")
    # (a few such rows keep the short title, which fits 1280 px; its help and "What the interval covers" name them)
    mu_title = ("Pooled rate" if header == "Pooled rate" else f"{metric_label} (posterior mean)" if clash else metric_label)
    # the model and its score with the interval first, the ranks after them: on a phone (390 px) the grid shows about
    # 350 px, and Rank + Rank (CI ties) + Model before the score pushed the score off the screen (lead QA)
    frame = table[
        ["model", "mu", "lo", "hi", "rank", "rank_ci", "sigma", "estimate", "avg", "accuracy", "pass_at_k", "n_questions",
         "n_trials"]
    ].copy()
    orgs = organisations(frame["model"].astype(str))
    if any(orgs.values()):  # where it can be derived from the names (org/ prefix or a known model family)
        frame.insert(frame.columns.get_loc("rank_ci") + 1, "organisation", frame["model"].astype(str).map(orgs))
    # pixel widths: the table fits a 1280 px window (issue 16; about 820 px of page with every optional column, issue
    # 40); full names are on hover in the chart and in exports
    config = {
        "organisation": st.column_config.TextColumn(
            "Org", width=80, help="Organisation or model family, derived from the name: the prefix before '/', or the "
                                  "maker of a known family (gpt, claude, gemini, llama, qwen, ...); empty when unknown."),
        "rank": st.column_config.NumberColumn("Rank", help="Competition rank by posterior mean (1224 ranking).",
                                              format="%d", width=52),
        "rank_ci": st.column_config.NumberColumn(
            "Rank (CI ties)", help="Rank with CI ties: models share a rank when their difference is not credible at "
                                   "this level (the sidebar's tie rule).", format="%d", width=96),
        "model": st.column_config.TextColumn("Model", width=180),
        # avg@N's own column is the posterior mean, beside the observed avg@N: two columns titled "avg@N" held different
        # numbers (QA), so there the titles say which is which
        "mu": st.column_config.NumberColumn(mu_title, format="%.4f",
                                            width=164 if clash else 96 if mu_title != metric_label else 78,
                                            help=f"{metric_label} posterior mean." + (" Pooled rate: the observed mean where the "
                                            "empirical-Bayes prior is not identified (exact interval)." if pooled else "")),
        "lo": st.column_config.NumberColumn(interval_headers(confidence)[0], format="%.4f", width=84,
                                            help=f"Lower end of the central {kind}."),
        "hi": st.column_config.NumberColumn(interval_headers(confidence)[1], format="%.4f", width=84,
                                            help=f"Upper end of the central {kind}."),
        "sigma": None,  # posterior sd: in the exports and the CLI JSON, not on screen
        "estimate": st.column_config.NumberColumn(
            "Estimate", format="%.4f", width=76,
            help=f"{metric_label} estimate: the classical value from the data (unbiased Pass@k, observed Max@k, ...), "
                 "the one the notes above cite; the posterior mean beside it can differ (equal for Bayes@N)."),
        "avg": st.column_config.NumberColumn("avg@N (observed)" if clash else "avg@N", format="%.4f",
                                             width=124 if clash else 64,
                                             help="Mean over questions of each question's observed mean score: its "
                                                  "accuracy under binary correctness, its mean category weight under "
                                                  "a rubric (every question weighs the same, whatever its number of "
                                                  "trials)."),
        "accuracy": st.column_config.NumberColumn(
            "raw mean", format="%.4f", width=64,
            help="Raw mean score: the trials' scores (category weights; 1 correct and 0 wrong under binary "
                 "correctness, where it is the raw accuracy) / all trials, pooled over questions. Shown because questions have "
                 "different numbers of trials here: a question with more trials weighs more in it, while avg@N (and "
                 "Bayes@N) weigh every question the same."),
        "pass_at_k": st.column_config.NumberColumn(f"Pass@{k}", format="%.4f", width=70,
                                                   help="Unbiased Pass@k estimator (Chen et al. 2021)."),
        "n_questions": st.column_config.NumberColumn("M", help="Questions the model answered.", format="%d", width=48),
        "n_trials": st.column_config.NumberColumn("N", help="Trials per question.", format="%d", width=48),
    }
    if groups is not None and len(groups) >= 2:
        member = {str(m): i + 1 for i, group in enumerate(groups) for m in group}
        frame.insert(frame.columns.get_loc("rank_ci") + 1, "group", frame["model"].astype(str).map(member).astype("Int64"))
        config["group"] = st.column_config.NumberColumn(
            "Group", format="%d", width=56, help="Models in different groups share no question, directly or through "
                                                 "other models: ranks are comparable within a group, not across.")
    spans = trial_spans(table)
    if spans is not None:  # unequal trials: "1-12" (the smallest alone reads as N = 1)
        frame["n_trials"] = spans.to_numpy()
        config["n_trials"] = st.column_config.TextColumn(
            "N", width=56, help="Trials per question: smallest-largest where the model's questions had different "
                                "numbers of trials.")
    # columns that repeat another one add width, not information (the table must fit at 1280 px): the estimate
    # equals the posterior mean for Bayes@N, and Pass@1 is binary accuracy (avg@N under binary correctness)
    if np.allclose(frame["estimate"].to_numpy(float), frame["mu"].to_numpy(float), equal_nan=True) or \
            frame["estimate"].isna().all():  # e.g. Max@k with k above the trials: no estimate to show
        config["estimate"] = None
    if k == 1:  # Pass@1 is binary accuracy: avg@N under binary correctness, and in exports and the CLI under a rubric
        config["pass_at_k"] = None
    if np.allclose(frame["accuracy"].to_numpy(float), frame["avg"].to_numpy(float), equal_nan=True):
        config["accuracy"] = None  # equal trials per question: raw accuracy is avg@N
    config["model"] = st.column_config.TextColumn("Model", width=_model_width(frame, config))
    four = ["mu", "lo", "hi", "estimate", "avg", "accuracy", "pass_at_k"]  # the %.4f columns, rounded as shown: a
    frame[four] = frame[four].astype(float).round(4)  # screen reader got 0.7983271445930901 (a11y QA); exports keep all
    return frame, config

# the page's width for the table at a 1280 px window with the sidebar open, and what a character of the table's
# font takes (measured in Chromium: 7.2 px per character of a typical model name)
_TABLE_PX, _CHAR_PX, _MIN_MODEL_PX = 820, 7.5, 140


def _model_width(frame: pd.DataFrame, config: dict) -> int:
    """Pixels for the Model column: the longest name, within what the other shown columns leave of the page."""
    others = sum(int(c["width"]) for key, c in config.items()
                 if key != "model" and key in frame.columns and c is not None and isinstance(c.get("width"), int))
    longest = int(frame["model"].astype(str).str.len().max()) if len(frame) else 0
    need = int(longest * _CHAR_PX) + 24
    return max(_MIN_MODEL_PX, min(need, _TABLE_PX - others))


def rerank_display(table: pd.DataFrame, baseline: pd.DataFrame | None, *, confidence: float) -> tuple[pd.DataFrame, dict]:
    """Compact re-ranked leaderboard for the Rubric page, with the rank change vs binary correctness."""
    frame = table[["rank", "model", "mu"]].copy()  # the rank "vs binary" compares: by mean on both sides
    frame["interval"] = [f"[{lo:.3f}, {hi:.3f}]" if pd.notna(lo) else "" for lo, hi in zip(table["lo"], table["hi"])]
    if baseline is not None:
        before = dict(zip(baseline["model"], baseline["rank"]))
        change = [(int(before[m]) - int(r)) if m in before and pd.notna(before[m]) and pd.notna(r) else None
                  for m, r in zip(table["model"], table["rank"])]
        frame.insert(1, "change", ["" if d is None else ("=" if d == 0 else f"{d:+d}") for d in change])
    config = {
        # pixel widths: at 1280 px the table shares the page with the thresholds panel, and the
        # numbers must not be cut (issue 16); the model column takes what is left
        "rank": st.column_config.NumberColumn("Rank", format="%d", width=52,
                                              help="Competition rank by posterior mean (1224 ranking), the rank "
                                                   "\"vs binary\" compares; the Leaderboard has the rank with CI ties."),
        "change": st.column_config.TextColumn("vs binary", width=74,
                                                help="Places gained (+) or lost (-) against binary correctness (rank by mean)."),
        "model": st.column_config.TextColumn("Model", help="Display name; the Leaderboard and exports have the full name."),
        "mu": st.column_config.NumberColumn("Bayes@N", format="%.3f", width=74, help="Posterior mean under this rubric."),
        "interval": st.column_config.TextColumn(interval_abbrev(table, confidence), width=118),
    }
    return frame, config


def combined_display(combined: pd.DataFrame, *, confidence: float, labels=None) -> tuple[pd.DataFrame, dict]:
    """The Tasks page's combined scores, best first (ties by name, as the Leaderboard), ``labels`` their display names:
    score, interval as one text column, tasks scored, and why a model has no score (when some has none), for 1280 px."""
    table = board_order(combined.assign(model=combined["model"].astype(str)), "score")
    names = table["model"] if labels is None else table["model"].map(lambda m: labels.get(m, m))
    frame = pd.DataFrame({"model": names, "score": table["score"]})
    frame["interval"] = [f"[{lo:.4f}, {hi:.4f}]" if pd.notna(lo) else "" for lo, hi in zip(table["lo"], table["hi"])]
    frame["n_tasks"] = table["n_tasks"]
    if "reason" in table.columns and table["reason"].fillna("").astype(str).str.len().gt(0).any():
        frame["reason"] = table["reason"].fillna("")
    config = {
        "model": st.column_config.TextColumn("Model"),
        "score": st.column_config.NumberColumn("combined Bayes@N", format="%.4f", width=130),
        "interval": st.column_config.TextColumn(f"{confidence:.0%} interval", width=150),
        "n_tasks": st.column_config.NumberColumn("tasks scored", format="%d", width=100),
        "reason": st.column_config.TextColumn("why no score"),
    }
    return frame.reset_index(drop=True), config


def pass_fail_display(passed: pd.DataFrame, undecided: pd.DataFrame | None = None) -> pd.DataFrame:
    """The Tasks page's pass/fail grid: "pass", "fail", "pass (undecided)" etc. or "" (no score on that task).

    Parameters
    ----------
    passed : DataFrame
        Models x tasks of nullable booleans (``TaskMatrix.pivot("passed")``); NA/NaN where a model
        did not run a task or has no score, which a real dump often has (models missing tasks).
    undecided : DataFrame, optional
        Models x tasks of nullable booleans (``TaskMatrix.pivot("undecided")``): the cell's credible interval
        holds the threshold, so the verdict can flip with more trials or questions; it keeps the rule's verdict
        marked ``"pass (undecided)"`` / ``"fail (undecided)"``.

    Returns
    -------
    DataFrame
        A leading ``tasks passed`` column (tasks passed among those the model ran, undecided ones included), then
        one text column per task.
    """
    known = passed.notna()
    verdict = passed.astype("boolean").fillna(False).astype(bool)
    text = np.where(verdict, "pass", "fail")
    if undecided is not None:
        open_ = undecided.reindex(index=passed.index, columns=passed.columns).astype("boolean").fillna(False).astype(bool)
        text = np.char.add(text.astype("<U16"), np.where(open_, " (undecided)", ""))
    frame = pd.DataFrame(np.where(known, text, ""), index=passed.index, columns=passed.columns)
    frame.insert(0, "tasks passed", (verdict & known).sum(axis=1).astype(int))
    return frame


def disagreement_display(table: pd.DataFrame, *, name_a: str, name_b: str, binary: bool,
                         score_label: str = "pass rate") -> tuple[pd.DataFrame, dict]:
    """Per-question comparison of two models (A and B named in the column help)."""
    frame = pd.DataFrame({"question": table["question"], "outcome": table["outcome"]})
    if binary:
        for side in ("a", "b"):
            frame[side] = [f"{int(c)}/{int(n)}" if pd.notna(c) else ("-" if n == 0 else "") for c, n in
                           zip(table[f"correct_{side}"], table[f"n_{side}"])]
    top = max(1.0, float(np.nanmax(table[["score_a", "score_b"]].to_numpy(float), initial=1.0)))
    frame["score_a"] = table["score_a"]
    frame["score_b"] = table["score_b"]
    frame["diff"] = table["diff"]
    what = score_label
    config = {
        "question": st.column_config.TextColumn("Question", width=fit_width(frame["question"]),
                                                help=id_column_help(frame["question"], "Question id as in the dump.")),
        "outcome": st.column_config.TextColumn("Outcome", help="'solves' = at least one correct trial."),
        "a": st.column_config.TextColumn("A correct", help=f"A = {name_a}: correct trials / trials."),
        "b": st.column_config.TextColumn("B correct", help=f"B = {name_b}: correct trials / trials."),
        "score_a": st.column_config.ProgressColumn(f"A {what}", format="%.2f", min_value=0.0, max_value=top, width="small"),
        "score_b": st.column_config.ProgressColumn(f"B {what}", format="%.2f", min_value=0.0, max_value=top, width="small"),
        "diff": st.column_config.NumberColumn("A minus B", format="%+.3f"),
    }
    return frame, config


def threshold_display(details, frozen: dict | None) -> tuple[pd.DataFrame, dict]:
    """Thresholds with how each was obtained and its value on this data."""
    rows = []
    for d in details:
        if d.kind == "percentile":
            how = f"{d.percentile:g}th percentile of {d.of}" + (f" where {d.where}" if d.where else "")
        elif d.kind == "frozen":
            how = "frozen" + (f" ({d.percentile:g}th percentile of {d.of})" if d.percentile is not None else "")
        else:
            how = "absolute value"
        rows.append({"name": d.name, "value": d.value, "how": how, "n": "" if d.n_values is None else f"{d.n_values:,}"})
    frame = pd.DataFrame(rows, columns=["name", "value", "how", "n"])
    config = {
        "name": st.column_config.TextColumn("Threshold"),
        "value": st.column_config.NumberColumn("Value", format="%.4g", help="Blank: undefined (no finite value to take a percentile of)."),
        "how": st.column_config.TextColumn("Definition"),
        "n": st.column_config.TextColumn("Values used", help="Attempts the percentile was taken over."),
    }
    return frame, config


def examples_display(examples) -> pd.DataFrame:
    """Example attempts of a coverage issue as a small table."""
    return pd.DataFrame([{"row": e.row + 1, "model": "" if e.model is None else str(e.model),
                          "question": "" if e.question_id is None else str(e.question_id),
                          "trial": "" if e.trial is None else str(e.trial)} for e in examples])


def category_editor_config() -> dict:
    """``column_config`` of the categories editor."""
    return {
        "order": st.column_config.NumberColumn("Order", help="First matching category wins. Type 2.5 to move a row between 2 and 3.",
                                               format="%g", width="small"),
        "label": st.column_config.TextColumn("Label", required=True, max_chars=200),
        "weight": st.column_config.NumberColumn("Weight", required=True, format="%g", width="small", help="Rubric weight w of the category."),
        "condition": st.column_config.TextColumn(
            "Condition", required=True, width="large",
            help="e.g. `correct and boxed`, `is_correct >= 0.5`, `len_p33 < token_ratio <= len_p66`; and/or/not, comparisons, parentheses."),
    }


def variable_editor_config() -> dict:
    """``column_config`` of the variables editor."""
    return {
        "name": st.column_config.TextColumn("Name", required=True, max_chars=64),
        "condition": st.column_config.TextColumn("Condition", required=True, width="large"),
        "description": st.column_config.TextColumn("Description"),
    }


def threshold_editor_config() -> dict:
    """``column_config`` of the thresholds editor."""
    return {
        "name": st.column_config.TextColumn("Name", required=True, max_chars=64),
        "percentile": st.column_config.NumberColumn("Percentile", min_value=0.0, max_value=100.0, format="%g",
                                                    help="Percentile of the signal 'of' over the attempts in scope; leave blank for an absolute value."),
        "of": st.column_config.TextColumn("Of (signal)"),
        "where": st.column_config.TextColumn("Where (filter)", help="Optional condition, e.g. `wrong`."),
        "value": st.column_config.NumberColumn("Absolute value", format="%g"),
        "description": st.column_config.TextColumn("Description"),
    }


def calibration_display(frame: pd.DataFrame, *, scope: str) -> pd.DataFrame:
    """Measured coverage (mean width) per grid cell and prior, for one scope (What these numbers mean)."""
    rows = frame[frame["scope"] == scope].copy()
    rows["cell"] = [f"{c:.3f} ({w:.3f})" for c, w in zip(rows["coverage"], rows["width"])]
    wide = rows.pivot_table(index=["p_alpha", "M", "N"], columns="prior", values="cell", aggfunc="first", sort=False)
    wide = wide.reset_index()
    wide.columns.name = None
    return wide.rename(columns={"p_alpha": "p_alpha ~", "empirical-bayes": "Empirical Bayes", "uniform": "Uniform (paper)",
                                "jeffreys": "Jeffreys"})


def calibration_summary(frame: pd.DataFrame, *, scope: str, target=(0.92, 0.995)) -> str:
    """What the measured table says of the default (empirical Bayes) under ``scope``, in one sentence.

    The N values measured, the lowest cell (distribution, M, N) and every cell below ``target[0]``, read from the
    table itself so the text cannot drift from it (What these numbers mean).

    >>> rows = pd.DataFrame({"p_alpha": ["B", "B"], "M": [30, 30], "N": [1, 2], "prior": "empirical-bayes",
    ...                      "scope": "questions-fixed", "coverage": [0.99, 0.88], "width": [0.2, 0.1]})
    >>> calibration_summary(rows, scope="questions-fixed")
    'Measured at N = 1 and 2: the default covers 0.880-0.990; below the target 0.92 in 1 of 2 cells: 0.880 (B, M = 30, N = 2).'
    """
    rows = frame[(frame["prior"] == "empirical-bayes") & (frame["scope"] == scope)]
    if rows.empty:
        return ""
    ns = sorted(int(n) for n in rows["N"].unique())
    said = ", ".join(map(str, ns[:-1])) + " and " + str(ns[-1]) if len(ns) > 1 else str(ns[0])
    low = rows[rows["coverage"] < target[0]]
    below = "; ".join(f"{c:.3f} ({p}, M = {m}, N = {n})" for p, m, n, c in
                      zip(low["p_alpha"], low["M"], low["N"], low["coverage"]))
    return (f"Measured at N = {said}: the default covers {rows['coverage'].min():.3f}-{rows['coverage'].max():.3f}"
            + (f"; below the target {target[0]:g} in {len(low)} of {len(rows)} cells: {below}." if len(low) else "."))


def rank_interval_display(boot, labels: dict, method_label) -> pd.DataFrame:
    """Each model's bootstrap rank interval under every method as "lo-hi" text (one column per method).

    ``boot`` is a :class:`scorio_core.rank.bootstrap.RankBootstrap`; ``labels`` maps model -> display name,
    ``method_label`` method -> column label. Rows sorted by the first method's interval (lower bound, then
    upper bound); "-" where the method failed on every resample.
    """
    order = np.lexsort((boot.hi[0], boot.lo[0]))
    columns = {"model": [labels.get(boot.models[i], boot.models[i]) for i in order]}
    for k, method in enumerate(boot.methods):
        lo, hi = boot.lo[k], boot.hi[k]
        columns[method_label(method)] = ["-" if np.isnan(lo[i]) else f"{int(lo[i])}-{int(hi[i])}" for i in order]
    return pd.DataFrame(columns)
