"""The vectorised tau_b matrix of the method agreement equals scipy's tau_b pair by pair (ties, constant rankings)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from scorio_core.ranking import kendall
from scorio_core.ranking.kendall import snap_tau, tau_b_matrix


def _scipy(r):
    K = len(r)
    out = np.eye(K)
    for a in range(K):
        for b in range(a + 1, K):
            const = np.all(r[a] == r[a][0]) or np.all(r[b] == r[b][0])
            out[a, b] = out[b, a] = np.nan if const else snap_tau(kendalltau(r[a], r[b], variant="b").statistic)
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 60).flatmap(lambda L: st.lists(
    st.lists(st.integers(1, 6), min_size=L, max_size=L), min_size=1, max_size=6)))
def test_equals_scipy_with_ties_and_constant_rankings(rows):
    r = np.array(rows, dtype=float)
    got, want = tau_b_matrix(r), _scipy(r)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.allclose(np.nan_to_num(got), np.nan_to_num(want), atol=1e-12, rtol=0)


def test_large_item_counts_use_scipy_per_pair(monkeypatch):
    rng = np.random.default_rng(0)
    r = rng.integers(1, 30, size=(3, 80)).astype(float)
    fast = tau_b_matrix(r)
    monkeypatch.setattr(kendall, "TAU_MATRIX_MAX_ITEMS", 10)  # the per-pair branch on the same data
    assert np.allclose(tau_b_matrix(r), fast, atol=1e-12) and not math.isnan(fast[0, 1])


def test_methods_table_output_prints_what_loading_found(tmp_path, capsys, monkeypatch):
    """QA: ``methods --output json`` carried the load notes; the default table output printed none."""
    from scorio_core.cli import compare, main

    path = tmp_path / "two.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{(q + t + i) % 2}\n" for i, m in enumerate("ab") for q in range(4) for t in range(2)))
    monkeypatch.setattr(compare, "load_notes", lambda dataset, args: ("two.csv: a loader note.",))
    assert main(["methods", str(path), "--methods", "avg,borda"]) == 0
    assert capsys.readouterr().out.startswith("note: two.csv: a loader note.\n")
    assert main(["methods", str(path), "--methods", "avg,borda", "--output", "json"]) == 0
    import json
    assert json.loads(capsys.readouterr().out)["notes"][0]["message"] == "two.csv: a loader note."
