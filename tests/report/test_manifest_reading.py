"""An analysis manifest records how each file was read (its column mapping and any outcome recoding).

The same bytes read through another column, or with another recoding, give other numbers; restoring a manifest
checked the files' SHA-256 only, so ``export --manifest`` without the ``--map`` it was made with ranked another
outcome without a word. Now the mapping is recorded per source and a restore read differently is refused, naming
both readings.
"""

from __future__ import annotations

import json

from scorio_core.cli import main
from scorio_core.report.manifest import read_manifest, source_mismatches
from scorio_core import io

# two outcome columns: 'correct' (found by name) and 'strict' (a stricter grader), which rank a and b apart
TWO_GRADERS = "model,question_id,trial,correct,strict\n" + "".join(
    f"{m},q{q},{t},{int(m == 'a' or (q + t) % 2 == 0)},{int(m == 'b' and (q + t) % 3 != 0)}\n"
    for m in ("a", "b") for q in range(6) for t in range(3))


def _manifest(tmp_path, capsys, path, *options):
    assert main(["export", str(path), "--format", "manifest", *options]) == 0
    doc = capsys.readouterr().out
    out = tmp_path / "m.json"
    out.write_text(doc)
    return out, json.loads(doc)


def test_restoring_without_the_mapping_it_was_made_with_is_refused(tmp_path, capsys):
    path = tmp_path / "graders.csv"
    path.write_text(TWO_GRADERS)
    manifest, doc = _manifest(tmp_path, capsys, path, "--map", "is_correct=strict")
    assert doc["data"]["sources"][0]["mapping"]["is_correct"] == "strict"
    del doc["data"]["reading"]  # a manifest that records the mapping only (written before 2026-12-04)
    manifest.write_text(json.dumps(doc))
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest)]) == 2
    err = capsys.readouterr().err
    assert "graders.csv was read with is_correct <- strict and here with is_correct <- correct" in err
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), "--map", "is_correct=strict"]) == 0
    restored = capsys.readouterr().out
    assert main(["export", str(path), "--format", "csv", "--map", "is_correct=strict"]) == 0
    assert restored == capsys.readouterr().out and restored.count("\n") == 3  # header and two models


def test_another_recoding_of_the_same_file_is_refused(tmp_path, capsys):
    path = tmp_path / "labels.csv"
    path.write_text("model,question_id,trial,correct\n" + "".join(
        f"{m},q{q},{t},{['fail', 'pass'][(q + t + i) % (2 + i) == 0]}\n"
        for i, m in enumerate("ab") for q in range(5) for t in range(2)))
    manifest, _ = _manifest(tmp_path, capsys, path, "--recode", "pass=1", "--recode", "fail=0")
    other = ["--recode", "pass=1", "--recode", "fail=0.5", "--binarize-threshold", "0.5"]
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), *other]) == 2
    assert "(recoded: 'fail' -> 0, 'pass' -> 1)" in capsys.readouterr().err
    same = ["--recode", "PASS=1", "--recode", "fail=0"]
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), *same]) == 0


def test_a_manifest_without_mappings_still_restores(tmp_path, capsys):
    """Manifests written before mappings were recorded compare SHA-256 only, as before."""
    path = tmp_path / "graders.csv"
    path.write_text(TWO_GRADERS)
    manifest, doc = _manifest(tmp_path, capsys, path)
    for source in doc["data"]["sources"]:
        del source["mapping"]
    old = read_manifest(json.dumps(doc).encode())
    assert source_mismatches(old, io.load(str(path)).sources) == []
    strict = io.load(str(path), mapping={"is_correct": "strict"}).sources
    assert source_mismatches(read_manifest(manifest.read_bytes()), strict)  # the recorded one tells them apart


