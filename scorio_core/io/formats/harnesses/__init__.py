"""Readers of evaluation tools' own dump files, one module per tool.

lm-evaluation-harness samples and results (:mod:`.lmeval`), Inspect logs (:mod:`.inspect_ai`), HELM runs
(:mod:`.helm`), the reference scorio package's JSONL and verifier fixtures (:mod:`.scorio`), SWE-bench harness reports
and per-instance reports (:mod:`.swebench`, :mod:`.swebench_instances`), promptfoo eval output (:mod:`.promptfoo`),
aider benchmark run folders (:mod:`.aider`), tau2-bench and tau-bench results (:mod:`.tau`),
terminal-bench run folders (:mod:`.terminal_bench`), Harbor job folders (:mod:`.harbor`), MathArena outputs (:mod:`.matharena`), OpenCompass / AISBench results (:mod:`.opencompass`) and OpenAI evals record logs (:mod:`.openai_evals`, read through
the JSON Lines reader); what the harnesses write around their results is settled before detection (:mod:`scorio_core.io.formats.layout`,
which also lists the readers that take ``errors_missing``). Each turns its files into the canonical attempt
table of :mod:`scorio_core.io` through :func:`scorio_core.io._canonical.canonicalize`, with the tool's field names
recorded as the mapping.
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
