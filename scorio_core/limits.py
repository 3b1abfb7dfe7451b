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
``SCORIO_MAX_DENSE_CELLS``              100000000                   cells of the dense models x questions
                                                                    x categories (or trials) tensor built
                                                                    for one task (or tasks pooled)
``SCORIO_BLAS_THREADS``                 1                           BLAS / OpenMP threads of the app
                                                                    server and the CLI process
======================================  ==========================  ===============================

The dataset-size limits (models, questions, trials, rows) are checked by
:func:`scorio_core.io.load` once the canonical table exists, vectorized; the error names the
file(s), the count found, the limit and the variable that raises it.

The dense-cells limit bounds memory that the row count does not: the core scores a task on dense
(models, questions, categories) int64 counts and (models, questions, trials) int16 trial codes, so a
sparse file (each model on a few of many questions) of 60,000 rows can ask for 5 GiB. It is checked by
:func:`scorio_core.io.load` and the engines per task once the models and questions are known (two
categories, the least any analysis builds), and by the core where it builds each tensor
(:func:`check_dense_cells`). The default, 10^8 cells (763 MiB of int64 counts), passes 1,000 models x
10,000 questions x 2 categories (the largest count table of ``benchmarks/bench_scale.py``) five times over.

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

__all__ = ["Limits", "check_dense", "check_dense_cells", "check_dense_table", "dense_cells_error", "get_limits", "human_bytes",
           "limit_blas_threads", "single_threaded_blas"]


@dataclass(frozen=True)
class Limits:
    """The limits in force (see the module docstring for the variables that set them)."""

    max_decompressed_bytes: int = 1 << 30
    max_archive_members: int = 100_000
    max_models: int = 200_000
    max_questions: int = 1_000_000
    max_trials: int = 100_000
    max_rows: int = 200_000_000
    max_dense_cells: int = 100_000_000


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
        max_dense_cells=_env_int("SCORIO_MAX_DENSE_CELLS", d.max_dense_cells),
    )


def dense_cells_error(where: str, sizes: tuple[int, ...], units: tuple[str, ...], limit: int, itemsize: int = 8,
                      source: str | None = None):
    """The :class:`~scorio_core.errors.InputError` for a dense tensor above ``SCORIO_MAX_DENSE_CELLS``.

    Parameters
    ----------
    where : str
        What is too large, e.g. ``"task 'math'"``.
    sizes, units : tuple of int, tuple of str
        The tensor's dimensions and their names (``(6000, 60000, 2)``, ``("models", "questions", "categories")``).
    limit : int
        The cell limit in force.
    itemsize : int
        Bytes per cell of the tensor (8 for int64 counts, 2 for int16 trial codes).
    source : str, optional
        The file(s) the data came from.

    Returns
    -------
    InputError
        Stating the sizes, the cells, the limit in cells and bytes, and how to fix it.
    """
    from scorio_core.errors import InputError

    cells = 1
    for n in sizes:
        cells *= int(n)
    product = " x ".join(f"{int(n):,} {u}" for n, u in zip(sizes, units))
    return InputError(
        f"{where} is too large to analyse on this server: {product} = {cells:,} cells "
        f"({human_bytes(cells * itemsize)}), above the limit of {limit:,} cells (about {human_bytes(limit * itemsize)}; "
        "SCORIO_MAX_DENSE_CELLS). Every analysis holds a dense models x questions table per task, so a sparse file "
        "where each model answers a few of many questions needs it too. Split the data by task (or load one task "
        "at a time), load fewer models or questions, or, if the server has the memory, raise the limit with "
        "SCORIO_MAX_DENSE_CELLS.",
        source=source,
    )


def check_dense_cells(where: str, sizes: tuple[int, ...], units: tuple[str, ...], itemsize: int = 8,
                      source: str | None = None) -> None:
    """Refuse a dense tensor of shape ``sizes`` above ``SCORIO_MAX_DENSE_CELLS`` before it is allocated.

    Parameters
    ----------
    where : str
        What is too large, e.g. ``"task 'math'"`` (the error starts with it).
    sizes : tuple of int
        The tensor's shape.
    units : tuple of str
        The name of each dimension (``"models"``, ``"questions"``, ``"categories"`` or ``"trials"``).
    itemsize : int
        Bytes per cell (for the message).
    source : str, optional
        The file(s) the data came from.

    Raises
    ------
    InputError
        The cells (the product of ``sizes``) exceed the limit; see :func:`dense_cells_error`.

    Examples
    --------
    >>> check_dense_cells("task 'a'", (500, 20_000, 2), ("models", "questions", "categories"))
    """
    limit = get_limits().max_dense_cells
    cells = 1
    for n in sizes:
        cells *= int(n)
    if cells > limit:
        raise dense_cells_error(where, sizes, units, limit, itemsize, source)


def check_dense(where: str, L: int, M: int, K: int, N: int | None = None) -> None:
    """Refuse (L, M, K) int64 counts, and (L, M, N) int16 trial codes when ``N`` is given, above the cell limit.

    Parameters
    ----------
    where : str
        What is built (``"task 'math'"``); the error starts with it.
    L, M, K : int
        Models, questions and categories.
    N : int, optional
        Most trials of one cell (the trial-code tensor); None when only counts are built.

    Raises
    ------
    InputError
        The tensor has more cells than ``SCORIO_MAX_DENSE_CELLS`` (:func:`check_dense_cells`).
    """
    check_dense_cells(where, (L, M, K), ("models", "questions", "categories"))
    if N is not None:
        check_dense_cells(where, (L, M, N), ("models", "questions", "trials"), itemsize=2)


def check_dense_table(table, source=None) -> None:
    """Refuse a canonical table one of whose tasks needs a dense tensor above ``SCORIO_MAX_DENSE_CELLS``.

    Checked at load time, before any analysis, with two categories (the least any analysis builds): per
    task, its distinct models x its distinct questions x 2. Vectorized and skipped when it cannot fail
    (all models x all questions x 2 within the limit).

    Parameters
    ----------
    table : pandas.DataFrame
        Canonical attempts or counts: categorical ``model``, ``task`` and ``question_id``.
    source : str, sequence of str or callable, optional
        The file(s) to name: a name, names, or a function of a boolean row mask (the task's rows) giving them.

    Raises
    ------
    InputError
        Naming the file(s) and the task, with its sizes, the limit and how to fix it (:func:`dense_cells_error`).
    """
    import numpy as np
    import pandas as pd

    limit = get_limits().max_dense_cells
    if len(table) == 0:
        return
    cols = [table[c] for c in ("model", "task", "question_id")]
    n_m, n_t, n_q = (len(c.cat.categories) for c in cols)
    if n_m * n_q * 2 <= limit:
        return
    m, t, q = (c.cat.codes.to_numpy().astype(np.int64) for c in cols)
    models = np.bincount(pd.unique(t * n_m + m) // n_m, minlength=n_t)  # hash-based, no sort
    questions = np.bincount(pd.unique(t * n_q + q) // n_q, minlength=n_t)
    cells = models.astype(object) * questions * 2
    worst = int(np.argmax(cells))
    if cells[worst] <= limit:
        return
    if callable(source):
        source = source(t == worst)
    elif source is not None and not isinstance(source, str):
        names = list(dict.fromkeys(source))
        source = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    task = str(cols[1].cat.categories[worst])[:80]
    raise dense_cells_error(f"task {task!r}", (int(models[worst]), int(questions[worst]), 2),
                            ("models", "questions", "categories"), limit, source=source or None)


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

