"""Per-question rates beside a trial count (``accuracy = 0.75``, ``n_samples = 4``) read as counts.

QA 2026-12-04: ``model, question_id, accuracy, n_samples`` was refused as "non-binary outcomes; choose a threshold"
(the trial count silently unused), and ``pass_rate`` was not guessed as an outcome at all.
"""

from __future__ import annotations

import json
from math import comb

import pandas as pd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

RATES = "model,question_id,accuracy,n_samples\na,q1,0.75,4\na,q2,0.25,4\nb,q1,1.0,4\nb,q2,0.5,4\n"


def _file(tmp_path, text: str, name: str = "acc.csv") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_rates_are_read_as_counts(tmp_path, capsys):
    path = _file(tmp_path, RATES)
    ds = io.load([path])
    counts = ds.to_counts().set_index(["model", "question_id"])
    # by hand: 0.75 x 4 = 3, 0.25 x 4 = 1, 1.0 x 4 = 4, 0.5 x 4 = 2
    assert counts["n_correct"].to_dict() == {("a", "q1"): 3, ("a", "q2"): 1, ("b", "q1"): 4, ("b", "q2"): 2}
    assert set(counts["n_trials"]) == {4}
    assert dict(ds.sources[0].mapping)["n_correct"] == "<accuracy x n_samples>"
    assert any("share of correct trials over column 'n_samples'" in n for n in ds.report.notes)
    assert main(["leaderboard", path, "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["model"]: r["avg"] for r in out["rows"]} == {"a": 4 / 8, "b": 6 / 8}


def test_rounded_rates_and_a_rate_alias(tmp_path):
    text = '{"model": "a", "question_id": 1, "pass_rate": 0.3333, "n": 3}\n{"model": "a", "question_id": 2, "pass_rate": 0.6667, "n": 3}\n'
    ds = io.load([_file(tmp_path, text, "rates.jsonl")])
    assert ds.to_counts()["n_correct"].tolist() == [1, 2]  # 0.3333 x 3 and 0.6667 x 3, printed to 4 decimals


@pytest.mark.parametrize("row, words", [
    ("a,q2,0.3,4", "line 3: column 'accuracy'"),  # 1.2 correct trials
    ("a,q2,0.5,4.5", "must be a positive whole number of trials"),
    ("a,q2,,4", "is missing or not a number"),
])
def test_a_rate_that_is_not_a_count_is_refused_by_its_row(tmp_path, row, words):
    text = RATES.replace("a,q2,0.25,4", row)
    with pytest.raises(InputError, match=words) as err:
        io.load([_file(tmp_path, text)])
    assert "--map n_trials=none" in str(err.value)


def test_zero_one_outcomes_and_an_unmapped_count_stay_attempts(tmp_path, capsys):
    # a 0/1 outcome beside a column named like a trial count: one attempt per row, as before
    ds = io.load([_file(tmp_path, "model,question_id,correct,total\na,q1,1,523\na,q2,0,87\n")])
    assert ds.layout == "attempts" and len(ds.attempts) == 2
    # a graded score per attempt, the count column said not to be one: the non-binary refusal, as before
    path = _file(tmp_path, RATES.replace("0.25,4", "0.3,4"))
    assert main(["leaderboard", path, "--map", "n_trials=none", "--output", "json"]) == 2
    assert "non-binary outcome" in json.loads(capsys.readouterr().out)["error"]


def test_duckdb_refuses_and_auto_reads_with_pandas(tmp_path, capsys):
    pytest.importorskip("duckdb")
    (tmp_path / "runs").mkdir()
    _file(tmp_path / "runs", RATES)
    glob = str(tmp_path / "runs" / "*.csv")
    assert main(["leaderboard", glob, "--engine", "duckdb", "--output", "json"]) == 2
    assert "shares of correct trials" in json.loads(capsys.readouterr().out)["error"]
    assert main(["leaderboard", glob, "--prior", "uniform", "--output", "json"]) == 0  # auto: DuckDB, then pandas
    assert {r["model"]: r["avg"] for r in json.loads(capsys.readouterr().out)["rows"]} == {"a": 0.5, "b": 0.75}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 200).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))), min_size=1,
                max_size=12))
def test_counts_equal_the_rates(cells):
    if all(k in (0, n) for n, k in cells):
        cells = [*cells, (3, 1)]  # one rate strictly between 0 and 1 makes it a rate table
    text = "model,question_id,accuracy,n_samples\n" + "".join(f"m,q{i},{k / n!r},{n}\n" for i, (n, k) in enumerate(cells))
    counts = io.load([("m.csv", text.encode())]).to_counts().set_index("question_id")
    for i, (n, k) in enumerate(cells):
        assert counts.loc[f"q{i}", "n_trials"] == n and counts.loc[f"q{i}", "n_correct"] == k


