"""What a CI script reads from the JSON means what it says (QA of a CI pipeline, 2026-12-02).

Before: ``trajectory`` on N = 1 gave ``kendall_tau: [1.0]`` (the ranking compared with itself) and a null
convergence without a note when the ranking never settled; ``convergence`` on N = 1 named neither file nor task;
its default replicate count was not in ``notes`` as the README says; ``ranks`` put models with identical data at
different places that moved with ``--seed``; ``--task`` help said "(default: every task)" on commands that refuse
several tasks without it; ``methods`` gave tau_b 0.9999999999999999 for identical rankings.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import build_parser, main


def _write(tmp_path, name, rows, header="model,question_id,trial,correct"):
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n")
    return str(path)


def _json(capsys, *argv):
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _one_trial(tmp_path, name="n1.csv"):
    """Three models on 8 questions, 1 trial each, different scores."""
    return _write(tmp_path, name, [f"m{m},q{q},0,{int(q < 2 + 2 * m)}" for m in range(3) for q in range(8)])


def test_trajectory_n1_kendall_is_null_not_perfect_agreement(tmp_path, capsys):
    out = _json(capsys, "trajectory", _one_trial(tmp_path))
    assert out["n"] == [1] and out["kendall_tau"] == [None] and out["convergence"] is None
    assert "kendall_tau measures nothing and is null" in out["notes"][0]["message"]


def test_trajectory_null_convergence_says_what_null_means(tmp_path, capsys):
    # a: 0 then 1, b: 1 then 0 on every question: after n = 1 b leads, on all N = 2 trials they tie (the gold
    # standard), so the ranking reaches the gold standard only at n = N: no convergence@n
    rows = [f"{m},q{q},{t},{int((m == 'a') == (t == 1))}" for m in "ab" for q in range(6) for t in range(2)]
    out = _json(capsys, "trajectory", _write(tmp_path, "flip.csv", rows), "--prior", "uniform")
    assert out["convergence"] is None and out["ranks"] == [[2, 1], [1, 1]]
    (note,) = [n["message"] for n in out["notes"] if n["message"].startswith("convergence is null")]
    assert "no n <= N - 1 = 1" in note and "null is not a number of trials" in note.lower()
    assert "more trials per question" in note and "`convergence`" in note
    assert "at n = N it equals it by definition" in note  # Bayes@N ranks as its gold standard at n = N
    # a ranking that settles: a number, no such note
    rows = [f"{m},q{q},{t},{int(m == 'a')}" for m in "ab" for q in range(6) for t in range(3)]
    out = _json(capsys, "trajectory", _write(tmp_path, "settled.csv", rows), "--prior", "uniform")
    assert out["convergence"] == 1 and not any(n.startswith("convergence is null") for n in out["notes"])


def test_convergence_n1_error_names_file_task_and_what_would_answer(tmp_path, capsys):
    path = _one_trial(tmp_path, "one_trial.csv")
    assert main(["convergence", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: one_trial.csv: task 'one_trial' has N = 1")  # no task column: the file's name
    assert "N = 1 trial per question" in err and "run more trials per question" in err
    assert main(["convergence", path, "--output", "json"]) == 2
    assert "one_trial.csv" in json.loads(capsys.readouterr().out)["error"]


def test_convergence_default_replicates_are_in_the_notes(tmp_path, capsys):
    rows = [f"m{m},q{q},{t},{int((q + t + m) % 3 == 0)}" for m in range(3) for q in range(6) for t in range(3)]
    path = _write(tmp_path, "small.csv", rows)
    out = _json(capsys, "convergence", path, "--prior", "uniform")
    assert out["replicates"] == 2000
    assert any(n["message"].startswith("--replicates not given: the default 2,000 bootstrap replicates ran") for n in out["notes"])
    asked = _json(capsys, "convergence", path, "--prior", "uniform", "--replicates", 50)
    assert not any("--replicates not given" in n for n in asked["notes"])


@pytest.mark.parametrize("prior", ["empirical-bayes", "uniform"])
def test_ranks_ties_models_with_identical_data_whatever_the_seed(tmp_path, capsys, prior):
    rows = [f"{m},q{q},0,0" for m in ("z2", "z3", "z1") for q in range(20)]  # all wrong, N = 1
    path = _write(tmp_path, "zeros.csv", rows)
    seen = []
    for seed in (0, 1, 7):
        out = _json(capsys, "ranks", path, "--seed", seed, "--prior", prior)
        assert out["models"] == ["z1", "z2", "z3"] and out["ties"] == [["z1", "z2", "z3"]]
        assert [r["rank"] for r in out["rows"]] == [1, 1, 1]
        assert len({json.dumps(r) for r in out["probabilities"]}) == 1  # one row for the three
        assert len({(r["expected_rank"], r["most_likely_rank"]) for r in out["rows"]}) == 1
        (note,) = [n for n in out["notes"] if n["code"] == "identical_data"]
        assert note["models"] == ["z1", "z2", "z3"] and "whatever the --seed" in note["message"]
        seen.append(out["rows"][0]["expected_rank"])
    assert seen == [2.0] * 3  # a column sums to 1 and the three share it


def test_rank_distribution_averages_exchangeable_models_only():
    from scorio_core.ranking.posterior_ranks import exchangeable_groups, posterior_rank_distribution, rank_summary

    counts = np.array([[[2, 2]] * 5, [[3, 1]] * 5, [[2, 2]] * 5, [[1, 3]] * 5])  # models 0 and 2 identical
    assert [g.tolist() for g in exchangeable_groups(counts)] == [[0, 2]]
    assert exchangeable_groups(counts, shift_sd=[0.1, 0.0, 0.2, 0.0]) == []  # a different prior: not the same
    P = posterior_rank_distribution(counts, draws=300, seed=3)
    assert np.array_equal(P[0], P[2]) and np.allclose(P.sum(axis=1), 1.0) and np.allclose(P.sum(axis=0), 1.0)
    report = rank_summary(["a", "b", "c", "d"], counts, [0.0, 1.0], draws=300, seed=3)
    ranks = {r["model"]: r["rank"] for r in report["rows"]}
    assert ranks["a"] == ranks["c"] and report["ties"] == [["a", "c"]]
    assert sorted(ranks.values()) in ([1, 2, 2, 4], [1, 1, 3, 4], [1, 2, 3, 3])


def _task_help(command: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    return next(a for a in sub._actions if a.dest == "task").help


@pytest.mark.parametrize("command", ["trajectory", "convergence", "plan", "ranks", "compare", "sensitivity", "attempts"])
def test_task_help_of_one_task_commands_says_the_truth(tmp_path, capsys, command):
    text = _task_help(command)
    assert "default: every task" not in text and "with several, choose one" in text
    assert "leaderboard, tasks, methods, questions and rubric do every task" in text
    assert ("'all tasks' to pool them" in text) == (command != "plan")
    two = _write(tmp_path, "two.csv", [f"{t},m{m},q{q},0,{(m + q) % 2}" for t in "AB" for m in range(2)
                                       for q in range(3)], header="task,model,question_id,trial,correct")
    extra = {"compare": ["--models", "m0", "m1"], "attempts": ["--question", "q0"]}.get(command, [])
    assert main([command, two, *extra]) == 2  # as the help says: several tasks need --task
    assert "choose one with --task" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["leaderboard", "tasks", "methods", "questions", "rubric"])
def test_every_task_commands_keep_their_help(command):
    assert _task_help(command) == "restrict to one task (default: every task)"


def test_methods_tau_b_of_identical_rankings_is_exactly_one(tmp_path, capsys):
    rows = [f"m{m},q{q},{t},{int((q * 7 + t) % 10 < 2 + 2 * m)}" for m in range(5) for q in range(20) for t in range(4)]
    out = _json(capsys, "methods", _write(tmp_path, "spread.csv", rows))
    taus = [v for row in out["tasks"][0]["tau_b"] for v in row if v is not None]
    assert 1.0 in taus and all(-1.0 <= v <= 1.0 and (v == 1.0 or v < 1 - 1e-9) for v in taus)
    from scorio_core.ranking.kendall import kendall_tau_b, snap_tau

    assert snap_tau(0.9999999999999999) == 1.0 and snap_tau(-1.0000000000000002) == -1.0
    assert np.isnan(snap_tau(float("nan"))) and kendall_tau_b([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]) == 0.8


def test_hints_on_count_tables_lead_somewhere(tmp_path, capsys):
    """CI QA: on N = 1 counts `trajectory` pointed to `convergence --bootstrap row`, which fails on the same file;
    `sensitivity` on counts named no file and no next step."""
    n1 = _write(tmp_path, "counts_n1.csv", [f"m{m},q{q},1,{int(q < 2 + m)}" for m in range(3) for q in range(6)],
                header="model,question_id,n_trials,n_correct")
    n4 = _write(tmp_path, "counts_n4.csv", [f"m{m},q{q},4,{(q + m) % 5}" for m in range(3) for q in range(6)],
                header="model,question_id,n_trials,n_correct")
    assert main(["trajectory", n1]) == 2
    err = capsys.readouterr().err
    assert "convergence --bootstrap row" not in err and "run more trials per question (N >= 2)" in err
    assert main(["trajectory", n4]) == 2
    assert "use `convergence --bootstrap row`" in capsys.readouterr().err
    assert main(["convergence", n4, "--bootstrap", "row", "--replicates", "20", "--output", "json"]) == 0  # it works
    capsys.readouterr()
    assert main(["sensitivity", n4]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: counts_n4.csv: rubric sensitivity needs attempt-level data") and "Load the per-attempt" in err


def test_trajectory_null_note_for_pass_at_k_does_not_claim_equality_at_n_equal_n():
    # QA (paper Appendix I.1): the gold standard is the Bayes@N ranking for every metric; Pass@k's ranking on all N
    # trials need not equal it (paper simulation, Pass@4: mimic-13 and mimic-14 swap at n = 80), so "at n = N it
    # equals it by definition" was false for it
    from scorio_core.cli.trajectory import no_convergence_note

    assert "equals it by definition" in no_convergence_note(4, "bayes") and "by definition" in no_convergence_note(4, "avg")
    note = no_convergence_note(80, "pass@k")
    assert "by definition" not in note and "(the Bayes@N ranking on all N = 80 trials, which this metric's ranking need not equal even at n = N)" in note

