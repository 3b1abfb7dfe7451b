"""The app's row-wise convergence@n draws in the CLI's canonical order (scorio_core.arrays.order).

Row-wise bootstrap draws per (model, question) cell; the Convergence page built its block in the loader's order (first
appearance), so a file with its rows shuffled gave other numbers for the same seed, and other numbers than
``convergence --bootstrap row``. The block is now in natural order, as the CLI's.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dashboard.compute import dynamics as analysis_cache
from scorio_core import io
from scorio_core.cli import main

DATA = Path(__file__).resolve().parents[2] / "data"
COUNTS = DATA / "matharena_aime_2025_I_counts.csv"
TASK = "aime_2025_I"


def _shuffled(tmp_path: Path) -> Path:
    out = tmp_path / COUNTS.name
    pd.read_csv(COUNTS).sample(frac=1.0, random_state=11).to_csv(out, index=False)
    return out


def _app_result(path: Path, data_id: str):
    dataset = io.load([str(path)])
    ctx = SimpleNamespace(data=SimpleNamespace(data_id=data_id, dataset=dataset), task=TASK, confidence=0.95,
                          prior="uniform", models=[])
    active = SimpleNamespace(rubric_id="binary", categorization=None, prior_id="none", prior=None)
    ((_, result),) = analysis_cache.convergence_results(ctx, active, [analysis_cache.Method("bayes")], scheme="row",
                                                        replicates=40, seed=3)
    block = analysis_cache.analysis_block(data_id, dataset, TASK, "rubric")
    return block, result


def test_row_wise_convergence_is_the_same_for_shuffled_rows_and_the_cli(tmp_path, capsys):
    block, base = _app_result(COUNTS, "canonical-order-base")
    shuffled_block, again = _app_result(_shuffled(tmp_path), "canonical-order-shuffled")
    assert block.models == shuffled_block.models
    np.testing.assert_array_equal(base.convergence, again.convergence)
    np.testing.assert_array_equal(base.kendall_tau_mean, again.kendall_tau_mean)

    assert main(["convergence", str(COUNTS), "--bootstrap", "row", "--replicates", "40", "--seed", "3", "--prior",
                 "uniform", "--output", "json", "--engine", "pandas"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert tuple(cli["models"]) == block.models
    np.testing.assert_allclose(base.kendall_tau_mean, cli["kendall_tau_mean"], rtol=0, atol=1e-12)
    assert cli["worst_replicate"] == base.worst_replicate


@pytest.mark.parametrize("path", [COUNTS])
def test_the_block_lists_models_in_natural_order(path):
    from scorio_core.arrays.order import natural_key

    block = analysis_cache.analysis_block("canonical-order-natural", io.load([str(path)]), TASK, "rubric")
    assert list(block.models) == sorted(block.models, key=natural_key)
