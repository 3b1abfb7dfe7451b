"""Sequential rating systems of ``scorio.rank``: elo, glicko, trueskill.

Every (question, trial) event, trials outer and questions inner, is one round of head-to-head matches between
all model pairs (a pair whose outcomes are equal is a draw or skipped, by ``tie_handling``); every match of a
round is computed from the ratings at the round's start and the round's updates are added together. Source: the
reference package scorio 0.2.3 (``scorio.rank.elo``, ``glicko``, ``trueskill``); same arithmetic in the same
order (each model's per-match increments are summed in opponent order by a cumulative sum), hence the same
ratings, ranks and errors. The loop is over rounds only; each round's matches are vectorised over model pairs.
"""

from __future__ import annotations

import numpy as np
from scipy.special import erfcx, log_ndtr
from scipy.stats import truncnorm

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["elo", "glicko", "trueskill"]

_TIE_POLICIES = {"skip", "draw", "correct_draw_only"}


def _tie_policy(tie_handling) -> str:
    policy = str(tie_handling)
    if policy not in _TIE_POLICIES:
        raise ValueError('tie_handling must be one of: "skip", "draw", "correct_draw_only"')
    return policy


def _rounds(R: np.ndarray, policy: str):
    """``(events, i, j, active, first_wins, draw)``: events (N * M, L) in the reference's order; pairs i < j
    row-major; per event and pair, whether a match is played, won by i, or drawn."""
    L, M, N = R.shape
    events = R.transpose(2, 1, 0).reshape(N * M, L)
    i, j = np.triu_indices(L, 1)
    oi, oj = events[:, i], events[:, j]
    draw = oi == oj
    active = ~draw if policy == "skip" else (np.ones_like(draw) if policy == "draw" else ~draw | (oi == 1))
    return events, i, j, active, oi > oj, draw


def _sum_in_order(L: int, flat_i: np.ndarray, flat_j: np.ndarray, to_i: np.ndarray, to_j: np.ndarray) -> np.ndarray:
    """Per model, its increments ``to_i`` (as the pair's first model) and ``to_j`` summed in opponent order."""
    D = np.zeros(L * L)
    D[flat_i] = to_i
    D[flat_j] = to_j
    return np.cumsum(D.reshape(L, L), axis=1)[:, -1]  # sequential, as the reference's loop (x + 0.0 == x)


def _pow10(x: np.ndarray) -> np.ndarray:
    """``10.0 ** x`` element by element, bit-identical to the C library's pow on the reference's scalars.

    ``np.float_power`` runs the C library's ``pow`` on float64 (``np.power`` takes a SIMD path that differs in
    the last bit on ~5% of inputs on AVX-512 machines); an overflow is ``inf``, as the reference's numpy scalars give.
    """
    with np.errstate(over="ignore"):
        return np.float_power(10.0, x)


def _sq(x: np.ndarray) -> np.ndarray:
    """``x ** 2`` as the C library's pow on the reference's scalars (``x * x`` differs in the last bit on about
    0.1% of inputs; ``np.float_power`` calls that pow); an overflow is ``inf``, as on the reference's scalars."""
    with np.errstate(over="ignore"):
        return np.float_power(x, 2.0)


def elo(R, K: float = 32.0, initial_rating: float = 1500.0, tie_handling: str = "correct_draw_only",
        method: str = "competition", return_scores: bool = False):
    """Rank models by Elo ratings updated round by round on the induced pairwise matches.

    Match (i, j), i < j: ``E_i = 1 / (1 + 10^((r_j - r_i) / 400))``, ``E_j = 1 - E_i``; ``r_i += K (S_i - E_i)``,
    ``r_j += K (S_j - E_j)`` with ``S`` 1 / 0 for a win / loss and 1/2 for a draw.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    K : float, default 32.0
        Positive step size.
    initial_rating : float, default 1500.0
    tie_handling : {"correct_draw_only", "draw", "skip"}, default "correct_draw_only"
        Equal outcomes: a draw if both are right (``"correct_draw_only"``) or always (``"draw"``), else skipped.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
        Also return the final ratings.

    Returns
    -------
    ndarray, shape (L,), or (ranks, ratings)

    Raises
    ------
    ValueError
        ``R``, ``K``, ``initial_rating`` or ``tie_handling`` invalid (in that order, the reference's messages).
    """
    R = validate_input(R)
    L = R.shape[0]
    K = float(K)
    if not np.isfinite(K) or K <= 0.0:
        raise ValueError(f"K must be a positive finite scalar; got {K}")
    initial_rating = float(initial_rating)
    if not np.isfinite(initial_rating):
        raise ValueError("initial_rating must be finite.")
    events, i, j, active, first_wins, draw = _rounds(R, _tie_policy(tie_handling))
    S = np.where(draw, 0.5, first_wins.astype(float))
    ratings = np.full(L, initial_rating)
    for e in np.flatnonzero(active.any(axis=1)):
        a = np.flatnonzero(active[e])
        I, J = i[a], j[a]
        E = 1.0 / (1.0 + _pow10((ratings[J] - ratings[I]) / 400.0))
        s = S[e, a]
        ratings += _sum_in_order(L, I * L + J, J * L + I, K * (s - E), K * ((1.0 - s) - (1.0 - E)))
    return rank_with(ratings, method, return_scores)


