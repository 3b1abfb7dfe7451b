"""AppTest: the Leaderboard's "Ranking method" choice (issue 38): another scorio.rank method beside Bayes@N."""

from __future__ import annotations

import pytest

import numpy as np

from scorio_core import io
from scorio_core.leaderboard.methods import method_agreement, method_board
from scorio_core.leaderboard.table import outcomes_for
from tests.app.conftest import ROOT, chart_specs, no_exception, shown

MATHARENA = ROOT / "data" / "matharena_aime_2025_I_counts.csv"


def test_ranking_method_shows_its_ranks_beside_bayes(app):
    app.run()
    assert app.selectbox(key="lb_method").value == "bayes"  # the default keeps the Bayes@N view
    app.selectbox(key="lb_method").set_value("inverse_difficulty").run()
    no_exception(app)
    prior = app.session_state["sidebar_prior"] if "sidebar_prior" in app.session_state else "empirical-bayes"
    report = method_agreement(outcomes_for(io.load([str(MATHARENA)])), ["inverse_difficulty", "bayes"], prior=prior)
    expected = method_board(report, "inverse_difficulty")
    table = app.main.dataframe[0].value
    assert table.columns.tolist() == ["rank", "rank interval", "model", "score", "Bayes@N rank", "change"]
    assert table["rank"].tolist() == expected["rank"].tolist()
    assert table["Bayes@N rank"].tolist() == expected["bayes_rank"].tolist()
    assert (table["change"] == table["Bayes@N rank"] - table["rank"]).all()
    # the bootstrap rank interval (200 resamples, seed 0: the Method agreement tab's)
    boot = method_agreement(outcomes_for(io.load([str(MATHARENA)])), ["inverse_difficulty", "bayes"], prior=prior,
                            n_boot=200, seed=0).bootstrap
    lo, hi = dict(zip(boot.models, boot.lo[0])), dict(zip(boot.models, boot.hi[0]))
    assert table["rank interval"].tolist() == [f"{int(lo[m])}-{int(hi[m])}" for m in expected["model"]]
    assert any(m.value.startswith("**Ranked by inverse difficulty:") for m in app.main.markdown)
    assert any("Rank interval: 95% percentile bootstrap over questions (200 resamples, seed 0)" in shown(c.value)
               for c in app.main.caption)
    (spec,) = chart_specs(app)  # the bump chart: Bayes@N rank to the method's rank, one line per model
    assert len(spec["data"]) == len(table) and list(spec["data"][0]["x"]) == ["Bayes@N", "inverse difficulty"]
    # Bradley-Terry (MAP) ranks 16 models in a few ms (scorio_core.rank.bootstrap.RESAMPLE_WHEN_SMALL): resampled too
    app.selectbox(key="lb_method").set_value("bradley_terry_map").run()
    no_exception(app)
    table = app.main.dataframe[0].value
    boot = method_agreement(outcomes_for(io.load([str(MATHARENA)])), ["bradley_terry_map", "bayes"], prior=prior,
                            n_boot=200, seed=0).bootstrap
    lo, hi = dict(zip(boot.models, boot.lo[0])), dict(zip(boot.models, boot.hi[0]))
    expected = method_board(method_agreement(outcomes_for(io.load([str(MATHARENA)])), ["bradley_terry_map", "bayes"],
                                             prior=prior), "bradley_terry_map")
    assert table["rank interval"].tolist() == [f"{int(lo[m])}-{int(hi[m])}" for m in expected["model"]]
    app.selectbox(key="lb_method").set_value("plackett_luce").run()  # too slow to resample here: it says so
    no_exception(app)
    assert "rank interval" not in app.main.dataframe[0].value.columns
    assert any("too slow to rank 200 resamples of 16 models x 15 questions here" in shown(c.value)
               and "methods --methods plackett_luce --bootstrap 200" in shown(c.value) for c in app.main.caption)
    app.selectbox(key="lb_method").set_value("bayes").run()  # back: the verdict and the interval chart
    no_exception(app)
    assert "mu" in app.main.dataframe[0].value.columns or "estimate" in app.main.dataframe[0].value.columns


def test_missing_cells_say_what_to_do_and_common_questions_rank(app):
    # ARC-AGI-1: 4 of 419 questions were not answered by every model, so no complete response tensor
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.selectbox(key="lb_method").set_value("bradley_terry").run()
    no_exception(app)
    (warning,) = [w for w in app.main.warning if "cannot rank these data as they are" in w.value]
    assert "Common questions only" in shown(warning.value) and "Bayes@N (the default) handles them" in warning.value
    app.radio(key="lb_question_set").set_value("common").run()
    no_exception(app)
    # 12 models: Bradley-Terry is quick enough to resample (the 415 common questions, 200 times)
    assert app.main.dataframe[0].value.columns.tolist() == ["rank", "rank interval", "model", "score", "Bayes@N rank",
                                                            "change"]
    assert any("4 of 419 questions left out" in shown(c.value) for c in app.main.caption)


def test_a_share_link_opens_the_method_and_the_presentation_shows_bayes(app):
    from tests.app.test_share_links import EXPORT, _open

    app.selectbox(key="lb_method").set_value("borda").run()
    app.switch_page(EXPORT).run()
    app.button(key="share_create").click().run()
    no_exception(app)
    fresh = _open({"analysis": app.session_state["share_last_id"]})
    assert fresh.selectbox(key="lb_method").value == "borda"
    assert fresh.main.dataframe[0].value.columns.tolist() == ["rank", "rank interval", "model", "score", "Bayes@N rank",
                                                              "change"]
    present = _open({"analysis": app.session_state["share_last_id"], "view": "present"})
    assert not [s for s in present.main.selectbox if s.key == "lb_method"]  # stakeholders see Bayes@N
    assert "Bayes@N" in present.main.table[0].value.columns  # the static table of the presentation (prints whole)


