"""``compare``: two models head to head (difference posterior, disagreements, trials needed).

Usage::

    python -m scorio_core compare PATH... --models A B [--task T] [--confidence 0.95] [--schema NAME_OR_JSON] [--max-tokens N] [--freeze-thresholds FILE] [--curve] [--output json|table]

JSON output (``--output json``) is an object::

    {"models": [A, B], "task": ..., "settings": {...}, "notes": [{"code", "message", ...}], "sources": [{"name", "sha256", ...}],
     "a": {leaderboard row of A}, "b": {...},
     "difference": {"mean", "sd", "lo", "hi", "rho", "p_a_gt_b" (= rho: P(A > B), signed: below 0.5 when B leads),
                    "z" (signed, mean / sd), "confidence", "kind", "scope", "assumption"},
     "outcomes": {"only A solves": n, "only B solves": n, ...},
     "questions": [{"question", "outcome", "n_a", "correct_a", "rate_a", "score_a", "n_b", ...}, ...],
     "trials_needed": {"n_needed", "n_power", "practical", "n_power_range": [lo, hi], "power", "range_level",
                       "n_observed" (largest N per question of A, of B), "n_observed_min" (smallest N on an
                       answered question of either), "z_observed" (|z| at the observed N under the projection's
                       prior: where a model's empirical-Bayes prior is not identified the projection uses the uniform
                       prior, ``prior_notes`` say so, and it differs from difference.z), "rho_observed" (Phi(|z|): the paper's
                       ranking confidence, whichever model leads; not difference.rho), "z_threshold", "confidence",
                       "meaning", "assumption", "applicable" (false when the two share no question: then n_needed,
                       n_power, z/rho_observed null, n_power_range [null, null], no curve), "curve": {"n", "z"} (--curve)},
     "questions_needed": null, or with --scope questions-sampled {"m_needed", "m_power", "m_observed",
                         "sd_unit", "z_threshold", "confidence", "power", "practical_factor", "practical",
                         "meaning"}}

``n_needed`` is the plug-in N (about 50% power); ``n_power`` the N at which a fresh run separates
the models with probability ``power`` (0.8) if the difference is as estimated, and
``n_power_range`` the same at the ends of the ``range_level`` (80%) credible interval of the
difference (null: not reached); ``practical`` is false when ``n_power`` is not reached or exceeds 100 times the
observed N (``scorio_core.ranking.separation.PRACTICAL_TRIALS``).

The metric is Bayes@N (under ``--schema``; without it, category codes and no is_correct get the leaderboard's default
'Category codes' rubric, said in ``notes``, as is the leaderboard's ``prior_pull`` of a or b): the difference, rho and
the trials needed all use its posterior (paper sections 2.5 and Appendix D); ``difference.kind`` is
``"approximate"`` where a model's empirical-Bayes prior is not identified (N = 1: its sd is the pooled binomial bound,
and the interval and ``rho`` are normal approximations, said in ``assumption``). With ``--scope questions-sampled``
the difference is paired over the questions both models answered (Miller 2024,
:func:`scorio_core.ranking.paired.scoped_difference`); ``difference.assumption`` says which form ran.
``--prior-outcomes FILE [--prior-model NAME]`` adds the paper's prior outcomes R0 to both posteriors (rows
``a``/``b`` equal ``leaderboard --prior-outcomes``'s; the trials needed use them), named in ``settings.prior_outcomes``/
``prior_model`` and the notes; not with ``--scope questions-sampled`` (the paired difference does not take R0).
"""

from __future__ import annotations

import argparse

from scorio_core.cli._common import add_data_arguments, add_prior_argument, emit_json, emit_rows
from scorio_core.cli.quality import load_notes
from scorio_core.report.notes import as_notes, note, note_messages

__all__ = ["COMMANDS", "register", "run", "run_methods", "run_ranks", "compare_report"]

#: The subcommands :func:`register` adds (its registration imports nothing beyond the option names).
COMMANDS = ("compare", "methods", "ranks")


