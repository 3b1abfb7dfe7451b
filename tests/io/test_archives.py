"""Archives of an output folder (``qwen3-8b.zip``, ``outputs.tar.gz``) read as the folder they hold, named after the
archive, on the command line and in the app's upload form.

Found before (2026-12-05): a .zip of an output folder was refused ("the zip archive is neither an Inspect .eval log
... unzip it and load the files inside") and a .tar.gz read as one gzip-compressed file."""

from __future__ import annotations

import io as _io
import json
import tarfile
import zipfile

import pytest

from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.io._gzip import archive_files
from tests.io.test_nemo_skills import write_output_dir


def _zip(members) -> bytes:
    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def _tgz(members) -> bytes:
    buf = _io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, _io.BytesIO(data))
    return buf.getvalue()


def _members(folder, strip):
    return [(p.relative_to(strip).as_posix(), p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()]


@pytest.mark.parametrize("suffix, pack, prefix", [(".zip", _zip, ""), (".tar.gz", _tgz, "./"), (".tgz", _tgz, "")])
def test_an_archive_of_an_output_folder_on_the_command_line(tmp_path, capsys, suffix, pack, prefix):
    base = write_output_dir(tmp_path / "src")
    # made from inside the model's folder (zip -r ../qwen3-8b.zip .): the archive's name is the model's
    members = [(prefix + n, d) for n, d in _members(base / "qwen3-8b", base / "qwen3-8b")]
    members += [("__MACOSX/eval-results/._metrics.json", b"\x00\x05"), (prefix + "eval-results/aime25/._x.jsonl", b"\0")]
    archive = tmp_path / f"qwen3-8b{suffix}"
    archive.write_bytes(pack(members))
    assert main(["leaderboard", str(archive), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, as tests/io/test_nemo_skills.py: 8 of 12 trials, mean of (c + 1) / 6 = 11/18
    assert [(r["model"], r["task"]) for r in rows] == [("qwen3-8b", "aime25")]
    assert rows[0]["avg"] == pytest.approx(8 / 12) and rows[0]["mu"] == pytest.approx(11 / 18)


def test_archive_files_names_and_limits(tmp_path, monkeypatch):
    assert archive_files("x.csv", b"a,b\n") is None and archive_files("log.eval", _zip([("header.json", b"{}")])) is None
    got = archive_files("runs.zip", _zip([("a/b.csv", b"1"), ("a/", b""), ("__MACOSX/a/._b.csv", b"\0")]))
    assert got == [("runs/a/b.csv", b"1")]
    with pytest.raises(InputError, match="cannot open the archive"):
        archive_files("broken.zip", b"PK\x03\x04 not really")
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", "1000")
    with pytest.raises(InputError, match="SCORIO_MAX_DECOMPRESSED_BYTES"):
        archive_files("big.zip", _zip([("a.csv", b"0" * 5000)]))


def test_a_member_outside_the_folder_is_refused_by_name(tmp_path, capsys):
    archive = tmp_path / "evil.zip"
    archive.write_bytes(_zip([("../../x.csv", b"model,question_id,correct\nm,q,1\n")]))
    assert main(["leaderboard", str(archive), "--output", "json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith("evil.zip") and "not a plain path inside the folder" in error
    assert not (tmp_path.parent / "x.csv").exists()
