"""``python -m scorio_core schemas`` and ``python -m scorio_core rubric``."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pandas as pd
import pytest

from scorio_core.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rubric"
ATTEMPTS = FIXTURES / "attempts_small.csv"


@pytest.fixture
def fake_loader(monkeypatch):
    """Load the CSV fixture directly, independent of scorio_core.io."""
    frames = {}

    def load(args, require_ready=True):
        frame = pd.read_csv(args.paths[0], dtype={"question_id": str})
        frames["last"] = frame
        report = types.SimpleNamespace(n_duplicate_keys=0, blocking=())
        return types.SimpleNamespace(attempts=frame, counts=None, report=report)

    monkeypatch.setattr("scorio_core.cli.rubric.load_dataset", load)
    return frames


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_schemas_json(capsys):
    status, out, _ = run(capsys, "schemas", "--output", "json")
    assert status == 0
    rows = json.loads(out)["schemas"]
    assert len(rows) == 18
    fa = next(r for r in rows if r["name"] == "Format Aware")
    assert fa["weights"] == [0, 0, 1, 2, 3]
    assert fa["categories"][0] == "invalid" and "has_box" in fa["signals"]


def test_schemas_table(capsys):
    status, out, _ = run(capsys, "schemas")
    assert status == 0
    assert "Efficiency-Adjusted" in out and "0 2 1 0 6 5 4" in out


def test_rubric_json(capsys, fake_loader):
    status, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", str(FIXTURES / "soft_score_rubric.json"),
                         "--output", "json")
    assert status == 0
    report = json.loads(out)
    assert report["categories"] == ["invalid", "failed", "passed", "excellent"]
    assert report["weights"] == [0, 0, 1, 1.5]
    assert report["thresholds"] == {"pass_mark": 0.5, "score_p90": 0.95}
    # hand (see test_rubric_jsonio): alpha [2, 2, 0, 1, 3, 2], beta [1, 2, 0, 0, 3, -1]
    assert report["counts"] == {"alpha": [1, 1, 3, 1], "beta": [2, 1, 1, 1]}
    assert report["unmatched"]["count"] == 1
    assert report["unmatched"]["by_model"] == {"alpha": 0, "beta": 1}
    assert report["unmatched"]["examples"] == [{"row": 11, "model": "beta", "question_id": "q3", "trial": 1}]


def test_rubric_freeze_thresholds(capsys, fake_loader, tmp_path):
    _, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Efficiency-Adjusted",
                    "--max-tokens", "4096", "--output", "json")
    first = json.loads(out)
    # hand: sorted tokens 80 85 90 110 120 ...; 33rd pct index 0.33 * 11 = 3.63 -> 110 + 0.63 * 10
    assert first["thresholds"]["len_p33"] == pytest.approx(116.3 / 4096)
    saved = tmp_path / "run1.json"
    saved.write_text(out)
    frozen_values = {**first["thresholds"], "len_p33": 0.5}
    (tmp_path / "flat.json").write_text(json.dumps(frozen_values))
    _, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Efficiency-Adjusted", "--max-tokens", "4096",
                    "--freeze-thresholds", str(tmp_path / "flat.json"), "--output", "json")
    again = json.loads(out)
    assert again["thresholds"]["len_p33"] == 0.5
    assert {d["kind"] for d in again["threshold_details"]} == {"frozen"}
    _, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Efficiency-Adjusted", "--max-tokens", "4096",
                    "--freeze-thresholds", str(saved), "--output", "json")
    assert json.loads(out)["counts"] == first["counts"]
    (tmp_path / "null.json").write_text(json.dumps({"thresholds": {"len_p33": None}}))
    _, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Efficiency-Adjusted", "--max-tokens", "4096",
                    "--freeze-thresholds", str(tmp_path / "null.json"), "--output", "json")
    undefined = json.loads(out)
    assert undefined["thresholds"]["len_p33"] is None  # frozen as undefined (NaN -> null)
    assert undefined["unmatched"]["count"] > first["unmatched"]["count"]


def test_rubric_table_output(capsys, fake_loader):
    status, out, _ = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Binary correctness")
    assert status == 0
    assert "schema: Binary correctness" in out and "(unmatched)" in out and "alpha" in out


@pytest.mark.parametrize("argv, message", [
    (["--schema", "Formt Aware"], "error: unknown schema 'Formt Aware'. Did you mean 'Format Aware'"),
    (["--schema", "missing.json"], "error: missing.json: cannot read rubric file"),
    (["--schema", "Efficiency-Adjusted", "--max-tokens", "0"], "error: max_tokens must be a positive number"),
    (["--schema", "Binary correctness", "--freeze-thresholds", "nope.json"], "error: nope.json: cannot read threshold file"),
])
def test_rubric_errors_exit_2(capsys, fake_loader, argv, message):
    status, out, err = run(capsys, "rubric", str(ATTEMPTS), *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and len(err.strip().splitlines()) == 1


def test_rubric_bad_freeze_file(capsys, fake_loader, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tau_high": "high"}')
    status, _, err = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Binary correctness",
                         "--freeze-thresholds", str(bad))
    assert status == 2 and "threshold 'tau_high' must be a number" in err


def test_rubric_unknown_task_and_count_data(capsys, monkeypatch, fake_loader):
    status, _, err = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Binary correctness", "--task", "nope")
    assert status == 2 and "no attempts for task 'nope'; tasks in the data: demo" in err
    monkeypatch.setattr("scorio_core.cli.rubric.load_dataset",
                        lambda args, require_ready=True: types.SimpleNamespace(
                            attempts=None, counts=pd.DataFrame(),
                            report=types.SimpleNamespace(n_duplicate_keys=0, blocking=())))
    status, _, err = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Binary correctness")
    assert status == 2 and "needs per-attempt data" in err


def test_rubric_with_real_loader(capsys):
    status, out, err = run(capsys, "rubric", str(ATTEMPTS), "--schema", "Binary correctness", "--output", "json")
    assert status == 0, err
    report = json.loads(out)
    assert sum(map(sum, report["counts"].values())) + report["unmatched"]["count"] == 12


@pytest.mark.parametrize("command", ["rubric", "leaderboard"])
@pytest.mark.parametrize("typo, expected", [
    ('finish_reasn == \\"length\\"', "unknown name 'finish_reasn' in variable 'truncated'"),
    ('finish_reason == \\"length\\" and', "variable 'truncated'"),  # a syntax error, with its position
])
def test_rubric_file_errors_found_on_the_data_name_the_file(capsys, tmp_path, command, typo, expected):
    """An error found only when the rubric meets the data names the rubric file it is in."""
    text = (FIXTURES / "soft_score_rubric.json").read_text()
    bad = tmp_path / "my_rubric.json"
    bad.write_text(text.replace('finish_reason == \\"length\\"', typo))
    assert bad.read_text() != text
    status, out, err = run(capsys, command, str(ATTEMPTS), "--schema", str(bad), "--missing-outcomes", "drop")
    assert status == 2 and out == ""
    assert "my_rubric.json" in err and expected in err, err
    assert len(err.strip().splitlines()) == 1


def test_schema_origin_is_not_part_of_its_identity(tmp_path):
    from scorio_core.rubric import load_schema, schema_from_json

    path = tmp_path / "r.json"
    path.write_text((FIXTURES / "soft_score_rubric.json").read_text())
    from_file = load_schema(path)
    from_text = schema_from_json(path.read_text())
    assert from_file.origin == "r.json" and from_text.origin == ""
    assert from_file == from_text and hash(from_file) == hash(from_text)
