"""Method agreement (issue 38): response tensors from counts, Kendall's tau_b between methods, rank ranges, CLI."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import rankdata

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.leaderboard.methods import default_methods, method_agreement
from scorio_core.leaderboard.table import leaderboard, outcomes_for
from scorio_core.rank.ties import NEAR_TIE_RTOL, near_tie_ranks, settled_ranks
from scorio_core.rank.agreement import agreement, available_methods, response_tensor


def test_response_tensor_puts_k_ones_per_cell():
    R = response_tensor([[2, 0], [3, 1]], [[3, 3], [3, 3]])
    assert R.shape == (2, 2, 3) and R.dtype == np.int8
    assert R.sum(axis=2).tolist() == [[2, 0], [3, 1]]


@pytest.mark.parametrize("s, n, match", [
    ([[1, 0]], [[2, 0]], "no trial of model 0 on question 1:"),
    ([[1, 0]], [[2, 3]], "different numbers of trials"),
    ([[0.5, 0]], [[2, 2]], "whole numbers"),
])
def test_response_tensor_refuses_to_fill_or_drop(s, n, match):
    with pytest.raises(InputError, match=match):
        response_tensor(s, n)


def test_response_tensor_errors_name_the_model_and_question():
    with pytest.raises(InputError, match=r"no trial of model 'a' on question 'q2' \(and 1 other \(model, question\) cell\)"):
        response_tensor([[1, 1, 0], [1, 0, 0]], [[2, 2, 0], [2, 2, 0]], ["a", "b"], ["q0", "q1", "q2"])
    with pytest.raises(InputError, match=r"e\.g\. 3 for model 'b' on question 'q0' against 2 for model 'a' on question 'q0'"):
        response_tensor([[1, 1], [1, 0]], [[2, 2], [3, 2]], ["a", "b"], ["q0", "q1"])


def test_tau_b_and_rank_ranges_by_hand():
    # x ranks 1 2 3 4; y swaps the first two: 5 concordant, 1 discordant of 6 pairs -> tau_b = 4/6
    R = np.zeros((4, 1, 1), dtype=int)
    result = agreement(R, ["x", "y"], models=list("abcd"), extra={"x": [4, 3, 2, 1], "y": [3, 4, 2, 1]}, top=1)
    assert result.ranks.tolist() == [[1, 2, 3, 4], [2, 1, 3, 4]]
    assert result.tau_b[0, 1] == pytest.approx(4 / 6) and result.tau_b[1, 0] == pytest.approx(4 / 6)
    assert result.best.tolist() == [1, 1, 3, 4] and result.worst.tolist() == [2, 2, 3, 4]
    assert result.summary.startswith("The top 1 is the same under 1 of 2 methods (compared with x); 2 of 4 models")
    assert "a ranks 1st to 2nd (1st under x)" in result.summary
    rows = result.rows()
    assert [r["model"] for r in rows] == ["a", "b", "c", "d"] and rows[0]["ranks"] == {"x": 1, "y": 2}


def test_the_summary_names_methods_that_tie_most_models():
    # 8 models: x orders them all; y ties them in two groups (2 distinct ranks < 8 / 4), which alone moves 6 models
    R = np.zeros((8, 1, 1), dtype=int)
    result = agreement(R, ["x", "y"], models=[f"m{i}" for i in range(8)],
                       extra={"x": list(range(8, 0, -1)), "y": [1] * 4 + [0] * 4}, top=1)
    assert result.summary.endswith(" 1 of 2 methods tie most models (distinct ranks among 8: y 2; the others' median "
                                   "5), which alone moves every model they tie.")
    fine = agreement(R, ["x", "y"], models=[f"m{i}" for i in range(8)],
                     extra={"x": list(range(8, 0, -1)), "y": [7, 8, 6, 5, 4, 3, 2, 1]}, top=1)
    assert "tie most models" not in fine.summary


def test_one_big_tie_group_is_named_even_with_many_distinct_ranks():
    # helper QA: N = 1, 200 x 20; every method resolves ~20 levels, Nanson 7, one of them 93 models: its 7 > 20 / 3
    # escaped the distinct-rank rule and "m112 ranks 108th to 200th" came from that tie alone. Here 40 models: x, z
    # give 10 levels of 4; y 5 levels, one of them 30 models (>= 40 / 4 and >= 3 x the typical largest, 4)
    R = np.zeros((40, 1, 1), dtype=int)
    levels = np.repeat(np.arange(10, 0, -1), 4)
    y = np.concatenate([np.arange(10, 6, -1).repeat([3, 3, 2, 2]), np.zeros(30)])
    result = agreement(R, ["x", "y", "z"], models=[f"m{i}" for i in range(40)],
                       extra={"x": levels, "y": y, "z": levels + 0.0}, top=1)
    assert result.summary.startswith("Every model has the same rank under the 2 methods that resolve most models")
    assert " 1 of 3 methods tie most models (distinct ranks among 40: y 5; the others' median 10)" in result.summary


def test_a_tie_across_rank_k_is_not_called_a_top_k():
    # x: a, b, c tie at 1st (no top 2 exists); y ranks a, b, c 1st, 2nd, 3rd: its top 2 is {a, b}
    R = np.zeros((4, 1, 1), dtype=int)
    result = agreement(R, ["x", "y", "z"], models=list("abcd"),
                       extra={"x": [2, 2, 2, 1], "y": [3, 2, 1, 0], "z": [5, 5, 5, 1]}, top=2)
    assert result.summary.startswith(
        "These data do not pick a top 2 under x: 3 models tie within ranks 1 to 2; that tied set is the same under "
        "2 of 3 methods; 2 of 4 models change rank")
    untied = agreement(R, ["y", "x"], models=list("abcd"), extra={"x": [2, 2, 2, 1], "y": [3, 2, 1, 0]}, top=2)
    assert untied.summary.startswith("The top 2 is the same under 1 of 2 methods (compared with y)")


def test_tau_b_corrects_for_ties_and_is_nan_for_a_constant_ranking():
    R = np.zeros((4, 1, 1), dtype=int)
    # x: 1 2 2 4 (tie), y: 1 2 3 4. Pairs: 5 concordant, 0 discordant, 1 tied in x only:
    # tau_b = (5 - 0) / sqrt((6 - 1) * 6)
    result = agreement(R, ["x", "y", "flat"], extra={"x": [4, 3, 3, 1], "y": [4, 3, 2, 1], "flat": [1, 1, 1, 1]})
    assert result.tau_b[0, 1] == pytest.approx(5 / np.sqrt(30))
    assert np.isnan(result.tau_b[2, 0]) and result.tau_b[2, 2] == 1.0


def test_a_method_without_an_estimate_is_skipped_with_its_reason():
    R = np.array([[[1]], [[0]]])  # model 0 wins every comparison: no finite Bradley-Terry ML estimate
    result = agreement(R, ["avg", "bradley_terry", "bradley_terry_map"])
    assert result.methods == ("avg", "bradley_terry_map")
    assert "not strongly connected" in result.skipped["bradley_terry"]
    with pytest.raises(ValueError, match="no chosen method can rank these data: bradley_terry"):
        agreement(R, ["bradley_terry"])
    with pytest.raises(ValueError, match="unknown ranking method 'nope'"):
        agreement(R, ["avg", "nope"])


def test_ties_share_the_best_rank_and_nan_scores_rank_last():
    R = np.zeros((3, 1, 1), dtype=int)
    result = agreement(R, ["x"], extra={"x": [0.5, np.nan, 0.5]})
    assert result.ranks.tolist() == [[1, 3, 1]]
    assert result.summary.startswith("Choose at least two methods")


@st.composite
def tensors(draw):
    L = draw(st.integers(2, 7))
    M = draw(st.integers(1, 10))
    N = draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = rng.choice([0.0, 0.3, 0.7, 1.0], size=(L, 1, 1))
    return (rng.random((L, M, N)) < p).astype(int)


@settings(max_examples=20, deadline=None)
@given(tensors())
def test_agreement_invariants(R):
    import scorio_core.rank as rank

    slow = ("Item response theory", "Bayesian", "Rating systems")  # cross-checked in their own reference tests
    names = [m for g, group in available_methods().items() if g not in slow for m in group]
    result = agreement(R, names + names[:1])  # a repeated name counts once
    assert set(result.methods) | set(result.skipped) == set(names) and not set(result.methods) & set(result.skipped)
    names = list(result.methods)  # a method that cannot rank the data (e.g. Bradley-Terry ML, separated) says why
    assert all(result.skipped.values())
    K, L = len(names), R.shape[0]
    assert result.ranks.shape == (K, L)
    tau = result.tau_b
    assert np.allclose(tau, tau.T, equal_nan=True) and np.all(np.diag(tau) == 1)
    assert np.all((tau[~np.isnan(tau)] >= -1 - 1e-12) & (tau[~np.isnan(tau)] <= 1 + 1e-12))
    assert np.all(result.best <= result.ranks) and np.all(result.ranks <= result.worst)
    for k, name in enumerate(names):  # each row is that method's competition ranks, an optimiser's last digits tied
        r, s = getattr(rank, name)(R, return_scores=True)
        np.testing.assert_array_equal(result.ranks[k], settled_ranks(r, s))
        exact = np.asarray(r, dtype=float)
        assert np.all(result.ranks[k] <= exact)  # settling only merges neighbours: a rank never gets worse
        moved = result.ranks[k] != exact
        for i in np.flatnonzero(moved):  # ... and only within the near-tie tolerance of a better-ranked score
            better = s[exact < exact[i]]
            assert np.any(np.abs(better - s[i]) <= NEAR_TIE_RTOL * np.maximum(np.abs(better), abs(s[i])) * L + 1e-11)


def test_an_optimisers_last_digits_do_not_rank_two_equal_records():
    # helper QA: Bradley-Terry gave A and C (2 of 4 each on one question) 1.2599210431 and 1.2599210439, ranks 2
    # and 1, "1 of 3 models rank differently than under Bayes@N" and a bootstrap interval "1-1" beside rank 2
    R = np.zeros((3, 1, 1), dtype=int)
    result = agreement(R, ["x", "bayes"], models=list("ACB"),
                       extra={"x": [1.2599210431, 1.2599210439, 0.63], "bayes": [0.5, 0.5, 0.25]})
    assert result.ranks.tolist() == [[1.0, 1.0, 3.0], [1.0, 1.0, 3.0]]
    assert result.summary.startswith("Every model has the same rank under the 2 methods")
    assert near_tie_ranks([1.0, 1.0 + 2e-6]).tolist() == [2.0, 1.0]  # beyond 1e-6 relative: apart


def _write(tmp_path, solved, trials=3, missing=()):
    rows = ["model,question_id,trial,is_correct"]
    for m, qs in solved.items():
        rows += [f"{m},q{q},{t},{int(q in qs)}" for q in range(5) for t in range(trials) if (m, q) not in missing]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_method_agreement_on_a_task_ranks_bayes_as_the_leaderboard(tmp_path):
    path = _write(tmp_path, {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}, "w": set()})
    outcomes = outcomes_for(io.load([path]))
    report = method_agreement(outcomes)
    assert report.n_questions == 5 and report.n_trials == 3 and report.question_set == "own"
    chosen = tuple(default_methods(4))
    assert report.agreement.methods == tuple(m for m in chosen if m not in report.agreement.skipped)
    assert "bradley_terry" in report.agreement.skipped  # x solves what no other model does: no finite ML estimate
    board = leaderboard(outcomes).set_index("model")
    bayes = dict(zip(report.agreement.models, report.agreement.ranks[0]))
    assert all(bayes[m] == board.loc[m, "rank"] for m in bayes)
    assert report.agreement.ranks[:, report.agreement.models.index("x")].max() == 1  # x is first under every method


def test_missing_cells_need_the_common_question_set(tmp_path):
    path = _write(tmp_path, {"x": {0, 1, 2}, "y": {2, 3}, "z": {4}}, missing={("z", 0)})
    outcomes = outcomes_for(io.load([path]))
    with pytest.raises(InputError, match="Common questions only"):
        method_agreement(outcomes, ["bayes", "avg"])
    report = method_agreement(outcomes, ["bayes", "avg"], question_set="common")
    assert report.n_questions == 4 and report.notes[0].startswith("1 of 5 questions left out")
    with pytest.raises(ValueError, match="unknown ranking method 'nope'; choose from bayes, irt_ability"):
        method_agreement(outcomes, ["nope"], question_set="common")


@pytest.mark.parametrize("question_set", ["own", "common"])
def test_no_common_question_says_what_ranks_them_instead(tmp_path, question_set):
    # z skipped q0-q2, x and y skipped q3-q4: no question has all three, so 'common questions only' cannot help
    path = _write(tmp_path, {"x": {0, 1}, "y": {2}, "z": {4}},
                  missing={("z", 0), ("z", 1), ("z", 2), ("x", 3), ("x", 4), ("y", 3), ("y", 4)})
    with pytest.raises(InputError, match="no question was answered by every model") as info:
        method_agreement(outcomes_for(io.load([path])), ["bayes", "avg"], question_set=question_set)
    assert "Common questions only" not in str(info.value)
    assert "Models filter" in str(info.value) and "IRT ability, which rank models on different questions" in str(info.value)
    assert "--question-set missing-incorrect" in str(info.value)


def test_methods_cli_json_contract(tmp_path, capsys):
    path = _write(tmp_path, {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}})
    assert main(["methods", path, "--methods", "bayes,avg,borda", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    task = out["tasks"][0]
    assert set(task) == {"task", "methods", "labels", "n_questions", "n_trials", "question_set", "prior", "notes",
                         "skipped", "summary", "tau_b", "models", "method_options"}
    assert task["method_options"] == {}  # no --method-option: every method with its defaults
    assert task["methods"] == ["bayes", "avg", "borda"] and task["labels"]["borda"] == "Borda count"
    assert task["models"][0] == {"model": "x", "best": 1, "worst": 1, "spread": 0,
                                 "ranks": {"bayes": 1, "avg": 1, "borda": 1}}
    assert len(task["tau_b"]) == 3 and task["tau_b"][0][0] == 1.0
    assert main(["methods", path, "--methods", "bayes,nope"]) == 2
    assert "unknown ranking method 'nope'" in capsys.readouterr().err
    assert main(["methods", path, "--methods", "bayes,avg"]) == 0
    assert capsys.readouterr().out.startswith("d: Every model has the same rank under the 2 methods.")


def test_method_agreement_bootstraps_the_kept_methods_on_shared_resamples(tmp_path):
    from scorio_core.items.irt import fit_irt
    from scorio_core.rank.agreement import response_tensor
    from scorio_core.uncertainty.batch import posterior_summary_batch

    path = _write(tmp_path, {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}, "w": set()})
    outcomes = outcomes_for(io.load([path]))
    plain = method_agreement(outcomes, ["bayes", "irt_ability", "avg", "bradley_terry"])
    assert plain.bootstrap is None
    report = method_agreement(outcomes, ["bayes", "irt_ability", "avg", "bradley_terry"], n_boot=12, seed=4)
    assert report.agreement.methods == plain.agreement.methods and report.agreement.summary == plain.agreement.summary
    np.testing.assert_array_equal(report.agreement.ranks, plain.agreement.ranks)  # the point ranking is unchanged
    boot = report.bootstrap
    assert boot.methods == report.agreement.methods and "bradley_terry" not in boot.methods  # skipped: not bootstrapped
    assert boot.ranks.shape == (12, 3, 4) and (boot.n_boot, boot.seed, boot.confidence) == (12, 4, 0.95)
    counts = np.asarray(outcomes.binary.counts)
    idx = np.random.default_rng(4).integers(0, 5, size=(12, 5))
    for b in range(12):  # Bayes@N refitted on the same resample as the other methods (all resamples in one batch)
        mu = posterior_summary_batch(counts[:, idx[b]], np.array([0.0, 1.0]), prior="empirical-bayes").mu
        np.testing.assert_array_equal(boot.ranks[b, 0], rankdata(-mu, method="min"))
        R = response_tensor(counts[..., 1], counts.sum(axis=2))
        np.testing.assert_array_equal(boot.ranks[b, 2], agreement(R[:, idx[b]], ["avg"]).ranks[0])
        # IRT ability: all resamples in one batched Newton solve, the ranks of one fit_irt per resample
        fit = fit_irt(counts[:, idx[b], 1], counts[:, idx[b]].sum(axis=2), "2pl")
        np.testing.assert_array_equal(boot.ranks[b, 1], rankdata(-fit.theta, method="min"))
    with pytest.raises(ValueError, match="n_boot"):
        method_agreement(outcomes, ["bayes", "avg"], n_boot=-1)
    with pytest.raises(ValueError, match="confidence"):
        method_agreement(outcomes, ["bayes", "avg"], n_boot=5, confidence=1.5)


def test_methods_cli_bootstrap_json(tmp_path, capsys):
    path = _write(tmp_path, {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}})
    args = ["methods", path, "--methods", "bayes,avg,borda", "--bootstrap", "20", "--seed", "1", "--output", "json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    task = json.loads(first)["tasks"][0]
    boot = task["bootstrap"]
    assert set(boot) == {"n_boot", "seed", "confidence", "scope", "failed", "intervals"}
    assert (boot["n_boot"], boot["seed"], boot["confidence"], boot["scope"]) == (20, 1, 0.95, "questions-sampled")
    assert boot["failed"] == {} and len(boot["intervals"]) == 3 * 3
    for row in boot["intervals"]:
        assert set(row) == {"model", "method", "rank", "rank_lo", "rank_hi"}
        assert 1 <= row["rank_lo"] <= row["rank_hi"] <= 3 and row["method"] in task["methods"]
        assert row["rank"] == next(m for m in task["models"] if m["model"] == row["model"])["ranks"][row["method"]]
    assert main(args) == 0
    assert capsys.readouterr().out == first  # the same seed, the same output
    assert main(args[:-2] + ["--confidence", "0.5"]) == 0
    table = capsys.readouterr().out
    assert "rank intervals: 50% percentile bootstrap over questions (20 resamples, seed 1" in table
    assert main(["methods", path, "--methods", "bayes,avg", "--output", "json"]) == 0
    assert "bootstrap" not in json.loads(capsys.readouterr().out)["tasks"][0]
    assert main(["methods", path, "--methods", "bayes,avg", "--bootstrap", "-1"]) == 2
    assert "--bootstrap" in capsys.readouterr().err


def test_many_models_leave_the_slow_paired_fits_out_of_the_defaults_and_say_so(tmp_path):
    """The finite-difference paired-comparison fits cost O(L^3) per iteration: chosen by default up to 100 models."""
    slow = {"bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map", "rao_kupper",
            "rao_kupper_map", "plackett_luce", "plackett_luce_map"}
    assert slow <= set(default_methods(100)) and slow <= set(default_methods(None))
    assert not slow & set(default_methods(101))
    assert {"bayes", "irt_ability", "avg", "borda", "pagerank"} <= set(default_methods(101))
    assert not slow & {m for group in available_methods(101).values() for m in group}  # not offered one by one either
    rng = np.random.default_rng(1)
    rows = ["model,question_id,trial,correct"] + [f"m{i:03d},q{q},0,{int(rng.random() < (i + 1) / 102)}"
                                                  for i in range(101) for q in range(3)]
    path = tmp_path / "many.csv"
    path.write_text("\n".join(rows) + "\n")
    report = method_agreement(outcomes_for(io.load([str(path)])), question_set="own")
    assert not slow & set(report.agreement.methods)
    note = next(n for n in report.notes if n.startswith("Left out by default for 101 models"))
    assert "Bradley-Terry (MAP)" in note and "Plackett-Luce" in note and "--methods" in note
    assert "bayesian_mcmc" in default_methods(150) and "bayesian_mcmc" not in default_methods(151)  # 13 s at 300
    explicit = method_agreement(outcomes_for(io.load([str(path)])), ["bayes", "avg"])
    assert not any(n.startswith("Left out by default") for n in explicit.notes)  # only the defaults are trimmed


def test_batched_bayes_bootstrap_is_the_same_in_any_chunking(tmp_path, monkeypatch):
    """Every resample's Bayes@N in batched calls: the chunk size (memory bound) does not change a rank."""
    import scorio_core.leaderboard.methods as methods_module

    path = _write(tmp_path, {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}, "w": {1}})
    outcomes = outcomes_for(io.load([path]))
    whole = method_agreement(outcomes, ["bayes", "avg"], n_boot=30, seed=9).bootstrap
    monkeypatch.setattr(methods_module, "_BATCH_CELLS", 1)  # one resample per call
    one_by_one = method_agreement(outcomes, ["bayes", "avg"], n_boot=30, seed=9).bootstrap
    np.testing.assert_array_equal(whole.ranks, one_by_one.ranks)
    monkeypatch.setattr(methods_module, "_BATCH_CELLS", 4 * 5 * 2 * 7)  # 7 resamples per call, a partial last one
    np.testing.assert_array_equal(method_agreement(outcomes, ["bayes", "avg"], n_boot=30, seed=9).bootstrap.ranks,
                                  whole.ranks)


