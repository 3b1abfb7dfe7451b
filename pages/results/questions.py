"""Questions: which questions are broken, saturated or uninformative (item response theory on the counts, issue 37)."""

import streamlit as st

from dashboard.compute.items import question_diagnostics, question_rates, rank_without
from dashboard.compute.results import models_of, question_attempts_for, trial_range
from dashboard.figures import flag_bars, item_curve
from dashboard.guard import blocking_notice, user_errors
from dashboard.panels import rubric as rubric_panel
from dashboard.panels.attempts import render_attempts
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.panels.charts import chart
from dashboard.tables.sizes import fit_height
from dashboard.tables.chart_text_more import flag_frame, flag_summary, item_curve_frame, item_curve_summary
from dashboard.tables.items import flag_label, flagged_export, question_display, shift_display, with_flags
from dashboard.text import md
from scorio_core.items import FLAG_CODES, FLAG_RULES, PRIORS
from scorio_core.items.board import coverage_note, unlinked_note
from scorio_core.items.spread import spread_note
from scorio_core.items.report import flagged_questions
from scorio_core.report.tables import to_csv

IRT_LABELS = {"2pl": "2PL (difficulty and discrimination)", "rasch": "Rasch (difficulty only)"}
FLAG_HELP = "\n".join(f"- **{code}**: {FLAG_RULES[code]}" for code in FLAG_CODES)

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Questions")
active = rubric_state.active_rubric(ctx)
st.caption("Which questions are probably broken (strong models fail them, weak models pass), saturated (every model "
           "solves them), never solved, or uninformative (they cannot change a ranking). An item response model puts "
           "every model's ability and every question's difficulty on one scale. "
           f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))}")
if blocking_notice(ctx.data.dataset):
    st.stop()
rubric_panel.render_unmatched(ctx, active, choose=False)
data_id, dataset, task = ctx.data.data_id, ctx.data.dataset, ctx.task
trial_position_warning(ctx, task=task, assumes="The item fit counts each model's trials of a question as exchangeable "
                                              "draws of one success rate.")
models = models_of(data_id, dataset, task)
left, right = st.columns([1, 2])
IRT_HELP = ("2PL: each question has a difficulty and a discrimination (how sharply success rises with ability); it "
            "needs at least two models. Rasch: every discrimination is 1.")
if len(models) < 2:
    # One model: only Rasch can be fitted, so the selector shows it (disabled); the user's own choice, kept in the
    # session and the address, applies again on a task with two or more models.
    left.selectbox("Item response model", ["rasch"], format_func=IRT_LABELS.get, key="q_irt_one", disabled=True,
                   help=IRT_HELP + " With one model only Rasch can be fitted.")
    kind = "rasch"
else:
    kind = left.selectbox("Item response model", list(IRT_LABELS), format_func=IRT_LABELS.get, key="q_irt",
                          bind="query-params", persist_state="session", help=IRT_HELP)
codes = right.multiselect("Show questions flagged", list(FLAG_CODES), key="q_flags", placeholder="every question",
                          format_func=flag_label,
                          help="Only questions carrying any of these flags (empty: every question).\n\n" + FLAG_HELP)
fitted = kind
if len(models) < 2 and st.session_state.get("q_irt", "2pl") == "2pl":
    st.info(f"The 2PL model needs at least two models; this task has {len(models)}. With one model every "
            "discrimination would be its prior's, and possibly mislabeled questions (strong models fail, weak ones pass) "
            "and rank changes cannot be shown. Showing the Rasch model's difficulties instead; load a dump with two or "
            "more models (six or more for the strongest-versus-weakest rule) to see them.", icon=":material/info:")
with user_errors("the question diagnostics"):
    diag = question_diagnostics(data_id, dataset, task, fitted, active.rubric_id, active.categorization, ctx.confidence)
    rates = question_rates(data_id, dataset, task, active.rubric_id, active.categorization)
table = diag.questions
n_questions = len(table)
if diag.outcome == "rubric weights":  # e.g. AlpacaEval's draws: half a success each
    st.caption(f"Under the rubric '{md(active.schema.name)}' each attempt counts its weight as a success (a weight of "
               "0.5 is half a success): the item fit reads these weighted counts as binomial successes, an "
               "approximation, and so are its intervals. Flaky means a model's attempts fall in two categories.")
shortest, longest = trial_range(data_id, dataset, task, active.rubric_id, active.categorization)
if n_questions == 1:
    st.info("This task has one question: its difficulty is estimated, but there is no other question to compare it "
            "with and ranking without it would leave nothing. Load a task with more questions.", icon=":material/info:")
if longest <= 1:
    st.info("Every model has one trial per question (N = 1): the flaky flag needs at least two trials of a model on a "
            "question, so no question can be flaky here. More trials per question would show it.", icon=":material/info:")
