"""What an interval is when a model's empirical-Bayes prior is not identified, and why (the fallback labels).

Split from :mod:`scorio_core.uncertainty.posterior` (which re-exports every name): the leaderboard's Bayes@N rows
then carry an exact binomial interval (:func:`fallback_interval_label`), its Pass@k-family rows the uniform prior's
credible interval with :func:`fallback_reason` appended.
"""

from __future__ import annotations

from scorio_core.choices import FALLBACK_INTERVAL, SCOPE_LABELS, SCOPES
from scorio_core.uncertainty.priors import MIN_REPEATED_QUESTIONS, NOT_IDENTIFIED_RULE

__all__ = ["FALLBACK_LABELS", "ONE_TRIAL_CAUSE", "fallback_interval_label", "fallback_reason"]


def _check_scope(scope: object) -> str:
    if not isinstance(scope, str) or scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}; got {scope!r}.")
    return scope


#: The cause a fallback label names when the model has one trial per question (:func:`fallback_interval_label`).
ONE_TRIAL_CAUSE = "N = 1: one trial per question"
#: Why an empirical-Bayes prior was not fitted, by ``FittedPrior.method`` of the fallbacks.
FALLBACK_LABELS = {
    "fallback-n1": (f"too few repeated trials ({NOT_IDENTIFIED_RULE}) leave its strength not identified "
                    "(conservative; more trials per question would identify it)"),
    "fallback-degenerate": "every trial is in one category (pooled Jeffreys mean)",
    "fallback-task": ("with tasks pooled it is fitted per task, and a task of the model has too few repeated trials "
                      f"({NOT_IDENTIFIED_RULE}) to identify it (conservative; more trials per question in that task would identify it)"),
    "fallback-task-degenerate": ("with tasks pooled it is fitted per task, and a task of the model has every trial in "
                                 "one category, which "
                                 "leaves the prior not identified there (conservative)"),
}


def fallback_interval_label(method: str, scope: str, confidence: float = 0.95, n_max=None, n_min=None,
                            n_questions=None) -> str | None:
    """What a model's interval is when its empirical-Bayes prior fell back (:data:`FALLBACK_LABELS`), else None.

    The interval is then the exact binomial (Clopper-Pearson) bound on the model's pooled answers
    (:func:`scorio_core.uncertainty.posterior_summary_batch`), and the label must not claim a fitted Dirichlet.
    ``n_max``, the model's largest number of trials of a question: at 1 the label names that cause alone
    (``N = 1: one trial per question``) instead of the whole rule; ``n_min`` (its fewest trials of a question) of 2 or
    more with ``n_questions`` below :data:`~scorio_core.uncertainty.priors.MIN_REPEATED_QUESTIONS` names that cause
    (a single question tried 80 times is not "too few trials").

    >>> fallback_interval_label("fallback-n1", "questions-fixed", n_max=1).split("not fitted: ")[1][:60]
    'too few repeated trials (N = 1: one trial per question) leav'
    >>> fallback_interval_label("fallback-n1", "questions-fixed", n_max=80, n_min=80, n_questions=1).split(": ")[1][:58]
    'too few questions (1 question; fewer than 10 questions tri'
    """
    reason = fallback_reason(method, n_max, n_min, n_questions)
    if reason is None:
        return None
    return (f"{confidence:.0%} {FALLBACK_INTERVAL}; covers "
            f"{SCOPE_LABELS[_check_scope(scope)]}; empirical-Bayes prior not fitted: {reason}")


def fallback_reason(method: str, n_max=None, n_min=None, n_questions=None) -> str | None:
    """Why a model's empirical-Bayes prior fell back (:data:`FALLBACK_LABELS`), naming its own cause; else None.

    Arguments as :func:`fallback_interval_label`.

    >>> fallback_reason("fallback-n1", n_max=1)[:45]
    'too few repeated trials (N = 1: one trial per'
    >>> fallback_reason("marginal-likelihood") is None
    True
    """
    if method not in FALLBACK_LABELS:
        return None
    reason = FALLBACK_LABELS[method]
    if method == "fallback-n1" and n_max is not None and n_max == n_max and int(n_max) <= 1:
        reason = reason.replace(f"({NOT_IDENTIFIED_RULE})", f"({ONE_TRIAL_CAUSE})")
    elif (method == "fallback-n1" and n_min is not None and n_min == n_min and int(n_min) >= 2
          and n_questions is not None and n_questions == n_questions and int(n_questions) < MIN_REPEATED_QUESTIONS):
        q = int(n_questions)
        reason = (f"too few questions ({q} question{'' if q == 1 else 's'}; fewer than {MIN_REPEATED_QUESTIONS} "
                  "questions tried twice or more) leave its strength not identified (conservative; more questions "
                  "would identify it)")
    return reason
