"""AppTest: the Compare page (difference posterior, disagreements, trials needed)."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from scorio_core.ranking.compare import difference_posterior
from scorio_core.ranking.separation import trials_needed
from scorio_core.uncertainty import projection_alpha
from tests.app.conftest import ROOT, chart_specs, no_exception, shown

COMPARE = "pages/results/compare.py"


def test_defaults_to_the_top_two_and_matches_core(app):
    app.switch_page(COMPARE).run()
    no_exception(app)
    assert (app.selectbox(key="cmp_a").value, app.selectbox(key="cmp_b").value) == ("o3-mini (high)", "o1 (medium)")
    outcomes = outcomes_for(io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")]))
    table = leaderboard(outcomes).set_index("model")
    a, b = table.loc["o3-mini (high)"], table.loc["o1 (medium)"]
    d = difference_posterior(a["mu"], a["sigma"], b["mu"], b["sigma"])
    metrics = [m.value for m in app.main.metric]
    assert metrics[0] == f"{d.mean:+.3f}" and metrics[1] == f"{d.sd:.3f}" and metrics[2] == f"{d.lo:+.2f} to {d.hi:+.2f}"
    assert any("Not distinguishable at 95%" in i.value for i in app.main.info)
    counts = outcomes.rubric.counts
    fits = [projection_alpha(counts[i], "empirical-bayes") for i in (0, 1)]  # the sidebar's default prior
    needed = trials_needed(counts[0], counts[1], confidence=0.95, alpha_a=fits[0][0], alpha_b=fits[1][0],
                           empirical_a=not fits[0][1], empirical_b=not fits[1][1])
    assert any(f"{needed.n_power:,} trials per question** for 80% power" in i.value for i in app.main.info)
    assert any(f"plug-in N = {needed.n_needed:,}" in shown(c.value) for c in app.main.caption)
    assert len(chart_specs(app)) == 3  # difference, per-question scatter, trials curve


def test_disagreement_table_and_toggle(app):
    app.switch_page(COMPARE).run()
    only = app.main.dataframe[0].value
    assert set(only["outcome"]) <= {"only A solves", "only B solves", "both, A more often", "both, B more often"}
    assert "14" in only["question"].tolist()  # o1 (medium) solves problem 14 once, o3-mini (high) never
    row = only.set_index("question").loc["14"]
    assert (row["outcome"], row["a"], row["b"]) == ("only B solves", "0/4", "1/4")
    app.toggle(key="cmp_only_diff").set_value(False).run()
    assert len(app.main.dataframe[0].value) == 15


def test_choose_models_and_rubric(sim_app):
    at = sim_app
    at.switch_page("pages/data/rubric.py").run()
    at.selectbox(key="rubric_schema").set_value("Format Aware").run()
    at.switch_page(COMPARE).run()
    at.selectbox(key="cmp_a").set_value("mimic-11").run()
    at.selectbox(key="cmp_b").set_value("mimic-10").run()
    no_exception(at)
    assert "Format Aware" in shown(at.main.caption[0].value)
    assert at.main.metric[3].value.endswith("%")


def test_an_already_separated_pair_says_what_a_fresh_run_needs_in_one_sentence(sim_app):
    sim_app.switch_page(COMPARE).run()  # paper simulation: the top two (N = 80) are separated
    no_exception(sim_app)
    (done,) = [shown(s.value) for s in sim_app.main.success if "Already separated" in shown(s.value)]
    assert "). Rerunning the evaluation from scratch would not always repeat that: a fresh run with " in done
    assert "trials per question separates them" in done
    assert ">= 1.64, one-sided: P(A > B) or P(B > A) >= 95%)" in done  # why z < 1.96 is already "separated at 95%"
    assert "fresh run: a fresh run" not in done.lower()


def test_same_model_and_single_model(app):
    app.switch_page(COMPARE).run()
    app.selectbox(key="cmp_b").set_value("o3-mini (high)").run()
    no_exception(app)
    assert any("two different models" in w.value for w in app.main.warning)
    app.sidebar.selectbox(key="dataset").set_value("tau-bench-airline").run()
    no_exception(app)
    assert any("at least two scored models" in i.value for i in app.main.info)


@pytest.mark.parametrize("key", ["cmp_a", "cmp_b"])
def test_models_survive_page_switch(app, key):
    app.switch_page(COMPARE).run()
    app.selectbox(key=key).set_value("gpt-4o").run()
    app.switch_page("pages/results/leaderboard.py").run()
    app.switch_page(COMPARE).run()
    assert app.selectbox(key=key).value == "gpt-4o"


def test_a_question_opens_its_attempts(sim_app):
    # issue 16 drill-down: every attempt of both models on the chosen question, with rubric category and fields
    at = sim_app
    at.switch_page("pages/data/rubric.py").run()
    at.selectbox(key="rubric_schema").set_value("Format Aware").run()
    at.switch_page(COMPARE).run()
    no_exception(at)
    questions = at.selectbox(key="cmp_question").options
    at.selectbox(key="cmp_question").set_value(questions[1]).run()
    no_exception(at)
    attempts = next(d.value for d in at.main.dataframe if "category" in d.value.columns)
    a, b = at.selectbox(key="cmp_a").value, at.selectbox(key="cmp_b").value
    assert list(dict.fromkeys(attempts["model"])) == [a, b] and len(attempts) == 160  # 80 trials each
    assert list(attempts.columns[:4]) == ["model", "trial", "is_correct", "category"] or \
        list(attempts.columns[:3]) == ["model", "trial", "is_correct"]
    assert {"has_box", "completion_bpt"} <= set(attempts.columns)
    data = io.load([str(p) for p in __import__("dashboard.data.bundled", fromlist=["BUNDLED"]).BUNDLED["paper-simulation"].paths])
    rows = data.attempts[(data.attempts["model"] == a) & (data.attempts["question_id"] == questions[1])]
    assert attempts.loc[attempts["model"] == a, "is_correct"].sum() == rows["is_correct"].sum()


def test_sampled_scope_pairs_the_difference(app):
    from scorio_core.ranking.compare import disagreement_table
    from scorio_core.ranking.paired import scoped_difference

    app.switch_page(COMPARE).run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    outcomes = outcomes_for(io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")]))
    table = leaderboard(outcomes).set_index("model")  # questions fixed: where the paired difference starts
    a, b = table.loc["o3-mini (high)"], table.loc["o1 (medium)"]
    diffs = disagreement_table(outcomes, "o3-mini (high)", "o1 (medium)")["diff"].to_numpy()
    d, _ = scoped_difference(a["mu"], a["sigma"], b["mu"], b["sigma"], diffs, scope="questions-sampled")
    metrics = [m.value for m in app.main.metric]
    assert metrics[1] == f"{d.sd:.3f}" == "0.052" and metrics[2] == f"{d.lo:+.2f} to {d.hi:+.2f}"
    assert any("paired over the 15 questions both models answered" in shown(m.value) for m in app.main.markdown)


def test_sampled_scope_shows_the_questions_needed(app):
    app.switch_page(COMPARE).run()
    assert not any("Questions needed" in s.value for s in app.main.header)  # questions fixed: not a question
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    assert any("Questions needed to separate them" in s.value for s in app.main.header)
    assert any("More trials per question do not shrink the question-sampling part" in shown(c.value)
               for c in app.main.caption)


def test_sampled_scope_labels_the_trials_block_as_questions_fixed(app):
    """Under "Trials and questions" the trials block must not read as separating the models for new questions."""
    app.switch_page(COMPARE).run()
    assert "Trials needed to separate them" in [s.value for s in app.main.header]
    assert not any("questions-fixed analysis" in shown(c.value) for c in app.main.caption)
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    assert "Trials needed to separate them (questions fixed)" in [s.value for s in app.main.header]
    assert any("questions-fixed analysis" in text and "more trials alone cannot separate them" in text
               for text in (shown(c.value) for c in app.main.caption))
    assert any("trials per question** for 80% power on these questions" in i.value for i in app.main.info)


def _compare_upload(app, name: str, rows: list[str]) -> None:
    """Upload ``rows`` (CSV lines) as ``name`` and open the Compare page on it."""
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value((name, "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(COMPARE).run()
    no_exception(app)


def _two_models(a_questions, b_questions) -> list[str]:
    """CSV lines: models a and b, two trials on each of their questions (outcomes alternate)."""
    return ["model,question_id,trial,is_correct"] + [
        f"{m},q{q},{t},{(q + t) % 2}" for m, qs in (("a", a_questions), ("b", b_questions)) for q in qs for t in range(2)]


def test_a_pair_with_different_questions_is_told_so(app):
    _compare_upload(app, "sets.csv", _two_models(range(4), range(2, 6)))
    warnings = [shown(w.value) for w in app.main.warning]
    assert any(w.startswith("a answered 4 questions and b 4; 2 were answered by both.") or
               w.startswith("b answered 4 questions and a 4; 2 were answered by both.") for w in warnings), warnings


def test_at_n1_the_difference_is_not_called_a_posterior(app):
    """Every attempt once: the empirical-Bayes prior is not identified for either model, their sds are the pooled
    binomial bounds, and the page says the interval and P(A > B) are normal approximations on them."""
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},0,{int(q < k)}" for m, k in (("a", 9), ("b", 3)) for q in range(10)]
    _compare_upload(app, "once.csv", rows)
    assert [h.value for h in app.main.header][0] == "The difference (normal approximation)"
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("Not a posterior: the empirical-Bayes prior is not identified for a and b (N = 1") for c in captions)
    verdict = [shown(s.value) for s in app.main.success]
    # symmetric sds: z = 0.6 / hypot(sqrt(0.09 / 10), sqrt(0.21 / 10)) = 3.46, P = 0.9997; with each Beta's skewed
    # spread on the side facing the other (a's below 0.9 is wider; as the CLI's compare): z = 2.92, P = 0.9982
    assert verdict[0] == "a is ahead of b with 99.8% probability (normal approximation, not a posterior).", verdict
    assert "posterior" not in app.main.metric[3].help.replace("not a posterior", "")


def test_a_pair_with_no_common_question_gets_no_question_by_question_counts(app):
    _compare_upload(app, "apart.csv", _two_models(range(4), range(4, 8)))
    infos = [shown(i.value) for i in app.main.info]
    assert any(i.startswith("a and b answered no question in common, so no question can be compared one to one") or
               i.startswith("b and a answered no question in common") for i in infos), infos
    assert [m.label for m in app.main.metric] == ["Mean A - B", "sd", "95% interval", "P(A > B)"]  # no 0 counts
    assert app.toggle(key="cmp_only_diff").disabled and len(app.main.dataframe[0].value) == 8  # each model's own 4
    # the difference only: no per-question scatter of nothing, and no trials curve (more trials of each one's own
    # questions would not compare like with like: said instead)
    assert len(chart_specs(app)) == 1
    assert any(i.startswith("Not applicable: the two models share no question") for i in infos + [
        shown(i.value) for i in app.main.info])


def test_ahead_one_sided_beside_a_central_interval_that_holds_zero_says_so(app):
    """ARC-AGI-1, o3_high vs o3_low: P(A > B) = 95.7% (ahead at 95%) while the central 95% interval of the difference
    runs from -0.01 to +0.09; the verdict says the level is one-sided and why the interval still holds 0."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.switch_page("pages/results/compare.py").run()
    app.selectbox(key="cmp_a").set_value("open_ai_o3_high_20241220").run()
    app.selectbox(key="cmp_b").set_value("open_ai_o3_low_20241220").run()
    no_exception(app)
    (ahead,) = [shown(s.value) for s in app.main.success if "is ahead of" in s.value]
    assert ahead.endswith("with 95.7% posterior probability (one-sided; the central 95% interval still holds 0, as it "
                          "leaves 2.5% on each side).") and ahead.startswith("open_ai_o3_high is ahead of")  # short names


