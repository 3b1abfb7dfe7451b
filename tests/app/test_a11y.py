"""AppTest: accessibility QA fixes (text alternatives of charts, announced share links, contrast, focus, notices)."""

from __future__ import annotations

import re
import tomllib

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.app.conftest import ROOT, no_exception, shown

COMPARE, TRAJ, EXPORT = "pages/results/compare.py", "pages/results/trajectories.py", "pages/share/export.py"


def _captions(at) -> list[str]:
    return [shown(c.value) for c in at.main.caption]


def _tables(at, *keys: str) -> list:
    """The frames under the "Show as a table" expanders of the charts ``keys``, opened (closed, they hold none)."""
    boxes = [e for e in at.main.expander if e.label == "Show as a table"]
    assert len(boxes) == len(keys) and all(not e.dataframe for e in boxes)  # sent only once opened
    for key in keys:
        at.session_state[f"{key}_table"] = True
    at.run()
    no_exception(at)
    return [e.dataframe[0].value for e in at.main.expander if e.label == "Show as a table"]


def _contrast(a: str, b: str) -> float:
    def luminance(hex_colour: str) -> float:
        c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _mix(text: str, background: str, share: float) -> str:
    """``text`` at opacity ``share`` drawn on ``background``."""
    t, b = (np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)]) for c in (text, background))
    return "#" + "".join(f"{int(round(v)):02x}" for v in share * t + (1 - share) * b)


def test_leaderboard_heatmaps_have_a_summary_and_a_table(app):
    app.session_state["lb_view"] = "Pairwise P(A > B)"
    app.run()
    no_exception(app)
    assert any(c.startswith("Heatmap of P(row model > column model) for 16 models") for c in _captions(app))
    (pairs,) = _tables(app, "lb_pairwise_chart")
    assert len(pairs) == 16 and pairs.columns[0] == "model" and pairs.iloc[0, 1] == ""  # the diagonal
    assert all(re.fullmatch(r"(0\.\d\d|>\.99|<\.01)\*?", v) for v in pairs.iloc[0, 2:])  # as printed in the cells
    app.session_state["lb_view"] = "Rank distribution"
    app.run()
    no_exception(app)
    assert any(c.startswith("Heatmap of the probability that each of 16 models holds each rank") for c in _captions(app))
    (ranks,) = _tables(app, "lb_rank_chart")
    assert list(ranks.columns[:3]) == ["model", "rank 1", "rank 2"] and ranks.shape == (16, 17)


def test_compare_curves_have_a_summary_and_a_table(app):
    app.switch_page(COMPARE).run()
    no_exception(app)
    captions = _captions(app)
    assert any(c.startswith("Posterior density of") and "credible interval" in c for c in captions), captions
    assert any(c.startswith("Projected separation z against trials per question") for c in captions), captions
    difference, trials = _tables(app, "cmp_difference_chart", "cmp_trials_chart")
    assert difference["quantity"].iloc[0].startswith("mean of") and len(difference) == 5
    assert trials.columns.tolist() == ["trials per question (N)", "projected z"] and trials.iloc[0, 0] == 1
    assert np.array_equal(trials["projected z"], trials["projected z"].round(2))


def test_trajectory_rank_paths_have_a_summary_and_a_table(app):
    app.switch_page(TRAJ).run()
    no_exception(app)
    assert any(c.startswith("Rank of ") and "after all trials" in c for c in _captions(app)), _captions(app)
    paths, bands = _tables(app, "traj_chart", "traj_bands")
    assert paths.columns[0] == "model" and paths.columns[1] == "n = 1"
    assert bands.columns.tolist() == ["model", "n", "mean", "low", "high"] and len(bands) == 8 * 4  # 8 panels, n = 1-4


def test_created_share_links_are_announced_and_in_text_inputs(app):
    app.switch_page(EXPORT).run()
    assert not app.main.text_input  # no link before one is created
    app.button(key="share_create").click().run()
    no_exception(app)
    analysis_id = app.session_state["share_last_id"]
    assert any(s.value.startswith("Share links created") for s in app.main.success)
    link, present = app.text_input(key="share_link_text"), app.text_input(key="share_present_text")
    assert (link.label, present.label) == ("Share link", "Presentation link") and not link.disabled
    assert link.value.endswith(f"?analysis={analysis_id}") and present.value.endswith("&view=present")
    link.set_value("edited").run()  # read-only: the link comes back
    assert app.text_input(key="share_link_text").value.endswith(f"?analysis={analysis_id}")
    assert not app.main.success  # announced once, when created


