"""Format registry and detection from a file's name and first bytes."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from types import MappingProxyType

from scorio_core.errors import InputError
from scorio_core.io._sources import Source, as_sources, check_not_utf16, text_encoding
from scorio_core.io.formats.agents.aider import RESULTS as AIDER_RESULTS, is_aider_run
from scorio_core.io.formats.harnesses.promptfoo import is_promptfoo
from scorio_core.io.formats.agents.swebench import is_report
from scorio_core.io.formats.agents.swebench_instances import is_instance_head
from scorio_core.io.formats.agents.harbor import is_harbor_job, is_harbor_trial
from scorio_core.io.formats.harnesses.evalscope import is_evalscope
from scorio_core.io.formats.harnesses.fastchat import is_fastchat_judgment
from scorio_core.io.formats.harnesses.fastchat_pairs import PAIR_KEYS
from scorio_core.io.formats.harnesses.lighteval import is_lighteval_details
from scorio_core.io.formats.benchmarks.alpaca_eval import is_alpaca_eval, is_alpaca_run
from scorio_core.io.formats.benchmarks.arena_hard import is_arena_hard
from scorio_core.io.formats.benchmarks.evalplus import is_evalplus_results
from scorio_core.io.formats.benchmarks.livecodebench import is_lcb_eval_all
from scorio_core.io.formats.benchmarks.wildbench import is_wildbench
from scorio_core.io.formats.benchmarks.matharena import is_matharena, is_matharena_run
from scorio_core.io.formats.benchmarks.mmlu_pro import is_mmlu_pro
from scorio_core.io.formats.benchmarks.qwen_math import is_qwen_math_output, is_qwen_math_run
from scorio_core.io.formats.harnesses.nemo_skills import is_nemo_output, is_nemo_run
from scorio_core.io.formats.line_records import holds_records
from scorio_core.io.formats.harnesses.opencompass import is_opencompass
from scorio_core.io.formats.agents.tau import is_tau2, is_tau_bench
from scorio_core.io.formats.agents.terminal_bench import is_tb_run, is_terminal_bench

__all__ = ["SUPPORTED_FORMATS", "check_format", "detect_format", "detect_source_format"]

SUPPORTED_FORMATS = MappingProxyType(
    {
        "csv": "comma- or semicolon-separated table (.csv, .csv.gz): long (one row per attempt), "
        "wide (one column per trial) or counts (n_trials, n_correct)",
        "tsv": "tab-separated table (.tsv, .tab, .txt), same layouts as csv",
        "jsonl": "JSON Lines, one record per attempt (nested fields become dotted names), "
        "same layouts as csv; Every Eval Ever's instance-level records read so",
        "json-records": "a JSON array of flat records (or {'data': [...]}), same layouts as csv",
        "parquet": "Apache Parquet table, same layouts as csv",
        "npz": "NumPy .npz/.npy with an outcome tensor R of shape (L, M, N) or (L, M); optional "
        "models (L,), questions (M,), trials (N,), task; loaded with allow_pickle=False",
        "scorio-jsonl": "the reference scorio package's per-attempt JSONL (seed, data_id, model, "
        "output.*, tokens.*, processed_results.*)",
        "scorio-verifier": "scorio verifier fixture JSON (source, answers, scores, correct)",
        "lm-eval-samples": "lm-evaluation-harness samples_<task>_<time>.jsonl (--log_samples)",
        "lm-eval-results": "lm-evaluation-harness results_<time>.json (model name; per-sample "
        "records only when embedded under 'samples')",
        "inspect-eval": "Inspect AI .eval log (zip of JSON); epochs are trials",
        "inspect-json": "Inspect AI .json log; epochs are trials",
        "helm": "HELM run folder (per_instance_stats.json + scenario_state.json [+ run_spec.json]); "
        "train_trial_index is the trial",
        "xlsx": "Excel workbook (.xlsx): each sheet with data read as its CSV would be (same layouts as csv); "
        "with several sheets, each sheet's name stands for the file stem",
        "ods": "OpenDocument spreadsheet (.ods), read as xlsx is",
        "swebench-report": "SWE-bench harness report <model>.<run_id>.json (swebench.harness.run_evaluation): one "
        "attempt per instance, resolved_ids 1, unresolved and empty-patch ids 0, error ids 0 (or missing with "
        "--errors-as-missing); several reports of one model are its runs",
        "swebench-instance": "SWE-bench per-instance report logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json: "
        "a model's folder is one run, one attempt per instance, resolved 1, else 0",
        "promptfoo": "promptfoo eval output (promptfoo eval -o results.json): one attempt per result, the provider (and "
        "prompt) the model, the test case the question, its repeats the trials, success the outcome",
        "aider": "aider benchmark run folder (tmp.benchmarks/<date>--<name>/, one .aider.results.json per exercise): "
        "the model with its edit format, one attempt per exercise (passed within its tries), runs the trials",
        "tau2": "tau2-bench results.json (tau2 run --save-to): one attempt per simulation, the agent's LLM the model, "
        "the domain the task, reward 1 a success; simulations tau2 cannot evaluate are missing outcomes",
        "tau-bench": "tau-bench (first version) results <strategy>-<model>-..._<time>.json: one attempt per record, the "
        "model from the file name, the domain from the tasks' actions, reward 1 a success",
        "terminal-bench": "terminal-bench run folder runs/<run_id>/ (results.json + run_metadata.json): one attempt per "
        "trial, the model with its agent, is_resolved the outcome (null 0, as terminal-bench counts it); runs are trials",
        "opencompass": "OpenCompass / AISBench results/<model_abbr>/<dataset_abbr>.json with per-question details "
        "(--dump-eval-details): the folder the model, the file stem the task, each replica's correct one trial; "
        "timestamp folders are runs",
        "harbor": "Harbor job folder jobs/<job_name>/ (Terminal-Bench 2.0 and Harbor's adapters), or one trial's "
        "result.json: one attempt per trial, the model with its agent, the verifier's reward the outcome (a trial that "
        "raised before it was scored 0); jobs are runs",
        "matharena": "MathArena outputs/<competition>/<provider>/<model>/<problem_idx>.json: the solver's folders the "
        "model, the competition's the task, each element of correct one run (trial)",
        "evalscope": "evalscope reviews/<model_name>/<benchmark>_<subset>.jsonl: the folder the model, the file stem the "
        "task, group_id the question (its repeated samples the trials), the score's main value the outcome",
        "lighteval": "lighteval details/<model_name>/<date_id>/details_<task>_<date_id>.parquet (--save-details): a "
        "Parquet table (doc.id the question, the metric's score the outcome), the folders below details/ the model, "
        "the file name the task",
        "fastchat-judge": "FastChat llm_judge data/<bench>/model_judgment/<judge>_single.jsonl (MT-Bench): one attempt "
        "per (model, question, turn), each turn its own question, the rating 1-10 a category code (weights code / 10)",
        "livecodebench": "LiveCodeBench output/<model_repr>/Scenario.<scenario>_<n>_<temperature>_eval_all.json: a "
        "table of problems (graded_list's samples the trials), the folder the model, the file stem the task",
        "nemo-skills": "NeMo-Skills <output_dir>/eval-results/<benchmark>/output-rs<seed>.jsonl (ns eval): the output "
        "folder the model, the benchmark's folder the task, line i of every seed's file one question, each seed one "
        "trial, NeMo-Skills' score (judge_correct, symbolic_correct, ...) the outcome",
        "evalplus": "EvalPlus / BigCodeBench ..._eval_results.json ({\"eval\": {task_id: [sample, ...]}}): each sample one "
        "trial, its status 'pass' the outcome; EvalPlus's HumanEval / HumanEval+ (base, base and extra tests) two tasks, "
        "the model and temperature from the file name",
        "mmlu-pro": "MMLU-Pro results (<subject>_result.json, model_outputs_<model>_<k>shots.json): one attempt per "
        "question, pred == answer the outcome (a null pred 0), the subject kept as category_label",
        "qwen-math": "Qwen2.5-Math / math-evaluation-harness <model>/math_eval/<data_name>/<split>_<prompt_type>_<n>_seed"
        "<S>_t<T>_s<start>_e<end>.jsonl: the model's folder the model, the data folder the task, idx the question, "
        "each element of score one sample (seeds' samples one after another)",
        "fastchat-pair": "FastChat llm_judge data/<bench>/model_judgment/<judge>_pair.jsonl (--mode pairwise-baseline): "
        "one attempt per (model, question, turn) against the baseline, the verdict a category code (0 baseline, 1 tie "
        "or the two games disagree, 2 model)",
        "wildbench": "WildBench eval_results/<version>/score.v2/eval=<judge>/<model>.json: one attempt per task, "
        "the file's name the model, the judge's rating 1-10 a category code, the task WildBench <version>/<judge>",
        "arena-hard": "Arena-Hard-Auto data/<bench>/model_judgment/<judge>/<model>.jsonl: each game against the "
        "baseline one trial, the verdict from the model's side a category code (0 much worse ... 2 tie ... 4 much "
        "better), the task <category>/<judge>",
        "alpaca-eval": "AlpacaEval results/<model>/<annotator>/annotations.json: one attempt per instruction, "
        "generator_2 the model, the annotator the task, the rounded preference a category code (0 baseline "
        "preferred, 1 draw, 2 model preferred)",
    }
)

_BINARY_MAGIC = (
    (b"\x80\x02", "a Python pickle"),
    (b"\x80\x03", "a Python pickle"),
    (b"\x80\x04", "a Python pickle"),
    (b"\x80\x05", "a Python pickle"),
    (b"\x89HDF", "an HDF5 file"),
    (b"%PDF", "a PDF document"),
    (b"\xd0\xcf\x11\xe0", "a legacy Excel/Office file; export the sheet as CSV UTF-8"),
)


def check_format(fmt: str | None) -> str | None:
    """Validate a ``format=`` override.

    Raises
    ------
    InputError
        If ``fmt`` is not a key of :data:`SUPPORTED_FORMATS`.
    """
    if fmt is None or fmt in SUPPORTED_FORMATS:
        return fmt
    raise InputError(
        f"format must be one of {', '.join(SUPPORTED_FORMATS)} (or omitted to auto-detect); got {fmt!r}.",
        field="format",
    )


def detect_format(source: object) -> str:
    """Detect the format of one path, folder or upload from its name and content.

    Parameters
    ----------
    source : str, pathlib.Path, uploaded file or (name, bytes) tuple
        One input, as accepted by :func:`scorio_core.io.load`.

    Returns
    -------
    str
        A key of :data:`SUPPORTED_FORMATS`.

    Raises
    ------
    InputError
        If the content matches no supported format (binary garbage, empty file, pickle ...).

    Examples
    --------
    >>> detect_format(("r.csv", b"model,question,correct\\nm,q1,1\\n"))
    'csv'
    >>> detect_format(("x.jsonl", b'{"seed": 1, "data_id": 6, "model": "m", "processed_results": {}}\\n'))
    'scorio-jsonl'
    """
    found = as_sources(source)
    if len(found) != 1:
        return "helm" if all(s.is_dir for s in found) else detect_source_format(found[0])
    return detect_source_format(found[0])


def detect_source_format(src: Source) -> str:
    """Detect the format of a :class:`Source` (see :func:`detect_format`)."""
    if src.is_dir:
        return ("aider" if is_aider_run(src) else "terminal-bench" if is_tb_run(src) else "harbor" if is_harbor_job(src)
                else "matharena" if is_matharena_run(src) else "nemo-skills" if is_nemo_run(src)
                else "qwen-math" if is_qwen_math_run(src) else "alpaca-eval" if is_alpaca_run(src) else "helm")
    name = src.inner_name.lower()
    if name in ("per_instance_stats.json", "scenario_state.json", "run_spec.json"):
        return "helm"
    if name == AIDER_RESULTS:
        return "aider"
    raw_head = src.head(8)
    if not raw_head:
        raise InputError("the file is empty; export the results again.", source=src.name)
    if raw_head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_kind(src)
    if raw_head.startswith(b"\x93NUMPY"):
        return "npz"
    if raw_head.startswith(b"PAR1"):
        return "lighteval" if is_lighteval_details(src) else "parquet"
    for magic, what in _BINARY_MAGIC:
        if raw_head.startswith(magic):
            raise InputError(f"the file is {what}, not a supported format; supported: {', '.join(SUPPORTED_FORMATS)}.", source=src.name)
    head = src.text_head()
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        raise InputError("the file is empty; export the results again.", source=src.name)
    enc = text_encoding(head)
    if enc is not None:
        head = head.decode(enc, errors="ignore").lstrip("\ufeff").encode("utf-8")
    else:
        check_not_utf16(src.name, head)
        head = head.removeprefix(b"\xef\xbb\xbf")
    if _looks_binary(head):
        raise InputError(
            "the file is binary data, not a supported format (not CSV/TSV/JSONL text, Parquet, "
            f"NPZ or an Inspect .eval zip); supported: {', '.join(SUPPORTED_FORMATS)}.",
            source=src.name,
        )
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"["):
        return _json_kind(src, name, stripped)
    if name.endswith((".tsv", ".tab")):
        return "tsv"
    first = stripped.split(b"\n", 1)[0]
    if first.count(b"\t") > max(first.count(b","), first.count(b";")):
        return "tsv"
    return "csv"


def _looks_binary(head: bytes) -> bool:
    sample = head[:4096]
    if b"\x00" in sample:
        return True
    control = sum(1 for b in sample if b < 32 and b not in (9, 10, 13, 12))
    return control > max(1, len(sample) // 100)


def _zip_kind(src: Source) -> str:
    name = src.inner_name.lower()
    if name.endswith(".npz"):
        return "npz"
    try:
        with zipfile.ZipFile(io.BytesIO(src.data())) as zf:
            members = zf.namelist()
    except zipfile.BadZipFile as exc:
        raise InputError(f"the zip archive is damaged or truncated ({exc}); re-export it.", source=src.name) from exc
    if "header.json" in members or "_journal/start.json" in members or any(m.startswith("samples/") for m in members):
        return "inspect-eval"
    if members and all(m.endswith(".npy") for m in members):
        return "npz"
    if "xl/workbook.xml" in members:
        return "xlsx"
    if "content.xml" in members and (name.endswith(".ods") or "mimetype" in members):
        return "ods"
    raise InputError(
        "the zip archive is neither an Inspect .eval log (no header.json) nor an .npz tensor file; "
        "unzip it and load the files inside.",
        source=src.name,
    )


_KEY = re.compile(rb'"([^"\\]{1,64})"\s*:')


def _json_kind(src: Source, name: str, head: bytes) -> str:
    if head[:1] == b"{":
        first = head.split(b"\n", 1)[0]
        if len(first) == len(head) >= (1 << 16) - 4 and name.endswith((".jsonl", ".ndjson")):  # a long first record
            first = src.text_head(1 << 24).lstrip(b" \t\r\n\xef\xbb\xbf").split(b"\n", 1)[0]
        record = _try_json(first)
        if isinstance(record, dict) and (b"\n" in head.strip() or name.endswith((".jsonl", ".ndjson"))):
            return _record_kind(record, name)
        if name.endswith((".jsonl", ".ndjson")):
            return _record_kind(record, name) if isinstance(record, dict) else "jsonl"
        keys = {k.decode("utf-8", "ignore") for k in _KEY.findall(head[:20000])}
        if "eval" in keys and ("samples" in keys or "plan" in keys or "version" in keys) and (
            "status" in keys or "results" in keys
        ):
            return "inspect-json"
        if is_evalplus_results(head[:65536]):
            return "evalplus"
        if is_promptfoo(keys):
            return "promptfoo"
        if is_terminal_bench(keys):
            return "terminal-bench"
        if is_harbor_trial(keys):
            return "harbor"
        if is_matharena(keys):
            return "matharena"
        if is_report(keys):
            return "swebench-report"
        if is_instance_head(head):
            return "swebench-instance"
        if {"testcase", "tests_outcomes"} <= keys:
            return "aider"
        if is_tau2(keys):
            return "tau2"
        if "lm_eval_version" in keys or "n-samples" in keys or ("results" in keys and "configs" in keys):
            return "lm-eval-results"
        if is_opencompass(src, keys):
            return "opencompass"
        if {"answers", "scores", "correct"} <= keys:
            return "scorio-verifier"
        if "request_states" in keys or "adapter_spec" in keys:
            return "helm"
        if isinstance(record, dict) and not (name.endswith(".json") and holds_records(record)):
            return _record_kind(record, name)
        return "json-records"
    # a JSON array: HELM per-instance stats or plain records
    keys = {k.decode("utf-8", "ignore") for k in _KEY.findall(head[:20000])}
    if {"instance_id", "train_trial_index", "stats"} <= keys:
        return "helm"
    if is_mmlu_pro(head[:65536]):
        return "mmlu-pro"
    if is_alpaca_eval(head[:65536]):
        return "alpaca-eval"
    if is_wildbench(head[:65536]):
        return "wildbench"
    return "tau-bench" if is_tau_bench(keys) else "livecodebench" if is_lcb_eval_all(src) else "json-records"


def _record_kind(record: dict, name: str = "") -> str:
    keys = set(record)
    if is_nemo_output(name, record):
        return "nemo-skills"
    if is_qwen_math_output(name, record):
        return "qwen-math"
    if is_arena_hard(record):
        return "arena-hard"
    if PAIR_KEYS <= keys and "model" not in keys:
        return "fastchat-pair"
    if is_fastchat_judgment(record):
        return "fastchat-judge"
    if "doc_id" in keys and ("resps" in keys or "filtered_resps" in keys):
        return "lm-eval-samples"
    if {"seed", "data_id"} <= keys and keys & {"processed_results", "output", "tokens"}:
        return "scorio-jsonl"
    if is_evalscope(record):
        return "evalscope"
    return "jsonl"


def _try_json(line: bytes):
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None


def jsonl_kinds(files, limit: int = 8) -> list[tuple[str, str | None]]:
    """The detected format of up to ``limit`` JSON Lines files, ``(name, path)`` pairs: ``"jsonl"`` for a plain table,
    a tool's format (``"lm-eval-samples"``, ``"scorio-jsonl"``, ``"evalscope"``, ``"nemo-skills"``), None when the file
    cannot be read (its reader reports why)."""
    out = []
    for name, path in list(files)[:limit]:
        try:
            out.append((name, detect_source_format(Source(name=name, path=Path(path)))))
        except Exception:  # noqa: BLE001 - undetectable: the loader reports it
            out.append((name, None))
    return out


def refuse_tool_jsonl(files, engine: str) -> None:
    """Refuse JSON Lines files an evaluation tool wrote in its own shape for a SQL engine (``files``: ``(name, path)``
    of the JSONL inputs; the first 8 are sniffed, as ``--engine auto`` sniffs them). Their model, question and outcome
    sit in nested fields or in the files' folders, which only the pandas loader's readers know: read as a plain table,
    the file's stem became the model (found 2026-12-05: lm-eval samples under ``--engine duckdb``).

    Raises
    ------
    InputError
        Naming the first such file, its format and what reads it.
    """
    for name, kind in jsonl_kinds(files):
        if kind not in ("jsonl", None):
            raise InputError(f"{'an' if kind[0] in 'aeio' else 'a'} {kind} file (an evaluation tool's own JSON Lines): its fields are read by the pandas "
                             f"loader, the {engine} engine reads plain tables; use --engine pandas (or auto), or "
                             "--format jsonl to read it as a plain table.", source=name)
