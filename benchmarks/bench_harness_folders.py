"""Loading a harness's folder of small files: SWE-bench per-instance reports (``logs/run_evaluation/<run_id>/<model>/
<instance_id>/report.json``, with the harness's ``test_output.txt`` beside each) through ``scorio_core.io.load``, side
by side with the same attempts as one CSV.

Target: 10 models x 500 instances (5,000 reports, 10,000 files walked) load in < 3 s, i.e. the per-file cost stays a
fraction of a millisecond (detection, grouping by model folder, one JSON parse per report, the quality report): a
loader that is quadratic in the number of files (an early version left the logs out with a list-membership test)
took ~14 s here. The CSV row is printed for scale. The same folder as the app's *Upload a folder* receives it (every
file's path and bytes: ``scorio_core.io.roots.uploaded_folder`` writes them below a temporary folder, then
``resolve_in_root`` + ``load_matches`` as *Open from the server*): target < 8 s, the load's 3 s plus writing the
10,000 files (~0.4-0.7 ms a file and folder on this machine's ext4 /tmp; the browser's upload of as many files takes
longer still). Harbor jobs (Terminal-Bench 2.0's layout: ``jobs/<job>/<task>__<id>/`` with the trial's
``result.json``, ``config.json``, log, the agent's trajectory and the verifier's files): 10 jobs (one agent and model
each) x 89 tasks x 5 trials, 4,450 trials and ~27,000 files, load in < 3 s too. Medians of ``--repeat`` runs in this
process, after a warm-up.

    .venv/bin/python benchmarks/bench_harness_folders.py [--models 10] [--instances 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 3.0
TARGET_UPLOAD_S = 8.0


def write_logs(root: Path, models: int, instances: int, seed: int = 0) -> list[tuple[str, str, int]]:
    """The harness's layout for one run; returns the attempts (model, instance, resolved) written."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows = []
    for m in range(models):
        for i in range(instances):
            iid, ok = f"repo__project-{i}", bool(rng.random() < 0.4)
            folder = root / "logs" / "run_evaluation" / "run1" / f"model-{m}" / iid
            folder.mkdir(parents=True)
            status = {"FAIL_TO_PASS": {"success": ["t1"] if ok else [], "failure": [] if ok else ["t1"]},
                      "PASS_TO_PASS": {"success": [f"t{k}" for k in range(2, 40)], "failure": []}}
            (folder / "report.json").write_text(json.dumps({iid: {
                "patch_is_None": False, "patch_exists": True, "patch_successfully_applied": True, "resolved": ok,
                "tests_status": status}}, indent=4))
            (folder / "test_output.txt").write_text("+ pytest -rA\n" + "PASSED tests/test_x.py::t\n" * 50)
            rows.append((f"model-{m}", iid, int(ok)))
    return rows


