"""Inspect AI evaluation logs: ``.eval`` (zip of JSON) and ``.json``.

Documented reader of the log JSON (no ``inspect_ai`` dependency; checked against
``inspect_ai.log.read_eval_log`` 0.3.285 on the test fixtures). Layout (UKGovernmentBEIS
/inspect_ai ``src/inspect_ai/log/_log.py``): ``eval`` (``task``, ``model``, ``config``),
``status``, ``results``, ``samples`` (``.json``) or ``samples/<id>_epoch_<n>.json`` members
next to ``header.json`` (``.eval``). Each sample has ``id``, ``epoch``, ``scores`` (scorer
name -> ``{"value": ...}``) and ``output`` (``usage``, ``choices[0].stop_reason``).

Mapping: ``model`` = ``eval.model``, ``task`` = ``eval.task``, ``question_id`` = sample
``id``, ``trial`` = ``epoch`` (1-based, as logged). The outcome is the only scorer, or the
one named with ``mapping={'is_correct': '<scorer>'}`` (``<scorer>.<key>`` for dict-valued
scores); other scorers become ``scorer_<name>`` signals. Values follow Inspect's
``value_to_float``: ``C`` = 1, ``I`` = 0, ``P`` = 0.5, ``N`` = 0, yes/true = 1, no/false = 0,
numbers and numeric strings as is. A ``P`` (partial credit, 0.5) is non-binary: it leaves
``is_correct`` NaN with 0.5 in ``score`` until a threshold is chosen
(``apply_choices(binarize_threshold=...)``; ``score > 0.5`` counts P as wrong).
Signals: ``prompt_tokens`` (``usage.input_tokens``), ``completion_tokens``
(``usage.output_tokens``), ``finish_reason`` (``stop_reason`` as logged, e.g. ``stop``,
``max_tokens``), ``latency`` (``total_time``, else ``output.time``), ``max_tokens`` (generate
config), ``working_time``, ``reasoning_tokens``. A sample without a score (an errored
sample), or whose score is ``null`` or NaN, has no outcome and is reported (``--missing-outcomes``).
:func:`header_crosscheck` notes the samples the header lists (``eval.dataset.sample_ids`` x epochs, else
``results.total_samples``) that the log does not hold.
Drill-down text (:mod:`scorio_core.io._text`): ``input``, ``target``, ``answer``
(``output.completion``), the outcome scorer's ``extracted_answer`` (``score.answer``) and
``explanation``, and ``transcript`` (the sample's ``messages`` rendered as ``[role]`` blocks).

``inspect_ai`` itself (0.3.285) installs cleanly with pip but pulls in ~80 packages
(~325 MB), so it is not used; an ``.eval`` whose members are zstd-compressed needs the small
optional ``zipfile-zstd`` package (used when installed) or ``inspect log convert --to json``.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile

import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io._text import as_text, clip, messages_text
from scorio_core.io.formats.harness_files import leave_out
from scorio_core.io.formats.recoding import INSPECT_LETTERS as _LETTERS

__all__ = ["header_crosscheck", "read_inspect", "skip_log_manifests", "value_to_float"]

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
#: The head of a log folder's manifest (``inspect_ai.log.write_log_dir_manifest``, ``logs.json``, written by
#: ``eval_set`` and ``inspect view bundle``): log headers (no samples) keyed by their files' names.
_MANIFEST = re.compile(rb'^\s*\{\s*"[^"]+\.(eval|json)"\s*:\s*\{')


def _eval_set(src: Source) -> bool:
    head = src.text_head(4096)
    return src.name == "eval-set.json" and b'"eval_set_id"' in head and b'"tasks"' in head


def skip_log_manifests(srcs: list[Source]) -> list[Source]:
    """Leave out Inspect's log-folder manifests (``logs.json``: every log's header, no samples; ``eval-set.json``: the
    eval set's id and its (task, model) runs, ``inspect_ai._eval.evalset.EvalSet``), saying so in a note on the first
    source kept.

    Raises
    ------
    InputError
        When the manifests are all there is: they hold no sample, so they cannot be ranked; the logs they list can.
    """
    manifests = [s for s in srcs if not s.is_dir and ((s.name == "logs.json" and _MANIFEST.match(s.text_head(4096)))
                                                     or _eval_set(s))]
    names = " and ".join(sorted({s.name for s in manifests}, reverse=True))
    return leave_out(srcs, manifests, f"{names} not read: Inspect's manifest{'s' * (' and ' in names)} of the log "
                     "folder (each log's header, the eval set's runs; no samples); the logs beside "
                     f"{'them' if ' and ' in names else 'it'} hold the samples.",
                     "Inspect's manifest of a log folder (eval_set's logs.json: each log's header; eval-set.json: the "
                     "eval set's tasks and models; no samples): load the .eval / .json logs (the folder holding them) "
                     "instead.")


def value_to_float(value: object) -> float | None:
    """Inspect's default ``value_to_float``; None when the value cannot be converted.

    Examples
    --------
    >>> [value_to_float(v) for v in ["C", "I", "P", "N", "yes", "0.25", 1, True, "maybe"]]
    [1.0, 0.0, 0.5, 0.0, 1.0, 0.25, 1.0, 1.0, None]
    """
    if isinstance(value, str) and value in _LETTERS:
        return _LETTERS[value]
    if isinstance(value, (bool, int, float)):
        return float(value) if math.isfinite(float(value)) else None
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
        if _NUMBER.match(low):
            return float(low)
    return None


def _load_json(src: Source) -> tuple[dict, list[tuple[str, dict]]]:
    doc = load_json(src, "log JSON")
    if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
        raise InputError("not an Inspect log (no 'eval' object).", source=src.name)
    samples = doc.get("samples") or []
    return doc, [(f"samples[{i}]", s) for i, s in enumerate(samples)]


def _load_eval(src: Source) -> tuple[dict, list[tuple[str, dict]]]:
    try:  # optional: newer Inspect versions may write zstd members; this package teaches zipfile them
        import zipfile_zstd  # noqa: F401
    except ImportError:
        pass
    try:
        zf = zipfile.ZipFile(io.BytesIO(src.data()))
    except zipfile.BadZipFile as exc:
        raise InputError(f"the .eval archive is damaged or truncated ({exc}).", source=src.name) from None
    from scorio_core.io._gzip import zip_member
    from scorio_core.limits import get_limits

    limits = get_limits()
    budget = [limits.max_decompressed_bytes]
    with zf:
        names = zf.namelist()
        if len(names) > limits.max_archive_members:
            raise InputError(f"the archive has {len(names):,} members, more than the limit of {limits.max_archive_members:,} "
                             "(SCORIO_MAX_ARCHIVE_MEMBERS).", source=src.name)
        header_name = "header.json" if "header.json" in names else "_journal/start.json"

        def read_bounded(member: str) -> bytearray:
            """A member's bytes, never more than what is left of the decompression budget."""
            return zip_member(zf, member, budget, src.name, "split the log")

        def read(member: str) -> dict:
            try:
                return json.loads(read_bounded(member))
            except InputError:  # a ValueError too: the budget message must not be wrapped again
                raise
            except NotImplementedError:
                raise InputError(
                    f"member {member} uses a compression method Python's zipfile cannot read (zstd); install the "
                    "optional 'zipfile-zstd' package or convert the log with `inspect log convert --to json`.",
                    source=src.name,
                ) from None
            except (ValueError, zipfile.BadZipFile, EOFError, OSError) as exc:
                raise InputError(f"member {member} is not valid JSON or is damaged ({exc}).", source=src.name) from None

        if header_name not in names:
            raise InputError("the .eval archive has no header.json; it is not an Inspect log.", source=src.name)
        header = read(header_name)
        members = [n for n in names if n.startswith("samples/") and n.endswith(".json")]
        samples = [(n, read(n)) for n in members]
    return header, samples


