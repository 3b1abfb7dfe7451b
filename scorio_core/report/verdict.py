"""A short plain-language verdict on a leaderboard: which differences are real.

Neighbours in the ranking (by posterior mean) are compared with the ranking confidence
``rho = P(A > B)`` (paper section 2.5, normal approximation); a difference is *real* at the
chosen confidence when ``rho >= confidence``, which is the same test as the paper's CI-tie
rule (section 2.7.1: ``z >= Phi^{-1}(confidence)``), so the verdict agrees with the
``rank_ci`` column under the paper rule.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.choices import has_fallback_interval, is_fallback_interval
from scorio_core.ranking.rank import pairwise_confidence
from scorio_core.report.lead import Lead, questions_behind, scope_phrase
from scorio_core.report.tables import interval_groups, interval_name
from scorio_core.uncertainty.posterior import DEFAULT_SCOPE, SCOPES
from scorio_core.uncertainty.priors import MIN_REPEATED_QUESTIONS, MIN_TRIAL_PAIRS, not_identified_rule

__all__ = ["Comparison", "Verdict", "verdict", "format_probabilities", "format_probability"]

#: Pairs the verdict's summary names among the neighbours not distinguishable (the rest are counted; every pair is in
#: ``Verdict.lines``): a leaderboard of hundreds of models stays one paragraph.
MAX_CLOSE_PAIRS = 6


class Comparison(NamedTuple):
    """Two neighbours in the ranking: ``ahead`` has the higher posterior mean."""

    ahead: str
    behind: str
    rho: float
    separated: bool


class Verdict(NamedTuple):
    """Plain-language summary of a leaderboard.

    Attributes
    ----------
    headline : str
        One sentence on the top of the ranking.
    comparisons : tuple of Comparison
        Every pair of neighbours, best first.
    lines : tuple of str
        One sentence per comparison.
    summary : str
        The comparisons in one or two sentences: how many neighbouring pairs are separated,
        and which are not (with their probabilities).
    caveats : tuple of str
        What the probabilities do and do not cover.
    confidence : float
    metric : str
    basis : str
        The questions the lead rests on (only A solves / only B solves / same), or "" when no
        :class:`~scorio_core.report.lead.Lead` was given.
    scope : str
        The scope the headline is stated in (``questions-fixed`` or ``questions-sampled``).
    one_sided : str
        When the leader is ahead with P(A > B) between the level and ``1 - (1 - level) / 2``: the
        sentence saying the lead is one-sided (the central interval of the difference holds 0); else "".
        Also the last caveat.
    """

    headline: str
    comparisons: tuple[Comparison, ...]
    lines: tuple[str, ...]
    summary: str
    caveats: tuple[str, ...]
    confidence: float
    metric: str
    basis: str = ""
    scope: str = DEFAULT_SCOPE
    one_sided: str = ""

    @property
    def brief(self) -> str:
        """The summary's first sentence: how many neighbouring pairs are separated (for a three-line box)."""
        if not self.summary:
            return ""
        return self.summary.split(". ", 1)[0].rstrip(".") + "."

    @property
    def details(self) -> str:
        """The rest of the summary (pairs that are not distinguishable, the leader's margin), or ""."""
        return self.summary[len(self.brief):].strip()

    def text(self) -> str:
        """The verdict as plain text (headline, one line per comparison, caveats)."""
        return "\n".join([self.headline, *([self.basis] if self.basis else []), self.summary, *(f"- {line}" for line in self.lines),
                          *(f"Note: {c}" for c in self.caveats)])


def format_probability(p: float) -> str:
    """A probability as a percentage with one decimal, ``> 99.9%`` / ``< 0.1%`` at the ends.

    >>> format_probability(0.97312), format_probability(0.99996), format_probability(0.5)
    ('97.3%', '> 99.9%', '50.0%')
    """
    return str(format_probabilities(p))


