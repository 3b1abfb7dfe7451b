"""Compare at N = 1: where a model's empirical-Bayes prior is not identified its sd is the pooled binomial bound, so the
difference's interval and P(A > B) are normal approximations and never called credible or posterior."""

from __future__ import annotations

import json
import math

import pytest

from scorio_core import io
from scorio_core.choices import is_fallback_interval
from scorio_core.cli import main
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from scorio_core.ranking.compare import ASSUMPTION
from scorio_core.ranking.paired import (FIXED_APPROXIMATE, SAMPLED_ASSUMPTION, not_identified_models,
                                        not_identified_note, scoped_difference)


def _dump(tmp_path, repeated: bool, questions: int = 6):
    """a: 6 questions once each (3 right); b: the same 6 questions 3 times each (mixed) when ``repeated``, else once.

    ``questions`` (b's, when repeated): b's prior is identified from MIN_REPEATED_QUESTIONS = 10 questions tried twice.
    """
    rows = ["model,question,trial,correct"]
    rows += [f"a,q{q},0,{int(q < 3)}" for q in range(6)]
    trials = 3 if repeated else 1
    rows += [f"b,q{q},{t},{int((q + t) % 3 == 0)}" for q in range(questions if repeated else 6) for t in range(trials)]
    path = tmp_path / ("mixed.csv" if repeated else "n1.csv")
    path.write_text("\n".join(rows) + "\n")
    return path


def test_the_values_stay_and_the_kind_and_assumption_say_what_they_are():
    plain, text = scoped_difference(0.6, 0.2, 0.5, 0.1, [0.1, 0.0], scope="questions-fixed")
    approx, said = scoped_difference(0.6, 0.2, 0.5, 0.1, [0.1, 0.0], scope="questions-fixed", not_identified=("a",))
    assert (plain.kind, text) == ("credible", ASSUMPTION)
    assert approx._replace(kind="credible") == plain and approx.kind == "approximate"
    assert said == not_identified_note(["a"]) + "; " + FIXED_APPROXIMATE
    assert said.startswith("the empirical-Bayes prior is not identified for a (N = 1") and "its sd" in said
    assert "Dirichlet" not in said  # ASSUMPTION's "independent posterior (Dirichlet per question)" is not claimed
    sampled, s_text = scoped_difference(0.6, 0.2, 0.5, 0.1, [0.1, 0.0, 0.2], scope="questions-sampled",
                                        not_identified=("a", "b"))
    assert s_text == not_identified_note(["a", "b"]) + "; " + SAMPLED_ASSUMPTION.format(m=3)
    assert "for a and b" in s_text and "their sd" in s_text and sampled.kind == "approximate"


def test_the_models_whose_prior_is_not_identified_are_read_from_the_leaderboard(tmp_path):
    table = leaderboard(outcomes_for(io.load([str(_dump(tmp_path, repeated=True, questions=12))])))
    labels = dict(zip(table["model"], table["interval"]))
    assert is_fallback_interval(labels["a"]) and not is_fallback_interval(labels["b"])
    assert not_identified_models(table, ("b", "a")) == ("a",)
    assert not_identified_models(table.drop(columns="interval"), ("a", "b")) == ()


def test_a_model_always_right_is_not_identified_either(tmp_path):
    # every trial in one category (fallback-degenerate): its sd is the pooled binomial sd around the pooled Jeffreys
    # mean, sqrt(p(1-p)/n) with p = (24 + 1/2) / (24 + 1) = 0.98 and n = 24 answers (hand calculation)
    path = _dump(tmp_path, repeated=True, questions=12)
    path.write_text(path.read_text() + "".join(f"c,q{q},{t},1\n" for q in range(6) for t in range(4)))
    table = leaderboard(outcomes_for(io.load([str(path)]))).set_index("model")
    assert not_identified_models(table.reset_index(), ("c", "b")) == ("c",)
    assert table.loc["c", "sigma"] == pytest.approx(math.sqrt(0.98 * 0.02 / 24), rel=1e-9)
    assert "or every trial in one category" in not_identified_note(["c"])


def test_cli_compare_at_n1_says_normal_approximation(tmp_path, capsys):
    path = _dump(tmp_path, repeated=False)
    assert main(["compare", str(path), "--models", "a", "b", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["difference"]
    assert d["kind"] == "approximate" and d["assumption"].startswith(
        not_identified_note(["a", "b"], "N = 1: one trial per question"))  # the cause these rows name, not the rule
    # a: 3/6, b: 2/6 pooled, binomial sds sqrt(p(1-p)/6); each drawn as the Beta with that mean and sd: a Beta(2.5,
    # 2.5) (k = 0.25 / (0.25 / 6) - 1 = 5), b Beta(5/3, 10/3); a (ahead) counts its spread below, b its spread above,
    # each the distance to the 95% central interval's end over 1.96 (hand calculation)
    from scipy.stats import beta

    assert d["mean"] == pytest.approx(0.5 - 2 / 6, abs=1e-12)
    down_a = (0.5 - beta.ppf(0.025, 2.5, 2.5)) / 1.959963984540054
    up_b = (beta.ppf(0.975, 5 / 3, 10 / 3) - 1 / 3) / 1.959963984540054
    assert d["sd"] == pytest.approx(math.hypot(down_a, up_b), rel=1e-9)
    assert d["sd"] > math.hypot(math.sqrt(0.25 / 6), math.sqrt((2 / 9) / 6))  # b's skew widens its upper side
    assert main(["compare", str(path), "--models", "a", "b"]) == 0
    out = capsys.readouterr().out
    assert "95% interval (normal approximation)" in out and "credible interval [" not in out
    assert main(["compare", str(_dump(tmp_path, repeated=True)), "--models", "b", "a", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["difference"]["kind"] == "approximate"  # a is N = 1 there



def test_cli_text_table_says_which_models_have_which_interval(tmp_path, capsys):
    """a (N = 1) has an exact binomial interval, b (12 questions x 3 trials) a credible one: the text table's footer
    names the models of each kind (it printed two unattributed lines)."""
    assert main(["leaderboard", str(_dump(tmp_path, repeated=True, questions=12))]) == 0
    lines = sorted(line for line in capsys.readouterr().out.splitlines() if line.startswith("lo, hi"))
    assert len(lines) == 2 and lines[1].startswith("lo, hi of b: 95% credible interval"), lines
    assert lines[0].startswith("lo, hi of a: 95% exact binomial (Clopper-Pearson) interval"), lines
    assert main(["leaderboard", str(_dump(tmp_path, repeated=False))]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("lo, hi")]
    assert len(lines) == 1 and lines[0].startswith("lo, hi: 95% exact binomial"), lines


def test_cli_text_table_names_the_task_when_rows_span_tasks(tmp_path, capsys):
    rows = ["model,task,question,trial,correct"] + [f"a,once,q{q},0,{int(q < 3)}" for q in range(6)]
    rows += [f"a,often,q{q},{t},{int((q + t) % 3 == 0)}" for q in range(12) for t in range(3)]
    path = tmp_path / "two.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["leaderboard", str(path)]) == 0
    lines = sorted(line for line in capsys.readouterr().out.splitlines() if line.startswith("lo, hi"))
    assert lines[0].startswith("lo, hi of a (often): 95% credible interval"), lines
    assert lines[1].startswith("lo, hi of a (once): 95% exact binomial"), lines
