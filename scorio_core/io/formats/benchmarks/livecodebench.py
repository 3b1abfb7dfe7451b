"""LiveCodeBench outputs: ``output/<model_repr>/Scenario.<scenario>_<n>_<temperature>_eval_all.json``.

Source: LiveCodeBench ``lcb_runner/runner/main.py`` (``get_output_path(model.model_repr, args)`` writes the
generations to ``output/<model_repr>/Scenario.codegeneration_<n>_<temperature>.json``; with ``--evaluate`` the
aggregated metrics to ``..._eval.json`` and every problem with its graded samples to ``..._eval_all.json``: a JSON
array of problems, each with ``question_id`` and ``graded_list``, one true/false per sample).

The ``_eval_all`` file is read as the table it is (one problem per record, ``graded_list``'s elements its trials, any
``--map``), with the model its folder (``model_repr``) unless ``--map model=...`` names it; the task is the file's
stem (``Scenario.codegeneration_10_0.2_eval_all``: the scenario with its samples and temperature, so runs with other
sampling settings stay apart). The generations and the aggregated metrics beside it are left out, said; loaded without it,
each is refused with what writes the graded file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from scorio_core.errors import InputError
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import leave_out, name_model_by_folders

__all__ = ["FORMAT", "is_lcb_eval_all", "name_lcb", "skip_lcb_files"]

FORMAT = "livecodebench"
_FILE = re.compile(r"^Scenario\.(\w+?)_(\d+)_([\d.]+?)(_eval_all|_eval)?\.json$")


def _kind(src: Source) -> tuple[str, str] | None:
    """(run prefix, kind: "" generations, "_eval" metrics, "_eval_all" graded) of a LiveCodeBench file on disk."""
    found = _FILE.match(src.name) if src.path is not None and not src.is_dir else None
    return (f"{src.path.parent}/Scenario.{found.group(1)}_{found.group(2)}_{found.group(3)}", found.group(4) or "") \
        if found else None


def is_lcb_eval_all(src: Source) -> bool:
    """Whether a JSON file on disk is LiveCodeBench's graded ``..._eval_all.json`` (by name, and ``graded_list`` in its
    head)."""
    kind = _kind(src)
    return kind is not None and kind[1] == "_eval_all" and b'"graded_list"' in src.text_head(65536)


def skip_lcb_files(srcs: list[Source]) -> list[Source]:
    """Leave out LiveCodeBench's generations and aggregated metrics beside the graded ``_eval_all`` file of the same
    run, saying how many.

    Raises
    ------
    InputError
        A run's generations or metrics loaded without its graded file (what writes it said).
    """
    kinds = {id(s): k for s in srcs if (k := _kind(s)) is not None}
    graded = {k[0] for k in kinds.values() if k[1] == "_eval_all"}
    side = [s for s in srcs if id(s) in kinds and kinds[id(s)][1] != "_eval_all"]
    orphan = next((s for s in side if kinds[id(s)][0] not in graded), None)
    if orphan is not None:
        side = [s for s in side if kinds[id(s)][0] in graded]
        what = "generations, not graded" if kinds[id(orphan)][1] == "" else "aggregated metrics only"
        raise InputError(f"a LiveCodeBench run's {what}: its per-problem grading is the ..._eval_all.json beside it "
                         "(lcb_runner.runner.main --evaluate, or lcb_runner.runner.custom_evaluator, writes it); load "
                         "that file or its folder.", source=orphan.name)
    return leave_out(srcs, side, f"LiveCodeBench: {len(side):,} file{'s' * (len(side) > 1)} beside the graded "
                     "..._eval_all.json not read (the generations and the aggregated metrics).", "")


def name_lcb(raw, src: Source, mapping: Mapping[str, str] | None):
    """Name the model of an ``_eval_all`` table after its folder (``model_repr``), as ``--map model=@folder`` would,
    unless the user or a column names it; returns the table."""
    return name_model_by_folders(raw, mapping, src.path.parent.name)
