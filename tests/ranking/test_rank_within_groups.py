"""Ranks within groups of models that share no question (QA: ``ranks`` and the Rank distribution tab gave a joint
P(rank) across two halves of a benchmark, i.e. compared question sets as much as models)."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.cli import main
from scorio_core.ranking.posterior_ranks import WITHIN_GROUPS, posterior_rank_distribution, rank_summary
from scorio_core.ranking.rank_batch import batch_competition_ranks, batch_group_ranks, name_group_labels


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 7).flatmap(lambda L: st.tuples(
    st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, -2.0]), min_size=L, max_size=L), min_size=1, max_size=4),
    st.lists(st.integers(0, 3), min_size=L, max_size=L))))
def test_group_ranks_are_each_groups_own_competition_ranks(case):
    scores, labels = np.array(case[0]), np.array(case[1])
    got = batch_group_ranks(scores, labels)
    for g in np.unique(labels):  # the kernel's bands against ranking each group alone
        members = labels == g
        assert np.array_equal(got[:, members], batch_competition_ranks(scores[:, members]))


def test_deterministic_groups_by_hand():
    # a always right, b never (group 0); c never, d always (group 1): each group's best is its rank 1
    right, wrong = [[0, 80]] * 3, [[80, 0]] * 3
    P = posterior_rank_distribution([right, wrong, wrong, right], draws=200, groups=[0, 0, 1, 1])
    assert P.tolist() == [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
    joint = posterior_rank_distribution([right, wrong, wrong, right], draws=200)  # one group: a and d tie at 1
    assert joint[:, :2].sum(axis=1).tolist() == [1.0, 0.0, 0.0, 1.0]


def test_one_group_changes_nothing():
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 4, size=(5, 6, 2)) + np.array([0, 1])
    a = posterior_rank_distribution(counts, draws=300, seed=1)
    assert np.array_equal(a, posterior_rank_distribution(counts, draws=300, seed=1, groups=[2] * 5))
    assert name_group_labels(list("abc"), [["a", "b", "c"]]) is None


def _split(L=6, M=8, N=3, seed=0):
    """Models 0..L/2-1 answer questions 0..M/2-1, the others the rest: two groups."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((L, M, 2), dtype=int)
    for i in range(L):
        qs = range(M // 2) if i < L // 2 else range(M // 2, M)
        for q in qs:
            k = rng.binomial(N, 0.2 + 0.6 * (i % (L // 2)) / L)
            counts[i, q] = [N - k, k]
    return counts


def test_rank_summary_ranks_within_each_group():
    names = [f"m{i}" for i in range(6)]
    groups = [names[3:], names[:3]]
    out = rank_summary(names, _split(), [0.0, 1.0], draws=400, groups=groups)
    assert out["rank_scope"] == "within_group"
    assert [sorted(g) for g in out["groups"]] == [names[3:], names[:3]]
    P = np.array(out["probabilities"])
    assert np.allclose(P.sum(axis=1), 1.0) and not P[:, 3:].any()  # three models a group: ranks 1-3 only
    for g, members in enumerate(out["groups"], start=1):
        rows = [r for r in out["rows"] if r["group"] == g]
        assert [r["model"] for r in rows] == members  # rows by group, then expected rank
        assert sorted(r["rank"] for r in rows) == [1, 2, 3]
        block = P[[out["models"].index(m) for m in members]][:, :3]
        assert np.allclose(block.sum(axis=0), 1.0)  # within a group every rank is held once per draw
    plain = rank_summary(names, _split(), [0.0, 1.0], draws=400)
    assert plain["rank_scope"] == "all" and "group" not in plain["rows"][0]


def _split_csv(tmp_path, n_models=40, n_tasks=12):
    """The sweep's shape: 40 models x 12 tasks; on task t0 the models split into halves on disjoint questions."""
    rng = np.random.default_rng(7)
    rows = ["model,task,question_id,trial,is_correct"]
    for m in range(n_models):
        for t in range(n_tasks):
            qs = range(6) if t or m < n_models // 2 else range(6, 12)
            rows += [f"m{m:02d},t{t},q{q},{r},{int(rng.random() < 0.3 + m / 100)}" for q in qs for r in range(2)]
    path = tmp_path / "split.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_cli_ranks_within_groups_and_says_so(tmp_path, capsys):
    path = _split_csv(tmp_path)
    assert main(["ranks", str(path), "--task", "t0", "--draws", "300", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank_scope"] == "within_group" and [len(g) for g in out["groups"]] == [20, 20]
    assert sum(r["rank"] == 1 for r in out["rows"]) == 2  # each half has its own first
    assert max(r["rank"] for r in out["rows"]) == 20
    (unlinked,) = [n for n in out["notes"] if n["code"] == "disconnected_groups"]
    assert unlinked["message"].endswith(WITHIN_GROUPS)
    assert [sorted(g) for g in unlinked["groups"]] == [sorted(g) for g in out["groups"]]  # rows: by expected rank
    assert main(["ranks", str(path), "--task", "t1", "--draws", "300", "--output", "json"]) == 0
    linked = json.loads(capsys.readouterr().out)
    assert linked["rank_scope"] == "all" and max(r["rank"] for r in linked["rows"]) > 20
    assert main(["ranks", str(path), "--task", "t0", "--draws", "300", "--output", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(",rank,group")


def test_leaderboard_ranks_within_each_group_as_each_group_alone(tmp_path, capsys):
    """The leaderboard's rank and rank_ci (the notice says ranks across groups are not supported): each group's
    ranks are those of a leaderboard of that group's models alone."""
    import pandas as pd

    path = _split_csv(tmp_path, n_models=12, n_tasks=1)
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = pd.DataFrame(out["rows"])
    (notice,) = [n for n in out["notes"] if n["code"] == "disconnected_groups"]
    assert "each model is ranked within its group" in notice["message"]
    data = pd.read_csv(path)
    for members in notice["groups"]:
        alone = tmp_path / "alone.csv"
        data[data["model"].isin(members)].to_csv(alone, index=False)
        assert main(["leaderboard", str(alone), "--output", "json"]) == 0
        solo = json.loads(capsys.readouterr().out)
        solo = pd.DataFrame(solo["rows"]).set_index("model")
        mine = rows.set_index("model").loc[members]
        assert mine["rank"].tolist() == solo.loc[members, "rank"].tolist()
        assert mine["rank_ci"].tolist() == solo.loc[members, "rank_ci"].tolist()
        assert sorted(mine["rank"])[0] == 1  # every group has its own first


def test_sensitivity_ranks_within_groups_as_the_leaderboard(tmp_path, capsys):
    """QA: sensitivity printed ranks 1-4 across two groups beside the note saying each is ranked within its group."""
    path = tmp_path / "two_groups.csv"
    rates = {"a": 8, "b": 5, "c": 4, "d": 1}
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q + (0 if m in 'ab' else 8)},{t},{int((q * 3 + t) % 10 < r)}\n"
        for m, r in rates.items() for q in range(8) for t in range(3)))
    assert main(["sensitivity", str(path), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ranks = dict(zip(out["models"], (r[0] for r in out["ranks"])))
    assert ranks == {"a": 1, "b": 2, "c": 1, "d": 2}
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    board = {r["model"]: r["rank"] for r in json.loads(capsys.readouterr().out)["rows"]}
    assert board == ranks


def test_cli_compare_names_a_pair_across_groups(tmp_path, capsys):
    """The Compare page warned about a cross-group pair; the CLI's compare said only that the question sets differ."""
    path = tmp_path / "two_groups.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q + (0 if m in 'ab' else 8)},{t},{int((q * 3 + t) % 10 < r)}\n"
        for m, r in {"a": 8, "b": 5, "c": 4, "d": 1}.items() for q in range(8) for t in range(3)))
    assert main(["compare", str(path), "--models", "a", "c", "--output", "json"]) == 0
    (apart,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "different_groups"]
    assert apart["message"].startswith("a and c are in different groups of models that share no question")
    assert main(["compare", str(path), "--models", "a", "b", "--output", "json"]) == 0
    assert "different_groups" not in {n["code"] for n in json.loads(capsys.readouterr().out)["notes"]}
