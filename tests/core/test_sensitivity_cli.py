"""``python -m scorio_core sensitivity`` (JSON contract, table output, errors)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from scorio_core.cli import main
from scorio_core.sensitivity import perturb_rubric, schema_ranks
from scorio_core.dynamics.simulate import simulate_attempts
from scorio_core.report.notes import note_messages

KEYS = ["task", "models", "schemas", "skipped", "confidence", "tie_rule", "prior", "scope", "ranks", "ranks_ci", "mu", "sigma",
        "unmatched", "perturbation", "notes", "sources"]
PERTURBATION_KEYS = ["schema", "n", "weight_range", "threshold_shift", "seed", "leader", "leader_kept", "base_ranks",
                     "rank_share", "parameters", "drivers", "assumptions", "notes", "groups"]


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return pd.DataFrame(simulate_attempts(n_questions=8, n_trials=5, seed=11, means=(0.45, 0.5, 0.55, 0.6)))


@pytest.fixture(scope="module")
def dump(frame, tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("sens") / "sim.csv"
    frame.to_csv(path, index=False)
    return str(path)


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract(dump, frame, capsys):
    out = _json(capsys, ["sensitivity", dump, "--schemas", "Format Aware,Efficiency-Adjusted", "--perturb", "40",
                         "--seed", "2", "--output", "json"])
    assert list(out) == KEYS
    assert out["schemas"] == ["Format Aware", "Efficiency-Adjusted"]
    expected = schema_ranks(frame, ["Format Aware", "Efficiency-Adjusted"], prior="empirical-bayes")
    assert (out["prior"], out["scope"]) == ("empirical-bayes", "questions-fixed")
    assert out["models"] == list(expected.models)
    # ranks[i][j]: rank of models[i] under schemas[j]
    assert out["ranks"] == expected.ranks.T.astype(int).tolist()
    np.testing.assert_allclose(out["mu"], expected.mu.T)
    assert [p["schema"] for p in out["perturbation"]] == out["schemas"]
    first = out["perturbation"][0]
    assert list(first) == PERTURBATION_KEYS
    direct = perturb_rubric(frame, "Format Aware", n=40, seed=2, prior="empirical-bayes")  # the CLI default prior
    assert first["leader"] == direct.leader and first["leader_kept"] == direct.leader_kept
    np.testing.assert_allclose(first["rank_share"], direct.rank_share)
    assert list(first["drivers"][0]) == ["parameter", "kind", "correlation", "flip_rate_low", "flip_rate_high",
                                         "smallest_change", "new_leader"]


def test_freeze_thresholds_are_not_perturbed(dump, frame, tmp_path, capsys):
    frozen = tmp_path / "frozen.json"
    frozen.write_text(json.dumps({"len_p33": 0.2, "unrelated": 1.0}))
    out = _json(capsys, ["sensitivity", dump, "--schemas", "Efficiency-Adjusted,Format Aware", "--perturb", "30",
                         "--freeze-thresholds", str(frozen), "--output", "json"])
    efficiency, format_aware = out["perturbation"]
    names = [p["name"] for p in efficiency["parameters"]]
    assert "threshold: len_p33" not in names and "threshold: len_p66" in names  # only the frozen one stays put
    direct = perturb_rubric(frame, "Efficiency-Adjusted", n=30, seed=0, thresholds={"len_p33": 0.2}, prior="empirical-bayes")
    np.testing.assert_allclose(efficiency["rank_share"], direct.rank_share)
    assert format_aware["rank_share"] == perturb_rubric(frame, "Format Aware", n=30, seed=0).rank_share.tolist()


def test_default_schemas_are_binary_and_table5(dump, capsys):
    out = _json(capsys, ["sensitivity", dump, "--output", "json"])
    assert out["schemas"][0] == "Binary correctness" and "Concision-High-Conf" in out["schemas"]
    assert out["perturbation"] == []
    assert {s["schema"] for s in out["skipped"]} <= {"Token Surprise vs. Correctness"}


def test_skipped_schemas_name_the_missing_signals(frame, tmp_path, capsys):
    path = tmp_path / "bare.csv"
    frame[["model", "task", "question_id", "trial", "is_correct"]].to_csv(path, index=False)
    out = _json(capsys, ["sensitivity", str(path), "--schemas", "Binary correctness,Format Aware", "--output", "json"])
    assert out["schemas"] == ["Binary correctness"]
    assert out["skipped"][0]["schema"] == "Format Aware" and "has_box" in out["skipped"][0]["missing"]
    assert any(n.startswith("only Binary correctness applies to this data") for n in note_messages(out["notes"]))


def test_plain_data_table_says_once_what_is_skipped_and_that_one_rubric_cannot_answer(frame, tmp_path, capsys):
    """Plain correctness data under the default 13 schemata: one line for the 12 skipped (not one each), with the
    signals they lack counted, and a note that one rubric cannot show rubric sensitivity."""
    path = tmp_path / "bare.csv"
    frame[["model", "task", "question_id", "trial", "is_correct"]].to_csv(path, index=False)
    assert main(["sensitivity", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(l.endswith("competition ranks of Bayes@N under 1 schema") for l in lines)
    skipped = [l for l in lines if "schemata skipped" in l]
    assert len(skipped) == 1 and skipped[0].startswith("12 schemata skipped (Exact Match, ")
    assert "compass_context_C (needed by 12)" in skipped[0] and skipped[0].endswith("--output json.")
    assert sum(l.startswith("note: only Binary correctness applies") for l in lines) == 1


def test_table_output(dump, capsys):
    assert main(["sensitivity", dump, "--schemas", "Format Aware", "--perturb", "20"]) == 0
    text = capsys.readouterr().out
    assert "Format Aware" in text and "keeps rank 1 in" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--schemas", "No such schema"], "unknown schema"),
        (["--perturb", "-1"], "--perturb"),
        (["--weight-range", "2"], "weight_range"),
        (["--seed", "-3"], "--seed"),
        (["--confidence", "1.2"], "confidence"),
    ],
)
def test_errors_are_one_line(dump, capsys, argv, message):
    assert main(["sensitivity", dump, *argv, "--perturb", "5"] if "--perturb" not in argv else ["sensitivity", dump, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_count_data_is_refused(tmp_path, capsys):
    path = tmp_path / "counts.csv"
    path.write_text("model,task,question_id,n_trials,n_correct\na,t,q1,4,2\nb,t,q1,4,3\n")
    assert main(["sensitivity", str(path)]) == 2
    assert "attempt-level" in capsys.readouterr().err


def test_models_on_different_questions_are_said(disjoint_csv, capsys):
    # helper QA: `sensitivity` ranked models that answered disjoint question sets with notes about rubrics only, while
    # `leaderboard`, `ranks` and `compare` say the models answered different questions
    path = disjoint_csv(2)
    assert main(["sensitivity", str(path), "--output", "json"]) == 0
    notes = [n["message"] for n in json.loads(capsys.readouterr().out)["notes"]]
    assert any(n.startswith("4 of 4 models answered fewer than all 12 questions (0 answered by every model)")
               for n in notes)


def test_one_model_is_refused_naming_the_task(tmp_path, capsys):
    # helper QA: one model gave ranks [[1]] and no note; the Sensitivity page stops there, and so does the CLI now
    path = tmp_path / "one.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(f"solo,q{q},0,{q % 2}\n" for q in range(6)))
    assert main(["sensitivity", str(path)]) == 2
    assert "has 1 model: rubric sensitivity compares rankings, so it needs at least 2" in capsys.readouterr().err
