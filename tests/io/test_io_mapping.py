"""Column aliases, ambiguity, mapping overrides, and the wide and count layouts."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError


def _load(text: str, name: str = "r.csv", **kw):
    return io.load([(name, text.encode())], **kw)


@pytest.mark.parametrize(
    "question, trial, outcome, model, task",
    [
        ("question", "trial", "correct", "model", "task"),
        ("problem", "seed", "passed", "model_name", "benchmark"),
        ("doc_id", "sample", "is_correct", "Model", "dataset"),
        ("data_id", "epoch", "resolved", "llm", "task_name"),
        ("idx", "run", "success", "engine", "Task"),
        ("Question ID", "Attempt", "Solved", "MODEL", "suite"),
    ],
)
def test_aliases(question, trial, outcome, model, task):
    ds = _load(f"{model},{task},{question},{trial},{outcome}\nm,t,q1,0,1\nm,t,q1,1,0\n")
    m = dict(ds.sources[0].mapping)
    assert m == {"model": model, "task": task, "question_id": question, "trial": trial, "is_correct": outcome}
    assert ds.attempts["is_correct"].tolist() == [1.0, 0.0]


def test_infer_mapping_guess_for_the_widget():
    g = io.infer_mapping(["model", "problem", "idx", "correct", "score"])
    assert g.ambiguous == {"question_id": ("problem", "idx")} and not g.ok
    assert g.mapping["is_correct"] == "correct" and g.mapping["score"] == "score"
    assert g.to_dict()["ambiguous"] == {"question_id": ["problem", "idx"]}
    g2 = io.infer_mapping(["model", "problem", "idx", "correct"], {"question_id": "idx"})
    assert g2.ok and g2.mapping["question_id"] == "idx" and g2.user == {"question_id": "idx"}
    assert io.infer_mapping(["model", "answer"]).missing == ("question_id", "is_correct")


def test_ambiguous_column_names_file_field_candidates_and_fix():
    text = "model,problem,idx,correct\nm,p1,1,1\n"
    with pytest.raises(InputError) as err:
        _load(text, "results.csv")
    assert str(err.value) == (
        "results.csv: field 'question_id' is ambiguous: candidates 'problem', 'idx'; pass --map "
        "question_id=COLUMN (CLI) or pick the column in the app's mapping widget."
    )
    assert err.value.field == "question_id"
    ds = _load(text, mapping={"question_id": "problem"})
    assert ds.attempts["question_id"].tolist() == ["p1"]
    assert "idx" in ds.attempts.columns  # the unmapped candidate is kept as a signal


def test_mapping_errors_name_the_problem():
    with pytest.raises(InputError, match=r"mapping key 'questoin' is not a canonical field"):
        _load("model,q,correct\nm,1,1\n", mapping={"questoin": "q"})
    with pytest.raises(InputError, match=r"mapping question_id=qq names a column that is not in the file; columns are 'model', 'q', 'correct'"):
        _load("model,q,correct\nm,1,1\n", mapping={"question_id": "qq"})
    with pytest.raises(InputError, match=r"no column found for required field 'question_id'.*; columns no field uses: 'q'\."):
        _load("model,q,correct\nm,1,1\n")


def test_missing_outcome_names_the_columns_left_to_map():
    # an Inspect-style nested score in a plain JSONL: no alias matches, so the message lists what could be mapped
    line = '{"model": {"name": "m"}, "sample": {"id": 1, "epoch": 0}, "scores": {"match": {"value": "C"}}}\n'
    with pytest.raises(InputError, match=r"field 'is_correct'.*mapping widget; columns no field uses: 'scores\.match\.value'\. An"):
        _load(line, name="r.jsonl")
    many = ",".join(f"c{i}" for i in range(14))
    with pytest.raises(InputError, match=r"columns no field uses: 'c0', .*'c11' \.\.\.\. An"):
        _load(f"model,question,{many}\nm,q,{','.join('x' * 14)}\n")


def test_mapping_override_wins_over_exact_names():
    ds = _load("model,question_id,other_q,correct,alt\nm,a,x,1,0\n", mapping={"question_id": "other_q", "is_correct": "alt"})
    t = ds.attempts
    assert t["question_id"].tolist() == ["x"] and t["is_correct"].tolist() == [0.0]
    assert t["question_id_source"].tolist() == ["a"]  # renamed, not lost
    assert t["correct"].tolist() == [1]


def test_binary_outcome_beats_soft_score_and_soft_alone_needs_threshold():
    ds = _load("model,question,correct,score\nm,q,1,0.7\n")
    assert dict(ds.sources[0].mapping)["is_correct"] == "correct" and ds.ready
    soft = _load("model,question,score\nm,q1,0.7\nm,q2,1\n")
    assert soft.attempts["is_correct"].isna().tolist() == [True, False]
    assert soft.report.n_non_binary == 1 and not soft.ready
    with pytest.raises(InputError, match="non-binary outcome"):
        soft.require_ready()


def test_missing_model_and_task_default_to_file_stem_and_trials_numbered():
    ds = _load("question,correct\nq1,1\nq1,0\nq2,1\n", "gpt-4o.csv")
    t = ds.attempts
    assert t["model"].unique().tolist() == ["gpt-4o"] and t["task"].unique().tolist() == ["gpt-4o"]
    assert t["trial"].tolist() == [0, 1, 0]  # row order within (model, task, question)
    d = " ".join(ds.report.defaults)
    assert "no model column" in d and "no task column" in d and "trials numbered" in d


def test_wide_layout():
    ds = _load("model,question,run_1,run_2,run_3\nA,q1,1,0,\nA,q2,0,0,1\nB,q1,true,1,1\n", "w.csv")
    t = ds.attempts
    assert list(zip(t["model"], t["question_id"], t["trial"], t["is_correct"])) == [
        ("A", "q1", 1, 1.0), ("A", "q1", 2, 0.0),
        ("A", "q2", 1, 0.0), ("A", "q2", 2, 0.0), ("A", "q2", 3, 1.0),
        ("B", "q1", 1, 1.0), ("B", "q1", 2, 1.0), ("B", "q1", 3, 1.0),
    ]  # hand: trial = the number in the column name; the empty cell is a trial not run
    assert any("1 empty trial cells" in n for n in ds.report.notes)
    with pytest.raises(InputError, match=r"w.csv line 3: field 'is_correct' \(the outcome: the trial cells\) must be 0 "
                                         r"or 1 \(true/false\); got 'yes'"):
        _load("model,question,t1,t2\nA,q1,1,0\nA,q2,yes,1\n", "w.csv")


@pytest.mark.parametrize("n, c", [("n_trials", "n_correct"), ("n", "c"), ("num_samples", "num_correct"), ("trials", "successes")])
def test_count_aliases(n, c):
    ds = _load(f"model,question,{n},{c}\nm,q1,4,3\nm,q2,4,0\n")
    assert ds.layout == "counts"
    assert ds.counts[["n_trials", "n_correct"]].values.tolist() == [[4, 3], [4, 0]]
    assert ds.report.n_all_wrong == 1 and ds.report.all_wrong == (("r", "q2"),)


def test_count_validation():
    with pytest.raises(InputError, match=r"r.csv line 3: field 'n_correct' must not exceed n_trials; got n_trials=4, n_correct=5"):
        _load("model,question,n_trials,n_correct\nm,q1,4,3\nm,q2,4,5\n")
    with pytest.raises(InputError, match=r"line 2: field 'n_trials' must be >= 1"):
        _load("model,question,n_trials,n_correct\nm,q1,0,0\n")
    with pytest.raises(InputError, match=r"line 2: field 'n_trials' must be a whole number >= 1; got 2.5"):
        _load("model,question,n_trials,n_correct\nm,q1,2.5,0\n")


def test_category_column_and_signals():
    ds = _load("model,question,trial,category,completion_tokens,finish_reason,has_box\nm,q,0,3,100,stop,1\nm,q,1,0,32768,length,0\n")
    t = ds.attempts
    assert str(t["category"].dtype) == "Int64" and t["category"].tolist() == [3, 0]
    assert t["is_correct"].isna().all() and ds.ready  # category without correctness is allowed
    assert t["completion_tokens"].tolist() == [100, 32768] and t["has_box"].tolist() == [1.0, 0.0]
    assert t["finish_reason"].astype(str).tolist() == ["stop", "length"]


def test_ids_are_strings_even_when_numeric():
    ds = _load("model,question,trial,correct\n7,007,0,1\n7,10,0,0\n")
    t = ds.attempts
    assert t["question_id"].tolist() == ["007", "10"] and t["model"].tolist() == ["7", "7"]
    js = io.load([("r.jsonl", b'{"model": 7, "question": 3, "trial": 0, "correct": 1}\n{"model": 7, "question": 3.0, "trial": 1, "correct": 0}\n')])
    assert js.attempts["question_id"].tolist() == ["3", "3"]
    # a JSON number and a JSON string with the same text are one identifier (as in a CSV); "03" stays another
    mixed = io.load([("m.jsonl", b'{"model": 7, "question": 1, "trial": 0, "correct": 1}\n'
                                 b'{"model": "7", "question": "1", "trial": 1, "correct": 0}\n'
                                 b'{"model": 7.0, "question": "03", "trial": 0, "correct": 1}\n')])
    assert mixed.attempts["question_id"].tolist() == ["1", "1", "03"] and mixed.attempts["model"].tolist() == ["7"] * 3
    assert mixed.ready and mixed.to_counts()["n_trials"].tolist() == [2, 1]


def test_source_columns_and_guess_mapping(upload):
    f = upload("r.csv", b"Model,Problem,Seed,Passed\nm,p,1,1\n")
    assert io.source_columns(f) == ("Model", "Problem", "Seed", "Passed")
    g = io.guess_mapping(f)
    assert g.ok and g.mapping == {"model": "Model", "question_id": "Problem", "trial": "Seed", "is_correct": "Passed"}
    assert io.source_columns(("r.jsonl", b'{"a": {"b": 1}, "model": "m"}\n')) == ("a.b", "model")


def test_source_kinds_tuple_of_paths_gzip_and_unicode_digits():
    import gzip
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "data"
    both = io.load((data / "tau_bench_airline_gpt4o_trials.csv", data / "scorio_aime25_q06_verifier_trials.csv"))
    assert both.report.n_rows == 200 + 80  # a tuple of two paths is two sources, not (name, bytes)
    gz = io.load(("x.jsonl.gz", gzip.compress(b'{"model":"m","question":"a","correct":1}\n')))
    assert gz.sources[0].format == "jsonl" and gz.report.n_rows == 1
    odd = _load("model,question,correct\n\u00b2,\u0663,1\n")  # superscript two; Arabic-Indic three
    assert odd.attempts["model"].tolist() == ["\u00b2"] and odd.attempts["question_id"].tolist() == ["\u0663"]


def test_a_misspelled_model_or_task_column_is_refused_not_named_after_the_file():
    """``modle`` next to no ``model`` column: every row would be one model named after the file (QA: two models
    merged, then reported as duplicates, and "keep first" would rank nonsense)."""
    rows = "modle,tsk,qid,trial,correct\na,t,q1,0,1\na,t,q1,1,0\nb,u,q1,0,1\nb,u,q1,1,1\n"
    with pytest.raises(InputError, match=r"no 'model' column, and column 'modle' looks like a misspelling of 'model' "
                                         r"\(it holds 2 distinct values\).*--map model=modle") as info:
        _load(rows, name="wrong_header.csv")
    assert info.value.field == "model" and "wrong_header.csv" in str(info.value)
    # the fix it names works, and then the task's misspelling is the next one named
    with pytest.raises(InputError, match=r"no 'task' column, and column 'tsk'"):
        _load(rows, name="wrong_header.csv", mapping={"model": "modle"})
    assert _load(rows, mapping={"model": "modle", "task": "tsk"}).report.n_models == 2
    # a per-model file: a lookalike column with one value does not stop it (its model is the file's name)
    one = "mode,question,trial,correct\ngreedy,q1,0,1\ngreedy,q1,1,0\n"
    assert _load(one, name="gpt.csv").report.n_models == 1


def test_spreadsheet_headers_with_a_question_mark_or_colon_are_recognised(tmp_path):
    # a hand-made results sheet ("Model", "Question ID", "Run", "Correct?") was refused: no column for is_correct
    path = tmp_path / "sheet.csv"
    path.write_text("Model:,Question ID,Run,Correct?\ngpt,a,1,1\ngpt,b,1,0\nclaude,a,1,1\nclaude,b,1,1\n")
    ds = io.load([str(path)])
    assert dict(ds.sources[0].mapping)["is_correct"] == "Correct?" and dict(ds.sources[0].mapping)["model"] == "Model:"
    assert ds.attempts["is_correct"].tolist() == [1, 0, 1, 1]