def format_probabilities(p) -> np.ndarray:
    """:func:`format_probability` of every element of ``p`` (vectorised: heatmap cells, hover texts).

    Parameters
    ----------
    p : array-like of float, any shape
        Probabilities in [0, 1].

    Returns
    -------
    ndarray of str, the shape of ``p``

    >>> format_probabilities([[0.5, 0.9996], [0.0004, 0.973]]).tolist()
    [['50.0%', '> 99.9%'], ['< 0.1%', '97.3%']]
    """
    p = np.asarray(p, dtype=float)
    return np.where(p > 0.999, "> 99.9%", np.where(p < 0.001, "< 0.1%", np.char.mod("%.1f%%", 100 * p)))


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
        return (f"With as few as N = {n} trials per question, posterior means are pulled toward the prior mean and "
                f"intervals are wide; where the empirical-Bayes prior cannot be fitted ({cause}) {pooled}. "
                "More trials would sharpen the ranking.")
    return (f"With as few as N = {n} trials per question, posterior means are pulled toward the prior mean and "
            "intervals are wide; more trials would sharpen the ranking.")


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
                    "questions every model answered (question set: common) compare like with like.")
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


def _scope_of(table: pd.DataFrame, scope: str | None) -> str:
    if scope is not None:
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {', '.join(SCOPES)}; got {scope!r}.")
        return scope
    if "scope" in table.columns:
        scopes = [str(v) for v in dict.fromkeys(table["scope"].dropna())]
        if len(scopes) == 1 and scopes[0] in SCOPES:
            return scopes[0]
    return DEFAULT_SCOPE