def glicko(R, initial_rating: float = 1500.0, initial_rd: float = 350.0, c: float = 0.0, rd_max: float = 350.0,
           tie_handling: str = "correct_draw_only", return_deviation: bool = False, method: str = "competition",
           return_scores: bool = False):
    """Rank models by Glicko ratings; each (question, trial) event is one rating period.

    With ``q = ln 10 / 400``, ``g(RD) = (1 + 3 q^2 RD^2 / pi^2)^(-1/2)`` and, for model i against its opponents j
    of the period, ``E_ij = 1 / (1 + 10^(-g(RD_j) (r_i - r_j) / 400))``:
    ``1 / RD_i'^2 = 1 / RD_i^2 + q^2 sum_j g(RD_j)^2 E_ij (1 - E_ij)`` and
    ``r_i' = r_i + q RD_i'^2 sum_j g(RD_j) (S_ij - E_ij)``. ``RD`` is inflated by ``c`` at the start of every
    period and capped at ``rd_max``; a model without matches in a period keeps its rating.

    Parameters
    ----------
    R, tie_handling, method
        As :func:`elo`.
    initial_rating : float, default 1500.0
    initial_rd : float, default 350.0
        Positive.
    c : float, default 0.0
        Non-negative RD inflation per period.
    rd_max : float, default 350.0
        Positive cap of RD.
    return_deviation : bool, default False
        Return ``(ranks, ratings, rd)`` (whatever ``return_scores``).
    return_scores : bool, default False
        Also return the final ratings.

    Returns
    -------
    ndarray, shape (L,), or (ranks, ratings), or (ranks, ratings, rd)

    Raises
    ------
    ValueError
        ``R``, ``initial_rating``, ``initial_rd``, ``rd_max``, ``c`` or ``tie_handling`` invalid (in that order).
    """
    R = validate_input(R)
    L = R.shape[0]
    initial_rating, initial_rd = float(initial_rating), float(initial_rd)
    if not np.isfinite(initial_rating):
        raise ValueError("initial_rating must be finite.")
    if not np.isfinite(initial_rd) or initial_rd <= 0:
        raise ValueError("initial_rd must be > 0 and finite.")
    rd_max = float(rd_max)
    if not np.isfinite(rd_max) or rd_max <= 0:
        raise ValueError("rd_max must be > 0 and finite.")
    c = float(c)
    if not np.isfinite(c) or c < 0:
        raise ValueError("c must be >= 0 and finite.")
    policy = _tie_policy(tie_handling)
    rating = np.full(L, initial_rating)
    rd = np.full(L, min(initial_rd, rd_max))
    q = float(np.log(10.0) / 400.0)
    g_factor = 3.0 * (q**2)
    others = np.array([[k for k in range(L) if k != m] for m in range(L)]).reshape(L, L - 1)
    events = R.transpose(2, 1, 0).reshape(-1, L)
    for o in events:
        if c > 0:
            rd = np.minimum(np.sqrt(rd**2 + c**2), rd_max)
        right, wrong = np.flatnonzero(o == 1), np.flatnonzero(o == 0)
        # (players, opponents (k, n), scores (k, n)) per group sharing an opponent pattern, opponents ascending
        if policy == "draw":
            groups = [(np.arange(L), others, np.where(o[:, None] > o[others], 1.0,
                                                       np.where(o[:, None] < o[others], 0.0, 0.5)))]
        else:
            groups = [(wrong, np.broadcast_to(right, (wrong.size, right.size)), 0.0)]
            if policy == "skip":
                groups.append((right, np.broadcast_to(wrong, (right.size, wrong.size)), 1.0))
            else:
                groups.append((right, others[right], np.where(o[others[right]] == 1, 0.5, 1.0)))
        g = 1.0 / np.sqrt(1.0 + (g_factor * (rd**2)) / (np.pi**2))
        new_rating, new_rd = rating.copy(), rd.copy()
        for players, opp, s in groups:
            if players.size == 0 or opp.shape[1] == 0:
                continue
            g_opp = g[opp]
            E = 1.0 / (1.0 + 10.0 ** (-(g_opp * (rating[players][:, None] - rating[opp]) / 400.0)))
            denom = np.sum((g_opp**2) * E * (1.0 - E), axis=1)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                d2 = 1.0 / ((q**2) * denom)
                inv_var = (1.0 / _sq(rd[players])) + (1.0 / d2)
            ok = (denom > 0) & np.isfinite(denom) & (inv_var > 0) & np.isfinite(inv_var)
            delta = np.sum(g_opp * (s - E), axis=1)
            upd = players[ok]
            new_rd[upd] = np.clip(np.sqrt(1.0 / inv_var[ok]), 1e-12, rd_max)
            new_rating[upd] = rating[upd] + (q / inv_var[ok]) * delta[ok]
        rating, rd = new_rating, new_rd
    ranking = rank_with(rating, method, False)
    if return_deviation:
        return ranking, rating, rd
    return (ranking, rating) if return_scores else ranking


