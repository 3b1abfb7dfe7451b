"""Server-side data roots: open dumps that live on a shared volume, never outside configured folders.

A team whose eval dumps sit on a shared volume sets ``SCORIO_DATA_ROOTS`` to one or more
folders (separated by ``os.pathsep``, ``:`` on Linux). The app then offers those folders and
accepts a path or glob *relative to one of them* (``runs/**/*.parquet``). Nothing else can be
opened: absolute paths, ``..`` components, NUL bytes and matches that resolve (through symbolic
links) outside the root are refused; a glob never enters a symbolic link leading outside the root, reads
each real folder once (link loops end) and looks at a bounded number of entries. Without the variable the
feature is off.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from scorio_core.errors import InputError
from scorio_core.io._sources import is_data_name
from scorio_core.io.formats.path_names import folder_fields

__all__ = ["ENV", "MAX_MATCHES", "MAX_VISITED", "MAX_WALK_SECONDS", "PANDAS_FALLBACK_BYTES", "DataRoot", "Matches", "data_roots", "load_matches", "resolve_in_root",
           "uploaded_folder"]

#: Environment variable listing the folders the app may read from.
ENV = "SCORIO_DATA_ROOTS"
#: Most files one pattern may match (a typo like ``**`` on a big volume is refused, not walked forever).
MAX_MATCHES = 10_000
_MAX_PATTERN = 500


@dataclass(frozen=True)
class DataRoot:
    """One configured folder: ``label`` is what users see (the folder path as configured)."""

    label: str
    path: Path


@dataclass(frozen=True)
class Matches:
    """Files a pattern matched under a root, with their total size in bytes."""

    root: DataRoot
    pattern: str
    files: tuple[Path, ...]
    total_bytes: int

    def relative(self) -> list[str]:
        """Each file relative to the root (what is shown and recorded)."""
        base = self.root.path
        return [str(f.relative_to(base)) for f in self.files]


def data_roots(value: str | None = None) -> list[DataRoot]:
    """The configured roots (existing folders only), from ``value`` or ``$SCORIO_DATA_ROOTS``.

    Examples
    --------
    >>> data_roots("")
    []
    """
    text = os.environ.get(ENV, "") if value is None else value
    roots = []
    for part in text.split(os.pathsep):
        part = part.strip()
        if not part:
            continue
        path = Path(part).expanduser()
        if path.is_dir():
            roots.append(DataRoot(label=part, path=path.resolve()))
    return roots


def _check_pattern(pattern: object) -> str:
    if not isinstance(pattern, str) or not pattern.strip():
        raise InputError("type a path or glob relative to the data folder, e.g. runs/**/*.parquet.", field="path")
    text = pattern.strip()
    if len(text) > _MAX_PATTERN:
        raise InputError(f"the path is longer than {_MAX_PATTERN} characters.", field="path")
    if "\x00" in text or any(ord(c) < 32 for c in text):
        raise InputError("the path contains control characters.", field="path")
    if text.startswith(("/", "\\", "~")) or (len(text) > 1 and text[1] == ":"):
        raise InputError("give the path relative to the data folder (no leading /, ~ or drive letter).", field="path")
    if ".." in PurePosixPath(text.replace("\\", "/")).parts:
        raise InputError("'..' is not allowed: paths stay inside the data folder.", field="path")
    return text


def resolve_in_root(root: DataRoot, pattern: str) -> Matches:
    """Files matched by ``pattern`` (a path, folder or glob relative to ``root``).

    The folder is walked without leaving it: a symbolic link that leads outside the root is never
    followed (a folder link is not entered, so its contents are never listed; a file link the pattern
    names is refused), links inside the root are followed and each real folder is read once per pattern
    part (link loops end), and at most :data:`MAX_VISITED` entries are looked at. Error messages name paths
    as typed or relative to the root, never a link's target.

    Parameters
    ----------
    root : DataRoot
        One of :func:`data_roots`.
    pattern : str
        ``results.csv``, ``runs/`` (every file below it) or ``runs/**/*.parquet``.

    Returns
    -------
    Matches
        Regular files only, sorted, each resolved inside ``root``.

    Raises
    ------
    InputError
        An empty, absolute or too long pattern, ``..``, control characters, nothing matched,
        a match outside the root (a symbolic link pointing elsewhere), more than
        :data:`MAX_MATCHES` files, more than :data:`MAX_VISITED` entries walked. Field ``path``.
    """
    text = _check_pattern(pattern)
    base = root.path
    walk = _Walk(root)
    if glob.has_magic(text):
        parts = [p for p in text.replace("\\", "/").split("/") if p not in ("", ".")]
        walk.run(str(base), PurePosixPath(), parts, hidden=False)
    else:
        target = base / text
        if not os.path.lexists(target):
            raise InputError(f"{text!r} does not exist under {root.label}.", field="path")
        real = Path(os.path.realpath(target))
        if not real.is_relative_to(base):
            raise InputError(f"{text!r} points outside {root.label} (a symbolic link); it is not opened.", field="path")
        if real.is_dir():  # a folder gives its data files, as a folder given to the CLI does
            walk.only_data = True
            walk.run(str(real), PurePosixPath(text), ["**"], hidden=True)
        elif real.is_file():
            walk.add(real)
        else:
            raise InputError(f"{text!r} does not exist under {root.label}.", field="path")
    if not walk.files:
        skipped = (f" ({walk.outside:,} symbolic link{'s' if walk.outside != 1 else ''} leading outside it "
                   f"{'were' if walk.outside != 1 else 'was'} not followed)") if walk.outside else ""
        if walk.other:
            skipped += f" ({walk.other:,} file{'s' * (walk.other != 1)} without a data suffix: .csv, .json, .parquet ...)"
        raise InputError(f"{text!r} matches no file under {root.label}{skipped}.", field="path")
    return Matches(root=root, pattern=text, files=tuple(sorted(walk.files)), total_bytes=walk.total)


#: Most directory entries one pattern may look at (a ``**`` on a huge volume or through many links is refused):
#: about 1.7 s on a local disk.
MAX_VISITED = 200_000
#: Longest walk in seconds (a slow network volume), checked every 1,000 entries.
MAX_WALK_SECONDS = 20.0


class _Walk:
    """A glob walk inside one root: never through links leading out, each real folder once per pattern part."""

    def __init__(self, root: DataRoot) -> None:
        self.root, self.base = root, root.path
        self.files: set[Path] = set()
        self.total = 0
        self.visited = 0
        self.outside = 0  # links leading outside the root, not followed
        self.only_data = False  # a folder: only files with a data suffix (logs and scripts beside the data skipped)
        self.other = 0
        self.deadline = time.monotonic() + MAX_WALK_SECONDS

    def add(self, real: Path) -> None:
        if real in self.files:
            return
        if self.only_data and not is_data_name(real.name):
            self.other += 1
            return
        self.files.add(real)
        self.total += real.stat().st_size
        if len(self.files) > MAX_MATCHES:
            raise InputError(f"the pattern matches more than {MAX_MATCHES:,} files; narrow it (e.g. a sub-folder or "
                             "a file suffix).", field="path")

    def _entries(self, folder: str):
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    self.visited += 1
                    if self.visited > MAX_VISITED:
                        raise InputError(
                            f"the pattern walks more than {MAX_VISITED:,} files and folders under {self.root.label}; "
                            "narrow it (a sub-folder before '**', e.g. runs/2024/**/*.parquet).", field="path")
                    if self.visited % 1000 == 0 and time.monotonic() > self.deadline:
                        raise InputError(
                            f"the pattern took more than {MAX_WALK_SECONDS:g} s to walk under {self.root.label} "
                            f"({self.visited:,} files and folders); narrow it (a sub-folder before '**').", field="path")
                    yield entry
        except OSError:  # unreadable folder: nothing to list there
            return

    def _inside(self, entry, rel: PurePosixPath, final: bool) -> tuple[Path | None, bool]:
        """(real path or None when it leads outside, is a folder), refusing a matched file link that leads outside."""
        if not entry.is_symlink():
            return Path(entry.path), entry.is_dir(follow_symlinks=False)
        real = Path(os.path.realpath(entry.path))
        if real.is_relative_to(self.base):
            return real, real.is_dir()
        self.outside += 1
        if final and not real.is_dir():
            raise InputError(f"{str(rel)!r} is a symbolic link leading outside {self.root.label}; it is not opened.",
                             field="path")
        return None, False

    def run(self, start: str, start_rel: PurePosixPath, parts: list[str], hidden: bool) -> None:
        """Match ``parts`` (``**`` = any folders, zero included) below the real folder ``start``."""
        stack = [(start, start_rel, 0)]
        seen: set[tuple[str, int]] = set()
        while stack:
            folder, rel, i = stack.pop()
            if (folder, i) in seen:
                continue
            seen.add((folder, i))
            if i == len(parts):
                continue  # a folder matched: files only
            part, last = parts[i], i == len(parts) - 1
            if part == "**":
                stack.append((folder, rel, i + 1))
            for entry in self._entries(folder):
                name = entry.name
                if name.startswith(".") and not hidden and not part.startswith("."):
                    continue
                if part != "**" and not fnmatch.fnmatchcase(name, part):
                    continue
                real, is_dir = self._inside(entry, rel / name, final=last)
                if real is None:
                    continue
                if is_dir:
                    if part == "**" or not last:
                        stack.append((str(real), rel / name, i if part == "**" else i + 1))
                elif last and real.is_file():
                    self.add(real)


#: Above this total size a table that is not ready for counting (duplicates, soft outcomes)
#: is not re-read with pandas in the app: make the choice with the CLI (``--duplicates`` ...).
PANDAS_FALLBACK_BYTES = 512 * 1024 * 1024


def load_matches(matches: Matches, *, memory_limit: str | None = "2GB", progress=None, threshold: int | None = None,
                 mapping: dict[str, str] | None = None):
    """Load matched files with the engine ``--engine auto`` would pick; the count table when DuckDB ran.

    Parameters
    ----------
    matches : Matches
    memory_limit : str, optional
        DuckDB's memory limit (it spills to disk beyond it).
    progress : callable(fraction, message), optional
        Called by the pandas loader per file.
    threshold : int, optional
        Bytes from which DuckDB counts the tables (default
        :data:`scorio_core.engines.AUTO_THRESHOLD_BYTES`, as ``--engine auto``).
    mapping : dict, optional
        Column mapping (``io.load``'s), e.g. ``{"model": "@folder"}`` (a folder names the model): then the pandas
        loader's attempt table is stored (``<stem>.attempts.parquet``) instead of the files, which have no folder.

    Returns
    -------
    dataset : scorio_core.io.Dataset
    engine : {"duckdb", "pandas"}
    files : list of (str, bytes)
        What to store as the dataset's files: the files themselves (pandas), or the count
        table as Parquet (``<stem>.counts.parquet``; DuckDB read large inputs out of core and the
        metrics need only the counts; the inputs' names, sizes and SHA-256 stay in the sources).
        DuckDB also keeps the trial order as prefix counts (``dataset.trial_prefix``) when the
        tables have a trial column, so observed rank trajectories stay exact.

    Raises
    ------
    InputError
        As :func:`scorio_core.io.load` / :func:`scorio_core.engines.load_counts`; data that
        needs a quality choice and is too large for the pandas loader says to use the CLI.
    """
    from scorio_core import io
    from scorio_core.engines import AUTO_THRESHOLD_BYTES, EngineUnsupported, NotReadyError, auto_engine, load_counts
    from scorio_core.engines.uploads import count_table_file

    paths = [str(f) for f in matches.files]
    engine = auto_engine(paths, threshold=AUTO_THRESHOLD_BYTES if threshold is None else threshold)
    if engine == "duckdb":
        try:
            dataset = load_counts(paths, memory_limit=memory_limit, trial_prefix=True, mapping=mapping)
        except (EngineUnsupported, NotReadyError) as exc:
            if matches.total_bytes > PANDAS_FALLBACK_BYTES:
                raise InputError(f"{exc} These files ({matches.total_bytes / 2**30:.1f} GiB) are too large to re-read "
                                 "here with the attempt-level loader: run `python -m scorio_core quality PATH` and "
                                 "the leaderboard with --duplicates / --binarize-threshold / --missing-outcomes, or "
                                 "fix the files.", field="path") from None
            engine = "pandas"
        else:
            return dataset, engine, [count_table_file(dataset, matches.relative()[0])]
    dataset = io.load(paths, progress=progress, mapping=mapping)
    if (folder_fields(mapping) or any(s.format in _FOLDER_NAMED for s in dataset.sources)
            or sum(s.format == "helm" for s in dataset.sources) > 1):
        # the stored files have no folder (which names the model, or groups a HELM run's files): store the rows
        from scorio_core.engines.uploads import attempt_table_file

        named = matches.relative()[0] if folder_fields(mapping) else matches.pattern  # 'report.json' says little
        return dataset, engine, [attempt_table_file(dataset, named)]
    files = [(rel, f.read_bytes()) for rel, f in zip(matches.relative(), matches.files)]
    return dataset, engine, files


#: Formats whose folders name the model or the run: their stored files would lose it, so the rows are stored.
_FOLDER_NAMED = ("swebench-instance", "aider", "terminal-bench", "opencompass", "harbor", "matharena", "evalscope",
                 "nemo-skills", "lighteval", "fastchat-judge", "fastchat-pair", "livecodebench", "qwen-math",
                 "evalplus", "mmlu-pro", "wildbench")
#: The folder a folder upload is written under when its files share no top folder.
UPLOADED = "folder"


@contextmanager
def uploaded_folder(files: Sequence[tuple[str, bytes]]) -> Iterator[tuple[DataRoot, str]]:
    """A folder uploaded in the browser, written to a private temporary folder, as a root and the pattern that opens
    it with :func:`resolve_in_root` and :func:`load_matches` (what *Open from the server* does with a folder): the
    readers that take a model, a run or a task from a file's folders (SWE-bench per-instance reports, aider runs,
    ``--map model=@folder``) then read an upload as they read the folder on disk.

    Parameters
    ----------
    files : sequence of (str, bytes)
        Each file's path inside the chosen folder, as the browser gives it (``logs/run_a/m1/x/report.json``;
        Streamlit's ``accept_multiple_files="directory"``), and its bytes.

    Yields
    ------
    root : DataRoot
        The temporary folder (removed on exit), labelled ``upload``.
    pattern : str
        The files' common top folder (``logs``), or :data:`UPLOADED` when they share none.

    Raises
    ------
    InputError
        A path that is empty, absolute, has an empty, ``.`` or ``..`` part, control characters or a part longer than
        255 characters; the same path twice; more than :data:`MAX_MATCHES` files; nothing given (field ``path``).
        The names are never trusted as paths: each is checked part by part and written only below the temporary folder.
    """
    if not files:
        raise InputError("no files in the uploaded folder.", field="path")
    if len(files) > MAX_MATCHES:
        raise InputError(f"the folder holds more than {MAX_MATCHES:,} files; upload a sub-folder.", field="path")
    parts, seen = [_upload_parts(name) for name, _ in files], set()
    if (twice := next((p for p in parts if p in seen or seen.add(p)), None)) is not None:
        raise InputError(f"{'/'.join(twice)!r} is uploaded twice; upload the folder once.", field="path")
    if not any(is_data_name(p[-1]) for p in parts):
        raise InputError("the folder holds no data files (.csv, .tsv, .jsonl, .json, .parquet, .npz, .eval ...); "
                         "choose the folder of the results.", field="path")
    tops = {p[0] for p in parts}
    shared = len(tops) == 1 and all(len(p) > 1 for p in parts)
    with tempfile.TemporaryDirectory(prefix="scorio-folder-") as tmp:
        base, made = Path(tmp).resolve(), set()
        for p, (_, data) in zip(parts, files):
            if not is_data_name(p[-1]):  # logs, scripts, recordings: the folder walk would skip them anyway
                continue
            target = base.joinpath(*(p if shared else (UPLOADED, *p)))
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            target.write_bytes(bytes(data))
        yield DataRoot(label="upload", path=base), (parts[0][0] if shared else UPLOADED)


def _upload_parts(name: object) -> tuple[str, ...]:
    text = str(name).replace("\\", "/")
    parts = tuple(text.split("/"))
    bad = (not text or text.startswith("/") or any(p in ("", ".", "..") or len(p) > 255 for p in parts)
           or any(ord(c) < 32 for c in text))
    if bad:
        raise InputError(f"the uploaded path {text[:120]!r} is not a plain path inside the folder (empty, absolute, "
                         "'.' or '..' parts, control characters or a name over 255 characters); rename it and upload "
                         "again.", field="path")
    return parts
