"""The parts of ``chunkwise chunk`` around the pool of :mod:`chunkwise.corpus`: finding the
inputs (one folder streamed into the pool), reading an input in a worker, describing its
failure, the output format, and ``--resume``.

Resume protocol (JSON lines only): the output is appended to in place, one document's
lines in one write, flushed after each document and fsynced every second and at the end.
A run killed at any moment leaves a file whose complete lines are valid records, followed
by at most a part of one document: some of its lines, perhaps a line cut short.
``--resume`` reads the file; every document before the last one it names is complete (the
next one was begun after it was written). The last one is checked, not assumed: it is read
and chunked again in this process and its lines compared with the file's tail from its
first line on. When the tail is the beginning of those lines (the run was killed while
writing it), the rest is appended; when the tail holds them whole (followed by a part of
the next document's first line), the file is cut back to their end. Either way the
document stays where it was and is not written again. Only when its text or configuration
changed (another content id), or its input cannot be found among this run's inputs, is the
file cut back to the document's first line and the document chunked again in input order.
Then the documents whose document id is not in the file are appended, in input order: the
file then equals an uninterrupted run's, byte for byte. A document whose id is in the file
with another content id (its text or the configuration changed) is reported as ``changed``
and not appended: no duplicates.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any

import click

from ..corpus import CONTENT_ID_KEY, content_id
from ._inputs import STDIN, STDIN_SOURCE, Input, Skipped, classify, gather, passed_over

__all__ = ["OUTPUT_FORMATS", "SUFFIXES", "AppendSink", "Resume", "ResumePoint", "StreamedInputs", "describe",
           "find_inputs", "output_format", "read_item", "render_jsonl", "render_records", "resume_point", "weight"]

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


class StreamedInputs:
    """The inputs of one folder, found while the first ones are chunked: iterating yields
    the ``head`` found already, then the rest as the walk goes on
    (:func:`chunkwise.loaders.find_files` streams one folder), reporting each file passed
    over to ``failures`` when it is met. ``count`` is the number of inputs when the head
    holds them all, else None (more may come)."""

    def __init__(self, found: Iterator[Input], peek: int) -> None:
        self.head = list(islice(found, max(1, peek)))
        self.count: int | None = len(self.head) if len(self.head) < max(1, peek) else None
        self._rest = found

    def __iter__(self) -> Iterator[Input]:
        head, self.head = self.head, []
        return chain(head, self._rest)


def _stream_folder(folder: str, include: Sequence[str], exclude: Sequence[str], root: Any,
                   failures: Any) -> Iterator[Input]:
    """:func:`~chunkwise.commands._inputs.gather` of one folder, as a generator: each file
    passed over is reported when the walk meets it."""
    from ..errors import ConfigError
    from ..loaders import find_files

    passed: list[Any] = []
    found = find_files([folder], include=list(include) or None, exclude=list(exclude) or None, skipped=passed,
                       root=root)
    while True:
        try:
            f = next(found, None)
        except ConfigError as exc:
            raise click.UsageError(f"{exc} (--root must contain every path named)") from exc
        for s in passed:
            failures.add(passed_over(Path(s.path), s.reason, s.relative))
        passed.clear()
        if f is None:
            return
        yield Input(f.path, root=f.root, found=f, named=False)  # its Paths shared: built and pickled once


def find_inputs(
    paths: Sequence[Any],
    include: Sequence[str],
    exclude: Sequence[str],
    root: Any,
    failures: Any,
    *,
    stream: bool,
    peek: int = 1,
) -> list[Input] | StreamedInputs:
    """The inputs of ``chunkwise chunk``; the files of folders passed over are added to
    ``failures``. ``stream`` and a single folder named: a :class:`StreamedInputs` that
    finds the files while the first are chunked (``peek`` of them found before it
    returns); otherwise the list of :func:`~chunkwise.commands._inputs.gather`.

    Raises:
        click.UsageError: no file at all under ``paths`` (none to read, none passed over),
            or a path outside ``root``.
    """
    def nothing() -> click.UsageError:
        return click.UsageError(
            "no file to read under the given paths" + (" (see --include and --exclude)" if include or exclude else "")
        )

    if stream and len(paths) == 1 and str(paths[0]) != STDIN and Path(paths[0]).is_dir():
        before = len(failures)
        inputs = StreamedInputs(_stream_folder(str(paths[0]), include, exclude, root, failures), peek)
        if inputs.count == 0 and len(failures) == before:
            raise nothing()
        return inputs
    found, skipped = gather(paths, include, exclude, root)
    if not found and not skipped:
        raise nothing()
    failures.extend(skipped)
    return found


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


@dataclass
class ResumePoint:
    """What :func:`resume_point` read in a JSON lines output.

    Attributes:
        known: ``document id -> content id`` of the documents before the last one: complete.
        last: ``(document id, content id)`` of the last document with a complete line, or
            None (no complete line).
        start: the byte offset of that document's first line (0 when ``last`` is None).
        tail: the bytes from ``start`` to the end of the file: the last document's lines,
            whole or in part, and perhaps a line cut short.
    """

    known: dict[str, str] = field(default_factory=dict)
    last: tuple[str, str] | None = None
    start: int = 0
    tail: bytes = b""


def resume_point(path: Path) -> ResumePoint:
    """The documents of a JSON lines output and its last document's lines (which
    :class:`Resume` checks). See the module's protocol.

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
                break  # cut short by a kill: part of the tail
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
        fh.seek(last_start)
        tail = fh.read()
    return ResumePoint(known, last, last_start, tail)


