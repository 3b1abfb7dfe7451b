"""``trajectory``: rank of every model after n = 1..N trials, in the observed trial order.

JSON output (``--output json``) is an object::

    {"task", "metric", "k", "tau", "models": [L names], "n": [1..N],
     "ranks": [[rank of models[i] after n[j] trials]], "scores": [[...]], "sigma": [[...]] | null,
     "gold_ranks": [...], "kendall_tau": [...], "convergence": int | null,
     "notes": [{"code", "message", ...}], "assumptions": [...], "sources": [...]}

Notes are objects as in every command (:mod:`scorio_core.report.notes`): ``load`` (what loading found),
``rubric``, ``data`` (what making the block dropped or padded), ``trial_position``, ``one_trial``,
``no_convergence``. Ranks are competition ranks; ``null`` where the metric is undefined (Pass@k family, n < k).
With N = 1 trial per question ``kendall_tau`` is ``[null]`` (the only ranking compared with itself) and a
note says so; ``"convergence": null`` always comes with a note saying why.
``"engine"`` names the engine that read the data: with ``--engine duckdb`` (or ``auto`` on large
tables/globs) every metric under every prior runs from the histograms of prefix counts computed
in DuckDB (:mod:`scorio_core.engines.prefix`), with the same result as the pandas path;
``--engine spark`` computes the same histograms with a Spark window (models then in natural order);
``--schema`` (rubric categories) needs attempt rows (``--engine pandas``). Count tables have no
trial order: the command refuses them and suggests ``convergence --bootstrap row``.
``--prior-outcomes FILE [--prior-model NAME]`` (R0, as ``leaderboard``'s) joins the uniform prior after every n
(``--prior uniform`` only; the ``prior_outcomes`` note; the gold standard stays the data's avg@N ranking), also on
``convergence``.
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

import numpy as np

from scorio_core.cli._common import add_data_arguments, add_output_argument, add_prior_argument, emit_json, emit_rows, load_dataset
from scorio_core.report.notes import as_notes, note, note_messages

__all__ = ["register", "run", "add_metric_arguments", "load_block", "Block", "int_ranks", "no_convergence_note"]

_LINEAR = ("bayes", "avg")


class Block(NamedTuple):
    """The complete (L, M, N) block one view runs on, and what was dropped to get it."""

    task: str
    models: tuple[str, ...]
    R: np.ndarray | None
    counts: np.ndarray
    weights: np.ndarray
    notes: list[dict]
    sources: list
    strata: np.ndarray | None = None  # task code per question where tasks are pooled (a prior per model and task)
    prior_counts: np.ndarray | None = None  # R0 (--prior-outcomes) on the block's models and questions (L, M, C+1)


def int_ranks(ranks: np.ndarray) -> list[list[int | None]]:
    """Ranks (L, N) as nested lists of int, None where undefined (NaN)."""
    return [[None if np.isnan(v) else int(v) for v in row] for row in np.asarray(ranks, dtype=float)]


def add_metric_arguments(parser: argparse.ArgumentParser) -> None:
    """``--metric``, ``--k``, ``--tau`` shared by ``trajectory`` and ``convergence``."""
    from scorio_core.dynamics.trajectory import TRAJECTORY_METRICS

    parser.add_argument("--metric", default="bayes", choices=TRAJECTORY_METRICS, help="ranking metric (default: bayes = Bayes@N)")
    parser.add_argument("--k", type=int, default=1, help="k of the Pass@k family (default 1)")
    parser.add_argument("--tau", type=float, default=0.5, help="tau of g-pass@k_tau (default 0.5)")
    parser.add_argument("--schema", default=None, help="rubric schema for Bayes@N/avg@N: built-in name, rubric JSON or score-values[:STEP] (default: binary correctness)")
    add_prior_argument(
        parser,
        what="prior of Bayes@N and of the gold standard: empirical-bayes (default; refitted to each model's first n "
             "trials), uniform (the paper's; ranks as avg@N) or jeffreys",
    )
    parser.add_argument("--max-tokens", type=int, default=None, help="max completion tokens, for the token_ratio signal of rubric schemas")
    parser.add_argument("--freeze-thresholds", default=None, metavar="FILE", help="JSON of rubric threshold values to reuse")
    parser.add_argument("--models", nargs="+", default=None, metavar="MODEL",
                        help="rank only these models (at least 2; default: every model of the task). The block keeps "
                             "the questions all of them answered, so models with disjoint question sets can be "
                             "compared on the questions they share")


def select_models(outcomes, names):
    """``outcomes`` restricted to ``--models`` (order kept, repeats once); InputError for unknown names or fewer than 2."""
    from scorio_core.errors import InputError

    if not names:
        return outcomes
    names = list(dict.fromkeys(str(n) for n in names))
    unknown = [n for n in names if n not in outcomes.models]
    if unknown:
        known = ", ".join(outcomes.models[:12]) + (", ..." if len(outcomes.models) > 12 else "")
        raise InputError(f"--models: no model named {unknown[0]!r} in task '{outcomes.task}' (models: {known}).",
                         field="models")
    if len(names) < 2:
        raise InputError(f"--models: ranking needs at least 2 models; got {names[0]!r} only.", field="models")
    return outcomes.select_models(names)


def need_two_models(models, task: str) -> None:
    """Refuse one model: a trajectory's ranks and convergence@n need two (one model "converged at n = 1" before)."""
    from scorio_core.errors import InputError

    if len(models) < 2:
        raise InputError(f"task '{task}' has {len(models)} model{'' if len(models) == 1 else 's'}"
                         f"{' (' + str(models[0]) + ')' if len(models) == 1 else ''}: trajectories and convergence@n "
                         "rank models, so they need at least 2; load more models' results for this task.",
                         field="model")


