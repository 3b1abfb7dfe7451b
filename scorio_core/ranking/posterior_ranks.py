"""Posterior distribution of every model's rank, by exact Dirichlet sampling (no normal approximation).

Hariri et al., "Don't Pass@k: A Bayesian Framework for Large Language Model Evaluation", ICLR 2026,
arXiv:2510.04265, sections 2.3-2.4 (posterior of the weighted score, Eq. 1). Re-exported by :mod:`scorio_core.ranking.rank`.
"""

from __future__ import annotations

import numpy as np

from scorio_core.arrays.order import canonical_order
from scorio_core.eval._validate import check_int, count_array, nonnegative_array, weights_for
from scorio_core.ranking.rank_batch import batch_competition_ranks, batch_group_ranks, name_group_labels
from scorio_core.ranking.rank_words import (HELD_PRIOR, RANK_METHOD, RANK_ROW_KEYS, WITHIN_GROUPS, rank_method,
                                            tie_notes)
from scorio_core.uncertainty.fallback_draws import fallback_score_draws

__all__ = ["posterior_rank_distribution", "posterior_score_draws", "rank_draws", "rank_draws_note", "rank_summary", "RANK_SEED", "RANK_ROW_KEYS",
           "RANK_METHOD", "HELD_PRIOR", "WITHIN_GROUPS", "exchangeable_groups", "rank_method", "tie_notes"]

_GAMMA_BUDGET = 2_000_000  # gamma variates per chunk
#: Gamma variates one rank distribution may draw in all (~0.6 s on 2 cores): :func:`rank_draws`.
_CALL_BUDGET = 12_000_000
#: Fewest draws :func:`rank_draws` gives (Monte-Carlo error of a probability at most 0.5 / sqrt(20) = 11%).
_MIN_DRAWS = 20
#: Draws below which the outputs say the budget cut them (:func:`rank_draws_note`).
_FULL_DRAWS = 200
#: Seed of the rank distribution the app and ``ranks`` draw (recorded in every export's manifest).
RANK_SEED = 0


