"""Display names (issue 16): shorter, always unique, the full name kept elsewhere."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.report.names import display_names


def test_prefixes_and_dates_by_hand():
    names = display_names(["anthropic/claude-3-5-sonnet-20241022", "openai/gpt-4o-2024-08-06", "openai/gpt-4-0613"])
    assert list(names.values()) == ["claude-3-5-sonnet", "gpt-4o", "gpt-4-0613"]  # -0613 is not a date we cut
    assert display_names(["runs__2025__m1", "runs__2025__m2"]) == {"runs__2025__m1": "m1", "runs__2025__m2": "m2"}
    assert display_names(["gpt-4o", "gpt-4"]) == {"gpt-4o": "gpt-4o", "gpt-4": "gpt-4"}  # dashes are part of names
    assert display_names(["x/a", "y/a"]) == {"x/a": "x/a", "y/a": "y/a"}  # would collide: kept
    odd = ["<b>bold</b>-beta", "a b/c", "model-alpha"]
    assert display_names(odd) == {n: n for n in odd}  # only organisation-like prefixes (letters, digits, . _ -)
    long = display_names(["m" * 60])["m" * 60]
    assert len(long) == 36 and "…" in long


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab/_-:2019 ", min_size=1, max_size=24), min_size=1, max_size=8, unique=True))
def test_display_names_stay_unique_and_non_empty(models):
    names = display_names(models)
    assert list(names) == models
    assert len(set(names.values())) == len(models)
    assert all(v for v in names.values())
