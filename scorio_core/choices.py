"""The names of every choice the CLI and the app offer, with their help texts (no imports).

Option parsers read these at start-up (``python -m scorio_core leaderboard --help`` imports
neither pandas nor SciPy), and the modules that implement each choice re-export them, so every
name has this one source. ``tests/core/test_choices.py`` checks that the metric registry's keys
equal :data:`METRIC_NAMES`.
"""

__all__ = [
    "PER_TASK",
    "not_fitted_for_all",
    "unfitted_share",
    "prior_label",
    "DEFAULT_PRIOR",
    "DEFAULT_SCOPE",
    "DEFAULT_TIE_RULE",
    "DUPLICATE_POLICIES",
    "FALLBACK_INTERVAL",
    "METRIC_NAMES",
    "MISSING_POLICIES",
    "PLAN_GOALS",
    "PLAN_GOAL_HELP",
    "PRIORS",
    "PRIOR_HELP",
    "PRIOR_LABELS",
    "QUESTION_SETS",
    "SCOPES",
    "SCOPE_HELP",
    "SCOPE_LABELS",
    "TIE_RULES",
    "TIE_RULE_HELP",
    "has_fallback_interval",
    "is_fallback_interval",
]

#: Metric keys of the leaderboard (``--metric``), in the registry's order
#: (:data:`scorio_core.leaderboard.metrics.METRICS`).
METRIC_NAMES = ("bayes", "avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k", "max@k", "geom@k",
                "geo-spectrum*@k")

#: Prior keys accepted everywhere (``--prior``, URL, analysis settings).
PRIORS = ("empirical-bayes", "uniform", "jeffreys")
DEFAULT_PRIOR = "empirical-bayes"

#: Display label of each prior.
PRIOR_LABELS = {
    "uniform": "uniform prior, Dirichlet(1) per question (paper)",
    "jeffreys": "Jeffreys prior, Dirichlet(1/2) per question",
    "empirical-bayes": "empirical-Bayes prior, Dirichlet fitted to the model's questions",
}

#: What the empirical-Bayes label adds where tasks are pooled (a prior per model and task).
PER_TASK = " of each task (tasks pooled)"


def prior_label(prior: str, pooled: bool = False, unfitted: str | None = None) -> str:
    """:data:`PRIOR_LABELS` of ``prior``; with ``pooled`` tasks, the empirical-Bayes prior says it is fitted per task.

    ``unfitted`` (``"some"`` or ``"all"``): the empirical-Bayes prior was not identified for some or all of the models
    the text is about (N = 1 and the like), so it is not called "fitted" beside their pooled rates.

    >>> prior_label("empirical-bayes", pooled=True)
    "empirical-Bayes prior, Dirichlet fitted to the model's questions of each task (tasks pooled)"
    >>> prior_label("empirical-bayes", unfitted="all")
    'empirical-Bayes prior, not identified here (too few repeated trials): pooled rates and exact binomial intervals'
    """
    if prior == "empirical-bayes" and unfitted == "all":
        return ("empirical-Bayes prior, not identified here (too few repeated trials): pooled rates and exact binomial "
                "intervals")
    label = PRIOR_LABELS[prior] + (PER_TASK if pooled and prior == "empirical-bayes" else "")
    if prior == "empirical-bayes" and unfitted == "some":
        label += " where the data identify it (pooled rates and exact binomial intervals elsewhere)"
    return label


#: What each prior does, in plain words: the one source of the app's and the CLI's help texts.
PRIOR_HELP = {
    "empirical-bayes": ("learns what a question's success rate tends to be from each model's own questions; its "
                        "intervals were checked by simulation to cover as often as they claim (the default)"),
    "uniform": ("the paper's Bayes@N (reference-exact): pulls every question toward the middle of the scale, so its "
                "intervals miss the true mean of very hard or very easy benchmarks"),
    "jeffreys": "a weaker version of uniform: Dirichlet(1/2) per question",
}

#: What an interval covers (``--scope``).
SCOPES = ("questions-fixed", "questions-sampled")
DEFAULT_SCOPE = "questions-fixed"
SCOPE_LABELS = {
    "questions-fixed": "trials (questions fixed)",
    "questions-sampled": "trials and questions (questions sampled from a larger pool)",
}
#: What each scope covers, in plain words: the one source of the app's and the CLI's help texts.
SCOPE_HELP = {
    "questions-fixed": ("how sure we are about these exact questions, given that each was tried only a few times "
                        "(the paper's estimand)"),
    "questions-sampled": ("also allows for which questions happened to be in the benchmark, for claims about new "
                          "questions like these (wider)"),
}

#: Rules of ``rank_ci`` (``--tie-rule``; :func:`scorio_core.ranking.rank.ranks_with_ties`).
TIE_RULES = ("pairwise", "paper", "upper-bound", "none")
#: The tie rule used when none is chosen: ranks that discriminate (issue 13).
DEFAULT_TIE_RULE = "pairwise"
#: What each rule does, in words (help texts of the app and CLI; exact, see ranks_with_ties).
TIE_RULE_HELP = {
    "pairwise": "rank = 1 + the number of models credibly better than this one "
                "(P(B > A) >= the credibility level, normal approximation); with unequal interval widths a model "
                "below another by mean can hold the better rank (a wide interval has fewer models ahead of it at that level)",
    "paper": "order by mean; neighbours share a rank when their z = |mu_a - mu_b| / sqrt(s_a^2 + s_b^2) is below the "
             "one-sided z of the credibility level; shared ranks chain, so models far apart can share a rank "
             "(the rule of the Bayes@N paper)",
    "upper-bound": "rank = 1 + the number of models whose whole credible interval lies above this one's (arena style)",
    "none": "competition rank of the mean (1224), no uncertainty",
}

