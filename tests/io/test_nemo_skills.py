"""NeMo-Skills outputs: ``<output_dir>/eval-results/<benchmark>/output-rs<seed>.jsonl`` (``ns eval --benchmarks
aime25:4``), line i of every seed's file one question, as ``summarize_results`` and ``ComputeMetrics`` read them.

Found before (2026-12-05): a benchmark folder was refused ("field 'trial' must be a whole number ... got '...'": the
``generation`` text taken for a trial index), and the output folder on its ``metrics.json`` ("no column found for
required field 'question_id'")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

#: Each model's outcomes per question (rows) and seed (columns), by hand.
OUTCOMES = {"qwen3-8b": [[1, 0, 1, 1], [0, 0, 0, 1], [1, 1, 1, 1]],
            "llama-3.1-8b": [[0, 0, 1, 0], [0, 0, 0, 0], [1, 1, 0, 1]]}


def line(q, ok, *, judgement=None, ident=False, **extra):
    rec = {"problem": f"Problem {q}", "expected_answer": "70", "generation": "... \\boxed{70}",
           "predicted_answer": "70" if ok else "12", "is_correct": bool(ok), "num_generated_tokens": 1000 + q, **extra}
    if ident:
        rec = {"id": f"aime25-{q}", **rec}
    if judgement is not None:
        rec["judgement"] = judgement
    return rec


def write_bench(folder, rows, lines=line, name="output-rs{seed}.jsonl", **kw):
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(len(rows[0])):
        text = "".join(json.dumps(lines(q, r[seed], **kw)) + "\n" for q, r in enumerate(rows))
        (folder / name.format(seed=seed)).write_text(text)
    return folder


def write_output_dir(base, outcomes=OUTCOMES):
    for model, rows in outcomes.items():
        results = base / model / "eval-results"
        write_bench(results / "aime25", rows)
        (results / "metrics.json").write_text(json.dumps({"aime25": {"pass@1[avg-of-4]": {"symbolic_correct": 50.0}}}))
        (base / model / "eval-logs").mkdir(parents=True)
        (base / model / "eval-logs" / "eval-aime25.log").write_text("log\n")
        (results / "aime25" / "output-rs0.jsonl.done").write_text("")
        write_bench(base / model / "tmp-eval-results" / "aime25", [[0]])  # before the judge: not read
    return base


def test_an_output_folder_is_one_trial_per_seed(tmp_path):
    ds = io.load([str(write_output_dir(tmp_path))])
    assert {s.format for s in ds.sources} == {"nemo-skills"}
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str}).sort_values(["model", "question_id", "trial"])
    assert set(t["task"]) == {"aime25"}
    for model, rows in OUTCOMES.items():
        got = t[t.model == model]
        assert got["question_id"].tolist() == [str(q) for q in range(3) for _ in range(4)]  # line positions
        assert got["trial"].tolist() == [0, 1, 2, 3] * 3
        assert got["is_correct"].tolist() == [float(v) for r in rows for v in r]
        assert got["completion_tokens"].tolist() == [1000 + q for q in range(3) for _ in range(4)]
    counts = ds.to_counts().astype({"model": str}).groupby("model")["n_correct"].sum()
    assert counts.to_dict() == {"qwen3-8b": 8, "llama-3.1-8b": 4}  # by hand
    assert any("4 other files not read (2 metrics.json (the summary), 2 in tmp-eval-results/" in n
               for n in ds.report.notes)


def test_the_cli_by_hand(tmp_path, capsys):
    write_output_dir(tmp_path, {"qwen3-8b": OUTCOMES["qwen3-8b"]})
    assert main(["leaderboard", str(tmp_path / "qwen3-8b"), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, uniform prior: per question (c + 1) / (N + 2) = 4/6, 2/6, 5/6 -> mean 11/18; avg@4 = 8/12
    assert [(r["model"], r["task"]) for r in rows] == [("qwen3-8b", "aime25")]
    assert rows[0]["mu"] == pytest.approx(11 / 18) and rows[0]["avg"] == pytest.approx(8 / 12)


def test_the_judge_is_the_default_score_and_the_others_can_be_picked(tmp_path):
    verdicts = {1: "Judgement: Yes", 0: "Reasoning: close.\nJudgement: No"}

    def judged(q, ok, **kw):  # the judge disagrees with the symbolic checker on question 1; no verdict on question 2
        text = "I cannot tell." if q == 2 else verdicts[1 - ok if q == 1 else ok]
        return line(q, ok, judgement=text)

    bench = write_bench(tmp_path / "m" / "eval-results" / "hle", [[1, 1], [1, 0], [0, 1]], lines=judged)
    ds = io.load([str(bench)])
    got = ds.attempts.sort_values(["question_id", "trial"])["is_correct"].tolist()
    assert got == [1.0, 1.0, 0.0, 1.0, 0.0, 0.0]  # q1 inverted by the judge, q2 no verdict -> 0 as NeMo-Skills counts
    notes = " ".join(ds.report.notes + ds.report.defaults)
    assert "2 judgements without a 'Judgement: Yes/No' verdict counted 0" in notes
    assert "outcome judge_correct (also present: symbolic_correct" in notes
    missing = io.load([str(bench)], errors_as_missing=True).attempts.sort_values(["question_id", "trial"])
    assert missing["is_correct"].isna().tolist() == [False] * 4 + [True] * 2
    symbolic = io.load([str(bench)], mapping={"is_correct": "symbolic_correct"}).attempts.sort_values(
        ["question_id", "trial"])
    assert symbolic["is_correct"].tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 1.0]
    both = io.load([str(bench)], mapping={"is_correct": "both_correct"}, errors_as_missing=True).attempts.sort_values(
        ["question_id", "trial"])
    assert [str(v) for v in both["is_correct"]] == ["1.0", "1.0", "0.0", "0.0", "nan", "nan"]


def test_code_benchmarks_and_ids(tmp_path):
    def code(q, ok, **kw):
        return {"task_id": f"HumanEval/{q}", "question": "def f(): ...", "generation": "...", "is_correct": bool(ok),
                "is_correct-plus": bool(ok) and q != 0, "num_generated_tokens": 10}

    bench = write_bench(tmp_path / "out" / "human-eval", [[1, 1], [0, 1]], lines=code)
    ds = io.load([str(bench)])
    t = ds.attempts.astype({"question_id": str, "model": str}).sort_values(["question_id", "trial"])
    assert t["question_id"].tolist() == ["HumanEval/0"] * 2 + ["HumanEval/1"] * 2 and set(t["model"]) == {"out"}
    assert t["is_correct"].tolist() == [1.0, 1.0, 0.0, 1.0]
    assert any("outcome passing_base_tests (also present: passing_plus_tests" in d for d in ds.report.defaults)
    plus = io.load([str(bench)], mapping={"is_correct": "passing_plus_tests"}).attempts.sort_values(
        ["question_id", "trial"])
    assert plus["is_correct"].tolist() == [0.0, 0.0, 0.0, 1.0]


def test_a_greedy_run_and_a_mix_of_greedy_and_sampled(tmp_path):
    bench = write_bench(tmp_path / "m" / "eval-results" / "gsm8k", [[1], [0], [1]], name="output.jsonl")
    ds = io.load([str(tmp_path / "m")])
    assert ds.attempts["trial"].tolist() == [0, 0, 0] and ds.attempts["is_correct"].sum() == 2
    write_bench(bench, [[1, 0], [0, 0], [1, 1]])
    with pytest.raises(InputError, match="both a greedy output.jsonl and sampled output-rs"):
        io.load([str(bench)])


def test_chunk_files_beside_merged_outputs_and_alone(tmp_path):
    bench = write_bench(tmp_path / "m" / "eval-results" / "aime25", [[1, 0]])
    write_bench(bench, [[1]], name="output-rs0_chunk_0.jsonl")
    ds = io.load([str(tmp_path / "m")])
    assert len(ds.attempts) == 2 and any("1 other file not read (1 *_chunk_*" in n for n in ds.report.notes)
    running = write_bench(tmp_path / "r" / "eval-results" / "aime25", [[1]], name="output-rs0_chunk_{seed}.jsonl")
    with pytest.raises(InputError, match="a chunk of a NeMo-Skills run"):
        io.load([str(running)])


def test_misaligned_seeds_are_refused_naming_the_line(tmp_path):
    bench = write_bench(tmp_path / "m" / "eval-results" / "aime25", OUTCOMES["qwen3-8b"])
    lines = (bench / "output-rs2.jsonl").read_text().splitlines()
    (bench / "output-rs2.jsonl").write_text("\n".join([lines[1], lines[0], lines[2]]) + "\n")
    with pytest.raises(InputError, match="line 1 holds another question") as err:
        io.load([str(bench)])
    assert "output-rs2.jsonl" in str(err.value)


def test_a_score_out_of_range_names_the_line(tmp_path):
    bench = write_bench(tmp_path / "m" / "eval-results" / "mt", [[1, 1]], lines=lambda q, ok, **kw: {
        **line(q, ok), "is_correct": 7})
    with pytest.raises(InputError, match="'symbolic_correct' is 7, not true/false") as err:
        io.load([str(bench)])
    assert "output-rs0.jsonl" in str(err.value) and "line 1" in str(err.value)


def test_detection_and_uploads(tmp_path):
    raw = (json.dumps(line(0, 1)) + "\n").encode()
    assert io.detect_format(("output-rs3.jsonl", raw)) == "nemo-skills"
    assert io.detect_format(("samples.jsonl", raw)) != "nemo-skills"
    with pytest.raises(InputError, match="uploaded NeMo-Skills output file names no model"):
        io.load([("output-rs3.jsonl", raw)])


def test_an_uploaded_folder_is_stored_as_rows(tmp_path):
    from scorio_core.io import roots

    base = write_output_dir(tmp_path)
    files = [(p.relative_to(base).as_posix(), p.read_bytes()) for p in sorted(base.rglob("*")) if p.is_file()]
    with roots.uploaded_folder(files) as (data_root, pattern):
        dataset, _, stored = roots.load_matches(roots.resolve_in_root(data_root, pattern))
    assert sorted(dataset.attempts["model"].astype(str).unique()) == ["llama-3.1-8b", "qwen3-8b"]
    assert len(stored) == 1 and stored[0][0].endswith(".attempts.parquet")
    assert np.isclose(dataset.attempts["is_correct"].mean(), 12 / 24)


def test_the_sql_engines_refuse_tools_json_lines(tmp_path, capsys):
    """Found 2026-12-05: under --engine duckdb, lm-eval samples were read as a plain table and ranked a model named
    after the file; a tool's own JSON Lines are now refused by the SQL engines with what reads them."""
    bench = write_bench(tmp_path / "m" / "eval-results" / "aime25", [[1, 0]])
    lm_eval = tmp_path / "samples_gsm8k_2025-01-01T00-00-00.jsonl"
    lm_eval.write_text(json.dumps({"doc_id": 0, "doc": {"question": "q"}, "target": "1", "resps": [["1"]],
                                   "filtered_resps": ["1"], "exact_match": 1.0}) + "\n")
    for path, kind in ((bench / "output-rs0.jsonl", "nemo-skills"), (lm_eval, "lm-eval-samples")):
        assert main(["leaderboard", str(path), "--engine", "duckdb", "--output", "json"]) == 2
        error = json.loads(capsys.readouterr().out)["error"]
        assert f"a {kind} file (an evaluation tool's own JSON Lines)" in error and "--engine pandas" in error
    # --format jsonl: the user says it is a plain table (the SQL engine then reads its columns as they are)
    assert main(["leaderboard", str(lm_eval), "--engine", "duckdb", "--format", "jsonl", "--map",
                 "question_id=doc_id", "--map", "is_correct=exact_match", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"][0]["avg"] == 1.0
