"""The page x dataset x settings matrix (issue 40): every page on every kind of dump renders or says why not.

Datasets are the bundled ones plus generated edge cases real dumps have: models missing whole
tasks, disjoint question sets, one model, one question, N = 1, all correct, all wrong, a task with
a single model, hundreds of models, 200-character unicode names, NaN signals, ragged count tables
and a rubric that leaves most attempts unmatched. Used by tests/app/test_page_matrix.py (a sample in
``make test``, everything with ``SCORIO_FULL=1``) and benchmarks/bench_page_matrix.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

PAGES = (
    "pages/results/leaderboard.py", "pages/results/tasks.py", "pages/results/compare.py", "pages/results/questions.py",
    "pages/results/trajectories.py", "pages/results/convergence.py", "pages/results/sensitivity.py",
    "pages/results/plan.py", "pages/data/data.py", "pages/data/rubric.py", "pages/share/export.py",
)
#: The bundled datasets (dashboard.data.bundled.BUNDLED keys).
BUNDLED = ("matharena-aime-2025-I", "arc-agi-1", "livebench-2025-01", "paper-simulation", "tau-bench-airline",
           "scorio-aime25-q06")

APP = str(Path(__file__).resolve().parents[2] / "app.py")
_HEADER = "model,task,question_id,trial,is_correct\n"


def _attempts(rows) -> bytes:
    return (_HEADER + "".join(f"{m},{t},{q},{i},{c}\n" for m, t, q, i, c in rows)).encode()


def _grid(models, tasks, questions, trials, correct: Callable[[int, int, int, int], int]):
    for (mi, m), (ti, t), q, i in itertools.product(enumerate(models), enumerate(tasks), range(questions), range(trials)):
        yield m, t, f"q{q:02d}", i, correct(mi, ti, q, i)


def _mixed(mi, ti, q, i) -> int:
    return int((q * 7 + i * 3 + mi * 5 + ti) % (3 + mi % 3) == 0)


def missing_tasks() -> bytes:
    rows = []
    for m, tasks in (("alpha", ("math", "code")), ("beta", ("math",)), ("gamma", ("code",)), ("delta", ("math", "code"))):
        rows += [r for r in _grid([m], tasks, 6, 3, _mixed)]
    return _attempts(rows)


def disjoint_questions() -> bytes:
    a = [("A", "t", f"a{q}", i, int((q + i) % 2 == 0)) for q in range(8) for i in range(3)]
    b = [("B", "t", f"b{q}", i, int((q + i) % 3 == 0)) for q in range(8) for i in range(3)]
    return _attempts(a + b)


def one_model() -> bytes:
    return _attempts(_grid(["only"], ["t"], 10, 4, _mixed))


def one_question() -> bytes:
    return _attempts(_grid(["a", "b", "c"], ["t"], 1, 6, _mixed))


def n_equals_one() -> bytes:
    return _attempts(_grid(["a", "b", "c", "d"], ["t"], 30, 1, _mixed))


def all_correct() -> bytes:
    return _attempts(_grid(["a", "b", "c"], ["t"], 10, 4, lambda *_: 1))


def all_wrong() -> bytes:
    return _attempts(_grid(["a", "b", "c"], ["t"], 10, 4, lambda *_: 0))


def task_with_one_model() -> bytes:
    return _attempts(list(_grid(["a", "b", "c"], ["main"], 8, 3, _mixed)) + list(_grid(["a"], ["solo"], 8, 3, _mixed)))


def many_models(n: int = 300) -> bytes:
    rng = np.random.default_rng(0)
    skill = rng.uniform(0.05, 0.95, n)
    rows = [(f"model-{m:03d}", "t", f"q{q}", i, int(rng.random() < skill[m])) for m in range(n) for q in range(6)
            for i in range(2)]
    return _attempts(rows)


def unicode_names() -> bytes:
    names = [("模型-" + "é" * 60 + f"-{k}-" + "🚀" * 20 + "/" + "x" * 100)[:200] for k in range(3)]
    names = [n.replace(",", "") for n in names]
    return _attempts(_grid(names, ["t"], 6, 3, _mixed))


def nan_signals() -> bytes:
    head = "model,task,question_id,trial,is_correct,completion_tokens,has_box\n"
    body = "".join(f"{m},t,q{q},{i},{_mixed(mi, 0, q, i)},{'' if (q + i) % 3 == 0 else 100 * (q + 1)},"
                   f"{'' if q % 4 == 0 else (q + i) % 2}\n"
                   for mi, m in enumerate(("a", "b", "c")) for q in range(8) for i in range(4))
    return (head + body).encode()


def ragged_counts() -> bytes:
    rows = ["model,question_id,n_trials,n_correct"]
    for mi, m in enumerate(("a", "b", "c", "d")):
        for q in range(12):
            if (q + mi) % 5 == 4:
                continue  # a missing cell
            n = 1 + (q * 3 + mi) % 7
            rows.append(f"{m},q{q:02d},{n},{(q + mi) % (n + 1)}")
    return ("\n".join(rows) + "\n").encode()


#: name -> (file name, bytes builder); "bundled:<key>" entries open a bundled dataset instead.
EDGE_CASES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "missing-tasks": ("missing_tasks.csv", missing_tasks),
    "disjoint-questions": ("disjoint.csv", disjoint_questions),
    "one-model": ("one_model.csv", one_model),
    "one-question": ("one_question.csv", one_question),
    "n1": ("n1.csv", n_equals_one),
    "all-correct": ("all_correct.csv", all_correct),
    "all-wrong": ("all_wrong.csv", all_wrong),
    "task-one-model": ("task_one_model.csv", task_with_one_model),
    "300-models": ("many.csv", many_models),
    "unicode-names": ("unicode.csv", unicode_names),
    "nan-signals": ("nan_signals.csv", nan_signals),
    "ragged-counts": ("ragged_counts.csv", ragged_counts),
}

#: Settings combinations (sidebar and leaderboard widgets): the default first.
SETTINGS = (
    {},
    {"prior": "uniform", "scope": "questions-sampled", "lb_tie_rule": "paper", "lb_metric": "pass@k"},
    {"prior": "jeffreys", "lb_tie_rule": "upper-bound", "lb_metric": "avg"},
    {"scope": "questions-sampled", "lb_tie_rule": "none", "rubric": "Format Aware", "models": 2},
)


def open_app(dataset: str, tmp_workspace: str | None = None) -> AppTest:
    """A fresh app on ``dataset`` (a bundled key, or an :data:`EDGE_CASES` name uploaded on the Data page)."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    if dataset in EDGE_CASES:
        name, build = EDGE_CASES[dataset]
        at.switch_page("pages/data/data.py").run()
        at.file_uploader(key="data_uploader").set_value((name, build(), "text/csv")).run()
        at.button(key="upload_load").click().run()
        chosen = at.sidebar.selectbox(key="dataset").value
        assert chosen not in BUNDLED, f"the upload of {name} did not load: {[e.value for e in at.error]}"
    else:
        at.sidebar.selectbox(key="dataset").set_value(dataset).run()
    return at


