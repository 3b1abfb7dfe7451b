"""AppTest: questions grouped by a data column widen the questions-sampled intervals everywhere (issue 40)."""

from __future__ import annotations

from tests.app.conftest import no_exception, shown

CSV = "model,question_id,trial,is_correct,passage\n" + "".join(
    f"{m},q{q:02d},{t},{int((q // 4 + t + s) % 3 == 0)},p{q // 4}\n"
    for m, s in (("alpha", 0), ("beta", 1), ("gamma", 2)) for q in range(12) for t in range(4))


def test_grouping_questions_widens_and_labels_the_intervals(app):
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("clustered.csv", CSV.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    box = app.main.selectbox(key="_cluster_pick")  # the Data page maps the column that groups questions
    assert box.options == ["none (independent questions)", "passage"]  # trial and is_correct vary within a question
    assert not [c for c in app.sidebar.caption if "Data page" in shown(c.value)]  # questions fixed: no note
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    assert any("Questions count as independent" in shown(c.value) for c in app.sidebar.caption)
    app.switch_page("pages/results/leaderboard.py").run()
    before = app.main.dataframe[0].value.set_index("model")
    app.switch_page("pages/data/data.py").run()
    app.main.selectbox(key="_cluster_pick").set_value("passage").run()
    assert any("Questions grouped by **passage**" in c.value for c in app.sidebar.caption)
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    after = app.main.dataframe[0].value.set_index("model")
    assert ((after["hi"] - after["lo"]) >= (before["hi"] - before["lo"]) - 1e-4).all()  # the table rounds to 4 decimals
    assert ((after["hi"] - after["lo"]) > (before["hi"] - before["lo"]) + 1e-6).any()
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "questions in 3 clusters of 'passage' (cluster-robust)" in captions
    app.switch_page("pages/results/compare.py").run()
    no_exception(app)
    assert any("counting questions of one passage as alike" in shown(c.value) for c in app.main.caption)
    assert any("cluster-robust standard error over their 3 clusters" in shown(m.value) for m in app.main.markdown)
    app.switch_page("pages/results/tasks.py").run()
    no_exception(app)
    assert any("questions in clusters of 'passage' (cluster-robust)" in shown(c.value) for c in app.main.caption)
    app.switch_page("pages/share/export.py").run()
    no_exception(app)


def test_a_link_carries_the_grouping_and_a_bad_column_is_ignored(app):
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("clustered.csv", CSV.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.session_state["cluster_column"] = "trial"  # varies within a question: not a grouping
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    assert "cluster_column" not in app.session_state
    assert app.main.selectbox(key="_cluster_pick").value == ""
    app.session_state["cluster_column"] = "passage"  # what a share link restores
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    assert "questions in 3 clusters of 'passage' (cluster-robust)" in " ".join(shown(c.value) for c in app.main.caption)
    app.switch_page("pages/data/data.py").run()
    assert app.main.selectbox(key="_cluster_pick").value == "passage"
