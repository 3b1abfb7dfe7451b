"""The planner on groups of models that share no question (:mod:`scorio_core.plan.linking`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from scorio_core.leaderboard.outcomes import Outcomes
from scorio_core.plan import plan_next
from scorio_core.plan.linking import group_check, linking_trials


def _disjoint(seed: int = 0) -> Outcomes:
    """Three groups: m0, m1 on q0-q3; m2 on q4-q7; m3 on q8-q11 (4 trials per answered cell)."""
    rng = np.random.default_rng(seed)
    rates = np.array([0.9, 0.3, 0.5, 0.4])
    n = np.zeros((4, 12), dtype=np.int64)
    n[:2, :4] = n[2, 4:8] = n[3, 8:] = 4
    correct = rng.binomial(n, rates[:, None])
    counts = np.stack([n - correct, correct], axis=-1)
    return Outcomes(task="t", models=("m0", "m1", "m2", "m3"), questions=tuple(f"q{i}" for i in range(12)),
                    weights=np.array([0.0, 1.0]), labels=("wrong", "right"), counts=counts)


def test_linking_trials_give_every_group_common_questions_first():
    o = _disjoint()
    plan = plan_next(o, "top-1", batch=8, seed=0)
    assert not plan.stop and plan.decision == "continue" and plan.goal["unlinked"] and not plan.goal["holds"]
    trials = np.zeros((4, 12), dtype=np.int64)
    for r in plan.batch:
        trials[o.models.index(r["model"]), o.questions.index(r["question_id"])] += r["trials"]
    assert trials.sum() == 8 and not (trials > 0)[o.n_trials > 0].any()  # only questions a model has not answered
    after = o.n_trials + trials
    # the first question of each group is now answered by every model: one group
    assert (after[:, [0, 4, 8]] > 0).all()
    assert group_check(SimpleNamespace(n_trials=after), plan_goal(), o.models).notice is None


def plan_goal():
    from scorio_core.plan.goals import check_goal

    return check_goal("top-1", ("m0", "m1", "m2", "m3"))


def test_linking_batch_is_spread_evenly_within_the_room():
    o = _disjoint()
    check = group_check(o, plan_goal(), o.models)
    answered = o.n_trials > 0
    cells = int((~answered).sum())  # every unanswered cell links two groups here
    full = linking_trials(check, answered, 3 * cells + 5, None)
    assert full.sum() == 3 * cells + 5 and set(np.unique(full[~answered])) == {3, 4} and not full[answered].any()
    capped = linking_trials(check, answered, 3 * cells + 5, np.where(answered, 0, 2))
    assert capped.sum() == 2 * cells and capped.max() == 2


def test_no_room_to_link_stops_without_the_goal_and_says_why():
    plan = plan_next(_disjoint(), "ranking", batch=50, max_trials=np.where(_disjoint().n_trials > 0, 5, 0))
    assert plan.stop and plan.decision == "cannot_progress" and not plan.goal["holds"] and plan.batch == []
    assert plan.reason.startswith("stop without the goal: ranking cannot be decided") and "continue" not in plan.reason
    assert "trial limit" in plan.reason and plan.status["notices"][0]["code"] == "disconnected_groups"


def test_width_goal_ignores_the_groups():
    plan = plan_next(_disjoint(), "width", width=2.0)
    assert plan.decision == "goal_holds" and plan.goal["holds"] and not plan.goal["unlinked"]
    assert [n["code"] for n in plan.status["notices"]] == ["disconnected_groups"]
