"""The Leaderboard's "Method agreement" tab (does the ranking depend on the method?) and its "IRT ability" tab.

Reads the page's context, calls :func:`dashboard.compute.results.method_agreement_for` (which calls
:func:`scorio_core.leaderboard.methods.method_agreement`) and renders the one-line summary, the Kendall's
tau_b heatmap (:func:`dashboard.figures.method_agreement_heatmap`) and each model's rank under every
method with its best and worst rank, and on request each method's rank interval (a percentile bootstrap
over questions, the same resamples for every method). When the data cannot be ranked by these methods (missing cells,
unequal N), it says why and what would answer the question, and the rest of the page stays.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.compute.items import question_diagnostics
from dashboard.compute.results import METHOD_BOOT, method_agreement_for, method_bootstrap_for
from dashboard.figures import interval_plot, method_agreement_heatmap
from dashboard.panels.charts import chart
from dashboard.tables.chart_text import interval_summary
from dashboard.tables.chart_text_more import agreement_frame, agreement_summary
from dashboard.tables.display import interval_headers, rank_interval_display
from dashboard.tables.sizes import fit_height
from dashboard.tables.methods import rank_table_parts
from dashboard.text import md
from scorio_core.errors import InputError
from scorio_core.items.board import ability_board, ability_interval_label, coverage_note, unlinked_note
from scorio_core.items.spread import spread_note
from scorio_core.leaderboard.methods import QUESTION_SET_SENTENCES, default_methods, size_note
from scorio_core.rank.agreement import METHODS, available_methods, method_label
from scorio_core.rank.bootstrap import quick_to_resample
from scorio_core.ranking.rank import tie_rule_sentence

__all__ = ["render_irt_ability", "render_method_agreement"]


def _options() -> tuple[list[str], dict[str, str]]:
    """Every method the app can compute, in display order, and its "group · label" text."""
    groups = {"Bayes@N and IRT": METHODS["Bayes@N and IRT"], **available_methods()}
    text = {name: f"{group} · {label}" for group, methods in groups.items() for name, label in methods.items()}
    return list(text), text


def render_method_agreement(ctx, task: str, question_set: str, n_models: int, *, choose: bool = True) -> None:
    """Render the tab for ``task`` under the sidebar's prior; ``question_set`` is the leaderboard's choice.

    ``choose=False`` (presentation view): no widget; the shared analysis' methods (``lb_methods``) or the defaults.
    """
    options, text = _options()
    defaults = [m for m in default_methods(n_models) if m in options]
    if choose:
        chosen = st.multiselect(
            "Methods", options, default=defaults, key="lb_methods", format_func=text.get, persist_state="session",
            help="Bayes@N (the sidebar's prior), IRT ability (2PL) and the ranking methods of the reference package "
                 "scorio.rank, each on the same questions. The first is the reference of the summary.",
        )
        if size_note(n_models):
            st.caption(md(size_note(n_models)))
    else:
        saved = st.session_state.get("lb_methods")
        chosen = [m for m in saved if m in options] if isinstance(saved, (list, tuple)) else defaults
    if len(chosen) < 2:
        st.info("Choose at least two methods to compare their rankings.")
        return
    used_set = question_set  # the leaderboard's choice: own, common, or missing counts as incorrect
    try:
        report = method_agreement_for(ctx.data.data_id, ctx.data.dataset, task, tuple(chosen), ctx.prior, used_set)
    except (InputError, ValueError) as exc:
        st.warning(f"The ranking methods cannot rank these data as they are: {md(exc)}", icon=":material/rule:")
        return
    result = report.agreement
    labels = ctx.labels(result.models)
    summary = result.summary
    for model in result.models:  # display names in the summary as on the rest of the page
        summary = summary.replace(f" {model} ranks ", f" {labels[model]} ranks ")
    with st.container(border=True):
        st.markdown(f"**{md(summary)}**")
        st.caption(
            f"{len(result.methods)} methods on {report.n_questions:d} questions x {report.n_trials:d} "
            f"trial{'' if report.n_trials == 1 else 's'}, binary "
            f"correctness (the rubric does not apply: these methods rank right/wrong outcomes); Bayes@N under the "
            f"{md(report.prior)} prior. Ranks are competition ranks (ties share the best rank)."
            + md(QUESTION_SET_SENTENCES.get(used_set, "")))
    for note in report.notes:
        st.caption(md(note))
    if result.skipped:
        st.caption("Left out (cannot rank these data): " + md("; ".join(
            f"{method_label(name)}: {reason}" for name, reason in result.skipped.items())))
    names = [method_label(m) for m in result.methods]
    chart(method_agreement_heatmap(names, result.tau_b), agreement_summary(names, result.tau_b),
          agreement_frame(names, result.tau_b), key="lb_agreement_chart")
    st.caption("Kendall's tau_b between two methods' rankings: 1 the same order, 0 unrelated, -1 reversed "
               "(ties corrected; blank where a method ranks every model the same).")
    rows = result.rows()
    frame = pd.DataFrame([{"model": labels[r["model"]], "best": r["best"], "worst": r["worst"],
                           **{method_label(m): r["ranks"][m] for m in result.methods}} for r in rows])
    groups = {name: group for group, methods in {"Bayes@N and IRT": METHODS["Bayes@N and IRT"],
                                                  **available_methods()}.items() for name in methods}
    parts = rank_table_parts(frame, list(result.methods), {m: method_label(m) for m in result.methods}, groups)
    for title, part, config in parts:  # each part fits a 1920 px page (the whole table ran past it, cut off)
        if title:
            st.caption(f"**{md(title)}**")
        st.dataframe(part, hide_index=True, width="stretch", height=fit_height(len(part), 700), column_config=config)
    st.caption("Each model's rank under every method, sorted by its best rank; best and worst are its rank range "
               "across the chosen methods. A model whose range is wide is ranked by the method, not by the data."
               " Hover a column's header for the method's full name."
               + (f" The methods are split by group into {len(parts)} tables, each a page wide." if len(parts) > 1
                  else ""))
    boot_on = st.toggle(
        "Rank intervals", key="lb_methods_boot",
        help="Each model's rank interval under every method: the questions are resampled with replacement "
             f"{METHOD_BOOT['n_boot']:d} times (the same resamples for every method) and every method ranks each "
             f"resample. Methods too slow to rank {METHOD_BOOT['n_boot']:d} times here (likelihood fits, samplers) "
             "are left out and named; the CLI's methods --bootstrap computes any method.",
    ) if choose else bool(st.session_state.get("lb_methods_boot"))
    if boot_on:
        _render_intervals(ctx, task, tuple(chosen), used_set, labels, (len(result.models), report.n_questions),
                          cli=choose)


def _render_intervals(ctx, task: str, chosen: tuple[str, ...], used_set: str, labels: dict, shape: tuple[int, int],
                      cli: bool = True) -> None:
    """The bootstrap rank intervals of the chosen methods (:func:`dashboard.compute.results.method_bootstrap_for`).

    Methods too slow to rank 200 resamples of data of this ``shape`` (models, questions) are left out (named, with the
    CLI command unless ``cli`` is False, the presentation view): :func:`scorio_core.rank.bootstrap.quick_to_resample`.
    """
    fast = tuple(m for m in chosen if quick_to_resample(m, *shape))
    slow = [m for m in chosen if m not in fast]
    if slow:
        st.caption(f"Left out of the rank intervals for time ({METHOD_BOOT['n_boot']:d} rankings each): "
                   + md(", ".join(method_label(m) for m in slow)) + "." + (" The command line computes them: "
                   "`python -m scorio_core methods FILE --methods NAME,... --bootstrap 200`." if cli else ""))
    if not fast:
        st.info("Choose a fast method (e.g. Bayes@N, avg@N, Borda count) to see rank intervals here.")
        return
    try:
        report = method_bootstrap_for(ctx.data.data_id, ctx.data.dataset, task, fast, ctx.prior, used_set,
                                      ctx.confidence)
    except (InputError, ValueError) as exc:
        st.warning(f"No rank intervals for these data: {md(exc)}", icon=":material/rule:")
        return
    boot = report.bootstrap
    frame = rank_interval_display(boot, labels, method_label)
    st.dataframe(frame, hide_index=True, width="stretch", height=fit_height(len(frame), 700))
    st.caption(
        f"Rank intervals: {boot.confidence:.0%} percentile bootstrap over questions ({boot.n_boot:d} resamples, "
        f"seed {boot.seed:d}, the same for every method): they cover the questions-sampled scope (the benchmark's "
        "questions seen as a sample from a population of questions), not the trial-to-trial noise on these "
        "questions. Each bound is a competition rank some resample gave (lo-hi); sorted by the first method's "
        "interval. Coverage measured in one simulated design (10 models, 60 questions, a near tie or an exact tie): "
        "0.97-1.0 per model at 95% for avg@N, Borda, Bradley-Terry and Rasch (MAP); other designs and methods are not "
        "measured.")
    if boot.failed:
        st.caption("Failed on some resamples (interval from the others): " + md("; ".join(
            f"{method_label(name)}: {n} of {boot.n_boot}" for name, n in boot.failed.items())))


#: Linked groups drawn as their own figure in the "IRT ability" tab (the rest are in its table).
MAX_GROUP_PLOTS = 4


def render_irt_ability(ctx, task: str, tie_rule: str, rubric_id: str, categorization, n_models: int,
                       limit: int = 0, present: bool = False) -> None:
    """The "IRT ability" tab: models ranked by their 2PL ability (Rasch below ``MIN_2PL_MODELS``, as the Questions page
    fits it) with Laplace intervals; ``limit`` > 0 (the Leaderboard's *Show*): each group's chart shows its best
    ``limit`` models (the table lists every model). ``present`` (the presentation view): no repository paths or
    pointers to pages a stakeholder cannot open."""
    if n_models < 2:
        st.info("Ranking by IRT ability needs at least two models.")
        return
    from scorio_core.items.irt import MIN_2PL_MODELS

    model = "2pl" if n_models >= MIN_2PL_MODELS else "rasch"
    try:
        diagnostics = question_diagnostics(ctx.data.data_id, ctx.data.dataset, task, model, rubric_id, categorization,
                                           confidence=ctx.confidence)
    except (InputError, ValueError) as exc:
        st.warning(f"No item response fit for these data: {md(exc)}", icon=":material/rule:")
        return
    table = ability_board(diagnostics, tie_rule=tie_rule)
    unlinked = unlinked_note(diagnostics)
    if unlinked:  # abilities of models that share no question are ordered by the priors, not by the data
        st.warning(md(unlinked), icon=":material/link_off:")
    spread, coverage = spread_note(diagnostics.fit), coverage_note(diagnostics)
    if spread:
        st.warning(md(spread), icon=":material/balance:")
    if coverage:
        st.caption(md(coverage))
    labels = ctx.labels(table["model"])
    table = table[table["model"].isin(ctx.shown(table["model"]))]
    kind = "2PL" if model == "2pl" else "Rasch"
    linked = list(dict.fromkeys(table["group"].dropna().tolist()))
    for g in linked[:MAX_GROUP_PLOTS]:  # one scale per linked group: no figure puts unlinked abilities side by side
        if len(linked) > 1:
            st.markdown(f"**Linked group {md(int(g))}**")  # 1 = the largest, as the leaderboard numbers them
        rows = table[table["group"] == g]
        if limit and len(rows) > limit:  # hundreds of models: the Leaderboard's Show applies to each group's chart
            rows = rows.nsmallest(limit, "rank", keep="all")
            st.caption(f"The chart shows the best {md(len(rows))} of {md(int((table['group'] == g).sum()))} models "
                       "of this group (the Leaderboard's *Show*); the table below lists every model.")
        chart(interval_plot(rows, metric_label=f"IRT ability ({kind}, logit)", confidence=ctx.confidence,
                            labels=labels, tie_rule=tie_rule, estimate_name="posterior mode (MAP)"),
              interval_summary(rows, interval=f"{ctx.confidence:.0%} interval", labels=labels, estimate="ability"),
              key=f"lb_irt_chart_{g}")  # the table below lists every model's numbers
    if len(linked) > MAX_GROUP_PLOTS:
        st.caption(f"{md(len(linked) - MAX_GROUP_PLOTS)} more linked groups are in the table (column 'linked group').")
    frame = pd.DataFrame({"model": table["model"].map(labels), "rank": table["rank"], "rank (CI ties)": table["rank_ci"],
                          "ability": table["mu"], "lo": table["lo"], "hi": table["hi"],
                          "questions answered": table["n_questions"]})
    low, high = interval_headers(ctx.confidence)  # as the Leaderboard's table (QA F11: "lo"/"hi" here, "low"/"high" there)
    if len(linked) > 1:  # ranks count within a group only: the group is part of the rank
        frame.insert(1, "linked group", table["group"])
    st.dataframe(frame, hide_index=True, width="stretch", height=fit_height(len(frame), 900),
                 column_config={"model": st.column_config.TextColumn("Model"),
                                "rank": st.column_config.NumberColumn("Rank", format="%d"),
                                "rank (CI ties)": st.column_config.NumberColumn("Rank (CI ties)", format="%d"),
                                "ability": st.column_config.NumberColumn("Ability (logit)", format="%.3f"),
                                "lo": st.column_config.NumberColumn(low, format="%.3f"),
                                "hi": st.column_config.NumberColumn(high, format="%.3f"),
                                "questions answered": st.column_config.NumberColumn("Questions answered", format="%d")})
    unanswered = diagnostics.fit.unanswered_models
    st.caption(
        f"What the interval covers: {md(ability_interval_label(diagnostics))} (measured coverage of 95% intervals "
        "in simulation: 0.93-0.98 over six designs" + ("" if present else ", docs/items.md") + "). Abilities put every model on one scale even when models answered different "
        "questions, as long as shared questions link them: each question's difficulty and discrimination come from "
        "every model that answered it, so this ranking does not reward answering only easy questions. Rank ties use the abilities' standard "
        f"errors as if independent. {md(tie_rule_sentence(tie_rule))}" + ("" if present else " Question details: the Questions page.")
        + (f" Not ranked (answered no question): {md(', '.join(unanswered))}." if unanswered else ""))