#: The assumption both dynamics commands state with ``--prior-outcomes`` (as the app's Trajectories page).
R0_GOLD = ("prior outcomes R0 (--prior-outcomes) enter Bayes@N after every n with the uniform prior; the gold standard "
           "stays the avg@N ranking of the data (R0 are not trials of these models)")


def load_block(args: argparse.Namespace, canonical: bool = False, one_trial=None) -> Block:
    """Load the data, pick the task and return the complete block for ``args.metric`` (with ``canonical``: models and
    questions in natural order, :func:`scorio_core.arrays.order.canonical_outcomes`, for seeded draws per cell).
    ``one_trial(task, sources)``: the error to raise when no cell has 2 trials, before the block's other checks (a
    subset of models would not help there).

    Raises
    ------
    InputError, ValueError
        Unreadable data, several tasks and no ``--task``, no binary correctness for the
        Pass@k family, nothing left after making the block rectangular.
    """
    from scorio_core.leaderboard.table import categorization_for, outcomes_for

    dataset = load_dataset(args)
    categorization, rubric_notes = None, []
    if getattr(args, "schema", None):
        from scorio_core.cli.rubric import read_frozen

        frozen = read_frozen(args.freeze_thresholds) if args.freeze_thresholds else None
        categorization, rubric_notes = categorization_for(dataset, args.schema, args.task, thresholds=frozen, max_tokens=args.max_tokens)
    outcomes = outcomes_for(dataset, args.task, categorization)
    chosen = outcomes.rubric if args.metric in _LINEAR else outcomes.binary
    if chosen is None:
        raise ValueError(f"metric {args.metric!r} needs binary correctness (is_correct), which task {outcomes.task!r} does not have.")
    chosen = select_models(chosen, getattr(args, "models", None))
    if one_trial is not None and int(np.max(chosen.n_trials, initial=0)) < 2:
        raise one_trial(outcomes.task, dataset.sources)
    if canonical:  # the same draws whatever the row order or engine
        from scorio_core.arrays.order import canonical_outcomes
        chosen = canonical_outcomes(chosen)[0]
    need_two_models(chosen.models, outcomes.task)
    block = chosen.complete_block(ragged=True)  # every trial kept; cells with fewer trials are padded (ragged)
    from scorio_core.leaderboard.trial_order import trial_position_note

    order = trial_position_note(outcomes, block.models)  # the leaderboard's notice, for the models ranked here
    from scorio_core.cli.quality import load_notes
    notes = [*as_notes(load_notes(dataset, args), "load"), *as_notes(rubric_notes, "rubric"),
             *as_notes((*chosen.notes, *block.notes), "data"), *([order] if order else [])]
    weights = np.asarray(block.weights, dtype=float)
    prior_counts = _block_prior_counts(args, outcomes, categorization, block, notes)
    return Block(outcomes.task, block.models, block.R, block.counts, weights, notes, list(dataset.sources), block.strata,
                 prior_counts)


