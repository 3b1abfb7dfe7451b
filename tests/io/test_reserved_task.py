"""A data task named 'all tasks' (the name of all tasks pooled) is refused at load with a clear error, by every engine
(before: pooling recursed into the task itself until Python's recursion limit, reported as "nested too deeply")."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError

BODY = ("model,task,question,trial,correct\n" + "".join(
    f"{m},{t},q{q},{r},{(q + r + len(m)) % 2}\n" for m in ("a", "b") for t in ("all tasks", "B") for q in range(3)
    for r in range(2)))


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "named.csv"
    p.write_text(BODY)
    return p


def test_pandas_loader_names_the_file_the_field_and_the_fix(path):
    with pytest.raises(InputError) as info:
        io.load([path])
    text = str(info.value)
    assert text.startswith("named.csv: a task is named 'all tasks', the name the dashboard and the CLI (--task) give")
    assert "rename that task in the file" in text and info.value.field == "task"


def test_other_task_names_load(tmp_path):
    p = tmp_path / "fine.csv"
    p.write_text(BODY.replace("all tasks", "all_tasks"))
    assert sorted(io.load([p]).attempts["task"].cat.categories) == ["B", "all_tasks"]


def test_duckdb_engine_refuses_it_too(path):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    with pytest.raises(InputError, match="a task is named 'all tasks'"):
        load_counts([path], engine="duckdb")


def test_cli_says_it_in_one_line(path, capsys):
    from scorio_core.cli import main

    assert main(["leaderboard", str(path)]) != 0
    err = capsys.readouterr().err
    assert "a task is named 'all tasks'" in err and "Traceback" not in err
