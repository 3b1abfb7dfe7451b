"""Out of memory in a page is a clear error, not a traceback with the server's paths (security QA finding 1).

numpy's "Unable to allocate 5.36 GiB for an array with shape (6000, 60000, 2)" (``_ArrayMemoryError``, a
``MemoryError``) reached the Data page as an exception element listing /work/main/app.py and the page files.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dashboard.guard import OUT_OF_MEMORY
from tests.app.conftest import ROOT


def _page(stop: bool) -> None:
    import numpy as np
    import streamlit as st

    from dashboard.guard import user_errors

    st.session_state.stop = stop
    with user_errors("the per-question grids", stop=st.session_state.stop):
        np.zeros((1 << 23, 1 << 24), dtype=np.int64)  # 1 PiB: numpy's _ArrayMemoryError, at once
    st.write("after the block")


def _run(stop: bool) -> AppTest:
    at = AppTest.from_function(_page, args=(stop,), default_timeout=60)
    at.run()
    return at


def test_numpy_allocation_failure_is_one_error_box_and_the_page_goes_on():
    at = _run(stop=False)
    assert not at.exception, [e.value for e in at.exception]
    (error,) = at.error
    assert error.value == f"Could not compute the per-question grids: {OUT_OF_MEMORY}"
    for leak in ("Unable to allocate", "shape", "Traceback", str(ROOT), "/", ".py"):
        assert leak not in error.value
    assert "SCORIO_MAX_DENSE_CELLS" in error.value and "fewer models" in error.value
    assert [m.value for m in at.markdown] == ["after the block"]


def test_with_stop_the_rest_of_the_page_is_skipped_without_an_exception():
    at = _run(stop=True)
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1 and not at.markdown
