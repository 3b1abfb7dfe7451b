"""dashboard.tables.display.fit_height: a data grid as tall as its rows, no blank strip below, capped."""

from __future__ import annotations

from hypothesis import given, strategies as st_

from dashboard.tables.display import fit_height


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
