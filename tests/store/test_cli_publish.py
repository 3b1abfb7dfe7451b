"""``python -m scorio_core publish``: stores data and a snapshot; the printed link opens in the app (issue 14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scorio_core.store import Workspace

from .conftest import REPO

MODELS = ("alpha-published", "beta-published", "gamma-published")


def _csv(path, shift: float = 0.0):
    lines = ["model,question_id,trial,is_correct,has_box,finish_reason"]
    for m, model in enumerate(MODELS):
        for q in range(12):
            for t in range(4):
                correct = int((q * 7 + t * 3 + m * 5) % 10 < 3 + 3 * m + shift)
                lines.append(f"{model},q{q},{t},{correct},{int((q + t) % 4 != 0)},stop")
    path.write_text("\n".join(lines) + "\n")
    return path


def publish(root, *args, expect=0, env_extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCORIO_WORKSPACE")}
    env.update(env_extra or {})
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "publish", *args, "--workspace", str(root)],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert proc.returncode == expect, proc.stderr
    return proc


def test_publish_prints_links_and_stores_a_snapshot(tmp_path):
    root = tmp_path / "ws"
    dump = _csv(tmp_path / "eval.csv")
    out = json.loads(publish(root, str(dump), "--name", "nightly eval", "--base-url", "https://scorio.example.org/",
                             "--output", "json").stdout)
    assert list(out) == ["analysis_id", "dataset_id", "dataset_created", "dataset_name", "link", "present_link",
                         "engine", "notes", "analysis_notes"]
    assert out["dataset_created"] and out["dataset_name"] == "nightly eval" and out["notes"] == []
    assert out["engine"] == "pandas"  # a small file: the attempt-level loader
    assert out["link"] == f"https://scorio.example.org/?analysis={out['analysis_id']}"
    assert out["present_link"] == out["link"] + "&view=present"
    ws = Workspace(root)
    record = ws.get_analysis(out["analysis_id"])
    assert record.immutable and record.dataset_id == out["dataset_id"] and record.owner is None
    assert set(record.state) == {"manifest", "views"} and record.state["views"] == {}
    manifest = record.state["manifest"]
    assert manifest["format"] == "scorio-analysis" and manifest["data"]["key"] == "ws:" + out["dataset_id"]
    assert manifest["data"]["label"] == "Uploaded: nightly eval"
    assert [s["name"] for s in manifest["data"]["sources"]] == ["eval.csv"]
    assert manifest["settings"]["tie_rule"] == "pairwise" and manifest["rubric"] is None
    assert [a.id for a in ws.list_analyses()] == [out["analysis_id"]]  # no draft left behind
    assert ws.get_dataset(out["dataset_id"]).name == "nightly eval"

    table = publish(root, str(dump), "--metric", "avg").stdout  # same files: the dataset is reused
    assert "already stored" in table and f"?analysis=" in table and "http://localhost:8501/" in table
    again = json.loads(publish(root, str(dump), "--name", "renamed", "--output", "json").stdout)
    assert not again["dataset_created"] and again["dataset_name"] == "nightly eval"  # not silently renamed
    assert "names newly stored datasets only" in publish(root, str(dump), "--name", "renamed").stdout


@pytest.mark.parametrize("args, message", [
    (["missing.csv"], "no such file"),
    (["{dump}", "--base-url", "javascript:alert(1)"], "--base-url"),
    (["{dump}", "--base-url", "http://x/?a=b"], "--base-url"),
    (["{dump}", "--task", "no-such-task"], "not in the data"),
    (["{dump}", "--schema", "no-such-rubric"], "error:"),
    (["{dump}", "--confidence", "0.5"], "error:"),
    (["{dump}", "--name", "x" * 300], "error:"),
])
def test_bad_input_is_one_error_line(tmp_path, args, message):
    dump = _csv(tmp_path / "eval.csv")
    proc = publish(tmp_path / "ws", *[a.replace("{dump}", str(dump)) for a in args], expect=2)
    assert proc.stderr.startswith("error: ") and message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    if (tmp_path / "ws").exists():  # nothing half-published
        assert Workspace(tmp_path / "ws").list_analyses() == []


@pytest.mark.parametrize("schema", [None, "Strict Compliance"])
def test_the_printed_link_opens_in_the_app(tmp_path, monkeypatch, schema):
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import AppTest

    original = PagesManager.__init__

    def init(self, *args, **kwargs):  # as tests/app/conftest.py: every rerun goes through app.py
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)
    root = tmp_path / "ws"
    extra = ["--schema", schema] if schema else []
    out = json.loads(publish(root, str(_csv(tmp_path / "eval.csv")), "--metric", "avg", *extra, "--output", "json").stdout)
    monkeypatch.setenv("SCORIO_WORKSPACE", str(root))  # the server's workspace: the one CI published into
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.query_params["analysis"] = out["link"].split("?analysis=", 1)[1]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.sidebar.error, [e.value for e in at.sidebar.error]
    assert at.session_state["dataset"] == "ws:" + out["dataset_id"]
    assert at.session_state["lb_metric"] == "avg"
    board = at.dataframe[0].value
    assert sorted(board["model"].tolist()) == sorted(MODELS)
    assert board["model"].tolist()[0] == "gamma-published"  # the best model ranks first
    assert at.session_state["_rubric_workspace"].schema.name == (schema or "Binary correctness")


def test_a_name_that_did_not_apply_is_in_the_json(tmp_path):
    # the table output said so; a pipeline reading the JSON saw dataset_name differ from its --name, unexplained
    root, dump = tmp_path / "ws", _csv(tmp_path / "eval.csv")
    publish(root, str(dump), "--name", "nightly eval", "--output", "json")
    again = json.loads(publish(root, str(dump), "--name", "renamed", "--output", "json").stdout)
    assert not again["dataset_created"] and again["dataset_name"] == "nightly eval"
    assert again["notes"] == [{"code": "name_not_applied", "message": "these files were stored before under the name "
                               "'nightly eval'; --name 'renamed' names newly stored datasets only"}]


def test_publish_notes_say_which_data_quality_choices_were_applied(tmp_path, capsys):
    # QA (CI maintainer, 2026-12-02): `publish --duplicates keep-first` gave "notes": [] while the leaderboard said
    # which rows the choice removed
    from scorio_core.cli import main

    path = tmp_path / "dups.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,0,1\na,q1,0,1\na,q2,0,0\nb,q1,0,1\nb,q2,0,0\n")
    assert main(["publish", str(path), "--duplicates", "keep-first", "--workspace", str(tmp_path / "ws"),
                 "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(n["code"], n["message"]) for n in out["notes"]] == [
        ("data_choices", "Data-quality choices applied before scoring: duplicates=keep-first: removed 1 rows.")]


@pytest.mark.parametrize("settings", [["--prior", "uniform"], ["--question-set", "common"], []])
def test_analysis_notes_are_the_leaderboards_under_the_published_settings(tmp_path, settings, capsys):
    """QA (surfaces agree): the caveats were computed under the default settings, so ``--prior uniform`` reported
    ``prior_not_fitted`` (a default-prior fallback the link does not show) and ``--question-set common`` said each
    model is scored on its own questions. Now the codes and messages equal ``leaderboard``'s under the same options."""
    from scorio_core.cli import main

    path = tmp_path / "once.csv"  # N = 1 (the default prior falls back), b misses two questions
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},0,{int(q < k)}\n" for m, k in (("a", 9), ("b", 3), ("c", 6)) for q in range(10)
        if not (m == "b" and q >= 8)))
    out = json.loads(publish(tmp_path / "ws", str(path), *settings, "--output", "json").stdout)
    assert main(["leaderboard", str(path), *settings, "--output", "json"]) == 0
    board = json.loads(capsys.readouterr().out)
    codes = {"prior_not_fitted", "unequal_question_sets", "prior_pull", "not_fitted"}
    expected = sorted((n["code"], n["message"].removeprefix("once: ")) for n in board["notes"] if n["code"] in codes)
    got = sorted((n["code"], n["message"].removeprefix("once: ")) for n in out["analysis_notes"] if n["code"] in codes)
    assert got == expected and got, (got, expected)
    if settings == ["--prior", "uniform"]:
        assert not any(code == "prior_not_fitted" for code, _ in got)
