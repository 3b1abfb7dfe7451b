"""Default bootstrap replicate counts of the Trajectories and Convergence pages, set by the cost of the prior.

The closed-form priors (uniform, Jeffreys) always get :data:`DEFAULT_REPLICATES`; the empirical-Bayes prior,
refitted to every (replicate, prefix, model), gets the most replicates that finish within :data:`DEFAULT_BUDGET_S`
(docs/scale.md, "Empirical Bayes in the dynamics").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dashboard.compute.dynamics import Block

__all__ = ["DEFAULT_REPLICATES", "DEFAULT_BUDGET_S", "default_replicates"]


#: Default bootstrap replicates on the Convergence page, under every prior whose run fits the time budget below.
DEFAULT_REPLICATES = 2000
#: Seconds a default run may take; beyond it the empirical-Bayes default drops to the most replicates within it.
DEFAULT_BUDGET_S = 8.0
#: Empirical-Bayes refits per replicate, seconds per model x trial x (questions + trials): measured on 2 cores,
#: 1.5-1.8e-7 on 20 x 30 x 80 and 50 x 100 x 8 (docs/scale.md); smaller data cost less (repeated fits are solved once).
_EB_SECONDS_PER_UNIT = 1.8e-7


def default_replicates(block: Block, prior: str, choices) -> int:
    """The Convergence page's default replicate count: :data:`DEFAULT_REPLICATES` unless too slow.

    The uniform and Jeffreys priors are closed forms (~0.1 ms per replicate on 20 x 30 x 80): always the default.
    The empirical-Bayes prior is refitted to every (replicate, prefix, model); when its estimated run exceeds
    :data:`DEFAULT_BUDGET_S`, the default is the largest of ``choices`` within it (at least the smallest choice).

    Parameters
    ----------
    block : Block
        The analysis block (its models, questions and trials set the cost).
    prior : str
        The dynamics prior (:func:`dashboard.compute.dynamics.dynamics_prior`).
    choices : sequence of int
        The replicate counts the page offers, ascending.

    Returns
    -------
    int
    """
    if prior != "empirical-bayes":
        return DEFAULT_REPLICATES
    L, M, N = block.R.shape
    per_replicate = _EB_SECONDS_PER_UNIT * L * N * (M + N)
    fits = [c for c in choices if c <= DEFAULT_REPLICATES and c * per_replicate <= DEFAULT_BUDGET_S]
    return max(fits) if fits else min(choices)
