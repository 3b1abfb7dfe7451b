"""The interval chart is built once per server for equal inputs (dashboard.panels.charts; first paint, issue 36)."""

from __future__ import annotations

import json

from dashboard.figures import interval_plot
from dashboard.panels import charts
from scorio_core import io
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from tests.app.conftest import ROOT, chart_specs, no_exception

MATHARENA = ROOT / "data" / "matharena_aime_2025_I_counts.csv"
ARGS = dict(metric_label="Bayes@N", confidence=0.95, show_estimate=True, tie_rule="pairwise")


def _table():
    return leaderboard(outcomes_for(io.load([str(MATHARENA)])))


def test_equal_inputs_share_one_figure_and_other_inputs_do_not():
    charts._interval_figure.clear()
    table = _table()
    labels = {m: m for m in table["model"]}
    args = (ARGS["metric_label"], ARGS["confidence"], ARGS["show_estimate"], labels, ARGS["tie_rule"])
    first = charts._interval_figure(table, *args)
    assert charts._interval_figure(table.copy(), *args) is first  # equal content: the same built figure
    direct = interval_plot(table, labels=labels, **ARGS)
    assert json.loads(first.to_json()) == json.loads(direct.to_json())
    renamed = dict(labels, **{table["model"].iloc[0]: "short"})
    assert charts._interval_figure(table, *args[:3], renamed, args[4]) is not first
    assert charts._interval_figure(table, "Pass@k", *args[1:]) is not first
    changed = table.assign(hi=table["hi"] + 0.01)
    assert charts._interval_figure(changed, *args) is not first


def test_new_sessions_on_the_default_view_build_the_chart_once(monkeypatch):
    """Two new sessions on the default Leaderboard: one figure built, the same chart sent to both."""
    from streamlit.testing.v1 import AppTest

    built = []
    monkeypatch.setattr(charts, "interval_plot", lambda *a, **k: built.append(1) or interval_plot(*a, **k))
    charts._interval_figure.clear()
    specs = []
    for _ in range(2):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        no_exception(at)
        specs.append(chart_specs(at)[0])
    assert len(built) == 1
    assert specs[0] == specs[1] and "Bayes@N" in specs[0]["layout"]["xaxis"]["title"]["text"]
    charts._interval_figure.clear()
