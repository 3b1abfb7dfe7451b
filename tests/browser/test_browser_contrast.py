"""Real browser (a11y QA): chart axis text (tick labels, axis and colour-bar titles) reads at WCAG AA contrast in the
light and the dark theme. Streamlit's Plotly theme drew it in #808495, 3.7:1 on white; the app's CSS
(``dashboard.panels.charts.AXIS_TEXT_SELECTOR``) draws it in the theme's text colour at the captions' opacity.

The heading levels of every page are checked where the layout test opens every page
(``tests/browser/test_browser_layout.py``, :data:`HEADINGS`)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import assert_no_exception, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

#: The drawn colour of every visible axis text of the page's charts (its fill mixed over the app background by its
#: fill-opacity) and its WCAG contrast ratio against that background: the lowest per kind of text.
_AXIS_CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => c.map(v => v / 255).map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
                    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const bg = rgb(getComputedStyle(document.querySelector('.stApp')).backgroundColor);
  const out = {};
  const kinds = {tick: "g[class$='tick'] text", axis_title: "g[class^='g-x'][class$='title'] text, g[class^='g-y'][class$='title'] text",
                 colorbar: "g.cbaxis text, g.cbtitle text"};
  for (const [kind, sel] of Object.entries(kinds)) {
    for (const t of document.querySelectorAll("[data-testid='stPlotlyChart'] " + sel.split(', ').join(", [data-testid='stPlotlyChart'] "))) {
      if (!t.getClientRects().length || !(t.textContent || '').trim()) continue;
      const cs = getComputedStyle(t), a = Number(cs.fillOpacity), f = rgb(cs.fill);
      const drawn = f.map((v, i) => a * v + (1 - a) * bg[i]);
      const [hi, lo] = [lum(drawn), lum(bg)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      out[kind] = Math.min(out[kind] ?? Infinity, ratio);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axis_text_reads_at_aa_contrast(browser, server_url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(server_url)
    wait_ready(page)
    assert_no_exception(page)
    page.get_by_role("tab", name="Pairwise P(A > B)").click()  # a heatmap: tick labels on both axes and a colour bar
    wait_ready(page)
    page.locator("[data-testid='stPlotlyChart'] g.cbaxis text").first.wait_for(timeout=120_000)  # drawn, under load too
    found = page.evaluate(_AXIS_CONTRAST)
    context.close()
    assert {"tick", "colorbar"} <= set(found), found
    assert min(found.values()) >= 4.5, found


#: Heading levels of the main area in document order (h1-h6), e.g. [1, 2, 2].
