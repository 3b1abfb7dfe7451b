"""Biased-coin LLM mimics (paper section 2.7) and a simulated attempt-level demo dataset.

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.7: L "LLMs" answer M
questions; model l answers question a correctly with a fixed probability ``p_la``, so the
true metric ``pi_bar_l = mean_a p_la`` and the true ranking are known. The paper used 11
mimics with the means in :data:`PAPER_MEANS` (note the tie at 0.3642), M = 30, N = 80.

Run ``python -m scorio_core.dynamics.simulate --out data/paper_simulation.csv.gz`` to write the
bundled demo dataset (20 models x 30 questions x 80 trials with base signals).
numpy/scipy only; the command-line writer is :mod:`scorio_core.dynamics.simulate.__main__`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

__all__ = [
    "PAPER_MEANS",
    "DEMO_MEANS",
    "Simulation",
    "question_probabilities",
    "simulate_outcomes",
    "simulate",
    "simulate_attempts",
]

#: Mean success probabilities of the paper's 11 LLM mimics (section 2.7), LLM_1..LLM_11.
PAPER_MEANS = (0.2332, 0.2545, 0.3604, 0.3642, 0.3642, 0.4466, 0.5418, 0.5276, 0.608, 0.6213, 0.7327)
#: The 20 means of the bundled demo: the paper's 11 plus 9 more (one more close pair).
DEMO_MEANS = tuple(sorted(PAPER_MEANS + (0.12, 0.18, 0.30, 0.41, 0.47, 0.50, 0.66, 0.668, 0.81)))
_EPS = 1e-6
_DEMO_TASK = "paper-simulation"


@dataclass(frozen=True, eq=False)
class Simulation:
    """One simulated evaluation.

    Attributes
    ----------
    means : ndarray of float, shape (L,)
        True metric ``pi_bar`` of each model (the requested means).
    probabilities : ndarray of float, shape (L, M)
        Per-question success probabilities; ``probabilities.mean(axis=1) == means`` up to
        1e-12, and tied means are exactly the same multiset of probabilities.
    R : ndarray of int8, shape (L, M, N)
        Sampled outcomes, 1 = correct.
    true_ranks : ndarray of int64, shape (L,)
        Competition ranks of ``means`` (the known gold standard; ties share a rank).
    seed : int
    """

    means: np.ndarray
    probabilities: np.ndarray
    R: np.ndarray
    true_ranks: np.ndarray
    seed: int


def _positive_int(value: object, name: str, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer; got {value!r} ({type(value).__name__}).")
    if int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}; got {name}={int(value)}.")
    return int(value)


def _real(value: object, name: str, lo: float, hi: float, closed_hi: bool = False) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r} ({type(value).__name__}).")
    v = float(value)
    ok = lo <= v <= hi if closed_hi else lo <= v < hi
    if not ok:
        raise ValueError(f"{name} must satisfy {lo} <= {name} {'<=' if closed_hi else '<'} {hi}; got {name}={v}.")
    return v


def _means(means: object) -> np.ndarray:
    m = np.asarray(means)
    if m.dtype.kind not in "biuf":
        raise TypeError(f"means must hold real numbers; got dtype {m.dtype}.")
    if m.ndim != 1 or m.size == 0:
        raise ValueError(f"means must be a non-empty 1-D array (one per model); got shape {m.shape}.")
    m = m.astype(float)
    if not np.all((m > 0) & (m < 1)):
        raise ValueError(f"means must lie strictly between 0 and 1; got {m[~((m > 0) & (m < 1))][0]}.")
    return m


def _shift_to_mean(p: np.ndarray, target: float) -> np.ndarray:
    """Shift ``p`` on the logit scale so its mean is ``target`` (monotone, stays in (0, 1))."""
    logits = special.logit(np.clip(p, _EPS, 1 - _EPS))
    delta = optimize.brentq(lambda d: special.expit(logits + d).mean() - target, -50.0, 50.0, xtol=1e-14, rtol=1e-15)
    return special.expit(logits + delta)


def question_probabilities(
    means=PAPER_MEANS,
    n_questions: int = 30,
    concentration: float = 4.0,
    correlation: float = 0.0,
    seed=0,
) -> np.ndarray:
    r"""Per-question success probabilities with given per-model means.

    Parameters
    ----------
    means : array-like of float, shape (L,), default :data:`PAPER_MEANS`
        Target mean ``pi_bar_l`` of each model, in (0, 1); equal values make tied models.
    n_questions : int, default 30
        Questions M.
    concentration : float, default 4.0
        ``kappa`` of the Beta(``m kappa``, ``(1 - m) kappa``) spread of a model's
        per-question probabilities around its mean ``m`` (smaller = more spread, more
        questions near 0 or 1). Must be > 0.
    correlation : float, default 0.0
        Share of question difficulty common to all models, in [0, 1) (Gaussian copula):
        0 gives independent coins per model (the paper's setup), larger values make the
        same questions hard for every model.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    ndarray of float, shape (L, M)
        Probabilities in (0, 1); row means equal ``means`` to 1e-12. Models with equal
        means get exactly the same multiset of probabilities (assigned to questions in the
        order of their own latent difficulty), so their true means are exactly equal.

    Raises
    ------
    TypeError, ValueError
        Non-numeric or out-of-range arguments.

    Notes
    -----
    Draw ``u_la = Phi(sqrt(rho) g_a + sqrt(1 - rho) e_la)``, set
    ``p_la = F^{-1}_{Beta(m kappa, (1-m) kappa)}(u_la)``, then shift each row on the logit
    scale until its mean is exactly ``m``.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.7.

    Examples
    --------
    >>> p = question_probabilities([0.3, 0.6, 0.6], n_questions=10, seed=1)
    >>> p.shape, p.mean(axis=1).round(12).tolist()
    ((3, 10), [0.3, 0.6, 0.6])
    >>> bool(np.array_equal(np.sort(p[1]), np.sort(p[2])))
    True
    """
    m = _means(means)
    M = _positive_int(n_questions, "n_questions")
    kappa = _real(concentration, "concentration", 0.0, np.inf)
    if kappa == 0.0:
        raise ValueError("concentration must be > 0; got concentration=0.0.")
    rho = _real(correlation, "correlation", 0.0, 1.0)
    rng = np.random.default_rng(seed)
    z = np.sqrt(rho) * rng.standard_normal(M)[None, :] + np.sqrt(1.0 - rho) * rng.standard_normal((m.size, M))
    u = special.ndtr(z)
    p = np.empty((m.size, M))
    first: dict[float, int] = {}
    for l, target in enumerate(m):
        if target in first:  # tie: the same probabilities, matched to this model's own latent order
            source = np.sort(p[first[target]])
            p[l, np.argsort(u[l], kind="stable")] = source
            continue
        first[target] = l
        raw = stats.beta.ppf(u[l], target * kappa, (1.0 - target) * kappa)
        p[l] = _shift_to_mean(raw, target)
    return p


def simulate_outcomes(probabilities, n_trials: int = 80, seed=0) -> np.ndarray:
    r"""Sample outcomes: every model answers every question ``n_trials`` times.

    Parameters
    ----------
    probabilities : array-like of float, shape (L, M) or (M,)
        Success probability of each (model, question), in [0, 1].
    n_trials : int, default 80
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    ndarray of int8, shape (L, M, N) (or (M, N) for 1-D input)
        1 = correct, independent Bernoulli draws.

    Raises
    ------
    TypeError, ValueError
        Non-numeric probabilities, values outside [0, 1], ``n_trials < 1``.

    Examples
    --------
    >>> simulate_outcomes([[1.0, 0.0]], n_trials=3).tolist()
    [[[1, 1, 1], [0, 0, 0]]]
    """
    p = np.asarray(probabilities)
    if p.dtype.kind not in "biuf":
        raise TypeError(f"probabilities must hold real numbers; got dtype {p.dtype}.")
    p = p.astype(float)
    if p.ndim not in (1, 2) or p.size == 0:
        raise ValueError(f"probabilities must have shape (L, M) or (M,); got {p.shape}.")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("probabilities must lie in [0, 1]; got a value outside (or NaN).")
    N = _positive_int(n_trials, "n_trials")
    rng = np.random.default_rng(seed)
    return (rng.random(p.shape + (N,)) < p[..., None]).astype(np.int8)


def simulate(
    means=PAPER_MEANS,
    n_questions: int = 30,
    n_trials: int = 80,
    concentration: float = 4.0,
    correlation: float = 0.0,
    seed: int = 0,
) -> Simulation:
    r"""Simulate the paper's biased-coin LLM mimics: probabilities, outcomes and true ranks.

    Parameters
    ----------
    means, n_questions, concentration, correlation
        As :func:`question_probabilities`.
    n_trials : int, default 80
        Trials N per question.
    seed : int, default 0
        Root seed; probabilities and outcomes use independent child streams, so changing
        ``n_trials`` keeps the probabilities.

    Returns
    -------
    Simulation

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, section 2.7, Table 1.

    Examples
    --------
    >>> sim = simulate(seed=3)
    >>> sim.R.shape, sim.true_ranks.tolist()
    ((11, 30, 80), [11, 10, 9, 7, 7, 6, 4, 5, 3, 2, 1])
    """
    seed = _positive_int(seed, "seed", 0)
    p_seq, r_seq = np.random.SeedSequence(seed).spawn(2)
    p = question_probabilities(means, n_questions, concentration, correlation, np.random.default_rng(p_seq))
    R = simulate_outcomes(p, n_trials, np.random.default_rng(r_seq))
    m = _means(means)
    true_ranks = 1 + (m[None, :] > m[:, None]).sum(axis=1)
    return Simulation(means=m, probabilities=p, R=R, true_ranks=true_ranks.astype(np.int64), seed=seed)


def simulate_attempts(
    n_models: int = 20,
    n_questions: int = 30,
    n_trials: int = 80,
    seed: int = 2026,
    means=None,
) -> dict[str, np.ndarray]:
    r"""A simulated attempt table with base signals, for the "paper simulation" demo.

    Correctness comes from :func:`simulate` (questions share 50% of their difficulty);
    the other signals are synthetic but plausibly tied to correctness, so rubric schemata
    behave as on real dumps: correct answers are usually boxed, shorter, more confident
    (lower ``completion_bpt``) and rated correct by the verifier; wrong answers run longer
    and sometimes hit the token limit (``finish_reason = "length"``, invalid).

    Parameters
    ----------
    n_models : int, default 20
        L; the means are :data:`DEMO_MEANS` for 20 models, else evenly spaced in
        [0.12, 0.81] (including a tie at the middle when L >= 4).
    n_questions, n_trials : int, default 30, 80
    seed : int, default 2026
    means : array-like of float, shape (L,), optional
        Overrides the means (``n_models`` is then ``len(means)``).

    Returns
    -------
    dict of str -> ndarray, each of length L * M * N
        Canonical attempt columns in order: ``model, task, question_id, trial,
        is_correct, has_box, finish_reason, completion_tokens, prompt_tokens, max_tokens,
        token_ratio, completion_bpt, prompt_bpt, compass_context_A, compass_context_B,
        compass_context_C`` (rows ordered by model, question, trial).

    Examples
    --------
    >>> cols = simulate_attempts(n_models=3, n_questions=2, n_trials=4, seed=1)
    >>> len(cols["model"]), sorted(set(cols["finish_reason"].tolist())) <= ["length", "stop"]
    (24, True)
    """
    if means is None:
        L = _positive_int(n_models, "n_models")
        if L == 20:
            m = np.array(DEMO_MEANS)
        else:
            m = np.linspace(0.12, 0.81, L)
            if L >= 4:
                m[L // 2] = m[L // 2 - 1]
    else:
        m = _means(means)
    L = m.size
    seed = _positive_int(seed, "seed", 0)
    sim = simulate(m, n_questions, n_trials, concentration=3.0, correlation=0.5, seed=seed)
    M, N = sim.probabilities.shape[1], sim.R.shape[2]
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(3)[2])
    shape = (L, M, N)
    correct = sim.R.astype(bool)
    skill = m[:, None, None]
    # formatting: strong models box more often; correct answers almost always boxed
    box_rate = np.where(correct, 0.97, 0.55 + 0.4 * skill)
    has_box = rng.random(shape) < box_rate
    # degenerate runs: wrong answers of weak models sometimes hit the limit
    length_rate = np.where(correct, 0.005, 0.03 + 0.2 * (1.0 - skill))
    truncated = rng.random(shape) < length_rate
    has_box &= ~truncated
    max_tokens = 32768
    difficulty = 1.0 - sim.probabilities.mean(axis=0)  # (M,) harder questions need longer answers
    log_len = (
        np.log(4000.0)
        + 0.9 * difficulty[None, :, None]
        + np.where(correct, 0.0, 0.6)
        + 0.45 * rng.standard_normal(shape)
    )
    completion_tokens = np.clip(np.exp(log_len), 60, max_tokens).round().astype(np.int64)
    completion_tokens[truncated] = max_tokens
    prompt_tokens = np.broadcast_to(rng.integers(60, 400, size=M)[None, :, None], shape).astype(np.int64)
    completion_bpt = np.where(correct, 0.32, 0.52) + 0.08 * rng.standard_normal(shape) - 0.1 * (skill - 0.5)
    completion_bpt = np.clip(completion_bpt, 0.05, None)
    ood = rng.random(M) < 0.1  # a few out-of-distribution prompts
    prompt_bpt = (
        2.2
        + 1.2 * ood[None, :, None]
        + 0.15 * rng.standard_normal((L, M, 1))
        + 0.02 * rng.standard_normal(shape)
    )
    logits = np.stack(
        [
            np.where(correct, 2.2, -1.6) + 0.9 * rng.standard_normal(shape),
            np.where(correct, -1.6, 1.8) + 0.9 * rng.standard_normal(shape),
            -2.5 + 4.0 * truncated + 0.7 * rng.standard_normal(shape),
        ]
    )
    verifier = special.softmax(logits, axis=0)
    model_names = np.array([f"mimic-{i + 1:02d}" for i in range(L)])
    questions = np.array([f"q{a + 1:02d}" for a in range(M)])
    li, ai, ti = np.meshgrid(np.arange(L), np.arange(M), np.arange(N), indexing="ij")
    return {
        "model": model_names[li.ravel()],
        "task": np.full(L * M * N, _DEMO_TASK),
        "question_id": questions[ai.ravel()],
        "trial": ti.ravel().astype(np.int64),
        "is_correct": correct.ravel().astype(np.int64),
        "has_box": has_box.ravel().astype(np.int64),
        "finish_reason": np.where(truncated, "length", "stop").ravel(),
        "completion_tokens": completion_tokens.ravel(),
        "prompt_tokens": prompt_tokens.ravel(),
        "max_tokens": np.full(L * M * N, max_tokens, dtype=np.int64),
        "token_ratio": (completion_tokens / max_tokens).ravel().round(5),
        "completion_bpt": completion_bpt.ravel().round(4),
        "prompt_bpt": prompt_bpt.ravel().round(4),
        "compass_context_A": verifier[0].ravel().round(4),
        "compass_context_B": verifier[1].ravel().round(4),
        "compass_context_C": verifier[2].ravel().round(4),
    }
