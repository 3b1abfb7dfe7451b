"""Display names (issue 16): shorter, always unique, the full name kept elsewhere."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.report.names import display_names


def test_prefixes_and_dates_by_hand():
    names = display_names(["anthropic/claude-3-5-sonnet-20241022", "openai/gpt-4o-2024-08-06", "openai/gpt-4-0613"])
    assert list(names.values()) == ["claude-3-5-sonnet", "gpt-4o", "gpt-4-0613"]  # -0613 is not a date we cut
    assert display_names(["runs__2025__m1", "runs__2025__m2"]) == {"runs__2025__m1": "m1", "runs__2025__m2": "m2"}
    assert display_names(["gpt-4o", "gpt-4"]) == {"gpt-4o": "gpt-4o", "gpt-4": "gpt-4"}  # dashes are part of names
    assert display_names(["x/a", "y/a"]) == {"x/a": "x/a", "y/a": "y/a"}  # would collide: kept
    odd = ["<b>bold</b>-beta", "a b/c", "model-alpha"]
    assert display_names(odd) == {n: n for n in odd}  # only organisation-like prefixes (letters, digits, . _ -)
    long = display_names(["m" * 60])["m" * 60]
    assert len(long) == 36 and "…" in long


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab/_-:2019 ", min_size=1, max_size=24), min_size=1, max_size=8, unique=True))
def test_display_names_stay_unique_and_non_empty(models):
    names = display_names(models)
    assert list(names) == models
    assert len(set(names.values())) == len(models)
    assert all(v for v in names.values())


def test_long_names_keep_the_tokens_that_tell_them_apart():
    """A real multi-game agent leaderboard: long names that differ in their first and last tokens. A fixed middle cut
    kept ``LLM/20250425_naive…`` and lost the model; dropping the tokens every name shares keeps both ends."""
    models = ["LLM/20250425_naive_agent_gemini-2.5-Pro-Exp-03-25", "VLM/20250425_naive_agent_gemini-2.5-Pro-Exp-03-25",
              "LLM/20250425_naive_agent_claude-3-7-sonnet-20250219", "LLM/20250425_naive_agent_o4-mini-2025-04-16"]
    names = display_names(models)
    assert names[models[0]] == "LLM/…gemini-2.5-Pro-Exp-03-25" and names[models[1]] == "VLM/…gemini-2.5-Pro-Exp-03-25"
    assert names[models[2]] == "LLM/…claude-3-7-sonnet"  # date dropped first, then the shared tokens
    assert all(len(v) <= 36 for v in names.values()) and len(set(names.values())) == 4
    # short names are left alone even when they share tokens
    assert display_names(["gpt-4o", "gpt-4o-mini"]) == {"gpt-4o": "gpt-4o", "gpt-4o-mini": "gpt-4o-mini"}


def test_organisations_only_where_derivable():
    from scorio_core.report.names import organisations

    got = organisations(["meta-llama/Llama-3.1-8B", "gpt4o", "Qwen2.5-72B", "DeepSeek-R1", "agent-x", "a/b/c"])
    assert got == {"meta-llama/Llama-3.1-8B": "meta-llama", "gpt4o": "OpenAI", "Qwen2.5-72B": "Alibaba",
                   "DeepSeek-R1": "DeepSeek", "agent-x": "", "a/b/c": ""}


def test_one_organisation_whatever_the_letter_case():
    """QA: a dump merging harnesses listed 'openai' (from openai/gpt-4o) beside 'OpenAI' (gpt-4o-mini's maker) in the
    Org column, and the sidebar offered 'Qwen' and 'qwen' as two organisations."""
    import pandas as pd

    from scorio_core.report.groups import model_groups
    from scorio_core.report.names import organisations

    got = organisations(["openai/gpt-4o", "gpt-4o-mini", "OPENAI/o3", "Qwen/Qwen2.5-7B", "qwen/qwq-32b", "qwen/x",
                         "meta-llama/Llama-3.1-8B", "Meta-Llama/Llama-3.1-70B", "my-agent"])
    assert got == {"openai/gpt-4o": "OpenAI", "gpt-4o-mini": "OpenAI", "OPENAI/o3": "OpenAI",
                   "Qwen/Qwen2.5-7B": "qwen", "qwen/qwq-32b": "qwen", "qwen/x": "qwen",  # 2 of 3 write qwen
                   "meta-llama/Llama-3.1-8B": "meta-llama", "Meta-Llama/Llama-3.1-70B": "meta-llama",  # tie: first
                   "my-agent": ""}
    groups = model_groups(pd.DataFrame({"model": ["Qwen/a", "qwen/b", "google/c"], "is_correct": [1, 0, 1]}))
    assert groups.groups == ["Qwen", "google"] and groups.of["qwen/b"] == "Qwen"  # one spelling: kept as written
    assert organisations(["google/gemma-2", "anthropic/x"]) == {"google/gemma-2": "google", "anthropic/x": "anthropic"}
