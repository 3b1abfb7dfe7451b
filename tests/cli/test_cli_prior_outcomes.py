"""``leaderboard --prior-outcomes FILE [--prior-model NAME]``: the paper's prior outcomes R0 from the CLI.

Before: R0 (Hariri et al., Algorithm 1, Eq. 6, Appendix C; Listing 4) worked in the library and on the app's Rubric
page only; no command took it (QA reproducing the paper, 2026-12-02). Also: a rubric category the data never showed
made the empirical-Bayes path with R0 fail ("alpha (prior pseudo-counts) must be finite and > 0").
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorio_core as sc
from scorio_core.cli import main
from scorio_core.errors import InputError

HEAD = "model,question_id,trial,is_correct"


def _write(tmp_path, name, rows):
    path = tmp_path / name
    path.write_text("\n".join([HEAD, *rows]) + "\n")
    return str(path)


def _data(tmp_path):
    # gpt: q1 1,0; q2 1,1 -- claude: q1 0,0; q2 1,1 -- R0 (one earlier model): q1 1,1; q2 0,0
    runs = _write(tmp_path, "runs.csv", ["gpt,q1,0,1", "gpt,q1,1,0", "gpt,q2,0,1", "gpt,q2,1,1",
                                         "claude,q1,0,0", "claude,q1,1,0", "claude,q2,0,1", "claude,q2,1,1"])
    old = _write(tmp_path, "old.csv", ["old,q1,0,1", "old,q1,1,1", "old,q2,0,0", "old,q2,1,0",
                                       "older,q1,0,0", "older,q9,0,1"])
    return runs, old


def _run(capsys, *argv):
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_r0_under_the_uniform_prior_equals_the_reference_bayes_with_r0(tmp_path, capsys):
    runs, old = _data(tmp_path)
    out = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", old, "--prior-model", "old")
    rows = {r["model"]: r for r in out["rows"]}
    r0 = np.array([[1, 1], [0, 0]])
    for model, R in (("gpt", [[1, 0], [1, 1]]), ("claude", [[0, 0], [1, 1]])):
        mu, sigma = sc.eval.bayes(np.array(R), None, r0)  # Algorithm 1 with R0 (paper Listing 4)
        assert rows[model]["mu"] == pytest.approx(mu, abs=1e-12) and rows[model]["sigma"] == pytest.approx(sigma, abs=1e-12)
    # by hand (Eq. 6): gpt q1 correct 1 + 1 (data) + 2 (R0) of 1 + 1 + 2 + 1 + 1 + 0 = 6; q2 correct 1 + 2 + 0 of 6
    assert rows["gpt"]["mu"] == pytest.approx(((1 + 1 + 2) / 6 + (1 + 2 + 0) / 6) / 2)
    (note,) = [n for n in out["notes"] if n["code"] == "prior_outcomes"]
    assert (note["matched"], note["n_questions"], note["prior_trials"]) == (2, 2, 4)
    assert "old.csv, model old" in note["message"] and "2 of 2 questions matched by id" in note["message"]
    assert out["settings"]["prior_outcomes"] == "old.csv" and out["settings"]["prior_model"] == "old"
    plain = _run(capsys, "leaderboard", runs, "--prior", "uniform")
    assert plain["settings"]["prior_outcomes"] is None
    assert {r["model"]: r["mu"] for r in plain["rows"]} != {m: r["mu"] for m, r in rows.items()}


def test_every_model_of_the_prior_file_by_default_and_unmatched_questions_are_counted(tmp_path, capsys):
    runs, old = _data(tmp_path)
    out = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", old)
    (note,) = [n for n in out["notes"] if n["code"] == "prior_outcomes"]
    assert note["prior_trials"] == 6 and "6 prior trials of 3 questions" in note["message"]
    gpt = next(r for r in out["rows"] if r["model"] == "gpt")
    # q1: R0 1, 1, 0 (old twice, older once): correct 1 + 1 + 2 of 7; q2: 1 + 2 + 0 of 6; q9 matches nothing here
    assert gpt["mu"] == pytest.approx(((1 + 1 + 2) / 7 + (1 + 2 + 0) / 6) / 2)


def test_rows_r0_does_not_enter_are_named(tmp_path, capsys):
    # two questions: the default empirical-Bayes prior is not identified, so the rows are the observed mean
    runs, old = _data(tmp_path)
    out = _run(capsys, "leaderboard", runs, "--prior-outcomes", old)
    (note,) = [n for n in out["notes"] if n["code"] == "prior_outcomes"]
    assert sorted(note["not_used"]) == ["claude", "gpt"] and "--prior uniform adds R0" in note["message"]


def test_a_rubric_category_the_data_never_showed_does_not_break_r0(tmp_path, capsys):
    runs, old = _data(tmp_path)
    out = _run(capsys, "leaderboard", runs, "--prior-outcomes", old, "--schema", "exact_match")
    assert {r["model"] for r in out["rows"]} == {"gpt", "claude"}
    uniform = _run(capsys, "leaderboard", runs, "--prior-outcomes", old, "--schema", "exact_match", "--prior", "uniform")
    assert all(np.isfinite(r["mu"]) for r in uniform["rows"])


@pytest.mark.parametrize("extra, message", [
    (["--prior-model", "nobody"], "the prior outcomes have no model 'nobody'; models there: old, older"),
    (["--metric", "pass@k"], "prior outcomes R0 enter Bayes@N only"),
])
def test_refusals_name_the_option(tmp_path, capsys, extra, message):
    runs, old = _data(tmp_path)
    assert main(["leaderboard", runs, "--prior-outcomes", old, *extra]) == 2
    assert message in capsys.readouterr().err


def test_prior_model_without_the_file_is_refused(tmp_path, capsys):
    runs, _ = _data(tmp_path)
    assert main(["leaderboard", runs, "--prior-model", "old"]) == 2
    assert "--prior-model picks a model of --prior-outcomes FILE" in capsys.readouterr().err


def test_library_refuses_a_rubric_with_a_count_table_prior(tmp_path):
    from scorio_core import io
    from scorio_core.leaderboard.task_outcomes import categorization_for, outcomes_for
    from scorio_core.rubric.prior_outcomes import prior_outcomes_for

    runs, _ = _data(tmp_path)
    counts = tmp_path / "c.csv"
    counts.write_text("model,question_id,n_trials,n_correct\nold,q1,4,3\n")
    data = io.load(runs)
    task = data.report.tasks[0]
    categorization, _ = categorization_for(data, "exact_match", task)
    with pytest.raises(InputError, match="count-table prior works with binary correctness only"):
        prior_outcomes_for(io.load(counts), outcomes_for(data, task, categorization), categorization=categorization,
                           schema="exact_match")
    aligned, matched, _ = prior_outcomes_for(io.load(counts), outcomes_for(data, task))
    assert matched == 1 and aligned.shape == (2, 2, 2) and aligned[:, 0].tolist() == [[1, 3], [1, 3]]


def test_a_prior_without_the_task_is_matched_across_its_tasks_and_the_note_says_so(tmp_path, capsys):
    # QA (CLI maintainer, 2026-12-02): tau-bench trials as R0 for AIME matched "15 of 15 questions by id" silently
    runs, old = _data(tmp_path)
    out = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", old)
    (note,) = [n for n in out["notes"] if n["code"] == "prior_outcomes"]
    assert note["matched_across"] == ["old"] and note["source"] == "old.csv"
    assert "the prior has no task 'runs', so its questions were matched by id across its task 'old'" in note["message"]
    same = tmp_path / "runs_prior.csv"  # a task of the same name: matched within it
    same.write_text("model,task,question_id,trial,is_correct\nold,runs,q1,0,1\n")
    out = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", same)
    (note,) = [n for n in out["notes"] if n["code"] == "prior_outcomes"]
    assert note["matched_across"] == [] and "across" not in note["message"] and note["matched"] == 1


def test_the_data_quality_choices_apply_to_the_prior_outcomes(tmp_path, capsys):
    # QA: duplicated prior rows were counted twice and --duplicates did not reach the prior file
    runs, _ = _data(tmp_path)
    dup = _write(tmp_path, "dup.csv", ["old,q1,0,1", "old,q1,0,1", "old,q2,0,0"])
    assert main(["leaderboard", runs, "--prior-outcomes", dup]) == 2
    err = capsys.readouterr().err
    assert "dup.csv: the prior outcomes need a choice first: 1 duplicate row shares" in err
    assert "the data-quality options apply to the prior outcomes too" in err
    kept = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", dup, "--duplicates", "keep-first")
    once = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes",
                _write(tmp_path, "once.csv", ["old,q1,0,1", "old,q2,0,0"]))
    assert [r["mu"] for r in kept["rows"]] == [r["mu"] for r in once["rows"]]
    missing = _write(tmp_path, "missing.csv", ["old,q1,0,1", "old,q2,0,"])
    assert main(["leaderboard", runs, "--prior-outcomes", missing]) == 2
    assert "1 attempt has no outcome" in capsys.readouterr().err
    dropped = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", missing, "--missing-outcomes", "drop")
    (note,) = [n for n in dropped["notes"] if n["code"] == "prior_outcomes"]
    assert note["prior_trials"] == 1


def test_a_ranking_method_without_bayes_refuses_r0(tmp_path, capsys):
    # QA: --method bradley_terry / irt_ability ran without R0 and without saying so
    runs, old = _data(tmp_path)
    for method in ("bradley_terry", "irt_ability"):
        assert main(["leaderboard", runs, "--prior-outcomes", old, "--method", method]) == 2
        assert f"--method {method} does not use them" in capsys.readouterr().err


def test_the_prior_pull_notice_names_r0_as_the_cause(tmp_path, capsys):
    # QA: with R0 the prior_pull notice blamed the uniform prior and advised --prior empirical-bayes, which would not help
    rows = [f"{m},q{q},{t},1" for m in ("a", "b") for q in range(12) for t in range(4)]
    runs = _write(tmp_path, "strong.csv", rows)
    weak = _write(tmp_path, "weak.csv", [f"old,q{q},{t},0" for q in range(12) for t in range(20)])
    out = _run(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", weak)
    (pull,) = [n for n in out["notes"] if n["code"] == "prior_pull"]
    assert "the prior outcomes R0 (weak.csv: 240 prior trials) are added to every model's prior" in pull["message"]
    assert "--prior empirical-bayes" not in pull["message"] and pull["models"] == ["a", "b"]
