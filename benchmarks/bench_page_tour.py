"""Every page once on an upload of many models: where a page grows faster than the models do.

Writes an attempts CSV of L models (long names like ``organization-3/model-family-7-size-123b-instruct-2024-05``)
x 2 tasks x 30 questions x 2 trials (skills uniform, seeded), uploads it on the Data page of a fresh AppTest
session, then switches to each page once and prints its wall time beside the target: < 3 s a page, except
Convergence, whose bootstrap runs the replicates that fit its ~8 s budget (``scorio_core.dynamics.budget``), so its
target is twice that. An exception on a page is printed and counts as a miss. docs/scale.md, "A 1,000-model page
tour", has the numbers and what the profiles showed.

    .venv/bin/python benchmarks/bench_page_tour.py [--models 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("pages/results/leaderboard.py", "pages/results/tasks.py", "pages/results/compare.py",
         "pages/results/questions.py", "pages/results/trajectories.py", "pages/results/convergence.py",
         "pages/results/sensitivity.py", "pages/results/plan.py", "pages/data/data.py", "pages/data/rubric.py",
         "pages/share/export.py")
TARGET_S = 3.0
BUDGETED = {"pages/results/convergence.py": 16.0}  # twice the replicate budget's ~8 s


def dump(n_models: int, seed: int) -> bytes:
    """The upload: attempts CSV bytes, L x 2 tasks x 30 questions x 2 trials (vectorised, no loop per attempt)."""
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.05, 0.95, n_models)
    m, t, q, i = np.meshgrid(np.arange(n_models), np.arange(2), np.arange(30), np.arange(2), indexing="ij")
    m, t, q, i = m.ravel(), t.ravel(), q.ravel(), i.ravel()
    names = np.array([f"organization-{k % 37}/model-family-{k % 23}-size-{k}b-instruct-2024-{k % 12:02d}"
                      for k in range(n_models)])
    tasks = np.array(["algebra", "geometry"])
    frame = pd.DataFrame({"model": names[m], "task": tasks[t],
                          "question_id": np.char.add(np.char.add(np.array(["alg-", "geo-"])[t], "q"), q.astype(str)),
                          "trial": i, "is_correct": (rng.random(m.size) < skill[m]).astype(int)})
    return frame.to_csv(index=False).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    data = dump(args.models, args.seed)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    at.switch_page("pages/data/data.py").run()
    at.file_uploader(key="data_uploader").set_value(("many_models.csv", data, "text/csv")).run()
    start = time.perf_counter()
    at.button(key="upload_load").click().run()
    print(f"{args.models:,} models x 2 tasks x 30 questions x 2 trials ({len(data) / 1e6:.1f} MB CSV)")
    print(f"{'load (Data page)':<34} {time.perf_counter() - start:7.2f} s   (report)")
    missed = 0
    for page in PAGES:
        start = time.perf_counter()
        at.switch_page(page).run()
        took = time.perf_counter() - start
        target = BUDGETED.get(page, TARGET_S)
        errors = [e.value for e in at.exception]
        ok = took < target and not errors
        missed += not ok
        print(f"{page:<34} {took:7.2f} s   target < {target:g} s   {'ok' if ok else 'MISSED'}"
              + (f"   exception: {str(errors[0])[:200]}" if errors else ""), flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
