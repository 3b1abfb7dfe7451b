"""AppTest: the app opens on real data, every page renders, uploads work and bad files are safe."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dashboard.data.bundled import BUNDLED, DEFAULT_DATASET
from scorio_core.report.names import display_names
from tests.app.conftest import saved_key, shown

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").rglob("*.py"))


def _no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def test_opens_on_leaderboard_with_every_bundled_model(app):
    assert app.title[0].value == "Leaderboard"
    table = app.dataframe[0].value
    expected = set(pd.read_csv(BUNDLED[DEFAULT_DATASET].paths[0])["model"].unique())
    assert set(table["model"]) == expected  # all 16 MathArena models
    assert table["mu"].is_monotonic_decreasing


def test_pages_live_in_section_folders():
    """No page script sits directly in pages/.

    Streamlit scans top-level ``pages/*.py`` before app.py has run; on a fresh server a deep
    link such as ``/trajectories`` then runs the page file without the router (no sidebar,
    blank page). Section subfolders are not scanned, so every URL goes through app.py.
    """
    assert len(PAGES) == 11
    assert not list((ROOT / "pages").glob("*.py"))


def test_no_page_relies_on_streamlit_magic():
    """Magic is off (.streamlit/config.toml): every page shows only what it calls st.* for.

    Streamlit clears its bytecode cache whenever no session is connected, so with magic on a stakeholder's
    first visit re-ran magic's AST rewrite of app.py and the page (~50 ms on a 2-core server, issue 36). A bare
    expression in a page would then silently show nothing: none may exist (module and function docstrings only).
    """
    import ast
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["magicEnabled"] is False
    for path in ["app.py", *PAGES]:
        tree = ast.parse((ROOT / path).read_text(), path)
        docstrings = {id(node.body[0]) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
        bare = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Expr) and id(node) not in docstrings
                and not isinstance(node.value, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom))]
        assert not bare, f"{path}: bare expressions on lines {bare} would be shown by magic, which is off"


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders(app, page):
    app.switch_page(page).run()
    _no_exception(app)
    assert app.title, f"{page} has no title"


def test_each_bundled_dataset_lists_every_model(app):
    for key, bundled in BUNDLED.items():
        app.sidebar.selectbox(key="dataset").set_value(key).run()
        _no_exception(app)
        raw = pd.concat(pd.read_csv(p) for p in bundled.paths)
        # the table shows display names (org prefixes and release dates dropped when unique); livebench's duplicate
        # rows open with its bundled data-quality choice (tests/app/test_pages_data.py), so it is listed too
        assert not any("data-quality choice" in w.value for w in app.warning), key
        names = display_names(raw["model"].unique())
        listed = set(app.dataframe[0].value["model"])
        absent = [m for m, shown_as in names.items() if shown_as not in listed]
        assert listed <= set(names.values()), key
        if absent:  # models without a row on the task shown (livebench: 2 of 93 did not run math_comp) are named
            captions = [shown(c.value) for c in app.main.caption]
            note = next(c for c in captions if "has no row on this task" in c or "have no row on this task" in c)
            assert all(m in note for m in absent) and f"{len(absent)} of the dataset's {len(names)} models" in note, key


def test_upload_csv_becomes_active_dataset(app):
    app.switch_page("pages/data/data.py").run()
    csv = "model,question,seed,correct\n" + "\n".join(
        f"{m},q{q},{t},{int((q + t + len(m)) % 3 == 0)}" for m in ("alpha", "beta") for q in range(5) for t in range(4)
    )
    app.file_uploader(key="data_uploader").set_value(("mine.csv", csv.encode(), "text/csv")).run()
    _no_exception(app)
    app.button(key="upload_load").click().run()
    _no_exception(app)
    assert app.session_state["dataset"] == saved_key(app, "mine")
    app.switch_page("pages/results/leaderboard.py").run()
    _no_exception(app)
    assert set(app.dataframe[0].value["model"]) == {"alpha", "beta"}


def test_bad_upload_shows_error_and_keeps_previous_data(app):
    app.switch_page("pages/data/data.py").run()
    bad = b"model,question_id,trial,is_correct\nm1,q1,0,1\nm1,q2,0,yes\n"
    app.file_uploader(key="data_uploader").set_value(("broken.csv", bad, "text/csv")).run()
    app.button(key="upload_load").click().run()
    _no_exception(app)
    errors = [e.value for e in app.error]
    assert any("broken.csv" in shown(e) and "is_correct" in shown(e) for e in errors), errors
    assert app.session_state["dataset"] == DEFAULT_DATASET


@pytest.mark.parametrize(("name", "data", "said"), [
    ("results.pkl", b"\x80\x04\x95\x0b\x00\x00\x00\x00\x00\x00\x00}\x94.", "pickle"),  # refused, never unpickled
    ("scores.tab", b"model\tquestion_id\ttrial\tis_correct\nm1\tq1\t0\t1\nm1\tq1\t1\t0\n", None),  # .tab is TSV
])
def test_any_file_reaches_the_loader_which_names_it(app, name, data, said):
    # the uploader does not filter by ending: Streamlit's refusal named neither file nor formats, and kept .tab out
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value((name, data, "application/octet-stream")).run()
    app.button(key="upload_load").click().run()
    _no_exception(app)
    errors = [shown(e.value) for e in app.error]
    if said is None:
        assert not errors and app.session_state["dataset"] == saved_key(app, "scores")
    else:
        assert any(name in e and said in e and "supported: csv" in e for e in errors), errors
        assert app.session_state["dataset"] == DEFAULT_DATASET


def test_invalid_query_parameters_are_dropped_with_a_notice():
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lb_tau"] = "NaN"
    at.query_params["dataset"] = "x" * 100_000
    at.run()
    assert not at.exception
    assert "lb_tau" not in at.query_params and "dataset" not in at.query_params
    toasts = [t.value for t in at.toast]
    assert any("lb\\_tau" in t or "lb_tau" in t for t in toasts) and any("longer than 256" in t for t in toasts)
    assert at.main.dataframe  # the default leaderboard rendered


def test_an_invalid_number_never_reaches_a_widget_bound_to_the_address():
    """lb_k=1e309 was dropped from st.query_params with a notice, but Streamlit had kept the URL's first values and
    seeded the bound number input with infinity (OverflowError); the dropped value is now forgotten there too."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    for value in ("1e309", "inf", "99999999999999999999"):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["lb_k"] = value
        at.run()
        assert not at.exception, (value, [e.value for e in at.exception])
        assert at.session_state["lb_k"] == 1 and any("lb" in t.value and "k" in t.value for t in at.toast)
        assert at.main.dataframe


def test_a_link_value_the_data_does_not_offer_is_named_not_silently_replaced():
    """?task=, ?prior=, ?scope=, ?models= naming no choice of this data: the defaults apply and a notice says so."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in {"task": "no such task", "prior": "laplace", "scope": "everything", "models": "ghost-model"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    toasts = " ".join(t.value for t in at.toast)
    for phrase in ("task 'no such task'", "prior 'laplace'", "scope 'everything'", "'ghost-model'"):
        assert phrase in toasts.replace("\\", ""), (phrase, toasts)
    assert at.session_state["prior"] == "empirical-bayes" and at.session_state["models"] == []
    assert at.main.dataframe  # the default leaderboard rendered
    at.run()  # said once, not on every rerun
    assert not [t for t in at.toast if "not one of this data's choices" in t.value]
