"""Real browser (issues 16 and 14) at 1280 x 900 on a per-attempt dump with duration and token columns.

Issue 16: a rubric edit that leaves attempts in no category shows the count on the Leaderboard and the
choice of what they count as changes N/M as stated; Sensitivity lists the numeric columns as signals; the
Tasks page shows models x tasks and the combined score; clicking a row of "Where they disagree" opens that
question's attempts; the sidebar model filter narrows the results pages and survives a reload via the URL;
screenshots at 1280 px. Issue 14: a rubric weight edit survives a reload with the same dataset and leaderboard.
"""

from __future__ import annotations

import json
import re
import time

import pandas as pd
import pytest

from tests.browser.conftest import assert_no_exception, shot, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

WIDTH, HEIGHT = 1280, 900
MODELS = ("openai/gpt-4o-2024-08-06", "anthropic/claude-3-5-sonnet-20241022", "google/gemini-1.5-pro-002",
          "meta-llama/llama-3.1-405b-instruct")
TASKS = ("algebra", "geometry")
FAST = 30.0  # seconds: a correct attempt at least this slow matches no category of the edited rubric
RUBRIC = {
    "format": "scorio-rubric", "version": 1, "name": "Fast or wrong",
    "description": "Correct and fast, or wrong; slow correct attempts match no category.",
    "thresholds": [], "variables": [],
    "categories": [
        {"label": "wrong", "condition": "is_correct < 0.5", "weight": 0.0},
        {"label": "fast correct", "condition": f"is_correct >= 0.5 and duration_s < {FAST:g}", "weight": 1.0},
    ],
}


# --------------------------------------------------------------------------- fixture data
def _attempts() -> pd.DataFrame:
    """4 models x 2 tasks x 10 questions x 4 trials; pass rates rise with the model index (10 questions tried 4 times:
    the empirical-Bayes prior is fitted, MIN_REPEATED_QUESTIONS, so the intervals are credible ones)."""
    rows = []
    for m, model in enumerate(MODELS):
        for t, task in enumerate(TASKS):
            for q in range(10):
                for trial in range(4):
                    correct = int((q * 5 + trial * 3 + m * 7 + t * 2) % 10 < 3 + 2 * m)
                    rows.append({
                        "model": model, "task": task, "question_id": f"{task[:3]}-q{q}", "trial": trial,
                        "is_correct": correct, "duration_s": 10.0 + ((q * 13 + trial * 7 + m * 3 + t) % 8) * 8.0,
                        "total_tokens": 500 + 37 * q + 11 * trial + 100 * m, "answer": f"answer {q}.{trial}",
                    })
    return pd.DataFrame(rows)


def _write_csv(tmp_path, name="workbench_eval") -> tuple:
    frame = _attempts()
    path = tmp_path / f"{name}.csv"
    frame.to_csv(path, index=False)
    return path, frame


# --------------------------------------------------------------------------- page helpers
def _open(page, url: str) -> None:
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto(url)
    wait_ready(page)


def _go(page, title: str) -> None:
    page.get_by_role("link", name=title, exact=True).click()
    wait_ready(page)
    page.get_by_role("heading", name=title).first.wait_for()
    wait_ready(page)
    assert_no_exception(page)


def _select(page, label: str, option: str, scope=None) -> None:
    box = (scope or page).locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    box.click()
    page.get_by_role("option", name=option, exact=True).first.click()
    wait_ready(page)


def _upload_and_load(page, path) -> None:
    """Data page: open the uploader (state read from the DOM, never a visibility probe), add one file, Load."""
    _go(page, "Data")
    expander = page.locator('[data-testid="stExpander"]').filter(has_text="Upload eval dumps").first
    expander.wait_for()
    if expander.locator("details").first.get_attribute("open") is None:
        expander.locator("summary").first.click()
        wait_ready(page)
    page.locator('[data-testid="stFileUploaderDropzone"]').first.wait_for()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    wait_ready(page)
    page.get_by_role("button", name="Load", exact=True).click()
    wait_ready(page)
    page.get_by_text(f"Uploaded: {path.stem}").first.wait_for(timeout=60_000)
    assert_no_exception(page)


def _grid(page, nth: int = 0, within=None):
    grid = (within or page.locator('[data-testid="stMain"]')).locator('[data-testid="stDataFrame"]').nth(nth)
    grid.wait_for(timeout=60_000)
    return grid


