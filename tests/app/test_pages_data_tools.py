"""AppTest: evaluation tools' own files uploaded on the Data page (SWE-bench reports and per-instance reports,
promptfoo output): read as they are, their errored attempts offered as missing, what cannot be uploaded said."""

from __future__ import annotations

import json

from tests.app.conftest import no_exception, shown
from tests.app.test_pages_data import BOARD, DATA, upload


def test_swebench_reports_upload_as_runs(app):
    """SWE-bench harness reports (one per run) upload as they are: two runs of one model are its trials, the notes
    say how empty patches were counted, and the Leaderboard ranks both models."""
    from tests.io.test_swebench import CLAUDE, GPT1, GPT2

    upload(app, *[(name, data, "application/json") for name, data in (GPT1, GPT2, CLAUDE)])
    app.session_state["data_view"] = "Data quality"
    app.run()
    no_exception(app)
    texts = " ".join(shown(x.value) for x in [*app.main.markdown, *app.main.caption, *app.main.info])
    assert "empty patch counted as unresolved" in texts
    app.switch_page(BOARD).run()
    no_exception(app)
    table = next(d.value for d in app.main.dataframe if len(d.value) == 2)
    assert len(table) == 2


def test_swebench_error_ids_can_be_read_as_missing(app):
    """The upload form offers the report's error_ids as missing outcomes (the CLI's --errors-as-missing): ticked, the
    errored instance has no outcome and the Data page asks for the missing-outcomes choice."""
    from tests.io.test_swebench import GPT1

    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value((GPT1[0], GPT1[1], "application/json")).run()
    no_exception(app)
    box = next(c for c in app.main.checkbox if c.label == "Read instances in error_ids as missing")
    box.check().run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Data quality"
    app.run()
    texts = " ".join(shown(x.value) for x in [*app.main.markdown, *app.main.caption, *app.main.info, *app.main.error,
                                               *app.main.warning])
    assert "1 instance in error_ids (no test report: a harness or environment failure) read as missing" in texts
    assert "1 attempt has no outcome" in texts


def test_promptfoo_output_uploads_and_its_errors_can_be_read_as_missing(app):
    """promptfoo output uploads as it is (providers as models), and the upload form offers its errored results as
    missing outcomes (the CLI's --errors-as-missing)."""
    from tests.io.test_promptfoo import GPT, ONE, output

    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("results.json", output(ONE, error_at=(GPT, 0, 0)),
                                                      "application/json")).run()
    no_exception(app)
    next(c for c in app.main.checkbox if c.label == "Read errored results as missing").check().run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Data quality"
    app.run()
    texts = " ".join(shown(x.value) for x in [*app.main.markdown, *app.main.caption, *app.main.info, *app.main.error,
                                               *app.main.warning])
    assert "1 result errored" in texts and "read as missing outcomes" in texts
    assert "1 attempt has no outcome" in texts


