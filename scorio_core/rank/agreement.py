"""Does the ranking depend on the method? Ranks of one task under several ranking methods, and how they agree.

The paper compares ranking methods by Kendall's tau_b between their rankings (Hariri et al., "Don't
Pass@k", ICLR 2026, arXiv:2510.04265, section 4). Here every method of :data:`METHODS` ranks the same
response tensor R (models x questions x trials, built from a task's binary counts by
:func:`response_tensor`; the order of trials within a cell is not used by any method listed), and
:func:`agreement` gives

- the competition ranks of every model under every method,
- Kendall's tau_b between every two methods' rankings (scipy's ``kendalltau`` variant b, computed for every pair at once by :func:`scorio_core.ranking.kendall.tau_b_matrix`: ties
  in either ranking are corrected for),
- each model's rank range across methods (best and worst rank), and
- a one-line summary a lead can read ("the top 3 is the same under 5 of 6 methods; model X ranks
  2nd to 7th").

Methods that need the posterior of the leaderboard (Bayes@N under the chosen prior) or an item
response theory fit (IRT ability) are computed by the caller and passed as ``extra`` scores, so
every method ranks the same models on the same questions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorio_core.rank.ties import near_tie_ranks, settled_ranks
from scorio_core.errors import InputError

__all__ = ["METHODS", "CALLER_SCORED", "MethodAgreement", "agreement", "available_methods", "method_label", "response_tensor"]

#: Ranking methods of :mod:`scorio_core.rank` by group, in display order: ``name -> label``.
#: Names not (yet) implemented in :mod:`scorio_core.rank` are skipped by :func:`available_methods`.
METHODS: dict[str, dict[str, str]] = {
    # computed by the caller from the leaderboard's posterior and an IRT fit, passed as ``extra`` scores
    "Bayes@N and IRT": {"bayes": "Bayes@N", "irt_ability": "IRT ability (2PL)"},
    "Pointwise": {"avg": "avg@N (mean accuracy)", "inverse_difficulty": "inverse difficulty"},
    "Paired comparison": {
        "bradley_terry": "Bradley-Terry", "bradley_terry_map": "Bradley-Terry (MAP)",
        "bradley_terry_davidson": "Bradley-Terry-Davidson", "bradley_terry_davidson_map": "Bradley-Terry-Davidson (MAP)",
        "bradley_terry_luce": "Bradley-Terry-Luce", "bradley_terry_luce_map": "Bradley-Terry-Luce (MAP)",
        "rao_kupper": "Rao-Kupper", "rao_kupper_map": "Rao-Kupper (MAP)", "plackett_luce": "Plackett-Luce",
        "plackett_luce_map": "Plackett-Luce (MAP)", "davidson_luce": "Davidson-Luce",
        "davidson_luce_map": "Davidson-Luce (MAP)",
    },
    "Item response theory": {
        "rasch": "Rasch (JML)", "rasch_map": "Rasch (MAP)", "rasch_2pl": "2PL (JML)", "rasch_2pl_map": "2PL (MAP)",
        "rasch_3pl": "3PL (JML)", "rasch_3pl_map": "3PL (MAP)", "rasch_mml": "Rasch (MML, EAP)",
        "rasch_mml_credible": "Rasch (MML, credible bound)", "dynamic_irt": "dynamic IRT",
        "mirt": "multidimensional IRT",
    },
    "Bayesian": {"thompson": "Thompson sampling", "bayesian_mcmc": "Bayesian MCMC"},
    "Rating systems": {"elo": "Elo", "glicko": "Glicko", "trueskill": "TrueSkill"},
    "Voting": {
        "borda": "Borda count", "copeland": "Copeland", "win_rate": "win rate", "schulze": "Schulze",
        "ranked_pairs": "ranked pairs", "kemeny_young": "Kemeny-Young", "nanson": "Nanson", "baldwin": "Baldwin",
        "majority_judgment": "majority judgment", "minimax": "minimax",
    },
    "Graph and spectral": {
        "pagerank": "PageRank", "rank_centrality": "rank centrality", "hodge_rank": "HodgeRank",
        "serial_rank": "SerialRank", "spectral": "spectral", "alpharank": "alpha-rank", "nash": "Nash averaging",
    },
}

#: Methods the caller scores (the leaderboard's Bayes@N posterior under its prior and rubric, its IRT fit) and passes
#: as ``extra``: never taken from :mod:`scorio_core.rank` here, even where it has a function of that name
#: (``scorio_core.rank.bayes`` ranks a tensor with a uniform prior, not the leaderboard's posterior).
CALLER_SCORED = frozenset(METHODS["Bayes@N and IRT"])

#: Methods whose cost grows fast with the number of models (skipped by default above this many models).
EXPENSIVE = {"kemeny_young": 20,
             # 6,000 Metropolis steps on the reference's random path, each an O(L^2) log-likelihood over the decisive
             # pairs: 1.6 s at 100 models, 3.1 s at 150, 5.8 s at 200, 13 s at 300 (100 questions x 1 trial,
             # 2026-12-01): most of the Method agreement tab's time at hundreds of models
             "bayesian_mcmc": 150,
             # every tie order's normaliser per objective evaluation: 0.3-2 s already at 16-20 models, minutes at 50
             "davidson_luce": 8, "davidson_luce_map": 8,
             # one term per (question, trial) ranking of every model subset the trials rank: ~1 s each at 20 models
             "bradley_terry_luce": 16, "bradley_terry_luce_map": 16,
             # the reference's finite-difference L-BFGS-B: L + 1 evaluations of an O(L^2) objective per iteration,
             # O(L^3) per iteration in all; 0.3-1.6 s at 100 models, 1.4-6.7 s at 150, 17 s to minutes at 300
             # (benchmarks/bench_many_models.py)
             **dict.fromkeys(("bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map",
                              "rao_kupper", "rao_kupper_map", "plackett_luce", "plackett_luce_map"), 100)}


def available_methods(n_models: int | None = None) -> dict[str, dict[str, str]]:
    """The groups of :data:`METHODS` restricted to what :mod:`scorio_core.rank` implements.

    Parameters
    ----------
    n_models : int, optional
        Leave out methods listed in :data:`EXPENSIVE` for more models than their limit.

    Returns
    -------
    dict of str to dict of str to str
        ``group -> {name: label}``, groups without an implemented method left out.
    """
    import scorio_core.rank as rank

    out = {}
    for group, methods in METHODS.items():
        kept = {name: label for name, label in methods.items() if callable(getattr(rank, name, None))
                and name not in CALLER_SCORED
                and (n_models is None or n_models <= EXPENSIVE.get(name, n_models))}
        if kept:
            out[group] = kept
    return out


def method_label(name: str) -> str:
    """Display label of a method of :data:`METHODS` (the name itself for caller-supplied methods)."""
    for methods in METHODS.values():
        if name in methods:
            return methods[name]
    return name


def response_tensor(successes, trials, models=None, questions=None) -> np.ndarray:
    """Binary response tensor R (L, M, N) of a complete count table with the same N in every cell.

    Parameters
    ----------
    successes, trials : array_like of int, shape (L, M)
        Correct trials and trials per (model, question).
    models, questions : sequence of str, optional
        Names of the rows and columns, used in error messages (default: their positions).

    Returns
    -------
    ndarray of int8, shape (L, M, N)
        ``R[l, m, :k]`` = 1 and the rest 0, with ``k = successes[l, m]`` (the trial order is not kept by
        counts; no method of :data:`METHODS` uses it).

    Raises
    ------
    InputError
        A missing cell (a model did not answer a question), cells with different numbers of trials,
        or non-integer successes: the ranking methods need a complete L x M x N tensor, and this
        function neither fills nor drops attempts. The message says which cell and what to do.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if s.ndim != 2 or s.shape != n.shape or s.size == 0:
        raise InputError(f"counts must be two matching non-empty (models x questions) tables; got {s.shape} and {n.shape}.",
                         field="trials")
    def cell(i, j) -> str:
        model = repr(str(models[i])) if models is not None else str(i)
        question = repr(str(questions[j])) if questions is not None else str(j)
        return f"model {model} on question {question}"

    missing = n <= 0
    if np.any(missing):
        i, j = np.argwhere(missing)[0]
        others = int(missing.sum()) - 1
        more = f" (and {others} other (model, question) cell{'s' if others != 1 else ''})" if others else ""
        raise InputError(
            f"no trial of {cell(i, j)}{more}: the ranking methods need every model to answer every question. "
            "Choose 'Common questions only' (CLI: --question-set common) to compare models on the questions all answered, "
            "or 'Missing counts as incorrect' (CLI: --question-set missing-incorrect) to count it as answered wrongly.",
            field="trials")
    if np.any(n != n.flat[0]):
        i, j = np.argwhere(n != n.flat[0])[0]
        raise InputError(
            f"cells have different numbers of trials ({int(n.min())} to {int(n.max())}; e.g. {int(n[i, j])} for "
            f"{cell(i, j)} against {int(n.flat[0])} for {cell(0, 0)}): the ranking methods need the same N in every "
            "cell; this view does not drop trials to make them equal. Rerun the missing trials, or compare Bayes@N on "
            "the leaderboard, which handles unequal N.", field="trials")
    if np.any(s != np.round(s)) or np.any((s < 0) | (s > n)):
        raise InputError("successes must be whole numbers between 0 and the trials (binary outcomes); a rubric with "
                         "partial credit has no binary response tensor.", field="successes")
    N = int(n.flat[0])
    return (np.arange(N) < s[..., None]).astype(np.int8)


