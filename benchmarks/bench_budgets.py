"""CPU time of the Plan page's projection and the rank distribution on a large binary dump, beside their targets.

Generates 250 models x 2,000 questions x N = 1 (skill ~ U(0.2, 0.8); ``--models``/``--questions`` change it) and
times :func:`scorio_core.plan.project_goal` (defaults: 8 replays x 6 batches within ``PROJECTION_BUDGET``) and
:func:`scorio_core.ranking.posterior_ranks.rank_summary` (default draws, ``rank_draws``). Targets: projection
< 8 s CPU, rank distribution < 1.5 s CPU (about the 0.6 s call budget at the 20-draw floor).

    .venv/bin/python benchmarks/bench_budgets.py [--models 250] [--questions 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.leaderboard.outcomes import Outcomes  # noqa: E402
from scorio_core.plan import project_goal  # noqa: E402
from scorio_core.ranking.posterior_ranks import rank_summary  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=250)
    parser.add_argument("--questions", type=int, default=2000)
    args = parser.parse_args()
    L, M = args.models, args.questions
    rng = np.random.default_rng(0)
    s = (rng.random((L, M)) < rng.uniform(0.2, 0.8, L)[:, None]).astype(np.int64)
    o = Outcomes(task="t", models=tuple(f"m{i:03d}" for i in range(L)), questions=tuple(f"q{j}" for j in range(M)),
                 weights=np.array([0.0, 1.0]), labels=("wrong", "right"), counts=np.stack([1 - s, s], axis=-1))
    t = time.process_time()
    proj = project_goal(o, "top-1", batches=6, replays=8, draws=1000)
    tp = time.process_time() - t
    t = time.process_time()
    ranks = rank_summary(o.models, o.counts, o.weights)
    tr = time.process_time() - t
    ok = tp < 8.0 and tr < 1.5
    print(f"projection {L} x {M}: {tp:.2f} s CPU (target < 8 s) {'ok' if tp < 8 else 'MISSED'}; "
          f"{proj.replays} replays x {proj.batches} batches; note: {proj.note or '-'}")
    print(f"rank distribution {L} x {M}: {tr:.2f} s CPU (target < 1.5 s) {'ok' if tr < 1.5 else 'MISSED'}; "
          f"{ranks['draws']} draws, Monte-Carlo se {ranks['monte_carlo_se']:.3f}; note: {ranks['note'] or '-'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
