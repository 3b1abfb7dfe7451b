"""QA "the same analysis says the same thing everywhere": the CLI's JSON notes and the exports carry the
leaderboard's notes, in its words (prior_pull in compare/tasks, loader notes, rubric notes and rank_pairing in the
exports, the one-sided lead in the leaderboard's JSON, task-named notes in tasks, one rounding, one label at N = 1)."""

from __future__ import annotations

import html
import json
import random
import re

import pandas as pd
import pytest

from scorio_core.cli import main
from tests.paths import ARC, MATHARENA, SIM


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out, out.err


def _json(capsys, *argv):
    return json.loads(_run(capsys, *argv, "--output", "json")[0])


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


@pytest.fixture
def partial(tmp_path):
    """Binary correctness beside a partial score: loading notes that partial scores count as incorrect."""
    rng = random.Random(1)
    rows = ["model,question_id,trial,correct,score"]
    for i, m in enumerate("abc"):
        for q in range(8):
            for t in range(3):
                ok = int(rng.random() < 0.5 + 0.1 * i)
                rows.append(f"{m},q{q},{t},{0 if (q, t) == (0, 0) else ok},{0.5 if (q, t) == (0, 0) else ok}")
    path = tmp_path / "partial.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _disjoint(tmp_path, tasks=("t1", "t2")):
    """Two pairs of models per task that share no question: unequal_question_sets in every task."""
    rows = ["model,task,question_id,trial,is_correct"]
    for task in tasks:
        for m, qs in (("alpha", range(0, 6)), ("beta", range(0, 6)), ("gamma", range(6, 12)), ("delta", range(6, 12))):
            rows += [f"{m},{task},q{q},{t},{(q + t + len(m)) % 2}" for q in qs for t in range(2)]
    path = tmp_path / "disjoint.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


# item 1: prior_pull in compare and tasks

def test_compare_says_the_leaderboards_prior_pull_of_a_and_b(capsys):
    models = ("o3-mini (high)", "o1 (medium)")
    out = _json(capsys, "compare", MATHARENA, "--models", *models, "--prior", "uniform")
    (pull,) = [n for n in out["notes"] if n["code"] == "prior_pull"]
    assert pull["models"] == list(models)
    assert "o3-mini (high) (avg@N 0.800, interval [0.624, 0.776])" in pull["message"]
    board = _json(capsys, "leaderboard", MATHARENA, "--prior", "uniform")
    (said,) = [n for n in board["notes"] if n["code"] == "prior_pull"]
    assert set(models) <= set(said["models"]) and len(said["models"]) > 2  # compare names only a and b
    assert pull["message"].split(": with N = ")[1] == said["message"].split(": with N = ")[1]  # the same words
    fitted = _json(capsys, "compare", MATHARENA, "--models", *models)  # empirical-Bayes: no pull, no note
    assert "prior_pull" not in {n["code"] for n in fitted["notes"]}


def test_tasks_says_each_tasks_prior_pull_as_the_leaderboard(capsys):
    out = _json(capsys, "tasks", MATHARENA, "--prior", "uniform")
    board = _json(capsys, "leaderboard", MATHARENA, "--prior", "uniform")
    (said,) = [n for n in board["notes"] if n["code"] == "prior_pull"]
    (pull,) = [n for n in out["notes"] if n["code"] == "prior_pull"]
    assert pull == said  # code, task, message ("TASK: ..."), finding and models


# item 2: the loader's notes in every export with notes

def test_exports_carry_the_load_notes(partial, capsys):
    (load,) = [n for n in _json(capsys, "leaderboard", partial)["notes"] if n["code"] == "load"]
    assert "partial score" in load["message"]
    assert load["message"] in _run(capsys, "export", partial, "--format", "md")[0].replace("\\", "")
    assert load["message"] in _text(_run(capsys, "export", partial, "--format", "html")[0])
    assert f"# note: {load['message']}" in _run(capsys, "export", partial, "--format", "csv")[1].splitlines()


# item 3: the HTML report's settings as the app's; rubric notes in md and html

def test_html_settings_rows_are_the_apps(partial, capsys):
    text = _run(capsys, "export", partial, "--format", "html", "--duplicates", "keep-first", "--prior", "uniform")[0]
    rows = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", text))
    assert rows["Data-quality choices"] == "duplicates = keep-first"
    assert rows["Thresholds"] == "none"
    assert rows["Rubric"] == "Binary correctness (2 categories, w = 0, 1)"
    assert "uniform prior" in html.unescape(rows["Intervals"]).lower()
    for key in ("Dataset", "Files", "Task", "Metric", "Rank ties rule", "Question set"):
        assert key in rows


