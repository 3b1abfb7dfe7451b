"""JSON documents that keep their records under a key, per question: EvalPlus's ``eval_results.json``
(``{"eval": {"HumanEval/0": [sample, ...], ...}}``, each sample's ``base_status`` / ``plus_status`` 'pass' or 'fail').

QA 2026-12-04: such a file written on one line was read as a single JSON Lines record (its ``eval`` object dropped),
and refused with "no column found for required field 'question_id'"; written across lines it was refused as "expected
a JSON array of records".
"""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

#: 3 problems x 3 samples; plus_status passes where (problem + sample) % 3 != 0 (the stricter test set)
EVAL = {"date": "2024-05-01 10:00", "hash": "abc", "eval": {
    f"HumanEval/{i}": [{"task_id": f"HumanEval/{i}", "solution": "def f(): ...", "base_status": "pass",
                        "plus_status": "pass" if (i + j) % 3 else "fail", "base_fail_tests": [], "plus_fail_tests": []}
                       for j in range(3)] for i in range(3)}}


@pytest.mark.parametrize("indent", [None, 2])  # one line (read as a record before), or pretty-printed
def test_evalplus_samples_are_the_records(tmp_path, indent):
    path = tmp_path / "gpt-4o.eval_results.json"
    path.write_text(json.dumps(EVAL, indent=indent))
    # read by the EvalPlus reader since 2026-12-05: HumanEval (base tests) and HumanEval+ (base and plus both pass)
    ds = io.load([str(path)])
    assert {s.format for s in ds.sources} == {"evalplus"} and ds.report.models == ("gpt-4o",)
    plus = ds.to_counts().astype({"task": str}).query("task == 'HumanEval+'").set_index("question_id")
    assert plus["n_correct"].to_dict() == {f"HumanEval/{i}": 2 for i in range(3)}
    # read as plain keyed records (--format json-records), the outcome column and its labels named by the user
    with pytest.raises(InputError, match="'is_correct' is ambiguous: candidates 'base_status', 'plus_status'"):
        io.load([str(path)], format="json-records")
    ds = io.load([str(path)], format="json-records", mapping={"is_correct": "plus_status"}, recode={"pass": 1, "fail": 0})
    counts = ds.to_counts().set_index("question_id")
    # by hand: (i + j) % 3 == 0 fails once per problem (j = 0, 2, 1 for i = 0, 1, 2): 2 of 3 each
    assert counts["n_trials"].to_dict() == {f"HumanEval/{i}": 3 for i in range(3)}
    assert counts["n_correct"].to_dict() == {f"HumanEval/{i}": 2 for i in range(3)}
    assert any("the arrays under 'eval', one per key" in n for n in ds.report.notes)


def test_a_one_line_document_with_an_array_is_records(tmp_path, capsys):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"model": "m", "details": [{"question_id": q, "correct": q % 2} for q in range(4)]}))
    assert main(["leaderboard", str(path), "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["model"], r["avg"]) for r in out["rows"]] == [("m", 0.5)]  # by hand: questions 1 and 3 of 4; the
    assert any("the document's 'model' applied" in n["message"] for n in out["notes"])  # document's model, said


def test_a_one_line_record_is_still_json_lines(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"model": "m", "question_id": "q1", "correct": 1, "tokens": [1, 2]}))
    assert len(io.load([str(path)]).attempts) == 1


#: OpenCompass before 0.4 (``results/<model>/<dataset>.json`` with dumped details): records keyed by the example's
#: index; 0.4 and later write a list with ``example_abbr`` and per-replica lists (``correct: [true, false, ...]``).
OPENCOMPASS_OLD = {"accuracy": 50.0, "details": {str(i): {"pred": "A", "answers": "A" if i % 2 else "B",
                                                          "correct": bool(i % 2)} for i in range(4)}}
