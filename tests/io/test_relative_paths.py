"""Paths as a user types them: relative to the working folder, down to a bare file name.

Found before (2026-12-05): ``python -m scorio_core leaderboard results.csv`` (any file named without a folder) ended in
"internal error (IndexError: 1)": the evalscope work-folder check read the file's grandparent folder, which a relative
path of one part does not have. The tests elsewhere pass absolute temporary paths, so none saw it. Each harness
layout below is loaded from every folder on its way (the path relative to there, "." at its root) and must give the
same counts as its absolute path."""

from __future__ import annotations

import json
import os

import pytest

from scorio_core import io
from scorio_core.cli import main
from tests.io.test_aider import result as aider_result
from tests.io.test_aider import write_run as write_aider
from tests.io.test_evalplus import write_evalplus
from tests.io.test_evalscope import write_run as write_evalscope
from tests.io.test_fastchat import write_judgments as write_fastchat
from tests.io.test_harbor import trial as harbor_trial
from tests.io.test_harbor import write_job as write_harbor
from tests.io.test_lighteval import write_output as write_lighteval
from tests.io.test_livecodebench import write_output as write_livecodebench
from tests.io.test_matharena import write_outputs as write_matharena
from tests.io.test_mmlu_pro import write_api_run as write_mmlu_pro
from tests.io.test_nemo_skills import write_output_dir as write_nemo_skills
from tests.io.test_opencompass import _work_folder as write_opencompass
from tests.io.test_qwen_math import write_output as write_qwen_math
from tests.io.test_terminal_bench import write_run as write_terminal_bench


def _aider(base):
    write_aider(base / "tmp.benchmarks", "2024-12-21-10-00-00--gpt4o",
                {("python", "bowling"): aider_result("bowling", [True]),
                 ("cpp", "bank-account"): aider_result("bank-account", [False, False])})
    return base / "tmp.benchmarks"


def _terminal_bench(base):
    write_terminal_bench(base / "runs", "2025-07-09__11-00-00", {"hello-world": [True], "fix-git": [False]})
    return base / "runs"


def _harbor(base):
    return write_harbor(base / "jobs", "2025-11-05__10-00-00", [
        harbor_trial("hello-world", 1.0, started="2025-11-05T10:00:00Z"),
        harbor_trial("fix-git", 0.0, started="2025-11-05T10:01:00Z")]).parent


LAYOUTS = {"opencompass": lambda base: write_opencompass(base / "outputs"),
           "evalscope": lambda base: write_evalscope(base),
           "matharena": write_matharena, "harbor": _harbor, "aider": _aider, "terminal-bench": _terminal_bench,
           "nemo-skills": lambda base: write_nemo_skills(base / "outputs"),
           "lighteval": lambda base: write_lighteval(base / "output"),
           "fastchat-judge": lambda base: write_fastchat(base).parents[2], "livecodebench": write_livecodebench,
           "qwen-math": lambda base: write_qwen_math(base / "outputs"),
           "evalplus": lambda base: write_evalplus(base / "evalplus_results" / "humaneval").parents[1],
           "mmlu-pro": lambda base: write_mmlu_pro(base / "eval_results" / "gpt-4o",
                                                   {"law": [(900, "D", "D"), (901, "A", None)]}).parent}


def _counts(ds):
    """Each question's trials and successes (a missing outcome counted apart), as loaded."""
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str})
    g = t.assign(missing=t["is_correct"].isna()).groupby(["model", "task", "question_id"], sort=True)
    return g.agg(n_trials=("is_correct", "size"), n_correct=("is_correct", "sum"), n_missing=("missing", "sum"))


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_harness_folder_loads_the_same_from_any_working_folder(layout, tmp_path, monkeypatch):
    root = LAYOUTS[layout](tmp_path / "data")
    want = _counts(io.load([str(root)]))
    assert len(want) > 0
    # from above the folder, from its root ("."), and from inside it (a file's own folder, its name alone)
    folders = [tmp_path, root.parent, root]
    inner = sorted(p for p in root.rglob("*") if p.is_dir())
    folders += inner[:1] + inner[-1:]
    for cwd in folders:
        monkeypatch.chdir(cwd)
        got = _counts(io.load([os.path.relpath(root, cwd)]))
        assert got.equals(want), (layout, cwd)


def test_a_bare_file_name_on_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rows = ["model,task,question_id,trial,correct"]
    rows += [f"{m},math,q{q},{t},{int((q + t + (m == 'a')) % 2 == 0)}" for m in "ab" for q in range(4) for t in range(2)]
    (tmp_path / "results.csv").write_text("\n".join(rows) + "\n")
    assert main(["leaderboard", "results.csv", "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["rows"] if isinstance(out, dict) and "rows" in out else out
    by_model = {r["model"]: r for r in rows}
    # by hand, uniform prior (Bayes@N = (successes + 1) / (N + 2) per question, averaged): a has 4 of 8 right,
    # b 4 of 8, each question 1 of 2 -> (1 + 1) / (2 + 2) = 0.5
    assert set(by_model) == {"a", "b"}
    assert all(r["mu"] == pytest.approx(0.5) for r in by_model.values())
    # and a bare file name inside a folder layout's own folder names
    evalscope = write_evalscope(tmp_path / "ev")
    monkeypatch.chdir(evalscope / "reviews" / "llama3-8b")
    assert len(io.load(["gsm8k_main.jsonl"]).attempts) == 12
