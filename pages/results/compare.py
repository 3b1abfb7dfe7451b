"""Compare: two models head to head under Bayes@N and the active rubric."""

import streamlit as st
from scipy.special import ndtri

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.panels.attempts import render_attempts
from dashboard.panels.board_views import render_prior_pull
from dashboard.compute.results import (disagreements, leaderboard_table, question_attempts_for, question_clusters_for,
                               task_outcomes, trials_needed_for)
from scorio_core.ranking.separation import observed_trials, trials_meaning
from dashboard.figures import difference_plot, question_scatter, trials_plot
from dashboard.guard import user_errors
from dashboard.guard import blocking_notice
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.panels.charts import chart
from dashboard.tables.chart_text import difference_frame, difference_summary, trials_frame, trials_summary
from dashboard.tables.chart_text_more import scatter_summary
from dashboard.tables.display import disagreement_display
from dashboard.tables.sizes import fit_height
from dashboard.text import md
from scorio_core.ranking.compare import difference_density, difference_span, outcome_counts, question_set_note
from scorio_core.ranking.paired import (not_identified_cause, not_identified_models, not_identified_note,
                                       questions_meaning, questions_needed, scoped_difference)
from scorio_core.report.verdict import format_probability
from scorio_core.choices import QUESTION_SETS, prior_label, unfitted_share
from scorio_core.leaderboard.checks import prior_pull_notice
from scorio_core.leaderboard.linking import common_question_count, cross_group_note, question_groups
from scorio_core.leaderboard.task_outcomes import ALL_TASKS
from scorio_core.uncertainty.clustered import codes_for_questions
from scorio_core.uncertainty.fallback import pair_sds

QUESTION_SET_NOTE = {
    "common": "Question set: common, as on the Leaderboard: both models on the questions every model answered.",
    "missing-incorrect": "Question set: missing-incorrect, as on the Leaderboard: a question a model did not answer "
                         "counts as answered wrongly.",
}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


ctx = page_context()
if ctx is None:
    st.stop()

st.title("Compare")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · task: {md(ctx.task)}{md(choices_phrase(ctx.data.key))} · Bayes@N under {md(active.summary)}")
rubric_panel.render_unmatched(ctx, active, choose=False)
if blocking_notice(ctx.data.dataset):
    st.stop()

# the Leaderboard's question set (a link or a restored analysis sets it too): the same numbers on both pages
question_set = st.session_state.get("lb_question_set")
question_set = question_set if question_set in QUESTION_SETS else "own"
outcomes = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization)
if question_set == "common" and common_question_count(outcomes) == 0:  # as the Leaderboard: no common question here
    question_set = "own"
with user_errors("the comparison"):
    board = leaderboard_table(
        ctx.data.data_id, ctx.data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence,
        rubric_id=active.rubric_id, _categorization=active.categorization, prior_id=active.prior_id, _prior=active.prior,
        prior=ctx.prior, scope=ctx.scope, cluster_column=ctx.cluster_column, question_set=question_set,
    )
models = [str(m) for m in board.loc[board["mu"].notna(), "model"]]
if len(ctx.shown(models)) >= 2:
    models = ctx.shown(models)  # the sidebar's model filter
elif ctx.models:
    st.caption("The sidebar's model filter leaves fewer than two scored models here; every model is offered.")
if len(models) < 2:
    st.info("Comparing needs at least two scored models; this dataset (task) has "
            f"{len(models)}. Pick another dataset or task in the sidebar.", icon=":material/info:")
    st.stop()

for key, fallback in (("cmp_a", models[0]), ("cmp_b", models[1])):
    if st.session_state.get(key) not in models:
        st.session_state[key] = fallback
names = ctx.labels(models)  # short names where the sidebar asks for them (full names in the link and exports)
left, right = st.columns(2)
model_a = left.selectbox("Model A", models, key="cmp_a", bind="query-params", persist_state="session",
                         format_func=names.get)
model_b = right.selectbox("Model B", models, key="cmp_b", bind="query-params", persist_state="session",
                          format_func=names.get)
if model_a == model_b:
    st.warning("Choose two different models.", icon=":material/compare_arrows:")
    st.stop()

fixed = board
if ctx.scope != "questions-fixed":  # the paired difference starts from the questions-fixed posteriors
    with user_errors("the comparison"):
        fixed = leaderboard_table(
            ctx.data.data_id, ctx.data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence,
            rubric_id=active.rubric_id, _categorization=active.categorization, prior_id=active.prior_id,
            _prior=active.prior, prior=ctx.prior, scope="questions-fixed", question_set=question_set,
        )
