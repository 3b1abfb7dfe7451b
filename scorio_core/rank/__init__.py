"""The reference package's ``scorio.rank`` API (scorio 0.2.3): ranking methods over a response tensor R.

``R`` has shape (L models, M questions, N trials) (or (L, M), read as N = 1) with binary outcomes;
every method returns competition ranks of its scores (``method=`` chooses the tie convention of
:func:`rank_scores`) and, with ``return_scores=True``, the scores too. Names, signatures, defaults,
return conventions and errors follow the reference; the code is this project's own, vectorised
over models and questions. Issue 38 grows this package method by method:

- :mod:`.ties`: :func:`rank_scores` (competition, competition_max, dense, avg) and input validation;
- :mod:`.pointwise`: :func:`avg`, :func:`inverse_difficulty`;
- :mod:`.eval_ranking`: :func:`bayes`, :func:`pass_at_k`, :func:`pass_hat_k`, :func:`g_pass_at_k_tau`,
  :func:`mg_pass_at_k` (evaluation metrics of :mod:`scorio_core.eval` per model);
- :mod:`.voting`: :func:`borda`, :func:`win_rate`, :func:`nanson`, :func:`baldwin`, :func:`majority_judgment`;
- :mod:`.condorcet`: :func:`copeland`, :func:`minimax`, :func:`schulze`, :func:`ranked_pairs`;
- :mod:`.kemeny`: :func:`kemeny_young` (exact, ``scipy.optimize.milp``);
- :mod:`.graph`: :func:`pagerank`, :func:`spectral`, :func:`alpharank`, :func:`nash`;
- :mod:`.centrality`: :func:`rank_centrality`, :func:`hodge_rank`, :func:`serial_rank`;
- :mod:`.rating`: :func:`elo`, :func:`glicko`, :func:`trueskill` (sequential rating systems);
- :mod:`.likelihood`: the Bradley-Terry family and the Luce family (Plackett-Luce, Davidson-Luce,
  Bradley-Terry-Luce) with the prior classes, Rasch/2PL/3PL (JML and MAP), Rasch by marginal maximum
  likelihood (EM, EAP or posterior-quantile scores), dynamic IRT and MIRT,
  Thompson sampling and Bayesian MCMC;
- :mod:`.agreement`: whether the ranking depends on the method (Kendall's tau_b, rank ranges).
- :mod:`.bootstrap`: each method's rank interval from a percentile bootstrap over questions, the same
  resamples for every method.

Cross-checked against the reference in ``tests/core/test_rank_reference*.py``.
"""

from scorio_core.rank.eval_ranking import bayes, g_pass_at_k_tau, mg_pass_at_k, pass_at_k, pass_hat_k
from scorio_core.rank.condorcet import copeland, minimax, ranked_pairs, schulze
from scorio_core.rank.graph import alpharank, nash, pagerank, spectral
from scorio_core.rank.kemeny import kemeny_young
from scorio_core.rank.likelihood.bayesian import bayesian_mcmc, thompson
from scorio_core.rank.likelihood.irt import rasch, rasch_map
from scorio_core.rank.likelihood.irt_dynamic import dynamic_irt
from scorio_core.rank.likelihood.irt_mirt import mirt
from scorio_core.rank.likelihood.irt_mml import rasch_mml, rasch_mml_credible
from scorio_core.rank.likelihood.irt_xpl import rasch_2pl, rasch_2pl_map, rasch_3pl, rasch_3pl_map
from scorio_core.rank.likelihood.luce import (bradley_terry_luce, bradley_terry_luce_map, davidson_luce,
                                             davidson_luce_map, plackett_luce, plackett_luce_map)
from scorio_core.rank.likelihood.paired import (bradley_terry, bradley_terry_davidson, bradley_terry_davidson_map,
                                               bradley_terry_map, rao_kupper, rao_kupper_map)
from scorio_core.rank.likelihood.priors import (CauchyPrior, CustomPrior, EmpiricalPrior, GaussianPrior,
                                               LaplacePrior, Prior, UniformPrior)
from scorio_core.rank.pointwise import avg, inverse_difficulty
from scorio_core.rank.rating import elo, glicko, trueskill
from scorio_core.rank.centrality import hodge_rank, rank_centrality, serial_rank
from scorio_core.rank.ties import rank_scores, validate_input
from scorio_core.rank.voting import baldwin, borda, majority_judgment, nanson, win_rate

__all__ = [
    "alpharank", "avg", "baldwin", "bayes", "bayesian_mcmc", "borda", "bradley_terry", "bradley_terry_davidson",
    "bradley_terry_davidson_map", "bradley_terry_luce", "bradley_terry_luce_map", "bradley_terry_map", "copeland",
    "davidson_luce", "davidson_luce_map", "dynamic_irt", "elo", "g_pass_at_k_tau", "glicko", "hodge_rank",
    "inverse_difficulty", "kemeny_young", "majority_judgment", "mg_pass_at_k", "minimax", "mirt", "nanson", "nash",
    "pagerank", "pass_at_k", "pass_hat_k", "plackett_luce",
    "plackett_luce_map", "rank_centrality", "rank_scores", "ranked_pairs", "rao_kupper", "rao_kupper_map", "rasch",
    "rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map", "rasch_map", "rasch_mml",
    "rasch_mml_credible", "schulze", "serial_rank", "spectral",
    "thompson", "trueskill", "validate_input", "win_rate",
    "Prior", "UniformPrior", "GaussianPrior", "LaplacePrior", "CauchyPrior", "EmpiricalPrior", "CustomPrior",
]
