"""AppTest: the Leaderboard page (metrics, ties, pairwise, rank distribution, cost axis, URL state)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from scorio_core.ranking.rank import pairwise_confidence
from scorio_core.uncertainty.fallback import comparison_sds
from tests.app.conftest import ROOT, array, chart_specs, no_exception, shown

MATHARENA = ROOT / "data" / "matharena_aime_2025_I_counts.csv"


def view(at, tab):
    at.session_state["lb_view"] = tab
    no_exception(at.run())


def test_metric_k_and_tie_rule(app):
    app.selectbox(key="lb_metric").set_value("pass@k").run()
    app.number_input(key="lb_k").set_value(2).run()
    app.segmented_control(key="lb_tie_rule").set_value("upper-bound").run()
    no_exception(app)
    table = app.main.dataframe[0].value
    expected = leaderboard(outcomes_for(io.load([str(MATHARENA)])), metric="pass@k", k=2, tie_rule="upper-bound")
    merged = table.merge(expected, on="model", suffixes=("", "_core"))
    assert np.allclose(merged["mu"], merged["mu_core"], atol=5e-5) and "estimate" in table.columns  # shown: 4 decimals
    assert (merged["rank_ci"] == merged["rank_ci_core"]).all()
    assert "Pass@2" in shown(app.main.caption[1].value) or "Pass@k" in chart_specs(app)[0]["layout"]["xaxis"]["title"]["text"]


def test_k_is_clamped_to_the_trials(app):
    app.selectbox(key="lb_metric").set_value("pass@k").run()
    app.number_input(key="lb_k").set_value(4).run()
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()  # N = 2 there
    no_exception(app)
    assert app.number_input(key="lb_k").value == 2


def test_pairwise_tab_matches_core(app):
    view(app, "Pairwise P(A > B)")
    (spec,) = chart_specs(app)
    heat = spec["data"][0]
    table = leaderboard(outcomes_for(io.load([str(MATHARENA)])))  # gemini-2.0-flash's exact row: its Beta's sides
    rho = pairwise_confidence(table["mu"].to_numpy(float), *comparison_sds(table, 0.95))
    assert heat["type"] == "heatmap" and list(heat["y"]) == table["model"].tolist()
    assert np.allclose(array(heat["z"]).astype(float), rho)
    assert any("normal approximation" in c.value for c in app.main.caption)


def test_sampled_scope_pairs_ties_and_pairwise_cells(app):
    from scorio_core.leaderboard.table import pairwise_for

    app.run()
    assert not any("questions sampled" in shown(c.value).lower() for c in app.main.caption)  # questions fixed
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    assert any("pairwise CI ties pair each two models over the questions both answered" in shown(c.value)
               for c in app.main.caption)
    view(app, "Pairwise P(A > B)")
    (spec,) = chart_specs(app)
    outcomes = outcomes_for(io.load([str(MATHARENA)]))
    sampled = leaderboard(outcomes, scope="questions-sampled")
    rho, paired = pairwise_for(outcomes, sampled, leaderboard(outcomes), scope="questions-sampled")
    assert paired and list(spec["data"][0]["y"]) == sampled["model"].tolist()
    assert np.allclose(array(spec["data"][0]["z"]).astype(float), rho)
    assert any("each pair's difference is paired over the questions both answered" in shown(c.value)
               for c in app.main.caption)
    # avg@N keeps each model's own interval under this scope, and the page says the ties are conservative
    view(app, "Ranking")
    app.selectbox(key="lb_metric").set_value("avg").run()
    assert any("CI ties compare each model's own interval as if independent" in shown(c.value) for c in app.main.caption)


def test_rank_distribution_tab(app):
    view(app, "Rank distribution")
    (spec,) = chart_specs(app)
    P = array(spec["data"][0]["z"]).astype(float)
    assert P.shape == (16, 16) and np.allclose(P.sum(axis=1), 1.0)
    assert any("joint draws" in c.value and "seed 0" in c.value for c in app.main.caption)
    # the same numbers from the command line (same draws and seed), and the caption says which prior they use
    import contextlib
    import io as _io
    import json

    from scorio_core.cli import main

    out = _io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["ranks", str(MATHARENA), "--output", "json"]) == 0
    report = json.loads(out.getvalue())
    order = [report["models"].index(m) for m in spec["data"][0]["y"]]
    assert np.array_equal(np.asarray(report["probabilities"])[order], P) and report["draws"] == 4000
    caption = next(shown(c.value) for c in app.main.caption if "joint draws" in c.value)
    assert "under the sidebar's prior (empirical Bayes" in caption.replace("empirical-Bayes", "empirical Bayes") \
        and "held at its fit" in caption


def test_method_agreement_tab_matches_core(app):
    from scorio_core.leaderboard.methods import method_agreement
    from scorio_core.rank.agreement import method_label
    view(app, "Method agreement")
    (spec,) = chart_specs(app)
    tau = array(spec["data"][0]["z"]).astype(float)
    expected = method_agreement(outcomes_for(io.load([str(MATHARENA)])), app.multiselect(key="lb_methods").value)
    K, names = len(expected.agreement.methods), [method_label(m) for m in expected.agreement.methods]
    assert tau.shape == (K, K) and np.allclose(tau, expected.agreement.tau_b, equal_nan=True)
    assert any(expected.agreement.summary.split(";")[0] in shown(m.value) for m in app.main.markdown)
    table = pd.concat([d.value.set_index("model") for d in app.main.dataframe], axis=1).reset_index()  # split by group
    assert len(app.main.dataframe) > 1 and len(table) == 16 and table.columns.tolist() == ["model", "best", "worst", *names]
    assert (table["best"] <= table["worst"]).all()
    app.multiselect(key="lb_methods").set_value(["bayes", "avg"]).run()
    no_exception(app)
    assert app.main.dataframe[0].value.columns.tolist() == ["model", "best", "worst", "Bayes@N", "avg@N (mean accuracy)"]
    app.multiselect(key="lb_methods").set_value(["bayes"]).run()
    assert any("at least two methods" in i.value for i in app.main.info)


def test_method_agreement_rank_intervals_toggle(app):
    from scorio_core.leaderboard.methods import method_agreement

    view(app, "Method agreement")
    app.multiselect(key="lb_methods").set_value(["bayes", "avg", "borda", "bradley_terry_map", "plackett_luce_map",
                                                     "plackett_luce"]).run()
    before = len(app.main.dataframe)
    app.toggle(key="lb_methods_boot").set_value(True).run()
    no_exception(app)
    assert len(app.main.dataframe) == before + 1
    table = app.main.dataframe[1].value  # under the ranks table
    # Bradley-Terry (MAP) and Plackett-Luce (MAP) are quick to resample at 16 models (RESAMPLE_WHEN_SMALL); the
    # Plackett-Luce MLE is not
    assert table.columns.tolist() == ["model", "Bayes@N", "avg@N (mean accuracy)", "Borda count",
                                      "Bradley-Terry (MAP)", "Plackett-Luce (MAP)"] and len(table) == 16
    boot = method_agreement(outcomes_for(io.load([str(MATHARENA)])),
                            ["bayes", "avg", "borda", "bradley_terry_map", "plackett_luce_map"], n_boot=200).bootstrap
    expected = {f"{int(boot.lo[0, i])}-{int(boot.hi[0, i])}" for i in range(16)}
    assert set(table["Bayes@N"]) == expected and all("-" in cell for cell in table["Borda count"])
    expected_bt = {f"{int(boot.lo[3, i])}-{int(boot.hi[3, i])}" for i in range(16)}
    assert set(table["Bradley-Terry (MAP)"]) == expected_bt
    assert set(table["Plackett-Luce (MAP)"]) == {f"{int(boot.lo[4, i])}-{int(boot.hi[4, i])}" for i in range(16)}
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "95% percentile bootstrap over questions (200 resamples" in captions
    assert "questions-sampled scope" in captions
    assert "Left out of the rank intervals for time (200 rankings each): Plackett-Luce. The command line" in captions


def test_irt_ability_tab_ranks_by_the_2pl_fit(app):
    from scorio_core.items.board import ability_board
    from scorio_core.items.report import diagnose

    view(app, "IRT ability")
    (spec,) = chart_specs(app)
    board = ability_board(diagnose(outcomes_for(io.load([str(MATHARENA)]))))
    xs = np.concatenate([array(t["x"]).astype(float) for t in spec["data"]])
    assert np.allclose(np.sort(xs), np.sort(board["mu"].to_numpy()))
    assert "IRT ability (2PL, logit)" in spec["layout"]["xaxis"]["title"]["text"]
    table = app.main.dataframe[0].value
    assert table["rank"].tolist() == board["rank"].tolist() and len(table) == 16
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "Laplace standard error" in captions and "different questions" in captions


def test_method_agreement_says_why_it_cannot_rank_one_model(app):
    app.sidebar.selectbox(key="dataset").set_value("tau-bench-airline").run()
    view(app, "Method agreement")
    assert any("need at least 2" in w.value for w in app.main.warning)
    view(app, "IRT ability")
    assert any("at least two models" in i.value for i in app.main.info)


def test_cost_tab_uses_reported_cost(app):
    view(app, "Score vs cost")
    (spec,) = chart_specs(app)
    trace = spec["data"][0]
    assert len(array(trace["x"])) == 14  # 16 models, two report no plain number ($0.00*, N/A)
    assert spec["layout"]["xaxis"]["type"] == "log"
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "one value per model" in captions and "$0.00*" in captions and "N/A" in captions


def test_tau_bench_cost_is_per_attempt_and_single_model_tabs(app):
    app.sidebar.selectbox(key="dataset").set_value("tau-bench-airline").run()
    view(app, "Score vs cost")
    assert "mean over each model's attempts" in " ".join(c.value for c in app.main.caption)
    view(app, "Pairwise P(A > B)")
    assert any("at least two" in i.value for i in app.main.info)


def test_url_state_reopens_the_view(app):
    at = app.__class__.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lb_metric"] = "avg@N"
    at.query_params["lb_tie_rule"] = "none"
    at.run()
    no_exception(at)
    assert at.selectbox(key="lb_metric").value == "avg"
    assert "avg@N" in chart_specs(at)[0]["layout"]["xaxis"]["title"]["text"]


def test_settings_survive_page_switch(app):
    app.selectbox(key="lb_metric").set_value("g-pass@k_tau").run()
    app.slider(key="lb_tau").set_value(0.75).run()
    app.switch_page("pages/data/data.py").run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    assert app.selectbox(key="lb_metric").value == "g-pass@k_tau" and app.slider(key="lb_tau").value == 0.75


@pytest.mark.parametrize("metric", ["bayes", "avg", "pass^k", "maj@k", "auc@k", "max@k", "geom@k"])  # mG-Pass@k: k >= 2
def test_every_metric_renders(app, metric):
    app.selectbox(key="lb_metric").set_value(metric).run()
    no_exception(app)
    assert len(app.main.dataframe[0].value) == 16
    assert isinstance(app.main.dataframe[0].value, pd.DataFrame)


def test_data_with_category_codes_only_opens_on_the_category_code_rubric(app):  # was a red error on every page
    rows = ["model,question_id,trial,category"] + [f"m{m},q{q},{t},{(m + q + t) % 3}" for m in range(2) for q in range(3)
                                                    for t in range(2)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("cats.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    for page in ("pages/results/leaderboard.py", "pages/results/compare.py", "pages/share/export.py", "pages/data/data.py", "pages/data/rubric.py"):
        app.switch_page(page).run()
        no_exception(app)
    app.switch_page("pages/results/leaderboard.py").run()
    assert not app.main.error and len(app.main.dataframe[0].value) == 2, [e.value for e in app.main.error]  # both ranked
    said = " ".join(shown(i.value) for i in app.main.info)
    assert "code / max code" in said and "is_correct" in said, said


@pytest.mark.parametrize("prior", ["empirical-bayes", "uniform", "jeffreys"])
def test_sidebar_prior_and_scope_drive_the_table(app, prior):
    app.sidebar.selectbox(key="prior").set_value(prior).run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    table = app.main.dataframe[0].value
    expected = leaderboard(outcomes_for(io.load([str(MATHARENA)])), prior=prior, scope="questions-sampled")
    merged = table.merge(expected, on="model", suffixes=("", "_core"))
    assert len(merged) == 16 and np.allclose(merged["mu"], merged["mu_core"], atol=5e-5) and np.allclose(merged["lo"], merged["lo_core"], atol=5e-5)
    assert "avg" in table.columns
    label = expected["interval"].iloc[0]
    assert "questions sampled" in label and any(label in shown(c.value) for c in app.main.caption)


def test_unequal_question_sets_notice_and_choice(app):
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    no_exception(app)
    assert any("Models answered different questions" in shown(w.value) for w in app.main.warning)
    own = app.main.dataframe[0].value
    assert own["n_questions"].nunique() > 1
    app.radio(key="lb_question_set").set_value("common").run()
    no_exception(app)
    common = app.main.dataframe[0].value
    assert common["n_questions"].nunique() == 1 and common["n_questions"].iloc[0] < own["n_questions"].max()
    app.radio(key="lb_question_set").set_value("missing-incorrect").run()
    filled = app.main.dataframe[0].value
    assert filled["n_questions"].nunique() == 1 and filled["n_questions"].iloc[0] == own["n_questions"].max()


def test_default_ranks_discriminate_and_paper_chains_are_flagged(app):
    table = app.main.dataframe[0].value
    assert table["rank_ci"].nunique() > 1  # pairwise default
    app.sidebar.selectbox(key="prior").set_value("uniform").run()
    app.segmented_control(key="lb_tie_rule").set_value("paper").run()
    no_exception(app)
    assert set(app.main.dataframe[0].value["rank_ci"]) == {1}
    assert any("chain of close neighbours" in shown(i.value) for i in app.main.info)


def test_model_skipping_the_hardest_question_each_choice(app):
    """Issue 13: one model skips the hardest question; notice, choice and the expected ranking of each choice."""
    correct = [0, 1, 2, 3, 4, 2, 2, 2, 2, 2]
    rows = [f"full,q{i},4,{c}" for i, c in enumerate(correct)] + [f"skipper,q{i},4,{c}" for i, c in enumerate(correct) if i]
    csv = "model,question_id,n_trials,n_correct\n" + "\n".join(rows) + "\n"
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("skip.csv", csv.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    assert any("Models answered different questions" in shown(w.value) and "skipper (9)" in shown(w.value)
               for w in app.main.warning)
    own = app.main.dataframe[0].value.set_index("model")
    assert own.loc["skipper", "rank"] == 1 and own.loc["full", "rank"] == 2  # skipping the hardest question pays
    for choice in ("common", "missing-incorrect"):
        app.radio(key="lb_question_set").set_value(choice).run()
        no_exception(app)
        table = app.main.dataframe[0].value.set_index("model")
        assert table.loc["skipper", "mu"] == pytest.approx(table.loc["full", "mu"], abs=1e-12)
        assert table.loc["skipper", "rank"] == table.loc["full", "rank"] == 1


def test_model_filter_narrows_every_results_page_and_survives_a_reload(app):
    # issue 16: the sidebar's model filter, kept in the URL
    full = app.main.dataframe[0].value.set_index("model")
    picked = list(full.index[[0, 3, 7]])
    app.sidebar.multiselect(key="models").set_value(picked).run()
    no_exception(app)
    table = app.main.dataframe[0].value.set_index("model")
    assert list(table.index) == picked
    assert (table["rank"] == full.loc[picked, "rank"]).all()  # ranks among every model
    assert any("Showing 3 of 16 models" in c.value for c in app.main.caption)
    app.selectbox(key="lb_top").set_value(5).run()
    assert len(app.main.dataframe[0].value) == 3  # top 5 of the 3 filtered
    app.sidebar.multiselect(key="models").set_value([]).run()
    assert list(app.main.dataframe[0].value["model"]) == list(full.index[:5])
    app.sidebar.multiselect(key="models").set_value(picked).run()
    app.switch_page("pages/results/compare.py").run()
    no_exception(app)
    assert set(app.selectbox(key="cmp_a").options) == set(picked)
    app.switch_page("pages/results/convergence.py").run()
    no_exception(app)
    assert app.multiselect(key="conv_models").value == picked or set(app.multiselect(key="conv_models").value) == set(picked)

    fresh = app.__class__.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.query_params["models"] = [picked[0], picked[1], "no-such-model"]
    fresh.run()
    no_exception(fresh)
    assert fresh.sidebar.multiselect(key="models").value == picked[:2]
    assert list(fresh.main.dataframe[0].value["model"]) == picked[:2]


def test_short_display_names_with_the_full_name_on_hover(app):
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"acme/model-{m}-20240101,q{q},{t},{(q + t + (m == 'a')) % 2}" for m in "ab" for q in range(4) for t in range(2)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("named.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    table = app.main.dataframe[0].value
    assert set(table["model"]) == {"model-a", "model-b"}
    assert any("full names are on hover" in c.value for c in app.main.caption)
    fig = chart_specs(app)[0]
    assert set(fig["layout"]["yaxis"]["categoryarray"]) == {"model-a", "model-b"}
    hover = {str(v) for trace in fig["data"] for row in trace.get("customdata", []) for v in row}
    assert {"acme/model-a-20240101", "acme/model-b-20240101"} <= hover
    app.sidebar.toggle(key="short_names").set_value(False).run()
    assert set(app.main.dataframe[0].value["model"]) == {"acme/model-a-20240101", "acme/model-b-20240101"}


def test_family_column_groups_models_in_the_sidebar_and_the_link(app):
    # issue 16: optional grouping by a family/organisation column
    rows = ["model,Family,question_id,trial,is_correct"]
    fams = {"m1": "llama", "m2": "llama", "m3": "qwen", "m4": "qwen"}
    rows += [f"{m},{f},q{q},{t},{(q + t + int(m[1])) % 2}" for m, f in fams.items() for q in range(5) for t in range(3)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("fam.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    full = app.main.dataframe[0].value.set_index("model")
    groups = app.sidebar.multiselect(key="groups")
    assert groups.options == ["llama", "qwen"] and "Family" in groups.label
    groups.set_value(["qwen"]).run()
    no_exception(app)
    table = app.main.dataframe[0].value.set_index("model")
    assert set(table.index) == {"m3", "m4"}
    assert (table["rank"] == full.loc[table.index, "rank"]).all()  # ranks among every model
    app.sidebar.multiselect(key="models").set_value(["m1", "m3"]).run()
    assert list(app.main.dataframe[0].value["model"]) == ["m3"]  # both filters apply


def test_what_these_numbers_mean_is_built_when_opened(app):
    """The help expander's coverage table is computed and drawn only once opened (first paint, issue 36)."""
    assert not any("Measured coverage" in m.value for m in app.main.markdown)
    tables = len(app.main.dataframe)
    app.session_state["lb_help"] = True
    app.run()
    no_exception(app)
    said = " ".join(m.value for m in app.main.markdown if m.value.startswith("**Measured coverage**")).replace("\\", "")
    assert "Measured at N = 1, 2, 4 and 16" in said and "0.880 (Beta(0.5,4.5), M = 30, N = 2)" in said  # the table's own
    assert said.startswith("**Measured coverage** of the 95% interval") and "Each cell is one drawn set of questions" in said
    assert len(app.main.dataframe) == tables + 1
    coverage = app.main.dataframe[-1].value
    assert {"p_alpha ~", "M", "N", "Empirical Bayes", "Uniform (paper)"} <= set(coverage.columns)
    assert coverage["Empirical Bayes"].str.fullmatch(r"[01]\.\d{3} \(\d\.\d{3}\)").all()
    app.session_state["lb_help"] = False
    app.run()
    assert len(app.main.dataframe) == tables


def test_top_n_keeps_the_models_that_share_the_last_rank(app):
    # e, f and g have the same outcomes, so the same posterior mean and rank 5: "top 5" shows all three
    solved = {"a": 6, "b": 5, "c": 4, "d": 3, "e": 2, "f": 2, "g": 2, "h": 1}
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},{t},{int(q < s)}" for m, s in solved.items() for q in range(6) for t in range(2)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("ties.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    app.selectbox(key="lb_top").set_value(5).run()
    no_exception(app)
    table = app.main.dataframe[0].value
    assert list(table["model"]) == list("abcdefg") and list(table["rank"]) == [1, 2, 3, 4, 5, 5, 5]
    assert any("Showing 7 of 8 models (top 5, and 2 more with the same rank)" in c.value for c in app.main.caption)
