"""Suite-wide pytest hooks."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Make ``--dist loadgroup`` honour ``pytest.mark.xdist_group`` under pytest >= 9.2.

    pytest-xdist 3.8 tags a grouped test by appending ``@group`` to ``item._nodeid``, which pytest 9.2 no longer
    reads (a node's id lives in ``item._id``), so every group was silently ignored and, e.g., the Spark modules
    started a JVM on each worker. Here the tag goes where pytest reads it; a no-op outside loadgroup workers and
    once xdist tags the id itself.
    """
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import coerce_node_id

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture
def disjoint_csv(tmp_path):
    """A long attempts CSV where models a, b answered q0-q5 and c, d answered q6-q11 (no shared question).

    ``disjoint_csv(trials)`` writes ``trials`` attempts per (model, question) with deterministic, varied outcomes
    and returns the path.
    """
    def write(trials: int = 2):
        rows = ["model,question_id,trial,is_correct"]
        rows += [f"{m},q{q},{t},{int((q + t) % 2 == 0)}" for m in "ab" for q in range(6) for t in range(trials)]
        rows += [f"{m},q{q},{t},{int((q * t) % 3 == 0)}" for m in "cd" for q in range(6, 12) for t in range(trials)]
        path = tmp_path / "disjoint.csv"
        path.write_text("\n".join(rows) + "\n")
        return path

    return write
