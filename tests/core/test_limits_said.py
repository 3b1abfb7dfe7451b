"""What limits a result is said with its cause: convergence on few trials or tied gold standards, a prior not
identified for one stated reason, the observed N of ragged data, rank draws asked below the usual number."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.dynamics.explain import NO_CONVERGENCE_NOTE_AT, format_share, no_convergence_causes
from scorio_core.ranking.separation import observed_trials, trials_needed
from scorio_core.uncertainty.priors import shortage_cause


def test_no_convergence_causes_name_few_trials_ties_and_the_data_gold_standard():
    causes = dict(no_convergence_causes(0.83, 2, gold="data", gold_ranks=[1, 1, 3], models=["a", "b", "c"]))
    assert list(causes) == ["share", "few_trials", "gold_ties", "gold_data"]
    assert causes["share"].startswith("No convergence in 83% of the replicates")
    assert "only n = 1 can be tested" in causes["few_trials"]
    assert causes["gold_ties"].startswith("The gold standard ties a, b (equal scores")
    # several tie groups are not one tie (QA 2026-12-03: "ties model-000, ... and 296 more" over 13 groups)
    groups = dict(no_convergence_causes(0.9, 2, gold="data", gold_ranks=[1, 1, 3, 3, 3, 6],
                                        models=["a", "b", "c", "d", "e", "f"]))["gold_ties"]
    assert groups.startswith("The gold standard has 2 groups of models with equal scores on all the data (5 of the 6 "
                             "models; the largest, 3 models: c, d, e): a replicate's ranking")
    # N = 4 is not "few"; the replicate gold standard has no data ranking; ties only where ranks repeat
    assert [c for c, _ in no_convergence_causes(0.5, 4, gold="replicate", gold_ranks=None)] == ["share"]
    assert "n = 1 to 2" in dict(no_convergence_causes(0.5, 3, gold="replicate"))["few_trials"]
    assert no_convergence_causes(NO_CONVERGENCE_NOTE_AT - 1e-9, 2, gold="data") == []
    assert no_convergence_causes(float("nan"), 2, gold="data") == []


def test_convergence_cli_explains_no_convergence_at_two_trials(tmp_path, capsys):
    rng = np.random.default_rng(5)
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"m{m},q{q},{t},{int(rng.random() < 0.3 + 0.1 * m)}" for m in range(4) for q in range(20) for t in range(2)]
    path = tmp_path / "two.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["convergence", str(path), "--replicates", "50", "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["no_convergence"] >= NO_CONVERGENCE_NOTE_AT  # column resampling of 2 trials rarely keeps the order
    assert any("With N = 2 trials per question only n = 1 can be tested" in n["message"] for n in out["notes"])
    assert any(n["code"] == "no_convergence_share" and n["message"].startswith(f"No convergence in {format_share(out['no_convergence'])}")
               for n in out["notes"])


@pytest.mark.parametrize(("counts", "cause"), [
    ([[[1, 0]] * 30, [[0, 1]] * 30], "N = 1: one trial per question"),
    ([[[1, 1]] * 9 + [[1, 0]] * 20], "fewer than 10 questions tried twice or more (9 questions)"),
    ([[[1, 1]] * 19], "fewer than 20 pairs of trials of a question (19 pairs)"),
    ([[[1, 1]] * 19, [[2, 0]] * 19], "fewer than 20 pairs of trials of a question"),  # two models: no count
    ([[[0, 3]] * 12], "every trial in one category"),
    ([[[1, 0]] * 30, [[1, 1]] * 12 + [[0, 0]] * 18], None),  # different causes: the whole rule is said
    (np.zeros((0, 3, 2)), None),
])
def test_shortage_cause_is_the_one_cause_every_model_shares(counts, cause):
    assert shortage_cause(counts) == cause


def test_one_question_sensitivity_names_its_one_cause(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q1,{t},{v}\n" for m, vs in (("a", (1, 0)), ("b", (0, 0)), ("c", (1, 1))) for t, v in enumerate(vs)))
    assert main(["sensitivity", str(path), "--output", "json"]) == 0
    note = next(n["message"] for n in json.loads(capsys.readouterr().out)["notes"] if "not identified" in n["message"])
    assert "(fewer than 10 questions tried twice or more):" in note and "N = 1," not in note


def test_observed_trials_of_ragged_data_show_their_range(tmp_path, capsys):
    assert observed_trials(trials_needed([[1, 3]] * 4, [[2, 2]] * 4)) == "4"
    needed = trials_needed([[1, 3], [1, 0], [0, 0]], [[2, 2], [0, 1], [1, 1]])
    assert observed_trials(needed) == "1-4" and needed.n_observed_min == 1
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},{t},{int((q + t + (m == 'a')) % 3 == 0)}" for m in "ab" for q in range(12)
             for t in range(1 if q % 2 else 8)]
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["compare", str(path), "--models", "a", "b", "--output", "json"]) == 0
    trials = json.loads(capsys.readouterr().out)["trials_needed"]
    assert trials["n_observed"] == [8, 8] and trials["n_observed_min"] == 1
    assert "observed N = 1-8" in trials["meaning"]


def test_convergence_cli_default_replicates_follow_the_pages_budget(tmp_path, capsys, monkeypatch):
    # the CLI ran 2,000 empirical-Bayes replicates whatever the data (117 s on the paper simulation under load); it
    # now takes the pages' default, sized from the data's shape only (the same data always get the same count)
    from scorio_core.dynamics import budget

    rng = np.random.default_rng(2)
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"m{m},q{q},{t},{int(rng.random() < 0.2 + 0.1 * m)}" for m in range(4) for q in range(12) for t in range(4)]
    path = tmp_path / "small.csv"
    path.write_text("\n".join(rows) + "\n")

    def run(*extra):
        assert main(["convergence", str(path), "--output", "json", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    assert run("--prior", "uniform")["replicates"] == budget.DEFAULT_REPLICATES  # a closed form: always 2,000
    assert run("--prior", "empirical-bayes")["replicates"] == budget.DEFAULT_REPLICATES  # small data: within budget
    monkeypatch.setattr(budget, "DEFAULT_BUDGET_S", 1e-9)  # as if the data were large
    out = run("--prior", "empirical-bayes")
    assert out["replicates"] == min(budget.REPLICATE_CHOICES)
    assert any(n["code"] == "default_replicates" and n["replicates"] == 100
               and n["message"].startswith("The default here is 100 replicates, not 2,000")
               and "--replicates 2000 runs them all" in n["message"] for n in out["notes"])
    asked = run("--prior", "empirical-bayes", "--replicates", "7")
    assert asked["replicates"] == 7 and not any("default here" in n["message"] for n in asked["notes"])
