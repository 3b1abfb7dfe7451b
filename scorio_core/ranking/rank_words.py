"""Words for ranks with ties: what a ``Rank (CI ties)`` rule means (:func:`tie_rule_sentence`) and a shared rank
in a legend (:func:`rank_meaning`); split from :mod:`scorio_core.ranking.rank`, which re-exports both. Also the words
of the rank distribution (:data:`RANK_METHOD`, :data:`HELD_PRIOR`, :func:`rank_method`, :func:`tie_notes`, re-exported by
:mod:`scorio_core.ranking.posterior_ranks`).
"""

from __future__ import annotations

import numpy as np

from scorio_core.choices import TIE_RULE_HELP, TIE_RULES

__all__ = ["rank_meaning", "tie_rule_sentence", "RANK_ROW_KEYS", "RANK_METHOD", "HELD_PRIOR", "rank_method", "tie_notes", "WITHIN_GROUPS"]


def tie_rule_sentence(rule: str, approximate: bool = False) -> str:
    """What the ``Rank (CI ties)`` column means under ``rule``, for reports, captions and help.

    The one source of every text describing a tie rule (:data:`TIE_RULE_HELP`), so a report never
    explains a rule other than the one its ranks used. ``approximate`` words it for a table where some
    model's empirical-Bayes prior is not identified (N = 1: its sd is the pooled binomial one,
    :func:`scorio_core.choices.is_fallback_interval`): "better at the confidence level", not "credibly better".

    Raises
    ------
    ValueError
        Unknown rule.

    Examples
    --------
    >>> tie_rule_sentence("upper-bound")
    "Rank (CI ties), rule 'upper-bound': rank = 1 + the number of models whose whole credible interval lies above this one's (arena style)."
    >>> tie_rule_sentence("pairwise", approximate=True)
    "Rank (CI ties), rule 'pairwise': rank = 1 + the number of models better than this one at the confidence level (P(B > A) >= the confidence level, normal approximation); with unequal interval widths a model below another by mean can hold the better rank (a wide interval has fewer models ahead of it at that level)."
    """
    if rule not in TIE_RULE_HELP:
        raise ValueError(f"rule must be one of {', '.join(TIE_RULES)}; got {rule!r}.")
    text = TIE_RULE_HELP[rule]
    if approximate:
        for credible, plain in _APPROXIMATE_WORDS:
            text = text.replace(credible, plain)
    return f"Rank (CI ties), rule {rule!r}: {text}."


#: How :func:`tie_rule_sentence` words a rule where the sds are not posterior ones (N = 1).
_APPROXIMATE_WORDS = (("models credibly better than this one", "models better than this one at the confidence level"),
                      ("credibility level", "confidence level"), ("whole credible interval", "whole interval"))


def rank_meaning(rank, size: int = 1, rule: str | None = None, better: str = "credibly better") -> str:
    """A shared rank in words, for legends: what ``rank_ci = rank`` means under ``rule``.

    Under ``pairwise``, rank r says r - 1 models are credibly better (so ranks 7, 7, 8 are
    consistent: the third model has one more model credibly above it); under ``upper-bound``,
    r - 1 models' whole intervals lie above. Other rules (or None) give the rank and group size.
    ``better`` words the pairwise comparison: e.g. "better at 95%" where the sds are not posterior ones (a model's
    empirical-Bayes prior not identified, N = 1: :func:`scorio_core.choices.is_fallback_interval`).

    Examples
    --------
    >>> rank_meaning(7, 3, "pairwise"), rank_meaning(1, 1, "pairwise"), rank_meaning(2, 2, "paper")
    ('rank 7 (3 models): 6 credibly better', 'rank 1: none credibly better', 'rank 2 (2 models, CI tie)')
    >>> rank_meaning(3, 1, "pairwise", better="better at 95%")
    'rank 3: 2 better at 95%'
    """
    r = int(rank)
    head = f"rank {r}" + (f" ({size} models" if size > 1 else "")
    if rule == "pairwise":
        return head + ("): " if size > 1 else ": ") + (f"{r - 1} {better}" if r > 1 else f"none {better}")
    if rule == "upper-bound":
        return head + ("): " if size > 1 else ": ") + (f"{r - 1} with intervals wholly above" if r > 1 else "no interval wholly above")
    if rule == "none":
        return head + (", equal means)" if size > 1 else "")
    return head + (", CI tie)" if size > 1 else "")


