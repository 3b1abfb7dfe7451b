"""Words for ranks with ties: what a ``Rank (CI ties)`` rule means (:func:`tie_rule_sentence`) and a shared rank
in a legend (:func:`rank_meaning`); split from :mod:`scorio_core.ranking.rank`, which re-exports both.
"""

from __future__ import annotations

from scorio_core.choices import TIE_RULE_HELP, TIE_RULES

__all__ = ["rank_meaning", "tie_rule_sentence"]


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
