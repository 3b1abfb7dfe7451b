"""Ranking: ranks with credible-interval ties, batched ranks, pairwise comparison, trials needed.

- :mod:`scorio_core.ranking.rank`: competition ranks, tie rules (pairwise, paper, upper-bound),
  pairwise P(A > B), Kendall's tau_b.
- :mod:`scorio_core.ranking.posterior_ranks`: the posterior of every model's rank by Dirichlet sampling.
- :mod:`scorio_core.ranking.rank_batch`: the same for many replicates at once (bootstrap).
- :mod:`scorio_core.ranking.compare`: two models head to head (difference posterior, per-question disagreements).
- :mod:`scorio_core.ranking.paired`: their difference under an interval scope (paired over questions when sampled).
- :mod:`scorio_core.ranking.paired_sd`: its sd for every pair (own-question means when question sets differ).
- :mod:`scorio_core.ranking.separation`: trials per question needed to separate two models, with power.
"""
