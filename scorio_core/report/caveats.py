"""Caveats a verdict carries: what the intervals cover, few trials, and the sentences a headline cannot go without
(different question sets, trials that are not exchangeable repeats)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from scorio_core.choices import is_fallback_interval
from scorio_core.report.tables import interval_groups
from scorio_core.uncertainty.priors import MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS, not_identified_rule

if TYPE_CHECKING:
    from scorio_core.report.lead import Lead

__all__: list[str] = []  # helpers of scorio_core.report.verdict


def _names(names: list[str], conjunction: str = "and") -> str:
    if len(names) <= 2:
        return f" {conjunction} ".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


def _observed(row) -> str:
    """``"; observed avg@N 0.800"`` when the row carries avg@N (the number people publish)."""
    value = row.get("avg") if hasattr(row, "get") else None
    return "" if value is None or pd.isna(value) else f"; observed avg@N {float(value):.3f}"


def _unfitted_cause(rows: pd.DataFrame) -> tuple[str, str]:
    """Why the empirical-Bayes prior is not fitted for these rows, and what data would fit it (from N and M)."""
    n = rows["n_trials"] if "n_trials" in rows else None
    m = rows["n_questions"] if "n_questions" in rows else None
    if n is not None and len(n) and bool((n <= 1).all()):
        return "N = 1 trial per question", "more trials per question"
    if m is not None and len(m) and bool((m < MIN_REPEATED_QUESTIONS).all()):
        return (f"fewer than {MIN_REPEATED_QUESTIONS} questions: {_names([str(v) for v in sorted({int(v) for v in m})], 'or')} "
                "here"), "more questions"
    if n is not None and m is not None and len(n) and bool(((n <= 2) & (m < MIN_TRIAL_PAIRS)).all()):
        return f"N = 2 on fewer than {MIN_TRIAL_PAIRS} questions", "more trials per question or more questions"
    return not_identified_rule(degenerate=True), "more trials per question or more questions"


def _few_trials_caveat(n: int, scored: pd.DataFrame) -> str:
    """What few trials per question do to the estimates: posterior means shrink toward the prior, except where the
    empirical-Bayes prior could not be fitted (a fallback's mean is the pooled rate, its interval exact binomial),
    with the cause read from the rows' N and M (not N alone: 8 questions tried 4 times are not fitted either)."""
    fallback = scored["interval"].map(is_fallback_interval) if "interval" in scored.columns else pd.Series(False)
    pooled = ("the means are the pooled observed rates (moved half a trial toward 1/2 where every trial fell in one "
              "category) and the intervals exact binomial ones")
    if len(fallback) and bool(fallback.all()):  # nothing is pulled toward a prior
        cause, fix = _unfitted_cause(scored)
        return (f"The empirical-Bayes prior cannot be fitted here ({cause}): {pooled}, wide; {fix} would identify "
                "the prior and sharpen the ranking.")
    if bool(fallback.any()):
        cause, _ = _unfitted_cause(scored[fallback.to_numpy()])
        return (f"With as few as {_trials(n)} per question, posterior means are pulled toward the prior mean; "
                f"where the empirical-Bayes prior cannot be fitted ({cause}) {pooled}. "
                "More trials would sharpen the ranking.")
    return (f"With as few as {_trials(n)} per question, posterior means are pulled toward the prior mean; more "
            "trials would sharpen the ranking.")


def _coverage_caveat(table: pd.DataFrame, *, pairs: bool = True) -> str:
    """What the intervals cover: the table's ``interval`` labels, each with the models it applies to when several.

    ``pairs=False`` (one scored model): no probability compares anything, so nothing is said about them."""
    groups = interval_groups(table) if "interval" in table.columns else []
    if groups:
        labels = groups[0][1] if len(groups) == 1 else "; ".join(f"of {names}: {label}" for names, label in groups)
        if not pairs:
            return "Interval: " + labels + "."
        if any(is_fallback_interval(label) for _, label in groups):  # N = 1: a pooled binomial sd, not a posterior
            return ("Intervals: " + labels + ". Probabilities use a normal approximation of each model's "
                    "posterior, and where the empirical-Bayes prior is not identified, of the model's pooled binomial "
                    "sd sqrt(p(1-p)/n): there they are not posterior probabilities.")
        return "Intervals: " + labels + ". Probabilities use a normal approximation of each model's posterior."
    if not pairs:
        return ("The interval covers the noise of a finite number of trials per question; the questions themselves are "
                "taken as given.")
    return ("Intervals and probabilities cover the noise of a finite number of trials per question "
            "(normal approximation of each model's posterior); the questions themselves are taken as given.")


def _headline_caveats(scored: pd.DataFrame, lead: Lead | None, differ: bool, trial_effects) -> str:
    """Sentences the headline cannot go without (a reader may quote it alone): the top two were scored on different
    questions, or their trials are not exchangeable repeats. "" when neither holds."""
    top = scored.iloc[:2]
    names = top["model"].astype(str).tolist()
    out = ""
    if differ and "n_questions" in top.columns and top["n_questions"].notna().all():
        m = [int(v) for v in top["n_questions"]]
        common = lead.n_common if lead is not None else None
        if m[0] != m[1] or (common is not None and common < max(m)):
            shared = f", {common:,} of them both" if common is not None else ""
            out += (f" Caveat: {names[0]} answered {m[0]:,} questions and {names[1]} {m[1]:,}{shared}, so this compares "
                    "the models together with their questions (one that skipped hard questions looks better); the "
                    "questions both answered compare like with like (Compare; or question set: common, where some "
                    "question was answered by every model).")
    flagged = [e for e in trial_effects if str(e.get("model")) in names]
    if flagged:
        rates = "; ".join(f"{e['model']}: " + ", ".join(f"trial {i + 1} {r:.1%}" for i, r in
                                                       enumerate(list(e.get("rates", []))[:3]) if r == r)
                          for e in flagged[:2])
        one = len(flagged) == 1
        out += (f" Caveat: the trials of {_names([str(e['model']) for e in flagged[:2]])} are not exchangeable "
                f"repeats ({rates}), which these intervals assume: {'its score averages' if one else 'their scores average'}"
                " attempts of different kinds.")
    return out


def _trials(n: int) -> str:
    """``"N = 1 trial"`` or ``"N = 3 trials"``."""
    return f"N = {n} trial" + ("" if n == 1 else "s")


def _group_numbers(models: list[str], groups) -> tuple[list[int], int] | None:
    """Each scored model's group (1, 2, ... in the order of ``groups``, counting only groups with a model here) and
    the number of such groups; None with fewer than two (every model here linked by shared questions)."""
    if not groups:
        return None
    here = set(models)
    present = [g for g in groups if here & {str(m) for m in g}]
    if len(present) < 2:
        return None
    number = {str(m): i + 1 for i, g in enumerate(present) for m in g}
    return [number.get(m, 0) for m in models], len(present)


def _cross_group_headline(models: list[str], numbers: list[int], n_groups: int, rho, *, metric_label: str, where: str,
                          figures: str, confidence: float, posterior: str, fmt) -> str:
    """The headline when the top two models are in groups that share no question: the highest score, not a lead,
    and the first model's standing in its own group."""
    g0, g1 = numbers[0], numbers[1]
    text = (f"{models[0]} has the highest score ({figures}) {where}, but its order against {models[1]} is "
            f"not supported: the models fall into {n_groups} groups that share no question ({models[0]} in group "
            f"{g0}, {models[1]} in group {g1}), so an order across groups compares the question sets as much as the "
            "models.")
    mates = [j for j in range(1, len(models)) if numbers[j] == g0]
    if not mates:
        return text + f" It is the only scored model of group {g0}."
    j = mates[0]
    p = float(rho[0, j])
    if p >= confidence:
        return text + f" Within group {g0} it is ahead of {models[j]} with {fmt(p)} {posterior}."
    return (text + f" Within group {g0} it is not distinguishable from {models[j]} at {confidence:.0%} "
            f"(P({models[0]} > {models[j]}) = {fmt(p)}).")
