"""Rubric perturbation where the models fall into groups that share no question: each group is ranked alone (as the
leaderboard), the leader and its drivers are the largest group's, and the groups are named."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from scorio_core.sensitivity import perturb_rubric

SCHEMA = "Format Compliance & Correctness"


def _attempts(p_correct: dict[str, float], questions: dict[str, range], n: int = 8, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for model, p in p_correct.items():
        for q in questions[model]:
            for t in range(n):
                rows.append((model, f"q{q}", t, float(rng.random() < p), float(rng.random() < 0.7)))
    return pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct", "has_box"])


def _two_groups() -> pd.DataFrame:
    # a, b, e answered q0-q5; c, d answered q6-q11: no shared question. c has the highest mean of all, so ranking every
    # model together would make c the leader; its group is the smaller one.
    p = {"a": 0.6, "b": 0.4, "e": 0.2, "c": 0.95, "d": 0.1}
    qs = {m: range(0, 6) for m in "abe"} | {m: range(6, 12) for m in "cd"}
    return _attempts(p, qs)


def test_ranks_within_groups_and_the_largest_groups_leader():
    res = perturb_rubric(_two_groups(), SCHEMA, n=60, seed=3)
    assert [set(g) for g in res.groups] == [{"a", "b", "e"}, {"c", "d"}]
    assert res.groups[0][0] == res.leader  # best first
    assert res.leader != "c"
    idx = {m: i for i, m in enumerate(res.models)}
    # every group has its own rank 1 under the unperturbed rubric and in every perturbed one
    assert res.base_ranks[idx[res.leader]] == 1 and res.base_ranks[idx["c"]] == 1
    assert res.base_ranks[idx["d"]] == 2
    assert np.all(res.ranks[:, [idx["c"], idx["d"]]] <= 2) and np.all(res.ranks.max(axis=1) <= 3)
    for g in res.groups:  # within a group the ranks are those of the group's models alone
        members = [idx[m] for m in g]
        assert (res.ranks[:, members] == 1).any(axis=1).all()
    np.testing.assert_allclose(res.rank_share.sum(axis=1), 1.0)
    # leader_kept is about the largest group: c (another group) never counts as catching the leader
    assert res.leader_kept == np.mean(res.ranks[:, idx[res.leader]] == 1)
    for d in res.drivers:
        assert d.new_leader in (None, "a", "b", "e")
    text = " ".join(res.notes)
    assert "2 groups that share no question" in text and "c keeps its group's rank 1 in 100%" in text


def test_one_group_keeps_the_global_ranking():
    df = _two_groups()
    df.loc[df["model"].isin(["c", "d"]) & (df["question_id"] == "q6"), "question_id"] = "q0"  # one shared question
    res = perturb_rubric(df, SCHEMA, n=40, seed=3)
    assert res.groups == ()
    assert res.leader == "c"
    assert sorted(res.base_ranks.tolist()) == [1, 2, 3, 4, 5]
    assert not any("share no question" in n for n in res.notes)


def test_cli_payload_lists_the_groups(tmp_path, capsys):
    from scorio_core.cli import main

    path = tmp_path / "groups.csv"
    _two_groups().to_csv(path, index=False)
    main(["sensitivity", str(path), "--schemas", SCHEMA, "--perturb", "30", "--output", "json"])
    out = json.loads(capsys.readouterr().out)
    p = out["perturbation"][0]
    assert [set(g) for g in p["groups"]] == [{"a", "b", "e"}, {"c", "d"}]
    assert p["leader"] != "c"
    assert any("share no question" in n["message"] for n in p["notes"])