def test_md_and_html_exports_carry_the_rubric_notes(capsys):
    md = _run(capsys, "export", SIM, "--schema", "Format Aware", "--format", "md")[0].replace("\\", "")
    page = _text(_run(capsys, "export", SIM, "--schema", "Format Aware", "--format", "html")[0])
    for text in (md, page):
        assert "rubric 'Format Aware' thresholds: tau_invalid_C=0.5" in text
        assert "repeated_pattern derived from finish_reason" in text
    assert re.search(r"<dd>tau_invalid_C = 0\.5</dd>", _run(capsys, "export", SIM, "--schema", "Format Aware",
                                                              "--format", "html")[0])


# item 4: rank_pairing in the exports, the one-sided lead in the leaderboard's JSON

def test_exports_say_how_rank_ci_pairs_under_questions_sampled(tmp_path, capsys):
    path = tmp_path / "full.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q * 7 + t * 3 + i) % 5 < 2 + i)}\n" for i, m in enumerate("abc") for q in range(12)
        for t in range(3)))
    board = _json(capsys, "leaderboard", path, "--scope", "questions-sampled")
    (pairing,) = [n for n in board["notes"] if n["code"] == "rank_pairing"]
    sentence = pairing["message"].split(": ", 1)[1]
    argv = ("export", path, "--scope", "questions-sampled", "--format")
    assert sentence in _run(capsys, *argv, "md")[0].replace("\\", "")
    assert sentence in _text(_run(capsys, *argv, "html")[0])
    assert f"# note: {sentence}" in _run(capsys, *argv, "csv")[1].splitlines()


def test_leaderboard_json_says_the_lead_is_one_sided(capsys):
    board = _json(capsys, "leaderboard", ARC)
    (note,) = [n for n in board["notes"] if n["code"] == "one_sided"]
    task = board["rows"][0]["task"]
    assert note["task"] == task and note["message"].startswith(f"{task}: The lead is one-sided")
    assert note["message"].split(": ", 1)[1] in _run(capsys, "export", ARC, "--format", "md")[0].replace("\\", "")


# item 5: tasks' notes name their task

def test_tasks_notes_name_their_task(tmp_path, capsys):
    out = _json(capsys, "tasks", _disjoint(tmp_path))
    notes = [n for n in out["notes"] if n["code"] == "unequal_question_sets"]
    assert sorted(n["task"] for n in notes) == ["t1", "t2"]
    assert all(n["message"].startswith(f"{n['task']}: ") for n in notes)
    assert len({n["message"] for n in notes}) == 2  # no longer two identical sentences
    board = _json(capsys, "leaderboard", _disjoint(tmp_path), "--task", "t1")
    (said,) = [n for n in board["notes"] if n["code"] == "unequal_question_sets"]
    assert said["message"] == next(n["message"] for n in notes if n["task"] == "t1")


# item 6: one rounding in every export

def test_html_rounds_as_markdown_and_the_app():
    from scorio_core.report.html import _num
    from scorio_core.report.tables import to_markdown, without_negative_zero

    for x in (2.05875, 0.12345, 0.00005, -0.00004, 1.99995):
        shown = to_markdown(pd.DataFrame({"x": [x]})).splitlines()[-1].strip("| ").strip()
        assert _num(x) == shown == f"{without_negative_zero(pd.DataFrame({'x': [x]}))['x'].iloc[0]:.4f}"
    assert _num(2.05875) == "2.0588"


# item 7: at N = 1 the number is the pooled rate wherever it is named

def test_n1_headline_calls_the_number_what_the_column_calls_it(tmp_path, capsys):
    path = tmp_path / "n1.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},0,{int(q % 10 < k)}\n" for m, k in (("a", 9), ("b", 3), ("c", 2)) for q in range(40)))
    md = _run(capsys, "export", path, "--format", "md")[0]
    head = md.split("\n\n")[1]
    assert "Pooled rate" in md and "Bayes@N mean" not in md  # the table's column
    assert "pooled rate 0.900" in head and "Bayes@N 0.900" not in head


def test_verdict_labels_pooled_rows():
    from scorio_core.report.verdict import verdict

    t = pd.DataFrame({"model": ["a", "b"], "mu": [0.6, 0.5], "sigma": [0.05, 0.05], "lo": [0.5, 0.4],
                      "hi": [0.7, 0.6], "n_trials": [1, 1], "interval_kind": ["exact-binomial"] * 2})
    assert "(pooled rate)" in verdict(t).headline and "Bayes@N" not in verdict(t).headline
    mixed = t.assign(interval_kind=["credible", "exact-binomial"])
    assert "(Bayes@N or pooled rate)" in verdict(mixed).headline
    assert "Bayes@N" in verdict(t.drop(columns="interval_kind")).headline
