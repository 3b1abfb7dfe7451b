"""Loading dumps whose outcome is a category code: a text outcome beside the codes is not read as is_correct,
``--map FIELD=none`` un-maps a field, and text labels alone get an error saying how to recode them."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io import infer_mapping

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "categories"


def test_text_outcome_beside_category_codes_is_left_unmapped_with_a_note():
    ds = io.load([str(FIXTURES / "codes_outcome.csv")])
    (source,) = ds.sources
    mapping = dict(source.mapping)
    assert mapping["category"] == "category" and "is_correct" not in mapping
    assert ds.attempts["is_correct"].isna().all()
    assert ds.attempts["outcome"].astype(str).iloc[0] == "wrong"  # kept as a signal a rubric can read
    notes = " ".join(ds.report.notes)
    assert "column 'outcome' holds text" in notes and "not read as is_correct" in notes


def test_a_binary_outcome_beside_category_codes_is_still_read():
    text = "model,question_id,trial,category,outcome\nm,q1,0,3,1\nm,q1,1,0,0\n"
    ds = io.load([("both.csv", text.encode())])
    assert ds.attempts["is_correct"].tolist() == [1.0, 0.0]


def test_map_none_unmaps_a_field():
    guess = infer_mapping(["model", "question_id", "trial", "category", "outcome"], {"is_correct": "none"})
    assert "is_correct" not in guess.mapping and guess.unmapped == ("is_correct",) and guess.ok
    assert guess.to_dict()["unmapped"] == ["is_correct"]
    text = "model,question_id,trial,category,is_correct\nm,q1,0,3,1\nm,q1,1,0,0\n"
    ds = io.load([("full.csv", text.encode())], mapping={"is_correct": "None"})
    assert ds.attempts["is_correct"].isna().all() and ds.attempts["category"].tolist() == [3, 0]
    assert "is_correct" not in dict(ds.sources[0].mapping)


def test_map_none_without_category_names_the_missing_outcome():
    text = "model,question_id,trial,correct\nm,q1,0,1\n"
    with pytest.raises(InputError, match="no column found for required field 'is_correct'"):
        io.load([("r.csv", text.encode())], mapping={"is_correct": "none"})


def test_a_column_named_none_is_still_mappable():
    guess = infer_mapping(["model", "question_id", "none"], {"is_correct": "none"})
    assert guess.mapping["is_correct"] == "none" and guess.unmapped == ()


def test_user_mapped_text_outcome_error_never_suggests_the_failed_mapping():
    with pytest.raises(InputError) as err:
        io.load([str(FIXTURES / "codes_outcome.csv")], mapping={"is_correct": "outcome"})
    message = str(err.value)
    assert "got 'wrong'" in message and "integer codes in a 'category' column" in message
    assert "--map is_correct=none" in message and "--map is_correct=outcome" not in message


def test_label_only_dump_says_to_recode_text_labels():
    with pytest.raises(InputError) as err:
        io.load([str(FIXTURES / "textlabel.csv")])
    message = str(err.value)
    assert message.startswith("textlabel.csv: no column found for required field 'is_correct'")
    assert "text labels" in message and "'category' column" in message and "0/1 in an 'is_correct' column" in message
    assert "df['label'].map(" in message and "README, 'Text labels'" in message


def test_readme_shows_the_recoding_the_error_refers_to():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "**Text labels**" in readme and "df['category'] = df['label'].map(" in readme and "duckdb -c" in readme
