"""How the Spark SQL engine reads its inputs: column expressions, file groups and the canonical DataFrame.

The Spark twin of :mod:`scorio_core.engines.duckdb_inputs`: input files are grouped by format
(and, for up to 64 files, by column set), each group's mapping comes from
:func:`scorio_core.io.infer_mapping`, and every value is validated by DataFrame expressions
written here (identifiers as text the way the pandas loader writes them, outcomes as
0/1/booleans/empty tokens, whole-number trials and counts).

Safety: paths travel as reader arguments (Hadoop glob characters escaped), every constant as
a ``lit``; column names come from the files' own schemas and are referenced only through
:func:`spark_ident` (backticks doubled). No user text is formatted into SQL.
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Mapping
from urllib.parse import unquote, urlparse

from scorio_core.errors import InputError
from scorio_core.io._sources import _KNOWN_SUFFIXES, DATED_DETAILS
from scorio_core.io.formats.recorded_errors import NO_ERROR, error_column
from scorio_core.engines._sql import (EMPTY_TOKENS, EXACT_INTEGER_LIMIT, FALSE_TOKENS, FILE_COLUMN, NO_TRIAL, SPLIT_MAX,
                                      TRUE_TOKENS, EngineUnsupported, InputFile)
from scorio_core.engines.spark_shapes import column_kind, read_shapes, refuse_held_records, spark_ident

__all__ = ["Group", "canonical_frame", "column_kind", "error_examples", "path_of", "spark_error", "spark_ident",
           "split_groups"]

_EXACT = float(EXACT_INTEGER_LIMIT)
_HADOOP_GLOB = str.maketrans({c: "\\" + c for c in "\\*?[]{}"})
#: The data suffixes :func:`scorio_core.io._sources.strip_suffixes` removes, as a Java regex (case-insensitive).
_STEM_SUFFIXES = "(?i)(" + "|".join(re.escape(x) for x in _KNOWN_SUFFIXES) + ")+$"


def _id_col(col: str, dtype, field: str, source: str, cols):
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    kind = column_kind(dtype)
    if kind == "text":
        return c
    if kind == "int":
        return c.cast("string")
    if kind == "float":  # like the pandas loader: 3.0 -> '3'
        d = c.cast("double")
        return (F.when((d == F.round(d)) & (F.abs(d) < F.lit(_EXACT)), d.try_cast("long").cast("string"))
                .otherwise(d.cast("string")))
    if kind == "bool":
        return F.when(c, F.lit("True")).when(~c, F.lit("False"))
    raise EngineUnsupported(f"column '{col}' (field '{field}') has type {dtype.simpleString()}, which the Spark engine "
                            "does not read as an identifier; use --engine pandas.", source=source, field=field)


def _number_col(col: str, dtype, field: str, source: str, cols, *, booleans: bool):
    """(value as double or null when empty, true where a present value is not a number)."""
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    kind = column_kind(dtype)
    if kind in ("int", "float", "bool"):
        value = c.cast("double")
        return (F.when(~F.isnan(value), value) if kind == "float" else value), F.lit(False)
    if kind != "text":
        lists = " or duckdb (one attempt per list element)" if dtype.typeName() == "array" else ""
        raise EngineUnsupported(f"column '{col}' (field '{field}') has type {dtype.simpleString()}, which the Spark "
                                f"engine cannot read as a number; use --engine pandas{lists}.", source=source, field=field)
    v = F.lower(F.trim(c))
    parsed = v.try_cast("double")
    value = F.when(c.isNull() | v.isin(*EMPTY_TOKENS), F.lit(None).cast("double"))
    if booleans:
        value = value.when(v.isin(*TRUE_TOKENS), F.lit(1.0)).when(v.isin(*FALSE_TOKENS), F.lit(0.0))
    value = value.otherwise(parsed)
    known = EMPTY_TOKENS + (TRUE_TOKENS + FALSE_TOKENS if booleans else ())
    bad = c.isNotNull() & ~v.isin(*known) & parsed.isNull()
    return value, F.coalesce(bad, F.lit(False))


def _error_cols(c, dtype):
    """(``err``: TRUE where the error column marks the attempt, ``raw_err``: its value as the pandas note shows it)."""
    from pyspark.sql import functions as F

    kind = column_kind(dtype)
    if kind == "bool":
        return F.coalesce(c, F.lit(False)).alias("err"), F.when(c, F.lit("True")).when(~c, F.lit("False")).alias("raw_err")
    if kind in ("int", "float"):
        d = c.cast("double")
        err = F.coalesce((d != 0) & ~F.isnan(d), F.lit(False))
    else:
        err = F.coalesce(~F.lower(F.trim(c.cast("string"))).isin(*NO_ERROR), F.lit(False))
    return err.alias("err"), c.cast("string").alias("raw_err")


def error_examples(canon, errored: dict) -> dict:
    """Local file path -> (errored attempts, of them correct, the smallest error value), for the files with any."""
    from pyspark.sql import functions as F

    if not errored:
        return {}
    examples = {path_of(r[0]): r[1] for r in canon.filter(F.col("err")).groupBy("file").agg(F.min("raw_err")).collect()}
    return {f: (k, kc, examples.get(f, "")) for f, (k, kc) in errored.items()}


def _int_col(col: str, dtype, field: str, source: str, cols):
    """(value as long or null, true where the value is missing or not a whole number)."""
    from pyspark.sql import functions as F

    c = F.col(spark_ident(col, cols))
    if column_kind(dtype) == "int":
        return c.cast("long"), c.isNull()
    value, bad = _number_col(col, dtype, field, source, cols, booleans=False)
    ok = value.isNotNull() & (value == F.round(value)) & (F.abs(value) < F.lit(_EXACT))
    return F.when(ok, value.try_cast("long")), ~F.coalesce(ok, F.lit(False)) | bad


def _header(f: InputFile) -> bytes:
    opener = gzip.open if f.path.lower().endswith(".gz") else open
    try:
        with opener(f.path, "rb") as fh:
            return fh.readline(1 << 20)
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc}).", source=f.name) from None


def _delimiter(f: InputFile, fmt: str) -> str:
    """Same rule as the pandas reader: TSV is tab; CSV is ';' when the header has more ';' than ','.

    A remote input's header cannot be read here: CSV is then ','."""
    if fmt == "tsv":
        return "\t"
    if f.remote:
        return ","
    first = _header(f)
    return ";" if first.count(b";") > first.count(b",") else ","