row_a = fixed[fixed["model"] == model_a].iloc[0]
row_b = fixed[fixed["model"] == model_b].iloc[0]
table = disagreements(ctx.data.data_id, ctx.data.dataset, ctx.task, model_a, model_b, active.rubric_id, active.categorization,
                      question_set)
if question_set != "own":  # said where the numbers are: a reader comparing with the Leaderboard sees why they agree
    st.caption(md(QUESTION_SET_NOTE[question_set]))
clusters = question_clusters_for(ctx.data.data_id, ctx.data.dataset, ctx.task, ctx.cluster_column)
codes = codes_for_questions(table["question"], clusters)
weights = (0.0, 1.0) if active.categorization is None else active.categorization.weights
# exact-binomial rows (prior not identified) compare with their skewed spreads, as the CLI's compare and rank_ci do
sd_a, sd_b = pair_sds(fixed, model_a, model_b, ctx.confidence, (min(weights), max(weights)))
diff, assumption = scoped_difference(row_a["mu"], sd_a, row_b["mu"], sd_b, table["diff"].to_numpy(),
                                     scope=ctx.scope, confidence=ctx.confidence, clusters=codes,
                                     scores=table[["score_a", "score_b"]].to_numpy(float).T,
                                     weights=weights, not_identified=(unidentified := not_identified_models(
                                         fixed, (model_a, model_b))),
                                     cause=(cause := not_identified_cause(fixed, unidentified)))
pct = f"{ctx.confidence:.0%}"
credible = diff.kind == "credible"  # else a model's empirical-Bayes prior is not identified (N = 1): no posterior

st.header("Posterior of the difference" if credible else "The difference (normal approximation)", divider="gray")
m1, m2, m3, m4 = st.columns([1, 0.9, 1.7, 1])
m1.metric("Mean A - B", f"{diff.mean:+.3f}", border=True,
          help="Posterior mean of the Bayes@N difference mu_A - mu_B." if credible else
          "The difference mu_A - mu_B of the two models' estimates.")
m2.metric("sd", f"{diff.sd:.3f}", border=True,
          help="Posterior sd of the difference: sqrt(sigma_A^2 + sigma_B^2) with questions fixed; paired over the "
               "questions both answered when questions are a sample (see Method below).")
m3.metric(f"{pct} interval", f"{diff.lo:+.2f} to {diff.hi:+.2f}", border=True,
          help=(f"Central {pct} credible interval" if credible else f"Central {pct} interval (normal approximation)")
          + f" of mu_A - mu_B: [{diff.lo:+.4f}, {diff.hi:+.4f}].")
m4.metric("P(A > B)", format_probability(diff.rho), border=True,
          help="The probability that A is truly better than B, given the data and the prior." if credible else
          "Phi(difference / sd), a normal approximation on the pooled binomial sds (not a posterior probability: "
          "the prior is not identified; see Method).")
probability = "posterior probability" if credible else "probability (normal approximation, not a posterior)"
# "ahead" is one-sided (P(A > B) >= the level); the central interval is two-sided: it can hold 0 while one model
# is ahead at that level (between the level and 1 - (1 - level) / 2): say so where they seem to disagree
sided = (f" (one-sided; the central {pct} interval still holds 0, as it leaves {(1 - ctx.confidence) / 2:.1%} on "
         "each side)" if diff.lo <= 0 <= diff.hi else "")
name_a, name_b = names[model_a], names[model_b]
apart = cross_group_note(question_groups(outcomes, board, question_set), model_a, model_b, names)
if apart is not None:  # no chain of shared questions joins them: said before any "ahead" sentence
    st.warning(md(apart), icon=":material/link_off:")
if apart is not None:  # no verdict: the Leaderboard does not order them either (QA: a green "ahead" under the warning)
    st.info(f"P({md(name_a)} > {md(name_b)}) = {format_probability(diff.rho)} compares questions of different difficulty, "
            "not the models: no lead is claimed while they share no chain of questions.", icon=":material/link_off:")
elif diff.rho >= ctx.confidence:
    st.success(f"{md(name_a)} is ahead of {md(name_b)} with {format_probability(diff.rho)} {md(probability)}"
               f"{md(sided)}.", icon=":material/check:")
elif 1 - diff.rho >= ctx.confidence:
    st.success(f"{md(name_b)} is ahead of {md(name_a)} with {format_probability(1 - diff.rho)} {md(probability)}"
               f"{md(sided)}.", icon=":material/check:")
else:
    st.info(f"Not distinguishable at {pct}: P({md(name_a)} > {md(name_b)}) = {format_probability(diff.rho)}.",
            icon=":material/balance:")
