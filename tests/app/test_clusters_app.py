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
    assert not [w for w in app.sidebar.selectbox if w.key == "cluster_column"]  # only with questions sampled
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    box = app.sidebar.selectbox(key="cluster_column")
    assert box.options == ["none (independent questions)", "passage"]  # trial and is_correct vary within a question
    app.switch_page("pages/results/leaderboard.py").run()
    before = app.main.dataframe[0].value.set_index("model")
    app.sidebar.selectbox(key="cluster_column").set_value("passage").run()
    no_exception(app)
    after = app.main.dataframe[0].value.set_index("model")
    assert ((after["hi"] - after["lo"]) >= (before["hi"] - before["lo"]) - 1e-12).all()
    assert ((after["hi"] - after["lo"]) > (before["hi"] - before["lo"]) + 1e-6).any()
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "questions in 3 clusters of 'passage' (cluster-robust)" in captions
    app.switch_page("pages/results/compare.py").run()
    no_exception(app)
    assert any("cluster-robust standard error over their 3 clusters" in shown(c.value) for c in app.main.caption)
    app.switch_page("pages/share/export.py").run()
    no_exception(app)
