"""Ranking with uncertainty: competition ranks, credible-interval ties, rho, rank posteriors.

Hariri, Samandar, Hinczewski & Chaudhary (2026), "Don't Pass@k: A Bayesian Framework for
Large Language Model Evaluation", ICLR 2026, arXiv:2510.04265: section 2.5 (ranking
confidence rho), section 2.7.1 and Table 1 (ranking with credible-interval ties), Appendix
I.1 (Kendall's tau_b). numpy/scipy only. The rank posterior by Dirichlet sampling is
:mod:`scorio_core.ranking.posterior_ranks` and Kendall's tau_b :mod:`scorio_core.ranking.kendall` (both
re-exported here).

Conventions: a higher score is better and gets a lower (better) rank; the tie ``z`` for
ranking is one-sided, ``Phi^{-1}(confidence)`` (1.645 at 0.95, paper 2.7.1); credible
intervals are two-sided central (1.96 at 0.95).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy.special import ndtr, ndtri

from scorio_core.choices import DEFAULT_TIE_RULE, TIE_RULE_HELP, TIE_RULES
from scorio_core.eval._validate import check_confidence, real_vector
from scorio_core.eval.ranking import competition_ranks_from_scores
from scorio_core.ranking.kendall import kendall_tau_b
from scorio_core.ranking.posterior_ranks import posterior_rank_distribution
from scorio_core.ranking.rank_words import rank_meaning, tie_rule_sentence

__all__ = [
    "TIE_RULES",
    "DEFAULT_TIE_RULE",
    "TIE_RULE_HELP",
    "tie_rule_sentence",
    "rank_meaning",
    "pairwise_ranks",
    "paper_chains",
    "competition_ranks",
    "competition_ranks_from_scores",
    "ranks_with_ties",
    "pairwise_confidence",
    "posterior_rank_distribution",
    "kendall_tau_b",
]


#: Competition ranks from scores (re-export of :func:`scorio_core.eval.competition_ranks_from_scores`).
competition_ranks = competition_ranks_from_scores


# --------------------------------------------------------------------------- validation
def _mu_sigma(mu: object, sigma: object) -> tuple[np.ndarray, np.ndarray]:
    mu_a = real_vector(mu, "mu")
    sigma_a = real_vector(sigma, "sigma")
    if sigma_a.shape != mu_a.shape:
        raise ValueError(f"sigma must have one entry per model (L={mu_a.size}); got {sigma_a.size}.")
    if np.any(sigma_a < 0):
        raise ValueError(f"sigma must be >= 0; got {float(sigma_a.min())}.")
    return mu_a, sigma_a


def _sides(mu: object, sigma: object, sigma_up: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(mu, spread below, spread above)``: ``sigma_up`` None is ``sigma`` (a symmetric posterior)."""
    mu_a, down = _mu_sigma(mu, sigma)
    return (mu_a, down, down) if sigma_up is None else (mu_a, down, _mu_sigma(mu_a, sigma_up)[1])