effects = trial_position_warning(ctx, (model_a, model_b))  # e.g. ARC-AGI's o3, as the Leaderboard says
# a prior moved A's or B's mean beyond its interval from its avg@N: the Leaderboard's warning, for these two
render_prior_pull(prior_pull_notice(board[board["model"].isin([model_a, model_b])]))
pair_note = question_set_note(table, model_a, model_b)
if pair_note is not None:
    st.warning(md(pair_note), icon=":material/rule:")
x, density = difference_density(diff, span=difference_span(weights))
marks = dict(mean=diff.mean, lo=diff.lo, hi=diff.hi, rho=diff.rho, name_a=name_a, name_b=name_b, confidence=ctx.confidence)
chart(difference_plot(x, density, kind=diff.kind, **marks), difference_summary(kind=diff.kind, **marks),
      difference_frame(**marks), key="cmp_difference_chart")
if not credible:
    st.caption(md(f"Not a posterior: {not_identified_note(unidentified, cause)}."))
st.caption(f"Prior: {md(prior_label(ctx.prior, ctx.task == ALL_TASKS, unfitted_share(len(unidentified), 2)))}. "
           + ("The interval covers what more trials on these same questions could change."
           if ctx.scope == "questions-fixed" else
           "The interval also covers which questions happened to be drawn: it speaks for new questions like these"
           + (f", counting questions of one {md(ctx.cluster_column)} as alike." if ctx.cluster_column else ".")))
with st.expander("Method"):
    st.markdown(f"Assumption: {md(assumption)}.")

st.header("Where they disagree", divider="gray")
counts = outcome_counts(table)
common = int(table["diff"].notna().sum())  # questions both answered: the only ones a question-by-question view pairs
if common:
    cols = st.columns(4)
    cols[0].metric("Only A solves", counts["only A solves"], border=True, help=f"A: {model_a}. 'Solves' = at least one correct trial.")
    cols[1].metric("Only B solves", counts["only B solves"], border=True, help=f"B: {model_b}.")
    cols[2].metric("Both, different rates", counts["both, A more often"] + counts["both, B more often"], border=True)
    cols[3].metric("Same outcome", counts["both always"] + counts["neither"] + counts["both, equally often"], border=True)
else:
    st.info(f"{md(name_a)} and {md(name_b)} answered no question in common, so no question can be compared one to "
            "one: the table lists each model's own questions.", icon=":material/link_off:")
binary = ctx.data.dataset.attempts is None or ctx.data.dataset.attempts["is_correct"].notna().any()
only_diff = st.toggle("Only questions where they differ", value=True, key="cmp_only_diff", bind="query-params",
                      persist_state="session", disabled=not common)
shown = table[table["diff"].fillna(0) != 0] if only_diff and common else table
score_label = "pass rate" if active.status == "binary" else "rubric score"
table_col, plot_col = st.container(), st.container()  # stacked: the table needs the page width at 1280 px
with table_col:
    frame, config = disagreement_display(shown, name_a=name_a, name_b=name_b, binary=binary, score_label=score_label)
    picked = st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
                          height=fit_height(len(frame), 440), on_select="rerun", selection_mode="single-row",
                          key="cmp_question_table")
    st.caption(f"A = {md(name_a)}, B = {md(name_b)}. Sorted with one-sided outcomes first, then by the size of the "
               "difference. Click a row to open that question's attempts below.")
if common:
    with plot_col:
        chart(question_scatter(table, name_a=name_a, name_b=name_b, score_label=score_label),
              scatter_summary(table, name_a=name_a, name_b=name_b, score_label=score_label),
              key="cmp_scatter")  # the question table above holds the scores

if ctx.data.dataset.attempts is not None and len(shown):
    st.header("Attempts on one question", divider="gray")
    questions = [str(q) for q in shown["question"]]
    rows = list(getattr(getattr(picked, "selection", None), "rows", []) or [])
    if rows and rows[0] < len(questions) and st.session_state.get("_cmp_picked_row") != (questions[rows[0]], model_a, model_b):
        st.session_state["cmp_question"] = questions[rows[0]]  # a click in the table opens the question
        st.session_state["_cmp_picked_row"] = (questions[rows[0]], model_a, model_b)
    if st.session_state.get("cmp_question") not in questions:
        st.session_state["cmp_question"] = questions[0]
    question = st.selectbox("Question", questions, key="cmp_question",
                            help="Every attempt of the two models on this question, with every field the dump carries.")
    with user_errors("the attempts"):
        attempts = question_attempts_for(ctx.data.data_id, ctx.data.dataset, ctx.task, question, (model_a, model_b),
                                         active.rubric_id, active.categorization)
    render_attempts(attempts, key="cmp_attempt", caption_rubric="category" in attempts.columns)

