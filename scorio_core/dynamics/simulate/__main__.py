"""``python -m scorio_core.dynamics.simulate``: write the simulated demo dataset as CSV (standard library csv and gzip)."""

from __future__ import annotations

import argparse
import csv
import gzip
import sys

import numpy as np

from scorio_core.dynamics.simulate import simulate_attempts

__all__ = ["main", "write_csv"]


def write_csv(columns: dict[str, np.ndarray], path: str) -> int:
    """Write columns as a CSV (gzip-compressed when ``path`` ends in .gz); return the row count."""
    names = list(columns)
    rows = len(columns[names[0]])
    opener = gzip.open if str(path).endswith(".gz") else open
    kwargs = {"mode": "wt", "newline": ""}
    if opener is gzip.open:
        kwargs["compresslevel"] = 9
    with opener(path, **kwargs) as handle:
        writer = csv.writer(handle)
        writer.writerow(names)
        writer.writerows(zip(*(columns[n].tolist() for n in names)))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Write the simulated demo dataset: ``python -m scorio_core.dynamics.simulate --out PATH``."""
    parser = argparse.ArgumentParser(prog="python -m scorio_core.dynamics.simulate", description="Write the simulated demo dataset (biased-coin LLM mimics, paper section 2.7).")
    parser.add_argument("--out", default="data/paper_simulation.csv.gz", help="output CSV (.csv or .csv.gz)")
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--trials", type=int, default=80)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    try:
        columns = simulate_attempts(args.models, args.questions, args.trials, seed=args.seed)
        rows = write_csv(columns, args.out)
    except (TypeError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    shape = f"{args.models} models x {args.questions} questions x {args.trials} trials"
    print(f"wrote {rows} attempts ({shape}) to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
