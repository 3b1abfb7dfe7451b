"""Per-model files without a task column as one task in the DuckDB and Spark engines.

The pandas loader gives files without a task column one task when they hold different models answering the
same questions (:func:`scorio_core.io._merge.join_per_model_files`: ``gpt.csv`` and ``claude.csv`` are one
benchmark, not two tasks of one model each). The engines read such files with the file's stem as task; the
functions here apply the same rule (:func:`scorio_core.io._merge.per_model_files`) on the model and question
ids each file holds, read in one grouped scan of those files only, so a small and a large load of the same
files give the same tasks. Files with a task column are left alone, as in the pandas loader; remote inputs
that Spark lists itself (a folder or a glob URI) are named by the files Spark reports.
"""

from __future__ import annotations

from scorio_core.io._merge import per_model_files, per_model_note, per_model_task_name

__all__ = ["join_per_model", "joined_defaults", "spark_join_per_model"]

_STEM_LINE = ": no task column; task set to the file stem '"


def _decide(rows, files) -> str | None:
    """The joined task name from ``(path, models, questions)`` rows of the stem-task files, else None."""
    by_path = {path: (set(models or ()), set(questions or ())) for path, models, questions in rows}
    kept = [f for f in files if f.path in by_path]
    if len(kept) < 2 or len(kept) != len(files):
        return None
    if not per_model_files([by_path[f.path][0] for f in kept], [by_path[f.path][1] for f in kept]):
        return None
    return per_model_task_name([f.stem for f in kept])


def joined_defaults(defaults: list[str], files, task: str, drop: tuple[str, ...] = ()) -> list[str]:
    """The report's defaults with the files' "task set to the file stem" lines replaced by one line (at the first).

    Parameters
    ----------
    defaults : list of str
        Lines as the engine wrote them.
    files : sequence of InputFile
        The joined files.
    task : str
        Their one task.
    drop : tuple of str
        More lines the one line replaces (a group Spark listed itself says "task set to each file's stem").
    """
    stems = {f"{f.name}{_STEM_LINE}{f.stem}'." for f in files} | set(drop)
    out, placed = [], False
    for line in defaults:
        if line in stems:
            if not placed:
                out.append(per_model_note([f.name for f in files], task))
                placed = True
            continue
        out.append(line)
    return out


def join_per_model(con, parts: list[tuple[str, list, bool]], files, defaults: list[str]) -> list[str]:
    """Give per-model files read by DuckDB one task (in ``__files``) and return the report's lines.

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The engine's connection; its ``__files`` table (:func:`scorio_core.engines._sql.register_files`) gets
        the one task of every stem-task file when the rule holds.
    parts : list of (str, list, bool)
        Each group's canonical ``SELECT``, its parameters and whether its task is the file stem.
    files : sequence of InputFile
        The stem-task groups' files.
    defaults : list of str
        The report's lines so far.

    Returns
    -------
    list of str
        ``defaults``, or with the joined files' stem-task lines replaced by one (:func:`joined_defaults`).

    Raises
    ------
    duckdb.Error
        A file DuckDB cannot read (the caller names it).
    """
    if len(files) < 2:
        return defaults
    stem = [(s, p) for s, p, from_stem in parts if from_stem]
    union = " UNION ALL ".join(f"(SELECT file, model, question_id FROM ({s}))" for s, _ in stem)
    rows = con.execute(
        "SELECT file, list(DISTINCT model) FILTER (WHERE model IS NOT NULL), "
        "list(DISTINCT question_id) FILTER (WHERE question_id IS NOT NULL) "
        f"FROM ({union}) GROUP BY file", [x for _, p in stem for x in p]).fetchall()
    task = _decide(rows, files)
    if task is None:
        return defaults
    con.execute("UPDATE __files SET __stem_task = ? WHERE __path IN (SELECT unnest(?))", [task, [f.path for f in files]])
    return joined_defaults(defaults, files, task)


def spark_join_per_model(groups: list, guesses: list, frames: list, defaults: list[str]) -> tuple[list, list[str]]:
    """Give per-model files read by Spark one task; the frames and the report's lines.

    Parameters
    ----------
    groups, guesses, frames : list
        Each group (:class:`scorio_core.engines.spark_inputs.Group`), its mapping guess and canonical frame.
    defaults : list of str
        The report's lines so far.

    Returns
    -------
    (list of pyspark.sql.DataFrame, list of str)
        The frames (the stem-task groups' ``task`` replaced by the one task when the rule holds) and the lines.

    Raises
    ------
    InputError
        A file Spark cannot read, named.
    """
    import os

    from pyspark.sql import functions as F

    from scorio_core.engines._sql import InputFile
    from scorio_core.engines.spark_inputs import path_of, spark_error
    from scorio_core.io._sources import strip_suffixes

    stem = [i for i, guess in enumerate(guesses) if "task" not in guess.mapping]
    files = [f for i in stem for f in groups[i].files if not f.remote]
    listed = [groups[i] for i in stem if groups[i].remote]  # URIs Spark lists: their files are known after reading
    if not listed and len(files) < 2:
        return frames, defaults
    by_path = {os.path.realpath(f.path): f.path for f in files}
    union = None
    for i in stem:
        part = frames[i].select("file", "model", "question_id")
        union = part if union is None else union.unionByName(part)
    try:
        got = union.groupBy("file").agg(F.collect_set("model").alias("m"), F.collect_set("question_id").alias("q")).collect()
    except Exception as exc:  # noqa: BLE001 - AnalysisException, Py4JJavaError...
        raise spark_error(exc, groups[stem[0]]) from None
    rows, found = [], []
    for r in sorted(got, key=lambda r: r["file"]):
        local = path_of(r["file"])
        path = by_path.get(os.path.realpath(local)) if "://" not in local else None
        if path is None:  # a file of a listed URI
            name = os.path.basename(local)
            found.append(InputFile(r["file"], name, None, strip_suffixes(name), -1, remote=True))
            path = r["file"]
        rows.append((path, r["m"], r["q"]))
    files += found
    task = _decide(rows, files)
    if task is None:
        return frames, defaults
    frames = [df.withColumn("task", F.lit(task)) if i in stem else df for i, df in enumerate(frames)]
    drop = tuple(f"{g.label}: no task column; task set to each file's stem." for g in listed)
    return frames, joined_defaults(defaults, files, task, drop)
