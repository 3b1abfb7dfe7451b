"""Values a table holds that need recoding before they can be read, and what the loaders say about each.

The loaders refuse these rather than guess, with the recoding to write (a pandas line):

* Inspect AI's score letters: its scorers write ``C`` (correct), ``I`` (incorrect), ``P`` (partial) and ``N`` (no
  answer), which its ``value_to_float`` reads as 1, 0, 0.5 and 0. The Inspect reader applies that reading to logs
  (:mod:`scorio_core.io.formats.harnesses.inspect_ai`); a CSV exported from Inspect's sample tables keeps the letters
  (:func:`letter_scores_hint`).
* Success/failure words such as pass/fail (:func:`binary_labels_hint`).
* Scores on a 0-100 scale (:func:`percent_scores_hint`).
* Trials labelled by text, such as run names (:func:`trial_labels_hint`).

A user who confirms what the labels mean passes that recoding to :func:`scorio_core.io.load` (``recode=``; CLI
``--recode LABEL=VALUE``, the app's *Recode outcome labels*: :mod:`scorio_core.io.formats.user_recoding`), which
starts from :func:`outcome_labels`.
"""

from __future__ import annotations

#: The value that reads a label as an attempt without an outcome (``--recode error=missing``); what such attempts
#: count as is then the user's data-quality choice (``--missing-outcomes drop|incorrect``), as for empty cells.
#: (Applied by :mod:`scorio_core.io.formats.user_recoding`, which imports it from here.)
MISSING = "missing"

__all__ = ["MISSING", "INSPECT_LETTERS", "BINARY_LABELS", "RECODE_HINT", "letter_scores_hint", "binary_labels_hint",
           "text_scores_hint", "mixed_labels_hint", "percent_scores_hint", "suggest_scale", "trial_labels_hint",
           "outcome_labels", "topic_category"]

#: The recoding this tool applies on the user's word, offered beside the pandas line for text labels of no known meaning.
RECODE_HINT = (" Or, for 0/1 (or partial) outcomes, have them read when loading: --recode LABEL=VALUE for each label (CLI), "
               "or Recode outcome labels under the app's Load button.")
#: Inspect AI's score letters and the value its ``value_to_float`` gives each.
INSPECT_LETTERS = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
#: Words an outcome column may hold for a success (1) and a failure (0), compared without case or spaces.
BINARY_LABELS = {**dict.fromkeys(("pass", "passed", "correct", "right", "yes", "success", "solved"), 1),
                 **dict.fromkeys(("fail", "failed", "incorrect", "wrong", "no", "failure", "unsolved"), 0)}