def _lighteval(tmp_path, num_samples: int = 4) -> list[str]:
    """lighteval's details layout (details/<org>/<model>/<date>/details_<task>_<date>.parquet): one row per doc, the
    per-doc metrics in a struct named by their parameters, ``doc.num_samples`` beside them."""
    date = "2025-11-05T14-43-47.148527"
    paths = []
    for model, outcomes in (("model-a", [[1, 0, 0, 0], [1, 1, 0, 0]]), ("model-b", [[1, 1, 1, 1], [0, 0, 1, 0]])):
        folder = tmp_path / "details" / "org" / model / date
        folder.mkdir(parents=True)
        rows = [{"doc": {"id": str(q), "task_name": "lighteval|aime24", "num_samples": num_samples},
                 "metric": {"avg@n:n=4": sum(o) / 4, "pass@k:k=2&n=4": 1 - comb(4 - sum(o), 2) / comb(4, 2),
                            "maj@n:n=4": float(sum(o) > 2)},  # a majority vote: 0 or 1, not a share
                 "model_response": {"text": ["x"] * 4}} for q, o in enumerate(outcomes)]
        path = folder / f"details_lighteval|aime24|0_{date}.parquet"
        pd.DataFrame(rows).to_parquet(path, index=False)
        paths.append(str(path))
    return paths


def test_a_metric_name_states_the_trials(tmp_path, capsys):
    paths = _lighteval(tmp_path, num_samples=8)  # the task's largest n (another metric's), not this metric's
    args = ["leaderboard", *paths, "--map", "model=@folder:2", "--map", "is_correct=metric.avg@n:n=4"]
    assert main([*args, "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # by hand: model-a 1 + 2 = 3 of 8 correct trials, model-b 4 + 1 = 5 of 8 (n = 4 from the name, not 8)
    assert {(r["model"], r["task"]): r["avg"] for r in out["rows"]} == {("model-a", "lighteval|aime24"): 3 / 8,
                                                                     ("model-b", "lighteval|aime24"): 5 / 8}
    notes = " ".join(n["message"] for n in out["notes"])
    assert "the n=4 trials its name states" in notes and "'doc.num_samples' (8 on 2 of 2 rows) not used" in notes
    ds = io.load(paths, mapping={"model": "@folder:2", "is_correct": "metric.avg@n:n=4"})
    assert set(ds.to_counts()["n_trials"]) == {4}
    with pytest.raises(InputError, match="states n=4 trials in its name"):  # a mapped count that contradicts it
        io.load(paths, mapping={"model": "@folder:2", "is_correct": "metric.avg@n:n=4", "n_trials": "doc.num_samples"})


def test_an_estimate_is_not_a_share(tmp_path):
    paths = _lighteval(tmp_path)
    with pytest.raises(InputError, match="pass@k with k > 1"):  # pass@2 with 2 of 4 correct: 5/6, not a share of 4
        io.load(paths, mapping={"model": "@folder:2", "is_correct": "metric.pass@k:k=2&n=4"})


def test_the_one_share_among_the_metrics_is_the_outcome(tmp_path):
    paths = _lighteval(tmp_path)
    ds = io.load(paths, mapping={"model": "@folder:2"})  # avg@n:n=4 is the only share (pass@2 and maj@4 are not)
    assert dict(ds.sources[0].mapping)["n_correct"] == "<metric.avg@n:n=4 x 4>"
    assert sorted(ds.to_counts()["n_correct"].tolist()) == [1, 1, 2, 4]
    frame = pd.read_parquet(paths[0])
    frame["metric"] = [{**m, "avg@n:n=2": 0.5} for m in frame["metric"]]
    frame.to_parquet(paths[0], index=False)
    with pytest.raises(InputError, match="'is_correct' is ambiguous: candidates 'metric.avg@n:n=4', 'metric.avg@n:n=2'"):
        io.load(paths[:1], mapping={"model": "@folder:2"})


def test_rates_in_percent_with_the_outcome_scale(tmp_path):
    """accuracy in percent beside n_samples: with --outcome-scale 100 the rates are counts (was: read as one graded
    attempt per row, the trial count unused); without it, refused with the percent hint."""
    text = "model,question_id,accuracy,n_samples\nm,q1,75.0,4\nm,q2,50.0,4\nn,q1,33.33,3\nn,q2,100.0,4\n"
    ds = io.load([("pct.csv", text.encode())], outcome_scale=100)
    counts = ds.counts.astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    assert counts["n_correct"].to_dict() == {("m", "q1"): 3, ("m", "q2"): 2, ("n", "q1"): 1, ("n", "q2"): 4}
    assert counts["n_trials"].to_dict() == {("m", "q1"): 4, ("m", "q2"): 4, ("n", "q1"): 3, ("n", "q2"): 4}
    assert any("(divided by 100, the outcome scale given) read as each question's share" in n for n in ds.report.notes)
    with pytest.raises(InputError, match="100"):
        io.load([("pct.csv", text.encode())])
    with pytest.raises(InputError, match="not a whole number of correct trials"):
        io.load([("pct.csv", text.replace("33.33", "40.0").encode())], outcome_scale=100)
