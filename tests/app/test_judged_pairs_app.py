"""AppTest: AlpacaEval annotations uploaded in the browser are scored on AlpacaEval's scale, and a load whose files
each leave a note keeps the Leaderboard's table in view (the notes beyond the first few in one expander)."""

from __future__ import annotations

import json

from tests.app.conftest import no_exception, shown

DATA, BOARD, QUESTIONS = "pages/data/data.py", "pages/results/leaderboard.py", "pages/results/questions.py"


def annotations(model: str, wins: int) -> bytes:
    """An annotations.json of 6 instructions: ``wins`` preferred to the baseline, a draw, one without a preference."""
    prefs = [2.0] * wins + [1.5] + [1.0] * (4 - wins) + [None]
    return json.dumps([{"instruction": f"Say {i}", "dataset": "koala", "output_1": "a", "generator_1": "gpt4_1106_preview",
                        "output_2": "b", "generator_2": model, "annotator": "weighted_alpaca_eval_gpt4_turbo",
                        "preference": p} for i, p in enumerate(prefs)]).encode()


def test_five_annotation_files_on_alpaca_evals_scale_with_their_notes_folded(app):
    app.switch_page(DATA).run()
    files = [(f"m{k}_annotations.json", annotations(f"m{k}", k), "application/json") for k in range(5)]
    app.file_uploader(key="data_uploader").set_value(files).run()
    no_exception(app)
    app.button(key="upload_load").click().run()
    no_exception(app)
    app.switch_page(BOARD).run()
    no_exception(app)
    board = next(df.value for df in app.main.dataframe if "model" in df.value.columns)
    assert len(board) == 5
    infos = [shown(i.value) for i in app.main.info]
    assert any("on AlpacaEval's rounded preferences, weights code / 2" in i for i in infos), infos
    per_file = [i for i in infos if "without a preference" in i]
    assert len(per_file) == 3, infos  # the first three loading notes as notices, the other two folded
    folded = [e for e in app.main.expander if "more notes from loading the files" in e.label]
    assert len(folded) == 1 and folded[0].label.startswith("2 more notes")
    assert sum("without a preference" in shown(m.value) for m in folded[0].markdown) == 2
    app.session_state["data_view"] = "Data quality"  # the loading report: the first six lines as notices, the rest
    app.switch_page(DATA).run()  # folded
    no_exception(app)
    report = [e for e in app.main.expander if "more lines from loading the files" in e.label]
    assert len(report) == 1 and sum("AlpacaEval's own numbers" in shown(m.value) for m in report[0].markdown) >= 1
    app.switch_page(QUESTIONS).run()  # the item fit reads the rubric's weights as successes, and says so
    no_exception(app)
    assert any("each attempt counts its weight as a success" in shown(c.value) for c in app.main.caption)