@dataclass(frozen=True)
class MethodAgreement:
    """Ranks of L models under K methods and how the methods agree.

    Attributes
    ----------
    models : tuple of str, length L
    methods : tuple of str, length K
    ranks : ndarray of float, shape (K, L)
        Competition ranks (1 = best; ties share the best rank).
    scores : ndarray of float, shape (K, L)
        Each method's scores (higher is better), as the method defines them.
    tau_b : ndarray of float, shape (K, K)
        Kendall's tau_b between two methods' rankings (NaN when a ranking is constant).
    best, worst : ndarray of float, shape (L,)
        Each model's best and worst rank over the methods.
    skipped : dict of str to str
        Methods that cannot rank this data, with the method's own reason (e.g. Bradley-Terry's
        maximum-likelihood estimate does not exist when a model wins or loses every comparison);
        they are not in ``methods``.
    summary : str
        One line: how often the top k is the same (when more than k models tie within ranks 1 to k under
        the first method, it says the data pick no top k and compares that tied set), and the model whose
        rank depends most on the method.
    """

    models: tuple[str, ...]
    methods: tuple[str, ...]
    ranks: np.ndarray
    scores: np.ndarray
    tau_b: np.ndarray
    best: np.ndarray
    worst: np.ndarray
    skipped: dict
    summary: str

    def rows(self) -> list[dict]:
        """One record per model: its rank under every method, its best and worst rank, sorted by best then worst."""
        order = np.lexsort((self.worst, self.best))
        return [{"model": self.models[i], "best": int(self.best[i]), "worst": int(self.worst[i]),
                 "spread": int(self.worst[i] - self.best[i]),
                 "ranks": {m: int(self.ranks[k, i]) for k, m in enumerate(self.methods)}} for i in order]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _summary(models, methods, ranks: np.ndarray, best: np.ndarray, worst: np.ndarray, top: int) -> str:
    """The agreement in a sentence or three a lead can read.

    Methods that tie most models (distinct ranks at most a third of the methods' median, e.g. Nanson's four levels
    among 16 models where the others give 14-16; or a tie group of at least a quarter of the models and three times
    the methods' median largest group) move every
    model they tie: the headline's model and its count of models that change rank come from the other methods, and
    the coarse ones are named apart (helper QA: "16 of 16 models change rank ... ranks 10th to 16th" came from one
    coarse method alone, while 32 of 33 put that model 16th). A top k that is every model says nothing and is left out.
    """
    K, L = ranks.shape
    if K < 2:
        return "Choose at least two methods to see whether the ranking depends on the method."
    if np.all(ranks == 1):  # all-solved, all-failed, identical models: no method separates anything
        return (f"No method separates any two models: all {L} tie under every one of the {K} methods, so these data "
                "cannot rank them.")
    k = min(top, L)
    reference = ranks[0]
    label = method_label(methods[0])
    first = ""
    if k < L:  # the top k of L models, where k < L: else "the top 4 of 4 is the same" says nothing
        top_sets = [frozenset(np.flatnonzero(r <= k).tolist()) for r in ranks]
        same = sum(t == top_sets[0] for t in top_sets)
        first = f"the top {k} is the same under {same} of {K} methods (compared with {label})"
        if len(top_sets[0]) > k:  # ties straddle rank k: no top k to name, only a tied set larger than k
            first = (f"these data do not pick a top {k} under {label}: {len(top_sets[0])} models tie within ranks 1 "
                     f"to {k}; that tied set is the same under {same} of {K} methods")
    groups = [np.unique(r, return_counts=True)[1] for r in ranks]  # a loop over the methods (tens), not models
    distinct, biggest = np.array([g.size for g in groups]), np.array([g.max() for g in groups])
    # coarse: a third of the methods' typical resolution or less (N = 1 data tie many models under every method), or
    # one tie group of a quarter of the models and three times the methods' typical largest (helper QA: Nanson tied
    # 93 of 200 models at rank 108 with 7 distinct ranks, where the others gave 20, and "m112 ranks 108th to 200th"
    # came from that tie alone)
    coarse = (np.flatnonzero((distinct <= max(2.0, np.median(distinct) / 3))
                             | (biggest >= max(L / 4, 3 * np.median(biggest))))
              if L >= 8 else np.zeros(0, dtype=int))
    fine = np.setdiff1d(np.arange(K), coarse)
    use = fine if fine.size >= 2 else np.arange(K)  # the headline from the methods that resolve the models
    lo, hi = ranks[use].min(axis=0), ranks[use].max(axis=0)
    spread = hi - lo
    i = int(np.argmax(spread))
    among = "" if use.size == K else f" the {use.size} methods that resolve most models"
    if spread[i] == 0:
        text = (f"Every model has the same rank under{among or f' the {K} methods'}"
                + (f"; {first}" if first else "") + ".")
    else:
        moved = int((spread > 0).sum())
        text = ((f"{first[0].upper() + first[1:]}; " if first else "")
                + f"{moved} of {L} models change rank with the method{' among' + among if among else ''}; "
                f"{models[i]} ranks {_ordinal(int(lo[i]))} to {_ordinal(int(hi[i]))} "
                f"({_ordinal(int(reference[i]))} under {label}).")
        text = text[0].upper() + text[1:]
    if coarse.size:
        named = ", ".join(f"{method_label(methods[c])} {distinct[c]}" for c in coarse[:3])
        text += (f" {coarse.size} of {K} methods tie most models (distinct ranks among {L}: {named}"
                 f"{', ...' if coarse.size > 3 else ''}; the others' median {np.median(distinct):.0f}), which alone moves "
                 "every model they tie"
                 + (": the models' rank ranges below include them." if use.size < K else "."))
    return text


