"""Server-side data roots (issue 15): paths stay inside configured folders; large tables go through DuckDB."""

from __future__ import annotations

import io as bytes_io
import os

import pandas as pd
import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io import roots


def _csv(path, models=("a", "b"), questions=4, trials=3):
    rows = [(m, f"q{q}", t, (q + t + i) % 2) for i, m in enumerate(models) for q in range(questions) for t in range(trials)]
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"]).to_csv(path, index=False)
    return path


@pytest.fixture
def root(tmp_path):
    base = tmp_path / "evals"
    _csv(base / "runs" / "r1" / "part-1.csv", models=("a",))
    _csv(base / "runs" / "r2" / "part-2.csv", models=("b",))
    _csv(tmp_path / "secret" / "other.csv")
    (base / "escape").symlink_to(tmp_path / "secret")
    return roots.data_roots(str(base))[0]


def test_roots_come_from_the_environment_and_skip_missing_folders(tmp_path, monkeypatch):
    (tmp_path / "x").mkdir()
    monkeypatch.setenv(roots.ENV, os.pathsep.join([str(tmp_path / "x"), str(tmp_path / "missing"), ""]))
    assert [r.path for r in roots.data_roots()] == [(tmp_path / "x").resolve()]
    monkeypatch.delenv(roots.ENV)
    assert roots.data_roots() == []


def test_globs_folders_and_files_resolve_inside_the_root(root):
    assert roots.resolve_in_root(root, "runs/**/*.csv").relative() == ["runs/r1/part-1.csv", "runs/r2/part-2.csv"]
    assert roots.resolve_in_root(root, "runs/r2").relative() == ["runs/r2/part-2.csv"]
    one = roots.resolve_in_root(root, "runs/r1/part-1.csv")
    assert one.relative() == ["runs/r1/part-1.csv"] and one.total_bytes == one.files[0].stat().st_size


def test_a_folder_gives_its_data_files_as_the_cli_does(root):
    """A folder's logs, scripts and diffs beside the data are not read (the CLI's folder expansion skips them too);
    a glob still matches what it names."""
    folder = root.path / "runs" / "r1"
    for name in ("run.log", "eval.sh", "patch.diff", ".hidden.csv"):
        (folder / name).write_text("x")
    assert roots.resolve_in_root(root, "runs/r1").relative() == ["runs/r1/part-1.csv"]
    assert roots.resolve_in_root(root, "runs/r1/*.log").relative() == ["runs/r1/run.log"]
    (root.path / "logs").mkdir()
    (root.path / "logs" / "run.log").write_text("x")
    with pytest.raises(InputError, match=r"matches no file .*\(1 file without a data suffix"):
        roots.resolve_in_root(root, "logs")


@pytest.mark.parametrize("pattern, message", [
    ("/etc/passwd", "relative to the data folder"),
    ("~/x.csv", "relative to the data folder"),
    ("runs/../../secret/other.csv", "'..' is not allowed"),
    ("runs/\x00x", "control characters"),
    ("", "type a path"),
    ("x" * 600, "longer than"),
    ("runs/*.parquet", "matches no file"),
    ("nothing.csv", "does not exist"),
    ("escape/other.csv", "points outside"),
    ("escape", "points outside"),
    ("*", "matches no file"),  # 'escape' (a folder link leading outside) is a match that is never entered
])
def test_paths_outside_the_root_or_matching_nothing_are_refused(root, pattern, message):
    with pytest.raises(InputError, match=message) as info:
        roots.resolve_in_root(root, pattern)
    assert info.value.field == "path"


def test_globs_do_not_enter_links_leading_outside_nor_name_what_is_there(root, tmp_path):
    # security QA finding 2: 'secret -> /etc' listed /etc's names in errors ("secret/passwd- points outside ...")
    assert roots.resolve_in_root(root, "**/*.csv").relative() == ["runs/r1/part-1.csv", "runs/r2/part-2.csv"]
    for pattern in ("e*/*.csv", "e*/oth*", "**/other.csv", "*/*"):
        with pytest.raises(InputError, match=r"matches no file .*\(1 symbolic link leading outside it was not followed\)"
                           ) as info:
            roots.resolve_in_root(root, pattern)
        assert "other" not in str(info.value).replace(repr(pattern), "") and str(tmp_path / "secret") not in str(info.value)
    (root.path / "runs" / "r1" / "leak.csv").symlink_to(tmp_path / "secret" / "other.csv")
    with pytest.raises(InputError, match=r"^'runs/r1/leak\.csv' is a symbolic link leading outside .*; it is not opened\.$"):
        roots.resolve_in_root(root, "runs/**/*.csv")


