"""Trials-needed sentences count in words a reader expects (QA: "a fresh run with 1 trials per question")."""

from scorio_core.ranking.separation import trials_meaning, trials_needed


def test_one_trial_is_singular_and_more_are_plural():
    one = trials_needed([[0, 3]] * 80, [[3, 0]] * 80)  # far apart on many questions: one trial each suffices
    assert one.n_power == 1
    assert "a fresh run with 1 trial per question separates" in trials_meaning(one)
    two = trials_needed([[0, 1]] * 30, [[1, 0]] * 30)
    assert two.n_power == 2 and "with 2 trials per question" in trials_meaning(two)
