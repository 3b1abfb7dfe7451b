"""Merging several files, the quality report, and the recorded user choices."""

from __future__ import annotations

import dataclasses
import io as stdio
import json

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.errors import InputError


def _f(name: str, text: str):
    return (name, text.encode())


A = _f("gpt.csv", "model,task,question,trial,correct\ngpt,t,q1,0,1\ngpt,t,q1,1,1\ngpt,t,q2,0,0\ngpt,t,q2,1,0\ngpt,t,q3,0,1\ngpt,t,q3,1,0\n")
B = _f("claude.csv", "model,task,question,trial,correct\nclaude,t,q1,0,1\nclaude,t,q1,1,1\nclaude,t,q2,0,0\nclaude,t,q3,0,1\n")


def test_merge_one_file_per_model(upload):
    ds = io.load([upload(*A), B])  # an UploadedFile-like object and a (name, bytes) tuple
    r = ds.report
    assert r.models == ("claude", "gpt") and r.n_rows == 10 and ds.ready
    assert [s.name for s in ds.sources] == ["gpt.csv", "claude.csv"] and [s.rows for s in ds.sources] == [6, 4]
    assert len(ds.sources[0].sha256) == 64
    # hand: q1 every attempt right for both models, q2 every attempt wrong
    assert (r.n_all_correct, r.n_all_wrong) == (1, 1)
    assert r.all_correct == (("t", "q1"),) and r.all_wrong == (("t", "q2"),)
    # hand: claude has 1 trial on q2 and q3, 2 on q1; gpt 2 everywhere
    assert r.unequal_trials == (io.TrialSpread("t", "claude", 1, 2),)
    assert not r.question_gaps and r.missing_cells == 0
    assert ds.row_source.tolist() == [0] * 6 + [1] * 4


def test_conflicts_across_files_are_reported_with_sources():
    other = _f("gpt_rerun.csv", "model,task,question,trial,correct\ngpt,t,q1,0,0\ngpt,t,q2,0,0\n")
    ds = io.load([A, other])
    r = ds.report
    assert (r.n_duplicate_keys, r.n_duplicate_rows, r.n_conflicting_keys) == (2, 2, 1)
    first = r.duplicates[0]  # conflicting keys are listed first
    assert first == io.DuplicateKey("gpt", "t", "q1", 0, 2, True, (1.0, 0.0), ("gpt.csv", "gpt_rerun.csv"))
    assert r.duplicates[1].conflicting is False
    assert not ds.ready
    with pytest.raises(InputError, match="2 duplicate rows share a"):
        ds.require_ready()
    # the message names one key (a conflicting one) and the files its rows came from, so it can be found in the dump
    with pytest.raises(InputError) as info:
        ds.require_ready()
    assert "(1 key conflicts; e.g. gpt / t / q1 / trial 0: 2 rows from gpt.csv and gpt_rerun.csv); " in str(info.value)
    assert "e.g." not in r.blocking[0]  # the report's message stays the count-only text every engine gives
    kept = io.apply_choices(ds, duplicates="keep-last")
    assert kept.ready and kept.report.n_rows == 6
    q1 = kept.attempts[(kept.attempts["question_id"] == "q1") & (kept.attempts["trial"] == 0)]
    assert q1["is_correct"].tolist() == [0.0]  # the later file wins
    assert kept.report.choices == ("duplicates=keep-last: removed 2 rows.",)
    dropped = io.apply_choices(ds, duplicates="drop")
    assert dropped.report.n_rows == 4 and dropped.ready


def test_question_gaps_and_intersect():
    c = _f("c.csv", "model,task,question,correct\nc,t,q1,1\n")
    ds = io.load([A, B, c])
    r = ds.report
    assert r.question_gaps == (io.QuestionGap("t", "c", 1, 2, ("q2", "q3")),) and r.missing_cells == 2
    cut = io.apply_choices(ds, intersect_questions=True)
    assert cut.attempts["question_id"].unique().tolist() == ["q1"]
    assert cut.report.choices[0].startswith("intersect_questions: kept 1 of 3 (task, question) pairs")
    assert not cut.report.question_gaps and list(cut.attempts["question_id"].cat.categories) == ["q1"]


