"""``leaderboard --method NAME`` (issue 38): a task's models ranked by one method of scorio_core.rank, as JSON rows."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorio_core.rank as rank
from scorio_core import io
from scorio_core.arrays.order import canonical_outcomes
from scorio_core.cli import main
from scorio_core.leaderboard.table import outcomes_for
from scorio_core.rank.agreement import response_tensor
from tests.app.conftest import ROOT

COUNTS = ROOT / "data" / "matharena_aime_2025_I_counts.csv"


def _json(capsys, *argv) -> dict:
    assert main(["leaderboard", *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("method", ["bradley_terry", "borda", "pagerank", "avg"])
def test_rows_are_the_rank_function_on_the_count_tensor(capsys, method):
    out = _json(capsys, COUNTS, "--method", method)
    o = canonical_outcomes(outcomes_for(io.load([str(COUNTS)])).binary)[0]  # ranked in natural order
    c = np.asarray(o.counts)
    R = response_tensor(c[..., 1], c.sum(axis=2))
    ranks, scores = getattr(rank, method)(R, return_scores=True)
    by_model = {r["model"]: r for r in out["rows"]}
    assert [r["rank"] for r in out["rows"]] == sorted(r["rank"] for r in out["rows"])  # listed by rank
    for i, model in enumerate(o.models):
        assert by_model[model]["rank"] == int(ranks[i]) and by_model[model]["score"] == pytest.approx(float(scores[i]))
        assert by_model[model]["method"] == method and by_model[model]["task"] == "aime_2025_I"
    assert out["settings"]["method"] == method and out["settings"]["question_set"] == "own"


def test_default_is_the_bayes_leaderboard(capsys):
    default = _json(capsys, COUNTS)
    explicit = _json(capsys, COUNTS, "--method", "bayes")
    assert default == explicit and "mu" in default["rows"][0]


def test_missing_cells_need_common_questions(tmp_path, capsys):
    path = tmp_path / "ragged.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{(q + t + i) % 2}\n" for i, m in enumerate("abc") for q in range(4) for t in range(2)
        if not (m == "c" and q == 3)))
    assert main(["leaderboard", str(path), "--method", "borda"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--question-set common" in err[0]
    out = _json(capsys, path, "--method", "borda", "--question-set", "common")
    assert len(out["rows"]) == 3 and any("left out" in n["message"] for n in out["notes"])


@pytest.mark.parametrize("argv, message", [
    (["--method", "nope"], "unknown ranking method 'nope'"),
    (["--method", "borda", "--schema", "Binary Correctness"], "--method ranks binary correctness"),
])
def test_bad_method_arguments_exit_2(capsys, argv, message):
    assert main(["leaderboard", str(COUNTS), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def _disjoint(tmp_path):
    # c and d never answered q4-q5, a and b answered q0-q3 three times and q4-q5 once: missing cells and unequal N
    rows = ["model,question_id,trial,is_correct"]
    skill = {"a": 5, "b": 3, "c": 2, "d": 1}
    for m, k in skill.items():
        for q in range(6):
            if m in "cd" and q >= 4:
                continue
            for t in range(3 if q < 4 else 1):
                rows.append(f"{m},q{q},{t},{int((q + t) % 6 < k)}")
    path = tmp_path / "disjoint.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_irt_ability_ranks_unequal_question_sets_with_intervals(tmp_path, capsys):
    # the one ranking method that needs no complete tensor: the count-table 2PL fit with its intervals and CI ties
    from scorio_core.items.board import ability_board
    from scorio_core.items.report import diagnose

    path = _disjoint(tmp_path)
    assert main(["leaderboard", str(path), "--method", "borda"]) == 2  # the rank methods refuse these data
    capsys.readouterr()
    out = _json(capsys, path, "--method", "irt_ability", "--confidence", "0.9")
    board = ability_board(diagnose(outcomes_for(io.load([str(path)])).binary, model="2pl", confidence=0.9))
    assert [r["model"] for r in out["rows"]] == board["model"].tolist()
    for row, (_, ref) in zip(out["rows"], board.iterrows()):
        assert row["method"] == "irt_ability" and row["rank"] == ref["rank"] and row["rank_ci"] == ref["rank_ci"]
        assert (row["score"], row["sigma"], row["lo"], row["hi"]) == pytest.approx(
            (ref["mu"], ref["sigma"], ref["lo"], ref["hi"]), rel=1e-12)
        assert row["lo"] < row["score"] < row["hi"]
    assert {r["model"]: r["n_questions"] for r in out["rows"]} == {"a": 6, "b": 6, "c": 4, "d": 4}
    assert out["settings"]["confidence"] == 0.9 and any("interval of the 2PL ability" in n["message"] for n in out["notes"])
    common = _json(capsys, path, "--method", "irt_ability", "--question-set", "common")
    assert {r["n_questions"] for r in common["rows"]} == {4}


def test_irt_ability_ties_identical_models(tmp_path, capsys):
    # two models with identical counts sit at symmetric places of the posterior: one ability, one rank (without
    # the fit's grouping of equal rows their Rasch abilities here differ by 2.8e-17 and rank 1 and 2)
    solved = [3, 2, 2, 1, 1]
    rows = ["model,question_id,trial,is_correct"] + [
        f"{m},q{q},{t},{int(t < k)}" for m in "ab" for q, k in enumerate(solved) for t in range(3)]
    path = tmp_path / "twins.csv"
    path.write_text("\n".join(rows) + "\n")
    by_model = {r["model"]: r for r in _json(capsys, path, "--method", "irt_ability")["rows"]}
    assert by_model["a"]["score"] == by_model["b"]["score"] and by_model["a"]["sigma"] == by_model["b"]["sigma"]
    assert by_model["a"]["rank"] == by_model["b"]["rank"] == 1 and by_model["a"]["rank_ci"] == by_model["b"]["rank_ci"]


def test_bootstrap_gives_the_rank_interval_of_the_method_view(capsys):
    from scorio_core.leaderboard.methods import method_agreement

    out = _json(capsys, COUNTS, "--method", "bradley_terry", "--bootstrap", "200", "--prior", "uniform")
    boot = method_agreement(outcomes_for(io.load([str(COUNTS)])), ["bradley_terry"], prior="uniform", n_boot=200,
                            seed=0).bootstrap  # the app's method view: 200 resamples, seed 0
    for row in out["rows"]:
        j = boot.models.index(row["model"])
        assert (row["rank_lo"], row["rank_hi"]) == (int(boot.lo[0, j]), int(boot.hi[0, j]))
        assert row["rank_lo"] <= row["rank"] <= row["rank_hi"]
    assert out["settings"]["bootstrap"] == {"n_boot": 200, "seed": 0, "confidence": 0.95, "scope": "questions-sampled"}
    assert "rank_lo" not in _json(capsys, COUNTS, "--method", "bradley_terry")["rows"][0]  # none by default


def test_bootstrap_counts_the_resamples_a_method_cannot_rank(tmp_path, capsys):
    # D's only win is on q00: a resample without it leaves Bradley-Terry without a finite estimate
    win = {"q00": "D", "q01": "A", "q02": "B", "q03": "C", "q04": "AB", "q05": "BC", "q06": "AC"}
    path = tmp_path / "one_win.csv"
    path.write_text("model,question_id,trial,correct\n" + "".join(
        f"{m},q{i:02d},0,{int(m in win.get(f'q{i:02d}', 'ABC'))}\n" for i in range(12) for m in "ABCD"))
    out = _json(capsys, path, "--method", "bradley_terry", "--bootstrap", "200")
    # the resamples without q00 (question 0 of 12): the bootstrap's indices, rng.integers(0, M, (n_boot, M)), seed 0
    idx = np.random.default_rng(0).integers(0, 12, size=(200, 12))
    without = int((~(idx == 0).any(axis=1)).sum())  # 80
    (note,) = [n for n in out["notes"] if n["code"] == "bootstrap_failed"]
    assert note["failed"] == without and f"could not rank {without} of 200 resamples" in note["message"]
    assert main(["leaderboard", str(path), "--method", "borda", "--bootstrap", "-1"]) == 2
    assert "--bootstrap must be 0" in capsys.readouterr().err
    for method in ("bayes", "irt_ability"):  # these report their own intervals: the option is refused, not ignored
        assert main(["leaderboard", str(path), "--method", method, "--bootstrap", "200"]) == 2
        assert "leave --bootstrap out" in capsys.readouterr().err


def test_method_options_reach_the_method_and_the_settings(capsys):
    out = _json(capsys, COUNTS, "--method", "elo", "--method-option", "K=16", "--method-option", "initial_rating=1000")
    o = canonical_outcomes(outcomes_for(io.load([str(COUNTS)])).binary)[0]  # ranked in natural order
    c = np.asarray(o.counts)
    scores = rank.elo(response_tensor(c[..., 1], c.sum(axis=2)), K=16.0, initial_rating=1000.0, return_scores=True)[1]
    by_model = {r["model"]: r["score"] for r in out["rows"]}
    assert [by_model[m] for m in o.models] == pytest.approx(list(scores), rel=1e-12)
    assert out["settings"]["method_options"] == {"K": 16.0, "initial_rating": 1000.0}
    assert _json(capsys, COUNTS, "--method", "elo")["settings"]["method_options"] == {}


@pytest.mark.parametrize("argv, words", [
    (["--method", "elo", "--method-option", "k=16"], "elo has no option 'k'; its options: K (default 32.0)"),
    (["--method-option", "K=16"], "--method-option sets an option of a scorio.rank method"),
    (["--method", "elo", "--method-option", "K=x"], "K='x': expected a number"),
    (["--method", "inverse_difficulty", "--method-option", "clip_range=0.1"],
     "inverse difficulty with --method-option clip_range=0.1 could not rank: clip_range must be a length-2 tuple "
     "(low, high). Its options: clip_range (default (0.01, 0.99))."),
])
def test_bad_method_options_are_refused_with_the_fix(capsys, argv, words):
    assert main(["leaderboard", str(COUNTS), *argv, "--output", "json"]) == 2
    assert words in capsys.readouterr().err


def test_methods_command_takes_options_per_method(capsys):
    assert main(["methods", str(COUNTS), "--methods", "bayes,elo", "--method-option", "elo.K=16", "--output",
                 "json"]) == 0
    task = json.loads(capsys.readouterr().out)["tasks"][0]
    assert task["method_options"] == {"elo": {"K": 16.0}}
    o = canonical_outcomes(outcomes_for(io.load([str(COUNTS)])).binary)[0]  # ranked in natural order
    c = np.asarray(o.counts)
    want = rank.elo(response_tensor(c[..., 1], c.sum(axis=2)), K=16.0)
    got = {m["model"]: m["ranks"]["elo"] for m in task["models"]}
    assert [got[m] for m in o.models] == [int(r) for r in want]
    assert main(["methods", str(COUNTS), "--method-option", "borda.x=1"]) == 2
    assert "borda has no option 'x'" in capsys.readouterr().err


def test_a_bad_method_option_fails_before_the_data_is_read(capsys, tmp_path):
    assert main(["leaderboard", str(tmp_path / "missing.csv"), "--method", "elo", "--method-option", "k=1"]) == 2
    assert "elo has no option 'k'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, named", [
    (["--tau", "0.9"], ["--tau"]),  # Bayes@N has no tau
    (["--metric", "g-pass@k_tau", "--k", "2", "--tau", "0.9"], []),  # it has one here
    (["--method", "elo", "--confidence", "0.5", "--scope", "questions-sampled"], ["--scope", "--confidence"]),
    (["--method", "elo", "--confidence", "0.5", "--bootstrap", "20"], []),  # the rank intervals' level
    (["--method", "irt_ability", "--tie-rule", "paper", "--k", "3"], ["--k"]),  # IRT ability has CI-tie ranks
])
def test_options_a_run_does_not_use_are_named(capsys, argv, named):
    doc = _json(capsys, COUNTS, *argv)
    notes = [n for n in doc["notes"] if n["code"] == "ignored_options"]
    assert [n["options"] for n in notes] == ([named] if named else [])


def test_missing_counts_as_incorrect_is_passed_to_the_method(tmp_path, capsys):
    # a answered q0-q3, b q2-q5: 2 missing cells each. Under missing-incorrect, avg is each model's share of correct
    # trials over all 6 questions x 2 trials (the filled cells 0 of 2): a 4 of 12, b 6 of 12. The set was silently
    # taken as "own" before (which refuses missing cells), now it is the one asked for and its cells are counted.
    solved = {"a": {0, 1}, "b": {2, 3, 4}}
    answered = {"a": range(0, 4), "b": range(2, 6)}
    rows = ["model,question_id,trial,is_correct"] + [f"{m},q{q},{t},{int(q in solved[m])}"
                                                      for m in "ab" for q in answered[m] for t in range(2)]
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(rows) + "\n")
    out = _json(capsys, path, "--method", "avg", "--question-set", "missing-incorrect")
    assert out["settings"]["question_set"] == "missing-incorrect"
    scores = {r["model"]: r["score"] for r in out["rows"]}
    assert scores == pytest.approx({"a": 4 / 12, "b": 6 / 12})
    assert any("4 missing (model, question) cells counted as answered wrongly" in n["message"] for n in out["notes"])
    irt = _json(capsys, path, "--method", "irt_ability", "--question-set", "missing-incorrect")
    assert any("4 missing (model, question) cells" in n["message"] for n in irt["notes"])
    assert {r["n_questions"] for r in irt["rows"]} == {6}
    assert main(["leaderboard", str(path), "--method", "avg", "--output", "json"]) == 2  # own: missing cells refused
    assert "Missing counts as incorrect" in capsys.readouterr().err
