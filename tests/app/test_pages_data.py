"""AppTest: the Data page (uploads, quality choices, outcome grids, filters, attempt inspector)."""

from __future__ import annotations

from dashboard.data.bundled import BUNDLED
from tests.app.conftest import array, chart_specs, no_exception, saved_key, shown

DATA, BOARD = "pages/data/data.py", "pages/results/leaderboard.py"


def upload(at, *files):
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value(list(files) if len(files) > 1 else files[0]).run()
    no_exception(at)
    at.button(key="upload_load").click().run()
    no_exception(at)


def test_counts_grid_says_trial_order_is_unknown(app):
    app.switch_page(DATA).run()
    no_exception(app)
    assert [m.value for m in app.main.metric][:3] == ["16", "1", "15"]
    (grid,) = chart_specs(app)
    heat = grid["data"][0]
    assert heat["type"] == "heatmap" and len(heat["y"]) == 16 and len(heat["x"]) == 15
    assert array(heat["text"])[0][0].endswith("/4")  # correct trials out of N = 4
    assert any("order of trials is unknown" in i.value for i in app.info)


def test_attempt_grid_inspector_and_filters(sim_app):
    at = sim_app
    at.switch_page(DATA).run()
    no_exception(at)
    rate, trials = chart_specs(at)
    assert len(rate["data"][0]["y"]) == 20 and len(rate["data"][0]["x"]) == 30
    panels = [t for t in trials["data"] if t["type"] == "heatmap"]
    assert len(panels) == 6 and array(panels[0]["z"]).shape == (30, 80)  # first six models, 80 trials each
    assert any(t.get("name") == "flaky (0 < pass rate < 1)" for t in trials["data"])
    signals = at.main.dataframe[-1].value
    assert {"has_box", "completion_bpt", "compass_context_A", "finish_reason"} <= set(signals["field"])
    at.selectbox(key="data_inspect_model").set_value("mimic-03").run()
    at.selectbox(key="data_inspect_question").set_value("q07").run()
    at.number_input(key="data_inspect_trial").set_value(5).run()
    no_exception(at)
    fields = dict(zip(*at.main.dataframe[-1].value[["field", "value"]].T.values))
    assert (fields["model"], fields["question_id"], fields["trial"]) == ("mimic-03", "q07", "4")
    at.multiselect(key="data_models").set_value(["mimic-20", "mimic-19"]).run()
    at.toggle(key="data_disagree").set_value(True).run()
    no_exception(at)
    rate, trials = chart_specs(at)
    assert len(rate["data"][0]["y"]) == 2 and 0 < len(rate["data"][0]["x"]) <= 30
    at.selectbox(key="data_order").set_value("hardest first").run()
    z = array(chart_specs(at)[0]["data"][0]["z"]).astype(float)
    assert any("Per-question results" in m.value and "· 2 of 20 models (choose others" in m.value
               for m in at.main.markdown)  # QA: "20 models" of 250 read as all of them
    mean = z.mean(axis=0)
    assert (mean[:-1] <= mean[1:] + 1e-12).all()  # hardest first: mean pass rate increases


def test_rubric_colours_the_trial_grid(sim_app):
    at = sim_app
    at.switch_page("pages/data/rubric.py").run()
    at.selectbox(key="rubric_schema").set_value("Format Aware").run()
    at.switch_page(DATA).run()
    no_exception(at)
    legend = [t["name"] for t in chart_specs(at)[1]["data"] if t.get("showlegend") and t["type"] == "scatter"]
    assert legend[-5:] == ["invalid", "wrong, unboxed", "wrong, boxed", "correct, unboxed", "correct, boxed"]
    fields = dict(zip(*at.main.dataframe[-1].value[["field", "value"]].T.values))
    assert "(weight" in fields["rubric category"]


