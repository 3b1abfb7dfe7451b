"""A folder uploaded in the browser (``roots.uploaded_folder``): written below a private temporary folder part by
part, then read as the same folder on disk is, so folders keep naming models and runs; unsafe names refused."""

from __future__ import annotations

import json

import pytest

from scorio_core.errors import InputError
from scorio_core.io import roots
from tests.io.test_aider import result
from tests.io.test_swebench_instances import entry


def _files(tmp_path, top):
    """Every file below ``top`` as the browser sends a folder: (path inside the chosen folder, bytes)."""
    return [(p.relative_to(top.parent).as_posix(), p.read_bytes()) for p in sorted(top.rglob("*")) if p.is_file()]


def _open(files, mapping=None):
    with roots.uploaded_folder(files) as (root, pattern):
        dataset, engine, stored = roots.load_matches(roots.resolve_in_root(root, pattern), mapping=mapping)
        where = root.path
    assert not where.exists()  # removed once read
    return pattern, dataset, stored


def test_a_swebench_logs_folder_reads_as_on_disk(tmp_path):
    from tests.io.test_swebench_instances import IDS, write_run

    write_run(tmp_path, "r1", "gpt-4o", {IDS[0]: entry(True), IDS[1]: entry(False)})
    write_run(tmp_path, "r1", "claude", {IDS[0]: entry(False), IDS[1]: entry(True)})
    pattern, dataset, stored = _open(_files(tmp_path, tmp_path / "logs"))
    assert pattern == "logs"
    assert sorted(dataset.attempts["model"].astype(str).unique()) == ["claude", "gpt-4o"]
    assert len(stored) == 1 and stored[0][0].endswith(".attempts.parquet")  # the rows, with their model names


def test_an_aider_run_and_model_folders(tmp_path):
    from tests.io.test_aider import write_run

    write_run(tmp_path / "tmp.benchmarks", "2024-12-21--gpt4o", {("python", "grep"): result("grep", [False, True])})
    _, dataset, _ = _open(_files(tmp_path, tmp_path / "tmp.benchmarks"))
    assert dataset.attempts["model"].astype(str).tolist() == ["gpt-4o (diff)"]
    assert dataset.attempts["question_id"].astype(str).tolist() == ["python/grep"]
    # files of no shared top folder: one folder per model, named by --map model=@folder
    files = [(f"{m}/aime.csv", f"question,trial,correct\nq1,0,{c}\nq2,0,1\n".encode()) for m, c in (("gpt", 1), ("o3", 0))]
    pattern, dataset, _ = _open(files, mapping={"model": "@folder"})
    assert pattern == roots.UPLOADED and sorted(dataset.attempts["model"].astype(str).unique()) == ["gpt", "o3"]


@pytest.mark.parametrize("name", ["../x.csv", "/etc/passwd", "a/../../x.csv", "a//b.csv", "./a.csv", "a/\x00.csv",
                                  "", "a\\..\\..\\x.csv", "a/" + "n" * 256 + ".csv"])
def test_unsafe_paths_are_refused_before_anything_is_written(name):
    with pytest.raises(InputError, match="not a plain path inside the folder"):
        with roots.uploaded_folder([("ok/a.csv", b"x"), (name, b"model,question,correct\nm,q,1\n")]):
            pass


def test_nothing_twice_and_not_too_many():
    with pytest.raises(InputError, match="uploaded twice"):
        with roots.uploaded_folder([("d/a.csv", b"1"), ("d/a.csv", b"2")]):
            pass
    with pytest.raises(InputError, match="no files"):
        with roots.uploaded_folder([]):
            pass
    with pytest.raises(InputError, match="holds no data files"):  # logs alone
        with roots.uploaded_folder([("run/a.log", b"x"), ("run/.hidden.json", b"{}")]):
            pass
    with pytest.raises(InputError, match="upload a sub-folder"):
        with roots.uploaded_folder([(f"d/{i}.csv", b"") for i in range(roots.MAX_MATCHES + 1)]):
            pass


def test_the_data_files_only(tmp_path):
    """Logs, scripts and hidden files in the folder are not read, as a server folder's are not (nor written: only data
    file names are)."""
    files = [("run/gpt.csv", b"question,trial,correct\nq1,0,1\n"), ("run/run.log", b"INFO started"),
             ("run/eval.sh", b"#!/bin/sh\n"), ("run/.DS_Store", b"\x00\x01"), ("run/notes.md", json.dumps({}).encode())]
    _, dataset, stored = _open(files)
    assert [n for n, _ in stored] == ["run/gpt.csv"] and len(dataset.attempts) == 1


def test_any_name_is_refused_or_written_inside_the_temporary_folder():
    """Property: whatever path the browser sends, the file is refused or lands below the temporary folder."""
    from hypothesis import given, settings, strategies as st

    parts = st.sampled_from(["a", "b.csv", "..", ".", "", "/", "\\", "\x00", "~", "c:", " ", "é", "..."])

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(parts, min_size=1, max_size=6).map("".join))
    def check(name):
        try:
            with roots.uploaded_folder([(name + ".csv", b"x")]) as (root, pattern):
                written = [p.resolve() for p in root.path.rglob("*") if p.is_file()]
                hidden = (name + ".csv").replace("\\", "/").rsplit("/", 1)[-1].startswith(".")  # hidden: not data
                assert len(written) == (0 if hidden else 1) and all(p.is_relative_to(root.path) for p in written)
                assert pattern
        except InputError as exc:
            assert exc.field == "path"

    check()


def test_several_helm_runs_are_stored_as_rows_so_a_reload_reads_them_again():
    """HELM run folders group their files by folder; the stored files have none (every run has a
    per_instance_stats.json), so the rows are stored, and reading them back gives the same attempts. The same holds for
    several HELM runs opened from the server (this used to fail on reload: 'several per_instance_stats.json uploads')."""
    from pathlib import Path

    from scorio_core import io

    top = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "helm"
    _, dataset, stored = _open(_files(None, top))
    assert [s.format for s in dataset.sources] == ["helm"] * 3 and [n for n, _ in stored] == ["helm.attempts.parquet"]
    cols = ["model", "task", "question_id", "trial", "is_correct"]
    key = lambda t: t[cols].astype({"model": str, "task": str, "question_id": str}).sort_values(cols).reset_index(drop=True)
    assert key(io.load(stored).attempts).equals(key(dataset.attempts))
