"""Spreadsheets (Excel ``.xlsx``, OpenDocument ``.ods``): each sheet with data read as the CSV table it would be saved as.

Results kept in a spreadsheet (one row per attempt, per question with counts, or a response matrix) load as they are:
pandas reads each sheet with the calamine engine (``python-calamine``, Rust; cached formula values, not formulas; 10x
openpyxl's speed on a 57,000-row sheet, 0.49 s against 4.82 s, same values), the sheet becomes the CSV text
"Save as CSV" would write, and the CSV reader does the rest, so every layout, mapping, recoding and refusal of a CSV
applies, and an error's line is the sheet's row. A workbook with one sheet of data is named by its file stem (the
task or model when the table has no such column), as a CSV is; with several, each sheet by its name
(``book.xlsx [gsm8k]``), so sheets per task or per model read as tasks or models.

Safety: the archive is rebuilt in memory from members read under the decompression budget
(:func:`scorio_core.io._gzip.zip_member`, ``SCORIO_MAX_DECOMPRESSED_BYTES``; declared sizes are not trusted) before
the engine sees it; no macro or formula is evaluated.
"""

from __future__ import annotations

import importlib.util
import io
import zipfile
from dataclasses import dataclass

from scorio_core.errors import InputError
from scorio_core.io._sources import Source

__all__ = ["ENGINE", "SheetSource", "workbook_sheets"]

#: pandas' spreadsheet engine (the ``python-calamine`` package).
ENGINE = "calamine"


@dataclass
class SheetSource(Source):
    """One sheet of a workbook as a CSV :class:`~scorio_core.io._sources.Source` (``raw`` holds the CSV bytes);
    ``sheet_stem`` is the stem a table without a task or model column takes."""

    sheet_stem: str = ""

    @property
    def stem(self) -> str:
        return self.sheet_stem or super().stem


def _rebuilt(src: Source) -> io.BytesIO:
    """The workbook's archive with every member read under the decompression budget, stored uncompressed."""
    from scorio_core.io._gzip import zip_member
    from scorio_core.limits import get_limits

    limits = get_limits()
    try:
        zf = zipfile.ZipFile(io.BytesIO(src.data()))
    except zipfile.BadZipFile as exc:
        raise InputError(f"the workbook is damaged or truncated ({exc}); save it again.", source=src.name) from None
    out, budget = io.BytesIO(), [limits.max_decompressed_bytes]
    with zf, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
        names = zf.namelist()
        if len(names) > limits.max_archive_members:
            raise InputError(f"the workbook has {len(names):,} parts, more than the limit of "
                             f"{limits.max_archive_members:,} (SCORIO_MAX_ARCHIVE_MEMBERS).", source=src.name)
        for member in names:
            try:
                copy.writestr(member, bytes(zip_member(zf, member, budget, src.name, "save the sheet as CSV")))
            except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
                raise InputError(f"the workbook's part {member} cannot be read ({exc}); save it again.",
                                 source=src.name) from None
    out.seek(0)
    return out


def workbook_sheets(src: Source) -> list[SheetSource]:
    """The sheets of an ``.xlsx`` or ``.ods`` workbook that hold data, each as CSV text.

    Parameters
    ----------
    src : Source
        The workbook.

    Returns
    -------
    list of SheetSource
        In the workbook's order; named ``<file> [<sheet>]`` when there are several, stem the sheet's name.

    Raises
    ------
    InputError
        A damaged workbook, one over the decompression or member limits, no sheet with data, or python-calamine
        missing.
    """
    import pandas as pd

    if importlib.util.find_spec("python_calamine") is None:  # pandas' spreadsheet engine
        raise InputError("reading spreadsheets needs the python-calamine package (pip install python-calamine), or save the sheet "
                         "as CSV UTF-8 (Excel: File > Save As > CSV UTF-8).", source=src.name)
    try:
        sheets = pd.read_excel(_rebuilt(src), sheet_name=None, header=None, dtype=object, engine=ENGINE)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - the engine raises many kinds for a broken workbook
        raise InputError(f"the workbook cannot be read ({type(exc).__name__}: {str(exc)[:160]}); save it again, or "
                         "save the sheet as CSV UTF-8.", source=src.name) from None
    data = {name: frame.dropna(how="all").dropna(axis=1, how="all") for name, frame in sheets.items()}
    data = {name: frame for name, frame in data.items() if len(frame)}
    if not data:
        raise InputError("the workbook has no sheet with data.", source=src.name)
    several = len(data) > 1
    out = []
    for name, frame in data.items():
        text = frame.to_csv(index=False, header=False, lineterminator="\n").encode("utf-8")
        label = f"{src.name} [{name}]" if several else src.name
        out.append(SheetSource(name=label, raw=text, sheet_stem=str(name) if several else src.stem))
    return out
