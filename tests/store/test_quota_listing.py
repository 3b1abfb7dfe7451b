"""Quotas (per file, whole workspace) and the shared/private listing setting."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.store import QuotaError, Workspace, read_settings


def test_defaults(monkeypatch, tmp_path):
    for var in ("SCORIO_WORKSPACE", "SCORIO_WORKSPACE_MAX_FILE_BYTES", "SCORIO_WORKSPACE_MAX_BYTES", "SCORIO_WORKSPACE_LISTING"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    s = read_settings()
    assert s.root == tmp_path / "workspace"
    assert (s.max_file_bytes, s.max_bytes, s.listing) == (200 * 2**20, 20 * 2**30, "shared")  # issue 14 defaults
    monkeypatch.setenv("SCORIO_WORKSPACE", str(tmp_path / "elsewhere"))
    ws = Workspace()
    assert ws.root == tmp_path / "elsewhere" and (ws.root / "catalog.sqlite3").is_file()


def test_per_file_quota_names_file_size_limit_and_variable(monkeypatch, tmp_path, counts_files):
    monkeypatch.setenv("SCORIO_WORKSPACE_MAX_FILE_BYTES", "10000")
    ws = Workspace(tmp_path)
    with pytest.raises(QuotaError) as err:
        ws.save_dataset("aime", counts_files, io.load(counts_files))
    msg = str(err.value)
    assert isinstance(err.value, InputError)
    assert msg.startswith("matharena_aime_2025_I_counts.csv: ")
    assert "17,505 bytes" in msg and "10,000 bytes" in msg and "SCORIO_WORKSPACE_MAX_FILE_BYTES" in msg
    assert ws.usage().n_blobs == 0 and ws.list_datasets() == []


def test_total_quota(monkeypatch, tmp_path, counts_files, verifier_files):
    monkeypatch.setenv("SCORIO_WORKSPACE_MAX_BYTES", "30000")
    ws = Workspace(tmp_path)
    ws.save_dataset("aime", counts_files, io.load(counts_files))  # 17,505 + its table
    with pytest.raises(QuotaError, match="SCORIO_WORKSPACE_MAX_BYTES") as err:
        ws.save_dataset("verifier", verifier_files, io.load(verifier_files))
    assert "30,000 bytes" in str(err.value)
    ws.save_dataset("aime again", counts_files, io.load(counts_files))  # nothing new to store: allowed


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_invalid_variables(monkeypatch, tmp_path, value):
    monkeypatch.setenv("SCORIO_WORKSPACE_MAX_BYTES", value)
    with pytest.raises(ValueError, match="SCORIO_WORKSPACE_MAX_BYTES"):
        Workspace(tmp_path)


def test_invalid_listing(monkeypatch, tmp_path):
    monkeypatch.setenv("SCORIO_WORKSPACE_LISTING", "public")
    with pytest.raises(ValueError, match="SCORIO_WORKSPACE_LISTING"):
        Workspace(tmp_path)


def _populate(ws, counts_files, verifier_files):
    a = ws.save_dataset("alice's", counts_files, io.load(counts_files), owner="alice")
    b = ws.save_dataset("bob's", verifier_files, io.load(verifier_files), owner="bob")
    ci = ws.save_dataset("published", counts_files, io.load(counts_files))  # no owner (CLI, CI)
    ws.save_analysis(a.id, {"who": "alice"}, "p", owner="alice")
    ws.save_analysis(b.id, {"who": "bob"}, "p", owner="bob")
    return a, b, ci


def test_shared_listing_shows_everything(tmp_path, counts_files, verifier_files):
    ws = Workspace(tmp_path, listing="shared")
    _populate(ws, counts_files, verifier_files)
    assert len(ws.list_datasets(owner="alice")) == len(ws.list_datasets()) == 3
    assert len(ws.list_analyses(owner="bob")) == 2


def test_private_listing_shows_own_and_ownerless_rows(monkeypatch, tmp_path, counts_files, verifier_files):
    monkeypatch.setenv("SCORIO_WORKSPACE_LISTING", "private")
    ws = Workspace(tmp_path)
    a, b, ci = _populate(ws, counts_files, verifier_files)
    assert {d.id for d in ws.list_datasets(owner="alice")} == {a.id, ci.id}
    assert {d.id for d in ws.list_datasets(owner="bob")} == {b.id, ci.id}
    assert {d.id for d in ws.list_datasets()} == {ci.id}
    assert [x.state for x in ws.list_analyses(owner="alice")] == [{"who": "alice"}]
    assert ws.list_analyses(owner="mallory") == []
    assert ws.get_dataset(b.id).owner == "bob"  # an id is a capability: lookups are not filtered