def _grid_rows(grid) -> tuple[list[str], list[list[str]]]:
    """Header and body cell texts of a glide grid, from its accessible table (rendered columns only)."""
    grid.locator('[role="row"]').nth(1).wait_for(state="attached", timeout=60_000)
    data = grid.evaluate(
        """el => {
            const rows = [...el.querySelectorAll('[role="row"]')];
            return rows.map(r => [...r.querySelectorAll('[role="columnheader"], [role="gridcell"]')]
                                   .map(c => c.innerText.trim()));
        }"""
    )
    return data[0], data[1:]


def _column(grid, name: str) -> list[str]:
    header, body = _grid_rows(grid)
    index = header.index(name)
    return [row[index] for row in body]


def _overflow(grid) -> dict:
    """Widths of a grid, its horizontal scroll area and the main block (px)."""
    return grid.evaluate(
        """el => {
            const s = el.querySelector('.dvn-scroller');
            const main = document.querySelector('[data-testid="stMainBlockContainer"]');
            const box = el.getBoundingClientRect();
            return {grid: box.width, right: box.right, main: main.getBoundingClientRect().width,
                    main_right: main.getBoundingClientRect().right,
                    client: s ? s.clientWidth : null, scroll: s ? s.scrollWidth : null};
        }"""
    )


def _fewest(shown: str) -> int:
    """The smallest number of trials of an N cell: "4", or "3-4" where a model's questions had different counts."""
    return int(str(shown).split("-")[0])


def _full_names(labels) -> list[str]:
    """The full model name of each (possibly shortened) display name."""
    full = []
    for label in labels:
        hits = [m for m in MODELS if label in m]
        assert len(hits) == 1, (label, hits)
        full.append(hits[0])
    return full


def _leaderboard(page):
    page.get_by_role("tab", name="Ranking").wait_for()
    return _grid(page)


def _sidebar_pick_models(page, models) -> None:
    box = page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(has_text="Models").first
    for model in models:
        box.scroll_into_view_if_needed()  # the sidebar is taller than the window with every page listed
        box.locator("input").first.click()
        page.get_by_role("option", name=model, exact=True).first.click()
        wait_ready(page)
        box.filter(has_text=model).wait_for()  # the chip is there before the next pick
    page.keyboard.press("Escape")
    wait_ready(page)


def _expected_counts(frame: pd.DataFrame, task: str, exclude: bool) -> dict[str, tuple[int, int]]:
    """(M, N) per model, computed here: with exclusion, slow correct attempts drop out."""
    rows = frame[frame["task"] == task]
    if exclude:
        rows = rows[~((rows["is_correct"] == 1) & (rows["duration_s"] >= FAST))]
    per_question = rows.groupby(["model", "question_id"]).size()
    return {m: (int((g > 0).sum()), int(g.min())) for m, g in per_question.groupby(level="model")}


# --------------------------------------------------------------------------- issue 16
def test_uncategorised_attempts_choice_changes_n_and_m(page, server_url, tmp_path):
    path, frame = _write_csv(tmp_path, "workbench_rubric")
    rubric = tmp_path / "fast_or_wrong.json"
    rubric.write_text(json.dumps(RUBRIC))
    _open(page, server_url)
    _upload_and_load(page, path)

    _go(page, "Rubric")
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="Upload a rubric JSON").first
    uploader.locator('input[type="file"]').set_input_files(str(rubric))
    wait_ready(page)
    page.locator('[data-testid="stSidebar"]').filter(has_text="Fast or wrong").first.wait_for()
    editor = _grid(page)
    editor.filter(has_text="fast correct").wait_for()
    assert_no_exception(page)
    shot(page, "workbench-rubric.png", WIDTH, HEIGHT)

    task = page.get_by_role("combobox", name="Task", exact=True).input_value()
    assert task in TASKS
    scoped = frame[frame["task"] == task]
    unmatched = int(((scoped["is_correct"] == 1) & (scoped["duration_s"] >= FAST)).sum())
    assert 0 < unmatched < len(scoped)
    excluded, counted = _expected_counts(frame, task, True), _expected_counts(frame, task, False)
    assert excluded != counted  # the fixture makes the choice visible in M or N

    _go(page, "Leaderboard")
    notice = f"{unmatched:,} of {len(scoped):,} attempts matched no rubric category"
    page.get_by_text(notice).first.wait_for()
    board = _leaderboard(page)
    header, _ = _grid_rows(board)
    models = _full_names(_column(board, "Model"))
    assert sorted(models) == sorted(MODELS)
    shown = {m: (int(a), _fewest(b)) for m, a, b in zip(models, _column(board, "M"), _column(board, "N"))}
    assert shown == excluded

    _select(page, "Attempts in no category count as", "Category: fast correct")
    page.get_by_text("count as 'fast correct'").first.wait_for()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stDataFrame] [role=gridcell]')].length > 0")
    deadline = time.monotonic() + 30  # the notice can render before the table's new values (a loaded machine)
    while True:
        board = _leaderboard(page)
        shown = {m: (int(a), _fewest(b)) for m, a, b in
                 zip(_full_names(_column(board, "Model")), _column(board, "M"), _column(board, "N"))}
        if shown == counted or time.monotonic() > deadline:
            break
        page.wait_for_timeout(500)
    assert shown == counted == {m: (10, 4) for m in MODELS}
    assert_no_exception(page)

    # layout at 1280 px: the table's box stays inside the main block and nothing scrolls out of view (issue 16)
    size = _overflow(board)
    shot(page, "workbench-leaderboard.png", WIDTH, HEIGHT)
    assert size["grid"] <= size["main"] + 1 and size["right"] <= size["main_right"] + 1, size
    assert size["scroll"] is None or size["scroll"] <= size["client"] + 2, size  # no column cut off (N, M)


