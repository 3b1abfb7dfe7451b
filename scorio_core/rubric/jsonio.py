"""Rubric schemas as versioned JSON documents, and schema resolution by name or file.

Document (version 1)::

    {
      "format": "scorio-rubric", "version": 1,
      "name": "My rubric", "description": "...", "source": "...",
      "thresholds": [{"name": "tau_high", "percentile": 40, "of": "completion_bpt"},
                     {"name": "tau_low_wrong", "percentile": 60, "of": "completion_bpt",
                      "where": "wrong"},
                     {"name": "tau_A", "value": 0.6}],
      "variables": [{"name": "wrong", "condition": "is_correct < 0.5"}],
      "categories": [{"label": "wrong", "condition": "wrong", "weight": 0},
                     {"label": "correct", "condition": "not wrong", "weight": 1}]
    }

``thresholds`` and ``variables`` may also be written as objects (``{"tau_A": 0.6}``,
``{"wrong": "is_correct < 0.5"}``); ``description`` fields are optional everywhere.
Documents are limited to 1 MB; unknown keys and versions are errors, never ignored.
"""

from __future__ import annotations

import json
import os
from difflib import get_close_matches
from pathlib import Path

from scorio_core.errors import InputError
from scorio_core.rubric.builtins import _BY_KEY, _key, get_schema
from scorio_core.rubric.schema import Category, Schema, Threshold, Variable

__all__ = [
    "FORMAT",
    "MAX_DOCUMENT_BYTES",
    "VERSION",
    "load_schema",
    "resolve_schema",
    "schema_from_json",
    "schema_to_dict",
    "schema_to_json",
]

FORMAT = "scorio-rubric"
VERSION = 1
MAX_DOCUMENT_BYTES = 1_000_000
_TOP = ("format", "version", "name", "description", "source", "thresholds", "variables", "categories")
_KEYS = {
    "thresholds": ("name", "value", "percentile", "of", "where", "description"),
    "variables": ("name", "condition", "description"),
    "categories": ("label", "condition", "weight", "description"),
}
_REQUIRED = {"thresholds": ("name",), "variables": ("name", "condition"),
             "categories": ("label", "condition", "weight")}


def schema_to_dict(schema: Schema) -> dict:
    """The JSON-ready document of a schema (lists, defaults left out)."""
    thresholds = []
    for t in schema.thresholds:
        item: dict = {"name": t.name}
        if t.kind == "absolute":
            item["value"] = t.value
        else:
            item.update(percentile=t.percentile, of=t.of)
            if t.where is not None:
                item["where"] = t.where
        if t.description:
            item["description"] = t.description
        thresholds.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": schema.name,
        "description": schema.description,
        "source": schema.source,
        "thresholds": thresholds,
        "variables": [_drop_empty({"name": v.name, "condition": v.condition, "description": v.description})
                      for v in schema.variables],
        "categories": [_drop_empty({"label": c.label, "condition": c.condition, "weight": c.weight,
                                    "description": c.description}) for c in schema.categories],
    }


def _drop_empty(item: dict) -> dict:
    return {k: v for k, v in item.items() if not (k == "description" and not v)}


def schema_to_json(schema: Schema, indent: int | None = 2) -> str:
    """Serialize a schema to a version-1 JSON document (text).

    >>> from scorio_core.rubric.builtins import get_schema
    >>> schema_from_json(schema_to_json(get_schema("Format Aware"))) == get_schema("Format Aware")
    True
    """
    return json.dumps(schema_to_dict(schema), indent=indent, ensure_ascii=False, allow_nan=False)


def schema_from_json(document, source: str | None = None) -> Schema:
    """Read a schema from a JSON document (text, bytes or already-parsed dict).

    Parameters
    ----------
    document : str, bytes or dict
        A version-1 ``scorio-rubric`` document, at most 1 MB of text.
    source : str, optional
        File name, for error messages.

    Raises
    ------
    InputError
        For invalid JSON, a missing or wrong ``format``, an unsupported ``version``, unknown
        keys (with suggestions), or any invalid name, condition, weight or threshold.
    """
    if isinstance(document, (bytes, bytearray)):
        if len(document) > MAX_DOCUMENT_BYTES:
            raise _too_big(len(document), source)
        try:
            document = bytes(document).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"rubric document is not UTF-8 text ({exc.reason}).", source=source) from None
    if isinstance(document, str):
        if len(document.encode("utf-8")) > MAX_DOCUMENT_BYTES:
            raise _too_big(len(document.encode("utf-8")), source)
        try:
            document = json.loads(document)
        except json.JSONDecodeError as exc:
            raise InputError(f"rubric document is not valid JSON: {exc.msg}.", source=source,
                             line=exc.lineno) from None
        except RecursionError:
            raise InputError("rubric document is nested too deeply.", source=source) from None
    if not isinstance(document, dict):
        raise InputError(f"a rubric document must be a JSON object; got {type(document).__name__}.",
                         source=source)
    try:
        return _build(document, source)
    except InputError as err:
        raise err.with_source(source) if source else err from None


