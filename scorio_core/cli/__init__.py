"""Command-line interface: ``python -m scorio_core <subcommand> ...``.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable
``run(args) -> int``. Output is stable JSON with ``--output json`` so scripts and CI
pipelines can rely on it.

Bad input never produces a traceback: :class:`scorio_core.errors.InputError`,
``ValueError``, ``TypeError``, ``OSError``, ``MemoryError`` and ``RecursionError`` raised
while running a subcommand are printed as one ``error: ...`` line on stderr and the exit
status is 2. Any other exception is an internal error: one line with a hint to report it,
exit status 1; ``--debug`` (before the subcommand) prints the traceback instead. Warnings
are silenced unless ``--debug`` is given, so stderr stays one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main", "run", "build_parser"]

# Subcommand modules, in the order `--help` lists them. A module listed here that is not
# importable yet is skipped, so subcommands can land independently.
_SUBCOMMAND_MODULES = (
    "leaderboard",
    "tasks",
    "rubric",
    "trajectory",
    "convergence",
    "sensitivity",
    "compare",
    "quality",
    "export",
    "workspace",
    "publish",
    "questions",
    "plan",
)


class _Listed(Exception):
    """Raised by :class:`_ListingOnly` once a subcommand's name and help are registered."""


class _ListingOnly:
    """Subparsers proxy: adds the subcommand (name, help, description) and stops its ``register``.

    Used for the subcommands a command line does not select, so ``--help`` and a
    subcommand's run do not import every other subcommand's option choices (metrics,
    priors, SciPy, pandas). The listing they show is the same.
    """

    def __init__(self, real) -> None:
        self._real = real

    def add_parser(self, name, **kwargs):
        self._real.add_parser(name, **kwargs)
        raise _Listed


def build_parser(command: str | None = None, *, full: bool = True) -> argparse.ArgumentParser:
    """Build the top-level parser with every available subcommand registered.

    Parameters
    ----------
    command : str, optional
        With ``full=False``: the one subcommand whose options are built; the others are
        listed (name and help) only. Used by :func:`main` for a fast start-up.
    full : bool, default True
        Build every subcommand's options (the parser tests and docs inspect).

    Returns
    -------
    argparse.ArgumentParser
    """
    parser = argparse.ArgumentParser(
        prog="python -m scorio_core",
        description=(
            "Bayes@N evaluation from the command line: leaderboards with credible "
            "intervals, rubric schemas, rank trajectories and convergence@n."
        ),
    )
    parser.add_argument("--debug", action="store_true", help="print tracebacks and warnings (for bug reports)")
    from scorio_core import __version__

    parser.add_argument("--version", action="version", version=f"scorio-dashboard {__version__}",
                        help="print the version (record it beside published results) and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>")
    subparsers.required = True
    for name in _SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(f"scorio_core.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"scorio_core.cli.{name}":
                continue
            raise
        names = getattr(module, "COMMANDS", (name,))  # a module may add several subcommands (cheap registers only)
        if full or command in names or len(names) > 1:
            module.register(subparsers)
            continue
        try:
            module.register(_ListingOnly(subparsers))
        except _Listed:
            pass
    return parser


def _selected_command(argv: Sequence[str]) -> str | None:
    """The subcommand a command line names (first argument after the top-level options), if any."""
    for token in argv:
        if token == "--":
            return None
        if not token.startswith("-"):
            return token
    return None


class _ArgumentError(Exception):
    """Raised instead of argparse's SystemExit so usage errors follow the error contract."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # pragma: no cover - exercised via main()
        raise _ArgumentError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return the process exit status (0 ok, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from scorio_core.limits import limit_blas_threads

    limit_blas_threads()  # before numpy/scipy load their BLAS (scorio_core.limits: why)
    parser = build_parser(_selected_command(argv), full=False)
    _make_errors_raise(parser)
    wants_json = _wants_json(argv)
    try:
        args = parser.parse_args(argv)
    except _ArgumentError as exc:
        return _fail(str(exc), 2, wants_json)
    import warnings

    debug = bool(getattr(args, "debug", False))
    try:
        with warnings.catch_warnings():
            if not debug:
                warnings.simplefilter("ignore")
            return int(args.func(args) or 0)
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, OSError) as exc:
        if debug:
            raise
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return _fail(message, 2, wants_json)
    except MemoryError:
        if debug:
            raise
        return _fail("out of memory while processing the input; it is larger than this machine can hold "
                     "(see README, Limits).", 2, wants_json)
    except RecursionError:
        if debug:
            raise
        return _fail("the input is nested too deeply to parse (e.g. JSON brackets); check the file.", 2, wants_json)
    except KeyboardInterrupt:  # pragma: no cover
        return _fail("interrupted", 130, wants_json)
    except Exception as exc:  # noqa: BLE001 - the one boundary where internal errors are reported
        if debug:
            raise
        return _fail(f"internal error ({type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}); "
                     "please report it with the output of --debug.", 1, wants_json)


def run() -> int:
    """Console-script entry point: :func:`main`, and after an error leave without the interpreter's teardown.

    A failed read can leave a native reader's worker thread (Arrow's, DuckDB's) alive; destroying it at interpreter
    exit aborted the process once in ~24 runs ("terminate called without an active exception", status 134) after
    the error line had been printed. Output is flushed first, so nothing printed is lost; success exits normally.
    """
    status = main()
    if status:
        import os

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status


def _wants_json(argv: Sequence[str]) -> bool:
    """Whether the command line asks for ``--output json`` (read before parsing: usage errors need it too)."""
    return any(a == "--output=json" or (a == "--output" and b == "json") for a, b in zip(argv, [*argv[1:], ""]))


def _fail(message: str, status: int, wants_json: bool) -> int:
    """The error contract: one ``error: ...`` line on stderr; under ``--output json`` also ``{"error": message,
    "exit_status": status}`` on stdout, so a script parsing stdout always gets JSON. Returns ``status``."""
    print(f"error: {message}", file=sys.stderr)
    if wants_json:
        import json

        print(json.dumps({"error": message, "exit_status": status}))
    sys.stdout.flush()
    return status


def _make_errors_raise(parser: argparse.ArgumentParser) -> None:
    """Route argparse usage errors (unknown option, bad choice) to the one-line contract, and take options by
    their full names only: with abbreviations ``compare --b X`` was read as ``--binarize-threshold X``, and a script
    written against one version would change meaning when a later one adds an option sharing the prefix."""
    parser.__class__ = _Parser
    parser.allow_abbrev = False
    for action in parser._actions:  # noqa: SLF001 - argparse has no public accessor
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for sub in action.choices.values():
                _make_errors_raise(sub)