#: Streamlit 1.67's default text and background colours (measured in Chromium): light, dark
LIGHT_TEXT, LIGHT_BG, DARK_TEXT, DARK_BG = "#2F2D2B", "#FFFFFF", "#EDEBE8", "#171614"


def test_caption_contrast_and_sidebar_focus_rules_are_injected(app):
    from dashboard.panels.charts import ACCESSIBLE_CSS, CAPTION_OPACITY

    injected = " ".join(h.proto.body for h in app.get("html"))
    assert ACCESSIBLE_CSS.removeprefix("<style>").removesuffix("</style>") in injected
    assert f"div[data-testid='stCaptionContainer'] {{opacity: {CAPTION_OPACITY};}}" in ACCESSIBLE_CSS
    assert ":focus-visible" in ACCESSIBLE_CSS and "outline: 2px solid" in ACCESSIBLE_CSS
    assert "outline-offset: 2px" in ACCESSIBLE_CSS and "stSidebarNav" in ACCESSIBLE_CSS
    # Streamlit's own caption opacity (0.6) gave 3.89:1 on white; captions stay a shade fainter than body text
    assert _contrast(_mix(LIGHT_TEXT, LIGHT_BG, 0.6), LIGHT_BG) < 4.5
    light = _mix(LIGHT_TEXT, LIGHT_BG, CAPTION_OPACITY)
    assert 4.5 <= _contrast(light, LIGHT_BG) < _contrast(LIGHT_TEXT, LIGHT_BG), light
    assert _contrast(_mix(DARK_TEXT, DARK_BG, CAPTION_OPACITY), DARK_BG) >= 4.5  # dark captions stay light


def test_chart_axis_text_rule_is_injected():
    from dashboard.panels.charts import ACCESSIBLE_CSS, AXIS_TEXT_SELECTOR, CAPTION_OPACITY

    assert f"{AXIS_TEXT_SELECTOR} {{fill: currentColor !important; fill-opacity: {CAPTION_OPACITY} !important;}}" in ACCESSIBLE_CSS
    for part in ("g[class$='tick'] text", "g.cbaxis text", "g[class^='g-x'][class$='title'] text"):
        assert part in AXIS_TEXT_SELECTOR
    # Streamlit's Plotly theme's tick grey on white (measured in Chromium): below AA, the reason for the rule
    assert _contrast("#808495", LIGHT_BG) < 4.5


def test_dark_theme_primary_colour_is_readable():
    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]
    assert theme["primaryColor"] == "#0072B2"  # the light theme's, unchanged
    primary = theme["dark"]["primaryColor"]
    assert _contrast("#0072B2", _mix("#0072B2", DARK_BG, 0.1)) < 4.5  # the QA's finding
    # as text on the dark background and on the selected segmented option (the primary colour at 10% on it)
    assert min(_contrast(primary, DARK_BG), _contrast(primary, _mix(primary, DARK_BG, 0.1))) >= 4.5


def test_an_ignored_link_value_stays_said_on_the_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["task"] = "nope"
    at.query_params["lb_k"] = "1e309"
    at.run()
    no_exception(at)
    said = " ".join(shown(i.value) for i in at.main.info)
    assert "task 'nope'" in said and "lb_k" in said, said  # beside the toasts, which vanish after seconds
    assert at.main.dataframe


def test_leaderboard_numbers_are_rounded_as_shown(app):
    table = app.main.dataframe[0].value
    for column in ("mu", "lo", "hi", "avg"):
        values = table[column].to_numpy(float)
        assert np.array_equal(values, np.round(values, 4)), column
    assert table["mu"].to_numpy(float)[0] != 0  # numbers, not blanks


