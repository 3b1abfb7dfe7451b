"""Model groups (family / organisation) for the sidebar filter (issue 16)."""

from __future__ import annotations

import pandas as pd

from scorio_core.report.groups import model_groups


def test_column_wins_over_the_name_prefix_and_keeps_every_model():
    t = pd.DataFrame({"model": ["a/x", "a/x", "b/y", "c/z"], "organisation": ["A", "A", "B", None]})
    g = model_groups(t)
    assert g.source == "organisation" and g.of == {"a/x": "A", "b/y": "B", "c/z": "(none)"}
    assert g.groups == ["(none)", "A", "B"] and g.models_in(["A"], ["c/z", "a/x"]) == ["a/x"]


def test_a_column_that_varies_within_a_model_is_not_used_and_says_why():
    t = pd.DataFrame({"model": ["org1/x", "org1/x", "org2/y"], "family": ["p", "q", "r"]})
    g = model_groups(t)
    assert g.source == "name prefix" and g.of == {"org1/x": "org1", "org2/y": "org2"}
    assert g.notes == ["column 'family' is not used for groups: it varies within model 'org1/x'."]


def test_no_groups_without_a_column_or_a_prefix_on_every_name():
    assert model_groups(pd.DataFrame({"model": ["org/x", "y"]})) is None
    assert model_groups(pd.DataFrame({"model": ["org/x"]})) is None  # one model: nothing to group
    assert model_groups(pd.DataFrame({"model": ["x", "y"], "provider": ["", " "]})) is None  # empty column
    assert model_groups(None) is None
