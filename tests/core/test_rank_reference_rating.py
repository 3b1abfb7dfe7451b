"""scorio_core.rank's rating systems (elo, glicko, trueskill) against the reference (issue 38)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")

CASES = [
    ("elo", {}), ("elo", {"tie_handling": "draw", "K": 10.0}), ("elo", {"tie_handling": "skip", "initial_rating": 0.0}),
    ("glicko", {}), ("glicko", {"tie_handling": "draw", "c": 30.0}), ("glicko", {"tie_handling": "skip", "rd_max": 200.0}),
    ("trueskill", {}), ("trueskill", {"tie_handling": "draw"}),
    ("trueskill", {"tie_handling": "correct_draw_only", "draw_margin": 0.5, "tau": 0.0}),
]


@st.composite
def tensors(draw):
    return level_tensor(draw, *sizes(draw))


@settings(max_examples=examples(60), deadline=None)
@given(tensors(), st.sampled_from(CASES), st.sampled_from(METHODS))
def test_equal_to_the_reference(R, case, method):
    name, opts = case
    want_ranks, want_scores = getattr(ref, name)(R, method=method, return_scores=True, **opts)
    got_ranks, got_scores = getattr(ours, name)(R, method=method, return_scores=True, **opts)
    np.testing.assert_array_equal(got_ranks, want_ranks)
    np.testing.assert_allclose(got_scores, want_scores, rtol=1e-9, atol=0)
    np.testing.assert_array_equal(getattr(ours, name)(R, method=method, **opts), want_ranks)


def test_glicko_return_deviation_and_signatures():
    R = np.array([[1, 1, 0, 1], [1, 0, 0, 0], [0, 1, 1, 1]])
    for kwargs in ({}, {"return_scores": True}, {"return_deviation": True}, {"return_deviation": True, "c": 20.0}):
        want, got = ref.glicko(R, **kwargs), ours.glicko(R, **kwargs)
        assert type(got) is type(want) and len(got) == len(want)
        for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(a, b, rtol=1e-12)
    for name in ("elo", "glicko", "trueskill"):
        want, got = inspect.signature(getattr(ref, name)), inspect.signature(getattr(ours, name))
        assert list(got.parameters) == list(want.parameters)
        assert [p.default for p in got.parameters.values()] == [p.default for p in want.parameters.values()]


def test_by_hand():
    # One Elo match, equal ratings: E = 1/2, the winner gains K/2 and the loser loses K/2.
    ranks, ratings = ours.elo(np.array([[1], [0]]), return_scores=True)
    assert ranks.tolist() == [1, 2] and ratings.tolist() == [1516.0, 1484.0]
    # (0, 0) is skipped by correct_draw_only, (1, 1) is a draw at equal ratings: no change.
    assert ours.elo(np.array([[0, 1], [0, 1]]), return_scores=True)[1].tolist() == [1500.0, 1500.0]
    # One Glicko period: g(350) = 1/sqrt(1 + 3 q^2 350^2 / pi^2), E = 1/2, 1/RD'^2 = 1/350^2 + q^2 g^2 / 4.
    q = np.log(10.0) / 400.0
    g = 1.0 / np.sqrt(1.0 + 3.0 * q**2 * 350.0**2 / np.pi**2)
    inv_var = 1.0 / 350.0**2 + q**2 * g**2 / 4.0
    _, rating, rd = ours.glicko(np.array([[1], [0]]), return_deviation=True)
    np.testing.assert_allclose(rating, [1500.0 + q / inv_var * g / 2, 1500.0 - q / inv_var * g / 2], rtol=1e-12)
    np.testing.assert_allclose(rd, [inv_var**-0.5] * 2, rtol=1e-12)
    # One TrueSkill win at equal beliefs: t = 0, v = phi(0)/Phi(0) = sqrt(2/pi), mu moves by sigma^2/c v.
    s, b = 25.0 / 3, 25.0 / 6
    c = np.sqrt(2 * b**2 + 2 * s**2)
    mu = ours.trueskill(np.array([[1], [0]]), return_scores=True, tau=0.0)[1]
    np.testing.assert_allclose(mu, [25.0 + s**2 / c * np.sqrt(2 / np.pi), 25.0 - s**2 / c * np.sqrt(2 / np.pi)],
                               rtol=1e-12)


@pytest.mark.parametrize("name, kwargs", [
    ("elo", {"K": 0.0}), ("elo", {"K": np.inf}), ("elo", {"initial_rating": np.nan}), ("elo", {"tie_handling": "x"}),
    ("elo", {"K": "x"}), ("glicko", {"initial_rd": 0.0}), ("glicko", {"rd_max": -1.0}), ("glicko", {"c": -1.0}),
    ("glicko", {"initial_rating": np.inf}), ("glicko", {"tie_handling": "half"}),
    ("trueskill", {"sigma_initial": 0.0}), ("trueskill", {"beta": -1.0}), ("trueskill", {"tau": -0.1}),
    ("trueskill", {"draw_margin": -1.0}), ("trueskill", {"mu_initial": np.nan}), ("trueskill", {"tie_handling": "x"}),
])
def test_bad_options_raise_what_the_reference_raises(name, kwargs):
    R = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    with pytest.raises(ValueError) as want:
        getattr(ref, name)(R, **kwargs)
    with pytest.raises(ValueError) as got:
        getattr(ours, name)(R, **kwargs)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("bad", [np.zeros((1, 3, 2)), np.full((2, 2), 0.5), np.full((2, 2), 2), np.zeros(3)])
def test_bad_input_raises_what_the_reference_raises(bad):
    for name in ("elo", "glicko", "trueskill"):
        with pytest.raises(ValueError) as want:
            getattr(ref, name)(bad)
        with pytest.raises(ValueError) as got:
            getattr(ours, name)(bad)
        assert str(got.value) == str(want.value)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name, opts", [("elo", {"K": 1e306}), ("glicko", {"initial_rd": 1e200, "rd_max": 1e300})])
def test_overflowing_ratings_as_the_reference(name, opts):
    """A pow that overflows is inf (the reference's numpy scalars), not an OverflowError."""
    R = np.array([[[1, 1], [1, 0]], [[0, 0], [0, 1]], [[1, 0], [0, 0]]])
    want_ranks, want_scores = getattr(ref, name)(R, return_scores=True, **opts)
    got_ranks, got_scores = getattr(ours, name)(R, return_scores=True, **opts)
    np.testing.assert_array_equal(got_ranks, want_ranks)
    np.testing.assert_array_equal(got_scores, want_scores)
