"""Analysis manifest: everything needed to reproduce a leaderboard, as versioned JSON.

A manifest records the data (dataset key, file names and SHA-256 of every source, the
data-quality choices), the task, the rubric schema (a ``scorio-rubric`` document), the
threshold values and whether they were frozen, the prior R0, the settings (metric, k, tau,
confidence, tie rule), the seeds of Monte Carlo views and the package versions. Loading it
again (app: Export page; CLI: ``export --manifest``) restores the analysis after checking
that the data has the same SHA-256.

Format (``format = "scorio-analysis"``, ``version = 1``)::

    {"format": "scorio-analysis", "version": 1, "created": "2026-01-01T00:00:00Z",
     "data": {"key": "...", "label": "...", "sources": [{"name", "format", "sha256", "rows",
              "layout", "mapping"}], "choices": {...}, "reading": {...}},
     "task": "...", "rubric": {...} | null,
     "thresholds": {"values": {...}, "frozen": false},
     "prior": null | {"kind": "dataset" | "model", "key": ..., "model": ..., "sources": [...]},
     "settings": {"metric": "bayes", "k": 1, "tau": 0.5, "confidence": 0.95, "tie_rule": "paper"},
     "seeds": {...}, "versions": {...}}

Two fields read alike and mean different things: top-level ``"prior"`` is the prior *counts* R0 taken from data
(the Rubric page's "prior from a dataset or model"; null: none), while ``settings.prior`` is the prior *family* of
every interval (``empirical-bayes``, ``uniform``, ``jeffreys``). ``"rubric": null`` means binary correctness (the
default rubric), not a missing one.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import platform
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from scorio_core.errors import InputError
from scorio_core.report.reading import check_reading

__all__ = [
    "FORMAT",
    "VERSION",
    "Manifest",
    "build_manifest",
    "manifest_to_json",
    "read_manifest",
    "source_mismatches",
    "package_versions",
]

FORMAT = "scorio-analysis"
VERSION = 1
MAX_BYTES = 2_000_000
_TOP = ("format", "version", "created", "data", "task", "rubric", "thresholds", "prior", "settings", "seeds", "versions")
_SETTINGS = {"metric": str, "k": int, "tau": float, "confidence": float, "tie_rule": str, "prior": str, "scope": str,
             "question_set": str, "max_tokens": (int, type(None)), "unmatched": str,
             "cluster_column": (str, type(None))}
#: Settings a manifest may omit. A manifest without ``prior``/``scope`` was written before
#: priors were selectable, under the paper's uniform prior: it restores to that.
_DEFAULT_SETTINGS = {"metric": "bayes", "k": 1, "tau": 0.5, "confidence": 0.95, "tie_rule": "paper", "prior": "uniform",
                     "scope": "questions-fixed", "question_set": "own", "max_tokens": None, "unmatched": "exclude",
                     "cluster_column": None}


def package_versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    """Versions of Python, scorio_core and the numeric packages (plus ``extra`` distributions)."""
    from scorio_core import __version__

    out = {"python": platform.python_version(), "scorio_core": __version__}
    for name in ("numpy", "scipy", "pandas", *extra):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _source_dict(source) -> dict:
    raw = source._asdict() if hasattr(source, "_asdict") else dict(source)
    out = {k: raw[k] for k in ("name", "format", "sha256", "rows", "layout") if k in raw}
    if raw.get("mapping"):  # how the file was read: its columns and any outcome recoding (io.load(recode=...))
        out["mapping"] = {str(k): str(v) for k, v in dict(raw["mapping"]).items()}
    return out


def _read_alike(want: dict, have: list[dict]) -> str | None:
    """None when some loaded copy of a manifest source was read with its recorded mapping, else what differs.

    Fields only one side records are not compared (a manifest written before mappings were recorded has none).
    """
    recorded = want.get("mapping")
    if not recorded or not have:
        return None
    diffs = []
    for copy in have:
        loaded = copy.get("mapping") or {}
        diffs.append([f for f in sorted(recorded.keys() & loaded.keys()) if recorded[f] != loaded[f]])
        if not diffs[-1]:
            return None
    loaded = have[0].get("mapping") or {}
    return (f"{want['name']} was read with " + ", ".join(f"{f} <- {recorded[f]}" for f in diffs[0])
            + " and here with " + ", ".join(f"{f} <- {loaded[f]}" for f in diffs[0])
            + " (read it the same way: --map FIELD=COLUMN, --recode LABEL=VALUE as recorded)")


def _finite_or_none(values: dict | None) -> dict | None:
    if values is None:
        return None
    return {str(k): (None if v is None or not math.isfinite(float(v)) else float(v)) for k, v in values.items()}


def build_manifest(
    *,
    dataset_key: str,
    dataset_label: str,
    sources,
    choices: dict | None = None,
    task: str,
    schema=None,
    thresholds: dict | None = None,
    frozen: bool = False,
    prior: dict | None = None,
    settings: dict | None = None,
    seeds: dict | None = None,
    extra_versions: tuple[str, ...] = (),
    created: str | None = None,
    reading: dict | None = None,
) -> dict:
    """The JSON-ready manifest of one analysis.

    Parameters
    ----------
    dataset_key, dataset_label : str
        How the app names the data (a bundled key or ``upload:<name>``) and its label.
    sources : sequence of SourceInfo
        ``Dataset.sources``: file name, format, SHA-256, rows, layout.
    choices : dict, optional
        Data-quality choices (keyword arguments of ``scorio_core.io.apply_choices``).
    task : str
    schema : scorio_core.rubric.Schema, optional
        The rubric; None means binary correctness.
    thresholds : dict of str to float, optional
        Threshold values used (NaN for undefined).
    frozen : bool
        Whether the thresholds were frozen (reused as given) rather than computed.
    prior : dict, optional
        How the prior R0 was chosen (``kind``, ``key`` or ``model``, ``sources``).
    settings : dict, optional
        ``metric, k, tau, confidence, tie_rule, max_tokens``.
    seeds : dict, optional
        Seeds and draws of Monte Carlo views.
    extra_versions : tuple of str
        More distributions whose versions to record (e.g. ``("streamlit", "plotly")``).
    created : str, optional
        ISO timestamp; default now (UTC).
    reading : dict, optional
        How the files were read on the user's word (:func:`scorio_core.report.reading.reading_record`); omitted
        when empty.
    """
    from scorio_core.rubric import schema_to_dict

    merged = dict(_DEFAULT_SETTINGS)
    merged.update(settings or {})
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": created or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "data": {
            "key": str(dataset_key),
            "label": str(dataset_label),
            "sources": [_source_dict(s) for s in sources],
            "choices": {k: v for k, v in (choices or {}).items() if v not in (None, False)},
            **({"reading": dict(reading)} if reading else {}),
        },
        "task": str(task),
        "rubric": None if schema is None else schema_to_dict(schema),
        "thresholds": {"values": _finite_or_none(thresholds) or {}, "frozen": bool(frozen)},
        "prior": prior,
        "settings": merged,
        "seeds": dict(seeds or {}),
        "versions": package_versions(extra_versions),
    }


def manifest_to_json(manifest: dict) -> str:
    """Indented JSON text of a manifest (NaN written as null)."""
    return json.dumps(manifest, indent=2, ensure_ascii=False, allow_nan=False)


@dataclass(frozen=True)
class Manifest:
    """A validated analysis manifest (see the module docstring for the format).

    ``schema`` is the rubric as a :class:`scorio_core.rubric.Schema` (None = binary
    correctness); ``thresholds`` maps names to floats (NaN for undefined).
    """

    dataset_key: str
    dataset_label: str
    sources: tuple[dict, ...]
    choices: dict
    task: str
    schema: Any
    thresholds: dict
    frozen: bool
    prior: dict | None
    settings: dict
    seeds: dict
    versions: dict
    created: str = ""
    document: dict = field(default_factory=dict, repr=False, compare=False)
    reading: dict = field(default_factory=dict)  # data.reading (scorio_core.report.reading)


def _require(doc: dict, key: str, kind, where: str):
    value = doc.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"{where}: '{key}' must be {expected}; got {value!r:.60}.", field=key)
    return value


def read_manifest(document, source: str | None = None) -> Manifest:
    """Read and validate a manifest (JSON text, bytes or a parsed dict).

    Raises
    ------
    InputError
        Not JSON, not a ``scorio-analysis`` document, an unsupported version, a missing or
        mistyped field, or an invalid rubric; the message names the field.
    """
    from scorio_core.rubric import schema_from_json

    if isinstance(document, (bytes, bytearray)):
        if len(document) > MAX_BYTES:
            raise InputError(f"manifest is {len(document):,} bytes; the limit is {MAX_BYTES:,}.", source=source)
        try:
            document = bytes(document).decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("manifest is not UTF-8 text.", source=source) from None
    if isinstance(document, str):
        try:
            document = json.loads(document)
        except json.JSONDecodeError as exc:
            raise InputError(f"manifest is not valid JSON: {exc.msg}.", source=source, line=exc.lineno) from None
        except RecursionError:
            raise InputError("manifest is nested too deeply.", source=source) from None
    if not isinstance(document, dict):
        raise InputError(f"a manifest must be a JSON object; got {type(document).__name__}.", source=source)
    try:
        return _build(document, schema_from_json)
    except InputError as err:
        raise err.with_source(source) if source else err from None


def _build(doc: dict, schema_from_json) -> Manifest:
    if doc.get("format") != FORMAT:
        raise InputError(f"not an analysis manifest: 'format' must be {FORMAT!r}; got {doc.get('format')!r:.40}.",
                         field="format")
    if isinstance(doc.get("version"), bool) or doc.get("version") != VERSION:
        raise InputError(f"unsupported manifest version {doc.get('version')!r:.20}; this version reads {VERSION}.",
                         field="version")
    unknown = [k for k in doc if k not in _TOP]
    if unknown:
        raise InputError(f"manifest: unknown key {unknown[0]!r}; allowed: {', '.join(_TOP)}.", field=str(unknown[0]))
    data = _require(doc, "data", dict, "manifest")
    key = _require(data, "key", str, "data")
    sources = _require(data, "sources", list, "data")
    for i, s in enumerate(sources):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str) or not isinstance(s.get("sha256"), str):
            raise InputError(f"data.sources[{i}] must be an object with 'name' and 'sha256' strings.", field="sources")
    choices = data.get("choices") or {}
    if not isinstance(choices, dict):
        raise InputError("data: 'choices' must be an object.", field="choices")
    task = _require(doc, "task", str, "manifest")
    rubric_doc = doc.get("rubric")
    schema = None
    if rubric_doc is not None:
        if not isinstance(rubric_doc, dict):
            raise InputError("manifest: 'rubric' must be a rubric document or null.", field="rubric")
        schema = schema_from_json(rubric_doc)
    thr = doc.get("thresholds") or {}
    if not isinstance(thr, dict) or not isinstance(thr.get("values", {}), dict):
        raise InputError("manifest: 'thresholds' must be {\"values\": {...}, \"frozen\": bool}.", field="thresholds")
    values = {}
    for name, v in thr.get("values", {}).items():
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise InputError(f"threshold {name!r} must be a number or null; got {v!r:.40}.", field="thresholds")
        values[str(name)] = float("nan") if v is None else float(v)
    prior = doc.get("prior")
    if prior is not None and (not isinstance(prior, dict) or prior.get("kind") not in ("dataset", "model")):
        raise InputError("manifest: 'prior' must be null or an object with kind 'dataset' or 'model'.", field="prior")
    raw_settings = doc.get("settings") or {}
    if not isinstance(raw_settings, dict):
        raise InputError("manifest: 'settings' must be an object.", field="settings")
    settings = dict(_DEFAULT_SETTINGS)
    for name, value in raw_settings.items():
        if name not in _SETTINGS:
            raise InputError(f"settings: unknown key {name!r}; allowed: {', '.join(_SETTINGS)}.", field=name)
        kind = _SETTINGS[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise InputError(f"settings: {name!r} has the wrong type; got {value!r:.40}.", field=name)
        settings[name] = value
    from scorio_core.uncertainty import check_prior, check_scope

    from scorio_core.leaderboard.table import QUESTION_SETS
    from scorio_core.ranking.rank import TIE_RULES

    def check_choice(options, name):
        def check(value):
            if value not in options:
                raise ValueError(f"{name} must be one of {', '.join(options)}; got {value!r}.")
        return check

    for name, check in (("prior", check_prior), ("scope", check_scope), ("question_set", check_choice(QUESTION_SETS, "question_set")),
                        ("tie_rule", check_choice(TIE_RULES, "tie_rule"))):
        try:
            check(settings[name])
        except ValueError as exc:
            raise InputError(f"settings: {exc}", field=name) from None
    return Manifest(
        dataset_key=key,
        dataset_label=str(data.get("label", key)),
        sources=tuple(dict(s) for s in sources),
        choices=dict(choices),
        task=task,
        schema=schema,
        thresholds=values,
        frozen=bool(thr.get("frozen", False)),
        prior=prior,
        settings=settings,
        seeds=dict(doc.get("seeds") or {}),
        versions=dict(doc.get("versions") or {}),
        created=str(doc.get("created", "")),
        document=doc,
        reading=check_reading(data.get("reading")),
    )


def source_mismatches(manifest: Manifest, sources) -> list[str]:
    """Differences between the manifest's data and loaded sources (empty when identical).

    Sources are compared as a multiset of SHA-256 digests (file names may differ); when they are the same files,
    each recorded column mapping (with any outcome recoding) must match how a copy of the file was read.
    """
    loaded = [_source_dict(s) for s in sources]
    have = sorted(s["sha256"] for s in loaded)
    want = sorted(s["sha256"] for s in manifest.sources)
    if have == want:  # the same files: read the same way? (another column or recoding gives other numbers)
        return [d for s in manifest.sources if (d := _read_alike(s, [c for c in loaded if c["sha256"] == s["sha256"]]))]
    problems = []
    missing = [s for s in manifest.sources if s["sha256"] not in have]
    extra = [_source_dict(s) for s in sources if _source_dict(s)["sha256"] not in want]
    for s in missing:
        problems.append(f"{s['name']} (SHA-256 {s['sha256'][:12]}...) is not in the loaded data")
    for s in extra:
        problems.append(f"{s['name']} (SHA-256 {s['sha256'][:12]}...) was not part of the analysis")
    return problems or ["the data has a different number of copies of the same files"]
