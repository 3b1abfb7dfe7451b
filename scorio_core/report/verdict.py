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

from scorio_core.choices import has_fallback_interval
from scorio_core.ranking.rank import pairwise_confidence
from scorio_core.uncertainty.fallback import comparison_sds
from scorio_core.report.caveats import (_coverage_caveat, _cross_group_headline, _few_trials_caveat, _group_numbers,
                                        _headline_caveats, _names, _observed)
from scorio_core.report.lead import Lead, questions_behind, scope_phrase
from scorio_core.report.tables import interval_name
from scorio_core.uncertainty.posterior import DEFAULT_SCOPE, SCOPES

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


def _pooled_rows(rows: pd.DataFrame) -> np.ndarray:
    """Which rows are the N = 1 fallback (``interval_kind`` exact-binomial or a fallback ``interval``): the pooled
    observed rate with an exact binomial interval, not a posterior mean (the tables head them "Pooled rate")."""
    from scorio_core.choices import is_fallback_interval

    pooled = np.zeros(len(rows), bool)
    if "interval_kind" in rows.columns:
        pooled |= rows["interval_kind"].astype(str).eq("exact-binomial").to_numpy()
    if "interval" in rows.columns:
        pooled |= rows["interval"].map(is_fallback_interval).to_numpy(bool)
    return pooled


