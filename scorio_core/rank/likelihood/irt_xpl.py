"""2PL and 3PL item response theory rankings of ``scorio.rank`` (joint ML and MAP).

The objectives and fitting are in :mod:`scorio_core.rank.likelihood.irt` and :mod:`scorio_core.rank.likelihood.irt_fit`;
this module holds the public functions: argument checks in the reference's order, and the final
averaging of abilities over exact model orbits (models that some simultaneous relabelling of models
and questions exchanges), which no exchangeable model can tell apart.

Source: the reference package scorio 0.2.3 (``scorio.rank.irt``).
"""

from __future__ import annotations

import numpy as np

from scorio_core.limits import single_threaded_blas
from scorio_core.rank.likelihood.irt import _finish, _xpl_fit
from scorio_core.rank.likelihood.irt_fit import Orbits, ability_prior, counts, exchangeable, nonnegative_float, positive_int

__all__ = ["rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map"]


def _xpl(R, prior, method, return_scores, max_iter, return_item_params, reg_discrimination, three_pl=False,
         fix_guessing=None, reg_guessing=0.1, guessing_upper=0.5, joint=True):
    """The 2PL/3PL public functions (``joint``: no ability prior)."""
    max_iter = positive_int("max_iter", max_iter)
    reg_a = nonnegative_float("reg_discrimination", reg_discrimination)
    reg_c, upper = 0.0, 0.5
    if three_pl:
        reg_c = nonnegative_float("reg_guessing", reg_guessing)
        upper = float(guessing_upper)
        if not np.isfinite(upper) or not 0.0 < upper < 1.0:
            raise ValueError("guessing_upper must be in (0, 1) and finite.")
        if fix_guessing is not None:
            fix_guessing = float(fix_guessing)
            if not np.isfinite(fix_guessing) or not 0.0 <= fix_guessing <= upper:
                raise ValueError(f"fix_guessing must be in [0, guessing_upper={upper}] and finite.")
    if joint and reg_a == 0.0:
        raise ValueError(f"reg_discrimination must be positive for {'3PL' if three_pl else '2PL'} joint estimation; "
                         "without it, the ability/discrimination scale is not identified.")
    if three_pl and fix_guessing is None and reg_c == 0.0:
        raise ValueError("reg_guessing must be positive when 3PL guessing parameters are estimated, so boundary "
                         "guessing logits cannot diverge.")
    k, n = counts(R)
    prior = None if joint else ability_prior(prior)
    orbits = Orbits(k)  # found once, for the fit's audit and the final averaging
    with single_threaded_blas():  # L-BFGS-B's small BLAS calls: threads only add overhead (same values)
        theta, params = _xpl_fit(k, n, prior, max_iter, reg_a, three_pl, fix_guessing, reg_c, upper, orbits=orbits)
    scores = orbits.average(theta) if prior is None or exchangeable(prior) else theta
    return _finish(scores, method, return_scores, return_item_params, params)


def rasch_2pl(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
              return_item_params: bool = False, reg_discrimination: float = 0.01):
    """Rank models by 2PL abilities, joint maximum likelihood with an L2 penalty on ``log a``.

    ``k_lm ~ Binomial(N, sigma(a_m (theta_l - b_m)))``, ``sum b = 0``, ``|log a| <= 8``; objective
    ``-log L + reg_discrimination * sum (log a)^2``; bounded L-BFGS-B (ftol 1e-14, gtol 1e-9), audited
    from label-equivariant restarts when the fit looks weak.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    max_iter : int, default 500
    return_item_params : bool, default False
        Also return ``{"difficulty": b, "discrimination": a}`` (implies the scores).
    reg_discrimination : float, default 0.01
        Positive (it fixes the ability/discrimination scale).

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, params)
        Abilities averaged over exact model orbits.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        Bad arguments; no finite estimate (all-correct/all-wrong rows or questions, separation, saturated or
        boundary fit); equally good fits ranking differently; optimiser failure.

    Examples
    --------
    >>> rasch_2pl([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]]).tolist()
    [1.0, 2.0, 2.0]
    """
    return _xpl(R, None, method, return_scores, max_iter, return_item_params, reg_discrimination)


