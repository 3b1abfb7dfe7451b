"""LiveCodeBench outputs: ``output/<model_repr>/Scenario.codegeneration_<n>_<temperature>_eval_all.json`` beside the
generations and the aggregated metrics (``lcb_runner/runner/main.py``).

Found before (2026-12-05): an output folder was refused on the generations file ("no column found for required field
'is_correct'"), and the graded files alone on duplicates (every model named after the file)."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.errors import InputError

RUN = "Scenario.codegeneration_5_0.2"
MODELS = ("GPT-4O-2024-08-06", "Claude-3.5-Sonnet")


def graded(k, q, i) -> bool:  # model k, problem q, sample i
    return (q + i + k) % 3 == 0


def problem(q, samples=None):
    doc = {"question_title": f"T{q}", "question_content": "...", "platform": "leetcode", "question_id": str(3000 + q),
           "contest_id": "weekly-1", "contest_date": "2024-08-01T00:00:00", "starter_code": "", "difficulty": "easy",
           "output_list": ["..."] * 5, "code_list": ["..."] * 5}
    if samples is not None:
        doc.update({"graded_list": samples, "pass@1": sum(samples) / len(samples), "metadata": ["{}"] * 5})
    return doc


def write_output(base, models=MODELS, beside=True):
    for k, model in enumerate(models):
        folder = base / "output" / model
        folder.mkdir(parents=True)
        (folder / f"{RUN}_eval_all.json").write_text(json.dumps(
            [problem(q, [graded(k, q, i) for i in range(5)]) for q in range(4)], indent=2))
        if beside:
            (folder / f"{RUN}.json").write_text(json.dumps([problem(q) for q in range(4)]))
            (folder / f"{RUN}_eval.json").write_text(json.dumps([{"pass@1": 0.3, "detail": {}}, {}, []]))
    return base / "output"


def test_an_output_folder_is_one_trial_per_sample_and_a_model_per_folder(tmp_path):
    ds = io.load([str(write_output(tmp_path))])
    assert {s.format for s in ds.sources} == {"livecodebench"} and ds.report.models == tuple(sorted(MODELS))
    counts = ds.to_counts().astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    # by hand: GPT-4O (k = 0) on problem 3000 passes samples 0 and 3 of 5; Claude (k = 1) on 3001 samples 1 and 4
    assert counts.loc[(MODELS[0], "3000"), "n_correct"] == 2 and counts.loc[(MODELS[1], "3001"), "n_correct"] == 2
    for k, model in enumerate(MODELS):
        for q in range(4):
            assert counts.loc[(model, str(3000 + q)), "n_trials"] == 5
            assert counts.loc[(model, str(3000 + q)), "n_correct"] == sum(graded(k, q, i) for i in range(5))
    assert any("LiveCodeBench: 4 files beside the graded ..._eval_all.json not read" in n for n in ds.report.notes)


def test_a_mapping_names_the_model_otherwise(tmp_path):
    out = write_output(tmp_path, MODELS[:1], beside=False)
    ds = io.load([str(out)], mapping={"model": "@folder:2"})
    assert ds.report.models == ("output",)


@pytest.mark.parametrize("name, words", [(f"{RUN}.json", "generations, not graded"),
                                         (f"{RUN}_eval.json", "aggregated metrics only")])
def test_a_run_without_its_graded_file_is_refused_with_what_writes_it(tmp_path, name, words):
    out = write_output(tmp_path, MODELS[:1])
    (out / MODELS[0] / f"{RUN}_eval_all.json").unlink()
    with pytest.raises(InputError, match=words) as err:
        io.load([str(out / MODELS[0] / name)])
    assert "--evaluate" in str(err.value)