def test_signals_tasks_and_question_drilldown(page, server_url, tmp_path):
    path, frame = _write_csv(tmp_path, "workbench_views")
    _open(page, server_url)
    _upload_and_load(page, path)

    _go(page, "Rubric sensitivity")
    expander = page.locator('[data-testid="stExpander"]').filter(has_text="Signals of this data").first
    expander.wait_for(timeout=60_000)
    if expander.locator("details").first.get_attribute("open") is None:
        expander.locator("summary").first.click()
        wait_ready(page)
    signals = _column(_grid(page, within=expander), "Signal")
    assert {"duration_s", "total_tokens"} <= set(signals), signals
    assert "has no other numeric or boolean attempt signals" not in page.locator('[data-testid="stMain"]').inner_text()

    _go(page, "Tasks")
    page.get_by_role("heading", name="Bayes@N per task").wait_for()
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=60_000)
    header, body = _grid_rows(_grid(page, 0))
    assert set(TASKS) <= set(header), header
    assert len(body) == len(MODELS)
    for row in body:
        for task in TASKS:
            assert re.fullmatch(r"\d\.\d{3} \[\d\.\d\d, \d\.\d\d\]", row[header.index(task)]), row
    page.get_by_role("heading", name="Combined score").wait_for()
    combined = _grid(page, 1)
    header, body = _grid_rows(combined)
    assert "combined Bayes@N" in header and len(body) == len(MODELS), (header, body)
    scores = [float(v) for v in _column(combined, "combined Bayes@N")]
    assert all(0 <= s <= 1 for s in scores) and scores == sorted(scores, reverse=True)
    assert_no_exception(page)
    shot(page, "workbench-tasks.png", WIDTH, HEIGHT)
    for table in (_grid(page, 0), combined):  # layout at 1280 px (issue 16): no column scrolled out of view
        size = _overflow(table)
        assert size["grid"] <= size["main"] + 1 and (size["scroll"] is None or size["scroll"] <= size["client"] + 2), size

    _go(page, "Compare")
    page.get_by_role("heading", name="Where they disagree").wait_for()
    # the selectors show short names (as the Leaderboard); the attempts table and the data, full ones
    model_a, model_b = _full_names([page.get_by_role("combobox", name="Model A", exact=True).input_value(),
                                    page.get_by_role("combobox", name="Model B", exact=True).input_value()])
    section = page.locator('[data-testid="stMain"]')
    disagree = section.locator('[data-testid="stDataFrame"]').filter(has_text="question").first
    disagree.wait_for()
    questions = _column(disagree, _grid_rows(disagree)[0][0])
    assert len(questions) >= 2, questions
    before = page.get_by_role("combobox", name="Question", exact=True).input_value()
    target = 1 if questions[1] != before else 0  # a row whose question is not already open
    disagree.scroll_into_view_if_needed()
    box = disagree.bounding_box()
    page.mouse.click(box["x"] + 14, box["y"] + 35 * (target + 1) + 17)  # its row-selection marker
    wait_ready(page)
    page.wait_for_function(
        "q => document.querySelector('input[aria-label=\"Question\"]') && "
        "document.querySelector('input[aria-label=\"Question\"]').value === q", arg=questions[target], timeout=60_000)
    attempts = section.locator('[data-testid="stDataFrame"]').filter(has_text="trial").last
    attempts.wait_for()
    header, body = _grid_rows(attempts)
    model_col = header.index("Model")
    per_model = pd.Series([row[model_col] for row in body]).value_counts().to_dict()
    task = page.get_by_role("combobox", name="Task", exact=True).input_value()
    question_rows = frame[(frame["task"] == task) & (frame["question_id"] == questions[target])]
    assert set(per_model) == {model_a, model_b}, per_model
    assert per_model == question_rows[question_rows["model"].isin([model_a, model_b])]["model"].value_counts().to_dict()
    assert_no_exception(page)
    shot(page, "workbench-compare.png", WIDTH, HEIGHT)
    for table in (disagree, attempts):  # layout at 1280 px (issue 16): no column scrolled out of view
        size = _overflow(table)
        assert size["grid"] <= size["main"] + 1 and (size["scroll"] is None or size["scroll"] <= size["client"] + 2), size