solid = [set(f) & {"saturated", "unsolved"} for f in table["flags"]]
if n_questions and all(solid):
    st.info("Every question is saturated or never solved: the models cannot be told apart on these questions, so "
            "difficulties sit at the prior's edge and discriminations say nothing. Harder (or easier) questions would.",
            icon=":material/info:")

counts = {code: sum(code in f for f in table["flags"]) for code in FLAG_CODES}
n_flagged = sum(len(f) > 0 for f in table["flags"])
st.header("Flags", divider="gray")
summary, bars = st.columns([1, 2])
summary.metric("Questions", f"{n_questions:,}", border=True)
summary.metric("Flagged", f"{n_flagged:,}", border=True, help="Questions carrying at least one flag.")
n_only_flaky = sum(set(f) == {"flaky"} for f in table["flags"])
if n_only_flaky:
    summary.metric("Flagged beyond flaky", f"{n_flagged - n_only_flaky:,}", border=True,
                   help="Questions with a flag about the question itself (possibly mislabeled, saturated, unsolved, "
                        "low information), not only disagreeing attempts.")
    summary.caption(f"{n_only_flaky:,} of them flaky only: some model's attempts on the question disagree, which is "
                    "expected when models sample. The other flags point at the question itself.")
with bars:
    chart(flag_bars(counts), flag_summary(counts), flag_frame(counts), key="q_flag_chart")
unlinked = unlinked_note(diag)
if unlinked:  # abilities of models that share no question are ordered by the priors, not by the data
    st.warning(md(unlinked), icon=":material/link_off:")
spread = spread_note(diag.fit)
if spread:  # the models do not credibly differ: a 2PL scale (difficulties, discriminations) is set by noise
    st.warning(md(spread), icon=":material/balance:")
coverage = coverage_note(diag)
if coverage:  # small tables: the Laplace intervals were measured to cover less than their level
    st.caption(md(coverage))
st.caption(f"Fitted to {md(diag.outcome)} of {len(diag.models):,} model{'' if len(diag.models) == 1 else 's'} (every model: abilities need them all; the "
           f"sidebar's model filter is not applied). {md(diag.fit.method)}.")

st.header("Questions", divider="gray")
shown = with_flags(table, codes)
frame, config = question_display(shown, confidence=ctx.confidence)
picked = st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
                      height=fit_height(len(frame), 480), on_select="rerun", selection_mode="single-row",
                      key="q_table")
st.caption(f"{len(shown):,} of {n_questions:,} questions" + (f" flagged {md(', '.join(map(flag_label, codes)))}" if codes else "")
           + ". Click a row (or pick a question below) to see its curve and attempts. The flags are heuristics: "
             "read the reason and the attempts before acting on one.")
export = flagged_export(table, codes)
st.download_button(f"Download the flagged questions (CSV, {len(export):,} rows)", to_csv(export),
                   file_name="flagged_questions.csv", mime="text/csv", key="q_download", icon=":material/download:",
                   disabled=export.empty, help="Every question with a flag (only the chosen flags when a filter is set), "
                                               "with its estimates and reasons.")

if len(shown):
    st.header("One question", divider="gray")
    ids = [str(q) for q in shown["question_id"]]
    rows = list(getattr(getattr(picked, "selection", None), "rows", []) or [])
    if rows and rows[0] < len(ids) and st.session_state.get("_q_picked_row") != (ids[rows[0]], task):
        st.session_state["q_question"] = ids[rows[0]]  # a click in the table opens the question
        st.session_state["_q_picked_row"] = (ids[rows[0]], task)
    if st.session_state.get("q_question") not in ids:
        st.session_state["q_question"] = ids[0]
    question = st.selectbox("Question", ids, key="q_question",
                            help="Its item characteristic curve and every attempt on it.")
    row = shown.iloc[ids.index(question)]
    fit = diag.fit
    j = list(fit.questions).index(question)
    theta = diag.models["ability"].to_numpy(float)
    observed = rates[question].reindex(diag.models["model"]).to_numpy(float)
    chart(item_curve(fit.a[j], fit.b[j], theta, observed, diag.models["model"], a_se=fit.a_se[j],
                     b_se=fit.b_se[j], question=question, confidence=ctx.confidence),
          item_curve_summary(question, fit.a[j], fit.b[j], observed),
          item_curve_frame(diag.models["model"], theta, observed), key="q_item_chart")
    st.caption((f"Why flagged: {md(row['reason'])}. " if row["flags"] else "No flag. ")
               + "The curve is the fitted probability of success at each ability; each dot is a model at its ability "
                 "and its observed success rate on this question.")
    if dataset.attempts is not None:
        with user_errors("the attempts"):
            attempts = question_attempts_for(data_id, dataset, task, question, tuple(str(m) for m in diag.models["model"]),
                                             active.rubric_id, active.categorization)
        render_attempts(attempts, key="q_attempt", caption_rubric="category" in attempts.columns)
    else:
        st.info("The attempts of a question need attempt-level data (one row per attempt); this dataset has counts "
                "only (successes out of trials per model and question). Load the per-attempt dump to read them.",
                icon=":material/info:")