OPENCOMPASS_NEW = {"accuracy (3 runs average)": 44.4, "G-Pass@3_0.5": 33.3, "details": [
    {"example_abbr": f"gsm8k_{i}", "pred": ["1", "2", "3"], "answer": ["1"] * 3,
     "correct": [j <= i - 1 for j in range(3)], "G-Pass@3_0.5": 0.0} for i in range(3)]}


@pytest.mark.parametrize("indent", [None, 2])
def test_opencompass_details_keyed_by_index(tmp_path, indent):
    folder = tmp_path / "results" / "qwen-7b"
    folder.mkdir(parents=True)
    (folder / "gsm8k.json").write_text(json.dumps(OPENCOMPASS_OLD, indent=indent))
    ds = io.load([str(folder / "gsm8k.json")], mapping={"model": "@folder"})
    a = ds.attempts.sort_values("question_id")
    assert a["question_id"].astype(str).tolist() == ["0", "1", "2", "3"]
    assert a["is_correct"].tolist() == [0.0, 1.0, 0.0, 1.0] and set(a["model"].astype(str)) == {"qwen-7b"}
    # in results/<model>/ it is read as OpenCompass results (io.formats.harnesses.opencompass); elsewhere generically
    assert ds.sources[0].format == "opencompass" and dict(ds.sources[0].mapping)["question_id"] == "<key in details>"
    (tmp_path / "gsm8k.json").write_text(json.dumps(OPENCOMPASS_OLD, indent=indent))
    ds = io.load([str(tmp_path / "gsm8k.json")])
    assert ds.attempts.sort_values("question_id")["is_correct"].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert any("the objects under 'details', keyed by question (the key is column 'question_id'" in n
               for n in ds.report.notes)


def test_opencompass_details_with_replicas(tmp_path):
    folder = tmp_path / "results" / "qwen-7b"
    folder.mkdir(parents=True)
    (folder / "gsm8k.json").write_text(json.dumps(OPENCOMPASS_NEW, indent=4))
    counts = io.load([str(folder / "gsm8k.json")], mapping={"model": "@folder"}).to_counts().set_index("question_id")
    # by hand: example i is correct in replicas j < i: 0, 1, 2 of 3
    assert counts["n_trials"].to_dict() == {"gsm8k_0": 3, "gsm8k_1": 3, "gsm8k_2": 3}
    assert counts["n_correct"].to_dict() == {"gsm8k_0": 0, "gsm8k_1": 1, "gsm8k_2": 2}


def test_a_settings_object_is_not_records(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"model": "m", "question_id": "q1", "correct": 1,
                                "config": {"sampler": {"top_p": 1}, "judge": {"name": "j"}}}))
    assert len(io.load([str(path)]).attempts) == 1


@pytest.mark.parametrize("indent", [None, 2])
def test_an_object_of_objects_is_a_response_matrix_once_its_keys_are_named(tmp_path, indent):
    """{"gpt-4": {"q1": 1, ...}, ...} (a script's json.dump of a dict of dicts): refused saying which mappings read it
    (was: "expected a JSON array of records", or one JSON Lines record on one line), then read either way round."""
    by_model = {"gpt-4": {"q1": 1, "q2": 0, "q3": 1}, "claude": {"q1": 0, "q2": 1}}
    path = tmp_path / "scores.json"
    path.write_text(json.dumps(by_model, indent=indent))
    with pytest.raises(InputError, match=r"an object of objects \(2 top-level keys, e.g. 'gpt-4': \{'q1': 1, 'q2': 0, "
                                         r"\.\.\.\}\).*--map model=key --map question_id=@columns"):
        io.load([str(path)])
    assert io.source_columns(str(path)) == ("key", "q1", "q2", "q3")  # the app's mapping widget can offer them
    ds = io.load([str(path)], mapping={"model": "key", "question_id": "@columns"})
    got = {(str(m), str(q)): c for m, q, c in ds.attempts[["model", "question_id", "is_correct"]].values}
    assert got == {("gpt-4", "q1"): 1.0, ("gpt-4", "q2"): 0.0, ("gpt-4", "q3"): 1.0, ("claude", "q1"): 0.0,
                   ("claude", "q2"): 1.0}  # claude has no q3: not an attempt (an empty cell of the matrix)
    by_question = {q: {m: by_model[m][q] for m in by_model if q in by_model[m]} for q in ("q1", "q2", "q3")}
    path.write_text(json.dumps(by_question, indent=indent))
    flipped = io.load([str(path)], mapping={"question_id": "key", "model": "@columns"})
    assert {(str(m), str(q)): c for m, q, c in flipped.attempts[["model", "question_id", "is_correct"]].values} == got


