"""SWE-bench harness reports (``<model>.<run_id>.json``, ``swebench.harness.run_evaluation``): one attempt per
instance, several reports of one model read as its runs; empty patches, harness errors and instances without a
prediction said, never silently counted."""

from __future__ import annotations

import json
import math

import pytest

from scorio_core import io
from scorio_core.errors import InputError


def report(resolved, unresolved, empty=(), error=(), incomplete=(), total=None) -> bytes:
    """A report as ``make_run_report`` (schema_version 2) writes it: counts first, then the sorted id lists."""
    completed = sorted([*resolved, *unresolved])
    submitted = sorted([*resolved, *unresolved, *empty, *error])
    doc = {"total_instances": total if total is not None else len(submitted) + len(incomplete),
           "submitted_instances": len(submitted), "completed_instances": len(completed),
           "resolved_instances": len(resolved), "unresolved_instances": len(unresolved),
           "empty_patch_instances": len(empty), "error_instances": len(error),
           "completed_ids": completed, "incomplete_ids": sorted(incomplete), "empty_patch_ids": sorted(empty),
           "submitted_ids": submitted, "resolved_ids": sorted(resolved), "unresolved_ids": sorted(unresolved),
           "error_ids": sorted(error), "schema_version": 2}
    return json.dumps(doc, indent=4).encode()


IDS = [f"django__django-{11000 + i}" for i in range(6)]
GPT1 = ("openai__gpt-4o.run_a.json", report(IDS[:2], IDS[2:4], empty=[IDS[4]], error=[IDS[5]]))
GPT2 = ("openai__gpt-4o.run_b.json", report(IDS[:3], IDS[3:6]))
CLAUDE = ("claude-3.5-sonnet.eval.json", report(IDS[1:4], [IDS[0], IDS[4]], incomplete=[IDS[5]]))


def test_detected_by_its_keys():
    assert io.detect_format(GPT1) == "swebench-report"
    # the count keys come first, so a long report is recognised from its head alone
    long = report([f"x__y-{i}" for i in range(3000)], [f"x__y-{i}" for i in range(3000, 6000)])
    assert io.detect_format(("m.r.json", long)) == "swebench-report"


def test_one_report_reads_its_outcomes_and_says_what_it_counted():
    ds = io.load([GPT1])
    a = ds.attempts.sort_values("question_id")
    assert a["model"].astype(str).unique().tolist() == ["openai__gpt-4o"]
    assert a["task"].astype(str).unique().tolist() == ["swe-bench"]
    assert a["question_id"].astype(str).tolist() == IDS and (a["trial"] == 0).all()
    assert a["is_correct"].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert a["swebench_status"].tolist() == ["resolved", "resolved", "unresolved", "unresolved", "empty patch", "error"]
    notes = " ".join(ds.report.notes)
    assert "1 instance with an empty patch counted as unresolved" in notes
    assert "1 instance in error_ids" in notes and "--errors-as-missing" in notes
    assert any("run 'run_a'" in d for d in ds.report.defaults)
    assert dict(ds.sources[0].mapping)["question_id"].startswith("resolved_ids")


def test_errors_as_missing_leaves_them_to_the_missing_outcomes_choice():
    ds = io.load([GPT1], errors_as_missing=True)
    a = ds.attempts.set_index("question_id")
    assert a["is_correct"].isna().sum() == 1 and math.isnan(a.loc[IDS[5], "is_correct"])
    assert ds.report.n_missing_outcomes == 1 and not ds.ready
    dropped = io.apply_choices(ds, missing_outcomes="drop")
    assert len(dropped.attempts) == 5 and dropped.ready


def test_incomplete_instances_are_not_attempts_and_are_said():
    ds = io.load([CLAUDE])
    assert sorted(ds.attempts["question_id"].astype(str)) == IDS[:5]
    assert any("1 instance of the dataset had no prediction" in n and "total_instances" in n for n in ds.report.notes)


def test_reports_of_one_model_are_its_runs():
    ds = io.load([GPT1, GPT2, CLAUDE])
    assert ds.ready, ds.report.blocking
    counts = ds.to_counts().astype({"model": str, "question_id": str})
    gpt = counts[counts["model"] == "openai__gpt-4o"].set_index("question_id")
    # run_a: resolved 0-1; run_b: resolved 0-2 -> n_correct per instance 2, 2, 1, 0, 0, 0 of 2
    assert gpt.loc[IDS, "n_trials"].tolist() == [2] * 6
    assert gpt.loc[IDS, "n_correct"].tolist() == [2, 2, 1, 0, 0, 0]
    claude = counts[counts["model"] == "claude-3.5-sonnet"]
    assert claude["n_trials"].tolist() == [1] * 5
    assert any("run 2 of 2 reports of model 'openai__gpt-4o'" in d for d in ds.report.defaults)


def test_leaderboard_cli_by_hand(tmp_path, capsys):
    from scorio_core.cli import main

    for name, data in (GPT1, GPT2, CLAUDE):
        (tmp_path / name).write_bytes(data)
    assert main(["leaderboard", str(tmp_path), "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["model"]: r for r in out["rows"]}
    # Bayes@N, uniform prior: mean over instances of (c + 1) / (N + 2)
    assert rows["openai__gpt-4o"]["estimate"] == pytest.approx((3 + 3 + 2 + 1 + 1 + 1) / 4 / 6, abs=1e-12)
    assert rows["claude-3.5-sonnet"]["estimate"] == pytest.approx((1 + 2 + 2 + 2 + 1) / 3 / 5, abs=1e-12)
    assert rows["openai__gpt-4o"]["n_trials"] == 2 and rows["claude-3.5-sonnet"]["n_trials"] == 1
    assert any("empty patch" in n["message"] for n in out["notes"])


def test_task_and_model_from_folders(tmp_path):
    for split, ids in (("lite", IDS[:3]), ("verified", IDS[3:])):
        (tmp_path / split).mkdir()
        (tmp_path / split / "gpt.r1.json").write_bytes(report(ids[:1], ids[1:], total=300 if split == "lite" else 500))
    ds = io.load([tmp_path / "lite" / "gpt.r1.json", tmp_path / "verified" / "gpt.r1.json"], mapping={"task": "@folder"})
    assert sorted(ds.attempts["task"].astype(str).unique()) == ["lite", "verified"]
    assert (ds.attempts["trial"] == 0).all()  # one run per (model, task)


def test_refusals_name_the_problem(tmp_path):
    with pytest.raises(InputError, match="listed in both resolved_ids and unresolved_ids"):
        io.load([("m.r.json", report(IDS[:2], IDS[1:3]))])
    lite, verified = ("gpt.a.json", report(IDS[:1], IDS[1:3], total=300)), ("gpt.b.json", report(IDS[:1], IDS[1:3], total=500))
    with pytest.raises(InputError, match=r"different sizes \(300 and 500 instances.*--map task=@folder"):
        io.load([lite, verified])
    with pytest.raises(InputError, match="same report \\(identical content\\)"):
        io.load([GPT1, ("openai__gpt-4o.copy.json", GPT1[1])])
    with pytest.raises(InputError, match="has no columns to map"):
        io.load([GPT1], mapping={"is_correct": "resolved"})
    bad = json.loads(GPT1[1])
    bad["resolved_ids"] = "django__django-1"
    with pytest.raises(InputError, match="'resolved_ids' must be a list of instance ids"):
        io.load([("m.r.json", json.dumps(bad).encode())])
