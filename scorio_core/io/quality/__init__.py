"""The data-quality report of a load: what it found, what blocks it, and the names and ids written two ways.

:mod:`~scorio_core.io.quality.report` holds the report's types and blocking messages,
:mod:`~scorio_core.io.quality.compute` computes it from a canonical table (every engine's report goes through it), and
:mod:`~scorio_core.io.quality.names` writes the notes on names and ids written two ways.
"""
