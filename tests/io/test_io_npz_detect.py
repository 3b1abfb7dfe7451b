"""NPZ tensors (reference data contract) and format detection."""

from __future__ import annotations

import io as stdio
from pathlib import Path

import numpy as np
import pytest

from scorio_core import io
from scorio_core.errors import InputError

FORMATS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "formats"


def _npz(**arrays) -> bytes:
    buf = stdio.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def test_npz_binary_tensor_round_trip():
    rng = np.random.default_rng(0)
    R = rng.integers(0, 2, size=(3, 5, 4))
    ds = io.load([("aime.npz", _npz(R=R, models=np.array(["c", "a", "b"]), questions=np.array([f"q{i}" for i in range(5)]), task=np.array("aime25")))])
    t = ds.attempts
    assert ds.sources[0].format == "npz" and ds.report.tasks == ("aime25",)
    assert (ds.report.n_models, ds.report.n_questions, ds.report.n_rows) == (3, 5, 60)  # L, M, L*M*N
    back = np.full((3, 5, 4), -1)
    names = ["c", "a", "b"]
    for m, q, n, v in zip(t["model"].astype(str), t["question_id"].astype(str), t["trial"], t["is_correct"]):
        back[names.index(m), int(q[1:]), n] = v
    np.testing.assert_array_equal(back, R)


def test_npz_two_dimensional_missing_and_categories():
    ds = io.load([("r.npz", _npz(R=np.array([[1, 0], [0, 1]], dtype=bool)))])
    assert ds.report.n_rows == 4 and ds.attempts["trial"].unique().tolist() == [0]  # (L, M) is N=1
    assert ds.report.models == ("model_0", "model_1") and ds.report.defaults
    cats = io.load([("c.npz", _npz(R=np.array([[[3, 0, -1]]]), trials=np.array([10, 20, 30])))])
    t = cats.attempts
    assert t["category"].tolist() == [3, 0] and t["is_correct"].isna().all()  # -1: trial not run
    assert t["trial"].tolist() == [10, 20]
    floats = io.load([("f.npy", _npy(np.array([[[1.0, np.nan]]])))])  # NaN: trial not run
    assert floats.report.n_rows == 1


def _npy(arr: np.ndarray) -> bytes:
    buf = stdio.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def test_npz_errors():
    with pytest.raises(InputError, match=r"R must have shape \(L, M, N\) or \(L, M\)"):
        io.load([("r.npz", _npz(R=np.ones(3)))])
    with pytest.raises(InputError, match=r"R entries must be 0/1 or whole-number category codes; got 0.5 at index \(0, 0, 1\)"):
        io.load([("r.npz", _npz(R=np.array([[[1.0, 0.5]]])))])
    with pytest.raises(InputError, match=r"no array named 'R' among a, b"):
        io.load([("r.npz", _npz(a=np.ones((1, 1)), b=np.ones((1, 1))))])
    with pytest.raises(InputError, match=r"models must be unique; 'x' appears more than once"):
        io.load([("r.npz", _npz(R=np.ones((2, 1, 1)), models=np.array(["x", "x"])))])
    with pytest.raises(InputError, match="a column mapping does not apply to NPZ"):
        io.load([("r.npz", _npz(R=np.ones((1, 1, 1))))], mapping={"model": "x"})


@pytest.mark.parametrize(
    "path, expected",
    [
        ("lm_eval_harness/results_2026-01-21T03-44-18.458309.json", "lm-eval-results"),
        ("lm_eval_harness/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl", "lm-eval-samples"),
        ("inspect_ai/log_streaming.eval", "inspect-eval"),
        ("inspect_ai/log_read_sample.json", "inspect-json"),
        ("inspect_ai/data_pubmedqa_gpt4o_mini.json", "inspect-json"),
        ("helm/narrative_qa-model=openai_gpt2", "helm"),
        ("helm/narrative_qa-model=openai_gpt2/per_instance_stats.json", "helm"),
        ("scorio_verifier_fixture/aime25_q06_compass.json", "scorio-verifier"),
    ],
)
def test_detect_genuine_files(path, expected):
    assert io.detect_format(FORMATS / path) == expected


@pytest.mark.parametrize(
    "name, data, expected",
    [
        ("r.csv", b"a,b\n1,2\n", "csv"),
        ("r.txt", b"a\tb\n1\t2\n", "tsv"),
        ("r.tsv", b"a,b\n", "tsv"),
        ("r.csv", b"a;b;c\n1;2;3\n", "csv"),
        ("r.jsonl", b'{"a": 1}\n{"a": 2}\n', "jsonl"),
        ("r.json", b'[{"a": 1}]', "json-records"),
        ("r.json", b'{"seed": 1, "data_id": 2, "model": "m", "output": {}}\n', "scorio-jsonl"),
    ],
)
def test_detect_from_content(name, data, expected):
    assert io.detect_format((name, data)) == expected


def test_detect_binary_formats():
    import pandas as pd

    buf = stdio.BytesIO()
    pd.DataFrame({"a": [1]}).to_parquet(buf)
    assert io.detect_format(("x.bin", buf.getvalue())) == "parquet"
    assert io.detect_format(("x.bin", _npz(R=np.ones((1, 1, 1))))) == "npz"
    assert io.detect_format(("x.bin", _npy(np.ones((1, 1))))) == "npz"
    import gzip

    assert io.detect_format(("x.csv.gz", gzip.compress(b"a,b\n1,2\n"))) == "csv"


def test_semicolon_csv_loads():
    ds = io.load([("r.csv", b"model;question;correct\nm;q1;1\n")])
    assert ds.attempts["is_correct"].tolist() == [1.0]


def test_supported_formats_registry():
    assert list(io.SUPPORTED_FORMATS)[:5] == ["csv", "tsv", "jsonl", "json-records", "parquet"]
    assert {"npz", "scorio-jsonl", "lm-eval-samples", "inspect-eval", "helm"} <= set(io.SUPPORTED_FORMATS)
    with pytest.raises(TypeError):
        io.SUPPORTED_FORMATS["x"] = "y"  # read-only
