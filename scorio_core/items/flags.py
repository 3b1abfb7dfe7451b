"""Question flags with stated rules: possibly mislabeled, saturated, unsolved, low information, flaky.

Every flag is a stable code with a one-line rule (:data:`FLAG_RULES`, printed verbatim by pages and docs) and,
per flagged question, a one-line reason with the numbers behind it. Thresholds are parameters of
:func:`flag_questions` with documented defaults.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from scorio_core.errors import InputError
from scorio_core.items.irt import PRIORS, IRTFit, check_counts, item_information
from scorio_core.tasks.matrix import FLAKY_RULE

__all__ = ["FLAG_CODES", "FLAG_RULES", "flag_questions", "DEFAULT_LOW_INFORMATION", "DEFAULT_SATURATED_RATE",
           "DEFAULT_MISLABEL_Z", "DEFAULT_MIN_GROUP", "DEFAULT_MISLABEL_LOG_ODDS", "sign_log_odds"]

DEFAULT_SATURATED_RATE = 0.95
#: Mean Fisher information per answering model (one trial) below which a question is ``low_information``: a fifth
#: of the 0.25 that a discrimination-1 question centred on a model carries (a^2 p (1 - p) at p = 1/2).
DEFAULT_LOW_INFORMATION = 0.05
DEFAULT_MISLABEL_Z = 1.96
#: Log posterior odds of the best negative over the best positive discrimination (abilities fixed) above which a
#: question is ``possibly_mislabeled``: log 10, odds of 10 to 1.
DEFAULT_MISLABEL_LOG_ODDS = float(np.log(10.0))
#: Models needed in each of the strongest and weakest thirds for the pattern rule of ``possibly_mislabeled``.
DEFAULT_MIN_GROUP = 3

FLAG_CODES = ("possibly_mislabeled", "saturated", "unsolved", "low_information", "flaky")

#: One sentence per flag code (the default thresholds; :func:`flag_questions` states the ones it used in each reason).
FLAG_RULES = {
    "possibly_mislabeled": ("a negative discrimination fits better: with the abilities fixed, the question's log "
                            "posterior at its best a < 0 exceeds that at its best a > 0 by more than log 10 (odds "
                            "10:1); or discrimination credibly negative (a + 1.96 SE < 0); or the strongest third of "
                            "the models that answered (by ability, at least 3) never succeed while the weakest third "
                            "(at least 3) succeed at a mean rate >= 0.5"),
    "saturated": "every model that answered succeeds at a rate >= 0.95",
    "unsolved": "no success in any trial by any model",
    "low_information": ("Fisher information a^2 p (1 - p) at the answering models' abilities, averaged over those "
                        "models, below 0.05 (a fifth of a discrimination-1 question centred on a model), or no "
                        "outcome varies (every trial of every model failed, or every one succeeded: the question's "
                        "parameters are then the prior's): it cannot change a ranking; not given to a possibly_mislabeled "
                        "question on its information alone (that information is computed at a discrimination the other "
                        "flag says is wrong)"),
    "flaky": FLAKY_RULE,
}


def _question_objective(a, b, theta, s, n, priors):
    """Negative log posterior of each question's (a, b) with the abilities fixed, shape (M,)."""
    eta = a[None, :] * (theta[:, None] - b[None, :])
    (mb, sb), (ma, sa) = priors["b"], priors["a"]
    softplus = np.log1p(np.exp(-np.abs(eta))) + np.maximum(eta, 0.0)
    return ((n * softplus - s * eta).sum(axis=0) + 0.5 * ((b - mb) / sb) ** 2
            + 0.5 * ((a - ma) / sa) ** 2)


