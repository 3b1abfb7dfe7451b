"""App latency (issue 36): time-to-headline for a first session, a new session, a share link and every page switch.

Publishes the bundled MathArena counts into a new workspace (``python -m scorio_core publish``, the
share link a lead sends), starts the app on that workspace (``python -m dashboard.serve``, as ``make run``
does) and drives Debian's Chromium with Playwright. Every measurement opens a **fresh browser
context** (a new Streamlit session with a cold browser cache, as a stakeholder clicking a link) and
times, from navigation start:

- ``first session``: the first visit after the server started (cold server: imports, caches);
- ``new session``: later visits of ``/`` on the warm server (median of ``--runs``);
- ``share link`` / ``presentation link``: ``/?analysis=<id>`` and ``...&view=present`` (median);
- ``table``: for each of the above, when the leaderboard's table is visible as well (and, no target, when the
  animation frame after its grid's canvas (the presentation view: its static table's first cell) enters the DOM
  ran: ``table painted (in page)``);
- ``painted (in page)``: reported beside the headline, no target: a probe in the page records the
  animation frame after the headline's element enters the DOM (from the page's navigation start), the frame
  that paints it; Playwright's visibility polling reports 0.1-0.35 s later on a busy main thread;
- ``switch to <Page>``: a click on the page's navigation link until its title is visible, the click made once
  the page before it is at rest (its script run done and its charts drawn, as a reader clicks on a loaded page;
  median over ``--runs`` fresh sessions, each switching through every page);
- ``back-to-back switch to <Page>``: the same with each click as soon as the previous page's title shows, so a
  switch also waits for the drawing the previous page had not finished (no target; ``--no-back-to-back`` skips).

"headline" is the first bold verdict on the Leaderboard (what a lead reads first). Targets (issue 36):
new session and share link < 2 s, page switches < 1 s (medians on a warm server). Each number is
printed beside its target; the exit status is 1 if any target is missed.

First, in the same run, the **floor**: a bare Streamlit app (a title and one bold line, this checkout's
``.streamlit/config.toml``) measured the same way (``bare Streamlit app: headline``, median of ``--runs``
new sessions). That is Streamlit's own frontend start on this machine (its bundle parse, the websocket,
one script run); the app's rows are read beside it. ``--no-baseline`` skips it.

    .venv/bin/python benchmarks/bench_app_latency.py [--runs 5] [--pages Tasks,Compare] [--no-baseline]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_ready  # noqa: E402

HEADLINE_TARGET_S = 2.0
SWITCH_TARGET_S = 1.0
_HEADLINE = '[data-testid="stMain"] [data-testid="stMarkdownContainer"] strong:visible'
# the interactive grid, or the presentation view's static table (st.table: it prints whole)
_TABLE = '[data-testid="stDataFrame"]:visible, [data-testid="stTable"]:visible'
#: Page title -> what marks it as shown (its title heading; pages draw their first content right after it).
PAGES = ("Tasks", "Compare", "Questions", "Trajectories", "Convergence", "Rubric sensitivity", "Plan", "Data", "Rubric", "Export",
         "Leaderboard")


BARE_APP = """import streamlit as st

st.set_page_config(page_title="bare", layout="wide")
st.title("Leaderboard")
st.markdown("**No single leader at 95% credibility** on these questions.")
"""


def bare_app_dir() -> Path:
    """A folder with the bare Streamlit app and a copy of this checkout's Streamlit config."""
    folder = Path(tempfile.mkdtemp(prefix="scorio-bare-app-"))
    (folder / "app.py").write_text(BARE_APP)
    (folder / ".streamlit").mkdir()
    shutil.copy(ROOT / ".streamlit" / "config.toml", folder / ".streamlit" / "config.toml")
    return folder


def publish(workspace: str) -> str:
    """Publish the bundled MathArena counts into ``workspace``; returns the analysis query (``?analysis=...``)."""
    out = subprocess.run(
        [sys.executable, "-m", "scorio_core", "publish", str(ROOT / "data" / "matharena_aime_2025_I_counts.csv"),
         "--output", "json"],
        cwd=ROOT, env=dict(os.environ, SCORIO_WORKSPACE=workspace, PYTHONPATH=str(ROOT)),
        capture_output=True, text=True, check=True,
    ).stdout
    link = json.loads(out)["link"]
    return link[link.index("?"):]


