"""AppTest: the same analysis says the same thing on every page, as the Leaderboard and the CLI say it (QA pass "the
same analysis says the same thing everywhere", 2026-12-02)."""

from __future__ import annotations

from scorio_core import io
from scorio_core.leaderboard.checks import prior_pull_notice
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from tests.app.conftest import ROOT, no_exception, shown
from tests.app.test_share_links import _open

BOARD, COMPARE, TASKS = "pages/results/leaderboard.py", "pages/results/compare.py", "pages/results/tasks.py"
MATHARENA = str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")
ADVICE = " Choose the *Empirical Bayes (calibrated)* prior in the sidebar to let each model's questions set its prior."


def _uniform_board():
    return leaderboard(outcomes_for(io.load([MATHARENA])), prior="uniform")


def _pulled(at) -> list[str]:
    return [shown(w.value) for w in at.main.warning if "observed avg@N" in w.value]


def test_compare_warns_when_a_prior_pulls_a_or_b_beyond_its_interval(app):
    """MathArena, uniform prior: o3-mini (high)'s avg@N 0.800 beside [0.624, 0.776]; Compare said nothing."""
    app.sidebar.selectbox(key="prior").set_value("uniform").run()
    app.switch_page(COMPARE).run()
    no_exception(app)
    pair = ["o3-mini (high)", "o1 (medium)"]
    assert [app.selectbox(key="cmp_a").value, app.selectbox(key="cmp_b").value] == pair
    board = _uniform_board()
    note = prior_pull_notice(board[board["model"].isin(pair)])
    assert note is not None and "o3-mini (high)" in note["models"]
    assert _pulled(app) == [shown(note["finding"]) + ADVICE]
    assert "avg@N 0.800, interval [0.624, 0.776]" in _pulled(app)[0]


def test_tasks_warns_as_the_leaderboard_does(app):
    app.sidebar.selectbox(key="prior").set_value("uniform").run()
    app.switch_page(BOARD).run()
    no_exception(app)
    on_board = _pulled(app)
    assert len(on_board) == 1 and "o3-mini (high)" in on_board[0]
    app.switch_page(TASKS).run()
    no_exception(app)
    assert _pulled(app) == on_board  # one task: the same words as its Leaderboard


def test_the_few_trials_caveat_is_on_the_leaderboard_and_in_the_presentation(app):
    """MathArena has N = 4: the exports said "With as few as N = 4 trials per question, ..." and the page did not."""
    from tests.app.test_share_links import _share

    app.switch_page(BOARD).run()
    no_exception(app)
    few = "With as few as N = 4 trials per question, posterior means are pulled toward the prior mean"
    assert any(few in shown(c.value) for c in app.main.caption)
    snapshot = _share(app)
    fresh = _open({"analysis": snapshot, "view": "present"})
    assert any(few in shown(c.value) for c in fresh.main.caption)


def test_the_loaders_partial_score_note_is_on_the_leaderboard(app):
    """LiveBench: 17% of the attempts have a partial score counted incorrect; the CLI's leaderboard notes say so."""
    app.sidebar.selectbox(key="dataset").set_value("livebench-2025-01").run()
    app.switch_page(BOARD).run()
    no_exception(app)
    infos = [shown(i.value) for i in app.main.info]
    assert any("have a partial score strictly between 0 and 1 in 'score'" in i and "counts 16,241 of them incorrect"
               in i for i in infos), infos


def test_exact_ties_are_ordered_as_the_leaderboard_orders_them(app):
    """MathArena, uniform prior: DeepSeek-R1-Distill-Qwen-32B and o3-mini (low) tie exactly; the Leaderboard puts the
    first by name first, the Tasks page kept the data's order."""
    app.sidebar.selectbox(key="prior").set_value("uniform").run()
    tied = ["DeepSeek-R1-Distill-Qwen-32B", "o3-mini (low)"]
    board = _uniform_board().set_index("model")
    assert board.loc[tied[0], "mu"] == board.loc[tied[1], "mu"]
    order = list(_uniform_board()["model"])
    app.switch_page(TASKS).run()
    no_exception(app)
    rows = list(app.main.dataframe[0].value.index)
    assert rows == order and rows.index(tied[0]) < rows.index(tied[1])
    assert list(app.main.dataframe[1].value["model"]) == order  # the combined table too


def test_short_names_on_the_tasks_page_and_in_compares_caption(app):
    rows = ["model,task,question_id,trial,is_correct"]
    rows += [f"acme/model-{m}-20240101,{t},q{q},{i},{(q + i + (m == 'a') + len(t)) % 2}"
             for m in "ab" for t in ("x", "yy") for q in range(4) for i in range(2)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("named.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(TASKS).run()
    no_exception(app)
    short = {"model-a", "model-b"}
    grid, combined, verdicts, flaky = (d.value for d in app.main.dataframe)
    assert set(grid.index) == set(verdicts.index) == set(flaky.index) == set(combined["model"]) == short
    assert any("Short model names" in shown(c.value) for c in app.main.caption)
    app.switch_page(COMPARE).run()
    no_exception(app)
    caption = next(shown(c.value) for c in app.main.caption if shown(c.value).startswith("A = "))
    assert caption.startswith("A = model-") and "acme/" not in caption
    app.sidebar.toggle(key="short_names").set_value(False).run()
    caption = next(shown(c.value) for c in app.main.caption if shown(c.value).startswith("A = "))
    assert caption.startswith("A = acme/model-")
    app.switch_page(TASKS).run()
    assert set(app.main.dataframe[0].value.index) == {"acme/model-a-20240101", "acme/model-b-20240101"}


def test_avg_caption_under_a_rubric_says_mean_rubric_score(sim_app):
    at = sim_app
    at.switch_page(BOARD).run()
    assert any("its accuracy under binary correctness" in shown(c.value) for c in at.main.caption)
    at.switch_page("pages/data/rubric.py").run()
    at.selectbox(key="rubric_schema").set_value("Format Aware").run()
    at.switch_page(BOARD).run()
    no_exception(at)
    captions = " ".join(shown(c.value) for c in at.main.caption)
    assert "its mean rubric score under Format Aware, on a 0-to-3 scale" in captions
    assert "under binary correctness" not in captions
