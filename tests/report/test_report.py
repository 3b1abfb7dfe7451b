"""scorio_core.report: safe CSV, Markdown, LaTeX, verdict, self-contained HTML, manifest."""

from __future__ import annotations

import csv
import io
import json
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from scorio_core.leaderboard.table import LEADERBOARD_COLUMNS
from scorio_core.errors import InputError
from scorio_core.io import SourceInfo
from scorio_core.report import latex, tables
from scorio_core.report.html import html_report
from scorio_core.report.manifest import build_manifest, manifest_to_json, read_manifest, source_mismatches
from scorio_core.report.verdict import format_probability, verdict
from scorio_core.rubric import get_schema

EVIL = ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "+SUM(A1)", "@import", "-2+3", "a|b & c_d"]


def board(models=None, mu=None, sigma=None) -> pd.DataFrame:
    models = models or ["alpha", "beta", "gamma"]
    mu = np.asarray(mu if mu is not None else [0.8, 0.7, 0.69], dtype=float)
    sigma = np.asarray(sigma if sigma is not None else [0.02] * len(models), dtype=float)
    frame = pd.DataFrame({
        "model": models, "task": "t", "metric": "Bayes@N", "estimate": mu, "mu": mu, "sigma": sigma,
        "lo": mu - 1.96 * sigma, "hi": mu + 1.96 * sigma,
        "prior": "empirical-bayes", "scope": "questions-fixed",
        "interval": "95% credible interval; covers trials (questions fixed); empirical-Bayes prior",
        "interval_kind": "credible", "avg": mu, "accuracy": mu, "pass_at_k": mu,
        "rank": np.arange(1, len(models) + 1), "rank_ci": [1] + [2] * (len(models) - 1),
        "n_questions": 30, "n_trials": 8, "n_trials_max": 8,
    })
    frame["rank"] = frame["rank"].astype("Int64")
    frame["rank_ci"] = frame["rank_ci"].astype("Int64")
    return frame[list(LEADERBOARD_COLUMNS)]