def test_batched_irt_bootstrap_is_the_same_in_any_chunking(tmp_path, monkeypatch):
    """Every resample's IRT ability in batched Newton solves: the chunk size does not change a rank.

    On a table where the 2PL fit is identified (6 models x 12 questions x 4 trials from a logistic model). On 4 models
    x 5 questions a resample of 3 distinct questions has several 2PL optima, and which one a fit reaches follows the
    last bits of its arithmetic, which differ between chunk sizes on some CPUs (AMD EPYC, 2026-12-02): not a rank.
    """
    import scorio_core.leaderboard.methods as methods_module

    rng = np.random.default_rng(3)
    p = 1 / (1 + np.exp(-(np.linspace(-1.5, 1.5, 6)[:, None] - np.linspace(-1.2, 1.2, 12)[None, :])))
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"m{i},q{q},{t},{int(rng.random() < p[i, q])}" for i in range(6) for q in range(12) for t in range(4)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(path)]))
    whole = method_agreement(outcomes, ["irt_ability", "avg"], n_boot=30, seed=9).bootstrap
    for name, value in (("_IRT_BATCH_CELLS", 1),  # one resample per call
                        ("_IRT_BATCH_CELLS", 6 * 12 * 7),  # 7 resamples per call, a partial last one
                        ("_IRT_BATCH_MAX_CELLS", 0)):  # larger tables: one fit_irt per resample
        monkeypatch.setattr(methods_module, name, value)
        np.testing.assert_array_equal(method_agreement(outcomes, ["irt_ability", "avg"], n_boot=30, seed=9)
                                      .bootstrap.ranks, whole.ranks)