def test_model_filter_narrows_pages_and_survives_reload(page, server_url, tmp_path):
    path, _ = _write_csv(tmp_path, "workbench_filter")
    _open(page, server_url)
    _upload_and_load(page, path)
    _go(page, "Leaderboard")
    assert len(_grid_rows(_leaderboard(page))[1]) == len(MODELS)
    picked = [MODELS[1], MODELS[3]]
    _sidebar_pick_models(page, picked)
    page.get_by_text("Showing 2 of 4 models").first.wait_for()

    def check_leaderboard():
        board = _leaderboard(page)
        header, body = _grid_rows(board)
        column = header.index("Model")
        assert sorted(_full_names(row[column] for row in body)) == sorted(picked), body

    check_leaderboard()
    assert "models=" in page.url, page.url
    page.reload()
    wait_ready(page)
    page.get_by_role("heading", name="Leaderboard").wait_for()
    page.get_by_text("Showing 2 of 4 models").first.wait_for()
    check_leaderboard()
    for model in picked:
        assert page.locator('[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(has_text=model).count()

    _go(page, "Tasks")
    page.get_by_text("Showing 2 of 4 models (sidebar filter)").first.wait_for()
    assert len(_grid_rows(_grid(page, 0))[1]) == 2
    _go(page, "Compare")
    offered = {page.get_by_role("combobox", name="Model A", exact=True).input_value(),
               page.get_by_role("combobox", name="Model B", exact=True).input_value()}
    assert set(_full_names(offered)) == set(picked)  # shown by their short names, as on the Leaderboard
    assert_no_exception(page)


# --------------------------------------------------------------------------- issue 14
def test_rubric_weight_edit_survives_reload(page, server_url, tmp_path):
    path, _ = _write_csv(tmp_path, "workbench_weight")
    _open(page, server_url)
    _upload_and_load(page, path)
    _go(page, "Rubric")
    editor = _grid(page)
    editor.filter(has_text="correct").wait_for()
    wait_ready(page)
    editor.locator('[role="gridcell"]').first.focus()  # first row ("wrong"), Order column
    for key in ("ArrowRight", "ArrowRight", "Enter"):  # -> Weight column
        page.keyboard.press(key)
        page.wait_for_timeout(150)
    cell = page.locator("input.gdg-input")
    cell.wait_for()
    cell.fill("0.25")
    page.keyboard.press("Enter")
    page.locator('[data-testid="stSidebar"]').filter(has_text="(edited)").first.wait_for()
    wait_ready(page)
    assert _column(_grid(page), "Weight")[:2] == ["0.25", "1"]
    assert_no_exception(page)

    _go(page, "Leaderboard")
    page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]').filter(
        has_text=f"Uploaded: {path.stem}").first.wait_for()
    before = _grid(page).inner_text()
    caption = page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]').first.inner_text()
    assert "(edited)" in caption, caption

    page.reload()
    wait_ready(page)
    page.get_by_role("heading", name="Leaderboard").wait_for()
    page.get_by_text(f"Uploaded: {path.stem}").first.wait_for()
    assert page.locator('[data-testid="stMain"] [data-testid="stCaptionContainer"]').first.inner_text() == caption
    assert _grid(page).inner_text() == before
    _go(page, "Rubric")
    assert _column(_grid(page), "Weight")[:2] == ["0.25", "1"]
    assert_no_exception(page)
    # layout at 1280 px (issue 16): the re-ranked table beside the thresholds panel shows every column in full
    reranked = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').filter(has_text="CrI").first
    reranked.wait_for(timeout=60_000)
    size = _overflow(reranked)
    shot(page, "workbench-rubric.png", WIDTH, HEIGHT)
    assert size["scroll"] is None or size["scroll"] <= size["client"] + 2, size
    header, body = _grid_rows(reranked)
    interval = next(h for h in header if re.fullmatch(r"\d+% CrI", h))
    assert all(re.fullmatch(r"\[\d\.\d{3}, \d\.\d{3}\]", row[header.index(interval)]) for row in body), body
    # the sidebar shows 95%: the page must compute at 95% too (a page switch once reset the credibility level
    # to its first option in the backend while the slider still showed 95%)
    assert interval == "95% CrI", header