#: Keys of every :func:`rank_summary` row (:func:`~scorio_core.ranking.posterior_ranks.rank_summary`; ``ranks --output json`` ``rows``; the other outputs' columns).
RANK_ROW_KEYS = ("model", "expected_rank", "most_likely_rank", "p_most_likely", "p_first", "rank")
#: What :func:`rank_summary`'s probabilities are, in words (JSON ``method``).
RANK_METHOD = ("competition rank of Bayes@N in joint draws of every model's per-question Dirichlet posterior "
               "(exact draws, no normal approximation; the prior is the output's prior)")
#: What the rank distribution's ranks are when the models fall into groups that share no question (``ranks``' and the
#: Rank distribution tab's words; :func:`~scorio_core.ranking.posterior_ranks.rank_summary` with ``groups``).
WITHIN_GROUPS = ("The rank probabilities are therefore within each group: P(rank r) is the probability of rank r among "
                 "the models of the model's own group (each group has its own rank 1), and each row says its group.")
#: What the draws hold fixed under the empirical-Bayes prior (:func:`rank_summary`'s ``prior_note``).
HELD_PRIOR = ("the empirical-Bayes prior is held at its fit (per model, and per task with tasks pooled, as the "
              "leaderboard's), so each model's mean draw is its Bayes@N, and the hyperparameter uncertainty the "
              "leaderboard's intervals add is drawn as a normal shift of each model's score, so each model's draws "
              "have the variance of its leaderboard interval")


def rank_method(models, fallback_mean=None) -> str:
    """:data:`RANK_METHOD`, or what the draws of models drawn from their leaderboard row are (finite ``fallback_mean``:
    prior not identified; QA: N = 1 said "exact Dirichlet draws" beside "not a Dirichlet posterior").

    >>> rank_method(["a", "b"], [float("nan"), 0.5]).endswith("not identified, b: a Beta moment-matched to its "
    ...                                                       "pooled rate and binomial sd, not a posterior draw")
    True
    """
    fb = np.zeros(len(models), bool) if fallback_mean is None else np.isfinite(np.asarray(fallback_mean, float))
    if not fb.any():
        return RANK_METHOD
    named = [str(m) for m, f in zip(models, fb) if f]
    who = ", ".join(named[:5]) + (f" and {len(named) - 5:,} more" if len(named) > 5 else "")
    return ("competition rank of each model's score in joint draws of a Beta moment-matched to its pooled rate and "
            "binomial sd (the empirical-Bayes prior is not identified for any model: not posterior draws)" if fb.all()
            else RANK_METHOD + f"; where the prior is not identified, {who}: a Beta moment-matched to its pooled rate "
            "and binomial sd, not a posterior draw")


def tie_notes(ties) -> list[dict]:
    """The notes of :func:`rank_summary`'s ``ties``: one per group of models with identical data.

    Parameters
    ----------
    ties : list of list of str
        ``rank_summary(...)["ties"]``.

    Returns
    -------
    list of dict
        ``{"code": "identical_data", "models": [...], "message": ...}`` per group (empty without ties).
    """
    return [{"code": "identical_data", "models": list(group), "message": (
        f"{', '.join(group)} have identical data (the same counts on the same questions, under the same prior): their "
        "posteriors are the same, so they share one row of rank probabilities (the mean of their rows) and one rank, "
        "whatever the --seed; only data that differ would separate them.")} for group in ties]
