"""The reference package's ``scorio.rank`` API (scorio 0.2.3): ranking methods over a response tensor R.

``R`` has shape (L models, M questions, N trials) (or (L, M), read as N = 1) with binary outcomes;
every method returns competition ranks of its scores (``method=`` chooses the tie convention of
:func:`rank_scores`) and, with ``return_scores=True``, the scores too. Names, signatures, defaults,
return conventions and errors follow the reference; the code is this project's own, vectorised
over models and questions. Issue 38 grows this package method by method:

- :mod:`.ties`: :func:`rank_scores` (competition, competition_max, dense, avg) and input validation;
- :mod:`.pointwise`: :func:`avg`, :func:`inverse_difficulty`;
- :mod:`.voting`: :func:`borda`, :func:`win_rate`.

Cross-checked against the reference in ``tests/core/test_rank_reference.py``.
"""

from scorio_core.rank.pointwise import avg, inverse_difficulty
from scorio_core.rank.ties import rank_scores, validate_input
from scorio_core.rank.voting import borda, win_rate

__all__ = ["avg", "borda", "inverse_difficulty", "rank_scores", "validate_input", "win_rate"]
