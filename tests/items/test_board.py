"""IRT abilities as a leaderboard (issue 37): ranks, CI ties and intervals from the fit, unanswered models unranked."""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core import io
from scorio_core.items.board import ABILITY_COLUMNS, ability_board
from scorio_core.items.report import diagnose
from scorio_core.leaderboard.table import outcomes_for
from scorio_core.ranking.rank import ranks_with_ties


def _outcomes(tmp_path, solved, questions=6, trials=3, skip=()):
    rows = ["model,question_id,trial,is_correct"]
    for m, qs in solved.items():
        rows += [f"{m},q{q},{t},{int(q in qs)}" for q in range(questions) for t in range(trials) if (m, q) not in skip]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    return outcomes_for(io.load([str(path)]))


def test_board_ranks_by_ability_with_the_fits_intervals(tmp_path):
    d = diagnose(_outcomes(tmp_path, {"a": {0, 1, 2, 3, 4}, "b": {1, 2, 3}, "c": {3}, "d": {3, 4}}))
    board = ability_board(d, tie_rule="pairwise")
    assert tuple(board.columns) == ABILITY_COLUMNS
    fit = d.fit
    order = np.argsort(-fit.theta, kind="stable")
    assert board["model"].tolist() == [fit.models[i] for i in order]
    assert board["rank"].tolist() == [1, 2, 3, 4] and np.allclose(board["mu"], fit.theta[order])
    assert np.allclose(board["sigma"], fit.theta_se[order])
    z = 1.959963984540054  # Phi^-1(0.975): the normal quantile of a central 95% interval
    assert np.allclose(board["lo"], fit.theta[order] - z * fit.theta_se[order])
    assert np.allclose(board["hi"], fit.theta[order] + z * fit.theta_se[order])
    # ties with the 2PL scale fixed: a common factor cannot reorder abilities
    assert fit.scale_var == 1 / (2 * 4)
    fixed = np.sqrt(fit.theta_se[order] ** 2 - fit.theta[order] ** 2 * fit.scale_var)
    expected = ranks_with_ties(fit.theta[order], fixed, 0.95, rule="pairwise")
    assert board["rank_ci"].tolist() == expected.tolist()
    assert (board["n_questions"] == 6).all() and "Laplace" in board["interval"].iloc[0]


def test_unequal_question_sets_and_a_model_without_answers(tmp_path):
    # e answered nothing: no rank, NaN ability (its fit value is only the prior's); b skipped two hard questions
    outcomes = _outcomes(tmp_path, {"a": {0, 1, 2}, "b": {0, 1}, "c": {0}, "e": set()},
                         skip={("b", 4), ("b", 5)} | {("e", q) for q in range(1, 6)})
    d = diagnose(outcomes, model="rasch")
    d.fit.answered[list(d.fit.models).index("e")] = 0  # as if e had no answered question at all
    board = ability_board(d).set_index("model")
    assert pd.isna(board.loc["e", "rank"]) and np.isnan(board.loc["e", "mu"]) and np.isnan(board.loc["e", "lo"])
    assert board.loc["b", "n_questions"] == 4 and board.loc["a", "rank"] == 1
    assert board.index[-1] == "e"  # unranked last


