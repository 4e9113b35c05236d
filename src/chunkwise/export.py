"""Writing chunks out: JSON lines, written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .loaders.base import json_safe
from .types import Chunk, Document

__all__ = ["atomic_writer", "chunk_record", "dumps", "jsonable", "write_jsonl"]


def chunk_record(chunk: Chunk, document: Document) -> dict[str, Any]:
    """One JSON line: the schema documented in the README.

    Keys: ``id``, ``document_id``, ``source`` (path or null), ``index``, ``start_index``,
    ``end_index`` (half-open character offsets into the document text), ``size``,
    ``unit``, ``text``, ``context``, ``metadata``.
    """
    return {
        "id": chunk.id,
        "document_id": chunk.document_id,
        "source": document.source,
        "index": chunk.index,
        "start_index": chunk.start_index,
        "end_index": chunk.end_index,
        "size": chunk.size,
        "unit": chunk.unit,
        "text": chunk.text,
        "context": chunk.context,
        "metadata": dict(chunk.metadata),
    }


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """Open a temporary file beside ``path``; rename it over ``path`` only on success.

    A failure leaves any previous file at ``path`` untouched and removes the temporary.
    A ``path`` that exists and is not a regular file (``/dev/null``, a named pipe) is
    written directly.
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a directory; name a file to write")
    if target.exists() and not target.is_file():  # /dev/null, a pipe: nothing to replace
        with open(target, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)  # mkstemp makes the file private: give it the usual mode
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_jsonl(records: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> int:
    """Write records as JSON lines to ``path`` atomically; returns the number written."""
    n = 0
    with atomic_writer(path) as fh:
        for rec in records:
            fh.write(dumps(rec))
            fh.write("\n")
            n += 1
    return n


def dumps(record: Any) -> str:
    """``record`` as one line of strict JSON (UTF-8 text kept as it is), values JSON has no
    type for converted by :func:`jsonable`. The one encoder of the library and the CLI.

    Example:
        >>> dumps({"when": __import__("datetime").date(2024, 1, 2), "score": float("nan"), "b": b"hi"})
        '{"when": "2024-01-02", "score": "nan", "b": "aGk="}'
    """
    try:  # the common case: plain JSON values, non-JSON ones converted as they come
        return json.dumps(record, ensure_ascii=False, allow_nan=False, default=jsonable)
    except (TypeError, ValueError) as exc:  # a NaN, an infinity or a key json cannot write
        if "ircular" in str(exc):  # a value that holds itself: no conversion helps
            raise
        return json.dumps(jsonable(record), ensure_ascii=False, allow_nan=False)


jsonable = json_safe
"""A JSON value for any value: :func:`chunkwise.loaders.json_safe` (dates and times in ISO
8601, NaN and infinities as strings, bytes as base64, sets as sorted lists, arrays by
``tolist()``, anything else as its ``str``)."""