def register(subparsers) -> None:
    """Add the ``compare``, ``methods`` and ``ranks`` subcommands."""
    from scorio_core.cli.export import add_analysis_arguments

    parser = subparsers.add_parser(
        "compare",
        help="two models head to head: difference posterior, P(A > B), disagreements, trials needed",
        description=("Compare two models under Bayes@N: the posterior of the difference with its credible interval and "
                     "rho = P(A > B) (section 2.5), the questions where one solves and the other does not, and how many "
                     "trials per question would separate them (Appendix D)."))
    add_data_arguments(parser, one_task=True, pool=True)
    parser.add_argument("--models", nargs="+", required=True, metavar="A B",
                        help="the two models to compare: --models A B (names with spaces quoted), or --models A,B")
    add_analysis_arguments(parser, with_metric=False)
    parser.add_argument("--curve", action="store_true", help="include the z-vs-N curve of trials needed in the JSON")
    from scorio_core.cli.quality import add_cluster_argument
    add_cluster_argument(parser)
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run)

    from scorio_core.choices import DEFAULT_PRIOR, PRIORS

    parser = subparsers.add_parser(
        "methods",
        help="does the ranking depend on the method? ranks under Bayes@N, IRT and the scorio.rank methods, Kendall's tau_b",
        description=(
            "Rank each task's models under several ranking methods on the same questions (Bayes@N, IRT ability, avg, "
            "Borda, win rate, ... as implemented), with Kendall's tau_b between every two methods, each model's best "
            "and worst rank, and a one-line summary. JSON: {tasks: [{task, methods, labels, n_questions, n_trials, "
            "question_set, prior, method_options, notes, skipped: {method: reason}, summary, tau_b, models: [{model, "
            "best, worst, spread, ranks: {method: rank}}]}]}. With --bootstrap B each task also has bootstrap: {n_boot,"
            " seed, confidence, scope: questions-sampled, failed: {method: replicates}, intervals: [{model, method, "
            "rank, rank_lo, rank_hi}]}: each method's percentile rank interval over B resamples of the questions, the "
            "same resamples for every method. skipped_tasks: [{task, reason}] (one model, or no question shared; [] when none); notes: what loading found."
        ),
    )
    add_data_arguments(parser)
    parser.add_argument("--methods", default=None, metavar="NAME,...",
                        help="methods to compare, comma-separated (default: bayes, irt_ability and every implemented "
                             "scorio.rank method affordable for the number of models)")
    parser.add_argument("--prior", choices=PRIORS, default=DEFAULT_PRIOR, help="prior of Bayes@N (default empirical-bayes)")
    parser.add_argument("--question-set", choices=("own", "common", "missing-incorrect"), default="own",
                        help="own (default): every model answered every question; common: only the questions all "
                             "answered; missing-incorrect: an unanswered question counts as wrong (cells noted)")
    parser.add_argument("--top", type=int, default=3, help="k of the summary's 'top k is the same' (default 3)")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="B",
                        help="rank interval of every model under every method from B bootstrap resamples of the "
                             "questions, the same resamples for all methods (questions-sampled scope; default 0: "
                             "none). Costs B times the methods' time (200: minutes with the default methods)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)")
    parser.add_argument("--confidence", type=float, default=None,
                        help="coverage of the bootstrap rank interval (default 0.95)")
    parser.add_argument("--method-option", action="append", default=[], metavar="METHOD.KEY=VALUE",
                        help="an option of one of the methods, repeatable (e.g. elo.K=16, bradley_terry_map.prior=2); "
                             "used for its ranking and every bootstrap resample; an unknown key lists the options")
    parser.add_argument("--output", choices=("table", "json"), default="table")
    parser.set_defaults(func=run_methods)

    parser = subparsers.add_parser(
        "ranks",
        help="posterior probability of each model holding each rank (exact Dirichlet draws, Bayes@N)",
        description=(
            "The probability that each model holds each rank (the Leaderboard's Rank distribution tab), from joint "
            "draws of every model's per-question Dirichlet posterior under --prior (default: the leaderboard's "
            "empirical-Bayes prior, held at its fit; uniform: the paper's Bayes@N; no normal approximation). JSON: "
            "{task, models (by expected rank), ranks, probabilities (model x rank), "
            "rows: [{model, expected_rank, most_likely_rank, p_most_likely, p_first, rank, group (with groups)}], "
            "rank_scope (all, or within_group where the models fall into groups that share no question: every rank is "
            "then among the model's own group), groups, ties, draws, seed, prior, prior_note, method, monte_carlo_error, "
            "monte_carlo_se, note (that fewer than 200 draws ran: asked with --draws, or the time budget on large data), "
            "not_ranked, notes: [{code, message, ...}] (unequal_question_sets, disconnected_groups, "
            "trial_position_effect, identical_data, few_draws), sources}. The app's draws and seed give its numbers."
        ),
    )
    add_data_arguments(parser, one_task=True, pool=True)
    parser.add_argument("--schema", default=None,
                        help="rubric schema: built-in name or rubric JSON file (default: binary correctness)")
    parser.add_argument("--freeze-thresholds", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--max-tokens", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--draws", type=int, default=None,
                        help="joint posterior draws (default: the app's budget, 20-4,000 by data size; below 200 the "
                             "output's note says so)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0, the app's)")
    add_prior_argument(parser)
    parser.add_argument("--output", choices=("table", "json", "csv", "md"), default="table")
    parser.set_defaults(func=run_ranks)


