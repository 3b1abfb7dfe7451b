"""``workspace``: list, show, add, delete, restore and garbage-collect the persistent workspace.

Usage::

    python -m scorio_core workspace [--root DIR] list [--deleted] [--output json|table]
    python -m scorio_core workspace [--root DIR] show ID [--output json|table]
    python -m scorio_core workspace [--root DIR] add FILE... [--name NAME] [--format F]
        [--map CANONICAL=COLUMN ...] [--engine auto|pandas|duckdb|spark] [choices] [--output json|table]
    python -m scorio_core workspace [--root DIR] delete ID [--force] [--output json|table]
    python -m scorio_core workspace [--root DIR] restore ID [--output json|table]
    python -m scorio_core workspace [--root DIR] gc [--force] [--retention-days DAYS] [--output json|table]
    python -m scorio_core workspace [--root DIR] usage [--output json|table]

``--root`` defaults to ``$SCORIO_WORKSPACE`` or ``./workspace``; ``--root`` and ``--output``
may be given before or after the action. The CLI lists every row (``listing`` is ``shared``).
``delete`` is soft: the dataset (with its analyses) or analysis is hidden at once and can be
restored with ``restore`` until ``gc`` purges it, once it was deleted longer ago than the
retention period (``--retention-days``, default ``$SCORIO_WORKSPACE_RETENTION_DAYS`` or 30).

JSON output (``--output json``), one object per action:

- ``list``: ``{"root", "datasets": [dataset...], "analyses": [analysis...]}``
- ``list --deleted``: ``{"root", "retention_days", "datasets": [deleted...], "analyses": [deleted...]}``
- ``show``: ``{"kind": "dataset", "dataset": dataset, "report": report}`` or
  ``{"kind": "analysis", "analysis": analysis}``
- ``add``: ``{"dataset": dataset, "created": bool, "engine"}`` (``created`` is false when the same
  files with the same table were already stored: the existing dataset is returned). When the
  engine counts (``--engine auto`` on tables of 50 MB or more or a quoted glob, ``duckdb``,
  ``spark``), the stored file is the count table ``<stem>.counts.parquet``, with the trial order
  kept as prefix counts (observed trajectories in the app), as the app stores large uploads.
- ``delete``: ``{"kind": "dataset" | "analysis", "id", "analyses_deleted": int, "deleted", "restore_until"}``
- ``restore``: ``{"kind": "dataset", "id", "analyses_restored": int, "dataset": dataset}`` or
  ``{"kind": "analysis", "id", "analyses_restored": 1, "analysis": analysis}``
- ``gc``: ``{"removed_blobs", "removed_bytes", "removed_temp_files", "kept_blobs", "purged_datasets",
  "purged_analyses"}``
- ``usage``: ``{"root", "n_datasets", "n_analyses", "n_blobs", "blob_bytes", "catalog_bytes",
  "max_bytes", "max_file_bytes", "listing"}``

where ``dataset`` is :meth:`scorio_core.store.DatasetRecord.to_dict` (``id, name, created,
layout, n_models, n_questions, n_trials, n_rows, size_bytes, table_sha256, owner, sources``
with ``sources`` a list of ``{position, name, format, sha256, size_bytes}``), ``analysis`` is
:meth:`scorio_core.store.AnalysisRecord.to_dict` (``id, dataset_id, state, page, created,
updated, immutable, owner``), ``deleted`` is :meth:`scorio_core.store.DeletedRecord.to_dict` (``kind, id,
name, dataset_id, deleted, restore_until, n_analyses, owner``; times ISO 8601 UTC) and ``report`` is
:meth:`scorio_core.io.QualityReport.to_dict`.
Bad input (an invalid or unknown id, a file over the quota) exits with status 2 and one
``error: ...`` line.
"""

from __future__ import annotations

import argparse
import sys

from scorio_core.cli._common import add_choice_arguments, add_engine_argument, emit_json, load_for_storage

__all__ = ["register", "run"]


def _common_options(defaults: bool) -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--root", "--workspace", dest="root", default=None if defaults else argparse.SUPPRESS,
                        metavar="DIR", help="workspace directory (default: $SCORIO_WORKSPACE or ./workspace; "
                                            "--workspace as in publish)")
    parent.add_argument("--output", choices=("table", "json"), default="table" if defaults else argparse.SUPPRESS)
    return parent


