"""Rubric sensitivity (scorio_core.sensitivity): ranks across schemata and under perturbation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import rubric
from scorio_core.leaderboard.table import Categorization, categorization_for, leaderboard, outcomes_for
from scorio_core.dynamics.convergence import Cancelled
from scorio_core.errors import InputError
from scorio_core.io import load
from scorio_core.ranking.rank import competition_ranks
from scorio_core.sensitivity import applicable_schemas, perturb_rubric, schema_ranks
from scorio_core.dynamics.simulate import simulate_attempts

CLOSE = (0.50, 0.52, 0.53, 0.55, 0.40)  # close means: the rubric can reorder the top


def _attempts(means=CLOSE, n_questions=10, n_trials=6, seed=7) -> pd.DataFrame:
    return pd.DataFrame(simulate_attempts(n_questions=n_questions, n_trials=n_trials, seed=seed, means=means))


@pytest.fixture(scope="module")
def attempts() -> pd.DataFrame:
    return _attempts()


def _dataset(frame: pd.DataFrame, tmp_path):
    path = tmp_path / "attempts.csv"
    frame.to_csv(path, index=False)
    return load([str(path)])


# --------------------------------------------------------------------------- across schemata
def test_hand_built_binary_means():
    rows = [("a", q, t, float(q < 2)) for q in range(3) for t in range(4)]
    rows += [("b", q, t, float(q < 1)) for q in range(3) for t in range(4)]
    frame = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"])
    res = schema_ranks(frame, ["Binary correctness"])
    # hand: per question (n_correct + 1) / (N + 2): a = (5/6 + 5/6 + 1/6) / 3 = 11/18, b = (5/6 + 1/6 + 1/6) / 3 = 7/18
    np.testing.assert_allclose(res.mu[0], [11 / 18, 7 / 18])
    assert res.ranks[0].tolist() == [1.0, 2.0]
    assert res.models == ("a", "b")


@pytest.mark.parametrize("schema", ["Binary correctness", "Format Aware", "Efficiency-Adjusted", "Verifier-Only"])
def test_matches_the_leaderboard(attempts, tmp_path, schema):
    dataset = _dataset(attempts, tmp_path)
    cat, _ = categorization_for(dataset, schema)
    table = leaderboard(outcomes_for(dataset, None, cat), confidence=0.9, tie_rule="paper", prior="uniform")
    res = schema_ranks(attempts, [schema], confidence=0.9, tie_rule="paper")
    by_model = table.set_index("model")
    for i, model in enumerate(res.models):
        # reference: scorio_core.leaderboard.table.leaderboard on the same categorization
        assert res.mu[0, i] == pytest.approx(by_model.loc[model, "mu"], abs=1e-12)
        assert res.sigma[0, i] == pytest.approx(by_model.loc[model, "sigma"], abs=1e-12)
        assert res.ranks[0, i] == by_model.loc[model, "rank"]
        assert res.ranks_ci[0, i] == by_model.loc[model, "rank_ci"]


def test_missing_cells_are_left_out_like_the_leaderboard(attempts, tmp_path):
    frame = attempts[~((attempts["model"] == attempts["model"].iloc[0]) & (attempts["question_id"] == "q1"))]
    frame = frame.reset_index(drop=True)
    dataset = _dataset(frame, tmp_path)
    table = leaderboard(outcomes_for(dataset, None), prior="uniform").set_index("model")
    res = schema_ranks(frame, ["Binary correctness"])
    for i, model in enumerate(res.models):
        assert res.mu[0, i] == pytest.approx(table.loc[model, "mu"], abs=1e-12)  # reference: leaderboard


def test_row_order_does_not_matter(attempts):
    shuffled = attempts.sample(frac=1.0, random_state=3).reset_index(drop=True)
    a = schema_ranks(attempts, ["Format Aware", "Conf-Calibrated"])
    b = schema_ranks(shuffled, ["Format Aware", "Conf-Calibrated"])
    index = [b.models.index(m) for m in a.models]
    np.testing.assert_allclose(a.mu, b.mu[:, index], atol=1e-12)
    np.testing.assert_array_equal(a.ranks, b.ranks[:, index])


def test_schemata_without_their_signals_are_skipped(attempts):
    bare = attempts[["model", "task", "question_id", "trial", "is_correct"]]
    ok, skipped = applicable_schemas(bare, ["Binary correctness", "Format Aware"])
    assert [s.name for s in ok] == ["Binary correctness"]
    assert skipped[0].schema == "Format Aware" and "has_box" in skipped[0].missing
    res = schema_ranks(bare, ["Format Aware", "Binary correctness"])
    assert res.schemas == ("Binary correctness",) and res.skipped[0].schema == "Format Aware"


def test_graded_attempts_need_a_schema_that_reads_the_score(attempts):
    from scorio_core.leaderboard.graded import score_value_schema, threshold_schema

    frame = attempts[["model", "task", "question_id", "trial", "is_correct"]].copy()
    frame["is_correct"] = frame["is_correct"].astype(float)
    frame["score"] = frame["is_correct"]
    frame.loc[:4, ["is_correct", "score"]] = [np.nan, 0.5]  # five graded attempts (no 0/1 outcome), the rest 0/1
    values, threshold = score_value_schema(frame), threshold_schema(frame)
    ok, skipped = applicable_schemas(frame, ["Binary correctness", values, threshold, "Format Aware"])
    assert [s.name for s in ok] == [values.name, threshold.name]
    binary, aware = skipped
    assert binary.missing == ("0/1 outcomes of the graded attempts",) and "5 attempts have a graded score" in binary.reason
    assert "has_box" in aware.missing and "0/1 outcomes of the graded attempts" in aware.missing
    assert schema_ranks(frame, [values, threshold]).unmatched.tolist() == [0, 0]  # both place every attempt
    frame.loc[:4, "is_correct"] = 1.0  # the same attempts with a 0/1 outcome: correctness applies again
    assert [s.name for s in applicable_schemas(frame, ["Binary correctness", values])[0]] == ["Binary correctness",
                                                                                                values.name]


def test_nothing_applies_is_an_input_error(attempts):
    bare = attempts[["model", "task", "question_id", "trial", "is_correct"]]
    with pytest.raises(InputError, match="none of the schemata applies"):
        schema_ranks(bare, ["Format Aware"])


def test_unmatched_attempts_are_counted(attempts):
    frame = attempts.copy()
    frame.loc[:9, "has_box"] = np.nan
    res = schema_ranks(frame, ["Format Compliance & Correctness"])
    assert res.unmatched.tolist() == [10]
    assert "10 of" in res.notes[0]


def test_ci_ties_are_coarser_than_competition_ranks(attempts):
    res = schema_ranks(attempts, ["Binary correctness"], confidence=0.99)
    assert np.all(res.ranks_ci <= res.ranks)
    assert len(np.unique(res.ranks_ci)) <= len(np.unique(res.ranks))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        (dict(schemas=[]), ValueError),
        (dict(schemas="Format Aware"), ValueError),
        (dict(schemas=["Format Aware"], tie_rule="max"), ValueError),
        (dict(schemas=["Format Aware"], confidence=1.5), ValueError),
        (dict(schemas=["No such schema"]), InputError),
    ],
)
def test_schema_ranks_validation(attempts, kwargs, error):
    with pytest.raises(error):
        schema_ranks(attempts, **kwargs)


def test_count_data_is_refused():
    with pytest.raises(InputError, match="attempt-level"):
        schema_ranks(None, ["Binary correctness"])
    with pytest.raises(InputError, match="attempt-level"):
        perturb_rubric(None, "Binary correctness")


# --------------------------------------------------------------------------- perturbation
@pytest.fixture(scope="module")
def perturbed(attempts):
    return perturb_rubric(attempts, "Conf-Calibrated", n=120, weight_range=0.5, threshold_shift=10, seed=3)


def test_perturbation_shapes_and_shares(perturbed):
    L = len(perturbed.models)
    assert perturbed.ranks.shape == (120, L)
    assert perturbed.rank_share.shape == (L, L)
    np.testing.assert_allclose(perturbed.rank_share.sum(axis=1), 1.0)
    leader = perturbed.models.index(perturbed.leader)
    assert perturbed.leader_kept == pytest.approx(perturbed.rank_share[leader, 0])
    assert perturbed.base_ranks[leader] == 1
    names = [p.name for p in perturbed.parameters]
    assert names[-3:] == ["threshold: tau_low_wrong", "threshold: corr_p33", "threshold: corr_p66"]
    assert perturbed.samples.shape == (120, len(names))
    assert len(perturbed.drivers) == len(names)


def test_samples_stay_in_their_ranges(perturbed):
    for j, p in enumerate(perturbed.parameters):
        x = perturbed.samples[:, j]
        assert p.low <= x.min() and x.max() <= p.high
        if p.kind == "weight":
            assert (p.low, p.high) == (0.5, 1.5)
        else:
            assert (p.low, p.high) == (-10.0, 10.0)


def test_seeded_and_reproducible(attempts, perturbed):
    again = perturb_rubric(attempts, "Conf-Calibrated", n=120, weight_range=0.5, threshold_shift=10, seed=3)
    np.testing.assert_array_equal(again.samples, perturbed.samples)
    np.testing.assert_array_equal(again.ranks, perturbed.ranks)
    other = perturb_rubric(attempts, "Conf-Calibrated", n=120, weight_range=0.5, threshold_shift=10, seed=4)
    assert not np.array_equal(other.samples, perturbed.samples)


def test_each_perturbation_equals_a_slow_recategorization(attempts, tmp_path, perturbed):
    """Vectorized path vs categorize + leaderboard, one rubric at a time (same sampled values)."""
    dataset = _dataset(attempts, tmp_path)
    schema = rubric.get_schema("Conf-Calibrated")
    weights_idx = [j for j, w in enumerate(schema.weights) if w != 0]
    for p in (0, 17, 63, 119):
        w = schema.weights.copy()
        n_w = len(weights_idx)
        w[weights_idx] *= perturbed.samples[p, :n_w]
        shift = {q.name.removeprefix("threshold: "): float(v) for q, v in zip(perturbed.parameters[n_w:], perturbed.samples[p, n_w:])}
        codes = rubric.categorize(dataset.attempts, schema, percentile_shift=shift).codes
        table = leaderboard(outcomes_for(dataset, None, Categorization(codes, w, schema.labels))).set_index("model")
        mu = np.array([table.loc[m, "mu"] for m in perturbed.models])
        np.testing.assert_array_equal(perturbed.ranks[p], competition_ranks(mu))


def test_no_perturbation_keeps_every_rank(attempts):
    res = perturb_rubric(attempts, "Format Aware", n=20, weight_range=0.0, threshold_shift=0.0)
    assert np.all(res.ranks == res.base_ranks)
    assert res.leader_kept == 1.0
    assert all(np.isnan(d.correlation) for d in res.drivers)


def test_smallest_weight_change_makes_a_tie(attempts):
    res = perturb_rubric(attempts, "Format Aware", n=10)
    schema = rubric.get_schema("Format Aware")
    found = [(p, d) for p, d in zip(res.parameters, res.drivers) if d.smallest_change is not None]
    assert found, "some single weight change should flip the leader on close models"
    for param, drv in found:
        j = schema.labels.index(param.name.removeprefix("weight: "))
        w = schema.weights.copy()
        w[j] *= 1 + drv.smallest_change
        tied = schema_ranks(attempts, [schema.with_weights(w)])
        mu = dict(zip(tied.models, tied.mu[0]))
        # exact linear solve: at the change the new leader has caught the old one
        assert mu[drv.new_leader] == pytest.approx(mu[res.leader], abs=1e-12)
        w[j] = schema.weights[j] * (1 + drv.smallest_change * 1.01)
        past = schema_ranks(attempts, [schema.with_weights(w)])
        assert past.ranks[0, past.models.index(res.leader)] > 1


def test_smallest_threshold_shift_is_minimal(attempts):
    schema = rubric.get_schema("Concision-High-Conf")
    res = perturb_rubric(attempts, schema, n=10, search_shift=40)
    bound = rubric.bind(attempts, schema)
    checked = 0
    for param, drv in zip(res.parameters, res.drivers):
        if param.kind != "threshold" or drv.smallest_change is None:
            continue
        name, s = param.name.removeprefix("threshold: "), drv.smallest_change
        for size in range(1, int(abs(s))):  # every smaller shift, both directions, keeps the leader first
            for shift in (size, -size):
                if 0 <= param.value + shift <= 100:
                    assert _leader_rank(attempts, bound, schema, name, shift, res) == 1
        assert _leader_rank(attempts, bound, schema, name, s, res) > 1
        checked += 1
    assert checked >= 1  # len_p33 at -14 and len_p66 at -19 points on these close models


def _leader_rank(attempts, bound, schema, name, shift, res) -> float:
    from scorio_core.sensitivity import kernel

    codes = bound.codes(percentile_shift={name: float(shift)})
    where = kernel.cells(attempts)
    mu = kernel.model_moments(kernel.category_counts(codes, where, len(schema.categories)), schema.weights)[0]
    return kernel.ranks(mu[None])[0, where.models.index(res.leader)]


def test_percentile_shifts_respect_the_0_100_range(attempts):
    schema = rubric.Schema(
        "edge", [rubric.Category("fast", "token_ratio <= p98", 1.0), rubric.Category("slow", "token_ratio > p98", 0.0)],
        thresholds=[rubric.Threshold("p98", percentile=98, of="token_ratio")],
    )
    res = perturb_rubric(attempts, schema, n=200, threshold_shift=5, seed=1)
    threshold = res.parameters[-1]
    assert (threshold.low, threshold.high) == (-5.0, 2.0)
    assert res.samples[:, -1].max() <= 2.0


def test_zero_weights_and_fixed_thresholds_are_reported(attempts):
    res = perturb_rubric(attempts, "Verifier Prob", n=5)
    assert any("stay 0" in note for note in res.notes)
    assert any("tau_A_high" in note for note in res.notes)  # absolute threshold, not perturbed
    assert all(p.kind == "weight" for p in res.parameters)  # no percentile thresholds in this schema


def test_progress_and_cancel(attempts):
    seen = []
    perturb_rubric(attempts, "Format Aware", n=100, progress=lambda f: seen.append(f))
    assert seen and seen == sorted(seen) and seen[-1] <= 1.0
    with pytest.raises(Cancelled):
        perturb_rubric(attempts, "Format Aware", n=100, progress=lambda f: False)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        (dict(n=0), ValueError),
        (dict(n=2.5), TypeError),
        (dict(weight_range=1.5), ValueError),
        (dict(weight_range="0.2"), TypeError),
        (dict(threshold_shift=-1.0), ValueError),
        (dict(seed=-1), ValueError),
        (dict(progress=3), TypeError),
    ],
)
def test_perturb_validation(attempts, kwargs, error):
    with pytest.raises(error):
        perturb_rubric(attempts, "Format Aware", **kwargs)


def test_one_model_cannot_be_ranked(attempts):
    one = attempts[attempts["model"] == attempts["model"].iloc[0]]
    with pytest.raises(InputError, match="at least 2 models"):
        perturb_rubric(one, "Format Aware", n=5)


def test_missing_signal_is_an_input_error(attempts):
    with pytest.raises(InputError, match="has_box"):
        perturb_rubric(attempts.drop(columns=["has_box"]), "Format Aware", n=5)


@pytest.mark.parametrize("prior", ["empirical-bayes", "jeffreys"])
def test_prior_matches_the_leaderboard(attempts, tmp_path, prior):
    dataset = _dataset(attempts, tmp_path)
    cat, _ = categorization_for(dataset, "Format Aware")
    table = leaderboard(outcomes_for(dataset, None, cat), prior=prior, scope="questions-sampled").set_index("model")
    res = schema_ranks(attempts, ["Format Aware"], prior=prior, scope="questions-sampled")
    assert (res.prior, res.scope) == (prior, "questions-sampled")
    for i, model in enumerate(res.models):
        assert res.mu[0, i] == pytest.approx(table.loc[model, "mu"], abs=1e-12)
        assert res.sigma[0, i] == pytest.approx(table.loc[model, "sigma"], abs=1e-12)


def test_skipped_summary_counts_the_missing_signals():
    from scorio_core.sensitivity import SkippedSchema, one_rubric_note, skipped_summary

    skipped = [SkippedSchema(f"S{i}", ("a", "b") if i < 3 else ("a", f"x{i}"), "") for i in range(9)]
    text = skipped_summary(skipped, limit=3)
    assert text.startswith("9 schemata skipped (S0, S1, S2, S3, S4, S5, S6, S7, ...): the data lacks a (needed by 9), ")
    assert text.endswith("b (3), x3 (1) and 5 more.")  # ties in need sorted by name; 8 signals, 3 named
    assert skipped_summary([]) == "" and skipped_summary(skipped[:1]).startswith("1 schema skipped (S0)")
    assert one_rubric_note(type("R", (), {"schemas": ("A", "B")})()) is None