def rank_draws(n_models: int, n_questions: int, n_categories: int) -> int:
    """Draws for a rank distribution within the time budget: between 20 and 4,000.

    ``12,000,000 // (L M (C+1))`` clipped to [20, 4000] (gamma variates per call ~0.6 s on 2 cores); the Monte-Carlo
    error of a probability is then at most ``0.5 / sqrt(draws)``. Below 200 draws the outputs say so
    (:func:`rank_draws_note`).

    >>> rank_draws(16, 15, 2), rank_draws(93, 1136, 2), rank_draws(3, 10, 2), rank_draws(250, 2000, 2)
    (4000, 56, 4000, 20)
    """
    return int(np.clip(_CALL_BUDGET // max(1, n_models * n_questions * n_categories), _MIN_DRAWS, 4000))


def rank_draws_note(draws: int, chosen: bool = False) -> str:
    """A sentence when the rank distribution ran fewer than 200 draws; else empty.

    ``chosen`` says the user asked for that number (``--draws``); otherwise the time budget cut it.

    >>> rank_draws_note(4000)
    ''
    >>> rank_draws_note(20)[:52]
    'Only 20 joint draws (fewer than the usual 200) to st'
    >>> rank_draws_note(50, chosen=True)[:48]
    '50 joint draws, as asked (fewer than the usual 2'
    """
    if draws >= _FULL_DRAWS:
        return ""
    if chosen:
        return (f"{draws:,} joint draws, as asked (fewer than the usual {_FULL_DRAWS}): each probability carries a "
                f"Monte-Carlo standard error of up to {0.5 / draws ** 0.5:.0%}")
    return (f"Only {draws:,} joint draws (fewer than the usual {_FULL_DRAWS}) to stay within the time budget on data "
            f"this large: each probability carries a Monte-Carlo standard error of up to {0.5 / draws ** 0.5:.0%} "
            "(more draws: the CLI's ranks --draws N)")


def _mean_scores(rng, nu, w, weight, size: int) -> np.ndarray:
    """Bayes@N of each model (size, L) in ``size`` joint Dirichlet draws of its questions."""
    g = rng.standard_gamma(np.broadcast_to(nu, (size,) + nu.shape))
    value = (g @ w) / g.sum(axis=3)  # w . pi per (draw, model, question)
    return np.einsum("dlm,lm->dl", value, weight)


def posterior_rank_distribution(counts, w=None, prior_counts=None, draws: int = 4000, seed=0, alpha=None,
                                shift_sd=None, fallback_mean=None, fallback_sd=None, groups=None) -> np.ndarray:
    r"""Posterior probability that each model holds each rank, by exact Dirichlet sampling.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts of L models on M questions (``Outcomes.counts``). A cell whose
        counts sum to 0 is missing: that question is left out of that model's average
        (as the leaderboard does), never filled.
    w : array-like of float, shape (C+1,), optional
        Category weights; default ``[0, 1]`` (requires C+1 = 2).
    prior_counts : array-like, shape (M, C+1) or (L, M, C+1), optional
        Prior outcome counts (tallies of ``R0``) added to the uniform Dirichlet(1) prior.
    draws : int, default 4000
        Joint posterior draws; the Monte Carlo error of each probability is at most
        ``0.5 / sqrt(draws)``.
    seed : int, numpy.random.Generator or None, default 0
        Random seed or generator (reproducible for a fixed seed).
    alpha : array-like of float, shape (L, M, C+1), optional
        The Dirichlet prior's pseudo-counts in place of the uniform prior's 1 (positive, finite), e.g. the
        leaderboard's prior held at its fit (:func:`scorio_core.ranking.rank_prior.rank_prior_alpha`).
    shift_sd : array-like of float, shape (L,), optional
        Standard deviation of a normal shift added to each model's score in every draw (independent across models
        and draws; score units): the hyperparameter variance of an empirical-Bayes prior held at its fit
        (:func:`scorio_core.ranking.rank_prior.hyperparameter_sd`). Default: no shift (and the same draws as before).
    fallback_mean, fallback_sd : array-like of float, shape (L,), optional
        Models drawn from their leaderboard row instead of their Dirichlet posterior (finite ``fallback_mean``; NaN:
        the Dirichlet): the row's estimate and sd, for models whose empirical-Bayes prior is not identified
        (:func:`scorio_core.ranking.rank_prior.fallback_moments`). Their draws are
        :func:`scorio_core.uncertainty.fallback_draws.fallback_score_draws` (a Beta moment-matched to the row on the
        score range ``[min w, max w]``) from a generator spawned from ``seed``'s, so every other model's draws are
        the same numbers as without them. Default: none.
    groups : array-like of int, shape (L,), optional
        Each model's group of models linked by shared questions (labels >= 0,
        :func:`scorio_core.leaderboard.linking.question_groups`): ranks are then competition ranks *within* each
        group (every group has a rank 1; :func:`scorio_core.ranking.rank_batch.batch_group_ranks`), since scores
        averaged over unlinked question sets have no common scale. The draws are the same numbers. Default: one group.

    Returns
    -------
    ndarray of float, shape (L, L)
        ``P[i, r-1]`` = posterior probability that model i has competition rank r (within its group with
        ``groups``: zero beyond the group's size). Rows sum
        to 1; columns sum to 1 when no draw has ties (ties have probability 0 unless models'
        posteriors are degenerate, e.g. all weights equal). Models with identical data under
        the same prior (:func:`exchangeable_groups`) share one row, the mean of their rows, so
        their probabilities are the same whatever the seed's Monte-Carlo noise.

    Raises
    ------
    TypeError
        Non-numeric ``counts``/``w``/``prior_counts``, non-integer ``draws``.
    ValueError
        Bad shapes, negative or fractional counts, a model with no answered question,
        ``draws < 1``.

    Notes
    -----
    Each draw samples ``pi_la ~ Dirichlet(counts_la + prior_la + 1)`` independently for
    every model and question (Dirichlet via normalized gamma variates), computes
    ``pi_bar_l = (1/M_l) sum_a w . pi_la`` (Eq. 1) and ranks the L values; no normal
    approximation is involved. Work is vectorized and chunked (about 2 million gamma
    variates per chunk; blocks of models when one draw is larger).

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, sections 2.3-2.4, Eq. 1.

    Examples
    --------
    >>> counts = [[[0, 80]] * 5, [[80, 0]] * 5]       # model 0 always right, model 1 never
    >>> posterior_rank_distribution(counts, draws=200).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    c = count_array(counts, "counts", "(L, M, C+1)", 3)
    L = c.shape[0]
    hist = np.zeros(L * L, dtype=np.int64)
    draws = check_int(draws, "draws", 1)
    labels = _group_labels(groups, L)
    for theta in _score_chunks(c, w, prior_counts, draws, seed, alpha, shift_sd, fallback_mean, fallback_sd):
        ranks = (batch_competition_ranks(theta) if labels is None else batch_group_ranks(theta, labels)).astype(np.int64)
        hist += np.bincount((np.arange(L) * L + ranks - 1).ravel(), minlength=L * L)
    P = hist.reshape(L, L) / draws
    for group in exchangeable_groups(c, alpha, prior_counts, shift_sd, fallback_mean, fallback_sd, groups=labels):
        P[group] = P[group].mean(axis=0)  # the same posterior: one distribution, not Monte-Carlo noise between them
    return P


def _group_labels(groups, L: int):
    """Validated ``groups`` labels (int64, shape (L,)) or None (one group)."""
    if groups is None:
        return None
    labels = np.asarray(groups)
    if labels.shape != (L,) or not np.issubdtype(labels.dtype, np.integer) or (L and labels.min() < 0):
        raise ValueError(f"groups must be {L} integer group labels >= 0; got shape {labels.shape}.")
    return None if L == 0 or np.unique(labels).size < 2 else labels.astype(np.int64)


def exchangeable_groups(counts, alpha=None, prior_counts=None, shift_sd=None, fallback_mean=None,
                        fallback_sd=None, groups=None) -> list[np.ndarray]:
    """Groups of models whose score draws have the same distribution (identical data under the same prior).

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts per model and question: identical arrays mean the same counts on the same questions
        (and the same questions missing).
    alpha, prior_counts, shift_sd, fallback_mean, fallback_sd : array-like, optional
        As :func:`posterior_rank_distribution`: a model's prior pseudo-counts (per model and question), prior
        outcome counts (per model when 3-D; 2-D ones are shared), hyperparameter shift and leaderboard-row
        fallback must be equal too (exactly; NaN equals NaN).
    groups : array-like of int, shape (L,), optional
        Group labels (as :func:`posterior_rank_distribution`'s): models of different groups are never exchangeable
        (their ranks are within different groups).

    Returns
    -------
    list of ndarray of int
        Indices of each group of at least 2 exchangeable models, ascending; empty when every model differs.

    Examples
    --------
    >>> [g.tolist() for g in exchangeable_groups([[[2, 0]], [[1, 1]], [[2, 0]]])]
    [[0, 2]]
    """
    c = np.asarray(counts, dtype=float)
    L = c.shape[0]
    parts = [c.reshape(L, -1)]
    if alpha is not None:
        parts.append(np.asarray(alpha, dtype=float).reshape(L, -1))
    if prior_counts is not None and np.ndim(prior_counts) == 3:
        parts.append(np.asarray(prior_counts, dtype=float).reshape(L, -1))
    parts += [np.asarray(v, dtype=float).reshape(L, 1) for v in (shift_sd, fallback_mean, fallback_sd, groups)
              if v is not None]
    key = np.hstack(parts)
    nan = np.isnan(key)
    _, label = np.unique(np.hstack([np.where(nan, 0.0, key), nan]), axis=0, return_inverse=True)
    label = np.asarray(label).ravel()
    return [idx for lab in np.unique(label) if (idx := np.flatnonzero(label == lab)).size > 1]


def _score_chunks(c, w, prior_counts, draws, seed, alpha, shift_sd, fallback_mean, fallback_sd):
    """Every model's Bayes@N in ``draws`` joint draws, by chunks ``(size, L)`` (validated ``c``; the rank
    distribution's draws: :func:`posterior_rank_distribution`, :func:`posterior_score_draws`)."""
    L, M, K = c.shape
    w_a = weights_for(w, K)
    if alpha is None:
        nu = c + 1.0
    else:
        a = np.asarray(alpha, dtype=float)
        if a.shape != c.shape or not np.all(np.isfinite(a)) or not np.all(a > 0):
            raise ValueError(f"alpha must be positive finite pseudo-counts of shape {c.shape}; got shape {a.shape}.")
        nu = c + a
    if prior_counts is not None:
        nu = nu + nonnegative_array(prior_counts, "prior_counts", ((M, K), (L, M, K)))
    present = c.sum(axis=2) > 0
    n_present = present.sum(axis=1)
    if np.any(n_present == 0):
        empty = int(np.argmin(n_present))
        raise ValueError(f"every model needs at least one answered question; model {empty} has none.")
    shift = None
    if shift_sd is not None:
        shift = np.asarray(shift_sd, dtype=float)
        if shift.shape != (L,) or not np.all(np.isfinite(shift)) or np.any(shift < 0):
            raise ValueError(f"shift_sd must be {L} finite standard deviations >= 0; got shape {shift.shape}.")
        shift = shift if shift.any() else None
    rng = np.random.default_rng(seed)
    held, fb_mean, fb_sd, fb_rng = _fallback(L, fallback_mean, fallback_sd, rng)
    weight = present / n_present[:, None]  # (L, M): 1/M_l on answered questions, 0 elsewhere
    chunk = max(1, _GAMMA_BUDGET // (L * M * K))
    rows = max(1, _GAMMA_BUDGET // (M * K))  # one draw larger than a chunk: blocks of models, in the same order
    for start in range(0, draws, chunk):
        size = min(chunk, draws - start)
        if size == 1 and rows < L:  # consecutive blocks consume the generator as one call would: same numbers
            theta = np.concatenate([_mean_scores(rng, nu[lo:lo + rows], w_a, weight[lo:lo + rows], 1)
                                    for lo in range(0, L, rows)], axis=1)
        else:
            theta = _mean_scores(rng, nu, w_a, weight, size)
        if shift is not None:  # law of total variance: the held prior's draws plus the hyperparameters' variance
            theta = theta + rng.standard_normal(theta.shape) * shift
        if held.size:  # not identified: the leaderboard row's mean and sd, from their own stream
            theta[:, held] = fallback_score_draws(fb_rng, fb_mean, fb_sd, float(w_a.min()), float(w_a.max()), size)
        yield theta


def _fallback(L, fallback_mean, fallback_sd, rng):
    """``(models, means, sds, generator)`` of the models drawn from their leaderboard row (validated)."""
    if fallback_mean is None:
        return np.zeros(0, dtype=np.int64), None, None, None
    mean = np.asarray(fallback_mean, dtype=float)
    sd = np.asarray(fallback_sd if fallback_sd is not None else np.full(L, np.nan), dtype=float)
    if mean.shape != (L,) or sd.shape != (L,):
        raise ValueError(f"fallback_mean and fallback_sd must have shape ({L},); got {mean.shape} and {sd.shape}.")
    held = np.flatnonzero(np.isfinite(mean))
    if not np.all(np.isfinite(sd[held])) or np.any(sd[held] < 0):
        raise ValueError("fallback_sd must be a finite sd >= 0 wherever fallback_mean is given.")
    return held, mean[held], sd[held], rng.spawn(1)[0] if held.size else None


def posterior_score_draws(counts, w=None, prior_counts=None, draws: int = 4000, seed=0, alpha=None, shift_sd=None,
                          fallback_mean=None, fallback_sd=None) -> np.ndarray:
    """The joint draws of every model's Bayes@N that :func:`posterior_rank_distribution` ranks (same arguments).

    Returns
    -------
    ndarray of float, shape (draws, L)
        Draw d of model l: the same number the rank distribution with these arguments ranks in its draw d.

    Raises
    ------
    TypeError, ValueError
        As :func:`posterior_rank_distribution`.
    """
    c = count_array(counts, "counts", "(L, M, C+1)", 3)
    draws = check_int(draws, "draws", 1)
    return np.concatenate(list(_score_chunks(c, w, prior_counts, draws, seed, alpha, shift_sd, fallback_mean,
                                             fallback_sd)), axis=0)


def rank_summary(models, counts, w, *, draws: int | None = None, seed: int = RANK_SEED, prior: str = "uniform",
                 alpha=None, prior_note: str = "", shift_sd=None, fallback_mean=None, fallback_sd=None,
                 groups=None) -> dict:
    """:func:`posterior_rank_distribution` of the models that answered, in expected-rank order, with a row each.

    Parameters
    ----------
    models : sequence of str, length L
    counts : array-like of int, shape (L, M, C+1)
        Category counts per model and question (a model with no trial is listed in ``not_ranked``).
    w : array-like of float, shape (C+1,)
        Category weights.
    draws : int, optional
        Joint draws; default :func:`rank_draws` of the answered models' shape (the app's budget).
    seed : int, default :data:`RANK_SEED`
        The draws are made in the models' natural order (:func:`scorio_core.arrays.order.canonical_order`) and
        mapped back: the same counts and seed give the same numbers whatever order the models come in.
    prior : str, default "uniform"
        The prior's name, reported (``alpha`` holds it; :func:`scorio_core.ranking.rank_prior.prior_rank_summary`
        computes both from the leaderboard's prior).
    alpha : array-like of float, shape (L', M, C+1), optional
        Pseudo-counts of the answered models' per-question Dirichlet prior (default: the uniform prior's 1).
    prior_note : str, default ""
        What the prior holds fixed, reported as ``prior_note``.
    shift_sd, fallback_mean, fallback_sd : array-like of float, shape (L',), optional
        As :func:`posterior_rank_distribution`, for the answered models.
    groups : list of list of str, optional
        Models grouped by shared questions (:func:`scorio_core.leaderboard.linking.question_groups`, the
        ``disconnected_groups`` notice's ``groups``). With two or more groups every rank is *within* the model's
        group (a rank across groups would compare question sets as much as models): the probabilities, expected
        ranks and ``rank`` are within-group, rows are ordered by group, then expected rank, and carry ``group``
        (1 = the first list). An answered model in no list is a group of its own. Default: one group.

    Returns
    -------
    dict
        ``models`` (answered, by expected rank, then name), ``ranks`` (1..L', the ranks of the probability
        columns), ``probabilities`` (L' x L': P(model holds rank)), ``ties`` (the groups of models with identical
        data under the same prior, :func:`exchangeable_groups`, in ``models`` order: they share one row of
        probabilities and one ``rank``), ``rows`` (:data:`RANK_ROW_KEYS`; ``rank``: competition rank of the
        expected ranks, ties share the better rank), ``draws``, ``seed``, ``prior``, ``prior_note``,
        ``method`` (:func:`rank_method`), ``monte_carlo_error`` (``0.5 / sqrt(draws)``, the largest standard error
        of a probability), ``monte_carlo_se`` (the largest estimated standard error, ``sqrt(P (1 - P) / draws)``),
        ``note`` (:func:`rank_draws_note`: that fewer than 200 draws ran, and why; empty otherwise), ``not_ranked``,
        ``rank_scope`` (``"all"``, or ``"within_group"`` with two or more ``groups``) and ``groups`` (the answered
        models of each group, in row order; one list without groups).

    Raises
    ------
    ValueError
        Fewer than two models answered, or ``draws < 1``.

    Notes
    -----
    Hariri et al., "Don't Pass@k", ICLR 2026, sections 2.3-2.4 (the per-question Dirichlet posterior).
    """
    c = np.asarray(counts)
    keep = c.sum(axis=(1, 2)) > 0
    names = [str(m) for m, k in zip(models, keep) if k]
    if len(names) < 2:
        raise ValueError(f"{len(names)} model with answers: a rank distribution needs at least 2.")
    default = draws is None
    draws = rank_draws(*c[keep].shape) if default else int(draws)
    if draws < 1:
        raise ValueError(f"draws must be a positive number of draws; got {draws}.")
    o = canonical_order(names)  # drawn in the models' natural order, so any input order gives the same numbers
    labels = name_group_labels(names, groups)

    def canon(v):
        return None if v is None else np.asarray(v, dtype=float)[o]
    P = posterior_rank_distribution(c[keep][o], w, draws=draws, seed=seed, alpha=canon(alpha), shift_sd=canon(shift_sd),
                                    fallback_mean=canon(fallback_mean), fallback_sd=canon(fallback_sd),
                                    groups=None if labels is None else labels[o])[np.argsort(o)]
    ranks = np.arange(1, len(names) + 1)
    expected = P @ ranks
    ties = exchangeable_groups(c[keep], alpha, None, shift_sd, fallback_mean, fallback_sd, groups=labels)
    for group in ties:  # identical rows of P: the same expected rank to the last bit
        expected[group] = expected[group[0]]
    best = np.argmax(P, axis=1)
    lab = np.zeros(len(names), dtype=np.int64) if labels is None else labels
    order = np.lexsort((np.array(names, dtype=object).astype(str), expected, lab))
    key = lab * (len(names) + 2.0) + expected  # expected in [1, L]: each group on its own band
    band = np.sort(key)  # competition rank of the expected ranks within the model's group, O(L log L)
    place = 1 + np.searchsorted(band, key, "left") - np.searchsorted(band, lab * (len(names) + 2.0), "left")
    rows = [{"model": names[i], "expected_rank": float(expected[i]), "most_likely_rank": int(best[i] + 1),
             "p_most_likely": float(P[i, best[i]]), "p_first": float(P[i, 0]), "rank": int(place[i]),
             **({} if labels is None else {"group": int(lab[i]) + 1})} for i in order]
    return {"models": [names[i] for i in order], "ranks": ranks.tolist(), "probabilities": P[order].tolist(),
            "rank_scope": "all" if labels is None else "within_group",
            "groups": [[names[i] for i in order if lab[i] == g] for g in np.unique(lab)],
            "ties": [[names[i] for i in order if i in set(g.tolist())] for g in sorted(ties, key=lambda g: place[g[0]])],
            "rows": rows, "draws": draws, "seed": int(seed), "prior": prior, "prior_note": prior_note,
            "method": rank_method(names, fallback_mean),
            "monte_carlo_error": 0.5 / float(np.sqrt(draws)),
            "monte_carlo_se": float(np.sqrt(P * (1.0 - P) / draws).max()),
            "note": rank_draws_note(draws, chosen=not default),
            "not_ranked": [str(m) for m, k in zip(models, keep) if not k]}
