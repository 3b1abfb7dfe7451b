"""Many IRT fits at once: the abilities of every bootstrap resample from one batched Newton solve.

:func:`irt_abilities_batch` runs :func:`scorio_core.items.irt.fit_irt`'s steps on a stack of ``B`` count tables
(the resamples of the Method agreement view's rank intervals) with a leading batch axis instead of a Python loop
over the tables: the first fit under :data:`~scorio_core.items.priors.PRIORS`, the difficulty prior's SD estimated
from it (:func:`~scorio_core.items.priors.difficulty_prior_sd`, from the Laplace standard errors given the
abilities' scale), the refit under that prior, the 2PL mode put on the abilities' scale
(:func:`~scorio_core.items.priors.ability_scale`) and models with identical counts (or abilities a few ulps apart)
made exactly equal. The Newton steps are :mod:`scorio_core.items._newton`'s (observed information, the Fisher
information where it is not positive definite, halving line search with the Armijo condition, the same stopping
rules), taken by every unconverged table at once; a table that has converged stops moving. The abilities equal ``fit_irt``'s to the
solver's tolerance (sums in a different order change the last bits; tested against one fit per table).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from scorio_core.arrays.rows import close_groups, equal_rows, group_mean
from scorio_core.items._newton import _POTRF
from scorio_core.items.irt import ABILITY_TIE_ATOL
from scorio_core.items.priors import B_PRIOR_SD_BOUNDS, MIN_QUESTIONS_FOR_B_PRIOR, PRIORS

__all__ = ["irt_abilities_batch"]

_MT, _ST = PRIORS["theta"]
_MB, _SB = PRIORS["b"]
_MA, _SA = PRIORS["a"]


def _split(x, L, M, rasch):
    return x[:, :L], x[:, L:L + M], (np.ones((x.shape[0], M)) if rasch else x[:, L + M:])


def _evaluate(x, s, n, sb, rasch):
    """Negative log posterior of every table, shape (B,), and the cached ``d = theta - b`` and predictor."""
    L, M = s.shape[1:]
    theta, b, a = _split(x, L, M, rasch)
    d = theta[:, :, None] - b[:, None, :]
    eta = d if rasch else d * a[:, None, :]
    e = np.abs(eta)  # log(1 + e^eta) = max(eta, 0) + log(1 + e^-|eta|), as in _newton._evaluate
    np.negative(e, out=e)
    np.exp(e, out=e)
    e += 1.0
    np.log(e, out=e)
    f = (np.einsum("blm,blm->b", n, e) + np.einsum("blm,blm->b", n, np.maximum(eta, 0.0))
         - np.einsum("blm,blm->b", s, eta))
    f += 0.5 * (np.sum(((theta - _MT) / _ST) ** 2, axis=1) + np.sum(((b - _MB) / sb[:, None]) ** 2, axis=1))
    if not rasch:
        f += 0.5 * np.sum(((a - _MA) / _SA) ** 2, axis=1)
    return f, d, eta


def _gradient(x, d, eta, s, n, sb, rasch):
    L, M = s.shape[1:]
    theta, b, a = _split(x, L, M, rasch)
    p = expit(eta)
    r = n * p
    np.subtract(s, r, out=r)
    r_sum = r.sum(axis=1)
    g = [-np.einsum("blm,bm->bl", r, a) + (theta - _MT) / _ST**2, a * r_sum + (b - _MB) / sb[:, None] ** 2]
    if not rasch:
        g.append(-np.einsum("blm,blm->bm", r, d) + (a - _MA) / _SA**2)
    return np.concatenate(g, axis=1), p, r, r_sum


def _blocks(x, d, p, r_sum, r, n, sb, rasch, observed):
    """Information blocks ``(D, Baa, Bbb, Bab, Ca, Cb)`` (observed or expected), as :func:`_newton._hessians`."""
    L, M = n.shape[1:]
    _, _, a = _split(x, L, M, rasch)
    w = n * p * (1.0 - p)
    a2 = a * a
    D = np.einsum("blm,bm->bl", w, a2) + 1 / _ST**2
    Bbb = a2 * w.sum(axis=1) + 1 / sb[:, None] ** 2
    Cb = -w * a2[:, None, :]
    if rasch:
        return D, None, Bbb, None, None, Cb
    wd = w * d
    Baa = np.einsum("blm,blm->bm", wd, d) + 1 / _SA**2
    Bab = -a * wd.sum(axis=1)
    Ca = wd * a[:, None, :]
    if observed:
        Bab, Ca = Bab + r_sum, Ca - r
    return D, Baa, Bbb, Bab, Ca, Cb


def _schur(D, Baa, Bbb, Bab, Ca, Cb, rasch):
    """Schur complements ``S = D - C B^-1 C^T`` (B, L, L), inverse question blocks, and which tables passed the
    question blocks' positive-definiteness check (the rest get the expected information)."""
    B, L, M = Cb.shape
    if rasch:
        Ibb = 1 / Bbb
        K, inv, ok = Cb * np.sqrt(Ibb)[:, None, :], (None, Ibb, None), np.ones(B, dtype=bool)
    else:
        det = Baa * Bbb - Bab**2
        ok = ~((Baa <= 0).any(axis=1) | (det <= 1e-14 * Baa * Bbb).any(axis=1))
        det = np.where(ok[:, None], det, 1.0)  # the failing tables' blocks are replaced before use
        Iaa, Ibb, Iab = Bbb / det, Baa / det, -Bab / det
        r11 = np.sqrt(np.where(ok[:, None], Iaa, 1.0))
        K = np.concatenate([Ca * r11[:, None, :] + Cb * (Iab / r11)[:, None, :],
                            Cb / np.sqrt(Bbb)[:, None, :]], axis=2)
        inv = (Iaa, Ibb, Iab)
    S = -(K @ K.transpose(0, 2, 1))
    S[:, np.arange(L), np.arange(L)] += D
    return S, inv, ok


