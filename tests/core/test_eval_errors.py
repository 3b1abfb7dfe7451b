"""Invalid input: the right exception type and a message naming argument, rule and value."""

from __future__ import annotations

import numpy as np
import pytest
from scorio import eval as ref

from scorio_core import eval as ev

R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])


@pytest.mark.parametrize(
    ("call", "exc", "pattern"),
    [
        (lambda m: m.pass_at_k(R, 9), ValueError, r"k must satisfy 1 <= k <= N \(N=5\); got k=9"),
        (lambda m: m.pass_at_k(R, 0), ValueError, r"k must satisfy 1 <= k <= N"),
        (lambda m: m.pass_at_k(R, 2.0), TypeError, r"k must be an integer; got 2\.0 \(float\)"),
        (lambda m: m.pass_at_k(R, True), TypeError, r"k must be an integer"),
        (lambda m: m.pass_at_k(np.array([[0, 2]]), 1), ValueError, r"R must be binary.*got 2"),
        (lambda m: m.pass_at_k(np.array([["a", "b"]]), 1), TypeError, r"R must hold integers or booleans"),
        (lambda m: m.pass_at_k(np.zeros((0, 3)), 1), ValueError, r"at least one question"),
        (lambda m: m.pass_at_k(np.zeros((2, 0)), 1), ValueError, r"at least one trial"),
        (lambda m: m.pass_at_k(np.zeros((2, 2, 2)), 1), ValueError, r"got 3 dimensions"),
        (lambda m: m.pass_at_k(np.array([[0.5, 1.0]]), 1), ValueError, r"integer-valued entries; got 0\.5"),
        (lambda m: m.pass_at_k(np.array([[np.nan, 1.0]]), 1), ValueError, r"finite"),
        (lambda m: m.pass_at_k([[1, 0], [1]], 1), ValueError, r"rectangular"),
        (lambda m: m.g_pass_at_k_tau(R, 2, 1.5), ValueError, r"tau must satisfy 0 <= tau <= 1; got tau=1\.5"),
        (lambda m: m.g_pass_at_k_tau(R, 2, "x"), TypeError, r"tau must be a real number"),
        (lambda m: m.pass_at_k_ci(R, 2, confidence=1.0), ValueError, r"confidence must satisfy 0 < confidence < 1; got confidence=1\.0"),
        (lambda m: m.pass_at_k_ci(R, 2, bounds=(1.0, 0.0)), ValueError, r"bounds\[0\] <= bounds\[1\]"),
        (lambda m: m.pass_at_k_ci(R, 2, alpha0=0.0), ValueError, r"alpha0 must be a finite number > 0; got alpha0=0\.0"),
        (lambda m: m.bayes(np.array([[0, 2]])), ValueError, r"w is required when R is not binary"),
        (lambda m: m.bayes(np.array([[0, 3]]), [0, 1, 2]), ValueError, r"category codes in \[0, 2\].*got 3"),
        (lambda m: m.bayes(R, [[0, 1]]), ValueError, r"w must be a non-empty 1-D vector"),
        (lambda m: m.bayes(R, [0, np.inf]), ValueError, r"w must contain only finite"),
        (lambda m: m.bayes(R, ["a", "b"]), TypeError, r"w must hold numbers"),
        (lambda m: m.bayes(R, None, np.array([[0], [1], [1]])), ValueError, r"R0 must have one row per question \(M=2\); got 3"),
        (lambda m: m.bayes(R, None, np.array([0, 1, 1])), ValueError, r"multiple of M=2"),
        (lambda m: m.threshold_spectrum_at_k(R, 2, [0.7, 0.7]), ValueError, r"sum\(weights\) <= 1; got sum=1\.4"),
        (lambda m: m.threshold_spectrum_at_k(R, 2, [0.5]), ValueError, r"length k=2"),
        (lambda m: m.threshold_spectrum_at_k(R, 2, [-0.1, 0.5]), ValueError, r"non-negative"),
        (lambda m: m.geo_spectrum_at_k(R, 2, lam=2.0), ValueError, r"lam must satisfy 0 <= lam <= 1; got lam=2\.0"),
        (lambda m: m.geo_spectrum_at_k(R, 2, lam=0.3, lambda_=0.4), TypeError, r"at most one of 'lam' and 'lambda_'"),
        (lambda m: m.max_at_k_ci(R, 0), ValueError, r"k must satisfy k >= 1; got k=0"),
        (lambda m: m.geom_at_k(np.array([[1, 0, 0]]), 2, unanimous_power=-1.0), ValueError, r"power must be non-negative when its base is 0"),
    ],
)
def test_error_type_and_message(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call(ev)
    # the reference package raises too (its type may be ValueError where ours is TypeError)
    with pytest.raises((ValueError, TypeError)):
        call(ref)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda m: m.pass_at_k(np.array([1, 0, 1]), 2), 1.0),  # 1-D R is one question
        (lambda m: m.pass_at_k(np.array([[True, False, True]]), 2), 1.0),  # bool arrays
        (lambda m: m.pass_at_k(np.array([[1.0, 0.0, 1.0]]), 2), 1.0),  # integral floats
        (lambda m: m.bayes(np.array([[0, 1]]), [0, 1, 5])[0], 1.4),  # w longer than max(R)+1; hand: C=2, T=5, nu=(2,2,1) -> (0+2+5)/5
        (lambda m: m.bayes(np.array([[0, 1]]), None, np.array([1, 1]))[0], None),  # 1-D R0
    ],
)
def test_accepts_what_reference_accepts(call, expected):
    ours, theirs = call(ev), call(ref)
    assert ours == pytest.approx(theirs, abs=1e-12)
    if expected is not None:
        assert ours == pytest.approx(expected, abs=1e-12)


def test_counts_objects_validate():
    with pytest.raises(ValueError, match=r"n_correct must satisfy 0 <= n_correct <= n_trials; question 1 has n_correct=5, n_trials=4"):
        ev.BinaryCounts([1, 5], [4, 4])
    with pytest.raises(ValueError, match=r"n_trials must be >= 1"):
        ev.BinaryCounts([0], [0])
    with pytest.raises(TypeError, match=r"n_correct must hold integers"):
        ev.BinaryCounts(["a"], [1])
    with pytest.raises(ValueError, match=r"row of counts sums to 0"):
        ev.CategoryCounts([[0, 0], [1, 2]])
    with pytest.raises(ValueError, match=r"k must satisfy 1 <= k <= N \(N=2\)"):
        ev.pass_at_k(ev.BinaryCounts([1, 1], [4, 2]), 3)  # ragged: k <= min N
    with pytest.raises(ValueError, match=r"needs binary outcomes"):
        ev.pass_at_k(ev.CategoryCounts([[1, 1, 1]]), 1)
