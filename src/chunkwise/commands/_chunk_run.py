"""The parts of ``chunkwise chunk`` around the pool of :mod:`chunkwise.corpus`: reading an
input in a worker, describing its failure, the output format, and ``--resume``.

Resume protocol (JSON lines only): the output is appended to in place, one document's
lines in one write, flushed after each document and fsynced every second and at the end.
A run killed at any moment leaves a file whose complete lines are valid records; the last
document may be cut short (a partial last line, or some of its lines only). ``--resume``
reads the file, cuts it back to the end of the last complete line and then drops the last
document's lines (it may be incomplete; it is chunked again), fsyncs, and appends the
documents whose document id is not in the file, in input order: the file then equals an
uninterrupted run's. A document whose id is in the file with another content id (its text
or the configuration changed) is reported as ``changed`` and not appended: no duplicates.

The file need not come from a ``--resume`` run: any JSON lines output of ``chunkwise chunk``
(written with ``-o``, or standard output redirected to a file and interrupted) carries the
same records and content ids, and is continued the same way. A document is recognised by
its document id *and* content id: a copy of a file under another name (same text, same
content id, another document id) is a document of its own and is appended. Documents not
in the file are appended in input order after those kept, so when new files sort before the
file's last document the order differs from a fresh run's (the records are the same). What
cannot be continued is refused with :class:`click.UsageError`, the file left as it was: a
complete line that is not such a record (another tool's output, or one without
``content_id``: the error names the line), Parquet (written whole, never appended to) and
standard output.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import IO, Any

import click

from ..corpus import CONTENT_ID_KEY
from ._inputs import STDIN_SOURCE, Input, Skipped, classify

__all__ = ["OUTPUT_FORMATS", "SUFFIXES", "AppendSink", "describe", "output_format", "read_item", "render_jsonl",
           "render_records", "resume_point", "weight"]

OUTPUT_FORMATS = ("jsonl", "parquet")
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
"""Output suffixes and their format; a file without a suffix (or ``-``) is JSON lines."""


def output_format(output: Path | None, given: str | None) -> str:
    """The format to write: ``given`` (``--output-format``), else by ``output``'s suffix.

    Raises:
        click.UsageError: an unknown suffix without ``--output-format``, or Parquet to
            standard output.
    """
    to_stdout = output is None or str(output) == "-"
    if given is not None:
        fmt = given
    elif to_stdout or not output.suffix:  # type: ignore[union-attr]
        fmt = "jsonl"
    else:
        suffix = output.suffix.lower()  # type: ignore[union-attr]
        if suffix not in SUFFIXES:
            known = ", ".join(SUFFIXES)
            raise click.UsageError(
                f"cannot tell the output format of {output}: supported formats are jsonl and parquet "
                f"(suffixes {known}); rename the file or give --output-format jsonl|parquet"
            )
        fmt = SUFFIXES[suffix]
    if fmt == "parquet" and to_stdout:
        raise click.UsageError("Parquet is written to a file: give -o FILE.parquet")
    return fmt


def read_item(item: tuple[Input, bytes | None], encoding: str | None, fmt: str, options: dict[str, Any]) -> Any:
    """The document of ``(input, standard input's bytes or None)`` -- in a worker process,
    so the loader options come as an argument (no click context there)."""
    from ..loaders import load, parse

    inp, data = item
    if data is not None or inp.path is None:
        return parse(data or b"", fmt, source=STDIN_SOURCE, encoding=encoding, **options)
    if inp.found is not None:  # its format was detected when the folder was walked
        return load(inp.found, inp.found.format or None, encoding=encoding, **options)
    return load(inp.path, root=inp.root, encoding=encoding, **options)


def weight(item: tuple[Input, bytes | None]) -> int:
    """The bytes of an input (its file's size; standard input's length), for the pool's
    batches (:func:`chunkwise.corpus.ordered_map`); 0 when it cannot be told."""
    inp, data = item
    if data is not None or inp.path is None:
        return len(data or b"")
    try:
        return os.path.getsize(inp.path)
    except OSError:
        return 0


def describe(exc: BaseException, item: tuple[Input, Any], stage: str, encoding: str | None = None) -> Skipped:
    """:func:`classify` in the worker (the exception's chain does not cross processes)."""
    return classify(exc, item[0], stage, encoding if stage == "read" else None)


def _record(chunk: Any, doc: Any, cid: str) -> dict[str, Any]:
    from ..export import chunk_record

    rec = chunk_record(chunk, doc)
    rec[CONTENT_ID_KEY] = cid
    return rec


def render_jsonl(chunks: list[Any], doc: Any, cid: str) -> bytes:
    """A document's lines, serialised whole before any is written
    (:func:`chunkwise.export.jsonl_lines`)."""
    from ..export import jsonl_lines

    return jsonl_lines(chunks, doc, cid)


def render_records(chunks: list[Any], doc: Any, cid: str) -> list[dict[str, Any]]:
    """A document's records (Parquet rows); JSON-safety is checked here, in the worker."""
    from ..export import dumps

    records = [_record(c, doc, cid) for c in chunks]
    for r in records:
        dumps(r["metadata"])  # a value that cannot be written fails this document alone
    return records


def situate(chunks: list[Any], doc: Any, client: Any) -> list[Any]:
    from ..llm import contextualize

    return contextualize(chunks, doc, client)


def resume_point(path: Path) -> tuple[int, dict[str, str]]:
    """Where to append to a JSON lines output: the byte offset to cut it to, and the
    documents kept (``document id -> content id``). See the module's protocol.

    Raises:
        click.UsageError: a complete line that is not a record of ``chunkwise chunk`` with
            a content id (the file is not an output of this command, or was edited).
    """
    known: dict[str, str] = {}
    last: tuple[str, str] | None = None  # (document id, content id) of the current run of lines
    last_start = 0
    pos = 0
    with open(path, "rb") as fh:
        for n, line in enumerate(fh, 1):
            if not line.endswith(b"\n"):
                break  # cut short by a kill: dropped
            try:
                rec = json.loads(line)
                cid, did = rec[CONTENT_ID_KEY], rec["document_id"]
            except (ValueError, KeyError, TypeError):
                raise click.UsageError(
                    f"{path} line {n} is not a record of chunkwise chunk with a {CONTENT_ID_KEY}; "
                    "run without --resume to replace the file"
                ) from None
            if (did, cid) != last:
                if last is not None:
                    known[last[0]] = last[1]
                last, last_start = (did, cid), pos
            pos += len(line)
    keep = last_start if last is not None else 0  # the last document is chunked again
    return keep, known


class AppendSink:
    """The output of a ``--resume`` run: cut back to ``keep`` bytes, then appended to, one
    document per write, fsynced every ``sync_every`` seconds and on close."""

    def __init__(self, path: Path, keep: int, sync_every: float = 1.0) -> None:
        self._fh: IO[bytes] = open(path, "ab")  # noqa: SIM115 - closed by close()
        self._fh.truncate(keep)
        self._fh.seek(keep)
        os.fsync(self._fh.fileno())
        self._every = sync_every
        self._last = time.monotonic()

    def write(self, payload: bytes) -> None:
        self._fh.write(payload)
        self._fh.flush()
        now = time.monotonic()
        if now - self._last >= self._every:
            os.fsync(self._fh.fileno())
            self._last = now

    def close(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()


def changed(name: str) -> Skipped:
    """A document the output already holds, chunked from another text or configuration."""
    return Skipped(
        name,
        "changed",
        "the output holds this document chunked from another text or configuration",
        "run without --resume to write the output afresh",
    )