def format_probability(p: float) -> str:
    """A probability as a percentage with one decimal, ``> 99.9%`` / ``< 0.1%`` at the ends.

    The decimal is cut toward 50%, never rounded away from it: a shown value is never past a threshold (95%,
    97.5%, ...) the probability itself has not reached (0.94996 reads 94.9%, not "95.0%" beside "not
    distinguishable at 95%").

    >>> format_probability(0.97312), format_probability(0.99996), format_probability(0.5)
    ('97.3%', '> 99.9%', '50.0%')
    >>> format_probability(0.94996), format_probability(0.05004), format_probability(0.973)
    ('94.9%', '5.1%', '97.3%')
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
    tenths = 1000.0 * p  # in tenths of a percent; cut toward 50% (1e-7: 0.973 is 972.9999999... in binary)
    cut = np.where(p >= 0.5, np.floor(tenths + 1e-7), np.ceil(tenths - 1e-7)) / 10.0
    shown = np.char.mod("%.1f%%", np.where(np.isfinite(cut), cut, 100 * p))
    return np.where(p > 0.999, "> 99.9%", np.where(p < 0.001, "< 0.1%", shown))


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
            trial_effects=(), scale: tuple[float, float] | None = None, pairwise=None, groups=None,
            tie_rule: str | None = None) -> Verdict:
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
    pairwise : ndarray of float, shape (L, L), optional
        ``P(A > B)`` for the scored rows in ``table``'s order, as the rank ties and the heatmap use them
        (:func:`scorio_core.leaderboard.table.pairwise_for`: paired over common questions when questions are
        sampled). Without it each pair is compared unpaired from the rows' own ``mu`` and ``sigma``, which under
        ``questions-sampled`` contradicts a paired ranking (a pair the ranking separates read "not distinguishable").
    groups : sequence of sequence of str, optional
        Models grouped by shared questions (the ``groups`` of the ``disconnected_groups`` notice,
        :func:`scorio_core.leaderboard.linking.question_groups`; names as in ``table``). With two or more groups among
        the scored models no order across groups is presented as settled: when the top two are in different groups
        the headline names the highest score and the leader's standing within its own group; otherwise it ranks the
        leader first in its group and says that the groups share no question. Neighbouring pairs across groups are
        compared: ``comparisons`` and ``lines`` hold neighbours within each group (the leader's group first).
    tie_rule : str, optional
        The rule of ``table``'s ``rank_ci`` (:data:`scorio_core.ranking.rank.TIE_RULES`). The headline judges the top
        by pairwise probabilities; under another rule that puts a different number of models at rank 1 (the paper
        rule chains overlapping intervals) it says so, so the headline and the table do not seem to disagree.

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
    scored = table[table["mu"].notna()]
    order = np.argsort(-scored["mu"].to_numpy(float), kind="stable")  # as sort_values(ascending=False, stable)
    scored = scored.iloc[order]
    # a model whose empirical-Bayes prior is not identified (N = 1) has the pooled binomial sd, not a posterior one:
    # probabilities involving it are normal approximations, and the sentences do not call them posterior or credible
    approximate = has_fallback_interval(scored)
    # "credibility" only where every interval is a posterior one; else the level without a word it does not earn
    at_level = f"at the {pct} level" if approximate else f"at {pct} credibility"
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
    # N = 1 (empirical-Bayes prior not identified): the row is the pooled observed rate, as the tables head it
    pooled = _pooled_rows(scored)
    top_label = "pooled rate" if pooled[0] else metric_label
    label = "pooled rate" if pooled.all() else f"{metric_label} or pooled rate" if pooled.any() else metric_label
    on_scale = ("" if scale is None or tuple(map(float, scale)) == (0.0, 1.0)
                else f" on a {scale[0]:g}-to-{scale[1]:g} scale")
    if len(models) == 1:
        headline = (f"Only one model was scored: {models[0]} ({top_label} {top['mu']:.3f}{on_scale}, "
                    f"{interval_name(scored.iloc[[0]], confidence)} [{top['lo']:.3f}, {top['hi']:.3f}]{_observed(top)}).")
        return Verdict(headline, (), (), "", tuple(caveats), confidence, metric_label, scope=scope)
    if pairwise is not None and np.shape(pairwise) == (len(order), len(order)):  # the ranking's own probabilities
        rho = np.asarray(pairwise, dtype=float)[np.ix_(order, order)]
    else:
        rho = pairwise_confidence(scored["mu"].to_numpy(float), *comparison_sds(scored, confidence, scale or (0.0, 1.0)))
    if lead is not None and (lead.ahead, lead.behind) != (models[0], models[1]):
        lead = None
    if lead is not None and lead.rho(scope) is not None:  # the top pair as Compare states it (paired when sampled)
        rho = rho.copy()
        rho[0, 1], rho[1, 0] = lead.rho(scope), 1.0 - lead.rho(scope)
    split = _group_numbers(models, groups)  # (group per model, number of groups) or None: every model linked
    if split is None:
        pairs = [(i, i + 1) for i in range(len(models) - 1)]
    else:  # neighbours within each group (the leader's group first): no pair across groups is compared
        labels = np.asarray(split[0])
        pairs = [(int(a), int(b)) for g in dict.fromkeys(split[0]) for a, b in
                 zip(np.flatnonzero(labels == g)[:-1], np.flatnonzero(labels == g)[1:])]
    cross_top = split is not None and split[0][0] != split[0][1]
    comparisons, lines = [], []
    for i, j in pairs:
        p = float(rho[i, j])
        separated = bool(p >= confidence)
        comparisons.append(Comparison(models[i], models[j], p, separated))
        if separated:
            lines.append(f"{models[i]} is ahead of {models[j]} with {format_probability(p)} {posterior}.")
        else:
            lines.append(f"{models[i]} and {models[j]} are not distinguishable at {pct} "
                         f"(P({models[i]} > {models[j]}) = {format_probability(p)}).")
    numbers = (f"{top_label} {top['mu']:.3f}{on_scale}, {pct} interval [{top['lo']:.3f}, {top['hi']:.3f}]"
               f"{_observed(top)}")
    p_other = lead.rho(other) if lead is not None else None
    paired = ("" if lead is None else f", paired over the {lead.n_common:,} questions both answered" if not lead.own_sets
              else f", each over its own questions, their covariance from the {lead.n_common:,} both answered")
    first_separated = not cross_top and comparisons[0].separated  # comparisons[0] is then models[0] vs models[1]
    # "ahead" is one-sided (P(A > B) >= the level); the central interval of the difference (Compare) is two-sided and
    # holds 0 when P(A > B) < 1 - (1 - level) / 2: the headline says so itself, in the Compare page's words (QA F15)
    sided_lead = first_separated and comparisons[0].rho < 1.0 - (1.0 - confidence) / 2.0
    first = (f"{models[0]} ranks first {at_level}"
             + (f" (one-sided; the central {pct} interval of their difference still holds 0)" if sided_lead else ""))
    if cross_top:
        headline = _cross_group_headline(models, split[0], split[1], rho, metric_label=label, where=where,
                                         figures=numbers, confidence=confidence, posterior=posterior,
                                         fmt=format_probability)
    elif first_separated:
        p_here = format_probability(comparisons[0].rho)
        # the leader's own figures, named: right after "ahead of B" an unnamed score read as B's (QA)
        numbers = f"{models[0]} at {numbers}"
        if p_other is not None and p_other >= confidence:
            again = ("the same" if format_probability(p_other) == p_here else format_probability(p_other))
            headline = (f"{first} {where}, and {elsewhere} too: ahead of {models[1]} "
                        f"with {p_here} {posterior} ({again} {elsewhere}; {numbers}).")
        elif p_other is not None:
            headline = (f"{first} {where} (ahead of {models[1]} with {p_here} "
                        f"{posterior}; {numbers}), but not {elsewhere}: there P({models[0]} > {models[1]}) = "
                        f"{format_probability(p_other)}{paired if other == 'questions-sampled' else ''}.")
        else:
            headline = (f"{first} {where}: ahead of {models[1]} with {p_here} "
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
        headline = f"No single leader {at_level} {where}: {shared} ({label})."
        if p_other is not None and p_other >= confidence:
            headline += (f" {elsewhere[:1].upper() + elsewhere[1:]}, {models[0]} is ahead of {models[1]} with "
                         f"{format_probability(p_other)} {posterior}.")
    if split is not None and not cross_top:
        g, n_groups = split[0][0], split[1]
        headline = headline.replace(f"{models[0]} ranks first {at_level}", f"{models[0]} ranks first in its group "
                                    f"({g} of {n_groups}) {at_level}", 1)
        headline += (f" The models fall into {n_groups} groups that share no question: no order across groups is "
                     "supported (it would compare the question sets as much as the models).")
    if tie_rule not in (None, "pairwise") and not cross_top and "rank_ci" in scored.columns:
        at_one, n_top = int((scored["rank_ci"] == 1).sum()), 1 if first_separated else len(group)
        if at_one != n_top:
            rule = (f"has no CI ties (rule 'none'): {at_one:,} model{'s' if at_one != 1 else ''} at rank 1" if tie_rule
                    == "none" else f"follows the rule '{tie_rule}', which puts {at_one:,} model"
                    f"{'s' if at_one != 1 else ''} at rank 1")
            headline += f" The table's Rank (CI ties) {rule}; this sentence compares pairs (P(A > B))."
    headline += _headline_caveats(scored, lead, question_sets_differ and not cross_top, trial_effects)
    n_sep = int(np.sum([c.separated for c in comparisons]))
    close = [c for c in comparisons if not c.separated]
    summary = f"{n_sep} of {len(comparisons)} neighbouring pairs {'is' if n_sep == 1 else 'are'} separated at {pct}."
    if split is not None:  # neighbours within a group: pairs across groups are not compared
        summary = ((f"{n_sep} of {len(comparisons)} neighbouring pairs within a group {'is' if n_sep == 1 else 'are'} separated at {pct}; pairs"
                    if comparisons else "No two scored models share a group; pairs")
                   + f" across the {split[1]} groups, which share no question, are not compared.")
    if close and n_sep:  # hundreds of models: the first few here, every pair in ``lines``
        summary += " Not distinguishable: " + "; ".join(
            f"{c.ahead} and {c.behind} (P = {format_probability(c.rho)})" for c in close[:MAX_CLOSE_PAIRS]) + (
            f"; and {len(close) - MAX_CLOSE_PAIRS:,} more pairs (each neighbouring pair is listed with its "
            "probability)." if len(close) > MAX_CLOSE_PAIRS else ".")
    elif close and split is None:
        summary = f"No neighbouring pair is separated at {pct}."
    others = [(models[j], float(rho[0, j])) for j in range(1, len(models)) if not split or split[0][j] == split[0][0]]
    beaten = [m for m, p in others if p >= confidence]
    if len(models) > 2 and 0 < len(beaten) and (len(beaten) < len(others) or close):
        unsure = [(m, p) for m, p in others if p < confidence]
        share = (f"{len(beaten):,} of the {len(others):,}" if len(beaten) < len(others)
                 else "both" if len(others) == 2 else f"all {len(others):,}")
        summary += (f" {models[0]} is ahead of {share} other models{' of its group' if split else ''} with at least "
                    f"{pct} probability each")
        if unsure and len(unsure) <= 4:
            summary += "; not of " + _names([f"{m} (P = {format_probability(p)})" for m, p in unsure], "or")
        summary += "."
    one_sided = ""
    if sided_lead:  # the headline's "(one-sided; ...)" explained
        one_sided = (f"The lead is one-sided: P({models[0]} > {models[1]}) = {format_probability(comparisons[0].rho)} "
                     f"reaches {pct}, while the central {pct} interval of their difference (Compare page) still holds "
                     f"0, as it leaves {(1 - confidence) / 2:.1%} on each side.")
        caveats.append(one_sided)
    basis = questions_behind(lead, first_separated) if lead is not None else ""
    return Verdict(headline, tuple(comparisons), tuple(lines), summary, tuple(caveats), confidence, metric_label,
                   basis, scope, one_sided)
