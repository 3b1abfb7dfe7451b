"""Model names that differ only in case or spaces stay different models, and the quality report and the leaderboard
say so (QA: an export showed two rows 'n1-0' at ranks 1 and 5 without a word)."""

from __future__ import annotations

import json

from scorio_core import io
from scorio_core.cli import main
from scorio_core.io._quality import near_duplicate_models


def test_near_duplicates_by_hand():
    assert near_duplicate_models(["a", "b", "c"]) == []
    assert near_duplicate_models([]) == [] and near_duplicate_models(["a"]) == []
    (note,) = near_duplicate_models(["gpt-4o", "GPT-4o", "gpt-4o ", "claude", " Claude", "x  y", "x y", "z"])
    assert "'gpt-4o', 'GPT-4o', 'gpt-4o '" in note and "'claude', ' Claude'" in note and "'x  y', 'x y'" in note
    assert "'z'" not in note and "str.strip()" in note
    many = near_duplicate_models([f"m{i}{s}" for i in range(8) for s in ("", " ")])
    assert "and 3 more groups" in many[0]


def test_quality_report_and_leaderboard_say_it(tmp_path, capsys):
    path = tmp_path / "names.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{(q + t + len(m)) % 2}\n" for m in ("n1-0", "N1-0", '"n1-0 "') for q in range(4)
        for t in range(2)))
    report = io.load([str(path)]).report
    assert len(report.models) == 3  # kept apart, as in the data
    assert any("differ only in letter case or spaces" in n for n in report.notes)
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    (similar,) = [n for n in notes if n["code"] == "similar_model_names"]
    assert "'n1-0 '" in similar["message"]
