"""AppTest: the Rubric page (schema pick, table edits, errors, JSON in/out, freeze, prior) and its reach."""

from __future__ import annotations

import pandas as pd
import pytest

from scorio_core import rubric
from scorio_core.rubric import rerank
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from tests.app.conftest import chart_specs, no_exception, saved_key, shown

RUBRIC = "pages/data/rubric.py"


def workspace(at):
    return at.session_state["_rubric_workspace"]


def editor_key(at, kind="categories"):
    return f"rubric_{kind}_{workspace(at).version}"


def edit(at, kind="categories", edited=None, added=None, deleted=None):
    at.session_state[editor_key(at, kind)] = {"edited_rows": edited or {}, "added_rows": added or [],
                                              "deleted_rows": deleted or []}
    at.run()
    no_exception(at)


def rerank_table(at) -> pd.DataFrame:
    return next(df.value for df in at.main.dataframe if "interval" in df.value.columns)


def pick(at, name):
    at.selectbox(key="rubric_schema").set_value(name).run()
    no_exception(at)


@pytest.fixture
def rubric_app(sim_app):
    sim_app.switch_page(RUBRIC).run()
    no_exception(sim_app)
    return sim_app


def test_counts_only_data_explains_and_keeps_binary(app):
    app.switch_page(RUBRIC).run()
    no_exception(app)
    assert any("counts only" in i.value for i in app.info)
    assert not app.data_editor


def test_default_is_binary_with_editor_and_rerank(rubric_app):
    at = rubric_app
    categories = at.data_editor[0].value
    assert categories["label"].tolist() == ["wrong", "correct"] and categories["weight"].tolist() == [0.0, 1.0]
    table = rerank_table(at)
    assert len(table) == 20 and table["mu"].is_monotonic_decreasing
    assert any("Binary correctness: every attempt" in c.value for c in at.main.caption)
    assert len(chart_specs(at)[0]["data"]) == 2  # one bar trace per category


def test_pick_format_aware_reranks_everywhere(rubric_app):
    at = rubric_app
    pick(at, "Format Aware")
    assert at.data_editor[0].value["label"].tolist() == ["invalid", "wrong, unboxed", "wrong, boxed",
                                                         "correct, unboxed", "correct, boxed"]
    table = rerank_table(at)
    assert table["mu"].max() > 1.0  # weights up to 3 (paper F.1)
    assert "change" in table.columns  # places gained against binary correctness
    # "vs binary" moves the rank shown beside it (QA: a model shown moving from 2nd to 1st read "=": the column showed
    # the CI-tie rank, the change was by mean)
    binary = leaderboard(outcomes_for(_dataset(), "paper-simulation")).set_index("model")["rank"]
    moved = table["rank"].astype(int) - binary.loc[table["model"]].astype(int).to_numpy()
    assert (table["change"] == ["=" if d == 0 else f"{-d:+d}" for d in moved]).all()
    assert any("credible interval" in shown(c.value) and "prior" in shown(c.value) for c in at.main.caption)
    assert [t["name"] for t in chart_specs(at)[0]["data"]][:5] == ["invalid (w = 0)", "wrong, unboxed (w = 0)",
                                                                   "wrong, boxed (w = 1)", "correct, unboxed (w = 2)",
                                                                   "correct, boxed (w = 3)"]
    at.switch_page("pages/results/leaderboard.py").run()
    no_exception(at)
    board = at.main.dataframe[0].value
    dataset = _dataset()
    expected = rerank.rubric_leaderboard(dataset, "paper-simulation", "Format Aware")[2]
    merged = board.merge(expected, on="model", suffixes=("", "_core"))
    assert (merged["mu"] - merged["mu_core"]).abs().max() <= 5e-5 + 1e-12  # the table shows 4 decimals (rounded as shown)
    assert "Format Aware" in shown(at.main.caption[0].value)


def _dataset():
    from dashboard.data.bundled import BUNDLED
    from scorio_core import io

    return io.load([str(p) for p in BUNDLED["paper-simulation"].paths])


