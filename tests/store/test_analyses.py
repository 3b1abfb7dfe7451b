"""Analyses: autosave in place, immutable shared snapshots, copy-on-write, validation."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.store import MAX_STATE_BYTES, NotFoundError


@pytest.fixture
def dataset_id(ws, counts_files):
    return ws.save_dataset("aime", counts_files, io.load(counts_files)).id


STATE = {"format": "scorio-analysis", "settings": {"metric": "bayes", "k": 1, "confidence": 0.95}, "models": ["a", "b"]}


def test_autosave_updates_in_place(ws, dataset_id):
    first = ws.save_analysis(dataset_id, STATE, "results/leaderboard", owner="s1")
    assert not first.immutable and first.state == STATE and first.owner == "s1"
    changed = {**STATE, "settings": {**STATE["settings"], "k": 4}}
    second = ws.save_analysis(dataset_id, changed, "results/compare", analysis_id=first.id, owner="s2")
    assert second.id == first.id and second.created == first.created and second.updated >= first.updated
    assert (second.state, second.page, second.owner) == (changed, "results/compare", "s1")  # owner kept
    assert [a.id for a in ws.list_analyses()] == [first.id]


def test_share_makes_an_immutable_snapshot(ws, dataset_id):
    draft = ws.save_analysis(dataset_id, STATE, "results/leaderboard")
    shared = ws.share_analysis(draft.id)
    assert shared.id != draft.id and shared.immutable and shared.state == STATE and shared.dataset_id == dataset_id
    assert ws.share_analysis(shared.id) == shared  # sharing a snapshot returns it
    ws.save_analysis(dataset_id, {"edited": True}, "results/leaderboard", analysis_id=draft.id)
    assert ws.get_analysis(shared.id).state == STATE  # the draft moved on, the snapshot did not
    fork = ws.save_analysis(dataset_id, {"edited": "again"}, "results/compare", analysis_id=shared.id)
    assert fork.id not in (shared.id, draft.id) and not fork.immutable  # copy-on-write
    assert ws.get_analysis(shared.id).state == STATE
    assert len(ws.list_analyses(dataset_id=dataset_id)) == 3


def test_to_dict_is_json(ws, dataset_id):
    import json

    record = ws.save_analysis(dataset_id, STATE, "results/leaderboard")
    doc = json.loads(json.dumps(record.to_dict()))
    assert set(doc) == {"id", "dataset_id", "state", "page", "created", "updated", "immutable", "owner"}


def test_errors(ws, dataset_id, verifier_files):
    other = ws.save_dataset("v", verifier_files, io.load(verifier_files)).id
    a = ws.save_analysis(dataset_id, STATE, "p")
    with pytest.raises(InputError, match="belongs to dataset"):
        ws.save_analysis(other, STATE, "p", analysis_id=a.id)
    with pytest.raises(NotFoundError, match="no analysis"):
        ws.save_analysis(dataset_id, STATE, "p", analysis_id="B" * 22)
    with pytest.raises(NotFoundError, match="no dataset"):
        ws.save_analysis("B" * 22, STATE, "p")
    with pytest.raises(TypeError, match="dict"):
        ws.save_analysis(dataset_id, [1, 2], "p")
    with pytest.raises(InputError, match="NaN"):
        ws.save_analysis(dataset_id, {"x": float("nan")}, "p")
    with pytest.raises(InputError, match="JSON"):
        ws.save_analysis(dataset_id, {"x": object()}, "p")
    with pytest.raises(InputError, match="limit"):
        ws.save_analysis(dataset_id, {"x": "a" * MAX_STATE_BYTES}, "p")
    with pytest.raises(InputError, match="page"):
        ws.save_analysis(dataset_id, STATE, "")
    for call in (ws.get_analysis, ws.share_analysis, ws.delete_analysis):
        with pytest.raises(NotFoundError):
            call("C" * 22)


def test_delete_analysis(ws, dataset_id):
    a = ws.save_analysis(dataset_id, STATE, "p")
    s = ws.share_analysis(a.id)
    ws.delete_analysis(s.id)
    assert [x.id for x in ws.list_analyses()] == [a.id]
    with pytest.raises(NotFoundError):
        ws.get_analysis(s.id)
    with pytest.raises(NotFoundError):
        ws.delete_analysis(s.id)  # deleted already
    assert [(r.kind, r.id) for r in ws.list_deleted()] == [("analysis", s.id)]
    assert ws.restore_analysis(s.id) == s  # soft: same id and state
    assert ws.gc(retention_days=0).purged_analyses == 0
    ws.delete_analysis(a.id)
    assert ws.gc(retention_days=0).purged_analyses == 1
    with pytest.raises(NotFoundError, match="no deleted analysis"):
        ws.restore_analysis(a.id)


def test_delete_dataset_takes_its_drafts(ws, dataset_id):
    ws.save_analysis(dataset_id, STATE, "p")
    assert ws.delete_dataset(dataset_id) == 1
    assert ws.list_analyses() == []
    assert ws.restore_dataset(dataset_id).id == dataset_id
    assert len(ws.list_analyses()) == 1  # restored with it
