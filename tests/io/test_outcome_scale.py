"""Outcomes scored on another scale than 0-1 (``io.load(outcome_scale=...)``, CLI ``--outcome-scale MAX``).

The loaders never rescale by themselves (a score of 1 on a 0-100 scale would read as a full success): they refuse
scores above 1 with the way to read them. With the user's full score every number of the outcome column is divided
by it, a number outside [0, MAX] is refused naming its line, and the provenance says so.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.io.formats.user_recoding import check_outcome_scale, rescale_outcomes
from scorio_core.store._datasets import content_key

# m1: q1 100, 0; q2 100, 100 -> 3 of 4. m2: q1 0, 100; q2 0, 0 -> 1 of 4.
PERCENT = (b"model,question_id,trial,score\nm1,q1,0,100\nm1,q1,1,0\nm1,q2,0,100\nm1,q2,1,100\n"
           b"m2,q1,0,0\nm2,q1,1,100\nm2,q2,0,0\nm2,q2,1,0\n")


def _means(ds) -> dict:
    return ds.attempts.groupby("model", observed=True)["is_correct"].mean().to_dict()


def test_percentages_read_on_their_scale_with_provenance():
    ds = io.load([("pct.csv", PERCENT)], outcome_scale=100)
    assert _means(ds) == {"m1": 0.75, "m2": 0.25}  # by hand, above
    assert dict(ds.sources[0].mapping)["is_correct"] == "score (divided by 100)"
    assert "pct.csv: 8 outcomes divided by 100, the outcome scale given by the user (a score of 100 reads as 1)." in (
        ds.report.notes)


def test_without_the_scale_the_refusal_names_it_and_carries_it_for_the_app():
    with pytest.raises(InputError) as info:
        io.load([("pct.csv", PERCENT)])
    assert "read it so: --outcome-scale 100 (CLI), or Outcome scale under the app's Load button" in str(info.value)
    assert info.value.scale == 100.0 and info.value.outcome_range == (0.0, 100.0)
    with pytest.raises(InputError) as info:  # codes up to 250 are no percentages: no scale offered
        io.load([("codes.csv", b"model,question_id,trial,score\nm,q1,0,250\nm,q2,0,0\n")])
    assert info.value.scale is None and "--outcome-scale" not in str(info.value)


def test_a_score_outside_the_scale_is_refused_naming_its_line():
    data = PERCENT.replace(b"m2,q1,1,100", b"m2,q1,1,104")
    with pytest.raises(InputError) as info:
        io.load([("pct.csv", data)], outcome_scale=100)
    assert str(info.value) == ("pct.csv line 7: field 'is_correct' (the outcome: column 'score') must lie between 0 "
                               "and 100, the outcome scale given (--outcome-scale 100); got 104. Check the value, or "
                               "the scale.")


def test_partial_scores_stay_graded_until_a_choice_reads_them():
    data = PERCENT.replace(b"m1,q1,1,0", b"m1,q1,1,50").replace(b"m2,q2,1,0", b"m2,q2,1,75")
    ds = io.load([("pct.csv", data)], outcome_scale=100)
    assert ds.attempts["score"].tolist() == [1, 0.5, 1, 1, 0, 1, 0, 0.75]
    assert int(ds.attempts["is_correct"].isna().sum()) == 2  # soft scores wait for a threshold or a rubric
    mapping = dict(ds.sources[0].mapping)
    assert mapping["is_correct"] == mapping["score"] == "score (divided by 100)"  # both fields read the column
    chosen = io.apply_choices(ds, binarize_threshold=0.5)  # correct iff score > 0.5: 50 -> 0, 75 -> 1
    assert _means(chosen) == {"m1": 0.75, "m2": 0.5}


def test_words_among_percentages_read_as_missing_and_the_scale_together(tmp_path, capsys):
    """The recoding's values are on the 0-1 scale: the scale divides the numbers, not the recoded labels."""
    path = tmp_path / "pct.csv"
    path.write_bytes(PERCENT.replace(b"m1,q1,1,0", b"m1,q1,1,ERROR").replace(b"m2,q1,1,100", b"m2,q1,1,pass"))
    ds = io.load(path, outcome_scale=100, recode={"error": "missing", "pass": 1})
    assert ds.attempts["is_correct"].isna().sum() == 1
    assert dict(ds.sources[0].mapping)["is_correct"] == "score (divided by 100; recoded: 'error' -> missing, 'pass' -> 1)"
    chosen = io.apply_choices(ds, missing_outcomes="drop")
    assert _means(chosen) == {"m1": 1.0, "m2": 0.25}  # m1: 100, 100, 100 (the error dropped); m2: 0, 1, 0, 0


def test_a_wide_table_s_trial_cells_are_divided_too():
    ds = io.load([("wide.csv", b"model,question_id,run1,run2\na,q1,100,50\na,q2,0,100\nb,q1,0,0\nb,q2,100,0\n")],
                 outcome_scale=100)
    assert ds.attempts["score"].tolist() == [1, 0.5, 0, 1, 0, 0, 1, 0]
    assert "(divided by 100)" in dict(ds.sources[0].mapping)["trial"]


