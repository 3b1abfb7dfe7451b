"""AppTest: graded scores (0, 0.5, 1) get partial credit in the app with one click (rubric 'Score values'),
every page renders under it without Pass@k on attempts that have no 0/1 outcome, and a threshold still binarizes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core.leaderboard.graded import SCORE_VALUES_SCHEMA
from tests.app.conftest import no_exception, shown
from tests.app.page_matrix import PAGES

DATA, BOARD = "pages/data/data.py", "pages/results/leaderboard.py"


def _graded() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = [{"model": f"m{m}", "question_id": f"q{q}", "trial": t,
             "score": rng.choice([0.0, 0.5, 1.0], p=[0.5 - 0.1 * m, 0.3, 0.2 + 0.1 * m])}
            for m in range(4) for q in range(12) for t in range(3)]
    return pd.DataFrame(rows)


def _load(at, frame: pd.DataFrame, name: str = "graded.csv") -> None:
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value((name, frame.to_csv(index=False).encode(), "text/csv")).run()
    at.button(key="upload_load").click().run()
    no_exception(at)


def _board(at) -> pd.DataFrame:
    return next(df.value for df in at.main.dataframe if "model" in df.value.columns)


@pytest.fixture
def partial(app):
    frame = _graded()
    _load(app, frame)
    app.switch_page(BOARD).run()
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("non-binary outcome" in w for w in warnings), warnings  # blocked until a choice
    assert not app.main.dataframe
    assert any(shown(c.value).startswith("Score values (partial credit: weight = score): One category per score value "
               "found in the data (0, 0.5, 1)") for c in app.main.caption)
    app.button(key="guard_partial_credit").click().run()
    no_exception(app)
    return app, frame


def test_one_click_gives_each_attempt_its_score(partial):
    app, frame = partial
    assert app.session_state["_rubric_workspace"].schema.name == SCORE_VALUES_SCHEMA
    assert not app.main.warning and not app.main.error
    board = _board(app)
    mean = frame.groupby("model")["score"].mean()  # hand: avg@N under weight = score is the mean score
    assert dict(zip(board["model"], board["avg"])) == pytest.approx(mean.to_dict(), abs=5e-5)  # table rounds to 4
    infos = [shown(i.value) for i in app.main.info]
    assert any("attempts have a graded score" in i and "nothing is binarized" in i for i in infos), infos
    # no Pass@k family (nor maj@k, AUC@k) without 0/1 outcomes; Max@k reads the rubric's weights
    assert app.selectbox(key="lb_metric").options == ["Bayes@N", "avg@N", "Max@k"]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_under_partial_credit(partial, page):
    app, _ = partial
    app.switch_page(page).run()
    no_exception(app)
    assert not [e.value for e in app.main.error], page


def test_dynamics_offer_bayes_only_and_say_why(partial):
    app, _ = partial
    app.switch_page("pages/results/convergence.py").run()
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("The Pass@k family (Pass@k, Pass^k") for c in captions), captions
    app.switch_page("pages/results/trajectories.py").run()
    assert app.selectbox(key="traj_metric").options == ["Bayes@N"]


def test_a_threshold_afterwards_binarizes_and_the_rubric_goes_back_to_binary(partial):
    app, _ = partial
    app.switch_page(DATA).run()
    app.session_state["data_view"] = "Data quality"
    app.run()
    next(c for c in app.main.checkbox if c.label == "Apply the threshold").check()
    next(b for b in app.main.button if b.label == "Apply choices").click().run()
    no_exception(app)
    app.switch_page(BOARD).run()
    no_exception(app)
    assert app.session_state["_rubric_workspace"].schema.name == "Binary correctness"
    assert "Pass@k" in app.selectbox(key="lb_metric").options
    assert len(_board(app)) == 4


def test_a_continuous_score_is_offered_rounded_with_its_measured_shift(app):
    frame = pd.DataFrame({"model": np.repeat(["a", "b"], 20), "question_id": [f"q{i}" for i in range(20)] * 2,
                          "trial": 0, "score": np.r_[np.linspace(0.01, 0.99, 20), np.linspace(0.02, 0.98, 20)]})
    _load(app, frame, "f1.csv")
    app.switch_page(BOARD).run()
    no_exception(app)
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("Score values rounded to 0.1") and "Measured on these data" in c for c in captions), captions
    app.button(key="guard_partial_credit").click().run()
    no_exception(app)
    assert app.session_state["_rubric_workspace"].schema.name.startswith("Score values rounded to 0.1")
    board = _board(app)
    mean = frame.groupby("model")["score"].mean()
    assert dict(zip(board["model"], board["avg"])) == pytest.approx(mean.to_dict(), abs=0.05)  # rounding: <= step / 2


def test_the_rubric_page_offers_score_values_where_scores_give_credit(app):
    option = "Score values (from the data: partial credit, weight = score)"
    app.switch_page("pages/data/rubric.py").run()  # (the demo, MathArena, is a count table: no rubric picker)
    # LiveBench (bundled): a 0/1 column and a score with partial credit beside it (434 values: rounded to 0.1)
    app.sidebar.selectbox(key="dataset").set_value("livebench-2025-01").run()
    no_exception(app)
    app.selectbox(key="rubric_schema").set_value(option).run()
    no_exception(app)
    schema = app.session_state["_rubric_workspace"].schema
    assert schema.name.startswith("Score values rounded to 0.1") and len(schema.labels) == 11
    assert app.selectbox(key="rubric_schema").value == option
    assert not [e.value for e in app.main.error]
    warnings = [shown(w.value) for w in app.main.warning]  # the tasks without partial credit: one line, not nine
    assert not any(w.startswith("category 'score") for w in warnings), warnings
    app.switch_page(BOARD).run()
    no_exception(app)
    assert "Pass@k" in app.selectbox(key="lb_metric").options  # LiveBench's 0/1 column still gives them
    app.sidebar.selectbox(key="dataset").set_value("matharena-aime-2025-I").run()  # no partial credit there
    no_exception(app)
    assert app.session_state["_rubric_workspace"].schema.name == "Binary correctness"


def test_ranking_methods_say_they_need_0_1_outcomes_and_what_gives_them(partial):
    app, _ = partial
    app.selectbox(key="lb_method").set_value("bradley_terry").run()
    no_exception(app)
    warnings = [shown(w.value) for w in app.main.warning]
    assert any("has graded scores (no 0/1 outcome), not the 0/1 outcomes this needs" in w
               and "threshold gives them (the Data page" in w for w in warnings), warnings


def test_a_published_partial_credit_analysis_opens_under_its_rubric(tmp_path, capsys):
    import json
    import os

    from streamlit.testing.v1 import AppTest

    from scorio_core.cli import main
    from tests.app.conftest import ROOT

    frame = _graded()
    frame.to_csv(tmp_path / "graded.csv", index=False)
    status = main(["publish", str(tmp_path / "graded.csv"), "--schema", "score-values", "--workspace",
                   os.environ["SCORIO_WORKSPACE"], "--output", "json"])
    assert status == 0
    link = json.loads(capsys.readouterr().out)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["analysis"] = link["analysis_id"]
    at.run()
    no_exception(at)
    assert not at.main.warning and not at.main.error  # opens on the leaderboard, not on the graded block
    assert at.session_state["_rubric_workspace"].schema.name == SCORE_VALUES_SCHEMA
    board = _board(at)
    assert dict(zip(board["model"], board["avg"])) == pytest.approx(frame.groupby("model")["score"].mean().to_dict(),
                                                                     abs=5e-5)


def test_sensitivity_sets_partial_credit_beside_its_threshold_reading(partial):
    app, _ = partial
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    assert app.multiselect(key="sens_schemas").value == ["Active rubric: Score values (partial credit: weight = score)",
                                                         "Score > 0.5 (binarized)"]
    captions = [shown(c.value) for c in app.main.caption]
    assert any(c.startswith("Rank of 4 models under 2 schemata") for c in captions), captions
    # the schemata of 0/1 correctness would rank on no attempt here (every attempt is graded): not offered, said why
    assert app.multiselect(key="sens_schemas").options == ["Active rubric: Score values (partial credit: weight = score)",
                                                           "Score > 0.5 (binarized)"]
    assert any("- **Binary correctness**: needs 0/1 outcomes of the graded attempts" in shown(m.value)
               for m in app.main.markdown)
    assert any(c.startswith("Graded attempts carry a score and no 0/1 outcome") for c in captions), captions


def test_a_task_graded_beside_an_empty_outcome_column_gets_partial_credit(app):
    """QA: an essay task graded 0 / 0.25 ... 1 in `score` with `is_correct` left empty beside a 0/1 math task: its 0
    and 1 scores were "no outcome", so after *Give partial credit instead* every page still asked for a choice."""
    rng = np.random.default_rng(8)
    math = [{"model": m, "task": "math", "question_id": f"m{q}", "trial": t, "is_correct": float(rng.random() < 0.5),
             "score": np.nan} for m in ("a", "b", "c") for q in range(6) for t in range(3)]
    essay = [{"model": m, "task": "essay", "question_id": f"e{q}", "trial": t, "is_correct": np.nan,
              "score": rng.choice([0.0, 0.25, 0.5, 0.75, 1.0])} for m in ("a", "b", "c") for q in range(6) for t in range(3)]
    frame = pd.DataFrame(math + essay)
    _load(app, frame, "mixed.csv")
    app.switch_page(BOARD).run()
    assert any("54 attempts have a non-binary outcome" in shown(w.value) for w in app.main.warning)  # essay, not "no outcome"
    app.button(key="guard_partial_credit").click().run()
    no_exception(app)
    app.sidebar.selectbox(key="task").set_value("all tasks").run()
    no_exception(app)
    assert not app.main.warning and not app.main.error
    board = _board(app)
    credit = frame["is_correct"].fillna(frame["score"])  # hand: math by its 0/1 outcome, essay by its score
    mean = credit.groupby([frame["model"], frame["task"], frame["question_id"]]).mean().groupby(level=0).mean()
    assert dict(zip(board["model"], board["avg"])) == pytest.approx(mean.to_dict(), abs=5e-5)


def test_sensitivity_on_the_0_1_task_beside_a_graded_one_compares_the_usual_schemata(app):
    """Browser QA: under partial credit, the 0/1 task of a mixed dump (no score there) opened the Sensitivity page on
    an empty choice ("Pick at least one schema"): its default was the score values and their threshold reading, which
    need a score this task lacks. It now starts on the usual default (binary correctness here)."""
    rows = [{"model": m, "task": "math", "question_id": f"m{q}", "trial": t, "is_correct": float((q + t + i) % 3 == 0),
             "score": np.nan} for i, m in enumerate("abc") for q in range(8) for t in range(3)]
    rows += [{"model": m, "task": "essay", "question_id": f"e{q}", "trial": t, "is_correct": np.nan,
              "score": [0.0, 0.5, 1.0][(q + t + i) % 3]} for i, m in enumerate("abc") for q in range(8) for t in range(3)]
    _load(app, pd.DataFrame(rows), "mixed.csv")
    app.switch_page(BOARD).run()
    app.button(key="guard_partial_credit").click().run()
    app.sidebar.selectbox(key="task").set_value("math").run()
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    assert app.multiselect(key="sens_schemas").value == ["Binary correctness"]
    assert not [i for i in app.main.info if "Pick at least one schema" in i.value]
    app.switch_page(BOARD).run()  # and the notice names the graded task (math keeps its 0/1 metrics)
    assert any("are not computed on task essay;" in shown(i.value) for i in app.main.info)
    assert "Pass@k" in app.selectbox(key="lb_metric").options