#: How models that answered different questions are compared (``--question-set``):
#: ``own`` scores each model on the questions it answered; ``common`` keeps only questions
#: every model answered; ``missing-incorrect`` counts a missing question as answered wrongly
#: (lowest-weight category) as often as the most-tried model tried it.
QUESTION_SETS = ("own", "common", "missing-incorrect")

#: How duplicate (model, task, question, trial) rows are resolved (``--duplicates``): keep one of each key, drop every
#: row of such keys, add counts (count tables), or read each repeated row as a further attempt (attempt tables:
#: files that are separate runs of the same questions, each numbering its trials from the start).
DUPLICATE_POLICIES = ("keep-first", "keep-last", "drop", "sum", "as-trials")
#: What happens to attempts without an outcome (``--missing-outcomes``).
MISSING_POLICIES = ("drop", "incorrect")

#: Goals of the planner (``plan --goal``; :func:`scorio_core.plan.plan_next`).
PLAN_GOALS = ("top-1", "top-k", "ranking", "pair", "width")
#: What each goal asks for, in plain words (help texts of the app and CLI).
PLAN_GOAL_HELP = {
    "top-1": "find the best model: stop when P(the current leader is best, or within --tolerance of the best) >= "
             "the confidence",
    "top-k": "find the top k models (--k): stop when P(the current top-k set is the top-k set, up to --tolerance) "
             ">= the confidence",
    "ranking": "order every neighbouring pair (by posterior mean) at the confidence, or declare it tied within "
               "--tolerance",
    "pair": "separate two models (--pair A B) at the confidence, or declare them tied within --tolerance",
    "width": "narrow every model's credible interval below --width",
}


#: The kind of interval a model gets where its empirical-Bayes prior is not identified (N = 1): its ``interval`` label
#: starts "95% " + this (:func:`scorio_core.uncertainty.posterior.fallback_interval_label`), and its ``sigma`` is the
#: pooled binomial bound, not a posterior standard deviation.
FALLBACK_INTERVAL = "exact binomial (Clopper-Pearson) interval on the pooled answers"


def is_fallback_interval(label: object) -> bool:
    """Whether an interval label (a leaderboard's ``interval`` cell) is a :data:`FALLBACK_INTERVAL`'s.

    What is built on such a model's ``sigma`` (a difference, ``P(A > B)``) is a normal approximation, not a credible
    statement.

    >>> is_fallback_interval("95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials")
    True
    >>> is_fallback_interval("95% credible interval; covers trials (questions fixed); uniform prior")
    False
    """
    return isinstance(label, str) and FALLBACK_INTERVAL in label


def has_fallback_interval(table: object) -> bool:
    """Whether any scored row of a leaderboard (a DataFrame with ``interval``) has a :data:`FALLBACK_INTERVAL`.

    Then the table's comparisons (CI-tie ranks, ``P(A > B)``) are normal approximations: texts say "confidence"
    and "better at 95%", not "credibility" and "credibly better".

    >>> import pandas as pd
    >>> has_fallback_interval(pd.DataFrame({"mu": [0.5, None], "interval": ["95% credible interval", None]}))
    False
    >>> has_fallback_interval(pd.DataFrame({"mu": [0.5], "interval": ["95% " + FALLBACK_INTERVAL]}))
    True
    """
    columns = getattr(table, "columns", ())
    if "interval" not in columns:
        return False
    scored = table[table["mu"].notna()] if "mu" in columns else table
    return bool(scored["interval"].map(is_fallback_interval).any())


def not_fitted_for_all(table: object) -> bool:
    """Whether every scored row of a leaderboard has a :data:`FALLBACK_INTERVAL` (no prior fitted for any model).

    >>> import pandas as pd
    >>> not_fitted_for_all(pd.DataFrame({"mu": [0.5, 0.4], "interval": ["95% " + FALLBACK_INTERVAL] * 2}))
    True
    >>> not_fitted_for_all(pd.DataFrame({"mu": [0.5, 0.4], "interval": ["95% " + FALLBACK_INTERVAL, "95% credible"]}))
    False
    """
    columns = getattr(table, "columns", ())
    if "interval" not in columns:
        return False
    scored = table[table["mu"].notna()] if "mu" in columns else table
    return bool(len(scored)) and bool(scored["interval"].map(is_fallback_interval).all())


def unfitted_share(n_unfitted: int, n_models: int) -> str | None:
    """:func:`prior_label`'s ``unfitted``: ``"all"``, ``"some"`` or None from how many of ``n_models`` models fell back.

    >>> unfitted_share(2, 2), unfitted_share(1, 2), unfitted_share(0, 2)
    ('all', 'some', None)
    """
    if n_unfitted <= 0:
        return None
    return "all" if n_unfitted >= n_models else "some"