def test_a_scale_no_outcome_was_read_through_is_refused():
    with pytest.raises(InputError) as info:
        io.load([("c.csv", b"model,question_id,n_trials,n_correct\na,q1,4,2\n")], outcome_scale=100)
    assert "no outcome was read through it" in str(info.value) and info.value.field == "outcome_scale"


@pytest.mark.parametrize("scale", [0, -100, float("nan"), float("inf"), "abc"])
def test_a_scale_that_cannot_be_meant_is_refused(scale):
    with pytest.raises(InputError) as info:
        check_outcome_scale(scale)
    assert "must be a number above 0" in str(info.value) and info.value.field == "outcome_scale"


def test_the_refusal_s_flag_loads_the_table_from_the_cli(tmp_path, capsys):
    path = tmp_path / "pct.csv"
    path.write_bytes(PERCENT)
    assert main(["leaderboard", str(path), "--output", "json"]) == 2
    assert "--outcome-scale 100" in capsys.readouterr().err
    assert main(["leaderboard", str(path), "--outcome-scale", "100", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["avg"] for r in doc["rows"]} == {"m1": 0.75, "m2": 0.25}
    assert doc["engine"] == "pandas"  # auto: the SQL engines leave the scale to pandas
    assert doc["sources"][0]["mapping"]["is_correct"] == "score (divided by 100)"
    assert main(["leaderboard", str(path), "--outcome-scale", "100", "--engine", "duckdb"]) == 2
    assert "does not apply --outcome-scale; use --engine pandas" in capsys.readouterr().err


@pytest.mark.parametrize("engine", ["duckdb"])
def test_the_count_pass_s_refusal_carries_the_scale_too(engine, tmp_path):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    path = tmp_path / "pct.csv"
    path.write_bytes(PERCENT)
    with pytest.raises(InputError) as info:
        load_counts(path, engine=engine)
    assert info.value.scale == 100.0 and "--outcome-scale 100" in str(info.value)


def test_two_scales_of_the_same_file_are_two_datasets_in_the_workspace():
    one = io.load([("pct.csv", PERCENT)], outcome_scale=100)
    other = io.load([("pct.csv", PERCENT)], outcome_scale=200)
    assert content_key(["x"], one) != content_key(["x"], other)


def test_a_manifest_restored_without_the_scale_is_refused(tmp_path, capsys):
    path = tmp_path / "pct.csv"
    path.write_bytes(PERCENT.replace(b"m1,q1,1,0", b"m1,q1,1,100"))
    assert main(["export", str(path), "--format", "manifest", "--outcome-scale", "100"]) == 0
    manifest = tmp_path / "m.json"
    manifest.write_text(capsys.readouterr().out)
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), "--outcome-scale", "200",
                 "--binarize-threshold", "0.4"]) == 2
    assert "is_correct <- score (divided by 100)" in capsys.readouterr().err
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), "--outcome-scale", "100"]) == 0


numbers = st.one_of(st.sampled_from(["0", " 100 ", "50.5", "pass", "", None, "true"]),
                    st.integers(0, 100), st.floats(0, 100, allow_nan=False))


@settings(max_examples=60, deadline=None)
@given(st.lists(numbers, min_size=1, max_size=30))
def test_rescaling_divides_exactly_the_numbers(values):
    frame = pd.DataFrame({"o": pd.Series(values, dtype=object), "other": range(len(values))})
    parsed = pd.to_numeric(pd.Series(values, dtype=object).astype("string").str.strip(), errors="coerce")
    if parsed.notna().any() and 0 < parsed.max() <= 1:  # already on the 0-1 scale: refused, never divided
        with pytest.raises(InputError, match="lies within"):
            rescale_outcomes(frame, ["o"], 100.0, lambda row: {"row": row + 1}, "t.csv")
        return
    out, hits = rescale_outcomes(frame, ["o"], 100.0, lambda row: {"row": row + 1}, "t.csv")
    expect = [v if np.isnan(p) else p / 100 for v, p in zip(values, parsed.to_numpy(dtype=float, na_value=np.nan))]
    assert out["o"].tolist() == expect and hits == int(parsed.notna().sum())
    assert out["other"].tolist() == list(range(len(values)))
    assert frame["o"].tolist() == values  # the table as read is not modified


def test_a_column_already_on_the_0_1_scale_is_not_divided():
    """A 0/1 column with --outcome-scale 10 would read every success as 0.1: refused, naming why."""
    with pytest.raises(InputError) as info:
        io.load([("binary.csv", b"model,question_id,trial,correct\na,q1,0,1\na,q1,1,0\nb,q1,0,1\n")], outcome_scale=10)
    assert str(info.value) == ("binary.csv: the outcome scale 10 was given (--outcome-scale), but every number of the "
                               "outcome column ('correct') lies within [0, 1], the usual scale: divided by 10, a full "
                               "success (1) would read as 0.1. Leave the scale out, or check the column.")
    zeros = io.load([("zeros.csv", b"model,question_id,trial,score\na,q1,0,0\na,q1,1,0\n")], outcome_scale=100)
    assert zeros.attempts["is_correct"].tolist() == [0.0, 0.0]  # all 0: the same on any scale