class TestTables:
    def test_csv_neutralises_formulas(self):
        frame = board(models=EVIL, mu=np.linspace(0.9, 0.4, len(EVIL)))
        text = tables.to_csv(frame)
        cells = [row[0] for row in csv.reader(io.StringIO(text))][1:]
        assert cells[1] == "'=cmd|' /C calc'!A0"
        assert cells[2] == "'+SUM(A1)" and cells[3] == "'@import" and cells[4] == "'-2+3"
        assert cells[0] == "<script>alert(1)</script>"  # not a formula: CSV is text, not HTML
        assert all(not c.startswith(("=", "+", "-", "@")) for row in csv.reader(io.StringIO(text)) for c in row
                   if not re.fullmatch(r"-?[0-9.e+-]+", c))
        assert "-0." not in text.split("\n")[1].split(",")[0]  # numbers stay numbers

    def test_markdown_escapes_pipes(self):
        text = tables.to_markdown(tables.presentation_table(board(models=["a|b", "c", "d"])))
        assert r"a\|b" in text and text.count("\n") == 4

    def test_markdown_and_latex_show_names_exactly_one_line_each(self):
        """Only CSV is formula-neutralised (a spreadsheet opens it): '@cf/meta/llama' keeps its name in Markdown and
        LaTeX; a newline in a name is written as a visible \\n so the row stays one table row."""
        names = ["@cf/meta/llama", "-mini", "a\nb", "=1+1"]
        md = tables.to_markdown(tables.presentation_table(board(models=names, mu=np.linspace(0.9, 0.4, len(names)))))
        rows = md.split("\n")
        assert len(rows) == 2 + len(names)
        cells = [r.split("|")[3].strip() for r in rows[2:]]
        assert cells == ["@cf/meta/llama", "-mini", "a\\\\nb", "=1+1"]  # Markdown's \\ renders one backslash
        tex = latex.to_latex(tables.presentation_table(board(models=names, mu=np.linspace(0.9, 0.4, len(names)))), caption="two\n\nlines")
        body = tex.split("\\midrule\n")[1].split("\\bottomrule")[0].strip().split("\n")
        assert len(body) == len(names) and "\n\n" not in tex
        assert body[0].split(" & ")[2] == "@cf/meta/llama" and body[2].split(" & ")[2] == r"a\textbackslash{}nb"
        assert "'" not in tex
        assert tables.visible_controls("x\r\ny\tz\x07") == r"x\ny\tz\x07"

    def test_latex_booktabs_and_escaping(self):
        tex = latex.to_latex(tables.presentation_table(board(models=["a_b & 50%", "c", "d"])), caption="x")
        assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
        assert r"a\_b \& 50\%" in tex
        assert "95\\% CrI low" in tex
        tex = latex.to_latex(tables.presentation_table(board(models=["<b>|`x`", "c", "d"])))
        assert r"\textless{}b\textgreater{}\textbar{}\textasciigrave{}x\textasciigrave{}" in tex  # not ¡b¿ in OT1

    def test_latex_of_hundreds_of_models_breaks_across_pages(self):
        # above LONGTABLE_ROWS rows a tabular runs off the page: a longtable with its header repeated on every page,
        # the full caption once and "(continued)" after it; at the limit, still a tabular
        names = [f"m_{i}" for i in range(latex.LONGTABLE_ROWS + 1)]
        mu = np.linspace(0.9, 0.1, len(names))
        big = pd.DataFrame({"model": names, "mu": mu, "sigma": 0.01, "lo": mu - 0.02, "hi": mu + 0.02,
                            "rank": np.arange(1, len(names) + 1), "rank_ci": np.arange(1, len(names) + 1)})
        tex = latex.to_latex(tables.presentation_table(big), caption="A & B")
        head, tex = tex.split("\n", 1)
        assert head == "% needs \\usepackage{booktabs,longtable} in the preamble"
        assert tex.startswith("\\begin{longtable}") and tex.rstrip().endswith("\\end{longtable}")
        assert tex.count("\\caption{A \\& B}") == 1 and tex.count("\\caption[]{(continued)}") == 1
        assert tex.count("\\endhead") == 1 and tex.count("m\\_40 ") == 1
        small = latex.to_latex(tables.presentation_table(big.iloc[:latex.LONGTABLE_ROWS]), caption="A & B")
        assert "\\begin{tabular}" in small and "longtable" not in small
        assert small.startswith("% needs \\usepackage{booktabs} in the preamble\n")

    def test_exports_carry_avg_and_interval_label(self):
        table = board()
        md = tables.leaderboard_markdown(table, metric_label="Bayes@N", confidence=0.95)
        assert "avg@N (observed)" in md
        assert "covers trials (questions fixed); empirical-Bayes prior" in md
        tex = latex.leaderboard_latex(table, metric_label="Bayes@N", confidence=0.95, task="t")
        assert "avg@N (observed)" in tex and "empirical-Bayes prior" in tex
        from scorio_core.report.verdict import verdict

        v = verdict(table)
        assert "observed avg@N 0.800" in v.headline
        assert any("empirical-Bayes prior" in c for c in v.caveats)

    def test_presentation_table_columns(self):
        pretty = tables.presentation_table(board(), metric_label="Pass@k", confidence=0.9)
        assert list(pretty.columns) == ["Rank", "Rank (CI ties)", "Model", "Pass@k mean", "90% CrI low", "90% CrI high",
                                        "sigma", "avg@N (observed)", "M", "N"]


