"""AppTest: the Leaderboard's "Ranking method" choice (issue 38): another scorio.rank method beside Bayes@N."""

from __future__ import annotations

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
    assert table.columns.tolist() == ["rank", "model", "score", "Bayes@N rank", "change"]
    assert table["rank"].tolist() == expected["rank"].tolist()
    assert table["Bayes@N rank"].tolist() == expected["bayes_rank"].tolist()
    assert (table["change"] == table["Bayes@N rank"] - table["rank"]).all()
    assert any(m.value.startswith("**Ranked by inverse difficulty:") for m in app.main.markdown)
    assert any("without an interval" in shown(c.value) for c in app.main.caption)
    (spec,) = chart_specs(app)  # the bump chart: Bayes@N rank to the method's rank, one line per model
    assert len(spec["data"]) == len(table) and list(spec["data"][0]["x"]) == ["Bayes@N", "inverse difficulty"]
    app.selectbox(key="lb_method").set_value("bayes").run()  # back: the verdict and the interval chart
    no_exception(app)
    assert "mu" in app.main.dataframe[0].value.columns or "estimate" in app.main.dataframe[0].value.columns


def test_a_method_that_cannot_rank_says_why_and_the_page_stays(app):
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.selectbox(key="lb_method").set_value("bradley_terry").run()
    no_exception(app)
    if app.main.warning:  # a model winning or losing every comparison: no finite estimate
        assert any("cannot rank these data" in w.value for w in app.main.warning)
    else:
        assert app.main.dataframe[0].value.columns.tolist() == ["rank", "model", "score", "Bayes@N rank", "change"]


def test_a_share_link_opens_the_method_and_the_presentation_shows_bayes(app):
    from tests.app.test_share_links import EXPORT, _open

    app.selectbox(key="lb_method").set_value("borda").run()
    app.switch_page(EXPORT).run()
    app.button(key="share_create").click().run()
    no_exception(app)
    fresh = _open({"analysis": app.session_state["share_last_id"]})
    assert fresh.selectbox(key="lb_method").value == "borda"
    assert fresh.main.dataframe[0].value.columns.tolist() == ["rank", "model", "score", "Bayes@N rank", "change"]
    present = _open({"analysis": app.session_state["share_last_id"], "view": "present"})
    assert not [s for s in present.main.selectbox if s.key == "lb_method"]  # stakeholders see Bayes@N
    assert "estimate" in present.main.dataframe[0].value.columns or "mu" in present.main.dataframe[0].value.columns
