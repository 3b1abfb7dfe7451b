"""Models that share no question in a rubric perturbation: each group ranked alone, the largest group's leader studied.

Internal to :func:`scorio_core.sensitivity.perturb_rubric` (the leaderboard's rule,
:mod:`scorio_core.leaderboard.linking`: means of models that share no question average different questions, so no
order across their groups is claimed).
"""

from __future__ import annotations

import numpy as np

__all__ = ["group_labels", "group_names", "groups_note"]


def group_labels(answered: np.ndarray, mu: np.ndarray, scored: np.ndarray):
    """Group labels of the models (None with one group) and the mask of the group the leader is taken from.

    Labels are :func:`scorio_core.leaderboard.linking.scored_group_labels` of the scored models, renumbered largest
    group first (ties: the one with the higher best mean), so group 0 is the one the leader is taken from; an unscored
    model joins group 0, where it ranks last. One group: every model is a member.
    """
    from scorio_core.leaderboard.linking import scored_group_labels

    found = scored_group_labels(answered[scored])
    if found is None:
        return None, np.ones(mu.size, dtype=bool)
    sizes = np.bincount(found)
    best = np.full(sizes.size, -np.inf)
    np.maximum.at(best, found, mu[scored])
    renumber = np.empty(sizes.size, dtype=np.int64)
    renumber[np.lexsort((-best, -sizes))] = np.arange(sizes.size)
    labels = np.zeros(mu.size, dtype=np.int64)
    labels[scored] = renumber[found]
    return labels, labels == 0


def group_names(labels: np.ndarray, mu: np.ndarray, models) -> tuple[tuple[str, ...], ...]:
    """Each group's models, best first by the unperturbed mean (unscored last), in the order of ``labels``."""
    order = np.argsort(-np.where(np.isfinite(mu), mu, -np.inf), kind="stable")
    return tuple(tuple(models[i] for i in order if labels[i] == g) for g in range(int(labels.max()) + 1))


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
