"""Two models' difference under an interval scope: paired over questions when they are a sample.

Under ``questions-fixed`` (the paper's estimand) the two models' posteriors are independent
given the questions, so ``Var(mu_A - mu_B) = sigma_A^2 + sigma_B^2``
(:func:`~scorio_core.ranking.compare.difference_posterior`). Under ``questions-sampled`` the
models answered the same draw of questions, and their per-question scores are correlated (a
hard question is hard for every model): the difference must be paired (Miller 2024,
arXiv:2411.00640; docs/metrics.md). Combining the two models' own questions-sampled
intervals as if independent overstates the sd by the covariance term.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr, ndtri

from scorio_core.choices import is_fallback_interval
from scorio_core.ranking.compare import ASSUMPTION, DifferencePosterior, _finite, difference_posterior, difference_span
from scorio_core.ranking.paired_sd import (OWN_MEANS_ASSUMPTION, UNPAIRED_OWN_ASSUMPTION, clustered_own_means_se,
                                           paired_sd_matrix, same_questions)
from scorio_core.ranking.questions_power import PRACTICAL_FACTOR, QuestionsNeeded, questions_meaning, questions_needed
from scorio_core.ranking.separation import trials_needed
from scorio_core.ranking.projection_prior import task_projection_alpha
from scorio_core.uncertainty.posterior import check_scope
from scorio_core.uncertainty.priors import check_prior, not_identified_rule

__all__ = ["pair_trials_needed", "CLUSTERED_ASSUMPTION", "scoped_difference", "questions_needed", "questions_meaning", "QuestionsNeeded", "SAMPLED_ASSUMPTION",
           "UNPAIRED_ASSUMPTION", "NOT_IDENTIFIED_ASSUMPTION", "not_identified_models", "not_identified_note", "not_identified_cause", "names_phrase", "PAIRED_MAX_WORK", "PRACTICAL_FACTOR", "paired_sd_matrix", "paired_pairwise_confidence", "OWN_MEANS_ASSUMPTION",
           "paired_pairwise_ranks", "ranks_are_paired"]

#: What the paired difference under the questions-sampled scope assumes ({m}: questions both models answered).
SAMPLED_ASSUMPTION = (
    "questions are a sample from a larger pool; the difference is paired over the {m} questions both models answered "
    "(a hard question is hard for both): sd = max(sqrt(sigma_A^2 + sigma_B^2) with questions fixed, sd of the "
    "per-question score differences / sqrt({m})) (Miller 2024, arXiv:2411.00640), never narrower than with questions "
    "fixed; interval and P(A > B) use the normal approximation of section 2.5"
)
#: ... with questions in clusters ({m} questions both answered, {c} clusters).
CLUSTERED_ASSUMPTION = (
    "questions are a sample of clusters (passages, templates) from a larger pool; the difference is paired over the {m} "
    "questions both models answered, with a cluster-robust standard error over their {c} clusters (Miller 2024, "
    "arXiv:2411.00640), never narrower than with questions fixed; interval and P(A > B) use the normal approximation "
    "of section 2.5"
)
#: Said first when a model's empirical-Bayes prior is not identified ({names}: those models; N = 1 data).
NOT_IDENTIFIED_ASSUMPTION = (
    "the empirical-Bayes prior is not identified for {names} ({rule}), so {its} sd is the pooled binomial sd sqrt(p(1-p)/n) over {its} n answers, taken on the side facing the "
    "other model from the Beta with that mean and sd (skewed near 0 or 1), not a posterior sd: the interval "
    "and P(A > B) are normal approximations on it, not posterior statements (more trials per question, or a prior "
    "that needs no fit, uniform or Jeffreys, give a posterior)"
)
#: :data:`~scorio_core.ranking.compare.ASSUMPTION` without the Dirichlet posterior it no longer has.
FIXED_APPROXIMATE = (
    "questions are taken as given; the two models' estimates are independent, so Var(mu_A - mu_B) = sigma_A^2 + "
    "sigma_B^2; interval and P(A > B) use the normal approximation of section 2.5"
)
#: ... and when fewer than two questions were answered by both models.
UNPAIRED_ASSUMPTION = (
    "questions sampled from a larger pool, but fewer than two questions were answered by both models, so the "
    "question-sampling variance of the difference cannot be estimated: the interval covers trial noise only "
    "(questions fixed), Var(mu_A - mu_B) = sigma_A^2 + sigma_B^2; more common questions would answer it"
)


def scoped_difference(mu_a, sigma_a, mu_b, sigma_b, question_diffs, *, scope: str = "questions-fixed",
                      confidence: float = 0.95, clusters=None, weights=None, scores=None,
                      not_identified: tuple[str, ...] = (),
                      cause: str | None = None) -> tuple[DifferencePosterior, str]:
    r"""Posterior of ``mu_A - mu_B`` under an interval scope, and the assumption it rests on.

    Parameters
    ----------
    mu_a, sigma_a, mu_b, sigma_b : float
        Each model's posterior mean and its standard deviation **with questions fixed**
        (the leaderboard's ``mu``, ``sigma`` under ``scope="questions-fixed"``).
    question_diffs : array-like of float, shape (M,)
        Per-question score differences ``score_A - score_B`` (the ``diff`` column of
        :func:`~scorio_core.ranking.compare.disagreement_table`); NaN where a model did not answer the question.
    scope : {"questions-fixed", "questions-sampled"}
        ``questions-fixed``: :func:`~scorio_core.ranking.compare.difference_posterior` of the two posteriors, which are
        independent given the questions. ``questions-sampled``: the difference is paired
        over the ``m`` questions both models answered, ``sd = max(sqrt(sigma_A^2 + sigma_B^2),
        sd(d) / sqrt(m))`` with ``d`` the per-question differences (sample sd, ``ddof=1``):
        the per-model rule of :func:`scorio_core.uncertainty.posterior_summary` applied to the
        difference. Hard questions are hard for every model, so the paired sd is smaller than
        the unpaired ``sqrt(SE_A^2 + SE_B^2)`` by the covariance term. With ``m < 2`` the
        question-sampling variance cannot be estimated and the questions-fixed sd is used
        (as ``posterior_summary`` does for one question), and the assumption says so.
    confidence : float, default 0.95
    clusters : array-like of int, shape (M,), optional
        Cluster code of each question (:func:`scorio_core.uncertainty.clustered.cluster_codes`): under
        ``questions-sampled`` the paired standard error is cluster-robust
        (:func:`~scorio_core.uncertainty.clustered.clustered_pair_se`) instead of ``sd(d) / sqrt(m)``.
    weights : array-like of float, shape (C+1,), optional
        The rubric's category weights: the interval is clipped to the differences they allow,
        ``+/-(max w - min w)`` (a normal interval around +0.5 with sd 0.61 is not [-0.70, +1.70] for
        scores in [0, 1]), as the leaderboard clips its normal intervals. Default: not clipped.
    scores : pair of array-like of float, shape (M,) each, optional
        Each model's per-question scores (``score_a``, ``score_b`` of the disagreement table; NaN where it did not
        answer), ``question_diffs`` their difference. Under ``questions-sampled``, when the two answered different
        questions, the sd is that of the difference of their own-question means (``mu_A - mu_B`` is one):
        ``Var_A + Var_B - 2 Cov`` with Cov from the common questions
        (:func:`~scorio_core.ranking.paired_sd.paired_sd_matrix`, as the leaderboard pairs them;
        :data:`~scorio_core.ranking.paired_sd.OWN_MEANS_ASSUMPTION`). Without them, or with equal question sets,
        the paired sd over the common questions above.
    not_identified : tuple of str, default ()
        The models (of the two) whose empirical-Bayes prior is not identified (N = 1: their leaderboard ``interval``
        is :data:`scorio_core.choices.FALLBACK_INTERVAL`, :func:`scorio_core.choices.is_fallback_interval`). Their
        ``sigma`` is the pooled binomial sd ``sqrt(p(1-p)/n)`` over its ``n`` answers, not a posterior sd: the result's ``kind`` is then
        ``"approximate"`` and the assumption says what the interval and ``rho`` are (:data:`NOT_IDENTIFIED_ASSUMPTION`).
    cause : str, optional
        Why, when known (:func:`not_identified_cause`); else the assumption states the whole rule.

    Returns
    -------
    posterior : DifferencePosterior
    assumption : str
        :data:`ASSUMPTION`, :data:`SAMPLED_ASSUMPTION` (with ``m``; :data:`CLUSTERED_ASSUMPTION` with clusters)
        or ``UNPAIRED_ASSUMPTION``; with ``not_identified``, :data:`NOT_IDENTIFIED_ASSUMPTION` first (and
        ``FIXED_APPROXIMATE`` for :data:`ASSUMPTION`).

    Raises
    ------
    ValueError
        Unknown scope; as :func:`~scorio_core.ranking.compare.difference_posterior`.

    References
    ----------
    Miller, "Adding Error Bars to Evals", arXiv:2411.00640 (2024), section on paired
    differences; Hariri et al., "Don't Pass@k", ICLR 2026, section 2.5.

    Examples
    --------
    >>> d, _ = scoped_difference(0.5, 0.01, 0.4, 0.01, [0.2, 0.0, 0.1, 0.1], scope="questions-sampled")
    >>> round(d.sd, 6)   # sd([0.2, 0, 0.1, 0.1]) / 2 = 0.0816497 / 2
    0.040825
    """
    check_scope(scope)
    posterior, assumption = _scoped(mu_a, sigma_a, mu_b, sigma_b, question_diffs, scope, confidence, clusters,
                                    scores)
    if not_identified:
        posterior = posterior._replace(kind="approximate")
        assumption = not_identified_note(not_identified, cause) + "; " + (
            FIXED_APPROXIMATE if assumption == ASSUMPTION else assumption)
    if weights is not None:
        span = difference_span(weights)
        posterior = posterior._replace(lo=max(posterior.lo, -span), hi=min(posterior.hi, span))
    return posterior, assumption


def not_identified_note(models, cause: str | None = None, *, of: int | None = None) -> str:
    """:data:`NOT_IDENTIFIED_ASSUMPTION` for these models (the first clause of :func:`scoped_difference`'s assumption).

    ``cause``: why, when known (:func:`not_identified_cause`, e.g. ``"N = 1: one trial per question"``); else the
    whole rule. ``of``: how many models the view ranks (:func:`names_phrase`: more than five that are all of them
    read "all n models").

    >>> not_identified_note(["m1"])[:60]
    'the empirical-Bayes prior is not identified for m1 (N = 1, f'
    >>> not_identified_note(["m1"], "N = 1: one trial per question")[48:81]
    'm1 (N = 1: one trial per question'
    >>> not_identified_note([f"m{i}" for i in range(300)])[:71]
    'the empirical-Bayes prior is not identified for m0, m1, m2, m3 and 296 '
    >>> not_identified_note([f"m{i}" for i in range(300)], of=300)[:58]
    'the empirical-Bayes prior is not identified for all 300 mo'
    """
    names = [str(m) for m in models]
    return NOT_IDENTIFIED_ASSUMPTION.format(names=names_phrase(names, of=of), its="its" if len(names) == 1 else "their",
                                            rule=cause or not_identified_rule(degenerate=True))


def not_identified_cause(table, models) -> str | None:
    """The one cause every given model's leaderboard ``interval`` label names (``N = 1: one trial per question``:
    :data:`scorio_core.uncertainty.posterior.ONE_TRIAL_CAUSE`; else the reason after "prior not fitted: " when it is
    the same for all, e.g. "too few questions (2 questions; ...)"), or None (the whole rule is said then: a note on
    N = 2 data listing "N = 1" among the reasons read as wrong, CLI QA 2026-12-02)."""
    from scorio_core.uncertainty.fallback import ONE_TRIAL_CAUSE

    if "interval" not in getattr(table, "columns", ()):
        return None
    labels = dict(zip(table["model"].astype(str), table["interval"]))
    named = [labels.get(str(m)) for m in models]
    if not named or not all(isinstance(x, str) for x in named):
        return None
    if all(f"({ONE_TRIAL_CAUSE})" in x for x in named):
        return ONE_TRIAL_CAUSE
    reasons = {x.split("prior not fitted: ", 1)[1].split(" (conservative", 1)[0] if "prior not fitted: " in x else None
               for x in named}
    return reasons.pop() if len(reasons) == 1 and None not in reasons else None


def names_phrase(names, *, of: int | None = None) -> str:
    """Model names in a sentence: all of up to five ("a, b and c"), else four and a count (hundreds of models).

    ``of``: how many models the sentence is about; more than five names that are all of them read "all n models"
    ("m0, m1, m2, m3 and 296 more" read like a subset, QA 2026-12-03).

    >>> names_phrase(["a"]), names_phrase(["a", "b", "c"]), names_phrase([f"m{i}" for i in range(300)])
    ('a', 'a, b and c', 'm0, m1, m2, m3 and 296 more')
    >>> names_phrase(["a", "b", "c"], of=3), names_phrase([f"m{i}" for i in range(300)], of=300)
    ('a, b and c', 'all 300 models')
    """
    names = [str(m) for m in names]
    if len(names) > 5 and of == len(names):
        return f"all {len(names):,} models"
    if len(names) > 5:
        return ", ".join(names[:4]) + f" and {len(names) - 4:,} more"
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "")


def not_identified_models(table, models) -> tuple[str, ...]:
    """The models among ``models`` whose empirical-Bayes prior is not identified in a leaderboard ``table``.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows (``model``, ``interval``: :func:`scorio_core.leaderboard.table.leaderboard`).
    models : iterable of str

    Returns
    -------
    tuple of str
        Those whose ``interval`` is :data:`scorio_core.choices.FALLBACK_INTERVAL` (N = 1), in the order given: the
        ``not_identified`` of :func:`scoped_difference`.
    """
    if "interval" not in table.columns:
        return ()
    labels = dict(zip(table["model"].astype(str), table["interval"]))
    return tuple(str(m) for m in models if is_fallback_interval(labels.get(str(m))))


def _scoped(mu_a, sigma_a, mu_b, sigma_b, question_diffs, scope, confidence, clusters, scores=None):
    if scope == "questions-fixed":
        return difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence), ASSUMPTION
    d = np.asarray(question_diffs, dtype=float)
    if d.ndim != 1:
        raise ValueError(f"question_diffs must be 1-D; got shape {d.shape}.")
    if scores is not None and not same_questions(*scores):
        return _own_means(mu_a, sigma_a, mu_b, sigma_b, d, confidence, clusters, np.asarray(scores, dtype=float))
    if clusters is not None:
        from scorio_core.uncertainty.clustered import clustered_pair_se

        fixed = math.hypot(_finite(sigma_a, "sigma_a"), _finite(sigma_b, "sigma_b"))
        se = clustered_pair_se(d, clusters)
        m = int(np.count_nonzero(~np.isnan(d)))
        if not np.isfinite(se):
            return difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence), UNPAIRED_ASSUMPTION
        posterior = difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence, sd=max(fixed, se))
        n_clusters = len(set(np.asarray(clusters)[~np.isnan(d)].tolist()))
        return posterior, CLUSTERED_ASSUMPTION.format(m=m, c=n_clusters)
    d = d[~np.isnan(d)]  # NaN: a question one of the models did not answer
    if not np.all(np.isfinite(d)):
        raise ValueError("question_diffs must be finite where not NaN; got infinity.")
    if d.size < 2:
        return difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence), UNPAIRED_ASSUMPTION
    fixed = math.hypot(_finite(sigma_a, "sigma_a"), _finite(sigma_b, "sigma_b"))
    paired = float(np.std(d, ddof=1)) / math.sqrt(d.size)
    posterior = difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence, sd=max(fixed, paired))
    return posterior, SAMPLED_ASSUMPTION.format(m=d.size)


def _own_means(mu_a, sigma_a, mu_b, sigma_b, d, confidence, clusters, xs):
    """The questions-sampled difference of two models that answered different questions (:mod:`.paired_sd`)."""
    if xs.shape != (2, d.size):
        raise ValueError(f"scores must be two arrays of {d.size} per-question scores; got shape {xs.shape}.")
    m = int(np.count_nonzero(~np.isnan(d)))
    fixed = math.hypot(_finite(sigma_a, "sigma_a"), _finite(sigma_b, "sigma_b"))
    sizes = {"ma": int(np.count_nonzero(~np.isnan(xs[0]))), "mb": int(np.count_nonzero(~np.isnan(xs[1]))), "m": m}
    if m < 2 and (clusters is not None or min(sizes["ma"], sizes["mb"]) < 2):
        return difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence), UNPAIRED_ASSUMPTION
    if m < 2:  # no covariance to estimate: each model's own question-sampling variance, unpaired
        se = float(paired_sd_matrix(np.zeros(2), xs)[0, 1])
        posterior = difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence, sd=max(fixed, se))
        return posterior, UNPAIRED_OWN_ASSUMPTION.format(**sizes)
    if clusters is not None:
        se = clustered_own_means_se(xs[0], xs[1], clusters)
        if not np.isfinite(se):
            return difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence), UNPAIRED_ASSUMPTION
        either = ~np.isnan(xs).all(axis=0)
        how = f", with a cluster-robust standard error over their {len(set(np.asarray(clusters)[either].tolist()))} clusters"
    else:
        se, how = float(paired_sd_matrix(np.zeros(2), xs)[0, 1]), ""
    posterior = difference_posterior(mu_a, sigma_a, mu_b, sigma_b, confidence, sd=max(fixed, se))
    return posterior, OWN_MEANS_ASSUMPTION.format(how=how, **sizes)


#: Up to this much work (scored models^2 x questions; about 1 s on 2 cores) the questions-sampled pairwise comparisons
#: of a leaderboard are paired: every pair needs its own sd (an L x L matrix, O(L^2 M) time); above it they stay
#: unpaired (each model's own interval, conservative), e.g. 1,000 models x 1,000 questions is paired, 1,000 x 10,000 not.
PAIRED_MAX_WORK = 10**9


def paired_pairwise_confidence(mu, sigma, scores) -> np.ndarray:
    """``rho[i, j] = P(mu_i > mu_j)`` with the paired sd of :func:`paired_sd_matrix` (questions sampled).

    Parameters
    ----------
    mu : array-like of float, shape (L,)
        Posterior means.
    sigma, scores
        As :func:`paired_sd_matrix` (``sigma`` with questions fixed).

    Returns
    -------
    ndarray of float, shape (L, L)
        As :func:`scorio_core.ranking.rank.pairwise_confidence` (``rho[i, j] + rho[j, i] = 1``,
        0.5 on the diagonal; 1, 0 or 0.5 by the sign of the difference where the sd is 0), and
        equal to :func:`scoped_difference`'s ``rho`` for each pair.
    """
    mu = np.asarray(mu, dtype=float)
    sd = paired_sd_matrix(sigma, scores)
    diff = mu[:, None] - mu[None, :]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a subnormal sd: z = +-inf, rho 1 or 0
        rho = np.where(sd > 0, ndtr(diff / np.where(sd > 0, sd, 1.0)), 0.5 * (1.0 + np.sign(diff)))
    np.fill_diagonal(rho, 0.5)
    return rho


def paired_pairwise_ranks(mu, sigma, scores, confidence: float = 0.95, tol: float = 1e-12) -> np.ndarray:
    """The ``pairwise`` tie rule with paired sds: 1 + the number of models B with ``P(mu_B > mu_A) >= confidence``.

    As :func:`scorio_core.ranking.rank.pairwise_ranks` (B counts for A iff ``mu_B - mu_A > tol`` and
    ``mu_B - mu_A >= Phi^{-1}(confidence) sd_AB``), with ``sd_AB`` from :func:`paired_sd_matrix`; with
    every paired term below the questions-fixed sd it equals ``pairwise_ranks(mu, sigma)``.

    Returns
    -------
    ndarray of int64, shape (L,)
    """
    from scorio_core.eval._validate import check_confidence

    confidence = check_confidence(confidence)
    mu = np.asarray(mu, dtype=float)
    sd = paired_sd_matrix(sigma, scores)
    gap = mu[None, :] - mu[:, None]  # gap[a, b] = mu_b - mu_a
    better = (gap > tol) & (gap >= float(ndtri(confidence)) * sd)
    return 1 + better.sum(axis=1).astype(np.int64)


def ranks_are_paired(metric: str, scope: str, tie_rule: str, n_scored: int, n_questions: int) -> bool:
    """Whether a leaderboard's ``rank_ci`` (and its pairwise P(A > B)) pair the models over their common questions.

    Only Bayes@N under the questions-sampled scope with the ``pairwise`` rule, at least two scored
    models and ``n_scored^2 n_questions <=`` :data:`PAIRED_MAX_WORK`; the other metrics, the
    ``paper`` and ``upper-bound`` rules (built on each model's own interval) and larger boards
    combine each model's own interval as if independent (conservative under this scope).
    """
    return (metric == "bayes" and scope == "questions-sampled" and tie_rule == "pairwise" and n_scored >= 2
            and n_scored * n_scored * max(n_questions, 1) <= PAIRED_MAX_WORK)


def pair_trials_needed(outcomes, model_a: str, model_b: str, *, prior: str, confidence: float = 0.95,
                       prior_counts=None):
    """Trials per question needed to separate two models of one task, under the interval's prior.

    What the Compare page and ``compare`` share: each model's projection prior
    (:func:`scorio_core.uncertainty.projection_alpha`; with tasks pooled, one per (model, task) as the
    leaderboard's: :func:`scorio_core.ranking.projection_prior.task_projection_alpha`) and, when given,
    its prior counts R0, passed to :func:`scorio_core.ranking.separation.trials_needed`.

    Parameters
    ----------
    outcomes : Outcomes
        The task's rubric outcomes (``counts`` (L, M, C+1), ``weights`` (C+1,), ``models``).
    model_a, model_b : str
        Two of ``outcomes.models``.
    prior : {"empirical-bayes", "uniform", "jeffreys"}
    confidence : float, default 0.95
    prior_counts : ndarray, shape (L, M, C+1), optional
        Prior counts R0 of every model (rows in ``outcomes.models`` order).

    Returns
    -------
    (TrialsNeeded, tuple of str)
        The projection, and one note per model whose empirical-Bayes prior is not identified
        (its projection then uses the uniform prior), as ``"model: note"``.

    Raises
    ------
    ValueError
        A model not in ``outcomes.models`` or a bad ``confidence`` (from ``trials_needed``).
    """
    ia, ib = outcomes.models.index(model_a), outcomes.models.index(model_b)
    pa = None if prior_counts is None else prior_counts[ia]
    pb = None if prior_counts is None else prior_counts[ib]
    strata = outcomes.strata()  # tasks pooled: a prior per (model, task), as the leaderboard fits it
    (alpha_a, codes_a, note_a), (alpha_b, codes_b, note_b) = (
        task_projection_alpha(outcomes.counts[i], strata, check_prior(prior)) for i in (ia, ib))
    empirical = prior == "empirical-bayes"
    needed = trials_needed(outcomes.counts[ia], outcomes.counts[ib], outcomes.weights, pa, pb, confidence=confidence,
                           alpha_a=alpha_a, alpha_b=alpha_b, empirical_a=empirical and not note_a,
                           empirical_b=empirical and not note_b, strata_a=codes_a, strata_b=codes_b)
    if note_a and note_a == note_b:  # one note for both (N = 1 data: the same sentence twice, QA 2026-12-03)
        return needed, (f"{model_a} and {model_b}: {note_a.replace('for this model', 'for either model')}",)
    notes = tuple(f"{m}: {n}" for m, n in ((model_a, note_a), (model_b, note_b)) if n)
    return needed, notes
