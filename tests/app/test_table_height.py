"""dashboard.tables.sizes.fit_height: a data grid as tall as its rows, no blank strip below, capped."""

from __future__ import annotations

from hypothesis import given, strategies as st_

from dashboard.tables.sizes import fit_height


def test_fit_height_by_hand():
    # Streamlit's grid: header and rows 35 px each, 3 px of borders (checked in Chromium at 16 rows: 598 px shows
    # the 16 rows and nothing below; the 36 n + 40 = 616 px used before left an empty 18 px strip)
    assert fit_height(16, 900) == 17 * 35 + 3 == 598
    assert fit_height(0, 900) == 38  # the header alone
    assert fit_height(300, 900) == 900  # longer tables scroll inside the cap


@given(st_.integers(0, 10_000), st_.integers(38, 5_000))
def test_fit_height_is_monotone_and_capped(n, cap):
    h = fit_height(n, cap)
    assert h <= cap and h <= (n + 1) * 35 + 3
    assert h == cap or h == (n + 1) * 35 + 3
    assert fit_height(n + 1, cap) >= h


def test_no_page_sizes_a_table_by_the_old_rule():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = [str(p.relative_to(root)) for folder in ("pages", "dashboard") for p in (root / folder).rglob("*.py")
                 if "36 * len(" in p.read_text()]
    assert offenders == []


def _board(names):
    import pandas as pd

    n = len(names)
    return pd.DataFrame({"rank": range(1, n + 1), "rank_ci": [1] * n, "model": names, "mu": [0.5] * n, "lo": [0.4] * n,
                         "hi": [0.6] * n, "sigma": [0.05] * n, "estimate": [0.5] * n, "avg": [0.5] * n,
                         "accuracy": [0.5] * n, "pass_at_k": [0.5] * n, "n_questions": [10] * n, "n_trials": [4] * n,
                         "interval": ["95% credible interval"] * n})


def test_model_column_fits_its_longest_name_within_the_page():
    from dashboard.tables.display import leaderboard_display

    def width(names):
        frame, config = leaderboard_display(_board(names), metric_label="Bayes@N", k=1, confidence=0.95)
        shown = sum(c["width"] for key, c in config.items() if c is not None and key in frame.columns)
        return config["model"]["width"], shown

    short, _ = width(["a", "b"])
    assert short == 140  # the floor: the header and a short name
    mid, _ = width(["x" * 20, "b"])
    assert mid == int(20 * 7.5) + 24  # 174 px: the longest name (7.5 px a character) and the cell's padding
    long, shown = width(["y" * 80, "b"])
    assert long > 180 and shown == 820  # what the other columns leave of the 820 px page at 1280 px, no more
    assert width(["y" * 200])[0] == long


def test_rubric_rank_change_is_the_change_of_the_rank_shown():
    """A model 2nd by mean under binary and 1st under the rubric reads "+1", even where CI ties give both 1st."""
    from dashboard.tables.display import rerank_display

    rubric = _board(["b", "a", "c"]).assign(rank=[1, 2, 3], rank_ci=[1, 1, 3], mu=[0.7, 0.69, 0.2])
    binary = _board(["a", "b", "c"]).assign(rank=[1, 2, 3], rank_ci=[1, 1, 3])
    frame, config = rerank_display(rubric, binary, confidence=0.95)
    assert frame[["rank", "model", "change"]].values.tolist() == [[1, "b", "+1"], [2, "a", "-1"], [3, "c", "="]]
    assert config["rank"]["label"] == "Rank" and "vs binary" in config["rank"]["help"]
