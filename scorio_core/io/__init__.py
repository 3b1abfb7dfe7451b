"""Eval-dump loaders: many formats in, one canonical table and a data-quality report out.

Formats (:data:`SUPPORTED_FORMATS`, auto-detected from name and content): generic long,
wide and count tables (CSV/TSV/JSONL/JSON/Parquet), NPZ outcome tensors, the reference
scorio package's per-attempt JSONL and verifier JSON, lm-evaluation-harness samples and
results, Inspect AI logs (.eval/.json) and HELM run folders.

Typical use::

    from scorio_core import io
    ds = io.load(["gpt.csv", "claude.csv"])          # merged, with ds.report
    if not ds.ready:                                 # e.g. duplicates, soft scores
        ds = io.apply_choices(ds, duplicates="keep-first", binarize_threshold=0.5)
    ds.attempts                                      # model, task, question_id, trial, is_correct, ...

The canonical tables are described in docs/ARCHITECTURE.md ("Canonical tables").
Every failure is a :class:`scorio_core.errors.InputError` naming file, line/row and field.
"""

from scorio_core.io._choices import DUPLICATE_POLICIES, MISSING_POLICIES, apply_choices
from scorio_core.io._dataset import Dataset, SourceInfo, attempts_to_counts
from scorio_core.io._detect import SUPPORTED_FORMATS, detect_format
from scorio_core.io.formats.inspect_ai import value_to_float
from scorio_core.io._load import guess_mapping, load, source_columns
from scorio_core.io._quality import DuplicateKey, QualityReport, QuestionGap, TrialSpread
from scorio_core.io._schema import CANONICAL_COLUMNS, MappingGuess, infer_mapping

__all__ = [
    "CANONICAL_COLUMNS",
    "DUPLICATE_POLICIES",
    "MISSING_POLICIES",
    "SUPPORTED_FORMATS",
    "Dataset",
    "DuplicateKey",
    "MappingGuess",
    "QualityReport",
    "QuestionGap",
    "SourceInfo",
    "TrialSpread",
    "apply_choices",
    "attempts_to_counts",
    "detect_format",
    "guess_mapping",
    "infer_mapping",
    "load",
    "source_columns",
    "value_to_float",
]
