"""Rubric weights must be finite and within the stated range (issue 17)."""

from __future__ import annotations

import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import get_schema
from scorio_core.rubric.schema import MAX_ABS_WEIGHT


@pytest.mark.parametrize("bad", [1e308, -1e7, float("inf"), float("nan")])
def test_weights_outside_the_range_are_refused(bad):
    schema = get_schema("Binary correctness")
    with pytest.raises(InputError, match="weight of"):
        schema.with_weights([0.0, bad])


def test_largest_weight_is_accepted():
    schema = get_schema("Binary correctness").with_weights([-MAX_ABS_WEIGHT, MAX_ABS_WEIGHT])
    assert schema.weights.tolist() == [-1e6, 1e6]
