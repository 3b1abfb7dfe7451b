"""Default bootstrap replicate counts of the dynamics (Trajectories and Convergence pages, ``convergence`` CLI),
set by the cost of the prior.

The closed-form priors (uniform, Jeffreys) always get :data:`DEFAULT_REPLICATES`; the empirical-Bayes prior,
refitted to every (replicate, prefix, model), gets the most replicates that finish within :data:`DEFAULT_BUDGET_S`
(docs/scale.md, "Empirical Bayes in the dynamics"). The estimate depends only on the data's shape and rubric, never
on the machine's clock, so the same data always get the same default.

A ``block`` below is any object with ``R`` (outcome tensor, shape (L, M, N), -1 where a ragged question has no
trial), ``weights`` (rubric weights, one per category) and ``strata`` (task code per question where tasks are
pooled, or None): :class:`dashboard.compute.dynamics.Block` and the CLI's block both are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["DEFAULT_REPLICATES", "DEFAULT_BUDGET_S", "REPLICATE_CHOICES", "default_replicates", "default_note",
           "run_estimate"]

Block = Any  # duck-typed: R, weights, strata (module docstring)


#: Default bootstrap replicates on the Convergence page, under every prior whose run fits the time budget below.
DEFAULT_REPLICATES = 2000
#: Replicate counts the pages offer (and the CLI's budgeted default chooses among), ascending.
REPLICATE_CHOICES = (100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)
#: Seconds a default run may take; beyond it the empirical-Bayes default drops to the most replicates within it.
DEFAULT_BUDGET_S = 8.0
#: Empirical-Bayes refits per replicate, seconds per model x trial x (questions + trials) for a binary rubric:
#: measured on 2 cores, 1.5-1.8e-7 on 20 x 30 x 80 and 50 x 100 x 8 (docs/scale.md); smaller data cost less
#: (repeated fits are solved once).
_EB_SECONDS_PER_UNIT = 1.8e-7
#: That cost relative to a binary rubric by number of categories (more terms per fit, and rare categories put more
#: fits on the likelihood's ridges, where they are redone with special functions). Measured on the paper simulation
#: (20 x 30 x 80, 100 replicates on both cores, 2026-11-30, after categories a fit never observed were held at the
#: bound): 1.4-1.6e-7 s a unit with 2 categories, 1.9e-7 (3), 2.4e-7 (4), 3.1e-7 (5), 3.9e-7 (6 and 7), 5.0e-7 (8)
#: (before: 4.7e-7 with 5, 2.2e-6 with 8); interpolated in log between, and beyond 8 at the slope from 6 to 8.
_EB_CATEGORY_FACTOR = {2: 1.0, 3: 1.2, 4: 1.5, 5: 2.0, 6: 2.4, 8: 3.1}
#: Fixed seconds per replicate and task pooled (the batched fit's Python overhead; dominant on small blocks).
_EB_SECONDS_PER_REPLICATE = 3e-4


def _category_factor(categories: int) -> float:
    """:data:`_EB_CATEGORY_FACTOR` at ``categories`` (log-linear between and beyond the measured counts)."""
    ks = np.array(sorted(_EB_CATEGORY_FACTOR), dtype=float)
    logs = np.log([_EB_CATEGORY_FACTOR[int(k)] for k in ks])
    if categories <= ks[-1]:
        return float(np.exp(np.interp(categories, ks, logs)))
    slope = (logs[-1] - logs[-2]) / (ks[-1] - ks[-2])
    return float(np.exp(logs[-1] + slope * (categories - ks[-1])))


def default_replicates(block: Block, prior: str, choices) -> int:
    """The Convergence page's default replicate count: :data:`DEFAULT_REPLICATES` unless too slow.

    The uniform and Jeffreys priors are closed forms (~0.1 ms per replicate on 20 x 30 x 80): always the default.
    The empirical-Bayes prior is refitted to every (replicate, prefix, model); when its estimated run (growing with
    the block's size and its rubric's categories) exceeds :data:`DEFAULT_BUDGET_S`, the default is the largest of
    ``choices`` within it (at least the smallest choice).

    Parameters
    ----------
    block : Block
        The analysis block (its models, questions, trials and rubric categories, ``len(block.weights)``, set
        the cost).
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
    per_replicate = _seconds_per_replicate(block)
    fits = [c for c in choices if c <= DEFAULT_REPLICATES and c * per_replicate <= DEFAULT_BUDGET_S]
    return max(fits) if fits else min(choices)


def _seconds_per_replicate(block: Block) -> float:
    """Estimated seconds of the empirical-Bayes refits of one replicate on a 2-core server.

    Each task pooled (``block.strata``) is one more fit per (prefix, model), whose survival counts cost ~N each;
    ragged blocks refit from count tensors (~2x, measured 1.5-2.1x on 5-20 models x 30-60 questions x 6-16
    trials); each replicate also costs a fixed ~0.3 ms per task (small blocks, 2026-12-01).
    """
    L, M, N = block.R.shape
    T = 1 if getattr(block, "strata", None) is None else int(np.unique(block.strata).size)
    ragged = 2.0 if bool((block.R < 0).any()) else 1.0
    return (_EB_SECONDS_PER_UNIT * L * N * (M + T * N) * _category_factor(len(block.weights)) * ragged
            + _EB_SECONDS_PER_REPLICATE * T)


def run_estimate(block: Block, count: int) -> str:
    """The estimated cost of ``count`` empirical-Bayes replicates on these data, as a clause for the page.

    Parameters
    ----------
    block : Block
        The analysis block (its size and rubric categories set the cost, as in :func:`default_replicates`).
    count : int
        The replicates chosen.

    Returns
    -------
    str
        E.g. ``"about 0.09 s per replicate on these data on a 2-core server (about 45 s for the 500 chosen)"``;
        an estimate from the measured cost per unit (``benchmarks/bench_rubric_categories.py``: within
        0.93-1.22x of the measured time on the paper simulation under rubrics with 2-8 categories).
    """
    per = _seconds_per_replicate(block)
    total = per * count
    when = "under 1 s" if total < 1 else f"about {total:.0f} s" if total < 90 else f"about {total / 60:.0f} min"
    return f"about {per:.2g} s per replicate on these data on a 2-core server ({when} for the {count:,} chosen)"


def default_note(block: Block, count: int, *, flag: str | None = None) -> str:
    """Why the empirical-Bayes default is ``count`` replicates and not :data:`DEFAULT_REPLICATES` ("" when it is).

    Parameters
    ----------
    block : Block
        The analysis block.
    count : int
        The default :func:`default_replicates` chose.
    flag : str, optional
        The option that asks for more (e.g. ``"--replicates"``): named at the end of the sentence.

    Returns
    -------
    str
        A sentence for the page: the most replicates within :data:`DEFAULT_BUDGET_S`, or, where even the fewest
        offered take longer, their estimated time.
    """
    if count >= DEFAULT_REPLICATES:
        return ""
    head = f"The default here is {count:,} replicates, not {DEFAULT_REPLICATES:,}: "
    seconds = count * _seconds_per_replicate(block)
    full = DEFAULT_REPLICATES * _seconds_per_replicate(block)
    more = (f" {flag} {DEFAULT_REPLICATES} runs them all, in about {full:.0f} s on a 2-core server." if flag else "")
    if seconds <= DEFAULT_BUDGET_S:
        return head + f"the most that finish in about {DEFAULT_BUDGET_S:.0f} s on these data." + more
    return head + (f"the fewest offered, which take about {10 * round(seconds / 10):.0f} s on these data "
                   f"({len(block.weights)} rubric categories: rare categories make the refits slower)." + more)
