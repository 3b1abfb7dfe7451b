"""Layout that fits (issue 40): every page at 1280 x 800 and 1920 x 1080 in real Chromium.

On every page: no truncated widget label, option, metric card or input (an element that clips its
text, ``scrollWidth > clientWidth``, or text that runs outside its column), and no two figure titles
or annotations overlapping (bounding boxes of the rendered SVG text of each Plotly chart). The
presentation view of a published analysis has no sidebar and prints to PDF. Every page visited also has one h1
(its title) first and no heading more than one level below the one before it (WCAG 1.3.1: the a11y QA found pages
going from their h1 to h3 section headings). Screenshots in
``test-artifacts/``. ``make test`` runs every page of the attempt-level data at 1280 px (the hard size), the count
table's own pages (:data:`COUNTS_PAGES`) and the presentation view at both sizes; ``SCORIO_FULL=1`` adds every page
at 1920 px (about a minute per dataset) and every page of the count table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from tests.browser.conftest import ARTIFACTS, ROOT, assert_no_exception, shot, streamlit_server, wait_ready

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("layout")]

PAGES = ("", "tasks", "compare", "questions", "trajectories", "convergence", "sensitivity", "plan", "data", "rubric",
         "export")
COUNTS_PAGES = ("", "tasks", "compare", "questions", "data")
SIZES = ((1280, 800), (1920, 1080))

#: Elements that clip their text, or text outside its column (a segmented control wider than its column).
TRUNCATED = """() => {
  const out = [];
  const skip = '[data-testid="stDataFrame"], [data-testid="stPlotlyChart"], [data-testid="stCode"], pre, '
             + '[data-testid="stSkipToContent"], [data-testid="stMultiSelectTagsContainer"], [data-testid="stTooltipContent"]';
  for (const el of document.querySelectorAll('[data-testid="stAppViewContainer"] *')) {
    if (!el.getClientRects().length || el.closest(skip)) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none' || s.opacity === '0') continue;
    if (el.tagName === 'INPUT' && !['text', 'number', 'search', ''].includes(el.type)) continue;  // a slider's range input
    const text = (el.tagName === 'INPUT' ? el.value : (el.children.length ? '' : el.innerText || '')).trim();
    if (!text || el.closest('[data-testid="stSliderThumbValue"], [data-testid="stSliderTickBar"]')) continue;
    const clips = s.textOverflow === 'ellipsis' || ['hidden', 'clip'].includes(s.overflowX) || el.tagName === 'INPUT';
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) { out.push('clipped: ' + text.slice(0, 60)); continue; }
    const box = el.closest('[data-testid="stColumn"], [data-testid="stSidebarUserContent"], [data-testid="stMainBlockContainer"]');
    if (!box) continue;
    const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.right > b.right + 2 || r.left < b.left - 2)
      out.push('outside its column: ' + text.slice(0, 60) + ' [' + (el.closest('[data-testid]') || el).getAttribute('data-testid') + ']');
  }
  return [...new Set(out)];
}"""

#: Pairs of figure titles, axis titles, annotations and legend entries whose boxes intersect, per chart.
OVERLAPS = """() => {
  const out = [];
  document.querySelectorAll('[data-testid="stPlotlyChart"]').forEach((chart, ci) => {
    const texts = [...chart.querySelectorAll('.gtitle, .g-xtitle text, .g-ytitle text, .annotation-text, .legendtext, '
                                          + '.g-x2title text, .g-y2title text')]
      .filter(t => t.getClientRects().length && (t.textContent || '').trim());
    const boxes = texts.map(t => [t, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [ta, a] = boxes[i], [tb, b] = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 2) out.push('chart ' + ci + ': "' + ta.textContent.slice(0, 40) + '" over "' + tb.textContent.slice(0, 40) + '"');
    }
  });
  return out;
}"""


#: The levels (1-6) of the main area's non-empty headings, in document order.
HEADINGS = """() => [...document.querySelectorAll('[data-testid="stMain"] h1, [data-testid="stMain"] h2, '
  + '[data-testid="stMain"] h3, [data-testid="stMain"] h4, [data-testid="stMain"] h5, [data-testid="stMain"] h6')]
  .filter(h => (h.textContent || '').trim()).map(h => Number(h.tagName[1]))"""


def heading_problem(levels: list[int]) -> str | None:
    """What is wrong with a page's heading levels (WCAG 1.3.1), or None.

    >>> heading_problem([1, 2, 3, 2]) is None
    True
    >>> heading_problem([1, 3])
    'headings skip a level: [1, 3]'
    """
    if not levels or levels[0] != 1 or levels.count(1) != 1:
        return f"not one h1 first: {levels}"
    if any(b > a + 1 for a, b in zip(levels, levels[1:])):
        return f"headings skip a level: {levels}"
    return None


def _visit(page, url: str) -> None:
    page.goto(url)
    wait_ready(page)
    assert_no_exception(page)


TITLES = {"": "Leaderboard", "tasks": "Tasks", "compare": "Compare", "questions": "Questions", "trajectories": "Trajectories",
          "convergence": "Convergence", "sensitivity": "Rubric sensitivity", "plan": "Plan", "data": "Data", "rubric": "Rubric",
          "export": "Export"}


_FULL = os.environ.get("SCORIO_FULL") == "1"


def _wide(dataset):
    """The 1920 px case of ``dataset``: with ``SCORIO_FULL=1`` only (the narrow size is the hard one; ~1 min each)."""
    return pytest.param((1920, 1080), dataset, marks=[pytest.mark.slow, pytest.mark.skipif(
        not _FULL, reason="the 1920 px layout runs with SCORIO_FULL=1 (the narrow size is the hard one)")])


@pytest.mark.parametrize("size, dataset", [
    ((1280, 800), ""), _wide(""), ((1280, 800), "Paper simulation"), _wide("Paper simulation"),
], ids=["1280-counts", "1920-counts", "1280-attempts", "1920-attempts"])
def test_every_page_fits(browser, server_url, size, dataset):
    """The default count table (MathArena, 16 models) and the attempt-level paper simulation (20 models x 80 trials:
    facets, legends and trial-order controls), opened from the sidebar as a user would."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(120_000)
    ARTIFACTS.mkdir(exist_ok=True)
    _visit(page, server_url)
    if dataset:
        page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
        page.get_by_role("option", name=dataset).click()
        wait_ready(page)
    problems = {}
    # the count table's own layouts (the landing page, comparisons, questions, the data view); its analysis pages
    # share the attempt-level variant's figures and controls (every page with SCORIO_FULL=1)
    for path in PAGES if dataset or _FULL else COUNTS_PAGES:
        page.get_by_role("link", name=TITLES[path], exact=True).click()
        wait_ready(page)
        assert_no_exception(page)
        found = page.evaluate(TRUNCATED) + page.evaluate(OVERLAPS)
        found += [p for p in [heading_problem(page.evaluate(HEADINGS))] if p]
        if found:
            problems[path or "leaderboard"] = found
        shot(page, f"layout-{path or 'leaderboard'}{'-attempts' if dataset else ''}-{width}.png", width, height)
    context.close()
    assert not problems, json.dumps(problems, indent=1)