def _too_big(size: int, source: str | None) -> InputError:
    return InputError(f"rubric document is {size:,} bytes; the limit is {MAX_DOCUMENT_BYTES:,}.",
                      source=source)


def _check_keys(item: dict, allowed, where: str) -> None:
    for key in item:
        if key not in allowed:
            close = get_close_matches(str(key), list(allowed), n=1, cutoff=0.6)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise InputError(f"{where}: unknown key {key!r}.{hint} Allowed: {', '.join(allowed)}.",
                             field=str(key))


def _build(doc: dict, source: str | None = None) -> Schema:
    if doc.get("format") != FORMAT:
        raise InputError(f"not a rubric document: 'format' must be {FORMAT!r}; got {doc.get('format')!r}.",
                         field="format")
    version = doc.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise InputError(f"unsupported rubric document version {version!r}; this version of "
                         f"scorio-dashboard reads version {VERSION}.", field="version")
    _check_keys(doc, _TOP, "rubric document")
    parts = {}
    for section, cls in (("thresholds", Threshold), ("variables", Variable), ("categories", Category)):
        raw = doc.get(section, [])
        if isinstance(raw, dict) and section != "categories":
            raw = [_short_form(section, name, spec) for name, spec in raw.items()]
        if not isinstance(raw, list):
            raise InputError(f"'{section}' must be a list; got {type(raw).__name__}.", field=section)
        items = []
        for i, item in enumerate(raw):
            where = f"{section}[{i}]"
            if not isinstance(item, dict):
                raise InputError(f"{where} must be an object; got {type(item).__name__}.", field=where)
            _check_keys(item, _KEYS[section], where)
            missing = [k for k in _REQUIRED[section] if k not in item]
            if missing:
                raise InputError(f"{where} is missing {', '.join(map(repr, missing))}.", field=where)
            try:
                items.append(cls(**item))
            except InputError as err:
                raise InputError(f"{where}: {err.message}", field=where) from None
        parts[section] = items
    return Schema(doc.get("name", ""), parts["categories"], parts["variables"], parts["thresholds"],
                  doc.get("description", ""), doc.get("source", ""), origin=str(source or "")[:255])


def _short_form(section: str, name, spec) -> dict:
    if section == "variables":
        return {"name": name, "condition": spec} if isinstance(spec, str) else {"name": name, **_as_dict(spec)}
    if isinstance(spec, (int, float)) and not isinstance(spec, bool):
        return {"name": name, "value": spec}
    return {"name": name, **_as_dict(spec)}


def _as_dict(spec) -> dict:
    if not isinstance(spec, dict):
        raise InputError(f"expected an object; got {spec!r:.60}.")
    return spec


def load_schema(path) -> Schema:
    """Read a rubric JSON file (at most 1 MB)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise _too_big(size, path.name)
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read rubric file: {exc.strerror or exc}.", source=path.name) from None
    return schema_from_json(data, source=path.name)


def resolve_schema(spec) -> Schema:
    """A :class:`Schema` from a schema, a built-in name, a JSON file path, JSON text or a dict.

    Built-in names win over files; a string ending in ``.json`` or naming an existing
    file is read as a file; a string starting with ``{`` is parsed as a document.

    >>> resolve_schema("Binary correctness").labels
    ('wrong', 'correct')
    """
    if isinstance(spec, Schema):
        return spec
    if isinstance(spec, dict):
        return schema_from_json(spec)
    if isinstance(spec, os.PathLike):
        return load_schema(spec)
    if not isinstance(spec, str):
        raise InputError(f"schema must be a Schema, a name, a JSON path or a dict; got {type(spec).__name__}.")
    if _key(spec) in _BY_KEY:
        return get_schema(spec)
    text = spec.strip()
    if text.startswith("{"):
        return schema_from_json(text)
    if text.lower().endswith(".json") or os.path.isfile(text):
        return load_schema(text)
    return get_schema(spec)  # unknown: raises with suggestions