def test_each_line_holding_its_records(tmp_path):
    """JSON Lines whose every line holds one model's records in a list ({"model": ..., "results": [{"id": ...,
    "correct": ...}, ...]}): one attempt per element, with its line's model (was: the list dropped, "no column found
    for required field 'question_id'"); an element's bad outcome names its line; a list of chat messages is still
    dropped."""
    lines = [{"model": "gpt-4", "task": "t", "results": [{"id": f"q{i}", "correct": i % 2} for i in range(4)],
              "messages": [{"role": "user", "content": "hi"}]},
             {"model": "claude", "task": "t", "results": [{"id": f"q{i}", "correct": int(i < 3)} for i in range(4)]}]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    ds = io.load([str(path)])
    counts = ds.to_counts().astype({"model": str}).groupby("model")["n_correct"].sum().to_dict()
    assert counts == {"gpt-4": 2, "claude": 3}  # by hand: q1, q3 / q0-q2
    assert len(ds.attempts) == 8 and set(ds.attempts["question_id"].astype(str)) == {"q0", "q1", "q2", "q3"}
    assert any("each line's 'results' holds its records: 8 records from 2 lines" in n for n in ds.report.notes)
    assert "messages" not in ds.attempts.columns
    lines[1]["results"][2]["correct"] = 7
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(InputError, match=r"runs.jsonl line 2: .*got 7"):
        io.load([str(path)])


def test_line_records_with_mixed_types_across_lines(tmp_path, monkeypatch):
    """The same when pyarrow cannot read the file (a field that is a number on one line and text on another): the
    line-by-line reader explodes each line's records too (was: the list dropped, "no column found for required field
    'question_id'"), says so once, and an element's bad outcome still names its line; also across chunks."""
    from scorio_core.io.formats import jsonl

    lines = [{"model": m, "task": "t", "version": seed, "results": [{"id": f"q{i}", "correct": int((i + k) % 3 == 0)}
                                                                 for i in range(3)]}
             for k, (m, seed) in enumerate((("a", 1), ("b", "x"), ("c", 2)))]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    for block in (None, 60):  # one chunk; then chunks of about one line each (lines read by pyarrow and by Python)
        if block:
            monkeypatch.setattr(jsonl, "_BLOCK", block)
        ds = io.load([str(path)])
        counts = ds.to_counts().astype({"model": str}).groupby("model")["n_correct"].sum().to_dict()
        assert counts == {"a": 1, "b": 1, "c": 1}  # by hand: a q0; b q2; c q1
        notes = [n for n in ds.report.notes if "holds its records" in n]
        assert notes == ["runs.jsonl: each line's 'results' holds its records: 9 records from 3 lines, each with its "
                         "line's other fields."]
        lines[2]["results"][1]["correct"] = 7
        path.write_text("".join(json.dumps(r) + "\n" for r in lines))
        with pytest.raises(InputError, match=r"runs.jsonl line 3: .*got 7"):
            io.load([str(path)])
        lines[2]["results"][1]["correct"] = 1
        path.write_text("".join(json.dumps(r) + "\n" for r in lines))


