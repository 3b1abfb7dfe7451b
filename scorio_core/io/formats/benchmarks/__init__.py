"""Readers of single benchmarks' own evaluation scripts (the script a benchmark's repository ships, as opposed to a
general evaluation framework in :mod:`scorio_core.io.formats.harnesses`): each writes its per-problem results in its
own layout, named by its folders and files.

LiveCodeBench outputs (:mod:`.livecodebench`, read as tables, their folders naming the model), MathArena outputs
(:mod:`.matharena`), Qwen2.5-Math evaluation outputs (:mod:`.qwen_math`), EvalPlus and BigCodeBench results
(:mod:`.evalplus`), MMLU-Pro results (:mod:`.mmlu_pro`), Arena-Hard judgments (:mod:`.arena_hard`), AlpacaEval
annotations (:mod:`.alpaca_eval`), WildBench ratings (:mod:`.wildbench`) and CRUXEval scored results (:mod:`.cruxeval`, objects of outcome lists read through the JSON
reader). Each turns its files into the canonical attempt table of :mod:`scorio_core.io` through
:func:`scorio_core.io._canonical.canonicalize` (directly or through the table readers), with the tool's field names
recorded as the mapping; what they write around their results is settled before detection
(:mod:`scorio_core.io.formats.layout`).
Imports: the standard library, numpy, pandas and :mod:`scorio_core.io`'s private helpers.
"""
