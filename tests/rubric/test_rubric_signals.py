"""Base-signal derivation (paper Appendix F.1) and the signal catalogue."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import derive_signals, list_signals


def test_repeated_pattern_from_finish_reason():
    frame = pd.DataFrame({"finish_reason": ["stop", "length", None, "STOP ", "end_turn", "content_filter"]})
    out, notes = derive_signals(frame)
    # paper F.1: 0 if finish_reason is stop, else 1; missing stays missing (not 0)
    np.testing.assert_array_equal(out["repeated_pattern"].to_numpy(), [0, 1, np.nan, 0, 0, 1])
    note = next(n for n in notes if n.startswith("repeated_pattern"))
    assert "missing on 1 rows" in note and "'length': 1" in note


def test_repeated_pattern_from_pandas_string_dtype():
    frame = pd.DataFrame({"finish_reason": pd.array(["stop", pd.NA, "length"], dtype="string")})
    out, _ = derive_signals(frame)
    np.testing.assert_array_equal(out["repeated_pattern"].to_numpy(), [0, np.nan, 1])


def test_existing_columns_are_not_overwritten():
    frame = pd.DataFrame({"finish_reason": ["length"], "repeated_pattern": [0.0],
                          "completion_tokens": [10], "token_ratio": [0.9],
                          "completion_ppl": [4.0], "completion_bpt": [7.0]})
    out, _ = derive_signals(frame, max_tokens=100)
    assert out["repeated_pattern"].tolist() == [0.0]
    assert out["token_ratio"].tolist() == [0.9]
    assert out["completion_bpt"].tolist() == [7.0]
    assert frame.columns.tolist() == ["finish_reason", "repeated_pattern", "completion_tokens",
                                      "token_ratio", "completion_ppl", "completion_bpt"]  # input untouched


def test_token_ratio_needs_an_explicit_limit():
    frame = pd.DataFrame({"completion_tokens": [16384, 100]})
    out, notes = derive_signals(frame)
    assert "token_ratio" not in out.columns  # never a silent default
    assert any("pass max_tokens (the paper used 32,768)" in n for n in notes)
    out, notes = derive_signals(frame, max_tokens=32768)
    np.testing.assert_allclose(out["token_ratio"], [0.5, 100 / 32768])  # hand: 16384/32768


def test_token_ratio_per_row_column_then_argument():
    frame = pd.DataFrame({"completion_tokens": [50, 50, 50, 50], "max_tokens": [100, np.nan, 0, 200]})
    out, notes = derive_signals(frame)
    np.testing.assert_array_equal(out["token_ratio"], [0.5, np.nan, np.nan, 0.25])
    out, notes = derive_signals(frame, max_tokens=1000)
    np.testing.assert_array_equal(out["token_ratio"], [0.5, 0.05, 0.05, 0.25])
    note = next(n for n in notes if n.startswith("token_ratio"))
    assert "max_tokens column on 2 rows" in note and "max_tokens=1000 on 2 rows" in note
    assert "1 rows with max_tokens <= 0" in note


@pytest.mark.parametrize("bad", [0, -5, math.nan, math.inf, "32768", True])
def test_bad_max_tokens(bad):
    with pytest.raises(InputError, match="max_tokens must be a positive number"):
        derive_signals(pd.DataFrame({"completion_tokens": [1]}), max_tokens=bad)


def test_bits_per_token_from_perplexity_and_logprob():
    frame = pd.DataFrame({
        "completion_ppl": [2.0, np.nan, 0.0, np.nan],
        "completion_logprob_mean": [np.nan, -math.log(8), np.nan, np.nan],
        "prompt_ppl": [16.0, 1.0, np.nan, -1.0],
    })
    out, notes = derive_signals(frame)
    # bpt = log2 ppl (2 -> 1 bit) or -lp / ln 2 (-ln 8 -> 3 bits); ppl <= 0 is missing
    np.testing.assert_allclose(out["completion_bpt"], [1.0, 3.0, np.nan, np.nan])
    np.testing.assert_allclose(out["prompt_bpt"], [4.0, 0.0, np.nan, np.nan])
    np.testing.assert_allclose(out["prompt_logprob_mean"], [-math.log(16), 0.0, np.nan, np.nan])
    assert out["completion_logprob_mean"].tolist()[1] == -math.log(8)  # existing: kept
    assert any("completion_bpt = -lp / ln 2 from completion_logprob_mean on 1 rows; "
               "log2 ppl from completion_ppl on 1 rows." == n for n in notes)


def test_logprob_sums_and_reference_aliases():
    frame = pd.DataFrame({"completion_avg_logprob": [-0.5], "completion_length": [10],
                          "prompt_perplexity": [math.e], "prompt_tokens": [4], "logprob_min": [-7.0]})
    out, notes = derive_signals(frame)
    assert out["completion_logprob_mean"].tolist() == [-0.5]
    assert out["completion_tokens"].tolist() == [10]
    assert out["completion_logprob_sum"].tolist() == [-5.0]  # hand: -0.5 * 10
    np.testing.assert_allclose(out["prompt_logprob_sum"], [-4.0])  # hand: -ln e * 4
    assert out["completion_logprob_min"].tolist() == [-7.0]
    assert any("reference-package name" in n for n in notes)


def test_only_is_correct_needs_nothing():
    frame = pd.DataFrame({"model": ["a"], "task": ["t"], "question_id": ["1"], "trial": [0], "is_correct": [1.0]})
    out, notes = derive_signals(frame)
    assert out.columns.tolist() == frame.columns.tolist()
    assert notes == ["repeated_pattern not derived: the data has no finish_reason.",
                     "token_ratio not derived: the data has no completion_tokens."]


def test_list_signals_every_non_id_column():
    frame = pd.DataFrame({"model": ["a"], "task": ["t"], "question_id": ["1"], "trial": [0],
                          "is_correct": [1.0], "cost": [0.01], "latency": [np.nan],
                          "judge": [True], "finish_reason": ["stop"]})
    signals = {s.name: s for s in list_signals(frame)}
    assert list(signals) == ["is_correct", "cost", "latency", "judge", "finish_reason"]
    assert signals["cost"].kind == "number" and signals["judge"].kind == "number"
    assert signals["finish_reason"].kind == "text"
    assert signals["latency"].n_missing == 1
    assert "paper F.1" in signals["is_correct"].description


def test_not_a_dataframe():
    with pytest.raises(InputError, match="DataFrame"):
        derive_signals({"is_correct": [1]})
    with pytest.raises(InputError, match="DataFrame"):
        list_signals([1, 2])