def test_linked_groups_are_the_components_of_the_model_question_graph():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from scipy.sparse.csgraph import connected_components

    from scorio_core.items.irt import linked_groups

    # hand: a-q1-b-q2-c is one chain; d answered only q3; e answered nothing
    answered = [[1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]
    assert linked_groups(answered).tolist() == [0, 0, 0, 1, -1]

    @settings(max_examples=60, deadline=None)
    @given(st.integers(1, 7), st.integers(1, 7), st.data())
    def same_partition_as_model_model_sharing(L, M, data):
        mask = np.array(data.draw(st.lists(st.booleans(), min_size=L * M, max_size=L * M))).reshape(L, M)
        labels = linked_groups(mask)
        seen = mask.any(axis=1)
        assert np.all((labels >= 0) == seen)
        share = (mask.astype(int) @ mask.T.astype(int)) > 0  # models that answered a common question
        _, ref = connected_components(share[np.ix_(seen, seen)], directed=False)
        got = labels[seen]
        assert np.array_equal(got[:, None] == got[None, :], ref[:, None] == ref[None, :])

    same_partition_as_model_model_sharing()


def test_models_that_share_no_question_are_told_their_abilities_are_not_comparable(tmp_path):
    from scorio_core.items.board import unlinked_note

    # a, b answered q0-q2; c, d answered q3-q5: the two pairs are linked only by the priors
    skip = {(m, q) for m in "ab" for q in (3, 4, 5)} | {(m, q) for m in "cd" for q in (0, 1, 2)}
    d = diagnose(_outcomes(tmp_path, {"a": {0, 1}, "b": {0}, "c": {3, 4, 5}, "d": {4}}, skip=skip))
    assert d.fit.groups.tolist() == [0, 0, 1, 1]
    note = unlinked_note(d)
    assert note.startswith("The models fall into 2 groups that share no question, directly or through other models "
                           "(a, b; c, d).") and "ranks across groups are not supported" in note
    # one shared question links them: no note
    linked = diagnose(_outcomes(tmp_path, {"a": {0, 1}, "b": {0}, "c": {3, 4, 5}, "d": {4}}, skip=skip - {("a", 3)}))
    assert linked.fit.groups.tolist() == [0, 0, 0, 0] and unlinked_note(linked) is None


def test_ranks_with_ci_ties_are_decided_within_linked_groups_only(tmp_path):
    """a, b answered q0-q9 and c, d q10-q19 (no shared question). Within each pair the strong model is credibly
    ahead; across pairs the abilities are placed by the priors alone, so no pair across groups is separated:
    d's CI rank is 2 (behind c only), not 3 as a comparison with a (another group's leader) would make it."""
    skip = {(m, q) for m in "ab" for q in range(10, 20)} | {(m, q) for m in "cd" for q in range(10)}
    strong, weak = set(range(9)), {0}
    solved = {"a": strong, "b": weak, "c": {q + 10 for q in strong}, "d": {10}}
    d = diagnose(_outcomes(tmp_path, solved, questions=20, trials=4, skip=skip), model="rasch")
    assert d.fit.groups.tolist() == [0, 0, 1, 1]
    board = ability_board(d, tie_rule="pairwise").set_index("model")
    fit = d.fit
    fixed = fit.se_given_scale(fit.theta, fit.theta_se)
    overall = dict(zip(fit.models, ranks_with_ties(fit.theta, fixed, 0.95, rule="pairwise")))
    assert max(overall["b"], overall["d"]) == 3  # taken as one scale, the weaker pair's second model drops to 3
    for group in (["a", "b"], ["c", "d"]):
        idx = [list(fit.models).index(m) for m in group]
        expected = ranks_with_ties(fit.theta[idx], fixed[idx], 0.95, rule="pairwise")
        assert board.loc[group, "rank_ci"].tolist() == expected.tolist() == [1, 2]
        # the point rank counts within the group too (across groups the priors, not the data, order the abilities)
        assert board.loc[group, "rank"].tolist() == [1, 2] and board.loc[group, "group"].nunique() == 1
    assert board.loc[["a", "c"], "group"].tolist() == [1, 2]  # numbered as the leaderboard's groups (1 = largest)
    rows = ability_board(d, tie_rule="pairwise")
    assert rows["model"].tolist() == ["a", "b", "c", "d"]  # sorted by group, then rank


def test_coverage_note_names_the_short_side(tmp_path):
    from scorio_core.items.board import coverage_note

    rng = np.random.default_rng(3)
    few = diagnose(_outcomes(tmp_path, {"a": {0, 1, 2, 3, 4}, "b": {1, 2, 3}, "c": {3}, "d": {3, 4}}))
    assert coverage_note(few).startswith("4 models x 6 questions: few models and questions for these Laplace")
    assert coverage_note(few).endswith("More models and questions make them closer to their level.")
    # many models, few questions (an Open LLM Leaderboard-like upload): only the questions are short (QA 2026-12-03)
    wide = {f"m{i:02d}": set(np.flatnonzero(rng.random(12) < (i + 1) / 26).tolist()) for i in range(25)}
    note = coverage_note(diagnose(_outcomes(tmp_path, wide, questions=12, trials=1)))
    assert note.startswith("25 models x 12 questions: few questions for these") and "More questions make" in note
    tall = {f"m{i:02d}": set(np.flatnonzero(rng.random(100) < (i + 1) / 21).tolist()) for i in range(20)}
    assert coverage_note(diagnose(_outcomes(tmp_path, tall, questions=100, trials=1))) is None
