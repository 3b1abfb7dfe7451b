"""Beta-posterior moments of count scores, vectorized over question states.

A question with ``c`` successes in ``n`` trials has the posterior
``p ~ Beta(alpha0 + c, beta0 + n - c)``. A count score with credit vector ``v`` (degree
``k``) is the Bernstein polynomial ``g(p) = sum_j v_j Binom(j; k, p)``, so

* ``E[g] = sum_j v_j BetaBinom(j; k, a, b)``;
* ``Var[g] = sum_t h_t BetaBinom(t; 2k, a, b)`` with the *centered* product coefficients
  ``h_t = sum_j Hyp(j; 2k, k, t) (v_j - E[g]) (v_{t-j} - E[g])``. Centering before the
  product keeps tiny variances accurate (no ``E[g^2] - E[g]^2`` cancellation).

Pass@k and Pass^k use closed forms: ``E[p^k] = prod_{i<k} (a+i)/(a+b+i)`` summed in
log space (``-log1p(b/(a+i))``), and ``Var = E[p^2k] - E[p^k]^2`` from logs.

All functions take arrays of states (unique ``(a, b)`` pairs) and loop only over chunks
of states to bound memory, never over questions.
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaln

from scorio_core.eval._scores import log_comb

__all__ = ["posterior_moments", "joint_covariance", "log_power_moment", "endpoint_kind"]

_MAX_ENTRIES = 4_000_000
_ROUNDOFF = 64.0 * np.finfo(float).eps


def endpoint_kind(values: np.ndarray) -> str | None:
    """``"pass"`` for ``[0, 1, ..., 1]``, ``"unanimous"`` for ``[0, ..., 0, 1]``, else None."""
    if values[0] == 0.0 and np.all(values[1:] == 1.0):
        return "pass"
    if values[-1] == 1.0 and np.all(values[:-1] == 0.0):
        return "unanimous"
    return None


def log_power_moment(a: np.ndarray, b: np.ndarray, power: int) -> np.ndarray:
    """``log E[p**power]`` for ``p ~ Beta(a, b)``, as ``sum_{i<power} -log1p(b / (a + i))``."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    out = np.zeros(a.shape)
    if power == 0:
        return out
    chunk = max(1, _MAX_ENTRIES // power)
    offsets = np.arange(power, dtype=float)
    flat_a, flat_b, flat_out = a.ravel(), b.ravel(), out.ravel()
    for start in range(0, flat_a.size, chunk):
        stop = min(start + chunk, flat_a.size)
        ratios = flat_b[start:stop, None] / (flat_a[start:stop, None] + offsets[None, :])
        flat_out[start:stop] = -np.log1p(ratios).sum(axis=1)
    return flat_out.reshape(a.shape)


def _variance_from_logs(log_second: np.ndarray, log_mean: np.ndarray) -> np.ndarray:
    """``exp(log_second) - exp(2 log_mean)`` without cancellation (clamped at 0)."""
    diff = 2.0 * log_mean - log_second
    tol = _ROUNDOFF * np.maximum(1.0, np.maximum(np.abs(log_second), np.abs(2.0 * log_mean)))
    diff = np.where((diff > 0.0) & (diff <= tol), 0.0, diff)
    if np.any(diff > 0.0):
        raise FloatingPointError("posterior variance is materially negative")
    return np.exp(log_second) * -np.expm1(diff)


def _beta_binomial(degree: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Beta-binomial pmf of ``0..degree`` for each state, shape (S, degree+1), rows sum to 1."""
    j = np.arange(degree + 1, dtype=float)[None, :]
    a = a[:, None]
    b = b[:, None]
    log_p = log_comb(float(degree), j) + betaln(a + j, b + degree - j) - betaln(a, b)
    p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _product_weights(left_degree: int, right_degree: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Degree-elevation weights of a product of Bernstein polynomials.

    Returns ``H`` of shape ``(kl+kr+1, kl+1)`` with ``H[t, j] = C(kl,j) C(kr,t-j) / C(kl+kr,t)``,
    the index ``t - j`` (clipped) and its validity mask.
    """
    t = np.arange(left_degree + right_degree + 1, dtype=float)[:, None]
    j = np.arange(left_degree + 1, dtype=float)[None, :]
    log_h = log_comb(float(left_degree), j) + log_comb(float(right_degree), t - j) - log_comb(
        float(left_degree + right_degree), t
    )
    weights = np.exp(log_h)
    index = (t - j).astype(np.int64)
    valid = (index >= 0) & (index <= right_degree)
    return np.where(valid, weights, 0.0), np.clip(index, 0, right_degree), valid


def _centered_product_moment(
    left: np.ndarray, right: np.ndarray, left_mean: np.ndarray, right_mean: np.ndarray, a: np.ndarray, b: np.ndarray
) -> np.ndarray:
    """``E[(g_L - m_L)(g_R - m_R)]`` per state for Bernstein credit vectors ``left``, ``right``."""
    kl, kr = left.size - 1, right.size - 1
    weights, index, _ = _product_weights(kl, kr)
    out = np.empty(a.size)
    per_state = weights.size
    chunk = max(1, _MAX_ENTRIES // per_state)
    for start in range(0, a.size, chunk):
        stop = min(start + chunk, a.size)
        centered_left = left[None, :] - left_mean[start:stop, None]  # (s, kl+1)
        centered_right = right[None, :] - right_mean[start:stop, None]  # (s, kr+1)
        gathered = centered_right[:, index]  # (s, kl+kr+1, kl+1)
        coeff = np.einsum("tj,sj,stj->st", weights, centered_left, gathered)
        probs = _beta_binomial(kl + kr, a[start:stop], b[start:stop])
        out[start:stop] = np.einsum("st,st->s", probs, coeff)
    return out


def posterior_moments(values: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Posterior mean and variance of the count score ``values`` for each Beta state.

    Parameters
    ----------
    values : ndarray, shape (k+1,)
        Credit vector (Bernstein coefficients of degree k).
    a, b : ndarray, shape (S,)
        Beta posterior parameters per state, > 0.

    Returns
    -------
    mean, variance : ndarray, shape (S,)
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    k = values.size - 1
    if np.all(values == values[0]):
        return np.full(a.size, float(values[0])), np.zeros(a.size)
    kind = endpoint_kind(values)
    if kind == "pass":  # g = 1 - q^k, q = 1 - p ~ Beta(b, a)
        log_m, log_m2 = log_power_moment(b, a, k), log_power_moment(b, a, 2 * k)
        return -np.expm1(log_m), _variance_from_logs(log_m2, log_m)
    if kind == "unanimous":  # g = p^k
        log_m, log_m2 = log_power_moment(a, b, k), log_power_moment(a, b, 2 * k)
        return np.exp(log_m), _variance_from_logs(log_m2, log_m)
    mean = np.empty(a.size)
    chunk = max(1, _MAX_ENTRIES // (k + 1))
    for start in range(0, a.size, chunk):
        stop = min(start + chunk, a.size)
        mean[start:stop] = _beta_binomial(k, a[start:stop], b[start:stop]) @ values
    variance = _centered_product_moment(values, values, mean, mean, a, b)
    tol = (k + 1) * _ROUNDOFF * np.maximum(1.0, mean * mean)
    if np.any(variance < -tol):
        raise FloatingPointError("posterior variance is materially negative")
    return mean, np.maximum(variance, 0.0)


def joint_covariance(
    left: np.ndarray, right: np.ndarray, left_mean: np.ndarray, right_mean: np.ndarray, a: np.ndarray, b: np.ndarray
) -> np.ndarray:
    """Posterior covariance of two count scores on the same Beta states.

    Pass@k with Pass^m uses the closed form ``Cov = E[p^m] E[q^k] - E[p^m q^k]``
    (``g_pass = 1 - q^k``); other pairs use the centered Bernstein product.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if np.all(left == left[0]) or np.all(right == right[0]):
        return np.zeros(a.size)
    kinds = (endpoint_kind(left), endpoint_kind(right))
    if set(kinds) == {"pass", "unanimous"}:
        k_pass = (left if kinds[0] == "pass" else right).size - 1
        k_una = (right if kinds[0] == "pass" else left).size - 1
        log_q = log_power_moment(b, a, k_pass)
        log_p = log_power_moment(a, b, k_una)
        # E[p^m q^k] = E[p^m] * E[q^k] under Beta(b, a + m)
        log_mixed = log_p + log_power_moment(b, a + k_una, k_pass)
        return _variance_from_logs(log_p + log_q, 0.5 * log_mixed)
    return _centered_product_moment(left, right, left_mean, right_mean, a, b)