def test_livebench_opens_with_its_bundled_choice_which_can_be_undone(app):
    """The bundled LiveBench release lists 590 (model, question) pairs twice: it opens with duplicates = keep-first,
    said on the Data page and in every results caption; "(no choice)" undoes it and the pages ask for a choice."""
    app.sidebar.selectbox(key="dataset").set_value("livebench-2025-01").run()
    app.switch_page(DATA).run()
    no_exception(app)
    infos = [shown(i.value) for i in app.main.info]
    assert any(i.startswith("The release lists 590 (model, question) pairs twice") and "duplicates = keep-first" in i
               for i in infos), infos
    assert not any("Data quality" in w.value for w in app.main.warning)
    app.switch_page(BOARD).run()
    no_exception(app)
    assert "· data-quality choices: duplicates = keep-first" in shown(app.main.caption[0].value)
    assert app.main.dataframe, "the leaderboard renders at once"
    app.switch_page(DATA).run()
    app.session_state["data_view"] = "Data quality"
    app.run()
    assert any("Applied: duplicates" in shown(s.value) for s in app.main.success)
    form_select = next(s for s in app.main.selectbox if s.label.startswith("Duplicate"))
    assert form_select.value == "keep-first"
    form_select.set_value("(no choice)")
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    assert app.session_state["_choices"]["livebench-2025-01"] == {}
    assert not any(i.value.startswith("The release lists") for i in app.main.info)  # no longer in force
    assert any("duplicate" in shown(e.value) for e in app.main.error)
    # the app names its own widget, not the Python API or the CLI flag
    texts = [shown(e.value) for e in app.main.error] + [shown(w.value) for w in app.main.warning]
    assert not any("apply_choices" in t or "--duplicates" in t for t in texts), texts
    assert any("under 'Your choices' in the Data page's Data quality tab" in t for t in texts), texts
    app.switch_page(BOARD).run()
    assert any("data-quality choice" in w.value for w in app.main.warning)
    app.switch_page(DATA).run()
    form_select = next(s for s in app.main.selectbox if s.label.startswith("Duplicate"))
    form_select.set_value("keep-last")
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Outcomes"
    app.query_params["data_view"] = "Outcomes"  # the tab is bound to the address, which the page switch carried
    app.run()
    no_exception(app)
    assert chart_specs(app), "the grids appear once the choice is made"
    assert app.session_state["_choices"]["livebench-2025-01"] == {"duplicates": "keep-last"}


def test_several_files_merge_into_one_dataset(app):
    a = "model,question,seed,correct\n" + "\n".join(f"alpha,q{q},{t},{(q + t) % 2}" for q in range(4) for t in range(3))
    b = "model,question,seed,correct\n" + "\n".join(f"beta,q{q},{t},{(q * t) % 2}" for q in range(4) for t in range(3))
    upload(app, ("a.csv", a.encode(), "text/csv"), ("b.csv", b.encode(), "text/csv"))
    assert app.session_state["dataset"] == saved_key(app, "a +1")
    assert [m.value for m in app.main.metric][0] == "2"
    app.session_state["data_view"] = "Sources"
    app.run()
    sources = next(d.value for d in app.main.dataframe if "sha256" in d.value.columns)
    assert sources["name"].tolist() == ["a.csv", "b.csv"] and sources["sha256"].str.len().eq(64).all()