def test_links_inside_the_root_are_followed_and_loops_end(root):
    (root.path / "latest").symlink_to(root.path / "runs" / "r2")
    (root.path / "runs" / "r1" / "up").symlink_to(root.path / "runs")
    (root.path / "runs" / "self").symlink_to(".")
    assert roots.resolve_in_root(root, "latest/*.csv").relative() == ["runs/r2/part-2.csv"]
    assert roots.resolve_in_root(root, "latest").relative() == ["runs/r2/part-2.csv"]
    assert roots.resolve_in_root(root, "**/*.csv").relative() == ["runs/r1/part-1.csv", "runs/r2/part-2.csv"]
    with pytest.raises(InputError, match="matches no file"):  # walked forever through the loops before
        roots.resolve_in_root(root, "**/**/**/*.nomatch")


def test_entries_walked_are_bounded_even_when_nothing_matches(root, monkeypatch):
    for i in range(50):
        (root.path / "runs" / f"f{i}.txt").write_text("x")
    monkeypatch.setattr(roots, "MAX_VISITED", 40)
    with pytest.raises(InputError, match=r"walks more than 40 files and folders under .*; narrow it") as info:
        roots.resolve_in_root(root, "**/*.nomatch")
    assert info.value.field == "path"
    monkeypatch.setattr(roots, "MAX_VISITED", 10_000)
    monkeypatch.setattr(roots, "MAX_WALK_SECONDS", 0.0)
    for i in range(1000):
        (root.path / "runs" / f"g{i}.txt").write_text("x")
    with pytest.raises(InputError, match=r"took more than 0 s to walk"):
        roots.resolve_in_root(root, "**/*.nomatch")


def test_too_many_matches_are_refused(root, monkeypatch):
    monkeypatch.setattr(roots, "MAX_MATCHES", 1)
    with pytest.raises(InputError, match="more than 1 files"):
        roots.resolve_in_root(root, "runs/**/*.csv")


def test_small_tables_load_as_uploads_and_large_ones_as_duckdb_counts(root):
    matches = roots.resolve_in_root(root, "runs/**/*.csv")
    small, engine, files = roots.load_matches(matches)
    assert engine == "pandas" and small.attempts is not None
    assert [name for name, _ in files] == matches.relative()
    large, engine, files = roots.load_matches(matches, threshold=0)
    assert engine == "duckdb" and large.attempts is None
    (name, data), = files
    assert name == "part-1.counts.parquet"
    reread = io.load([(name, data)])
    pd.testing.assert_frame_equal(reread.counts.astype({"model": str, "question_id": str, "task": str}),
                                  large.counts.astype({"model": str, "question_id": str, "task": str}))
    want = small.attempts.groupby(["model", "question_id"], observed=True)["is_correct"].agg(["size", "sum"])
    got = large.counts.set_index(["model", "question_id"])[["n_trials", "n_correct"]]
    assert (got.sort_index().to_numpy() == want.sort_index().to_numpy()).all()
    assert len(pd.read_parquet(bytes_io.BytesIO(data))) == 8  # 2 models x 4 questions
    # the trial order is kept as prefix counts; part-1 and part-2 hold one model each answering the same questions:
    # one task named by the stems' common prefix, as the pandas loader reads them (small and large loads agree)
    kept = large.trial_prefix
    assert set(kept) == set(small.attempts["task"].astype(str)) == {"part"}
    assert sum(s.final.count.sum() for s in kept.values()) == 8
    assert int(kept["part"].live.count.sum()) == 2 * 4 * 3  # 2 models x 4 questions x 3 trials
