"""The one error type raised for bad user input (files, schemas, CLI arguments).

Every message names where the problem is (file, line or row, field) and what to do,
e.g. ``results.jsonl line 118: field 'is_correct' must be 0 or 1; got 'yes'.``
"""

from __future__ import annotations

import re

__all__ = ["InputError", "decimal_comma_hint"]


class InputError(ValueError):
    """Bad user input, located as precisely as the source allows.

    Parameters
    ----------
    message : str
        What is wrong and how to fix it, without the location prefix.
    source : str, optional
        File name (not the full path) the problem was found in.
    line : int, optional
        1-based line number (text formats such as JSONL).
    row : int, optional
        1-based data row number (tables; the header is not counted).
    field : str, optional
        Column or field name. Included in the rendered message by the caller's wording;
        kept here so the app can highlight the field.

    Examples
    --------
    >>> str(InputError("field 'is_correct' must be 0 or 1; got 'yes'.",
    ...                source="results.jsonl", line=118, field="is_correct"))
    "results.jsonl line 118: field 'is_correct' must be 0 or 1; got 'yes'."
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.row = row
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        elif self.row is not None:
            where.append(f"row {self.row}")
        prefix = " ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def with_source(self, source: str) -> "InputError":
        """Return a copy located in ``source`` (used when a reader does not know its file)."""
        return InputError(
            self.message, source=source, line=self.line, row=self.row, field=self.field
        )


def decimal_comma_hint(value: object) -> str:
    """A hint when a number was written with a decimal comma ('0,5'), which is read as text, not as 0.5.

    >>> decimal_comma_hint("0,5")
    " It looks like a decimal comma: write '0.5' (save the file with '.' as the decimal separator)."
    >>> decimal_comma_hint("1,000,000"), decimal_comma_hint("2,000"), decimal_comma_hint("abc")
    ('', '', '')
    """
    text = str(value).strip()
    match = re.fullmatch(r"[-+]?(\d+),(\d+)", text)
    if match is None or (match[1] not in ("0", "1") and len(match[2]) == 3):  # '2,000' may be a thousands separator
        return ""
    return f" It looks like a decimal comma: write '{text.replace(',', '.')}' (save the file with '.' as the decimal separator)."
