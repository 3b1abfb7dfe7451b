"""Real browser: the Trajectories, Convergence and Sensitivity pages on the paper simulation.

Screenshots land in ``test-artifacts/`` (``analysis-*.png``); look at them when changing these pages.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import assert_clean, shot, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SIMULATION = "Paper simulation"


def _choose_dataset(page, label: str):
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name=label).click()
    wait_ready(page)


def _charts(page, count: int):
    page.locator('[data-testid="stPlotlyChart"]').nth(count - 1).wait_for(timeout=120_000)
    wait_ready(page)
    assert_clean(page)


def _go(page, link: str, heading: str, charts: int):
    page.get_by_role("link", name=link).click()
    wait_ready(page)
    page.get_by_role("heading", name=heading).first.wait_for()
    _charts(page, charts)


def test_analysis_pages_on_the_paper_simulation(page, server_url):
    page.goto(server_url)  # the entry point first: a fresh server serves deep links only once st.navigation ran
    wait_ready(page)
    page.get_by_role("heading", name="Leaderboard").first.wait_for()
    _choose_dataset(page, SIMULATION)
    page.get_by_role("link", name="Trajectories").click()
    wait_ready(page)
    page.get_by_role("heading", name="Trajectories").first.wait_for()
    page.get_by_text("Paper simulation").first.wait_for()
    _charts(page, 2)
    text = page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    assert "mimic-20" in text and "mimic-01" in text  # every model is labelled at the line ends
    shot(page, "analysis-01-trajectories-observed.png")

    page.get_by_role("radio", name="Worst-case replicate").click()
    wait_ready(page)
    # 200 replicates: the default under the empirical-Bayes prior, which is refitted on every replicate
    page.get_by_text("worst of 200 column-wise bootstrap replicates").first.wait_for(timeout=120_000)
    _charts(page, 2)
    shot(page, "analysis-02-trajectories-worst.png")

    _go(page, "Convergence", "Convergence", 2)  # runs the default bootstrap (4 methods x 200 replicates)
    chart = page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    assert "Bayes@N" in chart and any(w in chart for w in ("settles after", "settle do so after", "never settles"))
    assert "Pass@2" in chart
    shot(page, "analysis-03-convergence.png")
    page.get_by_role("radio", name="row-wise").click()
    wait_ready(page)
    page.get_by_text("row-wise bootstrap replicates").first.wait_for(timeout=120_000)
    _charts(page, 2)
    shot(page, "analysis-04-convergence-row.png")

    # a long run shows progress and is cancelled by changing a widget
    slider = page.get_by_role("slider", name="Replicates")
    slider.focus()
    for _ in range(5):  # 200 -> 10,000 replicates
        page.keyboard.press("ArrowRight")
    page.locator('[data-testid="stProgress"]').first.wait_for(timeout=60_000)
    assert "Bootstrapping" in page.locator('[data-testid="stProgress"]').first.inner_text()
    shot(page, "analysis-06-convergence-progress.png", at_rest=False)
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => !document.querySelector('[data-testid=stProgress]')", timeout=60_000)
    page.get_by_text("200 row-wise bootstrap replicates").first.wait_for(timeout=60_000)
    _charts(page, 2)

    _go(page, "Rubric sensitivity", "Rubric sensitivity", 2)
    bump = page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    assert "Format Aware" in bump and "mimic-20" in bump
    shot(page, "analysis-05-sensitivity.png")
