"""AppTest: a large upload counted by DuckDB keeps its trial order, so Trajectories shows the observed order (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import no_exception, saved_key
from tests.app.test_pages_analysis import CONV, TRAJ, _array, _charts, _texts, _visit

pytest.importorskip("duckdb")

DATA = "pages/data/data.py"


def _body() -> bytes:
    rng = np.random.default_rng(3)
    p = {"m0": 0.35, "m1": 0.5, "m2": 0.55, "m3": 0.7}
    lines = ["model,question,seed,correct"]
    for m, pm in p.items():
        for q in range(12):
            for t in range(8):
                lines.append(f"{m},q{q},{t},{int(rng.random() < pm)}")
    return "\n".join(lines).encode()


def _upload(at, name: str, as_counts: bool, key=saved_key) -> None:
    """Upload ``name`` read as counts or attempts; ``key(at, stem)`` is the dataset key it must get."""
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value((name, _body(), "text/csv")).run()
    (choice,) = [r for r in at.radio if r.key.startswith("upload_counts_")]
    choice.set_value(as_counts).run()
    at.button(key="upload_load").click().run()
    no_exception(at)
    assert at.session_state["dataset"] == key(at, name.removesuffix(".csv"))


def _view(at):
    metrics = {m.label: m.value for m in at.metric}
    ranks, bands = _charts(at)
    return metrics, [_array(tr.y) for tr in ranks.data], [_array(tr.y) for tr in bands.data]


@pytest.mark.parametrize("prior", ["uniform", "empirical-bayes"])
def test_counted_upload_shows_the_same_observed_trajectory_as_the_attempts(app, monkeypatch, prior):
    import dashboard.panels.upload as upload_panel

    monkeypatch.setattr(upload_panel, "COUNTS_THRESHOLD_BYTES", 0)
    app.sidebar.selectbox(key="prior").set_value(prior).run()
    _upload(app, "runs_attempts.csv", as_counts=False)
    at = _visit(app, TRAJ)
    assert not at.segmented_control(key="traj_order").disabled
    want = _view(at)

    _upload(app, "runs_counted.csv", as_counts=True)
    assert app.session_state["dataset"] != saved_key(app, "runs_attempts")
    at = _visit(app, TRAJ)
    assert "prefix counts" in _texts(at) and "observed trajectory is exact" in _texts(at)
    assert not at.segmented_control(key="traj_order").disabled
    assert at.segmented_control(key="traj_order").value == "observed"
    assert at.segmented_control(key="traj_scheme").value == "row"  # bootstrap trials rebuilt from counts: row-wise
    got = _view(at)
    assert got[0] == want[0]  # convergence@n, when the ranking stops changing, tau_b, models x trials
    assert "observed trial order" in _charts(at)[0].layout.title.text
    for a, b in zip(got[1], want[1]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(got[2], want[2]):  # Bayes@N mean and credible band vs n
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)

    at.segmented_control(key="traj_order").set_value("worst").run()  # the worst case still runs (row-wise)
    no_exception(at)
    assert "row-wise" in _charts(at)[0].layout.title.text


def test_counted_upload_kept_in_the_session_only_keeps_its_trial_order(app, monkeypatch):
    # no workspace (full, unwritable or off): the session keeps the count table and the prefix counts, so the
    # observed trajectory stays exact after the rerun that re-reads the upload
    import dashboard.panels.upload as upload_panel

    monkeypatch.setattr(upload_panel, "COUNTS_THRESHOLD_BYTES", 0)
    monkeypatch.setattr(upload_panel, "save_upload", lambda *a, **k: None)
    app.sidebar.selectbox(key="prior").set_value("uniform").run()
    for name, as_counts in (("runs_attempts.csv", False), ("runs_counted.csv", True)):
        _upload(app, name, as_counts, key=lambda at, stem: "upload:" + stem)  # session keys, not workspace ids
        at = _visit(app, TRAJ)
        if not as_counts:
            want = _view(at)
    upload = app.session_state["_uploads"]["upload:runs_counted"]
    assert upload.files[0][0].endswith(".counts.parquet") and upload.prefix and upload.prefix_meta
    assert "prefix counts" in _texts(at) and at.segmented_control(key="traj_order").value == "observed"
    got = _view(at)
    assert got[0] == want[0]
    for a, b in zip(got[1], want[1]):
        np.testing.assert_array_equal(a, b)
    conv = _visit(app, CONV)  # convergence@n says what the prefix counts can and cannot do
    assert "trial order kept only as prefix counts" in _texts(conv) and "no trial order" not in _texts(conv)


def test_disjoint_question_sets_rank_the_sidebars_models_on_their_shared_questions(app):
    """No question answered by every model: the dynamics say how to get a view; with the sidebar's model filter they
    rank the filtered models on the questions those share (as the CLI's --models)."""
    from dashboard.panels.sidebar import KEY_MODELS

    rows = ["model,question,seed,correct"]  # a: q0-q5, b: q3-q8, c: q6-q11 (4 trials each): a and b share q3-q5
    for m, first in (("a", 0), ("b", 3), ("c", 6)):
        rows += [f"{m},q{q},{t},{int((q + t) % (2 + 'abc'.index(m)) == 0)}" for q in range(first, first + 6) for t in range(4)]
    at = app
    at.switch_page(DATA).run()
    at.file_uploader(key="data_uploader").set_value(("disjoint.csv", "\n".join(rows).encode(), "text/csv")).run()
    at.button(key="upload_load").click().run()
    no_exception(at)
    at.switch_page(TRAJ).run()
    no_exception(at)
    assert not at.error  # a limit of the data: said in an info box, with the app's remedy (not the CLI's options)
    assert any(i.value.startswith("No question of this task was answered by every model shown") for i in at.info)
    assert "filter: this view then ranks them on the questions they share" in _texts(at)
    at.sidebar.multiselect(key=KEY_MODELS).set_value(["a", "b"]).run()
    at.switch_page(TRAJ).run()
    no_exception(at)
    assert not at.error
    assert "ranks the 2 models of the sidebar's filter on the questions they share" in _texts(at)
    ranks, _ = _charts(at)
    assert {t.name for t in ranks.data} == {"a", "b"}
    at.switch_page(CONV).run()
    no_exception(at)
    assert not at.error and "ranks the 2 models of the sidebar's filter" in _texts(at)
