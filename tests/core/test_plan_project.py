"""The planner's per-cell limits (max_trials) and the projected course of the goal (project_goal)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scorio_core.errors import InputError
from scorio_core.leaderboard.outcomes import Outcomes
from scorio_core.plan import plan_next, project_goal


def _outcomes(successes, trials) -> Outcomes:
    s, n = np.asarray(successes), np.asarray(trials)
    L, M = n.shape
    counts = np.stack([n - s, s], axis=-1).astype(np.int64)
    return Outcomes(task="t", models=tuple(f"m{i}" for i in range(L)), questions=tuple(f"q{j}" for j in range(M)),
                    weights=np.array([0.0, 1.0]), labels=("wrong", "right"), counts=counts)


def _close_race(seed=0, L=4, M=12, N=2):
    rng = np.random.default_rng(seed)
    n = np.full((L, M), N)
    return _outcomes(rng.binomial(n, np.linspace(0.45, 0.6, L)[:, None]), n)


def test_max_trials_caps_every_cell():
    o = _close_race()
    cap = np.zeros((4, 12), dtype=int)
    cap[:, :3] = 2  # only the first three questions may get trials, two each
    plan = plan_next(o, "top-1", batch=200, max_trials=cap, prior="uniform")
    assert not plan.stop and plan.batch
    assert all(r["question_id"] in ("q0", "q1", "q2") and r["trials"] <= 2 for r in plan.batch)
    assert sum(r["trials"] for r in plan.batch) <= 4 * 3 * 2


def test_max_trials_zero_everywhere_stops_with_a_reason():
    plan = plan_next(_close_race(), "top-1", batch=50, max_trials=0, prior="uniform")
    assert plan.stop and plan.batch == [] and "nothing to run" in plan.reason


def test_max_trials_scalar_equals_the_broadcast_array():
    o = _close_race(1)
    a = plan_next(o, "top-1", batch=40, max_trials=1, prior="uniform", seed=3)
    b = plan_next(o, "top-1", batch=40, max_trials=np.ones((4, 12)), prior="uniform", seed=3)
    assert a.batch == b.batch and all(r["trials"] == 1 for r in a.batch)


@pytest.mark.parametrize("bad", [-1, np.ones((3, 12)), [[np.nan] * 12] * 4])
def test_bad_max_trials_is_an_input_error(bad):
    with pytest.raises(InputError, match="max_trials"):
        plan_next(_close_race(), "top-1", max_trials=bad)


def test_projection_shapes_and_monotone_spending():
    proj = project_goal(_close_race(2), "top-1", batches=4, replays=3, batch=60, prior="uniform", seed=5)
    assert proj.trials.shape == proj.probability.shape == proj.stopped.shape == (3, 5)
    assert (proj.trials[:, 0] == 0).all() and (np.diff(proj.trials, axis=1) >= 0).all()
    running = ~proj.stopped[:, :-1]
    steps = np.diff(proj.trials, axis=1)
    assert (steps[running] == 60).all()  # every batch a replay runs spends the whole batch (no cap)
    assert ((proj.probability >= 0) & (proj.probability <= 1)).all()
    # the first point is the planner's probability on the data so far (the draws differ: a Monte-Carlo tolerance)
    p0 = plan_next(_close_race(2), "top-1", prior="uniform", draws=1000).goal["probability"]
    assert np.all(np.abs(proj.probability[:, 0] - p0) < 0.06)
    again = project_goal(_close_race(2), "top-1", batches=4, replays=3, batch=60, prior="uniform", seed=5)
    np.testing.assert_array_equal(again.probability, proj.probability)  # same seed, same projection


def test_projection_gains_certainty_on_average_on_a_clear_winner():
    rng = np.random.default_rng(0)
    n = np.full((3, 10), 1)
    o = _outcomes(rng.binomial(n, np.array([0.9, 0.4, 0.3])[:, None]), n)
    proj = project_goal(o, "top-1", batches=6, replays=6, batch=30, prior="uniform", seed=1, confidence=0.95)
    assert proj.probability[:, -1].mean() > proj.probability[:, 0].mean()
    assert proj.stopped[:, -1].mean() >= 0.5


def test_projection_of_a_stopped_goal_keeps_its_value():
    o = _outcomes(np.array([[20] * 5, [0] * 5]), np.full((2, 5), 20))  # 100% vs 0%: top-1 holds at once
    proj = project_goal(o, "top-1", batches=3, replays=2, prior="uniform")
    assert proj.stopped.all() and (proj.trials == 0).all() and (proj.probability == proj.probability[:, :1]).all()


@pytest.mark.parametrize("name, value", [("batches", 0), ("replays", -1), ("replays", 1.5)])
def test_projection_rejects_bad_counts(name, value):
    with pytest.raises(InputError, match=name):
        project_goal(_close_race(), "top-1", **{name: value})


def test_outcomes_replace_keeps_models_and_questions():
    o = _close_race()
    p = dataclasses.replace(o, counts=o.counts * 2, R=None)
    assert p.models == o.models and p.n_trials.sum() == 2 * o.n_trials.sum()


def test_identical_models_stop_inside_the_indifference_zone_and_strict_top1_continues():
    o = _outcomes(np.full((3, 10), 60), np.full((3, 10), 60))  # three models, every trial correct: a three-way tie
    zoned = plan_next(o, "top-1", prior="uniform", tolerance=0.05)
    assert zoned.stop and "within the tolerance" in zoned.reason and zoned.goal["probability"] >= 0.95
    strict = plan_next(o, "top-1", prior="uniform", tolerance=0.0)
    # P(model m0 is best) ~ 1/3 and equal means: no trial can split them, and the planner says so instead of asking
    assert strict.stop and not strict.goal["holds"] and strict.goal["probability"] < 0.5
    assert strict.reason.startswith("nothing to run lowers the goal's error") and strict.batch == []


def test_questions_fixed_target_is_every_question_of_the_task():
    from scorio_core.plan.posterior import cell_posterior

    n = np.zeros((2, 15), dtype=int)
    n[:, :3] = 400  # both models known very well on 3 of 15 questions, nothing on the other 12
    s = np.zeros_like(n)
    s[0, :3], s[1, :3] = 360, 200
    o = _outcomes(s, n)
    post = cell_posterior(o.counts, o.weights, "uniform", 0.95)
    # hand: observed cell scores 0.9 (x3) and 0.5 (x3); each model's own spread is 0, the task's pooled one is
    # var([.9, .9, .9, .5, .5, .5], ddof=1) = 6 * 0.2^2 / 5 = 0.048; extrapolating to U = 12 of M = 15 from
    # M_a = 3 adds s^2 U / (M M_a) = 0.048 * 12 / 45 to the variance; the estimate stays the answered mean
    np.testing.assert_allclose(post.spread, [0.048, 0.048], rtol=1e-12)
    np.testing.assert_array_equal(post.task_mu, post.fixed.mu)
    np.testing.assert_allclose(post.task_sigma**2, post.fixed.sigma**2 + 0.048 * 12 / 45, rtol=1e-12)
    assert post.fixed.sigma[0] < 0.02 < 0.1 < post.task_sigma[0]  # the 3-question score is known, the task score not
    s[0, :3], s[1, :3] = (400, 80, 240), (80, 400, 200)  # rates (1.0, 0.2, 0.6) and (0.2, 1.0, 0.5): a varied task
    o = _outcomes(s, n)
    post = cell_posterior(o.counts, o.weights, "uniform", 0.95)
    np.testing.assert_allclose(post.spread, [np.var([1.0, 0.2, 0.6], ddof=1), np.var([0.2, 1.0, 0.5], ddof=1)])
    plan = plan_next(o, "top-1", prior="uniform", batch=60)
    assert not plan.stop and all(int(r["question_id"][1:]) >= 3 for r in plan.batch)  # it asks for the untried ones
    full = _outcomes(np.full((2, 4), 3), np.full((2, 4), 5))
    post = cell_posterior(full.counts, full.weights, "empirical-bayes", 0.95)
    np.testing.assert_array_equal(post.task_mu, post.fixed.mu)  # no unanswered question: the leaderboard's numbers
    np.testing.assert_array_equal(post.task_sigma, post.fixed.sigma)


def test_projection_uses_up_the_per_cell_limit():
    o = _close_race(3)  # 4 x 12 cells
    proj = project_goal(o, "top-1", batches=5, replays=2, batch=40, prior="uniform", seed=2, max_trials=1)
    assert proj.trials.max() <= 4 * 12  # one more trial per cell at most, over every batch of a replay
    assert (np.diff(proj.trials, axis=1) >= 0).all()


def test_projection_within_budget_runs_what_was_asked():
    o = _close_race(3)
    proj = project_goal(o, "top-1", batches=3, replays=4, batch=40, prior="uniform", seed=2)
    assert (proj.replays, proj.batches, proj.requested, proj.note) == (4, 3, None, "")
    same = project_goal(o, "top-1", batches=3, replays=4, batch=40, prior="uniform", seed=2, budget=None)
    assert np.array_equal(proj.trials, same.trials) and np.array_equal(proj.probability, same.probability)
    assert np.array_equal(proj.stopped, same.stopped)


def test_projection_over_budget_runs_fewer_and_says_so():
    from scorio_core.plan import projection_size

    o = _close_race(3)  # 4 x 12 cells: a budget of 4 * 12 * 2 * 2 cell-plans allows 2 replays of 2 batches
    proj = project_goal(o, "top-1", batches=3, replays=4, batch=40, prior="uniform", seed=2, budget=4 * 12 * 2 * 2)
    assert (proj.replays, proj.batches, proj.requested) == (2, 2, (4, 3))
    assert proj.trials.shape == (2, 3)
    assert "2 replays instead of 4" in proj.note and "2 batches instead of 3" in proj.note and "--replays" in proj.note
    assert "Ran 2 replays instead of 4" in proj.describe(40) and "2 replays of 2 batches of 40" in proj.describe(40)
    assert projection_size(250, 2000, 8, 6)[:2] == (2, 4)
    assert projection_size(12, 40, 8, 6) == (8, 6, "")
    assert projection_size(10**4, 10**4, 1, 6)[:2] == (1, 1)  # never below what was asked, nor below 1 batch