elif codes:
    st.info(f"No question carries {md(', '.join(map(flag_label, codes)))}. Clear the filter to see every question.", icon=":material/info:")

st.header("Rank without flagged questions", divider="gray")
if st.toggle("Rank without flagged questions", key="q_rank_without",
             help="The Bayes@N leaderboard on every question beside the one without the questions carrying the chosen "
                  "flags: which models move, with intervals."):
    drop = st.multiselect("Leave out questions flagged", list(FLAG_CODES), default=["possibly_mislabeled"], format_func=flag_label,
                          key="q_exclude", help=FLAG_HELP)
    excluded = flagged_questions(diag, drop) if drop else ()
    if not drop:
        st.info("Choose at least one flag whose questions to leave out.", icon=":material/info:")
    elif len(excluded) == n_questions:
        st.info(f"Every question carries {md(', '.join(map(flag_label, drop)))}: nothing would be left to rank. Leave out fewer flags.",
                icon=":material/info:")
    else:
        with user_errors("the ranks without flagged questions"):
            shift, excluded, kinds = rank_without(data_id, dataset, task, tuple(drop), fitted, active.rubric_id,
                                           active.categorization, prior=ctx.prior, scope=ctx.scope,
                                           confidence=ctx.confidence)
        frame, config = shift_display(shift, kinds=kinds)
        st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
                     height=fit_height(len(frame), 480), key="q_shift_table")
        moved = int((shift["moved"].fillna(0) != 0).sum())
        st.caption(f"Excluded {len(excluded):,} of {n_questions:,} questions ({md(', '.join(map(flag_label, drop)))}); "
                   f"{moved:,} model{'' if moved == 1 else 's'} {'changes' if moved == 1 else 'change'} rank. The flags are heuristics: a flagged question may be hard, not "
                   "broken, so compare before removing questions. Bayes@N with the sidebar's prior and scope (no prior "
                   "R0, no question clusters); ranks by posterior mean.")

with st.expander("Method"):
    st.markdown(
        f"**Model.** {md(IRT_LABELS[fitted])}: P(correct) = expit(a (theta - b)) for a model of ability theta on a "
        "question of difficulty b and discrimination a (Rasch: a = 1), with successes out of each cell's own trials "
        "(binomial; cells without trials are missing). "
        f"**Priors.** ability theta ~ N({PRIORS['theta'][0]:g}, {PRIORS['theta'][1]:g}^2), difficulty b ~ "
        f"N({PRIORS['b'][0]:g}, tau^2) with tau estimated from the data (empirical Bayes: a first fit with tau = "
        f"{PRIORS['b'][1]:g}, then tau^2 = mean(b^2) - mean(SE^2) over the answered questions, within [0.5, 3]; "
        f"this fit: tau = {diag.fit.b_prior_sd:.3g}), discrimination a ~ N({PRIORS['a'][0]:g}, {PRIORS['a'][1]:g}^2) "
        "(on a itself, so a credibly negative discrimination can show). "
        "**Estimates.** the posterior mode (damped Newton), standard errors from the Laplace approximation (the "
        "inverse Hessian at the mode); a 2PL mode is put on the scale the ability prior defines (abilities' mean "
        "square 1), with that scale's own uncertainty added (1 / (2 x models) on its log); intervals are "
        f"estimate +- z SE at {ctx.confidence:.0%}, the questions and models fixed. "
        f"This fit: {md(diag.fit.method)}; {'converged' if diag.fit.converged else 'did not converge'} in "
        f"{diag.fit.iterations:d} steps" + (f"; scale c = {diag.fit.scale:.3g} (variance of log c: "
                                           f"{diag.fit.scale_var:.3g})." if diag.fit.model == "2pl" else "."))
    st.markdown("**Flags** (defaults; each reason states the numbers):\n\n" + FLAG_HELP)
    st.markdown("**Sources.** Lord (1980), *Applications of Item Response Theory to Practical Testing Problems*; "
                "Embretson and Reise (2000), *Item Response Theory for Psychologists*; Maia Polo et al. (2024), "
                "tinyBenchmarks, arXiv 2402.14992; Vendrow et al. (2025), Do Large Language Model Benchmarks Test "
                "Reliability?, arXiv 2502.03461. Details: docs/items.md.")
