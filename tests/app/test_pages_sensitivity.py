"""AppTest: the Sensitivity page (rubric weights and thresholds), every control, bundled and uploaded signals."""

from __future__ import annotations

from tests.app.test_pages_analysis import SENS, TRAJ, _array, _charts, _ok, _texts, _unescape, _visit, sim  # noqa: F401


# --------------------------------------------------------------------------- sensitivity
def test_sensitivity_default_view(sim):
    at = _visit(sim, SENS)
    picked = at.multiselect(key="sens_schemas").value
    assert picked[0] == "Binary correctness" and "Format Aware" in picked and len(picked) == 13
    bump, heat = _charts(at)
    assert len(bump.data) == 20 and bump.data[0].x[0] == "Binary correctness"
    assert heat.data[0].type == "heatmap"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Leader (unperturbed)"] == "mimic-20"
    drivers = at.dataframe[0].value
    assert drivers["parameter"].iloc[-1].startswith("threshold: ")
    assert any("cannot support (1)" in e.label for e in at.expander)
    assert "**Token Surprise vs. Correctness**: needs completion_logprob_min" in _texts(at)


def test_sensitivity_every_control(sim):
    at = _visit(sim, SENS)
    at.multiselect(key="sens_schemas").set_value(["Format Aware", "Verifier-Only", "OOD Robustness"]).run()
    _ok(at)
    assert list(_charts(at)[0].data[0].x) == ["Format Aware", "Verifier-Only", "OOD Robustness"]
    at.toggle(key="sens_ci").set_value(True).run()
    _ok(at)
    assert "CI ties" in _charts(at)[0].layout.yaxis.title.text
    at.multiselect(key="sens_highlight").set_value(["mimic-13"]).run()
    _ok(at)
    # the perturbation controls set together, then one rerun (each rerun recomputes the perturbed rubrics)
    at.selectbox(key="sens_target").set_value("Concision-High-Conf")
    at.slider(key="sens_weight_range").set_value(0.4)
    at.slider(key="sens_shift").set_value(10.0)
    at.select_slider(key="sens_n").set_value(100)
    at.number_input(key="sens_seed").set_value(4).run()
    _ok(at)
    drivers = at.dataframe[0].value
    assert "threshold: len_p33" in set(drivers["parameter"])
    assert set(drivers.loc[drivers["parameter"].str.startswith("weight"), "range"]) == {"x 0.60 .. 1.40"}
    assert _charts(at)[1].data[0].colorbar.title.text == "share of 100 rubrics"
    at.multiselect(key="sens_schemas").set_value([]).run()
    _ok(at)
    assert "Pick at least one schema" in _texts(at)


def test_sensitivity_follows_the_rubric_page(sim):
    sim.switch_page("pages/data/rubric.py").run()
    sim.selectbox(key="rubric_schema").set_value("Efficiency-Adjusted").run()
    _ok(sim)
    at = _visit(sim, SENS)
    assert at.selectbox(key="sens_target").value == "Efficiency-Adjusted"
    assert "rubric: Efficiency-Adjusted" in _unescape(at.caption[0].value)
    at = _visit(at, TRAJ)  # Bayes@N under the rubric's weights
    assert "rubric: Efficiency-Adjusted" in _unescape(at.caption[0].value)
    bands = _charts(at)[1]
    assert max(_array(t.y).max() for t in bands.data if t.fill == "toself") > 1.0  # weights go up to 6


def test_sensitivity_keeps_frozen_thresholds_of_the_active_rubric(sim):
    sim.switch_page("pages/data/rubric.py").run()
    sim.selectbox(key="rubric_schema").set_value("Efficiency-Adjusted").run()
    sim.toggle(key="rubric_freeze").set_value(True).run()
    _ok(sim)
    at = _visit(sim, SENS)
    assert at.selectbox(key="sens_target").value == "Efficiency-Adjusted"
    drivers = set(at.dataframe[0].value["parameter"])
    assert not any(p.startswith("threshold:") for p in drivers), drivers  # frozen: only weights move
    assert "frozen thresholds are not perturbed: len_p33, len_p66" in _texts(at)
    at.switch_page("pages/data/rubric.py").run()
    at.toggle(key="rubric_freeze").set_value(False).run()
    at = _visit(at, SENS)
    assert {"threshold: len_p33", "threshold: len_p66"} <= set(at.dataframe[0].value["parameter"])


def test_sensitivity_without_signals_explains(app):
    at = _visit(app, SENS)  # MathArena counts
    assert "counts only" in _texts(at)
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    at = _visit(app, SENS)
    assert "Of the built-in schemata only binary correctness applies" in _texts(at)
    assert "has_answer" in _texts(at)  # a boolean column no schema reads: a user rubric could use it
    assert at.multiselect(key="sens_schemas").options == ["Binary correctness"]


def test_sensitivity_lists_every_numeric_column_as_a_signal(app):
    # issue 16: a per-attempt table whose extra columns no built-in schema reads
    rows = ["model,question_id,trial,is_correct,duration_s,num_steps,total_tokens,agent"]
    rows += [f"m{m},q{q},{t},{(m + q + t) % 2},{10.5 * (t + 1)},{q + t},{100 * (m + 1)},bot"
             for m in range(3) for q in range(4) for t in range(3)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("agents.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    _ok(app)
    at = _visit(app, SENS)
    text = _texts(at)
    assert "no other attempt signals" not in text and "3 more numeric or boolean signals" in text
    assert "duration_s, num_steps, total_tokens" in text
    signals = next(d.value for d in at.dataframe if "signal" in d.value.columns)
    assert {"duration_s", "num_steps", "total_tokens", "agent"} <= set(signals["signal"])
    assert set(signals.loc[signals["signal"].isin(["duration_s", "num_steps"]), "kind"]) == {"number"}
    at = _visit(at, "pages/data/rubric.py")  # the Rubric page lists the same signals
    rubric_signals = next(d.value for d in at.dataframe if "signal" in d.value.columns)
    assert rubric_signals.equals(signals)


def test_per_model_stability_is_drawn_when_opened(sim):
    """The collapsed stability table is built only when its expander is opened (first paint, issue 36)."""
    at = _visit(sim, SENS)
    tables = len(at.dataframe)
    at.session_state["sens_stability"] = True
    at.run()
    _ok(at)
    assert len(at.dataframe) == tables + 1
    stability = next(t.value for t in at.dataframe if list(t.value.columns) == ["model", "base_rank", "at_base", "first"])
    assert len(stability) == 20
    assert stability["base_rank"].is_monotonic_increasing and stability["first"].between(0, 1).all()
