"""A corpus of broken inputs: each gives one clear InputError (file, line/row, field, fix)."""

from __future__ import annotations

import gzip
import io as stdio
import json
import pickle
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.errors import InputError

FORMATS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "formats"
GOOD = b"model,question,trial,correct\nm,q1,0,1\nm,q1,1,0\nm,q2,0,1\n"


def _err(sources, **kw) -> InputError:
    with pytest.raises(InputError) as info:
        io.load(sources, **kw)
    return info.value


def test_truncated_json_inspect_log():
    data = (FORMATS / "inspect_ai" / "data_arc_qwen.json").read_bytes()
    e = _err([("log.json", data[: len(data) // 2])])
    assert str(e).startswith("log.json line ") and "the file may be truncated" in str(e)


def test_truncated_jsonl_names_the_last_line():
    e = _err([("r.jsonl", b'{"model":"m","question":"a","correct":1}\n{"model":"m","question":"b","correct":0}\n{"model":"m","quest')])
    assert e.line == 3 and str(e).startswith("r.jsonl line 3: the record is cut off (truncated file?)")


def test_truncated_lm_eval_samples_and_results():
    samples = (FORMATS / "lm_eval_harness" / "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl").read_bytes()
    e = _err([("samples_math_2026-01-21T03-44-18.458309.jsonl", samples[: len(samples) - 500])])
    assert e.line == 10 and "not valid JSON" in str(e)
    results = (FORMATS / "lm_eval_harness" / "results_2026-01-21T03-44-18.458309.json").read_bytes()
    e = _err([("results_2026-01-21T03-44-18.458309.json", results[:2000])])
    assert "results_2026-01-21T03-44-18.458309.json" in str(e) and "truncated" in str(e)


def test_truncated_eval_zip_parquet_gzip_and_verifier():
    ev = (FORMATS / "inspect_ai" / "log_streaming.eval").read_bytes()
    assert "damaged or truncated" in str(_err([("log.eval", ev[: len(ev) // 2])]))
    buf = stdio.BytesIO()
    pd.DataFrame({"model": ["m"] * 100, "question": range(100), "correct": [1] * 100}).to_parquet(buf)
    e = _err([("r.parquet", buf.getvalue()[:-40])])
    assert str(e).startswith("r.parquet: not a readable Parquet file")
    gz = gzip.compress(GOOD * 50)
    assert "gzip stream is damaged or truncated" in str(_err([("r.csv.gz", gz[: len(gz) // 2])]))
    ver = (FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json").read_bytes()
    assert "truncated" in str(_err([("v_compass.json", ver[:-30])]))


def test_latin1_names_the_line():
    data = "model,question,trial,correct\nm,q1,0,1\nm,caf\xe9,0,1\n".encode("latin-1")
    e = _err([("r.csv", data)])
    assert str(e) == "r.csv line 3: the text is not UTF-8 (byte 0xe9); re-save the file as UTF-8 (it looks like Latin-1/Windows-1252)."
    e = _err([("r.jsonl", '{"model": "m", "question": "caf\xe9", "correct": 1}\n'.encode("latin-1"))])
    assert "r.jsonl" in str(e) and "UTF-8" in str(e)


def test_utf16_with_bom_is_transcoded_without_bom_is_refused():
    ds = io.load([("r.csv", GOOD.decode().encode("utf-16"))])  # Python writes a BOM
    assert ds.report.n_rows == 3 and any("transcoded from UTF-16" in n for n in ds.report.notes)
    e = _err([("r.csv", GOOD.decode().encode("utf-16-le"))])
    assert str(e).startswith("r.csv: the file looks like UTF-16 text without a byte-order mark")


def test_binary_garbage_empty_and_header_only():
    garbage = np.random.default_rng(1).integers(0, 256, 4096, dtype=np.uint8).tobytes()
    assert "binary data, not a supported format" in str(_err([("r.csv", garbage)]))
    assert str(_err([("r.csv", b"")])) == "r.csv: the file is empty; export the results again."
    assert str(_err([("r.csv", b"  \n\n")])) == "r.csv: the file is empty; export the results again."
    assert str(_err([("r.csv", b"model,question,trial,correct\n")])) == "r.csv line 1: the file has a header but no data rows."
    assert "no records" in str(_err([("r.jsonl", b"\n\n\n")])) or "empty" in str(_err([("r.jsonl", b"\n\n\n")]))
    buf = stdio.BytesIO()
    pd.DataFrame({"model": pd.Series([], dtype=str), "question": pd.Series([], dtype=str), "correct": pd.Series([], dtype=int)}).to_parquet(buf)
    assert "no rows" in str(_err([("r.parquet", buf.getvalue())]))


def test_pickles_are_never_loaded(monkeypatch):
    calls = []
    real = np.load

    def spy(*args, **kwargs):
        calls.append(kwargs.get("allow_pickle"))
        return real(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    buf = stdio.BytesIO()
    np.savez(buf, R=np.ones((1, 2, 2)), models=np.array(["a"], dtype=object))
    e = _err([("t.npz", buf.getvalue())])
    assert str(e).startswith("t.npz: the file holds a pickled (object) array, which is never loaded")
    assert calls == [False]
    buf = stdio.BytesIO()
    np.save(buf, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    assert "pickled (object) array" in str(_err([("t.npy", buf.getvalue())]))
    assert "a Python pickle" in str(_err([("t.pkl", pickle.dumps({"a": 1}))]))


def test_mixed_types_and_bad_values_name_line_and_field():
    rows = ["model,question,trial,correct"] + [f"m,q{i},0,{i % 2}" for i in range(116)] + ["m,q116,0,yes"]
    e = _err([("results.csv", ("\n".join(rows) + "\n").encode())])
    assert str(e) == ("results.csv line 118: field 'is_correct' (the outcome: column 'correct') must be 0 or 1 (true/false); "
                      "got 'yes'. The column also holds success/failure words among its numbers ('yes'); or have them "
                      "read so when loading: --recode yes=1 (CLI), or Recode outcome labels under the app's Load button.")
    assert (e.line, e.field) == (118, "is_correct")
    e = _err([("r.jsonl", b'{"model":"m","question":"a","trial":0,"correct":1}\n{"model":"m","question":"b","trial":0,"correct":"maybe"}\n')])
    assert str(e).startswith("r.jsonl line 2: field 'is_correct' (the outcome: column 'correct') must be 0 or 1 "
                             "(true/false); got 'maybe'. The column also holds text among its numbers ('maybe'): if ")
    e = _err([("r.csv", b"model;question;trial;score\nm;a;0;1\nm;b;0;0,25\n")])  # decimal comma: say so
    assert str(e).endswith("got '0,25'. It looks like a decimal comma: write '0.25' (save the file with '.' as the decimal separator).")
    e = _err([("r.csv", b"model,question,trial,correct\nm,a,0,1\nm,a,x1,1\n")])
    assert str(e).startswith("r.csv line 3: field 'trial' must be a whole number (trial index or seed); got 'x1'. If the "
                             "trials are labelled by text (run names), number them")
    e = _err([("r.csv", b"model,question,trial,correct\nm,a,1.5,1\n")])
    assert "line 2: field 'trial' must be a whole number" in str(e)
    e = _err([("r.csv", b"model,question,trial,correct\nm,a,0,2\n")])
    assert "field 'is_correct' must be 0 or 1 (or a soft score in [0, 1]); got 2" in str(e) and "--map category=correct (CLI), or pick it under the app's Column mapping" in str(e)
    e = _err([("r.csv", b"model,question,trial,correct\n,a,0,1\n")])
    assert str(e) == "r.csv line 2: field 'model' is empty; every row needs a value."
    e = _err([("r.csv", b"model,question,trial,correct,completion_tokens\nm,a,0,1,12\nm,a,1,1,n/a?\n")])
    assert str(e) == "r.csv line 3: field 'completion_tokens' must be a number; got 'n/a?'."
    # a later block of a big file turns a number column into text: re-read as text, error located
    big = "model,question,trial,correct\n" + "".join(f"m,q{i},0,1\n" for i in range(300_000)) + "m,q,0,oops\n"
    e = _err([("big.csv", big.encode())])
    assert e.line == 300_002 and "got 'oops'" in str(e)


def test_mixed_types_in_other_fields_are_kept_as_text():
    ds = io.load([("r.jsonl", b'{"model":"m","question":"a","correct":1,"answer":271}\n{"model":"m","question":"b","correct":0,"answer":"x"}\n')])
    assert ds.attempts["answer"].tolist() == ["271", "x"]
    assert any("mixes" in n for n in ds.report.notes)


def test_ragged_rows_name_the_line():
    e = _err([("r.csv", b"model,question,trial,correct\nm,a,0,1\nm,b,0,1,extra\n")])
    assert str(e).startswith("r.csv line 3: row has 5 fields but the header has 4")


def test_million_ragged_rows_fail_fast_with_the_line():
    rows = np.char.add(np.char.add("m,q", np.arange(1_000_000).astype(str)), ",0,1")
    text = "model,question,trial,correct\n" + "\n".join(rows.tolist()) + "\n"
    lines = text.split("\n")
    lines[987_654] += ",1"  # data row 987,654 is file line 987,655
    data = "\n".join(lines).encode()
    t0 = time.perf_counter()
    e = _err([("million.csv", data)])
    assert time.perf_counter() - t0 < 20
    assert e.line == 987_655 and str(e).startswith("million.csv line 987655: row has 5 fields but the header has 4")


def test_other_structural_errors(tmp_path):
    assert "appears twice in the header" in str(_err([("r.csv", b"model,question,correct,correct\nm,a,1,1\n")]))
    e = _err([("r.csv", GOOD)], format="excel")
    assert str(e).startswith("format must be one of csv, tsv, jsonl") and e.field == "format"
    assert str(_err([("r.csv", GOOD)], format="parquet")).startswith("r.csv: not a readable Parquet file")
    assert "not an object" in str(_err([("r.json", b"[1, 2, 3]")]))
    assert str(_err([tmp_path / "nope.csv"])).endswith("nope.csv: file not found; check the path.")
    (tmp_path / "empty_dir").mkdir()
    assert "the folder holds no supported files" in str(_err([tmp_path / "empty_dir"]))
    buf = stdio.BytesIO()
    np.savez(buf, R=np.ones((2, 2, 1)), models=np.array(["a", "b", "c"]))
    assert "models must have shape (2,) to match R; got (3,)" in str(_err([("t.npz", buf.getvalue())]))
    xl = stdio.BytesIO()
    with zipfile.ZipFile(xl, "w") as zf:
        zf.writestr("xl/workbook.xml", "<x/>")
    e = _err([("book.xlsx", xl.getvalue())])  # a broken workbook: read as one, not "unzip it and load the files inside"
    assert "the workbook cannot be read" in str(e) and "save the sheet as CSV UTF-8" in str(e) and "unzip" not in str(e)
    ods = stdio.BytesIO()
    with zipfile.ZipFile(ods, "w") as zf:
        zf.writestr("content.xml", "<x/>")
    assert "the workbook cannot be read" in str(_err([("book.ods", ods.getvalue())]))
    other = stdio.BytesIO()
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("notes.txt", "x")
    assert "neither an Inspect .eval log" in str(_err([("bundle.zip", other.getvalue())]))


def test_inspect_score_that_cannot_be_converted():
    log = json.loads((FORMATS / "inspect_ai" / "data_arc_qwen.json").read_text())
    log["samples"][2]["scores"]["choice"]["value"] = "maybe"
    e = _err([("log.json", json.dumps(log).encode())])
    assert str(e).startswith("log.json: samples[2] (sample id=3, epoch=1): field 'is_correct': score 'maybe' of scorer 'choice' cannot be converted")


def test_errors_are_only_input_errors_on_fuzzed_bytes():
    rng = np.random.default_rng(3)
    base = GOOD * 3
    for i in range(60):
        data = bytearray(base)
        for pos in rng.integers(0, len(data), 3):
            data[pos] = int(rng.integers(0, 256))
        try:
            io.load([(f"f{i}.csv", bytes(data))])
        except InputError as exc:
            assert str(exc).startswith(f"f{i}.csv")


def test_big_jsonl_with_mixed_types_and_a_bad_line_in_a_later_chunk():
    lines = [json.dumps({"model": "m", "question": f"q{i}", "trial": 0, "correct": i % 2, "note": "x" * 20}) for i in range(150_000)]
    lines[140_000] = lines[140_000].replace('"correct": 0', '"correct": "0"').replace('"correct": 1', '"correct": "1"')
    ds = io.load([("big.jsonl", ("\n".join(lines) + "\n").encode())])  # > one 4 MB chunk
    assert ds.report.n_rows == 150_000 and ds.attempts["is_correct"].sum() == 75_000  # hand: i % 2
    lines[145_000] = lines[145_000][:-5]
    e = _err([("big.jsonl", ("\n".join(lines) + "\n").encode())])
    assert e.line == 145_001 and "the record is" in str(e)
