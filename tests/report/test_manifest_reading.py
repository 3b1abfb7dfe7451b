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
