"""AppTest: the Plan page (issue 39): the next batch, the stopping rule in one sentence, downloads, the projection."""

from __future__ import annotations

from scorio_core import io
from scorio_core.leaderboard.table import outcomes_for
from scorio_core.plan import plan_next
from scorio_core.plan.goals import format_draw_probability
from dashboard.tables.plan import LINKING_LABEL, batch_display, batch_frame, plan_sentence
from dashboard.text import probability_cells
from tests.app.conftest import ROOT, chart_specs, no_exception, shown

PLAN = "pages/results/plan.py"
COUNTS = ROOT / "data" / "matharena_aime_2025_I_counts.csv"


def _texts(at, kind: str) -> str:
    return " ".join(shown(e.value) for e in getattr(at.main, kind))


def _core_plan(**options):
    return plan_next(outcomes_for(io.load([str(COUNTS)])).rubric, **options)


def test_renders_the_core_plan_on_the_default_counts_dataset(app):
    app.switch_page(PLAN).run()
    no_exception(app)
    assert app.title[0].value == "Plan"
    expected = _core_plan(goal="top-1", confidence=0.95, batch=200, seed=0)
    status = _texts(app, "success") + _texts(app, "info")
    assert shown(plan_sentence(expected.reason)) in status  # the stopping status in one sentence, from the core
    # in words, not the CLI's status string (QA F11: "continue: P(...) = 0.509 < 0.95", "9.75e-3")
    assert "continue:" not in status and " < 0.95" not in status and status.startswith("Keep running: P(")
    assert ", below the 0.95 goal" in status
    assert batch_display(expected.batch)[1]["expected_gain"]["type_config"]["format"] == "%.4f"  # 0.0098, not 9.75e-3
    table = app.main.dataframe[0].value
    assert table["trials"].sum() == sum(r["trials"] for r in expected.batch) == 200
    assert list(table.columns) == ["model", "task", "question_id", "trials", "expected_gain"]
    assert table[["model", "question_id", "trials"]].astype(str).values.tolist() == [
        [r["model"], str(r["question_id"]), str(r["trials"])] for r in expected.batch]
    assert app.main.metric[0].value == format_draw_probability(expected.goal["probability"])  # '> 0.999' at 1
    assert [e.label for e in app.main.expander] == ["Method"]
    # the gain is a decrease of a sum over pairs (it exceeds 1 with many close models: 1.15 on 300 models), not of a
    # probability (QA 2026-12-03)
    captions = _texts(app, "caption")
    assert "error score" in captions and "error probability" not in captions
    assert "error probability" not in batch_display(expected.batch)[1]["expected_gain"]["help"]


def test_downloads_carry_the_batch(app):
    app.switch_page(PLAN).run()
    buttons = {b.proto.label: b for b in app.get("download_button")}
    csv_label = next(k for k in buttons if "CSV" in k)
    jsonl_label = next(k for k in buttons if "JSONL" in k)
    expected = _core_plan(goal="top-1", confidence=0.95, batch=200, seed=0)
    assert f"{len(expected.batch):,} rows" in csv_label and f"{len(expected.batch):,} rows" in jsonl_label


def test_pair_goal_and_the_models_tab(app):
    app.switch_page(PLAN).run()
    app.selectbox(key="plan_goal").set_value("pair").run()
    no_exception(app)
    a, b = app.selectbox(key="plan_a").value, app.selectbox(key="plan_b").value
    assert a != b
    expected = _core_plan(goal="pair", pair=(a, b), tolerance=0.01, confidence=0.95, batch=200, seed=0)
    assert shown(plan_sentence(expected.reason)) in _texts(app, "success") + _texts(app, "info")
    app.session_state["plan_view"] = "Models"
    app.run()
    no_exception(app)
    models = app.main.dataframe[-1].value
    p_best = [m["p_best"] for m in expected.status["models"]]
    assert len(models) == 16 and abs(sum(p_best) - 1.0) < 1e-9
    # near-zero P(best) as the Pairwise tab writes it ("<.01", never "0.000"); no caption points at a note not shown
    assert models["p_best"].tolist() == probability_cells(p_best).tolist() and "<.01" in set(models["p_best"])
    assert not any("0.000" in v for v in models["p_best"]) and "note above" not in _texts(app, "caption")


