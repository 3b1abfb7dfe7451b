"""Table shapes the Spark engine reads beside plain attempt rows: per-trial outcome lists, and rate tables refused.

The Spark twin of :mod:`scorio_core.engines.duckdb_shapes`:

* An array-typed outcome column (``"score": [true, false, ...]``) is exploded to one attempt per element with
  ``posexplode``, its 0-based position the trial, as :mod:`scorio_core.io.formats.trial_lists` reads it (a row with
  an empty or null list has no attempt; a null element is a missing outcome). The group's ``trial_list`` is set, so
  the engine's notes say so (:func:`scorio_core.engines._sql.engine_notes`).
* A rate table (shares of correct trials beside a trial count, :mod:`scorio_core.io.formats.rates`) is read by the
  pandas engine; Spark refuses it by name rather than reading each share as one attempt.

Column names come from the files' schemas and are referenced only through :func:`spark_ident` (kept here with
:func:`column_kind`, the lowest Spark module; :mod:`scorio_core.engines.spark_inputs` re-exports both).
"""

from __future__ import annotations

from collections.abc import Mapping

from scorio_core.engines._sql import EngineUnsupported
from scorio_core.errors import InputError
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.matrix import guess_mapping
from scorio_core.io.formats.rates import is_rate_table, rates_refusal
from scorio_core.io.formats.trial_lists import trial_column_error

__all__ = ["column_kind", "read_shapes", "refuse_held_records", "spark_ident"]


def spark_ident(name: object, columns=None) -> str:
    """Quote a column name as a Spark SQL identifier (backticks doubled inside).

    Parameters
    ----------
    name : object
        A column name read from the file's schema.
    columns : collection of str, optional
        The file's columns; when given, ``name`` must be one of them.

    Returns
    -------
    str
        ```name``` with every backtick doubled, for ``F.col`` / ``selectExpr``.

    Raises
    ------
    InputError
        If ``name`` is not among ``columns`` or contains a NUL character.

    Examples
    --------
    >>> spark_ident("a`b.c")
    '`a``b.c`'
    """
    text = str(name)
    if "\x00" in text:
        raise InputError(f"column name {text!r} contains a NUL character; rename the column.")
    if columns is not None and text not in columns:
        raise InputError(f"column {text!r} is not in the file.", field=text)
    return "`" + text.replace("`", "``") + "`"


def column_kind(dtype) -> str:
    """Kind of a Spark SQL data type: ``"int"``, ``"float"`` (incl. decimal), ``"text"``, ``"bool"`` or ``"other"``."""
    from pyspark.sql import types as T

    if isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return "int"
    if isinstance(dtype, (T.FloatType, T.DoubleType, T.DecimalType)):
        return "float"
    if isinstance(dtype, (T.StringType, T.VarcharType, T.CharType)):
        return "text"
    if isinstance(dtype, T.BooleanType):
        return "bool"
    return "other"


def refuse_held_records(types: Mapping[str, object], label: str) -> None:
    """Refuse a file whose rows hold their records in an array of structs with an outcome field (the pandas reader
    explodes it: :mod:`scorio_core.io.formats.line_records`), as the DuckDB engine does.

    Raises
    ------
    EngineUnsupported
        Naming the column.
    """
    from pyspark.sql import types as T

    from scorio_core.io._schema import normalize_name
    from scorio_core.io.formats.line_records import held_records_refusal
    from scorio_core.io.formats.trial_lists import OUTCOME_NAMES

    for column, dtype in types.items():
        if (isinstance(dtype, T.ArrayType) and isinstance(dtype.elementType, T.StructType)
                and any(normalize_name(f.name) in OUTCOME_NAMES for f in dtype.elementType.fields)):
            raise EngineUnsupported(held_records_refusal(column), source=label)


def read_shapes(df, group, guess: MappingGuess, types: dict, mapping: Mapping[str, str] | None):
    """The group's DataFrame with per-trial lists exploded, after refusing a rate table.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The group's rows as read (flattened structs, the file column).
    group : scorio_core.engines.spark_inputs.Group
        Its ``trial_list`` is set to ``(column, "<position in COLUMN>")`` when the outcome column is exploded.
    guess : MappingGuess
        The group's guessed mapping.
    types : dict
        Column -> Spark data type of the files' columns.
    mapping : mapping or None
        The user's mapping.

    Returns
    -------
    (DataFrame, MappingGuess, dict)
        Unchanged, or exploded with the mapping's ``is_correct`` the elements and ``trial`` their position, and the
        types of both.

    Raises
    ------
    EngineUnsupported
        Lists of structs, maps or lists (not outcomes); a rate table (the pandas engine reads it as counts).
    InputError
        A trial column beside the lists (two numberings of the same attempts).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    column = guess.mapping.get("is_correct")
    dtype = types.get(column)
    if guess.layout == "attempts" and isinstance(dtype, T.ArrayType):
        if isinstance(dtype.elementType, (T.StructType, T.MapType, T.ArrayType)):
            raise EngineUnsupported(f"column '{column}' holds lists of {dtype.elementType.simpleString()} values, not "
                                    "outcomes; map another column or use --engine pandas.", source=group.label)
        if "trial" in guess.mapping:
            raise trial_column_error(column, guess.mapping["trial"], group.label)
        position = f"<position in {column}>"
        df = df.select(*[F.col(spark_ident(c)) for c in df.columns if c != column],
                       F.posexplode(F.col(spark_ident(column))).alias(position, column))
        group.trial_list = (column, position)
        types = {**types, column: dtype.elementType, position: T.IntegerType()}
        guess = guess_mapping([*types], {**(mapping or {}), "is_correct": column, "trial": position},
                              source=group.label)
    elif is_rate_table(guess) and column_kind(dtype) in ("float", "text"):
        value = F.col(spark_ident(column)).try_cast("double")
        if df.filter((value > 0) & (value < 1)).limit(1).count():
            raise EngineUnsupported(rates_refusal(column, guess.mapping.get("n_trials")), source=group.label)
    return df, guess, types
