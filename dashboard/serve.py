"""Start the app server: ``streamlit run app.py`` with every URL routed through app.py from the first session.

``make run`` runs ``python -m dashboard.serve [streamlit options]`` (the options of ``streamlit run``, e.g.
``--server.port 8501``). Why not ``streamlit run app.py`` directly: Streamlit decides once per server process, when
the first session opens, whether the app uses its legacy ``pages/`` directory (it checks that a folder named
``pages`` sits next to the main script; this app keeps its page scripts there, in section folders, and routes them
with ``st.navigation``). Only a run of ``st.navigation`` clears that flag, so on a freshly started server the first
visitor's deep link (``/questions``, a shared link to a page) went through the legacy router, which knows no page
of that name: the page opened behind a "Page not found" dialog. Clearing the flag before the server starts makes
the first session route like every later one (``tests/browser/test_browser_deeplink.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app.py"


def route_every_page_through_the_app() -> bool:
    """Turn off Streamlit's legacy multipage mode for this process (app.py calls ``st.navigation``).

    Returns
    -------
    bool
        True when the flag was set; False if this Streamlit has no such flag (the server then starts as
        ``streamlit run`` would).
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:
        return False
    if not hasattr(PagesManager, "uses_pages_directory"):
        return False
    PagesManager.uses_pages_directory = False
    return True


def page_modules(root: Path = APP.parent) -> list[str]:
    """The modules app.py and every page script import at their top level, in file order (no duplicates).

    Read with :mod:`ast`, never executed: the page scripts run only inside a Streamlit session.
    """
    import ast

    names: dict[str, None] = {}
    for path in [root / "app.py", *sorted((root / "pages").glob("*/*.py"))]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                names.update((alias.name, None) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names[node.module] = None
    return list(names)


def warm_imports(modules=None) -> float:
    """Import the pages' modules (:func:`page_modules`) before the server starts; returns the seconds it took.

    A freshly started server's first visitor paid every import of the app (pandas, scipy, plotly, the core, the
    page modules): 10.5 s to a shared link's headline against 2.2 s on a warm server (helper QA, 2026-12-01); the
    imports alone take 1-2.5 s on 2 cores. Imports are per process, so doing them once here takes that off the first
    session. Synchronous on purpose: imports racing a session's own (a background thread) can meet in a circular
    import and fail it. Decorating a cached function before the runtime exists makes Streamlit log "No runtime found"
    once per function (the caches themselves are created per call, under the runtime), so that logger is quiet here.
    A module that fails to import is left for its page to import, and report, as before.
    """
    import importlib
    import logging
    import time

    start = time.perf_counter()
    importlib.import_module("streamlit.runtime.caching.cache_data_api")  # its import sets the level: set ours after
    log = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        for name in page_modules() if modules is None else modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the page imports it again and shows the error in context
                continue
    finally:
        log.setLevel(level)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Run ``streamlit run app.py [argv]`` in this process, after :func:`route_every_page_through_the_app`, with the
    pages' imports warmed in the background (:func:`warm_imports`)."""
    from streamlit.web import cli

    route_every_page_through_the_app()
    warm_imports()
    args = list(sys.argv[1:] if argv is None else argv)
    cli.main(["run", str(APP), *args], prog_name="streamlit")


if __name__ == "__main__":
    main()
