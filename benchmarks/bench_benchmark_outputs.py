"""Loading single benchmarks' own evaluation outputs (``scorio_core.io.formats.benchmarks``) at their real sizes,
side by side with the same attempts as one CSV in the same run.

- Qwen2.5-Math: 10 models x 4 data sets (MATH500, AIME24, AMC23, Minerva: 500, 30, 40, 272 problems) x 2 seeds x 32
  samples: 80 files, 538,880 attempts;
- EvalPlus: 20 models' HumanEval results, 164 tasks x 200 samples, each read as HumanEval and HumanEval+: 1.3 million
  attempts;
- MMLU-Pro: 20 models' published-style outputs, 12,032 questions each (N = 1): 240,640 attempts;
- CRUXEval: 20 runs x 800 problems x 10 samples: 160,000 attempts;
- Arena-Hard-Auto: 40 models' judgments of Arena-Hard v2.0 (750 questions, 2 games each, a 1 kB judgment text per
  game): 60,000 attempts (category codes);
- AlpacaEval: 100 models' annotations (805 instructions, 500-character outputs): 80,500 attempts (category codes).

Target per row: within 2x (parsing the tool's files with the standard ``json`` module + loading the same attempts
from one CSV) + 0.5 s. Both floors are measured in the same run: a reader pays one JSON parse (which a CSV reader
does not) and the canonical table's validation (which the CSV load pays too); one that looped per attempt in Python
beyond the parse misses it (the first EvalPlus reader, a Python tuple per sample, took 4.7 s here where the
vectorised one takes 2.8-3.0 s). Medians of ``--repeat`` runs after a warm-up.

    .venv/bin/python benchmarks/bench_benchmark_outputs.py [--repeat 3] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def qwen_math(root: Path, scale: float) -> list[tuple]:
    rng, rows = np.random.default_rng(0), []
    sets = {"math500": 500, "aime24": 30, "amc23": 40, "minerva_math": 272}
    for m in range(max(1, round(10 * scale))):
        for data, n in sets.items():
            folder = root / f"model-{m}" / "math_eval" / data
            folder.mkdir(parents=True)
            for seed in range(2):
                scores = rng.random((n, 32)) < 0.5
                with open(folder / f"test_qwen25-math-cot_-1_seed{seed}_t0.6_s0_e-1.jsonl", "w") as fh:
                    for q in range(n):
                        fh.write(json.dumps({"idx": q, "question": "...", "gt": "1", "code": ["..."] * 32,
                                             "pred": ["1"] * 32, "report": [None] * 32,
                                             "score": scores[q].tolist()}) + "\n")
                rows += [(f"model-{m}", data, q, seed * 32 + i, int(scores[q, i])) for q in range(n) for i in range(32)]
    return rows


def evalplus(root: Path, scale: float) -> list[tuple]:
    rng, rows = np.random.default_rng(1), []
    folder = root / "evalplus_results" / "humaneval"
    folder.mkdir(parents=True)
    for m in range(max(1, round(20 * scale))):
        base, plus = rng.random((164, 200)) < 0.6, rng.random((164, 200)) < 0.8
        ev = {f"HumanEval/{t}": [{"task_id": f"HumanEval/{t}", "solution": "def f(): ...",
                                  "base_status": "pass" if base[t, i] else "fail",
                                  "plus_status": "pass" if plus[t, i] else "fail",
                                  "base_fail_tests": [], "plus_fail_tests": []} for i in range(200)] for t in range(164)}
        (folder / f"org--model-{m}_vllm_temp_0.8.eval_results.json").write_text(json.dumps({"date": "", "eval": ev}))
        rows += [(f"model-{m}", task, t, i, int(ok)) for task, arr in (("HumanEval", base), ("HumanEval+", base & plus))
                 for t in range(164) for i, ok in enumerate(arr[t])]
    return rows


def mmlu_pro(root: Path, scale: float) -> list[tuple]:
    rng, rows = np.random.default_rng(2), []
    for m in range(max(1, round(20 * scale))):
        right = rng.random(12032) < 0.5
        recs = [{"question_id": 70 + q, "question": "...", "options": ["a"] * 10, "answer": "A", "answer_index": 0,
                 "cot_content": "", "category": "math", "src": "ori", "pred": "A" if right[q] else "B",
                 "generated_text": "The answer is (A)."} for q in range(12032)]
        (root / f"model_outputs_model-{m}_5shots.json").write_text(json.dumps(recs))
        rows += [(f"model-{m}", "MMLU-Pro", 70 + q, 0, int(right[q])) for q in range(12032)]
    return rows


def cruxeval(root: Path, scale: float) -> list[tuple]:
    rng, rows = np.random.default_rng(3), []
    folder = root / "evaluation_results"
    folder.mkdir(parents=True)
    for m in range(max(1, round(20 * scale))):
        ok = rng.random((800, 10)) < 0.4
        doc = {"raw_generations": {f"sample_{q}": ["f(1)"] * 10 for q in range(800)},
               "raw_scored_generations": {f"sample_{q}": ok[q].tolist() for q in range(800)}, "pass_at_1": 0.0}
        (folder / f"model-{m}_temp0.2_output.json").write_text(json.dumps(doc))
        rows += [(f"model-{m}", "CRUXEval-O", q, i, int(ok[q, i])) for q in range(800) for i in range(10)]
    return rows


def arena_hard(root: Path, scale: float) -> list[tuple]:
    rng, rows = np.random.default_rng(4), []
    folder = root / "data" / "arena-hard-v2.0" / "model_judgment" / "gpt-4.1"
    folder.mkdir(parents=True)
    labels = np.array(["A>>B", "A>B", "A=B", "B>A", "B>>A"])
    for m in range(max(1, round(40 * scale))):
        pick = rng.integers(0, 5, (750, 2))
        with open(folder / f"model-{m}.jsonl", "w") as fh:
            for q in range(750):
                cat = "hard_prompt" if q < 500 else "creative_writing"
                fh.write(json.dumps({"uid": f"{q:016x}", "category": cat, "judge": "gpt-4.1", "model": f"model-{m}",
                                     "baseline": "o3-mini-2025-01-31", "games": [
                                         {"score": str(labels[pick[q, g]]), "judgment": {"answer": "x" * 1000},
                                          "prompt": []} for g in range(2)]}) + "\n")
        # game 1: the model is B (code = index); game 2: the model is A (code = 4 - index)
        rows += [(f"model-{m}", f"{'hard_prompt' if q < 500 else 'creative_writing'}/gpt-4.1", f"{q:016x}", g,
                  int(pick[q, g] if g == 0 else 4 - pick[q, g])) for q in range(750) for g in range(2)]
    return rows


def alpaca_eval(root: Path, scale: float) -> list[tuple]:
    import hashlib

    rng, rows = np.random.default_rng(5), []
    instructions = [f"Instruction {q}: " + "y" * 200 for q in range(805)]
    ids = [f"helpful_base/{hashlib.sha1(t.encode()).hexdigest()[:10]}" for t in instructions]
    for m in range(max(1, round(100 * scale))):
        pref = rng.random(805) + 1
        folder = root / "results" / f"model-{m}" / "weighted_alpaca_eval_gpt4_turbo"
        folder.mkdir(parents=True)
        recs = [{"dataset": "helpful_base", "instruction": instructions[q], "output_1": "o" * 500,
                 "generator_1": "gpt4_1106_preview", "output_2": "p" * 500, "generator_2": f"model-{m}",
                 "annotator": "weighted_alpaca_eval_gpt4_turbo", "preference": float(pref[q])} for q in range(805)]
        (folder / "annotations.json").write_text(json.dumps(recs))
        rows += [(f"model-{m}", "weighted_alpaca_eval_gpt4_turbo", ids[q], 0, 2 if pref[q] > 1.5 else 0)
                 for q in range(805)]
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the models written (default 1)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import pandas as pd

    from scorio_core import io

    def timed(paths) -> tuple[float, int]:
        io.load(paths)  # warm-up
        times, n = [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            n = len(io.load(paths).attempts)
            times.append(time.perf_counter() - t)
        return statistics.median(times), n

    def parse(root: Path) -> float:
        t = time.perf_counter()
        for f in sorted(root.rglob("*.json*")):
            if f.suffix == ".jsonl":
                [json.loads(line) for line in f.read_bytes().splitlines() if line.strip()]
            else:
                json.loads(f.read_bytes())
        return time.perf_counter() - t

    print(f"{'reader':<12} {'attempts':>10} {'reader s':>9} {'parse s':>8} {'CSV s':>7} {'target s':>9}  verdict")
    failed = False
    for name, write in (("qwen-math", qwen_math), ("evalplus", evalplus), ("mmlu-pro", mmlu_pro),
                        ("cruxeval", cruxeval), ("arena-hard", arena_hard), ("alpaca-eval", alpaca_eval)):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / name
            root.mkdir()
            rows = write(root, args.scale)
            csv = Path(tmp) / f"{name}.csv"
            outcome = "category" if name in ("arena-hard", "alpaca-eval") else "is_correct"  # verdicts: category codes
            pd.DataFrame(rows, columns=["model", "task", "question_id", "trial", outcome]).to_csv(csv, index=False)
            t_reader, n = timed([str(root)])
            t_csv, n_csv = timed([str(csv)])
            t_parse = statistics.median(parse(root) for _ in range(args.repeat))
            target = 2 * (t_parse + t_csv) + 0.5
            ok = t_reader <= target and n == n_csv
            failed |= not ok
            print(f"{name:<12} {n:>10,} {t_reader:>9.2f} {t_parse:>8.2f} {t_csv:>7.2f} {target:>9.2f}  "
                  f"{'met' if ok else 'MISSED'}"
                  + ("" if n == n_csv else f" (attempts {n:,} != CSV {n_csv:,})"), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
