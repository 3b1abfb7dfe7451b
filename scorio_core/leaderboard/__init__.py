"""The leaderboard: from a loaded dataset to one row per model with credible intervals, and back.

The product's central computation, one module per step:

- :mod:`~scorio_core.leaderboard.outcomes`: the :class:`Outcomes` of one task, the (L, M, N) category
  tensor and (L, M, C+1) counts, from attempts or a count table.
- :mod:`~scorio_core.leaderboard.task_outcomes`: per-task outcomes of a dataset (task names, one
  task or all pooled, a rubric's categories, question clusters).
- :mod:`~scorio_core.leaderboard.metrics`: the registry of leaderboard metrics (Bayes@N, avg@N,
  Pass@k, Pass^k, G-Pass@k_tau, mG-Pass@k, ...), each with its credible interval.
- :mod:`~scorio_core.leaderboard.checks`: question sets (own, common, missing counted wrong) and the
  notices a leaderboard carries when a question cannot be answered as shown.
- :mod:`~scorio_core.leaderboard.table`: :func:`~scorio_core.leaderboard.table.leaderboard`, the table itself.
- :mod:`~scorio_core.leaderboard.order`: the table's row order (score, exact ties by name), shared with the
  models x tasks matrix.
- :mod:`~scorio_core.leaderboard.costs`: cost and token columns per model (score-vs-cost views).
- :mod:`~scorio_core.leaderboard.drilldown`: every attempt behind a cell (one question, some models).

Import from the modules (``from scorio_core.leaderboard.table import leaderboard``); this package
initialiser imports nothing, so loading one step never loads the others.
"""