def run_ranks(args: argparse.Namespace) -> int:
    """Execute ``ranks`` (:func:`scorio_core.ranking.posterior_ranks.rank_summary` of one task); exit status."""
    from scorio_core.arrays.order import canonical_outcomes
    from scorio_core.cli._common import load_dataset
    from scorio_core.cli.export import analyse, load_schema_args, resolve_task
    from scorio_core.errors import InputError
    from scorio_core.leaderboard.checks import question_sets_notice
    from scorio_core.leaderboard.linking import disconnected_groups_notice as unlinked_notice
    from scorio_core.leaderboard.trial_order import trial_position_note
    from scorio_core.ranking.posterior_ranks import RANK_ROW_KEYS, WITHIN_GROUPS, tie_notes
    from scorio_core.ranking.rank_prior import prior_rank_summary

    if args.draws is not None and args.draws < 1:
        raise InputError(f"--draws must be a positive number of draws; got {args.draws}.", field="draws")
    dataset, (schema, frozen) = load_dataset(args), load_schema_args(args)
    task = resolve_task(dataset, args.task)
    analysed = analyse(dataset, task, schema=schema, frozen=frozen, max_tokens=args.max_tokens, table=False)[0]
    unlinked = unlinked_notice(analysed, None, "own")  # ranks within each group (across them: no common scale)
    try:
        drawn = canonical_outcomes(analysed.rubric)[0]  # any row order or engine: the same draws (arrays.order)
        report = prior_rank_summary(drawn.models, drawn.counts, drawn.weights, draws=args.draws, seed=args.seed,
                                    prior=args.prior, strata=drawn.strata(), groups=unlinked and unlinked["groups"])
    except ValueError as exc:
        raise InputError(f"task '{task}': {exc}", field="model") from None
    unequal = question_sets_notice(analysed, "own", silent=report["not_ranked"])
    notes = as_notes(load_notes(dataset, args), "load") + ([] if unequal is None else [{
        "code": unequal["code"], "finding": unequal["finding"], "models": unequal["models"],
        "message": unequal["finding"] + (" To rank on the questions every model answered: --intersect-questions."
                                         if unequal.get("n_common") else " No question was answered by every model.")}])
    notes += [n for n in [unlinked and {**unlinked, "message": unlinked["message"] + " " + WITHIN_GROUPS},
                          trial_position_note(analysed, analysed.rubric.models, task=task)] if n]  # the leaderboard's notes
    notes += tie_notes(report["ties"]) + ([{"code": "few_draws", "draws": report["draws"], "message": report["note"]}]
                                          if report["note"] else [])  # identical data; fewer draws (as every caveat)
    if args.output == "json":
        emit_json({"task": task, **report, "notes": notes, "sources": list(dataset.sources)})
        return 0
    emit_rows(report["rows"], list(RANK_ROW_KEYS) + (["group"] if unlinked else []), args.output)
    if args.output == "table":
        print(f"task {task}: rank probabilities from {report['draws']:,} joint draws of the per-question Dirichlet "
              f"posteriors ({report['prior']} prior, seed {report['seed']}; Monte-Carlo error at most "
              f"{report['monte_carlo_error']:.1%}); the full model x rank matrix: --output json")
        for message in ([report["prior_note"]] if report["prior_note"] else []) + note_messages(notes):
            print(f"note: {message}")
    return 0


