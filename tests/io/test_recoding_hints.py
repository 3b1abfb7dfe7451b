"""An outcome column of Inspect AI's score letters (C, I, P, N) is refused with the recoding Inspect applies."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io.formats.harnesses.inspect_ai import value_to_float
from scorio_core.io.formats.recoding import letter_scores_hint

CSV = "model,question_id,trial,score\nm1,q1,0,C\nm1,q1,1,I\nm1,q2,0,P\nm2,q1,0,N\nm2,q2,0,C\n"


def _refusal(path, engine: str, mapping=None) -> InputError:
    """The InputError loading ``path`` raises with the pandas loader or DuckDB's count pass."""
    if engine == "duckdb":
        pytest.importorskip("duckdb")
        from scorio_core.engines import load_counts

        with pytest.raises(InputError) as info:
            load_counts(path, engine="duckdb", mapping=mapping)
    else:
        with pytest.raises(InputError) as info:
            io.load(path, mapping=mapping)
    return info.value


def test_the_hint_recodes_as_inspect_does():
    hint = letter_scores_hint(["C", "I", "P", "N"], "score")
    # Inspect AI's value_to_float (inspect_ai/scorer/_metric.py): CORRECT "C" 1.0, INCORRECT "I" 0, PARTIAL "P" 0.5,
    # NOANSWER "N" 0; the Inspect reader applies the same values
    assert "df['score'].map({'C': 1, 'I': 0, 'P': 0.5, 'N': 0})" in hint
    assert [value_to_float(v) for v in "CIPN"] == [1.0, 0.0, 0.5, 0.0]
    assert letter_scores_hint(["P", "N"]) == ""  # no C or I: not recognisably Inspect's
    assert letter_scores_hint(["C", "wrong"]) == "" and letter_scores_hint([]) == ""
    assert letter_scores_hint([" C", None, float("nan"), "I"])  # spaces and empty cells do not hide it


def test_pandas_and_duckdb_name_inspect_letters(tmp_path):
    path = tmp_path / "samples.csv"
    path.write_text(CSV)
    with pytest.raises(InputError) as info:
        io.load(path)
    text = str(info.value)
    assert "look like Inspect AI's scores" in text and "df['score'].map(" in text and "samples.csv" in text
    assert "text labels" not in text  # the specific advice, not the generic one
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    with pytest.raises(InputError) as info:
        load_counts(path, engine="duckdb")
    assert "look like Inspect AI's scores" in str(info.value) and info.value.field == "is_correct"


def test_other_text_labels_keep_the_generic_advice(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("model,question_id,trial,score\nm1,q1,0,correct\nm1,q1,1,wrong\nm1,q2,0,partially correct\n")
    with pytest.raises(InputError) as info:
        io.load(path)
    assert "text labels" in str(info.value) and "Inspect" not in str(info.value)


def test_a_wide_table_of_letters_names_its_trial_columns(tmp_path):
    path = tmp_path / "wide.csv"  # one column per trial: the hint cannot name one column
    path.write_text("model,question_id,trial_0,trial_1\nm1,q1,C,I\nm1,q2,I,I\nm2,q1,C,C\n")
    with pytest.raises(InputError) as info:
        io.load(path)
    text = str(info.value)
    assert "look like Inspect AI's scores" in text and "the trial cells" in text
    assert "df[trial_columns] = df[trial_columns].replace({'C': 1, 'I': 0, 'P': 0.5, 'N': 0})" in text
    assert "trial cells'" not in text  # not our placeholder as a column name


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_scores_on_a_0_to_100_scale_are_refused_with_the_rescaling(tmp_path, engine):
    path = tmp_path / "pct.csv"  # never rescaled silently: a score of 1 out of 100 would read as a success
    path.write_text("model,question_id,trial,score\nm1,q1,0,0\nm1,q1,1,100\nm2,q1,0,37.5\n")
    error = _refusal(path, engine)  # DuckDB does not know the user's column name at that point: COLUMN
    assert f"df['is_correct'] = df['{'score' if engine == 'pandas' else 'COLUMN'}'] / 100" in str(error)
    assert "holds percentages (0 to 100)" in str(error) and error.field == "is_correct"
    path.write_text("model,question_id,trial,score\nm1,q1,0,0\nm1,q1,1,250\n")  # above 100: not a percentage
    with pytest.raises(InputError) as info:
        io.load(path)
    assert "percentages" not in str(info.value) and "got 250" in str(info.value)


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_pass_fail_words_are_refused_with_their_0_1_recoding(tmp_path, engine):
    path = tmp_path / "pf.csv"
    path.write_text("model,question_id,trial,correct\nm1,q1,0,pass\nm1,q1,1,FAIL\nm2,q1,0,Pass\n")
    error = _refusal(path, engine)
    column = "correct" if engine == "pandas" else "COLUMN"
    assert f"df['is_correct'] = df['{column}'].map({{'FAIL': 0, 'Pass': 1, 'pass': 1}})" in str(error)
    assert "success/failure labels" in str(error) and error.field == "is_correct"
    path.write_text("model,question_id,trial,correct\nm1,q1,0,pass\nm1,q1,1,partial\n")  # a third label: no 0/1 reading
    with pytest.raises(InputError) as info:
        io.load(path)
    assert "success/failure" not in str(info.value) and "text labels" in str(info.value)


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_trials_labelled_by_text_are_refused_with_how_to_number_them(tmp_path, engine):
    path = tmp_path / "runs.csv"
    path.write_text("model,question_id,run,is_correct\nm1,q1,run-a,1\nm1,q1,run-b,0\nm2,q1,run-a,1\nm2,q1,run-b,1\n")
    error = _refusal(path, engine, mapping={"trial": "run"})
    if engine == "pandas":  # DuckDB's cast leaves no value to show: "an empty value or text", COLUMN
        assert "df['trial'] = pd.factorize(df['run'])[0]" in str(error) and "got 'run-a'" in str(error)
    assert "pd.factorize(" in str(error) and "--map trial=none" in str(error) and error.field == "trial"
    ds = io.load(path, mapping={"trial": "none"})  # the advice works: each row one trial, in row order
    assert ds.to_counts()["n_trials"].tolist() == [2, 2] and ds.to_counts()["n_correct"].tolist() == [1, 2]
    path.write_text("model,question_id,trial,is_correct\nm1,q1,1.5,1\n")  # a number that is not whole: no text advice
    with pytest.raises(InputError) as info:
        io.load(path)
    assert "labelled by text" not in str(info.value)


def test_a_table_of_one_score_per_model_says_what_data_is_needed(tmp_path):
    path = tmp_path / "board.csv"  # a published leaderboard: no question column
    path.write_text("model,benchmark,accuracy\ngpt-4o,mmlu,0.887\ngpt-4o,gsm8k,0.92\nllama-3-70b,mmlu,0.82\n")
    with pytest.raises(InputError) as info:
        io.load(path)
    text = str(info.value)
    assert "no column found for required field 'question_id'" in text and info.value.field == "question_id"
    assert "one score per model (and task)" in text and "lm-eval --log_samples" in text


def test_a_question_id_column_empty_on_every_row_names_the_columns_that_vary():
    """lighteval's older details leave doc.id empty: the refusal says the column is empty on every row (not only the
    first row) and names the columns that could identify the questions."""
    from scorio_core import io
    from scorio_core.errors import InputError

    data = b"model,question_id,example,correct\nm,,What is 1+1,1\nm,,What is 2+2,0\n"
    with pytest.raises(InputError, match=r"column 'question_id' \(question_id\) is empty on every row.*"
                                         r"columns whose values vary: example\)"):
        io.load([("details.csv", data)])
    ds = io.load([("details.csv", data)], mapping={"question_id": "example"})
    assert len(ds.attempts) == 2
    with pytest.raises(InputError, match=r"line 3: field 'question_id' is empty; every row needs a value"):
        io.load([("one.csv", b"model,question_id,correct\nm,q1,1\nm,,0\n")])  # one empty row: the row is named
