"""AppTest: share links with hostile or unknown ids say so and touch no file outside the app (issue 14)."""

from __future__ import annotations

from tests.app.conftest import no_exception, shown
from tests.app.test_share_links import _open

# --------------------------------------------------------------------------- hostile ids (issue 14)
_HOSTILE = ("../../etc/passwd", "/etc/passwd", "..\\..\\windows\\win.ini", "' OR 1=1 --", "x'; DROP TABLE analyses; --",
            '"); DELETE FROM datasets; --', "%2e%2e%2fetc%2fpasswd", "ws:../../etc/passwd", "A" * 21 + "\x00")
_UNKNOWN = ("A" * 22, "zzzzzzzzzzzzzzzzzzzzzz", "0123456789abcdef-_ABCD")
_OPENED: list[str] = []
_HOOKED = False


def _watch_opens() -> list[str]:
    """Paths opened while a test runs (an audit hook; hooks cannot be removed, so it checks a flag)."""
    global _HOOKED
    if not _HOOKED:
        import sys

        def hook(event, args):
            if event == "open" and _OPENED and _OPENED[0] == "on" and isinstance(args[0], (str, bytes)):
                _OPENED.append(str(args[0]))

        sys.addaudithook(hook)
        _HOOKED = True
    _OPENED[:] = ["on"]
    return _OPENED


def _no_traceback(at) -> None:
    no_exception(at)
    texts = [shown(str(e.value)) for e in (*at.error, *at.sidebar.error, *at.warning, *at.sidebar.warning)]
    assert not any("Traceback" in t for t in texts), texts


def test_the_missing_dataset_is_named_exactly_as_the_link_carried_it():
    # security QA finding 5: '**x\\-\\-**' rendered "--" as an em dash; a code span shows it verbatim
    from dashboard.text import code_span as code

    value = "x' OR '1'='1'; DROP TABLE datasets; --"
    fresh = _open({"dataset": value})
    (warning,) = [w.value for w in fresh.sidebar.warning if "not available here" in w.value]
    assert warning.startswith(f"The link names the dataset `{value}`, which is not available here")
    assert code("a``b --") == "```a``b --```" and code("`x`") == "`` `x` ``"


def test_hostile_and_unknown_analysis_ids_say_not_found_without_touching_files(tmp_path):
    from scorio_core.store import Workspace

    ws = Workspace(tmp_path / "workspace")  # the app's workspace (tests/app/conftest.py)
    before = ws.usage()
    opened = _watch_opens()
    try:
        for value in (*_HOSTILE, *_UNKNOWN):
            fresh = _open({"analysis": value})
            _no_traceback(fresh)
            assert any("does not exist here" in shown(e.value) for e in fresh.sidebar.error), value
            assert fresh.session_state["dataset"] != value
        # a 10 kB id is refused by the id check like any other (22 id characters): the link says it cannot open, not a
        # passing toast (dropped before open_link, a mangled presentation link showed the current data: helper QA)
        long_id = _open({"analysis": "A" * 10_000})
        _no_traceback(long_id)
        assert any("does not exist here" in shown(e.value) for e in long_id.main.error)
        assert not any("analysis" in shown(t.value) for t in long_id.toast)
    finally:
        opened[0] = "off"
    assert any(p.endswith(".py") for p in opened[1:])  # the hook does see the files the app opens
    suspicious = [p for p in opened[1:] if "passwd" in p or "win.ini" in p or "DROP" in p or "OR 1=1" in p]
    assert not suspicious, suspicious
    after = ws.usage()  # nothing was written for a bad link, and the catalog is intact
    assert (after.n_datasets, after.n_analyses) == (before.n_datasets, before.n_analyses)


def test_hostile_and_unknown_dataset_ids_say_not_available(tmp_path):
    opened = _watch_opens()
    try:
        for value in (*_HOSTILE, *("ws:" + u for u in _UNKNOWN), "upload:../../etc/passwd"):
            fresh = _open({"dataset": value})
            _no_traceback(fresh)
            warnings = [shown(w.value) for w in fresh.sidebar.warning]
            assert any("not available here" in w for w in warnings), (value, warnings)
            assert fresh.session_state["dataset"] != value  # the demo data, and the page says so
            assert fresh.dataframe or fresh.main.markdown
        long_key = _open({"dataset": "ws:" + "A" * 10_000})
        _no_traceback(long_key)
        assert any("dataset" in shown(t.value) and "longer than" in shown(t.value) for t in long_key.toast)
    finally:
        opened[0] = "off"
    assert any(p.endswith(".py") for p in opened[1:])  # the hook does see the files the app opens
    suspicious = [p for p in opened[1:] if "passwd" in p or "win.ini" in p or "DROP" in p or "OR 1=1" in p]
    assert not suspicious, suspicious
