"""Trials that are not exchangeable: success depending on the trial's position (leaderboard notice)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from scorio_core.cli import main
from scorio_core.leaderboard.trial_order import trial_position_effects, trial_position_notice

ROOT = Path(__file__).resolve().parents[2]


def _exchangeable(rng, L=30, M=100, N=4):
    p = rng.beta(2, 2, size=(L, M, 1))
    return (rng.random((L, M, N)) < p).astype(np.int16)


@pytest.mark.parametrize("seed", range(20))
def test_exchangeable_trials_are_not_flagged(seed):
    """Exchangeable trials (each question's rate, trials drawn alike): no model is reported (family-wise 1e-6)."""
    R = _exchangeable(np.random.default_rng(seed))
    assert trial_position_effects(SimpleNamespace(R=R, models=tuple(f"m{i}" for i in range(len(R))))) == []


def test_a_retry_after_failure_is_flagged_with_scipys_statistic():
    """Model r: trial 2 is made only after a failed trial 1 and rarely succeeds; its statistic equals scipy's
    chi-square of homogeneity (no continuity correction) on its 2 x N table."""
    rng = np.random.default_rng(7)
    R = _exchangeable(rng, L=5)
    first = rng.random(100) < 0.8
    R[2, :, 0] = first
    R[2, :, 1] = ~first & (rng.random(100) < 0.1)
    R[2, 5:, 2:] = -1  # fewer trials on some questions: positions 3 and 4 have 5 answered trials, left out (< 10)
    (effect,) = trial_position_effects(SimpleNamespace(R=R, models=("a", "b", "r", "d", "e")))
    assert effect["model"] == "r" and effect["attempts"] == [100, 100, 5, 5]
    s = [(R[2, :, j] == 1).sum() for j in range(2)]
    expected = chi2_contingency(np.array([s, [100 - s[0], 100 - s[1]]]), correction=False)
    assert effect["statistic"] == pytest.approx(expected[0], rel=1e-12)
    assert effect["p_value"] == pytest.approx(expected[1], rel=1e-9)
    assert np.isnan(effect["rates"][2]) and effect["rates"][0] == pytest.approx(s[0] / 100)


def test_counts_only_one_trial_and_a_small_gap_are_not_flagged():
    assert trial_position_effects(SimpleNamespace(R=None, models=("a",))) == []
    assert trial_position_effects(SimpleNamespace(R=np.ones((2, 50, 1), dtype=np.int16), models=("a", "b"))) == []
    R = np.zeros((1, 4000, 2), dtype=np.int16)  # 55% vs 45%: far beyond chance with 4,000 questions, yet < 0.2 apart
    R[0, :2200, 0] = 1
    R[0, :1800, 1] = 1
    assert trial_position_effects(SimpleNamespace(R=R, models=("a",))) == []
    assert trial_position_effects(SimpleNamespace(R=R, models=("a",)), min_gap=0.05)[0]["model"] == "a"
    assert trial_position_notice([]) is None


def test_arc_agi_o3_retries_are_named_by_the_leaderboard(capsys):
    """ARC-AGI-1: o3's second attempt is only right when the first was wrong (data/README.md)."""
    assert main(["leaderboard", str(ROOT / "data" / "arc_agi_1_public_eval_trials.csv"), "--output", "json"]) == 0
    (note,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "trial_position_effect"]
    assert note["models"] == ["open_ai_o3_high_20241220", "open_ai_o3_low_20241220"]
    assert note["finding"].startswith("open_ai_o3_high_20241220's success rate depends on the trial's position "
                                      "(trial 1: 88.5% of 419, trial 2: 3.1% of 419; chi-square p < 1e-12).")
    assert [round(r, 3) for r in note["effects"][0]["rates"]] == [0.885, 0.031]
