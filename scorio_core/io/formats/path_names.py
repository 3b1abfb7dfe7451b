"""Model or task named by a file's folder: ``--map model=@folder`` (or ``task``), ``@folder:2`` for the folder above.

Eval runners often write one folder per model (``runs/gpt-4o/aime.csv``, ``runs/claude/aime.csv``) or one per task
(``runs/aime/gpt-4o.csv``) and leave the name out of the rows. A table without a model or task column takes the file
stem for it, so such files would share one name (their rows merge, or collide as duplicates); the user says which
folder names what, and every engine reads it from the file's path (pandas here, DuckDB and Spark in SQL). The folder
is taken from the path as given, made absolute (``os.path.abspath``: symbolic links are not followed), so ``runs/x.csv``
read from inside ``runs`` still has the folder ``runs``. An uploaded file has no folder: refused with what to do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import PurePosixPath

from scorio_core.errors import InputError
from scorio_core.io.quality.report import ADVICE, DUPLICATES_FINDING
from scorio_core.io._sources import DATED_DETAILS, strip_suffixes

__all__ = ["FOLDER", "MAX_LEVEL", "SHARED_STEM_WORDS", "fixed_fields", "folder_fields", "folder_names", "folder_record",
           "note_shared_stems",
           "shared_stem_files", "shared_stem_note", "shared_stem_refusal"]

#: The mapping value that names a field after the folder holding the file (``@folder:2``: the folder above it).
FOLDER = "@folder"
#: The highest folder level ``@folder:N`` accepts.
MAX_LEVEL = 8
_FIELDS = ("model", "task")
#: The words of :func:`shared_stem_note`'s line, by which the duplicates refusal finds it among a report's notes.
SHARED_STEM_WORDS = "files of the same name in different folders"
_VALUE = re.compile(r"@folder(?::(\d+))?")


def folder_fields(mapping: Mapping[str, str] | None) -> dict[str, int]:
    """``{field: level}`` for the mapping's ``@folder`` values (level 1: the file's own folder).

    Raises
    ------
    InputError
        ``@folder`` for a field other than model or task, a level outside 1-8, or a malformed value.

    Examples
    --------
    >>> folder_fields({"model": "@folder", "task": "@folder:2", "question_id": "q"})
    {'model': 1, 'task': 2}
    >>> folder_fields({"model": "name"})
    {}
    """
    out: dict[str, int] = {}
    for key, value in (mapping or {}).items():
        text = str(value).strip().lower()
        if not text.startswith(FOLDER):
            continue
        m = _VALUE.fullmatch(text)
        level = int(m.group(1) or 1) if m else 0
        if key not in _FIELDS:
            raise InputError(f"--map {key}={value}: a folder name can be the model or the task, not '{key}'; map "
                             f"'{key}' to a column.", field=str(key))
        if not 1 <= level <= MAX_LEVEL:
            raise InputError(f"--map {key}={value}: write {FOLDER} (the folder holding the file) or {FOLDER}:N with N "
                             f"from 1 to {MAX_LEVEL} (2: the folder above it).", field=str(key))
        out[key] = level
    if len(out) == 2 and out["model"] == out["task"]:
        raise InputError(f"--map model=@folder and task=@folder name both after the same folder; give the task another "
                         f"level ({FOLDER}:2) or leave it to the file stem.", field="task")
    return out


def fixed_fields(mapping: Mapping[str, str] | None, source: str, what: str, folders: tuple[str, ...] = ()) -> dict[str, int]:
    """The ``@folder`` levels of a mapping given to an evaluation tool's own file, whose fields are fixed: only the
    ``folders`` fields may be named, by the file's folder; any other ``--map`` is refused.

    Parameters
    ----------
    mapping : dict, optional
        The user's ``--map``.
    source : str
        The file, for the error.
    what : str
        The file's kind and fields, e.g. ``"promptfoo output has fixed fields (provider, test case, success)"``.
    folders : tuple of str
        The fields a folder may name (``("model", "task")``, ``("task",)`` or none).

    Returns
    -------
    dict of str to int
        :func:`folder_fields` of the mapping.

    Raises
    ------
    InputError
        ``--map`` of another field, or of one of ``folders`` by anything but its folder, naming the field.

    >>> fixed_fields({"task": "@folder"}, "r.json", "r has fixed fields", ("task",))
    {'task': 1}
    >>> fixed_fields({"model": "x"}, "r.json", "r has fixed fields")
    Traceback (most recent call last):
    scorio_core.errors.InputError: r.json: --map model=...: r has fixed fields; nothing can be mapped.
    """
    levels = {k: v for k, v in folder_fields(mapping).items() if k in folders}
    unused = sorted(k for k in (mapping or {}) if k not in levels)
    if unused:
        named = (f"only {' and '.join(folders)} can be named, by the file's folder ("
                 + ", ".join(f"--map {f}=@folder:N" for f in folders) + ")") if folders else "nothing can be mapped"
        raise InputError(f"--map {unused[0]}=...: {what}; {named}.", source=source, field=unused[0])
    return levels


def folder_names(path: object, levels: Mapping[str, int], source: str) -> dict[str, str]:
    """``{field: folder name}`` of the file at ``path`` for :func:`folder_fields`'s ``levels``.

    Raises
    ------
    InputError
        The file has no path (an upload) or not that many folders above it.

    Examples
    --------
    >>> folder_names("/runs/gpt-4o/2025-01-01/aime.csv", {"model": 2, "task": 1}, "aime.csv")
    {'model': 'gpt-4o', 'task': '2025-01-01'}
    """
    if not levels:
        return {}
    fields = ", ".join(f"{k}=@folder" + (f":{n}" if n > 1 else "") for k, n in levels.items())
    if path is None:
        raise InputError(f"--map {fields}: an uploaded file has no folder; add a {' and a '.join(levels)} column to the "
                         "file, or load the folder from disk (the CLI, or the app's server folders).", source=source)
    parents = PurePosixPath(os.path.abspath(os.fspath(path))).parents
    out = {}
    for key, n in levels.items():
        name = parents[n - 1].name if n <= len(parents) else ""
        if not name:
            raise InputError(f"--map {key}=@folder{f':{n}' if n > 1 else ''}: the file has only {len(parents) - 1} "
                             f"folder{'s' * (len(parents) != 2)} above it ({os.path.abspath(os.fspath(path))}); choose a "
                             "lower level.", source=source, field=key)
        out[key] = name
    return out


def folder_record(mapping: Mapping[str, str], path: object, source: str) -> tuple[tuple[str, str], ...]:
    """A SQL engine's mapping as the pandas loader records it for one file: ``@folder:N`` -> ``<folder: NAME>``.

    >>> folder_record({"task": "@folder:1", "question_id": "q"}, "/runs/aime/m1.csv", "m1.csv")
    (('task', '<folder: aime>'), ('question_id', 'q'))
    """
    levels = folder_fields({k: v for k, v in mapping.items() if str(v).startswith(FOLDER)})
    names = folder_names(path, levels, source) if levels else {}
    return tuple((k, f"<folder: {names[k]}>" if k in names else v) for k, v in mapping.items())


def shared_stem_note(stems: Mapping[str, list[tuple[str, str]]], fields: list[str]) -> str | None:
    """The note for files of the same name in different folders whose ``fields`` (model, task) are their stem.

    ``stems``: ``{stem: [(file name, folder name), ...]}``. None when no stem is in two folders.

    >>> shared_stem_note({"m1": [("m1.csv", "aime"), ("m1.csv", "gpqa")]}, ["model", "task"])[:62]
    'files of the same name in different folders (aime/m1.csv, gpqa'
    """
    shared = {s: fs for s, fs in stems.items() if len({d for _, d in fs}) > 1}
    if not shared:
        return None
    stem, files = next(iter(shared.items()))
    shown = ", ".join(f"{d}/{n}" for n, d in files[:3]) + (" ..." if len(files) > 3 else "")
    which, both = " or ".join(fields), " and ".join(fields)
    more = f"; {len(shared) - 1} other name{'s' * (len(shared) > 2)} too" if len(shared) > 1 else ""
    return (f"{SHARED_STEM_WORDS} ({shown}{more}) have no {which} column, so their rows are "
            f"read under one {both} '{stem}'. If the folders name the models, pass --map model=@folder; if they name "
            "the tasks, --map task=@folder (--map FIELD=@folder:2 for the folder above).")


def note_shared_stems(parts: list[tuple[object, object]]) -> None:
    """Add :func:`shared_stem_note` to the first part of files whose model and task are both their stem (in place).

    Only both: with one of them in a column, a name repeated across folders is what it should be (``gpt/aime.csv``
    and ``claude/aime.csv`` with a model column are both task 'aime'). ``parts``: ``(Part, Source)`` pairs as read;
    a part's stem fields are read off its ``defaults`` lines (``no model column; model set to the file stem``);
    parts of uploads (no folder) are left alone.
    """
    stems: dict[str, list[tuple[str, str]]] = {}
    first = None
    for part, src in parts:
        both = all(any(f"no {k} column; {k} set to the file stem" in d for d in part.defaults) for k in _FIELDS)
        if both and getattr(src, "path", None) is not None:
            stems.setdefault(src.stem, []).append((src.name, _folder(src.path)))
            first = first or part
    if first is not None and (note := shared_stem_note(stems, list(_FIELDS))) is not None:
        first.notes.append(note)
    dated = [src.name for part, src in parts if any("no task column; task set to the file stem" in d for d in part.defaults)]
    if parts and (note := dated_stems_note(dated)):
        parts[0][0].notes.append(note)


def dated_stems_note(names: list[str]) -> str | None:
    """The note for files named as lighteval's details (``details_<task>_<date_id>``) whose task came from the name:
    the task is the name without the prefix and the run timestamp (:data:`scorio_core.io._sources.DATED_DETAILS`).

    >>> dated_stems_note(["details_lighteval|gsm8k|5_2025-01-01T12-30-45.123456.parquet"])[:60]
    "1 file named as lighteval's details (details_<task>_<time>):"
    """
    dated = [n for n in names if DATED_DETAILS.match(strip_suffixes(n, dated=False))]
    if not dated:
        return None
    n = len(dated)
    return (f"{n} file{'s' * (n > 1)} named as lighteval's details (details_<task>_<time>): the task is the name without "
            f"the prefix and the run's time ('{dated[0]}' -> '{strip_suffixes(dated[0])}'), so runs of one task on "
            "different days, one per model folder, are one task.")


def shared_stem_files(groups, guesses) -> list[str]:
    """:func:`note_shared_stems` for the SQL engines: ``[note]`` or ``[]``.

    ``groups``: file groups (``.files``: objects with ``name``, ``stem``, ``path`` and ``remote``); ``guesses``: their
    mappings (``.mapping``); the files of groups mapping neither model nor task count.
    """
    stems: dict[str, list[tuple[str, str]]] = {}
    for group, guess in zip(groups, guesses):
        if "model" not in guess.mapping and "task" not in guess.mapping:
            for f in group.files:
                if not getattr(f, "remote", False):
                    stems.setdefault(f.stem, []).append((f.name, _folder(f.path)))
    note = shared_stem_note(stems, list(_FIELDS))
    dated = dated_stems_note([f.name for group, guess in zip(groups, guesses) if "task" not in guess.mapping
                              for f in group.files if not getattr(f, "remote", False)])
    return [n for n in (note, dated) if n]


def shared_stem_refusal(exc: InputError, groups, guesses) -> InputError:
    """A SQL engine's duplicates refusal for files of one name in several folders, worded as the pandas loader's.

    The engine's refusal advises ``--duplicates``, which would merge the rows of different models or tasks read under
    one stem; when :func:`shared_stem_files` finds such files, the advice becomes ``--map FIELD=@folder``. Any other
    error is returned unchanged.

    Parameters
    ----------
    exc : InputError
        The engine's error (a ``NotReadyError``: its ``blocking`` is kept).
    groups, guesses : sequences
        As :func:`shared_stem_files`.

    Returns
    -------
    InputError
        Of ``exc``'s type, with its source and ``blocking``.
    """
    shared = shared_stem_files(groups, guesses)
    if not shared or not DUPLICATES_FINDING.search(exc.message):
        return exc
    message = f"{exc.message.split(ADVICE, 1)[0]}: {shared[0]} --duplicates would merge them."
    return type(exc)(message, **({"blocking": exc.blocking} if hasattr(exc, "blocking") else {}), source=exc.source)


def _folder(path: object) -> str:
    return PurePosixPath(os.path.abspath(os.fspath(path))).parent.name
