"""Default settings of the Trajectories, Convergence and Sensitivity pages on 20 x 30 x 80.

Usage::

    .venv/bin/python benchmarks/bench_pages_analysis.py

Data: the bundled paper simulation (20 biased-coin models x 30 questions x N = 80 trials
with base signals, ``data/paper_simulation.csv.gz``). Two measurements per page:

* **core**: the computations the page runs with its defaults, without Streamlit (the same
  calls :mod:`dashboard.compute.dynamics` / :mod:`dashboard.compute.sensitivity` make, the
  bootstrap jobs in parallel through :func:`dashboard.compute.background.run_jobs`); best of 3.
* **page**: a first visit of the page in Streamlit's AppTest with the analysis caches
  cleared (data loading already warm, as after opening the app), i.e. what a user waits
  for, including charts and tables; best of 3.

Target (issue 8, 2-core machine): each page's defaults answer in < 2 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET = 2.0
REPEATS = 3


def _best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def core_timings() -> dict[str, float]:
    from dashboard.compute.background import run_jobs
    from scorio_core import io, rubric
    from scorio_core.leaderboard.table import outcomes_for
    from scorio_core.dynamics.convergence import bootstrap_convergence, bootstrap_indices
    from scorio_core.sensitivity import perturb_rubric, schema_ranks
    from scorio_core.dynamics.trajectory import rank_trajectory

    dataset = io.load([str(ROOT / "data" / "paper_simulation.csv.gz")])
    R = outcomes_for(dataset, None).binary.complete_block().R
    table = rubric.SignalTable(dataset.attempts)

    def trajectories():  # observed order: ranks vs the gold standard and vs its own end, Bayes@N bands
        rank_trajectory(R, "bayes")
        rank_trajectory(R, "bayes", gold="replicate")

    def trajectories_worst():  # worst-case replicate of 2,000 column-wise
        res = bootstrap_convergence(R, "bayes", replicates=2000, seed=0, chunk_size=64)
        idx = bootstrap_indices(R.shape, "column", 1, 0, start=res.worst_replicate)[0]
        rank_trajectory(R, "bayes", indices=idx)
        rank_trajectory(R, "bayes", indices=idx, gold="replicate")

    def convergence():  # Bayes@N, Pass@2/4/8, 2,000 column-wise replicates each, two worker threads
        jobs = [
            (lambda progress, m=m, k=k: bootstrap_convergence(R, m, k=k, replicates=2000, seed=0, chunk_size=64,
                                                               progress=progress))
            for m, k in (("bayes", 1), ("pass@k", 2), ("pass@k", 4), ("pass@k", 8))
        ]
        run_jobs(jobs)

    def sensitivity():  # 13 schemata (binary + Table 5) and 200 perturbations of Conf-Calibrated
        names = ["Binary correctness"] + [n for n, s in rubric.BUILTIN_SCHEMAS.items() if s.source.startswith("Hariri")]
        schema_ranks(table, names)
        perturb_rubric(table, "Conf-Calibrated", n=200, seed=0)

    return {
        "trajectories (observed order)": _best(trajectories),
        "trajectories (worst case, 2,000 replicates)": _best(trajectories_worst),
        "convergence (4 methods x 2,000 replicates)": _best(convergence),
        "sensitivity (13 schemata + 200 perturbations)": _best(sensitivity),
    }


def page_timings() -> dict[str, float]:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.testing.v1 import AppTest

    original = PagesManager.__init__

    def init(self, *args, **kwargs):  # run reruns through app.py, as tests/app/conftest.py does
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init
    from dashboard.compute import dynamics as analysis_cache
    from dashboard.compute import sensitivity as sensitivity_cache

    def clear():
        analysis_cache.stored.clear()
        analysis_cache.analysis_block.clear()
        sensitivity_cache._ranks_across.clear()
        sensitivity_cache._applicability.clear()

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.sidebar.selectbox(key="dataset").set_value("paper-simulation").run()
    out = {}
    for page, label in (("pages/results/trajectories.py", "Trajectories page"), ("pages/results/convergence.py", "Convergence page"),
                        ("pages/results/sensitivity.py", "Sensitivity page")):
        at.switch_page("pages/results/leaderboard.py").run()
        times = []
        for _ in range(REPEATS):
            clear()
            start = time.perf_counter()
            at.switch_page(page).run()
            times.append(time.perf_counter() - start)
            assert not at.exception, [e.value for e in at.exception]
        out[label + " (first visit)"] = min(times)
        start = time.perf_counter()
        at.switch_page(page).run()
        out[label + " (revisit, cached)"] = time.perf_counter() - start
    return out


def main() -> int:
    print("20 models x 30 questions x 80 trials (data/paper_simulation.csv.gz); target < 2 s per page default")
    print(f"{'case':52s} {'seconds':>8s}  target")
    failed = False
    for name, seconds in {**core_timings(), **page_timings()}.items():
        target = "" if "revisit" in name else ("ok" if seconds < TARGET else "SLOW")
        failed |= target == "SLOW"
        print(f"{name:52s} {seconds:8.3f}  {target}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
