"""Voting and graph methods on boards beyond the reference differential tests (L up to 40): the fast paths equal the
plain algorithms they replace (ranked pairs: the closure is updated only where a victory adds a path; alpha-Rank:
the same power iterates, bit for bit)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.rank import condorcet, graph
from scorio_core.rank.condorcet import level_scores, preference_counts
from scorio_core.rank.ties import rank_with


def _ranked_pairs_plain(R):
    """Ranked pairs with the full rank-1 closure update after every locked victory (the algorithm as first written)."""
    P = preference_counts(condorcet._counts(R), "half")
    L = P.shape[0]
    winner, loser = condorcet.victory_order(P)
    reach, locked = np.eye(L, dtype=bool), np.zeros((L, L), dtype=bool)
    for w, lo in zip(winner, loser):
        if reach[lo, w]:
            continue
        locked[w, lo] = True
        reach |= np.logical_and.outer(reach[:, w], reach[lo, :])
    return rank_with(level_scores(locked), "competition", True)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(1, 6), st.integers(1, 3))
def test_ranked_pairs_equals_the_plain_closure_update(seed, L, M, N):
    rng = np.random.default_rng(seed)
    R = (rng.random((L, M, N)) < rng.beta(0.7, 0.7, (L, 1, 1))).astype(int)  # many ties and cycles on few questions
    ranks, scores = condorcet.ranked_pairs(R, return_scores=True)
    want_ranks, want_scores = _ranked_pairs_plain(R)
    assert np.array_equal(ranks, want_ranks) and np.array_equal(scores, want_scores)


def test_alpharank_on_300_models_is_a_distribution_and_orders_by_strength():
    rng = np.random.default_rng(1)
    p = np.sort(rng.uniform(0.05, 0.95, 300))[::-1]
    R = (rng.random((300, 20, 3)) < p[:, None, None]).astype(int)
    ranks, pi = graph.alpharank(R, return_scores=True)
    assert np.all(pi >= 0) and abs(pi.sum() - 1.0) < 1e-12
    assert ranks[0] == 1 and np.corrcoef(ranks, np.arange(300))[0, 1] > 0.9
