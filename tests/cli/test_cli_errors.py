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


@pytest.mark.parametrize("command", ["export", "sensitivity"])  # leaderboard ranks every task
def test_many_tasks_without_task_says_how_many_are_not_listed(tmp_path, capsys, command):
    # 12 tasks: the message lists 8 and counts the rest, so a reader knows the list is not the whole data
    rows = "".join(f"m{m},task{t:02d},q{q},{i},{(m + q + i) % 2}\n" for m in range(2) for t in range(12)
                   for q in range(2) for i in range(2))
    path = tmp_path / "many.csv"
    path.write_text("model,task,question_id,trial,is_correct\n" + rows)
    argv = [command, str(path)] + (["--format", "md"] if command == "export" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "the data has 12 tasks (task00, task01, task02, task03, task04, task05, task06, task07 and 4 more); " \
           "choose one with --task" in err, err


@pytest.mark.parametrize("command", ["leaderboard", "quality", "tasks"])
def test_input_format_is_accepted_as_export_spells_it(capsys, command):
    # `export --format` is the output's format, so export names the input's --input-format; every command takes that
    # name too (and --format stays), so one spelling works across a pipeline
    for flag in ("--format", "--input-format"):
        assert main([command, DATA, flag, "csv", "--output", "json"]) == 0
        assert capsys.readouterr().out.startswith("{")
    assert main(["leaderboard", DATA, "--input-format", "helm"]) == 2
    assert "helm" in capsys.readouterr().err.lower()


@pytest.mark.parametrize("argv", [
    ["compare", DATA, "--models", "a", "b", "--b", "0.5"],  # was read as --binarize-threshold 0.5
    ["leaderboard", DATA, "--out", "json"],
    ["workspace", "list", "--out", "json"],  # the nested actions too
])
def test_options_only_by_their_full_names(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unrecognized arguments: --") and err.count("\n") == 1


def test_compare_takes_its_two_models_either_way(capsys):
    """QA: `compare --models A,B` (the form --models takes on other commands) failed with argparse's "expected 2
    arguments"; both forms give the same report, and a wrong count says how to write them."""
    import json

    outputs = []
    for models in (["o3-mini (high),o1 (medium)"], ["o3-mini (high)", "o1 (medium)"]):
        assert main(["compare", DATA, "--models", *models, "--output", "json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] and outputs[0]["a"]["model"] == "o3-mini (high)"
    for models in (["o1 (medium)"], ["a", "b", "c"], ["a,"]):
        assert main(["compare", DATA, "--models", *models]) == 2
        assert "--models takes two model names: --models A B" in capsys.readouterr().err


def test_export_refuses_to_write_over_its_input(tmp_path, capsys):
    """QA: `export a.csv --format md --out a.csv` replaced the dataset with Markdown (rc 0, "wrote a.csv")."""
    import shutil

    data = tmp_path / "a.csv"
    shutil.copy(DATA, data)
    before = data.read_bytes()
    assert main(["export", str(data), "--format", "md", "--out", str(tmp_path / "." / "a.csv")]) == 2
    assert "is one of the input files" in capsys.readouterr().err and data.read_bytes() == before
    assert main(["export", str(data), "--format", "md", "--out", str(tmp_path / "a.md")]) == 0
