"""Files of one harness folder gathered into one folder source (a run, a job, a solver's problems).

Harnesses that write one file per question or trial (aider, Harbor, MathArena) are read a folder at a time: the
reader needs all of a run's files together to number trials, name the model once and say what is missing. The
gathering (which folder a file belongs to, the folder source with its files as members in load order) is the same
for each; what differs is which files belong and to which folder (``folder_of``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorio_core.errors import InputError
from scorio_core.io._sources import Source

__all__ = ["gather_files", "leave_out"]


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
