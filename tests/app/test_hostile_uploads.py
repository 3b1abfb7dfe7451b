"""The hostile corpus (tests/hostile_corpus.py) through the app's upload form (issue 17).

After a good upload, each hostile file must show an error box whose text carries the file name
escaped by ``dashboard.text.md`` (no live Markdown link, emphasis or HTML), raise no exception
element, and leave the good upload active. One AppTest serves the whole module (a fresh one
costs seconds), so the whole corpus runs in about 7 s and no case needs the ``slow`` mark
(the bombs stop at the lowered 64 MiB limit; measured 0.1-0.4 s per upload).
"""

from __future__ import annotations

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from dashboard.text import md
from tests.app.conftest import ROOT, no_exception, saved_key, shown
from tests.hostile_corpus import CASE_NAMES, GOOD_CSV, RUBRIC_CASES, build_corpus, case_env

DATA = "pages/data/data.py"
RUBRIC = "pages/data/rubric.py"
MIME = {"gz": "application/gzip", "csv": "text/csv", "json": "application/json", "jsonl": "application/json"}


def _shim(monkeypatch) -> None:
    """What tests/app/conftest.py's autouse fixture does, for the module-scoped AppTest."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def _upload(at, name: str, data: bytes) -> None:
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value((name, data, MIME.get(name.rsplit(".", 1)[-1], "application/octet-stream"))).run()
    no_exception(at)
    at.button(key="upload_load").click().run()
    no_exception(at)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return {c.name: c for c in build_corpus(tmp_path_factory.mktemp("hostile"))}


@pytest.fixture(scope="module")
def module_workspace(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("workspace"))


@pytest.fixture(autouse=True)
def _workspace(module_workspace, monkeypatch):
    """Overrides conftest's per-test workspace: this module's AppTest lives across tests."""
    monkeypatch.setenv("SCORIO_WORKSPACE", module_workspace)


@pytest.fixture(scope="module")
def good_app(module_workspace):
    """One AppTest with good.csv uploaded and active (in this module's workspace)."""
    with pytest.MonkeyPatch.context() as mp:
        _shim(mp)
        mp.setenv("SCORIO_WORKSPACE", module_workspace)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        no_exception(at)
        _upload(at, "good.csv", GOOD_CSV.encode())
        at.good_key = saved_key(at, "good")
        assert at.session_state["dataset"] == at.good_key
    return at


def _check_error(at, file_name: str, expected: str) -> None:
    no_exception(at)
    errors = [e.value for e in at.main.error]
    assert errors, "no error box"
    mine = [e for e in errors if md(file_name) in e]  # the name as escaped by md(), verbatim
    assert mine, (file_name, errors)
    for e in mine:
        bare = e.replace(md(file_name), "")  # the rest of the message must not hold live markup either
        assert "Traceback" not in e and "RecursionError" not in e
        for text in (e, bare):
            assert "](" not in text.replace("\\]\\(", "") and "**" not in text and "<b>" not in text
    assert any(expected in shown(e) for e in mine), (expected, mine)


@pytest.mark.parametrize("name", [n for n in CASE_NAMES if n not in RUBRIC_CASES and n != "formula_model_names"])
def test_hostile_upload_shows_an_escaped_error_and_keeps_the_good_data(good_app, corpus, monkeypatch, name):
    for key, value in case_env(name).items():
        monkeypatch.setenv(key, value)
    case = corpus[name]
    at = good_app
    _upload(at, case.path.name, case.path.read_bytes())
    _check_error(at, case.path.name, case.expected)
    assert any("Nothing changed" in c.value for c in at.main.caption)
    assert at.session_state["dataset"] == at.good_key
    assert list(at.session_state["_ws_names"].values()) == ["good"]  # nothing stored for a hostile file


def test_hostile_rubric_upload_is_refused(good_app, corpus):
    case = corpus["rubric_weight_1e308"]
    at = good_app
    at.switch_page(RUBRIC).run()
    no_exception(at)
    before = at.session_state["_rubric_workspace"].schema
    at.file_uploader(key="rubric_upload").set_value((case.path.name, case.path.read_bytes(), "application/json")).run()
    _check_error(at, case.path.name, case.expected)
    assert at.session_state["_rubric_workspace"].schema == before
    at.file_uploader(key="rubric_upload").set_value(None).run()
    assert at.session_state["dataset"] == at.good_key


def test_formula_model_names_load_and_render_as_text(good_app, corpus):
    """Spreadsheet formulas as model names are plain data: they load (exports neutralise them, see the CLI test)."""
    case = corpus["formula_model_names"]
    at = good_app
    _upload(at, case.path.name, case.path.read_bytes())
    assert at.session_state["dataset"] == saved_key(at, "formulas")
    assert not at.main.error
    options = at.selectbox(key="data_inspect_model").options
    assert any(o.startswith('=HYPERLINK("http://evil.example/') for o in options), options  # kept verbatim as data
