"""AppTest: the Export page (downloads present and non-empty, safe content, manifest restore)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from tests.app.conftest import ROOT, no_exception, shown

EXPORT = "pages/share/export.py"
EVIL = ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "plain model"]


@pytest.fixture
def downloads(monkeypatch):
    """Capture every download's bytes (eager) or callable (deferred) by file name."""
    files: dict[str, object] = {}
    original = MemoryMediaFileStorage.load_and_get_id
    original_deferred = MediaFileManager.add_deferred

    def load(self, path_or_data, mimetype, kind, filename=None):
        if filename:
            files[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    def deferred(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        files[file_name] = data_callable
        return original_deferred(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load)
    monkeypatch.setattr(MediaFileManager, "add_deferred", deferred)
    return files


def content(files, suffix) -> bytes:
    (name,) = [n for n in files if n.endswith(suffix)]
    data = files[name]
    data = data() if callable(data) else data
    return data.encode() if isinstance(data, str) else bytes(data)


def test_downloads_present_and_non_empty(app, downloads):
    app.switch_page(EXPORT).run()
    no_exception(app)
    labels = [b.label for b in app.main.download_button]
    assert labels == ["Leaderboard CSV", "Markdown table", "LaTeX table (booktabs)", "HTML report", "Rubric JSON",
                      "Analysis manifest"]
    # the tables are built on click, as the HTML report (LaTeX of 1,000 models took 0.4 s of every visit)
    assert all(callable(downloads[n]) for n in downloads if n.endswith((".csv", ".md", ".tex", ".html")))
    rows = list(csv.DictReader(io.StringIO(content(downloads, ".csv").decode())))
    assert len(rows) == 16 and rows[0]["model"] == "o3-mini (high)"
    # a forwarded CSV still says what it ranks (QA: only its file name named the data; the rubric nowhere)
    assert {(r["dataset"], r["rubric"]) for r in rows} == {("MathArena AIME 2025 I (16 models, N=4)", "Binary correctness (2 categories, w = 0, 1)")}
    assert b"| Model" in content(downloads, ".md")
    assert b"\\toprule" in content(downloads, ".tex")
    assert json.loads(content(downloads, "rubric.json"))["name"] == "Binary correctness"
    manifest = json.loads(content(downloads, ".manifest.json"))
    assert manifest["data"]["key"] == "matharena-aime-2025-I" and len(manifest["data"]["sources"][0]["sha256"]) == 64
    html = content(downloads, ".html").decode()
    assert html.startswith("<!DOCTYPE html>") and html.count("plotly.js v") == 1 and "Plotly.newPlot" in html
    assert "Verdict" in html and "o3-mini (high)" in html
    assert any("ranks first" in m.value or "No single leader" in m.value for m in app.main.markdown)


def test_exports_follow_the_leaderboard_settings(app, downloads):
    app.selectbox(key="lb_metric").set_value("pass@k").run()
    app.number_input(key="lb_k").set_value(2).run()
    app.switch_page(EXPORT).run()
    no_exception(app)
    rows = list(csv.DictReader(io.StringIO(content(downloads, ".csv").decode())))
    assert {r["metric"] for r in rows} == {"Pass@k"}
    assert json.loads(content(downloads, ".manifest.json"))["settings"]["k"] == 2
    from tests.app.conftest import export_settings

    settings = export_settings(app)  # a Markdown table: long values wrap, never cut
    assert "covers trials" in settings["Intervals"] and "prior" in settings["Intervals"]  # the whole label, never cut
    assert settings["Metric"] == "Pass@k (k = 2)"


def test_user_text_is_never_markup(app, downloads):
    rows = ["model,question,seed,correct"] + [
        f"\"{m}\",q{q},{t},{int((q + t + i) % 3 != 0)}" for i, m in enumerate(EVIL) for q in range(5) for t in range(3)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("evil.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    for page in ("pages/data/data.py", "pages/data/rubric.py", "pages/results/leaderboard.py", "pages/results/compare.py", EXPORT):
        app.switch_page(page).run()
        no_exception(app)
        for element in list(app.main.markdown) + list(app.main.caption) + list(app.main.info) + list(app.main.success):
            assert "<script>" not in element.value  # escaped before Streamlit renders Markdown
    models = {r["model"] for r in csv.DictReader(io.StringIO(content(downloads, ".csv").decode()))}
    assert "'=cmd|' /C calc'!A0" in models  # neutralised for spreadsheets
    html = content(downloads, ".html").decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "\\u003cscript\\u003ealert" not in html  # chart labels are escaped with figures.theme.plain too


def test_manifest_restores_the_analysis_in_a_new_session(sim_app, downloads):
    at = sim_app
    at.switch_page("pages/data/rubric.py").run()
    at.selectbox(key="rubric_schema").set_value("Format Aware").run()
    ws = at.session_state["_rubric_workspace"]
    at.session_state[f"rubric_categories_{ws.version}"] = {"edited_rows": {2: {"weight": 1.5}}, "added_rows": [],
                                                           "deleted_rows": []}
    at.run()
    at.switch_page("pages/results/leaderboard.py").run()
    at.selectbox(key="lb_metric").set_value("avg").run()
    at.sidebar.select_slider(key="confidence").set_value(0.9).run()
    at.switch_page(EXPORT).run()
    no_exception(at)
    manifest = content(downloads, ".manifest.json")
    doc = json.loads(manifest)
    assert doc["rubric"]["categories"][2]["weight"] == 1.5 and doc["settings"]["confidence"] == 0.9

    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.run()
    fresh.switch_page(EXPORT).run()
    fresh.file_uploader(key="export_restore_upload").set_value(("analysis.json", manifest, "application/json")).run()
    no_exception(fresh)
    assert not fresh.main.error
    fresh.button(key="export_restore").click().run()
    no_exception(fresh)
    assert fresh.session_state["dataset"] == "paper-simulation"
    assert fresh.session_state["confidence"] == 0.9 and fresh.session_state["lb_metric"] == "avg"
    assert fresh.session_state["_rubric_workspace"].schema.weights.tolist() == [0.0, 0.0, 1.5, 2.0, 3.0]
    assert fresh.title[0].value == "Leaderboard"
    assert "Format Aware (edited)" in shown(fresh.main.caption[0].value)


def _manifest_of_an_upload(app, downloads) -> bytes:
    data = "model,question,seed,correct\n" + "\n".join(f"m{m},q{q},0,{(m + q) % 2}" for m in range(2) for q in range(3))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("mine.csv", data.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(EXPORT).run()
    return content(downloads, ".manifest.json")


def test_manifest_restores_from_the_workspace_in_a_fresh_session(app, downloads):
    manifest = _manifest_of_an_upload(app, downloads)
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)  # another session, same server workspace
    fresh.run()
    fresh.switch_page(EXPORT).run()
    fresh.file_uploader(key="export_restore_upload").set_value(("m.json", manifest, "application/json")).run()
    no_exception(fresh)
    assert not fresh.main.error
    assert not fresh.button(key="export_restore").disabled


def test_manifest_of_missing_upload_asks_for_the_files(app, downloads, tmp_path, monkeypatch):
    manifest = _manifest_of_an_upload(app, downloads)
    monkeypatch.setenv("SCORIO_WORKSPACE", str(tmp_path / "another-server"))  # the files were never saved here
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.run()
    fresh.switch_page(EXPORT).run()
    fresh.file_uploader(key="export_restore_upload").set_value(("m.json", manifest, "application/json")).run()
    no_exception(fresh)
    assert any("mine.csv" in shown(e.value) and "Upload them on the Data page" in shown(e.value) for e in fresh.main.error)
    assert fresh.button(key="export_restore").disabled


def test_invalid_manifest_is_a_clear_error(app):
    app.switch_page(EXPORT).run()
    app.file_uploader(key="export_restore_upload").set_value(("x.json", b'{"format": "nope"}', "application/json")).run()
    no_exception(app)
    assert any("not an analysis manifest" in shown(e.value) for e in app.main.error)


def test_cli_manifest_restores_in_the_app(app, capsys):
    from scorio_core.cli import main

    assert main(["export", str(ROOT / "data" / "paper_simulation.csv.gz"), "--format", "manifest",
                 "--schema", "Verifier-Only", "--metric", "bayes", "--tie-rule", "none"]) == 0
    manifest = capsys.readouterr().out.encode()
    app.switch_page(EXPORT).run()
    app.file_uploader(key="export_restore_upload").set_value(("cli.json", manifest, "application/json")).run()
    no_exception(app)
    assert not app.main.error
    app.button(key="export_restore").click().run()
    no_exception(app)
    assert app.session_state["dataset"] == "paper-simulation"  # found by SHA-256 among the bundled files
    assert app.session_state["lb_tie_rule"] == "none"
    assert app.session_state["_rubric_workspace"].schema.name == "Verifier-Only"


def test_html_report_pairs_the_heatmap_under_the_sampled_scope(app, downloads):
    app.switch_page(EXPORT).run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    no_exception(app)
    html = content(downloads, ".html").decode()
    assert "each pair paired over the questions both answered" in html


def test_manifest_carries_the_question_groups(app, downloads):
    """The Data page's "Questions grouped by" mapping travels in the manifest and comes back on restore."""
    from tests.app.test_clusters_app import CSV

    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("clustered.csv", CSV.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.main.selectbox(key="_cluster_pick").set_value("passage").run()
    app.sidebar.radio(key="scope").set_value("questions-sampled").run()
    app.switch_page(EXPORT).run()
    no_exception(app)
    manifest = content(downloads, ".manifest.json")
    assert json.loads(manifest)["settings"]["cluster_column"] == "passage"
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.run()
    fresh.switch_page(EXPORT).run()
    fresh.file_uploader(key="export_restore_upload").set_value(("m.json", manifest, "application/json")).run()
    fresh.button(key="export_restore").click().run()
    no_exception(fresh)
    assert fresh.session_state["cluster_column"] == "passage" and fresh.session_state["scope"] == "questions-sampled"
    assert "questions in 3 clusters of 'passage' (cluster-robust)" in " ".join(shown(c.value) for c in fresh.main.caption)


def test_exports_say_the_models_answered_different_questions(app, downloads):
    # "skip" did not answer q0 (the hardest): its own-questions score must not go out without saying so
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},{t},{int(q > 0 and (q + t) % 3 != 0)}" for m in ("full", "skip") for q in range(6)
             for t in range(2) if not (m == "skip" and q == 0)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("skip.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(EXPORT).run()
    no_exception(app)
    finding = ("1 of 2 models answered fewer than all 6 questions (5 answered by every model); each model is scored "
               "on its own questions, so a model that skipped hard questions can rank higher.")
    assert any(finding in w.value.replace("\\", "") for w in app.main.warning)
    assert "on the questions each model answered (5 to 6)" in " ".join(m.value for m in app.main.markdown).replace("\\", "")
    for suffix in (".md", ".html", ".tex"):
        text = " ".join(content(downloads, suffix).decode().replace("\\", "").split())
        assert finding in text, suffix


def test_exports_follow_the_sidebars_model_filter_and_say_so(app, downloads):
    """The Leaderboard shows the models the sidebar's filter keeps; the exports showed every model (the verdict
    counting them too). Now they hold the same models as the view, with a note; ranks stay those among all."""
    app.switch_page("pages/results/leaderboard.py").run()
    everyone = app.main.dataframe[0].value
    kept = everyone["model"].tolist()[3:6]
    app.sidebar.multiselect(key="models").set_value(kept).run()
    app.switch_page(EXPORT).run()
    no_exception(app)
    rows = list(csv.DictReader(io.StringIO(content(downloads, ".csv").decode())))
    assert [r["model"] for r in rows] == kept and [int(r["rank"]) for r in rows][0] > 1
    note = f"Showing 3 of {len(everyone)} models (the sidebar's model filter)"
    assert any(note in shown(w.value) for w in app.main.warning)
    assert note in content(downloads, ".md").decode().replace("\\", "")


def test_html_report_heatmap_shows_the_best_models_only_above_its_limit(app, downloads, monkeypatch):
    # 282 models: the report's 282 x 282 heatmap was 3.3 MB of an 8 MB file (helper QA); it shows the best ones
    import dashboard.share.export as export

    monkeypatch.setattr(export, "REPORT_HEATMAP_MAX", 5)
    app.switch_page(EXPORT).run()
    no_exception(app)
    html = content(downloads, ".html").decode()
    assert "The 5 models with the highest means of 16; the table has every model." in html


def test_html_report_compares_no_pair_across_unlinked_groups(app, downloads):
    """a, b answered q0-q7 and c, d q8-q15: the report's pairwise heatmap leaves the cross-group cells empty, as the
    Leaderboard's Pairwise tab does."""
    from tests.app.test_disconnected_groups_app import _disjoint

    _disjoint(app)
    app.switch_page(EXPORT).run()
    no_exception(app)
    html = content(downloads, ".html").decode()
    assert "not compared (different groups: no shared question)" in html


def test_an_unknown_table_export_is_refused():
    from dashboard.share.export import table_export

    with pytest.raises(ValueError, match="choose csv, md or latex"):
        table_export("xlsx", None, None, "t")


def test_manifest_of_an_upload_read_on_a_scale_records_the_reading(app, downloads, tmp_path, capsys):
    """An upload read with the user's outcome scale (percentages) gives a manifest whose ``data.reading`` says so,
    from the dataset kept in the workspace, so ``export --manifest`` on the same file reads it the same way with no
    option typed (before 2026-12-04 the app's manifests recorded none and the CLI refused the percentages)."""
    from scorio_core.cli import main
    from tests.app.test_upload_recoding import PERCENT

    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("pct.csv", PERCENT, "text/csv")).run()
    app.button(key="upload_load").click().run()  # refused: the form offers Outcome scale = 100
    app.button(key="upload_load").click().run()
    no_exception(app)
    assert app.session_state["dataset"].startswith("ws:")
    app.switch_page(EXPORT).run()
    no_exception(app)
    manifest = content(downloads, ".manifest.json")
    assert json.loads(manifest)["data"]["reading"] == {"outcome_scale": 100.0}
    html = content(downloads, ".html").decode()  # and the report a stakeholder reads says it in words
    assert "Files read as" in html and "outcomes divided by 100 (the outcome scale)" in html
    (tmp_path / "pct.csv").write_bytes(PERCENT)
    (tmp_path / "m.json").write_bytes(manifest)
    capsys.readouterr()
    assert main(["export", str(tmp_path / "pct.csv"), "--manifest", str(tmp_path / "m.json"), "--format", "csv"]) == 0
    out = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out.out)))
    assert {r["model"]: float(r["avg"]) for r in rows} == {"a": 0.5, "b": 0.75}
    assert "Files read as the manifest records: --outcome-scale 100." in out.err
