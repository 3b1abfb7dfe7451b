"""A model named after a file or folder (not from the data) is said beside the leaderboard, not only on the Data page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from scorio_core import io
from scorio_core.cli import main
from scorio_core.leaderboard.checks import model_name_defaults

LM_EVAL = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "lm_eval_harness"


def test_a_model_named_after_its_folder_is_said_on_the_leaderboard(tmp_path, capsys):
    """An lm-eval samples file loaded without its results file: the model is named after the folder; the leaderboard
    notes say so (before: only the Data page's quality panel did, so a lead saw a folder name as a model)."""
    src = next(LM_EVAL.glob("samples_*.jsonl"))
    alone = tmp_path / "run" / src.name
    alone.parent.mkdir()
    shutil.copy(src, alone)
    lines = model_name_defaults(io.load([str(alone)]))
    assert len(lines) == 1 and "model set to the folder name 'run'" in lines[0]
    assert main(["leaderboard", str(alone), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    (note,) = [n for n in notes if n["code"] == "model_named_by_default"]
    assert note["finding"].startswith("Model names taken from file or folder names, not from the data: ")
    assert model_name_defaults(io.load([str(src)])) == ()  # beside its results file: named from the data
