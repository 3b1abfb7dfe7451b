"""A dataset keeps how its files were read on the user's word (``QualityReport.reading``), so a manifest built
wherever the dataset is opened (the app's Export page, a workspace dataset in another session) records it."""

from __future__ import annotations

import json

from scorio_core import io
from scorio_core.report.reading import dataset_reading

PERCENT = "model,question_id,trial,score,error\na,q1,0,100,\na,q1,1,0,timeout\nb,q1,0,100,\nb,q1,1,pass,\n"


def test_plain_load_records_no_reading(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,0,1\nb,q1,0,0\n")
    dataset = io.load(str(path))
    assert dataset.report.reading == "" and dataset_reading(dataset.report) == {}


def test_every_option_is_recorded_and_survives_the_choices(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(PERCENT)
    dataset = io.load(str(path), mapping={"is_correct": "score"}, recode={"pass": 1.0}, outcome_scale=100,
                      errors_as_missing=True)
    want = {"map": {"is_correct": "score"}, "recode": {"pass": 1.0}, "outcome_scale": 100.0, "errors_as_missing": True}
    assert dataset_reading(dataset.report) == want
    assert json.loads(dataset.report.reading) == want  # JSON text: a report stays hashable
    chosen = io.apply_choices(dataset, missing_outcomes="drop")
    assert dataset_reading(chosen.report) == want
    assert chosen.attempts.groupby("model", observed=True)["is_correct"].mean().to_dict() == {"a": 1.0, "b": 1.0}


def test_the_workspace_keeps_the_reading(tmp_path):
    from scorio_core.store import Workspace

    path = tmp_path / "d.csv"
    path.write_text(PERCENT.replace("pass", "100"))
    dataset = io.load(str(path), outcome_scale=100)
    ws = Workspace(tmp_path / "ws")
    record = ws.save_dataset("pct", [("d.csv", path.read_bytes())], dataset)
    assert dataset_reading(ws.open_dataset(record.id).report) == {"outcome_scale": 100.0}


def test_a_damaged_record_is_a_clear_error():
    import dataclasses

    import pytest

    from scorio_core.errors import InputError
    from scorio_core.io.quality.report import QualityReport

    report = QualityReport(layout="attempts", n_rows=0, n_models=0, n_tasks=0, n_questions=0, models=(), tasks=())
    with pytest.raises(InputError, match="how its files were read is damaged"):
        dataset_reading(dataclasses.replace(report, reading="{not json"))
    with pytest.raises(InputError, match="unknown key"):
        dataset_reading(dataclasses.replace(report, reading='{"scale": 2}'))
