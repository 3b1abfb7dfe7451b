"""QA (leaderboard maintainer): an Inspect NaN score is a missing outcome, a sample the header lists but the log
lacks is named, and a duplicated lm-eval row is a duplicate, not an extra trial."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.errors import InputError

FORMATS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "formats"
LOG = FORMATS / "inspect_ai" / "data_arc_qwen.json"  # ids 1, 2, 3 (header sample_ids [1, 2, 3], epochs 1)


def _log(tmp_path, name, edit) -> Path:
    log = json.loads(LOG.read_text())
    edit(log)
    path = tmp_path / name
    path.write_text(json.dumps(log))  # json writes float('nan') as NaN, as Inspect does
    return path


def test_inspect_nan_score_is_a_missing_outcome(tmp_path):
    path = _log(tmp_path, "nan.json", lambda log: log["samples"][0]["scores"]["choice"].update(value=float("nan")))
    ds = io.load(path)  # was: "score nan of scorer 'choice' cannot be converted"
    assert ds.report.n_missing_outcomes == 1 and ds.report.n_non_binary == 0 and not ds.ready
    assert "--missing-outcomes drop" in ds.report.blocking[0]
    dropped = io.apply_choices(ds, missing_outcomes="drop")
    assert dropped.ready and sorted(dropped.attempts["question_id"].astype(str)) == ["2", "3"]


def test_inspect_sample_missing_from_the_log_is_named(tmp_path):
    path = _log(tmp_path, "gap.json", lambda log: log["samples"].pop(1))  # sample id 2
    notes = io.load(path).report.notes
    assert ("gap.json: 2 of the 3 samples the log header lists (eval.dataset.sample_ids x 1 epoch) are in the log; "
            "missing sample ids: 2. The ranking covers the 2 loaded.") in notes
    assert not [n for n in io.load(LOG).report.notes if "sample ids" in n]  # a complete log: no note


def test_inspect_header_count_without_ids(tmp_path):
    def edit(log):
        log["eval"]["dataset"].pop("sample_ids", None)
        log["results"]["total_samples"] = 5
    notes = io.load(_log(tmp_path, "count.json", edit)).report.notes
    assert any("3 samples are in the log of the 5 its header counts (results.total_samples" in n for n in notes)


def test_duplicate_row_is_not_an_extra_trial():
    rows = "model,task,question,trial,correct\nm,t,q1,0,1\nm,t,q1,0,1\nm,t,q2,0,0\nm,t,q3,0,1\n"
    r = io.load([("dup.csv", rows.encode())]).report
    assert r.n_duplicate_rows == 1 and r.duplicates[0].question_id == "q1"
    assert r.unequal_trials == ()  # was (t, m, 1, 2): the repeated trial 0 counted as a second trial
    real = io.load([("two.csv", (rows.replace("q1,0,1\nm,t,q1,0,1", "q1,0,1\nm,t,q1,1,1")).encode())]).report
    assert real.unequal_trials == (io.TrialSpread("t", "m", 1, 2),) and real.n_duplicate_rows == 0


def test_load_notes_reach_the_commands_notes(tmp_path, capsys):
    """What loading found (here a log's missing sample) is in leaderboard, compare and tasks output, not only `quality`."""
    from scorio_core.cli import main

    path = _log(tmp_path, "gap.json", lambda log: log["samples"].pop(1))
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert [n["code"] for n in notes if "missing sample ids: 2" in n["message"]] == ["load"]
    assert main(["tasks", str(path), "--output", "json"]) == 0
    assert any("missing sample ids: 2" in n["message"] for n in json.loads(capsys.readouterr().out)["notes"])


def test_an_eval_set_folder_with_its_logs_json_manifest(tmp_path):
    """Found 2026-12-05: a log folder written by eval_set (with its logs.json manifest of log headers) was refused
    whole ("logs.json: not an Inspect log (no 'eval' object)"). The manifest is left out, said; alone it is refused
    with what to load."""
    import shutil
    import zipfile

    shutil.copy(FORMATS / "inspect_ai" / "log_streaming.eval", tmp_path / "a.eval")
    header = json.loads(zipfile.ZipFile(tmp_path / "a.eval").read("header.json"))
    (tmp_path / "logs.json").write_text(json.dumps({"a.eval": header}, indent=2))  # write_log_dir_manifest's shape
    ds = io.load([str(tmp_path)])
    alone = io.load([str(tmp_path / "a.eval")])
    assert ds.attempts.equals(alone.attempts) and len(ds.sources) == 1
    assert any("logs.json not read: Inspect's manifest of the log folder" in n for n in ds.report.notes)
    with pytest.raises(InputError, match="Inspect's manifest of a log folder"):
        io.load([str(tmp_path / "logs.json")])


def test_an_eval_set_folder_with_its_eval_set_json(tmp_path):
    """Found 2026-12-05 (later): eval_set also writes eval-set.json (inspect_ai._eval.evalset.EvalSet: the set's id and
    its (task, model) runs), which was read as a table and refused the whole folder ("eval-set.json: no column found
    for required field 'is_correct'"). Left out with logs.json, said once; alone refused with what to load."""
    import shutil
    import zipfile

    shutil.copy(FORMATS / "inspect_ai" / "log_streaming.eval", tmp_path / "a.eval")
    header = json.loads(zipfile.ZipFile(tmp_path / "a.eval").read("header.json"))
    (tmp_path / "eval-set.json").write_text(json.dumps({"eval_set_id": "kT3x", "tasks": [
        {"name": "popularity", "task_id": "popularity_1", "task_file": None, "task_args": {}, "model": "openai/gpt-4o",
         "model_args": {}, "model_roles": None, "sequence": 0}]}, indent=2))
    ds = io.load([str(tmp_path)])
    assert ds.attempts.equals(io.load([str(tmp_path / "a.eval")]).attempts) and len(ds.sources) == 1
    assert any("eval-set.json not read: Inspect's manifest of the log folder" in n for n in ds.report.notes)
    (tmp_path / "logs.json").write_text(json.dumps({"a.eval": header}))
    notes = [n for n in io.load([str(tmp_path)]).report.notes if "not read: Inspect's manifests" in n]
    assert len(notes) == 1 and notes[0].startswith("logs.json and eval-set.json not read"), notes
    with pytest.raises(InputError, match="eval-set.json: the eval set's tasks and models"):
        io.load([str(tmp_path / "eval-set.json")])
