"""Publishing an analysis: the state a share link opens, built the same way by the app and the CLI.

A shared analysis is stored as ``{"manifest": <scorio-analysis manifest>, "views": {...}}``
(:func:`analysis_state`): the manifest of :mod:`scorio_core.report.manifest` (data, choices,
task, rubric, settings) plus the page widgets the app restores beside it (compared models,
figure settings). The app's **Share** button (``dashboard/share/links.py``) and
``python -m scorio_core publish`` both build it here, so a link made by a CI job opens exactly
like one made in the browser: ``<base>/?analysis=<id>`` (:func:`share_links`).

No Streamlit import.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from scorio_core.errors import InputError

__all__ = [
    "APP_SETTINGS",
    "DATASET_KEY_PREFIX",
    "DEFAULT_BASE_URL",
    "PublishResult",
    "analysis_state",
    "check_task",
    "dataset_key",
    "publish",
    "publish_manifest",
    "share_links",
]

#: How the app names a workspace dataset in its dataset list and in manifests (``ws:<id>``).
DATASET_KEY_PREFIX = "ws:"
DEFAULT_BASE_URL = "http://localhost:8501"
#: The app's leaderboard settings before a user changes anything (Leaderboard page and sidebar).
APP_SETTINGS = {"metric": "bayes", "k": 1, "tau": 0.5, "confidence": 0.95, "tie_rule": "pairwise",
                "prior": "empirical-bayes", "scope": "questions-fixed", "question_set": "own"}
#: Credibility levels the app offers (a manifest with another level restores to the nearest).
CONFIDENCE_LEVELS = (0.8, 0.9, 0.95, 0.99)
#: Seeds the app records (posterior rank distribution of the Leaderboard page).
APP_SEEDS = {"rank_distribution": {"seed": 0, "note": "draws depend on the data size (200 to 4,000)"}}
_MAX_URL = 2000


def dataset_key(dataset_id: str) -> str:
    """The app's key of a workspace dataset (``ws:<id>``), after validating the id.

    Parameters
    ----------
    dataset_id : str

    Returns
    -------
    str

    Raises
    ------
    InputError
        An invalid id.
    """
    from scorio_core.store._ids import validate_id

    return DATASET_KEY_PREFIX + validate_id(dataset_id, "dataset id")


def analysis_state(manifest: dict, views: dict | None = None) -> dict:
    """The JSON object a shared analysis stores (what ``?analysis=<id>`` restores).

    Parameters
    ----------
    manifest : dict
        A ``scorio-analysis`` manifest (JSON-ready, e.g. ``json.loads(manifest_to_json(...))``).
    views : dict, optional
        Page widget values restored beside the manifest (simple JSON values).

    Returns
    -------
    dict
        ``{"manifest": manifest, "views": views}``.

    Raises
    ------
    TypeError
        ``manifest`` or ``views`` is not a dict.
    """
    if not isinstance(manifest, dict):
        raise TypeError(f"manifest must be a dict; got {type(manifest).__name__}.")
    if views is not None and not isinstance(views, dict):
        raise TypeError(f"views must be a dict; got {type(views).__name__}.")
    return {"manifest": manifest, "views": dict(views or {})}


def share_links(base_url: str, analysis_id: str) -> tuple[str, str]:
    """The share link and the presentation link of an analysis.

    Parameters
    ----------
    base_url : str
        The app's root address (``http://`` or ``https://``, no query or fragment).
    analysis_id : str
        A valid analysis id.

    Returns
    -------
    link, present_link : str
        ``<base>/?analysis=<id>`` and ``<base>/?analysis=<id>&view=present``.

    Raises
    ------
    InputError
        An invalid base URL or id.
    """
    from scorio_core.store._ids import validate_id

    validate_id(analysis_id, "analysis id")
    base = str(base_url).strip()
    scheme = base.split("://", 1)[0].lower() if "://" in base else ""
    if scheme not in ("http", "https") or not base.split("://", 1)[1].strip("/") or len(base) > _MAX_URL \
            or any(c in base for c in "?#\"'<> \t\r\n"):
        raise InputError(f"--base-url must be an http(s) address without query or fragment, e.g. {DEFAULT_BASE_URL}; "
                         f"got {base[:80]!r}.", field="base_url")
    link = f"{base.rstrip('/')}/?analysis={analysis_id}"
    return link, link + "&view=present"


def _check_settings(settings: dict | None) -> dict:
    from scorio_core.leaderboard.metrics import METRICS

    merged = dict(APP_SETTINGS)
    unknown = set(settings or {}) - set(APP_SETTINGS)
    if unknown:
        raise InputError(f"unknown settings: {', '.join(sorted(unknown))}.", field="settings")
    merged.update({k: v for k, v in (settings or {}).items() if v is not None})
    if merged["metric"] not in METRICS:
        raise InputError(f"unknown metric {merged['metric']!r}; choose from {', '.join(METRICS)}.", field="metric")
    if isinstance(merged["k"], bool) or not isinstance(merged["k"], int) or merged["k"] < 1:
        raise InputError(f"k must be an integer >= 1; got {merged['k']!r}.", field="k")
    merged["tau"] = float(merged["tau"])
    if not 0.0 <= merged["tau"] <= 1.0:
        raise InputError(f"tau must be in [0, 1]; got {merged['tau']!r}.", field="tau")
    merged["confidence"] = float(merged["confidence"])
    if merged["confidence"] not in CONFIDENCE_LEVELS:
        raise InputError(f"the app offers the credibility levels {', '.join(f'{c:g}' for c in CONFIDENCE_LEVELS)}; "
                         f"got {merged['confidence']:g}.", field="confidence")
    return merged


def check_task(dataset, task: str | None) -> str:
    """The task a link of ``dataset`` opens on: ``task``, or the first task when None.

    Parameters
    ----------
    dataset : Dataset
        The loaded dataset.
    task : str or None
        A task name, ``"All tasks"`` when the data has more than one task, or None for the first task.

    Returns
    -------
    str
        The task name.

    Raises
    ------
    InputError
        The dataset has no rows, or ``task`` is not one of its tasks (the message lists them; ``field="task"``).
    """
    from scorio_core.leaderboard.table import ALL_TASKS, task_names

    tasks = task_names(dataset)
    if not tasks:
        raise InputError("the dataset has no tasks (no rows).")
    options = tasks + ([ALL_TASKS] if len(tasks) > 1 else [])
    task = tasks[0] if task is None else str(task)
    if task not in options:
        raise InputError(f"task {task!r} is not in the data (tasks: {', '.join(options[:8])}).", field="task")
    return task


def publish_manifest(dataset_id: str, name: str, dataset, *, task: str | None = None, schema=None,
                     settings: dict | None = None, max_tokens: int | None = None) -> dict:
    """The manifest the app would build for a stored dataset opened with default settings.

    Parameters
    ----------
    dataset_id : str
        Workspace id of the stored dataset.
    name : str
        Its display name (the app labels it ``Uploaded: <name>``).
    dataset : scorio_core.io.Dataset
        The stored dataset.
    task : str, optional
        Task the link opens (default: the first task, as the app does; ``"all tasks"`` pools them).
    schema : str, dict, path or scorio_core.rubric.Schema, optional
        Rubric (built-in name or rubric JSON); None or the default schema means binary correctness.
    settings : dict, optional
        Overrides of :data:`APP_SETTINGS`.
    max_tokens : int, optional
        Completion-token limit for the ``token_ratio`` signal of a rubric.

    Returns
    -------
    dict
        JSON-ready ``scorio-analysis`` manifest.

    Raises
    ------
    InputError
        Unknown task, invalid settings, or a rubric that cannot run on the data.
    """
    from scorio_core.leaderboard.table import ALL_TASKS
    from scorio_core.report.manifest import build_manifest, manifest_to_json
    from scorio_core.rubric import DEFAULT_SCHEMA, categorize, get_schema, resolve_schema

    task = check_task(dataset, task)
    merged = _check_settings(settings)
    resolved = None if schema is None else resolve_schema(schema)
    thresholds = None
    if resolved is not None and resolved == get_schema(DEFAULT_SCHEMA):
        resolved = None  # the app treats the default schema as binary correctness
    if resolved is not None:
        if dataset.attempts is None:
            raise InputError("a rubric needs attempt-level data; count tables only support binary correctness.")
        attempts = dataset.attempts
        rows = attempts if task == ALL_TASKS else attempts.loc[(attempts["task"] == task).to_numpy()]
        thresholds = dict(categorize(rows, resolved, None, max_tokens=max_tokens).thresholds)
    manifest = build_manifest(
        dataset_key=dataset_key(dataset_id), dataset_label=f"Uploaded: {name}", sources=dataset.sources, choices={},
        task=task, schema=resolved, thresholds=thresholds, frozen=False, prior=None, settings=merged,
        seeds=APP_SEEDS, extra_versions=("streamlit", "plotly"))
    return json.loads(manifest_to_json(manifest))


@dataclass(frozen=True)
class PublishResult:
    """What :func:`publish` stored.

    Attributes
    ----------
    analysis_id : str
        The immutable snapshot (share link id).
    dataset_id : str
    dataset_created : bool
        False when the same files were already stored (the existing dataset is reused).
    dataset_name : str
        The dataset's name in the workspace: the existing one's when it is reused (a new
        name given with the same files does not rename it).
    link, present_link : str
        Share link and presentation link.
    """

    analysis_id: str
    dataset_id: str
    dataset_created: bool
    dataset_name: str
    link: str
    present_link: str

    def to_dict(self) -> dict[str, Any]:
        """JSON object with keys ``analysis_id, dataset_id, dataset_created, dataset_name, link, present_link``."""
        return asdict(self)


def publish(ws, name: str, files, dataset, *, base_url: str = DEFAULT_BASE_URL, task: str | None = None,
            schema=None, settings: dict | None = None, max_tokens: int | None = None,
            page: str = "leaderboard") -> PublishResult:
    """Store a dataset and an immutable analysis of it; return the share links.

    Parameters
    ----------
    ws : scorio_core.store.Workspace
    name : str
        Dataset display name.
    files : list of (str, bytes)
        Source files exactly as given to :func:`scorio_core.io.load`.
    dataset : scorio_core.io.Dataset
        What ``load`` (and ``apply_choices``) returned for ``files``; must be ready
        (no blocking data-quality issue).
    base_url : str
        The app's root address for the links.
    task, schema, settings, max_tokens
        As in :func:`publish_manifest`.
    page : str
        Page recorded with the analysis.

    Returns
    -------
    PublishResult

    Raises
    ------
    InputError
        Invalid input (see :func:`publish_manifest`, :func:`share_links`), or a dataset that
        still needs a data-quality choice.
    QuotaError
        The workspace is full.
    """
    share_links(base_url, "A" * 22)  # check the address before storing anything
    dataset.require_ready()
    check_task(dataset, task)  # cheap checks before anything is stored
    _check_settings(settings)
    record, created = ws.save_dataset(name, files, dataset, return_created=True)
    manifest = publish_manifest(record.id, record.name, dataset, task=task, schema=schema, settings=settings,
                                max_tokens=max_tokens)
    draft = ws.save_analysis(record.id, analysis_state(manifest), page=page)
    snapshot = ws.share_analysis(draft.id)
    ws.delete_analysis(draft.id, purge=True)  # only the immutable snapshot is kept (it holds the same state)
    link, present = share_links(base_url, snapshot.id)
    return PublishResult(snapshot.id, record.id, created, record.name, link, present)
