"""scorio_core.rank's dynamic_irt and mirt against the reference's scorio.rank: same ranks, scores, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, examples, irt_tensors

ref = pytest.importorskip("scorio.rank")

TARGETS = ("initial", "final", "mean", "gain", "baseline", "start", "end", "average", "delta", "trend", " Final ")


def tensors(n_min=1):
    return irt_tensors(max_models=8, n_min=n_min, n_max=6)


def _run(fn, R, kw):
    """The full output, or the error (type and message)."""
    try:
        return fn(R, return_item_params=True, **kw)
    except (ValueError, RuntimeError, TypeError, KeyError) as exc:
        return type(exc), str(exc)


def _assert_same(got, want, rtol=1e-5, atol=1e-6, flat=False):
    """Same error, or same ranks, scores within 1e-6 relative (1e-7 of the score scale for a score that is 0 by
    symmetry, e.g. a gain: the optimiser stops at gtol 1e-8), parameters within ``rtol`` and ``atol`` times their
    scale (weakly determined parameters of nearly separated data carry up to ~1e-6 of optimiser error).

    ``flat``: some model answers every question alike at some time, so an ability wants an infinite value and
    only the penalties hold it; both L-BFGS-B runs stop (ftol 1e-12) on a nearly flat likelihood, up to ~1e-5 from
    the optimum (``irt_dynamic._terms``). Ours follows the reference's floating-point path there, but the full
    sweep found a growth fit 2.6e-6 apart (docs/metrics.md): scores are then held to 1e-5 relative and 1e-6 of
    the scale."""
    if isinstance(want[0], type):
        assert got == want
        return
    assert not isinstance(got[0], type), got
    np.testing.assert_array_equal(got[0], want[0])
    rel, floor = (1e-5, 1e-6) if flat else (1e-6, 1e-7)
    np.testing.assert_allclose(got[1], want[1], rtol=rel, atol=floor * max(1.0, np.max(np.abs(want[1]))))
    assert list(got[2]) == list(want[2])
    for key in want[2]:  # atol relative to the parameter's scale: values 0 by symmetry carry the optimiser's error
        scale = max(1.0, float(np.max(np.abs(want[2][key]))))
        np.testing.assert_allclose(got[2][key], want[2][key], rtol=rtol, atol=atol * scale, err_msg=key)


@settings(max_examples=examples(40), deadline=None)
@given(tensors(), st.sampled_from(("linear", "growth", "state_space")), st.sampled_from(METHODS),
       st.sampled_from(TARGETS), st.booleans(), st.booleans())
def test_dynamic_irt_equal_to_the_reference(R, variant, method, target, irregular, regs):
    kw = {"variant": variant, "method": method, "assume_time_axis": True}
    if variant == "linear" and target.strip().lower() not in ("final", "end"):
        target = "final"
    kw["score_target"] = target
    if irregular:
        kw["time_points"] = np.cumsum(np.arange(1, R.shape[2] + 1) ** 1.5) - 3.0  # irregular, not in [0, 1]
    if regs:
        kw.update(slope_reg=0.5, state_reg=0.2)
    got, want = _run(ours.dynamic_irt, R, kw), _run(ref.dynamic_irt, R, kw)
    _assert_same(got, want, flat=bool(np.any(np.all(R == R[:, :1, :], axis=1))))
    if not isinstance(want[0], type):
        del kw["method"]
        for tie in METHODS:
            np.testing.assert_array_equal(ours.dynamic_irt(R, method=tie, **kw), ref.dynamic_irt(R, method=tie, **kw))


@settings(max_examples=examples(30), deadline=None)
@given(tensors(n_min=2), st.sampled_from(("growth", "state_space")), st.booleans())
def test_dynamic_irt_longitudinal_fits_equal(R, variant, mixed):
    # finite fits: one right and one wrong answer in every (model, question) cell at the first two times; with
    # ``mixed`` also in every (model, time) slice (no ability wants an infinite value: the fast evaluation)
    L, M, N = R.shape
    R[:, :, 0] = (np.arange(L)[:, None] + np.arange(M)[None, :]) % 2
    R[:, :, 1] = 1 - R[:, :, 0]
    if mixed and M >= 2:
        R[:, 0, :] = (np.arange(L)[:, None] + np.arange(N)[None, :]) % 2
        R[:, 1, :] = 1 - R[:, 0, :]
    kw = {"variant": variant, "assume_time_axis": True, "score_target": "gain", "return_scores": True}
    got, want = _run(ours.dynamic_irt, R, kw), _run(ref.dynamic_irt, R, kw)
    _assert_same(got, want)


@settings(max_examples=examples(10), deadline=None)
@given(tensors(), st.integers(1, 2), st.sampled_from(("2pl", "3pl", "3pl_fixed")), st.sampled_from((5, 7, 9)),
       st.sampled_from(METHODS))
def test_mirt_equal_to_the_reference(R, n_factors, model, n_quadrature, method):
    kw = {"n_factors": n_factors, "model": model[:3], "n_quadrature": n_quadrature, "method": method}
    if model == "3pl_fixed":
        kw["fix_guessing"] = 0.15
    # EM stops at a parameter change below tol = 1e-4: its path, not an optimum, is compared (ours follows the
    # reference's floating-point operations, so the path is the same)
    _assert_same(_run(ours.mirt, R, kw), _run(ref.mirt, R, kw), rtol=1e-9, atol=1e-12)


def test_mirt_default_grid_and_return_conventions():
    rng = np.random.default_rng(5)
    R = (rng.random((6, 12, 3)) < rng.random((6, 1, 1))).astype(int)
    R[:, 0, 0], R[:, 0, 1] = 1, 0
    for kw in ({}, {"n_factors": 1, "reg_discrimination": 0.0}, {"tol": 0.0, "em_iter": 3}):
        _assert_same(_run(ours.mirt, R, kw), _run(ref.mirt, R, kw), rtol=1e-9, atol=1e-12)
    kw = {"n_factors": 1, "n_quadrature": 9}
    np.testing.assert_array_equal(ours.mirt(R, **kw), ref.mirt(R, **kw))
    got, want = ours.mirt(R, return_scores=True, **kw), ref.mirt(R, return_scores=True, **kw)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-9, atol=1e-12)
    assert ours.mirt([[[1, 1], [1, 1]], [[0, 0], [0, 0]]], n_factors=1, n_quadrature=7).tolist() == [1, 2]


def test_dynamic_irt_docstring_example_and_defaults():
    R = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    assert ours.dynamic_irt(R).tolist() == ref.dynamic_irt(R).tolist() == [1, 2, 2]
    rng = np.random.default_rng(3)
    R = (rng.random((5, 10, 4)) < rng.random((5, 1, 1)) * 0.8 + 0.1).astype(int)
    R[:, 0, 0], R[:, 0, 1] = 1, 0
    for variant in (" Growth", "STATE_SPACE"):
        got = ours.dynamic_irt(R, variant=variant, assume_time_axis=True, return_scores=True)
        want = ref.dynamic_irt(R, variant=variant, assume_time_axis=True, return_scores=True)
        _assert_same((*got, {}), (*want, {}))


def _compare_errors(fn_name, R, kw):
    with pytest.raises((TypeError, ValueError, RuntimeError, KeyError)) as want:
        getattr(ref, fn_name)(R, **kw)
    with pytest.raises(want.type) as got:
        getattr(ours, fn_name)(R, **kw)
    assert str(got.value) == str(want.value)


R_OK = np.array([[[1, 0, 1], [0, 1, 1]], [[0, 1, 0], [1, 0, 1]], [[1, 1, 0], [0, 0, 1]]])
R_FULL_ITEM = np.array([[[1, 1], [0, 1]], [[1, 1], [1, 0]], [[1, 1], [0, 0]]])
R_ZERO_ROW = np.array([[[0, 0], [0, 0]], [[1, 0], [0, 1]], [[1, 1], [0, 1]]])
R_SEPARATED = np.array([[[1, 1], [1, 1], [1, 0]], [[0, 0], [1, 0], [0, 0]], [[0, 0], [0, 1], [0, 0]]])
TIME = {"assume_time_axis": True}


@pytest.mark.parametrize("R, kw", [
    (R_OK, {"variant": "bogus"}), (R_OK, {"variant": "bogus", "score_target": "best"}),
    (R_OK, {"score_target": "best"}), (R_OK, {"score_target": "initial"}), (R_OK, {"score_target": "gain"}),
    (R_OK, {"slope_reg": -1.0}), (R_OK, {"state_reg": float("nan")}), (R_OK, {"slope_reg": "x"}),
    (R_OK, {"state_reg": None}), (R_OK, {"max_iter": 0}), (R_OK, {"max_iter": 2.0}), (R_OK, {"max_iter": True}),
    (R_OK, {"variant": "growth"}), (R_OK, {"variant": "state_space"}),
    (R_OK[:, :, :1], {"variant": "growth", **TIME}), (R_OK[:, :, :1], {"variant": "state_space", **TIME}),
    (R_OK, {"variant": "growth", "slope_reg": 0.0, **TIME}),
    (R_OK, {"variant": "state_space", "state_reg": 0.0, **TIME}),
    (R_OK, {"variant": "growth", "time_points": [0, 1], **TIME}),
    (R_OK, {"variant": "state_space", "time_points": [[0, 1, 2]], **TIME}),
    (R_OK, {"variant": "growth", "time_points": [0, np.inf, 2], **TIME}),
    (R_OK, {"variant": "state_space", "time_points": [0, 2, 2], **TIME}),
    (R_OK, {"variant": "growth", "time_points": [-1e308, 0, 1e308], **TIME}),
    (R_FULL_ITEM, {"variant": "growth", **TIME}), (R_FULL_ITEM, {"variant": "state_space"}),
    (R_FULL_ITEM, {"variant": "bogus"}), (R_FULL_ITEM, {}),
    (R_ZERO_ROW, {"variant": "growth", **TIME}), (R_ZERO_ROW, {}),
    (R_SEPARATED, {"variant": "growth", **TIME}), (R_SEPARATED, {}),
    (R_OK, {"variant": "growth", "max_iter": 1, **TIME}), (R_OK, {"variant": "state_space", "max_iter": 1, **TIME}),
    (R_OK, {"method": "best"}), (np.zeros((1, 3, 2)), {}), (np.full((2, 2), 0.5), {"variant": "growth"}),
])
def test_dynamic_irt_errors_as_the_reference(R, kw):
    _compare_errors("dynamic_irt", R, kw)


@pytest.mark.parametrize("R, kw", [
    (R_OK, {"n_factors": 0}), (R_OK, {"n_factors": 2.0}), (R_OK, {"max_iter": 0}), (R_OK, {"em_iter": False}),
    (R_OK, {"n_quadrature": 1}), (R_OK, {"reg_discrimination": -1.0}), (R_OK, {"reg_guessing": float("nan")}),
    (R_OK, {"tol": -1e-3}), (R_OK, {"guessing_upper": 1.0}), (R_OK, {"guessing_upper": float("inf")}),
    (R_OK, {"model": "4pl"}), (R_OK, {"fix_guessing": 0.1}), (R_OK, {"model": "3pl", "fix_guessing": 0.9}),
    (R_OK, {"model": " 3PL", "fix_guessing": float("nan")}), (R_OK, {"n_quadrature": 500}),
    (R_OK, {"n_factors": 3, "n_quadrature": 2}), (R_FULL_ITEM, {}), (R_OK, {"max_iter": 1}),
    (R_OK, {"method": "best"}), (np.zeros((1, 3, 2)), {}),
])
def test_mirt_errors_as_the_reference(R, kw):
    _compare_errors("mirt", R, kw)
