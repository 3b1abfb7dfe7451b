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
======================================  ==========================  ===============================

The dataset-size limits (models, questions, trials, rows) are checked by
:func:`scorio_core.io.load` once the canonical table exists, vectorized; the error names the
file(s), the count found, the limit and the variable that raises it.

JSON nested deeper than Python's recursion limit is refused with an InputError naming the file
(never a traceback). The app's upload size is set in ``.streamlit/config.toml`` (``server.maxUploadSize``, 200 MB).
Rubric weights are limited to ``|w| <= 1e6`` (:data:`scorio_core.rubric.schema.MAX_ABS_WEIGHT`)
and integer trial ids to ``|id| < 2**53`` (exactly representable). README, "Limits".
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Limits", "get_limits", "human_bytes"]


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