def test_missing_outcomes_and_choices():
    ds = io.load([_f("m.csv", "model,question,trial,correct\nm,q1,0,1\nm,q1,1,\nm,q2,0,0\n")])
    assert ds.report.n_missing_outcomes == 1 and not ds.ready
    dropped = io.apply_choices(ds, missing_outcomes="drop")
    assert dropped.report.n_rows == 2 and dropped.ready
    zero = io.apply_choices(ds, missing_outcomes="incorrect")
    assert zero.attempts["is_correct"].tolist() == [1.0, 0.0, 0.0]
    assert "counted as incorrect" in zero.report.choices[0]


def test_a_blank_outcome_beside_a_binary_score_is_missing_not_graded():
    """Engineer QA (tau-bench with `reward` mapped to score): a blank `correct` beside reward 0.0 was reported as "a
    non-binary outcome (strictly between 0 and 1) ... score 0.0" and the threshold offered filled it from the score;
    the "no outcome" choice was greyed out. A graded score (0.5) still asks for a threshold."""
    ds = io.load([_f("m.csv", "model,question,trial,correct,reward\nm,q1,0,1,1\nm,q1,1,,0.0\nm,q2,0,0,0\nm,q2,1,,0.5\n")],
                 mapping={"score": "reward"})
    assert ds.report.n_missing_outcomes == 1 and ds.report.n_non_binary == 1
    assert "trial 1, score 0.0" in ds.report.missing_outcome_at
    assert any("1 attempt has no outcome" in b for b in ds.report.blocking)
    assert ds.report.non_binary_examples == (0.5,)


MIXED = ("model,task,question_id,is_correct,score\n"  # math: 0/1 outcomes; essay: graded by the score alone (0, 0.5, 1)
         "a,math,m1,1,\na,math,m2,0,\na,essay,e1,,1\na,essay,e2,,0.5\na,essay,e3,,0\n"
         "b,math,m1,0,\nb,math,m2,0,\nb,essay,e1,,0.5\nb,essay,e2,,0\nb,essay,e3,,1\n")


def test_a_task_graded_by_its_score_alone_has_no_missing_outcomes():
    """QA: an essay task graded 0 / 0.5 / 1 in `score` beside an empty `is_correct` column (a 0/1 math task in the
    same file) read its 0 and 1 scores as "no outcome": partial credit stayed blocked, --missing-outcomes drop removed
    every essay attempt, and the load note said correctness was read from is_correct for attempts without one."""
    ds = io.load([_f("mixed.csv", MIXED)])
    essay = (ds.attempts["task"] == "essay").to_numpy()
    assert ds.report.n_non_binary == 6 and ds.report.n_missing_outcomes == 0  # the scale's ends are graded too
    assert ds.report.non_binary_examples == (0.0, 0.5, 1.0)
    assert not any("partial score" in n for n in ds.report.notes)  # no is_correct counts these attempts
    kept = io.apply_choices(ds, missing_outcomes="drop")
    assert len(kept.attempts) == 10 and "removed 0 attempts" in kept.report.choices[0]
    binarized = io.apply_choices(ds, binarize_threshold=0.5)
    assert binarized.ready and binarized.attempts["is_correct"].to_numpy()[essay].tolist() == [1, 0, 0, 0, 0, 1]
    from scorio_core.leaderboard.outcomes import graded_rows

    assert (graded_rows(ds.attempts) == essay).all()


def test_choice_validation():
    ds = io.load([A])
    with pytest.raises(InputError, match=r"duplicates must be one of 'keep-first', 'keep-last', 'drop', 'sum', 'as-trials'; got 'first'"):
        io.apply_choices(ds, duplicates="first")
    with pytest.raises(InputError, match=r"binarize_threshold must satisfy 0 <= threshold <= 1; got 1.5"):
        io.apply_choices(ds, binarize_threshold=1.5)
    with pytest.raises(InputError, match="needs a 'score' column"):
        io.apply_choices(ds, binarize_threshold=0.5)
    with pytest.raises(InputError, match="count tables only"):
        io.apply_choices(ds, duplicates="sum")


