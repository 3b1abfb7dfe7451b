"""Rubric JSON documents: round trip, short forms, versions, limits, resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import (
    BUILTIN_SCHEMAS,
    Category,
    Schema,
    Threshold,
    Variable,
    categorize,
    load_schema,
    resolve_schema,
    schema_from_json,
    schema_to_dict,
    schema_to_json,
)
from scorio_core.rubric.jsonio import MAX_DOCUMENT_BYTES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rubric"


@pytest.mark.parametrize("name", list(BUILTIN_SCHEMAS))
def test_round_trip_every_builtin(name):
    schema = BUILTIN_SCHEMAS[name]
    text = schema_to_json(schema)
    again = schema_from_json(text)
    assert again == schema
    assert hash(again) == hash(schema)
    assert schema_to_json(again) == text
    doc = json.loads(text)
    assert doc["format"] == "scorio-rubric" and doc["version"] == 1
    assert [c["weight"] for c in doc["categories"]] == schema.weights.tolist()


def test_round_trip_custom_schema_with_everything():
    schema = Schema(
        "Custom: ünïcode & quotes \"'", 
        [Category("a'b", "`judge score` >= t and r != \"it's\"", -1.5, "neg weight"),
         Category("rest", "true", 0)],
        [Variable("v", "not (x < 1)", "desc")],
        [Threshold("t", percentile=12.5, of="judge score", where="v", description="d"),
         Threshold("u", value=-3)],
        description="multi\nline", source="me")
    assert schema_from_json(schema_to_json(schema, indent=None)) == schema
    assert schema_from_json(schema_to_dict(schema)) == schema
    assert schema_from_json(schema_to_json(schema).encode("utf-8")) == schema


def test_fixture_short_forms_and_categorize():
    schema = load_schema(FIXTURES / "soft_score_rubric.json")
    assert [t.name for t in schema.thresholds] == ["pass_mark", "score_p90"]
    assert schema.threshold_map["pass_mark"].value == 0.5
    assert schema.variable_map["passed"].condition == "score >= pass_mark"
    attempts = pd.read_csv(FIXTURES / "attempts_small.csv", dtype={"question_id": str})
    cat = categorize(attempts, schema)
    # hand: truncated -> 0; score < 0.5 -> 1; 0.5 <= score < p90 -> 2; >= p90 -> 3; NaN score -> -1
    # p90 of the 11 scores (linear): index 0.9 * 10 = 9 of the sorted scores -> 0.95 (hand)
    assert cat.thresholds["score_p90"] == 0.95
    assert cat.codes.tolist() == [2, 2, 0, 1, 3, 2, 1, 2, 0, 0, 3, -1]
    assert resolve_schema(str(FIXTURES / "soft_score_rubric.json")) == schema


@pytest.mark.parametrize("doc, message", [
    ({"version": 1, "name": "x", "categories": []}, "'format' must be 'scorio-rubric'"),
    ({"format": "scorio-rubric", "version": 2, "name": "x"}, "unsupported rubric document version 2"),
    ({"format": "scorio-rubric", "version": "1", "name": "x"}, "unsupported rubric document version '1'"),
    ({"format": "scorio-rubric", "version": True, "name": "x"}, "unsupported"),
    ({"format": "scorio-rubric", "version": 1, "name": "x", "categores": []}, "unknown key 'categores'. Did you mean 'categories'"),
    ({"format": "scorio-rubric", "version": 1, "name": "x", "categories": [{"label": "a", "condition": "true"}]},
     "categories[0] is missing 'weight'"),
    ({"format": "scorio-rubric", "version": 1, "name": "x",
      "categories": [{"label": "a", "condition": "true", "weight": 1, "colour": "red"}]}, "categories[0]: unknown key 'colour'"),
    ({"format": "scorio-rubric", "version": 1, "name": "x",
      "categories": [{"label": "a", "condition": "os.system('x')", "weight": 1}]}, "categories[0]: condition of category 'a': attribute access"),
    ({"format": "scorio-rubric", "version": 1, "name": "x", "categories": {"a": 1}}, "'categories' must be a list"),
    ({"format": "scorio-rubric", "version": 1, "name": "x", "categories": [1]}, "categories[0] must be an object"),
    ({"format": "scorio-rubric", "version": 1, "name": "x", "thresholds": {"t": "high"},
      "categories": [{"label": "a", "condition": "true", "weight": 1}]}, "expected an object"),
    ({"format": "scorio-rubric", "version": 1, "name": "",
      "categories": [{"label": "a", "condition": "true", "weight": 1}]}, "schema name must be a non-empty string"),
])
def test_document_errors(doc, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("(", r"\(").replace("]", r"\]")):
        schema_from_json(doc)


def test_text_errors_and_limits():
    with pytest.raises(InputError, match="not valid JSON"):
        schema_from_json("{not json")
    with pytest.raises(InputError, match="must be a JSON object"):
        schema_from_json("[1, 2]")
    with pytest.raises(InputError, match="the limit is 1,000,000"):
        schema_from_json(" " * (MAX_DOCUMENT_BYTES + 1))
    with pytest.raises(InputError, match="the limit is 1,000,000"):
        schema_from_json(b" " * (MAX_DOCUMENT_BYTES + 1))
    with pytest.raises(InputError, match="nested too deeply|not valid JSON"):
        schema_from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="not UTF-8"):
        schema_from_json(b"\xff\xfe")


def test_file_errors(tmp_path):
    with pytest.raises(InputError, match="cannot read rubric file"):
        load_schema(tmp_path / "missing.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_DOCUMENT_BYTES + 10))
    with pytest.raises(InputError, match="big.json: rubric document is 1,000,010 bytes"):
        load_schema(big)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "scorio-rubric", "version": 1, "name": "x", "categories": [{"label": 1}]}')
    with pytest.raises(InputError, match=r"^bad.json: categories\[0\] is missing"):
        load_schema(bad)


def test_resolve_schema_forms(tmp_path):
    builtin = BUILTIN_SCHEMAS["Format Aware"]
    assert resolve_schema("format aware") is builtin
    assert resolve_schema(builtin) is builtin
    assert resolve_schema(schema_to_dict(builtin)) == builtin
    assert resolve_schema(schema_to_json(builtin)) == builtin
    path = tmp_path / "mine.json"
    path.write_text(schema_to_json(builtin.replace(name="Mine")))
    assert resolve_schema(path).name == "Mine"
    assert resolve_schema(str(path)).name == "Mine"
    with pytest.raises(InputError, match="unknown schema 'Formt Aware'. Did you mean 'Format Aware'"):
        resolve_schema("Formt Aware")
    with pytest.raises(InputError, match="cannot read rubric file"):
        resolve_schema("nope.json")
    with pytest.raises(InputError, match="must be a Schema, a name"):
        resolve_schema(3)
