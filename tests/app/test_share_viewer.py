"""A visitor who only looks at a shared analysis writes nothing and keeps the link it came with (helper QA, 2026-12-02).

A page's controls enter the session with their defaults on the first visit; autosave counted them as changes, so
opening Compare, Questions, Trajectories or Convergence from a snapshot link saved a draft and the address bar swapped
the snapshot's id for the draft's (an editable analysis that can change later, forwarded in its place).
"""

from __future__ import annotations

from tests.app.conftest import no_exception
from tests.app.test_share_links import _open, _share

PAGES = ("pages/results/compare.py", "pages/results/questions.py", "pages/results/tasks.py",
         "pages/results/leaderboard.py")


def _link(at) -> str:
    value = at.query_params["analysis"]
    return value[0] if isinstance(value, list) else value


def test_looking_at_pages_of_a_snapshot_writes_no_draft(app, tmp_path):
    from scorio_core.store import Workspace

    snapshot = _share(app)
    ws = Workspace(tmp_path / "workspace")  # the app's workspace (tests/app/conftest.py)
    before = ws.usage().n_analyses
    viewer = _open({"analysis": snapshot})
    for page in PAGES:
        viewer.switch_page(page).run()
        no_exception(viewer)
        assert _link(viewer) == snapshot, page
    assert ws.usage().n_analyses == before
    # a real change is saved as the viewer's own draft, and the address then carries it
    viewer.switch_page("pages/results/compare.py").run()
    options = viewer.selectbox(key="cmp_a").options
    viewer.selectbox(key="cmp_a").set_value(options[-1]).run()
    no_exception(viewer)
    assert _link(viewer) != snapshot and ws.usage().n_analyses == before + 1


def test_sharing_keeps_the_snapshot_and_the_sessions_draft_only(app, tmp_path):
    # helper QA: "Create share link" also stored a draft that nothing referenced (upload + share = 3 analyses)
    from scorio_core.store import Workspace

    ws = Workspace(tmp_path / "workspace")
    before = {a.id for a in ws.list_analyses()}
    snapshot = _share(app)  # changes three settings (autosaved as the session's draft), then shares
    new = [a for a in ws.list_analyses() if a.id not in before]
    assert sorted((a.immutable, a.id == snapshot) for a in new) == [(False, False), (True, True)]
    assert _link(app) in {a.id for a in new if not a.immutable}  # the session's own draft, still in its address


def test_a_stale_address_after_a_draft_fork_does_not_restore_the_old_analysis(app):
    # helper QA: reopen a draft, add a rubric category; the first change forks a new draft, and the browser's next
    # rerun still carried the old id: the old analysis was restored over the edit (the category vanished, and the new
    # draft was saved without it). An id the session already had is a stale address, not a new link.
    draft = _share(app)  # any saved analysis to open (a snapshot here; a draft behaves the same)
    viewer = _open({"analysis": draft})
    viewer.switch_page("pages/results/leaderboard.py").run()
    viewer.selectbox(key="lb_metric").set_value("pass@k").run()  # a change: the session's own draft
    no_exception(viewer)
    fork = _link(viewer)
    assert fork != draft and viewer.session_state["lb_metric"] == "pass@k"
    viewer.query_params["analysis"] = draft  # the browser's rerun with the address it had before the fork
    viewer.run()
    no_exception(viewer)
    assert viewer.session_state["lb_metric"] == "pass@k" and _link(viewer) == fork


def test_a_deleted_draft_is_replaced_not_a_session_that_stops_saving(app, tmp_path):
    from scorio_core.store import Workspace

    app.switch_page("pages/results/leaderboard.py").run()
    app.selectbox(key="lb_metric").set_value("avg").run()
    first = _link(app)
    Workspace(tmp_path / "workspace").delete_analysis(first)  # e.g. `workspace delete` on the server
    app.selectbox(key="lb_metric").set_value("pass@k").run()
    no_exception(app)
    assert not app.sidebar.error and _link(app) != first  # a new draft, saved
    assert _open({"analysis": _link(app)}).session_state["lb_metric"] == "pass@k"


def test_the_presentation_is_a_report_without_developer_text_or_controls(app):
    """QA F6, F7, F13: the presentation showed a CLI command (Rank distribution), a repository path (IRT caption), a
    toast over the title ("Analysis restored"), a live Score-vs-cost column picker and scale toggle, and a collapsed
    "every neighbouring pair" list that a printout lost. The app view keeps its hints and controls."""
    app.switch_page("pages/share/export.py").run()
    app.multiselect(key="present_figures").set_value(["Rank distribution", "Score vs cost", "IRT ability"]).run()
    app.button(key="share_create").click().run()
    no_exception(app)
    snapshot = app.session_state["share_last_id"]
    fresh = _open({"analysis": snapshot, "view": "present"})
    captions = " ".join(c.value for c in fresh.main.caption)
    assert "Probability that each model holds each rank" in captions and "x: " in captions  # the figures are there
    assert "CLI" not in captions and "python -m" not in captions and "docs/" not in captions, captions
    assert "sidebar" not in captions and "under the shared analysis's prior" in captions  # no sidebar here
    assert not fresh.toast, [t.value for t in fresh.toast]  # "Analysis restored: ..." covered the title on phones
    assert not fresh.main.selectbox and not fresh.main.toggle  # no "Cost or token column", no "Log scale"
    assert len(fresh.get("plotly_chart")) == 5  # interval chart, pairwise, rank distribution, score vs cost, IRT
    # the IRT table's interval ends are headed as the Leaderboard's (QA F11: "lo"/"hi" there, "low"/"high" here)
    irt = fresh.main.dataframe[-1]
    assert '"95% CI low"' in irt.proto.columns and '"95% CI high"' in irt.proto.columns
    details = [e for e in fresh.main.expander if e.label.startswith("Details: every neighbouring pair")]
    assert details and all(e.proto.expanded for e in details)  # printed open
    viewer = _open({"analysis": snapshot})  # the app view of the same link: hints, toast and controls stay
    assert any("Analysis restored" in t.value for t in viewer.toast)
    assert '"95% CI low"' in viewer.main.dataframe[0].proto.columns  # the Leaderboard's grid: the same headers
    viewer.session_state["lb_view"] = "Rank distribution"
    viewer.run()
    assert "CLI: `python -m scorio_core ranks" in " ".join(c.value for c in viewer.main.caption)
    viewer.session_state["lb_view"] = "Score vs cost"
    viewer.run()
    no_exception(viewer)
    assert viewer.selectbox(key="lb_cost") and viewer.toggle(key="lb_cost_log")