def _block_prior_counts(args: argparse.Namespace, outcomes, categorization, block, notes: list) -> np.ndarray | None:
    """R0 of ``--prior-outcomes`` on the block's models and questions, shape (L, M, C+1), or None without it; its
    ``prior_outcomes`` note joins ``notes``. The dynamics combine R0 with the uniform prior only (as the app's pages)."""
    if not (getattr(args, "prior_outcomes", None) or getattr(args, "prior_model", None)):
        return None
    from scorio_core.cli.rubric import check_prior_outcomes_args, load_prior_outcomes, prior_outcome_counts
    from scorio_core.errors import InputError

    check_prior_outcomes_args(args)  # Bayes@N only (--metric bayes)
    if args.prior_outcomes and args.prior != "uniform":
        raise InputError(f"--prior-outcomes: trajectories and convergence@n add the prior outcomes R0 to the uniform "
                         f"prior only (Dirichlet(1 + R0), paper Algorithm 1), as the app's Trajectories and Convergence "
                         f"pages do; --prior {args.prior} is not combined with them: add --prior uniform.",
                         field="prior_outcomes")
    full = prior_outcome_counts(args, load_prior_outcomes(args), outcomes, outcomes.task, categorization, notes)
    rubric = outcomes.rubric
    row_of, column_of = ({x: i for i, x in enumerate(xs)} for xs in (rubric.models, rubric.questions))  # not O(M^2)
    rows, columns = [row_of[m] for m in block.models], [column_of[q] for q in block.questions]
    return np.ascontiguousarray(np.asarray(full)[np.ix_(rows, columns)])


def _prefix_trajectory(args: argparse.Namespace):
    """``(Trajectory, Block)`` from DuckDB prefix counts when the engine resolves to DuckDB, else None.

    ``--engine auto`` falls back to pandas (returns None) for inputs the DuckDB engine does not read
    or data that needs a choice; ``--engine duckdb`` raises those errors.
    """
    from scorio_core.cli._common import choose_engine, parse_mapping

    from scorio_core.leaderboard.task_outcomes import ALL_TASKS

    engine = choose_engine(args)
    if engine not in ("duckdb", "spark"):
        return None
    if args.task == ALL_TASKS:  # the prefix counts are per task; pooling the tasks is done on the loaded outcomes
        if getattr(args, "engine", "auto") in ("duckdb", "spark"):
            raise ValueError(f"trajectory --task '{ALL_TASKS}' pools the tasks on the loaded attempt rows: use "
                             "--engine pandas (or auto), or one task with --task NAME.")
        args.engine = "pandas"
        return None
    from scorio_core.dynamics.prefix import trajectory_from_prefix_stats
    from scorio_core.engines import EngineUnsupported, NotReadyError
    from scorio_core.engines.prefix import prefix_stats

    try:
        if engine == "spark":
            stats = _spark_prefix_stats(args)
        else:
            stats = prefix_stats(args.paths, mapping=parse_mapping(args.mapping) or None, format=args.format,
                                 task=args.task)
    except (EngineUnsupported, NotReadyError):
        if getattr(args, "engine", "auto") in ("duckdb", "spark"):
            raise
        args.engine = "pandas"  # auto: the pandas loader reads it (and reports the choice needed)
        return None
    args.engine_used = engine
    tau = args.tau if args.metric == "g-pass@k_tau" else None
    t = trajectory_from_prefix_stats(stats, args.metric, args.prior, k=args.k, tau=tau)
    no_counts = np.zeros((len(stats.models), 0, 2), dtype=np.int64)  # per-question counts stay in DuckDB
    block = Block(stats.task, stats.models, None, no_counts, np.array([0.0, 1.0]), _engine_notes(stats.notes),
                  list(stats.sources))
    return t, block


