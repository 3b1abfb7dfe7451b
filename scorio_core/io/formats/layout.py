"""What harnesses write around their results, settled before formats are detected: a run's files gathered into one
source, the files beside them that are not results (logs, an exercise's code, per-simulation copies, a work folder's
predictions and summaries) left out, each said in a note; and the harness readers that take ``errors_missing``."""

from __future__ import annotations

from scorio_core.io._sources import Source
from scorio_core.io.formats.agents.aider import gather_aider_runs, read_aider
from scorio_core.io.formats.agents.harbor import gather_harbor_jobs, read_harbor
from scorio_core.io.formats.agents.swebench import read_swebench_report
from scorio_core.io.formats.agents.swebench_instances import skip_harness_files
from scorio_core.io.formats.agents.tau import read_tau2, read_tau_bench, skip_simulation_files
from scorio_core.io.formats.agents.terminal_bench import gather_tb_runs, read_terminal_bench
from scorio_core.io.formats.benchmarks.alpaca_eval import gather_alpaca_eval, read_alpaca_eval, skip_alpaca_eval_files
from scorio_core.io.formats.benchmarks.arena_hard import read_arena_hard, skip_arena_hard_files
from scorio_core.io.formats.benchmarks.evalplus import read_evalplus, skip_evalplus_files
from scorio_core.io.formats.benchmarks.livecodebench import name_lcb, skip_lcb_files
from scorio_core.io.formats.benchmarks.matharena import gather_matharena, read_matharena
from scorio_core.io.formats.benchmarks.mmlu_pro import read_mmlu_pro, skip_mmlu_pro_files
from scorio_core.io.formats.benchmarks.wildbench import read_wildbench
from scorio_core.io.formats.benchmarks.qwen_math import gather_qwen_math, read_qwen_math
from scorio_core.io.formats.harnesses.evalscope import read_evalscope, skip_work_files as skip_evalscope_files
from scorio_core.io.formats.harnesses.fastchat import read_fastchat
from scorio_core.io.formats.harnesses.fastchat_pairs import read_fastchat_pairs, skip_fastchat_pairs
from scorio_core.io.formats.harnesses.helm import skip_helm_summaries
from scorio_core.io.formats.harnesses.inspect_ai import skip_log_manifests
from scorio_core.io.formats.harnesses.lighteval import name_model, skip_results_files
from scorio_core.io.formats.harnesses.nemo_skills import gather_nemo_skills, read_nemo_skills
from scorio_core.io.formats.harnesses.opencompass import read_opencompass, skip_work_files
from scorio_core.io.formats.harnesses.promptfoo import read_promptfoo

__all__ = ["ERROR_AWARE", "NAMED_TABLES", "READERS", "settle_layout", "skip_run_summaries"]

#: The harness readers called as ``reader(source, mapping, errors_missing=...)``, by format key: each reads a tool's
#: errored attempts (an API error, a harness exception) as it counts them, or as missing with ``--errors-as-missing``.
ERROR_AWARE = {"swebench-report": read_swebench_report, "promptfoo": read_promptfoo, "aider": read_aider,
               "tau-bench": read_tau_bench, "terminal-bench": read_terminal_bench, "harbor": read_harbor,
               "nemo-skills": read_nemo_skills, "evalplus": read_evalplus, "mmlu-pro": read_mmlu_pro}
#: Format key -> reader taking ``(src, mapping)`` and returning one Part: tools' files read as the tool wrote them.
READERS = {"tau2": read_tau2, "opencompass": read_opencompass, "matharena": read_matharena, "evalscope": read_evalscope,
           "fastchat-judge": read_fastchat, "qwen-math": read_qwen_math, "arena-hard": read_arena_hard,
           "alpaca-eval": read_alpaca_eval, "fastchat-pair": read_fastchat_pairs,
           "wildbench": read_wildbench}
#: Format key -> (table format, namer): tools' files read as the tables they are, the model named by their folders
#: (``namer(raw, src, mapping)`` sets what ``--map model=@folder`` would, unless the user or a column names it).
NAMED_TABLES = {"lighteval": ("parquet", name_model), "livecodebench": ("json-records", name_lcb)}