def ranks_with_ties(mu, sigma, confidence: float = 0.95, rule: str = DEFAULT_TIE_RULE, tol: float = 1e-12,
                    sigma_up=None) -> np.ndarray:
    r"""Ranks of L models from posterior means and standard deviations, with uncertainty ties.

    Parameters
    ----------
    mu : array-like of float, shape (L,)
        Posterior means (higher is better), e.g. Bayes@N ``mu`` of each model.
    sigma : array-like of float, shape (L,)
        Posterior standard deviations, ``>= 0``, same units as ``mu``.
    confidence : float, default 0.95
        Confidence level in (0, 1).
    rule : {"pairwise", "paper", "upper-bound", "none"}, default "pairwise"
        The default is ``DEFAULT_TIE_RULE``, the leaderboard's and the CLI's, so ranks recomputed
        from a leaderboard's ``mu``/``sigma`` match its ``rank_ci``.
        ``"pairwise"``: ``1 +`` the number of models B with ``P(mu_B > mu_A) >= confidence``
        under the normal approximation of :func:`pairwise_confidence` (and a mean above A's
        by more than ``tol``); see :func:`pairwise_ranks`.
        ``"paper"`` (section 2.7.1): order models by ``mu`` (highest first); two
        *consecutive* models share a rank when
        ``z = |mu_a - mu_b| / sqrt(sigma_a^2 + sigma_b^2) < Phi^{-1}(confidence)``
        (one-sided, 1.645 at 0.95); shared ranks chain and ranks are dense over the chained
        groups (Table 1, "Bayes@80 (w/ CI)": 1 2 2 3 3 4 5 5 5 6 7).
        ``"upper-bound"`` (public arenas): ``1 +`` the number of models whose two-sided
        central credible interval ``mu +/- Phi^{-1}(1/2 + confidence/2) sigma`` lies
        entirely above this model's interval (its lower end above this upper end).
        ``"none"``: competition ranks of ``mu`` ("1224").
    tol : float, default 1e-12
        Means within ``tol`` are equal (tied under every rule).
    sigma_up : array-like of float, shape (L,), optional
        A skewed posterior's spread above its mean, ``sigma`` then being the spread below: a pair is compared with
        the higher model's ``sigma`` and the lower model's ``sigma_up`` (an interval's lower end is ``mu - z sigma``,
        its upper end ``mu + z sigma_up``). Default: ``sigma`` (symmetric), the formulas above.
        :func:`scorio_core.uncertainty.fallback.comparison_sds` gives both for leaderboard rows.

    Returns
    -------
    ndarray of int64, shape (L,)
        Rank of each model in input order, 1 = best.

    Raises
    ------
    TypeError
        Non-numeric ``mu``/``sigma``/``confidence`` or a non-string ``rule``.
    ValueError
        Shapes differ, NaN/infinite values, negative ``sigma``, ``confidence`` outside
        (0, 1), or an unknown ``rule``.

    Notes
    -----
    Under ``"paper"``, models with equal means (within ``tol``) share a rank, and two
    consecutive groups of equal means are compared with the largest sigma of each group
    (the most cautious of the possible adjacent pairs), which makes the ranks independent
    of the input order. Two models with ``sigma = 0`` and different means never tie.
    ``"upper-bound"`` ranks are not monotone in ``mu``: a model with a wide interval can
    out-rank one with a higher mean and a narrow interval.
    ``"paper"`` ranks depend on the chain of neighbours: A~B and B~C tie all three even if
    A and C are separable, as in the paper's Table 1.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.7.1, Table 1.

    Examples
    --------
    >>> mu = [0.70, 0.62, 0.61, 0.45]
    >>> sigma = [0.01, 0.01, 0.01, 0.01]
    >>> ranks_with_ties(mu, sigma).tolist()          # pairwise: P(0.62 > 0.61) = 0.76 < 0.95
    [1, 2, 2, 4]
    >>> ranks_with_ties(mu, sigma, rule="paper").tolist()  # z(0.62, 0.61) = 0.71 < 1.645
    [1, 2, 2, 3]
    >>> ranks_with_ties(mu, sigma, rule="none").tolist()
    [1, 2, 3, 4]
    >>> ranks_with_ties(mu, sigma, rule="upper-bound").tolist()
    [1, 2, 2, 4]
    """
    mu_a, sigma_a, up_a = _sides(mu, sigma, sigma_up)
    confidence = check_confidence(confidence)
    if not isinstance(rule, str):
        raise TypeError(f"rule must be a string, one of {', '.join(TIE_RULES)}; got {rule!r}.")
    if rule not in TIE_RULES:
        raise ValueError(f"rule must be one of {', '.join(TIE_RULES)}; got {rule!r}.")
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, Real):
        raise TypeError(f"tol must be a real number; got {tol!r}.")
    if not tol >= 0:
        raise ValueError(f"tol must be >= 0; got tol={tol}.")
    if rule == "none":
        return competition_ranks_from_scores(mu_a, tol=tol)
    if rule == "pairwise":
        return _pairwise_ranks(mu_a, sigma_a, confidence, tol, up_a)
    if rule == "upper-bound":
        z = float(ndtri(0.5 + 0.5 * confidence))
        lo, hi = mu_a - z * sigma_a, mu_a + z * up_a
        above = (lo[None, :] > hi[:, None]) & (mu_a[None, :] - mu_a[:, None] > tol)
        return 1 + above.sum(axis=1).astype(np.int64)
    z_threshold = float(ndtri(confidence))
    order = np.argsort(-mu_a, kind="stable")
    m, s, s_up = mu_a[order], sigma_a[order], up_a[order]
    # blocks of equal means (within tol) tie outright; consecutive blocks are compared with
    # the largest sigma of each block, so the result does not depend on the input order
    new_block = np.concatenate(([True], m[:-1] - m[1:] > tol))
    starts = np.flatnonzero(new_block)
    block_sigma, block_up = np.maximum.reduceat(s, starts), np.maximum.reduceat(s_up, starts)
    gap = m[starts[1:] - 1] - m[starts[1:]]
    denom = np.sqrt(block_sigma[:-1] ** 2 + block_up[1:] ** 2)  # the higher block's spread below, the lower's above
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(denom > 0, gap / np.where(denom > 0, denom, 1.0), np.inf)
    block_rank = 1 + np.concatenate(([0], np.cumsum(z >= z_threshold)))
    ranks = np.empty(mu_a.size, dtype=np.int64)
    ranks[order] = block_rank[np.cumsum(new_block) - 1]
    return ranks


