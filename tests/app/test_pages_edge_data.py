"""AppTest: data shapes a lead must not be misled by: a model the Data page's choices emptied (named on the Leaderboard and
the Export page), models scored on different questions of equal count (the verdict never says "these 10 questions")."""

from __future__ import annotations

from tests.app.conftest import ROOT, no_exception, shown

DATA, BOARD, EXPORT = "pages/data/data.py", "pages/results/leaderboard.py", "pages/share/export.py"
# c's two attempts have no outcome: "drop" removes c from every table
DUMP = "model,question,seed,correct\na,q1,0,1\na,q2,0,0\nb,q1,0,0\nb,q2,0,1\nc,q1,0,\nc,q2,0,\n"


def test_a_model_dropped_with_its_missing_outcomes_is_named(app):
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("gone.csv", DUMP.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.session_state["data_view"] = "Data quality"
    app.run()
    next(s for s in app.main.selectbox if s.label == "Attempts without an outcome").set_value("drop")
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    applied = [shown(s.value) for s in app.main.success if "Applied" in s.value]
    assert any("no row left for 1 (model, task) pair, not ranked there: c on gone" in t for t in applied), applied
    app.switch_page(BOARD).run()
    no_exception(app)
    warnings = [shown(w.value) for w in app.main.warning]
    assert any(w.startswith("1 model is not ranked: a data-quality choice removed every row it had on this task: c "
                            "(missing_outcomes=drop). Undo that choice under") for w in warnings), warnings
    app.switch_page(EXPORT).run()
    no_exception(app)
    assert any("1 model is not ranked" in shown(w.value) for w in app.main.warning)


def test_attempts_counted_as_incorrect_are_said_beside_the_leaderboard(app):
    """Counting c's two attempts without an outcome as wrong ranks c last: the Leaderboard and the Export page say
    which choice did that and where, not only the Data page."""
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("filled.csv", DUMP.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.session_state["data_view"] = "Data quality"
    app.run()
    next(s for s in app.main.selectbox if s.label == "Attempts without an outcome").set_value("incorrect")
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    line = ("Data-quality choices applied before scoring: missing_outcomes=incorrect: 2 attempts without an outcome "
            "counted as incorrect (c on filled: 2).")
    app.switch_page(BOARD).run()
    no_exception(app)
    assert line in [shown(c.value) for c in app.main.caption]
    app.switch_page(EXPORT).run()
    no_exception(app)
    texts = [shown(e.value) for e in [*app.main.warning, *app.main.caption, *app.main.markdown, *app.main.info]]
    assert any(line in t for t in texts), texts
    app.switch_page("pages/results/tasks.py").run()
    no_exception(app)
    assert line in [shown(c.value) for c in app.main.caption]


def test_the_verdict_does_not_say_these_questions_when_models_answered_different_ones(app):
    # a, b answered q0-q9; c, d answered q10-q19: ten questions each, not the same ten
    rows = [f"{m},q{q},{t},{int((q % 10) + t < rate)}" for m, qs, rate in (
        ("a", range(10), 9), ("b", range(10), 4), ("c", range(10, 20), 7), ("d", range(10, 20), 3))
        for q in qs for t in range(4)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(
        ("halves.csv", ("model,question,seed,correct\n" + "\n".join(rows)).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    verdict = shown(app.main.markdown[0].value)
    assert "on the questions each model answered (10 each)" in verdict and "on these 10 questions" not in verdict
    assert "answered no question in common" in verdict
    app.switch_page(EXPORT).run()
    no_exception(app)
    assert any("(10 each)" in shown(m.value) for m in app.main.markdown)


def test_at_n1_the_leaderboard_calls_no_probability_posterior(app):
    """One trial per question: every model's empirical-Bayes prior falls back to the pooled binomial bound, so the
    verdict and the pairwise tab say confidence and normal approximation, never credibility or posterior."""
    rows = ["model,question,seed,correct"] + [f"{m},q{q},0,{int(q < k)}" for m, k in (("a", 18), ("b", 6), ("c", 5))
                                               for q in range(20)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("once.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    headline = next(shown(m.value) for m in app.main.markdown if m.value.startswith("**"))
    assert headline.startswith("**a ranks first at the 95% level on these 20 questions, and on new questions like these "
                               "too: ahead of b with > 99.9% probability (normal approximation)"), headline
    assert "credib" not in headline and "posterior" not in headline
    app.session_state["lb_view"] = "Pairwise P(A > B)"
    app.run()
    no_exception(app)
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("Each cell is the probability that the row model's Bayes@N") for c in captions), captions
    assert any(c.startswith("Not posterior probabilities where the empirical-Bayes prior is not identified for a, b "
                            "and c (N = 1") for c in captions), captions
    assert not any("credib" in c for c in captions), captions
    app.session_state["lb_view"] = "Leaderboard"
    app.run()
    captions = [shown(c.value) for c in app.main.caption]
    assert any("rank = 1 + the number of models better than this one at the confidence level" in c
               for c in captions), captions
    app.switch_page(EXPORT).run()
    no_exception(app)
    from tests.app.conftest import export_settings

    settings = export_settings(app)
    assert settings["Confidence level"] == "95%" and "Credibility level" not in settings
    assert settings["Intervals"].startswith("95% exact binomial (Clopper-Pearson) interval on the pooled answers"), settings


def test_a_model_without_the_task_is_named_on_the_leaderboard(app):
    """a and b ran math, a and c ran code: the math leaderboard says c has no row there (not silently missing)."""
    rows = ["model,task,question,seed,correct"] + [
        f"{m},{t},q{q},{i},{int((q + i + len(m)) % 3 == 0)}" for m, tasks in (("a", ("math", "code")),
                                                                          ("b", ("math",)), ("c", ("code",)))
        for t in tasks for q in range(4) for i in range(2)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("tasks.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    task = app.session_state["task"]
    absent = {"math": "c", "code": "b"}[task]
    captions = [shown(c.value) for c in app.main.caption]
    assert (f"1 of the dataset's 3 models has no row on this task and is not ranked here: {absent}. The Tasks page "
            "shows which tasks each model ran.") in captions, captions


def test_the_presentation_of_n1_data_does_not_call_the_prior_fitted(app):
    """The presentation footer named the prior 'Dirichlet fitted to the model's questions' beside exact binomial
    intervals: at N = 1 it says the prior is not identified there."""
    from streamlit.testing.v1 import AppTest

    rows = ["model,question,seed,correct"] + [f"{m},q{q},0,{int(q < k)}" for m, k in (("a", 18), ("b", 6)) for q in range(20)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("once.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    app.switch_page(EXPORT).run()
    next(b for b in app.button if b.key == "share_create").click().run()
    no_exception(app)
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    fresh.query_params["analysis"] = app.session_state["share_last_id"]
    fresh.query_params["view"] = "present"
    fresh.run()
    no_exception(fresh)
    footer = next(shown(c.value) for c in fresh.main.caption if c.value.startswith("Presentation view"))
    # every model has N = 1 here: "any model", not "some" (helper QA: the footer said "some" of 282 N = 1 models)
    assert ("prior: empirical-Bayes prior, not identified for any model (too few repeated trials): exact binomial "
            "intervals · "
            "intervals cover trials (questions fixed) · 95% exact binomial intervals") in footer, footer
    assert "fitted" not in footer
    # a stakeholder reads one plain sentence on the approximate probabilities, once (QA: ~90 words, shown twice)
    said = [shown(c.value) for c in fresh.main.caption if "posterior probabilities" in c.value]
    assert said == ["For a and b the prior could not be fitted (N = 1: one trial per question): their values are "
                    "observed rates with exact intervals, and probabilities comparing them are approximations, not "
                    "posterior probabilities."], said


def test_at_n1_the_sensitivity_page_says_the_means_are_pooled_rates(app):
    """The rubric bump chart ranks Bayes@N under the empirical-Bayes prior; at N = 1 it is not identified, and its
    caption named the fitted Dirichlet only: a note now says the ranks compare pooled observed rates."""
    rows = ["model,question,seed,correct"] + [f"{m},q{q},0,{int(q < k)}" for m, k in (("a", 18), ("b", 6)) for q in range(20)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("once.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("the empirical-Bayes prior is not identified for a and b (N = 1") and "observed mean over their questions"
               in c for c in captions), captions


def test_all_tasks_pooled_fits_the_prior_per_task(app):
    """'all tasks' pools a task tried once per question with one tried ten times: the empirical-Bayes prior is fitted
    per (model, task), and the task tried once cannot identify it, so each model's interval is the exact fallback
    over all its answers and the page says why (before: one prior per model pulled the questions tried once toward
    the other task's rate, and a warning said so)."""
    rows = ["model,task,question,trial,correct"]
    for m, base in (("a", 0.3), ("b", 0.4)):
        rows += [f"{m},once,q{q},0,{int((q * 7 + len(m)) % 10 < base * 10)}" for q in range(40)]
        rows += [f"{m},often,q{q},{t},{int((q + t * 3) % 10 < (base + 0.4) * 10)}" for q in range(20) for t in range(10)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("pool.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    app.selectbox(key="task").set_value("all tasks").run()
    no_exception(app)
    assert not [w for w in app.main.warning if "Pooled over tasks" in w.value]
    texts = [shown(t.value) for t in (*app.main.caption, *app.main.markdown, *app.main.info, *app.main.warning)]
    assert any("it is fitted per task, and a task of the model has too few repeated trials (N = 1" in t for t in texts), texts


def test_all_tasks_trajectory_ends_at_the_leaderboards_bayes_at_n(app):
    """Under 'all tasks' the Trajectories page refits the empirical-Bayes prior per (model, task) after every n, as
    the leaderboard fits it per (model, task): each model's Bayes@N band ends at the leaderboard's value (before, one
    prior per model over both tasks, and a note said they could differ)."""
    import numpy as np

    from scorio_core.uncertainty.batch import posterior_summary_batch
    from tests.app.test_pages_analysis import TRAJ, _array, _charts

    rng = np.random.default_rng(4)
    rows, counts = ["model,task,question,trial,correct"], np.zeros((3, 30, 2), dtype=int)
    for i, m in enumerate(("a", "b", "c")):
        rate = np.concatenate([rng.beta(7, 3, 12), rng.beta(2, 5, 18)]) + 0.05 * i
        for q in range(30):
            task, qid = ("easy", q) if q < 12 else ("hard", q - 12)
            for t in range(4):
                hit = int(rng.random() < rate[q])
                counts[i, q, hit] += 1
                rows.append(f"{m},{task},q{qid},{t},{hit}")
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("two_tasks.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    app.selectbox(key="task").set_value("all tasks").run()
    app.switch_page(TRAJ).run()
    no_exception(app)
    texts = " ".join(shown(c.value) for c in app.main.caption)
    assert "refit one prior per model" not in texts
    assert "Prior: empirical-Bayes prior, Dirichlet fitted to the model's questions of each task (tasks pooled)" in texts
    bands = _charts(app)[1]
    titles = [a.text for a in bands.layout.annotations][: len(bands.data) // 2]
    last = {title: _array(bands.data[2 * i + 1].y)[-1] for i, title in enumerate(titles)}
    board = posterior_summary_batch(counts, np.array([0.0, 1.0]), prior="empirical-bayes",
                                    strata=np.repeat([0, 1], [12, 18]))
    assert sorted(last) == ["a", "b", "c"]
    for i, m in enumerate(("a", "b", "c")):
        assert abs(last[m] - board.mu[i]) < 1e-9, (m, last[m], board.mu[i])


def test_a_task_named_all_tasks_is_refused_and_the_app_keeps_running(app):
    """'all tasks' names all tasks pooled: a data task of that name is refused at load with how to fix it (before:
    an uncaught RecursionError on the Data page), and the dataset in use stays."""
    from tests.io.test_reserved_task import BODY

    before = app.session_state["dataset"]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("named.csv", BODY.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    no_exception(app)
    assert any("a task is named 'all tasks'" in shown(e.value) for e in app.error), [e.value for e in app.error]
    assert app.session_state["dataset"] == before


def test_mixed_interval_kinds_name_their_models_and_the_verdict_says_what_is_not_a_posterior(app):
    """One model tried once per question (its prior not identified: exact binomial interval), two tried four times
    (credible intervals): the caption says which interval each model has (before: the two labels joined by ' | '), and
    the verdict box says its probabilities for the first are not posterior probabilities."""
    rows = ["model,question,trial,correct"]
    for m, n, base in (("once", 1, 2), ("four", 4, 5), ("also", 4, 4)):
        rows += [f"{m},q{q},{t},{int((q * 7 + t * 3) % 10 < base)}" for q in range(24) for t in range(n)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("mixed.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    captions = [shown(c.value) for c in app.main.caption]
    (covers,) = [c for c in captions if c.startswith("What the interval covers: ")]
    assert "of once: 95% exact binomial" in covers and "of four and also: 95% credible interval" in covers, covers
    assert " | " not in covers
    assert any(c.startswith("Not posterior probabilities where") and "once" in c for c in captions), captions


def test_all_tasks_names_the_models_that_ran_only_some_tasks(app):
    """Lead QA: on the pooled board a model that ran only one of two tasks ranked 6th beside models scored on both, and
    only a generic "answered fewer questions" note was shown; the page (and the CLI's notes) now name them."""
    rows = ["model,task,question,trial,correct"]
    for i, m in enumerate(("a", "b", "c", "d")):
        tasks = ("x", "y") if m != "d" else ("y",)  # d ran task y only
        rows += [f"{m},{t},q{q},{r},{int((q + r + i) % 5 < 2 + i % 3)}" for t in tasks for q in range(12) for r in range(2)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("partial.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    assert not [w for w in app.main.warning if "did not run every task" in w.value]  # one task: nothing to say
    app.selectbox(key="task").set_value("all tasks").run()
    no_exception(app)
    (said,) = [shown(w.value) for w in app.main.warning if "did not run every task" in w.value]
    assert said.startswith("1 of the 4 models did not run every task pooled here: d (no x).") and "Tasks page" in said


def test_the_default_task_is_the_one_most_models_ran(app):
    """AlpacaEval's first annotator had 7 of 103 models and opened as the default view: the task choices list the tasks
    with the most models first (ties in order of appearance), so the first view ranks the most models."""
    rows = ["model,task,question,seed,correct"] + [
        f"{m},{t},q{q},0,{int((q + len(m)) % 2 == 0)}" for m, tasks in (("a", ("side", "main", "third")),
                                                                       ("b", ("main", "third")), ("c", ("main",)))
        for t in tasks for q in range(3)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("order.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    assert app.session_state["task"] == "main"
    (task,) = [s for s in app.sidebar.selectbox if s.label == "Task"]
    assert list(task.options) == ["main", "third", "side", "all tasks"] and task.value == "main"


def test_the_question_set_warning_names_models_as_the_sidebar_does(app):
    """The Leaderboard's 'answered different questions' warning gave full names (acme/beta-20240101) beside a verdict
    in short ones (beta): it follows *Short model names*."""
    rows = ["model,question,seed,correct"] + [
        f"{m},q{q},{i},{int((q + i) % 2 == 0)}" for m in ("acme/alpha-20240101", "acme/beta-20240101", "other/gamma")
        for q in range(4) for i in range(2) if not (m.startswith("acme/beta") and q == 0)]
    app.switch_page(DATA).run()
    app.file_uploader(key="data_uploader").set_value(("names.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(BOARD).run()
    no_exception(app)
    said = [shown(w.value) for w in app.main.warning if "answered different questions" in shown(w.value)]
    assert len(said) == 1 and "answered fewer than all 4 (beta (3))" in said[0], said
    app.sidebar.toggle(key="short_names").set_value(False).run()
    said = [shown(w.value) for w in app.main.warning if "answered different questions" in shown(w.value)]
    assert len(said) == 1 and "answered fewer than all 4 (acme/beta-20240101 (3))" in said[0], said
