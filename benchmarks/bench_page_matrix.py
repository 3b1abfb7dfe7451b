"""The full page x dataset x settings matrix (issue 40): every cell renders, 0 exceptions.

Runs every page (Leaderboard, Tasks, Compare, Trajectories, Convergence, Sensitivity, Data, Rubric,
Export) and the presentation view of a share link, in Streamlit's AppTest, on every bundled dataset
and every generated edge case of ``tests/app/page_matrix.py`` (models missing tasks, disjoint
questions, one model, one question, N = 1, all correct, all wrong, a task with one model, 300
models, 200-character unicode names, NaN signals, ragged count tables), under every settings
combination of ``SETTINGS`` (prior, scope, tie rule, metric, rubric, model filter). ``make test``
runs a sample of the same cells (tests/app/test_page_matrix.py); ``SCORIO_FULL=1`` runs them all there.

    .venv/bin/python benchmarks/bench_page_matrix.py [--only n1,ragged-counts]

Prints one line per (dataset, settings) with its time and failures, then the total beside the
target (0 exceptions); exits 1 when a cell failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="comma-separated dataset names (default: all)")
    args = parser.parse_args()
    os.environ.setdefault("SCORIO_WORKSPACE", tempfile.mkdtemp(prefix="scorio-matrix-"))
    os.chdir(ROOT)
    from tests.app.page_matrix import BUNDLED, EDGE_CASES, PAGES, SETTINGS, apply_settings, open_app, page_failures, \
        presentation_failures

    datasets = [d for d in list(EDGE_CASES) + list(BUNDLED) if not args.only or d in args.only.split(",")]
    cells, failed, start = 0, [], time.perf_counter()
    for dataset in datasets:
        for i, settings in enumerate(SETTINGS):
            t = time.perf_counter()
            at = open_app(dataset)
            apply_settings(at, settings)
            errors = [f"settings: {e.value}" for e in at.exception] + page_failures(at) + presentation_failures(at)
            cells += len(PAGES) + 1
            failed += [f"{dataset} / settings {i}: {e}" for e in errors]
            print(f"{dataset:22s} settings {i}  {time.perf_counter() - t:6.1f} s  "
                  f"{'ok' if not errors else 'FAILED: ' + '; '.join(errors)[:400]}", flush=True)
    print(f"\ncells (page x dataset x settings): {cells:,}  exceptions: {len(failed)}  target: 0  "
          f"{'ok' if not failed else 'MISS'}  ({time.perf_counter() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
