"""CLI parity: ``export`` (csv|md|latex|html|manifest, --manifest restore) and ``compare``."""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

from scorio_core.cli import main
from tests.paths import ARC, MATHARENA, SIM


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def evil_csv(tmp_path):
    rows = ["model,question,seed,correct"]
    names = ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "plain"]
    for i, m in enumerate(names):
        for q in range(6):
            for t in range(4):
                rows.append(f"\"{m}\",q{q},{t},{int((q + t + i) % 3 != 0)}")
    path = tmp_path / "evil.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


class TestExport:
    def test_csv_matches_leaderboard_and_is_neutralised(self, capsys, evil_csv):
        code, out, _ = run(capsys, "export", evil_csv, "--format", "csv")
        assert code == 0
        rows = list(csv.DictReader(io.StringIO(out)))
        assert {r["model"] for r in rows} == {"<script>alert(1)</script>", "'=cmd|' /C calc'!A0", "plain"}
        assert {(r["dataset"], r["rubric"]) for r in rows} == {("evil.csv", "Binary correctness")}  # named in the file
        code, lb, _ = run(capsys, "leaderboard", evil_csv, "--output", "json")
        mu = {r["model"]: r["mu"] for r in json.loads(lb)["rows"]}
        assert float(next(r for r in rows if r["model"] == "plain")["mu"]) == pytest.approx(mu["plain"])

    def test_markdown_and_latex(self, capsys):
        code, md, _ = run(capsys, "export", MATHARENA, "--format", "md", "--confidence", "0.9")
        assert code == 0 and "| Model" in md and "o3-mini (high)" in md
        assert "90% interval low" in md  # (credible, or exact for gemini-2.0-flash: 1 question whose trials disagree)
        code, tex, _ = run(capsys, "export", MATHARENA, "--format", "latex")
        assert code == 0 and "\\toprule" in tex and "\\bottomrule" in tex and "aime\\_2025\\_I" in tex

    def test_html_escapes_and_embeds_manifest(self, capsys, evil_csv, tmp_path):
        out_file = tmp_path / "report.html"
        code, _, err = run(capsys, "export", evil_csv, "--format", "html", "--out", out_file)
        assert code == 0 and "wrote" in err
        text = out_file.read_text()
        assert "<script>alert(1)</script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "scorio-analysis" in text and "class='verdict'" in text

    def test_manifest_restores_the_analysis(self, capsys, tmp_path):
        code, doc, _ = run(capsys, "export", SIM, "--format", "manifest", "--schema", "Format Aware", "--metric", "avg",
                           "--confidence", "0.9", "--tie-rule", "upper-bound")
        assert code == 0
        manifest = json.loads(doc)
        assert manifest["rubric"]["name"] == "Format Aware" and manifest["settings"]["metric"] == "avg"
        assert manifest["data"]["sources"][0]["sha256"] and manifest["thresholds"]["values"]
        path = tmp_path / "m.json"
        path.write_text(doc)
        code, restored, _ = run(capsys, "export", SIM, "--format", "csv", "--manifest", path)
        code2, direct, _ = run(capsys, "export", SIM, "--format", "csv", "--schema", "Format Aware", "--metric", "avg",
                               "--confidence", "0.9", "--tie-rule", "upper-bound")
        assert code == code2 == 0
        pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(restored)), pd.read_csv(io.StringIO(direct)))

    def test_manifest_with_other_data_is_refused(self, capsys, tmp_path):
        _, doc, _ = run(capsys, "export", MATHARENA, "--format", "manifest")
        path = tmp_path / "m.json"
        path.write_text(doc)
        code, out, err = run(capsys, "export", ARC, "--format", "csv", "--manifest", path)
        assert code == 2 and out == ""
        assert err.startswith("error: the data differs from the manifest") and "matharena_aime_2025_I_counts.csv" in err
        assert len(err.strip().splitlines()) == 1

    def test_errors_are_one_line(self, capsys, tmp_path):
        bad = tmp_path / "bad.json"
        bad.write_text("{")
        code, _, err = run(capsys, "export", MATHARENA, "--format", "csv", "--manifest", bad)
        assert code == 2 and err.startswith("error: bad.json") and "not valid JSON" in err
        code, _, err = run(capsys, "export", MATHARENA, "--format", "pdf")
        assert code == 2 and err.startswith("error:")
        code, _, err = run(capsys, "export", MATHARENA, "--format", "csv", "--schema", "Format Aware")
        assert code == 2 and "counts only" in err


