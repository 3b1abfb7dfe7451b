"""Models that share no question in a rubric perturbation: each group ranked alone, the largest group's leader studied.

Internal to :func:`scorio_core.sensitivity.perturb_rubric` (the leaderboard's rule,
:mod:`scorio_core.leaderboard.linking`: means of models that share no question average different questions, so no
order across their groups is claimed).
"""

from __future__ import annotations

import numpy as np

__all__ = ["group_labels", "groups_note"]


def group_labels(answered: np.ndarray, mu: np.ndarray, scored: np.ndarray, models):
    """Group labels of the models (None with one group), the mask of the group the leader is taken from, and each
    group's models.

    The groups are :func:`scorio_core.leaderboard.linking.scored_group_labels` of the scored models, numbered and
    ordered by :func:`scorio_core.leaderboard.linking.grouped_order` as the leaderboard numbers them (largest first,
    ties: the group of the better model; in each, best mean first), so label 0 is the group the leader is taken from;
    an unscored model joins group 0, where it ranks last. One group: every model is a member, no names.
    """
    from scorio_core.leaderboard.linking import grouped_order, scored_group_labels

    found = scored_group_labels(answered[scored])
    if found is None:
        return None, np.ones(mu.size, dtype=bool), ()
    idx = np.flatnonzero(scored)
    best_first = idx[np.argsort(-mu[idx], kind="stable")]
    names, numbers = grouped_order([models[i] for i in best_first], {models[i]: int(g) for i, g in zip(idx, found)})
    number = dict(zip(names, numbers))
    labels = np.zeros(mu.size, dtype=np.int64)
    labels[idx] = [number[models[i]] - 1 for i in idx]
    groups = [[m for m, g in zip(names, numbers) if g == k] for k in range(1, max(numbers) + 1)]
    groups[0] += [models[i] for i in np.flatnonzero(~scored)]
    return labels, labels == 0, tuple(tuple(g) for g in groups)


def groups_note(groups, ranks: np.ndarray, models) -> str:
    """The sentence on groups that share no question: ranks within groups, whose leader is studied, the others kept."""
    index = {m: i for i, m in enumerate(models)}
    others = "; ".join(f"{g[0]} keeps its group's rank 1 in {np.mean(ranks[:, index[g[0]]] == 1):.0%}"
                       for g in groups[1:4])
    more = f" (and {len(groups) - 4} more groups)" if len(groups) > 4 else ""
    return (f"the models fall into {len(groups)} groups that share no question, so each group is ranked alone, as the "
            f"leaderboard ranks them; the leader and the drivers are those of the largest group ({len(groups[0])} "
            f"models); in the other groups: {others}{more}. Runs of every model on common questions would compare "
            "the groups")
