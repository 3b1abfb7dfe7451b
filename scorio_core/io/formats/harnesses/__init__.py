"""Readers of evaluation frameworks' own dump files, one module per tool.

lm-evaluation-harness samples and results (:mod:`.lmeval`), Inspect logs (:mod:`.inspect_ai`), HELM runs
(:mod:`.helm`), the reference scorio package's JSONL and verifier fixtures (:mod:`.scorio`), promptfoo eval output
(:mod:`.promptfoo`), OpenCompass / AISBench results (:mod:`.opencompass`), evalscope reviews (:mod:`.evalscope`),
NeMo-Skills outputs (:mod:`.nemo_skills`), lighteval output folders (:mod:`.lighteval`), FastChat llm_judge
judgments (:mod:`.fastchat`) and OpenAI evals record logs (:mod:`.openai_evals`, read through the JSON Lines reader);
agent benchmarks' harnesses (SWE-bench, aider, tau-bench, terminal-bench, Harbor) are in
:mod:`scorio_core.io.formats.agents`, single benchmarks' own evaluation scripts (LiveCodeBench, MathArena, CRUXEval)
in :mod:`scorio_core.io.formats.benchmarks`. What the tools write around their results is settled before detection
(:mod:`scorio_core.io.formats.layout`, which also lists the readers that take ``errors_missing``). Each turns its
files into the canonical attempt table of :mod:`scorio_core.io` through
:func:`scorio_core.io._canonical.canonicalize` (lighteval's files through the table reader, their folders naming the
model), with the tool's field names recorded as the mapping.
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