def test_separate_run_files_read_as_trials(app):
    """Two files that are separate runs (each numbering its trials from 0) are refused as duplicates until the
    as-trials choice, which the Data page offers for attempt tables; then every attempt counts (N = 2)."""
    run = "model,task,question,trial,correct\n"
    a = run + "\n".join(f"{m},t,q{q},0,{(q + i) % 2}" for i, m in enumerate(("alpha", "beta")) for q in range(4))
    b = run + "\n".join(f"{m},t,q{q},0,{(q * i) % 2}" for i, m in enumerate(("alpha", "beta")) for q in range(4))
    upload(app, ("run1.csv", a.encode(), "text/csv"), ("run2.csv", b.encode(), "text/csv"))
    app.session_state["data_view"] = "Data quality"
    app.run()
    no_exception(app)
    form_select = next(s for s in app.main.selectbox if s.label.startswith("Duplicate"))
    assert "as-trials" in form_select.options and "sum" not in form_select.options
    form_select.set_value("as-trials")
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    assert app.session_state["_choices"][app.session_state["dataset"]] == {"duplicates": "as-trials"}
    assert any("Applied: duplicates" in shown(s.value) for s in app.main.success)
    app.switch_page(BOARD).run()
    no_exception(app)
    assert "duplicates = as-trials" in shown(app.main.caption[0].value)
    table = next(d.value for d in app.main.dataframe if "Model" in d.value.columns or "model" in d.value.columns)
    assert len(table) == 2