def test_leaderboard_verdict_says_a_lead_is_one_sided(app):
    """The same pair on the Leaderboard: "ranks first at 95%" with P = 95.7%, and a caption on why Compare's central
    interval still holds 0 (helper QA: the two pages seemed to disagree)."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    no_exception(app)
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "The lead is one-sided: P(open_ai_o3_high > open_ai_o3_low) = 95.7% reaches 95%" in captions
    # the bold headline says so itself (QA F15: "first at 95% credibility" in bold, the caveat in small grey text)
    headline = next(shown(m.value) for m in app.main.markdown if m.value.startswith("**"))
    assert headline.startswith("**open_ai_o3_high ranks first at 95% credibility (one-sided; the central 95% interval "
                               "of their difference still holds 0) on "), headline
    # o3's second attempt is made only after a failed first one: the trials are not exchangeable, and the page says so
    assert any("depends on the trial's position" in shown(w.value) for w in app.main.warning)


def test_leaderboard_verdict_under_sampled_questions_uses_the_paired_ranking(app):
    """Helper QA: ARC, common questions, questions sampled, Jeffreys: the verdict said "o1_high and o1_med not
    distinguishable (P = 93.8%)" (unpaired) beside ranks 3 and 4 and a heatmap reading > .99 (paired); the headline's
    lead counted the pair's 419 questions under a table of 415; ten intervals excluded their own avg@N unsaid."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.radio(key="lb_question_set").set_value("common").run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    app.sidebar.selectbox(key="prior").set_value("jeffreys").run()
    no_exception(app)
    text = " ".join(shown(m.value) for m in app.main.markdown)
    assert "of the 415 questions both answered" in text and "419 questions both" not in text
    assert "open_ai_o1_high is ahead of open_ai_o1_med with > 99.9% posterior probability." in text
    (pull,) = [shown(w.value) for w in app.main.warning if "exclude their observed avg@N" in w.value]
    assert "the Jeffreys prior moves the mean" in pull and "Empirical Bayes (calibrated)" in pull


