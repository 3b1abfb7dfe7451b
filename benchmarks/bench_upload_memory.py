"""Memory per upload: peak RSS added by loading one uploaded CSV (as the app does), side by side.

The app keeps one copy of the uploaded bytes (hashed incrementally) and parses them with
``scorio_core.io.load``; this measures, in a fresh subprocess per case, the peak resident memory
added by that load over the interpreter with its imports, for long attempt tables of 10^5 and
10^6 rows. Side by side in the same run: pyarrow reading the same bytes and aggregating the
per-(model, question) counts (a floor: what any loader must at least hold). Target (issue 17):
an upload costs at most 64 MB + 10x its file size in peak memory (small files are dominated
by fixed costs: pyarrow's own floor is ~47 MB for 1.6 MB), so the 200 MB upload limit stays
near 2 GB for one user on the 24 GB server.

    .venv/bin/python benchmarks/bench_upload_memory.py [--rows 100000 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_FIXED_MB = 64.0
TARGET_RATIO = 10.0

_CHILD = r"""
import json, resource, sys
mode, path = sys.argv[1], sys.argv[2]
import numpy as np, pandas as pd, pyarrow as pa, pyarrow.csv as pacsv
from scorio_core import io
def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
base = rss_mb()
data = open(path, "rb").read()
if mode == "ours":
    ds = io.load([("upload.csv", data)])
    rows = len(ds.table)
else:
    table = pacsv.read_csv(pa.py_buffer(data))
    counts = table.group_by(["model", "question_id"]).aggregate([("is_correct", "sum"), ("is_correct", "count")])
    rows = table.num_rows
print(json.dumps({"peak_added_mb": rss_mb() - base, "rows": rows}))
"""


def _write(path: Path, rows: int) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    models, trials = 20, 10
    questions = rows // (models * trials)
    m = np.repeat(np.arange(models), questions * trials)
    q = np.tile(np.repeat(np.arange(questions), trials), models)
    t = np.tile(np.arange(trials), models * questions)
    y = (rng.random(m.size) < 0.6).astype(int)
    with path.open("w") as fh:
        fh.write("model,question_id,trial,is_correct\n")
        for start in range(0, m.size, 500_000):
            sl = slice(start, start + 500_000)
            fh.write("\n".join(f"model-{a},q{b},{c},{d}" for a, b, c, d in zip(m[sl], q[sl], t[sl], y[sl])) + "\n")


def _run(mode: str, path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, mode, str(path)], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    ok = True
    print(f"{'rows':>10} {'file MB':>8} {'ours +MB':>9} {'ours/file':>10} {'pyarrow +MB':>12} {'target MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            path = Path(tmp) / f"attempts_{rows}.csv"
            _write(path, rows)
            size = path.stat().st_size / 2**20
            ours = _run("ours", path)
            floor = _run("pyarrow", path)
            ratio = ours["peak_added_mb"] / size
            target = TARGET_FIXED_MB + TARGET_RATIO * size
            ok &= ours["peak_added_mb"] <= target
            print(f"{ours['rows']:>10,} {size:>8.1f} {ours['peak_added_mb']:>9.1f} {ratio:>9.1f}x "
                  f"{floor['peak_added_mb']:>12.1f} {'<= ' + format(target, '.0f'):>8}")
    print("memory per upload:", "OK" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
