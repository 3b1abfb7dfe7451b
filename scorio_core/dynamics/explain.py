"""Why a ranking did not converge: the causes a :class:`~scorio_core.dynamics.convergence.ConvergenceResult` shows.

The CLI's ``convergence`` notes and the Convergence page both say *why* replicates found no convergence@n,
so a user does not read "no convergence 100%" as "the models are indistinguishable" when the cause is
the number of trials or a tie in the gold standard (paper section 3.3, Appendix I.1).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["NO_CONVERGENCE_NOTE_AT", "format_share", "no_convergence_causes"]

#: Share of replicates without convergence above which the causes are stated (the Convergence page's threshold).
NO_CONVERGENCE_NOTE_AT = 0.05


def format_share(share: float) -> str:
    """A share as a percentage that reads 0% or 100% only when it is exactly that.

    Whole percents where they do not round to an end; two decimals where they would (3 of 2,000 replicates
    settling is 99.85% without convergence, not "100%"); ``< 0.01%`` / ``> 99.99%`` beyond that.

    >>> format_share(0.42), format_share(0.9985), format_share(0.0015), format_share(1.0), format_share(0.0)
    ('42%', '99.85%', '0.15%', '100%', '0%')
    >>> format_share(0.99999), format_share(0.00001), format_share(0.996)
    ('> 99.99%', '< 0.01%', '99.6%')
    """
    share = float(share)
    if share <= 0.0 or share >= 1.0:
        return "0%" if share <= 0.0 else "100%"
    whole = f"{share:.0%}"
    if whole not in ("0%", "100%"):
        return whole
    text = f"{share:.2%}"
    if text in ("0.00%", "100.00%"):
        return "< 0.01%" if share < 0.5 else "> 99.99%"
    return text[:-1].rstrip("0").rstrip(".") + "%"


def _names(models: Sequence[str], idx: np.ndarray, limit: int = 4) -> str:
    names = [str(models[i]) for i in idx[:limit]]
    more = f" and {idx.size - limit} more" if idx.size > limit else ""
    return ", ".join(names) + more


def no_convergence_causes(no_convergence: float, n_trials: int, *, gold: str, gold_ranks=None,
                          models: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """The causes that made replicates end without convergence@n, most decisive first, each ``(code, sentence)``.

    Parameters
    ----------
    no_convergence : float
        Share of replicates with no convergence@n, in [0, 1].
    n_trials : int
        N, trials per question of the data (convergence@n can only be some n in 1..N-1).
    gold : {"data", "replicate"}
        The gold standard of the run.
    gold_ranks : array-like of shape (L,), optional
        Competition ranks of the "data" gold standard (ties share a rank).
    models : sequence of str, optional
        Model names in the order of ``gold_ranks`` (default ``"model 0"``, ...).

    Returns
    -------
    list of (str, str)
        Empty when ``no_convergence`` is below :data:`NO_CONVERGENCE_NOTE_AT`; otherwise
        ``("share", ...)`` with the share, then one per cause that applies: ``"few_trials"``
        (N <= 3: only n = 1..N-1 can be tested), ``"gold_ties"`` (ties in the gold standard: a
        replicate's ranking must tie the same models exactly) and, under ``gold="data"``,
        ``"gold_data"`` (a replicate whose full-length ranking differs from the data's never
        converges).

    Examples
    --------
    >>> [code for code, _ in no_convergence_causes(1.0, 2, gold="data", gold_ranks=[1, 1, 3])]
    ['share', 'few_trials', 'gold_ties', 'gold_data']
    >>> no_convergence_causes(1.0, 2, gold="data", gold_ranks=[1, 2], models=["a", "b"])[1][1][:46]
    'With N = 2 trials per question only n = 1 can '
    >>> no_convergence_causes(0.01, 80, gold="data")
    []
    """
    share = float(no_convergence)
    if not np.isfinite(share) or share < NO_CONVERGENCE_NOTE_AT:
        return []
    causes = [("share", f"No convergence in {format_share(share)} of the replicates: the ranking did not reach the gold standard and "
              "stay there before the last trial.")]
    if n_trials <= 3:
        tested = "n = 1" if n_trials == 2 else f"n = 1 to {n_trials - 1}"
        causes.append(("few_trials", f"With N = {n_trials} trials per question only {tested} can be tested (convergence@n is at most "
                      "N - 1), so this says little about the models: run more trials per question to see when the "
                      "ranking settles."))
    if gold_ranks is not None:
        ranks = np.asarray(gold_ranks, dtype=float)
        names = list(models) if models is not None else [f"model {i}" for i in range(ranks.size)]
        values, counts = np.unique(ranks, return_counts=True)
        tied = np.flatnonzero(np.isin(ranks, values[counts > 1]))
        groups = int((counts > 1).sum())
        if groups > 1:  # "ties a, b, c, d and 296 more" read as one 300-way tie (QA 2026-12-03: 13 groups)
            largest = np.flatnonzero(ranks == values[np.argmax(counts)])
            tie = (f"has {groups} groups of models with equal scores on all the data ({tied.size:,} of the "
                   f"{ranks.size:,} models; the largest, {largest.size:,} models: {_names(names, largest)})")
        else:
            tie = f"ties {_names(names, tied)} (equal scores on all the data)"
        if tied.size:
            causes.append(("gold_ties", f"The gold standard {tie}: a replicate's ranking matches it only where it ties "
                          "them exactly too, which a few resampled trials rarely do."))
    if gold == "data":
        causes.append(("gold_data", "The gold standard is the ranking of the data itself: a replicate whose ranking after all N "
                      "resampled trials differs from it never converges (paper section 3.3). --gold replicate "
                      "compares each replicate with its own final ranking instead (its last ranking change)."))
    return causes
