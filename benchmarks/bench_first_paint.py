"""First paint: how long a new browser session waits for the headline and the leaderboard table (issue 36).

Starts the app (``python -m dashboard.serve``, as ``make run`` does), warms the server with one session,
then opens fresh browser sessions (new context = new Streamlit session, cold browser cache) and
measures, from navigation start:

- ``headline``: the verdict's bold headline is visible;
- ``table``: the leaderboard's table is visible (``stDataFrame``);
- ``idle``: the script run finished (no "Running" status) and every chart is drawn.

for the Leaderboard (``/``), the presentation view (``/?view=present``) and a page switch to
Compare. Target (issue 36): headline and table < 2 s on a warm server. Prints each median beside its
target. Run: ``.venv/bin/python benchmarks/bench_first_paint.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, streamlit_server  # noqa: E402

TARGET_S = 2.0
_RUNNING = ("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
            " || document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.indexOf('Running') < 0")


def _visit(browser, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    t0 = time.perf_counter()
    page.goto(url)
    out = {}
    page.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"] strong:visible').first.wait_for(state="visible")
    out["headline"] = time.perf_counter() - t0
    page.locator('[data-testid="stDataFrame"]:visible').first.wait_for(state="visible")
    out["table"] = time.perf_counter() - t0
    page.wait_for_function(_RUNNING)
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')].every(p => p.querySelector('svg'))")
    out["idle"] = time.perf_counter() - t0
    t1 = time.perf_counter()
    page.goto(url.split("?")[0].rstrip("/") + "/compare")
    page.locator('[data-testid="stMetric"]:visible').first.wait_for(state="visible")
    out["switch"] = time.perf_counter() - t1
    context.close()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with streamlit_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _visit(browser, url)  # warm the server's caches (what every later session shares)
        for label, target in (("leaderboard", url + "/"), ("presentation", url + "/?view=present")):
            runs = [_visit(browser, target) for _ in range(args.runs)]
            for key in ("headline", "table", "idle", "switch"):
                median = statistics.median(r[key] for r in runs)
                goal = f"target < {TARGET_S:.1f} s: {'met' if median < TARGET_S else 'MISSED'}" if key in (
                    "headline", "table") else "(no target)"
                print(f"{label:13s} {key:9s} median {median:5.2f} s over {args.runs} sessions  {goal}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
