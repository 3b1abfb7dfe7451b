"""AppTest: a link that names the leaderboard's metric as the CLI spells it opens that metric; one it cannot read says so."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import ROOT, no_exception, shown


def _open(query: dict) -> AppTest:
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        fresh.query_params[key] = value
    return fresh.run()


def test_metric_spelled_as_the_cli_spells_it_is_read():
    app = _open({"lb_metric": "avg"})  # a script's link: ?lb_metric=avg, where the box shows "avg@N"
    no_exception(app)
    assert app.selectbox(key="lb_metric").value == "avg"
    assert not [w for w in app.warning if "link names the metric" in w.value]


def test_metric_label_still_read():
    app = _open({"lb_metric": "Pass@k"})  # what the box itself writes into the URL
    no_exception(app)
    assert app.selectbox(key="lb_metric").value == "pass@k"


def test_unknown_metric_is_named_and_the_default_shown():
    app = _open({"lb_metric": "accuracy"})
    no_exception(app)
    assert app.selectbox(key="lb_metric").value == "bayes"
    said = [shown(w.value) for w in app.warning if "link names the metric" in shown(w.value)]
    assert said and "'accuracy'" in said[0] and "avg" in said[0], [w.value for w in app.warning]
    assert "lb_metric" not in app.query_params
