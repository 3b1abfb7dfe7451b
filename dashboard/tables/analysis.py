"""Tables for the Trajectories, Convergence and Sensitivity pages (core results -> DataFrames).

Long tables feed the figure functions; ``*_display`` functions return ``(frame,
column_config)`` for ``st.dataframe`` (text cells are shown as text, never HTML).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from scorio_core.dynamics.convergence import ConvergenceResult
from scorio_core.eval._interval import z_two_sided
from scorio_core.ranking.paired import names_phrase, not_identified_note
from scorio_core.sensitivity import PerturbationResult, SchemaRanks
from scorio_core.dynamics.trajectory import Trajectory

__all__ = [
    "band_frame",
    "band_interval_name",
    "convergence_curves",
    "convergence_summary",
    "convergence_display",
    "bump_frame",
    "drivers_display",
    "stability_display",
    "models_by_rank",
    "leader_summary",
    "perturbation_order",
    "groups_warning",
]


def band_frame(traj: Trajectory, models, weights, confidence: float) -> pd.DataFrame:
    """Bayes@N mean and central credible interval after each n: ``model, n, mu, lo, hi``.

    The interval is ``mu -/+ z sigma`` (normal approximation, z two-sided), clipped to the
    range of the rubric weights, as on the leaderboard.
    """
    z = z_two_sided(confidence)
    w = np.asarray(weights, dtype=float)
    L, N = traj.scores.shape
    mu = traj.scores
    lo = np.clip(mu - z * traj.sigma, w.min(), w.max())
    hi = np.clip(mu + z * traj.sigma, w.min(), w.max())
    return pd.DataFrame({
        "model": np.repeat(list(models), N),
        "n": np.tile(traj.n, L),
        "mu": mu.ravel(),
        "lo": lo.ravel(),
        "hi": hi.ravel(),
    })


def band_interval_name(prior: str) -> str:
    """What the Trajectories band is, for its legend: under the refitted empirical-Bayes prior not a credible interval
    where the prior is not identified (always at n = 1, and at n = 2 on fewer than 20 questions: the pooled binomial
    sd, a normal approximation).

    >>> band_interval_name("uniform"), band_interval_name("empirical-bayes")
    ('credible interval', 'interval (credible where the prior is identified; else, as at n = 1, binomial sd)')
    """
    if prior == "empirical-bayes":
        return "interval (credible where the prior is identified; else, as at n = 1, binomial sd)"
    return "credible interval"


def convergence_curves(results: list[tuple[object, ConvergenceResult]]) -> pd.DataFrame:
    """One row per (method, n): ``method, n, pmf, cdf, tau`` (pmf/cdf NaN at n = N)."""
    frames = []
    for method, res in results:
        pmf = np.append(res.pmf, np.nan)
        cdf = np.append(res.cdf, np.nan)
        frames.append(pd.DataFrame({"method": method.label, "n": res.n, "pmf": pmf, "cdf": cdf, "tau": res.kendall_tau_mean}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["method", "n", "pmf", "cdf", "tau"])


def convergence_summary(results: list[tuple[object, ConvergenceResult]]) -> pd.DataFrame:
    """One row per method: ``method, mean, no_convergence`` (numbers, NaN mean if nothing converges)."""
    return pd.DataFrame(
        [{"method": m.label, "mean": r.mean, "no_convergence": r.no_convergence} for m, r in results],
        columns=["method", "mean", "no_convergence"],
    )


def convergence_display(results: list[tuple[object, ConvergenceResult]]) -> tuple[pd.DataFrame, dict]:
    """Summary per method: mean convergence@n, no-convergence share, worst case, final tau."""
    rows = []
    for method, res in results:
        rows.append({
            "method": method.label,
            "mean": "never" if np.isnan(res.mean) else f"{res.mean:.1f}",
            "mean_censored": res.mean_censored,
            "no_convergence": res.no_convergence,
            "worst": "no convergence" if res.worst_convergence < 0 else str(res.worst_convergence),
            "tau_final": res.kendall_tau_mean[-1],
            "replicates": res.replicates,
        })
    frame = pd.DataFrame(rows)
    config = {
        "method": st.column_config.TextColumn("Method"),
        "mean": st.column_config.TextColumn(
            "Mean convergence@n", help="Mean over the replicates that converge ('never' if none does)."
        ),
        "mean_censored": st.column_config.NumberColumn(
            "Mean, never = N", format="%.1f",
            help="Mean convergence@n counting every non-converging replicate as N: a lower bound.",
        ),
        "no_convergence": st.column_config.ProgressColumn(
            "No convergence", format="percent", min_value=0.0, max_value=1.0,
            help="Share of replicates whose ranking never settles on the gold standard before N.",
        ),
        "worst": st.column_config.TextColumn("Worst replicate", help="The latest convergence@n over all replicates (the worst case)."),
        "tau_final": st.column_config.NumberColumn(
            "tau_b at N", format="%.3f",
            help="Mean Kendall's tau_b between the ranking after all N trials and the gold standard.",
        ),
        "replicates": st.column_config.NumberColumn("Replicates", format="%d"),
    }
    # the page is ~820 px at 1280 px: fixed widths that hold each header in full (~7 px a character), the rest to
    # the method's name
    for key, width in (("mean", 144), ("mean_censored", 124), ("no_convergence", 120), ("worst", 124),
                       ("tau_final", 96), ("replicates", 88)):
        config[key]["width"] = width
    return frame, config


def bump_frame(result: SchemaRanks, *, with_ci: bool) -> pd.DataFrame:
    """Long table ``schema, model, rank, mu`` for the bump chart (unscored models left out)."""
    ranks = result.ranks_ci if with_ci else result.ranks
    S, L = ranks.shape
    frame = pd.DataFrame({
        "schema": np.repeat(list(result.schemas), L),
        "model": np.tile(list(result.models), S),
        "rank": ranks.ravel(),
        "mu": result.mu.ravel(),
    })
    return frame[frame["rank"].notna()].reset_index(drop=True)


def stability_display(result: PerturbationResult) -> tuple[pd.DataFrame, dict]:
    """Per model: base rank, share of perturbed rubrics at that rank and at rank 1."""
    base = result.base_ranks.astype(int)
    at_base = result.rank_share[np.arange(base.size), base - 1]
    frame = pd.DataFrame({
        "model": list(result.models),
        "base_rank": base,
        "at_base": at_base,
        "first": result.leader_share,
    }).sort_values(["base_rank", "model"], kind="stable")
    config = {
        "model": st.column_config.TextColumn("Model"),
        "base_rank": st.column_config.NumberColumn("Rank (unperturbed)", format="%d"),
        "at_base": st.column_config.ProgressColumn("Keeps that rank", format="percent", min_value=0.0, max_value=1.0),
        "first": st.column_config.ProgressColumn("Ranks first", format="percent", min_value=0.0, max_value=1.0),
    }
    return frame.reset_index(drop=True), config


def _change_text(kind: str, change: float | None, base: float) -> str:
    if change is None:
        return "none in the searched range"
    if kind == "weight":
        return f"{change:+.0%} (weight x {1 + change:.2f})"
    return f"{change:+g} points (to the {base + change:g}th percentile)"


def drivers_display(result: PerturbationResult) -> tuple[pd.DataFrame, dict]:
    """Which rubric parameters move the leader: one row per perturbed parameter."""
    rows = []
    for param, drv in zip(result.parameters, result.drivers):
        rows.append({
            "parameter": param.name,
            "base": param.value,
            "range": (f"x {param.low:.2f} .. {param.high:.2f}" if param.kind == "weight"
                      else f"{param.low:+g} .. {param.high:+g} points"),
            "smallest": _change_text(param.kind, drv.smallest_change, param.value),
            "new_leader": drv.new_leader or "",
            "flip_low": drv.flip_rate_low,
            "flip_high": drv.flip_rate_high,
            "correlation": "" if np.isnan(drv.correlation) else f"{drv.correlation:+.2f}",
        })
    frame = pd.DataFrame(rows, columns=["parameter", "base", "range", "smallest", "new_leader", "flip_low", "flip_high", "correlation"])
    config = {
        "parameter": st.column_config.TextColumn("Parameter", width=140),
        "base": st.column_config.NumberColumn("Base", format="%g", width=64,
                                             help="Base value: the weight, or the percentile of the threshold."),
        "range": st.column_config.TextColumn("Sampled range", width=112),
        "flip_low": st.column_config.NumberColumn(
            "Flips (low)", format="percent", width=84,
            help="Share of perturbed rubrics with a new leader when this parameter is in the lowest third of its range.",
        ),
        "flip_high": st.column_config.NumberColumn(
            "Flips (high)", format="percent", width=84,
            help="Share of perturbed rubrics with a new leader when this parameter is in the highest third of its range.",
        ),
        "correlation": st.column_config.TextColumn(
            "Corr.", width=64, help="Pearson correlation between the parameter and a leader change (empty if the leader never changed)."
        ),
        "smallest": st.column_config.TextColumn(
            "Smallest flip", width=150,
            help="The smallest change of this parameter alone that flips the leader. Other parameters at their base values. Weights: up to +/-100%; thresholds: up to 25 percentile points.",
        ),
        "new_leader": st.column_config.TextColumn("New leader", width=110),
    }
    return frame, config


def models_by_rank(models, scores) -> list[str]:
    """Model names by score, best first (unscored last; ties keep the given order)."""
    values = np.asarray(scores, dtype=float)
    order = np.argsort(-np.where(np.isfinite(values), values, -np.inf), kind="stable")
    names = list(models)
    return [names[i] for i in order]


def perturbation_order(result: PerturbationResult) -> list[str]:
    """Rows of the rank-share heatmap: by unperturbed mean, best first; group by group where models share no question
    (``result.groups``, the leader's group first), as the ranks are within groups."""
    if result.groups:
        return [m for g in result.groups for m in g]
    return models_by_rank(result.models, result.base_mu)


def groups_warning(result: PerturbationResult) -> str | None:
    """The sentence on groups that share no question (:func:`scorio_core.sensitivity.groups.groups_note`), or None."""
    from scorio_core.sensitivity.groups import groups_note

    if not result.groups:
        return None
    text = groups_note(result.groups, result.ranks, result.models)
    return text[:1].upper() + text[1:] + "."


def leader_summary(result: PerturbationResult) -> str:
    """One plain sentence: how often the leader stays first, and the smallest single change that flips it."""
    text = f"{result.leader} stays first in {result.leader_kept:.0%} of {result.n} perturbed rubrics."
    found = [(p, d) for p, d in zip(result.parameters, result.drivers) if d.smallest_change is not None]
    if not found:
        return text + " No single weight (up to +/-100%) or threshold (up to 25 percentile points) change flips it."
    param, drv = min(found, key=lambda pd_: abs(pd_[1].smallest_change) / (1.0 if pd_[0].kind == "weight" else 100.0))
    change = _change_text(param.kind, drv.smallest_change, param.value)
    return text + f" Smallest single change that flips it: {param.name} {change}, where {drv.new_leader} catches up."


def not_identified_caption(models, cause: str | None = None, *, of: int | None = None, brief: bool = False) -> str:
    """The caption under probabilities that involve models whose prior is not identified: "Not posterior
    probabilities where ..." (:func:`not_identified_note`), or with ``brief`` (a stakeholder's presentation) one
    plain sentence (QA: the ~90-word note, shown twice, read as jargon there).

    >>> not_identified_caption(["m1", "m2"], "N = 1: one trial per question", brief=True)[:86]
    'For m1 and m2 the prior could not be fitted (N = 1: one trial per question): their val'
    """
    if not brief:
        return f"Not posterior probabilities where {not_identified_note(models, cause, of=of)}."
    names = [str(m) for m in models]
    its, one = ("its", True) if len(names) == 1 else ("their", False)
    return (f"For {names_phrase(names, of=of)} the prior could not be fitted ({cause or 'too few repeated trials'}): "
            f"{its} values are observed rates with exact intervals, and probabilities comparing {'it' if one else 'them'} "
            "are approximations, not posterior probabilities.")
