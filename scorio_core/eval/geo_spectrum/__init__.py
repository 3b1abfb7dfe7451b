r"""GeoSpectrum@k: ``Pass@k^lam * S_{w,k}^(1-lam)``, a geometric blend of Pass@k and a threshold spectrum.

Definitions follow the reference package ``scorio`` 0.2.3 (``geo_spectrum_at_k``,
``geo_spectrum_star_at_k`` and their ``_ci`` forms); the spectrum and delta-method helpers are those
of :mod:`scorio_core.eval.geom` and :mod:`scorio_core.eval._binary` (a subpackage only because the
``eval`` folder holds its maximum of 15 modules). Exported from :mod:`scorio_core.eval`.
"""

from __future__ import annotations

from scorio_core.eval import _binary
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import pass_values
from scorio_core.eval._validate import check_lambda, latent_k
from scorio_core.eval.geom import _dataset_delta, _joint, _mg_weights, _spectrum

__all__ = ["geo_spectrum_at_k", "geo_spectrum_at_k_ci", "geo_spectrum_star_at_k", "geo_spectrum_star_at_k_ci"]


def geo_spectrum_at_k(R, k, lam=0.5, weights=None, lambda_=None) -> float:
    r"""GeoSpectrum_{lam,w}@k on the observed bank: ``Pass@k^lam * S_{w,k}^(1-lam)``.

    ``weights=None`` uses the upper-half mG weights, so ``geo_spectrum_at_k(R, k)`` is
    GeoSpectrum*@k ``= sqrt(Pass@k * mG-Pass@k)``. ``lambda_`` is an alias of ``lam``.
    Source: the reference package's ``geo_spectrum_at_k`` (Bayes@N paper's threshold family).

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.
    lam : float, default 0.5
        Blend exponent in ``[0, 1]``: 1 is Pass@k, 0 the spectrum alone.
    weights : array-like of float, shape (k,), optional
        Threshold-spectrum weights ``w_1..w_k``, non-negative with ``sum <= 1``; default the upper-half
        mG weights (``2/k`` on thresholds ``ceil(k/2)+1..k``).
    lambda_ : float, optional
        Alias of ``lam`` (give at most one).

    Returns
    -------
    float
        ``Pass@k^lam * S_(w,k)^(1 - lam)`` of the question-averaged finite estimators.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R`` or ``weights``; non-real ``lam``; both ``lam`` and ``lambda_``.
    ValueError
        ``k`` outside ``1..N``; non-binary ``R``; ``lam`` outside [0, 1]; bad ``weights`` (as
        :func:`threshold_spectrum_at_k`).

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(geo_spectrum_at_k(R, 3), 6), round(geo_spectrum_at_k(R, 3, lam=1.0), 6)
    (0.408248, 1.0)
    """
    lam = check_lambda(lam, lambda_)
    counts, k = _binary.prepare(R, k)
    if lam == 1.0:
        return _binary.finite_mean(counts, pass_values(k))
    values = _spectrum(_mg_weights(k) if weights is None else weights, k)
    spectrum = _binary.finite_mean(counts, values)
    if lam == 0.0:
        return spectrum
    return float(_binary.blend(_binary.finite_mean(counts, pass_values(k)), spectrum, lam, 1.0 - lam))


def geo_spectrum_at_k_ci(R, k, lam=0.5, weights=None, lambda_=None, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Approximate posterior summary of latent GeoSpectrum_{lam,w}@k (any ``k >= 1``).

    ``mu ~ x^lam y^(1-lam)`` at the posterior means of Pass@k (x) and the spectrum (y);
    sigma by the delta method with their exact posterior covariance. Source: the reference package's
    ``geo_spectrum_at_k_ci``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Latent budget, any ``k >= 1`` (may exceed ``N``).
    lam : float, default 0.5
        Blend exponent in ``[0, 1]``: 1 is Pass@k, 0 the spectrum alone.
    weights : array-like of float, shape (k,), optional
        Threshold-spectrum weights ``w_1..w_k``, non-negative with ``sum <= 1``; default the upper-half
        mG weights (``2/k`` on thresholds ``ceil(k/2)+1..k``).
    lambda_ : float, optional
        Alias of ``lam`` (give at most one).
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd and the normal-approximation interval clipped to ``bounds``.

    Raises
    ------
    TypeError
        Non-integer ``k``; non-numeric ``R`` or ``weights``; non-real ``lam``; both ``lam`` and ``lambda_``.
    ValueError
        ``k < 1``; non-binary ``R``; ``lam`` outside [0, 1]; bad ``weights``; ``confidence`` outside
        (0, 1); ``bounds`` not an ordered pair; ``alpha0`` or ``beta0`` not a finite number > 0.
    """
    lam = check_lambda(lam, lambda_)
    k = latent_k(k)
    confidence, bounds = _binary.ci_args(confidence, bounds)
    counts = _binary.binary_counts(R)
    if lam == 1.0:
        return _binary.summary_ci(counts, pass_values(k), confidence, bounds, alpha0, beta0)
    values = _spectrum(_mg_weights(k) if weights is None else weights, k)
    if lam == 0.0:
        return _binary.summary_ci(counts, values, confidence, bounds, alpha0, beta0)
    states, (lm, lv), (rm, rv), cov = _joint(counts, k, values, alpha0, beta0)
    return ci_tuple(*_dataset_delta(states, lm, lv, rm, rv, cov, lam, 1.0 - lam), confidence, bounds)


def geo_spectrum_star_at_k(R, k) -> float:
    r"""GeoSpectrum*@k ``= sqrt(Pass@k * mG-Pass@k)``: :func:`geo_spectrum_at_k` defaults.

    Source: the reference package's ``geo_spectrum_star_at_k``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Draws, ``1 <= k <= N``.

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        As :func:`geo_spectrum_at_k`.
    """
    return geo_spectrum_at_k(R, k)


def geo_spectrum_star_at_k_ci(R, k, confidence=0.95, bounds=(0.0, 1.0), alpha0=1.0, beta0=1.0):
    r"""Posterior summary of GeoSpectrum*@k: :func:`geo_spectrum_at_k_ci` defaults.

    Source: the reference package's ``geo_spectrum_star_at_k_ci``.

    Parameters
    ----------
    R : array-like of {0, 1}, shape (M, N) or (N,), or BinaryCounts
        Binary outcomes (questions x trials).
    k : int
        Latent budget, any ``k >= 1`` (may exceed ``N``).
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple (lo, hi) or None, default (0, 1)
        Clipping bounds for the interval.
    alpha0, beta0 : float, default 1
        ``Beta(alpha0, beta0)`` prior on each question's success probability.

    Returns
    -------
    mu, sigma, lo, hi : float
        Posterior mean and sd and the normal-approximation interval clipped to ``bounds``.

    Raises
    ------
    TypeError, ValueError
        As :func:`geo_spectrum_at_k_ci`.
    """
    return geo_spectrum_at_k_ci(R, k, confidence=confidence, bounds=bounds, alpha0=alpha0, beta0=beta0)
