"""Real browser: a shared link opens its page on a freshly started server, through the router.

Regression test for page scripts placed directly in ``pages/``: Streamlit's legacy multipage
mode then ran ``/trajectories`` as a bare script on the first request (no sidebar, no data) and
kept doing so for every session until someone opened the root URL. See app.py. With the scripts in section
folders, the first session's deep link still went through that legacy router (the flag is set when the first
session opens and cleared only by ``st.navigation``) and opened its page behind a "Page not found" dialog; the
server now starts through ``dashboard.serve``, as ``make run`` does. ``/leaderboard`` (the default page, served at
``/``) opened behind the same dialog: a hidden alias page now forwards it with its parameters.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, assert_clean, streamlit_server, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def test_deep_link_on_a_fresh_server_runs_through_the_router(browser):
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url:
        # /leaderboard: the default page lives at /, but the page's own name is what a reader types or links to
        for path, heading in (("/trajectories", "Trajectories"), ("/export", "Export"),
                              ("/leaderboard?lb_metric=avg&dataset=ARC-AGI-1+public+eval", "Leaderboard")):
            context = browser.new_context(viewport={"width": 1440, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(url + path)
            wait_ready(page)
            page.get_by_role("heading", name=heading).first.wait_for()
            sidebar = page.locator('[data-testid="stSidebar"]')
            sidebar.get_by_text("Dataset", exact=True).first.wait_for()  # the shared sidebar ran: app.py routed
            # the first session of a fresh server too: no "Page not found" dialog from Streamlit's legacy router
            assert page.get_by_text("Page not found").count() == 0, path
            assert sidebar.get_by_role("link", name="Leaderboard").count() == 1
            assert_clean(page)
            if path.startswith("/leaderboard"):  # the link's own parameters still apply (the metric as the CLI names it)
                # forwarded, and read as the box's label (the address updates after the page's run: wait for it)
                page.wait_for_url(lambda u: "lb_metric=avg%40N" in u, timeout=60_000)
                # a parameter a sidebar widget binds (it raised "Cannot directly set query parameter" before)
                assert "dataset=ARC-AGI-1+public+eval" in page.url and page.get_by_text("StreamlitAPIException").count() == 0
            page.screenshot(path=str(ARTIFACTS / f"deeplink{path.split('?')[0].replace('/', '-')}.png"))
            context.close()