class TestVerdict:
    def test_leader_and_ties(self):
        v = verdict(board(), confidence=0.95)
        assert v.headline.startswith("alpha ranks first at 95% credibility")
        assert [c.separated for c in v.comparisons] == [True, False]
        # hand: z = 0.01 / (0.02 sqrt 2) = 0.3536 -> Phi = 0.6382
        assert v.comparisons[1].rho == pytest.approx(0.6382, abs=1e-4)
        assert "Not distinguishable: beta and gamma (P = 63.8%)" in v.summary
        assert v.summary.endswith("alpha is ahead of both other models with at least 95% probability each.")
        assert any("N = " not in c for c in v.caveats)

    def test_summary_names_a_few_close_pairs_of_hundreds(self):
        # a clear leader, then 299 models 0.0005 apart with sd 0.01: every neighbour but the first pair is close;
        # hand: z = 0.0005 / (0.01 sqrt 2) = 0.0354 -> Phi = 0.5141
        mu = np.r_[0.9, 0.5 - 0.0005 * np.arange(299)]
        t = pd.DataFrame({"model": [f"m{i}" for i in range(300)], "mu": mu, "sigma": 0.01, "lo": mu - 0.02,
                          "hi": mu + 0.02, "n_trials": 8})
        v = verdict(t)
        assert v.summary.startswith("1 of 299 neighbouring pairs is separated at 95%. Not distinguishable: m1 and m2 "
                                    "(P = 51.4%); m2 and m3 (P = 51.4%);")
        assert "m6 and m7 (P = 51.4%); and 292 more pairs (each neighbouring pair is listed with its probability)." \
            in v.summary and "m7 and m8" not in v.summary
        assert len(v.lines) == 299 and v.lines[-1].startswith("m298 and m299 are not distinguishable")

    def test_one_model_has_no_caveat_about_comparing_neighbours(self):
        one = pd.DataFrame({"model": ["a"], "mu": [0.6], "sigma": [0.05], "lo": [0.5], "hi": [0.7], "n_trials": [8]})
        assert not any(c.startswith("Each probability compares neighbours") for c in verdict(one).caveats)
        two = pd.concat([one, one.assign(model="b", mu=0.4)])
        assert verdict(two).caveats[0].startswith("Each probability compares neighbours")

    def test_few_trials_caveat_says_where_means_are_not_shrunk(self):
        from scorio_core.choices import FALLBACK_INTERVAL

        fitted, fell_back = "95% credible interval; covers trials", f"95% {FALLBACK_INTERVAL}; every trial in one category"
        t = pd.DataFrame({"model": ["a", "b"], "mu": [0.98, 0.6], "sigma": [0.02, 0.05], "lo": [0.9, 0.5],
                          "hi": [1.0, 0.7], "n_trials": [4, 4], "interval": [fell_back, fitted]})
        (few,) = [c for c in verdict(t).caveats if c.startswith("With as few as N = 4")]
        assert "posterior means are pulled toward the prior mean" in few  # b's are
        assert ("where the empirical-Bayes prior cannot be fitted (N = 1, fewer than 10 questions tried twice or more, "
                "fewer than 20 pairs of trials of a question (N = 2 on fewer than 20 questions), fewer than 2 questions "
                "whose trials disagree, or every trial in one category) the means are the pooled") in few  # the rule
        (few,) = [c for c in verdict(t.assign(interval=fell_back)).caveats if c.startswith("The empirical-Bayes")]
        assert "pulled toward" not in few and few.startswith("The empirical-Bayes prior cannot be fitted here (N = 1, ")
        # the cause from N and M: 8 questions tried 4 times are not fitted for want of questions, not of trials
        (few,) = [c for c in verdict(t.assign(interval=fell_back, n_questions=8)).caveats
                  if c.startswith("The empirical-Bayes")]
        assert few.startswith("The empirical-Bayes prior cannot be fitted here (fewer than 10 questions: 8 here): ")
        assert few.endswith("; more questions would identify the prior and sharpen the ranking.")
        (few,) = [c for c in verdict(t.assign(interval=fell_back, n_trials=2, n_questions=15)).caveats
                  if c.startswith("The empirical-Bayes")]
        assert "(N = 2 on fewer than 20 questions)" in few
        (few,) = [c for c in verdict(t.assign(interval=fitted)).caveats if c.startswith("With as few")]
        # a fitted prior's intervals are not necessarily wide (uniform/Jeffreys at N = 2: narrow and off the data)
        assert few.endswith("pulled toward the prior mean; more trials would sharpen the ranking.")

    def test_matches_paper_tie_rule(self):
        from scorio_core.ranking.rank import ranks_with_ties

        rng = np.random.default_rng(3)
        mu = np.sort(rng.uniform(0.3, 0.8, 9))[::-1]
        sigma = rng.uniform(0.005, 0.03, 9)
        v = verdict(board(models=[f"m{i}" for i in range(9)], mu=mu, sigma=sigma), confidence=0.9)
        ranks = ranks_with_ties(mu, sigma, confidence=0.9, rule="paper")
        assert [c.separated for c in v.comparisons] == [bool(r2 > r1) for r1, r2 in zip(ranks[:-1], ranks[1:])]

    def test_no_single_leader_and_small_n_caveat(self):
        frame = board(mu=[0.5, 0.49, 0.48], sigma=[0.05, 0.05, 0.05])
        frame["n_trials"] = 2
        v = verdict(frame)
        assert v.headline.startswith("No single leader at 95% credibility on these 30 questions: none of the 3 models is credibly behind another")
        assert v.summary == "No neighbouring pair is separated at 95%."
        assert any("N = 2" in c for c in v.caveats)

    def test_unequal_question_sets_are_named_as_a_range_not_the_largest(self):
        # each model scored on the questions it answered (20 to 23): "on these 23 questions" would be wrong
        frame = board(mu=[0.5, 0.49, 0.48], sigma=[0.05, 0.05, 0.05])
        frame["n_questions"] = [23, 20, 22]
        v = verdict(frame)
        assert v.headline.startswith("No single leader at 95% credibility on the questions each model answered "
                                     "(20 to 23): none of the 3 models")
        frame["n_questions"] = 20
        assert verdict(frame).headline.startswith("No single leader at 95% credibility on these 20 questions")

    def test_top_group_agrees_with_pairwise_rank_one(self):
        # chain: 0.50 ~ 0.48 ~ 0.46 ~ 0.44 (paper: one group); pairwise: rank 1 = {a, b}
        frame = board(models=["a", "b", "c", "d"], mu=[0.50, 0.48, 0.46, 0.44], sigma=[0.01] * 4)
        v = verdict(frame)
        assert "2 models share the top rank (a and b)" in v.headline
        from scorio_core.ranking.rank import ranks_with_ties

        assert ranks_with_ties(frame["mu"], frame["sigma"], rule="pairwise").tolist() == [1, 1, 2, 3]

    def test_single_and_unscored(self):
        frame = board(models=["solo", "late"], mu=[0.5, np.nan])
        v = verdict(frame)
        assert v.headline.startswith("Only one model was scored: solo")
        assert any("Not scored" in c and "late" in c for c in v.caveats)
        assert not any("robabilit" in c for c in v.caveats)  # one model: no probability compares anything
        with_labels = board(models=["solo"], mu=[0.5]).assign(interval="95% credible interval (uniform prior)")
        assert "Interval: 95% credible interval (uniform prior)." in verdict(with_labels).caveats
        assert verdict(board(models=["x"], mu=[np.nan])).headline.startswith("No model could be scored")

    def test_leader_against_the_field(self):
        frame = board(models=["a", "b", "c", "d"], mu=[0.70, 0.69, 0.60, 0.40])
        v = verdict(frame)
        assert v.headline.startswith("No single leader at 95% credibility on these 30 questions: 2 models share the top rank (a and b)")
        assert "a is ahead of 2 of the 3 other models with at least 95% probability each; not of b (P = 63.8%)." in v.summary

    def test_a_one_sided_lead_says_so(self):
        # 0.70 vs 0.66, sd sqrt(0.02^2 + 0.01^2): z = 1.789, P = 96.3%: ahead at 95%, central 95% interval holds 0
        v = verdict(board(models=["a", "b"], mu=[0.70, 0.66], sigma=[0.02, 0.01]))
        # the bold headline says it is one-sided itself, in the Compare page's words (QA F15: "first at 95%" above a
        # small note, while Compare showed the difference's interval through 0)
        assert v.headline.startswith("a ranks first at 95% credibility (one-sided; the central 95% interval of their "
                                     "difference still holds 0) on these 30 questions: ahead of b with 96.3%")
        assert "one-sided" not in verdict(board(models=["a", "b"], mu=[0.70, 0.64], sigma=[0.02, 0.01])).headline
        assert v.one_sided == ("The lead is one-sided: P(a > b) = 96.3% reaches 95%, while the central 95% interval of "
                               "their difference (Compare page) still holds 0, as it leaves 2.5% on each side.")
        assert v.one_sided in v.caveats
        assert verdict(board(models=["a", "b"], mu=[0.70, 0.64], sigma=[0.02, 0.01])).one_sided == ""  # P = 99.6%

    def test_format_probability(self):
        assert format_probability(0.95) == "95.0%" and format_probability(0.0001) == "< 0.1%"


