"""FastChat llm_judge single-answer judgments (MT-Bench: ``data/mt_bench/model_judgment/gpt-4_single.jsonl``).

Found before (2026-12-05): the file was refused on its 1-10 ratings, and with ``--outcome-scale 10
--binarize-threshold 0.7`` each question's two turns were read as two trials of one question (N = 2, 20 questions
instead of 40 single attempts), the task named after the judge's file."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError


def rating(model, q, turn):  # by hand below
    return {"vicuna-13b": [6, 4], "llama-13b": [3, 2]}[model][turn - 1] + (q % 2)


def write_judgments(base, judge="gpt-4", models=("vicuna-13b", "llama-13b"), score=rating, turns=(1, 2)):
    folder = base / "data" / "mt_bench" / "model_judgment"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [{"question_id": 81 + q, "model": m, "judge": [judge, "single-v1" + ("-multi-turn" if t == 2 else "")],
              "user_prompt": "...", "judgment": "Rating: [[x]]", "score": score(m, q, t), "turn": t, "tstamp": 1.7e9}
             for m in models for q in range(4) for t in turns]
    path = folder / f"{judge}_single.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_each_turn_is_a_question_and_the_rating_a_category(tmp_path, capsys):
    path = write_judgments(tmp_path)
    ds = io.load([str(path)])
    assert ds.sources[0].format == "fastchat-judge" and ds.report.tasks == ("mt_bench/gpt-4",)
    t = ds.attempts.astype({"model": str, "question_id": str})
    assert sorted(t["question_id"].unique()) == sorted(f"{81 + q}/turn{k}" for q in range(4) for k in (1, 2))
    assert (t["trial"] == 0).all() and len(t) == 16
    got = t.set_index(["model", "question_id"])["category"]
    assert got[("vicuna-13b", "82/turn2")] == 5 and got[("llama-13b", "81/turn1")] == 3
    assert main(["leaderboard", str(path), "--prior", "uniform", "--output", "json"]) == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    # by hand: vicuna 6,7,6,7 (turn 1) and 4,5,4,5 (turn 2): mean 5.5; llama 3,4,3,4 and 2,3,2,3: mean 3. No rating
    # of 10 here, and still the default rubric weighs code / 10, FastChat's scale (before 2026-12-05: code / 7, the
    # highest found, with a note)
    assert rows["vicuna-13b"]["avg"] == pytest.approx(5.5 / 10) and rows["llama-13b"]["avg"] == pytest.approx(3.0 / 10)
    assert not any("no rating of 10 here" in n for n in ds.report.notes)
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    note = next(n["message"] for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "default_schema")
    assert "on FastChat's ratings 1-10, weights code / 10 (2 -> 0.2," in note


def test_a_missing_rating_and_two_judges(tmp_path):
    write_judgments(tmp_path, score=lambda m, q, t: -1 if (m, q, t) == ("llama-13b", 0, 1) else 10 - q)
    write_judgments(tmp_path, judge="gpt-4-turbo", score=lambda m, q, t: 9)
    ds = io.load([str(tmp_path / "data")])
    assert ds.report.tasks == ("mt_bench/gpt-4", "mt_bench/gpt-4-turbo")  # two judges: two tasks, not duplicates
    assert len(ds.attempts) == 2 * 16 - 1  # the judgment rated -1 is left out, said
    assert any("1 judgment without a rating (score -1: the judge's output had none) left out" in n
               for n in ds.report.notes)


def test_single_turn_questions_keep_their_ids_and_an_upload_names_its_judge(tmp_path):
    path = write_judgments(tmp_path, turns=(1,))
    ds = io.load([str(path)])
    assert sorted(ds.attempts["question_id"].astype(str).unique()) == ["81", "82", "83", "84"]
    assert io.load([(path.name, path.read_bytes())]).report.tasks == ("llm_judge/gpt-4",)


def test_judgments_of_every_pair_and_bad_ratings_are_refused(tmp_path):
    # pairwise-baseline judgments are read (tests/io/test_judged_pairs.py); pairwise-all ones have no baseline
    pair = tmp_path / "gpt-4_pair.jsonl"
    pair.write_text("".join(json.dumps({"question_id": 81, "model_1": a, "model_2": b, "g1_winner": "model_1",
                                        "g2_winner": "model_1", "judge": ["gpt-4", "pair-v2"], "turn": 1}) + "\n"
                            for a, b in (("a", "b"), ("c", "d"))))
    assert io.detect_format(str(pair)) == "fastchat-pair"
    with pytest.raises(InputError, match="no baseline common to every line"):
        io.load([str(pair)])
    bad = write_judgments(tmp_path, score=lambda m, q, t: 11 if q == 2 else 5)
    with pytest.raises(InputError, match="the rating is 11: FastChat rates 1-10") as err:
        io.load([str(bad)])
    assert "line 5" in str(err.value)