def test_a_swebench_instance_report_upload_is_refused_with_the_way_to_load_it(app):
    """An uploaded per-instance report.json has no folder to name its model: the page says how to load it and keeps
    running."""
    from tests.io.test_swebench_instances import entry

    app.switch_page(DATA).run()
    doc = json.dumps({"django__django-11099": entry(True)}).encode()
    app.file_uploader(key="data_uploader").set_value(("report.json", doc, "application/json")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    errors = " ".join(shown(e.value) for e in app.main.error)
    assert "names its instance but not its model" in errors and "Open from the server" in errors


def _upload_folder(app, top) -> None:
    """Upload every file below ``top`` as the browser sends a folder (each name its path inside the chosen folder),
    load it, and open the Leaderboard."""
    files = [(p.relative_to(top.parent).as_posix(), p.read_bytes(), "application/octet-stream")
             for p in sorted(top.rglob("*")) if p.is_file()]
    app.switch_page(DATA).run()
    app.file_uploader(key="folder_uploader").set_value(files).run()
    app.button(key="folder_upload_load").click().run()
    no_exception(app)
    assert not app.main.error
    app.switch_page(BOARD).run()
    no_exception(app)


def test_a_folder_upload_reads_swebench_logs_and_aider_runs_as_on_disk(app, tmp_path):
    """Upload a folder: SWE-bench's per-instance reports and aider's run folders, which single-file uploads refuse,
    load with their folders naming the models; the Leaderboard ranks them."""
    from tests.io.test_aider import result, write_run as aider_run
    from tests.io.test_swebench_instances import IDS, write_run

    write_run(tmp_path / "evals", "r1", "gpt-4o", {IDS[0]: entry_of(True), IDS[1]: entry_of(False)})
    write_run(tmp_path / "evals", "r1", "claude", {IDS[0]: entry_of(False), IDS[1]: entry_of(True)})
    _upload_folder(app, tmp_path / "evals")
    table = next(d.value for d in app.main.dataframe if len(d.value) == 2)
    assert len(table) == 2
    aider_run(tmp_path / "tmp.benchmarks", "2024-12-21--gpt4o", {("python", "grep"): result("grep", [True]),
                                                                 ("javascript", "react"): result("react", [False])})
    _upload_folder(app, tmp_path / "tmp.benchmarks")
    assert any("gpt-4o (diff)" in d.value.to_string() for d in app.main.dataframe)


def test_a_folder_upload_with_an_unsafe_path_is_refused(app):
    """A path the browser gave with '..' is refused by name; nothing is written outside the temporary folder and the
    page keeps running."""
    app.switch_page(DATA).run()
    app.file_uploader(key="folder_uploader").set_value([("evals/../../x.csv", b"question,correct\nq,1\n", "text/csv")]).run()
    app.button(key="folder_upload_load").click().run()
    no_exception(app)
    assert "not a plain path inside the folder" in " ".join(shown(e.value) for e in app.main.error)


def entry_of(resolved: bool) -> dict:
    from tests.io.test_swebench_instances import entry

    return entry(resolved)


def test_tau_bench_results_upload_and_their_errors_can_be_read_as_missing(app):
    """tau-bench results upload as they are (the model from the file name), and the upload form offers simulations
    that raised as missing outcomes (the CLI's --errors-as-missing)."""
    from tests.io.test_tau_bench import NAME, RECORDS, dump

    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value((NAME.format(model="gpt-4o"), dump(RECORDS), "application/json")).run()
    no_exception(app)
    next(c for c in app.main.checkbox if c.label == "Read simulations that raised an error as missing").check().run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Data quality"
    app.run()
    texts = " ".join(shown(x.value) for x in [*app.main.markdown, *app.main.caption, *app.main.info, *app.main.error,
                                               *app.main.warning])
    assert "1 simulation raised an error (info.error) read as missing outcomes" in texts
    assert "1 attempt has no outcome" in texts


def test_a_harbor_trial_upload_and_its_error_can_be_read_as_missing(app):
    """A Harbor trial's result.json names its model, so it uploads alone; the form offers a trial that raised before
    its verifier ran as a missing outcome (the CLI's --errors-as-missing)."""
    import json

    from tests.io.test_harbor import TIMEOUT, trial

    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(
        ("result.json", json.dumps(trial("fix-git", None, exception=TIMEOUT)).encode(), "application/json")).run()
    no_exception(app)
    next(c for c in app.main.checkbox if c.label == "Read trials that raised before they were scored as missing"
         ).check().run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Data quality"
    app.run()
    texts = " ".join(shown(x.value) for x in [*app.main.markdown, *app.main.caption, *app.main.info, *app.main.error,
                                               *app.main.warning])
    assert "1 trial raised before the verifier scored it (AgentTimeoutError 1) read as missing outcomes" in texts


def test_an_archive_uploaded_in_the_app_loads_as_its_folder(app, tmp_path):
    """The Data page's upload form: one archive shows what it is read as and a Load button; the Leaderboard then
    ranks the models its folders name."""
    from tests.io.test_archives import _members, _zip
    from tests.io.test_nemo_skills import OUTCOMES, write_output_dir

    base = write_output_dir(tmp_path / "outputs")
    data = _zip(_members(base, base.parent))
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("runs.zip", data, "application/zip")).run()
    no_exception(app)
    # the name in bold, escaped (Markdown in a file name is shown as text); the rest of the line is the app's Markdown
    assert any(i.value.startswith("**runs\\.zip** is an archive") and "*Upload a folder*" in i.value
               for i in app.main.info)
    app.button(key="archive_load").click().run()
    no_exception(app)
    assert not app.main.error
    app.switch_page(BOARD).run()
    no_exception(app)
    assert any(set(OUTCOMES) <= set(d.value.to_string().split()) for d in app.main.dataframe)
