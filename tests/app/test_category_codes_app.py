"""AppTest: a dump of integer category codes without is_correct is scored with the category-code rubric, and the
Rubric page stays usable (JSON upload, editors) when the rubric in force cannot score the data."""

from __future__ import annotations

from pathlib import Path

from scorio_core import rubric
from tests.app.conftest import no_exception, shown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "categories"
DATA, BOARD, RUBRIC = "pages/data/data.py", "pages/results/leaderboard.py", "pages/data/rubric.py"


def _load(at, name: str) -> None:
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value((name, (FIXTURES / name).read_bytes(), "text/csv")).run()
    no_exception(at)
    at.button(key="upload_load").click().run()
    no_exception(at)


def _board(at):
    return next(df.value for df in at.main.dataframe if "model" in df.value.columns)


def test_category_codes_get_the_code_rubric_and_say_its_weights(app):
    _load(app, "codes.csv")
    app.switch_page(BOARD).run()
    no_exception(app)
    assert not [e.value for e in app.main.error]
    board = _board(app)
    assert len(board) == 3 and board.select_dtypes("number").notna().any().any()
    infos = [shown(i.value) for i in app.main.info]
    assert any("category codes and no is_correct" in i and "code / max code" in i and "0 -> 0" in i
               and "3 -> 1" in i and "Rubric page" in i for i in infos), infos
    assert rubric.CATEGORY_CODES_SCHEMA in shown(app.main.caption[0].value)
    app.switch_page(RUBRIC).run()  # the editor shows the default, ready to edit
    no_exception(app)
    assert app.data_editor[0].value["label"].tolist() == ["code 0", "code 1", "code 2", "code 3"]


def test_rubric_page_keeps_the_upload_when_the_rubric_cannot_score_the_data(app):
    _load(app, "codes.csv")
    app.switch_page(RUBRIC).run()
    app.selectbox(key="rubric_schema").set_value(rubric.DEFAULT_SCHEMA).run()  # binary: no is_correct to score
    no_exception(app)
    errors = [shown(e.value) for e in app.main.error]
    assert any("has no is_correct values" in e for e in errors), errors
    assert app.file_uploader(key="rubric_upload") is not None  # Save and share -> Upload a rubric JSON
    assert app.data_editor  # the editors too
    doc = rubric.schema_to_json(rubric.category_code_schema([0, 1, 2, 3]).with_weights([0, 0, 0.5, 1]))
    app.file_uploader(key="rubric_upload").set_value(("mine.json", doc.encode(), "application/json")).run()
    no_exception(app)
    assert not [e.value for e in app.main.error]
    assert app.session_state["_rubric_workspace"].schema.weights.tolist() == [0.0, 0.0, 0.5, 1.0]


def test_text_outcome_beside_codes_is_not_read_as_is_correct(app):
    _load(app, "codes_outcome.csv")
    app.switch_page(BOARD).run()
    no_exception(app)
    assert not [e.value for e in app.main.error]
    assert len(_board(app)) == 3


def test_sensitivity_says_no_second_schema_applies(app):
    # helper QA: "Pick a second schema" where the only option is the category-code rubric (no built-in reads codes)
    _load(app, "codes.csv")
    app.switch_page("pages/results/sensitivity.py").run()
    no_exception(app)
    infos = [shown(i.value) for i in app.main.info]
    assert not any("Pick a second schema" in i for i in infos), infos
    assert any("applies to these data" in i and "no second schema" in i for i in infos), infos
