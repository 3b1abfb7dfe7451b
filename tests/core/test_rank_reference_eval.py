"""scorio_core.rank's evaluation-metric rankings (bayes, pass_at_k, pass_hat_k, g_pass_at_k_tau, mg_pass_at_k)
against the reference package's scorio.rank: same ranks, scores to 1e-9, same exception types."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")

FUNCTIONS = ("bayes", "pass_at_k", "pass_hat_k", "g_pass_at_k_tau", "mg_pass_at_k")


@st.composite
def tensors(draw):
    L, M, N = sizes(draw, max_models=12, max_questions=60, max_trials=8)
    R = level_tensor(draw, L, M, N)
    if draw(st.booleans()):
        R[1] = R[0]  # an exact duplicate model (ties)
    return R


def _call(mod, name, R, k, tau, method, extra):
    if name == "bayes":
        return mod.bayes(R, method=method, return_scores=True, **extra)
    args = (R, k, tau) if name == "g_pass_at_k_tau" else (R, k)
    return getattr(mod, name)(*args, method=method, return_scores=True)


def _outcome(mod, *args):
    try:
        return _call(mod, *args), None
    except (ValueError, TypeError, KeyError) as exc:
        return None, type(exc)


@settings(max_examples=examples(80), deadline=None)
@given(tensors(), st.sampled_from(FUNCTIONS), st.sampled_from(METHODS), st.data())
def test_equal_to_the_reference(R, name, method, data):
    N = R.shape[2]
    k = data.draw(st.one_of(st.just(1), st.just(N), st.integers(1, N), st.integers(-1, N + 2)))
    tau = data.draw(st.sampled_from([0.0, 0.5, 1.0, 0.3, 1 / 3]))
    extra = {}
    if name == "bayes":
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        if data.draw(st.booleans()):  # categorical outcomes with weights
            R = rng.integers(0, 3, size=R.shape)
            extra["w"] = np.array([0.0, 0.4, 1.0])
        shape = data.draw(st.sampled_from([None, "shared", "per_model"]))
        if shape is not None:
            D = int(rng.integers(1, 4))
            dims = (R.shape[1], D) if shape == "shared" else (*R.shape[:2], D)
            extra["R0"] = rng.integers(0, 2, size=dims)
        extra["quantile"] = data.draw(st.sampled_from([None, 0.05, 0.5, 0.9]))
    want, want_error = _outcome(ref, name, R, k, tau, method, extra)
    got, got_error = _outcome(ours, name, R, k, tau, method, extra)
    assert got_error == want_error
    if want_error is None:
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_allclose(got[1], want[1], rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(getattr(ours, name)(*((R, k, tau) if name == "g_pass_at_k_tau" else
                                                            (R,) if name == "bayes" else (R, k)),
                                                          method=method, **extra), want[0])


BAD = [
    ("pass_at_k", dict(k=0)), ("pass_at_k", dict(k=4)), ("pass_at_k", dict(k=1.5)), ("pass_at_k", dict(k=True)),
    ("pass_hat_k", dict(k=-1)), ("mg_pass_at_k", dict(k=5)), ("pass_at_k", dict(k=1, method="best")),
    ("g_pass_at_k_tau", dict(k=2, tau=1.5)), ("g_pass_at_k_tau", dict(k=2, tau=-0.1)),
    ("g_pass_at_k_tau", dict(k=2, tau="a")), ("g_pass_at_k_tau", dict(k=2, tau=float("nan"))),
    ("pass_at_k", dict(k=2.0)), ("g_pass_at_k_tau", dict(k=9, tau=0.5)),
    ("bayes", dict(quantile=0.0)), ("bayes", dict(quantile=1.0)), ("bayes", dict(quantile="x")),
    ("bayes", dict(quantile=float("nan"))), ("bayes", dict(R0=np.zeros((3, 2)))),
    ("bayes", dict(R0=np.zeros((3, 2, 2)))), ("bayes", dict(R0=np.zeros(2))), ("bayes", dict(R0=np.full((2, 2), 0.5))),
    ("bayes", dict(R0=np.full((2, 2), np.nan))), ("bayes", dict(w=[0.0])), ("bayes", dict(w=["a", "b"])),
    ("bayes", dict(w=[[0, 1]])), ("bayes", dict(method="x")),
]


@pytest.mark.parametrize(("name", "kwargs"), BAD)
def test_bad_arguments_raise_what_the_reference_raises(name, kwargs):
    R = np.array([[[1, 0, 1], [0, 1, 1]], [[0, 0, 1], [1, 1, 1]]])
    with pytest.raises((ValueError, TypeError, KeyError)) as want:
        getattr(ref, name)(R, **kwargs)
    with pytest.raises(want.type):
        getattr(ours, name)(R, **kwargs)


@pytest.mark.parametrize("bad", [np.zeros((3,)), np.zeros((1, 3, 2)), np.full((2, 2), 0.5), np.full((2, 2), 2),
                                 np.full((2, 2), np.nan)])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_bad_outcomes_raise_what_the_reference_raises(bad, name):
    want = _outcome(ref, name, bad, 1, 0.5, "competition", {})
    got = _outcome(ours, name, bad, 1, 0.5, "competition", {})
    if want[1] is None:  # bayes accepts categorical outcomes (here with w missing it does not)
        np.testing.assert_array_equal(got[0][0], want[0][0])
    assert got[1] == want[1]


def test_hand_values():
    R = np.array([[[1, 1, 0], [0, 1, 0]], [[1, 0, 0], [0, 0, 0]]])
    assert ours.pass_at_k(R, 2, return_scores=True)[1].tolist() == pytest.approx([5 / 6, 1 / 3])
    assert ours.pass_hat_k(R, 2, return_scores=True)[1].tolist() == pytest.approx([1 / 6, 0.0])
    assert ours.bayes(np.zeros((2, 2, 3), int), return_scores=True)[0].tolist() == [1.0, 1.0]


def test_the_leaderboards_bayes_stays_the_callers():
    """scorio_core.rank.bayes exists now, but Method agreement and the bootstrap keep taking Bayes@N from the caller
    (the leaderboard's posterior under its prior and rubric), and do not offer it as a scorio.rank method."""
    from scorio_core.rank.agreement import agreement, available_methods
    from scorio_core.rank.bootstrap import bootstrap_ranks

    assert "bayes" not in {m for group in available_methods().values() for m in group}
    R = np.array([[[1, 1], [1, 0], [0, 0]], [[0, 0], [1, 1], [1, 1]], [[1, 0], [0, 0], [0, 1]]])
    with pytest.raises(ValueError, match="unknown ranking method 'bayes'"):
        agreement(R, ["bayes", "avg"])
    mine = np.array([0.0, 1.0, 2.0])  # the caller's scores: the reverse of avg's order
    boot = bootstrap_ranks(R, ["bayes", "avg"], extra_fn=lambda q: {"bayes": mine}, n_boot=5)
    assert boot.ranks[:, 0].tolist() == [[3.0, 2.0, 1.0]] * 5  # every replicate: the caller's scores
