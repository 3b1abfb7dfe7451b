"""The dense-cells limit (SCORIO_MAX_DENSE_CELLS): a small sparse upload cannot make the core allocate gigabytes.

Security QA finding 1: 60,000 count rows (6,000 models x 10 of 60,000 questions; a 161 kB gzip) passed every
per-dataset limit, then the core allocated a (6000, 60000, 2) int64 tensor (5.4 GiB). The load now refuses it,
naming the file, the task, the sizes, the limit and the variable; the core checks again where it builds a tensor
(data reopened from the workspace, tasks pooled, trial codes).
"""

from __future__ import annotations

import gzip
import time

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.leaderboard.outcomes import from_attempts, from_counts
from scorio_core.leaderboard.task_outcomes import ALL_TASKS, outcomes_for
from scorio_core.limits import check_dense_cells, get_limits


def _sparse_counts(n_models: int, n_questions: int, per_model: int, task: str | None = None) -> bytes:
    """Each model on ``per_model`` of ``n_questions`` questions: few rows, a huge models x questions grid."""
    head = "model,question_id,n_trials,n_correct" + (",task" if task else "") + "\n"
    rows = [f"m{m},q{(m * per_model + j) % n_questions},4,{(m + j) % 5}" + (f",{task}" if task else "")
            for m in range(n_models) for j in range(per_model)]
    return (head + "\n".join(rows) + "\n").encode()


def test_the_qa_upload_is_refused_at_load_time_with_the_sizes(tmp_path):
    path = tmp_path / "sparse_mid.csv.gz"
    path.write_bytes(gzip.compress(_sparse_counts(6000, 60_000, 10)))
    assert path.stat().st_size < 400_000
    start = time.perf_counter()
    with pytest.raises(InputError) as err:
        io.load([str(path)])
    assert time.perf_counter() - start < 30  # refused before any dense array exists (it took 2 min and 8.6 GB)
    text = str(err.value)
    assert text.startswith("sparse_mid.csv.gz: task 'sparse_mid' is too large to analyse")
    assert "6,000 models x 60,000 questions x 2 categories = 720,000,000 cells (5.4 GiB)" in text
    assert "above the limit of 100,000,000 cells" in text and "SCORIO_MAX_DENSE_CELLS" in text
    assert "Split the data by task" in text and "fewer models" in text


def test_cli_says_it_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "1000")
    path = tmp_path / "wide.csv"
    path.write_bytes(_sparse_counts(40, 40, 2))
    assert main(["leaderboard", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: wide.csv: task 'wide' is too large") and err.count("\n") == 1
    assert "40 models x 40 questions x 2 categories = 3,200 cells" in err and "limit of 1,000 cells" in err
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "3200")
    assert main(["leaderboard", str(path), "--output", "json"]) == 0


def test_the_task_and_its_files_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "1000")
    (tmp_path / "small.csv").write_bytes(_sparse_counts(5, 5, 5, task="small"))
    (tmp_path / "big.csv").write_bytes(_sparse_counts(30, 30, 1, task="big"))
    with pytest.raises(InputError, match=r"^big\.csv: task 'big' is too large.*30 models x 30 questions"):
        io.load([str(tmp_path / "small.csv"), str(tmp_path / "big.csv")])


def test_duckdb_engine_refuses_it_too(tmp_path, monkeypatch):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "1000")
    path = tmp_path / "wide.csv"
    path.write_bytes(_sparse_counts(40, 40, 2))
    with pytest.raises(InputError, match=r"wide\.csv: task 'wide' is too large.*40 models x 40 questions"):
        load_counts([str(path)], engine="duckdb")


def test_the_core_checks_where_it_builds_the_tensor(monkeypatch):
    # data loaded under a higher limit (or reopened from the workspace) is checked again by the builder
    ds = io.load([("wide.csv", _sparse_counts(40, 40, 2))])
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "1000")
    with pytest.raises(InputError, match=r"^task 'wide' is too large.*3,200 cells.*SCORIO_MAX_DENSE_CELLS"):
        outcomes_for(ds, "wide")
    with pytest.raises(InputError, match="task 'wide' is too large"):
        from_counts(ds.counts, "wide")


def test_trial_codes_count_too(monkeypatch):
    # one cell with many trials makes (models, questions, trials) int16 codes large while counts stay small
    rows = [("a", "q1", t) for t in range(600)] + [(f"m{i}", f"q{i}", 0) for i in range(2, 12)]
    table = pd.DataFrame(rows, columns=["model", "question_id", "trial"])
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "10000")
    with pytest.raises(InputError, match=r"11 models x 11 questions x 600 trials = 72,600 cells"):
        from_attempts(table, np.ones(len(table), dtype=np.int16), np.array([0.0, 1.0]), ("wrong", "correct"), "t")
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "72600")
    out = from_attempts(table, np.ones(len(table), dtype=np.int16), np.array([0.0, 1.0]), ("wrong", "correct"), "t")
    assert out.R.shape == (11, 11, 600)


def test_pooling_tasks_is_checked(monkeypatch):
    data = _sparse_counts(20, 20, 1, task="a") + _sparse_counts(20, 20, 1, task="b").split(b"\n", 1)[1]
    ds = io.load([("two.csv", data)])
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "1000")
    assert outcomes_for(ds, "a").binary.counts.shape == (20, 20, 2)  # 800 cells per task
    with pytest.raises(InputError, match=r"^pooling 2 tasks is too large.*20 models x 40 questions x 2 categories"):
        outcomes_for(ds, ALL_TASKS)


def test_default_passes_the_sizes_the_project_supports(monkeypatch):
    assert get_limits().max_dense_cells == 100_000_000
    # benchmarks/bench_scale.py's count table (1000 x 10^4) and realistic dumps: no error
    check_dense_cells("task 'x'", (1000, 10_000, 2), ("models", "questions", "categories"))
    check_dense_cells("task 'x'", (500, 20_000, 4), ("models", "questions", "categories"))
    monkeypatch.setenv("SCORIO_MAX_DENSE_CELLS", "lots")
    with pytest.raises(ValueError, match="SCORIO_MAX_DENSE_CELLS must be a whole number"):
        get_limits()