def _engine_notes(notes) -> list[dict]:
    """The engine's prefix notes as objects: its per-model-files line is what loading found (``load``, as with
    pandas), the rest what making the block dropped or padded (``data``)."""
    from scorio_core.io._merge import PER_MODEL_WORDS

    return [note("load" if PER_MODEL_WORDS in text else "data", text) for text in notes]


def _spark_prefix_stats(args: argparse.Namespace):
    """One task's prefix counts from the Spark engine (models in natural order, not first appearance)."""
    from scorio_core.cli._common import parse_mapping
    from scorio_core.errors import InputError
    from scorio_core.engines import EngineUnsupported, load_counts
    from scorio_core.leaderboard.task_outcomes import pick_task

    dataset = load_counts(args.paths, engine="spark", mapping=parse_mapping(args.mapping) or None, format=args.format,
                          spark_master=getattr(args, "spark_master", None), trial_prefix=True)
    if dataset.trial_prefix is None:
        raise EngineUnsupported("trajectories need attempt rows with a trial column (the trial order); these are count "
                                "tables or rows without one (use `convergence --bootstrap row`).",
                                source=", ".join(s.name for s in dataset.sources[:3]))
    task = pick_task([str(t) for t in dataset.counts["task"].cat.categories], args.task)
    if task not in dataset.trial_prefix:
        raise InputError(f"task '{task}': no question was answered by every model; rank a subset "
                         "of models that share questions: --models A B ... (the pandas engine).")
    return dataset.trial_prefix[task]


def no_convergence_note(n_trials: int, metric: str = "bayes") -> str:
    """What ``"convergence": null`` means in a trajectory of ``n_trials`` >= 2 trials (a note for the output).

    Parameters
    ----------
    n_trials : int
        N, the trials of the trajectory.
    metric : str, default "bayes"
        The trajectory's metric key: Bayes@N and avg@N rank as the gold standard at n = N; other metrics
        (Pass@k, ...) need not.

    Returns
    -------
    str
        The sentence: no n <= N - 1 after which the ranking equals the gold standard for good, and what would
        answer when it settles (more trials per question; ``convergence`` over bootstrap replicates).
    """
    return (f"convergence is null (no convergence in this trial order): for no n <= N - 1 = {n_trials - 1} does the "
            + (f"ranking after n trials equal the gold standard (the ranking on all N = {n_trials} trials) and stay "
               "equal; at n = N it equals it by definition, so " if metric in ("bayes", "avg") else
               f"ranking after n trials equal the gold standard (the Bayes@N ranking on all N = {n_trials} trials, which "
               "this metric's ranking need not equal even at n = N) and stay equal; ")
            + "convergence@n counts only n <= N - 1. Null is not a number of "
            "trials: more trials per question would show whether the ranking settles, and `convergence` estimates over "
            "bootstrap replicates how often and when it does.")