def _positive_definite(S: np.ndarray) -> np.ndarray:
    """Which of the symmetric matrices ``S`` (B, L, L) have a Cholesky factor."""
    finite = np.isfinite(S).all(axis=(1, 2))
    try:
        np.linalg.cholesky(S[finite])
    except np.linalg.LinAlgError:  # some fail: find which (rare: far from the mode)
        finite[finite] = [_POTRF(m, lower=1, clean=0)[1] == 0 for m in S[finite]]
    return finite


def _factored(x, d, p, r_sum, r, n, sb, rasch):
    """The observed information's Schur complement where positive definite, else the expected information's."""
    blocks = _blocks(x, d, p, r_sum, r, n, sb, rasch, observed=True)
    S, inv, ok = _schur(*blocks, rasch)
    ok[ok] = _positive_definite(S[ok])
    if not ok.all():
        fisher = _blocks(x, d, p, r_sum, r, n, sb, rasch, observed=False)
        blocks = tuple(None if o is None else np.where(ok.reshape((-1,) + (1,) * (o.ndim - 1)), o, e)
                       for o, e in zip(blocks, fisher))
        S, inv, _ = _schur(*blocks, rasch)
    return S, inv, blocks[4], blocks[5]


def _step(g, L, M, S, inv, Ca, Cb, rasch):
    Iaa, Ibb, Iab = inv
    gt, gb = g[:, :L], g[:, L:L + M]
    if rasch:
        dt = np.linalg.solve(S, -(gt - np.einsum("blm,bm->bl", Cb, Ibb * gb))[..., None])[..., 0]
        return np.concatenate([dt, -Ibb * (gb + np.einsum("blm,bl->bm", Cb, dt))], axis=1)
    ga = g[:, L + M:]
    rhs = -(gt - np.einsum("blm,bm->bl", Ca, Iaa * ga + Iab * gb) - np.einsum("blm,bm->bl", Cb, Iab * ga + Ibb * gb))
    dt = np.linalg.solve(S, rhs[..., None])[..., 0]
    ha, hb = ga + np.einsum("blm,bl->bm", Ca, dt), gb + np.einsum("blm,bl->bm", Cb, dt)
    return np.concatenate([dt, -(Iab * ha + Ibb * hb), -(Iaa * ha + Iab * hb)], axis=1)


