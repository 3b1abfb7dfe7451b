"""Spreadsheets (Excel .xlsx, OpenDocument .ods): each sheet with data read as its CSV would be (was: refused, "export
the sheet as CSV"). The workbooks are written by openpyxl (a test dependency; the loader reads with calamine), the
.ods by hand (its XML, as LibreOffice writes it)."""

from __future__ import annotations

import io as stdio
import json
import zipfile
from xml.sax.saxutils import escape

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

openpyxl = pytest.importorskip("openpyxl")


def workbook(sheets: dict[str, list[list]]) -> bytes:
    """An .xlsx written by openpyxl, one sheet per entry (rows as lists; the first row the header)."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buf = stdio.BytesIO()
    book.save(buf)
    return buf.getvalue()


LONG = [["model", "question", "trial", "correct"]] + [[m, f"q{q}", t, int((q + t + (m == "b")) % 3 == 0)]
                                                      for m in ("a", "b") for q in range(3) for t in range(2)]


def test_one_sheet_reads_as_its_csv():
    data = workbook({"Sheet1": LONG})
    assert io.detect_format(("results.xlsx", data)) == "xlsx"
    got = io.load([("results.xlsx", data)])
    csv = "\n".join(",".join(map(str, r)) for r in LONG).encode()
    want = io.load([("results.csv", csv)])
    cols = ["model", "task", "question_id", "trial", "is_correct"]
    assert got.attempts[cols].astype(str).values.tolist() == want.attempts[cols].astype(str).values.tolist()
    assert set(got.attempts["task"].astype(str)) == {"results"}  # the file stem, as for a CSV
    assert io.source_columns(("results.xlsx", data)) == ("model", "question", "trial", "correct")


def test_several_sheets_are_named_by_the_sheet(tmp_path, capsys):
    counts = [["model", "question_id", "n_trials", "n_correct"], ["a", "p1", 4, 3], ["a", "p2", 4, 1], ["b", "p1", 4, 4],
              ["b", "p2", 4, 0]]
    data = workbook({"gsm8k": LONG, "aime": counts, "notes": []})  # an empty sheet is skipped
    ds = io.load([("book.xlsx", data)])
    assert sorted(ds.counts["task"].astype(str).unique()) == ["aime", "gsm8k"]
    assert [s.name for s in ds.sources] == ["book.xlsx [gsm8k]", "book.xlsx [aime]"]
    path = tmp_path / "book.xlsx"
    path.write_bytes(data)
    assert main(["leaderboard", str(path), "--task", "aime", "--prior", "uniform", "--output", "json"]) == 0
    rows = {r["model"]: r["estimate"] for r in json.loads(capsys.readouterr().out)["rows"]}
    # by hand, uniform prior: a (4/6 + 2/6) / 2; b (5/6 + 1/6) / 2
    assert rows == pytest.approx({"a": 0.5, "b": 0.5}, abs=1e-12)


def ods(rows: list[list]) -> bytes:
    """A one-sheet OpenDocument spreadsheet: mimetype (stored, first), content.xml, the manifest."""
    def cell(v) -> str:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(v))}</text:p></table:table-cell>'

    body = "".join("<table:table-row>" + "".join(cell(v) for v in r) + "</table:table-row>" for r in rows)
    office = "urn:oasis:names:tc:opendocument:xmlns"
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{office}:office:1.0" '
               f'xmlns:table="{office}:table:1.0" xmlns:text="{office}:text:1.0" office:version="1.2"><office:body>'
               f'<office:spreadsheet><table:table table:name="Sheet1">{body}</table:table></office:spreadsheet>'
               '</office:body></office:document-content>')
    manifest = (f'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="{office}:manifest:1.0" '
                'manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>')
    buf = stdio.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        zf.writestr("META-INF/manifest.xml", manifest)
    return buf.getvalue()


def test_an_opendocument_spreadsheet_reads_as_the_workbook_does():
    data = ods(LONG)
    assert io.detect_format(("results.ods", data)) == "ods"
    got = io.load([("results.ods", data)])
    want = io.load([("results.xlsx", workbook({"Sheet1": LONG}))])
    cols = ["model", "task", "question_id", "trial", "is_correct"]
    assert got.attempts[cols].astype(str).values.tolist() == want.attempts[cols].astype(str).values.tolist()


def test_a_bad_cell_is_named_by_its_sheet_row():
    bad = [row[:] for row in LONG]
    bad[4][3] = "maybe"
    with pytest.raises(InputError, match=r"results.xlsx line 5: .*'maybe'"):
        io.load([("results.xlsx", workbook({"Sheet1": bad}))])


def test_a_workbook_bomb_is_refused(monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", "100000")
    buf = stdio.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/workbook.xml", "<workbook/>")
        zf.writestr("xl/sharedStrings.xml", b"\x20" * 5_000_000)  # 5 MB of spaces, a few kB compressed
    with pytest.raises(InputError, match="SCORIO_MAX_DECOMPRESSED_BYTES"):
        io.load([("bomb.xlsx", buf.getvalue())])
    with pytest.raises(InputError, match="no sheet with data"):
        monkeypatch.delenv("SCORIO_MAX_DECOMPRESSED_BYTES")
        io.load([("empty.xlsx", workbook({"Sheet1": []}))])
