"""Real-browser fixtures: a Streamlit server on a free port and Debian's chromium via Playwright."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import tempfile
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(workspace: str | None = None, *, app_dir: Path = ROOT):
    """Start the app as ``make run`` does (``python -m dashboard.serve``), wait for /_stcore/health, yield its URL.

    ``workspace``: the server's workspace directory (default: a new empty one). ``app_dir``: the folder whose
    ``app.py`` (and ``.streamlit/config.toml``) the server runs (default: this checkout).
    """
    port = _free_port()
    # a lowered decompression limit keeps the hostile-upload test's bombs small (64 MiB instead of 1 GiB)
    # and each server gets its own empty workspace (never ./workspace of the checkout)
    workspace = workspace or tempfile.mkdtemp(prefix="scorio-ws-")
    env = dict(os.environ, PYTHONPATH=str(ROOT), SCORIO_MAX_DECOMPRESSED_BYTES=str(64 << 20), SCORIO_WORKSPACE=workspace)
    # this checkout's app starts as `make run` starts it (dashboard.serve: every URL routed through app.py from the
    # first session); another folder's app.py with plain `streamlit run`
    start = ["dashboard.serve"] if Path(app_dir).resolve() == ROOT.resolve() else ["streamlit", "run", "app.py"]
    proc = subprocess.Popen(
        [
            sys.executable, "-m", *start, "--server.headless", "true", "--server.address", "127.0.0.1",
            "--server.port", str(port), "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        ],
        cwd=app_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
        if proc.poll() is not None:
            raise RuntimeError("streamlit exited early:\n" + proc.stdout.read().decode(errors="replace"))
    else:
        proc.kill()
        raise RuntimeError("streamlit did not become healthy within 90 s")
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server_url():
    """One app server shared by the browser tests of a worker."""
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian chromium driven by Playwright (never a downloaded browser build)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; `make test` installs Debian's chromium package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server_url):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


# --------------------------------------------------------------------------- page helpers
#: True once the app is at rest: connected, no script run requested or running, no element left stale from the
#: previous run, and every visible Plotly chart drawn (Streamlit's own e2e tests read the same ``data-test-*``
#: attributes of ``stApp``).
_AT_REST = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  if (status && status.innerText.indexOf('Running') >= 0) return false;
  if (document.querySelector('[data-testid="stElementContainer"][data-stale="true"]')) return false;
  for (const c of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    if (c.offsetParent !== null && !c.querySelector('.main-svg')) return false;
  }
  return true;
}"""


def wait_ready(page, settle_ms: int = 300) -> None:
    """Wait until the app is at rest (see ``_AT_REST``), then ``settle_ms`` more for charts' last layout.

    A rerun that the last action requested reaches the server within a few milliseconds; the 250 ms before the
    first look lets its ``running`` state show (as Streamlit's e2e helper ``wait_for_app_run`` does).
    """
    page.wait_for_selector('[data-testid="stApp"]')
    page.wait_for_timeout(250)
    page.wait_for_function(_AT_REST, timeout=120_000)
    page.wait_for_timeout(settle_ms)


def assert_no_exception(page) -> None:
    """No Python exception box on the page."""
    found = page.locator('[data-testid="stException"]')
    assert found.count() == 0, found.first.inner_text()


def assert_clean(page) -> None:
    """Neither an exception box nor an error message on the page."""
    assert_no_exception(page)
    found = page.locator('[data-testid="stAlertContentError"]')
    assert found.count() == 0, found.first.inner_text()


def shot(page, name: str, width: int = 1440, height: int = 1000, at_rest: bool = True) -> None:
    """Screenshot of the whole page: Streamlit scrolls inside its main block, so grow the viewport first.

    ``width``/``height``: the viewport to restore afterwards (the screenshot keeps ``width``); ``at_rest=False``
    for a picture of a run in progress.
    """
    full = page.evaluate("() => document.querySelector('[data-testid=stMainBlockContainer]').scrollHeight")
    page.set_viewport_size({"width": width, "height": max(height, min(int(full) + 40, 6000))})
    if at_rest:
        page.wait_for_function(_AT_REST, timeout=120_000)
    page.wait_for_timeout(600)  # Plotly redraws charts for the new width
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    page.set_viewport_size({"width": width, "height": height})
