"""How the files of an analysis were read on the user's word, as an analysis manifest records it (``data.reading``).

The same bytes read through another column (``--map``), with another recoding of text labels (``--recode``) or on
another outcome scale (``--outcome-scale``), or with errored attempts read as missing (``--errors-as-missing``) give
other numbers. A manifest records the per-file mapping (what each
file was read as, compared on restore: :func:`scorio_core.report.manifest.source_mismatches`) and, since
2026-12-04, the options themselves (:func:`reading_record`), so ``export --manifest`` given none of them reads the
files as recorded (:func:`reading_flags`) instead of refusing.

Format: ``{"map": {FIELD: COLUMN}, "recode": {LABEL: number or "missing"}, "outcome_scale": number,
"errors_as_missing": true}``, each key only when given.
"""

from __future__ import annotations

import math
import shlex

from scorio_core.errors import InputError

__all__ = ["reading_flags", "reading_record", "check_reading", "reading_text", "command_reading", "restore_reading",
           "reading_json", "dataset_reading", "reading_words"]


def reading_record(mapping=None, recode=None, outcome_scale=None, errors_as_missing: bool = False) -> dict:
    """The manifest's ``data.reading``: the user's column overrides, outcome recoding and outcome scale.

    Parameters
    ----------
    mapping : dict of str to str, optional
        ``--map`` overrides ``{FIELD: COLUMN}`` (``"none"`` un-maps).
    recode : dict of str to float or None, optional
        :func:`scorio_core.io.parse_recoding`'s result (None: read as missing).
    outcome_scale : float, optional
    errors_as_missing : bool

    >>> reading_record({"is_correct": "strict"}, {"pass": 1.0, "error": None}, 100.0)
    {'map': {'is_correct': 'strict'}, 'recode': {'pass': 1.0, 'error': 'missing'}, 'outcome_scale': 100.0}
    >>> reading_record()
    {}
    """
    out: dict = {}
    if mapping:
        out["map"] = {str(k): str(v) for k, v in dict(mapping).items()}
    if recode:
        out["recode"] = {str(k): ("missing" if v is None else float(v)) for k, v in dict(recode).items()}
    if outcome_scale is not None:
        out["outcome_scale"] = float(outcome_scale)
    if errors_as_missing:
        out["errors_as_missing"] = True
    return out


def reading_json(reading: dict) -> str:
    """:func:`reading_record`'s result as the JSON text a dataset's report keeps (``QualityReport.reading``); ``""``
    when empty.

    >>> reading_json({"outcome_scale": 100.0}), reading_json({})
    ('{"outcome_scale":100.0}', '')
    """
    import json

    return json.dumps(reading, sort_keys=True, separators=(",", ":")) if reading else ""


def dataset_reading(report) -> dict:
    """How a dataset's files were read on the user's word (``report.reading``, :func:`reading_json`), as a manifest's
    ``data.reading``; ``{}`` for files read as found (and for datasets stored before 2026-12-04, which kept none).

    Raises
    ------
    InputError
        A damaged record (not JSON, or of the wrong shape).
    """
    import json

    text = getattr(report, "reading", "") or ""
    try:
        doc = json.loads(text) if text else {}
    except json.JSONDecodeError:
        raise InputError("the dataset's record of how its files were read is damaged; load the files again.",
                         field="reading") from None
    return check_reading(doc)


def check_reading(reading) -> dict:
    """A manifest's ``data.reading`` checked for shape (values are checked again when the files are read).

    Raises
    ------
    InputError
        Not an object, an unknown key, or a value of the wrong type (``field="reading"``).
    """
    if reading is None:
        return {}
    if not isinstance(reading, dict):
        raise InputError("data: 'reading' must be an object.", field="reading")
    for key, value in reading.items():
        if key == "map":
            ok = isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
        elif key == "recode":
            ok = isinstance(value, dict) and all(isinstance(k, str) and (_number(v) or v == "missing")
                                                 for k, v in value.items())
        elif key == "outcome_scale":
            ok = _number(value)
        elif key == "errors_as_missing":
            ok = isinstance(value, bool)
        else:
            raise InputError(f"data.reading: unknown key {key!r}; allowed: map, recode, outcome_scale, "
                             "errors_as_missing.", field="reading")
        if not ok:
            raise InputError(f"data.reading: {key!r} has the wrong type; got {value!r:.60}.", field="reading")
    return dict(reading)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def reading_flags(reading: dict) -> tuple[list[str], list[str], float | None, bool | None]:
    """``(--map items, --recode items, --outcome-scale, --errors-as-missing)`` that read the files as ``reading``
    records (None: the option not given).

    >>> reading_flags({"map": {"is_correct": "strict"}, "recode": {"pass": 1.0, "error": "missing"}})
    (['is_correct=strict'], ['pass=1', 'error=missing'], None, None)
    """
    mapping = [f"{k}={v}" for k, v in (reading.get("map") or {}).items()]
    recode = [f"{k}={v if isinstance(v, str) else format(v, 'g')}" for k, v in (reading.get("recode") or {}).items()]
    scale = reading.get("outcome_scale")
    return mapping, recode, (None if scale is None else float(scale)), (True if reading.get("errors_as_missing") else None)


