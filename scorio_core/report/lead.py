"""What a leaderboard's lead rests on, and what it generalises to.

A lead of model A over model B is a statement about one of two estimands
(docs/metrics.md, "Priors, scopes and what an interval covers"):

* **questions fixed** (the paper's estimand): A beats B *on these M questions*, had each been
  answered infinitely often; only trial noise is uncertain;
* **questions sampled**: A beats B *on new questions like these* (a larger pool the questions were
  drawn from); the difference is paired over the questions both answered (Miller 2024,
  arXiv:2411.00640), as on the Compare page (:func:`scorio_core.ranking.paired.scoped_difference`).

A stakeholder hearing "A beats B" understands the second. :func:`lead_evidence` computes the
lead's probability under both, and the questions behind it (only A solves / only B solves / same),
so the verdict can name its scope in the sentence and say both when they disagree.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from scorio_core.ranking.compare import disagreement_table, outcome_counts
from scorio_core.ranking.paired import UNPAIRED_ASSUMPTION, scoped_difference
from scorio_core.ranking.paired_sd import same_questions
from scorio_core.uncertainty.clustered import codes_for_questions
from scorio_core.uncertainty.posterior import check_scope

__all__ = ["Lead", "lead_evidence", "top_lead", "scope_phrase", "questions_behind", "among_shown"]


def scope_phrase(scope: str, n_questions: int | tuple[int, int] | None = None, *, differ: bool = False) -> str:
    """What a statement under ``scope`` generalises to, as words that fit in a sentence.

    Parameters
    ----------
    scope : {"questions-fixed", "questions-sampled"}
    n_questions : int or (int, int), optional
        Questions of the leaderboard (M), named under ``questions-fixed``; a pair (fewest, most) when
        the models were scored on question sets of different sizes (each on the questions it answered).
    differ : bool, default False
        The models were scored on different questions even where the counts are equal (disjoint
        halves of a task): never "on these 10 questions" then.

    Returns
    -------
    str
        ``"on these 40 questions"`` or ``"on new questions like these"``.

    Raises
    ------
    ValueError
        Unknown scope.

    Examples
    --------
    >>> scope_phrase("questions-fixed", 40), scope_phrase("questions-sampled", 40)
    ('on these 40 questions', 'on new questions like these')
    >>> scope_phrase("questions-fixed", (20, 23))
    'on the questions each model answered (20 to 23)'
    >>> scope_phrase("questions-fixed", (10, 10), differ=True)
    'on the questions each model answered (10 each)'
    """
    check_scope(scope)
    if scope == "questions-sampled":
        return "on new questions like these"
    if n_questions is None:
        return "on these questions"
    if isinstance(n_questions, tuple):
        lo, hi = (int(v) for v in n_questions)
        if lo != hi:
            return f"on the questions each model answered ({lo:,} to {hi:,})"
        if differ:
            return f"on the questions each model answered ({lo:,} each)"
        n_questions = lo
    return "on this question" if int(n_questions) == 1 else f"on these {int(n_questions):,} questions"


class Lead(NamedTuple):
    """The top pair of a leaderboard under both scopes, and the questions behind the lead.

    Attributes
    ----------
    ahead, behind : str
        The first and second model by posterior mean.
    only_ahead, only_behind : int
        Questions only ``ahead`` (only ``behind``) solves, i.e. has at least one correct trial
        while the other has none (binary correctness; with a rubric: a positive mean score).
    different : int
        Questions both solve, at different rates.
    same : int
        Questions with the same outcome for both (both always, neither, or equally often).
    n_common : int
        Questions both answered (the pairing of the questions-sampled difference).
    rho_fixed : float
        ``P(ahead > behind)`` with questions fixed (independent posteriors, section 2.5).
    rho_sampled : float or None
        ``P(ahead > behind)`` for new questions like these, paired over the ``n_common``
        questions; None when fewer than two questions were answered by both (it cannot be estimated).
    filled : int
        Of the ``n_common`` questions, those one or both models did not answer in the data, counted as incorrect
        there (the question set "missing counts as incorrect"); 0 otherwise.
    graded : bool
        The rubric gives partial credit (a weight between its lowest and highest): the sentences say "scores" (a
        positive mean score), not "solves".
    own_sets : bool
        The two answered different questions: ``rho_sampled`` is of the difference of their own-question means, its
        covariance from the ``n_common`` questions (:mod:`scorio_core.ranking.paired_sd`), not a paired difference.
    """

    ahead: str
    behind: str
    only_ahead: int
    only_behind: int
    different: int
    same: int
    n_common: int
    rho_fixed: float
    rho_sampled: float | None
    filled: int = 0
    graded: bool = False
    own_sets: bool = False

    def rho(self, scope: str) -> float | None:
        """``P(ahead > behind)`` under ``scope``."""
        check_scope(scope)
        return self.rho_fixed if scope == "questions-fixed" else self.rho_sampled

    def renamed(self, labels) -> "Lead":
        """The same lead with display names (``labels[model]``)."""
        return self._replace(ahead=str(labels.get(self.ahead, self.ahead)), behind=str(labels.get(self.behind, self.behind)))


def among_shown(headline: str, n_shown: int, n_all: int) -> str:
    """A verdict's headline on the ``n_shown`` of ``n_all`` scored models a page shows (a model filter, a top N).

    The verdict compares the rows it is given, while the table beside it keeps every model's rank among all of them:
    a bare "B ranks first" beside B's rank 12 reads as a contradiction (QA), so the headline says whom it compares.

    >>> among_shown("B ranks first at 95% credibility.", 2, 16)
    "Of the 2 models shown (the table's ranks are among all 16), B ranks first at 95% credibility."
    >>> among_shown("No single leader at 95% credibility.", 3, 16)
    "Of the 3 models shown (the table's ranks are among all 16): no single leader at 95% credibility."
    >>> among_shown("Only one model was scored: B (Bayes@N 0.5).", 1, 16)
    'One of the 16 scored models is shown (its rank in the table is among all 16): B (Bayes@N 0.5).'
    >>> among_shown("B ranks first.", 16, 16)
    'B ranks first.'
    """
    if n_shown < 1 or n_shown >= n_all:
        return headline
    one = "Only one model was scored: "
    if headline.startswith(one):
        return f"One of the {n_all:,} scored models is shown (its rank in the table is among all {n_all:,}): " + \
            headline[len(one):]
    of = f"Of the {n_shown:,} models shown (the table's ranks are among all {n_all:,})"
    return f"{of}: n{headline[1:]}" if headline.startswith("No ") else f"{of}, {headline}"


def questions_behind(lead: Lead, credible: bool = True) -> str:
    """The questions a lead rests on (or, when it is not credible, where the top two differ), as a sentence.

    Examples
    --------
    >>> questions_behind(Lead("X", "Y", 3, 0, 0, 37, 40, 0.965, 0.88))
    'The lead rests on 3 questions only X solves and 0 only Y solves; the other 37 of the 40 questions both answered have the same outcome for both.'
    >>> questions_behind(Lead("X", "Y", 0, 0, 0, 6, 6, 0.5, 0.5), credible=False)
    'X and Y have the same outcome on all 6 questions both answered.'
    >>> questions_behind(Lead("X", "Y", 1, 0, 2, 3, 6, 0.9, 0.8, graded=True), credible=False)
    'Between X and Y: 1 question where only X scores and 0 where only Y scores; 2 questions where both score, at different mean scores, and 3 have the same outcome for both.'
    >>> questions_behind(Lead("X", "Y", 2, 0, 6, 0, 8, 0.99, 0.99, graded=True))  # graded, none the same
    'The lead rests on 2 questions where only X scores and 0 where only Y scores; 6 questions where both score, at different mean scores.'
    >>> questions_behind(Lead("X", "Y", 0, 0, 27, 13, 40, 0.97, 0.9))
    'No question is solved by only one of them; the lead comes from 27 questions both solve at different rates; 13 have the same outcome for both.'
    """
    def n(count: int) -> str:
        return f"{count:,} question" + ("" if count == 1 else "s")

    if lead.n_common == 0:
        return (f"{lead.ahead} and {lead.behind} answered no question in common, so no question shows where they "
                "differ: each score covers its own questions.")
    filled = ""
    if lead.filled:  # the question set filled unanswered cells: they are not evidence of agreement
        filled = (f" {lead.filled:,} of these {lead.n_common:,} questions were not answered by both in the data and "
                  "count as incorrect where an answer is missing.")
    if lead.same == lead.n_common and not (lead.only_ahead or lead.only_behind or lead.different):
        return (f"{lead.ahead} and {lead.behind} have the same outcome on all {n(lead.n_common)} "
                + ("of this question set." if lead.filled else "both answered.") + filled)
    start = "The lead rests on" if credible else f"Between {lead.ahead} and {lead.behind}:"
    if lead.graded:  # partial credit: a positive mean score, not a solved question
        text = (f"{start} {n(lead.only_ahead)} where only {lead.ahead} scores and {lead.only_behind:,} where only "
                f"{lead.behind} scores")
    else:
        text = f"{start} {n(lead.only_ahead)} only {lead.ahead} solves and {lead.only_behind:,} only {lead.behind} solves"
    rest = []
    if lead.different:
        rest.append(f"{n(lead.different)} where both score, at different mean scores," if lead.graded
                    else f"{n(lead.different)} both solve at different rates")
    if lead.same:
        rest.append(f"the other {lead.same:,} of the {lead.n_common:,} questions "
                    f"{'of this question set' if lead.filled else 'both answered'} have the same outcome for both"
                    if not lead.different else f"{lead.same:,} {'has' if lead.same == 1 else 'have'} the same outcome for both")
    if lead.different and not (lead.only_ahead or lead.only_behind):  # "rests on 0 questions" read as "on nothing"
        alone = f"no question is {'scored' if lead.graded else 'solved'} by only one of them"
        if credible:  # the lead comes from the questions both solve at different rates alone (QA F15)
            return (f"{alone[:1].upper()}{alone[1:]}; the lead comes from {rest[0].rstrip(',')}"
                    + (f"; {rest[1]}" if len(rest) > 1 else "") + "." + filled)
        return f"Between {lead.ahead} and {lead.behind}: {alone}; " + " and ".join(rest).rstrip(",") + "." + filled
    return text + ("; " + " and ".join(rest).rstrip(",") if rest else "") + "." + filled  # no ",." at the end


def lead_evidence(fixed: pd.DataFrame, disagreements: pd.DataFrame, ahead: str, behind: str, *,
                  confidence: float = 0.95, clusters=None) -> Lead:
    """The lead of ``ahead`` over ``behind`` under both scopes, and the questions behind it.

    Parameters
    ----------
    fixed : DataFrame
        Leaderboard rows (``model``, ``mu``, ``sigma``) of Bayes@N **with questions fixed**
        (:func:`scorio_core.leaderboard.table.leaderboard` with ``scope="questions-fixed"``).
    disagreements : DataFrame
        :func:`scorio_core.ranking.compare.disagreement_table` of ``(ahead, behind)``: columns
        ``outcome`` and ``diff`` (per-question score difference, NaN where one did not answer).
    ahead, behind : str
        Two scored models of ``fixed``.
    confidence : float, default 0.95
    clusters : mapping of question id to cluster label, optional
        Questions in groups: the questions-sampled probability uses the cluster-robust paired
        standard error (:mod:`scorio_core.uncertainty.clustered`).

    Returns
    -------
    Lead

    Raises
    ------
    KeyError
        A model missing from ``fixed``.
    ValueError
        As :func:`scorio_core.ranking.paired.scoped_difference` (e.g. non-finite sigma).

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, section 2.5 (``rho``); Miller, "Adding Error Bars
    to Evals", arXiv:2411.00640 (2024) (paired differences over sampled questions).
    """
    from scorio_core.uncertainty.fallback import pair_sds

    rows = fixed.set_index(fixed["model"].astype(str))
    a, b = rows.loc[str(ahead)], rows.loc[str(behind)]
    diffs = disagreements["diff"].to_numpy(float)
    sd_a, sd_b = pair_sds(fixed, ahead, behind, confidence)  # an exact-binomial row's skewed spread, as rank_ci
    args = (float(a["mu"]), sd_a, float(b["mu"]), sd_b, diffs)
    at_fixed, _ = scoped_difference(*args, scope="questions-fixed", confidence=confidence)
    n_common = int(np.count_nonzero(~np.isnan(diffs)))
    scores = _scores(disagreements)
    rho_sampled = None
    if n_common >= 2:
        codes = codes_for_questions(disagreements["question"], clusters)
        at_sampled, assumption = scoped_difference(*args, scope="questions-sampled", confidence=confidence,
                                                   clusters=codes, scores=scores)
        rho_sampled = None if assumption == UNPAIRED_ASSUMPTION else float(at_sampled.rho)  # e.g. one cluster
    counts = outcome_counts(disagreements)
    return Lead(
        str(ahead), str(behind), counts["only A solves"], counts["only B solves"],
        counts["both, A more often"] + counts["both, B more often"],
        counts["both always"] + counts["neither"] + counts["both, equally often"],
        n_common, float(at_fixed.rho), rho_sampled,
        own_sets=scores is not None and not same_questions(*scores),
    )


def top_lead(task_outcomes, table: pd.DataFrame, fixed: pd.DataFrame | None = None, *,
             confidence: float = 0.95, clusters=None, original=None) -> Lead | None:
    """:func:`lead_evidence` of the first two scored models of a Bayes@N leaderboard.

    Parameters
    ----------
    task_outcomes : scorio_core.leaderboard.table.TaskOutcomes
        The outcomes the leaderboard was computed from.
    table : DataFrame
        The leaderboard as shown (any scope); its two highest posterior means are the pair.
    fixed : DataFrame, optional
        The same leaderboard with questions fixed; ``table`` itself when omitted (it must then be
        a questions-fixed table).
    confidence : float, default 0.95
    clusters : mapping of question id to cluster label, optional
        As :func:`lead_evidence`.
    original : TaskOutcomes, optional
        The outcomes before a question set filled unanswered cells (``missing-incorrect``): the lead then counts
        how many of its questions were filled (``Lead.filled``).

    Returns
    -------
    Lead or None
        None with fewer than two scored models.
    """
    scored = table[table["mu"].notna()].sort_values("mu", ascending=False, kind="stable")
    if len(scored) < 2:
        return None
    ahead, behind = (str(m) for m in scored["model"].iloc[:2])
    frame = disagreement_table(task_outcomes, ahead, behind)
    found = lead_evidence(table if fixed is None else fixed, frame, ahead, behind, confidence=confidence,
                          clusters=clusters)
    w = np.asarray(task_outcomes.rubric.weights, dtype=float)
    if w.size and bool(np.any((w > w.min()) & (w < w.max()))):  # partial credit: "scores", not "solves"
        found = found._replace(graded=True)
    if original is None or original is task_outcomes:
        return found
    answered = int(np.count_nonzero(~np.isnan(disagreement_table(original, ahead, behind)["diff"].to_numpy(float))))
    return found._replace(filled=max(0, found.n_common - answered))


def _scores(disagreements):
    """The two models' per-question scores (NaN where unanswered), or None when the table lacks them."""
    if not {"score_a", "score_b"} <= set(disagreements.columns):
        return None
    return disagreements[["score_a", "score_b"]].to_numpy(float).T
