"""One ranking method's leaderboard beside Bayes@N (issue 38: the Leaderboard's "Ranking method" choice)."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.leaderboard.methods import method_agreement, method_board
from scorio_core.leaderboard.table import outcomes_for

# One trial per question. a solves q2 and q3, which nobody else solves; b and c solve q0, q1, q4.
SOLVED = {"a": {2, 3}, "b": {0, 1, 4}, "c": {0, 1, 4}}


def _outcomes(tmp_path, solved=SOLVED, questions=5):
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},0,{int(q in qs)}" for m, qs in solved.items() for q in range(questions)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    return outcomes_for(io.load([str(path)]))


def test_inverse_difficulty_beside_bayes_by_hand(tmp_path):
    # Bayes@N (uniform prior, same questions): b = c (3 of 5 solved) share rank 1, a (2 of 5) is 3rd.
    # Inverse difficulty: solve rates q2, q3 = 1/3 (weight 3), q0, q1, q4 = 2/3 (weight 1.5), so the unnormalised
    # scores are a = 3 + 3 = 6 and b = c = 3 x 1.5 = 4.5; normalised by the weight total 3 x 1.5 + 2 x 3 = 10.5.
    report = method_agreement(_outcomes(tmp_path), ["inverse_difficulty", "bayes"], prior="uniform")
    board = method_board(report, "inverse_difficulty")
    assert board["model"].tolist() == ["a", "b", "c"]
    assert board["rank"].tolist() == [1, 2, 2]
    assert board["score"].tolist() == pytest.approx([6 / 10.5, 4.5 / 10.5, 4.5 / 10.5])
    assert board["bayes_rank"].tolist() == [3, 1, 1]
    assert board["change"].tolist() == [2, -1, -1]
    # Bayes@N, uniform prior, one trial: (s + 1) / (N + 2) per question = 2/3 solved, 1/3 not, averaged over 5
    assert board["bayes_mean"].tolist() == pytest.approx([(2 * 2 + 3) / 15, (3 * 2 + 2) / 15, (3 * 2 + 2) / 15])


def test_bayes_alone_has_no_comparison_columns(tmp_path):
    report = method_agreement(_outcomes(tmp_path), ["bayes"], prior="uniform")
    board = method_board(report, "bayes")
    assert list(board.columns) == ["model", "score", "rank"]
    assert board["rank"].tolist() == [1, 1, 3] and board["model"].tolist() == ["b", "c", "a"]


def test_a_method_that_cannot_rank_says_why(tmp_path):
    # a solves everything, the others nothing: Bradley-Terry has no finite maximum-likelihood estimate
    report = method_agreement(_outcomes(tmp_path, {"a": set(range(5)), "b": set(), "c": {0}}),
                              ["bradley_terry", "bayes"], prior="uniform")
    with pytest.raises(ValueError, match="Bradley-Terry cannot rank these data"):
        method_board(report, "bradley_terry")
    with pytest.raises(ValueError, match="was not computed"):
        method_board(report, "borda")


def test_bootstrap_rank_intervals_join_the_board(tmp_path):
    outcomes = _outcomes(tmp_path)
    report = method_agreement(outcomes, ["borda", "bayes"], prior="uniform", n_boot=50, seed=4)
    board = method_board(report, "borda")
    boot = report.bootstrap
    k = boot.methods.index("borda")
    expected = dict(zip(boot.models, zip(boot.lo[k], boot.hi[k])))
    assert [(lo, hi) for lo, hi in zip(board["rank_lo"], board["rank_hi"])] == [expected[m] for m in board["model"]]
    assert (board["rank_lo"] <= board["rank_hi"]).all()
    assert "rank_lo" not in method_board(method_agreement(outcomes, ["borda", "bayes"], prior="uniform"), "borda")


def test_too_few_questions_give_no_bootstrap_interval_and_say_why(tmp_path):
    # one question: every resample is that question, so the intervals were zero-width ("1-1") and labelled as covering
    # sampled questions (helper QA); below MIN_BOOTSTRAP_QUESTIONS none are computed and the notes say why
    from scorio_core.leaderboard.methods import MIN_BOOTSTRAP_QUESTIONS

    few = method_agreement(_outcomes(tmp_path, questions=MIN_BOOTSTRAP_QUESTIONS - 1), ["borda", "bayes"],
                           prior="uniform", n_boot=50, seed=4)
    assert few.bootstrap is None and "rank_lo" not in method_board(few, "borda").columns
    (note,) = [n for n in few.notes if n.startswith("No rank intervals")]
    assert f"at least {MIN_BOOTSTRAP_QUESTIONS} questions (here {MIN_BOOTSTRAP_QUESTIONS - 1})" in note
    enough = method_agreement(_outcomes(tmp_path, questions=MIN_BOOTSTRAP_QUESTIONS), ["borda", "bayes"],
                              prior="uniform", n_boot=50, seed=4)
    assert enough.bootstrap is not None
