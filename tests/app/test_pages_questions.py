"""AppTest: the Questions page (issue 37): question diagnostics, flags, the curve, drill-down, ranks without flags."""

from __future__ import annotations

import csv
import io as textio

import numpy as np
import pytest
from scipy.special import expit

from scorio_core import io
from scorio_core.items.report import diagnose
from scorio_core.leaderboard.table import outcomes_for
from tests.app.conftest import ROOT, chart_specs, no_exception, shown
from tests.app.test_pages_export import content, downloads  # noqa: F401 (the fixture)

QUESTIONS = "pages/results/questions.py"


def _planted(n_models=12, n_questions=14, trials=4, seed=3) -> str:
    """Models of rising skill; q05 is inverted (the strongest fail it, the weakest pass it), q07 everyone solves."""
    rng = np.random.default_rng(seed)
    theta = np.linspace(-2, 2, n_models)
    b = np.linspace(-1.5, 1.5, n_questions)
    p = expit(1.5 * (theta[:, None] - b[None, :]))
    p[:, 5] = 1 - expit(3.0 * theta)
    p[:, 7] = 1.0
    rows = ["model,question_id,trial,is_correct"]
    for i in range(n_models):
        for j in range(n_questions):
            rows += [f"m{i:02d},q{j:02d},{t},{int(h)}" for t, h in enumerate(rng.random(trials) < p[i, j])]
    return "\n".join(rows) + "\n"


