"""MMLU-Pro results (TIGER-AI-Lab/MMLU-Pro ``evaluate_from_api.py``, ``evaluate_from_local.py`` and the published
``eval_results/model_outputs_<model>_<k>shots.json``): a JSON array of questions with ``answer`` and ``pred``.

Found before (2026-12-05): refused with "field 'category' must be a whole-number category code; got 'business'" (the
subject read as an outcome code), nothing said of the missing outcome nor of pred and answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

GENUINE = Path(__file__).parents[1] / "fixtures" / "formats" / "mmlu_pro" / "model_outputs_Llama-2-7b-hf_5shots.json.gz"


def record(qid, answer, pred, category="business"):
    return {"question_id": qid, "question": f"Question {qid}?", "options": ["w", "x", "y", "z"], "answer": answer,
            "answer_index": "ABCD".index(answer), "cot_content": "", "category": category, "src": f"ori_mmlu-{category}",
            "pred": pred, "model_outputs": f"... The answer is ({pred})." if pred else "I am not sure."}


def write_api_run(folder, preds):
    """evaluate_from_api.py -o <folder>: <subject>_result.json and <subject>_summary.json per subject."""
    folder.mkdir(parents=True, exist_ok=True)
    for subject, rows in preds.items():
        recs = [record(qid, answer, pred, subject) for qid, answer, pred in rows]
        (folder / f"{subject}_result.json").write_text(json.dumps(recs))
        (folder / f"{subject}_summary.json").write_text(json.dumps({subject: {"corr": 1.0, "wrong": 1.0, "acc": 0.5},
                                                                    "total": {"corr": 1.0, "wrong": 1.0, "acc": 0.5}}))
    return folder


def test_the_genuine_published_excerpt():
    ds = io.load([str(GENUINE)])
    assert {s.format for s in ds.sources} == {"mmlu-pro"} and ds.report.models == ("Llama-2-7b-hf",)
    a = ds.attempts
    assert len(a) == 40 and set(a["task"].astype(str)) == {"MMLU-Pro"} and set(a["trial"]) == {0}
    # the excerpt (the first 20 business and 20 law questions of the published file): pred == answer on 8 of 40,
    # one pred null (counted 0, said)
    assert a["is_correct"].sum() == 8 and set(a["category_label"].astype(str)) == {"business", "law"}
    assert any("1 question without an extracted answer (pred null) counted 0" in n for n in ds.report.notes)
    assert io.load([str(GENUINE)], errors_as_missing=True).report.n_missing_outcomes == 1


def test_an_api_run_folder_and_its_summaries(tmp_path):
    run = write_api_run(tmp_path / "gpt-4o", {"business": [(70, "A", "A"), (71, "B", "C")],
                                               "law": [(900, "D", "D"), (901, "A", None)]})
    ds = io.load([str(run)])
    assert ds.report.models == ("gpt-4o",)
    a = ds.attempts.astype({"question_id": str}).set_index("question_id")
    assert a["is_correct"].to_dict() == {"70": 1.0, "71": 0.0, "900": 1.0, "901": 0.0}  # by hand: pred == answer
    assert a.loc["900", "category_label"] == "law"
    assert any("2 *_summary.json files not read" in n for n in ds.report.notes)
    with pytest.raises(InputError, match="an MMLU-Pro summary"):
        io.load([str(run / "law_summary.json")])


def test_a_local_run_is_named_by_the_folder_above_cot(tmp_path):
    folder = tmp_path / "results" / "Llama-3.1-8B-Instruct" / "CoT" / "all"
    folder.mkdir(parents=True)
    (folder / "business.json").write_text(json.dumps([record(70, "A", "A"), record(71, "B", "B")]))
    assert io.load([str(folder / "business.json")]).report.models == ("Llama-3.1-8B-Instruct",)
    ds = io.load([str(folder / "business.json")], mapping={"model": "@folder:4"})
    assert ds.report.models == ("results",)


def test_a_record_without_pred_is_refused(tmp_path):
    recs = [record(70, "A", "A"), {k: v for k, v in record(71, "B", "B").items() if k != "answer"}]
    path = tmp_path / "business_result.json"
    path.write_text(json.dumps(recs))
    with pytest.raises(InputError, match="no 'answer' in this record") as err:
        io.load([str(path)])
    assert "row 2" in str(err.value)


def test_the_cli_by_hand(tmp_path, capsys):
    run = write_api_run(tmp_path / "m", {"business": [(70 + i, "A", "A" if i < 3 else "B") for i in range(4)]})
    assert main(["leaderboard", str(run), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand: 3 of 4 right, N = 1; uniform prior: each question (c + 1) / 3 -> (2 + 2 + 2 + 1) / 12 = 7/12
    assert [(r["model"], r["task"]) for r in rows] == [("m", "MMLU-Pro")]
    assert rows[0]["avg"] == pytest.approx(0.75) and rows[0]["mu"] == pytest.approx(7 / 12)
