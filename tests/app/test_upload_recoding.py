"""AppTest: an upload whose values need recoding shows the recoding to write and keeps what was loaded before.

The loaders refuse pass/fail words, 0-100 scores and text trial labels rather than guess
(``scorio_core.io.formats.recoding``); in the app the error box must carry the same advice, escaped, and the
previous upload stays active.
"""

from __future__ import annotations

from tests.app.conftest import no_exception, saved_key, shown
from tests.app.test_pages_data import upload

GOOD = b"model,question_id,trial,is_correct\na,q1,0,1\na,q1,1,0\nb,q1,0,1\nb,q1,1,1\n"
CASES = {  # file -> (content, what the error box must say)
    "passfail.csv": (b"model,question_id,trial,correct\na,q1,0,pass\na,q1,1,FAIL\nb,q1,0,pass\n",
                     "df['is_correct'] = df['correct'].map({'FAIL': 0, 'pass': 1})"),
    "percent.csv": (b"model,question_id,trial,score\na,q1,0,0\na,q1,1,100\nb,q1,0,50\n",
                    "df['is_correct'] = df['score'] / 100"),
    "runs.csv": (b"model,question_id,trial,is_correct\na,q1,run-a,1\na,q1,run-b,0\nb,q1,run-a,1\n",
                 "pd.factorize(df['trial'])[0]"),
}


def test_recoding_advice_in_the_error_box_and_the_good_upload_kept(app):
    upload(app, ("good.csv", GOOD, "text/csv"))
    good = saved_key(app, "good")
    assert app.session_state["dataset"] == good
    for name, (content, advice) in CASES.items():
        upload(app, (name, content, "text/csv"))
        no_exception(app)
        errors = [shown(e.value) for e in app.main.error if name in shown(e.value)]
        assert errors and any(advice in e for e in errors), (name, [e.value for e in app.main.error])
        assert app.session_state["dataset"] == good  # nothing the user loaded before is lost
        assert list(app.session_state["_ws_names"].values()) == ["good"]


def test_text_labels_load_through_the_recoding_form(app):
    """The refusal of pass/fail opens *Recode outcome labels* above the Load button, prefilled with the words' usual
    meaning; Load again reads them so, and the dataset's provenance carries the recoding."""
    upload(app, ("good.csv", GOOD, "text/csv"))
    good = saved_key(app, "good")
    content = b"model,question_id,trial,correct\na,q1,0,pass\na,q1,1,FAIL\nb,q1,0,pass\nb,q1,1,pass\nb,q2,0,skipped\n"
    upload(app, ("labels.csv", content, "text/csv"))
    assert any("labels.csv" in shown(e.value) and "got 'pass'" in shown(e.value) for e in app.main.error), [
        e.value for e in app.main.error]
    assert [e.label for e in app.main.expander if e.label == "Recode outcome labels"]
    assert app.session_state["dataset"] == good
    app.button(key="upload_load").click().run()  # 'skipped' has no usual meaning: left empty, still refused, named
    no_exception(app)
    errors = [shown(e.value) for e in app.main.error]
    assert any("got 'skipped'" in e and "does not cover this value" in e for e in errors), errors
    assert app.session_state["dataset"] == good

    fixed = content.replace(b"skipped", b"fail")
    upload(app, ("labels.csv", fixed, "text/csv"))  # other bytes: a new form, prefilled, then Load reads them
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = saved_key(app, "labels")
    assert app.session_state["dataset"] == key
    from dashboard.data.workspace import open_ws_dataset

    dataset = open_ws_dataset(key)  # what a share link opens
    assert dict(dataset.sources[0].mapping)["is_correct"] == "correct (recoded: 'fail' -> 0, 'pass' -> 1)"
    assert dataset.attempts.groupby("model", observed=True)["is_correct"].mean().to_dict() == {"a": 0.5, "b": 2 / 3}


def test_words_among_numbers_open_the_form_with_nothing_prefilled(app):
    """'ERROR' in a 0/1 column: a failure or a missing outcome is the user's call, so its value starts empty."""
    upload(app, ("errors.csv", b"model,question_id,trial,is_correct\na,q1,0,1\na,q1,1,ERROR\nb,q1,0,0\n", "text/csv"))
    no_exception(app)
    assert any("holds text among its numbers ('ERROR')" in shown(e.value) for e in app.main.error)
    (form,) = [e for e in app.main.expander if e.label == "Recode outcome labels"]
    (table,) = [d for d in form.children.values() if getattr(d, "type", "") == "dataframe"]
    assert table.value["label"].tolist() == ["error"] and table.value["value"].tolist() == [""]  # the editor's data


PERCENT = b"model,question_id,trial,score\na,q1,0,100\na,q1,1,0\nb,q1,0,100\nb,q1,1,100\nb,q2,0,0\nb,q2,1,100\n"


def test_percentages_load_through_the_outcome_scale(app):
    """Scores up to 100 are refused with *Outcome scale* above the Load button, 100 to start with; Load divides
    them, and the dataset's provenance says so."""
    upload(app, ("good.csv", GOOD, "text/csv"))
    good = saved_key(app, "good")
    upload(app, ("pct.csv", PERCENT, "text/csv"))
    no_exception(app)
    assert any("--outcome-scale 100" in shown(e.value) for e in app.main.error), [e.value for e in app.main.error]
    assert app.session_state["dataset"] == good
    (scale,) = [n for n in app.main.number_input if n.key.startswith("upload_scale_")]
    assert scale.value == 100.0  # a suggestion: the scores found are shown beside it, for the user to check
    assert any("holds scores above 1 (from 0 to 100 in this file)" in shown(c.value) for c in app.main.caption)
    assert not [e for e in app.main.expander if e.label == "Recode outcome labels"]  # no text to recode
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = saved_key(app, "pct")
    assert app.session_state["dataset"] == key
    from dashboard.data.workspace import open_ws_dataset

    dataset = open_ws_dataset(key)
    assert dict(dataset.sources[0].mapping)["is_correct"] == "score (divided by 100)"
    assert dataset.attempts.groupby("model", observed=True)["is_correct"].mean().to_dict() == {"a": 0.5, "b": 0.75}


