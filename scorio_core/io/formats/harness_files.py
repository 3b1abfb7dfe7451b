"""What evaluation tools' files share: a harness folder's files gathered into one folder source, the side files
around them left out, and JSON Lines read one object per line.

Harnesses that write one file per question or trial (aider, Harbor, MathArena, NeMo-Skills) are read a folder at a
time: the reader needs all of a run's files together to number trials, name the model once and say what is missing.
The gathering (which folder a file belongs to, the folder source with its files as members in load order) is the same
for each; what differs is which files belong and to which folder (``folder_of``). Summaries and manifests beside the
results are left out with a note, and refused with what to load when they are all there is (:func:`leave_out`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

from scorio_core.errors import InputError
from scorio_core.io._sources import Source, load_json, utf8_text

__all__ = ["SCALE_LABEL", "gather_files", "json_array", "json_lines", "leave_out", "name_model_by_folders", "tool_part"]

#: The text column naming the scale of a tool's category codes on each attempt (its format key), which the default
#: rubric weighs by (``scorio_core.rubric.FORMAT_CODE_SCALES``, ``SCALE_COLUMN``: the same name).
SCALE_LABEL = "code_scale_label"


def gather_files(srcs: list[Source], folder_of: Callable[[Source], Path | None],
                 name: Callable[[Path], str] = lambda folder: folder.name) -> tuple[list[Source], dict[Path, Source]]:
    """Gather files on disk into one folder source per folder ``folder_of`` names.

    Parameters
    ----------
    srcs : list of Source
        The sources of one load, in load order.
    folder_of : callable
        A file source's folder (an ancestor of its path) to gather it into, or None to leave it as it is. Called on
        file sources with a path only (folders and uploads stay as they are).
    name : callable, optional
        The folder source's name from its path (default: the folder's name); members are named
        ``<name>/<path relative to the folder>``.

    Returns
    -------
    out : list of Source
        The sources with each gathered folder in place of its first file (the others dropped), order kept.
    folders : dict
        Folder path -> its folder source (members keyed by their POSIX path relative to the folder), in first-seen
        order; empty when nothing was gathered.
    """
    folders: dict[Path, Source] = {}
    out: list[Source] = []
    for src in srcs:
        folder = None if src.is_dir or src.path is None else folder_of(src)
        if folder is None:
            out.append(src)
            continue
        group = folders.get(folder)
        if group is None:
            group = folders[folder] = Source(name=name(folder), path=folder, is_dir=True)
            out.append(group)
        member = src.path.relative_to(folder).as_posix()
        group.members[member] = Source(name=f"{group.name}/{member}", path=src.path)
    return out, folders


def leave_out(srcs: list[Source], side: list[Source], note: str, refusal: str) -> list[Source]:
    """The sources without a harness's side files (summaries, manifests), ``note`` said on the first one kept.

    Raises
    ------
    InputError
        ``refusal``, naming the first side file, when the side files are all there is.
    """
    if not side:
        return srcs
    kept = [s for s in srcs if all(s is not x for x in side)]
    if not kept:
        raise InputError(refusal, source=side[0].name)
    kept[0].notes.append(note)
    return kept


def json_array(src: Source, what: str) -> list[dict]:
    """A tool's JSON array of records (MMLU-Pro, AlpacaEval, WildBench, tau-bench results).

    Raises
    ------
    InputError
        Invalid JSON (naming the line), or not a non-empty array of objects: ``"expected {what}."``, naming the file.
    """
    doc = load_json(src)
    if not isinstance(doc, list) or not doc or not all(isinstance(r, dict) for r in doc):
        raise InputError(f"expected {what}.", source=src.name)
    return doc


def json_lines(src: Source, shown: str | None = None, what: str = "a JSON object") -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` for each non-blank line of a JSON Lines file, 1-based.

    Raises
    ------
    InputError
        Invalid JSON, or a line that is not an object (``what`` says what was expected), naming the file (``shown``,
        default its name) and the line.
    """
    for n, line in enumerate(utf8_text(src).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError as exc:
            raise InputError(f"invalid JSON ({exc}); the file may be truncated.", source=shown or src.name,
                             line=n) from None
        if not isinstance(rec, dict):
            raise InputError(f"expected {what} on every line.", source=shown or src.name, line=n)
        yield n, rec


def name_model_by_folders(raw, mapping, model: str | None):
    """A tool's table (:class:`scorio_core.io._tables.RawTable`) with its model named ``model`` from the file's folders,
    as ``--map model=@folder`` would (recorded as ``<folder: ...>``), unless the user, a column or a mapping already
    names it, or ``model`` is None; returns the table."""
    if model is not None and not ({"model"} & (set(mapping or {}) | set(raw.guess.mapping) | set(raw.path_names))):
        raw.path_names = {**raw.path_names, "model": model}
    return raw


def tool_part(frame, source: str, fmt: str, stem: str, locate: Callable[[int], dict], named, read: dict):
    """The canonical part of a tool's attempts built by its reader (one column per field, the tool's names already
    resolved), with the mapping recording where each field came from.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns model, task, question_id, trial, is_correct, any signal under its canonical name (``cost``,
        ``completion_tokens``), text fields named ``<field>_label`` (kept as text) and the drill-down's text fields
        (``input``, ``target``, ``answer`` ...: :data:`scorio_core.leaderboard.drilldown.TEXT_FIELDS`).
    source, fmt, stem : str
        The source's name, the format key and the stem for fields neither mapped nor named.
    locate : callable
        Row index -> the context an error names (``{"context": "problem 3, run 2: "}`` or ``{"row": 4}``).
    named : dict
        The fields the user named with ``--map FIELD=@folder[:N]``: their mapping is kept as recorded.
    read : dict
        Field -> how the tool gave it (``"<folder: qwen3-8b>"``, ``"idx"``), recorded for the fields not in ``named``.

    Returns
    -------
    Part
        :func:`scorio_core.io._canonical.canonicalize`'s part.
    """
    from scorio_core.io._canonical import canonicalize
    from scorio_core.io._schema import infer_mapping

    text = ("input", "target", "answer", "extracted_answer", "completion", "transcript", "explanation")  # drill-down
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns if not str(c).endswith("_label") and c not in text},
                          source=source)
    part = canonicalize(frame, guess, source=source, fmt=fmt, stem=stem, locate=locate)
    part.mapping.update({k: v for k, v in read.items() if k not in named})
    return part