def test_counts_merge_sum_and_mixed_layouts():
    counts = _f("counts.csv", "model,task,question,n_trials,n_correct\nx,t,q1,4,1\nx,t,q1,4,3\n")
    ds = io.load([counts])
    assert ds.report.n_duplicate_keys == 1 and ds.report.n_conflicting_keys == 1
    summed = io.apply_choices(ds, duplicates="sum")
    assert summed.counts[["n_trials", "n_correct"]].values.tolist() == [[8, 4]]
    mixed = io.load([A, _f("x.csv", "model,task,question,n_trials,n_correct\nx,t,q1,4,1\n")])
    assert mixed.layout == "counts" and mixed.report.n_rows == 4  # gpt's 6 attempts -> 3 questions
    gpt = mixed.counts[mixed.counts["model"] == "gpt"]
    assert gpt[["n_trials", "n_correct"]].values.tolist() == [[2, 2], [2, 0], [2, 1]]
    assert any("tallied into counts" in n for n in mixed.report.notes)


def test_to_counts_matches_hand_tally():
    c = io.load([A, B]).to_counts()
    got = {(m, q): (n, k) for m, q, n, k in c[["model", "question_id", "n_trials", "n_correct"]].itertuples(index=False)}
    assert got[("gpt", "q3")] == (2, 1) and got[("claude", "q2")] == (1, 0)  # hand tally of A and B


def test_report_is_json_serializable_and_complete():
    ds = io.load([A, _f("gpt_rerun.csv", "model,task,question,trial,correct\ngpt,t,q1,0,0\n"), _f("s.csv", "model,task,question,trial,score\ns,t,q1,0,0.3\n")])
    d = json.loads(json.dumps(ds.report.to_dict()))
    for key in ("sources", "mappings", "defaults", "notes", "question_gaps", "missing_cells", "unequal_trials",
                "n_duplicate_rows", "duplicates", "all_correct", "all_wrong", "n_non_binary", "n_missing_outcomes",
                "choices", "blocking", "models", "tasks"):
        assert key in d
    assert d["sources"][2] == {"name": "s.csv", "format": "csv"}
    assert d["mappings"][2]["mapping"]["is_correct"] == "score"
    assert d["duplicates"][0]["sources"] == ["gpt.csv", "gpt_rerun.csv"]
    assert d["n_non_binary"] == 1 and len(d["blocking"]) == 2
    assert [s.to_dict()["format"] for s in ds.sources] == ["csv"] * 3


def test_dataset_is_immutable_and_choices_do_not_mutate():
    ds = io.load([A, B])
    before = ds.attempts.copy()
    io.apply_choices(ds, intersect_questions=True, duplicates="keep-first")
    pd.testing.assert_frame_equal(ds.attempts, before)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ds.report = None


def test_large_report_is_fast_and_exact():
    rng = np.random.default_rng(7)
    n_models, n_q, n_t = 10, 200, 50
    frame = pd.DataFrame({
        "model": np.repeat([f"m{i}" for i in range(n_models)], n_q * n_t),
        "question": np.tile(np.repeat([f"q{i}" for i in range(n_q)], n_t), n_models),
        "trial": np.tile(np.arange(n_t), n_models * n_q),
        "correct": rng.integers(0, 2, n_models * n_q * n_t),
    })
    dup = pd.concat([frame, frame.iloc[[10, 20]].assign(correct=lambda d: 1 - d["correct"])], ignore_index=True)
    buf = stdio.StringIO()
    dup.to_csv(buf, index=False)
    ds = io.load([("big.csv", buf.getvalue().encode())])
    assert ds.report.n_rows == 100_002 and ds.report.n_conflicting_keys == 2
    # hand: rows 10 and 20 are m0/q0 trials 10 and 20, repeated with flipped outcomes
    assert ds.report.unequal_trials == ()  # the repeated rows are duplicates, not extra trials (QA #10)
    assert [(d.question_id, d.trial) for d in ds.report.duplicates] == [("q0", 10), ("q0", 20)]