def skip_run_summaries(srcs: list[Source]) -> list[Source]:
    """Leave out SkyThought's ``summary.json`` (the run's configuration and accuracy, no per-question outcome) beside
    the run's ``results.json``, saying so in a note on that file."""
    results = {s.path.parent: s for s in srcs if s.path is not None and not s.is_dir and s.name == "results.json"}
    skipped = {id(s) for s in srcs if s.path is not None and not s.is_dir and s.name == "summary.json"
               and s.path.parent in results and b'"configuration"' in s.text_head(4096)
               and (b'"accuracy"' in s.text_head(65536) or b'"pass_at_k"' in s.text_head(65536))}
    for s in srcs:
        if id(s) in skipped:
            results[s.path.parent].notes.append(f"{s.path.parent.name}/summary.json not read: the run's configuration "
                                                "and accuracy (SkyThought), no per-question outcome; results.json "
                                                "beside it holds them.")
    return [s for s in srcs if id(s) not in skipped] if skipped else srcs


def settle_layout(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather aider's run folders (:func:`~.agents.aider.gather_aider_runs`), terminal-bench's
    (:func:`~.agents.terminal_bench.gather_tb_runs`), Harbor's jobs (:func:`~.agents.harbor.gather_harbor_jobs`) and
    MathArena's solver folders (:func:`~.benchmarks.matharena.gather_matharena`), NeMo-Skills' benchmark folders
    (:func:`~.harnesses.nemo_skills.gather_nemo_skills`) and Qwen2.5-Math's data folders (with their summaries left
    out, :func:`~.benchmarks.qwen_math.gather_qwen_math`), and leave out SWE-bench's test logs
    beside its per-instance reports (:func:`~.agents.swebench_instances.skip_harness_files`), tau2's
    ``simulations/*.json`` beside its ``results.json`` (:func:`~.agents.tau.skip_simulation_files`), what
    OpenCompass / AISBench write beside ``results/`` (:func:`~.harnesses.opencompass.skip_work_files`), what evalscope
    writes beside ``reviews/`` (:func:`~.harnesses.evalscope.skip_work_files`) and SkyThought's ``summary.json`` beside
    its ``results.json`` (:func:`skip_run_summaries`), and Inspect's ``logs.json`` manifest
    (:func:`~.harnesses.inspect_ai.skip_log_manifests`), what helm-summarize writes beside HELM's run folders
    (:func:`~.harnesses.helm.skip_helm_summaries`) and lighteval's results files beside its details
    (:func:`~.harnesses.lighteval.skip_results_files`), and LiveCodeBench's generations and metrics beside its
    graded file (:func:`~.benchmarks.livecodebench.skip_lcb_files`), and EvalPlus's and BigCodeBench's generations
    and summaries beside their results (:func:`~.benchmarks.evalplus.skip_evalplus_files`), MMLU-Pro's
    summaries (:func:`~.benchmarks.mmlu_pro.skip_mmlu_pro_files`), Arena-Hard's questions and answers beside its
    judgments (:func:`~.benchmarks.arena_hard.skip_arena_hard_files`) and AlpacaEval's outputs and leaderboard beside
    its annotations (:func:`~.benchmarks.alpaca_eval.skip_alpaca_eval_files`), its annotation files then gathered
    (:func:`~.benchmarks.alpaca_eval.gather_alpaca_eval`) and FastChat's pairwise judgments
    beside its ratings (:func:`~.harnesses.fastchat_pairs.skip_fastchat_pairs`).
    ``fmt``: the user's ``--format``, if any."""
    srcs = gather_matharena(gather_harbor_jobs(gather_tb_runs(gather_aider_runs(srcs, fmt), fmt), fmt), fmt)
    srcs = gather_qwen_math(gather_nemo_skills(srcs, fmt), fmt)
    srcs = skip_run_summaries(skip_simulation_files(skip_harness_files(skip_log_manifests(skip_helm_summaries(srcs)))))
    srcs = skip_results_files(srcs) if fmt in (None, "lighteval") else srcs
    srcs = skip_lcb_files(srcs) if fmt in (None, "livecodebench") else srcs
    srcs = skip_evalplus_files(srcs) if fmt in (None, "evalplus") else srcs
    srcs = skip_mmlu_pro_files(srcs) if fmt in (None, "mmlu-pro") else srcs
    srcs = skip_arena_hard_files(srcs) if fmt in (None, "arena-hard") else srcs
    srcs = skip_fastchat_pairs(srcs) if fmt is None else srcs
    srcs = gather_alpaca_eval(skip_alpaca_eval_files(srcs), fmt) if fmt in (None, "alpaca-eval") else srcs
    srcs = skip_evalscope_files(srcs) if fmt in (None, "evalscope") else srcs
    return skip_work_files(srcs) if fmt in (None, "opencompass") else srcs
