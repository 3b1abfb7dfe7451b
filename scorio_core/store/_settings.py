"""Workspace settings from the environment, and the quota error.

==================================  =====================  ==========================================
variable                            default                meaning
==================================  =====================  ==========================================
``SCORIO_WORKSPACE``                ``./workspace``        root directory (created on first use)
``SCORIO_WORKSPACE_MAX_FILE_BYTES`` 200 MiB (209715200)    largest source file a dataset may store
``SCORIO_WORKSPACE_MAX_BYTES``      20 GiB (21474836480)   all blobs of the workspace together
``SCORIO_WORKSPACE_LISTING``        ``shared``             ``shared``: every session lists every row;
                                                           ``private``: a session lists its own rows
                                                           and rows without an owner
``SCORIO_WORKSPACE_RETENTION_DAYS`` 30                     days a deleted dataset or analysis can be
                                                           restored; ``gc`` then purges it (0: at
                                                           the next ``gc``)
==================================  =====================  ==========================================
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from scorio_core.errors import InputError

__all__ = ["LISTINGS", "QuotaError", "WorkspaceSettings", "read_settings"]

LISTINGS = ("shared", "private")
DEFAULT_MAX_FILE_BYTES = 200 << 20
DEFAULT_MAX_BYTES = 20 << 30
DEFAULT_RETENTION_DAYS = 30.0


class QuotaError(InputError):
    """A file or the workspace would exceed a configured size limit."""


@dataclass(frozen=True)
class WorkspaceSettings:
    """Where the workspace lives and its limits (see the module docstring)."""

    root: Path
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_bytes: int = DEFAULT_MAX_BYTES
    listing: str = "shared"
    retention_days: float = DEFAULT_RETENTION_DAYS


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        raise ValueError(f"environment variable {name} must be a whole number of bytes; got {raw!r}.") from None
    if value < 1:
        raise ValueError(f"environment variable {name} must be >= 1; got {value}.")
    return value


def check_retention(days, what: str = "retention_days") -> float:
    """Return ``days`` as a float if it is a finite number >= 0.

    Parameters
    ----------
    days : int or float
        Days a deleted row stays restorable before ``gc`` purges it.
    what : str
        Name for the message.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        A negative, non-finite or non-numeric value.
    """
    try:
        value = float(days)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number of days >= 0; got {days!r}.") from None
    if isinstance(days, bool) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{what} must be a number of days >= 0; got {days!r}.")
    return value


def _env_days(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    return default if not raw else check_retention(raw.replace("_", ""), f"environment variable {name}")


def check_listing(listing: str) -> str:
    """Return ``listing`` if it is ``"shared"`` or ``"private"``.

    Raises
    ------
    ValueError
        For any other value.
    """
    if listing not in LISTINGS:
        raise ValueError(f"listing must be 'shared' or 'private' (SCORIO_WORKSPACE_LISTING); got {listing!r}.")
    return listing


def read_settings(root=None, listing: str | None = None) -> WorkspaceSettings:
    """Settings from the arguments, else the environment, else the defaults.

    Parameters
    ----------
    root : str or path-like, optional
        Root directory; default ``$SCORIO_WORKSPACE`` or ``./workspace``.
    listing : {"shared", "private"}, optional
        Default ``$SCORIO_WORKSPACE_LISTING`` or ``"shared"``.

    Returns
    -------
    WorkspaceSettings

    Raises
    ------
    ValueError
        A variable that is not a positive whole number (a number of days >= 0 for the retention), or an
        unknown listing.
    """
    if root is None:
        root = os.environ.get("SCORIO_WORKSPACE", "").strip() or "workspace"
    if listing is None:
        listing = os.environ.get("SCORIO_WORKSPACE_LISTING", "").strip().lower() or "shared"
    return WorkspaceSettings(
        root=Path(root).expanduser().absolute(),
        max_file_bytes=_env_int("SCORIO_WORKSPACE_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES),
        max_bytes=_env_int("SCORIO_WORKSPACE_MAX_BYTES", DEFAULT_MAX_BYTES),
        listing=check_listing(listing),
        retention_days=_env_days("SCORIO_WORKSPACE_RETENTION_DAYS", DEFAULT_RETENTION_DAYS),
    )