class AppendSink:
    """The output of a ``--resume`` run: cut back to ``keep`` bytes (None: kept whole),
    then appended to, one document per write, fsynced every ``sync_every`` seconds and on
    close."""

    def __init__(self, path: Path, keep: int | None, sync_every: float = 1.0) -> None:
        self._fh: IO[bytes] = open(path, "ab")  # noqa: SIM115 - closed by close()
        if keep is not None:
            self.cut(keep)
        self._every = sync_every
        self._last = time.monotonic()

    def cut(self, keep: int) -> None:
        """Cut the file back to ``keep`` bytes (fsynced) and append after them."""
        self._fh.flush()
        self._fh.truncate(keep)
        self._fh.seek(keep)
        os.fsync(self._fh.fileno())

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


class Resume:
    """A ``--resume`` run's output: :func:`resume_point` read, then the file opened for
    appending as it is (nothing cut before :meth:`settle` has checked the last document).

    Raises:
        click.UsageError: as :func:`resume_point`.
    """

    def __init__(self, path: Path) -> None:
        self.point = resume_point(path) if path.exists() else ResumePoint()
        self.sink = AppendSink(path, None if self.point.last is not None else 0)
        self.write = self.sink.write

    def settle(self, job: Any, inputs: Sequence[Any]) -> dict[str, str]:
        """Complete or keep the file's last document in place (see the module's protocol)
        and give the documents the run skips: ``document id -> content id``. ``job`` is the
        run's :class:`chunkwise.corpus._Job` (reader, chunker, step after, renderer),
        ``inputs`` the run's items (``(Input, None)``)."""
        point, known = self.point, dict(self.point.known)
        if point.last is None:
            return known
        did, cid = point.last
        item = next((i for i in inputs if i[0].found is not None and i[0].found.id == did), None)
        payload = None
        if item is not None:
            try:
                doc = job.reader(item)
                if doc.id == did and content_id(doc.text, job.config) == cid:
                    chunks = job.chunker.chunk(doc)
                    if job.after is not None:
                        chunks = job.after(chunks, doc)
                    payload = job.render(chunks, doc, cid)
            except Exception:  # noqa: BLE001 - the pool reads it again and reports the failure
                payload = None
        tail = point.tail
        if payload is None:  # changed, or not among the inputs: chunked again in input order
            self.sink.cut(point.start)
            return known
        if payload.startswith(tail):
            if len(payload) > len(tail):
                self.write(payload[len(tail):])
        elif tail.startswith(payload):
            self.sink.cut(point.start + len(payload))
        else:  # complete lines that differ (an edited file): written again, in place
            self.sink.cut(point.start)
            self.write(payload)
        known[did] = cid
        return known

    def close(self) -> None:
        self.sink.close()


def changed(name: str) -> Skipped:
    """A document the output already holds, chunked from another text or configuration."""
    return Skipped(
        name,
        "changed",
        "the output holds this document chunked from another text or configuration",
        "run without --resume to write the output afresh",
    )
