"""``leaderboard --method NAME`` (issue 38): a task's models ranked by one method of scorio_core.rank, as JSON rows."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorio_core.rank as rank
from scorio_core import io
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
    o = outcomes_for(io.load([str(COUNTS)])).binary
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
