"""Real browser (issue 17): after a good upload, a gzip bomb and a deep-JSON file give clear errors and the good data stays."""

from __future__ import annotations

import gzip

import pytest

from tests.browser.conftest import assert_no_exception, shot, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _upload(page, path) -> None:
    # After a load the uploader folds into a collapsed expander. Read its state from the DOM
    # (never from a visibility probe, which races a slow render and would fold an open expander).
    expander = page.locator('[data-testid="stExpander"]').filter(has_text="Upload eval dumps").first
    expander.wait_for()
    if expander.locator("details").first.get_attribute("open") is None:
        expander.locator("summary").first.click()
        wait_ready(page)
    page.locator('[data-testid="stFileUploaderDropzone"]').first.wait_for()
    delete = page.locator('[data-testid="stFileChipDeleteBtn"]')
    while delete.count():  # the uploader keeps earlier files: start from this one alone
        delete.first.click()
        wait_ready(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    wait_ready(page)
    page.get_by_role("button", name="Load", exact=True).wait_for()
    page.get_by_role("button", name="Load", exact=True).click()
    wait_ready(page)


def test_bomb_and_deep_json_after_a_good_upload(page, server_url, tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"m{m},q{q},{t},{(m + q + t) % 2}\n" for m in range(3) for q in range(6) for t in range(3)))
    bomb = tmp_path / "bomb.csv.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as fh:
        fh.write(b"model,question_id,is_correct\n")
        for _ in range(96):  # 96 MiB inside, ~100 kB on disk; the test server's limit is 64 MiB
            fh.write(b"0" * (1 << 20))
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 200_000 + b"]" * 200_000)

    page.goto(server_url)
    wait_ready(page)
    page.get_by_role("link", name="Data", exact=True).click()
    wait_ready(page)
    page.get_by_role("heading", name="Data").first.wait_for()
    _upload(page, good)
    page.get_by_text("Uploaded: good").first.wait_for()

    _upload(page, bomb)
    page.get_by_text("SCORIO_MAX_DECOMPRESSED_BYTES").first.wait_for(timeout=60_000)
    page.get_by_text("Nothing changed: the previously loaded data is still active.").first.wait_for()
    assert_no_exception(page)
    shot(page, "hostile-01-gzip-bomb.png")

    _upload(page, deep)
    page.get_by_text("nested too deeply").first.wait_for(timeout=60_000)
    assert_no_exception(page)
    assert "Traceback" not in page.locator('[data-testid="stMain"]').inner_text()
    page.get_by_text("Uploaded: good").first.wait_for()  # still the active dataset (sidebar)
    shot(page, "hostile-02-deep-json.png")