def test_weight_edit_updates_leaderboard_live(rubric_app):
    at = rubric_app
    pick(at, "Format Aware")
    before = rerank_table(at).set_index("model")["mu"]
    edit(at, edited={2: {"weight": 2.5}})  # "wrong, boxed": 1 -> 2.5
    ws = workspace(at)
    assert ws.schema.weights.tolist() == [0.0, 0.0, 2.5, 2.0, 3.0]
    assert ws.schema.name == "Format Aware (edited)" and ws.error is None
    assert any("Edited from **Format Aware**" in c.value for c in at.main.caption)  # not the built-in's description
    after = rerank_table(at).set_index("model")["mu"].sort_index()
    before = before.sort_index()
    assert (after >= before - 1e-12).all() and (after > before).any()
    schema = rubric.get_schema("Format Aware").with_weights([0, 0, 2.5, 2, 3])
    scoped = rerank.categorize_scope(_dataset(), "paper-simulation", schema)
    core = leaderboard(outcomes_for(_dataset(), "paper-simulation", scoped.categorization)).set_index("model")["mu"]
    assert (after - core.loc[after.index]).abs().max() < 1e-12
    at.switch_page("pages/results/compare.py").run()
    no_exception(at)
    assert "Format Aware (edited)" in shown(at.main.caption[0].value)


def test_bad_condition_keeps_last_valid_schema_and_survives_page_switch(rubric_app):
    at = rubric_app
    pick(at, "Format Aware")
    before = rerank_table(at)
    edit(at, edited={4: {"condition": "correct and (boxed"}})
    errors = [e.value for e in at.main.error]
    assert any("correct" in e and "position" in e for e in errors), errors
    assert any("^" in c.value for c in at.main.code)  # caret under the position
    ws = workspace(at)
    assert ws.error is not None and ws.schema == rubric.get_schema("Format Aware")
    pd.testing.assert_frame_equal(rerank_table(at), before)  # the last valid rubric stays in force
    at.switch_page("pages/data/data.py").run()
    no_exception(at)
    at.switch_page(RUBRIC).run()
    no_exception(at)
    shown = at.data_editor[0].value
    assert shown.loc[4, "condition"] == "correct and (boxed"  # the typed text is kept
    assert at.main.error, "the error is still shown after the page switch"
    edit(at, edited={4: {"condition": "correct and boxed and has_box >= 0.5"}})
    assert workspace(at).error is None and not at.main.error


def test_unknown_signal_suggests_the_right_name(rubric_app):
    at = rubric_app
    edit(at, edited={1: {"condition": "is_corect >= 0.5"}})
    assert any("Did you mean" in e.value and "is_correct" in shown(e.value) for e in at.main.error)
    assert workspace(at).schema == rubric.get_schema("Binary correctness")


def test_add_delete_and_reorder_rows(rubric_app):
    at = rubric_app
    edit(at, added=[{"order": 0.5, "label": "verbose", "condition": "token_ratio > 0.9", "weight": 0.25}])
    ws = workspace(at)
    assert ws.schema.labels == ("verbose", "wrong", "correct")  # order 0.5 sorts first
    assert at.data_editor[0].value["order"].tolist() == [1.0, 2.0, 3.0]  # renumbered
    edit(at, deleted=[0])
    assert workspace(at).schema.labels == ("wrong", "correct")
    edit(at, edited={0: {"order": 3.0}})
    assert workspace(at).schema.labels == ("correct", "wrong")


def test_empty_label_is_an_error(rubric_app):
    at = rubric_app
    edit(at, added=[{"order": 3, "label": None, "condition": "is_correct >= 0", "weight": 1}])
    assert any("label is empty" in e.value for e in at.main.error)


def test_json_download_and_upload(rubric_app):
    at = rubric_app
    assert any(b.label == "Download JSON" for b in at.download_button)
    doc = rubric.schema_to_json(rubric.get_schema("Verifier-Only").with_weights([0, 0, 0.5, 1]))
    at.file_uploader(key="rubric_upload").set_value(("mine.json", doc.encode(), "application/json")).run()
    no_exception(at)
    assert workspace(at).schema.weights.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert at.data_editor[0].value["label"].tolist()[-1] == "verifier: correct"


def test_bad_json_upload_changes_nothing(rubric_app):
    at = rubric_app
    pick(at, "Format Aware")
    at.file_uploader(key="rubric_upload").set_value(("bad.json", b'{"format": "scorio-rubric", "version": 7}',
                                                     "application/json")).run()
    no_exception(at)
    assert any("bad.json" in shown(e.value) and "version" in e.value for e in at.main.error), [e.value for e in at.main.error]
    assert workspace(at).schema == rubric.get_schema("Format Aware")