def letter_scores_hint(values, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column of Inspect AI's score letters, or "" when it holds anything else.

    A CSV exported from Inspect's sample tables keeps the scorer's letters (``C`` correct, ``I`` incorrect, ``P``
    partial, ``N`` no answer), which are not 0/1; the hint gives the recoding Inspect itself applies
    (:func:`scorio_core.io.formats.harnesses.inspect_ai.value_to_float`), or loading the log, which this package reads with that recoding.

    Parameters
    ----------
    values : iterable
        The column's values (or the one that failed); None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns (one column per trial).

    Returns
    -------
    str
        A sentence starting with a space when every value is one of C, I, P, N and at least one is C or I; else "".

    >>> letter_scores_hint(["C", "I", "I"], "score")[:66]
    " These look like Inspect AI's scores (C correct, I incorrect, P pa"
    >>> letter_scores_hint(["correct", "I"])
    ''
    """
    texts = {str(v).strip() for v in values if v is not None and v == v}
    if not texts or not texts <= INSPECT_LETTERS.keys() or not texts & {"C", "I"}:
        return ""
    recode = "{" + ", ".join(f"'{k}': {v:g}" for k, v in INSPECT_LETTERS.items()) + "}"
    example = (f"the column the same way, e.g. with pandas: df['is_correct'] = df['{column}'].map({recode})" if column is not None
               else f"the trial columns the same way, e.g. with pandas: df[trial_columns] = df[trial_columns].replace({recode})")
    return (" These look like Inspect AI's scores (C correct, I incorrect, P partial, N no answer), which Inspect reads as "
            f"1, 0, 0.5 and 0: recode {example}, or load the Inspect log itself (.eval or .json), which is read that way"
            f"{_recode_option(INSPECT_LETTERS)}.")


def binary_labels_hint(values, column: str | None = "COLUMN") -> str:
    """The 0/1 recoding of an outcome column of two words such as pass/fail, or "" when it holds anything else.

    Parameters
    ----------
    values : iterable
        The column's distinct values; None and NaN are skipped.
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when every value is one of :data:`BINARY_LABELS` (any case) and both a
        success and a failure word occur; the map lists every spelling found. The loaders still refuse the
        column: which word means success is the user's to confirm.

    >>> pandas, ours = binary_labels_hint(["pass", "fail", "Pass"], "result").split("pandas: ")[1].split("; or ")
    >>> pandas, ours[:56]
    ("df['is_correct'] = df['result'].map({'fail': 0, 'Pass': 1, 'pass': 1})", 'have them read so when loading: --recode fail=0 --recode')
    >>> binary_labels_hint(["pass", "partial", "fail"]), binary_labels_hint(["yes", "right"])
    ('', '')
    """
    texts = sorted({str(v) for v in values if v is not None and v == v}, key=lambda t: (t.strip().lower(), t))
    read = [BINARY_LABELS.get(t.strip().lower()) for t in texts]
    if not texts or None in read or len(set(read)) < 2:
        return ""
    recode = "{" + ", ".join(f"{t!r}: {v}" for v, t in sorted(zip(read, texts), key=lambda p: p[0])) + "}"
    line = (f"df['is_correct'] = df['{column}'].map({recode})" if column is not None
            else f"df[trial_columns] = df[trial_columns].replace({recode})")
    return (f" These read as success/failure labels: recode them to 0/1, e.g. with pandas: {line}"
            f"{_recode_option(dict(zip((t.strip() for t in texts), read)))}.")


def _flag(label: str, value: str) -> str:
    """``--recode label=value`` as a shell word (quoted when the label has spaces or quotes)."""
    import shlex

    return f"--recode {shlex.quote(f'{label.strip().lower()}={value}')}"


def _recode_option(labels: dict) -> str:
    """The same recoding as this tool's option: ``--recode pass=1 ...`` (CLI) and the app's upload form."""
    given = {str(k).strip().lower(): v for k, v in labels.items()}
    flags = " ".join(_flag(k, f"{v:g}") for k, v in given.items())
    return f"; or have them read so when loading: {flags} (CLI), or Recode outcome labels under the app's Load button"


def mixed_labels_hint(texts) -> str:
    """What to do with a few words among an outcome column's numbers (``ERROR``, ``timeout`` ...).

    Such words usually mark attempts that produced no outcome; whether they count as failures or as missing
    outcomes is the user's choice, so the hint gives both recodings.

    >>> print(mixed_labels_hint(["ERROR", "timeout"]).split(": if")[0])
     The column also holds text among its numbers ('ERROR', 'timeout')
    >>> print(mixed_labels_hint(["yes"]).split(" (CLI)")[0])
     The column also holds success/failure words among its numbers ('yes'); or have them read so when loading: --recode yes=1
    """
    found = sorted({str(t).strip() for t in texts if str(t).strip()}, key=str.lower)
    shown = ", ".join(repr(t) for t in found[:5]) + (f" and {len(found) - 5:,} more" if len(found) > 5 else "")
    usual = [BINARY_LABELS.get(t.lower()) for t in found]
    if found and None not in usual:  # yes/no, pass/fail among 0/1: their usual reading, still the user's to confirm
        return f" The column also holds success/failure words among its numbers ({shown}){_recode_option(dict(zip(found, usual)))}."
    missing = " ".join(_flag(t, MISSING) for t in found[:5])
    return (f" The column also holds text among its numbers ({shown}): if these are attempts without an outcome (an "
            f"API error, a timeout), read them as missing and choose what missing outcomes count as: {missing} with "
            "--missing-outcomes drop (or incorrect); if they are failures, recode them to 0 (CLI: --recode LABEL=0; "
            "the app: Recode outcome labels under the Load button).")


def text_scores_hint(values, column: str | None = "COLUMN") -> str:
    """:func:`letter_scores_hint`, else :func:`binary_labels_hint` (same arguments): "" for other text.

    >>> text_scores_hint(["C", "I"]) == letter_scores_hint(["C", "I"])
    True
    """
    return letter_scores_hint(values, column) or binary_labels_hint(values, column)


def percent_scores_hint(low: float, high: float, column: str | None = "COLUMN") -> str:
    """What to do with an outcome column whose scores look like percentages, or "" when they do not.

    Parameters
    ----------
    low, high : float
        The smallest and largest value of the column (NaN when it has none).
    column : str or None
        The column's name, for the pandas line; None for a wide table's trial columns.

    Returns
    -------
    str
        A sentence starting with a space when ``0 <= low`` and ``1 < high <= 100``; else "". The loaders never
        rescale by themselves: a score of 1 on a 0-100 scale would otherwise read as a full success.

    >>> percent_scores_hint(0, 100, "score")[:82]
    ' If the column holds percentages (0 to 100), read it so: --outcome-scale 100 (CLI)'
    >>> percent_scores_hint(0, 250), percent_scores_hint(-1, 50), percent_scores_hint(0, 1)
    ('', '', '')
    """
    if not (0 <= low and 1 < high <= 100):  # NaN compares false: no hint
        return ""
    line = (f"df['is_correct'] = df['{column}'] / 100" if column is not None
            else "df[trial_columns] = df[trial_columns] / 100")
    return (" If the column holds percentages (0 to 100), read it so: --outcome-scale 100 (CLI), or Outcome scale under "
            f"the app's Load button; or divide it by 100 first, e.g. with pandas: {line}.")


def suggest_scale(err, low: float, high: float):
    """``err`` with ``err.scale``: 100.0 when outcomes from ``low`` to ``high`` look like percentages
    (:func:`percent_scores_hint`), else None, and ``err.outcome_range`` ``(low, high)``; the app's upload form then
    offers that outcome scale and shows the range, for the user to check it (marks out of 10 also fit under 100).

    >>> from scorio_core.errors import InputError
    >>> suggest_scale(InputError("got 50"), 0, 100).scale, suggest_scale(InputError("got 7"), 0, 250).scale
    (100.0, None)
    """
    err.scale = 100.0 if percent_scores_hint(low, high) else None
    err.outcome_range = (float(low), float(high))
    return err


def trial_labels_hint(column: str = "COLUMN") -> str:
    """What to do with a trial column of text labels (run names, seeds written as words).

    Parameters
    ----------
    column : str
        The column's name, for the pandas line.

    Returns
    -------
    str
        A sentence starting with a space: number the labels (the same label the same number across models, so
        trials stay paired by label), or un-map the column, which numbers each (model, task, question)'s rows in
        row order.

    >>> trial_labels_hint("run")[:56]
    ' If the trials are labelled by text (run names), number '
    """
    return (" If the trials are labelled by text (run names), number them, e.g. with pandas: "
            f"df['trial'] = pd.factorize(df['{column}'])[0] (the same label gets the same number in every model), or "
            "un-map the column (--map trial=none in the CLI, or 'none' under the app's Column mapping): each (model, "
            "task, question)'s rows are then its trials in row order.")


def outcome_labels(values, limit: int = 50) -> dict[str, float | None]:
    """The distinct text labels of an outcome column with the value each is known to stand for, else None.

    What the app's recoding form starts from: Inspect's letters when every label is one
    (:data:`INSPECT_LETTERS`), success/failure words (:data:`BINARY_LABELS`), and None (for the user to fill) for
    any other label. Labels are stripped and lower-cased, as a recoding compares them; at most ``limit``.

    >>> outcome_labels(["Pass", "fail ", "skipped"])
    {'fail': 0.0, 'pass': 1.0, 'skipped': None}
    >>> outcome_labels(["C", "I", "P"])
    {'c': 1.0, 'i': 0.0, 'p': 0.5}
    """
    texts = sorted({str(v).strip() for v in values if v is not None and v == v and str(v).strip()})[:limit]
    letters = set(texts) <= INSPECT_LETTERS.keys() and set(texts) & {"C", "I"}
    known = INSPECT_LETTERS if letters else {k: float(v) for k, v in BINARY_LABELS.items()}
    out = {t.lower(): known.get(t if letters else t.lower()) for t in texts}
    return dict(sorted(out.items()))


def topic_category(frame, mapping: dict, guess, notes: list, source: str):
    """A ``category`` column of words beside an outcome column is a topic, not rubric category codes (LiveBench's
    judgment files: ``category`` = ``math``, ``coding``, ``reasoning`` beside the 0/1 ``score``): the column is no
    longer read as the category and is kept as the text field ``<column>_label``, the outcome read from the outcome
    column (``is_correct``, else ``score``: with a category mapped, a score is only a signal), said in ``notes``.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read.
    mapping : dict
        ``{field: column}``; ``category`` is removed from it when the rule applies, and a ``score`` column becomes
        ``is_correct`` when none is mapped (in place). Without either, words in ``category`` are refused, saying
        how to recode outcome labels or map an outcome (and, for a table of answers, that they need grading).
    guess : scorio_core.io._schema.MappingGuess
        The table's layout (attempts only) and the fields the user mapped (a ``category`` the user chose is read as
        codes, and refused if it is not).
    notes : list of str
        Receives the note (in place).
    source : str
        The file's name, for the note.

    Returns
    -------
    pandas.DataFrame
        ``frame``, its category column renamed when the rule applies.

    >>> import pandas as pd
    >>> f = pd.DataFrame({"category": ["math", "coding"], "score": [1, 0]})
    >>> m, said = {"category": "category", "score": "score"}, []
    >>> from scorio_core.io._schema import infer_mapping
    >>> g = infer_mapping(list(f.columns) + ["question_id"])
    >>> list(topic_category(f, m, g, said, "j.jsonl").columns), m, said[0][:48]
    (['category_label', 'score'], {'score': 'score', 'is_correct': 'score'}, "j.jsonl: column 'category' holds words ('coding'")
    """
    import pandas as pd

    from scorio_core.errors import InputError
    from scorio_core.io._text import grading_hint

    col, outcome_col = mapping.get("category"), mapping.get("is_correct", mapping.get("score"))
    if (col is None or guess.layout != "attempts" or "category" in guess.user
            or pd.api.types.is_numeric_dtype(frame[col].dtype)):
        return frame
    text = frame[col].dropna().astype(str).str.strip()
    if text.empty or pd.to_numeric(text, errors="coerce").notna().any() or (text == "").any():
        return frame  # codes written as text (or mixed): read as codes, refused with the value if one is not
    words = ", ".join(repr(v) for v in sorted(text.unique())[:3])
    if outcome_col is None:  # words and nothing else to read as the outcome: a topic, or outcome labels
        raise InputError(f"column '{col}' holds words ({words}), not category codes, and no outcome column is found "
                         "(is_correct, correct, passed, score ...). If the words are outcome labels, read the column as the outcome and "
                         f"recode them: --map is_correct={col} --recode LABEL=VALUE for each (CLI), or the app's Column "
                         "mapping and Recode outcome labels under its Load button. If "
                         "they name a topic or subject, the table needs each attempt's outcome: map a 0/1 column with "
                         "--map is_correct=COLUMN (CLI) or the app's Column mapping." + grading_hint(frame.columns),
                         source=source, field="category")
    mapping.pop("category")
    mapping.setdefault("is_correct", outcome_col)
    new = f"{col}_label" if f"{col}_label" not in frame.columns else f"{col}_label_"
    notes.append(f"{source}: column '{col}' holds words ({words}), not category codes: kept as the text field '{new}' "
                 f"(a topic, as LiveBench's judgment files carry it), the outcome read from '{outcome_col}'; for rubric "
                 "categories, recode it to integer codes (README, 'Category codes and text labels').")
    return frame.rename(columns={col: new})
