"""Notes in the commands' JSON output: one shape for every command.

Every ``notes`` list a command prints (``leaderboard``, ``tasks``, ``compare``, ``ranks``, ``questions``,
``trajectory``, ``convergence``, ``methods``, ``plan``'s ``status.notes``, ``quality``'s ``report.notes``,
``publish``) holds objects ``{"code": str, "message": str, ...}``: ``code`` is a stable snake_case key a script
can match on, ``message`` the sentence the table output prints, and some codes carry more fields (``task``,
``models``, ``finding``). A script reads every command's notes the same way.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["as_notes", "note", "note_messages"]


def note(code: str, message: str, **fields: Any) -> dict:
    """One note object.

    Parameters
    ----------
    code : str
        Stable snake_case key (e.g. ``"load"``, ``"bootstrap_auto"``).
    message : str
        The sentence shown to people.
    **fields
        Extra keys carried beside them (``task``, ``models``, ...).

    Returns
    -------
    dict
        ``{"code": code, "message": message, **fields}``.

    Examples
    --------
    >>> note("load", "a.csv: 3 rows skipped")
    {'code': 'load', 'message': 'a.csv: 3 rows skipped'}
    """
    return {"code": code, "message": message, **fields}


def as_notes(items: Iterable[str | dict], code: str) -> list[dict]:
    """Notes as objects: a string becomes ``{"code": code, "message": string}``; an object is kept.

    Parameters
    ----------
    items : iterable of str or dict
        Sentences, or note objects (each with ``code`` and ``message``).
    code : str
        The code given to the sentences.

    Returns
    -------
    list of dict

    Raises
    ------
    ValueError
        An object without ``code`` or ``message``.

    Examples
    --------
    >>> as_notes(["x", {"code": "y", "message": "z"}], "data")
    [{'code': 'data', 'message': 'x'}, {'code': 'y', 'message': 'z'}]
    """
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(note(code, item))
        elif isinstance(item, dict) and "code" in item and "message" in item:
            out.append(item)
        else:
            raise ValueError(f"a note must be a sentence or an object with 'code' and 'message'; got {item!r}.")
    return out


def note_messages(items: Iterable[str | dict]) -> list[str]:
    """The sentences of notes (objects' ``message``, strings as they are), for table output.

    Examples
    --------
    >>> note_messages([{"code": "a", "message": "b"}, "c"])
    ['b', 'c']
    """
    return [item["message"] if isinstance(item, dict) else str(item) for item in items]
