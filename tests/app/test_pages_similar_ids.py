"""AppTest: the Leaderboard's "Models answered different questions" notice names question ids written two ways
('01' by some runs, '1' by others) and says how to make them one, as the Data page's report does; real data with unequal sets gets no such line."""

from __future__ import annotations

from tests.app.conftest import no_exception, shown


def test_notice_names_ids_written_two_ways(app):
    rows = [f"m{m},{f'{q:02d}' if m < 2 else q},4,{(q + m) % 5}" for m in range(4) for q in range(12)]
    csv = "model,question_id,n_trials,n_correct\n" + "\n".join(rows) + "\n"
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("two_runs.csv", csv.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.session_state["data_view"] = "Data quality"  # the Data page's report says it first
    app.run()
    no_exception(app)
    assert any("10 sets of question ids differ only in letter case" in shown(i.value) for i in app.main.info)
    app.switch_page("pages/results/leaderboard.py").run()
    no_exception(app)
    (notice,) = [shown(w.value) for w in app.main.warning if "Models answered different questions" in shown(w.value)]
    assert "10 sets of question ids differ only in letter case, spaces, leading zeros" in notice
    assert "'00' and '0'; '01' and '1'; '02' and '2'; and 7 more" in notice and notice.endswith("compare them.")


def test_no_such_line_on_arc_agi(app):
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    no_exception(app)
    (notice,) = [shown(w.value) for w in app.main.warning if "Models answered different questions" in shown(w.value)]
    assert "written" not in notice and "leading zeros" not in notice
