"""WildBench score results (allenai/WildBench ``eval_results/<version>/score.v2/eval=<judge>/<model>.json``): one rating
1-10 per task.

Found before (2026-12-05): refused with "no column found for required field 'question_id'"; mapped by hand, the
judge's parsed score (``parsed_result.score``, text "7") was taken for a 0/1 outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

ROOT = Path(__file__).parents[1] / "fixtures" / "formats" / "wildbench" / "eval_results"
JUDGED = ROOT / "v2.0625" / "score.v2" / "eval=gpt-4o-2024-05-13"


def test_the_genuine_excerpt(capsys):
    ds = io.load([str(ROOT)])
    assert {s.format for s in ds.sources} == {"wildbench"}
    assert set(ds.report.models) == {"gemma-2b-it", "reka-edge"}  # the file's name, as WildBench's tables name it
    a = ds.attempts
    assert set(a["task"].astype(str)) == {"WildBench v2.0625/gpt-4o-2024-05-13"} and set(a["trial"]) == {0}
    assert len(a) == 40
    # the excerpt: the first 20 tasks of each published file; ratings summed by hand: gemma 100 (mean 5.0), reka 116
    by_model = a.groupby(a["model"].astype(str))["category"].sum()
    assert by_model.to_dict() == {"gemma-2b-it": 100, "reka-edge": 116}
    assert any("score 5.0000, WB_score 0.00" in d for d in ds.report.defaults)
    assert main(["leaderboard", str(ROOT), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["model"]: r for r in out["rows"]}
    assert rows["reka-edge"]["avg"] == pytest.approx(5.8 / 10) and rows["gemma-2b-it"]["avg"] == 0.5
    assert "on WildBench's ratings 1-10, weights code / 10" in next(
        n["message"] for n in out["notes"] if n["code"] == "default_schema")


def record(sid, score, model="org/m"):
    return {"session_id": sid, "parsed_result": {"strengths": "", "weaknesses": "", "score": score}, "meta_data": {},
            "model_test": model, "score": score, "model_output": "..."}


def test_two_files_of_one_model_id_and_two_versions_stay_apart(tmp_path):
    # found on the stored results: Qwen1.5-72B-Chat.json and Qwen1.5-72B-Chat-greedy.json both say model_test
    # "Qwen/Qwen1.5-72B-Chat", and v2.0522 and v2.0625 rate the same tasks again: read as one model and one task,
    # 9,201 duplicate rows (610 conflicting)
    for version, name, score in (("v2.0522", "Qwen1.5-72B-Chat", "8"), ("v2.0522", "Qwen1.5-72B-Chat-greedy", "7"),
                                 ("v2.0625", "Qwen1.5-72B-Chat-greedy", "6")):
        folder = tmp_path / "eval_results" / version / "score.v2" / "eval=gpt-4o-2024-05-13"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.json").write_text(json.dumps([record("a", score, "Qwen/Qwen1.5-72B-Chat")]))
    ds = io.load([str(tmp_path / "eval_results")])
    got = {(str(r.task), str(r.model)): int(r.category) for r in ds.attempts.itertuples()}
    assert got == {("WildBench v2.0522/gpt-4o-2024-05-13", "Qwen1.5-72B-Chat"): 8,
                   ("WildBench v2.0522/gpt-4o-2024-05-13", "Qwen1.5-72B-Chat-greedy"): 7,
                   ("WildBench v2.0625/gpt-4o-2024-05-13", "Qwen1.5-72B-Chat-greedy"): 6}


def test_unrated_tasks_and_bad_ratings(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([record("a", "7"), record("b", None), record("c", "10")]))
    ds = io.load([str(path)])
    assert ds.attempts["category"].tolist() == [7, 10] and set(ds.attempts["task"].astype(str)) == {"WildBench"}
    assert any("1 task without a rating (the judge's output not parsed) has no attempt" in n for n in ds.report.notes)
    path.write_text(json.dumps([record("a", "7"), record("b", "7.5")]))
    with pytest.raises(InputError, match="the rating is '7.5': WildBench rates 1-10") as err:
        io.load([str(path)])
    assert "row 2" in str(err.value)
    path.write_text(json.dumps([{"session_id": "a", "model_outputs": {"x": "..", "y": ".."}, "winner": "x",
                                 "extent": 1, "parsed_result": {}, "model_A": "x"}]))
    with pytest.raises(InputError, match="WildBench pairwise results"):
        io.load([str(path)], format="wildbench")
