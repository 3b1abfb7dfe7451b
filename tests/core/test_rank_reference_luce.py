"""scorio_core.rank's Luce-family models against the reference's scorio.rank: same ranks, scores, errors."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from scorio_core.rank.likelihood.orbits import average_over_orbits

from tests.core.rank_reference_helpers import assert_same as _assert_same
from tests.core.rank_reference_helpers import both as _both
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes
from tests.core.rank_reference_helpers import priors as _priors

ref = pytest.importorskip("scorio.rank")


ML = ("plackett_luce", "bradley_terry_luce", "davidson_luce")
MAP = ("plackett_luce_map", "bradley_terry_luce_map", "davidson_luce_map")
#: The reference's Davidson-Luce evaluates an O(L^3) normaliser in Python per event and per finite-difference
#: point (about 30 s a call at 9 x 30 x 5): its cases are drawn smaller to keep this file near 30 s.
SMALL = {"davidson_luce": (6, 10, 3), "davidson_luce_map": (6, 10, 3)}
PRIORS = ("float", "GaussianPrior", "LaplacePrior", "CauchyPrior", "UniformPrior", "EmpiricalPrior", "CustomPrior")


@st.composite
def tensors(draw, max_L=9, max_M=30, max_N=5):
    L, M, N = sizes(draw, max_L, max_M, max_N, small=(max_L, max_M, max_N) != (9, 30, 5))  # Davidson-Luce: small
    R = level_tensor(draw, L, M, N)
    if draw(st.booleans()):  # planted symmetry: a model whose outcomes are another's on shuffled events
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        R[-1] = R[0].reshape(-1)[rng.permutation(M * N)].reshape(M, N)
    return R


def _tensor(data, name):
    return data.draw(tensors(*SMALL.get(name, (9, 30, 5))))


@settings(max_examples=examples(40), deadline=None)
@given(st.data(), st.sampled_from(ML), st.sampled_from(METHODS))
def test_ml_equal_to_the_reference(data, name, method):
    R = _tensor(data, name)
    got, want = _both(name, R, method, {}, {})
    _assert_same(got, want)
    if not isinstance(want[0], type):
        np.testing.assert_array_equal(getattr(ours, name)(R, method=method), want[0])


@settings(max_examples=examples(25), deadline=None)
@given(st.data(), st.sampled_from(MAP), st.sampled_from(METHODS), st.sampled_from(PRIORS))
def test_map_equal_to_the_reference(data, name, method, kind):
    R = _tensor(data, name)
    p_ours, p_ref = _priors(kind, R.shape[0])
    got, want = _both(name, R, method, {"prior": p_ours}, {"prior": p_ref})
    _assert_same(got, want)


@settings(max_examples=examples(6), deadline=None)
@given(tensors(*SMALL["davidson_luce"]), st.sampled_from(["davidson_luce", "davidson_luce_map"]), st.integers(1, 6))
def test_davidson_tie_order_equal_to_the_reference(R, name, D):
    got, want = _both(name, R, "competition", {"max_tie_order": D}, {"max_tie_order": D})
    _assert_same(got, want)


@settings(max_examples=examples(5), deadline=None)
@given(tensors(), st.sampled_from([1e-3, 1e-6, 1e-10]), st.integers(1, 50))
def test_plackett_luce_tolerance_and_budget(R, tol, max_iter):
    got, want = _both("plackett_luce", R, "competition", {"tol": tol, "max_iter": max_iter},
                      {"tol": tol, "max_iter": max_iter})
    _assert_same(got, want)


@pytest.mark.parametrize("name", ML + MAP)
def test_same_signature_as_the_reference(name):
    mine, theirs = inspect.signature(getattr(ours, name)), inspect.signature(getattr(ref, name))
    assert list(mine.parameters) == list(theirs.parameters)
    assert [p.default for p in mine.parameters.values()] == [p.default for p in theirs.parameters.values()]


def test_hand_values():
    # two models, model 0 beats model 1 on 3 events and loses on 1: every Luce model is pairwise here,
    # so pi0 / pi1 = 3 (strengths summing to 1 for the MM fit, centred log-strengths otherwise)
    R = np.array([[1, 1, 1, 0, 1], [0, 0, 0, 1, 1]])
    np.testing.assert_allclose(ours.plackett_luce(R, return_scores=True)[1], [0.75, 0.25], rtol=1e-7)
    np.testing.assert_allclose(ours.bradley_terry_luce(R, return_scores=True)[1], [3**0.5, 3**-0.5], rtol=1e-4)
    np.testing.assert_allclose(ours.davidson_luce(R, return_scores=True)[1], [3**0.5, 3**-0.5], rtol=1e-4)
    # no informative event: uniform strengths 1 / L
    np.testing.assert_array_equal(ours.davidson_luce(np.ones((3, 2, 2), int), return_scores=True)[1], np.ones(3) / 3)


def test_orbit_averaging_matches_the_reference_on_symmetric_data():
    from scorio.rank._base import average_event_exchangeable_scores

    rng = np.random.default_rng(5)
    for _ in range(200):
        L = int(rng.integers(3, 8))
        base = (rng.random(L) < 0.45).astype(int)
        D = np.array([np.roll(base, s) for s in range(L)]).T  # cyclic: refinement alone cannot split it
        if rng.random() < 0.5:
            D = D[:, : L - 1]
        s = rng.normal(size=L)
        np.testing.assert_allclose(average_over_orbits(s, D), average_event_exchangeable_scores(s, D), rtol=1e-12)




@pytest.mark.parametrize("kwargs", [
    {"max_iter": 0}, {"max_iter": 2.0}, {"max_iter": True}, {"prior": -1.0}, {"prior": -1}, {"prior": float("nan")},
    {"prior": True}, {"prior": "wide"}, {"tol": 0.0}, {"tol": float("inf")}, {"tol": "x"}, {"max_tie_order": 0},
    {"max_tie_order": 5}, {"max_tie_order": 1.5}, {"max_tie_order": 1}, {"max_iter": 1},
])
def test_bad_arguments_raise_what_the_reference_raises(kwargs):
    R = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 0]])
    for name in ML + MAP:
        if ("prior" in kwargs and name in ML) or ("tol" in kwargs and name != "plackett_luce") or (
                "max_tie_order" in kwargs and not name.startswith("davidson")):
            continue
        try:
            getattr(ref, name)(R, **kwargs)
        except (TypeError, ValueError, RuntimeError) as exc:
            with pytest.raises(type(exc)) as got:
                getattr(ours, name)(R, **kwargs)
            assert str(got.value) == str(exc)
        else:
            getattr(ours, name)(R, **kwargs)


def test_separated_data_like_the_reference():
    R = np.array([[1, 1, 0], [0, 0, 0], [0, 1, 1]])  # model 1 never wins: no finite ML estimate
    for name in ML:
        with pytest.raises(ValueError) as want:
            getattr(ref, name)(R)
        with pytest.raises(ValueError) as got:
            getattr(ours, name)(R)
        assert str(got.value) == str(want.value)
    for name in MAP:  # a proper prior keeps the estimate finite
        np.testing.assert_array_equal(getattr(ours, name)(R), getattr(ref, name)(R))
