"""A user-confirmed recoding of outcome labels (``io.load(recode=...)``, CLI ``--recode LABEL=VALUE``).

The loaders never guess what a text label means (tests/io/test_recoding_hints.py: they refuse and show the
recoding); with the user's recoding the labels given are read as their values, the provenance says so, and any
label it misses is still refused, naming the value and the recoding.
"""

from __future__ import annotations

import json
import shlex

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.io.formats.user_recoding import check_recoding, parse_recoding, recode_outcomes
from scorio_core.store._datasets import content_key

# m1: q1 Pass, fail; q2 pass, pass -> 3 of 4. m2: q1 FAIL, pass; q2 fail, fail -> 1 of 4.
PASS_FAIL = ("model,question,trial,result\nm1,q1,0,Pass\nm1,q1,1,fail\nm1,q2,0,pass\nm1,q2,1, pass \n"
             "m2,q1,0,FAIL\nm2,q1,1,pass\nm2,q2,0,fail\nm2,q2,1,fail\n").encode()
MAP = {"is_correct": "result"}


def test_the_labels_read_as_their_values_with_provenance():
    ds = io.load([("runs.csv", PASS_FAIL)], mapping=MAP, recode={"pass": 1, "fail": 0})
    means = ds.attempts.groupby("model", observed=True)["is_correct"].mean()
    assert means.to_dict() == {"m1": 0.75, "m2": 0.25}  # by hand, above
    assert dict(ds.sources[0].mapping)["is_correct"] == "result (recoded: 'fail' -> 0, 'pass' -> 1)"
    assert "runs.csv: 8 outcome labels read as recoded by the user ('fail' -> 0, 'pass' -> 1)." in ds.report.notes


def test_without_the_recoding_the_table_is_refused_as_before():
    with pytest.raises(InputError) as info:
        io.load([("runs.csv", PASS_FAIL)], mapping=MAP)
    assert "--recode fail=0 --recode pass=1 (CLI)" in str(info.value) and info.value.field == "is_correct"


def test_a_label_the_recoding_misses_is_named_with_the_recoding():
    with pytest.raises(InputError) as info:
        io.load([("runs.csv", PASS_FAIL)], mapping=MAP, recode={"pass": 1})
    text = str(info.value)
    assert "got 'fail'" in text and "The recoding given ('pass' -> 1) does not cover this value" in text


def test_a_recoding_that_matches_nothing_is_refused():
    table = b"model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,0\n"
    with pytest.raises(InputError) as info:
        io.load([("numbers.csv", table)], recode={"pass": 1})
    assert "no outcome value matched the recoding ('pass' -> 1)" in str(info.value) and info.value.field == "recode"


def test_inspect_letters_in_a_wide_table_as_inspect_reads_them():
    wide = b"model,question,run1,run2\nm1,q1,C,I\nm2,q1,I,P\nm2,q2,N,c\n"
    ds = io.load([("wide.csv", wide)], recode={"C": 1, "I": 0, "P": 0.5, "N": 0})
    got = ds.attempts.sort_values(["model", "question_id", "trial"])
    assert got["score"].tolist() == [1.0, 0.0, 0.0, 0.5, 0.0, 1.0]  # P is partial credit: a soft score
    assert np.isnan(got["is_correct"].to_numpy()[3])  # ... left for the user's threshold, as Inspect's 0.5 is
    assert "(recoded: 'c' -> 1, 'i' -> 0, 'n' -> 0, 'p' -> 0.5)" in dict(ds.sources[0].mapping)["trial"]


@pytest.mark.parametrize(("recode", "said"), [
    ({"1": 1}, "already read as an outcome"),
    ({"TRUE": 0}, "already read as an outcome"),
    ({"N/A": 0}, "--missing-outcomes incorrect"),
    ({"pass": 2}, "a number from 0 (incorrect) to 1 (correct)"),
    ({"pass": float("nan")}, "a number from 0 (incorrect) to 1 (correct)"),
    ({"pass": "yes"}, "a number from 0 (incorrect) to 1 (correct)"),
    ({"Pass": 1, "pass ": 0}, "two values"),
    ({" ": 1}, "empty label"),
])
def test_a_recoding_that_cannot_be_meant_is_refused(recode, said):
    with pytest.raises(InputError) as info:
        check_recoding(recode)
    assert said in str(info.value) and info.value.field == "recode"


def test_the_cli_option_is_parsed_label_equals_value():
    assert parse_recoding(["pass=1", " Fail = 0", "a=b=0.5"]) == {"pass": 1.0, "fail": 0.0, "a=b": 0.5}
    assert parse_recoding(None) == {}
    with pytest.raises(InputError, match="LABEL=VALUE"):
        parse_recoding(["pass"])
    with pytest.raises(InputError, match="two values"):
        parse_recoding(["pass=1", "PASS=0"])


