"""Ids: 22 characters of the token_urlsafe alphabet; anything else is refused before any query."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.store import new_id, validate_id

HOSTILE = [
    "../../etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e%2f%2e%2e%2f%2e%2e%2f",
    "' OR 1=1 --",
    "'; DROP TABLE datasets; --",
    "AAAAAAAAAAAAAAAAAAAAA'",  # 22 characters with a quote
    "AAAAAAAAAAAAAAAAAAAAA/",
    "AAAAAAAAAAAAAAAAAAAAA.",
    "AAAAAAAAAAAAAAAAAAAAAA\n",
    " AAAAAAAAAAAAAAAAAAAAA",
    "AAAAAAAAAAAAAAAAAAAAAÄ",
    "A" * 21,
    "A" * 23,
    "A" * 100_000,
    "",
    "\x00" * 22,
]


def test_new_ids():
    ids = {new_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", i) for i in ids)
    assert all(validate_id(i) == i for i in ids)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:30]))
def test_hostile_ids_are_refused(text):
    with pytest.raises(InputError, match="22 characters") as err:
        validate_id(text)
    assert isinstance(err.value, ValueError) and len(str(err.value)) < 200  # long input is truncated


@pytest.mark.parametrize("value", [None, 12, b"A" * 22, ["A" * 22]])
def test_non_text_ids(value):
    with pytest.raises(TypeError):
        validate_id(value)


_ALPHABET = set(string.ascii_letters + string.digits + "-_")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_random_text_is_accepted_only_if_it_is_an_id(text):
    ok = len(text) == 22 and set(text) <= _ALPHABET
    if ok:
        assert validate_id(text) == text
    else:
        with pytest.raises(ValueError):
            validate_id(text)


@pytest.mark.parametrize("text", HOSTILE[:6], ids=lambda t: repr(t[:30]))
def test_every_lookup_validates_first(ws, counts_files, text):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    calls = [ws.get_dataset, ws.open_dataset, ws.dataset_files, ws.dataset_report, ws.delete_dataset,
             lambda i: ws.rename_dataset(i, "x"), ws.get_analysis, ws.share_analysis, ws.delete_analysis,
             lambda i: ws.save_analysis(i, {}, "p"), lambda i: ws.save_analysis(record.id, {}, "p", analysis_id=i),
             lambda i: ws.list_analyses(dataset_id=i)]
    for call in calls:
        with pytest.raises(InputError, match="22 characters"):
            call(text)
    assert [d.id for d in ws.list_datasets()] == [record.id]  # nothing was dropped or changed


def test_new_ids_never_look_like_options():
    # regression: an id starting with "-" made `workspace show ID` fail (argparse read it as an option)
    from scorio_core.store import new_id

    assert not any(new_id().startswith("-") for _ in range(5000))