def sources():
    return (SourceInfo("dump.csv", "csv", "a" * 64, 120, "attempts", (("model", "model"),)),)


class TestManifest:
    def test_roundtrip(self):
        schema = get_schema("Format Aware")
        doc = build_manifest(dataset_key="upload:dump", dataset_label="Uploaded: dump", sources=sources(),
                             choices={"duplicates": "keep-first", "intersect_questions": False}, task="t", schema=schema,
                             thresholds={"tau_invalid_C": 0.5, "len_p33": float("nan")}, frozen=True,
                             settings={"metric": "pass@k", "k": 2}, seeds={"rank_distribution": {"seed": 0}},
                             created="2026-01-01T00:00:00Z")
        text = manifest_to_json(doc)
        assert json.loads(text)["thresholds"]["values"]["len_p33"] is None  # NaN -> null
        m = read_manifest(text.encode(), source="m.json")
        assert m.schema == schema and m.task == "t" and m.frozen
        assert m.settings["metric"] == "pass@k" and m.settings["k"] == 2 and m.settings["confidence"] == 0.95
        assert np.isnan(m.thresholds["len_p33"]) and m.thresholds["tau_invalid_C"] == 0.5
        assert m.choices == {"duplicates": "keep-first"}
        assert {"python", "scorio_core", "numpy", "scipy", "pandas"} <= set(m.versions)
        assert source_mismatches(m, sources()) == []

    def test_mismatch_names_the_files(self):
        m = read_manifest(manifest_to_json(build_manifest(dataset_key="k", dataset_label="k", sources=sources(), task="t")))
        other = (SourceInfo("other.csv", "csv", "b" * 64, 3),)
        problems = source_mismatches(m, other)
        assert any("dump.csv" in p and "not in the loaded data" in p for p in problems)
        assert any("other.csv" in p for p in problems)

    @pytest.mark.parametrize("doc, message", [
        ("not json", "not valid JSON"),
        ('{"format": "scorio-rubric", "version": 1}', "not an analysis manifest"),
        ('{"format": "scorio-analysis", "version": 9}', "unsupported manifest version"),
        ('{"format": "scorio-analysis", "version": 1, "bogus": 1}', "unknown key 'bogus'"),
        ('{"format": "scorio-analysis", "version": 1, "data": {"key": "k", "sources": []}, "task": "t",'
         ' "settings": {"k": "two"}}', "'k' has the wrong type"),
        ('{"format": "scorio-analysis", "version": 1, "data": {"key": "k", "sources": []}, "task": "t",'
         ' "rubric": {"format": "scorio-rubric", "version": 1, "categories": [{"label": "x", "condition": "a >", "weight": 1}]}}',
         "position"),
    ])
    def test_bad_documents(self, doc, message):
        with pytest.raises(InputError, match=re.escape(message)):
            read_manifest(doc, source="m.json")