@pytest.mark.parametrize("counts_layout", [False, True])
def test_blocking_finding_is_each_message_without_its_script_advice(counts_layout):
    from scorio_core.io import blocking_finding
    from scorio_core.io.quality.report import ADVICE, blocking_messages

    messages = blocking_messages(3, 2, 5, 1, counts_layout=counts_layout)
    findings = [blocking_finding(m) for m in messages]
    assert findings[0] == "3 attempts have a non-binary outcome (a graded score or partial credit, and no 0/1 outcome)"
    assert findings[1] == "2 attempts have no outcome"
    assert findings[2] == ("5 duplicate rows share a (model, task, question" + ("" if counts_layout else ", trial")
                           + ") key with an earlier row (1 key conflicts)")
    assert all(m == f + ADVICE + m[len(f) + len(ADVICE):] for m, f in zip(messages, findings))  # finding, then advice
    assert blocking_finding("No advice here.") == "No advice here"


def test_a_model_a_choice_empties_is_recorded_not_dropped_silently():
    # model c's only attempts have no outcome: dropping them removes c from every table
    text = "model,task,question,trial,correct\na,t,q1,0,1\na,t,q2,0,0\nb,t,q1,0,0\nb,t,q2,0,1\nc,t,q1,0,\nc,t,q2,0,\n"
    dropped = io.apply_choices(io.load([_f("m.csv", text)]), missing_outcomes="drop")
    assert dropped.report.models == ("a", "b")
    assert dropped.report.emptied == (("c", "t", "missing_outcomes=drop"),)
    assert dropped.report.choices == ("missing_outcomes=drop: removed 2 attempts without an outcome; no row left for 1 "
                                      "(model, task) pair, not ranked there: c on t.",)
    assert dropped.report.emptied_models("t") == {"c": "missing_outcomes=drop"} == dropped.report.emptied_models()
    assert dropped.report.emptied_models("other") == {}
    assert dropped.report.to_dict()["emptied"] == [{"model": "c", "task": "t", "choice": "missing_outcomes=drop"}]
    # a choice that leaves every model a row records nothing; the record survives a further choice
    assert io.apply_choices(io.load([A, B]), duplicates="keep-first").report.emptied == ()
    again = io.apply_choices(dropped, intersect_questions=True)
    assert again.report.emptied == dropped.report.emptied


def test_intersecting_disjoint_question_sets_names_the_models_it_empties():
    # a answered q1-q2, b q3-q4 on task t (no common question); on task u both answered q1
    text = ("model,task,question,correct\na,t,q1,1\na,t,q2,0\nb,t,q3,1\nb,t,q4,1\na,u,q1,1\nb,u,q1,0\n")
    cut = io.apply_choices(io.load([_f("d.csv", text)]), intersect_questions=True)
    assert set(cut.report.emptied) == {("a", "t", "intersect_questions"), ("b", "t", "intersect_questions")}
    assert cut.report.emptied_models("t") == {"a": "intersect_questions", "b": "intersect_questions"}
    assert cut.report.emptied_models("u") == {} and cut.report.emptied_models() == {}  # both still on task u
    assert "no row left for 2 (model, task) pairs, not ranked there: " in cut.report.choices[0]


def test_an_outcome_that_blocks_names_its_first_attempt(tmp_path):
    """The error names the first attempt needing a choice (model, question, trial, score, file), in singular for one."""
    half = tmp_path / "graded.csv"
    half.write_text("model,question_id,trial,correct\na,q1,0,1\na,q2,1,0.5\nb,q1,0,0\nb,q2,0,0.25\n")
    with pytest.raises(InputError) as err:
        io.load([str(half)]).require_ready()
    assert ("2 attempts have a non-binary outcome (a graded score or partial credit, and no 0/1 outcome) "
            "(the first: model 'a', task 'graded', question 'q2', trial 1, score 0.5, in graded.csv); choose ") in str(err.value)
    assert "a question's mean over its trials (0.6 = 3 of 5), give the counts instead: n_trials and n_correct" in str(err.value)
    gap = tmp_path / "gap.csv"
    gap.write_text("model,question_id,trial,correct\na,q1,0,1\nb,q1,0,\nb,q2,0,1\n")
    with pytest.raises(InputError) as err:
        io.load([str(gap)]).require_ready()
    assert "1 attempt has no outcome (the first: model 'b', task 'gap', question 'q1', trial 0, in gap.csv)" in str(err.value)


