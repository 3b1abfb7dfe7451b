"""CLI error boundary (issue 17): one ``error:`` line, exit 2 for bad input, 1 for internal errors."""

from __future__ import annotations

import pytest

from scorio_core.cli import main

DATA = "data/matharena_aime_2025_I_counts.csv"


def _boom(exc):
    def run(args):
        raise exc

    return run


@pytest.mark.parametrize(
    ("exc", "status", "text"),
    [
        (MemoryError(), 2, "out of memory"),
        (RecursionError("maximum recursion depth exceeded"), 2, "nested too deeply"),
        (ValueError("bad value\nsecond line"), 2, "bad value"),
        (KeyError("oops"), 1, "internal error (KeyError"),
        (ZeroDivisionError("division by zero"), 1, "please report it"),
    ],
)
def test_every_failure_is_one_line(monkeypatch, capsys, exc, status, text):
    import scorio_core.cli.leaderboard as lb

    monkeypatch.setattr(lb, "run", _boom(exc))
    assert main(["leaderboard", DATA]) == status
    err = capsys.readouterr().err
    assert err.startswith("error: ") and text in err and err.count("\n") == 1 and "Traceback" not in err


def test_debug_shows_the_traceback(monkeypatch):
    import scorio_core.cli.leaderboard as lb

    monkeypatch.setattr(lb, "run", _boom(KeyError("oops")))
    with pytest.raises(KeyError):
        main(["--debug", "leaderboard", DATA])


def test_warnings_do_not_reach_stderr(monkeypatch, capsys):
    import warnings

    import scorio_core.cli.leaderboard as lb

    def noisy(args):
        warnings.warn("overflow encountered", RuntimeWarning)
        return 0

    monkeypatch.setattr(lb, "run", noisy)
    assert main(["leaderboard", DATA]) == 0
    assert capsys.readouterr().err == ""