class TestHtml:
    def report(self, models, figures=()):
        frame = board(models=models, mu=np.linspace(0.9, 0.5, len(models)))
        doc = build_manifest(dataset_key="k", dataset_label="<b>data</b>", sources=sources(), task="t")
        return html_report(title="Leaderboard <t>", subtitle="<i>sub</i>", table=frame, verdict=verdict(frame),
                           settings={"Dataset": "<img src=x onerror=alert(1)>"}, figures=figures, manifest=doc,
                           notes=["<script>note</script>"], generated="gen")

    def test_user_text_is_escaped(self):
        text = self.report(EVIL)
        assert "<script>alert(1)</script>" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "<img src=x" not in text and "<script>note" not in text and "<b>data</b>" not in text
        assert "=cmd|&#x27; /C calc&#x27;!A0" in text
        assert "<script" not in text  # no figures: no script at all

    def test_self_contained_with_plotly_once(self):
        fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], text=["&lt;script&gt;"]))
        text = self.report(["a", "b"], figures=[("One", "cap", fig), ("Two", "cap", fig)])
        assert text.count("plotly.js v") == 1  # plotly.js embedded once
        assert not re.search(r"<script[^>]*\ssrc=", text) and not re.search(r"<link[^>]*href=", text)  # nothing fetched
        assert text.count("Plotly.newPlot") == 2
        assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")

    def test_interval_bars_and_manifest(self):
        text = self.report(["a", "b", "c"])
        assert text.count("class='track'") == 3
        assert "scorio-analysis" in text  # manifest embedded (escaped JSON)
        assert "Every neighbouring pair" in text