class TestCompare:
    def test_json_is_consistent_with_leaderboard(self, capsys):
        code, out, _ = run(capsys, "compare", MATHARENA, "--models", "o3-mini (high)", "o1 (medium)", "--output", "json")
        assert code == 0
        report = json.loads(out)
        a, b, d = report["a"], report["b"], report["difference"]
        assert d["mean"] == pytest.approx(a["mu"] - b["mu"])
        assert d["sd"] == pytest.approx((a["sigma"] ** 2 + b["sigma"] ** 2) ** 0.5)
        assert 0 <= d["rho"] <= 1 and d["lo"] < d["mean"] < d["hi"]
        assert sum(report["outcomes"].values()) == 15 == len(report["questions"])
        assert report["trials_needed"]["n_observed"] == [4, 4] and "assumption" in report["trials_needed"]
        t = report["trials_needed"]  # practical: n_power reached within 100 x the observed N
        assert t["practical"] is (t["n_power"] is not None and t["n_power"] <= 100 * 4)
        q14 = next(q for q in report["questions"] if q["question"] == "14")
        assert q14["outcome"] == "only B solves"  # data: o3-mini (high) 0/4, o1 (medium) 1/4 on problem 14

    def test_rubric_and_curve(self, capsys):
        code, out, _ = run(capsys, "compare", SIM, "--models", "mimic-20", "mimic-19", "--schema", "Format Aware",
                           "--curve", "--output", "json")
        assert code == 0
        report = json.loads(out)
        assert report["settings"]["schema"] == "Format Aware" and report["a"]["mu"] > 1.0  # weights up to 3
        curve = report["trials_needed"]["curve"]
        assert len(curve["n"]) == len(curve["z"]) and curve["n"][0] == 1

    def test_table_output_and_errors(self, capsys):
        code, out, _ = run(capsys, "compare", MATHARENA, "--models", "o3-mini (high)", "gpt-4o")
        assert code == 0 and "P(o3-mini (high) > gpt-4o)" in out
        code, _, err = run(capsys, "compare", MATHARENA, "--models", "o3-mini (high)", "nobody")
        assert code == 2 and err.startswith("error:") and "nobody" in err
        code, _, err = run(capsys, "compare", MATHARENA, "--models", "gpt-4o", "gpt-4o")
        assert code == 2 and "two different models" in err


def test_compare_says_when_the_two_models_answered_different_questions(capsys, tmp_path):
    # a answered q0-q3, b q2-q5 (2 shared); c answered q0-q3 like a: no note for the pair (a, c)
    rows = [(m, f"q{q}", 2, 1) for m, qs in (("a", range(4)), ("b", range(2, 6)), ("c", range(4))) for q in qs]
    path = tmp_path / "sets.csv"
    pd.DataFrame(rows, columns=["model", "question_id", "n_trials", "n_correct"]).to_csv(path, index=False)
    code, out, _ = run(capsys, "compare", path, "--models", "a", "b", "--output", "json")
    assert code == 0
    (said,) = json.loads(out)["notes"]
    note = said["message"]
    assert said["code"] == "question_set" and note.startswith("a answered 4 questions and b 4; 2 were answered by both. Each model's Bayes@N covers its "
                           "own questions")
    assert "--intersect-questions" in note
    code, out, _ = run(capsys, "compare", path, "--models", "a", "c", "--output", "json")
    assert json.loads(out)["notes"] == []
    code, out, _ = run(capsys, "compare", path, "--models", "a", "b")
    assert "  note: a answered 4 questions and b 4; 2 were answered by both." in out


def test_exports_of_n1_data_call_the_intervals_exact_binomial_not_credible(capsys, tmp_path):
    # N = 1: the empirical-Bayes prior is not identified and every interval is exact binomial (Clopper-Pearson)
    rows = [(m, f"q{q}", 1, int(q < s)) for m, s in (("a", 5), ("b", 3)) for q in range(6)]
    path = tmp_path / "n1.csv"
    pd.DataFrame(rows, columns=["model", "question_id", "n_trials", "n_correct"]).to_csv(path, index=False)
    code, latex, _ = run(capsys, "export", path, "--format", "latex")
    assert code == 0 and "Bayes@N with 95\\% exact binomial intervals (" in latex
    code, html, _ = run(capsys, "export", path, "--format", "html")
    assert "<th>95% exact binomial interval</th>" in html and "credible interval</th>" not in html
    # the ranks, settings and caveats say confidence, not credibility: the sds are the pooled binomial ones
    assert "rule &#x27;pairwise&#x27;: rank = 1 + the number of models better than this one at the confidence level" in html
    assert "<dt>Confidence level</dt><dd>95%</dd>" in html and "Credibility level" not in html
    assert "Rank: competition rank of the mean." in html and "credibly better" not in html
    # the fallback's mean is the pooled rate (5/6, 3/6), not shrunk: the caveat does not say "pulled toward the prior"
    assert "pulled toward" not in html and ("The empirical-Bayes prior cannot be fitted here (N = 1 trial per "
                                            "question): the means are the pooled observed rates") in html
    assert "<td>0.8333</td>" in html and "<td>0.5000</td>" in html
    code, out, _ = run(capsys, "export", path, "--format", "html", "--prior", "uniform")
    assert "<th>95% credible interval</th>" in out  # a uniform prior needs no fit: credible intervals
    assert "models credibly better than this one" in out and "<dt>Credibility level</dt>" in out
    assert "posterior means are pulled toward the prior mean" in out  # uniform at N = 1: (1 + k) / 3 per question