# --------------------------------------------------------------------------- every chart has its text alternative
#: The summary each page's charts carry as a caption (their starts), in page order, on the default bundled data
#: (MathArena AIME 2025 I: 16 models x 15 questions, N = 4)
SUMMARIES = {
    "pages/results/leaderboard.py": ["16 models; highest mean o3-mini (high) 0.7983 (95% credible interval"],
    "pages/results/tasks.py": ["Bayes@N of 16 models on 1 task: highest", "16 models; highest combined score"],
    "pages/results/convergence.py": ["Share of bootstrap replicates whose ranking settles on the gold standard by n",
                                     "Mean Kendall's tau_b with the gold standard after n = 1 to 4 trials"],
    "pages/results/questions.py": ["Questions per flag: flaky 14", "Item characteristic curve of question"],
    TRAJ: ["Rank of 16 models after each of n = 1 to 4 trials", "Posterior mean after each of n = 1 to 4 trials"],
    COMPARE: ["Posterior density of", "Pass rate of o3-mini (high) against o1 (medium) on 15 questions",
              "Projected separation z against trials per question"],
    "pages/data/data.py": ["Pass rate of 16 models on 15 questions"],
}


def _every_chart_said(at, starts: list[str]) -> None:
    """One chart per summary, and each summary a caption."""
    no_exception(at)
    captions = _captions(at)
    assert len(at.get("plotly_chart")) == len(starts), (len(at.get("plotly_chart")), starts)
    for start in starts:
        assert any(c.startswith(start) for c in captions), (start, captions)


def test_every_chart_on_each_page_has_a_summary(app):
    for page, starts in SUMMARIES.items():
        app.switch_page(page).run()
        _every_chart_said(app, starts)


def test_convergence_and_question_charts_have_tables(app):
    app.switch_page("pages/results/convergence.py").run()
    settled, tau = _tables(app, "conv_chart", "conv_tau_chart")
    assert settled.columns.tolist() == tau.columns.tolist() == ["trials n", "Bayes@N", "Pass@2"]
    assert settled["trials n"].tolist() == [1, 2, 3] and tau["trials n"].tolist() == [1, 2, 3, 4]
    app.switch_page("pages/results/questions.py").run()
    flags, item = _tables(app, "q_flag_chart", "q_item_chart")
    assert flags.columns.tolist() == ["flag", "questions"] and dict(zip(flags["flag"], flags["questions"]))["flaky"] == 14
    assert item.columns.tolist() == ["model", "ability", "observed success"] and len(item) == 16


def test_leaderboard_tabs_and_a_ranking_method_have_summaries(app):
    for tab, starts in [("IRT ability", ["16 models; highest ability"]),
                        ("Method agreement", ["Kendall's tau_b between the rankings of"]),
                        ("Score vs cost", ["Mean against "])]:
        app.session_state["lb_view"] = tab
        app.run()
        _every_chart_said(app, starts)
    (costs,) = _tables(app, "lb_cost_chart")
    assert costs.columns[0] == "model" and len(costs) == 14  # two models report no plain number
    app.session_state["lb_view"] = "Ranking"
    app.run()
    app.selectbox(key="lb_method").set_value("inverse_difficulty").run()
    _every_chart_said(app, ["Rank of 16 models under 2 schemata (Bayes@N, "])


def test_plan_projection_has_a_summary_and_a_table(app):
    app.switch_page("pages/results/plan.py").run()
    app.session_state["plan_view"] = "Projection"
    app.run()
    _every_chart_said(app, ["Projected probability of "])
    (projection,) = _tables(app, "plan_projection")
    assert projection.columns.tolist() == ["batch", "trials spent (median)", "mean probability"]
    assert projection["batch"].tolist() == list(range(7))


def test_sensitivity_and_rubric_charts_have_summaries(sim_app):
    sim_app.switch_page("pages/results/sensitivity.py").run()
    _every_chart_said(sim_app, ["Rank of 20 models under 13 schemata (Binary correctness, ",
                                "Share of 200 perturbed rubrics in which each of 20 models holds each rank: mimic-20"])
    bump, shares = _tables(sim_app, "sens_bump", "sens_heatmap")
    assert bump.shape == (20, 14) and shares.columns[:3].tolist() == ["model", "unperturbed rank", "rank 1"]
    sim_app.switch_page("pages/data/rubric.py").run()
    _every_chart_said(sim_app, ["Share of each model's attempts per rubric category, 20 models: "])
    sim_app.switch_page("pages/data/data.py").run()  # attempts: the per-trial grid under the pass-rate grid
    _every_chart_said(sim_app, ["Pass rate of 20 models on ", "Every trial of 6 models on "])
    rates, trials = _tables(sim_app, "data_rate_grid", "data_trial_grid")
    assert rates.columns[0] == "question" and trials.columns[:3].tolist() == ["model", "question", "trial 1"]
