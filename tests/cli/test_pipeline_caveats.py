"""A CI pipeline's view of the CLI (helper QA, 2026-12-01): every caveat in every format, no table of nulls, errors
before work, the right cause named, equal records ranked equal, and a version to record."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
ARC = ROOT / "data" / "arc_agi_1_public_eval_trials.csv"
MATHARENA = ROOT / "data" / "matharena_aime_2025_I_counts.csv"
VERIFIER = ROOT / "data" / "scorio_aime25_q06_verifier_trials.csv"


def _csv(tmp_path, name, rows):
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return path


def test_equal_records_share_a_rank_whatever_the_fit_s_last_digits(tmp_path, capsys):
    # B and C both have avg 0.45 on different questions: the empirical-Bayes fit gave 0.4500000088 and 0.4500000005,
    # ranks 2 and 3, in a published table that churns in diffs
    rng = np.random.default_rng(1)
    rows = ["model,task,question_id,trial,correct"]
    rows += [f"A,t,q{q},{t},{int(rng.random() < 0.7)}" for q in range(20) for t in range(2)]
    rows += [f"B,t,q{q},{t},{int((q + t) % 2 == 0) if q < 18 else 0}" for q in range(20) for t in range(2)]
    rows += [f"C,t,q{q},{t},{int((q * 7 + t) % 2 == 0) if q < 18 else 0}" for q in range(20) for t in range(2)]
    assert main(["leaderboard", str(_csv(tmp_path, "eq.csv", rows)), "--output", "json"]) == 0
    out = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert out["B"]["avg"] == out["C"]["avg"] == pytest.approx(0.45)
    assert abs(out["B"]["mu"] - out["C"]["mu"]) < 1e-6 * out["B"]["mu"]
    assert out["B"]["rank"] == out["C"]["rank"] == 2


def test_k_above_every_model_s_trials_is_an_error_not_a_table_of_nulls(capsys):
    assert main(["leaderboard", str(MATHARENA), "--metric", "pass@k", "--k", "100", "--output", "json"]) == 2
    captured = capsys.readouterr()
    assert "--k 100 is more than the trials per question of every model (every question has N = 4 trials)" in captured.err


def test_null_rows_carry_no_interval_label(tmp_path, capsys):
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"a,q{q},{t},{(q + t) % 2}" for q in range(6) for t in range(4)]
    rows += [f"b,q{q},{t},{q % 2}" for q in range(6) for t in range(2)]
    assert main(["leaderboard", str(_csv(tmp_path, "k.csv", rows)), "--metric", "pass@k", "--k", "3",
                 "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    b = next(r for r in out["rows"] if r["model"] == "b")
    assert b["mu"] is None and b["interval"] is None and b["interval_kind"] is None
    assert next(r for r in out["rows"] if r["model"] == "a")["interval"].startswith("95%")


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_csv_and_markdown_keep_stdout_a_table_and_put_every_note_on_stderr(fmt, capsys):
    assert main(["leaderboard", str(ARC), "--output", fmt]) == 0
    captured = capsys.readouterr()
    assert "note" not in captured.out
    notes = [line for line in captured.err.splitlines() if line.startswith("# note: ")]
    assert any("answered fewer than all 419 questions" in n for n in notes)
    assert any("depends on the trial's position" in n for n in notes)


def test_table_output_prints_every_note_not_a_whitelist(capsys):
    assert main(["leaderboard", str(ARC), "--prior", "jeffreys", "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    pull = next(n["message"] for n in notes if n["code"] == "prior_pull")  # ARC at N = 2 under Jeffreys
    assert main(["leaderboard", str(ARC), "--prior", "jeffreys"]) == 0  # prior_pull was never printed in a table
    out = capsys.readouterr().out
    assert f"note: {pull}" in out and all(f"note: {n['message']}" in out for n in notes)


def test_export_checks_its_output_folder_before_the_analysis_and_csv_says_its_caveats(tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "x.csv"
    assert main(["export", str(ARC), "--format", "csv", "--out", str(missing)]) == 2
    assert f"the folder {missing.parent} does not exist" in capsys.readouterr().err
    assert main(["export", str(ARC), "--format", "csv", "--out", str(tmp_path / "x.csv")]) == 0
    err = capsys.readouterr().err
    assert "note: 2 of 12 models answered fewer than all 419 questions" in err


def test_top_k_without_k_says_which_flag(capsys):
    assert main(["plan", str(MATHARENA), "--goal", "top-k", "--output", "json"]) == 2
    err = capsys.readouterr().err
    assert "goal 'top-k' needs the size of the top set: pass --k" in err and "None" not in err


def test_a_missing_model_column_is_named_not_solved_by_merging_duplicates(tmp_path, capsys):
    rows = ["task,question_id,trial,correct"] + [f"t,q{q},0,{v}" for q in range(4) for v in (0, 1)]
    assert main(["leaderboard", str(_csv(tmp_path, "runs.csv", rows))]) == 2
    err = capsys.readouterr().err
    assert "no model column; model set to the file stem 'runs'" in err and "--map model=COLUMN" in err
    assert "--duplicates would merge them" in err


def test_one_question_tried_many_times_is_not_called_too_few_trials(capsys):
    assert main(["leaderboard", str(VERIFIER), "--output", "json"]) == 0
    interval = json.loads(capsys.readouterr().out)["rows"][0]["interval"]
    assert "too few questions (1 question; fewer than 10 questions tried twice or more)" in interval
    assert "N = 1," not in interval


def test_version_is_printed_for_the_record(capsys):
    from scorio_core import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"scorio-dashboard {__version__}"


def test_filled_questions_are_not_cited_as_agreement(disjoint_csv, capsys):
    # "missing counts as incorrect": questions neither of the top two was asked were cited as "the same outcome for
    # both" (helper QA: 50 of 86 on a 250-model dump)
    path = disjoint_csv(3)
    assert main(["export", str(path), "--format", "md", "--question-set", "missing-incorrect"]) == 0
    md = capsys.readouterr().out
    assert "6 of these 12 questions were not answered by both in the data and count as incorrect" in md
    assert "12 questions both answered" not in md
    assert main(["export", str(path), "--format", "md"]) == 0  # each on its own questions: nothing filled
    assert "were not answered by both" not in capsys.readouterr().out
