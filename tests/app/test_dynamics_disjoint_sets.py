"""Trajectories and Convergence on models with no question in common: a limit of the data, said in an info box with
what to do in the app (QA sweep: a red error box quoting the CLI's ``--models A B`` option)."""

from __future__ import annotations

import pytest

from tests.app.conftest import no_exception, shown


@pytest.mark.parametrize("page", ["pages/results/trajectories.py", "pages/results/convergence.py"])
def test_no_common_question_is_an_info_not_an_error(app, page):
    rows = ["model,question_id,trial,is_correct"] + [
        f"{m},q{q},{t},{(q + t + i) % 2}" for i, (m, qs) in enumerate((("a", range(0, 5)), ("b", range(3, 8)),
                                                                       ("c", range(6, 10)))) for q in qs for t in range(3)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("apart.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    app.switch_page(page).run()
    no_exception(app)
    assert not app.main.error, [e.value for e in app.main.error]
    infos = [shown(i.value) for i in app.main.info]
    assert any(i.startswith("No question of this task was answered by every model shown") and "--models" not in i
               for i in infos), infos