def verdict(table: pd.DataFrame, *, confidence: float = 0.95, metric_label: str = "Bayes@N",
            scope: str | None = None, lead: Lead | None = None, question_sets_differ: bool = False,
            trial_effects=(), scale: tuple[float, float] | None = None) -> Verdict:
    """Which differences between neighbouring models are real at ``confidence``, and on what.

    The headline names what it generalises to in the sentence (``on these 40 questions`` with
    questions fixed, ``on new questions like these`` with questions sampled;
    :func:`~scorio_core.report.lead.scope_phrase`). Given the top pair's
    :class:`~scorio_core.report.lead.Lead`, it uses that pair's probability under the chosen
    scope (paired over common questions when sampled), says in the same sentence when the other
    scope disagrees, and :attr:`Verdict.basis` gives the questions behind the lead.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows with ``model, mu, sigma, lo, hi, n_trials`` (as
        :func:`scorio_core.leaderboard.table.leaderboard` returns); rows with NaN ``mu`` are listed
        as not scored.
    confidence : float, default 0.95
    metric_label : str
    scope : {"questions-fixed", "questions-sampled"}, optional
        The scope of ``table``; read from its ``scope`` column when omitted.
    lead : Lead, optional
        :func:`~scorio_core.report.lead.top_lead` of the same leaderboard (Bayes@N); ignored when
        its pair is not the table's first two models.
    question_sets_differ : bool, default False
        The models were scored on different questions (each on its own:
        :func:`scorio_core.leaderboard.checks.question_sets_differ`): the headline then never says "on
        these M questions", also when every model answered M. When the top two answered different questions, the
        headline says so in its own words (a lead between different question sets compares the sets too).
    trial_effects : sequence of dict, optional
        :func:`scorio_core.leaderboard.trial_order.trial_position_effects` of the data (``model``, ``rates``; model
        names as in ``table``): when the top two include such a model, the headline says its trials are not
        exchangeable repeats, which the intervals assume.
    scale : (float, float), optional
        The smallest and largest category weight of the rubric: a score on another scale than 0 to 1 (Format Aware:
        0 to 3) says its scale beside the number, which alone does not read as a rate.

    Returns
    -------
    Verdict

    Examples
    --------
    >>> t = pd.DataFrame({"model": ["A", "B", "C"], "mu": [0.80, 0.70, 0.69],
    ...                   "sigma": [0.02, 0.02, 0.02], "lo": [0.76, 0.66, 0.65],
    ...                   "hi": [0.84, 0.74, 0.73], "n_trials": [8, 8, 8]})
    >>> v = verdict(t)
    >>> v.lines[0], v.lines[1]
    ('A is ahead of B with > 99.9% posterior probability.', 'B and C are not distinguishable at 95% (P(B > C) = 63.8%).')
    """
    pct = f"{confidence:.0%}"
    scope = _scope_of(table, scope)
    scored = table[table["mu"].notna()].sort_values("mu", ascending=False, kind="stable")
    # a model whose empirical-Bayes prior is not identified (N = 1) has the pooled binomial sd, not a posterior one:
    # probabilities involving it are normal approximations, and the sentences do not call them posterior or credible
    approximate = has_fallback_interval(scored)
    level = "confidence" if approximate else "credibility"
    posterior = "probability (normal approximation)" if approximate else "posterior probability"
    counts = scored["n_questions"].dropna() if "n_questions" in scored else pd.Series(dtype=float)
    n_questions = (int(counts.min()), int(counts.max())) if len(counts) else None  # unequal sets: a range, not the largest
    where = scope_phrase(scope, n_questions, differ=question_sets_differ)
    other = SCOPES[1 - SCOPES.index(scope)]
    elsewhere = scope_phrase(other, n_questions, differ=question_sets_differ)
    missing = table.loc[table["mu"].isna(), "model"].astype(str).tolist()
    models = scored["model"].astype(str).tolist()
    caveats = [
        "Each probability compares neighbours in the ranking; ties chain, so A ~ B and B ~ C "
        "does not make A and C indistinguishable.",
        _coverage_caveat(table, pairs=len(scored) >= 2),
    ][0 if len(scored) >= 2 else 1:]  # one model: no probability compares anything
    if "n_trials" in scored and len(scored) and int(scored["n_trials"].min()) < 5:
        n = int(scored["n_trials"].min())
        few = _few_trials_caveat(n, scored)
        # one model: no ranking to sharpen
        caveats.append(few if len(scored) >= 2 else few.replace("sharpen the ranking", "narrow the interval"))
    if missing:
        caveats.append("Not scored (e.g. k larger than their trials): " + _names(missing) + ".")
    if not models:
        return Verdict("No model could be scored with these settings.", (), (), "", tuple(caveats), confidence, metric_label,
                       scope=scope)
    top = scored.iloc[0]
    on_scale = ("" if scale is None or tuple(map(float, scale)) == (0.0, 1.0)
                else f" on a {scale[0]:g}-to-{scale[1]:g} scale")
    if len(models) == 1:
        headline = (f"Only one model was scored: {models[0]} ({metric_label} {top['mu']:.3f}{on_scale}, "
                    f"{interval_name(scored.iloc[[0]], confidence)} [{top['lo']:.3f}, {top['hi']:.3f}]{_observed(top)}).")
        return Verdict(headline, (), (), "", tuple(caveats), confidence, metric_label, scope=scope)
    rho = pairwise_confidence(scored["mu"].to_numpy(float), scored["sigma"].to_numpy(float))
    if lead is not None and (lead.ahead, lead.behind) != (models[0], models[1]):
        lead = None
    if lead is not None and lead.rho(scope) is not None:  # the top pair as Compare states it (paired when sampled)
        rho = rho.copy()
        rho[0, 1], rho[1, 0] = lead.rho(scope), 1.0 - lead.rho(scope)
    comparisons, lines = [], []
    for i in range(len(models) - 1):
        p = float(rho[i, i + 1])
        separated = bool(p >= confidence)
        comparisons.append(Comparison(models[i], models[i + 1], p, separated))
        if separated:
            lines.append(f"{models[i]} is ahead of {models[i + 1]} with {format_probability(p)} {posterior}.")
        else:
            lines.append(f"{models[i]} and {models[i + 1]} are not distinguishable at {pct} "
                         f"(P({models[i]} > {models[i + 1]}) = {format_probability(p)}).")
    numbers = (f"{metric_label} {top['mu']:.3f}{on_scale}, {pct} interval [{top['lo']:.3f}, {top['hi']:.3f}]"
               f"{_observed(top)}")
    p_other = lead.rho(other) if lead is not None else None
    paired = f", paired over the {lead.n_common:,} questions both answered" if lead is not None else ""
    if comparisons[0].separated:
        p_here = format_probability(comparisons[0].rho)
        if p_other is not None and p_other >= confidence:
            headline = (f"{models[0]} ranks first at {pct} {level} {where}, and {elsewhere} too: ahead of {models[1]} "
                        f"with {p_here} {posterior} ({format_probability(p_other)} {elsewhere}; {numbers}).")
        elif p_other is not None:
            headline = (f"{models[0]} ranks first at {pct} {level} {where} (ahead of {models[1]} with {p_here} "
                        f"{posterior}; {numbers}), but not {elsewhere}: there P({models[0]} > {models[1]}) = "
                        f"{format_probability(p_other)}{paired if other == 'questions-sampled' else ''}.")
        else:
            headline = (f"{models[0]} ranks first at {pct} {level} {where}: ahead of {models[1]} with {p_here} "
                        f"{posterior} ({numbers}).")
            if lead is not None and other == "questions-sampled":
                headline += (f" Whether the lead holds {elsewhere} cannot be estimated: fewer than two questions were "
                             "answered by both.")
    else:
        # the top group: models that no other model is credibly ahead of (rank 1 under the pairwise rule)
        top_group = np.max(np.where(np.eye(len(models), dtype=bool), 0.0, rho), axis=0) < confidence
        group = [m for m, top in zip(models, top_group) if top]
        if len(group) == len(models):
            shared = (f"none of the {len(models)} models is behind another at {pct}" if approximate else
                      f"none of the {len(models)} models is credibly behind another")
        else:
            named = _names(group) if len(group) <= 5 else ", ".join(group[:4]) + f" and {len(group) - 4} more"
            shared = f"{len(group)} models share the top rank ({named}): " + (
                f"no model is ahead of them at {pct}" if approximate else "no model is credibly ahead of them")
        headline = f"No single leader at {pct} {level} {where}: {shared} ({metric_label})."
        if p_other is not None and p_other >= confidence:
            headline += (f" {elsewhere[:1].upper() + elsewhere[1:]}, {models[0]} is ahead of {models[1]} with "
                         f"{format_probability(p_other)} {posterior}.")
    headline += _headline_caveats(scored, lead, question_sets_differ, trial_effects)
    n_sep = int(np.sum([c.separated for c in comparisons]))
    close = [c for c in comparisons if not c.separated]
    summary = f"{n_sep} of {len(comparisons)} neighbouring pairs are separated at {pct}."
    if close and n_sep:  # hundreds of models: the first few here, every pair in ``lines``
        summary += " Not distinguishable: " + "; ".join(
            f"{c.ahead} and {c.behind} (P = {format_probability(c.rho)})" for c in close[:MAX_CLOSE_PAIRS]) + (
            f"; and {len(close) - MAX_CLOSE_PAIRS:,} more pairs (each neighbouring pair is listed with its "
            "probability)." if len(close) > MAX_CLOSE_PAIRS else ".")
    elif close:
        summary = f"No neighbouring pair is separated at {pct}."
    others = [(models[j], float(rho[0, j])) for j in range(1, len(models))]
    beaten = [m for m, p in others if p >= confidence]
    if len(models) > 2 and 0 < len(beaten) and (len(beaten) < len(others) or close):
        unsure = [(m, p) for m, p in others if p < confidence]
        share = (f"{len(beaten):,} of the {len(others):,}" if len(beaten) < len(others)
                 else "both" if len(others) == 2 else f"all {len(others):,}")
        summary += f" {models[0]} is ahead of {share} other models with at least {pct} probability each"
        if unsure and len(unsure) <= 4:
            summary += "; not of " + _names([f"{m} (P = {format_probability(p)})" for m, p in unsure], "or")
        summary += "."
    one_sided = ""
    if comparisons[0].separated and comparisons[0].rho < 1.0 - (1.0 - confidence) / 2.0:
        # "ahead" is one-sided; the central interval of the difference (Compare) is two-sided and still holds 0 here
        one_sided = (f"The lead is one-sided: P({models[0]} > {models[1]}) = {format_probability(comparisons[0].rho)} "
                     f"reaches {pct}, while the central {pct} interval of their difference (Compare page) still holds "
                     f"0, as it leaves {(1 - confidence) / 2:.1%} on each side.")
        caveats.append(one_sided)
    basis = questions_behind(lead, comparisons[0].separated) if lead is not None else ""
    return Verdict(headline, tuple(comparisons), tuple(lines), summary, tuple(caveats), confidence, metric_label,
                   basis, scope, one_sided)
