"""Text alternatives of the charts beyond the first few (a11y QA): each builder on a small hand-made input."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.tables import chart_text as ct
from dashboard.tables import chart_text_data as cd
from dashboard.tables import chart_text_more as cm

BOARD = pd.DataFrame({"model": ["a", "b", "c", "d"], "mu": [0.6, 0.74, np.nan, 0.41],
                      "lo": [0.55, 0.7, np.nan, 0.38], "hi": [0.71, 0.78, np.nan, 0.44]})


def test_interval_summary_names_both_ends_and_the_overlaps():
    assert ct.interval_summary(BOARD, interval="95% credible interval", labels={"b": "B-long"}) == (
        "3 models scored, 1 not; highest mean B-long 0.7400 (95% credible interval 0.7000-0.7800), lowest d 0.4100 "
        "(95% credible interval 0.3800-0.4400); 1 other model's interval overlaps the leader's.")
    combined = BOARD.rename(columns={"mu": "score"}).iloc[[1]]
    assert ct.interval_summary(combined, interval="95% interval", column="score", estimate="combined score",
                               digits=3) == "1 model: combined score b 0.740 (95% interval 0.700-0.780)."
    assert ct.interval_summary(BOARD.iloc[[2]], interval="x") == "No model scored (1 without a score)."
    assert ct.interval_summary(BOARD.iloc[[1, 2]], interval="x", digits=1) == "1 model scored, 1 not: mean b 0.7 (x 0.7-0.8)."
    assert ct.interval_summary(BOARD.iloc[[0, 1, 2]].assign(mu=[0.5, 0.5, np.nan]), interval="x", digits=1).startswith(
        "2 models scored, 1 not, all with mean 0.5;")


def test_task_heatmap_summary_says_its_extremes_and_gaps():
    cells = pd.DataFrame({"model": ["a", "a", "b", "b"], "task": ["x", "y", "x", "y"],
                          "bayes": [0.9004, 0.5, 0.2, np.nan]})
    assert ct.task_heatmap_summary(cells, ["a", "b"], ["x", "y"]) == (
        "Bayes@N of 2 models on 2 tasks: highest a on x (0.900), lowest b on x (0.200); 1 cell without data.")
    assert ct.task_heatmap_summary(cells, ["a"], ["x"]) == "Bayes@N of 1 model on 1 task: every cell 0.900."
    # exact ties at an end: the named cell is one of several (QA 2026-12-03, 300 models on one task)
    tied = pd.DataFrame({"model": list("abcd"), "task": ["x"] * 4, "bayes": [0.9, 0.9, 0.9, 0.2]})
    assert ct.task_heatmap_summary(tied, list("abcd"), ["x"]) == (
        "Bayes@N of 4 models on 1 task: highest a on x (0.900, and 2 other cells with the same value), lowest d on x "
        "(0.200).")


def test_interval_summary_says_when_the_named_end_is_one_of_several_ties():
    # 300 models, 40 tied at the bottom of the 58 shown: "lowest model-284" named one of 40 (QA 2026-12-03)
    board = pd.DataFrame({"model": list("abcde"), "mu": [0.9, 0.9, 0.5, 0.5, 0.5], "lo": [0.8, 0.8, 0.4, 0.4, 0.4],
                          "hi": [1.0, 1.0, 0.6, 0.6, 0.6]})
    assert ct.interval_summary(board, interval="95% CrI") == (
        "5 models; highest mean a 0.9000 (95% CrI 0.8000-1.0000), and 1 other model with the same mean, lowest e "
        "0.5000 (95% CrI 0.4000-0.6000), and 2 other models with the same mean; 1 other model's interval overlaps "
        "the leader's.")
    same = board.assign(mu=0.5, lo=0.4, hi=0.6)
    assert ct.interval_summary(same, interval="95% CrI") == (
        "5 models, all with mean 0.5000; 4 other models' intervals overlap the leader's.")


CURVES = pd.DataFrame({"method": ["A"] * 3 + ["B"] * 3, "n": [1, 2, 3] * 2, "pmf": [0.5, 0.5, np.nan] * 2,
                       "cdf": [0.5, 1.0, np.nan, 0.1, 0.4, np.nan], "tau": [0.5, 0.8, 0.95, 0.3, 0.6, 0.912345]})


def test_convergence_summary_says_how_often_each_method_settles_and_when():
    summary = pd.DataFrame({"method": ["B", "A"], "mean": [2.5, 1.5], "no_convergence": [0.6, 0.0]})
    assert ct.convergence_chart_summary(summary, CURVES, n_max=3) == (
        "Share of bootstrap replicates whose ranking settles on the gold standard by n, for 2 methods (N = 3): "
        "A settles in every replicate (by n = 2; mean convergence@n 1.5), B in 40.0% of them (mean 2.5 among those).")
    # a low mean over the few replicates that settle does not put a method first: the share that settles does
    rare = pd.DataFrame({"method": ["B", "A"], "mean": [1.0, 2.0], "no_convergence": [0.998, 0.5]})
    assert ct.convergence_chart_summary(rare, CURVES, n_max=3) == (
        "Share of bootstrap replicates whose ranking settles on the gold standard by n, for 2 methods (N = 3): "
        "A settles in 50.0% of replicates (mean convergence@n 2.0 among those), B in 0.2% of them (mean 1.0 among "
        "those).")
    never = summary.assign(mean=np.nan, no_convergence=1.0)
    assert ct.convergence_chart_summary(never, CURVES, n_max=3) == (
        "Share of bootstrap replicates whose ranking settles on the gold standard by n, for 2 methods (N = 3): "
        "no method's ranking settles on the gold standard within N = 3 trials.")
    assert ct.convergence_chart_frame(CURVES).to_dict("list") == {"trials n": [1, 2], "A": [0.5, 1.0], "B": [0.1, 0.4]}


def test_tau_summary_and_frame():
    assert ct.tau_summary(CURVES) == ("Mean Kendall's tau_b with the gold standard after n = 1 to 3 trials for 2 "
                                      "methods; at the last n: A 0.9500, B 0.9123.")
    assert ct.tau_frame(CURVES).to_dict("list") == {"trials n": [1, 2, 3], "A": [0.5, 0.8, 0.95],
                                                    "B": [0.3, 0.6, 0.9123]}


def test_flag_bars_text():
    counts = {"flaky": 3, "saturated": 0, "unsolved": 5}
    assert cm.flag_summary(counts) == "Questions per flag: unsolved 5, flaky 3, saturated 0."
    assert cm.flag_summary({"flaky": 0}) == "Questions per flag: no question flagged."
    assert list(cm.flag_frame(counts).columns) == ["flag", "questions"] and cm.flag_frame(counts)["questions"].sum() == 8


def test_item_curve_text():
    assert cm.item_curve_summary("q7", 0.5, -1.234, [np.nan, np.nan]) == (
        "Item characteristic curve of question q7: difficulty b = -1.23 (50% success at that ability), "
        "discrimination a = 0.50; no model observed.")
    frame = cm.item_curve_frame(["a", "b", "c"], [0.0, 2.0, -1.0], [0.25, 1.0, 0.0])
    assert frame.columns.tolist() == ["model", "ability", "observed success"] and frame["model"].tolist() == ["b", "a", "c"]


def test_projection_text():
    trials, prob = [[0, 100, 200]] * 2, [[0.5, 0.6, 0.7], [0.5, 0.7, 0.8]]
    assert cm.projection_summary(trials, prob, confidence=0.95, goal_label="a is best") == (
        "Projected probability of a is best against trials spent, over 2 replays: mean 0.500 now and 0.750 after 200 "
        "more trials (median); the mean stays below 95%.")
    assert cm.projection_frame(trials, prob).to_dict("list") == {
        "batch": [0, 1, 2], "trials spent (median)": [0, 100, 200], "mean probability": [0.5, 0.65, 0.75]}


def test_band_text():
    band = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "n": [1, 2, 3] * 2, "mu": [0.5, 0.6, 0.7, 0.1, 0.2, 0.3],
                         "lo": [0.1, 0.2, 0.65, 0.0, 0.1, 0.25], "hi": [0.9, 0.9, 0.75, 0.3, 0.3, 0.35]})
    assert cm.band_summary(band, ["b", "a"], confidence=0.9) == (
        "Posterior mean after each of n = 1 to 3 trials with its central 90% interval, 2 models; after all trials: "
        "b 0.3000 [0.2500, 0.3500], a 0.7000 [0.6500, 0.7500].")
    table = cm.band_table(band, ["a"])
    assert table.columns.tolist() == ["model", "n", "mean", "low", "high"] and table["n"].tolist() == [1, 2, 3]


def test_bump_text():
    t = pd.DataFrame({"schema": ["S"] * 3 + ["T"] * 3, "model": ["a", "b", "c"] * 2, "rank": [1, 2, 3, 3, 2, 1]})
    assert cm.bump_summary(t, ["S", "T"], ["a", "b", "c"]) == (
        "Rank of 3 models under 2 schemata (S, T): a moves most (from 1 to 3); 1 model keeps one rank under every "
        "schema.")
    assert cm.bump_summary(t[t["model"] == "b"], ["S", "T"], ["b"]) == (
        "Rank of 1 model under 2 schemata (S, T): every model keeps its rank.")
    assert cm.bump_table(t, ["S", "T"], ["a", "b", "c"]).to_dict("list") == {
        "model": ["a", "b", "c"], "S": [1, 2, 3], "T": [3, 2, 1]}


def test_rank_share_text():
    share = [[0.6, 0.4], [0.4, 0.6]]
    assert cm.rank_share_summary(["b", "a"], share, [2, 1], n_rubrics=100) == (
        "Share of 100 perturbed rubrics in which each of 2 models holds each rank: a, first unperturbed, keeps rank 1 "
        "in 40%; 0 of 2 models hold their unperturbed rank in most of them.")
    assert cm.rank_share_frame(["b", "a"], share, [2, 1]).columns.tolist() == ["model", "unperturbed rank",
                                                                                "rank 1", "rank 2"]


def test_category_text():
    counts, unmatched = [[2, 6], [6, 1]], [0, 1]
    assert cm.category_summary(["a", "b"], ["wrong", "right"], counts, unmatched, [0, 1]) == (
        "Share of each model's attempts per rubric category, 2 models: 'right' (the highest weight) from 75.0% (a) "
        "to 12.5% (b); 1 attempt matches no category.")
    assert cm.category_frame(["a", "b"], ["wrong", "right"], counts, unmatched).to_dict("records") == [
        {"model": "a", "wrong": 25.0, "right": 75.0, "no category": 0.0},
        {"model": "b", "wrong": 75.0, "right": 12.5, "no category": 12.5}]


def test_scatter_summary_counts_who_is_ahead():
    t = pd.DataFrame({"score_a": [1.0, 0.5, 0.2, 0.33341], "score_b": [0.5, np.nan, 0.9, 0.33339]})
    assert cm.scatter_summary(t, name_a="x", name_b="y", score_label="rubric score") == (
        "Rubric score of x against y on 3 questions both answered: x higher on 1, y higher on 1, equal on 1.")


def test_agreement_text():
    tau = [[1, 0.9, -0.2], [0.9, 1, np.nan], [-0.2, np.nan, 1]]
    assert cm.agreement_summary(["P", "Q", "R"], tau) == (
        "Kendall's tau_b between the rankings of 3 methods: most alike P and Q (0.90), least alike P and R (-0.20).")
    assert cm.agreement_summary(["P"], [[1]]) == "Kendall's tau_b between the rankings of 1 method: no pair of rankings to compare."
    assert cm.agreement_frame(["P", "Q", "R"], tau).iloc[1].tolist() == ["Q", "0.90", "1.00", ""]


def test_cost_text():
    costs = pd.DataFrame({"model": ["a", "b", "d"], "value": [12345.6, 0.0, 2.5]})
    assert cm.cost_summary(BOARD, costs, x_title="tokens", log_x=True, labels={"a": "A"}) == (
        "Mean against tokens for 2 models: lowest d (2.5, mean 0.4100), highest A (1.235e+04, mean 0.6000); best mean A.")
    frame = cm.cost_frame(BOARD, costs, x_title="tokens", log_x=False)
    assert frame.columns.tolist() == ["model", "tokens", "mean", "low", "high"] and frame["model"].tolist() == ["b", "d", "a"]
    assert cm.cost_summary(BOARD, costs.iloc[:0], x_title="cost") == "Mean against cost: no model has a value."


def test_rate_grid_text():
    rates = [[1.0, 0.0, 0.5], [1.0, 0.0, 1.0]]
    assert cd.rate_grid_summary(["a", "b"], ["q1", "q2", "q3"], rates, binary=False) == (
        "Rescaled rubric score of 2 models on 3 questions: 1 question scored the top weight by every model on every "
        "trial, 1 the lowest by every model, 1 flaky cell (between 0 and 1).")
    frame = cd.rate_grid_frame(["a", "b"], ["q1", "q2", "q3"], rates, binary=False)
    assert frame.to_dict("records")[2] == {"question": "q3", "a": "0.50", "b": "1.00"}


def test_trial_grid_text():
    codes = np.array([[[1, 0, 1], [-1, -1, -1]], [[1, 1, 1], [0, 0, -1]]])
    assert cd.trial_grid_summary(["a", "b"], ["q1", "q2"], codes, ["wrong", "right"], [[0.67, np.nan], [1, 0]]) == (
        "Every trial of 2 models on 2 questions (up to 3 trials each) by rubric category: most often 'right' (62% of "
        "8 trials); 1 flaky row.")
    assert cd.trial_grid_summary(["a"], ["q1"], np.full((1, 1, 2), -1), ["x"], [[np.nan]]) == (
        "Every trial of 1 model on 1 question (up to 2 trials each) by rubric category: no trial in a category; "
        "0 flaky rows.")
    frame = cd.trial_grid_frame(["a", "b"], ["q1", "q2"], codes, ["wrong", "right"])
    assert frame.columns.tolist() == ["model", "question", "trial 1", "trial 2", "trial 3"]
    assert frame.iloc[1].tolist() == ["a", "q2", "", "", ""] and frame.iloc[3].tolist() == ["b", "q2", "wrong", "wrong", ""]