def compare_report(outcomes, table, model_a: str, model_b: str, confidence: float, prior_counts=None,
                   curve: bool = False, prior: str = "uniform", scope: str = "questions-fixed",
                   fixed_table=None, clusters=None) -> dict:
    """The JSON-ready comparison of two models (what ``compare --output json`` prints).

    ``table`` is the leaderboard under ``scope`` (the models' rows ``a``, ``b``); the difference
    is :func:`scorio_core.ranking.paired.scoped_difference` of the questions-fixed posteriors
    (``fixed_table``, needed with ``scope="questions-sampled"``; ``table`` itself otherwise).
    ``clusters`` (question id -> cluster label, :func:`scorio_core.leaderboard.task_outcomes.question_clusters`) makes the
    sampled-scope difference cluster-robust. A pair in groups that share no question gets a ``different_groups`` note."""
    from scorio_core.ranking.compare import disagreement_table, one_sided_note, outcome_counts, question_set_note
    from scorio_core.leaderboard.linking import cross_group_note, question_groups  # as the Compare page
    from scorio_core.ranking.paired import (not_identified_cause, not_identified_models, pair_trials_needed,
                                            questions_meaning, questions_needed, scoped_difference)
    from scorio_core.ranking.separation import trials_meaning
    from scorio_core.errors import InputError
    rows, groups = {str(r["model"]): r for r in table.to_dict(orient="records")}, question_groups(outcomes, table)
    for m in (model_a, model_b):
        if m not in rows:
            raise InputError(f"model {m!r} has no results on task {str(outcomes.task)!r} (it may have results on "
                             f"other tasks: --task picks one); models here: {', '.join(list(rows)[:20])}.")
    a, b = rows[model_a], rows[model_b]
    questions = disagreement_table(outcomes, model_a, model_b)
    fixed = {str(r["model"]): r for r in (table if fixed_table is None else fixed_table).to_dict(orient="records")}
    if scope != "questions-fixed" and fixed_table is None:
        raise ValueError("compare_report needs the questions-fixed leaderboard (fixed_table) for a sampled scope.")
    fa, fb = fixed[model_a], fixed[model_b]
    from scorio_core.uncertainty.clustered import codes_for_questions
    from scorio_core.uncertainty.fallback import pair_sds

    w, rows_of = [float(x) for x in outcomes.rubric.weights], table if fixed_table is None else fixed_table
    sd_a, sd_b = pair_sds(rows_of, model_a, model_b, confidence, (min(w), max(w)))  # exact rows: skewed, as rank_ci
    codes = codes_for_questions(questions["question"], clusters) if scope != "questions-fixed" else None
    diff, assumption = scoped_difference(fa["mu"], sd_a, fb["mu"], sd_b, questions["diff"].to_numpy(),
                                         scope=scope, confidence=confidence, clusters=codes,
                                         scores=questions[["score_a", "score_b"]].to_numpy(float).T,
                                         weights=outcomes.rubric.weights,
                                         not_identified=(unsure := not_identified_models(rows_of, (model_a, model_b))),
                                         cause=not_identified_cause(rows_of, unsure))
    needed, prior_notes = pair_trials_needed(outcomes.rubric, model_a, model_b, prior=prior, confidence=confidence,
                                             prior_counts=prior_counts)
    trials = {
        "prior": prior, "prior_notes": list(prior_notes), "n_needed": needed.n_needed, "n_power": needed.n_power,
        "practical": needed.practical, "n_power_range": list(needed.n_power_range), "power": needed.power,
        "range_level": needed.range_level, "meaning": trials_meaning(needed), "n_observed": list(needed.n_observed),
        "n_observed_min": needed.n_observed_min, "z_observed": needed.z_observed, "rho_observed": needed.rho_observed,
        "z_threshold": needed.z_threshold, "confidence": needed.confidence, "assumption": needed.assumption,
    }
    shared = int(((questions["n_a"] > 0) & (questions["n_b"] > 0)).sum()) if len(questions) else 0
    trials["applicable"] = shared > 0
    if not shared:  # different questions: more trials of each one's own would not compare like with like
        trials.update(n_needed=None, n_power=None, n_power_range=[None, None], z_observed=None, rho_observed=None, practical=False, meaning=(
            "not applicable: the two models share no question, so more trials of the questions each answered would "
            "still compare their question sets along with the models; run both on common questions"))
    if curve and shared:
        trials["curve"] = {"n": needed.n, "z": needed.z}
    questions_block = None
    if scope != "questions-fixed":
        q = questions_needed(diff, questions["diff"].to_numpy())
        questions_block = {**q._asdict(), "practical": q.practical, "meaning": questions_meaning(q)}
    return {"models": [model_a, model_b], "task": outcomes.task, "a": a, "b": b,
            "difference": {**diff._asdict(), "p_a_gt_b": diff.rho, "scope": scope, "assumption": assumption},
            "outcomes": outcome_counts(questions), "questions": questions.to_dict(orient="records"),
            "trials_needed": trials, "questions_needed": questions_block,
            "notes": [note(code, n) for code, n in [("question_set", question_set_note(questions, model_a, model_b)),
                                                    ("different_groups", cross_group_note(groups, model_a, model_b)),
                                                    ("one_sided", one_sided_note(diff, model_a, model_b, confidence))] if n]}


