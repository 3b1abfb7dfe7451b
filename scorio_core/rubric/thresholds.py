"""Threshold values: percentiles of the analysed data, frozen values, perturbations.

Paper Table 4 defines data-dependent thresholds, e.g. ``tau_high`` = 40th percentile of
``completion_bpt`` and ``tau_low_wrong`` = 60th percentile of ``completion_bpt`` among
wrong attempts. Here a percentile threshold is computed

* with numpy's default (``"linear"``) method, i.e. ``np.percentile(x, q)``;
* over every attempt of the analysis (all models pooled) where its ``where`` condition is
  definitely true;
* NaN-aware: NaN and infinite values are left out (like ``np.nanpercentile`` on finite
  values); with no value left the threshold is NaN, every comparison with it is unknown,
  and the coverage report says so.

Values are computed once per analysis and reported; pass them back as ``thresholds=`` to
freeze them (adding a model then does not re-categorize the others). ``percentile_shift``
moves percentile thresholds by a number of percentile points, for sensitivity analysis.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from difflib import get_close_matches
from typing import NamedTuple

import numpy as np

from scorio_core.errors import InputError

__all__ = ["ThresholdValue", "check_frozen", "check_shift", "percentile"]


class ThresholdValue(NamedTuple):
    """A threshold's value and how it was obtained.

    Attributes
    ----------
    name : str
    value : float
        NaN when a percentile had no finite value to use.
    kind : str
        ``"absolute"``, ``"percentile"`` or ``"frozen"`` (given by the caller).
    percentile : float or None
        Percentile used, after any shift (percentile thresholds only).
    of, where : str or None
        Signal and filter condition of a percentile threshold.
    n_values : int or None
        Number of finite values the percentile was taken over.
    """

    name: str
    value: float
    kind: str
    percentile: float | None = None
    of: str | None = None
    where: str | None = None
    n_values: int | None = None


def _suggest(name: str, options) -> str:
    close = get_close_matches(name, list(options), n=3, cutoff=0.6)
    return f" Did you mean {', '.join(map(repr, close))}?" if close else ""


def check_frozen(schema, frozen: Mapping | None) -> tuple[dict[str, float], tuple[str, ...]]:
    """Validate frozen threshold values; return ``(values, names the schema does not use)``.

    NaN is accepted: it freezes a threshold that was undefined (no data) in the analysis the
    values come from, so that prior attempts are mapped exactly as the main ones.

    Raises
    ------
    InputError
        If ``frozen`` is not a mapping of names to finite numbers.
    """
    if frozen is None:
        return {}, ()
    if not isinstance(frozen, Mapping):
        raise InputError(f"thresholds must be a mapping of name -> value; got {type(frozen).__name__}.")
    values: dict[str, float] = {}
    for name, value in frozen.items():
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise InputError(f"frozen threshold {name!r} must be a number; got {value!r}.")
        if math.isinf(float(value)):
            raise InputError(f"frozen threshold {name!r} must be finite (or NaN for undefined); got {value!r}.")
        values[str(name)] = float(value)
    unused = tuple(n for n in values if n not in schema.threshold_map)
    return values, unused


def check_shift(schema, shift: Mapping | None, frozen: Mapping) -> dict[str, float]:
    """Validate ``percentile_shift`` ({name: percentile points}) against the schema.

    Raises
    ------
    InputError
        For an unknown name, an absolute or frozen threshold, a non-finite shift, or a
        shifted percentile outside [0, 100].
    """
    if not shift:
        return {}
    if not isinstance(shift, Mapping):
        raise InputError(f"percentile_shift must be a mapping of name -> points; got {type(shift).__name__}.")
    out: dict[str, float] = {}
    for name, delta in shift.items():
        spec = schema.threshold_map.get(name)
        if spec is None:
            raise InputError(
                f"percentile_shift names unknown threshold {name!r}.{_suggest(str(name), schema.threshold_map)}"
            )
        if spec.kind != "percentile":
            raise InputError(f"percentile_shift: threshold {name!r} is absolute, not a percentile.")
        if name in frozen:
            raise InputError(f"percentile_shift: threshold {name!r} is frozen; unfreeze it to shift it.")
        if isinstance(delta, bool) or not isinstance(delta, (int, float, np.integer, np.floating)) \
                or not math.isfinite(float(delta)):
            raise InputError(f"percentile_shift[{name!r}] must be a finite number; got {delta!r}.")
        q = spec.percentile + float(delta)
        if not 0.0 <= q <= 100.0:
            raise InputError(
                f"percentile_shift[{name!r}] = {float(delta):g} moves the {spec.percentile:g}th "
                f"percentile to {q:g}, outside [0, 100]."
            )
        out[name] = float(delta)
    return out


def percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (linear method) of finite values; NaN if there are none.

    >>> percentile(np.array([1.0, 2.0, 3.0, 4.0]), 40)
    2.2
    """
    if values.size == 0:
        return float("nan")
    return float(np.percentile(values, q))
