"""save_dataset says whether it inserted the row, decided in the inserting transaction (helper QA: 8 concurrent
`workspace add` runs of one file returned one id, 4 of them with "created": true)."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from scorio_core import io
from scorio_core.store import Workspace


def test_created_is_true_once_for_the_same_data(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,0,1\nb,q1,0,0\na,q2,0,0\nb,q2,0,1\n")
    data = path.read_bytes()
    dataset = io.load([str(path)])
    ws = Workspace(tmp_path / "ws")
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: ws.save_dataset("d", [("d.csv", data)], dataset, return_created=True),
                                range(8)))
    assert len({r.id for r, _ in results}) == 1 and sum(created for _, created in results) == 1
    assert ws.save_dataset("d", [("d.csv", data)], dataset).id == results[0][0].id  # the plain call: a record


def test_workspace_add_accepts_workspace_as_root_and_reports_created(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,0,1\nb,q1,0,0\n")
    run = [sys.executable, "-m", "scorio_core", "workspace", "--workspace", str(tmp_path / "ws"), "--output", "json",
           "add", str(path)]
    first, again = (json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout) for _ in range(2))
    assert (first["created"], again["created"]) == (True, False)
    assert first["dataset"]["id"] == again["dataset"]["id"]