def test_an_excel_workbook_uploads(app):
    """An .xlsx of attempts uploads as its CSV would (the uploader offers .xlsx), and the Leaderboard ranks it."""
    from tests.io.test_workbooks import LONG, workbook

    upload(app, ("results.xlsx", workbook({"Sheet1": LONG}),
                 "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
    assert app.session_state["dataset"] == saved_key(app, "results")
    app.switch_page(BOARD).run()
    no_exception(app)
    table = next(d.value for d in app.main.dataframe if len(d.value) == 2)
    assert len(table) == 2


def test_bad_second_upload_keeps_first(app):
    good = "model,question,seed,correct\nm,q1,0,1\nm,q2,0,0\n"
    upload(app, ("good.csv", good.encode(), "text/csv"))
    good_key = saved_key(app, "good")
    assert app.session_state["dataset"] == good_key
    upload(app, ("broken.csv", b"model,question_id,trial,is_correct\nm1,q1,0,maybe\n", "text/csv"))
    assert any("broken.csv" in shown(e.value) for e in app.error)
    assert app.session_state["dataset"] == good_key
    assert list(app.session_state["_ws_names"].values()) == ["good"]  # nothing stored for the broken file


def test_every_bundled_dataset_renders(app):
    app.switch_page(DATA).run()
    for key in BUNDLED:
        app.sidebar.selectbox(key="dataset").set_value(key).run()
        no_exception(app)


def test_grid_click_payloads_are_parsed():
    from dashboard.panels.data import _cell

    assert _cell({"0": 0, "1": 9, "2": 43}) == (0, 9, 43)  # what the browser sends (seen in the real-browser test)
    assert _cell([2, 3, 4]) == (2, 3, 4)
    assert _cell(None) is None and _cell({"0": "x"}) is None


def test_hostile_file_name_is_shown_literally_and_deep_json_is_a_clean_error(app):
    name = "[x](javascript:alert(4)) **bold** <b>b.csv"
    upload(app, (name, b"model,question_id,is_correct\na,q1,maybe\n", "text/csv"))
    errors = [e.value for e in app.main.error]
    assert errors and all("](" not in e.replace("\\]\\(", "") and "**" not in e and "<b>" not in e for e in errors)
    assert any(name in shown(e) for e in errors)
    deep = b"[" * 200_000
    upload(app, ("deep.json", deep, "application/json"))
    errors = [shown(e.value) for e in app.main.error]
    assert errors and not any("Traceback" in e or "RecursionError" in e for e in errors)
    assert app.sidebar.selectbox(key="dataset").value == "matharena-aime-2025-I"  # the previous data is still active


def test_inspect_dump_drilldown_shows_its_text_as_plain_text(app):
    # issue 16: the loaders keep input, target, answer, extracted answer, explanation and transcript;
    # the Data page inspector and the question drill-down show them in full as plain text
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "inspect_ai"
    files = [(name, (folder / name).read_bytes(), "application/json") for name in ("data_arc_qwen.json", "data_arc_sonnet.json")]
    upload(app, *files)
    signals = app.main.dataframe[-1].value
    assert "transcript" not in set(signals["field"]) and "prompt_tokens" in set(signals["field"])
    labels = [e.label for e in app.main.expander]
    assert any(label.startswith("transcript (") for label in labels) and any(label.startswith("input (") for label in labels)
    texts = [t.value for t in app.main.text]
    assert any(t.startswith("[user]\nAnswer the following multiple choice question.") for t in texts)  # the transcript
    app.toggle(key="data_question_attempts").set_value(True).run()
    no_exception(app)
    attempts = app.main.dataframe[-1].value
    assert {"model", "trial", "is_correct", "extracted_answer", "target"} <= set(attempts.columns)
    assert "transcript" not in attempts.columns  # long text is shown below the table, not cut in a cell
    assert app.selectbox(key="data_attempt").options


def test_open_from_a_server_folder_stays_inside_it(app, tmp_path, monkeypatch):
    # issue 15: a dataset opened from a server-side path or glob, restricted to the configured roots
    import pandas as pd

    base = tmp_path / "evals"
    (base / "runs").mkdir(parents=True)
    rows = [(m, f"q{q}", t, (q + t + i) % 2) for i, m in enumerate(("alpha", "beta")) for q in range(5) for t in range(2)]
    pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"]).to_csv(base / "runs" / "r.csv", index=False)
    monkeypatch.setenv("SCORIO_DATA_ROOTS", str(base))
    app.switch_page(DATA).run()
    before = app.session_state["dataset"]
    app.text_input(key="server_pattern").set_value("../evals/runs/r.csv").run()
    app.button(key="server_open").click().run()
    no_exception(app)
    assert any("'..' is not allowed" in shown(e.value) for e in app.error)
    assert app.session_state["dataset"] == before
    app.text_input(key="server_pattern").set_value("runs/*.csv").run()
    app.button(key="server_open").click().run()
    no_exception(app)
    assert app.session_state["dataset"] == saved_key(app, "evals/runs/*.csv")
    assert [m.value for m in app.main.metric][0] == "2"  # two models


def test_a_server_folder_names_the_model(app, tmp_path, monkeypatch):
    # runs/<model>/aime.csv without a model column: the folder names the model when the user says so
    import pandas as pd

    from scorio_core.store import Workspace

    base = tmp_path / "evals"
    for i, m in enumerate(("alpha", "beta")):
        (base / "runs" / m).mkdir(parents=True)
        rows = [(f"q{q}", t, int(q <= 2 * i + 1)) for q in range(5) for t in range(2)]  # alpha 2 of 5 right, beta 4
        pd.DataFrame(rows, columns=["question_id", "trial", "is_correct"]).to_csv(base / "runs" / m / "aime.csv", index=False)
    monkeypatch.setenv("SCORIO_DATA_ROOTS", str(base))
    app.switch_page(DATA).run()
    app.text_input(key="server_pattern").set_value("runs/*/aime.csv").run()
    app.selectbox(key="server_folder_names").set_value("The model (runs/gpt-4o/aime.csv)").run()
    app.button(key="server_open").click().run()
    no_exception(app)
    key = saved_key(app, "evals/runs/*/aime.csv")
    assert app.session_state["dataset"] == key
    assert [m.value for m in app.main.metric][0] == "2"  # two models, not one named 'aime'
    record = Workspace(tmp_path / "workspace").get_dataset(key.split(":", 1)[1])
    assert [s.name for s in record.sources] == ["aime.attempts.parquet"]  # the rows, with the folders' names
    app.switch_page(BOARD).run()
    no_exception(app)
    assert set(app.main.dataframe[0].value["model"]) == {"alpha", "beta"}


def test_server_folders_are_off_without_configuration(app, monkeypatch):
    monkeypatch.delenv("SCORIO_DATA_ROOTS", raising=False)
    app.switch_page(DATA).run()
    assert any("SCORIO_DATA_ROOTS" in c.value for c in app.main.caption)
    assert not [t for t in app.text_input if t.key == "server_pattern"]


def test_large_table_upload_is_counted_by_duckdb_or_read_as_attempts(app, monkeypatch):
    # issue 15: large table uploads go through the counts engine (the user may keep the attempt rows)
    import dashboard.panels.upload as upload_panel

    monkeypatch.setattr(upload_panel, "COUNTS_THRESHOLD_BYTES", 0)
    body = "model,question,seed,correct\n" + "\n".join(f"m{m},q{q},{t},{(q + t + m) % 2}" for m in range(3) for q in range(4) for t in range(3))
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("big.csv", body.encode(), "text/csv")).run()
    (choice,) = [r for r in app.radio if r.key.startswith("upload_counts_")]
    assert choice.value is True  # counts by default above the threshold
    app.button(key="upload_load").click().run()
    no_exception(app)
    assert app.session_state["dataset"] == saved_key(app, "big")
    assert any("order of trials is unknown" in i.value for i in app.info)  # a count table: no per-trial grid
    assert [m.value for m in app.main.metric][0] == "3"

    body2 = body.replace("m0,", "z0,")
    app.file_uploader(key="data_uploader").set_value(("big2.csv", body2.encode(), "text/csv")).run()
    (choice,) = [r for r in app.radio if r.key.startswith("upload_counts_")]
    choice.set_value(False).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    assert app.session_state["dataset"] == saved_key(app, "big2")
    assert not any("order of trials is unknown" in i.value for i in app.info)  # attempts: the trial grid is there


def test_an_upload_is_named_without_its_extensions():
    """livebench.csv.gz was named 'livebench.csv' (one suffix removed); every extension goes, as for other uploads."""
    from dashboard.panels.upload import _upload_name

    assert _upload_name(["livebench_2025-01-13_N1.csv.gz"]) == "livebench_2025-01-13_N1"
    assert _upload_name(["runs.csv"]) == "runs" and _upload_name(["a.jsonl", "b.jsonl", "c.jsonl"]) == "a +2"
    assert _upload_name(["run/per_instance_stats.json", "run/stats.json"]) == "run"  # one folder's files: the folder


def test_a_new_upload_shows_all_its_models_not_the_last_datas_selection(app):
    """Engineer QA: after the demo (which has o1 (medium)), uploading o1 (medium) and another model showed 1 of the 2
    models in the grid: the selection of the previous data was kept because one name matched."""
    app.switch_page(DATA).run()
    app.multiselect(key="data_models").set_value(["o1 (medium)"]).run()  # the demo's selection, one model
    text = "model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q + t + i) % 3 == 0)}\n" for i, m in enumerate(("o1 (medium)", "newcomer"))
        for q in range(5) for t in range(2))
    upload(app, ("two.csv", text.encode(), "text/csv"))
    app.switch_page(DATA).run()
    no_exception(app)
    assert sorted(app.multiselect(key="data_models").value) == ["newcomer", "o1 (medium)"]


def test_count_table_says_why_no_quality_choice_applies(app):
    """MathArena counts: every choice is greyed out, so the page says why and "Apply choices" is disabled too; the
    saturation warning has no zero part ("1 question every model always gets wrong", not "0 ... right and 1 ...")."""
    app.switch_page(DATA).run()
    app.session_state["data_view"] = "Data quality"
    app.run()
    no_exception(app)
    warnings = [shown(w.value) for w in app.main.warning]
    assert "1 question every model always gets wrong (it does not separate models)" in warnings, warnings
    assert not any(w.startswith("0 questions") for w in warnings)
    assert next(b for b in app.main.button if b.label == "Apply choices").disabled
    assert any(shown(c.value).startswith("Not applicable to count tables") and "no attempt rows" in shown(c.value)
               for c in app.main.caption)
    form_select = next(s for s in app.main.selectbox if s.label.startswith("Duplicate"))
    assert form_select.disabled and form_select.help.startswith("Not applicable:")
