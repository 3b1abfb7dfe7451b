r"""Goals of the planner: validation, the probability that a goal holds, and its approximate error.

A goal is checked on joint posterior draws of the models' scores (:func:`scorio_core.plan.posterior.score_draws`);
the allocation works on a smooth approximation of the probability that the goal fails, a sum over the
pairs of models that decide it (OCBA; Chen, Lin, Yucesan & Chick 2000):

``err = sum_(a, b) Phi(-sqrt(d^2 + tol^2) / s_ab) (1 - P_tie(a, b))``, ``d = mu_a - mu_b``,
``s_ab^2 = Var_a + Var_b - 2 Cov_ab``,

where ``tol`` is an indifference zone (Bechhofer 1954: differences below ``tol`` count as ``tol``, so
two models with equal means still gain from more data) and ``P_tie = Phi((tol - |d|) / s) -
Phi((-tol - |d|) / s)`` enters only for goals that accept ties (``ranking``, ``pair``; otherwise 0).
The ``width`` goal's error is the total excess width
``sum_l max(2 z sd_l - W, 0)`` over models whose interval is wider than ``W``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from scorio_core.choices import PLAN_GOALS
from scorio_core.errors import InputError

__all__ = ["Goal", "GoalCheck", "check_goal", "evaluate_goal", "format_draw_probability", "pair_error"]


def format_draw_probability(p: float, digits: int = 3) -> str:
    """A probability estimated from posterior draws, ``digits`` decimals, ``> 0.999`` / ``< 0.001`` at the ends.

    The goal's probabilities are shares of a few thousand joint draws (4,000 by default): a share of 1 means
    that no draw broke the goal, not that it cannot fail, so the ends are written as bounds.

    Parameters
    ----------
    p : float
        Probability in [0, 1].
    digits : int, default 3
        Decimals; the bounds are ``1 - 10**-digits`` and ``10**-digits``.

    Returns
    -------
    str

    Examples
    --------
    >>> format_draw_probability(0.97312), format_draw_probability(1.0), format_draw_probability(0.0)
    ('0.973', '> 0.999', '< 0.001')
    >>> format_draw_probability(0.9993), format_draw_probability(0.999), format_draw_probability(1.0, digits=4)
    ('> 0.999', '0.999', '> 0.9999')
    """
    step = 10.0 ** -digits
    if p > 1.0 - step:
        return f"> {1.0 - step:.{digits}f}"
    if p < step:
        return f"< {step:.{digits}f}"
    return f"{p:.{digits}f}"


def _eq(p: float, confidence: float) -> str:
    """``= 0.973`` or ``> 0.999``: a draw probability after its event in a sentence, with enough decimals that a
    bound never reads below the confidence it is compared with (``> 0.9999 >= 0.9995``, not ``> 0.999``)."""
    digits = max(3, int(np.ceil(-np.log10(min(confidence, 1.0 - confidence)) - 1e-9)) + 1)
    text = format_draw_probability(p, digits)
    return text if text[0] in "<>" else f"= {text}"


@dataclass(frozen=True)
class Goal:
    """A validated goal: ``name`` (one of :data:`~scorio_core.choices.PLAN_GOALS`) and its arguments."""

    name: str
    k: int | None = None
    pair: tuple[int, int] | None = None
    width: float | None = None
    tolerance: float = 0.01
    confidence: float = 0.95


@dataclass(frozen=True, eq=False)
class GoalCheck:
    """Whether a goal holds on the current posterior, and what is left to decide.

    Attributes
    ----------
    holds : bool
    probability : float
        The goal's probability (top-1, top-k), the smallest resolved probability over the
        deciding pairs (ranking, pair), or the fraction of intervals narrower than W (width).
    reason : str
        One sentence.
    a, b : ndarray of int, shape (P,)
        Unresolved pairs the allocation should work on (empty for ``width``).
    ties : bool
        Whether a pair may also be resolved as tied within the tolerance.
    """

    holds: bool
    probability: float
    reason: str
    a: np.ndarray
    b: np.ndarray
    ties: bool


def check_goal(name: str, models: tuple[str, ...], *, k=None, pair=None, width=None, tolerance=0.01,
               confidence=0.95) -> Goal:
    """Validate a goal against the models of a task.

    Parameters
    ----------
    name : str
        One of :data:`~scorio_core.choices.PLAN_GOALS`.
    models : tuple of str, length L
    k : int, optional
        Size of the top set (``top-k``): ``1 <= k < L``.
    pair : sequence of two str, optional
        The two models of ``pair`` (distinct, in ``models``).
    width : float, optional
        Target interval width of ``width`` (> 0).
    tolerance : float, default 0.01
        Scores closer than this are "tied" (``ranking``, ``pair``) or inside the indifference zone
        (``top-1``, ``top-k``: the chosen models are the best or within ``tolerance`` of them); >= 0, 0
        for strict goals.
    confidence : float, default 0.95
        In (0, 1).

    Returns
    -------
    Goal

    Raises
    ------
    InputError
        Naming the argument: unknown goal, a pair model not in the data (listing the models),
        ``k`` out of range, ``width <= 0``, ``confidence`` outside (0, 1), fewer than 2 models for
        an ordering goal.
    """
    if name not in PLAN_GOALS:
        raise InputError(f"goal must be one of {', '.join(PLAN_GOALS)}; got {name!r}.")
    if not isinstance(confidence, (int, float)) or not 0.0 < float(confidence) < 1.0:
        raise InputError(f"confidence must satisfy 0 < confidence < 1; got confidence={confidence!r}.")
    if not isinstance(tolerance, (int, float)) or not float(tolerance) >= 0.0:
        raise InputError(f"tolerance must be >= 0; got tolerance={tolerance!r}.")
    L = len(models)
    if name != "width" and L < 2:
        raise InputError(f"goal {name!r} needs at least 2 models; the task has {L}. With one model, plan for the "
                         "width of its interval: --goal width --width W (e.g. 0.05).", field="goal")
    goal = Goal(name, tolerance=float(tolerance), confidence=float(confidence))
    if name == "top-k":
        if k is None:
            raise InputError(f"goal 'top-k' needs the size of the top set: pass --k with 1 <= k < {L} (the models).")
        if isinstance(k, bool) or int(k) != k or not 1 <= int(k) < L:
            raise InputError(f"k must satisfy 1 <= k < L (L={L} models); got k={k!r}.")
        return Goal(name, k=int(k), tolerance=goal.tolerance, confidence=goal.confidence)
    if name == "pair":
        if pair is None or len(pair) != 2:
            raise InputError("pair needs two model names (--pair A B).")
        unknown = [m for m in pair if m not in models]
        if unknown:
            raise InputError(f"pair: model {unknown[0]!r} has no results on this task (--task picks another); "
                             f"models here: {', '.join(models[:30])}.")
        if pair[0] == pair[1]:
            raise InputError(f"pair needs two different models; got {pair[0]!r} twice.")
        return Goal(name, pair=(models.index(pair[0]), models.index(pair[1])), tolerance=goal.tolerance,
                    confidence=goal.confidence)
    if name == "width":
        if width is None or not isinstance(width, (int, float)) or not float(width) > 0.0:
            raise InputError("the width goal needs a target interval width > 0 (CLI: --goal width --width W, e.g. "
                             "--width 0.05)" + ("; none was given." if width is None else f"; got {width!r}."),
                             field="width")
        return Goal(name, width=float(width), tolerance=goal.tolerance, confidence=goal.confidence)
    return goal


def pair_error(d: np.ndarray, s2: np.ndarray, tolerance: float, ties: bool) -> np.ndarray:
    r"""Approximate probability that a pair is decided wrongly (or not at all).

    Parameters
    ----------
    d : ndarray of float
        ``mu_a - mu_b``.
    s2 : ndarray of float, same shape
        Variance of the difference (> 0; smaller values are clipped to 1e-30).
    tolerance : float
    ties : bool
        Also accept "tied within ``tolerance``".

    Returns
    -------
    ndarray of float in [0, 0.5]
        ``Phi(-sqrt(d^2 + tol^2) / s)`` (the ordering fails), times ``1 - P(|score_a - score_b| < tol)``
        with ties (the pair is not declared tied either): smooth in ``s``, so a lower variance always helps.

    Examples
    --------
    >>> round(float(pair_error(np.array(0.1), np.array(0.0025), 0.0, False)), 4)  # hand: Phi(-0.1 / 0.05)
    0.0228
    """
    s = np.sqrt(np.maximum(s2, 1e-30))
    ad = np.abs(d)
    err = ndtr(-np.sqrt(ad * ad + tolerance * tolerance) / s)
    if ties:
        tie = ndtr((tolerance - ad) / s) - ndtr((-tolerance - ad) / s)
        err = err * (1.0 - tie)
    return err


def _order_or_tie(x: np.ndarray, y: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Per pair (columns): P(x > y) and P(|x - y| < tolerance) over draws (rows)."""
    diff = x - y
    return (diff > 0).mean(axis=0), (np.abs(diff) < tolerance).mean(axis=0)


