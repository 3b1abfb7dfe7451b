"""Questions needed to separate two models when questions are a sample (paired power analysis).

Split from :mod:`scorio_core.ranking.paired` (which re-exports these names): more trials per question
cannot shrink the part of a difference's uncertainty that comes from which questions were drawn;
more questions can (Miller 2024, arXiv:2411.00640, power analysis).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.special import ndtri

from scorio_core.ranking.compare import DifferencePosterior

__all__ = ["PRACTICAL_FACTOR", "QuestionsNeeded", "questions_meaning", "questions_needed"]

#: Above this many times the questions both models answered, a questions-needed figure is reported as
#: "no practical number of questions separates them" (a near-zero difference gives numbers like 10^7).
PRACTICAL_FACTOR = 100


class QuestionsNeeded(NamedTuple):
    """Questions (at the observed trials per question) needed to separate two models when questions are sampled.

    Attributes
    ----------
    m_needed : int or None
        Plug-in number of questions at which ``z = |mean| / sd`` reaches ``z_threshold``
        (about 50% power); None when it cannot be estimated or the difference is 0.
    m_power : int or None
        Questions at which a fresh draw separates the models with probability ``power`` if the
        difference equals its posterior mean: ``z >= z_threshold + Phi^{-1}(power)``.
    m_observed : int
        Questions both models answered (the pairing).
    sd_unit : float
        Standard deviation of the difference per question, ``sd * sqrt(m_observed)``.
    z_threshold : float
        ``Phi^{-1}(confidence)``: ``P(A > B) >= confidence`` (as the trials needed).
    confidence, power : float
    practical_factor : int
        A run of more than ``practical_factor x m_observed`` questions is not a practical answer
        (:attr:`practical` is False and the meaning says so instead of quoting ~10^7 questions).
    """

    m_needed: int | None
    m_power: int | None
    m_observed: int
    sd_unit: float
    z_threshold: float
    confidence: float
    power: float
    practical_factor: int = PRACTICAL_FACTOR

    @property
    def practical(self) -> bool:
        """Whether ``m_power`` questions is a run a team could do: at most ``practical_factor`` times the
        questions both models answered (False when it cannot be estimated or the difference is 0)."""
        return self.m_power is not None and self.m_power <= self.practical_factor * max(self.m_observed, 1)


def questions_needed(posterior: DifferencePosterior, question_diffs, power: float = 0.8) -> QuestionsNeeded:
    r"""Questions needed to separate two models under the questions-sampled scope (paired power analysis).

    More trials per question cannot shrink the part of the uncertainty that comes from which
    questions were drawn; more questions can. With the paired sd of :func:`scoped_difference`
    over ``m`` common questions, the sd per question is ``s = sd sqrt(m)`` (both of its forms,
    the questions-fixed sd and ``sd(d) / sqrt(m)``, shrink as ``1 / sqrt(m)``), and ``M``
    questions give ``z(M) = |mean| sqrt(M) / s``: ``M = (z_threshold + Phi^{-1}(power))^2
    s^2 / mean^2`` (Miller 2024, arXiv:2411.00640, power analysis; ``power = 0.5`` is the
    plug-in ``m_needed``).

    Parameters
    ----------
    posterior : DifferencePosterior
        From :func:`scoped_difference` with ``scope="questions-sampled"``.
    question_diffs : array-like of float, shape (M,)
        The per-question differences it was computed from (NaN: not answered by both).
    power : float, default 0.8
        In (0, 1).

    Returns
    -------
    QuestionsNeeded
        ``m_needed``/``m_power`` None with fewer than two common questions (no paired sd)
        or a zero difference.

    Raises
    ------
    ValueError
        ``power`` outside (0, 1).

    Examples
    --------
    >>> d = [0.2, 0.0, 0.1, 0.1]
    >>> from scorio_core.ranking.paired import scoped_difference
    >>> q = questions_needed(scoped_difference(0.5, 0.01, 0.4, 0.01, d, scope="questions-sampled")[0], d)
    >>> q.m_needed, q.m_power   # s = 0.0816: (1.645 * 0.0816 / 0.1)^2 = 1.8; (2.486 * 0.0816 / 0.1)^2 = 4.1
    (2, 5)
    """
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be in (0, 1); got {power!r}.")
    d = np.asarray(question_diffs, dtype=float)
    m = int(np.count_nonzero(~np.isnan(d)))
    z_threshold = float(ndtri(posterior.confidence))
    s = posterior.sd * math.sqrt(m) if m else math.nan
    if m < 2 or posterior.mean == 0.0 or not s > 0.0:
        return QuestionsNeeded(None, None, m, s, z_threshold, posterior.confidence, power)
    need = lambda z: max(1, math.ceil((z * s / abs(posterior.mean)) ** 2 - 1e-9))  # noqa: E731
    return QuestionsNeeded(need(z_threshold), need(z_threshold + float(ndtri(power))), m, s, z_threshold,
                           posterior.confidence, power)


def questions_meaning(needed: QuestionsNeeded) -> str:
    """One sentence saying what a :class:`QuestionsNeeded` means (Compare page, CLI)."""
    pct = f"{needed.confidence:.0%}"
    if needed.m_observed < 2:
        return ("the questions needed cannot be estimated: fewer than two questions were answered by both models; "
                "a run where both answer the same questions would tell.")
    if needed.m_needed is None:
        return "no number of questions separates them: the estimated difference is 0."
    if not needed.practical:
        return (f"no practical number of questions separates them: at the estimated difference it would take about "
                f"{needed.m_power:,} questions, more than {needed.practical_factor:,} times the {needed.m_observed:,} "
                "both answered; for any decision they can be treated as equally good on questions like these.")
    return (f"with questions drawn from the same pool, about {needed.m_power:,} questions (at the observed trials per "
            f"question) separate them at {pct} with {needed.power:.0%} probability if the difference is as estimated; "
            f"the plug-in {needed.m_needed:,} separates them only about half the time (observed: {needed.m_observed:,} "
            "questions both answered). More trials per question do not shrink the question-sampling part.")