#: In-page probe: when the headline's element enters the DOM, and the next animation frame (the frame that paints
#: it), in ms from navigation start. Beside Playwright's ``wait_for(visible)``, whose polling round trip runs on the
#: same busy main thread and reports 0.1-0.35 s after that frame (measured 2026-11-29; docs/scale.md).
_PAINT_PROBE = """
window.__headline = null;
window.__headlinePainted = null;
window.__table = null;
window.__tablePainted = null;
new MutationObserver(() => {
  if (window.__headline === null &&
      document.querySelector('[data-testid=stMain] [data-testid=stMarkdownContainer] strong')) {
    window.__headline = performance.now();
    requestAnimationFrame(() => { window.__headlinePainted = performance.now(); });
  }
  if (window.__table === null && document.querySelector(
      '[data-testid=stMain] [data-testid=stDataFrame] canvas, [data-testid=stMain] [data-testid=stTable] td')) {
    window.__table = performance.now();
    requestAnimationFrame(() => { window.__tablePainted = performance.now(); });
  }
}).observe(document, {subtree: true, childList: true});
"""


def open_page(browser, url: str, *, table: bool = True) -> dict[str, float]:
    """Headline (and table) times of one fresh session opening ``url``."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.add_init_script(_PAINT_PROBE)
    t0 = time.perf_counter()
    page.goto(url)
    page.locator(_HEADLINE).first.wait_for(state="visible")
    out = {"headline": time.perf_counter() - t0}
    painted = page.evaluate("window.__headlinePainted")
    out["painted"] = float("nan") if painted is None else painted / 1000.0
    if table:
        page.locator(_TABLE).first.wait_for(state="visible")
        out["table"] = time.perf_counter() - t0
        page.wait_for_function("window.__tablePainted !== null")
        out["table_painted"] = page.evaluate("window.__tablePainted") / 1000.0
    context.close()
    return out


def switches(browser, url: str, pages: list[str], *, at_rest: bool = True) -> dict[str, float]:
    """One fresh session on ``url``: the time of each click on a page link until that page's title shows.

    ``at_rest``: each click waits until the page before it is at rest (its script run done, its charts drawn: the
    browser tests' ``wait_ready``), as a reader clicks after a page has loaded; otherwise the next click follows as
    soon as the title shows, and a switch also waits for the previous page's unfinished drawing (no target).
    """
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    page.locator(_HEADLINE).first.wait_for(state="visible")
    page.locator(_TABLE).first.wait_for(state="visible")
    out = {}
    for title in pages:
        if at_rest:
            wait_ready(page, settle_ms=200)
        link = page.get_by_role("link", name=title, exact=True)
        t0 = time.perf_counter()
        link.click()
        page.get_by_role("heading", name=title).first.wait_for(state="visible")
        out[title] = time.perf_counter() - t0
    context.close()
    return out


def _row(label: str, value: float, target: float | None) -> bool:
    ok = target is None or value < target
    goal = "(no target)" if target is None else f"target < {target:.1f} s  {'met' if ok else 'MISSED'}"
    print(f"  {label:34s} {value:6.2f} s   {goal}")
    return ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh sessions per median (default 5)")
    parser.add_argument("--pages", default=",".join(PAGES), help="pages to switch to, in order (comma-separated)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the bare Streamlit app (the floor)")
    parser.add_argument("--no-back-to-back", action="store_true",
                        help="skip the back-to-back switches (each click as soon as the previous title shows)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    workspace = tempfile.mkdtemp(prefix="scorio-ws-latency-")
    query = publish(workspace)
    ok = True
    print(f"app latency, fresh Chromium context per session, median of {args.runs}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if not args.no_baseline:
        with streamlit_server(workspace, app_dir=bare_app_dir()) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            open_page(browser, url + "/", table=False)  # the cold server's first session
            runs = [open_page(browser, url + "/", table=False) for _ in range(args.runs)]
            _row("bare Streamlit app: headline", statistics.median(r["headline"] for r in runs), None)
            _row("bare Streamlit app: painted (in page)", statistics.median(r["painted"] for r in runs), None)
            browser.close()
    with streamlit_server(workspace) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        first = open_page(browser, url + "/")
        ok &= _row("first session: headline (cold server)", first["headline"], None)
        _row("first session: table", first["table"], None)
        for label, address in (("new session", "/"), ("share link", "/" + query),
                               ("presentation link", "/" + query + "&view=present")):
            runs = [open_page(browser, url + address) for _ in range(args.runs)]
            ok &= _row(f"{label}: headline", statistics.median(r["headline"] for r in runs), HEADLINE_TARGET_S)
            _row(f"{label}: painted (in page)", statistics.median(r["painted"] for r in runs), None)
            ok &= _row(f"{label}: table", statistics.median(r["table"] for r in runs), HEADLINE_TARGET_S)
            _row(f"{label}: table painted (in page)", statistics.median(r["table_painted"] for r in runs), None)
        runs = [switches(browser, url + "/", pages) for _ in range(args.runs)]
        for title in pages:
            ok &= _row(f"switch to {title}", statistics.median(r[title] for r in runs), SWITCH_TARGET_S)
        if not args.no_back_to_back:
            runs = [switches(browser, url + "/", pages, at_rest=False) for _ in range(args.runs)]
            for title in pages:
                _row(f"back-to-back switch to {title}", statistics.median(r[title] for r in runs), None)
        browser.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
