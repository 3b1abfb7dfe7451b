"""One real-browser test: open the app, check the leaderboard, upload a CSV, take screenshots.

Screenshots land in ``test-artifacts/`` (look at them when changing pages).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _wait_ready(page):
    page.wait_for_selector('[data-testid="stApp"]')
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.indexOf('Running') < 0",
        timeout=90_000,
    )
    page.wait_for_timeout(800)


def _assert_no_error(page):
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator('[data-testid="stException"]').first.inner_text()


def test_leaderboard_upload_and_screenshots(page, server_url, tmp_path):
    page.goto(server_url)
    _wait_ready(page)
    page.get_by_role("heading", name="Leaderboard").wait_for()
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for()
    _assert_no_error(page)
    chart_text = page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    assert "o3-mini (high)" in chart_text and "claude-3.5-sonnet" in chart_text  # real MathArena models
    page.screenshot(path=str(ARTIFACTS / "01-leaderboard.png"), full_page=True)

    csv = tmp_path / "browser_upload.csv"
    rows = ["model,question,seed,correct"]
    rows += [f"{m},q{q},{t},{int((q * 7 + t * 3 + len(m)) % 4 != 0)}" for m in ("model-alpha", "model-beta", "model-gamma") for q in range(12) for t in range(5)]
    csv.write_text("\n".join(rows) + "\n")

    page.goto(server_url + "/data")
    _wait_ready(page)
    page.get_by_role("heading", name="Data").first.wait_for()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(csv))
    page.get_by_role("button", name="Load", exact=True).wait_for()
    page.get_by_role("button", name="Load", exact=True).click()
    _wait_ready(page)
    page.get_by_text("Uploaded: browser_upload").first.wait_for()
    _assert_no_error(page)
    page.screenshot(path=str(ARTIFACTS / "02-data-after-upload.png"), full_page=True)

    page.get_by_role("link", name="Leaderboard").click()
    _wait_ready(page)
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for()
    chart_text = page.locator('[data-testid="stPlotlyChart"]').first.inner_text()
    for model in ("model-alpha", "model-beta", "model-gamma"):
        assert model in chart_text
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.wait_for()
    assert "model-alpha" in grid.inner_text() or grid.locator("canvas").count() >= 1
    _assert_no_error(page)
    page.screenshot(path=str(ARTIFACTS / "03-leaderboard-uploaded.png"), full_page=True)
