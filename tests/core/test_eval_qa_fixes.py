"""Fixes from a QA of library users: no overflow warning near k = N (large N), +0.0 not -0.0 for all-wrong data,
numpydoc sections on every listed eval function."""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest

from scorio_core import eval as ours
from scorio_core.eval.batch import binary_question_scores

ref = pytest.importorskip("scorio.eval")

R200 = (np.random.default_rng(0).random((5, 200)) < 0.6).astype(int)
NEAR_N = [
    ("pass_hat_k", (199,)), ("g_pass_at_k", (199,)), ("g_pass_at_k_tau", (199, 0.5)), ("mg_pass_at_k", (199,)),
    ("maj_at_k", (199,)), ("auc_at_k", (199,)), ("geom_at_k", (199,)), ("geom_ds_at_k", (199,)),
    ("geo_spectrum_at_k", (199,)), ("geo_spectrum_star_at_k", (199,)), ("maj_at_k", (150,)),
    ("g_pass_at_k_tau", (180, 0.3)), ("threshold_spectrum_at_k", (3, [0.2, 0.3, 0.5])),
]


@pytest.mark.parametrize(("name", "args"), NEAR_N)
def test_no_overflow_warning_and_the_reference_value_near_k_equal_n(name, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning (overflow in exp) fails the test
        got = getattr(ours, name)(R200, *args)
    want = getattr(ref, name)(R200, *args)
    assert got <= 1.0
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_exact_one_is_one():
    assert ours.maj_at_k(R200, 199) == 1.0  # was 1.0000000000000604 (the reference: 1.0)
    assert ours.g_pass_at_k_tau(R200, 199, 0.5) == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ours.pass_hat_k(np.ones((2, 300), int), 299) == 1.0
        scores = binary_question_scores("maj@k", [300, 150, 0], [300, 300, 300], k=299)
    assert scores.tolist() == [1.0, 0.5, 0.0]  # 150 of 300: the left-out trial decides


@pytest.mark.parametrize("name", ["pass_at_k", "geom_at_k", "geom_ds_at_k", "geo_spectrum_at_k",
                                  "geo_spectrum_star_at_k", "g_pass_at_k_tau", "maj_at_k", "auc_at_k"])
def test_all_wrong_data_is_plus_zero(name):
    args = (2, 0.5) if name == "g_pass_at_k_tau" else (2,)
    got = getattr(ours, name)(np.zeros((2, 3), int), *args)
    assert got == 0.0 and math.copysign(1.0, got) == 1.0, repr(got)


DOCUMENTED = [
    "g_pass_at_k", "g_pass_at_k_ci", "mg_pass_at_k_ci", "maj_at_k", "maj_at_k_ci", "auc_at_k_ci",
    "threshold_spectrum_at_k_ci", "geom_at_k", "geom_at_k_ci", "geom_ds_at_k", "geom_ds_at_k_ci",
    "geo_spectrum_at_k", "geo_spectrum_at_k_ci", "geo_spectrum_star_at_k", "geo_spectrum_star_at_k_ci",
    "pass_hat_k_naive", "auc_at_k", "threshold_spectrum_at_k",
]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_numpydoc_sections(name):
    doc = inspect.getdoc(getattr(ours, name))
    for section in ("Parameters", "Returns", "Raises"):
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, f"{name}: no {section} section"
    assert "Source" in doc or "Liu et al." in doc or "Hu et al." in doc, f"{name}: no source"


@pytest.mark.parametrize(("name", "bad", "error"), [
    ("geom_at_k", dict(k=4), ValueError), ("geom_at_k", dict(k=2, pass_power="a"), TypeError),
    ("geom_ds_at_k", dict(k=2, pass_power=0.0, unanimous_power=0.0), ValueError),
    ("geo_spectrum_at_k", dict(k=2, lam=1.5), ValueError), ("geo_spectrum_at_k", dict(k=2, weights=[0.7, 0.7]), ValueError),
    ("geo_spectrum_at_k_ci", dict(k=0), ValueError), ("maj_at_k_ci", dict(k=2, confidence=1.5), ValueError),
    ("threshold_spectrum_at_k_ci", dict(k=2, weights=[0.5]), ValueError), ("g_pass_at_k_ci", dict(k=1.5), TypeError),
])
def test_documented_raises(name, bad, error):
    with pytest.raises(error):
        getattr(ours, name)(np.array([[0, 1, 1], [1, 1, 0]]), **bad)