def agreement(R, methods, *, models=None, extra=None, top: int = 3, options=None) -> MethodAgreement:
    """Rank the models of R under each method and measure how the rankings agree.

    Parameters
    ----------
    R : array_like of int, shape (L, M, N) or (L, M)
        Binary outcomes (:func:`response_tensor`).
    methods : sequence of str
        Names of :mod:`scorio_core.rank` functions (see :func:`available_methods`) and/or keys of
        ``extra``, in display order (the first is the reference of the summary).
    models : sequence of str, optional
        Model names (default ``"0"``, ``"1"``, ...).
    extra : dict of str to array_like, optional
        Scores (higher is better, shape (L,)) of methods computed by the caller, e.g. Bayes@N under
        the leaderboard's prior or IRT abilities; NaN scores rank last.
    top : int, default 3
        The k of "the top k is the same under ... methods".
    options : dict of str to dict, optional
        Keyword options per method, ``{name: {option: value}}`` (e.g. ``{"elo": {"K": 16.0}}``; from text:
        :func:`scorio_core.rank.options.parse_method_options`); a method not named uses its defaults.

    Returns
    -------
    MethodAgreement

    Raises
    ------
    ValueError
        An unknown method, no method, ``extra`` scores of the wrong shape, or no method able to rank
        the data. A method that raises ``ValueError`` or ``RuntimeError`` on this data (no finite
        estimate, a failed optimisation) is left out and listed in ``skipped`` with its reason.
    """
    from scorio_core.ranking.kendall import tau_b_matrix

    import scorio_core.rank as rank

    R = np.asarray(R)
    L = R.shape[0]
    names = tuple(dict.fromkeys(methods))
    if not names:
        raise ValueError("methods: choose at least one ranking method.")
    extra = dict(extra or {})
    models = tuple(str(m) for m in (models if models is not None else range(L)))
    if len(models) != L:
        raise ValueError(f"models has {len(models)} names for {L} models.")
    known = {m for g in METHODS.values() for m in g} - CALLER_SCORED
    for name in names:
        if name not in extra and (name not in known or not callable(getattr(rank, name, None))):
            choices = sorted(m for g in available_methods().values() for m in g)
            raise ValueError(f"unknown ranking method {name!r}; choose from {', '.join(choices)} (or pass scores in extra).")
    rows, kept, skipped = [], [], {}
    for name in names:  # a loop over the chosen methods (each vectorised over models and questions)
        if name in extra:
            s = np.asarray(extra[name], dtype=float)
            if s.shape != (L,):
                raise ValueError(f"extra scores of {name!r} have shape {s.shape}; expected ({L},).")
            rows.append((near_tie_ranks(s), s))  # NaN last; last-digit differences tie (near_tie_ranks)
            kept.append(name)
            continue
        try:
            r, s = getattr(rank, name)(R, method="competition", return_scores=True, **(options or {}).get(name, {}))
        except (ValueError, RuntimeError) as exc:  # the method cannot rank these data: say why, rank with the others
            skipped[name] = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            continue
        rows.append((settled_ranks(r, s), np.asarray(s, dtype=float)))  # an optimiser's last digits are no rank
        kept.append(name)
    if not rows:
        raise ValueError("no chosen method can rank these data: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
    names = tuple(kept)
    ranks = np.stack([r for r, _ in rows])
    scores = np.stack([s for _, s in rows])
    tau = tau_b_matrix(ranks)  # every pair of methods at once (scipy's tau_b, snapped)
    best, worst = ranks.min(axis=0), ranks.max(axis=0)
    return MethodAgreement(models, names, ranks, scores, tau, best, worst, skipped,
                           _summary(models, names, ranks, best, worst, top))