def test_a_manifest_restores_the_reading_it_records(tmp_path, capsys):
    """Given none of --map/--recode/--outcome-scale, ``export --manifest`` reads the files as the manifest records
    (``data.reading``) and says so; options given on the command line still win (and are checked against it)."""
    path = tmp_path / "graders.csv"
    path.write_text(TWO_GRADERS)
    manifest, doc = _manifest(tmp_path, capsys, path, "--map", "is_correct=strict")
    assert doc["data"]["reading"] == {"map": {"is_correct": "strict"}}
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest)]) == 0
    out = capsys.readouterr()
    assert "# note: Files read as the manifest records: --map is_correct=strict." in out.err
    assert main(["export", str(path), "--format", "csv", "--map", "is_correct=strict"]) == 0
    assert out.out == capsys.readouterr().out  # the same table as read with the flag
    assert main(["export", str(path), "--format", "csv", "--manifest", str(manifest), "--map", "is_correct=correct"]) == 2
    assert "read with is_correct <- strict and here with is_correct <- correct" in capsys.readouterr().err


def test_a_recoding_and_a_scale_are_restored_too(tmp_path, capsys):
    path = tmp_path / "pct.csv"
    path.write_text("model,question_id,trial,score\n" + "".join(
        f"{m},q{q},{t},{['ERROR', 0, 100][(q + t + i) % 3]}\n" for i, m in enumerate("ab") for q in range(4) for t in range(2)))
    flags = ["--recode", "error=missing", "--missing-outcomes", "drop", "--outcome-scale", "100"]
    manifest, doc = _manifest(tmp_path, capsys, path, *flags)
    assert doc["data"]["reading"] == {"recode": {"error": "missing"}, "outcome_scale": 100.0}
    assert main(["export", str(path), "--format", "md", "--manifest", str(manifest)]) == 0
    restored = capsys.readouterr().out
    assert "Files read as the manifest records: --recode error=missing --outcome-scale 100." in restored
    assert main(["export", str(path), "--format", "md", *flags]) == 0
    fresh = capsys.readouterr().out
    said = "Files read as the manifest records"
    assert [line for line in restored.splitlines() if line.startswith("|") and said not in line] == [
        line for line in fresh.splitlines() if line.startswith("|")]  # the same rows and notes, and the reading said


def test_a_reading_of_the_wrong_shape_is_refused():
    import pytest

    from scorio_core.errors import InputError

    doc = json.loads(json.dumps({"format": "scorio-analysis", "version": 1, "task": "t",
                                 "data": {"key": "k", "sources": [], "reading": {"recode": {"pass": "yes"}}}}))
    with pytest.raises(InputError) as info:
        read_manifest(json.dumps(doc).encode())
    assert "data.reading: 'recode' has the wrong type" in str(info.value)
    doc["data"]["reading"] = {"columns": {}}
    with pytest.raises(InputError) as info:
        read_manifest(json.dumps(doc).encode())
    assert "unknown key 'columns'" in str(info.value)


def test_the_html_report_says_how_the_files_were_read(tmp_path, capsys):
    # a stakeholder reads the report, not the command line: the reading in words beside the files
    path = tmp_path / "pct.csv"
    path.write_text("model,question_id,trial,score\n" + "".join(
        f"{m},q{q},{t},{['ERROR', 0, 100][(q + t + i) % 3]}\n" for i, m in enumerate("ab") for q in range(4) for t in range(2)))
    assert main(["export", str(path), "--format", "html", "--recode", "error=missing", "--missing-outcomes", "drop",
                 "--outcome-scale", "100"]) == 0
    html = capsys.readouterr().out
    assert "Files read as" in html
    assert "outcome labels recoded: error = missing; outcomes divided by 100 (the outcome scale)" in html
    plain = tmp_path / "plain.csv"
    plain.write_text("model,question_id,trial,is_correct\na,q1,0,1\nb,q1,0,0\n")
    assert main(["export", str(plain), "--format", "html"]) == 0
    assert "Files read as" not in capsys.readouterr().out
