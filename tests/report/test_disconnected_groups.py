"""Models in groups that share no question: the ``disconnected_groups`` notice, the verdict, CLI JSON and exports.

QA (250 models, one task, N = 3): llm-000..124 answered only A-q00..49 and llm-125..249 only B-q00..49; the
Leaderboard, its exports and the CLI said "llm-075 ranks first at 95% credibility ... ahead of llm-104" across the
two groups, with only a generic "answered different questions" warning.
"""

from __future__ import annotations

import json
from types import SimpleNamespace as NS

import numpy as np
import pandas as pd
import pytest

from scorio_core.cli import main
from scorio_core.leaderboard.linking import (common_question_count, cross_group_note, disconnected_groups_notice,
                                             question_groups)
from scorio_core.report.verdict import verdict

GROUPS_SENTENCE = "The models fall into 2 groups that share no question, directly or through other models"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def outcomes(answered, models=None):
    """A stand-in for TaskOutcomes: ``models`` and ``rubric.n_trials`` (3 trials where answered)."""
    n = 3 * np.asarray(answered, dtype=np.int64)
    return NS(models=list(models or [f"m{i}" for i in range(n.shape[0])]), rubric=NS(n_trials=n), task="t")


@pytest.fixture
def chain_csv(tmp_path):
    """a answered q0-q3, b q2-q5, c q4-q7: a and c share no question but are linked through b."""
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"{m},q{q},{t},{int((q + t + i) % 3 != 0)}" for i, (m, first) in enumerate((("a", 0), ("b", 2), ("c", 4)))
             for q in range(first, first + 4) for t in range(3)]
    path = tmp_path / "chain.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture
def split_csv(tmp_path):
    """``split_csv(rates)``: models s1, s2 on questions e0-e9 and w1, w2 on h0-h9 (no shared question), each with
    its success rate in ``rates``; returns the path."""
    def write(rates):
        rows = ["model,question_id,trial,is_correct"]
        for m, rate in rates.items():
            prefix = "e" if m.startswith("s") else "h"
            rows += [f"{m},{prefix}{q},{t},{int(((q * 3 + t) % 10) < rate * 10)}" for q in range(10) for t in range(3)]
        path = tmp_path / "split.csv"
        path.write_text("\n".join(rows) + "\n")
        return path

    return write


