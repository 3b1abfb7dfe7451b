"""Question flags with stated rules: possibly mislabeled, saturated, unsolved, low information, flaky.

Every flag is a stable code with a one-line rule (:data:`FLAG_RULES`, printed verbatim by pages and docs) and,
per flagged question, a one-line reason with the numbers behind it. Thresholds are parameters of
:func:`flag_questions` with documented defaults.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.items.irt import IRTFit, check_counts, item_information
from scorio_core.tasks.matrix import FLAKY_RULE

__all__ = ["FLAG_CODES", "FLAG_RULES", "flag_questions", "DEFAULT_LOW_INFORMATION", "DEFAULT_SATURATED_RATE",
           "DEFAULT_MISLABEL_Z", "DEFAULT_MIN_GROUP"]

DEFAULT_SATURATED_RATE = 0.95
#: Mean Fisher information per answering model (one trial) below which a question is ``low_information``: a fifth
#: of the 0.25 that a discrimination-1 question centred on a model carries (a^2 p (1 - p) at p = 1/2).
DEFAULT_LOW_INFORMATION = 0.05
DEFAULT_MISLABEL_Z = 1.96
#: Models needed in each of the strongest and weakest thirds for the pattern rule of ``possibly_mislabeled``.
DEFAULT_MIN_GROUP = 3

FLAG_CODES = ("possibly_mislabeled", "saturated", "unsolved", "low_information", "flaky")

#: One sentence per flag code (the default thresholds; :func:`flag_questions` states the ones it used in each reason).
FLAG_RULES = {
    "possibly_mislabeled": ("discrimination credibly negative (a + 1.96 SE < 0), or the strongest third of the "
                            "models that answered (by ability, at least 3) never succeed while the weakest third "
                            "(at least 3) succeed at a mean rate >= 0.5"),
    "saturated": "every model that answered succeeds at a rate >= 0.95",
    "unsolved": "no success in any trial by any model",
    "low_information": ("Fisher information a^2 p (1 - p) at the answering models' abilities, averaged over those "
                        "models, below 0.05 (a fifth of a discrimination-1 question centred on a model): "
                        "it cannot change a ranking"),
    "flaky": FLAKY_RULE,
}


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


def flag_questions(fit: IRTFit, successes, trials, *, saturated_rate: float = DEFAULT_SATURATED_RATE,
                   low_information: float = DEFAULT_LOW_INFORMATION, mislabel_z: float = DEFAULT_MISLABEL_Z,
                   min_group: int = DEFAULT_MIN_GROUP, mislabel_bottom_rate: float = 0.5) -> pd.DataFrame:
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
    a_hi = fit.a + mislabel_z * fit.a_se
    neg = (fit.model != "rasch") & (a_hi < 0) & (k > 0)
    pattern = (g > 0) & (top_max <= 0) & (bottom_mean >= mislabel_bottom_rate)
    min_rate = np.where(answered, rates, np.inf).min(axis=0)
    saturated = (k > 0) & (min_rate >= saturated_rate)
    unsolved = (k > 0) & (s.sum(axis=0) == 0)
    low = (k > 0) & (info_mean < low_information)
    flaky_models = (answered & (s > 0) & (s < n)).sum(axis=0)

    flags, reasons = [], []
    for j in range(M):  # building the text only; every number above is vectorised
        f, why = [], []
        if neg[j] or pattern[j]:
            f.append("possibly_mislabeled")
            parts = []
            if neg[j]:
                parts.append(f"discrimination {fit.a[j]:.2f} (upper bound {a_hi[j]:.2f} < 0 at z = {mislabel_z:g})")
            if pattern[j]:
                parts.append(f"the {g[j]} strongest models never succeed while the {g[j]} weakest succeed at a mean "
                             f"rate {bottom_mean[j]:.2f}")
            why.append("possibly_mislabeled: " + "; ".join(parts))
        if saturated[j]:
            f.append("saturated")
            why.append(f"saturated: all {k[j]} models succeed at a rate >= {saturated_rate:g} (lowest {min_rate[j]:.2f})")
        if unsolved[j]:
            f.append("unsolved")
            why.append(f"unsolved: 0 successes in {int(n[:, j].sum())} trials by {k[j]} models")
        if low[j]:
            f.append("low_information")
            why.append(f"low_information: mean information {info_mean[j]:.3f} per model < {low_information:g}")
        if flaky_models[j]:
            f.append("flaky")
            why.append(f"flaky: attempts disagree for {flaky_models[j]} of {k[j]} models")
        flags.append(tuple(f))
        reasons.append("\n".join(why))
    return pd.DataFrame({
        "question": list(fit.questions), "difficulty": fit.b, "difficulty_se": fit.b_se, "discrimination": fit.a,
        "discrimination_se": fit.a_se, "information": info, "success_rate": pooled, "n_models": k,
        "flags": flags, "reasons": reasons,
    })
