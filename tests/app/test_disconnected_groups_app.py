"""AppTest: models in two groups that share no question (QA: 250 models, llm-000..124 on A-q*, the rest on B-q*).

The Leaderboard warns that no order across the groups is supported, "Common questions only" says it is unavailable
(an old link choosing it gets an info, not an error) and Compare warns before its "ahead" sentence.
"""

from __future__ import annotations

from tests.app.conftest import no_exception, shown

GROUPS = "groups that share no question"


def _disjoint(app, boxed: bool = False):
    """Upload a, b (strong) on q0-q7 and c, d (weak) on q8-q15, 3 trials each; open the Leaderboard. ``boxed``: with a
    boxed-answer signal too (``has_box``), so the format schemata apply and can be perturbed."""
    rates = {"a": 8, "b": 5, "c": 4, "d": 1}  # out of 10
    rows = "".join(f"{m},q{q + (0 if m in 'ab' else 8)},{t},{int((q * 3 + t) % 10 < r)}"
                   + (f",{int((q + t) % 3 > 0)}" if boxed else "") + "\n"
                   for m, r in rates.items() for q in range(8) for t in range(3))
    header = "model,question_id,trial,is_correct" + (",has_box" if boxed else "") + "\n"
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("groups.csv", (header + rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)


def test_leaderboard_warns_and_common_questions_are_unavailable(app):
    _disjoint(app)
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("The models fall into 2 groups that share no question, directly or through other models" in w
               for w in warnings), warnings
    box = " ".join(shown(m.value) for m in app.main.markdown)
    assert "ranks first in its group (1 of 2)" in box and GROUPS in box
    radio = app.radio(key="lb_question_set")
    assert "unavailable" in radio.format_func("common") and "unavailable" in radio.help
    radio.set_value("common").run()  # as an old link would
    no_exception(app)
    assert not app.main.error, [e.value for e in app.main.error]
    assert any("No question was answered by every model" in i.value for i in app.main.info)
    assert any(GROUPS in shown(w.value) for w in app.main.warning)  # shown on its own questions, with the warning


def test_compare_warns_before_the_ahead_sentence_for_a_cross_group_pair(app):
    _disjoint(app)
    app.switch_page("pages/results/compare.py").run()
    app.selectbox(key="cmp_a").set_value("a").run()
    app.selectbox(key="cmp_b").set_value("c").run()
    no_exception(app)
    texts = [shown(str(getattr(n, "value", ""))) for n in app.main if type(n).__name__ in ("Warning", "Success", "Info")]
    first = next(i for i, t in enumerate(texts) if "in different groups of models that share no question" in t)
    verdicts = [i for i, t in enumerate(texts) if " is ahead of " in t or t.startswith("Not distinguishable")]
    assert not verdicts, texts  # QA: a green "a is ahead of c" stood under that warning; the Leaderboard orders neither
    (said,) = [i for i, t in enumerate(texts) if "no lead is claimed while they share no chain of questions" in t]
    assert first < said and not app.main.success, texts
    app.selectbox(key="cmp_b").set_value("b").run()  # same group: no such warning
    assert not any("different groups" in shown(w.value) for w in app.main.warning)


def test_presentation_view_shows_the_groups(app):
    _disjoint(app)
    app.radio(key="lb_question_set").set_value("common").run()  # an unavailable choice, shared: shown on own questions
    app.query_params["view"] = "present"
    app.run()
    no_exception(app)
    assert not app.main.error, [e.value for e in app.main.error]
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("The models fall into 2 groups that share no question" in w for w in warnings), warnings
    assert any("Shown: **Each on its own questions**" in w for w in warnings), warnings


def test_the_table_says_which_group_each_model_is_in(app):
    """Lead QA: the table ranked 40 models 1-40 across two groups that share no question, with no group column."""
    _disjoint(app)
    table = app.main.dataframe[0].value.set_index("model")
    assert table["group"].to_dict() == {"a": 1, "b": 1, "c": 2, "d": 2} or table["group"].to_dict() == {
        "a": 2, "b": 2, "c": 1, "d": 1}  # largest group first: here both have two models
    app.sidebar.selectbox(key="dataset").set_value("matharena-aime-2025-I").run()
    assert "group" not in app.main.dataframe[0].value.columns  # one group: no column


def test_rank_distribution_ranks_within_each_group(app):
    """QA: the Rank distribution tab gave a joint P(rank) across the two groups (c "most likely third" behind a and b,
    whose questions it never saw); now each group has its own rank 1, as the CLI's ``ranks``."""
    import numpy as np

    from tests.app.conftest import array, chart_specs

    _disjoint(app)
    app.session_state["lb_view"] = "Rank distribution"
    app.run()
    no_exception(app)
    (spec,) = chart_specs(app)
    heat = spec["data"][0]
    P = array(heat["z"]).astype(float)
    assert list(heat["y"]) == ["a", "b", "c", "d"] and P.shape == (4, 2)  # rows by group; ranks 1-2 within one
    assert np.allclose(P.sum(axis=1), 1.0) and np.allclose(P.sum(axis=0), 2.0)  # each group holds each rank once
    assert P[0, 0] > 0.5 and P[2, 0] > 0.5  # a leads group 1, c leads group 2
    assert "within the model's group" in spec["layout"]["xaxis"]["title"]["text"]
    assert any("rank r among the models of the model's own group" in shown(w.value) for w in app.main.warning)


def test_pairwise_and_table_ranks_stay_within_groups(app):
    """The table's ranks restart in each group; the pairwise heatmap compares no pair across groups."""
    import numpy as np

    from tests.app.conftest import array, chart_specs

    _disjoint(app)
    table = app.main.dataframe[0].value
    assert dict(zip(table["model"], table["rank"])) == {"a": 1, "b": 2, "c": 1, "d": 2}
    app.session_state["lb_view"] = "Pairwise P(A > B)"
    app.run()
    no_exception(app)
    (spec,) = chart_specs(app)
    z = array(spec["data"][0]["z"]).astype(float)
    names = list(spec["data"][0]["y"])
    a, c = names.index("a"), names.index("c")
    assert np.isnan(z[a, c]) and np.isnan(z[c, a]) and not np.isnan(z[a, names.index("b")])
    assert "not compared (different groups" in array(spec["data"][0]["customdata"])[a][c]
    assert any("pairs across groups that share no question are not compared" in shown(c_.value)
               for c_ in app.main.caption)


def test_sensitivity_perturbation_ranks_within_groups(app):
    _disjoint(app, boxed=True)
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("The models fall into 2 groups that share no question, so each group is ranked alone" in w
               and "c keeps its group's rank 1" in w for w in warnings), warnings
    labels = {m.label: m.value for m in app.main.metric}
    assert labels.get("Leader (unperturbed, largest group)") == "a", labels  # equal sizes: the group of the higher mean


def test_method_agreement_with_missing_counted_as_incorrect(app):
    """Own questions: the methods cannot rank models that share no question and the tab says what would; the
    leaderboard's "Missing counts as incorrect" is passed on (it was replaced by common questions, which do not exist
    here) and ranks them, saying how many cells it filled."""
    _disjoint(app)
    app.session_state["lb_view"] = "Method agreement"
    app.run()
    no_exception(app)
    assert any("Missing counts as incorrect" in shown(w.value) for w in app.main.warning)
    app.radio(key="lb_question_set").set_value("missing-incorrect").run()
    no_exception(app)
    assert not any("cannot rank these data" in shown(w.value) for w in app.main.warning)
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "missing counts as incorrect" in captions and "on 16 questions x 3 trials" in captions, captions
    assert "32 missing (model, question) cells counted as answered wrongly" in captions  # 4 models x 8 unanswered


def test_trajectories_offer_a_filter_to_models_that_share_questions(app):
    """No question is shared by all four models: the page says so and offers, in one click, a set of models that
    share questions (scorio_core.items.linking.shared_subset: a and b, on q0-q7); clicked, the sidebar's filter holds
    them and the view ranks them."""
    _disjoint(app)
    app.switch_page("pages/results/trajectories.py").run()
    no_exception(app)
    assert any("No question of this task was answered by every model shown" in i.value for i in app.main.info)
    button = app.button(key="dyn_shared")
    assert button.label == "Filter to 2 models that share 8 questions"
    button.click().run()
    no_exception(app)
    assert list(app.session_state["models"]) == ["a", "b"]
    assert any("ranks the 2 models of the sidebar's filter on the questions they share" in i.value for i in app.main.info)
    assert not any("No question of this task" in i.value for i in app.main.info)