def run(args: argparse.Namespace) -> int:
    """Execute ``compare``; returns the exit status."""
    from scorio_core.cli.export import analyse, load_schema_args, resolve_task
    from scorio_core.cli.quality import cluster_engine, load_dataset  # (quality's load_dataset is _common's)
    from scorio_core.cli.rubric import load_prior_outcomes, prior_outcomes_board, prior_outcomes_settings, refuse_prior_outcomes
    from scorio_core.eval._validate import check_confidence
    from scorio_core.leaderboard.task_outcomes import question_clusters

    models = args.models if len(args.models) != 1 else [m.strip() for m in args.models[0].split(",")]
    if len(models) != 2 or not all(models):  # --models A B, or A,B
        raise ValueError(f"--models takes two model names: --models A B (quote a name with spaces) or A,B; got {args.models}.")
    model_a, model_b = models
    if model_a == model_b:
        raise ValueError(f"--models needs two different models; got {model_a!r} twice.")
    cluster_engine(args)
    if (args.scope or "questions-fixed") != "questions-fixed":  # as the leaderboard's rank_ci: not paired with R0
        refuse_prior_outcomes(args, "the paired difference of --scope questions-sampled does not take prior outcomes R0; "
                                    "compare under --scope questions-fixed, or leave out --prior-outcomes.")
    confidence = check_confidence(0.95 if args.confidence is None else args.confidence)
    schema, frozen = load_schema_args(args)  # before the data: a bad --schema fails before a large file is read
    dataset = load_dataset(args)
    schema = args.schema if schema is None else schema  # category codes without is_correct: the leaderboard's default
    task, scope = resolve_task(dataset, args.task), args.scope or "questions-fixed"
    prior_data, r0_notes = load_prior_outcomes(args, schema=schema), []  # R0 (--prior-outcomes), its note in r0_notes
    settings = {"metric": "bayes", "confidence": confidence, "prior": args.prior or "empirical-bayes"}
    clusters = question_clusters(dataset, task, args.cluster_column) if args.cluster_column else None
    if clusters is not None:
        settings.update(clusters=clusters, cluster_column=args.cluster_column)
    outcomes, _, scoped = analyse(dataset, task, schema=schema, frozen=frozen, max_tokens=args.max_tokens, table=False)
    table, counts0 = prior_outcomes_board(args, prior_data, outcomes, task, scoped.categorization if scoped else None,
                                          r0_notes, schema=schema, scope=scope, **settings)  # R0: as leaderboard's
    fixed_table = None
    if scope != "questions-fixed":  # the paired difference starts from the questions-fixed posteriors
        from scorio_core.leaderboard.table import leaderboard
        fixed_table = leaderboard(outcomes, scope="questions-fixed", **settings)
    report = compare_report(outcomes, table, model_a, model_b, confidence, curve=args.curve, prior_counts=counts0,
                            prior=args.prior or "empirical-bayes", scope=scope, fixed_table=fixed_table,
                            clusters=clusters)
    from scorio_core.leaderboard.trial_order import trial_position_note
    from scorio_core.leaderboard.unfitted import prior_pull_notes  # the leaderboard's prior_pull, of a and b only
    order = trial_position_note(outcomes, (model_a, model_b))  # e.g. ARC-AGI's o3: a retry only after a failure
    pulled = prior_pull_notes(table, (model_a, model_b), r0_note=r0_notes[0] if counts0 is not None else None)
    said = [*as_notes(load_notes(dataset, args), "load"), *r0_notes, *report["notes"], *([order] if order else []),
            *pulled, *getattr(args, "default_notes", [])]  # load's first; each sentence once
    first: dict = {}
    report["notes"] = [first.setdefault(n["message"], n) for n in said if n["message"] not in first]
    report["settings"] = {"metric": "bayes", "confidence": confidence, "schema": schema.name if schema else "binary",
                          "prior": args.prior or "empirical-bayes", "scope": scope, "cluster_column": args.cluster_column,
                          **prior_outcomes_settings(args)}
    if args.output == "json":
        emit_json({**report, "sources": list(dataset.sources)})
        return 0
    d, t = report["difference"], report["trials_needed"]
    print(f"{model_a} vs {model_b} ({task}), Bayes@N")
    kind = "credible interval" if d["kind"] == "credible" else "interval (normal approximation)"
    print(f"  difference {d['mean']:+.4f} (sd {d['sd']:.4f}), {confidence:.0%} {kind} "
          f"[{d['lo']:+.4f}, {d['hi']:+.4f}], P({model_a} > {model_b}) = {d['rho']:.4f}")
    print(f"  assumption: {d['assumption']}")
    for message in [*note_messages(report["notes"]), None, *t.get("prior_notes", ())]:  # None: the trials line
        print(f"  note: {message}" if message else f"  trials per question: {t['meaning']}")
    if report["questions_needed"] is not None:
        print(f"  questions: {report['questions_needed']['meaning']}")
    print("  " + ", ".join(f"{k}: {v}" for k, v in report["outcomes"].items() if v))
    emit_rows(report["questions"], ["question", "outcome", "n_a", "correct_a", "n_b", "correct_b", "diff"], "table")
    return 0