def test_the_sql_engines_leave_line_records_to_pandas(tmp_path, capsys):
    from scorio_core.engines import EngineUnsupported, load_counts

    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps({"model": m, "results": [{"id": f"q{i}", "correct": (i + k) % 2} for i in range(3)]})
                            + "\n" for k, m in enumerate(("a", "b"))))
    with pytest.raises(EngineUnsupported, match="each row's 'results' holds records"):
        load_counts(str(path), engine="duckdb")
    assert main(["leaderboard", str(tmp_path / "*.jsonl"), "--engine", "auto", "--prior", "uniform", "--output", "json"]) == 0
    rows = {r["model"]: r["avg"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows == {"a": 1 / 3, "b": 2 / 3}  # by hand: a answers q1; b answers q0 and q2


def test_a_record_with_its_own_outcome_is_not_exploded(tmp_path):
    """A line (or one-line document) with its own outcome stays one attempt, whatever it nests: per-test results under
    it ({"passed": true, "tests": [{"passed": false}, ...]}) are details, not the attempts."""
    lines = [{"model": "m", "task_id": f"HumanEval/{i}", "passed": bool(i % 2),
              "tests": [{"name": "t1", "passed": True}, {"name": "t2", "passed": bool(i % 2)}]} for i in range(3)]
    path = tmp_path / "evals.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    ds = io.load([str(path)])
    assert len(ds.attempts) == 3 and ds.attempts["is_correct"].tolist() == [0.0, 1.0, 0.0]
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"model": "m", "question_id": "q", "correct": 1,
                               "runs": {"r1": {"correct": 1}, "r2": {"correct": 0}}}))
    single = io.load([str(one)])
    assert len(single.attempts) == 1 and single.attempts["question_id"].astype(str).tolist() == ["q"]


def test_a_bfcl_score_file_is_refused_by_name(tmp_path):
    """BFCL's score files list only the failed entries after a summary line: read as records they would count failures
    alone (was: "line 1: field 'model' is empty"), so they are refused with what to load instead."""
    lines = [{"accuracy": 0.9, "correct_count": 9, "total_count": 10},
             {"id": "simple_3", "model_name": "gpt-4o-2024-08-06-FC", "test_category": "simple", "valid": False,
              "error": ["Invalid value for parameter 'x'"], "error_type": "value_error:others",
              "prompt": {"id": "simple_3"}, "model_result_raw": "[f(x=1)]", "possible_answer": [{"f": {"x": [2]}}]}]
    path = tmp_path / "BFCL_v3_simple_score.json"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(InputError, match="BFCL_v3_simple_score.json: a BFCL score file: .*only the entries the model got "
                                         "wrong"):
        io.load([str(path)])