def apply_settings(at: AppTest, settings: dict) -> None:
    """Set the sidebar's prior/scope/model filter, the rubric and the leaderboard's metric and tie rule."""
    if "prior" in settings:
        at.sidebar.selectbox(key="prior").set_value(settings["prior"]).run()
    if "scope" in settings:
        at.sidebar.radio(key="scope").set_value(settings["scope"]).run()
    if "models" in settings:
        options = at.sidebar.multiselect(key="models").options
        at.sidebar.multiselect(key="models").set_value(options[: settings["models"]]).run()
    if "rubric" in settings:
        at.switch_page("pages/data/rubric.py").run()
        box = [w for w in at.selectbox if w.key == "rubric_schema"]
        if box and settings["rubric"] in box[0].options:
            box[0].set_value(settings["rubric"]).run()
    if "lb_metric" in settings or "lb_tie_rule" in settings:  # absent when the page says it cannot show this data
        at.switch_page("pages/results/leaderboard.py").run()
        metric = [w for w in at.selectbox if w.key == "lb_metric"]
        if "lb_metric" in settings and metric:
            metric[0].set_value(settings["lb_metric"]).run()
        rule = [w for w in at.get("button_group") if getattr(w, "key", None) == "lb_tie_rule"]
        if "lb_tie_rule" in settings and rule:
            at.segmented_control(key="lb_tie_rule").set_value(settings["lb_tie_rule"]).run()


def page_failures(at: AppTest, pages=PAGES) -> list[str]:
    """Exceptions raised by each page (``"page: message"``); empty when every page rendered."""
    failures = []
    for page in pages:
        at.switch_page(page).run()
        failures += [f"{page}: {e.value}" for e in at.exception]
    return failures


def presentation_failures(at: AppTest) -> list[str]:
    """Exceptions of the presentation view of what ``at`` shows (shared, then opened as a stakeholder would)."""
    at.switch_page("pages/share/export.py").run()
    buttons = [b for b in at.button if b.key == "share_create"]
    if not buttons:
        return []
    buttons[0].click().run()
    analysis_id = at.session_state["share_last_id"] if "share_last_id" in at.session_state else None
    if analysis_id is None:
        return [f"share: {e.value}" for e in at.exception]
    fresh = AppTest.from_file(APP, default_timeout=180)
    fresh.query_params["analysis"] = analysis_id
    fresh.query_params["view"] = "present"
    fresh.run()
    return [f"presentation: {e.value}" for e in fresh.exception]
