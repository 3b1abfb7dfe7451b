"""Subprocess measurements for the benchmarks: wall time and peak RSS of a fresh interpreter.

``start_spawner`` launches a tiny process first; every measured command is started by it, so a
child's ``ru_maxrss`` is its own peak (Linux carries a parent's peak across fork + exec).
Used by ``benchmarks/bench_scale.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

__all__ = ["cli", "load_counts_subprocess", "start_spawner"]

ROOT = Path(__file__).resolve().parents[1]

_SPAWNER = r"""
import json, os, subprocess, sys, tempfile, time
for line in sys.stdin:
    argv, cwd = json.loads(line)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        out.seek(0); err.seek(0)
        print(json.dumps([wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status),
                          out.read().decode(errors="replace")[-100000:], err.read().decode(errors="replace")[-2000:]]),
              flush=True)
"""
_spawner: subprocess.Popen | None = None


def start_spawner() -> None:
    """Start the small process that launches every measured subprocess.

    Linux carries a process's peak RSS across fork + exec into the child's ``ru_maxrss``, so a CLI started from
    this (large, after in-process runs) interpreter would report at least our own peak. Children of a tiny
    launcher started first report their own peak.
    """
    global _spawner
    _spawner = subprocess.Popen([sys.executable, "-c", _SPAWNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _wait(argv: list[str]) -> tuple[float, float, str]:
    """Wall time (s), peak RSS (MB) and stdout of one subprocess (started by the launcher)."""
    if _spawner is None:
        start_spawner()
    _spawner.stdin.write(json.dumps([argv, str(ROOT)]) + "\n")
    _spawner.stdin.flush()
    wall, mb, code, out, err = json.loads(_spawner.stdout.readline())
    if code != 0:
        raise SystemExit(f"{' '.join(argv[:4])} failed: {err.strip()}")
    return wall, mb, out


def cli(argv: list[str], repeat: int = 2) -> tuple[float, float]:
    """Min wall time (s) and max peak RSS (MB) of ``python -m scorio_core ARGV`` over ``repeat`` runs."""
    times, rss = [], []
    for _ in range(repeat):
        wall, mb, _ = _wait([sys.executable, "-m", "scorio_core", *argv])
        times.append(wall)
        rss.append(mb)
    return min(times), max(rss)


_SUB_LOAD = """
import json, sys, time
from scorio_core.engines import load_counts
t = time.perf_counter()
ds = load_counts(sys.argv[1], memory_limit=sys.argv[2])
print(json.dumps({"seconds": time.perf_counter() - t, "rows": len(ds.counts)}))
"""


def load_counts_subprocess(path: Path, memory_limit: str) -> tuple[float, float, float, int]:
    """``load_counts(path, memory_limit=...)`` in a fresh interpreter: (call s, wall s, peak RSS MB, cells)."""
    wall, mb, out = _wait([sys.executable, "-c", _SUB_LOAD, str(path), memory_limit])
    got = json.loads(out.strip().splitlines()[-1])
    return got["seconds"], wall, mb, got["rows"]