def _schema_key(f: InputFile, fmt: str):
    if fmt in ("csv", "tsv"):
        return (_delimiter(f, fmt), _header(f).rstrip(b"\r\n"))
    if fmt == "parquet":
        try:
            import pyarrow.parquet as pq

            # names and types: files whose ids are integers in one and text in another are read apart (each
            # group's ids are cast to text), where one reader call fails to merge the two types
            return tuple((field.name, str(field.type)) for field in pq.read_schema(f.path))
        except Exception:  # noqa: BLE001 - let Spark report unreadable files
            return None
    return None


class Group:
    """Files of one format and column set, read by one Spark reader call."""

    def __init__(self, fmt: str, files: list[InputFile]):
        self.fmt, self.files = fmt, files
        self.label = files[0].name if len(files) == 1 else f"{files[0].name} and {len(files) - 1} more"
        self.error_column: str | None = None  # an attempt table's error column, set by canonical_frame
        self.trial_list: tuple[str, str] | None = None  # (list column, position column): spark_shapes.read_shapes

    @property
    def remote(self) -> bool:
        """A group of one URI, read (listed, globbed) by Spark itself."""
        return any(f.remote for f in self.files)

    def read(self, spark):
        # local paths: glob characters escaped (the files are already listed); a URI: Hadoop globbing wanted
        paths = [f.path if f.remote else f.path.translate(_HADOOP_GLOB) for f in self.files]
        reader = spark.read
        if self.fmt == "parquet":
            df = reader.option("mergeSchema", "true").parquet(*paths)
        elif self.fmt == "jsonl":
            df = reader.option("mode", "FAILFAST").option("primitivesAsString", "false").json(paths)
        else:
            df = (reader.option("header", "true").option("inferSchema", "false").option("mode", "FAILFAST")
                  .option("sep", _delimiter(self.files[0], self.fmt)).option("escape", '"').option("multiLine", "false")
                  .csv(paths))
        from pyspark.sql import functions as F

        return _flatten(df).withColumn(FILE_COLUMN, F.input_file_name())