def _signed_mode(theta, s, n, sign, a0, b0, priors, max_iter=50, tol=1e-2):
    """Per question, the posterior mode of (a, b) restricted to ``sign * a > 0`` with the abilities fixed.

    Fisher scoring in ``(u, b)`` with ``a = sign * exp(u)`` (the restriction without a boundary), vectorised over
    the questions still moving, with step halving per question so that every question's objective decreases. A
    question leaves once its Newton decrement ``g^T I^-1 g / 2`` (the decrease a full step predicts) is below ``tol``
    or no decrease is found: the objective is then within about ``tol`` of its minimum, ample against the flag's
    threshold of log 10. Returns the minimised negative log posterior per question and the mode's ``(a, b)``.
    """
    (mb, sb), (ma, sa) = priors["b"], priors["a"]
    u, b = np.log(np.maximum(np.abs(np.asarray(a0, float)), 1e-300)), np.array(b0, dtype=float)  # a = sign |a0|
    F = _question_objective(sign * np.exp(u), b, theta, s, n, priors)
    act = np.arange(b.size)
    for _ in range(max_iter):
        if act.size == 0:
            break
        sj, nj, uj, bj, Fj = s[:, act], n[:, act], u[act], b[act], F[act]
        a = sign * np.exp(uj)
        d = theta[:, None] - bj[None, :]
        p = expit(a[None, :] * d)
        r, w = sj - nj * p, nj * p * (1 - p)
        ga, gb = -(r * d).sum(axis=0) + (a - ma) / sa**2, a * r.sum(axis=0) + (bj - mb) / sb**2
        wd = w * d
        Iaa, Ibb, Iab = (wd * d).sum(axis=0) + 1 / sa**2, a * a * w.sum(axis=0) + 1 / sb**2, -a * wd.sum(axis=0)
        gu, Iuu, Iub = a * ga, a * a * Iaa, a * Iab  # chain rule through a = sign exp(u)
        det = Iuu * Ibb - Iub**2
        du, db = -(Ibb * gu - Iub * gb) / det, -(Iuu * gb - Iub * gu) / det
        moving = -0.5 * (gu * du + gb * db) >= tol  # Newton decrement of the Fisher step
        du = np.clip(du, -2.0, 2.0)  # at most a factor e^2 on |a| per step
        t, todo = np.ones(act.size), np.arange(act.size)
        for _ in range(30):  # halve each question's step until its objective does not increase
            u_new, b_new = uj[todo] + t[todo] * du[todo], bj[todo] + t[todo] * db[todo]
            F_new = _question_objective(sign * np.exp(u_new), b_new, theta, sj[:, todo], nj[:, todo], priors)
            ok = F_new <= Fj[todo]
            uj[todo[ok]], bj[todo[ok]], Fj[todo[ok]] = u_new[ok], b_new[ok], F_new[ok]
            todo = todo[~ok]
            if todo.size == 0:
                break
            t[todo] *= 0.5
        t[todo] = 0.0  # no decrease found: the question stays where it is
        u[act], b[act], F[act] = uj, bj, Fj
        act = act[moving & (t > 0)]
    return F, sign * np.exp(u), b


def sign_log_odds(fit: IRTFit, successes, trials, priors=None, *, return_negative_mode: bool = False):
    """Per question: log posterior at the best ``a < 0`` minus that at the best ``a > 0``, abilities fixed.

    A likelihood-ratio comparison of the question read as labelled against the question read upside down:
    a question whose outcomes were inverted (strong models fail, weak ones pass) has a large positive value.
    Both modes are searched from the fit's ``(|a|, b)`` (the reflection of the curve about its difficulty),
    so the comparison does not depend on which of the two the joint fit converged to. Rasch fits get zeros.

    ``priors`` defaults to :data:`~scorio_core.items.irt.PRIORS` carried to the scale the fit reports
    (``fit.scale``: ``b ~ N(0, (fit.b_prior_sd / c)^2)``, ``a ~ N(c, (1.5 c)^2)``), i.e. the posterior the fit was
    made under, in the reported parameters.

    Returns
    -------
    ndarray, shape (M,), or (odds, a_neg, b_neg)
        With ``return_negative_mode``, also the discrimination (< 0) and difficulty of the best ``a < 0``
        mode per question (NaN for Rasch fits): what the question's curve looks like read upside down,
        for the reason of a flag (the joint fit may sit at a small positive ``a`` on such a question).
    """
    s, n = check_counts(successes, trials)
    if priors is None:  # the fit's priors, carried to the scale it reports (fit.scale): the same posterior
        c = fit.scale
        priors = {"theta": (PRIORS["theta"][0], PRIORS["theta"][1] / c), "b": (PRIORS["b"][0] / c, fit.b_prior_sd / c),
                  "a": (PRIORS["a"][0] * c, PRIORS["a"][1] * c)}
    if fit.model == "rasch":
        zeros = np.zeros(s.shape[1])
        return (zeros, np.full(zeros.shape, np.nan), np.full(zeros.shape, np.nan)) if return_negative_mode else zeros
    # starts on the mode's scale (fit.scale), so the search is the same whatever scale the fit reports
    a0 = np.maximum(np.abs(fit.a), 0.1 * fit.scale)
    pos, _, _ = _signed_mode(fit.theta, s, n, 1.0, a0, fit.b, priors)  # where fit.a > 0 this is the fit: one step
    # a < 0 from two starts, the better per question: the fit's curve reflected (-|a|, b) and a nearly flat curve
    # (-0.001, b), from which the search can reach a mode far from the reflection (e.g. a very low difficulty)
    neg, a_neg, b_neg = _signed_mode(fit.theta, s, n, -1.0, a0, fit.b, priors)
    flat, a_flat, b_flat = _signed_mode(fit.theta, s, n, -1.0, np.full_like(a0, 1e-3 * fit.scale), fit.b, priors)
    better = flat < neg
    neg, a_neg, b_neg = np.where(better, flat, neg), np.where(better, a_flat, a_neg), np.where(better, b_flat, b_neg)
    return (pos - neg, a_neg, b_neg) if return_negative_mode else pos - neg


