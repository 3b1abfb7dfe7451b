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

from importlib import import_module

#: Where each public name lives: imported on first use (PEP 562), so ``import scorio_core.io.x`` or a CLI
#: ``--help`` does not load pandas and every format reader.
_NAMES = {
    "CANONICAL_COLUMNS": "scorio_core.io._schema",
    "DUPLICATE_POLICIES": "scorio_core.choices",
    "Dataset": "scorio_core.io._dataset",
    "DuplicateKey": "scorio_core.io.quality.compute",
    "MISSING_POLICIES": "scorio_core.choices",
    "MappingGuess": "scorio_core.io._schema",
    "QualityReport": "scorio_core.io.quality.compute",
    "QuestionGap": "scorio_core.io.quality.compute",
    "RESERVED_TASK": "scorio_core.io._dataset",
    "SUPPORTED_FORMATS": "scorio_core.io._detect",
    "SourceInfo": "scorio_core.io._dataset",
    "TrialSpread": "scorio_core.io.quality.compute",
    "apply_choices": "scorio_core.io._choices",
    "attempts_to_counts": "scorio_core.io._dataset",
    "blocking_finding": "scorio_core.io.quality.report",
    "detect_format": "scorio_core.io._detect",
    "guess_mapping": "scorio_core.io._load",
    "infer_mapping": "scorio_core.io._schema",
    "load": "scorio_core.io._load",
    "parse_recoding": "scorio_core.io.formats.user_recoding",
    "source_columns": "scorio_core.io._load",
    "value_to_float": "scorio_core.io.formats.harnesses.inspect_ai",
}

__all__ = [
    "CANONICAL_COLUMNS",
    "DUPLICATE_POLICIES",
    "MISSING_POLICIES",
    "RESERVED_TASK",
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
    "blocking_finding",
    "detect_format",
    "guess_mapping",
    "infer_mapping",
    "load",
    "parse_recoding",
    "source_columns",
    "value_to_float",
]


def __getattr__(name: str):
    """Import a public name's module on first use and cache the name in this package."""
    try:
        module = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'scorio_core.io' has no attribute {name!r}") from None
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
