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


def main(argv: list[str] | None = None) -> None:
    """Run ``streamlit run app.py [argv]`` in this process, after :func:`route_every_page_through_the_app`."""
    from streamlit.web import cli

    route_every_page_through_the_app()
    args = list(sys.argv[1:] if argv is None else argv)
    cli.main(["run", str(APP), *args], prog_name="streamlit")


if __name__ == "__main__":
    main()
