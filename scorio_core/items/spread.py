"""Whether an IRT fit's abilities differ at all, and the standard errors that decide rank ties.

A 2PL mode is reported on the scale its ability prior defines (:func:`scorio_core.items.priors.ability_scale`:
abilities of mean square 1). Its standard errors are the Laplace covariance *given* that scale, plus the scale's
own uncertainty. Neither is the right one to decide whether two models differ:

* given the scale, the covariance has no variance along the abilities' own direction; when the models are equal,
  the estimates' spread *is* that direction, so the uncertainty about whether they differ at all is removed.
  Measured (helper QA, 2026-12-02; models of equal ability, b ~ N(0, 1.5^2), N = 4): pairs called credibly
  different at 0.137 (10 models x 50 questions) and 0.170 (30 x 200) against a nominal 0.10, and up to 0.225 with
  6 models; with the unconditioned Laplace standard errors 0.067-0.080;
* a common change of scale cannot reorder models, but the scale's delta-method term grows with an ability's
  distance from 0, which a difference test does not need.

So rank ties (:func:`scorio_core.items.board.ability_board`) use the *unconditioned* Laplace standard errors of
the joint mode (:func:`joint_se`; its priors pin the scale), on the reported scale. And when the abilities are not
credibly different from each other (:func:`ability_spread`: the Cochran-Mantel-Haenszel test that every model has
the same success probability on each question), the 2PL scale, and with it every difficulty and discrimination, is
set by noise: the reports say so. (A Wald test on the 2PL's own Laplace covariance rejected equal abilities in 35-75%
of simulated tables at the 5% level: near equal abilities the 2PL posterior is far from normal.)
"""

from __future__ import annotations

import numpy as np
from scipy.special import chdtrc

__all__ = ["SPREAD_ALPHA", "ability_spread", "joint_se", "spread_note"]

#: Level of :func:`ability_spread` below which the abilities are taken to differ (the spread note's threshold).
SPREAD_ALPHA = 0.05


def joint_se(cov, scale: float = 1.0) -> np.ndarray:
    """Abilities' standard errors from the unconditioned Laplace covariance, on the reported scale.

    Parameters
    ----------
    cov : ndarray, shape (L, L)
        The abilities' block of the inverse Hessian at the joint mode (``laplace_se(..., ability_cov=True)``).
    scale : float, default 1
        The 2PL scale ``c`` of :func:`~scorio_core.items.priors.ability_scale` (reported abilities are the mode's
        divided by ``c``); 1 for Rasch.

    Returns
    -------
    ndarray of float, shape (L,)
        ``sqrt(diag(cov)) / scale``.
    """
    return np.sqrt(np.maximum(np.diag(np.asarray(cov, dtype=float)), 0.0)) / float(scale)


def ability_spread(successes, trials) -> tuple[float, int, float]:
    """Test that every model has the same success probability on each question: the abilities do not differ.

    The generalized Cochran-Mantel-Haenszel statistic of an L x 2 table per question (strata), which is the score
    test of "every ability equal" in the logistic model with a parameter per question (Rasch), computed from the
    counts alone (no fit).

    Parameters
    ----------
    successes, trials : array_like, shape (L, M)
        Counts per (model, question); a cell with 0 trials is missing (contributes nothing).

    Returns
    -------
    stat : float
        ``d^T V^-1 d`` over the first L' - 1 answering models, with ``d_i = sum_j (s_ij - n_ij S_j / N_j)`` and ``V``
        the sum over questions of the hypergeometric covariances ``S_j (N_j - S_j) / (N_j^2 (N_j - 1))
        (N_j diag(n_j) - n_j n_j^T)`` (``S_j``, ``N_j``: successes and trials of question j over the models).
    df : int
        Answering models minus 1 (0 with fewer than two: then ``stat = 0`` and ``p = 1``).
    p : float
        ``P(chi2_df > stat)``: small when the models credibly differ.

    Notes
    -----
    Mantel & Haenszel (1959); Landis, Heyman & Koch (1978) for the generalized statistic. Measured calibration
    (400 simulated tables each, abilities all equal, b ~ N(0, 1.5^2)): share of p < 0.05 0.055 (10 models x 50
    questions x 4 trials; 30 x 200 x 4; 6 x 30 x 4), 0.043 (2 x 30 x 4), 0.052 (8 x 30 x 1); with ability SD 0.1,
    0.3 and 1 on 10 x 50 x 4: 0.17, 0.90, 1.00. Cost O(L^2 M + L^3).

    Examples
    --------
    >>> stat, df, p = ability_spread([[3, 3], [0, 0]], [[3, 3], [3, 3]])  # one model solved both, the other neither
    >>> round(stat, 9), df, round(p, 5)
    (10.0, 1, 0.00157)
    """
    s, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    N, S = n.sum(axis=0), s.sum(axis=0)
    informative = N > 1
    c = np.where(informative, S * (N - S) / np.where(informative, N**2 * (N - 1), 1.0), 0.0)
    d = (s - n * np.where(N > 0, S / np.where(N > 0, N, 1.0), 0.0)).sum(axis=1)
    V = np.diag((n * (c * N)).sum(axis=1)) - (n * c) @ n.T
    idx = np.flatnonzero((n > 0).any(axis=1))
    if idx.size < 2:
        return 0.0, 0, 1.0
    d, V = d[idx][:-1], V[np.ix_(idx, idx)][:-1, :-1]
    stat = float(d @ np.linalg.lstsq(V, d, rcond=None)[0]) if np.any(V) else 0.0
    return stat, idx.size - 1, float(chdtrc(idx.size - 1, stat))


def spread_note(fit) -> str | None:
    """What a reader must know when the models do not credibly differ (:func:`ability_spread` above
    :data:`SPREAD_ALPHA`), else None.

    Parameters
    ----------
    fit : IRTFit
        A fit of :func:`scorio_core.items.irt.fit_irt` (its ``spread_p`` and ``model``).

    Returns
    -------
    str or None
        One sentence: the test's p-value, what it means for the abilities' ranks, and for a 2PL fit that its scale
        (difficulties, discriminations, the flags that use them) is set by noise; what would answer it. None with
        fewer than two answering models (nothing is compared).
    """
    p = float(getattr(fit, "spread_p", 0.0))
    answering = len(getattr(fit, "theta", ())) - len(getattr(fit, "unanswered_models", ()))
    if not p > SPREAD_ALPHA or answering < 2:  # one model: no comparison to report (engineer QA: "p = 1" on one)
        return None
    # (not "tied": a test that does not reject is weak evidence, and a pair can still differ credibly; QA found the
    # Leaderboard's 95.9% lead beside "read their abilities as tied")
    text = (f"A test of equal abilities does not find the models' success rates to credibly differ question by question "
            f"(Cochran-Mantel-Haenszel, p = {p:.2g}): read small differences between their abilities as noise (the "
            "Leaderboard and Compare give each pair's probability)")
    if fit.model == "2pl":
        text += ("; the 2PL scale, which puts the abilities at mean square 1, is then set by noise, so the difficulties, "
                 "discriminations and the flags that use them (low_information, possibly_mislabeled) say little. "
                 "The Rasch fit does not depend on that scale")
    return text + ". More questions or trials per question would show whether the models differ."
