"""Kendall's tau_b between two rankings (paper Appendix I.1, Eq. 26). numpy/scipy only.

Hariri, Samandar, Hinczewski & Chaudhary (2026), "Don't Pass@k", ICLR 2026, arXiv:2510.04265. Re-exported by
:mod:`scorio_core.ranking.rank`.
"""

from __future__ import annotations

import math

from scorio_core.eval._validate import real_vector

__all__ = ["kendall_tau_b", "snap_tau"]


def kendall_tau_b(a, b) -> float:
    r"""Kendall's tau_b rank correlation between two rankings of the same models.

    Parameters
    ----------
    a, b : array-like of float, shape (L,)
        Ranks (or scores) of the same L models in the same order; ties allowed.

    Returns
    -------
    float
        tau_b in [-1, 1]; NaN when either ranking is constant (all tied).

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        Different lengths, fewer than 2 models, NaN/infinite values.

    Notes
    -----
    ``tau_b = (n_c - n_d) / sqrt((n_0 - n_1)(n_0 - n_2))`` (Eq. 26), computed by
    ``scipy.stats.kendalltau`` with ``variant="b"``, as in the paper.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix I.1.

    Examples
    --------
    >>> round(kendall_tau_b([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]), 6)   # (9 - 1) / 10
    0.8
    >>> kendall_tau_b([1, 2, 2, 4], [1, 2, 2, 4])
    1.0
    """
    a_v = real_vector(a, "a", min_size=2)
    b_v = real_vector(b, "b", min_size=2)
    if a_v.shape != b_v.shape:
        raise ValueError(f"a and b must rank the same models; got lengths {a_v.size} and {b_v.size}.")
    from scipy.stats import kendalltau  # imported here: scipy.stats costs 0.3 s of CLI start-up

    return snap_tau(kendalltau(a_v, b_v, variant="b").statistic)


def snap_tau(value) -> float:
    """A Kendall tau as a float rounded to 12 decimals and clipped to [-1, 1] (NaN stays NaN).

    scipy's tau_b of two identical rankings can come out as 0.9999999999999999 (floating point); a script
    comparing with 1.0 would read that as disagreement.

    Parameters
    ----------
    value : float
        A tau from ``scipy.stats.kendalltau`` or a kernel.

    Returns
    -------
    float

    Examples
    --------
    >>> snap_tau(0.9999999999999999), snap_tau(-1.0000000000000002), snap_tau(0.8000000000000002)
    (1.0, -1.0, 0.8)
    """
    value = float(value)
    return value if math.isnan(value) else min(1.0, max(-1.0, round(value, 12)))