def test_the_refusal_s_flags_load_the_table_from_the_cli(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    path.write_bytes(PASS_FAIL)
    assert main(["leaderboard", str(path), "--map", "is_correct=result", "--output", "json"]) == 2
    err = capsys.readouterr().err
    flags = shlex.split(err.split("have them read so when loading: ")[1].split(" (CLI)")[0])
    assert flags == ["--recode", "fail=0", "--recode", "pass=1"]
    assert main(["leaderboard", str(path), "--map", "is_correct=result", *flags, "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["avg"] for r in doc["rows"]} == {"m1": 0.75, "m2": 0.25}
    assert doc["sources"][0]["mapping"]["is_correct"] == "result (recoded: 'fail' -> 0, 'pass' -> 1)"
    assert any("read as recoded by the user" in n["message"] for n in doc["notes"])


def test_the_sql_engines_leave_a_recoding_to_pandas(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    path.write_bytes(PASS_FAIL)
    args = ["leaderboard", str(path), "--map", "is_correct=result", "--recode", "pass=1", "--recode", "fail=0"]
    assert main([*args, "--engine", "duckdb"]) == 2
    assert "does not apply --recode; use --engine pandas" in capsys.readouterr().err
    assert main([*args, "--output", "json"]) == 0  # auto: pandas
    assert json.loads(capsys.readouterr().out)["engine"] == "pandas"


def test_two_recodings_of_the_same_file_are_two_datasets_in_the_workspace():
    one = io.load([("runs.csv", PASS_FAIL)], mapping=MAP, recode={"pass": 1, "fail": 0})
    other = io.load([("runs.csv", PASS_FAIL)], mapping=MAP, recode={"pass": 1, "fail": 0.5})
    assert content_key(["x"], one) != content_key(["x"], other)


labels = st.sampled_from(["pass", "fail", "PASS", " Fail", "maybe", None, "1", "0"])


@settings(max_examples=60, deadline=None)
@given(st.lists(labels, min_size=1, max_size=30))
def test_recoding_replaces_exactly_the_labels_given(values):
    frame = pd.DataFrame({"o": pd.Series(values, dtype=object), "other": range(len(values))})
    out, hits = recode_outcomes(frame, ["o"], {"pass": 1.0, "fail": 0.0})
    expect = [{"pass": 1.0, "fail": 0.0}.get(v.strip().lower(), v) if isinstance(v, str) else v for v in values]
    assert out["o"].tolist() == expect and out["other"].tolist() == list(range(len(values)))
    assert hits == sum(isinstance(v, str) and v.strip().lower() in ("pass", "fail") for v in values)
    assert frame["o"].tolist() == values  # the table as read is not modified


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_the_refusal_carries_the_labels_for_the_app_s_form(engine, tmp_path):
    """The app's *Recode outcome labels* starts from the refused labels and the words' usual meaning (None: the
    user's to fill); DuckDB's count pass (large uploads) gives them too."""
    path = tmp_path / "runs.csv"
    path.write_bytes(PASS_FAIL.replace(b"m2,q2,1,fail", b"m2,q2,1,skipped"))
    with pytest.raises(InputError) as info:
        if engine == "duckdb":
            pytest.importorskip("duckdb")
            from scorio_core.engines import load_counts

            load_counts(path, engine="duckdb", mapping=MAP)
        else:
            io.load(path, mapping=MAP)
    assert info.value.labels == {"fail": 0.0, "pass": 1.0, "skipped": None}


MIXED = b"model,question_id,trial,is_correct\nm1,q1,0,1\nm1,q1,1,ERROR\nm1,q2,0,0\nm1,q2,1,1\nm2,q1,0,0\nm2,q1,1,0\nm2,q2,0,time out\nm2,q2,1,1\n"


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_words_among_numbers_get_both_readings(engine, tmp_path):
    """An API error or a timeout written into a 0/1 column: failures or missing outcomes, the user's call; the
    refusal offers both, with the flags for the words found."""
    path = tmp_path / "mixed.csv"
    path.write_bytes(MIXED)
    with pytest.raises(InputError) as info:
        if engine == "duckdb":
            pytest.importorskip("duckdb")
            from scorio_core.engines import load_counts

            load_counts(path, engine="duckdb")
        else:
            io.load(path)
    text = str(info.value)
    assert "holds text among its numbers ('ERROR', 'time out')" in text
    assert "--recode error=missing --recode 'time out=missing' with --missing-outcomes drop" in text
    assert info.value.labels == {"error": None, "time out": None}


def test_a_label_read_as_missing_waits_for_the_missing_outcomes_choice(tmp_path, capsys):
    path = tmp_path / "mixed.csv"
    path.write_bytes(MIXED)
    recode = ["--recode", "error=missing", "--recode", "time out=missing"]
    assert main(["leaderboard", str(path), *recode, "--output", "json"]) == 2
    assert "2 attempts have no outcome" in capsys.readouterr().err  # nothing filled by the recoding itself
    assert main(["leaderboard", str(path), *recode, "--missing-outcomes", "drop", "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["m1"]["avg"] == 0.75 and rows["m2"]["avg"] == 0.5  # question means: m1 (1/1 + 1/2) / 2, m2 (0 + 1/1) / 2
    assert main(["leaderboard", str(path), "--recode", "error=0", "--recode", "time out=0", "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["m1"]["avg"] == 0.5 and rows["m2"]["avg"] == 0.25  # as failures: (1/2 + 1/2) / 2, (0 + 1/2) / 2
    ds = io.load(path, recode={"ERROR": "missing", "time out": None})
    assert dict(ds.sources[0].mapping)["is_correct"] == "is_correct (recoded: 'error' -> missing, 'time out' -> missing)"


def test_labels_of_no_known_meaning_are_offered_the_recoding_too():
    """'skipped' beside pass/fail: no usual value to print, so the refusal names the option (and the pandas line)."""
    with pytest.raises(InputError) as info:
        io.load([("runs.csv", PASS_FAIL.replace(b"m2,q2,1,fail", b"m2,q2,1,skipped"))], mapping=MAP)
    assert str(info.value).endswith("have them read when loading: --recode LABEL=VALUE for each label (CLI), or "
                                    "Recode outcome labels under the app's Load button.")