def test_freeze_thresholds(rubric_app):
    at = rubric_app
    pick(at, "Efficiency-Adjusted")
    thresholds = next(df.value for df in at.main.dataframe if "how" in df.value.columns)
    assert {"len_p33", "len_p66"} <= set(thresholds["name"])
    at.toggle(key="rubric_freeze").set_value(True).run()
    no_exception(at)
    frozen = workspace(at).frozen
    assert frozen is not None and frozen["len_p33"] == pytest.approx(
        thresholds.set_index("name").loc["len_p33", "value"])
    at.toggle(key="rubric_freeze").set_value(False).run()
    assert workspace(at).frozen is None


def test_prior_from_another_model(rubric_app):
    at = rubric_app
    before = rerank_table(at).set_index("model")["mu"]
    at.radio(key="rubric_prior_kind").set_value("model").run()
    no_exception(at)
    at.selectbox(key="rubric_prior_model").set_value("mimic-20").run()
    no_exception(at)
    after = rerank_table(at).set_index("model")["mu"]
    assert after["mimic-01"] > before["mimic-01"]  # a strong model's 80 trials per question pull weak models up
    assert any("prior R0" in shown(c.value) and "mimic-20" in shown(c.value) for c in at.main.caption), \
        [c.value for c in at.main.caption]
    at.radio(key="rubric_prior_kind").set_value("none").run()
    pd.testing.assert_series_equal(rerank_table(at).set_index("model")["mu"].sort_index(), before.sort_index())


