"""Archives of a folder named on the command line (``results.zip``, ``outputs.tar.gz``) read as that folder.

Evaluation outputs travel as archives of their folder (an lm-eval, lighteval or NeMo-Skills output folder, a
SWE-bench ``logs/``); their folders name models, runs and tasks, so the archive is written to a private temporary
folder as :func:`scorio_core.io.roots.uploaded_folder` writes a folder uploaded in the browser (every name checked part
by part, only data files written, the decompressed-size limit applied), removed when the command ends, and that folder
is loaded: the folder named after the archive (``qwen3-8b.zip`` -> ``qwen3-8b/``, the archive's own folders below it),
so an archive made from inside a model's folder still names the model.
"""

from __future__ import annotations

import atexit
import contextlib
import os
from pathlib import Path

__all__ = ["archive_folder"]

_OPEN = contextlib.ExitStack()
atexit.register(_OPEN.close)


def archive_folder(path: str) -> str:
    """The folder an archive of a folder is read as (written under a temporary folder kept until the command ends),
    or ``path`` unchanged when it is not such an archive (see :func:`scorio_core.io._gzip.archive_files`).

    Raises
    ------
    InputError
        A broken archive, a member name that is not a plain relative path, an archive past the decompressed-size
        limit or without data files (naming the archive).
    """
    from scorio_core.errors import InputError
    from scorio_core.io._gzip import ARCHIVE_SUFFIXES, archive_files
    from scorio_core.io.roots import uploaded_folder

    name = os.path.basename(os.fspath(path))
    if not name.lower().endswith(ARCHIVE_SUFFIXES) or not os.path.isfile(path):
        return path
    files = archive_files(name, Path(path).read_bytes())
    if not files:
        raise InputError("the archive holds no files.", source=name)
    try:
        root, pattern = _OPEN.enter_context(uploaded_folder(files))
    except InputError as exc:  # a member's name: said within the archive
        raise exc.with_source(name) from None
    return str(root.path / pattern)
