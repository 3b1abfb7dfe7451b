"""Low-level array helpers of the core (numpy only): exact grouping of equal rows (:mod:`.rows`) and the canonical
(natural) order of models and questions that seeded draws are made in (:mod:`.order`, imported from there)."""

from scorio_core.arrays.rows import close_groups, equal_rows, group_mean

__all__ = ["equal_rows", "group_mean", "close_groups"]
