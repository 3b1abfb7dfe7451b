"""Readers of the dump formats :func:`scorio_core.io.load` detects.

Evaluation frameworks' own files, one module per tool, in :mod:`.harnesses` (lm-evaluation-harness, Inspect, HELM,
OpenCompass, MathArena ...) and agent benchmarks' harness outputs in :mod:`.agents` (SWE-bench, aider, tau-bench,
terminal-bench, Harbor); table shapes read from any table format here: JSON Lines and JSON records
(:mod:`.jsonl`), the reference package's NumPy archives (:mod:`.npz`), response matrices (:mod:`.matrix`, on the
user's word), per-trial lists (:mod:`.trial_lists`), per-question rates (:mod:`.rates`), outcome recodings and
recorded errors; :mod:`.layout` settles what the tools write around their results before detection.
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
