"""A ranking method's options from KEY=VALUE text (issue 38: ``leaderboard --method NAME [method options]``)."""

from __future__ import annotations

import numpy as np
import pytest

import scorio_core.rank as rank
from scorio_core.errors import InputError
from scorio_core.rank.agreement import agreement
from scorio_core.rank.bootstrap import bootstrap_ranks
from scorio_core.rank.options import method_option_names, parse_method_options, parse_options_by_method

R = (np.random.default_rng(5).random((6, 20, 3)) < np.linspace(0.2, 0.8, 6)[:, None, None]).astype(int)


def test_options_are_the_signature_after_r_without_the_return_flags():
    assert method_option_names("elo") == {"K": 32.0, "initial_rating": 1500.0, "tie_handling": "correct_draw_only"}
    assert method_option_names("avg") == {}
    assert "return_deviation" not in method_option_names("glicko")
    assert "return_diagnostics" not in method_option_names("hodge_rank")


def test_values_are_typed_by_the_default():
    assert parse_method_options("elo", ["K=16", "tie_handling=draw"]) == {"K": 16.0, "tie_handling": "draw"}
    assert parse_method_options("thompson", ["seed=7", "n_samples=200"]) == {"seed": 7, "n_samples": 200}
    assert parse_method_options("inverse_difficulty", ["clip_range=0.05,0.95"]) == {"clip_range": (0.05, 0.95)}
    assert parse_method_options("kemeny_young", ["tie_aware=false", "time_limit=2.5"]) == {"tie_aware": False,
                                                                                         "time_limit": 2.5}
    assert parse_method_options("davidson_luce", ["max_tie_order=3"]) == {"max_tie_order": 3}
    assert parse_method_options("rasch_3pl", ["fix_guessing=none"]) == {"fix_guessing": None}
    assert parse_method_options("pagerank", ["teleport=0.5,0.5"]) == {"teleport": [0.5, 0.5]}
    assert parse_method_options("elo", []) == {}


@pytest.mark.parametrize("pairs, words", [
    (["k=16"], "has no option 'k'; its options: K (default 32.0)"),
    (["K16"], "write it as KEY=VALUE"),
    (["K=1", "K=2"], "given twice"),
    (["K=abc"], "K='abc': expected a number"),
    (["K=inf"], "expected a finite number"),
])
def test_bad_text_names_the_option_and_the_fix(pairs, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_method_options("elo", pairs)


def test_bad_types_and_names():
    with pytest.raises(InputError, match="expected an integer"):
        parse_method_options("thompson", ["seed=1.5"])
    with pytest.raises(InputError, match="expected true or false"):
        parse_method_options("kemeny_young", ["tie_aware=maybe"])
    with pytest.raises(InputError, match="unknown ranking method 'nope'"):
        parse_method_options("nope", ["K=1"])
    with pytest.raises(InputError, match="has no option 'R'"):
        parse_method_options("elo", ["R=1"])
    with pytest.raises(InputError, match="has no option 'return_scores'"):
        parse_method_options("elo", ["return_scores=true"])


def test_options_by_method():
    assert parse_options_by_method(["elo.K=16", "rao_kupper.tie_strength=1.5", "elo.initial_rating=1000"]) == {
        "elo": {"K": 16.0, "initial_rating": 1000.0}, "rao_kupper": {"tie_strength": 1.5}}
    with pytest.raises(InputError, match="METHOD.KEY=VALUE"):
        parse_options_by_method(["K=16"])
    with pytest.raises(InputError, match="not among the methods ranked"):
        parse_options_by_method(["borda.x=1"], methods=["elo"])


def test_agreement_ranks_with_the_options():
    got = agreement(R, ["elo", "rao_kupper"], options={"elo": {"K": 8.0}, "rao_kupper": {"tie_strength": 2.0}})
    want_elo = rank.elo(R, K=8.0, return_scores=True)
    want_rk = rank.rao_kupper(R, tie_strength=2.0, return_scores=True)
    np.testing.assert_array_equal(got.scores[0], want_elo[1])
    np.testing.assert_array_equal(got.scores[1], want_rk[1])
    assert not np.allclose(got.scores[0], rank.elo(R, return_scores=True)[1])  # the option changed the ratings


def test_bootstrap_uses_the_options_on_every_resample():
    """A batched or one-pass method given options is ranked one resample at a time with them."""
    idx = np.random.default_rng(3).integers(0, R.shape[1], size=(6, R.shape[1]))
    boot = bootstrap_ranks(R, ["bradley_terry_map", "elo"], n_boot=6, seed=3,
                           options={"bradley_terry_map": {"prior": 0.05}, "elo": {"K": 8.0}})
    for b in range(6):
        np.testing.assert_array_equal(boot.ranks[b, 0], rank.bradley_terry_map(R[:, idx[b]], prior=0.05))
        np.testing.assert_array_equal(boot.ranks[b, 1], rank.elo(R[:, idx[b]], K=8.0))
