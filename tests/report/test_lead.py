"""The verdict names its scope and the questions behind a lead (issue 40).

Fixture: model X leads model Y on 40 questions, N = 8 trials each. Only X solves three questions
(X 8/8, 2/8 and 1/8 correct, Y 0/8); the other 37 have the same outcome for both (16 solved 8/8 by
both, 7/8 and 6/8 by both on two more, 19 failed 0/8 by both: Y has two questions whose trials disagree, so its
empirical-Bayes prior is identified, MIN_DISAGREEING_QUESTIONS). Hand calculation of the paired difference under the
questions-sampled scope (Miller 2024): d = (1, 0.25, 0.125, 0 x 37), mean 1.375/40 = 0.034375,
sample sd 0.16257, se = 0.16257 / sqrt(40) = 0.025705; with the raw mean z = 1.337 and
P(X > Y) = Phi(1.337) = 0.909. The verdict centres on the Bayes@N posterior means (as Compare does):
mu_X - mu_Y is slightly larger than 0.034375, P(X > Y) = 0.910: not credible at 95%. With questions fixed only trial noise counts (the three partial questions),
sd ~ 0.005 and the lead is credible (P > 99.9%). An exact sign test on 3 vs 0 discordant questions
gives p = 0.125, consistent with the sampled verdict.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from scorio_core.report import tables
from scorio_core.report.html import html_report
from scorio_core.report.lead import Lead, lead_evidence, questions_behind, scope_phrase, top_lead
from scorio_core.report.verdict import verdict
from scorio_core.ranking.compare import disagreement_table

ROOT_DATA = Path(__file__).resolve().parents[2] / "data"


def counts_csv(path) -> str:
    rows = ["model,question_id,n_trials,n_correct"]
    x = [8, 2, 1, 7, 6] + [8] * 16 + [0] * 19
    y = [0, 0, 0, 7, 6] + [8] * 16 + [0] * 19
    z = [0, 0, 0] + [4] * 18 + [0] * 19  # a third model, clearly behind
    for name, correct in (("X", x), ("Y", y), ("Z", z)):
        rows += [f"{name},q{i:02d},8,{c}" for i, c in enumerate(correct)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


@pytest.fixture
def outcomes(tmp_path):
    return outcomes_for(io.load([counts_csv(tmp_path / "lead.csv")]), None)


def test_lead_evidence_matches_hand_calculation(outcomes):
    fixed = leaderboard(outcomes, scope="questions-fixed")
    lead = top_lead(outcomes, fixed)
    assert (lead.ahead, lead.behind) == ("X", "Y")
    assert (lead.only_ahead, lead.only_behind, lead.different, lead.same, lead.n_common) == (3, 0, 0, 37, 40)
    d = np.array([1, 0.25, 0.125] + [0] * 37)
    z = d.mean() / (d.std(ddof=1) / np.sqrt(40))
    assert z == pytest.approx(1.337, abs=1e-3)  # hand value in the module docstring
    from scipy.stats import norm

    assert lead.rho_sampled == pytest.approx(norm.cdf(z), abs=2e-3)  # raw mean vs posterior means
    mu = fixed.set_index("model")["mu"]
    assert lead.rho_sampled == pytest.approx(norm.cdf((mu["X"] - mu["Y"]) / (d.std(ddof=1) / np.sqrt(40))), abs=1e-12)
    assert lead.rho_sampled < 0.95 < 0.999 < lead.rho_fixed


def test_verdict_names_scope_and_says_the_lead_does_not_hold_for_new_questions(outcomes):
    fixed = leaderboard(outcomes, scope="questions-fixed")
    lead = top_lead(outcomes, fixed)
    v = verdict(fixed, lead=lead)
    assert v.headline.startswith("X ranks first at 95% credibility on these 40 questions")
    assert "but not on new questions like these: there P(X > Y) = 90.9%, paired over the 40 questions both answered" \
        in v.headline
    assert v.basis == ("The lead rests on 3 questions only X solves and 0 only Y solves; the other 37 of the 40 questions "
                       "both answered have the same outcome for both.")
    # the sharer chose the questions-sampled scope: the headline leads with it, and still says both
    sampled = leaderboard(outcomes, scope="questions-sampled")
    w = verdict(sampled, lead=top_lead(outcomes, sampled, fixed))
    assert w.scope == "questions-sampled"
    assert w.headline.startswith("No single leader at 95% credibility on new questions like these")
    assert "On these 40 questions, X is ahead of Y with > 99.9% posterior probability." in w.headline
    assert w.comparisons[0].rho == pytest.approx(lead.rho_sampled)  # the paired probability, as on Compare


def test_reports_carry_the_same_sentence(outcomes):
    fixed = leaderboard(outcomes, scope="questions-fixed")
    v = verdict(fixed, lead=top_lead(outcomes, fixed))
    page = html_report(title="t", subtitle="s", table=fixed, verdict=v, settings={})
    import html

    assert html.escape(v.headline, quote=True) in page and html.escape(v.basis, quote=True) in page
    markdown = tables.leaderboard_markdown(fixed, metric_label="Bayes@N", confidence=0.95, verdict=v)
    import re

    literal = re.sub(r"\\(.)", r"\1", markdown)  # as the reader sees it (special characters are escaped)
    assert f"**{v.headline}**" in literal and v.basis in literal


def test_agreeing_scopes_are_said_once():
    table = pd.DataFrame({"model": ["A", "B"], "mu": [0.8, 0.5], "sigma": [0.01, 0.01], "lo": [0.78, 0.48],
                          "hi": [0.82, 0.52], "n_trials": [8, 8], "n_questions": [50, 50], "scope": "questions-fixed"})
    lead = Lead("A", "B", 15, 0, 5, 30, 50, 0.9999, 0.999)
    v = verdict(table, lead=lead)
    assert v.headline.startswith("A ranks first at 95% credibility on these 50 questions, and on new questions like these "
                                 "too: ahead of B with > 99.9% posterior probability (99.9% on new questions like these;")
    # a lead for another pair is ignored (it would describe the wrong models)
    assert verdict(table, lead=lead._replace(ahead="C")).basis == ""
    # fewer than two common questions: the sampled side cannot be estimated, and the headline says so
    v = verdict(table, lead=lead._replace(rho_sampled=None, n_common=1))
    assert "cannot be estimated: fewer than two questions were answered by both" in v.headline


def test_scope_phrase_and_basis_wording():
    assert scope_phrase("questions-fixed", 1) == "on this question"
    assert scope_phrase("questions-fixed") == "on these questions"
    with pytest.raises(ValueError):
        scope_phrase("questions-random")
    assert questions_behind(Lead("A", "B", 1, 2, 3, 4, 10, 0.5, 0.5)) == (
        "The lead rests on 1 question only A solves and 2 only B solves; 3 questions both solve at different rates "
        "and 4 have the same outcome for both.")
    # no question only one of them solves: said so, not "the lead rests on 0 questions ..." (read as "on nothing", QA F15)
    none_alone = Lead("A", "B", 0, 0, 27, 13, 40, 0.97, 0.9)
    assert questions_behind(none_alone) == ("No question is solved by only one of them; the lead comes from 27 questions "
                                            "both solve at different rates; 13 have the same outcome for both.")
    assert questions_behind(none_alone, credible=False) == (
        "Between A and B: no question is solved by only one of them; 27 questions both solve at different rates and 13 "
        "have the same outcome for both.")
    assert questions_behind(none_alone._replace(graded=True)).startswith(
        "No question is scored by only one of them; the lead comes from 27 questions where both score, at different "
        "mean scores; 13 have")


def test_lead_evidence_uses_the_compare_pages_difference(outcomes):
    from scorio_core.ranking.paired import scoped_difference

    fixed = leaderboard(outcomes, scope="questions-fixed")
    table = disagreement_table(outcomes, "Y", "Z")
    lead = lead_evidence(fixed, table, "Y", "Z")
    rows = fixed.set_index("model")
    d, _ = scoped_difference(rows.loc["Y", "mu"], rows.loc["Y", "sigma"], rows.loc["Z", "mu"], rows.loc["Z", "sigma"],
                             table["diff"].to_numpy(), scope="questions-sampled")
    assert lead.rho_sampled == d.rho and lead.only_ahead == 0 and lead.different == 18


@pytest.mark.parametrize("scope", ["questions-fixed", "questions-sampled"])
def test_cli_reports_carry_the_verdict(tmp_path, capsys, scope):
    from scorio_core.cli import main

    path = counts_csv(tmp_path / "lead.csv")
    assert main(["export", path, "--format", "md", "--scope", scope]) == 0
    markdown = capsys.readouterr().out
    first = markdown.split("\n\n")[1].replace("\\", "")  # after the line naming the data, task and rubric
    if scope == "questions-fixed":
        assert first.startswith("**X ranks first at 95% credibility on these 40 questions") and "but not on new" in first
    else:
        assert first.startswith("**No single leader at 95% credibility on new questions like these")
    assert "3 questions only X solves and 0 only Y solves" in markdown
    out = tmp_path / "r.html"
    assert main(["export", path, "--format", "html", "--scope", scope, "--tie-rule", "upper-bound", "--out", str(out)]) == 0
    page = out.read_text()
    assert "3 questions only X solves" in page
    assert "rule &#x27;upper-bound&#x27;: rank = 1 + the number of models whose whole credible interval" in page
    assert "section 2.7.1" not in page  # the paper's chain rule is not the rule these ranks used


@pytest.mark.parametrize("rule", ["pairwise", "paper", "upper-bound", "none"])
def test_report_explains_the_tie_rule_its_ranks_used(outcomes, rule):
    """One source per rule: the HTML report's text is tie_rule_sentence(rule) and no other rule's text."""
    from scorio_core.ranking.rank import TIE_RULE_HELP, tie_rule_sentence

    table = leaderboard(outcomes, tie_rule=rule)
    page = html_report(title="t", subtitle="s", table=table, verdict=verdict(table), settings={}, tie_rule=rule)
    import html

    assert html.escape(tie_rule_sentence(rule), quote=True) in page
    assert all(html.escape(text, quote=True) not in page for other, text in TIE_RULE_HELP.items() if other != rule)
    with pytest.raises(ValueError, match="rule must be one of"):
        tie_rule_sentence("chain")


@pytest.mark.parametrize("rule", ["pairwise", "paper", "upper-bound", "none"])
def test_tie_rule_sentence_at_n1_says_confidence_not_credibility(rule):
    """Where an empirical-Bayes prior is not identified (N = 1) the sds are pooled binomial ones: no rule's sentence
    says credible or credibility, and each still names its rule."""
    from scorio_core.ranking.rank import tie_rule_sentence

    text = tie_rule_sentence(rule, approximate=True)
    assert "credib" not in text.lower() and text.startswith(f"Rank (CI ties), rule {rule!r}: ")
    if rule != "none":
        assert text != tie_rule_sentence(rule)  # every uncertain rule had a credible word to replace
    else:
        assert text == tie_rule_sentence(rule)


def test_models_on_disjoint_questions_of_equal_count_are_not_said_to_share_them(tmp_path, capsys):
    from scorio_core.cli import main
    from scorio_core.leaderboard.table import question_sets_differ

    # a, b answered q0-q9; c, d answered q10-q19: ten each, none in common between the pairs
    rows = ["model,question_id,trial,is_correct"]
    for m, qs, rate in (("a", range(10), 9), ("b", range(10), 4), ("c", range(10, 20), 7), ("d", range(10, 20), 3)):
        rows += [f"{m},q{q},{t},{int((q % 10) + t < rate)}" for q in qs for t in range(4)]
    path = tmp_path / "halves.csv"
    path.write_text("\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(path)]))
    assert question_sets_differ(outcomes, "own") and not question_sets_differ(outcomes, "common")
    assert not question_sets_differ(outcomes, "missing-incorrect")
    table = leaderboard(outcomes)
    assert verdict(table, question_sets_differ=True).headline.count("on the questions each model answered (10 each)") == 1
    assert "on these 10 questions" in verdict(table).headline  # the table alone cannot tell: the caller must say
    gone = Lead("a", "c", 0, 0, 0, 0, 0, 0.99, None)
    assert questions_behind(gone) == ("a and c answered no question in common, so no question shows where they differ: "
                                      "each score covers its own questions.")
    assert main(["export", str(path), "--format", "md"]) == 0
    markdown = capsys.readouterr().out.replace("\\", "")
    assert "on the questions each model answered (10 each)" in markdown and "on these 10 questions" not in markdown
    assert "answered no question in common" in markdown and "same outcome on all 0" not in markdown
    # the same data with the questions every model answered is refused, not ranked on nothing
    assert main(["export", str(path), "--format", "md", "--question-set", "common"]) == 2


def _pair(m_a, m_b):
    return pd.DataFrame({"model": ["A", "B"], "mu": [0.86, 0.48], "sigma": [0.03, 0.03], "lo": [0.8, 0.42],
                         "hi": [0.92, 0.54], "n_trials": [4, 4], "n_questions": [m_a, m_b]})


def test_a_lead_between_different_question_sets_is_qualified_in_the_headline():
    """QA: "ModelHalf ranks first ..." when ModelHalf answered only the easy half; the caveat was only in the notes."""
    lead = Lead("A", "B", 0, 0, 3, 17, n_common=20, rho_fixed=1.0, rho_sampled=1.0)
    v = verdict(_pair(20, 40), lead=lead, question_sets_differ=True)
    assert v.headline.startswith("A ranks first")
    assert ("Caveat: A answered 20 questions and B 40, 20 of them both, so this compares the models together with "
            "their questions") in v.headline and "question set: common" in v.headline
    # same questions (or the common set in force): nothing to add
    assert "Caveat" not in verdict(_pair(40, 40), lead=lead._replace(n_common=40), question_sets_differ=True).headline
    assert "Caveat" not in verdict(_pair(20, 40), lead=lead, question_sets_differ=False).headline


def test_trials_that_are_not_exchangeable_are_named_in_the_headline():
    """ARC: o3's second attempt only after a failed first (88.5% vs 3.1%); the headline read as a plain lead."""
    effects = [{"model": "A", "rates": [0.885, 0.031], "attempts": [400, 400], "p_value": 1e-100}]
    v = verdict(_pair(40, 40), trial_effects=effects)
    assert v.headline.endswith("Caveat: the trials of A are not exchangeable repeats (A: trial 1 88.5%, trial 2 3.1%), "
                               "which these intervals assume: its score averages attempts of different kinds.")
    assert "Caveat" not in verdict(_pair(40, 40), trial_effects=[{**effects[0], "model": "Z"}]).headline  # not the top two


