"""The Method agreement tab's rank table, cut to the page: short headers, fixed widths, at most a page wide each.

With the default 30-odd methods the table (one column per method, headed by its full name) ran to about 4,500 px: at
1920 px the right-hand methods were cut off, behind a scroll bar that only shows on hover (lead QA). Here each method
column is headed by a short name (the full one on hover, in the header's help) and the methods are split, group by
group, into tables no wider than :data:`TABLE_PX`; the model column is pinned in each (it stays when a narrower window
scrolls a table sideways).
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

__all__ = ["SHORT_NAMES", "TABLE_PX", "short_name", "rank_table_parts"]

#: Widest table (px): the page at a 1920 px window with the sidebar open is about 1,460 px.
TABLE_PX = 1400
#: What a character of the grid's header takes (px), and a header's padding and sort arrow.
_CHAR_PX, _PAD_PX, _MIN_PX = 7.5, 26, 52
#: Short header of each method (its full name is the header's help).
SHORT_NAMES = {
    "bayes": "Bayes@N", "irt_ability": "IRT", "avg": "avg@N", "inverse_difficulty": "inv. diff.",
    "bradley_terry": "BT", "bradley_terry_map": "BT MAP", "bradley_terry_davidson": "BTD",
    "bradley_terry_davidson_map": "BTD MAP", "bradley_terry_luce": "BTL", "bradley_terry_luce_map": "BTL MAP",
    "rao_kupper": "RK", "rao_kupper_map": "RK MAP", "plackett_luce": "PL", "plackett_luce_map": "PL MAP",
    "davidson_luce": "DL", "davidson_luce_map": "DL MAP",
    "rasch": "Rasch", "rasch_map": "Rasch MAP", "rasch_2pl": "2PL", "rasch_2pl_map": "2PL MAP", "rasch_3pl": "3PL",
    "rasch_3pl_map": "3PL MAP", "rasch_mml": "Rasch MML", "rasch_mml_credible": "Rasch cred.", "dynamic_irt": "dyn. IRT",
    "mirt": "MIRT", "thompson": "Thompson", "bayesian_mcmc": "MCMC", "elo": "Elo", "glicko": "Glicko",
    "trueskill": "TrueSkill", "borda": "Borda", "copeland": "Copeland", "win_rate": "win rate", "schulze": "Schulze",
    "ranked_pairs": "r. pairs", "kemeny_young": "Kemeny", "nanson": "Nanson", "baldwin": "Baldwin",
    "majority_judgment": "maj. judg.", "minimax": "minimax", "pagerank": "PageRank", "rank_centrality": "rank c.",
    "hodge_rank": "Hodge", "serial_rank": "Serial", "spectral": "spectral", "alpharank": "alpha-rank", "nash": "Nash",
}


def short_name(method: str, label: str) -> str:
    """The header of ``method``'s column: its short name, else its label up to 12 characters."""
    return SHORT_NAMES.get(method) or (label if len(label) <= 12 else label[:11] + "\u2026")


def _px(text: str) -> int:
    return max(_MIN_PX, math.ceil(len(text) * _CHAR_PX + _PAD_PX))


def rank_table_parts(frame: pd.DataFrame, methods, labels: dict, groups: dict,
                     budget: int = TABLE_PX) -> list[tuple[str, pd.DataFrame, dict]]:
    """The rank table ``frame`` (``model, best, worst`` and one column per method, headed by its label) cut into parts
    no wider than ``budget`` pixels, each with its ``column_config``.

    Parameters
    ----------
    frame : DataFrame
        Columns ``model``, ``best``, ``worst``, then ``labels[m]`` for every ``m`` of ``methods``.
    methods : sequence of str
        Method keys in column order.
    labels : dict
        Method key -> column (its full label).
    groups : dict
        Method key -> its group ("Voting", ...): a part holds whole groups where a group fits.
    budget : int
        Widest part in pixels.

    Returns
    -------
    list of (title, DataFrame, dict)
        One part when everything fits (title ""), else parts titled by their groups; the first holds best and worst,
        every part the model column (pinned).
    """
    longest = int(frame["model"].astype(str).str.len().max()) if len(frame) else 5
    model_px = min(240, _px("x" * longest) - _PAD_PX + 24)
    config = {"model": st.column_config.TextColumn("model", width=model_px, pinned=True),
              "best": st.column_config.NumberColumn("best", width=_MIN_PX, format="%d",
                                                    help="Best rank of the model across the chosen methods."),
              "worst": st.column_config.NumberColumn("worst", width=_MIN_PX, format="%d",
                                                     help="Worst rank of the model across the chosen methods.")}
    for m in methods:
        short = short_name(m, labels[m])
        config[labels[m]] = st.column_config.NumberColumn(short, width=_px(short), format="%d", help=labels[m])
    width = {m: config[labels[m]]["width"] for m in methods}
    parts: list[list[str]] = [[]]
    used = model_px + 2 * _MIN_PX
    for m in methods:  # greedy, in order; a new part starts at a group's first method when the group does not fit
        group = [k for k in methods if groups.get(k) == groups.get(m)]
        starts_group = parts[-1] == [] or groups.get(parts[-1][-1]) != groups.get(m)
        need = sum(width[k] for k in group if methods.index(k) >= methods.index(m)) if starts_group else width[m]
        if parts[-1] and (used + (need if need <= budget - model_px else width[m]) > budget):
            parts.append([])
            used = model_px
        parts[-1].append(m)
        used += width[m]
    out = []
    for i, part in enumerate(parts):
        columns = ["model", *(["best", "worst"] if i == 0 else []), *(labels[m] for m in part)]
        title = "" if len(parts) == 1 else ", ".join(dict.fromkeys(groups.get(m, "other") for m in part))
        out.append((title, frame[columns], {c: config[c] for c in columns}))
    return out