def pairwise_confidence(mu, sigma, sigma_up=None) -> np.ndarray:
    r"""Probability that model i performs better than model j, for every ordered pair.

    Parameters
    ----------
    mu : array-like of float, shape (L,)
        Posterior means.
    sigma : array-like of float, shape (L,)
        Posterior standard deviations (``>= 0``).
    sigma_up : array-like of float, shape (L,), optional
        Spread above the mean where it differs from the spread below (``sigma``): the pair's denominator is then
        ``sqrt(sigma_hi^2 + sigma_up_lo^2)`` (the higher model's spread below, the lower model's above), as in
        :func:`ranks_with_ties`. Default ``sigma``.

    Returns
    -------
    ndarray of float, shape (L, L)
        ``rho[i, j] = (1 + erf(z_ij / sqrt 2)) / 2`` with the *signed*
        ``z_ij = (mu_i - mu_j) / sqrt(sigma_i^2 + sigma_j^2)``; ``rho[i, j] + rho[j, i] = 1``
        and ``rho[i, i] = 0.5``. When both sigmas are 0: 1, 0 or 0.5 by the sign of
        ``mu_i - mu_j``.

    Raises
    ------
    TypeError, ValueError
        As :func:`ranks_with_ties` for ``mu`` and ``sigma``.

    Notes
    -----
    Normal approximation of the posterior of the difference (section 2.5): for large M the
    posterior of each model's metric is ``N(mu, sigma^2)``, the difference is
    ``N(mu_i - mu_j, sigma_i^2 + sigma_j^2)``, and ``rho = P(difference > 0)``. The paper's
    ranking confidence uses ``|z|``; the signed form gives both directions of every pair.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.5.

    Examples
    --------
    >>> rho = pairwise_confidence([0.6213, 0.608], [0.0117, 0.0117])   # z = 0.8038
    >>> round(float(rho[0, 1]), 4), round(float(rho[1, 0]), 4)
    (0.7892, 0.2108)
    """
    mu_a, sigma_a, up_a = _sides(mu, sigma, sigma_up)
    diff = mu_a[:, None] - mu_a[None, :]
    above = diff >= 0  # i above j: i's spread below and j's above; else the reverse (the same for both orders)
    denom = np.sqrt(np.where(above, sigma_a[:, None] ** 2 + up_a[None, :] ** 2, up_a[:, None] ** 2 + sigma_a[None, :] ** 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = diff / np.where(denom > 0, denom, 1.0)
    rho = np.where(denom > 0, ndtr(z), 0.5 * (1.0 + np.sign(diff)))
    np.fill_diagonal(rho, 0.5)
    return rho


#: Candidate pairs evaluated per vectorized chunk in :func:`pairwise_ranks`.
_PAIR_CHUNK = 4_000_000


def _pairwise_ranks(mu: np.ndarray, down: np.ndarray, confidence: float, tol: float, sigma: np.ndarray) -> np.ndarray:
    z = float(ndtri(confidence))
    count = np.zeros(mu.size, dtype=np.int64)
    if mu.size == 0:
        return count + 1
    # B counts for A iff m_B - m_A > tol and m_B - m_A >= z sqrt(s_A^2 + s_B^2), with s_A A's spread above (``sigma``)
    # and s_B B's spread below (``down``): the same array for a symmetric posterior. Models B are
    # grouped by sigma (quantile groups); within a group s_lo <= s_B <= s_hi, so for every A
    # the B above hi = m_A + z sqrt(s_A^2 + s_hi^2) count, those below lo = m_A + z sqrt(s_A^2 + s_lo^2)
    # do not (z >= 0; reversed for z < 0), and only the band between needs the exact test.
    # searchsorted per group: O(G L log L) plus the (narrow) bands, never an L x L matrix.
    by_sigma = np.argsort(down, kind="stable")
    n_groups = int(min(64, max(1, mu.size // 64)))
    for members in np.array_split(by_sigma, n_groups):
        if members.size == 0:
            continue
        order = members[np.argsort(mu[members], kind="stable")]
        m_g, s_g = mu[order], down[order]
        r1 = z * np.sqrt(sigma**2 + float(s_g.min()) ** 2)
        r2 = z * np.sqrt(sigma**2 + float(s_g.max()) ** 2)
        lo = mu + np.maximum(np.minimum(r1, r2), 0.0)
        hi = mu + np.maximum(np.maximum(r1, r2), 0.0)
        strict = np.searchsorted(m_g, mu + tol, side="right")  # first B with m_B > m_A + tol
        start = np.maximum(np.searchsorted(m_g, lo, side="left"), strict)
        stop = np.maximum(np.searchsorted(m_g, hi, side="left"), start)
        count += (m_g.size - stop).astype(np.int64)  # beyond the band: certainly credible
        width = stop - start
        rows = np.flatnonzero(width)
        if rows.size == 0:
            continue
        cum = np.cumsum(width[rows])
        edges = np.searchsorted(cum, np.arange(_PAIR_CHUNK, int(cum[-1]), _PAIR_CHUNK), side="left")
        for part in np.split(rows, edges + 1) if edges.size else [rows]:
            if part.size == 0:
                continue
            a = np.repeat(part, width[part])
            offsets = np.arange(a.size) - np.repeat(np.cumsum(width[part]) - width[part], width[part])
            b = start[a] + offsets
            ok = m_g[b] - mu[a] >= z * np.sqrt(sigma[a] ** 2 + s_g[b] ** 2)
            count += np.bincount(a[ok], minlength=mu.size).astype(np.int64)
    return 1 + count


def pairwise_ranks(mu, sigma, confidence: float = 0.95, tol: float = 1e-12) -> np.ndarray:
    r"""Ranks that discriminate: ``1 +`` the number of models credibly better than each model.

    Parameters
    ----------
    mu, sigma : array-like of float, shape (L,)
        Posterior means and standard deviations (same units).
    confidence : float, default 0.95
        A model B counts as better than A when ``P(mu_B > mu_A) >= confidence``, with
        ``P = Phi((mu_B - mu_A) / sqrt(sigma_A^2 + sigma_B^2))`` (normal approximation,
        paper section 2.5, as :func:`pairwise_confidence`), and ``mu_B > mu_A + tol``.
    tol : float, default 1e-12
        Means within ``tol`` never out-rank each other.

    Returns
    -------
    ndarray of int64, shape (L,)

    Raises
    ------
    TypeError, ValueError
        As :func:`ranks_with_ties`.

    Notes
    -----
    Unlike the paper's chain rule, two models share a rank only if neither is credibly better
    than the other *and* the same number of models is credibly better than each; models far
    apart never share a rank through a chain of neighbours. Ranks are not always monotone in
    ``mu`` (a model with a wide interval can have fewer models credibly above it).
    Cost: models are grouped by sigma (up to 64 quantile groups); per group one
    ``searchsorted`` of every mean, plus the exact test of the pairs inside a band of width
    ``z (sqrt(sigma_A^2 + s_hi^2) - sqrt(sigma_A^2 + s_lo^2))`` (narrow: the group's sigma range),
    vectorized in bounded chunks; never an L x L matrix.

    Examples
    --------
    >>> pairwise_ranks([0.70, 0.62, 0.61, 0.45], [0.01] * 4).tolist()
    [1, 2, 2, 4]
    >>> pairwise_ranks([0.50, 0.48, 0.46, 0.44], [0.01] * 4).tolist()   # paper: all share rank 1
    [1, 1, 2, 3]
    """
    return ranks_with_ties(mu, sigma, confidence, rule="pairwise", tol=tol)


def paper_chains(mu, sigma, confidence: float = 0.95, tol: float = 1e-12, sigma_up=None) -> list[tuple[int, int]]:
    """Groups that the paper's chain rule ties although their ends are credibly different.

    Parameters
    ----------
    mu, sigma : array-like of float, shape (L,)
    confidence : float, default 0.95
    tol : float, default 1e-12
    sigma_up : array-like of float, shape (L,), optional
        As :func:`ranks_with_ties` (spread above the mean; default ``sigma``).

    Returns
    -------
    list of (best, worst) index pairs
        For every rank group of ``ranks_with_ties(..., rule="paper")`` whose best and worst
        members (by mean) satisfy ``P(best > worst) >= confidence``: the indices of those two
        models (input order). Empty when the paper rule never chains credibly different models.

    Examples
    --------
    >>> paper_chains([0.50, 0.48, 0.46, 0.44], [0.01] * 4)
    [(0, 3)]
    """
    mu_a, sigma_a, up_a = _sides(mu, sigma, sigma_up)
    ranks = ranks_with_ties(mu_a, sigma_a, confidence, rule="paper", tol=tol, sigma_up=up_a)
    z = float(ndtri(confidence))
    out = []
    order = np.lexsort((-mu_a, ranks))
    r_sorted = ranks[order]
    starts = np.flatnonzero(np.concatenate(([True], r_sorted[1:] != r_sorted[:-1])))
    ends = np.concatenate((starts[1:], [r_sorted.size])) - 1
    for first, last in zip(order[starts].tolist(), order[ends].tolist()):
        gap = mu_a[first] - mu_a[last]
        if first != last and gap > tol and gap >= z * np.hypot(sigma_a[first], up_a[last]):
            out.append((first, last))
    return out