def _choose_scorer(src: Source, header: dict, samples, mapping) -> str:
    names: list[str] = []
    for res in (header.get("results") or {}).get("scores") or []:
        if isinstance(res, dict) and res.get("name") and res["name"] not in names:
            names.append(str(res["name"]))
    keyed: list[str] = []
    for _, s in samples:
        for scorer, score in (s.get("scores") or {}).items():
            if scorer not in names:
                names.append(scorer)
            value = score.get("value") if isinstance(score, dict) else None
            if isinstance(value, dict):
                keyed.extend(f"{scorer}.{k}" for k in value if f"{scorer}.{k}" not in keyed)
    if mapping and set(mapping) - {"is_correct"}:
        raise InputError("for Inspect logs only --map is_correct=<scorer> applies.", source=src.name)
    if mapping and "is_correct" in mapping:
        wanted = mapping["is_correct"]
        if wanted not in names and wanted not in keyed:
            raise InputError(f"mapping is_correct={wanted} names no scorer; scorers are {', '.join(names + keyed)}.", source=src.name, field="is_correct")
        return wanted
    candidates = [n for n in names if not any(k.startswith(n + ".") for k in keyed)] + keyed
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise InputError("no sample has a score; score the log first (inspect score) and load it again.", source=src.name, field="is_correct")
    listed = ", ".join(repr(c) for c in candidates)
    raise InputError(f"field 'is_correct' is ambiguous: scorers {listed}; pass --map is_correct=SCORER (CLI) or pick the scorer in the app.", source=src.name, field="is_correct")


