"""Fixtures of the core tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="module")
def _reference_with_one_blas_thread(request):
    """The differential tests run the reference package with one BLAS thread, as ours run their fits.

    scipy's L-BFGS-B step (``setulb``) makes small BLAS calls whose last bits depend on OpenBLAS's thread
    count, so the same fit's iterates drift apart after some tens of steps with 1 thread against 2. Ours fit
    with one thread (:func:`scorio_core.limits.single_threaded_blas`); run with the default threads, the
    reference reached a different end on a 2PL MAP tensor found by the sweep (9 models x 4 questions x 4
    trials: ``RuntimeError`` "stopped before reaching a stationary solution" with 2 threads, ``ValueError``
    "no stable interior joint estimate" with 1, as ours) and 3PL MAP scores 1e-8 apart; with one thread on
    both sides the two are bit-identical. Other tests are left as they are.
    """
    if not request.module.__name__.split(".")[-1].startswith("test_rank_reference"):
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield
