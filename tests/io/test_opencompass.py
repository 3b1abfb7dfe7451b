"""OpenCompass / AISBench work folders: ``<timestamp>/results/<model_abbr>/<dataset_abbr>.json`` with per-question
``details`` (``--dump-eval-details``), as ``OpenICLEvalTask._score`` and ``BaseEvaluator.evaluate`` write them.

Found before (2026-12-05): a work folder was refused ("aime2024.json: expected a JSON array of records": its
``predictions/`` files hold no grading), and ``results/`` alone needed ``--map model=@folder`` to tell the models'
same-named files apart."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

#: Each model's replicas (n = 3) of 4 questions, by hand.
OUTCOMES = {"qwen2-7b": [[1, 1, 0], [0, 0, 0], [1, 1, 1], [0, 1, 0]],
            "llama3-8b": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [None, 0, 0]]}


def _details(rows, dataset="aime2024"):
    return [{"example_abbr": f"{dataset}_{q}", "avg@3": sum(v or 0 for v in r) / 3, "pass@3": float(any(r)),
             "cons@3": float(sum(v or 0 for v in r) > 1.5), "pred": ["1", "2", "3"], "answer": ["1"] * 3,
             "correct": [None if v is None else bool(v) for v in r]} for q, r in enumerate(rows)]


def _work_folder(base, stamp="20250101_120000", outcomes=OUTCOMES, avg=None):
    root = base / stamp
    for model, rows in outcomes.items():
        (root / "results" / model).mkdir(parents=True)
        doc = {"accuracy (3 runs average)": 50.0, "avg@3": avg if avg is not None else
               100 * sum(sum(v or 0 for v in r) / 3 for r in rows) / len(rows), "details": _details(rows)}
        (root / "results" / model / "aime2024.json").write_text(json.dumps(doc, indent=4))
        (root / "predictions" / model).mkdir(parents=True)
        (root / "predictions" / model / "aime2024.json").write_text(json.dumps(
            {str(i): {"origin_prompt": "Q", "prediction": ["1", "2", "3"], "gold": "1"} for i in range(len(rows))}))
    (root / "summary").mkdir()
    (root / "summary" / f"summary_{stamp}.csv").write_text("dataset,version,metric,mode,qwen2-7b,llama3-8b\n"
                                                           "aime2024,abc123,avg@3,gen,50.00,25.00\n")
    (root / "configs").mkdir()
    (root / "configs" / f"{stamp}.py").write_text("models = []\n")
    return root


def test_a_work_folder_reads_each_replica_as_a_trial(tmp_path):
    root = _work_folder(tmp_path)
    ds = io.load([str(root)])
    assert {s.format for s in ds.sources} == {"opencompass"}
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str}).sort_values(["model", "question_id", "trial"])
    assert set(t["task"]) == {"aime2024"}
    for model, rows in OUTCOMES.items():
        got = t[t.model == model]
        assert got["question_id"].unique().tolist() == [f"aime2024_{q}" for q in range(4)]
        assert got["trial"].tolist() == [0, 1, 2] * 4
        want = [float("nan") if v is None else float(v) for r in rows for v in r]
        assert [str(x) for x in got["is_correct"]] == [str(x) for x in want]  # the null replica stays missing
    assert ds.report.n_missing_outcomes == 1
    assert any("beside results/ not read" in n and "predictions, not graded" in n for n in ds.report.notes)
    assert dict(ds.sources[0].mapping)["question_id"] == "example_abbr"
    assert not any("avg@3" in n and "details give" in n for n in ds.report.notes)  # the file's avg@3 agrees


def test_the_results_folder_alone_and_the_cli(tmp_path, capsys):
    root = _work_folder(tmp_path)
    assert main(["leaderboard", str(root / "results"), "--prior", "uniform", "--missing-outcomes", "drop",
                 "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # uniform prior, binary: (successes + 1) / (trials + 2) pooled over the questions' means; qwen2-7b: per question
    # (c + 1) / (3 + 2) = 3/5, 1/5, 4/5, 2/5 -> mean 0.5
    got = {r["model"]: r["estimate"] for r in rows}
    assert got["qwen2-7b"] == pytest.approx(0.5, abs=1e-12)
    assert set(got) == {"qwen2-7b", "llama3-8b"}


def test_a_stated_avg_that_the_details_do_not_give_is_said(tmp_path):
    root = _work_folder(tmp_path, avg=99.0)
    ds = io.load([str(root)])
    assert any("qwen2-7b/aime2024.json: the file's avg@3 is 99 but its details give 50" in n for n in ds.report.notes)


def test_timestamp_folders_are_runs(tmp_path):
    _work_folder(tmp_path, "20250101_120000")
    _work_folder(tmp_path, "20250102_090000", outcomes={"qwen2-7b": [[0, 0, 0]] * 4})
    ds = io.load([str(tmp_path)])
    t = ds.attempts.astype({"model": str})
    q = t[t.model == "qwen2-7b"]
    assert sorted(q["trial"].unique().tolist()) == [0, 1, 2, 3, 4, 5]  # the second run's replicas follow the first's
    assert q[q.trial >= 3]["is_correct"].sum() == 0


def test_older_details_keyed_by_position(tmp_path):
    folder = tmp_path / "results" / "internlm2-7b"
    folder.mkdir(parents=True)
    details = {str(i): {"prompt": "Q", "origin_prediction": "A", "predictions": "A", "references": "B", "correct": c}
               for i, c in enumerate([True, False, True])}
    (folder / "ceval-law.json").write_text(json.dumps({"accuracy": 66.67, "details": details, "type": "GEN"}))
    ds = io.load([str(tmp_path / "results")])
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str})
    assert t[["model", "task"]].drop_duplicates().values.tolist() == [["internlm2-7b", "ceval-law"]]
    assert t.sort_values("question_id")["is_correct"].tolist() == [1.0, 0.0, 1.0]
    assert dict(ds.sources[0].mapping)["question_id"] == "<key in details>"


def test_results_without_details_say_how_to_get_them(tmp_path):
    root = _work_folder(tmp_path)
    for model in OUTCOMES:
        (root / "results" / model / "aime2024.json").write_text(json.dumps({"accuracy": 50.0}))
    with pytest.raises(InputError, match=r"aime2024.json.*without per-question details.*--dump-eval-details"):
        io.load([str(root)])


def test_details_without_an_outcome_field_are_refused(tmp_path):
    folder = tmp_path / "run" / "results" / "m"
    folder.mkdir(parents=True)
    (tmp_path / "run" / "logs").mkdir()
    (folder / "xsum.json").write_text(json.dumps({"rouge1": 30.1, "details": [{"pred": "a", "answer": "b"}] * 2}))
    with pytest.raises(InputError, match="no outcome field.*BLEU"):
        io.load([str(tmp_path / "run")])


def test_a_work_folder_with_predictions_only_is_refused_with_the_eval_step(tmp_path):
    root = _work_folder(tmp_path)
    for f in (root / "results").rglob("*.json"):
        f.unlink()
    with pytest.raises(InputError, match="predictions and no results/.*-m eval -r TIMESTAMP --dump-eval-details"):
        io.load([str(root)])


def test_a_non_boolean_outcome_names_the_question(tmp_path):
    root = _work_folder(tmp_path, outcomes={"m": [[1, 0, 1]]})
    doc = json.loads((root / "results" / "m" / "aime2024.json").read_text())
    doc["details"][0]["correct"][1] = "maybe"
    (root / "results" / "m" / "aime2024.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match="details entry aime2024_0: 'correct' must be true/false"):
        io.load([str(root)])


def test_the_folder_names_the_model_over_a_map(tmp_path):
    root = _work_folder(tmp_path)
    ds = io.load([str(root / "results")], mapping={"model": "@folder"})  # as the generic reader's hint said
    assert set(ds.attempts["model"].astype(str)) == set(OUTCOMES)
    with pytest.raises(InputError, match="fixed fields"):
        io.load([str(root / "results")], mapping={"question_id": "pred"})


def test_an_ungraded_work_folder_beside_a_graded_one_is_said(tmp_path):
    _work_folder(tmp_path, "20250101_120000")
    later = _work_folder(tmp_path, "20250102_090000")
    for f in (later / "results").rglob("*.json"):
        f.unlink()
    ds = io.load([str(tmp_path)])
    assert set(ds.attempts["trial"]) == {0, 1, 2}  # one run
    assert any("1 work folder (20250102_090000) without results/" in n for n in ds.report.notes)


def test_an_uploaded_work_folder_is_stored_as_rows(tmp_path):
    """The app's Upload a folder: the stored rows keep the model names the folders gave (the files would lose them)."""
    from scorio_core.io import roots

    root = _work_folder(tmp_path)
    files = [(p.relative_to(root.parent).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()]
    with roots.uploaded_folder(files) as (data_root, pattern):
        dataset, _, stored = roots.load_matches(roots.resolve_in_root(data_root, pattern))
    assert sorted(dataset.attempts["model"].astype(str).unique()) == ["llama3-8b", "qwen2-7b"]
    assert len(stored) == 1 and stored[0][0].endswith(".attempts.parquet")


def test_a_dataset_without_details_beside_graded_ones_is_left_out_and_said(tmp_path):
    root = _work_folder(tmp_path)
    (root / "results" / "qwen2-7b" / "xsum.json").write_text(json.dumps({"rouge1": 30.1, "rougeL": 25.0}))
    ds = io.load([str(root)])
    assert set(ds.attempts["task"].astype(str)) == {"aime2024"}
    assert any("1 results file without per-question details not read (qwen2-7b/xsum.json" in n for n in ds.report.notes)
