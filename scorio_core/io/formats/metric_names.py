"""What a sampled metric's column name says about its values (lighteval names a metric by its parameters).

lighteval writes one row per question with its per-question metrics in a struct whose field names carry the metric's
parameters: ``avg@n:n=64`` is the mean of 64 sampled 0/1 outcomes, ``pass@k:k=1&n=16`` the share of 16 samples that
are correct, ``pass@k:k=8&n=16`` the unbiased pass@8 estimate from 16 samples. A name stating ``n`` (and ``k = 1`` when
it states ``k``) is a share of correct trials over ``n`` trials (:mod:`scorio_core.io.formats.rates` reads it as
counts), and with no other outcome column it is guessed as the outcome (:func:`named_outcome`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["named_outcome", "trials_in_name"]

#: A metric's base name (before ``:``, after an optional ``prefix_``) that is a mean of per-sample 0/1 outcomes.
_SHARE_BASE = re.compile(r"(?:^|_)(avg@n|avg@(\d+)|pass@k|pass@1)$", re.IGNORECASE)
_N = re.compile(r"(?:^|[^a-z0-9_])n=(\d+)(?![0-9])|(?:^|[^a-z0-9])(\d+)_samples\b", re.IGNORECASE)
_K = re.compile(r"(?:^|[^a-z0-9_])k=(\d+)(?![0-9])", re.IGNORECASE)


def trials_in_name(column: object) -> int | None:
    """The trial count a sampled metric's column name states, when its values are shares of correct trials.

    A share: lighteval's ``avg@n:n=N``, ``pass@k:k=1&n=N`` and the older ``[name_]pass@1:N_samples`` (also
    ``avg@N``). Not a share: ``pass@k`` with ``k`` > 1 (an estimate), ``maj@n`` (a majority vote, 0 or 1), any
    other metric.

    Parameters
    ----------
    column : object
        A column name (``metric.avg@n:n=64`` once a struct is flattened: the field's name is read).

    Returns
    -------
    int or None
        ``N`` (>= 1) for a share of N trials, None otherwise.

    Examples
    --------
    >>> trials_in_name("metric.avg@n:n=64"), trials_in_name("pass@k:k=1&n=16"), trials_in_name("math_pass@1:32_samples")
    (64, 16, 32)
    >>> trials_in_name("pass@k:k=8&n=16"), trials_in_name("maj@n:n=4"), trials_in_name("accuracy")
    (None, None, None)
    """
    head, _, params = str(column).partition(":")
    share = _SHARE_BASE.search(head.rsplit(".", 1)[-1])  # the struct's field name
    if share is None:
        return None
    k = _K.search(params)
    if share.group(1).lower() == "pass@k" and (k is None or int(k.group(1)) != 1):
        return None
    found = _N.search(params)
    n = int(share.group(2)) if share.group(2) else (int(found.group(1) or found.group(2)) if found else 0)
    return n if n >= 1 else None


def named_outcome(columns: Iterable[object], taken: Iterable[object]) -> tuple[str, ...]:
    """The columns not ``taken`` by another field whose names state a share of correct trials (:func:`trials_in_name`).

    >>> named_outcome(["doc.id", "metric.avg@n:n=64", "metric.pass@k:k=8&n=64"], ["doc.id"])
    ('metric.avg@n:n=64',)
    """
    used = {str(c) for c in taken}
    return tuple(str(c) for c in columns if str(c) not in used and trials_in_name(c) is not None)
