"""Long computations for pages: run in worker threads, report progress, stop when the page reruns.

Pages call :func:`run_jobs` from the script thread. The jobs (e.g. one bootstrap per
method) run in a small thread pool (numpy releases the GIL, so two jobs use both cores);
the script thread polls their progress every ``poll`` seconds and hands the mean fraction
to ``on_progress`` (which updates an ``st.progress`` bar).

Cancellation: when the user changes a widget while a run is under way, Streamlit raises a
``RerunException`` (a ``BaseException``) inside the next ``st.*`` call of the script
thread, i.e. inside ``on_progress``. :func:`run_jobs` then sets a cancel flag that every
job's progress callback reads; the jobs stop at their next chunk with
:class:`scorio_core.dynamics.convergence.Cancelled` and nothing is returned, so a partial result is
never cached. Worker threads never call Streamlit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait

from scorio_core.dynamics.convergence import Cancelled

__all__ = ["Job", "run_jobs", "WORKERS", "Cancelled"]

#: Worker threads (the deployment target has 2 cores).
WORKERS = 2

#: A job receives a progress callback ``progress(fraction) -> bool`` (False = stop now)
#: and returns its result; it should pass the callback to the core function it runs.
Job = Callable[[Callable[[float], bool]], object]


def run_jobs(
    jobs: Sequence[Job],
    on_progress: Callable[[float], None] | None = None,
    *,
    poll: float = 0.1,
    workers: int = WORKERS,
) -> list:
    """Run ``jobs`` in parallel and return their results in order.

    Parameters
    ----------
    jobs : sequence of callables
        Each is called as ``job(progress)``; ``progress(fraction)`` records how far the job
        is (0..1) and returns False once the run was cancelled.
    on_progress : callable, optional
        Called from the calling thread with the mean fraction done, at most every ``poll``
        seconds and once at the end. Any exception it raises (Streamlit's rerun request)
        cancels every job and propagates.
    poll : float
        Seconds between progress updates.
    workers : int
        Threads (at most one per job).

    Returns
    -------
    list
        ``job(progress)`` of every job, in order.

    Raises
    ------
    Exception
        The first exception a job raised (others are cancelled).
    """
    if not jobs:
        return []
    done = [0.0] * len(jobs)
    cancel = threading.Event()

    def tracker(i: int) -> Callable[[float], bool]:
        def progress(fraction: float) -> bool:
            done[i] = float(fraction)
            return not cancel.is_set()

        return progress

    pool = ThreadPoolExecutor(max_workers=max(1, min(workers, len(jobs))), thread_name_prefix="scorio-job")
    futures = [pool.submit(job, tracker(i)) for i, job in enumerate(jobs)]
    try:
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=poll)
            for future in finished:
                if future.exception() is not None:
                    raise future.exception()
            if on_progress is not None:
                on_progress(sum(done) / len(done))
        return [f.result() for f in futures]
    except BaseException:
        cancel.set()
        raise
    finally:
        cancel.set()  # harmless once everything finished; stops stragglers otherwise
        pool.shutdown(wait=False, cancel_futures=True)

