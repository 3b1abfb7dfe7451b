"""Trials that are not exchangeable repeats: success that depends on the trial's position.

Bayes@N (paper section 2), its credible intervals and the Pass@k family treat a model's N trials
of a question as exchangeable draws of one categorical outcome. A dump whose second trial is made
only after a failed first one (a retry, e.g. ARC-AGI's two attempts), or whose trials use different
settings, breaks that: the success rate then differs by trial position far beyond chance, and the
model's score is not a per-attempt success rate. :func:`trial_position_effects` finds such models
with a chi-square test of homogeneity of the success rate across trial positions (one 2 x N table
per model, all models at once) and a minimum size of the difference, so that a leaderboard can say so.
"""

from __future__ import annotations

import numpy as np
from scipy.special import chdtrc  # chi2.sf(x, df) without importing scipy.stats (~0.3 s on 2 cores)

__all__ = ["trial_position_effects", "trial_position_notice", "trial_position_note", "STOP_ASSUMES_EXCHANGEABLE",
           "MIN_GAP", "ALPHA", "MIN_ATTEMPTS"]

#: Family-wise level of the test (Bonferroni over the models tested): only clear departures are reported.
ALPHA = 1e-6
#: Smallest difference between the highest and lowest success rate by position worth reporting.
MIN_GAP = 0.2
#: What a planner's stop decision assumes, said after the notice by ``plan`` and the Plan page.
STOP_ASSUMES_EXCHANGEABLE = ("A stop decision assumes exchangeable trials as well: the goal's probability treats each "
                             "model's trials as draws of one success rate, which these models' are not, so a stop that "
                             "rests on them may not hold.")
#: Positions with fewer answered trials than this are left out of a model's test (the chi-square needs counts).
MIN_ATTEMPTS = 10


def trial_position_effects(outcomes, *, alpha: float = ALPHA, min_gap: float = MIN_GAP) -> list[dict]:
    """Models whose success rate differs by trial position beyond chance (trials not exchangeable).

    Parameters
    ----------
    outcomes : Outcomes
        Binary outcomes of one task (``R`` (L, M, N) int16 in source trial order, -1 where a cell has fewer
        trials; category 1 is a success). ``R is None`` (counts only: order unknown) gives ``[]``.
    alpha : float, default :data:`ALPHA`
        Family-wise level: a model is reported when its p-value is below ``alpha / L_tested``.
    min_gap : float, default :data:`MIN_GAP`
        And when its highest and lowest success rate by position differ by at least this much.

    Returns
    -------
    list of dict
        One per reported model, in ``outcomes.models`` order: ``model``, ``rates`` (success rate by position,
        NaN for a position left out), ``attempts`` (answered trials by position), ``statistic`` and ``p_value``
        (Pearson chi-square of homogeneity over the positions with at least :data:`MIN_ATTEMPTS` trials, df =
        positions - 1).

    Notes
    -----
    All models at once on (L, N) tables of successes and trials; no loop over models or questions.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> R = np.zeros((2, 40, 2), dtype=np.int16); R[0, :36, 0] = 1; R[0, :2, 1] = 1  # model a: 90% then 5%
    >>> R[1, ::2, :] = 1                                                               # model b: 50% and 50%
    >>> [e["model"] for e in trial_position_effects(SimpleNamespace(R=R, models=("a", "b")))]
    ['a']
    """
    R = getattr(outcomes, "R", None)
    if R is None or R.ndim != 3 or R.shape[2] < 2:
        return []
    answered = R >= 0
    attempts = answered.sum(axis=1, dtype=np.int64)  # (L, N)
    successes = (R == 1).sum(axis=1, dtype=np.int64)
    used = attempts >= MIN_ATTEMPTS
    a = np.where(used, attempts, 0).astype(float)
    s = np.where(used, successes, 0).astype(float)
    total_a, total_s = a.sum(axis=1), s.sum(axis=1)
    df = used.sum(axis=1) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = total_s / total_a
        rates = np.where(used, s / np.where(used, a, 1.0), np.nan)
        spread = pooled * (1.0 - pooled)
        statistic = np.where(spread > 0, ((s - a * pooled[:, None]) ** 2 / np.where(used, a, 1.0)).sum(axis=1) / spread, 0.0)
    tested = df >= 1
    p_value = np.where(tested, chdtrc(np.maximum(df, 1), statistic), 1.0)
    gap = np.where(tested, np.nanmax(np.where(used, rates, -np.inf), axis=1) - np.nanmin(np.where(used, rates, np.inf), axis=1), 0.0)
    level = alpha / max(int(tested.sum()), 1)
    hits = np.flatnonzero(tested & (p_value < level) & (gap >= min_gap))
    return [{"model": str(outcomes.models[i]), "rates": rates[i].tolist(), "attempts": attempts[i].tolist(),
             "statistic": float(statistic[i]), "p_value": float(p_value[i])} for i in hits]


def _rates_phrase(effect: dict, shown: int = 3) -> str:
    rates = [(j, r, n) for j, (r, n) in enumerate(zip(effect["rates"], effect["attempts"])) if r == r]
    parts = [f"trial {j + 1}: {r:.1%} of {n:,}" for j, r, n in rates[:shown]]
    return ", ".join(parts) + (f", ... ({len(rates)} positions)" if len(rates) > shown else "")


def trial_position_notice(effects: list[dict]) -> dict | None:
    """The ``trial_position_effect`` notice of a leaderboard for :func:`trial_position_effects`' result, or None.

    >>> trial_position_notice([{"model": "o3", "rates": [0.885, 0.031], "attempts": [400, 400],
    ...                         "statistic": 600.0, "p_value": 1e-130}])["finding"][:70]
    "o3's success rate depends on the trial's position (trial 1: 88.5% of 4"
    """
    if not effects:
        return None
    head = effects[0]
    p = head["p_value"]
    p_text = "p < 1e-12" if p < 1e-12 else f"p = {p:.1g}"
    names = [e["model"] for e in effects]
    others = ("" if len(names) == 1 else f" So does {names[1]}." if len(names) == 2 else
              f" So do {len(names) - 1} more: {', '.join(names[1:6])}" + (" ..." if len(names) > 6 else "") + ".")
    finding = (f"{head['model']}'s success rate depends on the trial's position ({_rates_phrase(head)}; chi-square "
               f"{p_text}).{others} Such trials are not exchangeable repeats (e.g. a second attempt made only after a "
               "failed first one), which Bayes@N's intervals and Pass@k assume: these models' scores average attempts "
               "of different kinds, so they are not per-attempt success rates, and their intervals do not account for "
               "it.")
    return {"code": "trial_position_effect", "finding": finding, "models": names,
            "effects": [{k: e[k] for k in ("model", "rates", "attempts", "p_value")} for e in effects],
            "message": finding + " Check how the trials were produced; rank on one trial position if they differ by "
                                 "design."}


def trial_position_note(outcomes, models=None, *, task: str | None = None) -> dict | None:
    """The leaderboard's ``trial_position_effect`` notice for the models a command analyses, or None.

    The test runs once on every model of the task, as the leaderboard's does (same family-wise level, so the same
    models are named), and the notice keeps those of ``models``: a command that analyses some models says what the
    leaderboard says about them, in the same words.

    Parameters
    ----------
    outcomes : TaskOutcomes or Outcomes
        A task's outcomes: its ``binary`` outcomes are tested (an :class:`Outcomes` is tested itself). None, count
        data (no trial order) or no binary correctness give None.
    models : iterable of str, optional
        The models the command analyses (default: every model of the task).
    task : str, optional
        Added to the notice as ``task``, and ``message`` starts ``"{task}: "``: as the leaderboard's notes, for a
        command whose notes name their task.

    Returns
    -------
    dict or None
        :func:`trial_position_notice`'s dict (``code``, ``finding``, ``models``, ``effects``, ``message``), or None
        when none of ``models`` has trials whose success rate depends on their position.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> R = np.zeros((2, 40, 2), dtype=np.int16); R[0, :36, 0] = 1; R[0, :2, 1] = 1; R[1, ::2, :] = 1
    >>> data = SimpleNamespace(binary=SimpleNamespace(R=R, models=("a", "b")))
    >>> trial_position_note(data, ["a", "b"])["models"], trial_position_note(data, ["b"])
    (['a'], None)
    """
    binary = getattr(outcomes, "binary", outcomes) if outcomes is not None else None
    effects = trial_position_effects(binary) if binary is not None else []
    if models is not None:
        keep = {str(m) for m in models}
        effects = [e for e in effects if e["model"] in keep]
    notice = trial_position_notice(effects)
    if notice is not None and task is not None:
        notice = {**notice, "task": str(task), "message": f"{task}: {notice['message']}"}
    return notice
