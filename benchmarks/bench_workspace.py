"""Workspace: save 1,000,000 attempts, then reopen them from the catalog and show the leaderboard.

Targets (issue 14), on a 2-core machine:

- saving the loaded dataset (source blob + canonical Parquet table + catalog row) < 2 s;
- reopening it in a fresh :class:`~scorio_core.store.Workspace` (catalog lookup, Parquet read,
  no source file parsed) and computing the Leaderboard page's default leaderboard
  (``outcomes_for`` + ``leaderboard`` with the app's defaults: Bayes@N, empirical-Bayes prior,
  pairwise tie rule, 95 %) < 1 s.

The data: 20 models x 500 questions x 100 trials as a long CSV (``model, question_id, trial,
is_correct``). Parsing the CSV is timed too, for comparison, but belongs to neither target.

    .venv/bin/python benchmarks/bench_workspace.py [--models 20] [--questions 500] [--trials 100]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import leaderboard, outcomes_for, task_names  # noqa: E402
from scorio_core.store import Workspace  # noqa: E402

SAVE_TARGET_S = 2.0
REOPEN_TARGET_S = 1.0
#: The Leaderboard page's defaults (dashboard/share/export.py LEADERBOARD_KEYS, the sidebar).
APP_DEFAULTS = {"metric": "bayes", "k": 1, "tau": 0.5, "confidence": 0.95, "tie_rule": "pairwise",
                "prior": "empirical-bayes", "scope": "questions-fixed", "question_set": "own"}


def _csv(models: int, questions: int, trials: int) -> bytes:
    rng = np.random.default_rng(0)
    p = rng.beta(2.0, 2.0, (models, questions))
    correct = rng.random((models, questions, trials)) < p[:, :, None]
    m, q, t = np.meshgrid(np.arange(models), np.arange(questions), np.arange(trials), indexing="ij")
    frame = pd.DataFrame({"model": np.char.add("model-", m.ravel().astype(str)),
                          "question_id": np.char.add("q", q.ravel().astype(str)),
                          "trial": t.ravel(), "is_correct": correct.ravel().astype(np.int8)})
    return frame.to_csv(index=False).encode()


def _board(dataset) -> pd.DataFrame:
    task = task_names(dataset)[0]  # the sidebar's default task
    return leaderboard(outcomes_for(dataset, task, None), prior_counts=None, **APP_DEFAULTS)


def _line(label: str, seconds: float, target: float | None) -> bool:
    ok = target is None or seconds < target
    goal = f"(target < {target:g} s)  {'ok' if ok else 'OVER TARGET'}" if target is not None else "(no target)"
    print(f"  {label:<44} {seconds:7.3f} s   {goal}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--trials", type=int, default=100)
    args = parser.parse_args()
    n = args.models * args.questions * args.trials
    data = _csv(args.models, args.questions, args.trials)
    files = [("eval_long.csv", data)]
    print(f"{args.models} models x {args.questions} questions x {args.trials} trials = {n:,} attempts "
          f"({len(data) / 1e6:.1f} MB CSV)")
    ok = True
    start = time.perf_counter()
    dataset = io.load(files)
    _line("parse the CSV (io.load; not part of saving)", time.perf_counter() - start, None)
    with tempfile.TemporaryDirectory(prefix="bench-ws-") as tmp:
        ws = Workspace(Path(tmp) / "ws", max_bytes=10**10, max_file_bytes=10**9)
        start = time.perf_counter()
        record = ws.save_dataset("bench", files, dataset)
        ok &= _line("save (blob + Parquet + catalog row)", time.perf_counter() - start, SAVE_TARGET_S)
        table_bytes = ws.blobs.path(record.table_sha256).stat().st_size
        print(f"    canonical table: {record.n_rows:,} rows, {table_bytes / 1e6:.1f} MB Parquet")

        start = time.perf_counter()
        fresh = Workspace(Path(tmp) / "ws")  # a restarted server: nothing cached
        reopened = fresh.open_dataset(record.id)
        opened = time.perf_counter() - start
        board = _board(reopened)
        total = time.perf_counter() - start
        _line("  of which: reopen from the catalog (Parquet)", opened, None)
        _line("  of which: leaderboard (app defaults)", total - opened, None)
        ok &= _line("reopen + leaderboard", total, REOPEN_TARGET_S)
        reference = _board(dataset)
        assert board["model"].tolist() == reference["model"].tolist()
        assert np.allclose(board["mu"].to_numpy(), reference["mu"].to_numpy(), equal_nan=True)
        print(f"    leaderboard of {len(board)} models matches the one of the parsed data")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
