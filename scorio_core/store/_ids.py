"""Identifiers: random 128-bit ids for catalog rows, and checks for ids, hashes and tokens.

Ids are ``secrets.token_urlsafe(16)`` (22 characters of ``A-Z a-z 0-9 - _``). They are
capabilities (unguessable), only ever used as SQL parameters, never as file names. Blob file
names come only from SHA-256 digests computed by the store and checked by :func:`validate_sha256`.
"""

from __future__ import annotations

import datetime as _dt
import re
import secrets

from scorio_core.errors import InputError

__all__ = ["ID_LENGTH", "NotFoundError", "check_name", "new_id", "now_iso", "validate_id", "validate_owner", "validate_sha256"]

ID_LENGTH = 22
_ID = re.compile(r"[A-Za-z0-9_-]{22}")
_SHA = re.compile(r"[0-9a-f]{64}")
MAX_OWNER_CHARS = 256
MAX_NAME_CHARS = 200


class NotFoundError(InputError, LookupError):
    """No dataset or analysis has this id."""


def now_iso() -> str:
    """Current UTC time as ISO 8601 with microseconds and a ``Z`` suffix."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def check_name(name, what: str = "dataset name") -> str:
    """Return a display name stripped of outer spaces (1-200 printable characters).

    Raises
    ------
    TypeError
        If ``name`` is not a str.
    InputError
        If it is empty, longer than 200 characters or has control characters.
    """
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str; got {type(name).__name__}.")
    name = name.strip()
    if not name or len(name) > MAX_NAME_CHARS or not name.isprintable():
        raise InputError(f"{what} must be 1 to {MAX_NAME_CHARS} printable characters; got {name[:40]!r}.")
    return name


def new_id() -> str:
    """A new random id: 128 bits from :func:`secrets.token_urlsafe`, 22 characters.

    Returns
    -------
    str
        22 characters of ``A-Z a-z 0-9 - _``, never starting with ``-`` (a command line would
        read such an id as an option: ``workspace show -abc...``).
    """
    while True:
        value = secrets.token_urlsafe(16)
        if not value.startswith("-"):
            return value


def _shown(text: str) -> str:
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def validate_id(text, what: str = "id") -> str:
    """Check that a text is a workspace id and return it unchanged.

    Parameters
    ----------
    text : str
        Candidate id (from a URL, the CLI or the app's state).
    what : str
        How the message names the id (``"dataset id"``, ``"analysis id"``).

    Returns
    -------
    str
        ``text``, exactly 22 characters of ``A-Z a-z 0-9 - _``.

    Raises
    ------
    TypeError
        If ``text`` is not a str.
    InputError
        (a ValueError) for any other length or character, e.g. ``'../../etc/passwd'``.
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str; got {type(text).__name__}.")
    if _ID.fullmatch(text) is None:
        raise InputError(f"{what} must be {ID_LENGTH} characters of A-Z, a-z, 0-9, '-' and '_'; got {_shown(text)}.")
    return text


def validate_sha256(text) -> str:
    """Check that a text is a lowercase hex SHA-256 digest (64 characters) and return it.

    Raises
    ------
    ValueError
        If it is not 64 characters of ``0-9a-f``.
    """
    if not isinstance(text, str) or _SHA.fullmatch(text) is None:
        raise ValueError(f"blob hash must be 64 lowercase hex characters; got {_shown(str(text))}.")
    return text


def validate_owner(owner) -> str | None:
    """Check an owner (session) token: None, or a non-empty str of printable characters.

    Parameters
    ----------
    owner : str or None
        At most 256 characters, no control characters.

    Returns
    -------
    str or None

    Raises
    ------
    TypeError
        If ``owner`` is neither None nor a str.
    InputError
        If it is empty, too long or has control characters.
    """
    if owner is None:
        return None
    if not isinstance(owner, str):
        raise TypeError(f"owner must be a str or None; got {type(owner).__name__}.")
    if not owner or len(owner) > MAX_OWNER_CHARS or not owner.isprintable():
        raise InputError(f"owner must be 1 to {MAX_OWNER_CHARS} printable characters; got {_shown(owner)}.")
    return owner