def test_projection_tab_draws_replays_and_their_mean(app):
    app.switch_page(PLAN).run()
    app.session_state["plan_view"] = "Projection"
    app.run()
    no_exception(app)
    spec = chart_specs(app)[-1]
    names = [t.get("name") for t in spec["data"]]
    assert names.count("replays") == 8 and names[-1] == "mean of replays"
    assert spec["layout"]["yaxis"]["range"] == [0, 1.02]
    assert "the data so far" in spec["layout"]["xaxis"]["title"]["text"]
    assert "8 replays of 6 batches" in _texts(app, "caption") and "reached the goal" in _texts(app, "caption")


def test_width_goal_and_a_bad_setting_keep_the_page_running(app):
    app.switch_page(PLAN).run()
    app.selectbox(key="plan_goal").set_value("width").run()
    no_exception(app)
    app.number_input(key="plan_width").set_value(0.9).run()  # every interval is narrower: stop
    no_exception(app)
    assert "narrower than 0.9" in _texts(app, "success")
    # the reason is said once (the success box), not repeated in the empty batch's notice
    assert "Nothing to run: the planner stops here, for the reason above." in _texts(app, "info")
    assert "narrower than 0.9" not in _texts(app, "info")


def test_models_table_says_p_best_is_a_share_of_draws():
    """P(best) of 1.000 / 0.000 is every / no joint draw, not certainty: its column says so."""
    from dashboard.tables.plan import model_status_display

    models = [{"model": "a", "mean": 0.9, "lo": 0.85, "hi": 0.95, "p_best": 1.0, "trials": 40, "questions": 10,
               "missing_questions": 0},
              {"model": "b", "mean": 0.2, "lo": 0.15, "hi": 0.25, "p_best": 0.0, "trials": 40, "questions": 10,
               "missing_questions": 0}]
    frame, config = model_status_display(models, confidence=0.95)
    assert frame["p_best"].tolist() == [">.99", "<.01"]  # as the Pairwise tab, not "1.000" / "0.000"
    help_text = config["p_best"]["help"]
    assert "share of the joint posterior draws" in help_text and "not certainty" in help_text


