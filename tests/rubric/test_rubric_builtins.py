"""Every built-in schema on hand-made attempts that cover each of its categories.

Expected categories are written by hand from paper Table 5 (with Table 4's variables) and,
for the reference schemas, from scorio 0.2.3 ``categorical/schemas.py``. Thresholds are
frozen (conftest.FROZEN) so each case reads directly off the table:
tau_high=1.0, tau_low_wrong=1.5, tau_prompt=3.0, len_p33=0.2, len_p66=0.5,
corr_p33=0.8, corr_p66=1.2; absolute: tau_invalid_C=0.5, tau_A_high=0.6.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core.rubric import BUILTIN_SCHEMAS, categorize, get_schema, list_schemas
from tests.rubric.builders import FROZEN, make_attempts

INVALID = [
    ({"repeated_pattern": 1.0}, 0),  # Table 4: invalid = repeated_pattern = 1 ...
    ({"compass_context_C": 0.5}, 0),  # ... or compass_context_C >= 0.5 (boundary included)
    ({"repeated_pattern": 1.0, "is_correct": 1.0, "has_box": 1.0}, 0),  # invalid wins (first match)
]

CASES = {
    "Exact Match": INVALID + [
        # invalid is unknown when repeated_pattern is missing and C < 0.5: not proven
        # invalid, so the attempt is categorized by the other categories
        ({"repeated_pattern": np.nan, "compass_context_C": 0.1, "is_correct": 1.0}, 2),
        ({"repeated_pattern": np.nan, "compass_context_C": 0.9, "is_correct": 1.0}, 0),
        ({"is_correct": 0.0}, 1),  # 1 wrong
        ({"is_correct": 1.0}, 2),  # 2 correct
        ({"is_correct": 0.0, "compass_context_C": 0.49}, 1),  # C just below 0.5: not invalid
    ],
    "Format Aware": INVALID + [
        ({"is_correct": 0.0, "has_box": 0.0}, 1),  # 1 wrong and unboxed
        ({"is_correct": 0.0, "has_box": 1.0}, 2),  # 2 wrong and boxed
        ({"is_correct": 1.0, "has_box": 0.0}, 3),  # 3 correct and unboxed
        ({"is_correct": 1.0, "has_box": 1.0}, 4),  # 4 correct and boxed
    ],
    "Conf-Calibrated": INVALID + [
        ({"is_correct": 0.0, "completion_bpt": 2.0}, 1),  # 1 wrong, bpt > tau_low_wrong (low conf)
        ({"is_correct": 0.0, "completion_bpt": 1.5}, 2),  # 2 wrong_high_conf: bpt <= tau_low_wrong
        ({"is_correct": 0.0, "completion_bpt": 0.2}, 2),  # 2 wrong_high_conf
        ({"is_correct": 1.0, "completion_bpt": 1.3}, 3),  # 3 correct, bpt > corr_p66 (low conf)
        ({"is_correct": 1.0, "completion_bpt": 1.2}, 4),  # 4 correct, corr_p33 < bpt <= corr_p66 (mid)
        ({"is_correct": 1.0, "completion_bpt": 0.9}, 4),  # 4 mid
        ({"is_correct": 1.0, "completion_bpt": 0.8}, 5),  # 5 correct, bpt <= corr_p33 (high conf)
    ],
    "OOD Robustness": INVALID + [
        ({"is_correct": 0.0, "prompt_bpt": 3.0}, 1),  # 1 ood (prompt_bpt >= tau_prompt) and wrong
        ({"is_correct": 0.0, "prompt_bpt": 2.9}, 2),  # 2 ind and wrong
        ({"is_correct": 1.0, "prompt_bpt": 4.0}, 3),  # 3 ood and correct
        ({"is_correct": 1.0, "prompt_bpt": 1.0}, 4),  # 4 ind and correct
    ],
    "Strict Compliance": INVALID + [
        ({"is_correct": 0.0, "has_box": 1.0}, 1),  # 1 wrong
        ({"is_correct": 0.0, "has_box": 0.0}, 1),  # 1 wrong
        ({"is_correct": 1.0, "has_box": 0.0}, 1),  # 1 correct and unboxed: non-compliant
        ({"is_correct": 1.0, "has_box": 1.0}, 2),  # 2 correct and boxed
        ({"is_correct": 0.0, "has_box": np.nan}, 1),  # wrong: the box does not matter
    ],
    "Conf-Wrong Penalty": INVALID + [
        ({"is_correct": 0.0, "completion_bpt": 1.0}, 1),  # 1 wrong_high_conf (bpt <= 1.5)
        ({"is_correct": 0.0, "completion_bpt": 1.6}, 2),  # 2 wrong and low conf
        ({"is_correct": 1.0, "completion_bpt": 3.0}, 3),  # 3 correct, whatever the confidence
    ],
    "Verifier-Only": [
        ({"compass_context_C": 0.6, "compass_context_A": 0.9}, 0),  # 0 invalid (C >= 0.5)
        ({"compass_context_A": 0.3, "compass_context_B": 0.2, "compass_context_C": 0.45}, 1),  # high C
        ({"compass_context_A": 0.3, "compass_context_B": 0.45, "compass_context_C": 0.2}, 2),  # high B
        ({"compass_context_A": 0.4, "compass_context_B": 0.3, "compass_context_C": 0.3}, 2),  # tie -> B
        ({"compass_context_A": 0.6, "compass_context_B": 0.3, "compass_context_C": 0.1}, 3),  # A_high
        ({"compass_context_A": 0.7, "is_correct": 0.0}, 3),  # verifier only: is_correct ignored
    ],
    "Format+Confidence": INVALID + [
        ({"is_correct": 0.0, "has_box": 0.0, "completion_bpt": 0.1}, 1),  # 1 wrong and unboxed
        ({"is_correct": 0.0, "has_box": 1.0, "completion_bpt": 1.5}, 2),  # 2 wrong, boxed, low conf
        ({"is_correct": 0.0, "has_box": 1.0, "completion_bpt": 1.0}, 3),  # 3 wrong, boxed, high conf
        ({"is_correct": 1.0, "has_box": 0.0, "completion_bpt": 1.5}, 4),  # 4 correct, unboxed, low
        ({"is_correct": 1.0, "has_box": 0.0, "completion_bpt": 0.5}, 5),  # 5 correct, unboxed, high
        ({"is_correct": 1.0, "has_box": 1.0, "completion_bpt": 1.01}, 6),  # 6 correct, boxed, low
        ({"is_correct": 1.0, "has_box": 1.0, "completion_bpt": 0.5}, 7),  # 7 correct, boxed, high
    ],
    "Length-Robust": INVALID + [
        ({"is_correct": 0.0, "token_ratio": 0.99}, 1),  # 1 wrong, any length
        ({"is_correct": 1.0, "token_ratio": 0.99}, 2),  # 2 correct, verbosity not penalized
    ],
    "Verifier Prob": INVALID + [
        ({"is_correct": 0.0, "compass_context_A": 0.9}, 1),  # 1 wrong and A_high (inconsistent)
        ({"is_correct": 0.0, "compass_context_A": 0.1}, 2),  # 2 wrong and not A_high
        ({"is_correct": 1.0, "compass_context_A": 0.59}, 3),  # 3 correct and not A_high
        ({"is_correct": 1.0, "compass_context_A": 0.6}, 4),  # 4 correct and A_high (>= 0.6)
    ],
    "Efficiency-Adjusted": INVALID + [
        ({"is_correct": 0.0, "token_ratio": 0.1}, 1),  # 1 wrong and economical (<= len_p33)
        ({"is_correct": 0.0, "token_ratio": 0.3}, 2),  # 2 wrong and moderate
        ({"is_correct": 0.0, "token_ratio": 0.9}, 3),  # 3 wrong and verbose (> len_p66)
        ({"is_correct": 1.0, "token_ratio": 0.2}, 4),  # 4 correct and economical (boundary)
        ({"is_correct": 1.0, "token_ratio": 0.5}, 5),  # 5 correct and moderate (boundary len_p66)
        ({"is_correct": 1.0, "token_ratio": 0.51}, 6),  # 6 correct and verbose
    ],
    "Concision-High-Conf": INVALID + [
        ({"is_correct": 0.0, "token_ratio": 0.1, "completion_bpt": 0.1}, 1),  # 1 wrong
        ({"is_correct": 1.0, "token_ratio": 0.9}, 2),  # 2 correct and verbose
        ({"is_correct": 1.0, "token_ratio": 0.4}, 3),  # 3 correct and moderate
        ({"is_correct": 1.0, "token_ratio": 0.1, "completion_bpt": 1.5}, 4),  # 4 economical, not high conf
        ({"is_correct": 1.0, "token_ratio": 0.1, "completion_bpt": 0.5}, 5),  # 5 economical, high conf
    ],
    "Binary correctness": [
        ({"is_correct": 0.0}, 0),
        ({"is_correct": 1.0}, 1),
        ({"is_correct": 1.0, "repeated_pattern": 1.0}, 1),  # no invalid category here
    ],
}

# Reference base-signal schemas, medians frozen: c1_median=-0.5, lp_min_median=-5,
# p2_median=10, p3_median=-300, c3_median=-1000 ("high" means >= median).
REF_FROZEN = {"c1_median": -0.5, "lp_min_median": -5.0, "p2_median": 10.0,
              "p3_median": -300.0, "c3_median": -1000.0}
REF_BASE = {"is_correct": 1.0, "has_box": 1.0, "completion_logprob_mean": -0.5,
            "completion_logprob_min": -5.0, "prompt_ppl": 10.0,
            "prompt_logprob_sum": -300.0, "completion_logprob_sum": -1000.0}
REF_CASES = {
    "Confident & Correct": [
        ({"is_correct": 0.0, "completion_logprob_mean": -0.5}, 0),  # high C1 (== median), wrong
        ({"is_correct": 0.0, "completion_logprob_mean": -0.9}, 1),  # low C1, wrong
        ({"is_correct": 1.0, "completion_logprob_mean": -0.9}, 2),  # low C1, correct
        ({"is_correct": 1.0, "completion_logprob_mean": -0.1}, 3),  # high C1, correct
    ],
    "Token Surprise vs. Correctness": [
        ({"is_correct": 0.0, "completion_logprob_min": -9.0}, 0),  # low T_lp_min, wrong
        ({"is_correct": 0.0, "completion_logprob_min": -1.0}, 1),  # high, wrong
        ({"is_correct": 1.0, "completion_logprob_min": -9.0}, 2),  # low, correct
        ({"is_correct": 1.0, "completion_logprob_min": -5.0}, 3),  # high (== median), correct
    ],
    "Format Compliance & Correctness": [
        ({"is_correct": 0.0, "has_box": 0.0}, 0),
        ({"is_correct": 0.0, "has_box": 1.0}, 1),
        ({"is_correct": 1.0, "has_box": 0.0}, 2),
        ({"is_correct": 1.0, "has_box": 1.0}, 3),
    ],
    "Difficulty-Adjusted Correctness": [
        ({"is_correct": 0.0, "prompt_ppl": 5.0}, 0),  # easy (P2 low), failed
        ({"is_correct": 0.0, "prompt_ppl": 10.0}, 1),  # hard (P2 >= median), failed
        ({"is_correct": 1.0, "prompt_ppl": 5.0}, 2),  # easy solved
        ({"is_correct": 1.0, "prompt_ppl": 50.0}, 3),  # hard solved
    ],
    "IO Ratio Profile": [
        ({"is_correct": 0.0, "prompt_logprob_sum": -400.0, "completion_logprob_sum": -2000.0}, 0),
        ({"is_correct": 0.0, "prompt_logprob_sum": -100.0, "completion_logprob_sum": -10.0}, 1),
        ({"is_correct": 0.0, "prompt_logprob_sum": -400.0, "completion_logprob_sum": -10.0}, 2),
        ({"is_correct": 0.0, "prompt_logprob_sum": -100.0, "completion_logprob_sum": -2000.0}, 2),
        ({"is_correct": 1.0, "prompt_logprob_sum": -400.0, "completion_logprob_sum": -2000.0}, 3),
        ({"is_correct": 1.0, "prompt_logprob_sum": -100.0, "completion_logprob_sum": -2000.0}, 4),
        ({"is_correct": 1.0, "prompt_logprob_sum": -300.0, "completion_logprob_sum": -1000.0}, 5),
        ({"is_correct": 1.0, "prompt_logprob_sum": -400.0, "completion_logprob_sum": -10.0}, 6),
    ],
}


@pytest.mark.parametrize("name", list(CASES))
def test_paper_schema_categories(name):
    schema = get_schema(name)
    rows, expected = zip(*CASES[name])
    frozen = {k: v for k, v in FROZEN.items() if k in schema.threshold_map}
    cat = categorize(make_attempts(rows), schema, frozen)
    assert cat.codes.tolist() == list(expected)
    assert set(expected) == set(range(len(schema.categories))), "every category covered"
    assert cat.codes.dtype == np.int16


@pytest.mark.parametrize("name", list(REF_CASES))
def test_reference_schema_categories(name):
    schema = get_schema(name)
    rows, expected = zip(*REF_CASES[name])
    frozen = {k: v for k, v in REF_FROZEN.items() if k in schema.threshold_map}
    cat = categorize(make_attempts(rows, base=REF_BASE), schema, frozen)
    assert cat.codes.tolist() == list(expected)
    assert set(expected) == set(range(len(schema.categories)))


def test_every_builtin_is_tested():
    assert set(CASES) | set(REF_CASES) == set(list_schemas())
    assert len(list_schemas()) == 18


def test_weights_documented_choices():
    # paper F.1: Format Aware might use [0, 0, 1, 2, 3]
    assert get_schema("Format Aware").weights.tolist() == [0, 0, 1, 2, 3]
    assert get_schema("Binary correctness").weights.tolist() == [0, 1]
    # scorio 0.2.3 categorical/schemas.py scores (code, not README), ordered by weight
    assert get_schema("Confident & Correct").weights.tolist() == [0.1, 0.2, 0.6, 1.0]
    assert get_schema("Token Surprise vs. Correctness").weights.tolist() == [0.1, 0.3, 0.6, 0.9]
    assert get_schema("Format Compliance & Correctness").weights.tolist() == [0.0, 0.3, 0.6, 1.0]
    assert get_schema("Difficulty-Adjusted Correctness").weights.tolist() == [0.1, 0.4, 0.7, 1.0]
    assert get_schema("IO Ratio Profile").weights.tolist() == [0.1, 0.2, 0.2, 0.5, 0.8, 0.8, 1.0]


@pytest.mark.parametrize("name", [n for n in list_schemas() if BUILTIN_SCHEMAS[n].source.startswith("Hariri")])
def test_paper_schemas_start_with_invalid(name):
    schema = get_schema(name)
    assert schema.labels[0] == "invalid" and schema.weights[0] == 0
    assert len(schema.categories) == {"Exact Match": 3, "Format Aware": 5, "Conf-Calibrated": 6,
                                      "OOD Robustness": 5, "Strict Compliance": 3,
                                      "Conf-Wrong Penalty": 4, "Verifier-Only": 4,
                                      "Format+Confidence": 8, "Length-Robust": 3,
                                      "Verifier Prob": 5, "Efficiency-Adjusted": 7,
                                      "Concision-High-Conf": 6}[name]  # paper Table 5


def test_binary_default_works_with_only_is_correct():
    frame = pd.DataFrame({"model": ["a", "a", "b"], "task": "t", "question_id": ["1", "2", "1"],
                          "trial": [0, 0, 0], "is_correct": [1.0, 0.0, 0.0]})
    cat = categorize(frame, "Binary correctness")
    assert cat.codes.tolist() == [1, 0, 0]
    assert cat.coverage.ok and cat.coverage.issues == ()


@pytest.mark.parametrize("name", list_schemas())
def test_builtins_partition_complete_data(name, rng):
    """On data with every signal present, no built-in leaves an attempt unmatched, and no
    category is statically impossible."""
    from tests.rubric.builders import random_attempts

    frame = random_attempts(rng)
    frame["completion_logprob_mean"] = -frame["completion_bpt"] * np.log(2)
    frame["completion_logprob_min"] = -rng.gamma(2, 2, len(frame))
    frame["prompt_ppl"] = 2 ** frame["prompt_bpt"]
    frame["prompt_logprob_sum"] = -rng.gamma(2, 100, len(frame))
    frame["completion_logprob_sum"] = -rng.gamma(2, 500, len(frame))
    cat = categorize(frame, name)
    assert cat.coverage.n_unmatched == 0
    assert not [i for i in cat.coverage.issues if i.kind in ("never_matches", "unknown_name", "type_error")]


def test_get_schema_normalizes_and_suggests():
    assert get_schema("conf wrong penalty").name == "Conf-Wrong Penalty"
    assert get_schema("FORMAT+CONFIDENCE").name == "Format+Confidence"
    from scorio_core.errors import InputError

    with pytest.raises(InputError, match="Did you mean 'Format Aware'"):
        get_schema("Format Awar")


def test_binary_the_name_the_json_settings_give_the_default_is_accepted_back():
    # QA (CI maintainer, 2026-12-02): `settings.schema` says "binary" and `--schema binary` was refused
    assert get_schema("binary").name == get_schema("Binary correctness").name == "Binary correctness"