def _score_value(score_map: dict, scorer: str):
    base, _, key = scorer.partition(".")
    score = score_map.get(scorer) if scorer in score_map else score_map.get(base)
    value = score.get("value") if isinstance(score, dict) else None
    if key and isinstance(value, dict):
        value = value.get(key)
    return value


def _completion(output: dict) -> str | None:
    text = output.get("completion")
    if isinstance(text, str) and text:
        return text
    choices = output.get("choices") or []
    message = choices[0].get("message") if choices and isinstance(choices[0], dict) else None
    return messages_text([message])[len(f"[{message.get('role', '?')}]\n"):] if isinstance(message, dict) else None


def _texts(sample: dict, output: dict, score, source: str) -> dict:
    """Drill-down text of one sample: ``input``, ``target``, ``answer`` (the completion), the
    outcome scorer's ``extracted_answer`` and ``explanation``, and the ``transcript`` (messages)."""
    score = score if isinstance(score, dict) else {}
    out = {
        "input": as_text(sample.get("input")),
        "target": as_text(sample.get("target")) if sample.get("target") not in (None, "", []) else None,
        "answer": _completion(output),
        "extracted_answer": as_text(score.get("answer")),
        "explanation": as_text(score.get("explanation")),
        "transcript": messages_text(sample.get("messages")),
    }
    return {k: clip(v, source) for k, v in out.items() if v not in (None, "")}


def read_inspect(src: Source, fmt: str, mapping) -> Part:
    """Read an Inspect AI log into a canonical attempt table (see module docstring).

    Raises
    ------
    InputError
        Damaged archive, truncated JSON, no samples, an ambiguous scorer, or a score value
        ``value_to_float`` cannot convert (naming the sample id and epoch).
    """
    header, samples = _load_eval(src) if fmt == "inspect-eval" else _load_json(src)
    ev = header.get("eval") or {}
    if not samples:
        raise InputError("the log has no samples (was it written with --no-log-samples, or did the run fail early?).", source=src.name)
    notes = []
    status = header.get("status")
    if status and status != "success":
        notes.append(f"{src.name}: log status is '{status}'; only the samples it holds are loaded.")
    outcome = _choose_scorer(src, header, samples, mapping)
    config = ev.get("model_generate_config") or (header.get("plan") or {}).get("config") or {}
    max_tokens = config.get("max_tokens") if isinstance(config, dict) else None
    rows, where, errored = [], [], 0
    for member, s in samples:
        ident, epoch = s.get("id"), s.get("epoch")
        context = f"{member} (sample id={ident}, epoch={epoch}): "
        scores = s.get("scores") or {}
        raw = _score_value(scores, outcome)
        if s.get("error"):
            errored += 1
        value = None
        if raw is not None and not (isinstance(raw, float) and math.isnan(raw)):  # NaN, like null: no outcome
            value = value_to_float(raw)
            if value is None:
                raise InputError(
                    f"{context}field 'is_correct': score {raw!r} of scorer '{outcome}' cannot be converted; Inspect's "
                    "value_to_float accepts C/I/P/N, yes/no, true/false and numbers.",
                    source=src.name, field="is_correct")
        output = s.get("output") or {}
        usage = output.get("usage") or {}
        choices = output.get("choices") or [{}]
        row = {
            "model": ev.get("model"), "task": ev.get("task"), "question_id": None if ident is None else str(ident),
            "trial": epoch, "is_correct": value,
            "finish_reason": choices[0].get("stop_reason") if isinstance(choices[0], dict) else None,
            "prompt_tokens": usage.get("input_tokens"), "completion_tokens": usage.get("output_tokens"),
            "reasoning_tokens": usage.get("reasoning_tokens"),
            "latency": s.get("total_time", output.get("time")), "working_time": s.get("working_time"),
            "max_tokens": max_tokens,
        }
        for scorer in scores:
            if scorer != outcome and not outcome.startswith(scorer + "."):
                row[f"scorer_{scorer}"] = value_to_float(_score_value(scores, scorer))
        row.update(_texts(s, output, scores.get(outcome.partition(".")[0]), src.name))
        rows.append(row)
        where.append(context)
    if errored:
        notes.append(f"{src.name}: {errored} samples ended with an error.")
    notes += header_crosscheck(src.name, header, [(s.get("id"), s.get("epoch")) for _, s in samples])
    frame = pd.DataFrame.from_records(rows)
    ident = {k: k for k in ("model", "task", "question_id", "trial", "is_correct")}
    frame = frame.drop(columns=[c for c in frame.columns if c not in ident and frame[c].isna().all()])
    guess = infer_mapping(frame.columns, ident, source=src.name)
    guess.raise_if_unresolved(src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=fmt, locate=lambda i: {"context": where[i]}, stem=src.stem, notes=notes)
    part.mapping.update({"model": "eval.model", "task": "eval.task", "question_id": "id", "trial": "epoch", "is_correct": f"scores.{outcome}.value"})
    if "score" in part.mapping:
        part.mapping["score"] = f"scores.{outcome}.value"
    return part


