"""AppTest: the Trajectories, Convergence and Sensitivity pages, every control, every bundled dataset."""

from __future__ import annotations

import base64
import re
import threading
import time
from types import SimpleNamespace

import numpy as np
import plotly.io
import pytest

from dashboard.compute import dynamics as analysis_cache
from dashboard.compute.background import Cancelled, run_jobs
from scorio_core.dynamics.budget import default_note, default_replicates, run_estimate
from dashboard.data.bundled import BUNDLED

TRAJ, CONV, SENS = "pages/results/trajectories.py", "pages/results/convergence.py", "pages/results/sensitivity.py"
SIMULATION = "paper-simulation"


def _ok(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _charts(at) -> list:
    """The page's Plotly figures, rebuilt from what the app sent."""
    return [plotly.io.from_json(chart.proto.spec) for chart in at.get("plotly_chart")]


def _array(values) -> np.ndarray:
    """Plotly sends numeric arrays as ``{"dtype", "bdata"}`` (base64); lists stay lists."""
    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
    return np.asarray(values, dtype=float)


def _unescape(text: str) -> str:
    """Markdown text as displayed (user text is backslash-escaped by dashboard.text.md)."""
    return re.sub(r"\\(.)", r"\1", text)


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    return _unescape("\n".join(parts))


@pytest.fixture
def sim(app):
    app.sidebar.selectbox(key="dataset").set_value(SIMULATION).run()
    _ok(app)
    return app


def _visit(at, page):
    at.switch_page(page).run()
    _ok(at)
    return at


# --------------------------------------------------------------------------- trajectories
def test_trajectories_default_view(sim):
    at = _visit(sim, TRAJ)
    assert at.title[0].value == "Trajectories"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Models x trials"] == "20 x 80"
    ranks, bands = _charts(at)
    assert len(ranks.data) == 20 and "observed trial order" in ranks.layout.title.text
    assert len(bands.data) == 16  # band + mean for the best 8 models
    assert at.multiselect(key="traj_band_models").value[0] == "mimic-20"


def test_trajectories_every_control(sim):
    at = _visit(sim, TRAJ)
    at.selectbox(key="traj_metric").set_value("pass@k").run()
    _ok(at)
    at.number_input(key="traj_k").set_value(4).run()
    _ok(at)
    title = _charts(at)[0].layout.title.text
    assert title.startswith("Pass@4 rank")
    assert np.isnan(_array(_charts(at)[0].data[0].y)[:3]).all()  # undefined for n < k
    at.selectbox(key="traj_metric").set_value("g-pass@k_tau").run()
    at.slider(key="traj_tau").set_value(0.75).run()
    _ok(at)
    assert "G-Pass@4 (tau=0.75)" in _charts(at)[0].layout.title.text
    for metric in ("pass^k", "mg-pass@k", "bayes"):
        at.selectbox(key="traj_metric").set_value(metric).run()
        _ok(at)
    at.segmented_control(key="traj_order").set_value("worst").run()
    _ok(at)
    at.segmented_control(key="traj_scheme").set_value("row")
    at.select_slider(key="traj_replicates").set_value(100)
    at.number_input(key="traj_seed").set_value(3).run()
    _ok(at)
    title = _charts(at)[0].layout.title.text
    assert "worst of 100 row-wise bootstrap replicates" in title and "seed 3" in title
    assert "along the same replicate" in _texts(at)
    at.multiselect(key="traj_highlight").set_value(["mimic-05"]).run()
    _ok(at)
    widths = {t.name: t.line.width for t in _charts(at)[0].data}
    assert widths["mimic-05"] > widths["mimic-06"]
    at.multiselect(key="traj_band_models").set_value(["mimic-01", "mimic-02"]).run()
    _ok(at)
    assert len(_charts(at)[1].data) == 4


def test_trajectories_settings_survive_a_page_switch(sim):
    at = _visit(sim, TRAJ)
    at.selectbox(key="traj_metric").set_value("pass@k").run()
    at.segmented_control(key="traj_order").set_value("worst").run()
    _visit(at, "pages/results/leaderboard.py")
    _visit(at, TRAJ)
    assert at.selectbox(key="traj_metric").value == "pass@k"
    assert at.segmented_control(key="traj_order").value == "worst"


def test_trajectories_on_counts_show_the_row_wise_worst_case(app):
    at = _visit(app, TRAJ)  # MathArena counts, N = 4
    assert "counts only" in _texts(at) and "exchangeable" in _texts(at)
    assert at.segmented_control(key="traj_order").disabled
    assert "row-wise" in _charts(at)[0].layout.title.text


@pytest.mark.parametrize("key", ["tau-bench-airline", "scorio-aime25-q06"])
def test_one_model_explains_ranking_needs_two(app, key):
    app.sidebar.selectbox(key="dataset").set_value(key).run()
    for page in (TRAJ, CONV, SENS):
        at = _visit(app, page)
        assert "at least 2 models" in _texts(at), page
        assert not at.get("plotly_chart")
        assert not at.main.expander and not at.main.multiselect, page  # no schema or signal lists for one model


def test_single_trial_data_explains_the_degenerate_trajectory(app):
    app.switch_page("pages/data/data.py").run()
    csv = "model,question,seed,correct\n" + "\n".join(
        f"{m},q{q},0,{int((q + len(m)) % 3 == 0)}" for m in ("alpha", "beta", "gamma") for q in range(6)
    )
    app.file_uploader(key="data_uploader").set_value(("single.csv", csv.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    for page in (TRAJ, CONV):
        at = _visit(app, page)
        assert "N = 1" in _texts(at) and "at least 2 trials" in _texts(at), page


def test_every_bundled_dataset_is_safe_on_every_page(app):
    # the paper simulation and tau-bench run every page in tests/app/test_page_matrix.py's sample
    for key in [k for k in BUNDLED if k not in ("paper-simulation", "tau-bench-airline")]:
        app.sidebar.selectbox(key="dataset").set_value(key).run()
        for page in (TRAJ, CONV, SENS):
            app.switch_page(page).run()
            _ok(app)
            assert app.title, (key, page)
            # livebench's duplicates: its bundled choice (keep-first) is in force and named, nothing blocks
            assert not any("data-quality choice" in w.value for w in app.warning), (key, page)


# --------------------------------------------------------------------------- convergence
def test_convergence_default_view(sim):
    at = _visit(sim, CONV)
    table = at.dataframe[0].value
    assert list(table["method"]) == ["Bayes@N", "Pass@2", "Pass@4", "Pass@8"]
    # the empirical-Bayes prior (default) refits per replicate: on 20 x 30 x 80 the default is the most within ~8 s
    assert table["replicates"].tolist() == [200] * 4
    assert "The default here is 200 replicates, not 2,000" in _texts(at)
    assert "s per replicate on these data on a 2-core server (about 6 s for the 200 chosen)" in _texts(at)
    dist, tau = _charts(at)
    names = [t.name for t in dist.data if t.showlegend is not False]
    assert any(n.startswith(("Bayes@N: settles after", "Bayes@N: the ")) or n == "Bayes@N: never settles within N trials"
               for n in names)  # "the 12% of replicates that settle do so after ..." where most never do
    assert [t.name for t in tau.data] == ["Bayes@N", "Pass@2", "Pass@4", "Pass@8"]


def test_default_replicates_follow_the_cost_of_the_prior():
    block = lambda L, M, N, K=2: SimpleNamespace(R=np.zeros((L, M, N), dtype=np.int8), weights=np.arange(K))  # noqa: E731
    choices = (100, 200, 500, 1000, 2000, 5000)
    assert default_replicates(block(20, 30, 80), "uniform", choices) == 2000  # closed form: always
    assert default_replicates(block(20, 30, 80), "jeffreys", choices) == 2000
    # MathArena's size (16 x 15 x 4) and ARC-AGI-1's (12 x 419 x 2): 2,000 empirical-Bayes replicates in 0.5-2.5 s
    assert default_replicates(block(16, 15, 4), "empirical-bayes", choices) == 2000
    assert default_replicates(block(12, 419, 2), "empirical-bayes", choices) == 2000
    # the paper simulation's 20 x 30 x 80: ~0.03 s per replicate, 200 fit in 8 s
    assert default_replicates(block(20, 30, 80), "empirical-bayes", choices) == 200
    assert default_replicates(block(300, 500, 200), "empirical-bayes", choices) == 100  # never below
    # more categories cost more (docs/scale.md, 2026-11-30, 100 replicates on 20 x 30 x 80: 2.5 s binary, 5.5 s with
    # Format Aware's 5 categories, 8.8 s with Format+Confidence's 8): the default shrinks with them
    assert default_replicates(block(20, 30, 80, K=3), "empirical-bayes", choices) == 200  # 3.4 s per 100
    assert default_replicates(block(20, 30, 80, K=5), "empirical-bayes", choices) == 100
    assert default_replicates(block(20, 30, 80, K=8), "empirical-bayes", choices) == 100  # the smallest choice
    assert default_replicates(block(16, 15, 4, K=5), "empirical-bayes", choices) == 2000  # MathArena's size: cheap
    assert default_replicates(block(12, 419, 2, K=8), "empirical-bayes", choices) == 1000
    assert default_note(block(20, 30, 80), 2000) == ""
    assert default_note(block(20, 30, 80), 200).endswith("the most that finish in about 8 s on these data.")
    # the fewest offered and still over the budget: the page says how long (1.8e-7 x 20 x 80 x 110 x 3.1 x 100 = 9.8 s)
    assert "the fewest offered, which take about 10 s on these data (8 rubric categories" in default_note(
        block(20, 30, 80, K=8), 100)
    assert "the fewest offered, which take about 20 s" in default_note(block(20, 40, 120, K=8), 100)  # 2.3x the units


def test_run_estimate_states_the_cost_of_the_chosen_replicates():
    block = lambda L, M, N, K=2: SimpleNamespace(R=np.zeros((L, M, N), dtype=np.int8), weights=np.arange(K))  # noqa: E731
    # 1.8e-7 s x 20 x 80 x 110 units per replicate, x 3.1 with 8 categories (docs/scale.md)
    assert run_estimate(block(20, 30, 80), 200) == ("about 0.032 s per replicate on these data on a 2-core server "
                                                   "(about 6 s for the 200 chosen)")
    assert run_estimate(block(20, 30, 80, K=8), 5000).endswith("(about 8 min for the 5,000 chosen)")
    # small blocks: the fixed ~0.3 ms per replicate dominates, and a fraction of a second is said as such
    assert run_estimate(block(3, 5, 2), 100).endswith("(under 1 s for the 100 chosen)")
    # ragged blocks refit from count tensors (2x); each task pooled is one more fit per (prefix, model)
    ragged = SimpleNamespace(R=np.where(np.arange(6) < 4, 0, -1) * np.ones((5, 30, 1), dtype=np.int8),
                             weights=np.arange(2))
    pooled = SimpleNamespace(R=np.zeros((5, 30, 6), dtype=np.int8), weights=np.arange(2), strata=np.repeat([0, 1], 15))
    plain = SimpleNamespace(R=np.zeros((5, 30, 6), dtype=np.int8), weights=np.arange(2))
    per = {name: float(run_estimate(b, 1).split()[1]) for name, b in (("plain", plain), ("ragged", ragged),
                                                                      ("pooled", pooled))}
    # 1.8e-7 x 5 x 6 x 36 + 3e-4 = 4.9e-4; ragged 1.8e-7 x 5 x 6 x 36 x 2 + 3e-4 = 6.9e-4; 2 tasks 1.8e-7 x 5 x 6 x 42
    # + 6e-4 = 8.3e-4 (measured 5.3e-4, 1.1e-3, 1.1e-3 on a loaded 2-core machine)
    assert per == {"plain": 0.00049, "ragged": 0.00069, "pooled": 0.00083}


def test_replicate_default_follows_the_data_until_the_user_picks_one(app):
    first = app.sidebar.selectbox(key="dataset").value
    at = _visit(app, CONV)  # bundled MathArena (16 x 15 x 4): 2,000 empirical-Bayes replicates fit the budget
    assert at.select_slider(key="conv_replicates").value == 2000
    at.sidebar.selectbox(key="dataset").set_value(SIMULATION).run()
    _ok(at)  # 20 x 30 x 80: the default follows (2,000 carried over would take ~20 s here)
    assert at.select_slider(key="conv_replicates").value == 200
    assert at.dataframe[0].value["replicates"].tolist()[0] == 200
    at.select_slider(key="conv_replicates").set_value(100).run()
    at.sidebar.selectbox(key="dataset").set_value(first).run()
    _ok(at)  # a count the user picked stays
    assert at.select_slider(key="conv_replicates").value == 100
    _visit(at, TRAJ)
    assert at.select_slider(key="traj_replicates").value == 2000


def test_convergence_every_control(sim):
    at = _visit(sim, CONV)
    at.select_slider(key="conv_replicates").set_value(100).run()
    # the k/tau controls appear with their methods; then they are set together and run once (a rerun recomputes)
    at.button_group(key="conv_methods").set_value(["Bayes@N", "Pass@k", "Pass^k", "G-Pass@k_tau", "mG-Pass@k"]).run()
    at.multiselect(key="conv_pass_ks").set_value([2])
    at.number_input(key="conv_k").set_value(3)
    at.slider(key="conv_tau").set_value(0.25).run()
    _ok(at)
    assert list(at.dataframe[0].value["method"]) == ["Bayes@N", "Pass@2", "Pass^3", "G-Pass@3 (tau=0.25)", "mG-Pass@3"]
    at.segmented_control(key="conv_scheme").set_value("row")
    at.number_input(key="conv_seed").set_value(5)
    at.segmented_control(key="conv_gold").set_value("replicate").run()
    _ok(at)
    assert "row-wise bootstrap replicates, seed 5" in _texts(at)
    at.multiselect(key="conv_models").set_value(["mimic-01", "mimic-10", "mimic-20"]).run()
    _ok(at)
    assert "3 models, 100 row-wise" in _texts(at)
    table = at.dataframe[0].value
    assert (table["no_convergence"] < 0.5).all()  # three well-separated models settle
    at.multiselect(key="conv_models").set_value(["mimic-01"]).run()
    _ok(at)
    assert "at least 2 models" in _texts(at)
    at.button_group(key="conv_methods").set_value([]).run()
    _ok(at)


def test_convergence_on_counts_is_row_wise(app):
    at = _visit(app, CONV)  # MathArena counts, N = 4: Pass@k with k <= N - 1
    assert at.segmented_control(key="conv_scheme").value == "row"
    assert at.segmented_control(key="conv_scheme").disabled
    assert "exchangeable" in _texts(at)
    assert list(at.dataframe[0].value["method"]) == ["Bayes@N", "Pass@2"]
    settle = [i.value for i in at.info if "too few for this ranking to settle" in i.value]
    assert settle and "trials per question" in settle[0] and "least-separated neighbours" in settle[0]  # what settles it


def test_convergence_revisit_is_served_from_the_cache(sim, monkeypatch):
    at = _visit(sim, CONV)
    at.select_slider(key="conv_replicates").set_value(100).run()
    _ok(at)

    def boom(*args, **kwargs):
        raise AssertionError("recomputed")

    monkeypatch.setattr(analysis_cache, "bootstrap_convergence", boom)
    _visit(at, TRAJ)
    _visit(at, CONV)  # a recomputation would raise in `boom` (no timing here: the suite may run under load)
    assert at.dataframe[0].value["replicates"].tolist() == [100] * 4


# --------------------------------------------------------------------------- long runs
def _waiting_job(seconds: float, started: threading.Event | None = None):
    def job(progress):
        if started is not None:
            started.set()
        for i in range(50):
            time.sleep(seconds / 50)
            if progress((i + 1) / 50) is False:
                raise Cancelled("stopped")
        return seconds

    return job


def test_run_jobs_reports_progress_and_returns_in_order():
    seen = []
    assert run_jobs([_waiting_job(0.2), _waiting_job(0.1)], seen.append, poll=0.02) == [0.2, 0.1]
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)


class _Rerun(BaseException):
    """Stands in for Streamlit's RerunException (a BaseException raised inside st.* calls)."""


def test_a_rerun_cancels_every_job():
    stopped = []

    def job(progress):
        try:
            return _waiting_job(5.0)(progress)
        except Cancelled:
            stopped.append(True)
            raise

    def on_progress(fraction):
        raise _Rerun()

    start = time.perf_counter()
    with pytest.raises(_Rerun):
        run_jobs([job, job], on_progress, poll=0.05)
    time.sleep(0.4)
    assert stopped == [True, True]  # both workers saw the cancel flag at their next step
    assert time.perf_counter() - start < 4.5  # not the jobs' 5 s: they stopped (loose: the suite may run under load)


def test_a_cancelled_bootstrap_is_never_cached(sim):
    ctx = SimpleNamespace(data=SimpleNamespace(data_id="test-cancel", dataset=sim_dataset()), task=SIMULATION, confidence=0.95,
                          prior="uniform")
    active = SimpleNamespace(rubric_id="binary", categorization=None, prior_id="none", prior=None)
    method = [analysis_cache.Method("bayes")]

    def interrupt(fraction):
        raise _Rerun()

    with pytest.raises(_Rerun):
        analysis_cache.convergence_results(ctx, active, method, scheme="column", replicates=20_000, seed=9,
                                           on_progress=interrupt)
    key = f"conv|test-cancel|{SIMULATION}|binary|none|uniform|{method[0]}|column|20000|9|data|all"
    assert analysis_cache.fetch(key) is None
    ((_, result),) = analysis_cache.convergence_results(ctx, active, method, scheme="column", replicates=200, seed=9)
    assert result.replicates == 200


def sim_dataset():
    from scorio_core import io

    return io.load([str(p) for p in BUNDLED[SIMULATION].paths])


# --------------------------------------------------------------------------- priors (issue 13)
@pytest.mark.parametrize("prior", ["uniform", "jeffreys", "empirical-bayes"])
def test_trajectories_follow_the_sidebar_prior(sim, prior):
    from scorio_core.dynamics.trajectory import TRAJECTORY_PRIOR_NOTES
    from scorio_core.uncertainty import PRIOR_LABELS

    sim.sidebar.selectbox(key="prior").set_value(prior).run()
    at = _visit(sim, TRAJ)
    text = _texts(at)
    assert f"Prior: {PRIOR_LABELS[prior]}" in text
    note = TRAJECTORY_PRIOR_NOTES[prior]
    assert note[:1].upper() + note[1:60] in text  # as written: "Bayes@N", "N" kept (not str.capitalize)
    bands = _charts(at)[1]
    assert bands.data  # the credible bands render under every prior


# --------------------------------------------------------------------------- ragged data (issue 16)
def test_trajectories_and_convergence_run_on_a_ragged_count_table(app):
    # three models, four questions, N from 3 to 6 per question: no error box, row-wise, every trial kept
    rows = ["model,question_id,n_trials,n_correct"]
    for m, rate in enumerate((0.2, 0.5, 0.8)):
        for q, n in enumerate((3, 4, 6, 5)):
            rows.append(f"m{m},q{q},{n},{round(rate * n)}")
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("ragged.csv", "\n".join(rows).encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    _ok(app)
    at = _visit(app, CONV)
    assert "different numbers of trials (3-6)" in _texts(at) and "own N" in _texts(at)
    assert at.segmented_control(key="conv_scheme").value == "row" and at.segmented_control(key="conv_scheme").disabled
    assert at.number_input(key="conv_k").max == 3  # every question needs k trials
    assert _charts(at)
    at = _visit(at, TRAJ)
    assert "different numbers of trials (3-6)" in _texts(at)
    ranks = _charts(at)[0]
    assert len(ranks.data) == 3 and len(_array(ranks.data[0].x)) == 6  # n = 1..N_max
    assert "row-wise" in ranks.layout.title.text

