"""AppTest: the Convergence page on ARC-AGI-1 (N = 2 trials per question), where only k = 1 exists for Pass@k.

QA 2026-12-03: Pass@k is selected by default with k in {2, 4, 8}; at N = 2 none exists, so the page drew Bayes@N
alone and said nothing of the selected Pass@k."""

from __future__ import annotations

from tests.app.conftest import shown

CONV = "pages/results/convergence.py"


def _texts(at) -> str:
    return " ".join(shown(e.value) for kind in ("markdown", "caption", "info") for e in getattr(at.main, kind))


def test_pass_at_k_defaults_to_the_only_k_at_two_trials_and_a_cleared_k_is_said(app):
    app.sidebar.selectbox(key="dataset").set_value("arc-agi-1").run()
    app.switch_page(CONV).run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.multiselect(key="conv_pass_ks").value == [1]
    app.select_slider(key="conv_replicates").set_value(100).run()
    assert list(app.dataframe[0].value["method"]) == ["Bayes@N", "Pass@1"]
    app.multiselect(key="conv_pass_ks").set_value([]).run()  # the user clears it: the page says why no curve
    assert not app.exception, [e.value for e in app.exception]
    assert list(app.dataframe[0].value["method"]) == ["Bayes@N"]
    assert "Pass@k is selected but no k is picked" in _texts(app)