def test_a_task_with_one_model_is_left_out_not_the_whole_file(tmp_path, capsys):
    # helper QA: one single-model task made `methods` (exit 2) and `questions` (2PL error) fail for every task
    rows = ["model,task,question_id,trial,is_correct"]
    rows += [f"{m},t1,q{q},{t},{int((q + t + i) % 3 == 0)}" for i, m in enumerate("abc") for q in range(6) for t in range(2)]
    rows += [f"solo,t2,q{q},0,{q % 2}" for q in range(6)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["methods", str(path), "--methods", "borda,bayes", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [t["task"] for t in out["tasks"]] == ["t1"]
    assert out["skipped_tasks"] == [{"task": "t2", "reason": "1 model: ranking needs at least 2"}]
    assert main(["questions", str(path), "--output", "json"]) == 0
    tasks = {t["task"]: t for t in json.loads(capsys.readouterr().out)["tasks"]}
    assert tasks["t1"]["model"] == "2pl" and "note" not in tasks["t1"]
    assert tasks["t2"]["model"] == "rasch" and tasks["t2"]["note"].startswith("Rasch fit: a 2PL fit needs at least 2")
    assert main(["methods", str(path), "--task", "t2", "--output", "json"]) == 2  # asked for by name: an error
    assert "has 1 model" in json.loads(capsys.readouterr().out)["error"]


def test_the_trial_order_note_names_the_methods_that_depend_on_it():
    # the note said only the rating systems depend on the (made-up) trial order of count data; the paired comparisons
    # and Bayesian MCMC compare trial t of A with trial t of B, so reordering each question's trials changes them
    import scorio_core.rank as rank
    from scorio_core.leaderboard.methods import SLOW_GROUPS, TRIAL_ORDER_METHODS

    rng = np.random.default_rng(3)
    R = (rng.random((5, 12, 4)) < rng.random((5, 1, 1))).astype(int)
    sorted_R = -np.sort(-R, axis=2)  # correct trials first, as a tensor rebuilt from counts
    changed = set()
    for group, names in available_methods(5).items():
        for name in names if group not in SLOW_GROUPS else ():
            try:
                _, a = getattr(rank, name)(R, return_scores=True)
                _, b = getattr(rank, name)(sorted_R, return_scores=True)
            except ValueError:  # no estimate on one of the two (ML fits on a separated win graph)
                continue
            if not np.allclose(a, b, rtol=1e-6, atol=1e-9):
                changed.add(name)
    assert changed <= TRIAL_ORDER_METHODS  # every other method uses each question's counts
    assert {"bradley_terry_map", "rao_kupper", "elo"} <= changed
    counts = pd.DataFrame({"model": ["a", "a", "b", "b"], "question_id": ["q1", "q2"] * 2, "n_trials": 4,
                           "n_correct": [3, 1, 2, 2]})
    outcomes = outcomes_for(io.load([("c.csv", counts.to_csv(index=False).encode())]))
    notes = method_agreement(outcomes, ["borda", "rao_kupper"], prior="uniform").notes
    (note,) = [n for n in notes if n.startswith("Counts only")]
    assert "Rao-Kupper compare or replay the models' trials one by one" in note and "Borda" not in note