@pytest.mark.parametrize("indent", [None, 2])
def test_hle_judged_files_are_records_keyed_by_question(tmp_path, indent):
    """Humanity's Last Exam's judged files (``judged_hle_<model>.json``, one per model: ``{question_id: {"model",
    "response", "judge_response": {"correct": "yes"/"no", "confidence"}}}``) read as one record per question, the
    judge's yes/no the outcome once recoded. Found: refused as "expected a JSON array of records"."""
    for model, correct in (("gpt-4o", ["yes", "no", "yes"]), ("o3-mini", ["no", "no", "yes"])):
        doc = {f"66a{i}": {"model": model, "response": "Answer: 42", "usage": {"prompt_tokens": 10},
                           "judge_response": {"correct_answer": "42", "model_answer": "42", "reasoning": "r",
                                              "correct": c, "confidence": 80}} for i, c in enumerate(correct)}
        (tmp_path / f"judged_hle_{model}.json").write_text(json.dumps(doc, indent=indent))
    with pytest.raises(InputError, match=r"column 'judge_response.correct'\) must be 0 or 1.*--recode no=0 --recode yes=1"):
        io.load(tmp_path)
    ds = io.load(tmp_path, recode={"yes": 1, "no": 0})
    a = ds.attempts.astype({"model": str, "question_id": str}).sort_values(["model", "question_id"])
    assert a["question_id"].tolist() == ["66a0", "66a1", "66a2"] * 2
    assert a["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]  # the yes/no above, by hand
    assert len(set(ds.attempts["task"].astype(str))) == 1  # the two models' files share their questions: one task
    assert any("the records are the document's objects, keyed by question" in n for n in ds.report.notes)


def skythought_results(rows):
    """SkyThought's results.json (skythought/evals/inference_and_check.py: ``id_to_results``): the problem's fields,
    ``responses`` (one object per sample with ``correctness``) and ``token_usages`` beside them, keyed by problem id."""
    return {qid: {"problem": "Find ...", "answer": "4", "prompt": "...", "input_conversation": [{"role": "user"}],
                  "responses": [{"content": "...", "correctness": c, "reason": ""} for c in outcomes],
                  "token_usages": [{"completion_tokens": 100 * (i + 1), "prompt_tokens": 50} for i in range(len(outcomes))]}
            for qid, outcomes in rows.items()}


@pytest.mark.parametrize("indent", [None, 4])
def test_skythought_samples_in_each_problem_are_its_trials(tmp_path, indent):
    folder = tmp_path / "Qwen-7B_aime24_abc"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(skythought_results(
        {"60": [True, False, True], "61": [False, False, False]}), indent=indent))
    ds = io.load([str(folder / "results.json")], mapping={"model": "@folder"})
    t = ds.attempts.astype({"question_id": str}).sort_values(["question_id", "trial"])
    # by hand: problem 60 is right in samples 0 and 2 of 3, problem 61 in none
    assert t["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0] and t["trial"].tolist() == [0, 1, 2] * 2
    assert t["question_id"].tolist() == ["60"] * 3 + ["61"] * 3
    assert t["completion_tokens"].tolist() == [100.0, 200.0, 300.0] * 2  # each sample's own token_usages entry
    assert set(t["model"].astype(str)) == {"Qwen-7B_aime24_abc"}
    assert any("the samples in each object's 'responses'" in n for n in ds.report.notes)


def test_skythought_run_folder_with_its_summary(tmp_path):
    """A SkyThought run folder holds summary.json (the configuration and accuracy) beside results.json: left out,
    said; it was read as a table and refused the whole load ("expected a JSON array of records")."""
    folder = tmp_path / "Qwen-7B_aime24_abc"
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(skythought_results({"60": [True, False]}), indent=4))
    (folder / "summary.json").write_text(json.dumps({"configuration": {"model": "Qwen/Qwen2.5-7B"}, "accuracy": 0.5,
                                                     "pass_at_k": {"temp=0.7": {"k=1": 0.5}}}, indent=4))
    ds = io.load([str(tmp_path)], mapping={"model": "@folder"})
    assert len(ds.attempts) == 2 and len(ds.sources) == 1
    assert any("Qwen-7B_aime24_abc/summary.json not read" in n for n in ds.report.notes)


def test_human_eval_results_are_named_by_their_sample_file(tmp_path):
    """openai/human-eval's evaluate_functional_correctness writes ``<sample file>_results.jsonl`` (task_id, completion,
    result, passed per sample): the model was named ``gpt-4o_samples.jsonl_results``, now the sample file's stem."""
    path = tmp_path / "gpt-4o_samples.jsonl_results.jsonl"
    path.write_text("".join(json.dumps({"task_id": f"HumanEval/{q}", "completion": "    return 1\n",
                                        "result": "passed" if (q + s) % 2 else "failed: ", "passed": bool((q + s) % 2)})
                            + "\n" for q in range(3) for s in range(2)))
    ds = io.load([str(path)])
    assert set(ds.attempts["model"].astype(str)) == {"gpt-4o_samples"}
    assert sorted(set(ds.attempts["question_id"].astype(str))) == ["HumanEval/0", "HumanEval/1", "HumanEval/2"]
    assert ds.attempts["is_correct"].sum() == 3 and len(ds.attempts) == 6
