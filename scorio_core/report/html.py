"""Self-contained HTML report for stakeholders: verdict, leaderboard, charts, manifest.

One file, no network: the leaderboard table carries its own credible-interval bars (plain
HTML/CSS, so the CLI report has a chart too), and Plotly figures passed by the app are
embedded with plotly.js included once. Every piece of user text (model names, labels,
dataset names, settings) is HTML-escaped; figure JSON is written by Plotly, which escapes
``<`` inside scripts.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from scorio_core.choices import has_fallback_interval
from scorio_core.ranking.rank import DEFAULT_TIE_RULE, tie_rule_sentence
from scorio_core.report.manifest import manifest_to_json
from scorio_core.report.tables import estimate_header, interval_name, tie_marks, trial_spans
from scorio_core.report.verdict import Verdict

__all__ = ["html_report", "settings_rows"]

_CSS = """
body{font-family:Inter,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2430;margin:0;background:#f6f7f9}
main{max-width:1080px;margin:0 auto;padding:32px 28px 56px;background:#fff}
h1{font-size:26px;margin:0 0 4px} h2{font-size:19px;margin:34px 0 10px;border-bottom:1px solid #e3e6ea;padding-bottom:6px}
.sub{color:#5b6270;margin:0 0 18px}
.verdict{background:#eef5fb;border-left:4px solid #0072B2;padding:12px 16px;border-radius:4px}
.verdict p{margin:0 0 8px;font-weight:600} .verdict ul{margin:0;padding-left:20px} .verdict li{margin:3px 0}
.caveats{color:#5b6270;font-size:13px;margin-top:10px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:6px 8px;border-bottom:1px solid #eceff3;text-align:right;white-space:nowrap}
th{background:#fafbfc;font-weight:600;color:#3b4250;white-space:normal;vertical-align:bottom}
td.txt,th.txt{text-align:left;white-space:normal}
td.bar{width:34%;min-width:160px}
td.model{white-space:nowrap} td.model.long{white-space:normal;min-width:16em;overflow-wrap:anywhere}
.wide{overflow-x:auto}
.track{position:relative;height:14px;border-right:1px solid #dfe3e8;
  background-image:linear-gradient(to right,#dfe3e8 1px,transparent 1px);background-size:25% 100%}
.axis{position:relative;height:14px;font-size:11px;font-weight:400;color:#5b6270;margin-top:2px}
.axis span{position:absolute;transform:translateX(-50%)} .axis span.first{transform:none}
.axis span.last{transform:translateX(-100%)}
.track .ci{position:absolute;top:5px;height:4px;background:#0072B2;opacity:.55;border-radius:2px}
.track .mu{position:absolute;top:2px;width:10px;height:10px;margin-left:-5px;border-radius:50%;background:#0072B2}
.tie{color:#8a6d00}
dl.settings{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;font-size:14px}
dl.settings dt{color:#5b6270} dl.settings dd{margin:0}
figure{margin:18px 0} figcaption{color:#5b6270;font-size:13px;margin-top:4px}
pre{background:#f6f7f9;padding:12px;overflow:auto;font-size:12px;max-height:420px}
footer{color:#8b919c;font-size:12px;margin-top:36px}
"""


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _num(value, fmt: str = ".4f") -> str:
    """A number as the Markdown export and the app's tables show it: a fixed-point ``fmt`` (``".4f"``) is rounded
    half to even first (numpy/pandas ``round``, :func:`~scorio_core.report.tables.without_negative_zero`), so
    2.05875 reads 2.0588 in every export, not 2.0587 here; ``-0`` reads ``0``.

    >>> _num(2.05875), _num(-0.00001), _num(float("nan")), _num(0.5, ".10g")
    ('2.0588', '0.0000', '&ndash;', '0.5')
    """
    try:
        f = float(value)
    except (TypeError, ValueError):
        return "&ndash;"
    if not math.isfinite(f):
        return "&ndash;"
    if fmt.startswith(".") and fmt.endswith("f") and fmt[1:-1].isdigit():
        f = float(np.round(f, int(fmt[1:-1]))) + 0.0
    return format(f, fmt)


def _int(value) -> str:
    try:
        if value is None or pd.isna(value):
            return "&ndash;"
    except (TypeError, ValueError):
        pass
    return str(int(value))


def _axis(lo, hi) -> tuple[float, float, float]:
    """The interval strip's axis: ``(low, high, step)`` on round numbers (a step of 1, 2, 2.5 or 5 x 10^k), 3-6
    steps covering every interval.

    >>> _axis(pd.Series([0.004]), pd.Series([0.855]))
    (0.0, 1.0, 0.2)
    >>> _axis(pd.Series([0.61]), pd.Series([0.74]))
    (0.6, 0.75, 0.025)
    """
    lo_v = float(np.nanmin(lo)) if len(lo) and np.isfinite(np.nanmin(lo)) else 0.0
    hi_v = float(np.nanmax(hi)) if len(hi) and np.isfinite(np.nanmax(hi)) else 1.0
    if hi_v <= lo_v:
        lo_v, hi_v = lo_v - 0.5, hi_v + 0.5
    raw = (hi_v - lo_v) / 4
    power = 10.0 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        step = mult * power
        low, high = math.floor(lo_v / step + 1e-9) * step, math.ceil(hi_v / step - 1e-9) * step
        if round((high - low) / step) <= 6:
            return round(low, 12), round(high, 12), step
    return lo_v, hi_v, (hi_v - lo_v) / 4  # not reached: 10 x power gives at most 5 steps


def _table(table: pd.DataFrame, metric_label: str, confidence: float, tie_help: str) -> str:
    rows = table[table["mu"].notna()]
    lo_axis, hi_axis, step = _axis(rows["lo"], rows["hi"])
    span = hi_axis - lo_axis
    n_steps = int(round(span / step))
    ticks = "".join(f"<span class='{'first' if i == 0 else 'last' if i == n_steps else ''}' "
                    f"style='left:{100 * i / n_steps:.2f}%'>{_num(lo_axis + i * step, '.10g')}</span>"
                    for i in range(n_steps + 1))
    grid = f"background-size:{100 / n_steps:.4f}% 100%"  # a faint line at every tick
    head = (
        f"<tr><th>Rank</th><th title='{_e(tie_help)}'>Rank (CI ties)</th>"
        f"<th class='txt'>Model</th><th>{_e(estimate_header(table, metric_label))}</th>"
        f"<th>{_e(interval_name(table, confidence))}</th>"
        f"<th class='txt'>Interval<div class='axis'>{ticks}</div></th>"
        "<th title='Observed mean score over questions and trials'>avg@N (observed)</th><th>M</th><th>N</th></tr>"
    )
    spans = trial_spans(table)  # "1-12" where a model's trials per question differ
    trials = spans.tolist() if spans is not None else [_int(n) for n in table.get("n_trials", [None] * len(table))]
    marks = tie_marks(table)
    shared = [False] * len(table) if marks is None else [str(m).endswith(" (tie)") for m in marks]
    model_cls = "txt model long" if table["model"].astype(str).str.len().max() > 40 else "txt model"
    body = []
    for (_, r), n_trials, tie in zip(table.iterrows(), trials, shared):
        if pd.notna(r["mu"]):
            left = 100 * (float(r["lo"]) - lo_axis) / span
            width = max(0.4, 100 * (float(r["hi"]) - float(r["lo"])) / span)
            mu = 100 * (float(r["mu"]) - lo_axis) / span
            bar = (f"<div class='track' style='{grid}'><div class='ci' style='left:{left:.2f}%;width:{width:.2f}%'></div>"
                   f"<div class='mu' style='left:{mu:.2f}%'></div></div>")
            interval = f"[{_num(r['lo'])}, {_num(r['hi'])}]"
        else:
            bar, interval = "not scored", "&ndash;"
        body.append(
            f"<tr><td>{_int(r['rank'])}</td><td class='{'tie' if tie else ''}'>{_int(r['rank_ci'])}{' (tie)' if tie else ''}</td>"
            f"<td class='{model_cls}'>{_e(r['model'])}</td><td>{_num(r['mu'])}</td><td>{interval}</td>"
            f"<td class='bar'>{bar}</td><td>{_num(r.get('avg', float('nan')))}</td><td>{_int(r.get('n_questions'))}</td>"
            f"<td>{n_trials}</td></tr>"  # digits and "-" (trial_spans) or _int's text
        )
    return f"<div class='wide'><table><thead>{head}</thead><tbody>{''.join(body)}</tbody></table></div>"


def _verdict(v: Verdict) -> str:
    items = "".join(f"<li>{_e(line)}</li>" for line in v.lines)
    caveats = "".join(f"<div>{_e(c)}</div>" for c in v.caveats)
    summary = (f"<div>{_e(v.basis)}</div>" if v.basis else "") + (f"<div>{_e(v.summary)}</div>" if v.summary else "")
    details = (f"<details><summary>Every neighbouring pair ({len(v.lines)})</summary><ul>{items}</ul></details>"
               if items else "")
    return (f"<div class='verdict'><p>{_e(v.headline)}</p>{summary}{details}</div>"
            f"<div class='caveats'>{caveats}</div>")


def settings_rows(table: pd.DataFrame | None, *, dataset: str, files: str, choices: Mapping[str, object], task: str,
                  rubric: str, thresholds: Mapping[str, float], metric: str, confidence: float, tie_rule: str,
                  prior: str, scope: str, question_set: str, cluster_column: str | None = None,
                  reading: Mapping | None = None) -> dict[str, str]:
    """The report's "Settings": label -> value of everything that defines the analysis, in the app's rows and words
    (its Export page's HTML report), so a CLI report and an app report of one analysis list the same settings.

    Parameters
    ----------
    table : DataFrame or None
        The leaderboard: its scored rows' ``interval`` labels name the intervals (the prior each row used, the N = 1
        fallback), and a fallback row makes the level a confidence level. None: the intervals named by the settings.
    dataset, files : str
        The data's name and its files with their SHA-256.
    choices : mapping
        Data-quality choices in force (keyword arguments of ``scorio_core.io.apply_choices``; unset ones left out).
    task, rubric, metric, tie_rule, prior, scope, question_set : str
        ``rubric``: its name, categories and weights; ``metric``: its label with k and tau where they apply.
    thresholds : mapping of str to float
        The rubric's threshold values (empty without a rubric).
    confidence : float
    cluster_column : str, optional
        The column grouping questions (said with the questions-sampled scope, where it makes intervals cluster-robust).
    reading : mapping, optional
        How the files were read on the user's word (a manifest's ``data.reading``): said in a row *Files read as*
        after *Files* (:func:`scorio_core.report.reading.reading_words`), left out when empty.

    Returns
    -------
    dict of str to str
        ``Dataset, Files, [Files read as,] Data-quality choices, Task, Rubric, Thresholds, Metric, Credibility level``
        (``Confidence level`` with a fallback row), ``Rank ties rule, Intervals, Question set``.
    """
    from scorio_core.report.reading import reading_words
    from scorio_core.report.tables import interval_labels
    from scorio_core.uncertainty.posterior import interval_label

    labels = interval_labels(table) if table is not None else []
    intervals = " | ".join(labels) if labels else (
        interval_label(prior, scope, confidence) + (f"; questions grouped by {cluster_column!r} (cluster-robust)"
                                                    if cluster_column and scope != "questions-fixed" else ""))
    return {
        "Dataset": dataset,
        "Files": files,
        **({"Files read as": reading_words(reading)} if reading else {}),
        "Data-quality choices": ", ".join(f"{k} = {v}" for k, v in choices.items()) or "none",
        "Task": task,
        "Rubric": rubric,
        "Thresholds": ", ".join(f"{k} = {float(v):.4g}" for k, v in thresholds.items()) or "none",
        "Metric": metric,
        ("Confidence level" if table is not None and has_fallback_interval(table) else "Credibility level"):
            f"{confidence:.0%}",
        "Rank ties rule": tie_rule,
        "Intervals": intervals,
        "Question set": question_set,
    }


def html_report(
    *,
    title: str,
    subtitle: str,
    table: pd.DataFrame,
    verdict: Verdict,
    settings: Mapping[str, object],
    figures: Sequence[tuple[str, str, object]] = (),
    manifest: dict | None = None,
    notes: Sequence[str] = (),
    generated: str = "",
    tie_rule: str = DEFAULT_TIE_RULE,
) -> str:
    """Render the report as one self-contained HTML document.

    Parameters
    ----------
    title, subtitle : str
        Shown at the top (escaped).
    table : DataFrame
        Leaderboard rows (:data:`scorio_core.leaderboard.table.LEADERBOARD_COLUMNS`).
    verdict : Verdict
        From :func:`scorio_core.report.verdict.verdict`.
    settings : mapping of str to object
        Label -> value pairs shown under "Settings" (escaped).
    figures : sequence of (title, caption, plotly Figure)
        Charts to embed; plotly.js is included once, inline (no network needed).
    manifest : dict, optional
        The analysis manifest, embedded as JSON (restores the analysis when uploaded).
    notes : sequence of str
        Extra notes (escaped).
    generated : str
        Footer text, e.g. the creation time and versions.
    tie_rule : str, default "pairwise"
        The rule the table's ``rank_ci`` used; the report explains that rule
        (:func:`scorio_core.ranking.rank.tie_rule_sentence`).

    Returns
    -------
    str
        The HTML document.
    """
    metric = verdict.metric
    approximate = has_fallback_interval(table)  # N = 1: CI ties at a confidence level, not credibly better
    ties = tie_rule_sentence(tie_rule, approximate=approximate)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{_e(title)}</h1><p class='sub'>{_e(subtitle)}</p>",
        "<h2>Verdict</h2>", _verdict(verdict),
        "<h2>Leaderboard</h2>", _table(table, metric, verdict.confidence, ties),
        f"<p class='caveats'>Rank: competition rank of the {'' if approximate else 'posterior '}mean. {_e(ties)} "
        "M: questions "
        "answered; N: trials per question (smallest-largest where a model's differ). avg@N: the mean over questions of each question's accuracy "
        "(every question weighs the same), beside the prior-based estimate.</p>",
    ]
    from scorio_core.report.tables import interval_note

    if interval_note(table):
        parts.append(f"<p class='caveats'>{_e(interval_note(table))}</p>")
    if figures:
        parts.append("<h2>Charts</h2>")
        for i, (fig_title, caption, fig) in enumerate(figures):
            div = fig.to_html(full_html=False, include_plotlyjs=(i == 0), config={"displaylogo": False, "responsive": True})
            parts.append(f"<figure><h3>{_e(fig_title)}</h3>{div}<figcaption>{_e(caption)}</figcaption></figure>")
    parts.append("<h2>Settings</h2><dl class='settings'>")
    parts.extend(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in settings.items())
    parts.append("</dl>")
    if notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in notes) + "</ul>")
    if manifest is not None:
        parts.append("<h2>Analysis manifest</h2><p class='caveats'>Save this JSON and upload it on the Export page "
                     "(or pass it to <code>python -m scorio_core export --manifest</code>) to restore the analysis.</p>"
                     f"<details><summary>Show manifest</summary><pre>{_e(manifest_to_json(manifest))}</pre></details>")
    parts.append(f"<footer>{_e(generated)}</footer></main></body></html>")
    return "".join(parts)
