"""``--duplicates as-trials``: files that are separate runs of the same questions (each numbering its trials from 0)
read as further attempts instead of refused as duplicates or cut to one run by keep-first."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.errors import InputError


def _f(name: str, text: str):
    return (name, text.encode())


RUN1 = _f("run1.csv", "model,task,question,correct\ngpt,t,q1,1\ngpt,t,q2,0\nclaude,t,q1,0\nclaude,t,q2,0\n")
RUN2 = _f("run2.csv", "model,task,question,correct\ngpt,t,q1,1\ngpt,t,q2,1\nclaude,t,q1,1\n")


def test_refusal_names_as_trials_for_attempts_and_not_for_counts():
    ds = io.load([RUN1, RUN2])
    assert ds.report.n_duplicate_keys == 3
    text = " ".join(ds.report.blocking)
    assert "as-trials" in text and "separate runs" in text
    counts = io.load([_f("c.csv", "model,task,question,n_trials,n_correct\nm,t,q1,4,1\nm,t,q1,4,2\n")])
    assert "as-trials" not in " ".join(counts.report.blocking) and "sum" in " ".join(counts.report.blocking)


def test_runs_become_trials_in_load_order_and_counts_add_up():
    ds = io.apply_choices(io.load([RUN1, RUN2]), duplicates="as-trials")
    assert ds.report.blocking == () and ds.report.n_duplicate_keys == 0
    a = ds.attempts.sort_values(["model", "question_id", "trial"])
    got = [(str(m), str(q), int(t), float(c)) for m, q, t, c in a[["model", "question_id", "trial", "is_correct"]].values]
    # trial 0 from run1.csv, trial 1 from run2.csv (load order); claude answered q2 once
    assert got == [("claude", "q1", 0, 0.0), ("claude", "q1", 1, 1.0), ("claude", "q2", 0, 0.0),
                   ("gpt", "q1", 0, 1.0), ("gpt", "q1", 1, 1.0), ("gpt", "q2", 0, 0.0), ("gpt", "q2", 1, 1.0)]
    record = ds.report.choices[-1]
    assert record.startswith("duplicates=as-trials: 3 repeated rows kept as further attempts") and "load order" in record
    counts = ds.to_counts()
    assert int(counts["n_trials"].sum()) == 7 and int(counts["n_correct"].sum()) == 4


def test_three_runs_with_their_own_trials_keep_every_attempt():
    runs = [_f(f"r{i}.csv", "model,task,question,trial,correct\n" + "".join(f"m,t,q{q},{t},{(i + q + t) % 2}\n"
                                                                     for q in range(3) for t in range(2)))
            for i in range(3)]
    ds = io.apply_choices(io.load(runs), duplicates="as-trials")
    a = ds.attempts
    assert len(a) == 18 and ds.report.n_duplicate_keys == 0
    per_q = a.groupby("question_id", observed=True)["trial"].apply(lambda s: sorted(s.tolist()))
    assert all(v == list(range(6)) for v in per_q)
    # file order first, then the file's own trial: r0's trials 0-1 are 0-1, r1's are 2-3, r2's are 4-5
    q0 = a[a["question_id"] == "q0"].sort_values("trial")["is_correct"].tolist()
    assert q0 == [float((i + 0 + t) % 2) for i in range(3) for t in range(2)]


def test_as_trials_refused_on_count_tables():
    ds = io.load([_f("c.csv", "model,task,question,n_trials,n_correct\nm,t,q1,4,1\nm,t,q1,4,2\n")])
    with pytest.raises(InputError, match="as-trials' applies to attempt tables"):
        io.apply_choices(ds, duplicates="as-trials")


def test_cli_quality_and_leaderboard_with_as_trials(tmp_path, capsys):
    from scorio_core.cli import main

    for name, data in (RUN1, RUN2):
        (tmp_path / name).write_bytes(data)
    files = [str(tmp_path / "run1.csv"), str(tmp_path / "run2.csv")]
    assert main(["leaderboard", *files, "--output", "json"]) == 2
    err = capsys.readouterr()
    assert "as-trials" in err.err + err.out
    assert main(["leaderboard", *files, "--duplicates", "as-trials", "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["model"]: r for r in out["rows"]}
    # gpt: q1 2/2, q2 1/2 -> Bayes@N uniform mean over questions of (c + 1) / (n + 2) = (3/4 + 2/4) / 2
    assert rows["gpt"]["estimate"] == pytest.approx((3 / 4 + 2 / 4) / 2, abs=1e-12)
    # claude: q1 1/2, q2 0/1 -> (2/4 + 1/3) / 2
    assert rows["claude"]["estimate"] == pytest.approx((2 / 4 + 1 / 3) / 2, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 2), st.integers(0, 1)),
                         min_size=1, max_size=12), min_size=1, max_size=4))
def test_as_trials_keeps_every_row_and_leaves_no_duplicate(files):
    """Every row survives with its outcome; no (model, question, trial) key repeats; trials per question are 0..k-1."""
    srcs = [_f(f"f{i}.csv", "model,task,question,trial,correct\n" + "".join(f"m{m},t,q{q},{t},{c}\n" for m, q, t, c in rows))
            for i, rows in enumerate(files)]
    ds = io.apply_choices(io.load(srcs), duplicates="as-trials")
    a = ds.attempts
    assert len(a) == sum(len(r) for r in files)
    assert not a.duplicated(["model", "task", "question_id", "trial"]).any()
    for _, g in a.groupby(["model", "question_id"], observed=True):
        assert sorted(g["trial"].tolist()) == list(range(len(g)))
    want = sorted((f"m{m}", f"q{q}", float(c)) for rows in files for m, q, _, c in rows)
    assert sorted((str(m), str(q), float(c)) for m, q, c in a[["model", "question_id", "is_correct"]].values) == want
    assert np.isfinite(a["is_correct"].to_numpy(np.float64)).all()


def test_run_files_without_a_task_column_are_told_how_to_join(tmp_path, capsys):
    """run1.csv, run2.csv with the same models and questions and no task column: two stem tasks (kept: ids such as
    1..30 repeat across benchmarks), with a note naming the two choices that make them one task of N = 2."""
    from scorio_core.cli import main

    runs = tmp_path / "aime"
    runs.mkdir()
    for i in (1, 2):
        (runs / f"run{i}.csv").write_text(f"model,question,correct\nm,q1,1\nm,q2,0\nn,q1,0\nn,q2,{i - 1}\n")
    ds = io.load([str(runs / "run1.csv"), str(runs / "run2.csv")])
    assert sorted(ds.attempts["task"].astype(str).unique()) == ["run1", "run2"]
    (note,) = [n for n in ds.report.notes if "same models answering the same questions" in n]
    assert note.startswith("run1.csv, run2.csv: no task column") and "--map task=@folder" in note and "as-trials" in note
    other = io.load([_f("gsm8k.csv", "model,question,correct\nm,q1,1\n"), _f("math.csv", "model,question,correct\nm,q9,1\n")])
    assert not any("same models answering" in n for n in other.report.notes)
    assert main(["leaderboard", str(runs), "--map", "task=@folder", "--duplicates", "as-trials", "--prior", "uniform",
                 "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    # by hand, uniform prior: m q1 2/2, q2 0/2 -> (3/4 + 1/4) / 2; n q1 0/2, q2 1/2 -> (1/4 + 2/4) / 2
    assert (rows["m"]["task"], rows["m"]["n_trials"]) == ("aime", 2)
    assert rows["m"]["estimate"] == pytest.approx(0.5, abs=1e-12) and rows["n"]["estimate"] == pytest.approx(0.375, abs=1e-12)