def register(subparsers) -> None:
    """Add the ``trajectory`` subcommand."""
    parser = subparsers.add_parser(
        "trajectory",
        help="rank of each model after n = 1..N trials (observed trial order)",
        description=(
            "Rank trajectories (paper Figure 9): the competition ranking induced by the first n "
            "trials for n = 1..N, in the data's trial order, with convergence@n against the "
            "gold standard (the Bayes@N ranking on all trials under --prior; under the uniform prior the "
            "paper's avg@N ranking, section 2.7)."
        ),
    )
    add_data_arguments(parser, one_task=True, pool=True)
    add_metric_arguments(parser)
    from scorio_core.cli.rubric import add_prior_outcomes_arguments

    add_prior_outcomes_arguments(parser)  # R0 with --prior uniform (load_block)
    add_output_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``trajectory``; returns the exit status."""
    from scorio_core.dynamics.trajectory import CONVERGENCE_UNDEFINED, TRAJECTORY_PRIOR_NOTES, rank_trajectory

    if getattr(args, "prior_outcomes", None) and getattr(args, "engine", "auto") in ("duckdb", "spark"):
        from scorio_core.errors import InputError

        raise InputError(f"--prior-outcomes: --engine {args.engine} reads the trial order as prefix counts, which the "
                         "prior outcomes R0 do not enter; add --engine pandas (or auto).", field="prior_outcomes")
    t = _prefix_trajectory(args) if not getattr(args, "prior_outcomes", None) else None  # R0: the loaded trials
    if t is not None:
        t, block = t
        need_two_models(block.models, block.task)
    else:
        block = load_block(args)
        if block.R is None:
            n_max = int(block.counts.sum(axis=-1).max()) if block.counts.size else 0
            raise ValueError(
                "trajectory needs the trial order, but the data are counts (n_trials, n_correct) without it; "
                + ("use `convergence --bootstrap row`, which assumes exchangeable trials." if n_max >= 2 else
                   "and with one trial per question no trajectory or convergence@n exists either: run more trials per "
                   "question (N >= 2), with their order (one row per attempt), to see how the ranking settles.")
            )
        tau = args.tau if args.metric == "g-pass@k_tau" else None
        t = rank_trajectory(block.R, args.metric, w=block.weights if args.metric in _LINEAR else None, k=args.k, tau=tau,
                            prior=args.prior, strata=block.strata, prior_counts=block.prior_counts)
    assumptions = [
        "trials are in the order of the source's trial column",
        "ranks are competition ranks of the metric after the first n trials (ties share the better rank)",
        TRAJECTORY_PRIOR_NOTES[t.prior],
    ]
    if t.k > 1:
        assumptions.append(f"{args.metric} is undefined for n < k={t.k}: those ranks are null")
    if block.prior_counts is not None:
        assumptions.append(R0_GOLD)
    notes = list(block.notes)
    kendall = t.kendall_tau
    if t.n.size < 2:
        assumptions.append(CONVERGENCE_UNDEFINED)
        kendall = [None] * t.n.size  # the ranking after n = N = 1 against itself: 1.0 would read as agreement
        notes.append(note("one_trial", "N = 1 trial per question: a trajectory needs at least 2 trials per question to say anything (its "
                     "only ranking, after n = 1 trial, is compared with the ranking on the same single trial, so kendall_tau "
                     "measures nothing and is null, and convergence@n is undefined); run N >= 2 trials per question, as "
                     "`convergence` requires."))
    elif t.convergence is None:
        notes.append(note("no_convergence", no_convergence_note(t.n.size, t.metric)))
    if args.output == "json":
        emit_json(
            {
                "task": block.task,
                "engine": getattr(args, "engine_used", "pandas"),
                "metric": t.metric,
                "prior": t.prior,
                "k": t.k,
                "tau": t.tau,
                "models": list(block.models),
                "n": t.n,
                "ranks": int_ranks(t.ranks),
                "scores": t.scores,
                "sigma": t.sigma,
                "gold_ranks": t.gold_ranks,
                "kendall_tau": kendall,
                "convergence": t.convergence,
                "notes": notes,
                "assumptions": assumptions,
                "sources": block.sources,
            }
        )
        return 0
    N = t.n.size
    # the screen table thins n to a few columns; CSV and Markdown (files, scripts) carry every n
    shown = (sorted({n for n in (1, 2, 5, 10, 20, 40, 80, 160, 320) if n <= N} | {N}) if args.output == "table"
             else list(range(1, N + 1)))
    columns = ["model", *[f"n={n}" for n in shown], "gold"]
    rows = []
    for i, model in enumerate(block.models):
        row = {"model": model, "gold": int(t.gold_ranks[i])}
        row.update({f"n={n}": (None if np.isnan(t.ranks[i, n - 1]) else int(t.ranks[i, n - 1])) for n in shown})
        rows.append(row)
    emit_rows(rows, columns, args.output)
    if args.output == "table":
        conv = (f"no convergence before n = {t.n.size} (the ranking after all N trials is the gold standard by "
                "definition, so convergence@n counts only n < N)" if t.convergence is None else f"{t.convergence} trials")
        if N < 2:
            conv = "undefined with N = 1 (needs at least 2 trials per question)"
        print(f"convergence@n: {conv} (task {block.task}, metric {t.metric}, prior {t.prior}, N={N})")
        if len(shown) < N:
            print(f"note: ranks shown at n = {', '.join(map(str, shown))} of 1..{N} (--output csv or json: every n)")
        for message in note_messages(notes):
            print(f"note: {message}")
    return 0
