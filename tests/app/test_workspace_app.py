"""AppTest: uploads are saved in the workspace and survive a reload or another session (issue 14)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import ROOT, no_exception, saved_key, shown

DATA = "pages/data/data.py"
CSV = "model,question,seed,correct\n" + "\n".join(
    f"{m},q{q},{t},{int((q + t + len(m)) % 3 == 0)}" for m in ("alpha", "beta") for q in range(5) for t in range(4)
)


def _upload(at, name: str, data: str):
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value((name, data.encode(), "text/csv")).run()
    at.button(key="upload_load").click().run()
    no_exception(at)


def _reload(url_dataset: str | None = None) -> AppTest:
    """A new browser session (what a reload or a colleague's click is), optionally with ?dataset=..."""
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    if url_dataset is not None:
        fresh.query_params["dataset"] = url_dataset
    fresh.run()
    no_exception(fresh)
    return fresh


def test_an_upload_survives_a_reload_and_is_listed(app):
    _upload(app, "mine.csv", CSV)
    key = saved_key(app, "mine")
    fresh = _reload("Uploaded: mine")  # the URL the bound sidebar widget writes
    assert fresh.session_state["dataset"] == key
    assert fresh.sidebar.selectbox(key="dataset").value == key
    fresh.switch_page(DATA).run()
    listing = next(d.value for d in fresh.main.dataframe if "questions" in d.value.columns and "size" in d.value.columns)
    row = listing.set_index("name").loc["mine"]
    assert (row["models"], row["questions"], row["trials"], row["sources"]) == (2, 5, 4, "mine.csv")


def test_the_same_upload_twice_is_stored_once(app):
    _upload(app, "mine.csv", CSV)
    _upload(app, "mine.csv", CSV)
    assert list(app.session_state["_ws_names"].values()) == ["mine"]


def test_a_link_to_a_missing_dataset_says_so():
    fresh = _reload("Uploaded: gone")
    assert any("gone" in shown(w.value) and "not available here" in shown(w.value) for w in fresh.sidebar.warning)
    assert not fresh.session_state["dataset"].startswith("ws:")  # the demo data, said out loud


def test_rename_and_delete(app):
    _upload(app, "mine.csv", CSV)
    key = saved_key(app, "mine")
    app.switch_page(DATA).run()
    app.text_input(key="ws_new_name").set_value("renamed").run()
    app.button(key="ws_rename").click().run()
    no_exception(app)
    fresh = _reload()
    assert saved_key(fresh, "renamed") == key
    app.checkbox(key="ws_confirm_delete").check().run()
    app.button(key="ws_delete").click().run()
    no_exception(app)
    assert not app.session_state["dataset"].startswith("ws:")  # back on the demo data
    fresh = _reload("Uploaded: renamed")
    assert any("not available here" in shown(w.value) for w in fresh.sidebar.warning)


def test_an_unwritable_workspace_keeps_uploads_in_the_session(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("SCORIO_WORKSPACE", str(blocker / "workspace"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    _upload(at, "mine.csv", CSV)
    assert at.session_state["dataset"] == "upload:mine"  # still loaded, for this session
    at.switch_page(DATA).run()
    assert any("workspace cannot be opened" in shown(w.value) for w in at.main.warning)


def test_two_saved_datasets_with_one_name_get_distinct_labels(app):
    _upload(app, "mine.csv", CSV)
    _upload(app, "mine.csv", CSV.replace("alpha", "gamma"))
    keys = ["ws:" + i for i, n in app.session_state["_ws_names"].items() if n == "mine"]
    from dashboard.state.session import dataset_label

    labels = {dataset_label(k) for k in keys}
    assert len(keys) == 2 and len(labels) == 2 and all(label.startswith("Uploaded: mine (#") for label in labels)
    # a link by the bare name (written while one "mine" existed) is ambiguous now: said, not "deleted or never saved"
    fresh = _reload("Uploaded: mine")
    (warning,) = [shown(w.value) for w in fresh.sidebar.warning]
    assert "2 saved datasets are called" in warning and "Uploaded: mine (#" in warning


def test_delete_starts_on_the_dataset_in_use_and_names_it(app):
    """Two saved datasets, the older one in use: the Data page's Delete acts on the dataset in use (before: on the
    newest saved, e.g. a colleague's latest upload, with an unnamed 'Confirm delete')."""
    _upload(app, "first.csv", CSV)
    first = saved_key(app, "first")
    _upload(app, "second.csv", CSV.replace("alpha", "gamma"))
    assert saved_key(app, "second") != first
    app.sidebar.selectbox(key="dataset").set_value(first).run()
    app.switch_page(DATA).run()
    no_exception(app)
    assert app.selectbox(key="ws_pick").value == first.removeprefix("ws:")
    assert shown(app.checkbox(key="ws_confirm_delete").label).startswith("Confirm delete of first")


def test_a_deleted_dataset_is_restored_from_recently_deleted(app):
    """Soft delete: the Data page says a delete can be undone, lists it under Recently deleted, and Restore brings
    the same dataset (same id, so links work again) back into the list."""
    _upload(app, "mine.csv", CSV)
    key = saved_key(app, "mine")
    app.switch_page(DATA).run()
    assert any("can be restored under Recently deleted" in shown(c.value) for c in app.main.caption)
    assert "Recently deleted (0)" in [e.label for e in app.main.expander]
    app.checkbox(key="ws_confirm_delete").check().run()
    app.button(key="ws_delete").click().run()
    no_exception(app)
    assert "Recently deleted (1)" in [e.label for e in app.main.expander]
    assert app.selectbox(key="ws_restore_pick").value == key.removeprefix("ws:")
    app.button(key="ws_restore").click().run()
    no_exception(app)
    assert "Recently deleted (0)" in [e.label for e in app.main.expander]
    fresh = _reload("Uploaded: mine")  # the link of the restored dataset opens it again
    assert fresh.session_state["dataset"] == key