def register(subparsers) -> None:
    """Add the ``workspace`` subcommand and its actions."""
    from scorio_core.cli import _Parser

    parser = subparsers.add_parser(
        "workspace", parents=[_common_options(True)],
        help="the persistent workspace: list, show, add, delete, restore, gc, usage",
        description="Manage the persistent workspace of stored datasets and saved analyses "
                    "(README, 'Workspace'). `add` loads eval dumps and stores them, so a CI "
                    "pipeline can publish a dataset.",
    )
    actions = parser.add_subparsers(dest="action", metavar="<action>", parser_class=_Parser)
    actions.required = True
    sub = _common_options(False)
    listing = actions.add_parser("list", parents=[sub], help="datasets and analyses")
    listing.add_argument("--deleted", action="store_true", help="the deleted ones that can still be restored")
    show = actions.add_parser("show", parents=[sub], help="one dataset (with its quality report) or analysis")
    show.add_argument("id", metavar="ID")
    delete = actions.add_parser("delete", parents=[sub], help="delete a dataset (with its analyses) or an analysis; "
                                "restorable until gc purges it after the retention period")
    delete.add_argument("id", metavar="ID")
    delete.add_argument("--force", action="store_true", help="also delete a dataset's shared snapshots")
    restore = actions.add_parser("restore", parents=[sub], help="restore a deleted dataset (with the analyses deleted "
                                 "with it) or analysis")
    restore.add_argument("id", metavar="ID")
    gc = actions.add_parser("gc", parents=[sub], help="purge rows deleted longer ago than the retention period, then "
                            "remove unreferenced blobs and files left by interrupted writes")
    gc.add_argument("--force", action="store_true", help="remove them even when the catalog lists no dataset at all "
                    "(refused by default: a replaced or truncated catalog would cost every stored upload)")
    gc.add_argument("--retention-days", type=float, default=None, metavar="DAYS",
                    help="purge rows deleted at least DAYS ago (0: all deleted rows; default: "
                         "$SCORIO_WORKSPACE_RETENTION_DAYS or 30)")
    actions.add_parser("usage", parents=[sub], help="space used and the limits")
    add = actions.add_parser("add", parents=[sub], help="load eval dump files and store them as a dataset")
    add.add_argument("paths", nargs="+", metavar="FILE", help="eval dump file(s) or folders (a folder: its supported files, as every command reads it)")
    add.add_argument("--name", default=None, help="dataset name (default: the file names)")
    add.add_argument("--format", "--input-format", dest="format", default=None, help="input format (default: auto-detect)")
    add.add_argument("--map", dest="mapping", action="append", default=[], metavar="CANONICAL=COLUMN",
                     help="column mapping override (repeatable)")
    add_engine_argument(add)
    add_choice_arguments(add)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Execute ``workspace ACTION``; returns the exit status."""
    from scorio_core.store import Workspace

    ws = Workspace(args.root, listing="shared")
    actions = {"list": _list, "show": _show, "add": _add, "delete": _delete, "restore": _restore, "gc": _gc,
               "usage": _usage}
    out = actions[args.action](ws, args)
    if args.output == "json":
        emit_json(out)
    else:
        _print(args.action, out, sys.stdout)
    return 0


def _list(ws, args) -> dict:
    if args.deleted:
        rows = ws.list_deleted()
        return {"root": str(ws.root), "retention_days": ws.retention_days,
                "datasets": [r.to_dict() for r in rows if r.kind == "dataset"],
                "analyses": [r.to_dict() for r in rows if r.kind == "analysis"]}
    return {"root": str(ws.root), "datasets": [d.to_dict() for d in ws.list_datasets()],
            "analyses": [a.to_dict() for a in ws.list_analyses()]}


def _show(ws, args) -> dict:
    from scorio_core.store import NotFoundError, validate_id

    validate_id(args.id)
    try:
        return {"kind": "dataset", "dataset": ws.get_dataset(args.id).to_dict(),
                "report": ws.dataset_report(args.id).to_dict()}
    except NotFoundError:
        pass
    try:
        return {"kind": "analysis", "analysis": ws.get_analysis(args.id).to_dict()}
    except NotFoundError:
        raise NotFoundError(f"no dataset or analysis with id {args.id!r} in the workspace.") from None


def _delete(ws, args) -> dict:
    from scorio_core.store import NotFoundError, validate_id

    validate_id(args.id)
    try:
        out = {"kind": "dataset", "id": args.id, "analyses_deleted": ws.delete_dataset(args.id, force=args.force)}
    except NotFoundError:
        try:
            ws.delete_analysis(args.id)
        except NotFoundError:
            raise NotFoundError(f"no dataset or analysis with id {args.id!r} in the workspace.") from None
        out = {"kind": "analysis", "id": args.id, "analyses_deleted": 1}
    row = next(r for r in ws.list_deleted() if r.id == args.id)
    return {**out, "deleted": row.deleted, "restore_until": row.restore_until}


def _restore(ws, args) -> dict:
    from scorio_core.store import NotFoundError, validate_id

    validate_id(args.id)
    row = next((r for r in ws.list_deleted() if r.id == args.id), None)
    if row is not None and row.kind == "dataset":
        return {"kind": "dataset", "id": args.id, "analyses_restored": row.n_analyses,
                "dataset": ws.restore_dataset(args.id).to_dict()}
    try:  # an analysis of a deleted dataset says to restore the dataset
        return {"kind": "analysis", "id": args.id, "analyses_restored": 1,
                "analysis": ws.restore_analysis(args.id).to_dict()}
    except NotFoundError:
        raise NotFoundError(f"no deleted dataset or analysis with id {args.id!r} in the workspace (it is not "
                            "deleted, or gc purged it after the retention period).") from None


def _gc(ws, args) -> dict:
    return ws.gc(force=args.force, retention_days=args.retention_days).to_dict()


def _usage(ws, args) -> dict:
    return ws.usage().to_dict()


def _read(ws, paths) -> list[tuple[str, bytes]]:
    from scorio_core.cli.publish import read_files

    return read_files(ws, paths, "workspace add")


def _add(ws, args) -> dict:
    dataset, files, default_name = load_for_storage(args, lambda paths: _read(ws, paths))
    record, created = ws.save_dataset(args.name or default_name[:200], files, dataset, return_created=True)
    return {"dataset": record.to_dict(), "created": created, "engine": args.engine_used}


def _print(action: str, out: dict, stream) -> None:
    w = stream.write
    if action == "list" and "retention_days" in out:
        w(f"workspace {out['root']}: deleted, restorable for {out['retention_days']:g} days (workspace restore ID)\n")
        for r in out["datasets"] + out["analyses"]:
            extra = f"  with {r['n_analyses']} analys{'is' if r['n_analyses'] == 1 else 'es'}" if r["kind"] == "dataset" else f"  dataset {r['dataset_id']}"
            w(f"  {r['kind']} {r['id']}  {r['name']}{extra}  deleted {r['deleted']}  restore until {r['restore_until']}\n")
        if not out["datasets"] + out["analyses"]:
            w("  nothing deleted\n")
    elif action == "list":
        w(f"workspace {out['root']}\n")
        w(f"datasets ({len(out['datasets'])})\n")
        for d in out["datasets"]:
            w(f"  {d['id']}  {d['name']}  {d['layout']}  {d['n_models']} models x {d['n_questions']} questions x "
              f"<= {d['n_trials']} trials  {d['size_bytes']:,} bytes  {d['created']}\n")
        w(f"analyses ({len(out['analyses'])})\n")
        for a in out["analyses"]:
            w(f"  {a['id']}  dataset {a['dataset_id']}  page {a['page']}  {'shared' if a['immutable'] else 'draft'}  "
              f"{a['updated']}\n")
    elif action in ("show", "add") and "dataset" in out:
        d = out["dataset"]
        if action == "add":
            w("stored new dataset\n" if out["created"] else "already stored: returning the existing dataset\n")
        w(f"dataset {d['id']}  {d['name']}\n  {d['layout']}, {d['n_rows']} rows, {d['n_models']} models, "
          f"{d['n_questions']} questions, <= {d['n_trials']} trials, created {d['created']}\n")
        for s in d["sources"]:
            w(f"  source {s['position']}: {s['name']}  format={s['format']}  {s['size_bytes']:,} bytes  "
              f"sha256={s['sha256'][:12]}\n")
        for issue in out.get("report", {}).get("blocking", []):
            w(f"  BLOCKING: {issue}\n")
    elif action == "delete":
        w(f"deleted {out['kind']} {out['id']}" + (f" and {out['analyses_deleted']} analys{'is' if out['analyses_deleted'] == 1 else 'es'}" if out["kind"] == "dataset"
                                                   else "")
          + f"; it can be restored until {out['restore_until'][:16].replace('T', ' ')} UTC (workspace restore "
          f"{out['id']}), then gc purges it\n")
    elif action == "restore":
        w(f"restored {out['kind']} {out['id']}" + (f" with {out['analyses_restored']} analys{'is' if out['analyses_restored'] == 1 else 'es'}"
                                                   if out["kind"] == "dataset" else "") + "\n")
    elif action == "show":
        a = out["analysis"]
        w(f"analysis {a['id']}  dataset {a['dataset_id']}  page {a['page']}  "
          f"{'shared snapshot' if a['immutable'] else 'draft'}  updated {a['updated']}\n")
    else:
        for key, value in out.items():
            w(f"{key}: {value}\n")
