"""Resource limits for untrusted input, stated and configurable (issue 17).

Defaults are sized for a 2-core, 24 GB server shared by about 10 users. Each limit can be
changed with an environment variable (an integer number of bytes or items):

======================================  ==========================  ===============================
variable                                default                     what it bounds
======================================  ==========================  ===============================
``SCORIO_MAX_DECOMPRESSED_BYTES``       1 GiB (1073741824)          a gzip file or zip archive after
                                                                    decompression (streamed; stops at
                                                                    the limit)
``SCORIO_MAX_ARCHIVE_MEMBERS``          100000                      members of a zip archive (.eval)
``SCORIO_MAX_MODELS``                   200000                      distinct models in one load
``SCORIO_MAX_QUESTIONS``                1000000                     distinct questions of one task
``SCORIO_MAX_TRIALS``                   100000                      trials of one (model, question)
                                                                    cell (``n_trials`` for counts)
``SCORIO_MAX_ROWS``                     200000000                   rows of the canonical table (all
                                                                    files of one load together)
``SCORIO_BLAS_THREADS``                 1                           BLAS / OpenMP threads of the app
                                                                    server and the CLI process
======================================  ==========================  ===============================

The dataset-size limits (models, questions, trials, rows) are checked by
:func:`scorio_core.io.load` once the canonical table exists, vectorized; the error names the
file(s), the count found, the limit and the variable that raises it.

JSON nested deeper than Python's recursion limit is refused with an InputError naming the file
(never a traceback).

BLAS threads: the process entry points (the app and the CLI, not the library) call
:func:`limit_blas_threads`. The core's linear algebra is many small problems (L-BFGS-B's limited-memory
updates, per-question solves): a threaded BLAS gains nothing there and, on a busy 2-core server,
its threads wait for cores. Measured on 2 cores loaded by a test run (docs/scale.md, "BLAS threads"):
``rasch_map`` on 50 x 500 x 8 285-308 ms with OpenBLAS's default threads against 34-43 ms with one
(load ~5), 84-208 against 51-56 ms (load ~2.8); the paper-simulation method agreement 1.9-3.0 s against
0.6-0.9 s (load ~4.6), 0.80-0.86 against 0.96-0.98 s (load ~2.8: the one case measured slower). The app's upload size is set in ``.streamlit/config.toml`` (``server.maxUploadSize``, 200 MB).
Rubric weights are limited to ``|w| <= 1e6`` (:data:`scorio_core.rubric.schema.MAX_ABS_WEIGHT`)
and integer trial ids to ``|id| < 2**53`` (exactly representable). README, "Limits".
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

__all__ = ["Limits", "get_limits", "human_bytes", "limit_blas_threads", "single_threaded_blas"]


@dataclass(frozen=True)
class Limits:
    """The limits in force (see the module docstring for the variables that set them)."""

    max_decompressed_bytes: int = 1 << 30
    max_archive_members: int = 100_000
    max_models: int = 200_000
    max_questions: int = 1_000_000
    max_trials: int = 100_000
    max_rows: int = 200_000_000


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip().replace("_", ""))
    except ValueError:
        raise ValueError(f"environment variable {name} must be a whole number; got {raw!r}.") from None
    if value < 1:
        raise ValueError(f"environment variable {name} must be >= 1; got {value}.")
    return value


def get_limits() -> Limits:
    """The limits, read from the environment on each call (cheap).

    Raises
    ------
    ValueError
        A ``SCORIO_MAX_...`` variable that is not a positive whole number (the message names it).
    """
    d = Limits()
    return Limits(
        max_decompressed_bytes=_env_int("SCORIO_MAX_DECOMPRESSED_BYTES", d.max_decompressed_bytes),
        max_archive_members=_env_int("SCORIO_MAX_ARCHIVE_MEMBERS", d.max_archive_members),
        max_models=_env_int("SCORIO_MAX_MODELS", d.max_models),
        max_questions=_env_int("SCORIO_MAX_QUESTIONS", d.max_questions),
        max_trials=_env_int("SCORIO_MAX_TRIALS", d.max_trials),
        max_rows=_env_int("SCORIO_MAX_ROWS", d.max_rows),
    )


def human_bytes(n: int) -> str:
    """``1073741824 -> '1.0 GiB'``."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:.1f} {unit}" if unit != "B" else f"{int(value)} B"
        value /= 1024
    return f"{n} B"  # pragma: no cover


_BLAS_LIMITED: list = []


def limit_blas_threads() -> int:
    """Cap the process's BLAS / OpenMP thread pools at ``SCORIO_BLAS_THREADS`` (default 1), once.

    For process entry points (the CLI's ``main``, the app); library callers keep their own settings.
    numpy and scipy each load their own OpenBLAS: pools already loaded are capped with
    ``threadpoolctl`` (Streamlit imports numpy before the app script runs), and
    ``OPENBLAS_NUM_THREADS`` / ``OMP_NUM_THREADS`` / ``MKL_NUM_THREADS`` are set for those loaded
    later (the CLI imports scipy lazily).

    Returns
    -------
    int
        The thread limit in force.

    Raises
    ------
    ValueError
        ``SCORIO_BLAS_THREADS`` is not a positive whole number.
    """
    n = _env_int("SCORIO_BLAS_THREADS", 1)
    if not _BLAS_LIMITED or _BLAS_LIMITED[0] != n:
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[name] = str(n)
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=n)
        _BLAS_LIMITED[:] = [n]
    return n


_lock = threading.Lock()
_depth = 0
_limiter = None


@cache
def _controller():
    """threadpoolctl's view of the thread pools loaded now (numpy's and scipy's OpenBLAS), found once."""
    import scipy.optimize  # noqa: F401  (loads scipy's own OpenBLAS before the scan)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def single_threaded_blas():
    """Context manager: the BLAS libraries run on one thread inside the block; previous counts restored after.

    For library code whose linear algebra is many small calls (L-BFGS-B's ``setulb`` on a few thousand
    parameters, small E-step products): measured on 2 shared cores, a 3PL fit of 50 models x 500
    questions took 3.9 s with OpenBLAS's default threads and 0.87 s with one, the same iterate to the
    last bit. Process-wide while a block is open (other Python threads' BLAS calls run on one thread
    too); nested and concurrent blocks restore the counts when the last one exits. The app and the
    CLI already run on ``SCORIO_BLAS_THREADS`` (:func:`limit_blas_threads`), which this leaves in force.
    """
    global _depth, _limiter
    with _lock:
        if _depth == 0:
            _limiter = _controller().limit(limits=1, user_api="blas")
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _limiter.restore_original_limits()
                _limiter = None

