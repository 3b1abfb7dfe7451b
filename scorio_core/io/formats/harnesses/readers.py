"""The harness readers called as ``reader(source, mapping, errors_missing=...)``, by format key: each reads a tool's
errored attempts (an API error, a harness exception) as it counts them, or as missing with ``--errors-as-missing``."""

from __future__ import annotations

from scorio_core.io.formats.harnesses.aider import read_aider
from scorio_core.io.formats.harnesses.promptfoo import read_promptfoo
from scorio_core.io.formats.harnesses.swebench import read_swebench_report
from scorio_core.io.formats.harnesses.tau_bench import read_tau_bench
from scorio_core.io.formats.harnesses.terminal_bench import read_terminal_bench

__all__ = ["ERROR_AWARE"]

#: Format key -> reader taking ``(src, mapping, errors_missing=bool)`` and returning one Part.
ERROR_AWARE = {"swebench-report": read_swebench_report, "promptfoo": read_promptfoo, "aider": read_aider,
               "tau-bench": read_tau_bench, "terminal-bench": read_terminal_bench}