def test_presentation_view_has_no_sidebar_and_prints_whole_figures(browser, tmp_path):
    workspace = tempfile.mkdtemp(prefix="scorio-ws-present-")
    dump = ROOT / "data" / "matharena_aime_2025_I_counts.csv"
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "publish", str(dump), "--name", "aime",
                           "--workspace", workspace, "--output", "json"], capture_output=True, text=True, cwd=ROOT,
                          timeout=180)
    assert proc.returncode == 0, proc.stderr
    analysis = json.loads(proc.stdout)["analysis_id"]
    with streamlit_server(workspace) as url:
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.set_default_timeout(120_000)
            _visit(page, f"{url}/?analysis={analysis}&view=present")
            page.get_by_text("Presentation view of a shared analysis").first.wait_for()
            # the page's hiding style arrives with the script's first deltas; on a loaded machine the header's
            # expand button can show for a moment before it applies: the state at rest is what a viewer sees
            expect(page.locator('[data-testid="stExpandSidebarButton"]').filter(visible=True)).to_have_count(
                0, timeout=15_000)
            assert not page.locator('[data-testid="stSidebar"]').is_visible()
            assert page.locator('[data-testid="stSidebarNav"]').count() == 0 or not page.locator(
                '[data-testid="stSidebarNav"]').first.is_visible()
            assert page.locator('[role="tab"]').count() == 0  # a fixed story: no tabs to click
            page.locator('[data-testid="stPlotlyChart"]').nth(1).wait_for()  # intervals and the pairwise heatmap
            wait_ready(page)
            found = page.evaluate(TRUNCATED) + page.evaluate(OVERLAPS)
            assert not found, found
            shot(page, f"layout-present-{width}.png", width, height)
            context.close()
        # printing: each figure lands whole on one page (the print CSS keeps charts and tables unbroken)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.set_default_timeout(120_000)
        _visit(page, f"{url}/?analysis={analysis}&view=present")
        page.locator('[data-testid="stPlotlyChart"]').nth(1).wait_for()
        wait_ready(page)
        page.emulate_media(media="print")
        page.wait_for_timeout(1000)
        page_height = 11 * 96 - 2 * 38  # Letter, 0.4 in margins, CSS px
        charts = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
            .map(c => c.getBoundingClientRect().height)""")
        assert charts and max(charts) < page_height, charts  # a figure taller than a page would be cut
        pdf = page.pdf(path=str(ARTIFACTS / "presentation.pdf"), format="Letter",
                       margin={"top": "0.4in", "bottom": "0.4in", "left": "0.4in", "right": "0.4in"})
        assert pdf[:4] == b"%PDF" and pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") >= 1
        context.close()