def test_resamples_a_method_cannot_rank_are_counted_and_said(app):
    # 4 models, 12 questions, N = 1: D beats the others on q00 only, so a resample without q00 leaves D without a
    # win and Bradley-Terry without a finite estimate
    win = {"q00": "D", "q01": "A", "q02": "B", "q03": "C", "q04": "AB", "q05": "BC", "q06": "AC"}
    csv = "model,question_id,trial,correct\n" + "".join(
        f"{m},q{i:02d},0,{int(m in win.get(f'q{i:02d}', 'ABC'))}\n" for i in range(12) for m in "ABCD")
    app.run()
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("one_win.csv", csv.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    app.selectbox(key="lb_method").set_value("bradley_terry").run()
    no_exception(app)
    assert "rank interval" in app.main.dataframe[0].value.columns
    # the resamples without q00 (question 0 of 12): the bootstrap's indices, rng.integers(0, M, (n_boot, M)), seed 0
    idx = np.random.default_rng(0).integers(0, 12, size=(200, 12))
    without = int((~(idx == 0).any(axis=1)).sum())  # 80
    (caption,) = [shown(c.value) for c in app.main.caption if "could not rank" in shown(c.value)]
    assert f"could not rank {without} of 200 resamples" in caption and f"come from the other {200 - without}" in caption
    assert "likely too narrow" in caption


def test_method_options_rank_with_them_and_travel_with_the_choice(app):
    # Bradley-Terry MAP's prior variance from the "Method options" box (the CLI's --method-option), used by the point
    # ranking and every bootstrap resample; bad text is refused with the option named; another method starts empty
    from tests.app.test_share_links import EXPORT, _open

    app.run()
    app.selectbox(key="lb_method").set_value("bradley_terry_map").run()
    box = app.text_input(key="lb_method_options")
    assert box.value in ("", None) and "prior=1" in box.placeholder and "max_iter=500" in box.placeholder
    box.set_value("prior=0.05").run()
    no_exception(app)
    outcomes = outcomes_for(io.load([str(MATHARENA)]))
    prior = app.session_state["sidebar_prior"] if "sidebar_prior" in app.session_state else "empirical-bayes"
    options = {"bradley_terry_map": {"prior": 0.05}}
    expected = method_board(method_agreement(outcomes, ["bradley_terry_map", "bayes"], prior=prior, options=options,
                                             n_boot=200, seed=0), "bradley_terry_map")
    default = method_board(method_agreement(outcomes, ["bradley_terry_map", "bayes"], prior=prior),
                           "bradley_terry_map")
    assert not np.allclose(expected["score"], default["score"])  # the option changes the scores
    table = app.main.dataframe[0].value
    np.testing.assert_allclose(table["score"], expected["score"], rtol=1e-12)
    assert table["rank interval"].tolist() == [f"{int(lo)}-{int(hi)}" for lo, hi in
                                               zip(expected["rank_lo"], expected["rank_hi"])]
    assert any("Method options: prior=0.05 (the others at their defaults)." in shown(c.value) for c in app.main.caption)
    # a share link opens the method with its options
    app.switch_page(EXPORT).run()
    app.button(key="share_create").click().run()
    fresh = _open({"analysis": app.session_state["share_last_id"]})
    assert fresh.text_input(key="lb_method_options").value == "prior=0.05"
    np.testing.assert_allclose(fresh.main.dataframe[0].value["score"], expected["score"], rtol=1e-12)
    # so does the URL (bound query parameters; the method's parameter is its label, as the browser writes it)
    linked = _open({"lb_method": "Bradley-Terry (MAP) (paired comparison)", "lb_method_options": "prior=0.05"})
    assert linked.text_input(key="lb_method_options").value == "prior=0.05"
    np.testing.assert_allclose(linked.main.dataframe[0].value["score"], expected["score"], rtol=1e-12)
    # unreadable text: a warning naming the option, no ranking shown
    app.switch_page("pages/results/leaderboard.py").run()
    app.text_input(key="lb_method_options").set_value("prior=wide").run()
    no_exception(app)
    assert any("method options cannot be read" in shown(w.value) and "prior='wide'" in shown(w.value)
               for w in app.main.warning)
    app.text_input(key="lb_method_options").set_value("K=16").run()
    assert any("has no option 'K'" in shown(w.value) and "max_iter (default 500)" in shown(w.value)
               for w in app.main.warning)
    # another method: its own (empty) options
    app.selectbox(key="lb_method").set_value("elo").run()
    no_exception(app)
    assert app.text_input(key="lb_method_options").value in ("", None)
    assert "K=32" in app.text_input(key="lb_method_options").placeholder


@pytest.mark.parametrize(("value", "chosen", "warned"), [
    ("bradley_terry_map", "bradley_terry_map", False),  # the CLI's name (--method bradley_terry_map)
    ("no_such_method", "bayes", True),  # unknown: said, and Bayes@N shown
])
def test_a_link_may_name_the_method_as_the_cli_does(value, chosen, warned):
    # helper QA: ?lb_method=bradley_terry (the CLI's name) was dropped without a word; only the box's label worked
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lb_method"] = value
    at.run()
    assert not at.exception
    assert at.selectbox(key="lb_method").value == chosen
    assert any("The link names the ranking method 'no_such_method'" in shown(w.value) for w in at.main.warning) == warned