def test_partial_credit_beside_a_0_1_correct_column_is_said():
    # LiveBench: `correct` is 0 on 17% of the rows whose `score` is strictly between 0 and 1; the report must say the
    # credit is not counted (it said nothing: n_non_binary = 0) and how to count it
    text = "model,question_id,trial,correct,score\na,q1,0,0,0.5\na,q1,1,1,1\na,q2,0,0,0\nb,q1,0,1,1\nb,q2,0,0,0.25\n"
    notes = io.load([_f("pc.csv", text)]).report.notes
    (note,) = [n for n in notes if "partial score" in n]
    assert note.startswith("pc.csv: 2 attempts (40%) have a partial score strictly between 0 and 1 in 'score', while "
                           "correctness is read from 'correct' (0/1), which counts 2 of them incorrect.")
    assert "--binarize-threshold" in note
    whole = text.replace("0.5", "1").replace("0.25", "0")
    assert not [n for n in io.load([_f("pc.csv", whole)]).report.notes if "partial score" in n]
    # QA: once a threshold sets correctness from the score, "correctness is read from 'correct'" is no longer true
    binarized = io.apply_choices(io.load([_f("pc.csv", text)]), binarize_threshold=0.5)
    assert not [n for n in binarized.report.notes if "partial score" in n]
    assert [n for n in io.apply_choices(io.load([_f("pc.csv", text)]), duplicates="keep-first").report.notes
            if "partial score" in n] == [note]  # (other choices keep it)


def test_a_huge_value_in_an_unmapped_column_does_not_stop_the_load(tmp_path):
    """Engineer QA: one 5,000,000-character value in an otherwise empty extra column (a messages dump) failed the
    whole CSV with "CSV conversion error to null" and a 5 MB error message (pyarrow 17+ words the error with the
    row in between, which the retry as text did not recognise)."""
    rows = [f"m,q{q},{t},{(q + t) % 2},{'m' * 5_000_000 if (q, t) == (1, 0) else ''}" for q in range(4) for t in range(2)]
    path = tmp_path / "dump.csv"
    path.write_text("model,question_id,trial,correct,messages_dump\n" + "\n".join(rows) + "\n")
    from scorio_core.cli import main

    assert main(["quality", str(path), "--output", "json"]) == 0  # the CLI's reader (in-process io.load read it)


def test_duplicates_message_in_the_singular_and_when_the_rows_agree():
    """One repeated row reads in the singular; repeated rows that agree say so instead of "0 keys conflict"
    (QA 2026-12-03: the same Inspect log loaded as .json and .eval read "1 duplicate rows ... (0 keys conflict")."""
    from scorio_core.io import blocking_finding
    from scorio_core.io.quality.report import blocking_messages, with_duplicate_example

    one = blocking_finding(blocking_messages(0, 0, 1, 0)[0])
    assert one == ("1 duplicate row shares a (model, task, question, trial) key with an earlier row (no key conflicts: "
                   "the repeated rows agree)")
    assert blocking_finding(blocking_messages(0, 0, 3, 2, counts_layout=True)[0]) == (
        "3 duplicate rows share a (model, task, question) key with an earlier row (2 keys conflict)")
    key = io.DuplicateKey("m", "t", "q1", 0, 2, False, (1.0, 1.0), ("a.json", "a.eval"))
    named = with_duplicate_example(blocking_messages(0, 0, 1, 0)[0], key)
    assert "the repeated rows agree; e.g. m / t / q1 / trial 0: 2 rows from a.json and a.eval); choose " in named
