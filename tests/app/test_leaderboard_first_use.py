"""AppTest: the Leaderboard as a first-time user reads it (QA of a new user: titles, degenerate k, model filter,
commands to copy, the estimate a warning cites, the score-vs-cost axis)."""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import chart_specs, no_exception, shown


def _config(app) -> dict:
    """The table's column config (label, hidden) by column, as the page sent it."""
    return json.loads(app.main.dataframe[0].proto.columns)


def _visible_labels(app) -> list[str]:
    frame, config = app.main.dataframe[0].value, _config(app)
    return [config[c]["label"] for c in frame.columns if c in config and not config[c].get("hidden")]


def test_avg_metric_titles_say_which_column_is_the_posterior_mean(app):
    """QA #1: under avg@N two columns were both titled "avg@N": the posterior mean 0.7983 and the observed 0.8000."""
    assert "avg@N" in _visible_labels(app)  # Bayes@N: the observed avg@N keeps its short title
    app.selectbox(key="lb_metric").set_value("avg").run()
    no_exception(app)
    labels = _visible_labels(app)
    assert len(labels) == len(set(labels)), labels
    assert "avg@N (posterior mean)" in labels and "avg@N (observed)" in labels and "avg@N" not in labels


@pytest.mark.parametrize("metric", ["mg-pass@k", "geo-spectrum*@k"])
def test_a_metric_that_is_zero_at_k_1_asks_for_k_2_instead_of_a_table_of_zeros(app, metric):
    """QA #2: at k = 1 mG-Pass@k's sum is empty: every model 0 [0, 0], all rank 1, "none credibly behind another"."""
    app.selectbox(key="lb_metric").set_value(metric).run()
    no_exception(app)
    said = " ".join(shown(w.value) for w in app.main.warning)
    assert "needs k >= 2" in said and "every model scores 0" in said and "Set k to 2 or more" in said, said
    assert not app.main.dataframe and not any("none of the" in m.value for m in app.main.markdown)
    app.number_input(key="lb_k").set_value(2).run()  # the fix the warning names; the metric is kept
    no_exception(app)
    table = app.main.dataframe[0].value
    assert app.selectbox(key="lb_metric").value == metric and len(table) == 16 and (table["mu"] > 0).any()
    assert (table["hi"] > table["lo"]).all() and not any("needs k >= 2" in w.value for w in app.main.warning)


def test_one_trial_data_says_to_choose_another_metric(app):
    app.sidebar.selectbox(key="dataset").set_value("livebench-2025-01").run()  # N = 1: k cannot reach 2
    app.selectbox(key="lb_metric").set_value("mg-pass@k").run()
    no_exception(app)
    said = " ".join(shown(w.value) for w in app.main.warning)
    assert "needs k >= 2" in said and "choose another metric" in said, said


def test_model_filter_headline_says_it_compares_the_models_shown(app):
    """QA #3: "DeepSeek-V3 ranks first at 95% credibility" beside DeepSeek-V3's rank 12 in the table."""
    app.sidebar.multiselect(key="models").set_value(["gpt-4o", "DeepSeek-V3"]).run()
    no_exception(app)
    table = app.main.dataframe[0].value
    assert set(table["model"]) == {"gpt-4o", "DeepSeek-V3"} and table["rank"].min() > 1
    (headline,) = [shown(m.value) for m in app.main.markdown if "DeepSeek-V3" in shown(m.value) and m.value.startswith("**")]
    assert headline.startswith("**Of the 2 models shown (the table's ranks are among all 16)"), headline
    app.sidebar.multiselect(key="models").set_value([]).run()  # all models: the headline as before
    assert not any("models shown" in shown(m.value) for m in app.main.markdown)


def test_commands_in_code_spans_carry_no_markdown_escapes(app):
    """QA #8: `--prior empirical\\-bayes` and `benchmarks/bench\\_calibration\\.py \\-\\-reps` to copy."""
    app.session_state["lb_view"] = "Rank distribution"
    app.session_state["lb_help"] = True
    app.run()
    no_exception(app)
    texts = [c.value for c in app.main.caption] + [m.value for m in app.main.markdown]
    assert any("`python -m scorio_core ranks DATA --prior empirical-bayes --output json`" in t for t in texts)
    (coverage,) = [t for t in texts if t.startswith("**Measured coverage**")]
    assert "`benchmarks/bench_calibration.py --reps" in coverage, coverage


def test_max_at_k_shows_the_estimate_its_warning_cites(app):
    """QA #10: the warning cites "Max@k estimate 0.800" but no column held it."""
    app.selectbox(key="lb_metric").set_value("max@k").run()
    no_exception(app)
    assert any("Max@k estimate 0.800" in shown(w.value) for w in app.main.warning)
    table, config = app.main.dataframe[0].value, _config(app)
    assert "estimate" in table.columns and not config["estimate"].get("hidden") and config["estimate"]["label"] == "Estimate"
    assert table.loc[table["model"] == "o3-mini (high)", "estimate"].round(3).tolist() == [0.8]


def test_score_vs_cost_names_the_interval_and_explains_the_marks(app):
    """QA #12: "95% CrI" on the axis, and "($0.00*)" "(N/A)" without a word on what they mean."""
    app.session_state["lb_view"] = "Score vs cost"
    app.run()
    no_exception(app)
    (spec,) = chart_specs(app)
    assert spec["layout"]["yaxis"]["title"]["text"] == ("Bayes@N (mean and 95% credible interval (exact binomial where "
                                                        "the prior is not identified))")  # (gemini-2.0-flash's)
    assert all(p.endswith(("left", "right")) for p in spec["data"][0]["textposition"])  # beside, not over the bar
    (left_out,) = [shown(c.value) for c in app.main.caption if "Left out" in c.value]
    assert "($0.00*)" in left_out and "(N/A)" in left_out and '"*" is a footnote of the source' in left_out
    assert '"N/A" means not available' in left_out