def test_a_score_on_another_scale_than_0_to_1_says_its_scale():
    """Format Aware (weights 0-3): "Bayes@N 2.544" alone reads as nothing a stakeholder knows."""
    table = _pair(40, 40).assign(mu=[2.54, 1.2], lo=[2.5, 1.1], hi=[2.58, 1.3])
    assert "Bayes@N 2.540 on a 0-to-3 scale, 95% interval [2.500, 2.580]" in verdict(table, scale=(0, 3)).headline
    assert "scale" not in verdict(_pair(40, 40), scale=(0.0, 1.0)).headline
    assert "on a 0-to-3 scale" in verdict(table.iloc[:1], scale=(0, 3)).headline  # one model too


def test_one_model_with_few_trials_is_not_told_about_a_ranking():
    v = verdict(_pair(40, 40).iloc[:1])
    assert any("more trials would narrow the interval" in c for c in v.caveats)
    assert not any("ranking" in c for c in v.caveats)


@pytest.mark.parametrize("rule", ["paper", "upper-bound", "none", "pairwise"])
def test_the_headline_says_when_the_tables_tie_rule_puts_another_number_at_rank_1(tmp_path, rule):
    """Lead QA: under the paper rule the table put all 270 models at rank 1 while the headline said "17 models share
    the top rank" (pairwise): the headline now says which rule each uses when they differ."""
    rng = np.random.default_rng(0)
    rows = [f"m{i},q{q:02d},2,{rng.binomial(2, 0.3 + 0.03 * i)}" for i in range(10) for q in range(30)]
    (tmp_path / "chain.csv").write_text("model,question_id,n_trials,n_correct\n" + "\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(tmp_path / "chain.csv")]))
    table = leaderboard(outcomes, tie_rule=rule)
    at_one = int((table["rank_ci"] == 1).sum())
    pairwise_top = int((leaderboard(outcomes, tie_rule="pairwise")["rank_ci"] == 1).sum())
    headline = verdict(table, tie_rule=rule).headline
    assert f"{pairwise_top} models share the top rank" in headline
    said = {"paper": f"follows the rule 'paper', which puts {at_one} models at rank 1",
            "upper-bound": f"follows the rule 'upper-bound', which puts {at_one} models at rank 1",
            "none": "has no CI ties (rule 'none'): 1 model at rank 1", "pairwise": "Rank (CI ties)"}[rule]
    assert (said in headline) == (rule != "pairwise") and (at_one != pairwise_top) == (rule != "pairwise"), headline
    assert "Rank (CI ties)" not in verdict(table).headline  # without the rule: as before
