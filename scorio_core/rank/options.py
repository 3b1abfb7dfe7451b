"""A ranking method's options from ``KEY=VALUE`` text (the CLI's ``--method-option``), typed by its signature.

Every function of :mod:`scorio_core.rank` takes keyword options after ``R`` (Elo's ``K``, a MAP prior's variance
``prior``, Rao-Kupper's ``tie_strength``, the voting rules' tie policies, ...), with the reference's names and
defaults. Text from a command line is read by the type of the option's default, never evaluated: ``true``/
``false`` for a flag, an integer, a finite float, comma-separated floats for a tuple, the text itself for a
string (the method checks the value and raises its own error); an option whose default is None accepts an
integer, a float, comma-separated floats or ``none``. The arguments that set what a method returns (``R``,
``method``, ``return_*``) are not options.
"""

from __future__ import annotations

import inspect
import math

from scorio_core.errors import InputError

__all__ = ["method_option_names", "parse_method_options", "parse_options_by_method"]

_NOT_OPTIONS = ("R", "method")
_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


def _function(name: str):
    import scorio_core.rank as rank
    from scorio_core.rank.agreement import METHODS

    fn = getattr(rank, name, None)
    if not callable(fn) or not any(name in group for group in METHODS.values()):
        names = [m for group in METHODS.values() for m in group]
        raise InputError(f"unknown ranking method {name!r}; choose from {', '.join(names)}.", field="method")
    return fn


def method_option_names(name: str) -> dict[str, object]:
    """The options of ranking method ``name`` and their defaults, in signature order.

    Raises
    ------
    InputError
        ``name`` is not a ranking method of :mod:`scorio_core.rank`.

    Examples
    --------
    >>> method_option_names("elo")
    {'K': 32.0, 'initial_rating': 1500.0, 'tie_handling': 'correct_draw_only'}
    """
    params = inspect.signature(_function(name)).parameters.values()
    return {p.name: p.default for p in params if p.name not in _NOT_OPTIONS and not p.name.startswith("return_")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _float(text: str, key: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"method option {key}={text!r}: expected a number.", field=key) from None
    if not math.isfinite(value):
        raise InputError(f"method option {key}={text!r}: expected a finite number.", field=key)
    return value


def _value(text: str, default, key: str):
    """``text`` read as the type of ``default``."""
    low = text.strip().lower()
    if isinstance(default, bool):
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise InputError(f"method option {key}={text!r}: expected true or false.", field=key)
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise InputError(f"method option {key}={text!r}: expected an integer.", field=key) from None
    if isinstance(default, float):
        return _float(text, key)
    if isinstance(default, tuple):
        return tuple(_float(part, key) for part in text.split(","))
    if isinstance(default, str):
        return text
    if default is None:
        if low == "none":
            return None
        try:
            return int(text)
        except ValueError:
            pass
        if "," in text:
            return [_float(part, key) for part in text.split(",")]
        try:
            return _float(text, key)
        except InputError:
            return text
    raise InputError(f"method option {key} cannot be set from text (its default is a {type(default).__name__}).",
                     field=key)


def parse_method_options(name: str, pairs) -> dict[str, object]:
    """Keyword options of ranking method ``name`` from ``KEY=VALUE`` strings.

    Parameters
    ----------
    name : str
        A ranking method of :mod:`scorio_core.rank` (e.g. ``"elo"``).
    pairs : iterable of str
        ``"KEY=VALUE"`` each; ``KEY`` one of :func:`method_option_names` (case-sensitive, as the reference
        spells it), each at most once.

    Returns
    -------
    dict of str to object
        Keyword arguments for ``getattr(scorio_core.rank, name)(R, **options)``; values typed by the
        defaults (see the module docstring).

    Raises
    ------
    InputError
        An unknown method, an entry without ``=``, an unknown or repeated key (the message lists the
        method's options), or a value that does not read as the option's type.

    Examples
    --------
    >>> parse_method_options("elo", ["K=16", "tie_handling=draw"])
    {'K': 16.0, 'tie_handling': 'draw'}
    """
    accepted = method_option_names(name)
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, text = str(pair).partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(f"method option {pair!r}: write it as KEY=VALUE (e.g. "
                             f"{next(iter(accepted), 'KEY')}=...).", field="method-option")
        if key not in accepted:
            listed = ", ".join(f"{k} (default {v!r})" for k, v in accepted.items()) or "none"
            raise InputError(f"{name} has no option {key!r}; its options: {listed}.", field="method-option")
        if key in out:
            raise InputError(f"method option {key} is given twice; give each option once.", field="method-option")
        out[key] = _value(text.strip(), accepted[key], key)
    return out


def parse_options_by_method(pairs, methods=None) -> dict[str, dict[str, object]]:
    """Options of several methods from ``NAME.KEY=VALUE`` strings (the ``methods`` command's ``--method-option``).

    Parameters
    ----------
    pairs : iterable of str
        ``"NAME.KEY=VALUE"`` each, e.g. ``"elo.K=16"``.
    methods : sequence of str, optional
        The methods being ranked; when given, an option of a method not among them is an error.

    Returns
    -------
    dict of str to dict
        ``{name: options}`` as :func:`parse_method_options` reads each method's entries.

    Raises
    ------
    InputError
        An entry without ``NAME.``, a method not among ``methods``, or any error of :func:`parse_method_options`.

    Examples
    --------
    >>> parse_options_by_method(["elo.K=16", "rao_kupper.tie_strength=1.5"])
    {'elo': {'K': 16.0}, 'rao_kupper': {'tie_strength': 1.5}}
    """
    grouped: dict[str, list[str]] = {}
    for pair in pairs:
        name, dot, rest = str(pair).partition(".")
        if not dot or "=" in name or not name.strip():
            raise InputError(f"method option {pair!r}: write it as METHOD.KEY=VALUE (e.g. elo.K=16).",
                             field="method-option")
        name = name.strip()
        if methods is not None and name not in methods:
            raise InputError(f"method option {pair!r} names {name!r}, which is not among the methods ranked "
                             f"({', '.join(methods)}).", field="method-option")
        grouped.setdefault(name, []).append(rest)
    return {name: parse_method_options(name, entries) for name, entries in grouped.items()}
