"""Property tests: write a random long table as CSV / JSONL / Parquet, load it back."""

from __future__ import annotations

import io as stdio
import itertools

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorio_core import io

NAMES = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=8
).filter(lambda s: s.strip() == s and s.strip() != "" and s.lower() not in {"nan", "none", "null", "na", "n/a"})


@st.composite
def long_tables(draw):
    models = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    questions = draw(st.lists(st.one_of(NAMES, st.integers(0, 999).map(lambda i: f"{i:03d}")), min_size=1, max_size=4, unique=True))
    rows = []
    for m, q in itertools.product(models, questions):
        trials = draw(st.lists(st.integers(-5, 10**6), min_size=0, max_size=3, unique=True))
        for t in trials:
            rows.append({
                "model": m, "task": "t", "question": q, "trial": t,
                "correct": draw(st.integers(0, 1)),
                "latency": draw(st.one_of(st.none(), st.floats(0, 1e3, allow_nan=False, width=32))),
            })
    if not rows:
        rows.append({"model": models[0], "task": "t", "question": questions[0], "trial": 0, "correct": 1, "latency": 1.0})
    return pd.DataFrame(rows)


def _write(frame: pd.DataFrame, fmt: str) -> tuple[str, bytes]:
    if fmt == "csv":
        return "r.csv", frame.to_csv(index=False).encode("utf-8")
    if fmt == "jsonl":
        return "r.jsonl", frame.to_json(orient="records", lines=True, force_ascii=False).encode("utf-8")
    buf = stdio.BytesIO()
    frame.to_parquet(buf)
    return "r.parquet", buf.getvalue()


def _canon(frame: pd.DataFrame) -> list[tuple]:
    if "latency" not in frame.columns:  # a JSONL field null on every line is dropped (noted)
        frame = frame.assign(latency=np.nan)
    return sorted(
        (str(m), str(q), int(t), float(c), None if pd.isna(x) else round(float(x), 3))
        for m, q, t, c, x in zip(frame["model"], frame["question_id"], frame["trial"], frame["is_correct"], frame["latency"])
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frame=long_tables(), fmt=st.sampled_from(["csv", "jsonl", "parquet"]))
def test_round_trip(frame, fmt):
    ds = io.load([_write(frame, fmt)])
    t = ds.attempts
    expected = _canon(frame.rename(columns={"question": "question_id", "correct": "is_correct"}))
    assert _canon(t) == expected
    if "latency" not in t.columns:
        assert frame["latency"].isna().all() and any("null on every line" in n for n in ds.report.notes)
    assert t["trial"].dtype == np.int64 and t["is_correct"].dtype == np.float64
    assert ds.report.n_rows == len(frame) and ds.ready
    assert list(t.columns[:5]) == ["model", "task", "question_id", "trial", "is_correct"]


@settings(max_examples=40, deadline=None)
@given(frame=long_tables(), extra=st.lists(st.integers(0, 50), max_size=6), order=st.randoms(use_true_random=False))
def test_report_invariants(frame, extra, order):
    dup = pd.concat([frame, frame.iloc[[i % len(frame) for i in extra]]], ignore_index=True)
    cols = list(dup.columns)
    order.shuffle(cols)  # column order does not matter
    ds = io.load([_write(dup[cols], "csv")])
    r = ds.report
    keys = dup[["model", "question", "trial"]].astype(str).agg("|".join, axis=1)
    assert r.n_duplicate_rows == len(dup) - keys.nunique()
    assert r.n_duplicate_keys == int((keys.value_counts() > 1).sum())
    clean = io.apply_choices(ds, duplicates="keep-first")
    assert clean.report.n_duplicate_rows == 0 and clean.report.n_rows == keys.nunique()
    assert int(clean.to_counts()["n_trials"].sum()) == clean.report.n_rows
    # brute force: missing cells = sum over models of (all questions - own questions)
    allq = set(dup["question"])
    own = dup.groupby("model")["question"].apply(set)
    assert r.missing_cells == sum(len(allq - q) for q in own)
    # saturation by brute force
    per_q = dup.groupby("question")["correct"].agg(["min", "max"])
    assert r.n_all_correct == int((per_q["min"] == 1).sum()) and r.n_all_wrong == int((per_q["max"] == 0).sum())


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), c=st.data())
def test_counts_round_trip(n, c):
    rows = [(f"m{i % 2}", f"q{i}", t, c.draw(st.integers(0, t))) for i, t in enumerate(c.draw(st.lists(st.integers(1, 9), min_size=n, max_size=n)))]
    frame = pd.DataFrame(rows, columns=["model", "question", "n_trials", "n_correct"])
    ds = io.load([_write(frame, "csv")])
    got = sorted(map(tuple, ds.counts[["model", "question_id", "n_trials", "n_correct"]].astype(object).values.tolist()))
    assert got == sorted((m, q, int(a), int(b)) for m, q, a, b in rows)
