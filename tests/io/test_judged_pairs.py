"""Judgments against a baseline: Arena-Hard-Auto (``model_judgment/<judge>/<model>.jsonl``) and AlpacaEval
(``results/<model>/<annotator>/annotations.json``).

Found before (2026-12-05): AlpacaEval's annotations refused ("no column found for required field 'is_correct'" with
'preference' a graded score), Arena-Hard's judgments refused (no outcome column: the verdicts sit in ``games``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.io.formats.benchmarks.alpaca_eval import preference_codes
from scorio_core.io.formats.benchmarks.arena_hard import verdict_codes

ALPACA = Path(__file__).parents[1] / "fixtures" / "formats" / "alpaca_eval" / "results"
QWEN = ALPACA / "FuseChat-Qwen-2.5-7B-Instruct" / "weighted_alpaca_eval_gpt4_turbo" / "annotations.json.gz"


def judgment(uid, model, verdicts, category="hard_prompt", baseline="o3-mini-2025-01-31", judge="gpt-4.1"):
    """gen_judgment.py's record: game 1 the baseline's answer as A, game 2 the model's as A."""
    return {"uid": uid, "category": category, "judge": judge, "model": model, "baseline": baseline,
            "games": [{"score": v, "judgment": {"answer": f"[[{v}]]"}, "prompt": []} for v in verdicts]}


