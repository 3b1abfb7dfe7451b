"""A rubric executed by the SQL engines: schema -> SQL (DuckDB) or Spark column expressions -> category counts.

- :mod:`.sql`: rubric conditions compiled to parameterised SQL (never formatted user text).
- :mod:`.binding`: which data columns feed which rubric signals.
- :mod:`.derived`: derived signals (ratios, families) as SQL expressions.
- :mod:`.percentiles`: percentile thresholds per task computed in SQL.
- :mod:`.counts`: DuckDB category counts; :mod:`.spark` and :mod:`.spark_columns` the Spark twin.
- :mod:`.outcomes`: category counts -> :class:`scorio_core.leaderboard.outcomes.Outcomes`.

The results equal the pandas rubric path (:mod:`scorio_core.rubric`) exactly; tests cross-check both.
"""
