"""OpenAI evals record logs (``oaieval ... --record_path``): a spec line, one line per event, a final report.

QA 2026-12-04: such a log was refused as "'is_correct' is ambiguous: 'data.correct', 'final_report.accuracy'", then
(mapped) as "line 2: field 'task' is empty" (the eval name is on the spec line only).
"""

from __future__ import annotations

import gzip
import json

import pytest

from scorio_core import io
from scorio_core.errors import InputError


def _log(samples: int = 4, match: bool = True) -> bytes:
    lines = [{"spec": {"completion_fns": ["gpt-4o"], "eval_name": "test-match.s1.simple-v0", "base_eval": "test-match",
                       "split": "s1", "run_config": {"seed": 20220722}, "run_id": "2401011", "created_at": "2024"}}]
    for i in range(samples):
        base = {"run_id": "2401011", "sample_id": f"test-match.s1.{i}", "created_by": "", "created_at": "2024"}
        lines.append({**base, "event_id": 2 * i, "type": "sampling", "data": {"prompt": "q", "sampled": ["a"]}})
        lines.append({**base, "event_id": 2 * i + 1, "type": "match" if match else "metrics",
                      "data": {"correct": i % 2 == 0, "expected": ["a"], "picked": "a", "sampled": ["a"]}
                      if match else {"score": 0.5}})
    lines.append({"final_report": {"accuracy": 0.5}})
    return "".join(json.dumps(x) + "\n" for x in lines).encode()


@pytest.mark.parametrize("name", ["log.jsonl", "log.jsonl.gz"])
def test_match_events_are_the_attempts(name):
    data = gzip.compress(_log()) if name.endswith(".gz") else _log()
    ds = io.load([(name, data)])
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str})
    assert set(t["model"]) == {"gpt-4o"} and set(t["task"]) == {"test-match.s1.simple-v0"}
    # by hand: 4 samples, correct when the index is even (0 and 2)
    assert t.sort_values("question_id")["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0]
    assert any("4 'match' events are the attempts (6 other lines" in n for n in ds.report.notes)


def test_a_log_without_match_events_is_refused_by_name():
    with pytest.raises(InputError, match="no 'match' events holding data.correct .its events: metrics, sampling"):
        io.load([("log.jsonl", _log(match=False))])


def test_duckdb_leaves_the_log_to_pandas(tmp_path, capsys):
    pytest.importorskip("duckdb")
    from scorio_core.cli import main

    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "run.jsonl").write_bytes(_log())
    glob = str(tmp_path / "logs" / "*.jsonl")
    assert main(["leaderboard", glob, "--engine", "duckdb", "--output", "json"]) == 2
    assert "OpenAI evals record log is read by the pandas engine" in json.loads(capsys.readouterr().out)["error"]
    assert main(["leaderboard", glob, "--prior", "uniform", "--output", "json"]) == 0  # auto: DuckDB, then pandas
    assert [(r["model"], r["avg"]) for r in json.loads(capsys.readouterr().out)["rows"]] == [("gpt-4o", 0.5)]
