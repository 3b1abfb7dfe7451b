"""Real browser (issue 14): an upload survives a reload; a share link opens the same leaderboard in a fresh
browser after a server restart; the presentation link has no editing controls."""

from __future__ import annotations

import tempfile

import pytest

from tests.browser.conftest import ARTIFACTS, assert_clean, streamlit_server, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _table_text(page) -> str:
    """The first table's header and cell texts (from the glide grid's accessible table; its canvas has no text)."""
    grid = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first
    grid.wait_for(timeout=60_000)
    grid.locator('[role="row"]').nth(1).wait_for(state="attached", timeout=60_000)
    text = grid.evaluate(
        """el => [...el.querySelectorAll('[role="row"]')].map(r =>
               [...r.querySelectorAll('[role="columnheader"], [role="gridcell"]')].map(c => c.innerText.trim()).join(' | ')
           ).join('\\n')"""
    )
    assert "model" in text.lower(), text
    return text


def _models_in(text: str) -> list[str]:
    """The Model column of :func:`_table_text`'s text."""
    rows = [r.split(" | ") for r in text.splitlines()]
    return [r[rows[0].index("Model")] for r in rows[1:]]


def _static_models(page) -> list[str]:
    """The Model column of the presentation's static table (a printable ``st.table``, not the interactive grid)."""
    table = page.locator('[data-testid="stMain"] [data-testid="stTable"]').first
    table.wait_for(timeout=60_000)
    rows = table.evaluate("el => [...el.querySelectorAll('tr')].map(r => [...r.querySelectorAll('th, td')]"
                          ".map(c => c.innerText.trim()))")
    return [r[rows[0].index("Model")] for r in rows[1:]]


def _covers(page) -> str:
    """The Leaderboard's "What the interval covers" caption (level, prior, scope)."""
    caption = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="What the interval covers").first
    caption.wait_for(timeout=60_000)
    return caption.inner_text()


def test_upload_reload_share_restart_present(browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    data = tmp_path / "shared_eval.csv"
    data.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"model-{m},q{q},{t},{int((m * 3 + q + t) % 4 != 0) if m else int((q + t) % 3 == 0)}\n"
        for m in range(3) for q in range(8) for t in range(4)))
    workspace = tempfile.mkdtemp(prefix="scorio-ws-share-")
    with streamlit_server(workspace) as url:
        context = browser.new_context(viewport={"width": 1440, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(url)
        wait_ready(page)
        page.get_by_role("link", name="Data").click()
        wait_ready(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(data))
        page.get_by_role("button", name="Load", exact=True).wait_for()
        try:
            page.get_by_role("button", name="Load", exact=True).click(timeout=20_000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "share-load-failed.png"))
            raise
        wait_ready(page)
        page.get_by_text("Uploaded: shared_eval").first.wait_for()
        page.reload()  # the upload must survive a reload
        wait_ready(page)
        page.get_by_role("heading", name="Uploaded: shared_eval").first.wait_for()
        page.get_by_role("link", name="Export").click()
        wait_ready(page)
        page.get_by_role("button", name="Create share link").click()
        wait_ready(page)
        # under load the rerun that writes the links can finish after wait_ready: wait for the present link itself
        page.get_by_role("textbox", name="Presentation link", exact=True).first.wait_for()
        link = page.get_by_role("textbox", name="Share link", exact=True).first.input_value().strip()
        present = page.get_by_role("textbox", name="Presentation link", exact=True).first.input_value().strip()
        assert "?analysis=" in link and "view=present" not in link and "view=present" in present, (link, present)
        page.get_by_role("link", name="Leaderboard").click()
        wait_ready(page)
        before = _table_text(page)
        assert "95%" in _covers(page), _covers(page)
        assert_clean(page)
        context.close()
    with streamlit_server(workspace) as url2:  # a restarted server on the same workspace
        for address, presenting in ((link, False), (present, True)):
            context = browser.new_context(viewport={"width": 1440, "height": 1000})  # a fresh browser
            page = context.new_page()
            page.set_default_timeout(60_000)
            assert address.startswith(("http://", "https://")), address  # a full link, ready to paste
            page.goto(url2 + "/" + address[address.index("?"):])  # same query, the restarted server's port
            wait_ready(page)
            page.get_by_text("Opened the shared analysis").first.wait_for(state="attached")  # sidebar (collapsed when presenting)
            if presenting:  # a static table that prints whole (QA F13), the same models in the same order
                assert _static_models(page) == _models_in(before)
            else:
                assert _table_text(page) == before
            assert page.get_by_role("tab", name="Pairwise P(A > B)").count() == (0 if presenting else 1)
            if not presenting:  # the restored analysis (credibility level included) survives page switches
                for title in ("Rubric", "Leaderboard"):
                    page.get_by_role("link", name=title, exact=True).click()
                    wait_ready(page)
                page.get_by_role("heading", name="Leaderboard").first.wait_for()
                assert _table_text(page) == before
                assert "95%" in _covers(page), _covers(page)
                # the page switches kept the link in the address bar: a reload reopens the analysis (the uploaded
                # data), not the defaults (the bundled demo data)
                assert "analysis=" in page.url, page.url
                page.reload()
                wait_ready(page)
                page.get_by_role("heading", name="Leaderboard").first.wait_for()
                assert _table_text(page) == before
            assert_clean(page)
            page.screenshot(path=str(ARTIFACTS / f"share-{'present' if presenting else 'link'}.png"))
            context.close()
