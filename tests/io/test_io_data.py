"""Every bundled data/ file loads with the right models, questions and trials.

Expected numbers: data/README.md shapes, and counts taken with Python's csv module on the
raw files (independent of the loader), as the comments say.
"""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest

from scorio_core import io

DATA = Path(__file__).resolve().parents[2] / "data"


def _csv_rows(name: str) -> list[dict]:
    path = DATA / name
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_matharena_counts():
    ds = io.load(DATA / "matharena_aime_2025_I_counts.csv")
    assert ds.layout == "counts" and ds.attempts is None
    r = ds.report
    # data README: 16 models x 15 AIME 2025 I problems, N=4 runs each
    assert (r.n_models, r.n_questions, r.n_rows) == (16, 15, 240)
    assert set(ds.counts["n_trials"]) == {4}
    rows = _csv_rows("matharena_aime_2025_I_counts.csv")
    assert int(ds.counts["n_correct"].sum()) == sum(int(x["n_correct"]) for x in rows) == 431  # csv module sum
    assert r.missing_cells == 0 and not r.unequal_trials and r.n_duplicate_keys == 0 and ds.ready
    assert dict(ds.sources[0].mapping)["n_trials"] == "n_trials"
    # per-model cost kept as the source's text ("$0.00*", "N/A" stay visible)
    assert "model_total_cost_usd_reported" in ds.counts.columns


def test_arc_trials():
    ds = io.load(DATA / "arc_agi_1_public_eval_trials.csv")
    r = ds.report
    # data README: 12 models x 419 test pairs x N=2 attempts
    assert (r.n_models, r.n_questions, r.n_rows) == (12, 419, 10048)
    assert sorted(ds.attempts["trial"].unique()) == [0, 1]
    assert int(ds.attempts["is_correct"].sum()) == 2166  # csv module: sum(correct)
    # README: claude-3-haiku covers 397 tasks and claude-3-5-haiku 399 (of 400); in test pairs
    # (csv module): 416 and 418 of 419, missing 0bb8deee#0, 85fa5666#0, a680ac02#0 and 2037f2c7#0
    gaps = {g.model: (g.n_questions, g.n_missing) for g in r.question_gaps}
    assert gaps == {"claude-3-haiku-20240307": (416, 3), "claude-3-5-haiku-20241022": (418, 1)}
    assert r.missing_cells == 4
    haiku = ds.attempts[ds.attempts["model"] == "claude-3-haiku-20240307"]["question_id"].astype(str)
    assert haiku.str.split("#").str[0].nunique() == 397
    assert ds.ready and "has_answer" in ds.attempts.columns


def test_tau_bench_trials():
    ds = io.load(DATA / "tau_bench_airline_gpt4o_trials.csv")
    r = ds.report
    assert (r.n_models, r.n_questions, r.n_rows) == (1, 50, 200)  # README: 1 model x 50 tasks x N=4
    assert sorted(ds.attempts["trial"].unique()) == [0, 1, 2, 3]
    assert int(ds.attempts["is_correct"].sum()) == 84  # csv module: sum(correct)
    m = dict(ds.sources[0].mapping)
    assert m["is_correct"] == "correct" and m["score"] == "reward"  # reward is the soft score
    assert ds.ready


def test_scorio_verifier_trials():
    ds = io.load(DATA / "scorio_aime25_q06_verifier_trials.csv")
    assert (ds.report.n_models, ds.report.n_questions, ds.report.n_rows) == (1, 1, 80)  # README: N=80
    assert sorted(ds.attempts["trial"]) == list(range(80))
    assert int(ds.attempts["is_correct"].sum()) == 32  # csv module


def test_livebench_duplicates_and_soft_scores():
    ds = io.load(DATA / "livebench_2025-01-13_N1.csv.gz")
    r = ds.report
    # README: 93 models x 1,136 questions x N=1; csv module: 93,624 rows, 18 tasks
    assert (r.n_models, r.n_questions, r.n_tasks, r.n_rows) == (93, 1136, 18, 93624)
    assert ds.attempts["trial"].unique().tolist() == [0]
    # README: 590 (model, question) pairs appear twice; csv module: 59 of them disagree on correct
    assert (r.n_duplicate_keys, r.n_duplicate_rows, r.n_conflicting_keys) == (590, 590, 59)
    assert r.duplicates[0].conflicting and r.duplicates[0].sources == ("livebench_2025-01-13_N1.csv.gz",) * 2
    assert not ds.ready and "duplicate" in r.blocking[0]
    # independent count with the csv module: per task, the union of questions minus each
    # present model's own questions (a model absent from a whole task is not a gap)
    rows = _csv_rows("livebench_2025-01-13_N1.csv.gz")
    union, own = {}, {}
    for x in rows:
        union.setdefault(x["task"], set()).add(x["question_id"])
        own.setdefault((x["task"], x["model"]), set()).add(x["question_id"])
    assert r.missing_cells == sum(len(union[t]) - len(q) for (t, _), q in own.items())
    assert int(ds.attempts["is_correct"].sum()) == 28362  # csv module: sum(correct)
    # README: continuous score in [0, 1], 17% strictly between; 'correct' is the outcome
    assert dict(ds.sources[0].mapping)["is_correct"] == "correct"
    soft = ((ds.attempts["score"] > 0) & (ds.attempts["score"] < 1)).mean()
    assert soft == pytest.approx(0.1735, abs=5e-4)
    first = io.apply_choices(ds, duplicates="keep-first")
    assert first.ready and first.report.n_rows == 93624 - 590
    aisbench = io.apply_choices(first, binarize_threshold=0.5)
    # csv module: 1372 rows where correct != (score > 0.5); after keep-first the count can only drop
    changed = int(aisbench.report.choices[-1].split("(")[1].split()[0])
    assert 0 < changed <= 1372


DATA_FILES = sorted(p.name for p in DATA.iterdir() if p.name.endswith((".csv", ".csv.gz", ".jsonl", ".parquet", ".npz")))


@pytest.mark.parametrize("name", DATA_FILES)
def test_every_data_file_loads_with_csv_module_counts(name):
    """Any file in data/ (including ones added later): rows, models, questions, trials agree
    with an independent count by Python's csv module."""
    ds = io.load(DATA / name)
    rows = _csv_rows(name)
    r = ds.report
    assert r.n_rows == len(rows)
    assert r.n_models == len({x["model"] for x in rows})
    assert r.n_questions == len({(x.get("task"), x["question_id"]) for x in rows})
    if ds.layout == "attempts":
        assert sorted(set(ds.attempts["trial"].tolist())) == sorted({int(x["trial"]) for x in rows})
        outcome = "correct" if "correct" in rows[0] else "is_correct"
        assert ds.attempts["is_correct"].sum() == sum(float(x[outcome]) for x in rows)
    else:
        assert int(ds.counts["n_trials"].sum()) == sum(int(x["n_trials"]) for x in rows)


def test_all_trial_files_load_together():
    names = [n for n in DATA_FILES if "counts" not in n]
    ds = io.load([DATA / n for n in names])
    assert ds.report.n_rows == sum(len(_csv_rows(n)) for n in names)  # csv module row counts
    assert [s.name for s in ds.sources] == names
