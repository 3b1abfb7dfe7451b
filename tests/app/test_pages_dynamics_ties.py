"""AppTest: Trajectories and Convergence when the data cannot order the models (every model tied, a pair no
practical run separates): the pages say so instead of showing "nan" or promising that more trials settle it."""

from __future__ import annotations

from tests.app.test_pages_analysis import CONV, TRAJ, _ok, _texts, _unescape, _visit


def test_models_that_all_tie_say_why_agreement_is_undefined(app):
    # three models that solve every question in every trial: every ranking is one tie, Kendall's tau_b is 0/0
    csv = "model,question,seed,correct\n" + "\n".join(
        f"{m},q{q},{t},1" for m in ("alpha", "beta", "gamma") for q in range(6) for t in range(3))
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("tied.csv", csv.encode(), "text/csv")).run()
    app.button(key="upload_load").click().run()
    _ok(app)
    at = _visit(app, TRAJ)
    agreement = {m.label: m.value for m in at.metric}["Agreement at n \\= 1"]
    assert agreement == "undefined"  # was "nan"
    at = _visit(at, CONV)
    assert "Kendall's tau_b is undefined for Bayes@N, Pass@2: every model ties" in _texts(at)


def test_a_closest_pair_no_practical_run_separates_is_reported_as_tied(app):
    # m0 and m1 differ by one trial of 80: thousands of trials per question would separate them
    rows = [f"m{m},q{q},{t},{int((q + t) % 2 == 0 or (m == 1 and q == 0 and t == 1))}"
            for m in range(2) for q in range(20) for t in range(4)]
    rows += [f"m2,q{q},{t},{int(q % 5 == 0)}" for q in range(20) for t in range(4)]
    app.switch_page("pages/data/data.py").run()
    app.file_uploader(key="data_uploader").set_value(("close.csv", ("model,question,seed,correct\n" + "\n".join(rows)).encode(),
                                                      "text/csv")).run()
    app.button(key="upload_load").click().run()
    _ok(app)
    at = _visit(app, CONV)
    (settle,) = [i.value for i in at.info if "too few for this ranking to settle" in i.value]
    assert "no practical number of trials separates them" in _unescape(settle)
    assert "Report that pair as tied" in settle and "would settle it" not in settle

    # Compare: the headline no longer leads with thousands of trials per question "for 80% power"
    at = _visit(at, "pages/results/compare.py")
    at.selectbox(key="cmp_a").set_value("m1").run()
    at.selectbox(key="cmp_b").set_value("m0").run()
    _ok(at)
    infos = [_unescape(i.value) for i in at.info]
    assert any(i.startswith("No practical number of trials separates them") for i in infos), infos
    assert not any("trials per question** for" in i for i in infos)


def test_the_pair_that_decides_convergence_is_the_least_separated_not_the_nearest_means():
    """a and b are 0.01 apart with sds of 0.001 (z = 7); b and c 0.09 apart with sds of 0.001 and 0.1 (z = 0.9): the pair that
    keeps a ranking from settling is b and c, the lowest P(A > B) among neighbours, as the Leaderboard reads it."""
    import pandas as pd

    from dashboard.compute.results import closest_pair

    board = pd.DataFrame({"model": ["a", "b", "c"], "mu": [0.50, 0.51, 0.60], "sigma": [0.001, 0.001, 0.1]})
    assert closest_pair(board, ["a", "b", "c"]) == ("c", "b")
    assert closest_pair(board.drop(columns="sigma"), ["a", "b", "c"]) == ("b", "a")  # no sds: the nearest means
    assert closest_pair(board, ["a"]) is None


def test_counts_say_what_the_replicate_lines_are_and_never_round_a_share_to_100_percent(app):
    """MathArena counts (N = 4): the bands follow a bootstrap replicate, whose value after N trials is not the
    Leaderboard's; replicate #0 is the worst because it is the first of many that never settle; 1 of 2,000 replicates
    settling (row-wise draws in the models' and questions' natural order, as the CLI) is "99.95%" without
    convergence, not "100%" beside a mean that "settles after ... trials"."""
    from tests.app.test_pages_analysis import _charts

    at = _visit(app, TRAJ)
    title = _charts(at)[0].layout.title.text.replace("<br>", " ")  # a long title wraps (figures.theme.apply_theme)
    assert "(replicate #0, the first of the " in title and " that never settle, seed 0)" in title, title
    texts = _texts(at)
    assert "this replicate's value after its N resampled trials, not the Leaderboard's value" in texts
    assert "The dotted line is the value after all N trials" not in texts
    at = _visit(at, CONV)
    legend = _charts(at)[0].data[0].name
    assert "100%" not in legend and "settles after" not in legend and "never do" in legend, legend
    texts = _texts(at)
    assert "did not reach the gold standard in 100% of" not in texts and "in 99.95% of the replicates" in texts