def test_coverage_reports_unmatched_attempts(app):
    rows = ["model,question,seed,correct,has_box"]
    rows += [f"m{m},q{q},{t},{(q + t + m) % 2},{'' if (q == 0 and t == 0) else (t % 2)}"
             for m in range(2) for q in range(3) for t in range(4)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("boxes.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.switch_page(RUBRIC).run()
    pick(app, "Format Compliance & Correctness")
    warnings = [w.value for w in app.main.warning]
    assert any("match no category" in w for w in warnings), warnings
    assert any("has_box is missing on 2" in shown(w) for w in warnings), warnings


def test_prior_from_another_dataset_reports_matches(app):
    rows = ["model,question,seed,correct"] + [f"p,q{q},{t},1" for q in range(3) for t in range(4)]
    main = ["model,question,seed,correct"] + [f"m{m},q{q},{t},{(m + q + t) % 2}" for m in range(2) for q in range(5)
                                              for t in range(4)]
    app.switch_page("pages/data/data.py").run()
    for name, text in (("prior.csv", rows), ("main.csv", main)):
        app.file_uploader(key="data_uploader").set_value((name, "\n".join(text).encode(), "text/csv")).run()
        app.button(key="upload_load").click().run()
        no_exception(app)
    assert app.session_state["dataset"] == saved_key(app, "main")
    app.switch_page(RUBRIC).run()
    before = rerank_table(app).set_index("model")["mu"]
    app.radio(key="rubric_prior_kind").set_value("dataset").run()
    app.selectbox(key="rubric_prior_dataset").set_value(saved_key(app, "prior")).run()
    no_exception(app)
    assert any("3 of 5 questions matched" in shown(c.value) for c in app.main.caption), [c.value for c in app.main.caption]
    after = rerank_table(app).set_index("model")["mu"]
    assert (after.sort_index() > before.sort_index()).all()  # an all-correct prior pulls every model up
    app.switch_page("pages/results/leaderboard.py").run()
    assert "prior R0: dataset 'prior'" in shown(app.main.caption[0].value)


def test_unmatched_attempts_are_shown_everywhere_and_the_choice_changes_m_and_n(app):
    # issue 16: 2 of 24 attempts have no has_box, so no category of the format rubric matches them
    rows = ["model,question,seed,correct,has_box"]
    rows += [f"m{m},q{q},{t},{(q + t + m) % 2},{'' if (q == 0 and t == 0) else (t % 2)}"
             for m in range(2) for q in range(3) for t in range(4)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("boxes.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(RUBRIC).run()
    pick(app, "Format Compliance & Correctness")
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    notice = [shown(w.value) for w in app.main.warning if "matched no rubric category" in w.value]
    assert notice and "2 of 24 attempts" in notice[0] and "excluded" in notice[0] and "m0 1/12" in notice[0]
    assert "Pass@k-family metrics use binary correctness" in notice[0]
    table = next(d.value for d in app.main.dataframe if "n_trials" in d.value.columns).set_index("model")
    assert table.loc["m0", "n_trials"] == "3-4" and table.loc["m0", "n_questions"] == 3  # q0 lost one attempt
    target = app.selectbox(key="rubric_unmatched").options[1].removeprefix("Category: ")  # the first category
    app.selectbox(key="rubric_unmatched").set_value(target).run()
    no_exception(app)
    notice = [shown(w.value) for w in app.main.warning if "matched no rubric category" in w.value]
    assert notice and f"count as '{target}'" in notice[0]
    table = next(d.value for d in app.main.dataframe if "n_trials" in d.value.columns).set_index("model")
    assert table.loc["m0", "n_trials"] == 4  # every attempt counted again
    for page in ("pages/results/compare.py", "pages/results/trajectories.py"):
        app.switch_page(page).run()
        no_exception(app)
        assert any("2 of 24 attempts" in shown(w.value) for w in app.main.warning), page


def test_a_reload_restores_the_last_rubric_edit(rubric_app):
    """The draft in the URL was one edit behind (autosave ran before the page committed the edit): a reload lost it."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    at = rubric_app
    pick(at, "Format Aware")
    edit(at, edited={2: {"weight": 2.5}})
    draft = at.query_params["analysis"]
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.query_params["analysis"] = draft[0] if isinstance(draft, list) else draft
    fresh.run()
    no_exception(fresh)
    assert workspace(fresh).schema.weights.tolist() == [0.0, 0.0, 2.5, 2.0, 3.0]


def test_a_negative_weight_is_said_to_make_a_score_not_a_rate(rubric_app):
    at = rubric_app
    assert not [w for w in at.main.warning if "Negative weights" in w.value]
    edit(at, edited={0: {"weight": -2.0}})  # "wrong": 0 -> -2
    assert workspace(at).schema.weights.tolist() == [-2.0, 1.0]
    (warning,) = [shown(w.value) for w in at.main.warning if "Negative weights" in w.value]
    assert "wrong (w = -2)" in warning and "between -2 and 1" in warning and "not a rate" in warning


def test_weights_can_be_edited_with_form_fields(rubric_app):
    """a11y: the data editor is a canvas grid a screen reader cannot read and the keyboard reaches only partly; the
    same weight edit through labelled number fields changes the rubric in force and the table alike."""
    at = rubric_app
    pick(at, "Format Aware")
    def field(label):
        return next(f for f in at.number_input if f.label == label)

    assert field("Weight of wrong, boxed").value == 1.0
    field("Weight of wrong, boxed").set_value(2.5).run()
    no_exception(at)
    ws = workspace(at)
    assert ws.schema.weights.tolist() == [0.0, 0.0, 2.5, 2.0, 3.0] and ws.error is None
    assert at.data_editor[0].value["weight"].tolist() == [0.0, 0.0, 2.5, 2.0, 3.0]  # the table follows
    assert field("Weight of wrong, boxed").value == 2.5
    edit(at, edited={3: {"weight": 1.5}})  # and the fields follow an edit in the table (never overwrite it)
    assert workspace(at).schema.weights.tolist() == [0.0, 0.0, 2.5, 1.5, 3.0]
    assert field("Weight of correct, unboxed").value == 1.5


def test_trajectories_with_prior_counts_from_another_model(rubric_app):
    """The dynamics take the prior counts R0 on the block's questions (dashboard.compute.dynamics: positions by dict)."""
    at = rubric_app
    at.radio(key="rubric_prior_kind").set_value("model").run()
    at.selectbox(key="rubric_prior_model").set_value("mimic-20").run()
    at.switch_page("pages/results/trajectories.py").run()
    no_exception(at)
    assert any("Prior counts R0 (Rubric page) combine with the uniform prior only" in shown(c.value)
               for c in at.main.caption), [c.value for c in at.main.caption]
