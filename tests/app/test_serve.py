"""dashboard.serve: the server `make run` starts (every URL routed through app.py from the first session)."""

from __future__ import annotations

from streamlit.runtime.pages_manager import PagesManager

from dashboard import serve


def test_routes_every_page_through_the_app(monkeypatch):
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)  # a fresh process: not decided yet
    assert serve.route_every_page_through_the_app() is True
    assert PagesManager.uses_pages_directory is False
    # the first session's PagesManager keeps it: the legacy `pages/` router never runs
    PagesManager(str(serve.APP))
    assert PagesManager.uses_pages_directory is False


def test_main_runs_streamlit_run_on_app_py_with_the_options(monkeypatch):
    from streamlit.web import cli

    calls = []
    monkeypatch.setattr(PagesManager, "uses_pages_directory", None)
    monkeypatch.setattr(cli, "main", lambda args, prog_name: calls.append((args, prog_name)))
    serve.main(["--server.port", "8599", "--server.address", "127.0.0.1"])
    assert calls == [(["run", str(serve.APP), "--server.port", "8599", "--server.address", "127.0.0.1"], "streamlit")]
    assert serve.APP.name == "app.py" and serve.APP.exists()
    assert PagesManager.uses_pages_directory is False


def test_the_pages_imports_are_warmed_before_the_server_starts(monkeypatch):
    # a restarted server's first visitor paid every import of the app (helper QA: 10.5 s to a shared link's headline)
    import sys

    names = serve.page_modules()
    assert names[:2] == ["pathlib", "streamlit"]  # app.py's imports first, then each page's, once each
    assert "dashboard.compute.results" in names and "scorio_core.report.verdict" in names and len(set(names)) == len(names)
    monkeypatch.delitem(sys.modules, "scorio_core.report.latex", raising=False)
    assert serve.warm_imports(["scorio_core.report.latex", "no_such_module_xyz"]) >= 0.0  # a failure is the page's
    assert "scorio_core.report.latex" in sys.modules and "no_such_module_xyz" not in sys.modules
    order = []
    monkeypatch.setattr(serve, "warm_imports", lambda: order.append("warm") or 0.0)
    from streamlit.web import cli

    monkeypatch.setattr(cli, "main", lambda args, prog_name: order.append("run"))
    serve.main([])
    assert order == ["warm", "run"]
