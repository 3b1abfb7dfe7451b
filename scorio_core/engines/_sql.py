"""Engine-independent helpers: identifier quoting, input expansion (globs, folders) and formats.

Nothing here imports DuckDB, so the CLI can decide which engine to use without paying for it.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from scorio_core.errors import InputError
from scorio_core.io._sources import strip_suffixes

__all__ = [
    "EMPTY_TOKENS",
    "register_files",
    "ENGINE_FORMATS",
    "EXACT_INTEGER_LIMIT",
    "FALSE_TOKENS",
    "FILE_COLUMN",
    "NO_TRIAL",
    "SPLIT_MAX",
    "TRUE_TOKENS",
    "EngineUnsupported",
    "InputFile",
    "NotReadyError",
    "expand_inputs",
    "has_glob",
    "is_remote",
    "partial_credit_notes",
    "recorded_error_notes",
    "quote_ident",
    "refuse_empty_files",
    "refuse_no_rows",
    "table_format",
]

#: Formats the SQL engines read themselves (everything else needs the pandas readers).
ENGINE_FORMATS = ("csv", "tsv", "parquet", "jsonl")
#: Outcome text read as missing, 1 and 0 (lower-cased, trimmed), as the pandas loader reads them.
EMPTY_TOKENS = ("", "nan", "none", "null", "na", "n/a")
TRUE_TOKENS = ("1", "1.0", "true", "t")
#: The pandas loader's default line for a file without a trial column (after "<file>: "); the engines count each row.
NO_TRIAL = "no trial column; trials numbered 0, 1, ... in row order within each (model, task, question)."
FALSE_TOKENS = ("0", "0.0", "false", "f")
#: Whole-valued floats below this are exact integers (2**53): ids like 3.0 become '3', trials are whole.
EXACT_INTEGER_LIMIT = 2**53
#: The column each engine adds with the source file of every row.
FILE_COLUMN = "__scorio_file__"
#: Up to this many files, files with different columns get their own mapping (as with pandas).
SPLIT_MAX = 64

_SUFFIXES = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
_GLOB_CHARS = frozenset("*?[")
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


class EngineUnsupported(InputError):
    """The input needs the pandas readers (a format, layout or option the SQL engine lacks)."""


class NotReadyError(InputError):
    """The data needs a user choice (duplicates, non-binary or missing outcomes) before counting.

    ``blocking`` holds the same messages the pandas path puts in ``QualityReport.blocking``.
    """

    def __init__(self, message: str, *, blocking: tuple[str, ...] = (), **kw) -> None:
        super().__init__(message, **kw)
        self.blocking = tuple(blocking)


@dataclass(frozen=True)
class InputFile:
    """One file to read: its path, display name, format and the task/model default (its stem).

    ``remote``: a URI (``s3a://``, ``hdfs://``, ``gs://``, ``file://`` ...) that only Spark
    reads; it may name a folder or a Hadoop glob, so its files, size and stems are known only
    when Spark lists them (``size`` is -1).
    """

    path: str
    name: str
    format: str | None
    stem: str
    size: int
    remote: bool = False


def quote_ident(name: object) -> str:
    """Quote a column name as an SQL identifier (double quotes doubled inside).

    Parameters
    ----------
    name : object
        A column name as read from the file's schema (never free user text: callers check
        it against the file's columns first).

    Returns
    -------
    str
        ``"name"`` with every ``"`` doubled, safe to splice into SQL.

    Raises
    ------
    InputError
        If the name contains a NUL character (no SQL engine accepts it).

    Examples
    --------
    >>> quote_ident('a"b; DROP TABLE x')
    '"a""b; DROP TABLE x"'
    """
    text = str(name)
    if "\x00" in text:
        raise InputError(f"column name {text!r} contains a NUL character; rename the column.")
    return '"' + text.replace('"', '""') + '"'


def has_glob(path: object) -> bool:
    """Whether a path string contains glob wildcards (``*``, ``?``, ``[``) and is not an existing file."""
    text = os.fspath(path) if isinstance(path, os.PathLike) else str(path)
    return bool(_GLOB_CHARS & set(text)) and not os.path.exists(text)


def table_format(name: str) -> str | None:
    """Engine format of a file name from its suffix (``.gz`` ignored), or None.

    Examples
    --------
    >>> table_format("runs/a.csv.gz"), table_format("x.parquet"), table_format("r.json")
    ('csv', 'parquet', None)
    """
    lower = name.lower()
    if lower.endswith(".gz"):
        lower = lower[:-3]
    return _SUFFIXES.get(os.path.splitext(lower)[1])


def is_remote(path: object) -> bool:
    """Whether an input is a URI with a scheme (``s3a://bucket/x``, ``hdfs://...``, ``file:///...``).

    Examples
    --------
    >>> is_remote("s3a://bucket/details/*.parquet"), is_remote("runs/a.parquet"), is_remote("C:/x.csv")
    (True, False, False)
    """
    return isinstance(path, str) and bool(_URI.match(path))


REMOTE_HINT = ("remote URIs (s3a://, hdfs://, gs://, abfss://, file://) are read by the Spark engine only: use "
               "--engine spark (engine=\"spark\"), or copy the files to a local folder.")


def _remote_input(uri: str, format: str | None) -> InputFile:
    """A URI for Spark: display name without credentials or query; format from its suffix or ``format``."""
    parts = urlsplit(uri)
    if not parts.netloc and not parts.path.strip("/"):
        raise InputError("the URI names no bucket, host or path.", source=uri[:200])
    host = parts.netloc.rsplit("@", 1)[-1]  # never show user:password@
    name = f"{parts.scheme}://{host}{parts.path}"
    last = parts.path.rstrip("/").rsplit("/", 1)[-1]
    fmt = format or table_format(last)
    return InputFile(path=uri, name=name, format=fmt, stem=strip_suffixes(last) if fmt else last, size=-1, remote=True)


def expand_inputs(paths, format: str | None = None, *, remote: bool = False) -> list[InputFile]:
    """Expand paths, folders (recursively) and globs (``runs/**/*.parquet``) into files.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        Applied to every file; otherwise taken from each file's suffix (None when unknown).
    remote : bool, default False
        Accept URIs (``s3a://bucket/details/*.parquet``): kept as one input each for Spark
        to list (:attr:`InputFile.remote`). Without it a URI is refused with a hint.

    Returns
    -------
    list of InputFile
        In argument order, each glob's and folder's matches sorted; duplicates removed.

    Raises
    ------
    InputError
        A glob matching nothing, a folder without table files, a missing file, or no paths;
        a URI when ``remote`` is False.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found: list[str] = []
    uris: dict[str, InputFile] = {}
    for item in paths:
        text = os.fspath(item)
        if is_remote(text):
            if not remote:
                raise InputError(REMOTE_HINT, source=text[:200])
            uris[text] = _remote_input(text, format)
            found.append(text)
        elif has_glob(text):
            matches = sorted(p for p in glob.glob(text, recursive=True) if os.path.isfile(p))
            if not matches:
                raise InputError("the pattern matches no file; check the path and quote it so the shell does not expand it.", source=text)
            found.extend(matches)
        elif os.path.isdir(text):
            matches = sorted(str(p) for p in Path(text).rglob("*") if p.is_file() and table_format(p.name) is not None)
            if not matches:
                raise InputError("the folder holds no CSV, TSV, Parquet or JSONL files (JSON documents and harness outputs: Inspect logs, HELM runs, SWE-bench, aider, tau-bench, terminal-bench and Harbor runs, OpenCompass results, are read by --engine pandas).", source=text)
            found.extend(matches)
        elif os.path.isfile(text):
            found.append(text)
        else:
            raise InputError("file not found; check the path.", source=text)
    if not found:
        raise InputError("no input files given; pass at least one path.")
    out = []
    for p in dict.fromkeys(found):
        if p in uris:
            out.append(uris[p])
            continue
        name = os.path.basename(p)
        out.append(InputFile(path=p, name=name, format=format or table_format(name), stem=strip_suffixes(name), size=os.path.getsize(p)))
    return out


_BLANK = b" \t\r\n\xef\xbb\xbf"
_NO_ROWS = {"parquet": "the table has columns but no rows.", "csv": "the file has a header but no data rows.",
            "tsv": "the file has a header but no data rows."}


def refuse_empty_files(files: list[InputFile]) -> None:
    """Refuse a local input with no content, with the pandas loader's message, before the engine reads it.

    A zero-byte (or blank, or gzip of nothing) file has no header, so an engine would report a
    missing column instead of an empty file. Only files under 4 KiB are opened (their first bytes).

    Raises
    ------
    InputError
        ``"<file>: the file is empty; export the results again."`` for the first such file.
    """
    import gzip

    for f in files:
        if f.remote or f.size >= 4096:
            continue
        opener = gzip.open if f.path.lower().endswith(".gz") else open
        try:
            with opener(f.path, "rb") as fh:
                head = fh.read(4096)
        except (OSError, EOFError):
            continue  # unreadable or a broken gzip: the engine's reader reports it
        if not head.strip(_BLANK):
            raise InputError("the file is empty; export the results again.", source=f.name)


def refuse_no_rows(files: list[InputFile], rows: Mapping[str, int]) -> None:
    """Refuse inputs that gave no rows, as the pandas loader refuses each such file.

    Parameters
    ----------
    files : list of InputFile
        The inputs, in argument order.
    rows : mapping of str to int
        Input rows per local file path as the count query returned them (a file without rows
        may be absent); remote inputs are only checked together (Spark lists their files).

    Raises
    ------
    InputError
        Naming the first local file without rows (a Parquet table with columns but no rows, a
        CSV/TSV header without data rows at line 1) and how many other files have none; or,
        when only remote inputs were read and nothing came back, naming them.
    """
    local = [f for f in files if not f.remote]
    found: dict[str, int] = {}
    for path, n in rows.items():
        key = os.path.realpath(path)
        found[key] = found.get(key, 0) + int(n or 0)
    empty = [f for f in local if not found.get(os.path.realpath(f.path))]
    if empty:
        f = empty[0]
        message = _NO_ROWS.get(f.format or "", "the file has no rows; export the results again.")
        if len(empty) > 1:
            more = ", ".join(e.name for e in empty[1:4]) + (f" and {len(empty) - 4} more" if len(empty) > 4 else "")
            message += (f" {len(empty) - 1} other input file{'s have' if len(empty) > 2 else ' has'} no rows either "
                        f"({more}); remove the files without rows or export them again.")
        raise InputError(message, source=f.name, line=1 if f.format in ("csv", "tsv") else None)
    if len(local) < len(files) and not sum(found.values()):
        raise InputError("the inputs have no rows; check the URIs or export the results again.",
                         source=", ".join(f.name for f in files if f.remote))


def register_files(con, files: list[InputFile]) -> None:
    """Create DuckDB's ``__files`` table of the canonical ``SELECT`` (file paths travel as parameters).

    Columns: ``__path``, ``__stem`` (the model or task of a file without that column), ``__name``, ``__stem_task`` (the
    task of a file without a task column: its stem until :func:`scorio_core.engines.per_model.join_per_model` joins
    per-model files into one), ``__idx`` (the file's position in the input order) and ``__parents`` (the names of the
    folders above the file, nearest first: ``--map model=@folder``, :mod:`scorio_core.io.formats.path_names`).
    """
    import os
    from pathlib import PurePosixPath

    con.execute("CREATE TEMP TABLE __files (__path VARCHAR, __stem VARCHAR, __name VARCHAR, __stem_task VARCHAR, "
                "__idx BIGINT, __parents VARCHAR[])")  # '__' names: a data column 'idx' or 'name' is not ambiguous
    con.executemany("INSERT INTO __files VALUES (?, ?, ?, ?, ?, ?)",
                    [[f.path, f.stem, f.name, f.stem, i, [p.name for p in PurePosixPath(os.path.abspath(f.path)).parents]]
                     for i, f in enumerate(files)])


def engine_notes(groups, guesses, layout: str, partial: Mapping[str, tuple[int, int]], rows: Mapping[str, int],
                 errors: Mapping) -> list[str]:
    """The pandas loader's notes a SQL engine gives from its counting pass: per-trial lists, partial credit, recorded
    errors (attempt tables) and files of one name in several folders (:mod:`scorio_core.io.formats.path_names`)."""
    from scorio_core.io.formats.path_names import shared_stem_files
    from scorio_core.io.formats.trial_lists import trial_list_notes

    notes = (trial_list_notes(groups, rows) + partial_credit_notes(groups, guesses, partial, rows)
             + recorded_error_notes(groups, errors) if layout == "attempts" else [])
    return notes + shared_stem_files(groups, guesses)


def partial_credit_notes(groups, guesses, partial: Mapping[str, tuple[int, int]], rows: Mapping[str, int]) -> list[str]:
    """The pandas loader's partial-credit note for each file whose score column holds values strictly between 0 and 1
    beside a separate 0/1 outcome column (:func:`scorio_core.io.quality.report.partial_credit_message`), from the counts
    the engine's counting pass tallied.

    Parameters
    ----------
    groups, guesses : sequences
        The input groups (``.files``: InputFile list) and their mappings (``.mapping``), in the same order.
    partial : mapping of str to (int, int)
        Local file path -> (attempts with a score strictly between 0 and 1, of them with outcome 0).
    rows : mapping of str to int
        Local file path -> the file's attempt rows.

    Returns
    -------
    list of str
        One note per file with partial scores, in input order (the pandas loader's words and numbers).
    """
    from scorio_core.io.quality.report import partial_credit_message

    found = {os.path.realpath(p): kw for p, kw in partial.items()}
    n = {os.path.realpath(p): int(r) for p, r in rows.items()}
    out = []
    for group, guess in zip(groups, guesses):
        score, outcome = guess.mapping.get("score"), guess.mapping.get("is_correct")
        if score is None or outcome is None or score == outcome:
            continue
        for f in group.files:
            k, wrong = found.get(os.path.realpath(f.path), (0, 0))
            if k:
                out.append(partial_credit_message(f.name, int(k), n[os.path.realpath(f.path)], int(wrong), score, outcome))
    return out


def recorded_error_notes(groups, errors: Mapping[str, tuple]) -> list[str]:
    """The pandas loader's note for each file whose error column marks attempts
    (:func:`scorio_core.io.formats.recorded_errors.errors_note`), from the counts the engine's counting pass tallied.

    Parameters
    ----------
    groups : sequence
        The input groups (``.files``: InputFile list; ``.error_column``: the group's error column or None).
    errors : mapping of str to (int, int, str)
        Local file path -> (attempts whose error is set, of them with outcome 1, one error value). A counted
        outcome is 0 or 1 (the engines refuse soft and missing ones), so the rest are incorrect.

    Returns
    -------
    list of str
        One note per file with errored attempts, in input order.
    """
    from scorio_core.io.formats.recorded_errors import errors_note

    found = {os.path.realpath(p): v for p, v in errors.items()}
    out = []
    for group in groups:
        for f in group.files:
            k, correct, example = found.get(os.path.realpath(f.path), (0, 0, ""))
            if k and group.error_column:
                out.append(errors_note(f.name, group.error_column, int(k), example,
                                       {"incorrect": int(k) - int(correct), "correct": int(correct)}))
    return out
