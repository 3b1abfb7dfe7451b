"""What harnesses write around their results, settled before formats are detected: a run's files gathered into one
source, the files beside them that are not results (logs, an exercise's code, per-simulation copies) left out, each
said in a note."""

from __future__ import annotations

from scorio_core.io._sources import Source
from scorio_core.io.formats.harnesses.aider import gather_aider_runs
from scorio_core.io.formats.harnesses.swebench_instances import skip_harness_files
from scorio_core.io.formats.harnesses.tau2 import skip_simulation_files
from scorio_core.io.formats.harnesses.terminal_bench import gather_tb_runs

__all__ = ["settle_layout"]


def settle_layout(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather aider's run folders (:func:`~.aider.gather_aider_runs`) and terminal-bench's
    (:func:`~.terminal_bench.gather_tb_runs`), and leave out SWE-bench's test logs beside its per-instance reports
    (:func:`~.swebench_instances.skip_harness_files`) and tau2's ``simulations/*.json`` beside its ``results.json``
    (:func:`~.tau2.skip_simulation_files`). ``fmt``: the user's ``--format``, if any."""
    return skip_simulation_files(skip_harness_files(gather_tb_runs(gather_aider_runs(srcs, fmt), fmt)))