def test_labels_then_percentages_keep_both_readings(app):
    """'pass' among 0-100 scores: the labels are refused first (the recoding prefilled), then the scores above 1;
    the form then offers both, and Load reads the file with both."""
    content = PERCENT.replace(b"b,q2,1,100", b"b,q2,1,pass")
    upload(app, ("mixed.csv", content, "text/csv"))
    assert [e for e in app.main.expander if e.label == "Recode outcome labels"]
    app.button(key="upload_load").click().run()  # 'pass' read as 1: now the scores up to 100 are refused
    no_exception(app)
    assert [e for e in app.main.expander if e.label == "Recode outcome labels"]
    assert [n for n in app.main.number_input if n.key.startswith("upload_scale_")]
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = saved_key(app, "mixed")
    assert app.session_state["dataset"] == key
    from dashboard.data.workspace import open_ws_dataset

    mapping = dict(open_ws_dataset(key).sources[0].mapping)
    assert mapping["is_correct"] == "score (divided by 100; recoded: 'pass' -> 1)"


def test_attempts_with_an_error_read_as_missing_when_ticked(app):
    """A table with an error column shows *Read attempts with an error as missing* above Load; ticked, the errored
    attempt's outcome is missing (the Data page's missing-outcomes choice then decides it), as the provenance says."""
    content = (b"model,question_id,trial,is_correct,error\na,q1,0,1,\na,q1,1,0,API error 529\na,q2,0,1,\n"
               b"b,q1,0,0,\nb,q1,1,1,\nb,q2,0,1,\n")
    upload(app, ("runs.csv", content, "text/csv"))  # loads it as the file gives it (unticked)
    from dashboard.data.workspace import open_ws_dataset

    first = saved_key(app, "runs")
    as_given = open_ws_dataset(first)
    assert any("1 attempt records an error in column 'error'" in n for n in as_given.report.notes)
    (tick,) = [c for c in app.main.checkbox if c.key.startswith("upload_errors_")]
    assert tick.value is False and tick.label == "Read attempts with an error as missing"
    tick.check().run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = app.session_state["dataset"]
    assert key.startswith("ws:") and key != first  # another reading of the same bytes: another dataset
    dataset = open_ws_dataset(key)
    assert dict(dataset.sources[0].mapping)["is_correct"] == "is_correct (attempts with an error in 'error' read as missing)"
    assert int(dataset.attempts["is_correct"].isna().sum()) == 1


def test_no_error_choice_for_files_without_an_error_column(app):
    upload(app, ("good.csv", GOOD, "text/csv"))
    assert not [c for c in app.main.checkbox if (c.key or "").startswith("upload_errors_")]


def test_a_response_matrix_loads_through_the_column_mapping(app):
    """A models x questions matrix (no question column): the mapping asks for question_id and offers 'every other
    column'; Load reads each cell as an attempt, and the provenance names the columns."""
    content = b"model,q1,q2,q3,q4\na,1,0,1,0\nb,1,1,1,0\nc,0,0,1,\n"
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("matrix.csv", content, "text/csv")).run()
    no_exception(app)
    assert app.button(key="upload_load").disabled  # question_id to choose first
    box = app.selectbox(key="map_question_id")
    assert "every other column (a response matrix)" in box.options
    box.set_value("every other column (a response matrix)").run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = saved_key(app, "matrix")
    assert app.session_state["dataset"] == key
    from dashboard.data.workspace import open_ws_dataset

    dataset = open_ws_dataset(key)
    assert dict(dataset.sources[0].mapping)["question_id"] == "<columns: q1, q2, q3, q4>"
    assert dataset.attempts.groupby("model", observed=True)["is_correct"].mean().round(4).to_dict() == {
        "a": 0.5, "b": 0.75, "c": 0.3333}


def test_a_matrix_of_models_in_columns_loads_through_the_override(app):
    """One row per question, one column per model: no outcome column, so the mapping asks for is_correct and says
    how to read a matrix; the override 'model <- every other column' makes the choice moot and Load reads it."""
    content = b"question_id,a,b,c\nq1,1,1,0\nq2,0,1,0\nq3,1,1,1\nq4,0,0,\n"
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("bymodel.csv", content, "text/csv")).run()
    no_exception(app)
    assert app.button(key="upload_load").disabled
    assert any("Override another field" in shown(w.value) and "for model" in shown(w.value) for w in app.main.warning)
    app.selectbox(key="map_override_field").set_value("model").run()
    app.selectbox(key="map_override_column").set_value("every other column (a response matrix)").run()
    assert not app.button(key="upload_load").disabled
    app.button(key="upload_load").click().run()
    no_exception(app)
    key = saved_key(app, "bymodel")
    from dashboard.data.workspace import open_ws_dataset

    dataset = open_ws_dataset(key)
    assert dict(dataset.sources[0].mapping)["model"] == "<columns: a, b, c>"
    assert dataset.attempts.groupby("model", observed=True)["is_correct"].mean().round(4).to_dict() == {
        "a": 0.5, "b": 0.75, "c": 0.3333}