def test_compare_follows_the_leaderboards_question_set_and_names_non_exchangeable_trials(app):
    """Helper QA: with *Common questions only* the Leaderboard said 95.2% on 415 questions and Compare 95.1% on the
    pair's 419; Compare also said nothing of o3's retry-after-failure trials and projected the trials needed."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.radio(key="lb_question_set").set_value("common").run()
    headline = " ".join(shown(m.value) for m in app.main.markdown if "ranks first" in m.value)
    assert "95.8% posterior probability" in headline  # empirical Bayes, the 415 common questions
    app.switch_page("pages/results/compare.py").run()
    no_exception(app)
    app.selectbox(key="cmp_a").set_value("open_ai_o3_high_20241220").run()
    app.selectbox(key="cmp_b").set_value("open_ai_o3_low_20241220").run()
    no_exception(app)
    assert any("Question set: common" in shown(c.value) for c in app.main.caption)
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("depends on the trial's position" in w for w in warnings)
    assert any(w.startswith("This projection assumes exchangeable trials") for w in warnings)
    (ahead,) = [shown(s.value) for s in app.main.success if "is ahead of" in s.value]
    assert "95.8%" in ahead  # the Leaderboard's number on the 415 common questions (95.7% on the pair's 419)


def test_at_n1_the_page_uses_the_skewed_sds_of_the_cli(app, tmp_path, capsys):
    """QA (surfaces agree): at N = 1 a model's row is the exact-binomial fallback, compared with the skewed spread of
    its Beta on the side facing the other model (uncertainty.fallback.pair_sds); the CLI's compare did so, the page
    used the symmetric sd (sd 0.113 and P 99.0% against the CLI's 0.117 and 98.9% on the QA's table)."""
    import json

    from scorio_core.cli import main

    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},0,{int(q < k)}" for m, k in (("a", 26), ("b", 19)) for q in range(30)]
    _compare_upload(app, "skewed.csv", rows)
    path = tmp_path / "skewed.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["compare", str(path), "--models", "a", "b", "--output", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)["difference"]
    metrics = [m.value for m in app.main.metric]
    assert metrics[1] == f"{cli['sd']:.3f}" and metrics[2] == f"{cli['lo']:+.2f} to {cli['hi']:+.2f}", (metrics, cli)
    symmetric = float(np.hypot(np.sqrt(26 / 30 * 4 / 30 / 30), np.sqrt(19 / 30 * 11 / 30 / 30)))
    assert f"{symmetric:.3f}" != metrics[1]  # the data make the two differ at the shown precision