def _flatten(df):
    """Struct columns replaced by their leaf fields under dotted names (``metrics.acc``), as the pandas loader reads them."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructType

    def leaves(path: list[str], typ) -> list:
        return ([c for f in typ.fields for c in leaves(path + [f.name], f.dataType)] if isinstance(typ, StructType) else
                [F.col(".".join(spark_ident(p) for p in path)).alias(".".join(path))])

    structs = any(isinstance(f.dataType, StructType) for f in df.schema.fields)
    return df.select(*[c for f in df.schema.fields for c in leaves([f.name], f.dataType)]) if structs else df


def split_groups(groups: list[Group]) -> list[Group]:
    """Split each format group by column set (schema) when it has few files, so each gets its own mapping.

    CSV/TSV groups are always split by header (Spark reads every file of a group with one header).
    Each remote input (a URI Spark lists itself) is a group of its own, after the local groups.
    """
    out, uris = [], []
    for g in groups:
        remote = [f for f in g.files if f.remote]
        uris.extend(Group(g.fmt, [f]) for f in remote)  # one group per URI (after the local files): Spark lists its files
        if remote:
            local = [f for f in g.files if not f.remote]
            if not local:
                continue
            g = Group(g.fmt, local)
        if len(g.files) == 1 or (len(g.files) > SPLIT_MAX and g.fmt not in ("csv", "tsv")):
            out.append(g)
            continue
        by_key: dict = {}
        for f in g.files:
            by_key.setdefault(_schema_key(f, g.fmt), []).append(f)
        out.extend(Group(g.fmt, fs) for fs in by_key.values())
    return out + uris


def path_of(uri: str) -> str:
    """A file URI from ``input_file_name()`` -> a local-style path (for names and per-file rows)."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme in ("file", "") else uri


def spark_error(exc: Exception, group: Group) -> InputError:
    """A Spark failure -> one-line :class:`InputError` naming the group's file(s) and what to try."""
    text = str(exc)
    first = next((t.strip() for t in text.splitlines() if t.strip()), type(exc).__name__)
    return InputError(f"cannot read the file with Spark ({first[:200]}); check its format or use --engine pandas.",
                      source=group.label)


def canonical_frame(spark, group: Group, mapping: Mapping[str, str] | None, stems, extra=None):
    """The group's rows under canonical names, with the mapping used and the defaults applied.

    ``extra(group, guess, types)``, when given, returns more columns (aliased) to keep beside the canonical
    ones (the rubric signals of :mod:`scorio_core.engines.rubric.spark`); ``types`` maps each column of
    the files to its Spark type."""
    from pyspark.sql import functions as F

    from scorio_core.io.formats.matrix import guess_mapping
    from scorio_core.io.formats.path_names import FOLDER, folder_fields, folder_names

    try:
        df = group.read(spark)
        fields = [f for f in df.schema.fields if f.name != FILE_COLUMN]
    except Exception as exc:  # noqa: BLE001 - AnalysisException, Py4JJavaError...
        raise spark_error(exc, group) from None
    names = [f.name for f in fields]
    if "_corrupt_record" in names:
        raise InputError("a line is not valid JSON; check the file or use --engine pandas.", source=group.label)
    if len(set(names)) != len(names):
        dup = next(c for c in names if names.count(c) > 1)
        raise InputError(f"column '{dup}' appears twice; rename one of them.", source=group.label, field=dup)
    guess = guess_mapping(names, mapping, source=group.label)
    if not guess.ok:
        refuse_held_records({f.name: f.dataType for f in fields}, group.label)  # pandas explodes such lists
    guess.raise_if_unresolved(group.label)
    df, guess, types = read_shapes(df, group, guess, {f.name: f.dataType for f in fields}, mapping)
    cols = set(types)  # per-trial lists exploded (their position column added), rate tables refused
    if guess.layout == "wide":
        raise EngineUnsupported("wide tables (one column per trial) and response matrices are read by the pandas engine; use --engine pandas.",
                                source=group.label)
    if "category" in guess.mapping:
        raise EngineUnsupported("rubric category codes are read by the pandas engine; use --engine pandas.", source=group.label)
    gm, src = guess.mapping, group.label
    file_col = F.col(spark_ident(FILE_COLUMN))
    select, defaults = [], []
    folders = folder_fields(mapping)
    for key in ("model", "task"):
        if key in gm:
            select.append(_id_col(gm[key], types[gm[key]], key, src, cols).alias(key))
        elif key in folders:  # --map model=@folder: the folder in each file's path (a local file with fewer is named)
            for f in group.files:
                if not f.remote:
                    folder_names(f.path, {key: folders[key]}, f.name)
            select.append(F.element_at(F.split(file_col, "/"), -1 - int(folders[key])).alias(key))
        else:
            base = F.element_at(F.split(file_col, "/"), -1)
            if group.remote:  # the files are listed by Spark: each file's stem from its name
                stem = F.regexp_replace(F.regexp_replace(base, _STEM_SUFFIXES, ""), DATED_DETAILS.pattern, "$1")
                select.append(F.coalesce(stems[base], stem).alias(key))
                defaults.append(f"{group.label}: no {key} column; {key} set to each file's stem.")
            else:
                select.append(stems[base].alias(key))
                defaults += [f"{f.name}: no {key} column; {key} set to the file stem '{f.stem}'." for f in group.files]
    select.append(_id_col(gm["question_id"], types[gm["question_id"]], "question_id", src, cols).alias("question_id"))
    if guess.layout == "counts":
        nt, nt_bad = _int_col(gm["n_trials"], types[gm["n_trials"]], "n_trials", src, cols)
        nc, nc_bad = _int_col(gm["n_correct"], types[gm["n_correct"]], "n_correct", src, cols)
        select += [nt.alias("n_trials"), nc.alias("n_correct"), nt_bad.alias("bad_n"), nc_bad.alias("bad_c")]
    else:
        if "trial" in gm:
            tr, tr_bad = _int_col(gm["trial"], types[gm["trial"]], "trial", src, cols)
            select += [tr.alias("trial"), tr_bad.alias("bad_t")]
        else:
            select += [F.lit(None).cast("long").alias("trial"), F.lit(False).alias("bad_t")]
            defaults += [f"{f.name}: {NO_TRIAL}" for f in group.files] if not group.remote else [f"{src}: {NO_TRIAL}"]
        o, o_bad = _number_col(gm["is_correct"], types[gm["is_correct"]], "is_correct", src, cols, booleans=True)
        raw = F.col(spark_ident(gm["is_correct"], cols)).cast("string")
        select += [o.alias("o"), o_bad.alias("bad_o"), raw.alias("raw_o")]
        sc = gm.get("score") if gm.get("score") != gm["is_correct"] else None  # partial credit beside a 0/1 outcome
        ok = sc is not None and column_kind(types[sc]) in ("int", "float", "bool", "text")
        sv = _number_col(sc, types[sc], "score", src, cols, booleans=True)[0] if ok else F.lit(None).cast("double")
        select.append(sv.alias("s"))
        group.error_column = error_column(names)
        if group.error_column is not None:  # the pandas loader's rule (errored_rows) and the value its note shows
            select += list(_error_cols(F.col(spark_ident(group.error_column, cols)), types[group.error_column]))
    select.append(file_col.alias("file"))
    if extra is not None:
        select += extra(group, guess, types)
    gm.update({k: f"{FOLDER}:{n}" for k, n in folders.items()})  # in the provenance as each file's folder
    return df.select(*select), guess, defaults


