"""Per-model result files without a task column (``gpt.csv``, ``claude.csv``) load as one task, not one task per file.

Before: each file took its stem as task, so the same questions became disjoint tasks of one model each and the
leaderboard refused ("the data has 2 tasks (gpt, claude); choose one with --task"). Per-task files (the same models in
every file) keep their stem tasks.
"""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.io._merge import per_model_task_name
from scorio_core.leaderboard.table import leaderboard
from scorio_core.leaderboard.task_outcomes import outcomes_for, task_names

HEAD = "model,question_id,trial,is_correct\n"
G = b"model,question_id,trial,is_correct\ngpt,q1,0,1\ngpt,q1,1,0\ngpt,q2,0,1\ngpt,q2,1,1\n"
C = b"model,question_id,trial,is_correct\nclaude,q1,0,0\nclaude,q1,1,0\nclaude,q2,0,1\nclaude,q2,1,1\n"


def _csv(models, questions, trials=2) -> bytes:
    rows = [f"{m},q{q},{t},{(q + t + len(m)) % 2}\n" for m in models for q in questions for t in range(trials)]
    return (HEAD + "".join(rows)).encode()


def test_readme_per_model_files_form_one_task_and_rank_together():
    ds = io.load([("gpt.csv", G), ("claude.csv", C)])
    assert task_names(ds) == ["benchmark"]
    board = leaderboard(outcomes_for(ds))
    assert sorted(board["model"].astype(str)) == ["claude", "gpt"]
    assert set(board["task"].astype(str)) == {"benchmark"}
    assert len(ds.attempts) == 8 and ds.report.tasks == ("benchmark",)


def test_the_report_names_the_files_and_drops_the_stem_lines():
    ds = io.load([("gpt.csv", G), ("claude.csv", C)])
    assert ds.report.defaults == (
        "gpt.csv, claude.csv: no task column; the files hold different models answering the same questions, so they "
        "form one task 'benchmark' (add a task column to name it or to keep them apart).",)
    assert not any("file stem" in d for d in ds.report.defaults)


def test_per_task_files_with_shared_models_keep_their_stem_tasks():
    ds = io.load([("gsm8k.csv", _csv("ab", range(4))), ("math.csv", _csv("ab", range(4)))])
    assert task_names(ds) == ["gsm8k", "math"]
    assert ds.report.defaults == ("gsm8k.csv: no task column; task set to the file stem 'gsm8k'.",
                                  "math.csv: no task column; task set to the file stem 'math'.")


def test_disjoint_models_on_disjoint_questions_keep_their_stem_tasks():
    ds = io.load([("gpt.csv", _csv(["gpt"], range(0, 4))), ("claude.csv", _csv(["claude"], range(4, 8)))])
    assert sorted(task_names(ds)) == ["claude", "gpt"]
    assert any("task set to the file stem 'gpt'" in d for d in ds.report.defaults)
    # and the report says that no two of these models are ranked together, and how to join them
    (note,) = [n for n in ds.report.notes if "share few questions" in n]
    assert note.startswith("gpt.csv, claude.csv: no task column; the files hold different models")
    assert "no two of these models are ranked together" in note and "--map task=@folder" in note
    shared = io.load([("gsm8k.csv", _csv("ab", range(4))), ("math.csv", _csv("ab", range(8, 12)))])
    assert not any("share few questions" in n for n in shared.report.notes)  # per-task files: the same models


def test_too_little_question_overlap_keeps_stem_tasks_and_half_is_enough():
    # rule: every pair shares at least half of the smaller file's question ids
    few = io.load([("gpt.csv", _csv(["gpt"], range(0, 4))), ("claude.csv", _csv(["claude"], range(3, 8)))])
    assert sorted(task_names(few)) == ["claude", "gpt"]  # 1 of 4 shared
    half = io.load([("gpt.csv", _csv(["gpt"], range(0, 4))), ("claude.csv", _csv(["claude"], range(2, 8)))])
    assert task_names(half) == ["benchmark"]  # 2 of 4 shared