def header_crosscheck(name: str, header: dict, loaded: list[tuple[object, object]]) -> list[str]:
    """A note when the log holds fewer samples than its header lists (as lm-eval's ``results_crosscheck``).

    The header lists the dataset's sample ids (``eval.dataset.sample_ids``) and the epochs
    (``eval.config.epochs``); older logs only count them (``results.total_samples``, samples x epochs).
    A sample absent from the log is named (the first 10), so a leaderboard on fewer questions than
    the run evaluated says so.

    Parameters
    ----------
    name : str
        The log's file name (for the note).
    header : dict
        The log's header (``eval``, ``results``).
    loaded : list of (id, epoch)
        The samples the log holds.

    Returns
    -------
    list of str
        No note, or one.

    Examples
    --------
    >>> header = {"eval": {"dataset": {"sample_ids": [1, 2, 3]}}, "results": {"total_samples": 3}}
    >>> header_crosscheck("log.json", header, [(1, 1), (3, 1)])
    ['log.json: 2 of the 3 samples the log header lists (eval.dataset.sample_ids x 1 epoch) are in the log; missing sample ids: 2. The ranking covers the 2 loaded.']
    """
    ev = header.get("eval") if isinstance(header.get("eval"), dict) else {}
    dataset = ev.get("dataset") if isinstance(ev.get("dataset"), dict) else {}
    config = ev.get("config") if isinstance(ev.get("config"), dict) else {}
    epochs = config.get("epochs") if isinstance(config.get("epochs"), int) and config.get("epochs") > 0 else 1
    have = {(str(i), str(e)) for i, e in loaded}
    ids = dataset.get("sample_ids")
    if isinstance(ids, list) and ids:
        listed = list(dict.fromkeys(str(i) for i in ids))
        seen = {i for i, _ in have}
        absent = [i for i in listed if i not in seen]
        expected = len(listed) * epochs
        present = sum(1 for i in listed for e in range(1, epochs + 1) if (i, str(e)) in have)
        if not absent and present >= expected:
            return []
        word = "epoch" if epochs == 1 else "epochs"
        text = (f"{name}: {present:,} of the {expected:,} samples the log header lists (eval.dataset.sample_ids x "
                f"{epochs} {word}) are in the log")
        if absent:
            shown = ", ".join(absent[:10]) + (f" and {len(absent) - 10:,} more" if len(absent) > 10 else "")
            text += f"; missing sample ids: {shown}"
        else:
            text += "; every sample id is there, some epochs are not (see the trial counts in the quality report)"
        return [f"{text}. The ranking covers the {present:,} loaded."]
    results = header.get("results") if isinstance(header.get("results"), dict) else {}
    total = results.get("total_samples")
    if isinstance(total, int) and not isinstance(total, bool) and len(have) < total:
        return [f"{name}: {len(have):,} samples are in the log of the {total:,} its header counts (results.total_samples; "
                f"the header lists no sample ids). The ranking covers the {len(have):,} loaded."]
    return []