# --------------------------------------------------------------------------- examples for errors
def _example(canon, where, what: str = "raw_o"):
    from pyspark.sql import functions as F

    row = canon.filter(where).select("file", F.col(what).cast("string")).first()
    return (os.path.basename(path_of(row[0])), row[1]) if row else (None, None)


def _check_ids(canon, cells: dict) -> None:
    import pandas as pd
    from pyspark.sql import functions as F

    for key in ("model", "task", "question_id"):
        values = pd.Series(cells[key], dtype=object)
        if (values.isna() | (values.fillna("").astype(str).str.strip() == "")).any():
            row = canon.filter(F.col(key).isNull() | (F.trim(F.col(key)) == F.lit(""))).select("file").first()
            raise InputError(f"field '{key}' is empty; every row needs a value.",
                             source=os.path.basename(path_of(row[0])) if row else None, field=key)


def _duplicate_example(canon, keys: list[str], outcome) -> tuple[int, object]:
    """``(conflicting keys, DuplicateKey)``: one repeated key and its files, a conflicting one first (the pandas
    loader's example; :func:`scorio_core.io.quality.report.with_duplicate_example`). Run only when there are some."""
    from pyspark.sql import functions as F

    from scorio_core.io.quality.report import DuplicateKey

    repeated = (canon.groupBy(*keys)
                .agg(F.count(F.lit(1)).alias("k"), (F.count_distinct(*outcome) > 1).alias("conflict"),
                     F.array_sort(F.collect_set("file")).alias("files"))
                .filter(F.col("k") > 1))
    conflicts = repeated.filter(F.col("conflict")).count()
    row = repeated.orderBy(F.col("conflict").desc(), *keys).first()
    trial = int(row["trial"]) if "trial" in keys else -1
    return int(conflicts), DuplicateKey(str(row["model"]), str(row["task"]), str(row["question_id"]), trial, int(row["k"]),
                                        bool(row["conflict"]), (), tuple(os.path.basename(path_of(f)) for f in row["files"]))