def run_methods(args: argparse.Namespace) -> int:
    """Execute ``methods``; returns the exit status."""
    from scorio_core.cli._common import load_dataset
    from scorio_core.leaderboard.methods import agreement_json, method_agreement
    from scorio_core.cli.questions import binary_outcomes_for
    from scorio_core.leaderboard.table import task_names
    from scorio_core.eval._validate import check_confidence

    for bad, what in ((args.top < 1, f"--top must be at least 1; got {args.top}."), (args.bootstrap < 0, (
            f"--bootstrap must be 0 (none) or a number of resamples; got {args.bootstrap}."))):
        if bad:
            raise ValueError(what)
    confidence = check_confidence(0.95 if args.confidence is None else args.confidence)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()] if args.methods else None
    from scorio_core.errors import InputError
    from scorio_core.rank.options import parse_options_by_method
    options = parse_options_by_method(args.method_option, methods)
    dataset = load_dataset(args)
    tasks = [args.task] if args.task else task_names(dataset)
    outcomes = {task: binary_outcomes_for(dataset, task, "method agreement") for task in tasks}  # 1 model: said
    left_out = [{"task": t, "reason": "1 model: ranking needs at least 2"} for t, o in outcomes.items()
                if len(o.models) < 2 and len(tasks) > 1 and any(len(x.models) > 1 for x in outcomes.values())]
    reports, refused = [], []
    for t in [t for t in outcomes if t not in {x["task"] for x in left_out}]:  # one unrankable task: the others ranked
        try:
            reports.append(method_agreement(outcomes[t], methods, prior=args.prior, question_set=args.question_set,
                                            top=args.top, n_boot=args.bootstrap, seed=args.seed, confidence=confidence,
                                            options=options))
        except InputError as exc:
            refused.append((t, exc))
    if refused and (len(tasks) == 1 or not reports):
        raise refused[0][1]
    left_out += [{"task": t, "reason": str(exc).removeprefix(f"task '{t}': ").rstrip(".")} for t, exc in refused]
    for r in reports:  # the default method set depends on the number of models: an option it leaves out is an error
        ranked = set(r.agreement.methods) | set(r.agreement.skipped)
        unused = [name for name in options if name not in ranked]
        if unused:
            raise InputError(f"{r.task}: --method-option names {unused[0]!r}, which the default method set leaves out "
                             f"for this data; name it in --methods.", field="method-option")
    from scorio_core.leaderboard.trial_order import trial_position_note

    results = [agreement_json(r, options, [n for n in [trial_position_note(outcomes.get(r.task))] if n])
               for r in reports]
    loaded = as_notes(load_notes(dataset, args), "load")  # what loading found: in both outputs
    if args.output == "json":
        emit_json({"tasks": results, "skipped_tasks": left_out, "notes": loaded, "sources": list(dataset.sources)})
        return 0
    print("".join(f"note: {message}\n" for message in note_messages(loaded)), end="")
    for item in left_out:
        print(f"{item['task']}: left out ({item['reason']}).")
    for result in results:
        print(f"{result['task']}: {result['summary']}")
        for message in note_messages(result["notes"]):
            print(f"  note: {message}")
        for name, reason in result["skipped"].items():
            print(f"  left out {name}: {reason}")
        rows = [{"model": row["model"], "best": row["best"], "worst": row["worst"], **row["ranks"]} for row in result["models"]]
        emit_rows(rows, ["model", "best", "worst", *result["methods"]], "table")
        if "bootstrap" in result:
            boot = result["bootstrap"]
            print(f"  rank intervals: {boot['confidence']:.0%} percentile bootstrap over questions ({boot['n_boot']} "
                  f"resamples, seed {boot['seed']}, the same for every method; questions-sampled scope)")
            for name, n in boot["failed"].items():
                print(f"  {name} failed on {n} of {boot['n_boot']} resamples (interval from the others)")
            lohi = {}
            for row in boot["intervals"]:
                text = "-" if row["rank_lo"] is None else f"{row['rank_lo']}-{row['rank_hi']}"
                lohi.setdefault(row["model"], {"model": row["model"]})[row["method"]] = text
            order = [row["model"] for row in result["models"]]
            emit_rows([lohi[m] for m in order], ["model", *result["methods"]], "table")
        print()
    return 0
