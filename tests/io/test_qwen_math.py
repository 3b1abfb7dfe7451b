"""Qwen2.5-Math evaluation outputs (QwenLM/Qwen2.5-Math ``evaluation/math_eval.py``, ZubinGou/math-evaluation-harness):
``<model>/math_eval/<data_name>/<split>_<prompt_type>_<n>_seed<S>_t<T>_s<start>_e<end>.jsonl`` with a
``_<prompt_type>_metrics.json`` summary beside each.

Found before (2026-12-05): refused ("field 'question_id' is ambiguous: candidates 'question', 'idx'"); with
``--map question_id=idx`` each file named its model and its task after the file stem, and two seeds' files of one
model collided as duplicates."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

MODELS = ("Qwen2.5-Math-7B", "DeepSeek-R1-Distill-Qwen-7B")


def passed(model, q, i, seed=0) -> bool:  # sample i of problem q
    return (q + i + seed + len(model)) % 3 == 0


def stem(seed=0, temp="0.6", start=0, end=-1, prompt="qwen25-math-cot"):
    return f"test_{prompt}_-1_seed{seed}_t{temp}_s{start}_e{end}"


def write(base, model, data, n=4, problems=range(5), summary=True, **setting):
    folder = base / model / "math_eval" / data
    folder.mkdir(parents=True, exist_ok=True)
    name = stem(**setting)
    seed = setting.get("seed", 0)
    with open(folder / f"{name}.jsonl", "w") as fh:
        for q in problems:
            fh.write(json.dumps({"idx": q, "question": f"Problem {q}", "gt_cot": "...", "gt": "2", "level": "Level 1",
                                 "code": ["..."] * n, "pred": ["2"] * n, "report": [None] * n,
                                 "score": [passed(model, q, i, seed) for i in range(n)]}) + "\n")
    if summary:
        (folder / f"{name}_qwen25-math-cot_metrics.json").write_text(json.dumps(
            {"num_samples": 5, "num_scores": 5 * n, "timeout_samples": 0, "empty_samples": 0, "acc": 40.0,
             "time_use_in_second": 12.3, "time_use_in_minite": "0:12"}, indent=4))
    return folder / f"{name}.jsonl"


def write_output(base):
    for model in MODELS:
        for data in ("aime24", "math500"):
            write(base, model, data)
    return base


def counts(ds):
    return ds.to_counts().astype({"model": str, "task": str, "question_id": str}).set_index(
        ["model", "task", "question_id"])


def test_models_folders_and_data_folders(tmp_path):
    ds = io.load([str(write_output(tmp_path))])
    assert {s.format for s in ds.sources} == {"qwen-math"} and ds.report.models == tuple(sorted(MODELS))
    c = counts(ds)
    assert len(c) == 2 * 2 * 5 and set(c["n_trials"]) == {4}
    # by hand: Qwen2.5-Math-7B (15 characters) passes sample i of problem q where (q + i) % 3 == 0: problem 1 -> i = 2
    assert c.loc[("Qwen2.5-Math-7B", "aime24", "1"), "n_correct"] == 1
    assert c.loc[("Qwen2.5-Math-7B", "aime24", "0"), "n_correct"] == 2  # i = 0, 3
    for model in MODELS:
        for q in range(5):
            assert c.loc[(model, "math500", str(q)), "n_correct"] == sum(passed(model, q, i) for i in range(4))
    assert dict(ds.sources[0].mapping)["question_id"] == "idx"
    assert any("summary beside the output files in aime24/ not read" in n for n in ds.report.notes)


def test_seeds_add_trials_and_chunks_share_them(tmp_path):
    model = MODELS[0]
    write(tmp_path, model, "aime24", seed=0)
    write(tmp_path, model, "aime24", seed=1, problems=range(3), start=0, end=3)  # seed 1 in two chunks
    write(tmp_path, model, "aime24", seed=1, problems=range(3, 5), start=3, end=-1)
    t = io.load([str(tmp_path)]).attempts.astype({"question_id": str})
    assert sorted(t["trial"].unique()) == list(range(8))
    # by hand: problem 2 passes seed 0's sample 1 ((2 + 1) % 3 == 0) and seed 1's samples 0, 3 (trials 4 and 7)
    got = t[t.question_id == "2"].sort_values("trial")
    assert got.loc[got.is_correct == 1, "trial"].tolist() == [1, 4, 7]


def test_settings_are_models_of_their_own_on_every_data_folder(tmp_path):
    model = MODELS[0]
    write(tmp_path, model, "aime24")
    write(tmp_path, model, "aime24", n=1, temp="0.0")
    write(tmp_path, model, "math500")  # one setting here, two in aime24/ beside it
    ds = io.load([str(tmp_path / model / "math_eval" / "math500")])  # the names do not depend on what is loaded
    assert ds.report.models == (f"{model} (t0.6)",)
    ds = io.load([str(tmp_path)])
    assert set(counts(ds).index.droplevel(2)) == {(f"{model} (t0.0)", "aime24"), (f"{model} (t0.6)", "aime24"),
                                                  (f"{model} (t0.6)", "math500")}
    assert any("hold 2 settings" in n and "each read as a model of its own" in n for n in ds.report.notes)


def test_an_output_folder_of_its_own_names_the_model(tmp_path):
    folder = tmp_path / "outputs" / "my-run" / "gsm8k"
    folder.mkdir(parents=True)
    (folder / f"{stem()}.jsonl").write_text(json.dumps({"idx": 7, "gt": "1", "pred": ["1", "2"], "score": [True, None]}))
    ds = io.load([str(folder / f"{stem()}.jsonl")])
    assert ds.report.models == ("my-run",) and ds.report.n_missing_outcomes == 1  # a null element: missing


def test_a_summary_without_outputs_is_left_out_beside_others(tmp_path):
    write(tmp_path, MODELS[0], "aime24")
    unsaved = write(tmp_path, MODELS[0], "math500")  # math_eval.py without --save_outputs: the summary alone
    unsaved.unlink()
    ds = io.load([str(tmp_path)])
    assert set(ds.attempts["task"].astype(str)) == {"aime24"}
    assert any("1 *_metrics.json summary without output files beside not read" in n for n in ds.report.notes)


def test_refusals_name_the_file_and_line(tmp_path):
    path = write(tmp_path, MODELS[0], "aime24", summary=True)
    summary = next(path.parent.glob("*_metrics.json"))
    with pytest.raises(InputError, match="Qwen2.5-Math evaluation summary") as err:
        io.load([str(summary)])
    assert summary.name in str(err.value)
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\n" + json.dumps({**json.loads(lines[1]), "score": None}) + "\n")
    with pytest.raises(InputError, match="no 'score' on this line") as err:
        io.load([str(path.parent)])
    assert "line 2" in str(err.value) and path.name in str(err.value)
    path.write_text(json.dumps({**json.loads(lines[0]), "score": [1, 0]}) + "\n")
    with pytest.raises(InputError, match="an element of 'score' is 1, not true/false"):
        io.load([str(path.parent)])
    raw = (lines[0] + "\n").encode()
    assert io.detect_format((path.name, raw)) == "qwen-math" and io.detect_format(("samples.jsonl", raw)) != "qwen-math"
    with pytest.raises(InputError, match="uploaded Qwen2.5-Math output file names no model"):
        io.load([(path.name, raw)])


def test_an_uploaded_folder_is_stored_as_rows(tmp_path):
    from scorio_core.io import roots

    base = write_output(tmp_path)
    files = [(p.relative_to(base).as_posix(), p.read_bytes()) for p in sorted(base.rglob("*")) if p.is_file()]
    with roots.uploaded_folder(files) as (data_root, pattern):
        dataset, _, stored = roots.load_matches(roots.resolve_in_root(data_root, pattern))
    assert sorted(dataset.attempts["model"].astype(str).unique()) == sorted(MODELS)
    assert len(stored) == 1 and stored[0][0].endswith(".attempts.parquet")
    expected = np.mean([passed(m, q, i) for m in MODELS for _ in range(2) for q in range(5) for i in range(4)])
    assert np.isclose(dataset.attempts["is_correct"].mean(), expected)


def test_the_cli_by_hand(tmp_path, capsys):
    write(tmp_path, MODELS[0], "aime24")
    assert main(["leaderboard", str(tmp_path), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, uniform prior: problems 0..4 pass 2, 1, 1, 2, 1 of 4 -> (c + 1) / 6 = 3/6, 2/6, 2/6, 3/6, 2/6 -> 12/30
    assert [(r["model"], r["task"]) for r in rows] == [(MODELS[0], "aime24")]
    assert rows[0]["mu"] == pytest.approx(12 / 30) and rows[0]["avg"] == pytest.approx(7 / 20)