def _newton(x, s, n, sb, rasch, tol, max_iter):
    """:func:`_newton.newton_mode` on every table at once; updates ``x`` (B, P) in place, returns converged (B,)."""
    L, M = s.shape[1:]
    converged = np.zeros(len(x), dtype=bool)
    act = np.arange(len(x))
    f, d, eta = _evaluate(x, s, n, sb, rasch)
    for _ in range(max_iter):
        if not act.size:
            break
        xa, sa, na, sba = x[act], s[act], n[act], sb[act]
        g, p, r, r_sum = _gradient(xa, d, eta, sa, na, sba, rasch)
        S, inv, Ca, Cb = _factored(xa, d, p, r_sum, r, na, sba, rasch)
        step = _step(g, L, M, S, inv, Ca, Cb, rasch)
        slope = np.einsum("bp,bp->b", g, step)
        flat = slope >= 0  # numerical noise at the optimum: stop there
        converged[act[flat]] = np.abs(g[flat]).max(axis=1) < 1e-6 * np.maximum(1.0, np.abs(f[flat]))
        t = np.ones(act.size)
        f_new, d_new, eta_new = f.copy(), d.copy(), eta.copy()
        todo = np.flatnonzero(~flat)
        while todo.size:  # halving line search of the tables not yet accepted
            xt = xa[todo] + t[todo, None] * step[todo]
            ft, dt, et = _evaluate(xt, sa[todo], na[todo], sba[todo], rasch)
            f_new[todo], d_new[todo], eta_new[todo] = ft, dt, et
            scale = np.maximum(1.0, np.abs(f[todo]))
            ok = (ft <= f[todo] + 1e-4 * t[todo] * slope[todo]) | (-slope[todo] < 1e-10 * scale) | (t[todo] < 1e-10)
            t[todo[~ok]] *= 0.5
            todo = todo[~ok]
        moved = ~flat
        x[act[moved]] = xa[moved] + t[moved, None] * step[moved]
        done = moved & ((-slope < tol * np.maximum(1.0, np.abs(f_new)) * 1e-3)
                        | (np.abs(t[:, None] * step).max(axis=1) < tol))
        converged[act[done]] = True
        keep = ~(flat | done)
        act, f, d, eta = act[keep], f_new[keep], d_new[keep], eta_new[keep]
    return converged


def _difficulty_se(x, s, n, sb, rasch):
    """Laplace standard errors of the difficulties given the abilities' scale (:func:`_newton.laplace_se`)."""
    L, M = s.shape[1:]
    _, d, eta = _evaluate(x, s, n, sb, rasch)
    g, p, r, r_sum = _gradient(x, d, eta, s, n, sb, rasch)
    S, (Iaa, Ibb, Iab), Ca, Cb = _factored(x, d, p, r_sum, r, n, sb, rasch)
    U = np.linalg.inv(S)
    if rasch:
        Gb = Cb * Ibb[:, None, :]
        return np.sqrt(Ibb + np.einsum("blm,blm->bm", Gb, U @ Gb))
    Gb = Ca * Iab[:, None, :] + Cb * Ibb[:, None, :]
    b_var = Ibb + np.einsum("blm,blm->bm", Gb, U @ Gb)
    w = np.where((n > 0).any(axis=2), x[:, :L], 0.0)  # fix_scale: the abilities of the models that answered
    t = np.einsum("bkl,bl->bk", U, w)
    q = np.einsum("bl,bl->b", w, t)
    pos = q > 0
    corr = np.einsum("blm,bl->bm", Gb, t) ** 2 / np.where(pos, q, 1.0)[:, None]
    return np.sqrt(np.where(pos[:, None], np.maximum(b_var - corr, 0.0), b_var))


