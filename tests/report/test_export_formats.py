"""Export formats: LaTeX's short caption and package line, the N = 1 estimate header, the HTML interval axis; the
verdict's paired probabilities and the prior-pull notice."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from scorio_core.report import latex, tables
from scorio_core.report.html import html_report
from scorio_core.report.verdict import verdict
from tests.report.test_report import board


def _report(models):
    frame = board(models=models, mu=np.linspace(0.9, 0.5, len(models)))
    return html_report(title="t", subtitle="s", table=frame, verdict=verdict(frame), settings={})


def test_latex_caption_has_a_short_form():
    # the full caption (what the intervals cover, the notes) runs to sentences; the list of tables gets the first
    table = board()
    tex = latex.leaderboard_latex(table, metric_label="Bayes@N", confidence=0.95, task="aime_2025",
                                  notes=["Some note & more."])
    caption = next(line for line in tex.splitlines() if line.startswith("\\caption"))
    assert caption.startswith("\\caption[Bayes@N with 95\\% credible intervals (aime\\_2025)]{Bayes@N with 95\\%")
    assert caption.endswith("Some note \\& more.}") and "empirical-Bayes prior" in caption
    big = pd.concat([table] * 20, ignore_index=True).assign(model=lambda f: [f"m{i}" for i in range(len(f))])
    long = latex.leaderboard_latex(big, metric_label="Bayes@N", confidence=0.95, task="t")
    assert long.count("\\caption[Bayes@N with 95\\% credible intervals (t)]{") == 1
    assert long.count("\\caption[]{(continued)}") == 1


def test_latex_says_when_names_need_xelatex():
    """QA: names in other scripts (模型-A, an emoji) were written as they are with only "% needs booktabs" above them;
    pdfLaTeX stops at them. Latin accents (é) stay pdfLaTeX-safe."""
    first = [latex.to_latex(pd.DataFrame({"model": [name], "x": [1.0]})).splitlines()[0] for name in ("模型-A", "🚀", "é")]
    assert all("compile with XeLaTeX or LuaLaTeX" in line for line in first[:2])
    assert first[2] == "% needs \\usepackage{booktabs} in the preamble"


def test_estimate_header_says_pooled_rate_under_the_n1_fallback():
    # under the N = 1 fallback no prior is fitted and mu is the pooled observed rate: the header says so
    table = board()
    assert "Bayes@N mean" in tables.presentation_table(table).columns
    exact = table.assign(interval_kind="exact-binomial")
    cols = tables.presentation_table(exact).columns
    assert "Pooled rate" in cols and "Bayes@N mean" not in cols
    mixed = table.assign(interval_kind=["exact-binomial", "credible", "credible"])
    assert "Bayes@N mean or pooled rate" in tables.presentation_table(mixed).columns
    assert "Pooled rate |" in tables.leaderboard_markdown(exact, metric_label="Bayes@N", confidence=0.95)


def test_interval_strip_has_round_ticks_and_trial_spans():
    # board(): mu 0.9..0.5, sigma 0.02 -> intervals 0.461..0.939: ticks 0.4, 0.5, ..., 1 (step 0.1, 6 steps)
    text = _report(["a", "b", "c"])
    axis = re.search(r"<div class='axis'>(.*?)</div>", text).group(1)
    assert re.findall(r">([0-9.]+)</span>", axis) == ["0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"]
    assert text.count("background-size:16.6667% 100%") == 3  # a grid line under every tick
    frame = board(models=["a", "b"], mu=[0.8, 0.6]).assign(n_trials=[1, 4], n_trials_max=[12, 4])
    doc = html_report(title="t", subtitle="s", table=frame, verdict=verdict(frame), settings={})
    assert "<td>1-12</td>" in doc and "smallest-largest" in doc


def test_verdict_takes_the_rankings_own_pairwise_probabilities():
    # unpaired, b and c (0.70 vs 0.69, sd 0.02 each) read 63.8%; a paired matrix (their difference much surer) says
    # 99%: the verdict must say what the rank ties and the heatmap say, in the table's row order
    t = board()
    assert not verdict(t).comparisons[1].separated
    rho = np.array([[0.5, 0.999, 0.999], [0.001, 0.5, 0.99], [0.001, 0.01, 0.5]])
    shuffled = t.iloc[[2, 0, 1]].reset_index(drop=True)  # rows in another order: the matrix follows the rows
    v = verdict(shuffled, pairwise=rho[np.ix_([2, 0, 1], [2, 0, 1])])
    assert [(c.ahead, c.behind, round(c.rho, 3)) for c in v.comparisons] == [("alpha", "beta", 0.999),
                                                                            ("beta", "gamma", 0.99)]
    assert v.summary.startswith("2 of 2 neighbouring pairs are separated")
    assert verdict(t, pairwise=np.ones((2, 2))).comparisons[1].rho < 0.95  # a matrix of another shape is not used


def test_prior_pull_notice_names_intervals_that_exclude_the_observed_mean():
    from scorio_core.leaderboard.checks import prior_pull_notice

    t = board()  # avg = mu: every interval holds it
    assert prior_pull_notice(t) is None
    pulled = t.assign(avg=[0.8, 0.5, 0.69], prior="jeffreys", n_trials=2)
    note = prior_pull_notice(pulled)
    assert note["code"] == "prior_pull" and note["models"] == ["beta"]
    assert note["finding"].startswith("The interval of beta excludes its observed avg@N (avg@N 0.500, interval "
                                      "[0.661, 0.739]): with N = 2 trials per question the Jeffreys prior")
    assert "--prior empirical-bayes" in note["message"] and "--prior" not in note["finding"]
    # the N = 1 fallback's mean is the pooled rate: never flagged
    assert prior_pull_notice(pulled.assign(interval_kind="exact-binomial",
                                           interval="95% exact binomial (Clopper-Pearson) interval")) is None
    many = t.assign(avg=[0.1, 0.2, 0.3], prior="uniform")
    assert prior_pull_notice(many, limit=2)["finding"].startswith("The intervals of alpha (avg@N 0.100, ")
    assert " and 1 more exclude their observed avg@N" in prior_pull_notice(many, limit=2)["finding"]
    # a page's model filter: only shown models are named, the others counted
    filtered = prior_pull_notice(many, shown=["gamma"])
    assert filtered["finding"].startswith("The intervals of gamma (avg@N 0.300, interval ")
    assert " and 2 models the model filter hides exclude their observed avg@N" in filtered["finding"]
    assert filtered["models"] == ["alpha", "beta", "gamma"]
    assert prior_pull_notice(many, shown=[])["finding"].startswith("The intervals of 3 models the model filter hides")


def test_shared_ranks_are_marked_tie_in_markdown_latex_and_html():
    # HTML wrote "2 (tie)"; Markdown and LaTeX showed the repeated number only, easy to miss in print
    table = board(models=["a", "b", "c", "d"], mu=np.array([0.9, 0.7, 0.69, 0.4])).assign(rank_ci=[1, 2, 2, 4])
    pretty = tables.presentation_table(table)
    assert pretty["Rank (CI ties)"].tolist() == ["1", "2 (tie)", "2 (tie)", "4"]
    assert pretty["Rank"].tolist() == [1, 2, 3, 4]
    tex = latex.leaderboard_latex(table, metric_label="Bayes@N", confidence=0.95, task="t")
    assert tex.count("2 (tie)") == 2 and "4 (tie)" not in tex
    doc = html_report(title="t", subtitle="s", table=table, verdict=verdict(table), settings={})
    assert doc.count("2 (tie)") == 2 and "1 (tie)" not in doc
    # ties are counted within a task; no shared rank leaves the integers as they were
    two = table.assign(task=["x", "x", "y", "y"], rank_ci=[1, 2, 1, 2])
    assert tables.tie_marks(two) is None
    assert tables.presentation_table(table.assign(rank_ci=[1, 2, 3, 4]))["Rank (CI ties)"].tolist() == [1, 2, 3, 4]