def write_jobs(root: Path, jobs: int = 10, tasks: int = 89, trials: int = 5) -> list[tuple[str, str, float]]:
    """Harbor job folders as ``harbor run`` writes them; returns the attempts (model, task, reward) written."""
    rows = []
    for j in range(jobs):
        job = root / "jobs" / f"2025-11-05__10-00-{j:02d}"
        job.mkdir(parents=True)
        (job / "config.json").write_text(json.dumps({"datasets": [{"name": "terminal-bench", "version": "2.0"}]}))
        (job / "result.json").write_text(json.dumps({"id": str(j), "n_total_trials": tasks * trials, "stats": {}}))
        for t in range(tasks):
            for k in range(trials):
                folder = job / f"task-{t}__{k:07d}"
                (folder / "agent").mkdir(parents=True)
                (folder / "verifier").mkdir()
                reward = float((t * 7 + k * 3 + j) % 5 < 2)
                agent = {"name": "terminus-2", "model_name": f"provider/model-{j}"}
                (folder / "result.json").write_text(json.dumps({
                    "id": f"{j}-{t}-{k}", "task_name": f"task-{t}", "trial_name": folder.name, "source": "terminal-bench",
                    "config": {"agent": agent}, "agent_info": {"name": "terminus-2", "version": "2.0.0",
                                                               "model_info": {"name": f"model-{j}", "provider": "provider"}},
                    "agent_result": {"n_input_tokens": 1000, "n_output_tokens": 200, "cost_usd": 0.01},
                    "verifier_result": {"rewards": {"reward": reward}}, "exception_info": None,
                    "started_at": f"2025-11-05T10:{k:02d}:00Z", "finished_at": f"2025-11-05T10:{k:02d}:30Z"}, indent=2))
                (folder / "config.json").write_text(json.dumps({"trial_name": folder.name, "agent": agent}))
                (folder / "trial.log").write_text("log\n")
                (folder / "agent" / "trajectory.json").write_text(json.dumps({"steps": [{"role": "assistant"}] * 20}))
                (folder / "verifier" / "reward.txt").write_text(f"{reward:g}\n")
                (folder / "verifier" / "ctrf.json").write_text(json.dumps({"results": {"tests": []}}))
                rows.append((f"provider/model-{j} (terminus-2)", f"task-{t}", reward))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--instances", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import pandas as pd

    from bench_workbooks import median_time  # this folder's timing helper (medians of repeated runs)
    from scorio_core import io
    from scorio_core.io import roots

    def upload(files):
        with roots.uploaded_folder(files) as (root, pattern):
            return roots.load_matches(roots.resolve_in_root(root, pattern))

    with tempfile.TemporaryDirectory() as tmp:
        rows = write_logs(Path(tmp), args.models, args.instances)
        csv = pd.DataFrame(rows, columns=["model", "question_id", "is_correct"]).to_csv(index=False).encode()
        logs = Path(tmp) / "logs"
        first = io.load(logs)
        got = first.attempts.astype({"model": str, "question_id": str})
        want = {(m, q): ok for m, q, ok in rows}
        same = len(got) == len(rows) and all(want[(m, q)] == ok for m, q, ok in
                                             got[["model", "question_id", "is_correct"]].itertuples(index=False))
        t_logs = median_time(lambda: io.load(logs), args.repeat)
        t_csv = median_time(lambda: io.load([("same.csv", csv)]), args.repeat)
        files = [(p.relative_to(Path(tmp)).as_posix(), p.read_bytes()) for p in sorted(logs.rglob("*")) if p.is_file()]
        same = same and len(upload(files)[0].attempts) == len(rows)
        t_upload = median_time(lambda: upload(files), args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        jobs = write_jobs(Path(tmp))
        loaded = io.load(Path(tmp) / "jobs").attempts.astype({"model": str, "question_id": str})
        by_key = loaded.groupby(["model", "question_id"])["is_correct"].sum().to_dict()
        want_jobs: dict = {}
        for m, q, r in jobs:
            want_jobs[(m, q)] = want_jobs.get((m, q), 0.0) + r
        same_jobs = len(loaded) == len(jobs) and by_key == want_jobs
        t_jobs = median_time(lambda: io.load(Path(tmp) / "jobs"), args.repeat)
        n_files = sum(1 for p in (Path(tmp) / "jobs").rglob("*") if p.is_file())
    ok = t_logs < TARGET_S and t_upload < TARGET_UPLOAD_S and same and t_jobs < TARGET_S and same_jobs
    print(f"{args.models} models x {args.instances} instances: {len(rows):,} report.json (and as many test_output.txt)")
    print(f"{'io.load(logs/), per-instance reports':<38} {t_logs:7.2f} s   target < {TARGET_S:g} s"
          f"   attempts equal to what was written: {'yes' if same else 'NO'}")
    print(f"{'app folder upload (write + open)':<38} {t_upload:7.2f} s   target < {TARGET_UPLOAD_S:g} s")
    print(f"{'io.load(.csv), the same attempts':<38} {t_csv:7.2f} s   (for scale)")
    print(f"{'io.load(jobs/), Harbor trial folders':<38} {t_jobs:7.2f} s   target < {TARGET_S:g} s   "
          f"({len(jobs):,} trials, {n_files:,} files; successes equal to what was written: {'yes' if same_jobs else 'NO'})")
    print("ok" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
