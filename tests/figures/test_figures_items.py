"""Questions-page figures: the item characteristic curve and the flag counts (traces and axes, not pixels)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from dashboard.figures import flag_bars, item_curve


def test_item_curve_traces_axes_and_difficulty_line():
    theta = np.array([-4.5, -0.5, 0.3, 2.0])
    rate = np.array([0.0, 0.5, np.nan, 1.0])  # the third model has no trial on this question
    fig = item_curve(1.7, 0.4, theta, rate, ["weak", "mid", "absent", "<b>strong</b>"], a_se=0.3, b_se=0.2,
                     question="q<7>")
    band, curve, models = fig.data
    assert band.fill == "toself" and "95%" in band.name
    x = np.asarray(curve.x)
    np.testing.assert_allclose(curve.y, expit(1.7 * (x - 0.4)), rtol=0, atol=1e-12)
    lo, hi = fig.layout.xaxis.range
    assert lo < -4.5 and hi > 3.0 and x.min() == pytest.approx(lo) and x.max() == pytest.approx(hi)
    assert tuple(fig.layout.yaxis.range) == (-0.05, 1.12)
    assert fig.layout.xaxis.title.text == "ability (theta)" and "probability" in fig.layout.yaxis.title.text
    np.testing.assert_allclose(models.x, [-4.5, -0.5, 2.0])
    np.testing.assert_allclose(models.y, [0.0, 0.5, 1.0])
    assert list(models.customdata) == ["weak", "mid", "&lt;b&gt;strong&lt;/b&gt;"]  # escaped, absent model left out
    assert "%{customdata}" in models.hovertemplate
    (line,) = [s for s in fig.layout.shapes if s.type == "line"]
    assert line.x0 == line.x1 == pytest.approx(0.4)
    assert "q&lt;7&gt;" in fig.layout.title.text and "<7>" not in fig.layout.title.text


def test_item_curve_band_brackets_the_curve_and_is_optional():
    fig = item_curve(-1.2, -0.5, [0.0, 1.0], [0.4, 0.1], ["a", "b"], a_se=0.5, b_se=0.4)
    band, curve, _ = fig.data
    n = len(curve.x)
    upper, lower = np.asarray(band.y[:n]), np.asarray(band.y[n:])[::-1]
    assert (upper >= np.asarray(curve.y) - 1e-12).all() and (lower <= np.asarray(curve.y) + 1e-12).all()
    assert curve.y[0] > curve.y[-1]  # negative discrimination: success falls with ability
    plain = item_curve(1.0, 0.0, [0.0], [1.0], ["only"])
    assert [t.name for t in plain.data] == ["fitted P(correct)", "models (observed rate)"]
    lo, hi = plain.layout.xaxis.range
    assert lo <= -3 and hi >= 3  # at least [-3, 3]


def test_item_curve_far_difficulty_is_in_range_and_lengths_checked():
    fig = item_curve(1.0, 8.0, [0.0, 1.0], [0.0, 0.0], ["a", "b"])
    assert fig.layout.xaxis.range[1] > 8.0
    with pytest.raises(ValueError, match="one entry per model"):
        item_curve(1.0, 0.0, [0.0, 1.0], [0.5], ["a", "b"])


def test_flag_bars():
    fig = flag_bars({"possibly_mislabeled": 2, "saturated": 0, "<i>x</i>": 5})
    (bar,) = fig.data
    assert bar.orientation == "h" and list(bar.x) == [2, 0, 5]
    assert list(bar.y) == ["possibly_mislabeled", "saturated", "&lt;i&gt;x&lt;/i&gt;"]
    assert fig.layout.yaxis.autorange == "reversed" and fig.layout.xaxis.title.text == "questions"


def test_flag_bars_say_when_nothing_is_flagged():
    # an empty 0-1 axis read as a broken chart (helper QA)
    empty = flag_bars({"possibly_mislabeled": 0, "saturated": 0})
    assert [a.text for a in empty.layout.annotations] == ["No question flagged"]
    assert not flag_bars({"saturated": 1}).layout.annotations
    # the ICC's difficulty label sits beside its dotted line, on the side with room
    left = item_curve(1.0, -2.0, [0.0, 1.0], [0.5, 0.5], ["a", "b"]).layout.annotations[0]
    right = item_curve(1.0, 2.5, [0.0, 1.0], [0.5, 0.5], ["a", "b"]).layout.annotations[0]
    assert (left.xanchor, right.xanchor) == ("left", "right") and left.xshift > 0 > right.xshift


def test_method_agreement_heatmap_resolves_high_agreement():
    # tau_b between 0.8 and 1 was one dark blue on [-1, 1] (helper QA): a sequential scale from just below the lowest
    from dashboard.figures import method_agreement_heatmap

    tau = np.array([[1.0, 0.93, 0.81], [0.93, 1.0, 0.88], [0.81, 0.88, 1.0]])
    (heat,) = method_agreement_heatmap(["a", "b", "c"], tau).data
    assert heat.zmin == 0.7 and heat.zmax == 1 and "colours from 0.7" in heat.colorbar.title.text
    tau[0, 2] = tau[2, 0] = -0.4  # a reversed ranking: the diverging [-1, 1] scale
    (heat,) = method_agreement_heatmap(["a", "b", "c"], tau).data
    assert heat.zmin == -1 and "colours from" not in heat.colorbar.title.text
    many = method_agreement_heatmap([f"method {i}" for i in range(33)], np.eye(33))
    assert many.layout.xaxis.tickangle == -90
