"""lighteval output folders: ``<output_dir>/details/<model_name>/<date_id>/details_<task>_<date_id>.parquet``.

Source: huggingface/lighteval ``src/lighteval/logging/evaluation_tracker.py`` (``EvaluationTracker.save``: the details
of each task in ``details/<model_name>/<date_id>/details_<task>_<date_id>.parquet``, one row per document, and the
aggregated scores in ``results/<model_name>/results_<date_id>.json``; ``model_name`` is the model's Hub name, so
``meta-llama/Llama-3.1-8B-Instruct`` is two folders; ``date_id`` the run's ISO time with ':' as '-').

A details file is read as the Parquet table it is (the same columns, guesses and ``--map`` as any table: the
document's ``doc.id`` the question, the ``metric`` struct's score the outcome, a rate metric such as
``avg@n:n=64`` read as counts), with two things the table itself does not say:

- the model is the folders between ``details/`` and the run's ``<date_id>/`` folder, joined with '/'
  (``meta-llama/Llama-3.1-8B-Instruct``), unless ``--map model=...`` names it;
- the task is the file name without ``details_`` and the run time (``lighteval|gsm8k|5``).

The results files beside ``details/`` hold aggregated scores only: they are left out (said) when details are loaded,
and refused alone with the flag that writes the details (``--save-details``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from scorio_core.io._sources import DATED_DETAILS, Source, strip_suffixes
from scorio_core.io.formats.harness_files import leave_out, name_model_by_folders

__all__ = ["FORMAT", "details_model", "is_lighteval_details", "name_model", "skip_results_files"]

FORMAT = "lighteval"
_DATE_ID = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?$")
_RESULTS = re.compile(r"^results_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?\.json$")


def details_model(path: Path | None) -> str | None:
    """The model of a lighteval details file from its folders, or None when it is not laid out as lighteval writes it.

    >>> details_model(Path("/out/details/meta-llama/Llama-3.1-8B/2025-01-01T12-30-45.123456/details_x_2025-01-01T12-30-45.123456.parquet"))
    'meta-llama/Llama-3.1-8B'
    >>> details_model(Path("/out/runs/details_x_2025-01-01T12-30-45.parquet")) is None
    True
    """
    if path is None or not _DATE_ID.match(path.parent.name):
        return None
    parts = Path(path).absolute().parts[:-2]
    if "details" not in parts:
        return None
    top = len(parts) - 1 - parts[::-1].index("details")
    model = "/".join(parts[top + 1:])
    return model or None


def is_lighteval_details(src: Source) -> bool:
    """Whether a Parquet file on disk is a lighteval details file in its run folder (:func:`details_model`)."""
    return src.path is not None and not src.is_dir and src.inner_name.lower().endswith(".parquet") \
        and bool(DATED_DETAILS.match(strip_suffixes(src.inner_name, dated=False))) and details_model(src.path) is not None


def _is_results_file(src: Source) -> bool:
    return src.path is not None and not src.is_dir and bool(_RESULTS.match(src.name)) \
        and b'"config_general"' in src.text_head(4096)


def skip_results_files(srcs: list[Source]) -> list[Source]:
    """Leave out lighteval's ``results_<date_id>.json`` (aggregated scores) when its details are loaded, saying so.

    Raises
    ------
    InputError
        When lighteval results files are all there is (no per-question outcome): with the flag that writes details.
    """
    results = [s for s in srcs if _is_results_file(s)]
    if len(results) < len(srcs) and not any(is_lighteval_details(s) for s in srcs):
        return srcs  # another tool's files beside: their readers say what they make of it
    return leave_out(srcs, results, f"lighteval: {len(results):,} results file{'s' * (len(results) > 1)} (aggregated "
                     "scores) not read; the outcomes are the details files.",
                     "lighteval's results file holds aggregated scores only, not each question's outcome: rerun "
                     "lighteval with --save-details and load the output folder (its details/).")


def name_model(raw, src: Source, mapping: Mapping[str, str] | None):
    """Name the model of a details table read by :func:`scorio_core.io._tables.read_table` after its folders, as a
    ``--map model=@folder`` would, unless the user or a column names it; returns the table."""
    return name_model_by_folders(raw, mapping, details_model(src.path))
