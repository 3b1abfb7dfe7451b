"""Readers of the eval-harness dump formats :func:`scorio_core.io.load` detects.

One module per format, each turning its files into the canonical attempt (or count) table of
:mod:`scorio_core.io`: lm-evaluation-harness samples (:mod:`.lmeval`), Inspect logs
(:mod:`.inspect_ai`), HELM runs (:mod:`.helm`), JSON Lines (:mod:`.jsonl`), the reference
package's NumPy archives (:mod:`.npz`) and scorio's own layout (:mod:`.scorio`); response matrices of
any table format (:mod:`.matrix`, on the user's word).
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