def test_compare_and_tasks_keep_intervals_within_the_scores_the_rubric_allows(capsys, tmp_path):
    # one question, N = 1: a solved it, b did not. Normal intervals around the N = 1 posteriors once read
    # "difference +0.50 in [-0.70, +1.70]" and "combined 0.75 in [-0.10, 1.60]" for scores in [0, 1]
    path = tmp_path / "one.csv"
    pd.DataFrame([("a", "q0", 1, 1), ("b", "q0", 1, 0)],
                 columns=["model", "question_id", "n_trials", "n_correct"]).to_csv(path, index=False)
    code, out, _ = run(capsys, "compare", path, "--models", "a", "b", "--output", "json")
    d = json.loads(out)["difference"]
    assert code == 0 and d["mean"] == pytest.approx(0.5) and d["hi"] == 1.0 and d["lo"] == pytest.approx(-0.7002, abs=1e-4)
    code, out, _ = run(capsys, "tasks", path, "--output", "json")
    combined = {row["model"]: row for row in json.loads(out)["combined"]}
    # one task: the task's own (Clopper-Pearson) interval, hand: 1 of 1 -> [0.025, 1], 0 of 1 -> [0, 0.975]
    assert (combined["a"]["lo"], combined["a"]["hi"]) == pytest.approx((0.025, 1.0), abs=1e-12)
    assert (combined["b"]["lo"], combined["b"]["hi"]) == pytest.approx((0.0, 0.975), abs=1e-12)


def test_verdict_uses_the_rankings_paired_probabilities_and_question_set(capsys):
    # questions sampled, common questions: the rank ties pair each two models over the 415 questions every model
    # answered; the verdict's sentences must use the same probabilities (they were unpaired: "o1_high and o1_med not
    # distinguishable (93.8%)" beside ranks 3 and 4 and a heatmap reading > .99) and the same 415 questions (the lead
    # counted the pair's own 419)
    from scorio_core import io as sio
    from scorio_core.leaderboard.table import leaderboard, outcomes_for, pairwise_for
    from scorio_core.report.verdict import format_probability

    code, out, err = run(capsys, "export", ARC, "--question-set", "common", "--scope", "questions-sampled",
                         "--prior", "jeffreys", "--format", "md")
    assert code == 0, err
    assert "of the 415 questions both answered" in out and "419 questions both" not in out
    outcomes = outcomes_for(sio.load([ARC]))
    kw = dict(prior="jeffreys", question_set="common")
    table = leaderboard(outcomes, scope="questions-sampled", **kw)
    fixed = leaderboard(outcomes, scope="questions-fixed", **kw)
    rho, paired = pairwise_for(outcomes, table, fixed, scope="questions-sampled", question_set="common")
    assert paired
    code, html_doc, err = run(capsys, "export", ARC, "--question-set", "common", "--scope", "questions-sampled",
                              "--prior", "jeffreys", "--format", "html")
    models = table["model"].tolist()
    i, j = models.index("open_ai_o1_high_20241217"), models.index("open_ai_o1_med_20241217")
    assert rho[i, j] > 0.999
    assert ("open_ai_o1_high_20241217 is ahead of open_ai_o1_med_20241217 with "
            f"{format_probability(rho[i, j])} posterior probability") in html_doc.replace("&gt;", ">")


def test_compare_of_models_without_a_shared_question_projects_no_trials(disjoint_csv, capsys):
    # helper QA: 0 shared questions, the note said "too few to be compared" while trials_needed said "a fresh run with 3
    # trials per question separates them"; the JSON also names P(A > B) as p_a_gt_b (rho reads as a correlation)
    path = disjoint_csv(3)
    code, out, err = run(capsys, "compare", path, "--models", "a", "c", "--output", "json")
    assert code == 0, err
    payload = json.loads(out)
    trials = payload["trials_needed"]
    assert trials["applicable"] is False and trials["n_needed"] is None and trials["n_power"] is None
    assert trials["meaning"].startswith("not applicable: the two models share no question")
    assert payload["difference"]["p_a_gt_b"] == payload["difference"]["rho"]
    code, out, err = run(capsys, "compare", path, "--models", "a", "b", "--output", "json")
    assert json.loads(out)["trials_needed"]["applicable"] is True