def test_all_tasks_pooled_is_refused_with_the_clis_reason(app):
    """The planner checks its goal on one task's posterior: under 'all tasks' the page says so and plans nothing, as
    `plan --task 'all tasks'` refuses (before: the page planned trials of models on tasks they never attempted)."""
    from scorio_core.plan import ONE_TASK

    rows = ["model,task,question,trial,correct"] + [
        f"{m},{t},q{q},{r},{(q * 3 + r + len(m) + len(t)) % 4 < 2}" for m in ("a", "bb", "ccc") for t in ("x", "yy")
        for q in range(6) for r in range(3)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("two.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.sidebar.selectbox(key="task").set_value("all tasks").run()
    app.switch_page(PLAN).run()
    no_exception(app)
    assert ONE_TASK[:40] in _texts(app, "info").lower() and "Task selector" in _texts(app, "info")
    assert not app.main.dataframe
    app.sidebar.selectbox(key="task").set_value("x").run()
    no_exception(app)
    assert app.main.dataframe  # one task: the plan


def test_a_prior_other_than_the_sidebars_is_said_beside_the_plan(app):
    """The planner defaults to the uniform prior, the sidebar to empirical Bayes: the page says its probabilities
    therefore differ from the Leaderboard's, and why (before: only in the selector's help)."""
    app.switch_page(PLAN).run()
    no_exception(app)
    captions = " ".join(shown(c.value) for c in app.main.caption)
    assert "The plan uses the Uniform (paper) prior, the Leaderboard the sidebar's (empirical-Bayes prior" in captions
    app.selectbox(key="plan_prior").set_value("empirical-bayes").run()
    assert "The plan uses the" not in " ".join(shown(c.value) for c in app.main.caption)


def test_a_stop_on_arc_agi_names_o3s_retry_after_failure_trials(app):
    """QA: on ARC-AGI-1 the planner stopped (top-1 holds, o3 best) without a word of o3's trials, which are not
    exchangeable (trial 2 made only after a failed trial 1): the Plan page repeats the Leaderboard's warning and says
    the stop assumes exchangeable trials; the counts-only default says nothing of it."""
    app.switch_page(PLAN).run()
    no_exception(app)
    assert "trial's position" not in _texts(app, "warning")  # counts: no trial order
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.switch_page(PLAN).run()
    no_exception(app)
    (warning,) = [w for w in map(shown, (w.value for w in app.main.warning)) if "trial's position" in w]
    assert warning.startswith("open_ai_o3_high's success rate depends on the trial's position (trial 1: 88.5% of 419, "
                              "trial 2: 3.1% of 419")  # the sidebar's short names, as on the Compare page
    assert warning.endswith("A stop decision assumes exchangeable trials as well: the goal's probability treats each "
                            "model's trials as draws of one success rate, which these models' are not, so a stop that "
                            "rests on them may not hold.")


def test_groups_sharing_no_question_are_said_and_not_ranked(app):
    """QA: the planner declared a winner between groups of models answering disjoint questions; the page now shows
    the leaderboard's disconnected_groups notice, no P(goal holds) across the groups, and the linking batch."""
    rates = {"a1": 0.4, "a2": 0.95, "b1": 0.3, "b2": 0.5}
    rows = ["model,question,trial,correct"] + [
        f"{m},q{q:02d},{r},{(q * 7 + r * 3 + len(m)) % 20 < p * 20}" for m, p in rates.items()
        for q in (range(10) if m[0] == "a" else range(10, 20)) for r in range(4)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("disjoint.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(PLAN).run()
    no_exception(app)
    warnings = _texts(app, "warning")
    assert "The models fall into 2 groups that share no question" in warnings
    assert "top-1 cannot be decided" in _texts(app, "info") and not _texts(app, "success")
    assert app.main.metric[0].value == "not supported"
    table = app.main.dataframe[0].value
    assert table["trials"].sum() == 200 and table["expected_gain"].eq(LINKING_LABEL).all()  # not a grey "None"
    rows = [{"model": "a", "task": "t", "question_id": "q1", "trials": 5, "expected_gain": float("nan")},
            {"model": "b", "task": "t", "question_id": None, "trials": 3, "expected_gain": 0.01234}]
    assert batch_display(rows)[0]["expected_gain"].tolist() == [LINKING_LABEL, "0.0123"]
    assert batch_frame(rows)["expected_gain"].isna().tolist() == [True, False]  # the CSV keeps an empty number
    own = {m: {f"q{q:02d}" for q in (range(10) if m[0] == "a" else range(10, 20))} for m in rates}
    assert not any(q in own[m] for m, q in zip(table["model"], table["question_id"]))


def test_the_uncertainty_line_and_notes_read_as_sentences(app):
    """The planner's notes are lower-case clauses (the CLI prints them after '#'); joined on the page they read
    "... inform them). the uniform prior moves ..." (QA 2026-12-03): each is a capitalised sentence, the scope in words."""
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()  # two models miss questions: notes
    app.switch_page(PLAN).run()
    no_exception(app)
    caption = next(shown(c.value) for c in app.main.caption if "all the uncertainty is trial noise" in shown(c.value))
    assert caption.startswith("Questions fixed: all the uncertainty is trial noise")
    assert "Models with unanswered questions (their score covers every question of the task" in caption
    assert ". the " not in caption and ". models " not in caption and "questions-fixed" not in caption