def reading_words(reading: dict) -> str:
    """``reading`` in words, for a report's settings (a reader who never typed the options).

    >>> reading_words({"map": {"is_correct": "score"}, "recode": {"pass": 1.0, "error": "missing"},
    ...                "outcome_scale": 100.0, "errors_as_missing": True})
    'columns: is_correct <- score; outcome labels recoded: pass = 1, error = missing; outcomes divided by 100 (the outcome scale); attempts with an error read as missing'
    >>> reading_words({"map": {"question_id": "@columns", "task": "@folder"}})
    "columns: question_id <- every other column (a response matrix), task <- the file's folder"
    >>> reading_words({"map": {"model": "@folder:2"}})
    "columns: model <- the file's folder, 2 levels up"
    """
    mapping, recode, scale, errors = reading_flags(reading)
    shown = [_column_words(*m.split("=", 1)) for m in mapping]
    words = [f"columns: {', '.join(shown)}"] if mapping else []
    words += [f"outcome labels recoded: {', '.join(r.replace('=', ' = ', 1) for r in recode)}"] if recode else []
    words += [f"outcomes divided by {scale:g} (the outcome scale)"] if scale is not None else []
    return "; ".join(words + (["attempts with an error read as missing"] if errors else []))


def _column_words(field: str, value: str) -> str:
    """One ``--map FIELD=VALUE`` in words (``@columns``, ``@folder[:N]`` said; a column name as it is)."""
    level = value[len("@folder:"):] if value.startswith("@folder:") else "1" if value == "@folder" else None
    if value == "@columns":
        value = "every other column (a response matrix)"
    elif level is not None:
        value = "the file's folder" + (f", {level} levels up" if level != "1" else "")
    return f"{field} <- {value}"


def reading_text(reading: dict) -> str:
    """The command-line options of ``reading``, quoted for a shell.

    >>> reading_text({"recode": {"time out": "missing"}, "outcome_scale": 100.0})
    "--recode 'time out=missing' --outcome-scale 100"
    """
    mapping, recode, scale, errors = reading_flags(reading)
    words = [w for item in mapping for w in ("--map", item)] + [w for item in recode for w in ("--recode", item)]
    words += (["--outcome-scale", format(scale, "g")] if scale is not None else []) + (["--errors-as-missing"] * bool(errors))
    return shlex.join(words)


def command_reading(args) -> dict:
    """:func:`reading_record` of a command's ``--map``, ``--recode`` and ``--outcome-scale`` (already checked by the
    load that used them)."""
    from scorio_core.io.formats.user_recoding import parse_recoding

    items = (str(item).partition("=") for item in getattr(args, "mapping", None) or [])
    mapping = {k.strip(): v.strip() for k, _, v in items}
    return reading_record(mapping, parse_recoding(getattr(args, "recode", None)), getattr(args, "outcome_scale", None),
                          bool(getattr(args, "errors_as_missing", None)))


def restore_reading(args, reading: dict) -> None:
    """Read the files as a manifest's ``reading`` records when the command line gives none of ``--map``, ``--recode``,
    ``--outcome-scale``, ``--errors-as-missing`` (options given win); ``args.reading_notes`` then says so. The values are checked when the
    files are read, as if typed."""
    if reading and not (args.mapping or args.recode or args.outcome_scale is not None or args.errors_as_missing):
        args.mapping, args.recode, args.outcome_scale, args.errors_as_missing = reading_flags(reading)
        args.reading_notes = [{"code": "manifest_reading",
                               "message": f"Files read as the manifest records: {reading_text(reading)}."}]