def irt_abilities_batch(successes, trials, model: str = "2pl", *, tol: float = 1e-9,
                        max_iter: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """IRT abilities of many count tables at once, as :func:`~scorio_core.items.irt.fit_irt` fits each one.

    Parameters
    ----------
    successes, trials : array_like of float, shape (B, L, M)
        ``B`` count tables of ``L`` models x ``M`` questions (e.g. the bootstrap resamples of one task's
        questions); ``trials`` 0 marks a missing cell. Successes may be fractional.
    model : {"2pl", "rasch"}
    tol, max_iter : float, int
        Newton's tolerance and iteration limit per fit (``fit_irt``'s).

    Returns
    -------
    theta : ndarray, shape (B, L)
        Each table's abilities, equal to ``fit_irt(successes[b], trials[b], model).theta`` to the solver's
        tolerance (default difficulty prior: estimated from the data; 2PL: on the abilities' scale), with
        models of identical counts, and abilities within :data:`~scorio_core.items.irt.ABILITY_TIE_ATOL`, exactly
        equal. NaN rows where a table's fit is not finite.
    converged : ndarray of bool, shape (B,)
        Whether both Newton fits of the table stopped by their tolerance.

    Raises
    ------
    ValueError
        Arrays of different shapes or not 3-D, counts that are negative, not finite or above the trials, an
        unknown ``model``, or a 2PL fit with fewer than 2 models.

    Notes
    -----
    Cost: O(B L M) per Newton iteration plus ``B`` Cholesky checks and solves of L x L, in numpy calls over the
    whole stack (no loop over the tables); the iterations run until the slowest table has converged. Source:
    the fit of :mod:`scorio_core.items.irt` (Lord 1980; Morris 1983 for the difficulty prior's SD).
    """
    s, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    if s.ndim != 3 or s.shape != n.shape:
        raise ValueError(f"successes and trials must be arrays of the same shape (B, L, M); got {s.shape} and "
                         f"{n.shape}.")
    if not (np.isfinite(s).all() and np.isfinite(n).all()) or (s < 0).any() or (s > n).any():
        raise ValueError("counts must be finite with 0 <= successes <= trials.")
    key = str(model).lower()
    if key not in ("2pl", "rasch"):
        raise ValueError(f"unknown IRT model '{model}'; choose one of 2pl, rasch.")
    rasch = key == "rasch"
    B, L, M = s.shape
    if not rasch and L < 2:
        raise ValueError(f"a 2PL fit needs at least 2 models (got {L}); use model='rasch'.")
    s, n = np.ascontiguousarray(s), np.ascontiguousarray(n)
    # start values (items.irt._start), every table at once
    rate_m = (s.sum(axis=2) + 0.5) / (n.sum(axis=2) + 1.0)
    rate_q = (s.sum(axis=1) + 0.5) / (n.sum(axis=1) + 1.0)
    lm = np.log(rate_m / (1 - rate_m))
    seen = n.sum(axis=2) > 0
    k = seen.sum(axis=1)
    mean = np.sum(np.where(seen, lm, 0.0), axis=1) / np.maximum(k, 1)
    sd = np.sqrt(np.sum(np.where(seen, (lm - mean[:, None]) ** 2, 0.0), axis=1) / np.maximum(k, 1))
    theta0 = np.where(seen, (lm - mean[:, None]) / (sd[:, None] + 1.0), 0.0)
    parts = [theta0, np.clip(-np.log(rate_q / (1 - rate_q)), -6, 6)] + ([] if rasch else [np.ones((B, M))])
    x = np.concatenate(parts, axis=1)
    sb = np.full(B, _SB)
    converged = _newton(x, s, n, sb, rasch, tol, max_iter)
    # the difficulty prior's SD from the first fit (priors.difficulty_prior_sd), where enough questions were answered
    q_seen = (n > 0).any(axis=1)
    count = q_seen.sum(axis=1)
    eb = count >= MIN_QUESTIONS_FOR_B_PRIOR
    if eb.any():
        se = _difficulty_se(x[eb], s[eb], n[eb], sb[eb], rasch)
        b, qs = x[eb, L:L + M], q_seen[eb]
        lo, hi = B_PRIOR_SD_BOUNDS
        var = (np.sum(np.where(qs, b**2, 0.0), axis=1) - np.sum(np.where(qs, se**2, 0.0), axis=1)) / count[eb]
        sb[eb] = np.clip(np.sqrt(np.maximum(var, 0.0)), lo, hi)
        refit = np.flatnonzero(sb != _SB)
        if refit.size:
            xr = x[refit]
            converged[refit] = _newton(xr, s[refit], n[refit], sb[refit], rasch, tol, max_iter)
            x[refit] = xr
    theta = x[:, :L].copy()
    if not rasch:  # priors.ability_scale: mean square 1 over the models that answered
        ms = np.sum(np.where(seen, theta**2, 0.0), axis=1) / np.maximum(k, 1)
        spread = np.max(np.where(seen, theta, -np.inf), axis=1) - np.min(np.where(seen, theta, np.inf), axis=1)
        scaled = (k >= 2) & (ms > 1e-12) & (spread > 1e-6)  # every ability equal: no scale to set (as ability_scale)
        c = np.sqrt(np.where(scaled, ms, 1.0))
        theta = np.where(scaled[:, None], np.where(seen, theta / c[:, None], 0.0), theta)
    theta[~np.isfinite(theta).all(axis=1)] = np.nan
    # models with identical counts in a table (Rasch: equal totals over equal trials): exactly equal abilities, as in
    # fit_irt (the fit's symmetry, up to rounding)
    table = np.repeat(np.arange(B), L)[:, None]
    counts = s.sum(axis=2).reshape(B * L, 1) if rasch else s.reshape(B * L, M)
    inverse = equal_rows(table, counts, n.reshape(B * L, M))[1]
    theta = group_mean(theta.ravel(), inverse).reshape(B, L)
    return group_mean(theta.ravel(), close_groups(theta, ABILITY_TIE_ATOL)).reshape(B, L), converged  # as fit_irt
