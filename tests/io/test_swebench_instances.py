"""SWE-bench per-instance reports (``logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json``): a model's
folder is one run, one attempt per instance; runs of one model numbered as trials; uploads and a run loaded twice
refused by name."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from tests.io.test_swebench import report

IDS = ["astropy__astropy-12907", "django__django-11099", "sympy__sympy-20590"]


def entry(resolved: bool, applied: bool = True, patch: bool = True) -> dict:
    """One instance as ``grading.get_eval_report`` writes it (tests_status only when the patch applied)."""
    out = {"patch_is_None": not patch, "patch_exists": patch, "patch_successfully_applied": applied and patch,
           "resolved": resolved}
    if applied and patch:
        out["tests_status"] = {"FAIL_TO_PASS": {"success": ["t1"] if resolved else [], "failure": [] if resolved else ["t1"]},
                               "PASS_TO_PASS": {"success": ["t2"], "failure": []}}
    return out


def write_run(root, run: str, model: str, outcomes: dict) -> None:
    for iid, e in outcomes.items():
        folder = root / "logs" / "run_evaluation" / run / model / iid
        folder.mkdir(parents=True)
        (folder / "report.json").write_text(json.dumps({iid: e}, indent=4))
        for other in ("run_instance.log", "patch.diff", "eval.sh"):  # the harness's other files are not data
            (folder / other).write_text("text")
        (folder / "test_output.txt").write_text("+ pytest -rA\nPASSED tests/test_x.py::t1\n")


def test_detected_from_its_head():
    doc = json.dumps({IDS[0]: entry(True)}, indent=4).encode()
    assert io.detect_format(("report.json", doc)) == "swebench-instance"
    # an object of records that happens to hold 'resolved' is not one
    assert io.detect_format(("r.json", b'{"data": [{"resolved": 1, "model": "m"}]}')) != "swebench-instance"


def test_a_runs_folders_read_as_one_attempt_per_instance_and_runs_as_trials(tmp_path):
    write_run(tmp_path, "run_a", "openai__gpt-4o", {IDS[0]: entry(True), IDS[1]: entry(False), IDS[2]: entry(False, applied=False)})
    write_run(tmp_path, "run_a", "claude", {IDS[0]: entry(False, patch=False), IDS[1]: entry(True)})
    write_run(tmp_path, "run_b", "openai__gpt-4o", {IDS[0]: entry(True), IDS[1]: entry(True), IDS[2]: entry(False)})
    ds = io.load(tmp_path / "logs")
    assert ds.ready, ds.report.blocking
    assert [s.name for s in ds.sources] == ["run_a/claude", "run_a/openai__gpt-4o", "run_b/openai__gpt-4o"]
    a = ds.attempts.astype({"model": str, "question_id": str})
    assert set(a["task"].astype(str)) == {"swe-bench"}
    gpt = a[a["model"] == "openai__gpt-4o"].sort_values(["trial", "question_id"])
    # by hand: run_a resolved only IDS[0]; run_b IDS[0] and IDS[1]; the unapplied patch counts 0
    assert gpt["trial"].tolist() == [0, 0, 0, 1, 1, 1]
    assert gpt["is_correct"].tolist() == [1.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    assert gpt["swebench_status"].tolist()[:3] == ["resolved", "unresolved", "patch not applied"]
    claude = a[a["model"] == "claude"].sort_values("question_id")
    assert claude["is_correct"].tolist() == [0.0, 1.0] and claude["swebench_status"].iat[0] == "no patch"
    notes = " ".join(ds.report.notes)
    assert "no report.json for (empty patches, harness errors, instances not run) are not attempts" in notes
    assert "run_a/openai__gpt-4o: 1 instance where the patch did not apply counted as unresolved" in notes
    assert "run_a/claude: 1 instance where no patch was submitted counted as unresolved" in notes
    assert any("run 2 of 2 reports of model 'openai__gpt-4o'" in d for d in ds.report.defaults)
    assert "8 SWE-bench harness logs beside the per-instance reports (test_output.txt) not read" in notes
    assert dict(ds.sources[0].mapping)["model"].startswith("<folder: claude")


def test_leaderboard_cli_by_hand(tmp_path, capsys):
    from scorio_core.cli import main

    write_run(tmp_path, "r1", "m1", {IDS[0]: entry(True), IDS[1]: entry(False)})
    write_run(tmp_path, "r1", "m2", {IDS[0]: entry(True), IDS[1]: entry(True)})
    assert main(["leaderboard", str(tmp_path / "logs" / "run_evaluation" / "r1"), "--prior", "uniform",
                 "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    # Bayes@N, uniform prior, N = 1: mean over instances of (c + 1) / 3
    assert rows["m1"]["estimate"] == pytest.approx((2 + 1) / 3 / 2, abs=1e-12)
    assert rows["m2"]["estimate"] == pytest.approx((2 + 2) / 3 / 2, abs=1e-12)


def test_files_not_in_an_instance_folder_take_their_folder_as_model_or_a_mapped_one(tmp_path):
    (tmp_path / "gpt").mkdir()
    for iid, ok in zip(IDS, (True, False, True)):
        (tmp_path / "gpt" / f"{iid}.json").write_text(json.dumps({iid: entry(ok)}))
    ds = io.load(tmp_path / "gpt")
    assert ds.attempts["model"].astype(str).unique().tolist() == ["gpt"]
    assert sorted(ds.attempts["question_id"].astype(str)) == IDS
    ds = io.load(tmp_path / "gpt", mapping={"task": "@folder"})
    assert ds.attempts["task"].astype(str).unique().tolist() == ["gpt"]


def test_refusals_name_the_file_and_the_fix(tmp_path):
    doc = json.dumps({IDS[0]: entry(True)}).encode()
    with pytest.raises(InputError, match="names its instance but not its model.*<model>.<run_id>.json"):
        io.load([("report.json", doc)])
    write_run(tmp_path, "r1", "m1", {IDS[0]: entry(True)})
    bad = tmp_path / "logs" / "run_evaluation" / "r1" / "m1" / IDS[1]
    bad.mkdir()
    (bad / "report.json").write_text(json.dumps({IDS[1]: {"patch_exists": True, "resolved": "yes"}}))
    with pytest.raises(InputError, match=f"r1/m1/{IDS[1]}/report.json.*instance '{IDS[1]}': 'resolved' must be true or false"):
        io.load(tmp_path / "logs")
    with pytest.raises(InputError, match="has no columns to map"):
        io.load(tmp_path / "logs" / "run_evaluation" / "r1" / "m1" / IDS[0], mapping={"is_correct": "resolved"})


def test_a_run_loaded_as_its_summary_and_its_instances_is_refused(tmp_path):
    write_run(tmp_path, "r1", "m1", {IDS[0]: entry(True), IDS[1]: entry(False)})
    (tmp_path / "m1.r1.json").write_bytes(report(IDS[:1], IDS[1:2]))
    with pytest.raises(InputError, match="same run 'r1' of model 'm1'.*load one of them"):
        io.load([tmp_path / "m1.r1.json", tmp_path / "logs"])
    # another run of the same model is its second trial
    (tmp_path / "m1.r0.json").write_bytes(report(IDS[:2], []))
    ds = io.load([tmp_path / "m1.r0.json", tmp_path / "logs"])
    assert sorted(ds.attempts["trial"].unique().tolist()) == [0, 1]


@pytest.mark.parametrize("threshold", [None, 0])  # small files (pandas), and with DuckDB's size threshold at 0
def test_server_folders_store_the_rows_with_their_model_names(tmp_path, threshold):
    from scorio_core.io import roots

    write_run(tmp_path / "evals", "r1", "m1", {IDS[0]: entry(True), IDS[1]: entry(False)})
    write_run(tmp_path / "evals", "r1", "m2", {IDS[0]: entry(False), IDS[1]: entry(True)})
    root = roots.data_roots(str(tmp_path / "evals"))[0]
    dataset, engine, files = roots.load_matches(roots.resolve_in_root(root, "logs"), threshold=threshold)
    assert engine == "pandas" and [n for n, _ in files] == ["logs.attempts.parquet"]
    again = io.load(files)  # what a session or the workspace re-reads: the models' names are in the rows now
    cols = ["model", "question_id", "trial", "is_correct"]
    key = lambda t: t[cols].astype({"model": str, "question_id": str}).sort_values(cols).reset_index(drop=True)
    assert key(again.attempts).equals(key(dataset.attempts))