def _upload(app, name: str, text: str):
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value((name, text.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.switch_page(QUESTIONS).run()
    no_exception(app)
    return app


@pytest.fixture
def planted(app, tmp_path):
    text = _planted()
    path = tmp_path / "planted.csv"
    path.write_text(text)
    return _upload(app, "planted.csv", text), diagnose(outcomes_for(io.load([str(path)])))


def _texts(at, kind: str) -> str:
    return " ".join(shown(e.value) for e in getattr(at.main, kind))


def test_renders_on_the_default_counts_dataset(app):
    app.switch_page(QUESTIONS).run()
    no_exception(app)
    assert app.title[0].value == "Questions"
    table = app.main.dataframe[0].value
    assert len(table) == 15 and list(table.columns[:3]) == ["question", "flags", "reason"]
    expected = diagnose(outcomes_for(io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")])))
    np.testing.assert_allclose(table["difficulty"], expected.questions["difficulty"], rtol=0, atol=1e-12)
    assert "broken" in shown(app.main.caption[0].value) and "saturated" in shown(app.main.caption[0].value)
    # flaky alone (a model's attempts disagree) is told apart from flags on the question itself
    only_flaky = sum(set(f) == {"flaky"} for f in expected.questions["flags"])
    assert 0 < only_flaky < 15
    assert f"{only_flaky} of them flaky only" in _texts(app, "caption")
    charts = chart_specs(app)
    assert [c["data"][0]["type"] for c in charts] == ["bar", "scatter"]  # flag counts, the item curve
    assert any(t.get("name") == "models (observed rate)" for t in charts[1]["data"])
    # count data: no drill-down, and the page says why
    assert "attempt-level data" in _texts(app, "info")
    assert [e.label for e in app.main.expander if e.label != "Show as a table"] == ["Method"]  # charts' tables aside
    assert "Laplace" in _texts(app, "markdown") and "possibly_mislabeled" in _texts(app, "markdown")


def test_rasch_and_a_selected_question(app):
    app.switch_page(QUESTIONS).run()
    app.selectbox(key="q_irt").set_value("rasch").run()
    no_exception(app)
    assert (app.main.dataframe[0].value["discrimination"] == 1.0).all()
    app.selectbox(key="q_question").set_value("14").run()
    no_exception(app)
    curve = chart_specs(app)[1]
    assert "Question 14" in curve["layout"]["title"]["text"]


def test_renders_on_the_simulation_with_the_attempts(sim_app):
    sim_app.switch_page(QUESTIONS).run()
    no_exception(sim_app)
    assert len(sim_app.main.dataframe[0].value) == 30
    attempts = sim_app.main.dataframe[1].value  # the drill-down of the first question
    assert attempts["model"].nunique() == 20 and len(attempts) == 20 * 80  # every model's 80 trials
    assert "attempt-level data" not in _texts(sim_app, "info")
    metrics = {m.label: int(m.value.replace(",", "")) for m in sim_app.main.metric if m.label.startswith("Flagged")}
    only_flaky = sum(str(f) == "flaky" for f in sim_app.main.dataframe[0].value["flags"])  # shown as text
    assert only_flaky == 29 and metrics == {"Flagged": 30, "Flagged beyond flaky": 1}  # 30 questions, N = 80


def test_a_planted_mislabeled_question_is_flagged(planted):
    at, expected = planted
    table = at.main.dataframe[0].value.set_index("question")
    # readable labels on the page (QA F11: code names such as possibly_mislabeled); the CSV keeps the codes (below)
    assert "possibly mislabeled" in table.loc["q05", "flags"] and "saturated" in table.loc["q07", "flags"]
    assert not table["flags"].str.contains("_").any()
    assert table.loc["q05", "discrimination"] < 0
    want = {q: ", ".join(c.replace("_", " ") for c in f)
            for q, f in zip(expected.questions["question_id"], expected.questions["flags"])}
    assert table["flags"].to_dict() == want


def test_the_flag_filter_narrows_the_table(planted):
    at, _ = planted
    total = len(at.main.dataframe[0].value)
    at.multiselect(key="q_flags").set_value(["possibly_mislabeled"]).run()
    no_exception(at)
    narrowed = at.main.dataframe[0].value
    assert 0 < len(narrowed) < total and narrowed["flags"].str.contains("possibly mislabeled").all()
    assert at.selectbox(key="q_question").options == narrowed["question"].tolist()


def test_rank_without_flagged_questions(planted):
    at, expected = planted
    at.toggle(key="q_rank_without").set_value(True).run()
    no_exception(at)
    assert at.multiselect(key="q_exclude").value == ["possibly_mislabeled"]
    n_flagged = sum("possibly_mislabeled" in f for f in expected.questions["flags"])
    assert n_flagged >= 1
    shift = at.main.dataframe[-1].value
    assert len(shift) == 12 and {"rank_before", "rank_after", "moved", "ci_before", "ci_after"} <= set(shift.columns)
    assert f"Excluded {n_flagged:,} of 14 questions" in _texts(at, "caption")
    assert "heuristics" in _texts(at, "caption")
    at.multiselect(key="q_exclude").set_value(["possibly_mislabeled", "saturated"]).run()
    no_exception(at)
    both = sum(bool({"possibly_mislabeled", "saturated"} & set(f)) for f in expected.questions["flags"])
    assert f"Excluded {both:,} of 14 questions" in _texts(at, "caption")


def test_the_csv_download_lists_the_flagged_questions(downloads, planted):  # noqa: F811 (patch first)
    at, expected = planted
    rows = list(csv.DictReader(textio.StringIO(content(downloads, "flagged_questions.csv").decode())))
    flagged = [q for q, f in zip(expected.questions["question_id"], expected.questions["flags"]) if f]
    assert [r["question_id"] for r in rows] == flagged
    assert "possibly_mislabeled" in {r["question_id"]: r["flags"] for r in rows}["q05"].split(",")
    assert rows[0].keys() >= {"task", "difficulty", "discrimination", "reason"}


def test_one_model_says_what_it_cannot_show(app):
    text = "model,question_id,trial,is_correct\n" + "".join(
        f"solo,q{q},{t},{int((q + t) % 3 == 0)}\n" for q in range(6) for t in range(3))
    at = _upload(app, "solo.csv", text)
    info = _texts(at, "info")
    assert "needs at least two models" in info and "Rasch" in info
    shown_model = at.selectbox(key="q_irt_one")
    assert shown_model.value == "rasch" and shown_model.disabled  # the selector shows the model fitted, not 2PL
    assert not [s for s in at.selectbox if s.key == "q_irt"]
    assert len(at.main.dataframe[0].value) == 6
    at.toggle(key="q_rank_without").set_value(True).run()
    no_exception(at)


def test_every_question_flagged_says_so(app):
    text = "model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},1\n" for m in ("a", "b", "c") for q in range(4) for t in range(3))
    at = _upload(app, "all_correct.csv", text)
    assert "saturated or never solved" in _texts(at, "info")
    at.toggle(key="q_rank_without").set_value(True).run()
    at.multiselect(key="q_exclude").set_value(["saturated"]).run()
    no_exception(at)
    assert "nothing would be left to rank" in _texts(at, "info")
    assert not at.main.error


def test_models_that_share_no_question_are_warned_on_questions_and_the_ability_ranking(app):
    # a, b answered q0-q3; c, d answered q4-q7: abilities across the pairs rest on the priors alone
    rows = [f"{m},q{q},{t},{int(q in solved)}\n" for m, qs, solved in (
        ("a", range(4), {0, 1, 2}), ("b", range(4), {0}), ("c", range(4, 8), {4, 5}), ("d", range(4, 8), {4}))
        for q in qs for t in range(2)]
    at = _upload(app, "split.csv", "model,question_id,trial,is_correct\n" + "".join(rows))
    warning = [shown(w.value) for w in at.main.warning if "share no question" in w.value]
    assert warning and warning[0].startswith("The models fall into 2 groups that share no question")
    at.switch_page("pages/results/leaderboard.py").run()
    at.session_state["lb_view"] = "IRT ability"
    at.run()
    no_exception(at)
    assert any("ranks across groups are not supported" in shown(w.value) for w in at.main.warning), [
        shown(w.value) for w in at.main.warning]
    # one figure per linked group, ranks counted within it, the group a column of the table
    assert [m.value for m in at.main.markdown if m.value.startswith("**Linked group")] == [
        "**Linked group 1**", "**Linked group 2**"]
    assert len(chart_specs(at)) == 2
    table = at.main.dataframe[0].value
    assert table.columns.tolist()[:2] == ["model", "linked group"]
    assert table["linked group"].tolist() == [1, 1, 2, 2] and table["model"].tolist() == ["a", "b", "c", "d"]
    assert table["rank"].tolist() == [1, 2, 1, 2]


def test_the_reason_column_holds_its_longest_reason():
    """At 1280 px a "medium" Reason column cut "flaky: attempts disagree for 10 of 16 models" (cells do not wrap)."""
    import pandas as pd

    from dashboard.tables.items import question_display

    reason = "flaky: attempts disagree for 10 of 16 models"
    questions = pd.DataFrame({"question_id": ["q1", "q2"], "flags": [("flaky",), ()], "reason": [reason, ""],
                              **{c: [0.1, 0.2] for c in ("difficulty", "difficulty_lo", "difficulty_hi", "discrimination",
                                                         "discrimination_lo", "discrimination_hi", "information",
                                                         "success_rate")}, "n_models": [16, 16]})
    _, config = question_display(questions, confidence=0.95)
    assert config["reason"]["width"] >= 7 * len(reason) + 24
    long = question_display(questions.assign(reason=["x" * 400, ""]), confidence=0.95)[1]["reason"]["width"]
    assert long <= 560  # at most about half the page: the numbers stay in reach


def test_hashed_question_ids_are_cut_at_a_width_and_the_help_says_where_they_are_whole():
    """LiveBench's ids are 64 hex characters: as a pinned column (~500 px at 1280 px) they left the flags and reasons
    a sliver of the grid (QA 2026-12-03). Capped at sizes.ID_WIDTH_MAX; short ids keep their own width."""
    import pandas as pd

    from dashboard.tables.items import question_display
    from dashboard.tables.sizes import ID_WIDTH_MAX

    numbers = {c: [0.1, 0.2] for c in ("difficulty", "difficulty_lo", "difficulty_hi", "discrimination",
                                        "discrimination_lo", "discrimination_hi", "information", "success_rate")}
    hashed = pd.DataFrame({"question_id": ["0" * 64, "f" * 64], "flags": [(), ()], "reason": ["", ""], **numbers,
                           "n_models": [2, 2]})
    frame, config = question_display(hashed, confidence=0.95)
    assert config["question"]["width"] == ID_WIDTH_MAX == 240 and frame["question"].str.len().tolist() == [64, 64]
    assert "Long ids are cut" in config["question"]["help"]
    short = question_display(hashed.assign(question_id=["q1", "q2"]), confidence=0.95)[1]["question"]
    assert short["width"] == 80 and "Long ids" not in short["help"]  # 7.5 px x 2 + 24 < the 80 px floor