def evaluate_goal(goal: Goal, models: tuple[str, ...], mu: np.ndarray, draws: np.ndarray,
                  lo: np.ndarray, hi: np.ndarray) -> GoalCheck:
    """Check a goal on posterior draws.

    Parameters
    ----------
    goal : Goal
    models : tuple of str, length L
    mu : ndarray of float, shape (L,)
        Posterior means (the current order).
    draws : ndarray of float, shape (D, L)
        Joint posterior draws of the scores.
    lo, hi : ndarray of float, shape (L,)
        Credible intervals at ``goal.confidence`` (``width`` goal).

    Returns
    -------
    GoalCheck
    """
    conf = goal.confidence
    pct = f"{conf:.0%}" if round(conf * 100, 6) == round(conf * 100) else f"{conf:g}"
    order = np.lexsort((np.arange(mu.size), -np.nan_to_num(mu, nan=-np.inf)))
    empty = np.zeros(0, dtype=np.int64)
    if goal.name == "width":
        widths = hi - lo
        ok = widths < goal.width
        if bool(ok.all()):
            return GoalCheck(True, 1.0, f"every interval is narrower than {goal.width:g} (widest "
                                        f"{np.nanmax(widths):.4f}, at {pct})", empty, empty, False)
        worst = int(np.nanargmax(widths))
        reason = (f"continue: {int((~ok).sum())} of {ok.size} intervals are at least {goal.width:g} wide "
                  f"(widest: {models[worst]}, {widths[worst]:.4f})")
        return GoalCheck(False, float(ok.mean()), reason, empty, empty, False)
    if goal.name in ("top-1", "top-k"):
        k = 1 if goal.name == "top-1" else goal.k
        top, rest = order[:k], order[k:]
        low, high = draws[:, top].min(axis=1), draws[:, rest].max(axis=1)
        p = float((low > high).mean())
        a, b = np.repeat(top, rest.size), np.tile(rest, top.size)
        what = f"{models[top[0]]} is best" if k == 1 else f"the top {k} are {', '.join(models[i] for i in top)}"
        label = "top-1" if k == 1 else f"top-{k}"
        tol = goal.tolerance
        zoned = tol > 0
        if p >= conf:
            return GoalCheck(True, p, f"{label} holds: P({what}) {_eq(p, conf)} >= {conf:g}", a, b, zoned)
        # indifference zone (Bechhofer 1954): the chosen models are the best, or within `tolerance` of them
        p_zone = float((low > high - tol).mean()) if zoned else p
        if p_zone >= conf:
            near = (f"model {models[top[0]]} is best or within {tol:g} of the best" if k == 1 else
                    f"every one of the top {k} is within {tol:g} of every other model or above it")
            return GoalCheck(True, p_zone, f"{label} holds within the tolerance: P({near}) {_eq(p_zone, conf)} >= {conf:g} "
                             f"(P({what}) {_eq(p, conf)}); closer models are not worth separating at this tolerance",
                             a, b, zoned)
        extra = f"; within {tol:g}: {_eq(p_zone, conf).removeprefix('= ')}" if zoned else ""
        cut = mu[top[-1]]
        level = [int(i) for i in order if mu[i] == cut]  # exact ties at the cut: the order among them is arbitrary
        if len(level) > 1 and any(i in set(rest.tolist()) for i in level):
            names = ", ".join(models[i] for i in level[:5]) + (f" and {len(level) - 5} more" if len(level) > 5 else "")
            extra += (f"; {len(level)} models have exactly the same mean so far ({names}), so naming "
                      f"{'the best' if k == 1 else f'the top {k}'} among them is arbitrary until their outcomes differ")
        return GoalCheck(False, p, f"continue: P({what}) {_eq(p, conf)} < {conf:g}{extra}", a, b, zoned)
    if goal.name == "pair":
        a, b = np.array([goal.pair[0]]), np.array([goal.pair[1]])
    else:
        a, b = order[:-1], order[1:]
    p_ab, p_tie = _order_or_tie(draws[:, a], draws[:, b], goal.tolerance)
    p_order = np.maximum(p_ab, 1.0 - p_ab)
    resolved = (p_order >= conf) | (p_tie >= conf)
    best = np.maximum(p_order, p_tie)
    tol = goal.tolerance
    if goal.name == "pair":
        A, B = models[a[0]], models[b[0]]
        hi_m, lo_m = (A, B) if p_ab[0] >= 0.5 else (B, A)
        if p_tie[0] >= conf:
            return GoalCheck(True, float(p_tie[0]), f"{A} and {B} are within {tol:g} at {pct} (P {_eq(p_tie[0], conf)}): "
                             "not worth separating", a, b, True)
        if p_order[0] >= conf:
            return GoalCheck(True, float(p_order[0]), f"pair holds: P({hi_m} > {lo_m}) {_eq(p_order[0], conf)} >= {conf:g}",
                             a, b, True)
        return GoalCheck(False, float(best[0]), f"continue: P({hi_m} > {lo_m}) {_eq(p_order[0], conf)} and P(within "
                         f"{tol:g}) {_eq(p_tie[0], conf)}, both < {conf:g}", a, b, True)
    if bool(resolved.all()):
        n_tied = int(((p_tie >= conf) & (p_order < conf)).sum())
        return GoalCheck(True, float(best.min()), f"ranking holds: every neighbouring pair is ordered or tied within "
                         f"{tol:g} at {pct} ({n_tied} tied)", a[:0], b[:0], True)
    worst = int(np.argmin(np.where(resolved, np.inf, best)))
    return GoalCheck(False, float(best.min()), f"continue: {int((~resolved).sum())} neighbouring pairs unresolved; "
                     f"P({models[a[worst]]} > {models[b[worst]]}) {_eq(p_ab[worst], conf)} < {conf:g}",
                     a[~resolved], b[~resolved], True)