def _win_corrections(t: np.ndarray, epsilon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TrueSkill's ``(v, w)`` for a win: an asymptotic series below -10, erfcx below 0, log_ndtr above."""
    x = np.asarray(t - epsilon, dtype=float)
    v, w = np.empty_like(x), np.empty_like(x)
    tail, mid = x < -10.0, (x >= -10.0) & (x < 0.0)
    upper = ~(tail | mid)
    y = -x[tail]
    iy = 1.0 / y
    iy2 = iy * iy
    v[tail] = y + iy * (1.0 + iy2 * (-2.0 + iy2 * (10.0 + iy2 * (-74.0))))
    w[tail] = 1.0 + iy2 * (-1.0 + iy2 * (6.0 + iy2 * (-50.0)))
    xm = x[mid]
    v[mid] = np.sqrt(2.0 / np.pi) / erfcx(-xm / np.sqrt(2.0))
    w[mid] = v[mid] * (v[mid] + xm)
    xu = x[upper]
    v[upper] = np.exp(-0.5 * xu * xu - 0.5 * np.log(2.0 * np.pi) - log_ndtr(xu))
    w[upper] = v[upper] * (v[upper] + xu)
    return v, np.clip(w, 0.0, 1.0)


def _draw_fallback(a: float, b: float) -> tuple[float, float]:
    """The reference's closed forms when truncnorm's moments are not finite."""
    reflected = b < 0.0
    lower, upper = (-b, -a) if reflected else (a, b)
    if lower <= 0.0:
        return 0.0, 0.0
    width = upper - lower
    scaled = lower * width
    if scaled > 50.0:
        tv, tw = _win_corrections(np.array([-lower]), np.array([0.0]))
        v, variance = float(tv[0]), 1.0 - float(tw[0])
    elif scaled < 1e-4:
        variance = width * width / 12.0
        v = lower + width * (0.5 - scaled / 12.0)
    else:
        den = np.expm1(scaled)
        variance = 1.0 / (lower * lower) - width * width * np.exp(scaled) / (den * den)
        v = lower + (1.0 / lower - width / den)
    return (-v if reflected else v), float(np.clip(1.0 - variance, 0.0, 1.0))


def _draw_corrections(t: np.ndarray, epsilon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TrueSkill's ``(v, w)`` for a draw: the mean and 1 - variance of the standard normal truncated to
    ``[-epsilon - t, epsilon - t]`` (the conditional limit ``(-t, 1)`` for a zero-width margin)."""
    v, w = -t.astype(float), np.ones_like(t, dtype=float)
    wide = epsilon > np.sqrt(np.finfo(float).eps) * (1.0 + np.abs(t))
    a, b = -epsilon - t, epsilon - t
    flat = wide & (a < -10.0) & (b > 10.0)
    v[flat], w[flat] = 0.0, 0.0
    k = np.flatnonzero(wide & ~flat)
    if k.size:
        with np.errstate(all="ignore"):
            mean, var = truncnorm.stats(a[k], b[k], moments="mv")
        mean, var = np.asarray(mean, dtype=float).reshape(-1), np.asarray(var, dtype=float).reshape(-1)
        v[k], w[k] = mean, np.clip(1.0 - var, 0.0, 1.0)
        for n in np.flatnonzero(~np.isfinite(mean) | ~np.isfinite(var) | (var < 0.0)):
            v[k[n]], w[k[n]] = _draw_fallback(float(a[k[n]]), float(b[k[n]]))
    return v, w


def trueskill(R, mu_initial: float = 25.0, sigma_initial: float = 25.0 / 3, beta: float = 25.0 / 6,
              tau: float = 25.0 / 300, method: str = "competition", return_scores: bool = False,
              tie_handling: str = "skip", draw_margin: float = 0.0):
    """Rank models by the mean skill of two-player TrueSkill updates, combined per round in natural parameters.

    Match (i, j): ``c = sqrt(2 beta^2 + sigma_i^2 + sigma_j^2)``; the winner's mean moves up by
    ``sigma^2 / c v``, the loser's down, and each ``sigma^2`` shrinks by the factor ``1 - sigma^2 / c^2 w``
    (``v``, ``w``: the truncated-Gaussian corrections of a win or of a draw within ``draw_margin``). A round's
    pairwise posteriors are combined as Gaussian sites on the round's prior; ``sigma^2`` grows by ``tau^2``
    after every trial.

    Parameters
    ----------
    R, method
        As :func:`elo`.
    mu_initial : float, default 25.0
    sigma_initial : float, default 25 / 3
        Positive.
    beta : float, default 25 / 6
        Positive performance noise.
    tau : float, default 25 / 300
        Non-negative dynamics.
    return_scores : bool, default False
        Also return the final means.
    tie_handling : {"skip", "draw", "correct_draw_only"}, default "skip"
    draw_margin : float, default 0.0
        Non-negative.

    Returns
    -------
    ndarray, shape (L,), or (ranks, mu)

    Raises
    ------
    ValueError
        ``R``, ``mu_initial``, ``sigma_initial``, ``beta``, ``tau``, ``draw_margin`` or ``tie_handling`` invalid
        (in that order, the reference's messages).
    """
    R = validate_input(R)
    L, M, N = R.shape
    mu_initial, sigma_initial, beta = float(mu_initial), float(sigma_initial), float(beta)
    tau, draw_margin = float(tau), float(draw_margin)
    if not np.isfinite(mu_initial):
        raise ValueError("mu_initial must be finite.")
    if not np.isfinite(sigma_initial) or sigma_initial <= 0.0:
        raise ValueError("sigma_initial must be a positive finite scalar.")
    if not np.isfinite(beta) or beta <= 0.0:
        raise ValueError("beta must be a positive finite scalar.")
    if not np.isfinite(tau) or tau < 0.0:
        raise ValueError("tau must be a nonnegative finite scalar.")
    if not np.isfinite(draw_margin) or draw_margin < 0.0:
        raise ValueError("draw_margin must be a nonnegative finite scalar.")
    events, i, j, active, first_wins, draw = _rounds(R, _tie_policy(tie_handling))
    mu, sigma = np.full(L, mu_initial), np.full(L, sigma_initial)
    two_beta2 = 2 * beta**2  # Python's float pow, as the reference
    for e in range(N * M):
        var = sigma**2
        a = np.flatnonzero(active[e])
        inc_prec = inc_nat = 0.0
        if a.size:
            I, J = i[a], j[a]
            si, sj, mi, mj = sigma[I], sigma[J], mu[I], mu[J]
            sig2 = _sq(sigma)
            si2, sj2 = sig2[I], sig2[J]
            c = np.sqrt(two_beta2 + si2 + sj2)
            eps = draw_margin / c
            d, fw = draw[e, a], first_wins[e, a]
            dec = ~d
            mu_i, mu_j = np.empty(a.size), np.empty(a.size)
            wv = np.empty(a.size)
            if dec.any():  # winner w, loser l: t = (mu_w - mu_l) / c, mu_w += sigma_w^2 / c v, mu_l -= sigma_l^2 / c v
                mw, ml = np.where(fw, mi, mj)[dec], np.where(fw, mj, mi)[dec]
                sw2, sl2, cd = np.where(fw, si2, sj2)[dec], np.where(fw, sj2, si2)[dec], c[dec]
                v, wv[dec] = _win_corrections((mw - ml) / cd, eps[dec])
                new_w, new_l = mw + (sw2 / cd) * v, ml - (sl2 / cd) * v
                fwd = fw[dec]
                mu_i[dec], mu_j[dec] = np.where(fwd, new_w, new_l), np.where(fwd, new_l, new_w)
            if d.any():
                cd = c[d]
                v, wv[d] = _draw_corrections((mi[d] - mj[d]) / cd, eps[d])
                mu_i[d], mu_j[d] = mi[d] + (si2[d] / cd) * v, mj[d] - (sj2[d] / cd) * v
            c2 = _sq(c)
            var_i = _sq(si * np.sqrt(np.maximum(1 - (si2 / c2) * wv, 1e-12)))
            var_j = _sq(sj * np.sqrt(np.maximum(1 - (sj2 / c2) * wv, 1e-12)))
            fi, fj = I * L + J, J * L + I
            inc_prec = _sum_in_order(L, fi, fj, 1.0 / var_i - 1.0 / var[I], 1.0 / var_j - 1.0 / var[J])
            inc_nat = _sum_in_order(L, fi, fj, mu_i / var_i - mi / var[I], mu_j / var_j - mj / var[J])
        precision = 1.0 / var + inc_prec
        mu = (mu / var + inc_nat) / precision
        sigma = np.sqrt(1.0 / precision)
        if (e + 1) % M == 0:  # end of a trial: skill drift
            sigma = np.sqrt(sigma**2 + tau**2)
    return rank_with(mu, method, return_scores)
