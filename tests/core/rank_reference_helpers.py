"""Helpers shared by the differential tests against the reference ``scorio`` package.

``examples(n)`` scales hypothesis' ``max_examples``: ``n`` normally, ``n * SCORIO_SWEEP_FACTOR``
(default 10) when ``SCORIO_FULL_SWEEP=1``. Hypothesis draws a fresh random seed every run
(no ``derandomize``, no ``@seed``), so repeated sweeps explore new cases.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import strategies as st

import scorio_core.rank as ours

ref = pytest.importorskip("scorio.rank")

#: The tie conventions of ``rank_scores`` every method accepts as ``method=``.
METHODS = ("competition", "competition_max", "dense", "avg")


def full_sweep() -> bool:
    """Whether ``SCORIO_FULL_SWEEP=1`` asks for the full differential sweep."""
    return os.environ.get("SCORIO_FULL_SWEEP", "") not in ("", "0")


def examples(n: int) -> int:
    """Hypothesis example count: ``n``, multiplied under ``SCORIO_FULL_SWEEP=1``."""
    if full_sweep():
        return n * int(os.environ.get("SCORIO_SWEEP_FACTOR", "10"))
    return n


#: The sizes of issue 38's differential sweep: L 2-12 models, M 1-60 questions, N 1-8 trials.
FULL_SIZES = (12, 60, 8)


def sizes(draw, max_models: int = 9, max_questions: int = 30, max_trials: int = 5, min_trials: int = 1,
          small: bool = False) -> tuple[int, int, int]:
    """Draw ``(L, M, N)``: within the given bounds in ``make test`` (a sample that keeps the suite fast), within
    :data:`FULL_SIZES` (or the given bounds if larger) under ``SCORIO_FULL_SWEEP=1``, unless ``small`` (methods
    whose reference takes minutes beyond the given bounds). ``M = 1`` (a single question) is drawn often."""
    if full_sweep() and not small:
        max_models, max_questions, max_trials = (max(a, b) for a, b in zip((max_models, max_questions, max_trials),
                                                                           FULL_SIZES))
    L = draw(st.integers(2, max_models))
    M = draw(st.one_of(st.just(1), st.integers(1, max_questions)))
    N = draw(st.integers(min_trials, max_trials))
    return L, M, N


def level_tensor(draw, L: int, M: int, N: int) -> np.ndarray:
    """Binary R (L, M, N) whose models succeed at one of the levels 0, 0.2, 0.5, 0.8, 1 (all-wrong and all-right
    models and exact ties included), from a drawn seed."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = rng.choice([0.0, 0.2, 0.5, 0.8, 1.0], size=(L, 1, 1))
    return (rng.random((L, M, N)) < p).astype(int)


def priors(kind, L):
    """The same prior built from ours and from the reference's classes."""
    if kind == "float":
        return 0.7, 0.7
    if kind == "EmpiricalPrior":
        R0 = (np.arange(L * 3).reshape(L, 3) % (L % 3 + 2) == 0).astype(int)
        return ours.EmpiricalPrior(R0, var=2.0), ref.EmpiricalPrior(R0, var=2.0)
    if kind == "CustomPrior":
        fn = lambda t: float(np.sum(t**4)) / 4  # noqa: E731
        return ours.CustomPrior(fn), ref.CustomPrior(fn)
    args = () if kind == "UniformPrior" else (0.1, 1.5)
    return getattr(ours, kind)(*args), getattr(ref, kind)(*args)


def both(name, R, method, kw_ours, kw_ref, flag="return_scores"):
    """``[ours, reference]`` results of ``name(R, method=..., flag=True)``, or ``(type, message)``."""
    out = []
    for mod, kw in ((ours, kw_ours), (ref, kw_ref)):
        try:
            out.append(getattr(mod, name)(R, method=method, **{flag: True}, **kw))
        except (ValueError, RuntimeError) as exc:
            out.append((type(exc), str(exc)))
    return out


def assert_raises_like_reference(name, R, **kwargs):
    """``name(R, **kwargs)`` raises the reference's exception type with the reference's message."""
    with pytest.raises((TypeError, ValueError, KeyError)) as want:
        getattr(ref, name)(R, **kwargs)
    with pytest.raises(want.type) as got:
        getattr(ours, name)(R, **kwargs)
    assert str(got.value) == str(want.value)


def assert_same(got, want, atol=0.0, item_params=False):
    """Same error (type and message), or equal ranks and scores to ``rtol=1e-6``.

    ``item_params=True`` (IRT) also compares the item-parameter dicts (``rtol=1e-5, atol=1e-7``).
    """
    if isinstance(want[0], type):
        assert got == want
        return
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6, atol=atol)
    if item_params:
        assert got[2].keys() == want[2].keys()
        for key in want[2]:
            np.testing.assert_allclose(got[2][key], want[2][key], rtol=1e-5, atol=1e-7)


@st.composite
def irt_tensors(draw, max_models=9, n_min=1, n_max=5, max_questions=30):
    """Binary R (L 2-``max_models``, M 1-``max_questions``, N ``n_min``-``n_max``) for the IRT methods: either
    constant models (all-wrong / all-right rows and ties) or graded models and questions (finite fits), and
    sometimes an exact duplicate model."""
    L, M, N = sizes(draw, max_models, max_questions, n_max, n_min)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        p = rng.choice([0.0, 0.2, 0.5, 0.8, 1.0], size=(L, 1, 1))  # all-wrong / all-right models and ties
    else:
        p = rng.random((L, 1, 1)) * rng.random((1, M, 1)) ** 0.5  # graded models and questions (finite fits)
    R = (rng.random((L, M, N)) < p).astype(int)
    if draw(st.booleans()):
        R[1] = R[0]  # an exact duplicate model
    return R