def rasch_2pl_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
                  return_item_params: bool = False, reg_discrimination: float = 0.01):
    """Rank models by 2PL MAP abilities: :func:`rasch_2pl`'s objective plus ``prior.penalty(theta)``.

    Parameters
    ----------
    R, method, return_scores, max_iter, return_item_params
        As :func:`rasch_2pl`.
    prior : Prior or float, default 1.0
        A Python float is the variance of ``GaussianPrior(0, var)``; ``UniformPrior()`` gives :func:`rasch_2pl`.
    reg_discrimination : float, default 0.01
        Non-negative.

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, params)
        Averaged over exact model orbits when the prior is exchangeable.

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`rasch_2pl` (all-correct/all-wrong rows allowed).

    Examples
    --------
    >>> rasch_2pl_map([[[1, 1], [1, 1]], [[0, 0], [0, 0]]]).tolist()
    [1.0, 2.0]
    """
    return _xpl(R, prior, method, return_scores, max_iter, return_item_params, reg_discrimination, joint=False)


def rasch_3pl(R, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
              fix_guessing: float | None = None, return_item_params: bool = False, reg_discrimination: float = 0.01,
              reg_guessing: float = 0.1, guessing_upper: float = 0.5):
    """Rank models by 3PL abilities, joint maximum likelihood with L2 penalties on ``log a`` and the guessing logits.

    ``P(correct) = c_m + (1 - c_m) sigma(a_m (theta_l - b_m))``, ``c_m = guessing_upper * sigma(gamma_m)``
    (or ``fix_guessing``); penalties ``reg_discrimination * sum (log a)^2 + reg_guessing * sum gamma^2``.

    Parameters
    ----------
    R, method, return_scores, max_iter
        As :func:`rasch_2pl`.
    fix_guessing : float or None, default None
        A fixed ``c`` in ``[0, guessing_upper]`` for every question.
    return_item_params : bool, default False
        Also return ``{"difficulty": b, "discrimination": a, "guessing": c}``.
    reg_discrimination : float, default 0.01
        Positive.
    reg_guessing : float, default 0.1
        Non-negative; positive when guessing is estimated.
    guessing_upper : float, default 0.5
        In (0, 1).

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, params)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`rasch_2pl`; saturated guessing logits (``|gamma| > 30``).
    """
    return _xpl(R, None, method, return_scores, max_iter, return_item_params, reg_discrimination, True, fix_guessing,
                reg_guessing, guessing_upper)


def rasch_3pl_map(R, prior=1.0, method: str = "competition", return_scores: bool = False, max_iter: int = 500,
                  fix_guessing: float | None = None, return_item_params: bool = False,
                  reg_discrimination: float = 0.01, reg_guessing: float = 0.1, guessing_upper: float = 0.5):
    """Rank models by 3PL MAP abilities: :func:`rasch_3pl`'s objective plus ``prior.penalty(theta)``.

    Parameters
    ----------
    R, method, return_scores, max_iter, fix_guessing, return_item_params, reg_guessing, guessing_upper
        As :func:`rasch_3pl`.
    prior : Prior or float, default 1.0
        As :func:`rasch_2pl_map`.
    reg_discrimination : float, default 0.01
        Non-negative.

    Returns
    -------
    ndarray, shape (L,); (ranks, theta); or (ranks, theta, params)

    Raises
    ------
    TypeError, ValueError, RuntimeError
        As :func:`rasch_3pl`.
    """
    return _xpl(R, prior, method, return_scores, max_iter, return_item_params, reg_discrimination, True, fix_guessing,
                reg_guessing, guessing_upper, joint=False)
