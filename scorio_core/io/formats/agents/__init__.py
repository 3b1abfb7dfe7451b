"""Readers of agent benchmarks' harness outputs: runs of an agent (with its model) on task environments, one
attempt per task (and trial), the harness's own pass/fail (resolved, reward) the outcome, its errored runs read as it
counts them (or as missing with ``--errors-as-missing``).

SWE-bench harness reports and per-instance reports (:mod:`.swebench`, :mod:`.swebench_instances`; ``number_runs``
numbers several runs of one model as its trials, for every format here), aider benchmark run folders
(:mod:`.aider`), tau2-bench and tau-bench results (:mod:`.tau`), terminal-bench run folders (:mod:`.terminal_bench`)
and Harbor job folders (:mod:`.harbor`). Each turns its files into the canonical attempt table of
:mod:`scorio_core.io` through :func:`scorio_core.io._canonical.canonicalize`, with the tool's field names recorded as
the mapping; what they write around their results is settled before detection (:mod:`scorio_core.io.formats.layout`).
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