held = ctx.scope == "questions-fixed"
st.header("Trials needed to separate them" + ("" if held else " (questions fixed)"), divider="gray")
if not held and common:  # what follows holds the questions fixed, whatever the interval scope
    st.caption(f"This block holds the {common:,} questions fixed (the questions-fixed analysis): it says how many trials "
               "per question would separate the two models on these same questions. For a claim about new questions "
               "like these, more trials alone cannot separate them, since the question-sampling part of the uncertainty "
               "stays: see the questions needed below.")
if not common:  # no shared question: more trials of each one's own questions would still compare the question sets
    st.info("Not applicable: the two models share no question, so more trials of the questions each answered would "
            "still compare their question sets along with the models. Run both on common questions.",
            icon=":material/rule:")
    st.stop()
with user_errors("the trials needed"):
    needed, prior_notes = trials_needed_for(ctx.data.data_id, ctx.data.dataset, ctx.task, model_a, model_b,
                                            ctx.confidence, active.rubric_id, active.categorization, active.prior_id,
                                            active.prior, prior=ctx.prior)
observed = max(needed.n_observed)
if effects:  # the projection draws more exchangeable trials: what these models' trials are not
    whose = " and ".join(names[e["model"]] for e in effects)
    st.warning(md(f"This projection assumes exchangeable trials, which those of {whose} are not (above): more trials "
                  "made the same way would not follow it."), icon=":material/repeat:")
if needed.n_needed is None:
    st.info(md(_sentence(trials_meaning(needed))), icon=":material/all_inclusive:")
elif needed.z_observed >= needed.z_threshold:
    st.success(f"Already separated at {pct} with the observed N = {observed_trials(needed)} trials per question (z = "
               f"{needed.z_observed:.2f} >= {needed.z_threshold:.2f}, one-sided: P(A > B) or P(B > A) >= {pct}). "
               f"Rerunning the evaluation from scratch would not always repeat that: "
               f"{md(trials_meaning(needed))}", icon=":material/check:")
elif needed.n_power and not needed.practical:  # no headline number a team could act on: the sentence says why
    st.info(md(_sentence(trials_meaning(needed))), icon=":material/all_inclusive:")
else:
    st.info(f"**{needed.n_power:,} trial{'' if needed.n_power == 1 else 's'} per question** for {needed.power:.0%} power"
            + ("" if held else " on these questions") if needed.n_power else
            f"{needed.power:.0%} power not reached", icon=":material/trending_up:")
    st.caption(md(_sentence(trials_meaning(needed))))
curve = dict(z_threshold=needed.z_threshold, n_needed=needed.n_needed, n_observed=observed, z_observed=needed.z_observed,
             confidence=ctx.confidence, n_power=needed.n_power, power=needed.power, observed_label=observed_trials(needed))
chart(trials_plot(needed.n, needed.z, z_power=needed.z_threshold + float(ndtri(needed.power)), **curve),
      trials_summary(**curve), trials_frame(needed.n, needed.z), key="cmp_trials_chart")
st.caption("An estimate: new trials will move the rates. The curve at the observed N usually sits a little below the "
           "observed value (the dot), so the projection is conservative.")
with st.expander("Method"):
    st.markdown(f"z = |mu_A - mu_B| / sqrt(sigma_A^2 + sigma_B^2) with N trials per question. Assumption: "
                f"{md(needed.assumption)} (paper Appendix D). Prior: {md(prior_label(ctx.prior, ctx.task == ALL_TASKS, unfitted_share(len(unidentified), 2)))}, held fixed as N "
                "grows. The projected rates are posterior means (every category count plus its prior pseudo-count), "
                "which is why the curve at the observed N sits below the observed z.")
for note in prior_notes:
    st.caption(md(note))

if not held:  # more trials cannot shrink the question-sampling part of the uncertainty
    st.header("Questions needed to separate them", divider="gray")
    q_needed = questions_needed(diff, table["diff"].to_numpy())
    if q_needed.practical:
        st.info(f"**{q_needed.m_power:,} questions** for {q_needed.power:.0%} power", icon=":material/quiz:")
    st.caption(md(_sentence(questions_meaning(q_needed))))
    with st.expander("Method"):
        st.markdown("Paired power analysis (Miller 2024): M = (z + Phi^-1(power))^2 s^2 / difference^2 with "
                    f"s = {q_needed.sd_unit:.3f}, the sd of the difference per question.")
