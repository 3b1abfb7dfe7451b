"""The hostile corpus (tests/hostile_corpus.py) through the real CLI, in a memory-capped process (issue 17).

Each case runs ``python -m scorio_core leaderboard FILE --output json`` in a subprocess and must
end with exit status 2 and one ``error: FILE: ...`` line on stderr (no traceback), within 90 s
and a peak RSS below 1.5 GB.

Address-space cap (``RLIMIT_AS``, set in ``preexec_fn``): a regression (say, a bomb inflated in
full) must fail this test, not exhaust the machine. The cap is 3 GiB, the lowest value with
headroom measured on the 2-core test machine: a plain leaderboard of a 36-row CSV peaks at
1.8 GB of *address space* (VmPeak) although its RSS is 0.19 GB, because pyarrow's jemalloc pool
reserves about 1 GB up front and every thread reserves a malloc arena and a stack (both grow
with the core count). Below about 1 GiB the cap itself breaks healthy runs (seen at 768 MiB:
MemoryError on a 1 MiB read of a 1 kB file), which would make the test measure the cap, not the
input. ``SCORIO_TEST_RLIMIT_AS`` (bytes) overrides it on a machine with many more cores. The
bombs inflate to 2 GiB, so a loader that inflated one would hit the cap (MemoryError: the
expected message is missing) or the 1.5 GB RSS bound.

Peak RSS is measured per child with ``os.wait4`` (the rusage of exactly that process, unlike
``RUSAGE_CHILDREN``, which is the maximum over every child so far).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.hostile_corpus import CASE_NAMES, RUBRIC_CASES, build_corpus, case_env

ROOT = Path(__file__).resolve().parents[2]
ADDRESS_SPACE = int(os.environ.get("SCORIO_TEST_RLIMIT_AS", 3 << 30))
MAX_RSS_KB = 1_500_000  # 1.5 GB (ru_maxrss is in kB on Linux)
TIMEOUT = 90


def _cap_address_space() -> None:  # runs in the child between fork and exec
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_cli(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str, int, float]:
    """Run ``python -m scorio_core ARGS`` capped; return (status, stdout, stderr, peak RSS kB, seconds)."""
    child_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8",
                 "PYTHONIOENCODING": "utf-8", **(env or {})}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "scorio_core", *args], stdout=out, stderr=err, env=child_env,
                                cwd=ROOT, preexec_fn=_cap_address_space)
        timer = threading.Timer(TIMEOUT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait again
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), usage.ru_maxrss, seconds


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile")
    return directory, {c.name: c for c in build_corpus(directory)}


MEASURED: dict[str, tuple[int, float]] = {}


def _args(case, directory: Path) -> list[str]:
    if case.name in RUBRIC_CASES:
        return ["leaderboard", str(directory / "good.csv"), "--schema", str(case.path), "--output", "json"]
    return ["leaderboard", str(case.path), "--output", "json"]


@pytest.mark.parametrize("name", [n for n in CASE_NAMES])
def test_hostile_case_is_one_clean_error(corpus, name):
    directory, cases = corpus
    case = cases[name]
    status, out, err, rss_kb, seconds = run_cli(_args(case, directory), case_env(name))
    MEASURED[name] = (rss_kb, seconds)
    print(f"\n{name}: exit {status}, peak RSS {rss_kb / 1024:.0f} MiB, {seconds:.2f} s")
    assert status != -9, f"timed out after {TIMEOUT} s"
    assert "Traceback" not in out and "Traceback" not in err
    assert rss_kb < MAX_RSS_KB, f"peak RSS {rss_kb / 1024:.0f} MiB"
    if case.expected is None:  # harmless-looking data: must load (neutralised on output, tested below)
        assert status == 0, err
        assert err == ""
        json.loads(out)
        return
    assert status == 2, (status, err)
    assert json.loads(out) == {"error": err.removeprefix("error: ").rstrip("\n"), "exit_status": 2}  # --output json
    assert err.startswith(f"error: {case.path.name}") and err.endswith("\n") and err.count("\n") == 1, err
    assert case.expected in err, err
    assert "out of memory" not in err  # the limit, not the address-space cap, must stop it


def test_good_file_loads_under_the_same_cap(corpus):
    """Positive control: the cap and the environment do not break a healthy run."""
    directory, _ = corpus
    status, out, err, rss_kb, seconds = run_cli(["leaderboard", str(directory / "good.csv"), "--output", "json"])
    print(f"\ngood.csv: exit {status}, peak RSS {rss_kb / 1024:.0f} MiB, {seconds:.2f} s")
    assert (status, err) == (0, "")
    assert json.loads(out)


def test_formula_model_names_are_neutralised_in_csv_output(corpus):
    directory, cases = corpus
    status, out, err, _, _ = run_cli(["leaderboard", str(cases["formula_model_names"].path), "--output", "csv"])
    assert status == 0 and err.startswith("# note: 3 text cells began with = + - @"), err
    assert all(line.startswith("# note: ") for line in err.splitlines()), err  # every caveat alike
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(out)))
    models = {r["model"] for r in rows}
    assert len(models) == 3
    assert all(m.startswith("'") for m in models), models  # '=HYPERLINK(...) and '@SUM(...) are text
    assert not any(line.startswith(("=", "+", "-", "@")) or ",=" in line or ",@" in line for line in out.splitlines())