def test_three_per_model_files_with_a_common_prefix_take_the_prefix():
    files = [(f"aime_{m}.csv", _csv([m], range(5))) for m in ("gpt", "claude", "llama")]
    ds = io.load(files)
    assert task_names(ds) == ["aime"]
    assert sorted(ds.attempts["model"].astype(str).unique()) == ["claude", "gpt", "llama"]
    (line,) = ds.report.defaults
    assert line.startswith("aime_gpt.csv, aime_claude.csv, aime_llama.csv: no task column;") and "'aime'" in line


def test_one_shared_model_keeps_every_stem_task():
    files = [("aime_gpt.csv", _csv(["gpt"], range(5))), ("aime_claude.csv", _csv(["claude", "gpt"], range(5))),
             ("aime_llama.csv", _csv(["llama"], range(5)))]
    assert sorted(task_names(io.load(files))) == ["aime_claude", "aime_gpt", "aime_llama"]


def test_files_without_model_and_task_columns_take_the_stem_as_model_in_one_task():
    body = ("question_id,trial,is_correct\n" + "".join(f"q{q},{t},{(q + t) % 2}\n" for q in range(3) for t in range(2)))
    ds = io.load([("gpt.csv", body.encode()), ("claude.csv", body.encode())])
    assert task_names(ds) == ["benchmark"]
    assert sorted(ds.attempts["model"].astype(str).unique()) == ["claude", "gpt"]
    assert ds.report.defaults == (
        "gpt.csv: no model column; model set to the file stem 'gpt'.",
        "gpt.csv, claude.csv: no task column; the files hold different models answering the same questions, so they "
        "form one task 'benchmark' (add a task column to name it or to keep them apart).",
        "claude.csv: no model column; model set to the file stem 'claude'.")
    assert len(leaderboard(outcomes_for(ds))) == 2


def test_files_with_a_task_column_are_left_out_of_the_rule():
    tasked = (("model,task,question_id,trial,is_correct\n" + "".join(
        f"llama,aime,q{q},{t},1\n" for q in range(2) for t in range(2))).encode())
    ds = io.load([("gpt.csv", G), ("claude.csv", C), ("llama.csv", tasked)])
    assert sorted(task_names(ds)) == ["aime", "benchmark"]
    lone = io.load([("gpt.csv", G), ("llama.csv", tasked)])  # one stem-task file: nothing to join
    assert sorted(task_names(lone)) == ["aime", "gpt"]


@pytest.mark.parametrize("stems, name", [
    (["aime_gpt", "aime_claude"], "aime"),
    (["gpt_aime", "claude_aime"], "aime"),
    (["gpt", "claude"], "benchmark"),
    (["gpt4", "gpt35"], "benchmark"),  # 'gpt' is not a whole word of both stems
    (["aime-2024.gpt", "aime-2024.claude"], "aime-2024"),
    (["run_gpt_aime2024", "run_claude_aime2024"], "aime2024"),  # the longer of prefix and suffix
])
def test_task_name_from_the_stems(stems, name):
    assert per_model_task_name(stems) == name


def test_task_names_by_models_put_the_most_covered_tasks_first_ties_in_order():
    import pandas as pd

    class _Data:  # the attempts table is all task_names reads
        counts = None
        attempts = pd.DataFrame({"task": pd.Categorical(["a", "b", "b", "c", "c", "c", "b", "d", "a"]),
                                 "model": ["x", "x", "y", "x", "y", "z", "y", "w", "x"]})

    assert task_names(_Data) == ["a", "b", "c", "d"]
    assert task_names(_Data, by_models=True) == ["c", "b", "a", "d"]  # 3, 2, 1 (a first of the two 1s), 1
    _Data.attempts = _Data.attempts.astype({"task": str, "model": "category"})
    assert task_names(_Data, by_models=True) == ["c", "b", "a", "d"]
