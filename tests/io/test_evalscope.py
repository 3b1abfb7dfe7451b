"""evalscope reviews: ``outputs/<timestamp>/reviews/<model_name>/<benchmark>_<subset>.jsonl``, one ``ReviewResult`` per
line (``evalscope/api/evaluator/cache.py``), ``group_id`` the question of repeated samples.

Found before (2026-12-05): the reviews were read with each repeat as a question of its own (N = 1) and the file stem
as the model; a whole work folder was refused on its reports ("no column found for required field 'question_id'")."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.errors import InputError

#: Each model's repeats (3) of 4 questions, by hand.
SCORES = {"qwen2.5-7b": [[1, 1, 0], [0, 0, 0], [1, 1, 1], [0, 1, 0]], "llama3-8b": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 1]]}


def review(sid, group, value, name="acc"):
    return {"index": sid, "input": [{"role": "user", "content": "Q"}], "target": "42",
            "sample_score": {"score": {"value": {name: value, "other": 0.5}, "extracted_prediction": "42",
                                       "prediction": "...", "explanation": None, "metadata": {},
                                       "main_score_name": name},
                             "sample_id": sid, "group_id": group, "sample_metadata": {"id": group}}}


def write_run(base, scores=SCORES, name="acc"):
    root = base / "outputs" / "20250101_120000"
    for model, rows in scores.items():
        for kind in ("reviews", "predictions", "reports"):
            (root / kind / model).mkdir(parents=True)
        lines, sid = [], 0
        for rep in range(3):  # evalscope lays the repeats out as whole passes over the dataset
            for q, row in enumerate(rows):
                lines.append(json.dumps(review(sid, q, row[rep], name)))
                sid += 1
        (root / "reviews" / model / "gsm8k_main.jsonl").write_text("\n".join(lines) + "\n")
        (root / "predictions" / model / "gsm8k_main.jsonl").write_text(json.dumps({"index": 0, "model": model}) + "\n")
        (root / "reports" / model / "gsm8k.json").write_text(json.dumps({"name": f"{model}@gsm8k", "score": 0.5}))
    (root / "configs").mkdir()
    (root / "configs" / "task_config.yaml").write_text("model: x\n")
    return root


def test_a_work_folder_reads_each_repeat_as_a_trial(tmp_path):
    ds = io.load([str(write_run(tmp_path))])
    assert {s.format for s in ds.sources} == {"evalscope"}
    counts = ds.to_counts().astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    for model, rows in SCORES.items():
        for q, row in enumerate(rows):
            assert counts.loc[(model, str(q)), "n_trials"] == 3
            assert counts.loc[(model, str(q)), "n_correct"] == sum(row)
    assert set(ds.attempts["task"].astype(str)) == {"gsm8k_main"}
    assert any("4 files beside reviews/ not read" in n for n in ds.report.notes)
    assert dict(ds.sources[0].mapping)["is_correct"] == "sample_score.score.value.acc"  # the main score, not 'other'


def test_a_judge_score_out_of_range_is_refused_with_its_line(tmp_path):
    root = write_run(tmp_path, {"m": [[1, 7, 0]]}, name="score")
    with pytest.raises(InputError, match=r"line 2.*main score 'score' is 7.*divide by 10"):
        io.load([str(root)])


def test_an_upload_names_no_model():
    data = (json.dumps(review(0, 0, 1.0)) + "\n").encode()
    with pytest.raises(InputError, match="no folder to name its model"):
        io.load([("gsm8k_main.jsonl", data)])
