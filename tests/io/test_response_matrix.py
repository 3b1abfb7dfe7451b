"""Response matrices (``--map question_id=@columns`` / ``--map model=@columns``): one row per model and one column
per question, or the transpose, each cell an outcome (scorio_core.io.formats.matrix).

Before 2026-12-04 a models x questions table was refused with "a table of one score per model cannot be ranked
here", which is wrong for a matrix of 0/1 outcomes (item response theory data, correctness dumps)."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

# rows = models: a is right on q1, q3; b on q1, q2, q3; c on q3 only; c was not run on q4 (empty cell)
BY_MODEL = "model,q1,q2,q3,q4\na,1,0,1,0\nb,1,1,1,0\nc,0,0,1,\n"
# the transpose: rows = questions, one column per model
BY_QUESTION = "question_id,a,b,c\nq1,1,1,0\nq2,0,1,0\nq3,1,1,1\nq4,0,0,\n"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _means(dataset) -> dict:
    return dataset.attempts.groupby("model", observed=True)["is_correct"].mean().round(6).to_dict()


def test_questions_in_columns_by_hand(tmp_path):
    dataset = io.load(_write(tmp_path, "m.csv", BY_MODEL), mapping={"question_id": "@columns"})
    assert _means(dataset) == {"a": 0.5, "b": 0.75, "c": round(1 / 3, 6)}  # c: 1 of its 3 questions
    assert len(dataset.attempts) == 11 and set(dataset.attempts["trial"]) == {0}
    assert dict(dataset.sources[0].mapping) == {"model": "model", "question_id": "<columns: q1, q2, q3, q4>"}
    assert any("1 empty cells of the response matrix are questions a model was not run on" in n
               for n in dataset.report.notes)
    assert sorted(dataset.attempts["question_id"].unique()) == ["q1", "q2", "q3", "q4"]


def test_models_in_columns_is_the_same_data(tmp_path):
    rows = io.load(_write(tmp_path, "m.csv", BY_MODEL), mapping={"question_id": "@columns"})
    cols = io.load(_write(tmp_path, "q.csv", BY_QUESTION), mapping={"model": "@columns"})
    assert _means(cols) == _means(rows)
    key = ["model", "question_id"]
    a = rows.attempts[key + ["is_correct"]].astype(str).sort_values(key).reset_index(drop=True)
    b = cols.attempts[key + ["is_correct"]].astype(str).sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


def test_a_trial_column_numbers_the_runs_and_a_task_column_is_kept(tmp_path):
    text = "model,task,run,q1,q2\na,t,0,1,0\na,t,1,1,1\nb,t,0,0,0\nb,t,1,1,0\n"
    dataset = io.load(_write(tmp_path, "runs.csv", text), mapping={"question_id": "@columns"})
    counts = dataset.attempts.groupby(["model", "question_id"], observed=True)["is_correct"].agg(["size", "sum"])
    assert counts.to_dict("index") == {("a", "q1"): {"size": 2, "sum": 2.0}, ("a", "q2"): {"size": 2, "sum": 1.0},
                                       ("b", "q1"): {"size": 2, "sum": 1.0}, ("b", "q2"): {"size": 2, "sum": 0.0}}
    assert list(dataset.attempts["task"].unique()) == ["t"]


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_every_table_format(tmp_path, suffix):
    frame = pd.read_csv(pd.io.common.StringIO(BY_MODEL))
    path = tmp_path / f"m.{suffix}"
    if suffix == "parquet":
        frame.to_parquet(path, index=False)
    else:
        frame.to_json(path, orient="records", lines=True)
    dataset = io.load(str(path), mapping={"question_id": "@columns"})
    assert _means(dataset) == {"a": 0.5, "b": 0.75, "c": round(1 / 3, 6)}


def test_percentages_in_a_matrix_with_the_outcome_scale(tmp_path):
    text = "model,q1,q2\na,100,0\nb,100,100\n"
    dataset = io.load(_write(tmp_path, "p.csv", text), mapping={"question_id": "@columns"}, outcome_scale=100)
    assert _means(dataset) == {"a": 0.5, "b": 1.0}
    assert dict(dataset.sources[0].mapping)["question_id"] == "<columns: q1, q2> (divided by 100)"


@pytest.mark.parametrize("mapping, words", [
    ({"is_correct": "@columns"}, "reads the columns as questions (question_id) or as models (model)"),
    ({"question_id": "@columns", "model": "@columns"}, "one of them"),
    ({"question_id": "@columns", "is_correct": "q1"}, "'is_correct' cannot be mapped to a column"),
])
def test_wrong_uses_are_refused(tmp_path, mapping, words):
    with pytest.raises(InputError, match=re.escape(words)):
        io.load(_write(tmp_path, "m.csv", BY_MODEL), mapping=mapping)


def test_rows_without_a_model_column_are_refused(tmp_path):
    with pytest.raises(InputError, match="required field 'model'"):
        io.load(_write(tmp_path, "m.csv", BY_MODEL.replace("model,", "name,")), mapping={"question_id": "@columns"})


def test_no_column_left_is_refused(tmp_path):
    with pytest.raises(InputError, match="no column is left to read as questions"):
        io.load(_write(tmp_path, "m.csv", "model,task\na,t\n"), mapping={"question_id": "@columns"})


def test_the_refusals_say_how_to_read_a_matrix(tmp_path):
    with pytest.raises(InputError, match="--map question_id=@columns"):
        io.load(_write(tmp_path, "m.csv", BY_MODEL))
    with pytest.raises(InputError, match="--map model=@columns"):
        io.load(_write(tmp_path, "q.csv", BY_QUESTION))


def test_cli_json_and_the_sql_engines(tmp_path, capsys):
    path = _write(tmp_path, "m.csv", BY_MODEL)
    assert main(["leaderboard", path, "--map", "question_id=@columns", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["model"] for r in rows] == ["b", "a", "c"]
    assert np.allclose([r["avg"] for r in rows], [0.75, 0.5, 1 / 3])
    assert main(["leaderboard", path, "--map", "question_id=@columns", "--engine", "duckdb"]) == 2
    assert "use --engine pandas" in capsys.readouterr().err
    from scorio_core.engines import EngineUnsupported, load_counts

    with pytest.raises(EngineUnsupported):
        load_counts(path, mapping={"question_id": "@columns"}, engine="duckdb")


def test_the_manifest_records_the_matrix_reading(tmp_path, capsys):
    path = _write(tmp_path, "m.csv", BY_MODEL)
    assert main(["export", path, "--format", "manifest", "--map", "question_id=@columns"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["data"]["reading"] == {"map": {"question_id": "@columns"}}
    (tmp_path / "m.json").write_text(json.dumps(doc))
    assert main(["export", path, "--manifest", str(tmp_path / "m.json"), "--format", "csv"]) == 0
    assert "Files read as the manifest records: --map question_id=@columns." in capsys.readouterr().err


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 7), st.integers(0, 2**31 - 1))
def test_any_matrix_reads_as_its_cells(tmp_path_factory, n_models, n_questions, seed):
    # every non-empty cell is one attempt with that outcome, whichever way round the matrix is written
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 2, (n_models, n_questions)).astype(float)
    cells[rng.random(cells.shape) < 0.2] = np.nan
    cells[:, 0] = 1.0  # every model has one attempt
    models, questions = [f"m{i}" for i in range(n_models)], [f"q{j}" for j in range(n_questions)]
    d = tmp_path_factory.mktemp("matrix")
    by_model = pd.DataFrame(cells, columns=questions).assign(model=models)[["model", *questions]]
    by_question = pd.DataFrame(cells.T, columns=models).assign(question_id=questions)[["question_id", *models]]
    by_model.to_csv(d / "rows.csv", index=False)
    by_question.to_csv(d / "cols.csv", index=False)
    for name, field in (("rows.csv", "question_id"), ("cols.csv", "model")):
        got = io.load(str(d / name), mapping={field: "@columns"}).attempts
        assert len(got) == int(np.isfinite(cells).sum())
        table = got.pivot(index="model", columns="question_id", values="is_correct").reindex(index=models, columns=questions)
        np.testing.assert_array_equal(table.to_numpy(dtype=float), cells)


def test_a_column_that_is_not_a_question_is_named(tmp_path):
    # a model's size beside the questions: read as a question, refused naming the column and how to fix it
    path = _write(tmp_path, "meta.csv", "model,params,q1,q2\na,7,1,0\nb,70,1,1\n")
    with pytest.raises(InputError) as info:
        io.load(path, mapping={"question_id": "@columns"})
    message = str(info.value)
    assert "meta.csv line 2" in message and "got 7 in the matrix cells" in message
    assert "The value is in column 'params'" in message and "removed from the table first" in message
    assert "category" not in message and "trial" not in message
    assert info.value.scale == 100.0  # the app's Outcome scale still offered (numbers above 1)


def test_text_labels_in_a_matrix_are_recoded_like_any_outcome(tmp_path):
    path = _write(tmp_path, "yn.csv", "model,q1,q2\na,yes,no\nb,yes,yes\n")
    with pytest.raises(InputError, match=re.escape("df[question_columns]")) as info:
        io.load(path, mapping={"question_id": "@columns"})
    assert "(First in column 'q1'.)" in str(info.value) and info.value.labels == {"no": 0.0, "yes": 1.0}
    dataset = io.load(path, mapping={"question_id": "@columns"}, recode={"yes": 1, "no": 0})
    assert _means(dataset) == {"a": 0.5, "b": 1.0}
    assert dict(dataset.sources[0].mapping)["question_id"] == "<columns: q1, q2> (recoded: 'no' -> 0, 'yes' -> 1)"


def test_the_html_report_says_the_columns_are_questions(tmp_path, capsys):
    path = _write(tmp_path, "m.csv", BY_MODEL)
    assert main(["export", path, "--format", "html", "--map", "question_id=@columns"]) == 0
    assert "columns: question_id &lt;- every other column (a response matrix)" in capsys.readouterr().out