def write_bench(root, records_by_model, judge="gpt-4.1"):
    folder = root / "data" / "arena-hard-v2.0" / "model_judgment" / judge
    folder.mkdir(parents=True, exist_ok=True)
    for model, records in records_by_model.items():
        (folder / f"{model}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root / "data" / "arena-hard-v2.0"


def test_verdict_codes_from_the_models_side():
    # game 1 (model is B): "A>>B" the baseline much better -> 0; game 2 (model is A): "A>>B" the model -> 4
    labels = ["A>>B", "A>B", "A=B", "B>A", "B>>A", "A>>B", "B>A", "B<<A", "A<B", "B=A"]
    first = [False] * 5 + [True, True, True, False, True]
    assert verdict_codes(labels, first).tolist() == [0, 1, 2, 3, 4, 4, 1, 4, 3, 2]
    assert np.isnan(verdict_codes(["A>A", None, "[[A>B]]"], [False] * 3)).all()


def test_an_arena_hard_bench_folder(tmp_path):
    # qwq: q1 games "B>A" (won as B: 3), "A>B" (won as A: 3); q2 "A>>B" (lost much as B: 0), "A=B" (tie: 2);
    # q3 "B>>A" (4), None (no verdict: no attempt)
    bench = write_bench(tmp_path, {"qwq-32b": [judgment("q1", "qwq-32b", ["B>A", "A>B"]),
                                               judgment("q2", "qwq-32b", ["A>>B", "A=B"]),
                                               judgment("q3", "qwq-32b", ["B>>A", None])],
                                   "deepseek-r1": [judgment("q1", "deepseek-r1", ["A>B", "B>A"]),
                                                   judgment("q2", "deepseek-r1", ["B=A", "B<A"]),
                                                   judgment("q3", "deepseek-r1", ["B>>A", "A>>B"])]})
    (bench / "model_answer").mkdir()
    (bench / "model_answer" / "qwq-32b.jsonl").write_text(json.dumps({"uid": "q1", "model": "qwq-32b", "messages": []}))
    (bench / "question.jsonl").write_text(json.dumps({"uid": "q1", "category": "hard_prompt", "prompt": "Hi"}) + "\n")
    ds = io.load([str(bench)])
    assert {s.format for s in ds.sources} == {"arena-hard"} and set(ds.report.models) == {"qwq-32b", "deepseek-r1"}
    a = ds.attempts.astype({"model": str, "question_id": str, "task": str})
    assert set(a["task"]) == {"hard_prompt/gpt-4.1"}
    codes = a.set_index(["model", "question_id", "trial"])["category"].astype(int).to_dict()
    assert codes == {("qwq-32b", "q1", 0): 3, ("qwq-32b", "q1", 1): 3, ("qwq-32b", "q2", 0): 0, ("qwq-32b", "q2", 1): 2,
                     ("qwq-32b", "q3", 0): 4,
                     ("deepseek-r1", "q1", 0): 1, ("deepseek-r1", "q1", 1): 1, ("deepseek-r1", "q2", 0): 2,
                     ("deepseek-r1", "q2", 1): 3, ("deepseek-r1", "q3", 0): 4, ("deepseek-r1", "q3", 1): 4}
    notes = " ".join(ds.report.notes)
    assert "2 files of questions and model answers beside the judgments not read" in notes
    assert "qwq-32b.jsonl: 1 game without a verdict (null or unreadable score) has no attempt" in notes
    # show_result by hand, qwq: wins 1, 1, tie 0.5, decisive loss 0 (x3), decisive win 1 (x3): (1+1+0.5+3)/(1+1+1+3+3)
    assert f"qwq-32b on hard_prompt/gpt-4.1: {100 * 5.5 / 9:.1f}% (win rate with ties half {100 * 3.5 / 5:.1f}%)" in \
        " ".join(ds.report.defaults)  # the tool's own numbers: in the loading report, not among the caveats
    assert "o3-mini-2025-01-31" in " ".join(ds.report.defaults)


def test_the_leaderboard_estimates_the_mean_verdict_code_over_four(tmp_path, capsys):
    bench = write_bench(tmp_path, {"m": [judgment(f"q{i}", "m", ["B>A", "A=B"]) for i in range(3)]})
    assert main(["leaderboard", str(bench), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["rows"][0]
    assert row["model"] == "m" and row["avg"] == pytest.approx((0.75 + 0.5) / 2)  # codes 3 and 2, weights code / 4
    assert any(n["code"] == "default_schema" for n in out["notes"])


def test_arena_hard_v01_records_and_two_baselines(tmp_path):
    v01 = tmp_path / "gpt-3.5-turbo-0125.jsonl"
    v01.write_text(json.dumps({"question_id": "abc", "model": "gpt-3.5-turbo-0125", "judge": "gpt-4-1106-preview",
                               "games": [{"user_prompt": "...", "judgment": "...", "score": "A>B"},
                                         {"user_prompt": "...", "judgment": "...", "score": "A>B"}]}) + "\n")
    ds = io.load([str(v01)])
    a = ds.attempts
    assert set(a["task"].astype(str)) == {"arena-hard/gpt-4-1106-preview"} and a["category"].tolist() == [1, 3]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps(judgment("q1", "m", ["A>B", "B>A"])) + "\n"
                     + json.dumps(judgment("q2", "m", ["A>B", "B>A"], baseline="gpt-4-0314")) + "\n")
    with pytest.raises(InputError, match="judged against two baselines") as err:
        io.load([str(mixed)])
    assert "line 2" in str(err.value)
    empty = tmp_path / "none.jsonl"
    empty.write_text(json.dumps(judgment("q1", "m", [None, "A>>>B"])) + "\n")
    with pytest.raises(InputError, match="no game has a verdict"):
        io.load([str(empty)])


def test_a_long_first_judgment_is_still_detected(tmp_path):
    rec = judgment("q1", "m", ["B>A", "A>B"])
    rec["games"][0]["judgment"]["answer"] = "x" * 200_000  # the judge's full reasoning
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps(judgment("q2", "m", ["A=B", "A=B"])) + "\n")
    assert {s.format for s in io.load([str(path)]).sources} == {"arena-hard"}


def test_preference_codes_round_as_discrete_win_rate():
    assert preference_codes([1, 2, 1.5, 0, 1.2, 1.8, 2.01, 0.99, None]).tolist()[:6] == [0, 2, 1, 1, 0, 2]
    assert np.isnan(preference_codes([2.01, 0.99, None])).all()


def test_the_genuine_alpaca_eval_excerpt():
    ds = io.load([str(ALPACA)])
    assert {s.format for s in ds.sources} == {"alpaca-eval"}
    assert set(ds.report.models) == {"FuseChat-Qwen-2.5-7B-Instruct", "FuseChat-Llama-3.2-1B-Instruct"}
    a = ds.attempts.astype({"model": str, "task": str, "question_id": str})
    assert set(a["task"]) == {"weighted_alpaca_eval_gpt4_turbo"} and set(a["trial"]) == {0} and len(a) == 60
    # the same 30 instructions in both files share their ids; the instruction is kept for the drill-down
    ids = a.groupby("model")["question_id"].apply(frozenset)
    assert ids.nunique() == 1 and all(q.startswith("helpful_base/") for q in ids.iloc[0])
    assert a["input"].str.len().gt(0).all()
    # preferences of the excerpt (the first 30 records of each published file): Qwen 13 above 1.5, 17 below
    doc = json.loads(gzip.decompress(QWEN.read_bytes()))
    qwen = a[a["model"] == "FuseChat-Qwen-2.5-7B-Instruct"]
    assert (qwen["category"] == 2).sum() == 13 == sum(r["preference"] > 1.5 for r in doc)
    mean = sum(r["preference"] - 1 for r in doc) / 30
    assert f"FuseChat-Qwen-2.5-7B-Instruct: win_rate {100 * mean:.2f}%, discrete_win_rate {100 * 13 / 30:.2f}%" in \
        " ".join(ds.report.defaults)


def test_alpaca_eval_leaderboard_is_the_discrete_win_rate(capsys):
    assert main(["leaderboard", str(ALPACA), "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows["FuseChat-Qwen-2.5-7B-Instruct"]["avg"] == pytest.approx(13 / 30)
    assert rows["FuseChat-Llama-3.2-1B-Instruct"]["avg"] == pytest.approx(4 / 30)


def test_alpaca_eval_side_files_and_refusals(tmp_path):
    run = tmp_path / "results" / "m" / "weighted_alpaca_eval_gpt4_turbo"
    run.mkdir(parents=True)
    recs = [{"instruction": f"Say {i}", "dataset": "koala", "output_1": "a", "generator_1": "gpt4_1106_preview",
             "output_2": "b", "generator_2": "m", "annotator": "weighted_alpaca_eval_gpt4_turbo",
             "preference": p} for i, p in enumerate([1.9, 1.1, None, 1.5])]
    (run / "annotations.json").write_text(json.dumps(recs))
    (run / "leaderboard.csv").write_text(",win_rate,standard_error\nm,50.0,1.0\n")
    outputs = run.parent / "model_outputs.json"
    outputs.write_text(json.dumps([{"instruction": "Say 0", "output": "b", "generator": "m", "dataset": "koala"}]))
    ds = io.load([str(run.parent)])
    assert ds.attempts["category"].tolist() == [2, 0, 1]
    notes = " ".join(ds.report.notes)
    assert "2 files beside the annotations not read" in notes
    assert "1 instruction without a preference (missing or outside 1-2) has no attempt" in notes
    with pytest.raises(InputError, match="alpaca_eval evaluate"):
        io.load([str(outputs)])
    two = run / "annotations.json"
    two.write_text(json.dumps(recs[:2] + [dict(recs[0], generator_1="gpt-4-turbo", instruction="Other")]))
    with pytest.raises(InputError, match="judged against two baselines"):
        io.load([str(two)])


def test_alpaca_eval_files_are_read_as_one_source_each_named_by_its_path(tmp_path):
    """A results folder's annotation files (all named annotations.json) are one source: one table to validate (100
    models' files read in 1.16 s against the 0.96 s target before), and a message names the file by its folders."""
    ds = io.load([str(ALPACA)])
    assert [(s.name, s.format, s.rows) for s in ds.sources] == [("results", "alpaca-eval", 60)]
    assert "(2 files) against the baseline gpt4_1106_preview" in " ".join(ds.report.defaults)
    recs = lambda m, prefs: [{"instruction": f"Say {i}", "dataset": "koala", "output_1": "a",  # noqa: E731
                              "generator_1": "gpt4_1106_preview", "output_2": "b", "generator_2": m,
                              "annotator": "weighted_alpaca_eval_gpt4_turbo", "preference": p}
                             for i, p in enumerate(prefs)]
    for m, prefs in (("a", [1.9, 1.1]), ("b", [1.2, None])):
        run = tmp_path / "results" / m / "weighted_alpaca_eval_gpt4_turbo"
        run.mkdir(parents=True)
        (run / "annotations.json").write_text(json.dumps(recs(m, prefs)))
    (tmp_path / "results" / "a" / "model_outputs.json").write_text(
        json.dumps([{"instruction": "Say 0", "output": "b", "generator": "a", "dataset": "koala"}]))
    ds = io.load([str(tmp_path / "results")])
    assert [s.name for s in ds.sources] == ["results"] and ds.attempts["category"].tolist() == [2, 0, 0]
    notes = " ".join(ds.report.notes)
    assert "1 file beside the annotations not read" in notes  # said on a gathered file: kept on the folder
    assert ("1 instruction without a preference (missing or outside 1-2) has no attempt, as AlpacaEval leaves them "
            "out (results/b/weighted_alpaca_eval_gpt4_turbo/annotations.json).") in notes
    copy = tmp_path / "results" / "a2" / "weighted_alpaca_eval_gpt4_turbo"  # a's judgments filed again elsewhere
    copy.mkdir(parents=True)
    (copy / "annotations.json").write_text(json.dumps(recs("a", [1.9, 1.1])))
    ds = io.load([str(tmp_path / "results")])
    assert ds.report.n_duplicate_rows == 2
    assert ("1 (model, annotator) pair is judged in more than one file (their rows repeat a key: see the duplicates "
            "choice): a / weighted_alpaca_eval_gpt4_turbo in results/a/weighted_alpaca_eval_gpt4_turbo/annotations.json"
            " and results/a2/weighted_alpaca_eval_gpt4_turbo/annotations.json.") in " ".join(ds.report.notes)
    bad = tmp_path / "results" / "b" / "weighted_alpaca_eval_gpt4_turbo" / "annotations.json"
    bad.write_text(json.dumps(recs("b", [1.2]) + [dict(recs("b", [1.3])[0], generator_2=None)]))
    with pytest.raises(InputError, match="no 'generator_2' in this record") as err:
        io.load([str(tmp_path / "results")])
    assert "results/b/weighted_alpaca_eval_gpt4_turbo/annotations.json" in str(err.value)
    assert "row 2" in str(err.value)


def test_invalid_utf8_in_a_first_line_key_names_the_line(tmp_path):
    # found by fuzzing the readers above: the line cannot be sniffed, so the plain JSON Lines reader got it, and
    # pyarrow's decoding of the key raised a bare UnicodeDecodeError ("cannot read the file")
    path = tmp_path / "m.jsonl"
    path.write_bytes(b'{"question_id": 1, "model": "m", "judg\xe5": "x", "is_correct": 1}\n')
    with pytest.raises(InputError, match="not UTF-8") as err:
        io.load([str(path)])
    assert "line 1" in str(err.value)


def test_codes_of_two_tools_in_one_load_are_said_to_be_on_different_scales(tmp_path, capsys):
    bench = write_bench(tmp_path, {"m": [judgment("q1", "m", ["B>A", "A=B"])]})
    single = tmp_path / "gpt-4_single.jsonl"
    single.write_text(json.dumps({"question_id": 1, "model": "m", "judge": ["gpt-4", "single-v1"], "score": 7,
                                  "turn": 1}) + "\n")
    assert main(["leaderboard", str(bench), str(single), "--output", "json"]) == 0
    note = next(n["message"] for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "default_schema")
    assert ("MIXED SCALES: this load holds category codes of Arena-Hard's verdicts from the model's side and FastChat's "
            "ratings 1-10, each on its own scale") in note and "weights assumed code / max code (2 -> 0.286" in note


def pair_line(qid, model, g1, g2, turn=1, baseline="gpt-3.5-turbo"):
    """FastChat play_a_match_pair's line (pairwise-baseline: model_1 the model, model_2 the baseline)."""
    return json.dumps({"question_id": qid, "model_1": model, "model_2": baseline, "g1_winner": g1, "g2_winner": g2,
                       "judge": ["gpt-4", "pair-v2"], "g1_user_prompt": "...", "g1_judgment": "[[A]]",
                       "g2_user_prompt": "...", "g2_judgment": "[[B]]", "turn": turn, "tstamp": 1.7e9}) + "\n"


def test_fastchat_pairwise_baseline_judgments(tmp_path, capsys):
    folder = tmp_path / "data" / "mt_bench" / "model_judgment"
    folder.mkdir(parents=True)
    # vicuna: 81 both games won (2), 82 games disagree (tie: 1), 83 tie (1), 84 lost (0), 85 an error (no attempt)
    lines = [pair_line(81, "vicuna-13b", "model_1", "model_1"), pair_line(82, "vicuna-13b", "model_1", "model_2"),
             pair_line(83, "vicuna-13b", "tie", "tie"), pair_line(84, "vicuna-13b", "model_2", "model_2"),
             pair_line(85, "vicuna-13b", "error", "model_1")]
    (folder / "gpt-4_pair.jsonl").write_text("".join(lines))
    ds = io.load([str(folder / "gpt-4_pair.jsonl")])
    assert {s.format for s in ds.sources} == {"fastchat-pair"} and ds.report.models == ("vicuna-13b",)
    a = ds.attempts.astype({"question_id": str})
    assert set(a["task"].astype(str)) == {"mt_bench/gpt-4 vs gpt-3.5-turbo"}
    assert a.set_index("question_id")["category"].astype(int).to_dict() == {"81": 2, "82": 1, "83": 1, "84": 0}
    assert any("1 judgment with an error in a game (no verdict parsed) has no attempt" in n for n in ds.report.notes)
    assert main(["leaderboard", str(folder / "gpt-4_pair.jsonl"), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # show_result's win_rate_adjusted by hand: (1 win + 0.5 x 2 ties) / 4
    assert out["rows"][0]["avg"] == pytest.approx(2 / 4)
    assert "on FastChat's pairwise verdicts, weights code / 2" in next(
        n["message"] for n in out["notes"] if n["code"] == "default_schema")
    # beside the single-answer ratings, the pairwise file is left out (another scale), said
    (folder / "gpt-4_single.jsonl").write_text(json.dumps({"question_id": 81, "model": "vicuna-13b", "judge": [
        "gpt-4", "single-v1"], "score": 7, "turn": 1}) + "\n")
    ds = io.load([str(folder)])
    assert {s.format for s in ds.sources} == {"fastchat-judge"}
    assert any("1 pairwise judgment file beside the single-answer ratings not read" in n for n in ds.report.notes)


def test_the_scale_travels_with_the_attempts(tmp_path):
    # a workspace stores folder-named attempts as a Parquet table: the scale column keeps the default rubric's weights
    from scorio_core import rubric
    from scorio_core.engines.uploads import attempt_table_file

    bench = write_bench(tmp_path, {"m": [judgment("q1", "m", ["B>A", "A=B"])]})
    ds = io.load([str(bench)])
    name, data = attempt_table_file(ds, "m.jsonl")
    stored = tmp_path / name
    stored.write_bytes(data)
    again = io.load([str(stored)])
    assert again.sources[0].format != "arena-hard"
    assert rubric.default_schema_for(again).weights.tolist() == rubric.default_schema_for(ds).weights.tolist() == [
        0.5, 0.75]
    assert rubric.SCALE_COLUMN == io.formats.harness_files.SCALE_LABEL
