"""dashboard.figures.tasks: the models x tasks heatmap and the combined-score chart."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures import combined_interval_plot, task_heatmap

CELLS = pd.DataFrame({
    "model": ["A", "B", "<b>x</b>"], "task": ["t1", "t1", "t2"], "bayes": [0.6, 0.4, 0.7], "sigma": [0.1, 0.1, 0.1],
    "lo": [0.4, 0.2, 0.5], "hi": [0.8, 0.6, 0.9], "avg": [0.65, 0.35, 0.75], "n": [4, 4, 2], "n_max": [4, 5, 2],
    "m": [10, 10, 3],
})


def test_heatmap_grid_and_hover():
    fig = task_heatmap(CELLS, models=["A", "B", "<b>x</b>"], tasks=["t1", "t2"])
    trace, blank = fig.data  # the grid, then its cells without data in the missing colour (no light plot background)
    assert np.isfinite(np.asarray(blank.z, dtype=float)).sum() == 3 and blank.hoverinfo == "skip"
    z = np.asarray(trace.z, dtype=float)
    assert z.shape == (3, 2)
    assert z[0, 0] == 0.6 and z[2, 1] == 0.7 and np.isnan(z[0, 1])  # A has no data on t2
    assert list(trace.y) == ["A", "B", "&lt;b&gt;x&lt;/b&gt;"]  # user text escaped
    hover = np.asarray(trace.customdata, dtype=object)
    assert "[0.400, 0.800]" in hover[0, 0] and "avg@N 0.650" in hover[0, 0] and "M 10" in hover[0, 0]
    assert "N 4-5" in hover[1, 0] and hover[0, 1].endswith("no data")
    assert trace.zmin == 0.0 and trace.zmax == 1.0


def test_combined_chart_sorts_and_names_missing():
    combined = pd.DataFrame({"model": ["A", "B", "C"], "score": [0.5, 0.7, np.nan], "lo": [0.4, 0.6, np.nan],
                             "hi": [0.6, 0.8, np.nan], "reason": ["", "", "no data on task t2"]})
    fig = combined_interval_plot(combined, confidence=0.9)
    (trace,) = fig.data
    assert list(trace.y) == ["A", "B"]  # ascending: best on top
    assert np.allclose(trace.error_x.array, [0.1, 0.1])
    assert "1 model without a score on every task is left out" == fig.layout.title.text and "90%" in fig.layout.xaxis.title.text