class TestGroups:
    def test_disjoint_models_fall_into_two_groups_largest_first(self):
        answered = [[1, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1], [0, 0, 1, 0, 0]]
        assert question_groups(outcomes(answered)) == [["m2", "m3", "m4"], ["m0", "m1"]]

    def test_models_linked_through_a_third_are_one_group(self):
        answered = [[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]  # m0 and m2 share nothing; m1 links them
        assert question_groups(outcomes(answered)) == [["m0", "m1", "m2"]]
        assert disconnected_groups_notice(outcomes(answered)) is None

    def test_only_scored_models_count_and_in_the_table_order(self):
        answered = [[1, 0], [0, 1], [0, 0]]
        table = pd.DataFrame({"model": ["m1", "m0", "m2"], "mu": [0.7, 0.5, np.nan]})
        assert question_groups(outcomes(answered), table) == [["m1"], ["m0"]]
        assert question_groups(outcomes(answered), table.iloc[[0, 2]]) == [["m1"]]  # one scored: nothing to split

    def test_the_notice_names_four_models_per_group_and_counts_the_rest(self):
        answered = np.zeros((12, 4), dtype=int)
        answered[:7, :2] = 1
        answered[7:, 2:] = 1
        notice = disconnected_groups_notice(outcomes(answered))
        assert notice["code"] == "disconnected_groups"
        assert notice["groups"] == [[f"m{i}" for i in range(7)], [f"m{i}" for i in range(7, 12)]]
        text = notice["message"]
        assert text.startswith(GROUPS_SENTENCE)
        assert "group 1 (7 models: m0, m1, m2, m3 and 3 more)" in text
        assert "group 2 (5 models: m7, m8, m9, m10 and 1 more)" in text
        assert "averages different questions" in text and "compares the question sets as much as the models" in text
        assert "common questions" in text

    def test_question_sets_that_put_every_model_on_the_same_questions_give_one_group(self):
        answered = [[1, 1, 0], [1, 0, 0], [0, 0, 1]]
        assert question_groups(outcomes(answered), question_set="missing-incorrect") == [["m0", "m1", "m2"]]
        assert question_groups(outcomes(answered), question_set="common") == []  # none common: unavailable
        assert question_groups(outcomes([[1, 1], [1, 0]]), question_set="common") == [["m0", "m1"]]
        with pytest.raises(ValueError, match="question_set"):
            question_groups(outcomes(answered), question_set="all")

    def test_a_cross_group_pair_is_said_and_a_linked_pair_is_not(self):
        groups = [["a", "b"], ["c", "d"]]
        assert cross_group_note(groups, "a", "b") is None
        note = cross_group_note(groups, "a", "c", {"a": "A-short"})
        assert note.startswith("A-short and c are in different groups of models that share no question")

    def test_common_question_count(self):
        assert common_question_count(outcomes([[1, 0], [0, 1]])) == 0
        assert common_question_count(outcomes([[1, 1], [0, 1], [0, 0]])) == 1  # a model without answers is skipped


def _table(models, mu, n_questions=40):
    mu = np.asarray(mu, dtype=float)
    return pd.DataFrame({"model": models, "mu": mu, "sigma": 0.02, "lo": mu - 0.04, "hi": mu + 0.04, "n_trials": 8,
                         "n_questions": n_questions})


class TestVerdict:
    table = _table(["A", "C", "B", "D"], [0.80, 0.70, 0.60, 0.50])

    def test_top_two_in_different_groups_is_not_a_lead(self):
        v = verdict(self.table, groups=[["A", "B"], ["C", "D"]], question_sets_differ=True)
        assert "ranks first" not in v.headline and "ahead of C" not in v.headline
        assert v.headline.startswith("A has the highest score (Bayes@N 0.800")
        assert "its order against C is not supported: the models fall into 2 groups that share no question" in v.headline
        assert "Within group 1 it is ahead of B with > 99.9% posterior probability." in v.headline
        assert [(c.ahead, c.behind) for c in v.comparisons] == [("A", "B"), ("C", "D")]  # no pair across groups
        assert v.brief == "2 of 2 neighbouring pairs within a group are separated at 95%; pairs across the 2 groups, " \
                          "which share no question, are not compared."
        assert not v.one_sided

    def test_top_two_in_one_group_rank_first_in_that_group(self):
        v = verdict(self.table, groups=[["A", "C"], ["B", "D"]])
        assert v.headline.startswith("A ranks first in its group (1 of 2) at 95% credibility")
        assert "The models fall into 2 groups that share no question: no order across groups is supported" in v.headline

    def test_a_leader_alone_in_its_group(self):
        v = verdict(self.table.iloc[:2], groups=[["A"], ["C"]])
        assert "It is the only scored model of group 1." in v.headline and v.comparisons == ()
        assert v.summary.startswith("No two scored models share a group")

    def test_one_group_or_none_changes_nothing(self):
        plain = verdict(self.table)
        assert verdict(self.table, groups=[["A", "B", "C", "D"]]) == plain
        assert verdict(self.table, groups=[["A", "B", "C", "D"], ["X"]]) == plain  # X is not in the table
        assert plain.headline.startswith("A ranks first at 95% credibility")


class TestCli:
    def test_leaderboard_json_carries_the_notice(self, disjoint_csv, capsys):
        code, out, err = run(capsys, "leaderboard", disjoint_csv(3), "--output", "json")
        assert code == 0, err
        notes = [n for n in json.loads(out)["notes"] if n["code"] == "disconnected_groups"]
        assert len(notes) == 1
        assert sorted(map(sorted, notes[0]["groups"])) == [["a", "b"], ["c", "d"]]
        assert GROUPS_SENTENCE in notes[0]["message"] and notes[0]["task"]

    def test_table_output_prints_the_note(self, disjoint_csv, capsys):
        code, out, err = run(capsys, "leaderboard", disjoint_csv(3), "--output", "table")
        assert code == 0, err
        assert GROUPS_SENTENCE in out

    @pytest.mark.parametrize("question_set", ["missing-incorrect"])
    def test_no_notice_once_every_model_is_on_the_same_questions(self, disjoint_csv, capsys, question_set):
        code, out, err = run(capsys, "leaderboard", disjoint_csv(3), "--question-set", question_set, "--output", "json")
        assert code == 0, err
        assert "disconnected_groups" not in {n["code"] for n in json.loads(out)["notes"]}

    def test_no_notice_for_models_linked_through_a_third(self, chain_csv, capsys):
        code, out, err = run(capsys, "leaderboard", chain_csv, "--output", "json")
        assert code == 0, err
        codes = {n["code"] for n in json.loads(out)["notes"]}
        assert "unequal_question_sets" in codes and "disconnected_groups" not in codes

    def test_markdown_export_qualifies_the_verdict_and_carries_the_notice(self, split_csv, capsys):
        code, out, err = run(capsys, "export", split_csv({"s1": 0.9, "s2": 0.6, "w1": 0.4, "w2": 0.1}), "--format", "md")
        assert code == 0, err
        headline = out.split("\n\n")[1]  # after the line naming the data, task and rubric
        assert headline.startswith("**s1 ranks first in its group (1 of 2) at 95% credibility")
        assert "The models fall into 2 groups that share no question: no order across groups is supported" in headline
        assert GROUPS_SENTENCE in out and "would compare them" in out

    def test_markdown_export_of_a_cross_group_top_pair_names_no_leader(self, split_csv, capsys):
        code, out, err = run(capsys, "export", split_csv({"s1": 0.9, "w1": 0.6, "s2": 0.4, "w2": 0.1}), "--format", "md")
        assert code == 0, err
        headline = out.split("\n\n")[1]  # after the line naming the data, task and rubric
        assert headline.startswith("**s1 has the highest score") and "ranks first" not in headline
        assert "its order against w1 is not supported" in headline and "Within group" in headline
        assert "Caveat: s1 answered" not in headline  # the groups sentence says it; no second caveat on the same pair

    def test_html_export_carries_the_notice(self, disjoint_csv, capsys):
        code, out, err = run(capsys, "export", disjoint_csv(3), "--format", "html")
        assert code == 0, err
        assert GROUPS_SENTENCE in out
