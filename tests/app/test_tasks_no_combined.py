"""Every model missed a task: ``tasks`` and the Tasks page say that no combined score exists and why (QA: every
combined row was null with a reason each, and nothing said none had one)."""

from __future__ import annotations

import json

from scorio_core.cli import main
from tests.app.conftest import no_exception, shown


def _each_misses_one(tmp_path):
    rows = ["model,task,question_id,trial,is_correct"]
    for i, m in enumerate("abc"):
        for j, t in enumerate(("t1", "t2", "t3")):
            if i != j:  # a misses t1, b t2, c t3
                rows += [f"{m},{t},q{q},{r},{(q + r + i) % 2}" for q in range(5) for r in range(2)]
    path = tmp_path / "each_misses_one.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_cli_says_no_model_has_a_combined_score(tmp_path, capsys):
    path = _each_misses_one(tmp_path)
    assert main(["tasks", str(path), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all(row["score"] is None for row in out["combined"])
    (note,) = [n for n in out["notes"] if n["code"] == "no_combined_score"]
    assert note["message"].startswith("No model has results on all 3 tasks") and "most any model ran is 2" in note["message"]
    # one model on every task: it has a combined score, and no such note
    rows = path.read_text() + "".join(f"a,t1,q{q},{r},1\n" for q in range(5) for r in range(2))
    path.write_text(rows)
    assert main(["tasks", str(path), "--output", "json"]) == 0
    assert "no_combined_score" not in {n["code"] for n in json.loads(capsys.readouterr().out)["notes"]}


def test_tasks_page_says_it(app, tmp_path):
    path = _each_misses_one(tmp_path)
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value((path.name, path.read_bytes(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page("pages/results/tasks.py").run()
    no_exception(app)
    assert any("No model has results on all 3 tasks" in shown(i.value) for i in app.main.info)
