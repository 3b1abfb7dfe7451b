"""Percentile thresholds (paper Table 4) against numpy; freezing; perturbation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import (
    Category,
    Schema,
    SignalTable,
    Threshold,
    bind,
    categorize,
    compute_thresholds,
    get_schema,
)
from tests.rubric.builders import random_attempts


def test_paper_thresholds_match_numpy(rng):
    frame = random_attempts(rng, n_models=4, n_questions=30, n_trials=5, missing=0.1)
    frame.loc[3, "completion_bpt"] = np.inf  # infinite values are left out, like NaN
    values = compute_thresholds(frame, "Concision-High-Conf")
    bpt, ratio = frame["completion_bpt"].to_numpy(), frame["token_ratio"].to_numpy()
    finite = np.isfinite(bpt)
    # Table 4, numpy default (linear) percentile over all models pooled, non-finite dropped
    assert values["tau_high"] == np.percentile(bpt[finite], 40)
    assert values["len_p33"] == np.percentile(ratio[np.isfinite(ratio)], 33)
    assert values["len_p66"] == np.percentile(ratio[np.isfinite(ratio)], 66)
    assert values["tau_high"] == np.nanpercentile(np.where(finite, bpt, np.nan), 40)

    values = compute_thresholds(frame, "Conf-Calibrated")
    correct = frame["is_correct"].to_numpy()
    wrong = correct < 0.5  # NaN is_correct: neither wrong nor correct
    assert values["tau_low_wrong"] == np.percentile(bpt[finite & wrong], 60)
    assert values["corr_p33"] == np.percentile(bpt[finite & (correct >= 0.5)], 33)
    assert values["corr_p66"] == np.percentile(bpt[finite & (correct >= 0.5)], 66)

    prompt = frame["prompt_bpt"].to_numpy()
    assert compute_thresholds(frame, "OOD Robustness")["tau_prompt"] == np.percentile(
        prompt[np.isfinite(prompt)], 90)


def test_linear_percentile_by_hand():
    frame = pd.DataFrame({"is_correct": [1.0, 0.0, 0.0, 1.0, 0.0],
                          "completion_bpt": [0.5, 1.0, 2.0, 0.7, np.nan]})
    values = compute_thresholds(frame, "Conf-Calibrated")
    # hand: sorted [0.5, 0.7, 1.0, 2.0], 40th pct index 1.2 -> 0.7 + 0.2 * 0.3 = 0.76
    assert values["corr_p33"] == pytest.approx(0.5 + 0.33 * 0.2)  # correct: [0.5, 0.7]
    assert values["tau_low_wrong"] == pytest.approx(1.6)  # wrong: [1.0, 2.0] -> 1.6
    assert compute_thresholds(frame, "Format+Confidence")["tau_high"] == pytest.approx(0.76)


def test_absolute_thresholds_are_reported():
    frame = pd.DataFrame({"is_correct": [1.0], "compass_context_A": [0.7]})
    values = compute_thresholds(frame, "Verifier Prob")
    assert values == {"tau_invalid_C": 0.5, "tau_A_high": 0.6}


def test_empty_percentile_is_nan_and_reported():
    frame = pd.DataFrame({"model": ["a", "a"], "is_correct": [1.0, 1.0], "completion_bpt": [np.nan, np.nan]})
    cat = categorize(frame, "Conf-Wrong Penalty")
    assert np.isnan(cat.thresholds["tau_low_wrong"])
    detail = {d.name: d for d in cat.threshold_details}["tau_low_wrong"]
    assert detail.n_values == 0 and detail.where == "wrong" and detail.percentile == 60
    assert any(i.kind == "undefined_threshold" and "tau_low_wrong" in i.message for i in cat.coverage.issues)
    assert cat.codes.tolist() == [3, 3]  # correct does not need confidence


def test_frozen_thresholds_do_not_move_when_a_model_is_added(rng):
    base = random_attempts(rng, n_models=2)
    first = categorize(base, "Efficiency-Adjusted")
    newcomer = random_attempts(np.random.default_rng(1), n_models=1)
    newcomer["model"] = "new"
    newcomer["token_ratio"] = newcomer["token_ratio"] * 3  # a verbose newcomer shifts percentiles
    both = pd.concat([base, newcomer], ignore_index=True)
    recomputed = categorize(both, "Efficiency-Adjusted")
    frozen = categorize(both, "Efficiency-Adjusted", first.thresholds)
    n = len(base)
    assert recomputed.thresholds != first.thresholds
    assert not np.array_equal(recomputed.codes[:n], first.codes)  # silently re-categorized
    np.testing.assert_array_equal(frozen.codes[:n], first.codes)  # frozen: unchanged
    assert frozen.thresholds == first.thresholds
    assert {d.kind for d in frozen.threshold_details} == {"frozen"}
    assert {d.kind for d in first.threshold_details} == {"percentile", "absolute"}


def test_frozen_validation_and_unused_names():
    frame = pd.DataFrame({"is_correct": [1.0], "completion_bpt": [1.0]})
    for bad in ({"tau_high": "1"}, {"tau_high": np.inf}, {"tau_high": True}, [1.0]):
        with pytest.raises(InputError):
            categorize(frame, "Format+Confidence", bad)
    undefined = categorize(frame, "Format+Confidence", {"tau_high": np.nan})
    assert np.isnan(undefined.thresholds["tau_high"])  # NaN freezes an undefined threshold
    cat = categorize(frame, "Format+Confidence", {"tau_high": 2.0, "len_p33": 0.1})
    assert cat.thresholds["tau_high"] == 2.0
    assert any(i.kind == "unused_frozen_threshold" and "len_p33" in i.message for i in cat.coverage.issues)


def test_percentile_shift_equals_editing_the_schema(rng):
    frame = random_attempts(rng)
    schema = get_schema("Efficiency-Adjusted")
    bound = bind(frame, schema)
    before = bound.codes()
    shifted = bound.codes(percentile_shift={"len_p33": 5, "len_p66": -5.5})
    edited = schema.replace(thresholds=tuple(
        Threshold(t.name, percentile=t.percentile + {"len_p33": 5, "len_p66": -5.5}[t.name], of=t.of)
        if t.name in ("len_p33", "len_p66") else t for t in schema.thresholds))
    np.testing.assert_array_equal(shifted, categorize(frame, edited).codes)
    np.testing.assert_array_equal(bound.codes(), before)  # cached parts are not corrupted
    details = {d.name: d for d in bound.thresholds(percentile_shift={"len_p33": 5})}
    assert details["len_p33"].percentile == 38


def test_percentile_shift_errors():
    frame = pd.DataFrame({"is_correct": [1.0], "completion_bpt": [1.0], "compass_context_A": [0.1]})
    bound = bind(frame, "Verifier Prob")
    with pytest.raises(InputError, match="absolute"):
        bound.codes(percentile_shift={"tau_A_high": 1})
    bound = bind(frame, "Format+Confidence")
    with pytest.raises(InputError, match="unknown threshold 'tau_hgih'. Did you mean 'tau_high'"):
        bound.codes(percentile_shift={"tau_hgih": 1})
    with pytest.raises(InputError, match=r"outside \[0, 100\]"):
        bound.codes(percentile_shift={"tau_high": 61})
    with pytest.raises(InputError, match="frozen"):
        bound.codes({"tau_high": 1.0}, percentile_shift={"tau_high": 1})


def test_where_may_depend_on_thresholds():
    schema = Schema("chain", [Category("low", "x < t2", 0), Category("high", "x >= t2", 1)],
                    thresholds=[Threshold("t1", percentile=50, of="x"),
                                Threshold("t2", percentile=50, of="x", where="x > t1")])
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0]})
    values = compute_thresholds(frame, schema)
    assert values == {"t1": 3.0, "t2": 4.5}  # hand: median of [4, 5]
    bound = bind(SignalTable(frame), schema)
    # t1 -> 0th pct = 1, t2 -> median of [2, 3, 4, 5] = 3.5
    assert bound.codes(percentile_shift={"t1": -50}).tolist() == [0, 0, 0, 1, 1]
    assert bound.codes().tolist() == [0, 0, 0, 0, 1]  # t2 = 4.5 again


def test_threshold_spec_validation():
    with pytest.raises(InputError, match="exactly one of"):
        Threshold("t")
    with pytest.raises(InputError, match="exactly one of"):
        Threshold("t", value=1, percentile=5, of="x")
    with pytest.raises(InputError, match=r"\[0, 100\]"):
        Threshold("t", percentile=101, of="x")
    with pytest.raises(InputError, match="'of'"):
        Threshold("t", percentile=10)
    with pytest.raises(InputError, match="only go with"):
        Threshold("t", value=1, where="x > 1")
    with pytest.raises(InputError, match="must be finite"):
        Threshold("t", value=float("inf"))
    with pytest.raises(InputError, match="must name a signal"):
        Schema("s", [Category("a", "true", 1)], thresholds=[Threshold("t", value=1),
                                                          Threshold("u", percentile=5, of="t")])
