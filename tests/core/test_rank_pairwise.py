"""The pairwise tie rule (issue 13): rank = 1 + models credibly better; chain notices."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.ranking import rank
from scorio_core.cli import main
from scorio_core.ranking.rank import pairwise_confidence, pairwise_ranks, paper_chains, ranks_with_ties
from tests.paths import MATHARENA


def brute(mu, sigma, confidence, tol=1e-12):
    mu, sigma = np.asarray(mu, float), np.asarray(sigma, float)
    rho = pairwise_confidence(mu, sigma)  # rho[b, a] = P(b > a)
    better = (rho >= confidence) & (mu[:, None] - mu[None, :] > tol)
    return 1 + better.sum(axis=0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), min_size=1, max_size=40),
    st.sampled_from([0.3, 0.5, 0.8, 0.9, 0.95, 0.99]),
)
def test_matches_brute_force(pairs, confidence):
    mu = np.array([p[0] / 40 for p in pairs])  # many exact ties
    sigma = np.array([p[1] / 100 for p in pairs])  # zeros included
    assert pairwise_ranks(mu, sigma, confidence).tolist() == brute(mu, sigma, confidence).tolist()


def test_chunked_band_matches_brute_force(monkeypatch):
    rng = np.random.default_rng(1)
    mu, sigma = rng.normal(0.5, 0.05, 3000), rng.uniform(0.0, 0.03, 3000)
    monkeypatch.setattr(rank, "_PAIR_CHUNK", 1000)  # force many chunks
    assert pairwise_ranks(mu, sigma).tolist() == brute(mu, sigma, 0.95).tolist()


def test_chain_is_reported_and_pairwise_breaks_it():
    mu, sigma = [0.50, 0.48, 0.46, 0.44], [0.01] * 4
    assert ranks_with_ties(mu, sigma, rule="paper").tolist() == [1, 1, 1, 1]
    assert paper_chains(mu, sigma) == [(0, 3)]
    assert pairwise_ranks(mu, sigma).tolist() == [1, 1, 2, 3]
    assert paper_chains([0.7, 0.5], [0.01, 0.01]) == []


def test_matharena_default_rank_ci_is_one_plus_credibly_better(capsys):
    """Issue 13 "Done when": more than one rank group, equal to 1 + #{B: P(B > A) >= 0.95} from the JSON."""
    assert main(["leaderboard", str(MATHARENA), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["rows"]
    assert out["settings"]["tie_rule"] == "pairwise"
    mu = np.array([r["mu"] for r in rows])
    sigma = np.array([r["sigma"] for r in rows])
    assert [r["rank_ci"] for r in rows] == brute(mu, sigma, 0.95).tolist()
    assert len({r["rank_ci"] for r in rows}) > 1
    # the top model is credibly ahead of the bottom one
    assert rows[0]["rank_ci"] == 1 and rows[-1]["rank_ci"] > 10


def test_paper_rule_chain_notice_in_json(capsys):
    assert main(["leaderboard", str(MATHARENA), "--output", "json", "--tie-rule", "paper", "--prior", "uniform"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {r["rank_ci"] for r in out["rows"]} == {1}  # the issue: all 16 share rank 1
    chains = [n for n in out["notes"] if isinstance(n, dict) and n.get("code") == "paper_chain"]
    assert chains and "o3-mini (high)" in chains[0]["models"][0] and chains[0]["probability"] > 0.95


def test_unknown_rule_lists_pairwise():
    with pytest.raises(ValueError, match="pairwise"):
        ranks_with_ties([0.1], [0.1], rule="chain")