def _thirds(theta: np.ndarray, rates: np.ndarray, answered: np.ndarray, min_group: int):
    """Per question: max success rate of the strongest third, mean rate of the weakest third, group size (0 if too few).

    Thirds are taken among the models that answered the question, ordered by ability (``floor(k / 3)`` models each).
    """
    L, M = rates.shape
    order = np.argsort(-theta, kind="stable")  # strongest first
    ans = answered[order]
    r = np.where(ans, rates[order], np.nan)
    k = ans.sum(axis=0)
    g = k // 3
    rank = np.cumsum(ans, axis=0) - 1  # 0-based rank among answering models, strongest first
    top = ans & (rank < g[None, :])
    bottom = ans & (rank >= (k - g)[None, :])
    top_max = np.where(top, r, -np.inf).max(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        bottom_mean = np.where(bottom, r, 0.0).sum(axis=0) / g
    g = np.where(g >= min_group, g, 0)
    return top_max, bottom_mean, g


def _models(n) -> str:
    return f"{int(n)} model" + ("" if int(n) == 1 else "s")


def flag_questions(fit: IRTFit, successes, trials, *, saturated_rate: float = DEFAULT_SATURATED_RATE,
                   low_information: float = DEFAULT_LOW_INFORMATION, mislabel_z: float = DEFAULT_MISLABEL_Z,
                   min_group: int = DEFAULT_MIN_GROUP, mislabel_bottom_rate: float = 0.5,
                   mislabel_log_odds: float = DEFAULT_MISLABEL_LOG_ODDS, disagree=None) -> pd.DataFrame:
    """Diagnose every question of a fitted count table.

    Parameters
    ----------
    fit : IRTFit
        From :func:`scorio_core.items.fit_irt` on the same ``successes`` and ``trials``.
    successes, trials : array_like, shape (L, M)
        The count table (0 trials = missing cell).
    saturated_rate : float, default 0.95
        ``saturated`` when every answering model's success rate is at least this.
    low_information : float, default 0.05
        ``low_information`` when the Fisher information at the answering models' abilities, averaged over
        those models, is below this (see :data:`DEFAULT_LOW_INFORMATION`).
    mislabel_z : float, default 1.96
        ``possibly_mislabeled`` when ``a + mislabel_z * a_se < 0`` (2PL only), or by the pattern rule.
    min_group : int, default 3
        Models needed in each third for the pattern rule.
    mislabel_bottom_rate : float, default 0.5
        Mean success rate of the weakest third needed by the pattern rule.
    mislabel_log_odds : float, default log 10
        ``possibly_mislabeled`` when :func:`sign_log_odds` exceeds this (2PL only): a negative discrimination
        fits the question better than any positive one by these log posterior odds.
    disagree : array_like of bool, shape (L, M), optional
        The (model, question) cells whose attempts fall in more than one category (``flaky``'s rule, needed when
        ``successes`` are rubric-weighted: one draw scored 0.5 is partial credit, not disagreement); default
        ``0 < successes < trials`` (0/1 outcomes).

    Returns
    -------
    DataFrame
        One row per question, in the fit's order: ``question, difficulty, difficulty_se, discrimination,
        discrimination_se, information`` (summed over answering models at their abilities, one trial each),
        ``success_rate`` (successes / trials pooled), ``n_models``, ``flags`` (tuple of codes from
        :data:`FLAG_CODES`), ``reasons`` (one line per flag, joined by newlines).

    Raises
    ------
    InputError
        Bad counts (:func:`scorio_core.items.irt.check_counts`) or a table whose shape differs from the fit's.
    """
    s, n = check_counts(successes, trials)
    L, M = s.shape
    if (L, M) != (fit.theta.size, fit.b.size):
        raise InputError(f"the count table has shape {(L, M)} but the fit has {fit.theta.size} models and "
                         f"{fit.b.size} questions; pass the table the fit was made on.", field="successes")
    answered = n > 0
    k = answered.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(answered, s / np.where(answered, n, 1), np.nan)
        pooled = s.sum(axis=0) / n.sum(axis=0)
    info = np.where(answered.T, item_information(fit.a, fit.b, fit.theta), 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        info_mean = info / k
    top_max, bottom_mean, g = _thirds(fit.theta, np.nan_to_num(rates), answered, min_group)
    # the sign of a does not depend on the ability scale: its SE with the scale fixed (fit.scale_var)
    a_hi = fit.a + mislabel_z * fit.se_given_scale(fit.a, fit.a_se)
    neg = (fit.model != "rasch") & (a_hi < 0) & (k > 0)
    if np.isfinite(mislabel_log_odds):
        odds, a_neg, _ = sign_log_odds(fit, s, n, return_negative_mode=True)
    else:  # inf: rule switched off
        odds, a_neg = np.zeros(M), np.full(M, np.nan)
    flipped = (fit.model != "rasch") & (odds > mislabel_log_odds) & (k > 0)
    pattern = (g > 0) & (top_max <= 0) & (bottom_mean >= mislabel_bottom_rate)
    min_rate = np.where(answered, rates, np.inf).min(axis=0)
    saturated = (k > 0) & (min_rate >= saturated_rate)
    totals = s.sum(axis=0)
    unsolved = (k > 0) & (totals == 0)
    # a question whose every trial failed (or succeeded) separates no models whatever its fitted curve: its difficulty
    # is the prior's, so its information at the abilities is too; flagged by the data, not by that number
    constant = unsolved | ((k > 0) & (totals == n.sum(axis=0)))
    # a possibly mislabeled question's information is computed at the fitted a, which that flag says is wrong (an
    # inverted question fits a small positive a): not called low_information on that number (helper QA, 2026-12-02)
    mislabeled = neg | pattern | flipped
    low = (k > 0) & (((info_mean < low_information) & ~mislabeled) | constant)
    split = (s > 0) & (s < n) if disagree is None else np.asarray(disagree, dtype=bool)
    flaky_models = (answered & split).sum(axis=0)

    flags, reasons = [], []
    for j in range(M):  # building the text only; every number above is vectorised
        f, why = [], []
        if mislabeled[j]:
            f.append("possibly_mislabeled")
            parts = []
            if flipped[j]:
                parts.append(f"a negative discrimination fits better (best a < 0: {a_neg[j]:.2f}, against "
                             f"{fit.a[j]:.2f} as fitted; log posterior odds {odds[j]:.1f} > {mislabel_log_odds:.2f}, "
                             "abilities fixed)" if fit.a[j] > 0 else
                             f"a negative discrimination fits better (fitted a = {fit.a[j]:.2f}; log posterior odds "
                             f"of the best a < 0 against the best a > 0: {odds[j]:.1f} > {mislabel_log_odds:.2f}, "
                             "abilities fixed)")
            if neg[j]:
                # the sign of a does not depend on the ability scale: this bound leaves the scale's uncertainty out,
                # which the interval shown beside it includes (it can reach above 0 while this one does not)
                parts.append(f"discrimination {fit.a[j]:.2f} (upper bound {a_hi[j]:.2f} < 0 at z = {mislabel_z:g} "
                             "with the scale held fixed: the sign does not depend on the scale"
                             + ("; the interval shown adds the scale's uncertainty" if fit.scale_var > 0 else "") + ")")
            if pattern[j]:
                parts.append(f"the {g[j]} strongest models never succeed while the {g[j]} weakest succeed at a mean "
                             f"rate {bottom_mean[j]:.2f}")
            why.append("possibly_mislabeled: " + "; ".join(parts))
        if saturated[j]:
            f.append("saturated")
            why.append(f"saturated: all {_models(k[j])} succeed at a rate >= {saturated_rate:g} (lowest {min_rate[j]:.2f})")
        if unsolved[j]:
            f.append("unsolved")
            why.append(f"unsolved: 0 successes in {int(n[:, j].sum())} trials by {_models(k[j])}")
        if low[j]:
            f.append("low_information")
            why.append(f"low_information: mean information {info_mean[j]:.3f} per model < {low_information:g} "
                       f"(the information column sums it over the {_models(k[j])}: {info_mean[j] * k[j]:.3f})"
                       if info_mean[j] < low_information else
                       f"low_information: no outcome varies (all {int(n[:, j].sum())} trials "
                       f"{'failed' if unsolved[j] else 'succeeded'}), so it separates no models (its fitted mean "
                       f"information {info_mean[j]:.3f} per model is the prior's)")
        if flaky_models[j]:
            f.append("flaky")
            why.append(f"flaky: attempts disagree for {flaky_models[j]} of {_models(k[j])}")
        flags.append(tuple(f))
        reasons.append("\n".join(why))
    return pd.DataFrame({
        "question": list(fit.questions), "difficulty": fit.b, "difficulty_se": fit.b_se, "discrimination": fit.a,
        "discrimination_se": fit.a_se, "information": info, "success_rate": pooled, "n_models": k,
        "flags": flags, "reasons": reasons,
    })
