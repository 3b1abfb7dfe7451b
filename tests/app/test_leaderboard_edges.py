"""AppTest: the Leaderboard at the edges of the data: one model, pairs without common questions, hundreds of models."""

from __future__ import annotations

from tests.app.conftest import no_exception, shown


def test_one_model_ranking_says_nothing_about_probabilities_or_shared_ranks(app):
    app.sidebar.selectbox(key="dataset").set_value("tau-bench-airline").run()  # one model
    no_exception(app)
    texts = " ".join(shown(m.value) for m in [*app.main.markdown, *app.main.caption])
    assert "Only one model was scored" in texts
    assert "robabilit" not in texts and "share a rank" not in texts
    assert "With one scored model there is no rank to share or compare." in texts


def test_sampled_scope_names_pairs_that_share_too_few_questions(app):
    rows = "".join(f"{m},q{q},{t},{int((q + t) % 2 == 0)}\n" for m, first in (("a", 0), ("b", 2), ("c", 4))
                   for q in range(first, first + 4) for t in range(2))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(
        ("disjoint.csv", ("model,question_id,trial,correct\n" + rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "1 of the 3 pairs of models shares fewer than 2 questions" in captions  # a and c share none


def test_hundreds_of_models_start_on_the_top_50_and_a_choice_shows_all(app):
    """105 models: the table (and the pairwise heatmap) start at the top 50, said in a caption; "all models" shows all
    105, and the user's pick is kept on other data (LiveBench's 93 models still open on all of them)."""
    text = "model,question_id,trial,is_correct\n" + "".join(
        f"m{i:03d},q{q:03d},0,{int(q <= i)}\n" for i in range(105) for q in range(110))  # m104 best, all distinct
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("many.csv", text.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    assert len(app.main.dataframe[0].value) == 50 and app.selectbox(key="lb_top").value == 50
    assert any("Showing 50 of 105 models (top 50)" in c.value for c in app.main.caption)
    app.selectbox(key="lb_top").set_value("all").run()
    assert len(app.main.dataframe[0].value) == 105
    app.sidebar.selectbox(key="dataset").set_value("matharena-aime-2025-I").run()  # the user's pick is kept
    assert app.selectbox(key="lb_top").value == "all"


def test_hundreds_of_models_on_the_tasks_page_chart_the_top_50_and_list_all(app):
    # helper QA: 300 models made the Tasks page 19,000 px (a 300-row heatmap, then a 260-row combined chart)
    text = "model,task,question_id,trial,is_correct\n" + "".join(
        f"m{i:03d},{t},q{q:02d},0,{int(q <= i % 40)}\n" for i in range(105) for t in ("a", "b") for q in range(40))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("many_tasks.csv", text.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/tasks.py").run()
    no_exception(app)
    assert app.selectbox(key="tasks_top").value == 50
    assert any("The charts show the top 50 of 105 models by combined score" in c.value for c in app.main.caption)
    assert len(app.main.dataframe[0].value) == 105  # the per-task table lists every model
    import json

    heatmap = json.loads(app.main.get("plotly_chart")[0].proto.spec)["data"][0]
    assert len(heatmap["y"]) == 50  # 50 rows, not 105
    app.selectbox(key="tasks_top").set_value("all").run()
    assert not any("The charts show the top" in c.value for c in app.main.caption)


def test_hundreds_of_models_in_rubric_sensitivity_chart_the_top_50(app):
    # a 120-model bump chart of 13 schemata is thousands of px of stacked labels; ranks stay among all models
    import pandas as pd

    from tests.app.conftest import ROOT

    df = pd.read_csv(ROOT / "data" / "paper_simulation.csv.gz")
    small = df[df["question_id"].isin(sorted(df["question_id"].unique())[:6]) & (df["trial"] < 4)]
    big = pd.concat([small.assign(model=small["model"].astype(str) + f"_r{r}") for r in range(6)])
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("big.csv", big.to_csv(index=False).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    assert app.selectbox(key="sens_top").value == 50
    assert any(c.value.startswith("The chart shows the top 50 of 120 models under") for c in app.main.caption)


def test_hundreds_of_models_on_trajectories_draw_the_top_50_by_the_gold_standard(app):
    # helper QA: 250 models drew 250 labelled lines, a chart thousands of px tall; ranks stay among all models
    import json

    text = "model,question_id,trial,is_correct\n" + "".join(
        f"m{i:03d},q{q:03d},{t},{int(q <= i - t)}\n" for i in range(105) for q in range(110) for t in range(2))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("many_trials.csv", text.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/trajectories.py").run()
    no_exception(app)
    assert app.selectbox(key="traj_top").value == 50
    assert any("The chart draws the top 50 of 105 models by the gold standard" in c.value for c in app.main.caption)
    lines = [t for t in json.loads(app.main.get("plotly_chart")[0].proto.spec)["data"] if t.get("mode") != "text"]
    names = {t.get("name") for t in lines}
    assert "m104" in names and "m000" not in names  # the best drawn, the worst not
    assert len(names - {None}) == 50
    app.selectbox(key="traj_top").set_value("all").run()
    assert not any("The chart draws the top" in c.value for c in app.main.caption)


def test_prior_pull_warning_names_only_the_models_the_filter_shows(app):
    """ARC-AGI-1 at N = 2 under Jeffreys: intervals beside avg@N. With the sidebar's model filter on, the warning names
    only models on the page and counts the others (it named a model the filter hid)."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.sidebar.selectbox(key="prior").set_value("jeffreys").run()
    no_exception(app)
    (before,) = [shown(w.value) for w in app.main.warning if "exclude" in w.value and "observed avg@N" in w.value]
    pulled = [m for m in app.main.dataframe[0].value["model"] if m in before]
    assert pulled, before
    others = [m for m in app.sidebar.multiselect(key="models").options if m not in pulled]
    app.sidebar.multiselect(key="models").set_value(others[:2]).run()
    no_exception(app)
    after = [shown(w.value) for w in app.main.warning if "observed avg@N" in w.value]
    assert len(after) == 1 and "the model filter hides" in after[0], after
    assert not any(m in after[0] for m in pulled if m not in others[:2])


def test_pooled_rates_are_headed_so(app):
    """QA: with N = 1 every value is the pooled observed rate with an exact interval (no prior fitted), but the table
    headed it "Bayes@N" where the exports say "Pooled rate"."""
    text = "model,question_id,trial,is_correct\n" + "".join(
        f"m{i},q{q:02d},0,{int((q * 7 + i) % 5 < 2 + i % 3)}\n" for i in range(5) for q in range(12))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("n1.csv", text.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    import json

    grid = next(df for df in app.main.dataframe if "mu" in df.value.columns)  # (headers: the column_config's labels)
    assert json.loads(grid.proto.columns)["mu"]["label"] == "Pooled rate"