@pytest.mark.parametrize("scope", ["questions-fixed", "questions-sampled"])
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_interval_name_recognises_every_fallback_label(scope, confidence):
    # interval_name reads the kind from the rows' labels: every label a fallback can write must read as exact binomial
    from scorio_core.report.tables import interval_name
    from scorio_core.uncertainty.posterior import FALLBACK_LABELS, fallback_interval_label, interval_label

    pct = f"{confidence:.0%}"
    for method in FALLBACK_LABELS:
        exact = fallback_interval_label(method, scope, confidence)
        credible = interval_label("empirical-bayes", scope, confidence)
        assert interval_name(pd.DataFrame({"mu": [0.5], "interval": [exact]}), confidence) == f"{pct} exact binomial interval"
        mixed = pd.DataFrame({"mu": [0.5, 0.4, np.nan], "interval": [credible, exact, None]})
        assert interval_name(mixed, confidence, plural=True) == (
            f"{pct} credible intervals (exact binomial where the prior is not identified)")
    assert interval_name(pd.DataFrame({"mu": [0.5], "interval": [interval_label("uniform", scope, confidence)]}),
                         confidence) == f"{pct} credible interval"


def test_the_verdict_calls_nothing_posterior_where_a_prior_is_not_identified():
    # N = 1: each model's sigma is the pooled binomial bound; the same numbers, worded as normal approximations
    from scorio_core.uncertainty.posterior import fallback_interval_label, interval_label

    exact = fallback_interval_label("fallback-n1", "questions-fixed")
    t = pd.DataFrame({"model": ["A", "B", "C"], "mu": [0.80, 0.70, 0.69], "sigma": [0.02, 0.02, 0.02],
                      "lo": [0.76, 0.66, 0.65], "hi": [0.84, 0.74, 0.73], "n_trials": [1, 1, 1],
                      "interval": [exact] * 3})
    v = verdict(t)
    credible = verdict(t.assign(interval=interval_label("empirical-bayes", "questions-fixed")))
    assert [c.rho for c in v.comparisons] == [c.rho for c in credible.comparisons]  # P(A > B) = Phi(0.1 / 0.0283)
    assert v.lines[0] == "A is ahead of B with > 99.9% probability (normal approximation)."
    assert credible.lines[0] == "A is ahead of B with > 99.9% posterior probability."
    assert v.headline.startswith("A ranks first at the 95% level ") and "posterior" not in v.headline
    assert credible.headline.startswith("A ranks first at 95% credibility ")
    assert any("there they are not posterior probabilities" in c for c in v.caveats)
    close = verdict(t.assign(mu=[0.70, 0.70, 0.69]))  # no pair separated: the top group
    assert "none of the 3 models is behind another at 95%" in close.headline and "credib" not in close.headline
    mixed = verdict(t.assign(interval=[exact, interval_label("empirical-bayes", "questions-fixed"), exact]))
    assert "normal approximation" in mixed.lines[0]  # one model without a posterior: the wording is the approximation's


def test_exports_show_unequal_trials_as_a_range(tmp_path):
    """A model whose questions had 1 to 6 trials reads "1-6" in Markdown/LaTeX/HTML, not "1" (the smallest alone)."""
    from scorio_core import io as sio
    from scorio_core.leaderboard.table import leaderboard, outcomes_for

    rows = ["model,question_id,trial,is_correct"]
    for m, trials in (("a", (1, 6, 3)), ("b", (4, 4, 4))):
        rows += [f"{m},q{q},{t},{(q + t) % 2}" for q, n in enumerate(trials) for t in range(n)]
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(rows) + "\n")
    board = leaderboard(outcomes_for(sio.load([str(path)])), prior="uniform")
    shown = tables.presentation_table(board).set_index("Model")["N"]
    assert shown.to_dict() == {"a": "1-6", "b": "4"}
    assert "| 1-6 |" in re.sub(r" +", " ", tables.to_markdown(tables.presentation_table(board)))
