"""All tasks pooled: the empirical-Bayes prior is fitted per (model, task) and the tasks' posteriors are combined
over the model's questions (scorio_core.uncertainty.strata; docs/metrics.md "All tasks pooled")."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.choices import FALLBACK_INTERVAL
from scorio_core.cli import main
from scorio_core.leaderboard.checks import apply_question_set, leaderboard_notices
from scorio_core.leaderboard.table import ALL_TASKS, leaderboard, outcomes_for
from scorio_core.uncertainty.batch import posterior_summary_batch


def _dump(tmp_path, trials_often: int = 10, trials_once: int = 1, skip_b_once: bool = False):
    """a and b: 40 questions tried ``trials_once`` times (rate ~0.4), 20 tried ``trials_often`` times (rate ~0.7)."""
    rng = np.random.default_rng(3)
    rows = ["model,task,question,trial,correct"]
    for m, shift in (("a", 0.0), ("b", 0.1)):
        if not (skip_b_once and m == "b"):
            rows += [f"{m},once,q{q},{t},{int(rng.random() < 0.4 + shift)}" for q in range(40) for t in range(trials_once)]
        rows += [f"{m},often,q{q},{t},{int(rng.random() < 0.7 + shift)}" for q in range(20) for t in range(trials_often)]
    path = tmp_path / "pool.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_pooled_tasks_combine_each_tasks_own_prior(tmp_path):
    data = io.load([str(_dump(tmp_path, trials_often=8, trials_once=2))])
    pooled = leaderboard(outcomes_for(data, ALL_TASKS)).set_index("model")
    once, often = (leaderboard(outcomes_for(data, t)).set_index("model") for t in ("once", "often"))
    # by hand: 40 questions of "once" and 20 of "often", each question weighing 1/60
    mu = (40 * once["mu"] + 20 * often["mu"]) / 60
    sigma = np.sqrt(40**2 * once["sigma"] ** 2 + 20**2 * often["sigma"] ** 2) / 60
    assert np.allclose(pooled["mu"], mu.loc[pooled.index], rtol=0, atol=1e-12)
    assert np.allclose(pooled["sigma"], sigma.loc[pooled.index], rtol=0, atol=1e-12)
    assert pooled["interval"].str.endswith("Dirichlet fitted to the model's questions of each task (tasks pooled)").all()
    assert (pooled["lo"] < pooled["mu"]).all() and (pooled["mu"] < pooled["hi"]).all()
    # one prior over both tasks, the old rule, pulled the twice-tried questions up toward the other task's rate
    one = posterior_summary_batch(outcomes_for(data, ALL_TASKS).rubric.counts, [0.0, 1.0])
    assert not np.allclose(one.mu, pooled.loc[list(outcomes_for(data, ALL_TASKS).models), "mu"], atol=1e-3)


def test_a_task_that_cannot_identify_its_prior_sends_the_model_to_the_exact_fallback(tmp_path, capsys):
    data = io.load([str(_dump(tmp_path))])  # "once": N = 1, so its prior is not identified
    outcomes = outcomes_for(data, ALL_TASKS)
    table = leaderboard(outcomes).set_index("model")
    # the observed mean over the 60 questions (each weighing the same), never pulled toward the other task
    assert np.allclose(table["mu"], table["avg"], rtol=0, atol=1e-12)
    assert table["interval"].str.contains(FALLBACK_INTERVAL, regex=False).all()
    assert table["interval"].str.contains("it is fitted per task, and a task of the model has too few repeated trials (N = 1", regex=False).all()
    assert not [n for n in leaderboard_notices(outcomes, table.reset_index()) if n["code"] == "pooled_prior"]
    assert main(["leaderboard", str(_dump(tmp_path)), "--task", ALL_TASKS, "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["model"]: r["mu"] for r in rows} == pytest.approx(table["avg"].to_dict(), abs=1e-12)


def test_a_model_with_one_task_gets_its_one_task_numbers(tmp_path):
    data = io.load([str(_dump(tmp_path, trials_often=8, trials_once=2, skip_b_once=True))])
    pooled = leaderboard(outcomes_for(data, ALL_TASKS)).set_index("model")
    often = leaderboard(outcomes_for(data, "often")).set_index("model")
    for column in ("mu", "sigma", "lo", "hi"):
        assert pooled.loc["b", column] == often.loc["b", column]
    assert pooled.loc["b", "n_questions"] == 20 and pooled.loc["a", "n_questions"] == 60


def test_common_question_set_keeps_each_question_s_task(tmp_path):
    outcomes = outcomes_for(io.load([str(_dump(tmp_path, trials_often=8, trials_once=2, skip_b_once=True))]),
                            ALL_TASKS)
    common = apply_question_set(outcomes, "common").rubric
    assert common.question_tasks == ("often",) * 20 and common.strata() is None  # one task left: one prior
    with pytest.raises(ValueError, match="question_tasks has 60 entries for 20 questions"):
        type(outcomes.rubric)(**{**outcomes.rubric.__dict__, "questions": common.questions,
                                 "counts": common.counts})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 6), m=st.integers(1, 40), categories=st.integers(2, 4))
def test_one_stratum_is_the_one_prior_result(seed, n, m, categories):
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, rng.dirichlet(np.ones(categories), size=(3, m)))
    counts[0, : m // 3] = 0  # a model that skipped questions
    w = np.linspace(0.0, 1.0, categories)
    for scope in ("questions-fixed", "questions-sampled"):
        a = posterior_summary_batch(counts, w, scope=scope)
        b = posterior_summary_batch(counts, w, scope=scope, strata=np.zeros(m, dtype=np.int64))
        for x, y in ((a.mu, b.mu), (a.sigma, b.sigma), (a.lo, b.lo), (a.hi, b.hi)):
            assert np.array_equal(x, y, equal_nan=True)
        assert list(a.method) == list(b.method)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), split=st.integers(12, 30))
def test_relabelling_the_strata_changes_nothing(seed, split):
    rng = np.random.default_rng(seed)
    n = 3
    p = np.concatenate([rng.beta(2, 5, (4, split)), rng.beta(5, 2, (4, 40 - split))], axis=1)
    k = rng.binomial(n, p)
    counts = np.stack([n - k, k], axis=-1)
    codes = np.repeat([0, 1], [split, 40 - split])
    a = posterior_summary_batch(counts, [0.0, 1.0], strata=codes)
    b = posterior_summary_batch(counts, [0.0, 1.0], strata=1 - codes)
    assert np.allclose(a.mu, b.mu, rtol=0, atol=1e-12) and np.allclose(a.hi, b.hi, rtol=0, atol=1e-12)
    # a stratum's questions moved to the end (a column permutation) changes nothing either
    order = np.argsort(1 - codes, kind="stable")
    c = posterior_summary_batch(counts[:, order], [0.0, 1.0], strata=codes[order])
    assert np.allclose(a.mu, c.mu, rtol=0, atol=1e-12) and np.allclose(a.sigma, c.sigma, rtol=0, atol=1e-12)


def test_bad_strata_are_refused():
    counts = np.ones((2, 3, 2), dtype=np.int64)
    with pytest.raises(ValueError, match="strata must be 3 non-negative integer codes"):
        posterior_summary_batch(counts, [0.0, 1.0], strata=[0, 1])
    with pytest.raises(ValueError, match="strata must be 3 non-negative integer codes"):
        posterior_summary_batch(counts, [0.0, 1.0], strata=[0, -1, 1])


def test_a_task_with_every_trial_wrong_says_so():
    rng = np.random.default_rng(5)
    k = rng.binomial(4, rng.beta(3, 3, (2, 30)))
    counts = np.stack([4 - k, k], axis=-1)
    counts[0, :15] = [4, 0]  # model 0 failed every trial of the first task: its prior there is not identified
    codes = np.repeat([0, 1], 15)
    s = posterior_summary_batch(counts, [0.0, 1.0], strata=codes)
    assert list(s.method) == ["fallback-task-degenerate", "marginal-likelihood"]
    assert s.mu[0] == pytest.approx(k[0, 15:].sum() / 4 / 30, abs=1e-12)  # observed mean over the 30 questions
    assert s.lo[0] < s.mu[0] < s.hi[0]
    counts[0, 15:] = [4, 0]  # every trial of every task wrong: the one-prior rule's Jeffreys mean and label
    s = posterior_summary_batch(counts, [0.0, 1.0], strata=codes)
    assert s.method[0] == "fallback-degenerate" and s.mu[0] == pytest.approx(0.5 / 121, abs=1e-12) and s.lo[0] == 0.0


def test_rubric_sensitivity_fits_the_prior_per_task_as_the_leaderboard(tmp_path):
    from scorio_core.sensitivity import perturb_rubric, schema_ranks

    data = io.load([str(_dump(tmp_path, trials_often=8, trials_once=2))])
    board = leaderboard(outcomes_for(data, ALL_TASKS)).set_index("model")
    ranks = schema_ranks(data.attempts, ["Binary correctness"], prior="empirical-bayes")
    mu = dict(zip(ranks.models, ranks.mu[0]))
    assert mu == pytest.approx(board["mu"].to_dict(), abs=1e-12)
    perturbed = perturb_rubric(data.attempts, "Binary correctness", n=20, prior="empirical-bayes")
    assert dict(zip(perturbed.models, perturbed.base_mu)) == pytest.approx(board["mu"].to_dict(), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), tasks=st.integers(1, 3))
def test_shares_give_the_stratified_mean_for_any_weights(seed, tasks):
    from scorio_core.uncertainty.batch import posterior_shares

    rng = np.random.default_rng(seed)
    n = rng.integers(1, 6, (4, 45))
    counts = np.stack([rng.multinomial(x, rng.dirichlet([2, 2, 2])) for x in n.ravel()]).reshape(4, 45, 3)
    counts[0, :15] = 0
    codes = rng.integers(0, tasks, 45)
    w = rng.random(3)
    shares = posterior_shares(counts, strata=codes)
    assert np.allclose(shares @ w, posterior_summary_batch(counts, w, strata=codes).mu, rtol=0, atol=1e-12)
    assert np.allclose(shares.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_method_agreement_ranks_by_the_leaderboard_s_bayes(tmp_path):
    from scorio_core.leaderboard.methods import method_agreement

    outcomes = outcomes_for(io.load([str(_dump(tmp_path, trials_often=4, trials_once=4))]), ALL_TASKS)
    board = leaderboard(outcomes).set_index("model")
    report = method_agreement(outcomes, ["bayes", "avg"], n_boot=20)
    a = report.agreement
    bayes = dict(zip(a.models, a.scores[list(a.methods).index("bayes")]))
    assert bayes == pytest.approx(board["mu"].to_dict(), abs=1e-12)
    assert report.bootstrap is not None


def test_per_row_strata_equal_each_row_on_its_own():
    rng = np.random.default_rng(11)
    k = rng.binomial(3, rng.beta(2, 2, (2, 40)))
    counts = np.stack([3 - k, k], axis=-1)
    codes = np.repeat([0, 1], 20)
    order = rng.permutation(40)  # the second row's questions in another order (a bootstrap resample's columns)
    stacked = np.stack([counts[0], counts[1, order]])
    both = posterior_summary_batch(stacked, [0.0, 1.0], strata=np.stack([codes, codes[order]]))
    alone = posterior_summary_batch(counts, [0.0, 1.0], strata=codes)
    assert np.allclose(both.mu, alone.mu, rtol=0, atol=1e-12) and np.allclose(both.hi, alone.hi, rtol=0, atol=1e-12)


def test_sensitivity_cli_pools_all_tasks_as_the_page(tmp_path, capsys):
    path = _dump(tmp_path, trials_often=8, trials_once=2)
    board = leaderboard(outcomes_for(io.load([str(path)]), ALL_TASKS)).set_index("model")
    assert main(["sensitivity", str(path), "--task", ALL_TASKS, "--prior", "empirical-bayes", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == ALL_TASKS
    ranks = dict(zip(out["models"], (row[0] for row in out["ranks"])))  # ranks: one row per model, a column per schema
    assert ranks == {m: float(r) for m, r in board["rank"].items()}
    assert main(["sensitivity", str(path)]) == 2
    assert "--task 'all tasks' to pool them" in capsys.readouterr().err


def test_two_trials_on_fewer_than_twenty_questions_do_not_identify_the_prior():
    from scorio_core.uncertainty.priors import fit_dirichlet_prior

    rng = np.random.default_rng(4)
    k = rng.binomial(2, rng.beta(0.5, 0.5, (3, 20)))
    counts = np.stack([2 - k, k], axis=-1)
    # 19 questions x 2 trials: 19 pairs of trials of one question (< 20), so not identified; 20 questions: 20 pairs
    assert list(posterior_summary_batch(counts[:, :19], [0.0, 1.0]).method) == ["fallback-n1"] * 3
    assert list(posterior_summary_batch(counts, [0.0, 1.0]).method) == ["marginal-likelihood"] * 3
    assert fit_dirichlet_prior(counts[0, :19]).method == "fallback-n1"
    assert fit_dirichlet_prior(counts[0]).method == "marginal-likelihood"
    # 10 questions x 3 trials: 30 pairs, identified (the questions rule: 10 tried twice)
    k3 = rng.binomial(3, rng.beta(2, 2, (1, 10)))
    assert posterior_summary_batch(np.stack([3 - k3, k3], axis=-1), [0.0, 1.0]).method[0] == "marginal-likelihood"
    # a ragged model: 10 questions tried twice plus 5 tried four times = 10 + 30 pairs
    n = np.r_[np.full(10, 2), np.full(5, 4)]
    c = rng.binomial(n, 0.5)
    assert fit_dirichlet_prior(np.stack([n - c, c], axis=-1)).method == "marginal-likelihood"
    label = posterior_summary_batch(counts[:, :19], [0.0, 1.0]).method[0]
    from scorio_core.uncertainty.posterior import fallback_interval_label

    assert "pairs of trials of a question (N = 2 on fewer than 20 questions), or fewer than 2 questions whose trials disagree) leave its strength not identified" in (
        fallback_interval_label(label, "questions-fixed"))


def test_n1_in_every_task_says_the_plain_rule(tmp_path):
    data = io.load([str(_dump(tmp_path, trials_often=1, trials_once=1))])  # both tasks N = 1: no task identifies it
    table = leaderboard(outcomes_for(data, ALL_TASKS))
    assert table["interval"].str.contains("too few repeated trials (N = 1", regex=False).all()
    assert not table["interval"].str.contains("fitted per task", regex=False).any()
    assert np.allclose(table["mu"], table["avg"], rtol=0, atol=1e-12)


def test_plan_says_it_plans_one_task_at_a_time(tmp_path, capsys):
    assert main(["plan", str(_dump(tmp_path, trials_often=4, trials_once=4)), "--task", ALL_TASKS]) == 2
    assert "the planner plans one task at a time" in capsys.readouterr().err


def test_plan_on_one_task_takes_all_tasks_as_that_task(tmp_path, capsys):
    path = tmp_path / "one.csv"
    path.write_text("model,question,trial,correct\n" + "".join(
        f"{m},q{q},{r},{(q + r + len(m)) % 3 == 0}\n" for m in ("a", "bb") for q in range(5) for r in range(3)))
    assert main(["plan", str(path), "--task", ALL_TASKS, "--output", "json"]) == 0
    capsys.readouterr()
