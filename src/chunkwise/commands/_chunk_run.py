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
document stays where it was and is not written again.

When it cannot be chunked again to compare -- its text or the configuration changed
(another content id), its input is not among this run's inputs (or, in a folder streamed
to the workers, not found before the pool starts), or it cannot be read -- the lines
themselves tell whether it is whole (:func:`whole_length`): every chunk id that a line
points to (``next_id``, and ``child_ids`` of a hierarchy) is the id of one of its lines.
A run killed while writing a document leaves the line before the first missing one
pointing to it, so a whole document is never taken for one cut short. A whole document is
kept as it is, like every other document of the file (a part of the next document's
first line after it is cut off): with another content id it is reported ``changed`` and
left alone, so a resume with other options never rewrites a finished document and never
leaves one document chunked two ways. Only a document cut short is cut back to its first
line and chunked again in input order (with this run's options: its old lines were not
a whole document; a note says so when its text or options changed). Then the documents
whose document id is not in the file are appended, in input order: the file then equals
an uninterrupted run's, byte for byte. A document whose id is in the file with another
content id (its text or the configuration changed) is reported as ``changed`` and not
appended: no duplicates.

Options: every record carries ``config_id``, a hash of the chunking configuration alone
(:func:`chunkwise.corpus.config_id`; the content id hashes it with the text). A file with a
line whose ``config_id`` is not this run's was written with other options: ``--resume``
refuses it (:class:`click.UsageError`, before anything is read again or written), so that
one file never mixes two configurations. The error names the option that changed, found by
trying this run's options with one setting changed (:func:`options_change`: ``encoding:
detected -> iso8859-1``, ``chunk_size: 96 -> 200``), else lists this run's options. Lines without ``config_id`` (files written before
it) are not checked: there another content id may be other options or an edited text, and
each such document is reported ``changed`` as above.

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

One run at a time: a ``--resume`` run holds :class:`OutputLock` on its output (an
exclusive ``flock`` on ``.NAME.lock`` beside it) from before it reads the file until it
closes it; a second run on the same output is refused with :class:`click.UsageError`
without touching the file. The kernel drops the lock of a process that dies (``kill -9``),
so a lock file left behind blocks nothing; it is removed at the end of a run, is hidden
(never an input of a folder) and is never read as an input of a run on that output. A
file that holds a document twice (written by two runs at once, before the lock) is
rewritten without the repeated lines (by chunk id, the first kept) before it is resumed.
"""

from __future__ import annotations

import codecs
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import click

from ..corpus import CONFIG_ID_KEY, CONTENT_ID_KEY, content_id, job_config_id, render_payload
from ._inputs import STDIN, STDIN_SOURCE, Input, Skipped, classify, gather, passed_over

__all__ = ["OUTPUT_FORMATS", "SUFFIXES", "AppendSink", "CodeNote", "FolderEntry", "OutputLock", "PassedOver", "Resume",
           "ResumePoint", "StreamedInputs", "check_output_folder", "describe", "find_inputs", "options_change",
           "options_of", "output_format", "pool_items", "read_item", "remove_stale_temporaries", "render_jsonl", "render_records", "resume_point",
           "weight", "whole_length"]

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


class FolderEntry:
    """A file of a streamed folder as the parent hands it to a worker: the folder, the
    file's path relative to it and its size, nothing read yet. The worker classifies it
    (:func:`chunkwise.loaders.files.classify_entry`: first bytes, format, id -- the same
    :class:`~chunkwise.loaders.FoundFile` as :func:`~chunkwise.loaders.find_files` gives),
    then reads it. Pickles as a tuple of its fields."""

    __slots__ = ("folder", "relative", "size", "root", "found", "_path")
    named = False

    def __init__(self, folder: str, relative: str, size: int = 0, root: str | None = None) -> None:
        self.folder, self.relative, self.size, self.root = folder, relative, size, root
        self.found: Any = None
        self._path: Path | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return FolderEntry, (self.folder, self.relative, self.size, self.root)

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = Path(self.folder) / self.relative
        return self._path

    @property
    def name(self) -> str:
        return self.path.as_posix()

    def classify(self) -> Any:
        """Its :class:`~chunkwise.loaders.FoundFile` (classified once)."""
        if self.found is None:
            from ..loaders.files import classify_entry

            self.found = classify_entry(self.folder, self.relative, self.root)
        return self.found

    def as_input(self) -> Input:
        """The :class:`~chunkwise.commands._inputs.Input` that a listed folder gives this
        file (its failures are described alike)."""
        f = self.found
        if f is None:
            return Input(self.path, root=Path(self.root or self.folder), named=False)
        return Input(f.path, root=f.root, found=f, named=False)


class PassedOver(Exception):
    """A file of a streamed folder that no loader reads (or that cannot be opened), found
    so in a worker: ``skipped`` is its report, as :func:`find_inputs` makes it for a
    listed folder."""

    def __init__(self, skipped: Skipped) -> None:
        super().__init__(skipped)
        self.skipped = skipped


class StreamedInputs:
    """The files of one folder, listed (a ``scandir`` walk, nothing read) but not
    classified: iterating yields a :class:`FolderEntry` per file, in
    :func:`chunkwise.loaders.find_files`'s order; the workers classify and read them, and
    a file that no loader reads comes back as a :class:`PassedOver` failure, reported in
    order. ``count`` is the number of entries (an upper bound of the documents)."""

    def __init__(self, entries: list[FolderEntry]) -> None:
        self.entries = entries
        self.count: int | None = len(entries)

    def __iter__(self) -> Iterator[FolderEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def _stream_folder(folder: str, include: Sequence[str], exclude: Sequence[str], root: Any) -> StreamedInputs | None:
    """The entries of one folder (:func:`chunkwise.loaders.files.list_folder`) without
    reading a file, or None when the folder holds symbolic links (a file may be reached
    twice: :func:`~chunkwise.commands._inputs.gather` resolves that).

    Raises:
        click.UsageError: ``root`` does not contain the folder's files.
    """
    from ..errors import ConfigError
    from ..loaders.files import list_folder, relative_id_path

    listed = list_folder(folder, include=list(include) or None, exclude=list(exclude) or None)
    if listed is None:
        return None
    top = os.fspath(folder)
    base = None
    if root is not None:
        base = os.fspath(root)
        try:  # every file of the folder is inside root when its first one is
            if listed:
                relative_id_path(os.path.join(top, listed[0][0]), base)
        except ConfigError as exc:
            raise click.UsageError(f"{exc} (--root must contain every path named)") from exc
    return StreamedInputs([FolderEntry(top, rel, size, base) for rel, size in listed])


def find_inputs(
    paths: Sequence[Any],
    include: Sequence[str],
    exclude: Sequence[str],
    root: Any,
    failures: Any,
    *,
    stream: bool,
    peek: int = 1,
    output: Path | None = None,
) -> list[Input] | StreamedInputs:
    """The inputs of ``chunkwise chunk``; the files of folders passed over are in the
    :class:`GatheredInputs`' ``order``, reported by :class:`PassedInOrder`. ``stream`` and a single folder named (without symbolic links): a
    :class:`StreamedInputs` of its files, listed but not read (the workers classify them
    and report those passed over, in order); otherwise the list of
    :func:`~chunkwise.commands._inputs.gather`. ``peek`` is kept for callers (unused: the
    listing is whole). ``output`` (``-o``), its temporaries and its lock file are never
    inputs: a run writing into a folder it reads does not read its own output back the next
    time. ``output``'s folder must take a new file (:func:`check_output_folder`).

    Raises:
        click.UsageError: no file at all under ``paths`` (none to read, none passed over),
            a path outside ``root``, or an output folder that cannot be written to.
    """
    def nothing() -> click.UsageError:
        return click.UsageError(
            "no file to read under the given paths" + (" (see --include and --exclude)" if include or exclude else "")
        )

    own = _own_output(output)
    if own is not None:
        check_output_folder(output)  # type: ignore[arg-type]
    if stream and len(paths) == 1 and str(paths[0]) != STDIN and Path(paths[0]).is_dir():
        inputs = _stream_folder(str(paths[0]), include, exclude, root)
        if inputs is not None:
            if own is not None:
                inputs = StreamedInputs(
                    [e for e in inputs.entries if not own(os.path.join(e.folder, e.relative))]
                )
            if not inputs.count:
                raise nothing()
            return inputs
    found, skipped = gather(paths, include, exclude, root)
    if own is not None:
        found = [i for i in found if i.path is None or not own(str(i.path))]
    if not found and not skipped:
        raise nothing()
    from ._order import in_found_order

    return GatheredInputs(found, in_found_order(paths, found, skipped))


class GatheredInputs(list):  # type: ignore[type-arg]
    """The inputs of :func:`~chunkwise.commands._inputs.gather` (a list), with ``order``:
    the same inputs and the files passed over between them, in the order found. The
    files passed over are reported by :class:`PassedInOrder`, each just before the
    outcome of the input found after it."""

    def __init__(self, found: list[Input], order: list[Input | Skipped]) -> None:
        super().__init__(found)
        self.order = order


class PassedInOrder:
    """Reports the files passed over while the inputs were gathered in input order
    (``failures.add``): :meth:`before` an input's outcome, those found before it;
    :meth:`rest`, those left (all of them, for a run that reports no outcome one by one)."""

    def __init__(self, inputs: Any, failures: Any) -> None:
        self.order: list[Any] = list(getattr(inputs, "order", ()))
        self.failures = failures
        self.k = 0

    def before(self, inp: Any) -> None:
        order = self.order
        for j in range(self.k, len(order)):
            if order[j] is inp:
                for x in order[self.k : j]:
                    if isinstance(x, Skipped):
                        self.failures.add(x)
                self.k = j + 1
                return

    def rest(self) -> None:
        for x in self.order[self.k :]:
            if isinstance(x, Skipped):
                self.failures.add(x)
        self.k = len(self.order)


def _own_output(output: Path | None) -> Callable[[str], bool] | None:
    """A test ``path -> bool``: whether ``path`` is ``output``, one of its temporaries
    (``.NAME.XXXXXXXX.tmp`` beside it) or its lock file (``.NAME.lock``); None without an
    output file."""
    if output is None or str(output) == STDIN:
        return None
    real = os.path.realpath(output)
    folder, name = os.path.split(real)
    temporary = _temporary_name(name)
    lock = _lock_name(name)

    def own(path: str) -> bool:
        p = os.path.realpath(path)
        if p == real:
            return True
        head, tail = os.path.split(p)
        return head == folder and (tail == lock or temporary.fullmatch(tail) is not None)

    return own


def pool_items(inputs: list[Input] | StreamedInputs) -> Iterator[tuple[Any, bytes | None]]:
    """The pool's items: ``(input, None)``, or ``(input, its bytes)`` for standard input
    (read when the pool reaches it). A streamed folder's entries go as they are (no
    :class:`~pathlib.Path` built in the parent)."""
    if isinstance(inputs, StreamedInputs):
        return ((e, None) for e in inputs)
    import sys

    return ((inp, sys.stdin.buffer.read() if inp.path is None else None) for inp in inputs)


NO_ROOT = "<no --root>"
"""The root in :func:`reading_key` of a run without ``--root``."""


def reading_key(reading: Any) -> str:
    """What ``chunkwise chunk`` reads with that changes its records besides the chunking
    (:class:`~chunkwise.commands._options.InputOptions`): the id root (absolute, links
    resolved, so that its spelling does not count; :data:`NO_ROOT` without one), the
    encoding (codec's canonical name; detected: ``None``), the format of standard input
    and the loader options. Not the globs, workers or progress bar: they change which
    documents or how fast, not a document's records."""
    root = NO_ROOT if reading.root is None else os.path.realpath(os.path.abspath(os.fspath(reading.root)))
    encoding = reading.encoding
    if encoding is not None:
        try:
            encoding = codecs.lookup(encoding).name
        except LookupError:
            pass
    options = sorted((str(k), str(v)) for k, v in dict(reading.loader_options).items())
    return repr(("root", root, "encoding", encoding, "format", reading.fmt, "loader", options))


def read_item(item: tuple[Input, bytes | None], encoding: str | None, fmt: str, options: dict[str, Any]) -> Any:
    """The document of ``(input, standard input's bytes or None)`` -- in a worker process,
    so the loader options come as an argument (no click context there)."""
    from ..loaders import load, parse

    inp, data = item
    if type(inp) is FolderEntry:  # a streamed folder's file: classified here, in the worker
        found = inp.classify()
        if not found.supported:
            import logging

            logging.getLogger("chunkwise.loaders.files").info("skipped %s: %s", found.path, found.reason)
            raise PassedOver(passed_over(Path(found.path), found.reason, found.relative))
        return load(found, found.format or None, encoding=encoding, **options)
    if data is not None or inp.path is None:
        return parse(data or b"", fmt, source=STDIN_SOURCE, encoding=encoding, **options)
    if inp.found is not None:  # its format was detected when the folder was walked
        return load(inp.found, inp.found.format or None, encoding=encoding, **options)
    return load(inp.path, root=inp.root, encoding=encoding, **options)


_STRATEGY_OF = {
    "csv": "table", "tsv": "table", "markdown": "markdown", "html": "markdown", "rst": "markdown", "pdf": "markdown",
    "docx": "markdown", "pptx": "markdown", "xlsx": "markdown", "epub": "markdown", "chat": "conversation",
    "json": "conversation", "jsonl": "conversation", "srt": "conversation", "vtt": "conversation",
    "text": "recursive",
}
"""The strategy that ``--strategy auto`` picks for a document of each format that is not code."""

_NO_LANGUAGE = "strategy 'code' got a text without language="
"""How the code strategy's warning about a text without a language begins."""


class CodeNote:
    """``--strategy code`` without ``-p language``: the context each document is chunked in
    (:attr:`chunkwise.corpus._Job.around`). For a document that is not source code (a
    ``.csv``, ``.md``, ``.txt`` file; standard input given ``--format csv``), the code
    strategy's warning that it "got a text without language=" gives way to one that says
    what the document is, why the code strategy does not apply, and the strategy that does
    (once per format and process: ``--strategy code`` over a folder of CSV files warns
    once); other warnings pass as they are. Text on standard input keeps the code
    strategy's own warning (it asks for ``-p language=NAME``)."""

    def __init__(self) -> None:
        self.noted: set[str] = set()
        self.registry: dict[Any, Any] = {}

    def __call__(self, doc: Any) -> Any:
        import contextlib

        meta = doc.metadata or {}
        fmt = meta.get("format")
        source = doc.source or ""
        if not isinstance(fmt, str) or fmt == "code" or meta.get("language") or (
            fmt == "text" and (not source or source.startswith("<"))
        ):
            return contextlib.nullcontext()
        return self._replace(doc, fmt)

    def message(self, doc: Any, fmt: str) -> str:
        """The warning for document ``doc`` of format ``fmt``."""
        meta = doc.metadata or {}
        source = doc.source or ""
        stream = not source or source.startswith("<")
        name = source or "a document" if stream else meta.get("filename") or source
        what = "plain text" if fmt == "text" else fmt if stream else f"a {fmt} file"
        if stream:
            what += f" (--format {fmt})"
        if meta.get("compression"):
            what += f", {meta['compression']}-compressed"
        strategy = _STRATEGY_OF.get(fmt, "auto")
        return (
            f"{name} is {what}, not source code: strategy 'code' has no language to parse it in, so it (and any "
            f"other {fmt} input of this run) is split at blank lines and lines only; for {fmt} use --strategy "
            f"{strategy}" + (" (or --strategy auto, which picks each input's strategy)" if strategy != "auto" else "")
            + ", or give -p language=NAME if it is code"
        )

    def _replace(self, doc: Any, fmt: str) -> Any:
        import contextlib
        import warnings

        from ..chunkers.code import CodeWarning

        @contextlib.contextmanager
        def replaced() -> Iterator[None]:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                yield
            for w in caught:  # shown after the chunking, through the filters in force
                text = str(w.message)
                if issubclass(w.category, CodeWarning) and text.startswith(_NO_LANGUAGE):
                    if fmt not in self.noted:
                        self.noted.add(fmt)
                        warnings.warn_explicit(self.message(doc, fmt), CodeWarning, "chunkwise", 1, __name__, {})
                    continue
                module = os.path.splitext(os.path.basename(w.filename))[0] or "<unknown>"
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, module, self.registry)

        return replaced()


def weight(item: tuple[Input, bytes | None]) -> int:
    """The bytes of an input (its file's size; standard input's length), for the pool's
    batches (:func:`chunkwise.corpus.ordered_map`); 0 when it cannot be told."""
    inp, data = item
    if type(inp) is FolderEntry:
        return inp.size  # from the walk
    if data is not None or inp.path is None:
        return len(data or b"")
    try:
        return os.path.getsize(inp.path)
    except OSError:
        return 0


def describe(exc: BaseException, item: tuple[Input, Any], stage: str, encoding: str | None = None) -> Skipped:
    """:func:`classify` in the worker (the exception's chain does not cross processes); a
    streamed folder's file that no loader reads: its :class:`PassedOver` report."""
    if isinstance(exc, PassedOver):
        return exc.skipped
    inp = item[0]
    if type(inp) is FolderEntry:
        inp = inp.as_input()
    return classify(exc, inp, stage, encoding if stage == "read" else None)


def _record(chunk: Any, doc: Any, cid: str, cfg: str | None = None) -> dict[str, Any]:
    from ..export import chunk_record

    rec = chunk_record(chunk, doc)
    rec[CONTENT_ID_KEY] = cid
    if cfg is not None:
        rec[CONFIG_ID_KEY] = cfg
    return rec


def render_jsonl(chunks: list[Any], doc: Any, cid: str, cfg: str | None = None) -> bytes:
    """A document's lines, serialised whole before any is written
    (:func:`chunkwise.export.jsonl_lines`), with the content id ``cid`` and the
    configuration id ``cfg`` (when given) last in each."""
    from ..export import jsonl_lines

    try:
        return jsonl_lines(chunks, doc, cid, cfg)
    except UnicodeEncodeError as exc:
        raise _unencodable(exc, chunks, doc) from exc


render_jsonl.with_config_id = True  # type: ignore[attr-defined]  # given the run's config_id


def render_records(chunks: list[Any], doc: Any, cid: str, cfg: str | None = None) -> list[dict[str, Any]]:
    """A document's records (Parquet rows); JSON-safety is checked here, in the worker."""
    from ..export import dumps

    records = [_record(c, doc, cid, cfg) for c in chunks]
    try:
        for r in records:  # a value that cannot be written fails this document alone
            dumps(r["metadata"]).encode("utf-8")
            for key in _TEXT_FIELDS:
                v = r.get(key)
                if type(v) is str:
                    v.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _unencodable(exc, chunks, doc) from exc
    return records


render_records.with_config_id = True  # type: ignore[attr-defined]

_TEXT_FIELDS = ("id", "document_id", "source", "text", "context", "unit", CONTENT_ID_KEY)


def _unencodable(exc: UnicodeEncodeError, chunks: list[Any], doc: Any) -> ValueError:
    """A ``ValueError`` naming the value (the text, the source, a metadata key) that holds
    a character UTF-8 cannot hold (a lone surrogate), instead of a bare codec message."""

    def bad(v: Any) -> bool:
        try:
            (v if isinstance(v, str) else repr(v)).encode("utf-8")
            return False
        except UnicodeEncodeError:
            return True

    where = "a value"
    if bad(doc.source):
        where = "the source path"
    elif bad(doc.text) or any(bad(c.text) for c in chunks):
        where = "the text"
    else:
        keys = [k for k, v in doc.metadata.items() if bad(k) or bad(v)]
        keys += [k for c in chunks for k, v in c.metadata.items() if (bad(k) or bad(v)) and k not in keys]
        if keys:
            where = "metadata " + ", ".join(repr(k) for k in keys[:3])
    return ValueError(f"{where} holds {exc.object[exc.start:exc.end]!r}, a lone surrogate that UTF-8 cannot hold")


def situate(chunks: list[Any], doc: Any, client: Any) -> list[Any]:
    from ..llm import contextualize

    return contextualize(chunks, doc, client)


STALE_AFTER = 60.0
"""Seconds since its last change before a temporary that no process holds open is stale
(a run on another machine or in another container writing the same folder is not among
this machine's processes: one that writes keeps its temporary younger than this)."""

STALE_AFTER_UNSEEN = 24 * 3600.0
"""Where the processes' open files cannot be listed (no ``/proc``): the age that makes a
temporary stale."""

_TEMP_NAME = "abcdefghijklmnopqrstuvwxyz0123456789_"
"""The characters of :func:`tempfile.mkstemp`'s random part (8 of them)."""


def _temporary_name(name: str) -> Any:
    """The pattern of the names :mod:`chunkwise.export`'s atomic writers give the
    temporaries of a file named ``name``: ``.NAME.XXXXXXXX.tmp``."""
    import re

    return re.compile(re.escape(f".{name}.") + f"[{_TEMP_NAME}]{{8}}" + re.escape(".tmp"))


def _temporaries(output: Path) -> list[Path]:
    """The files beside ``output`` named as the atomic writers of :mod:`chunkwise.export`
    name its temporaries: ``.NAME.XXXXXXXX.tmp``."""
    pattern = _temporary_name(output.name)
    try:
        with os.scandir(output.parent) as it:
            return sorted(Path(e.path) for e in it if pattern.fullmatch(e.name))
    except OSError:
        return []


def _held_open(paths: set[str]) -> set[str] | None:
    """Which of ``paths`` (real paths) a process of this machine holds open, read from
    ``/proc/PID/fd``; None where there is no ``/proc`` to read."""
    if not os.path.isdir("/proc/self/fd"):
        return None
    held: set[str] = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:  # gone, or another user's
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target in paths:
                held.add(target)
    return held


def remove_stale_temporaries(output: Path, now: float | None = None) -> list[Path]:
    """Remove the temporaries of ``output`` left by runs that were killed (``kill -9``, a
    power cut) before they could remove them; returns those removed.

    A file beside ``output`` is removed only when all of these hold: its name is the one
    the atomic writers give a temporary of ``output`` (``.NAME.XXXXXXXX.tmp``); it is a
    regular file (not a link) of this user; it holds nothing or starts as a chunk record
    of JSON lines or as Parquet does; no process of this machine holds it open (a run
    still writing it, this one included; read from ``/proc``); and it has not changed for
    :data:`STALE_AFTER` seconds (:data:`STALE_AFTER_UNSEEN` where the open files cannot
    be listed). Anything else is left as it is; a file that cannot be removed is too.
    """
    import logging
    import stat

    now = time.time() if now is None else now
    candidates: dict[str, Path] = {}
    for path in _temporaries(output):
        try:
            st = path.lstat()
            if not stat.S_ISREG(st.st_mode) or (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
                continue
            with open(path, "rb") as fh:
                head = fh.read(8)
        except OSError:
            continue
        if head and not (head.startswith(b'{"id": ') or head.startswith(b"PAR1")):
            continue  # not a temporary of ours
        candidates[os.path.realpath(path)] = path
    if not candidates:
        return []
    held = _held_open(set(candidates))
    age = STALE_AFTER if held is not None else STALE_AFTER_UNSEEN
    removed = []
    for real, path in candidates.items():
        if held is not None and real in held:
            continue
        try:
            if now - path.lstat().st_mtime < age:
                continue
            path.unlink()
        except OSError:
            continue
        logging.getLogger("chunkwise").info("removed %s, a temporary left by a run that was killed", path)
        removed.append(path)
    return removed


def _folder_error(output: Path, exc: OSError) -> click.UsageError:
    """The usage error of an output whose folder does not take a new file."""
    folder = os.path.dirname(os.path.abspath(output)) or os.sep
    return click.UsageError(
        f"cannot write to the folder {folder} ({exc.strerror or exc}): -o {output} cannot be written; "
        "give -o a file in a folder you can write to"
    )


def check_output_folder(output: Path) -> None:
    """Check, before any work, that ``output``'s folder takes a new file: a temporary
    named as the atomic writers name them (``.NAME.XXXXXXXX.tmp``) is created there and
    removed at once.

    Raises:
        click.UsageError: the folder cannot be written to (read-only, no permission, a
            file system such as ``/proc`` that takes no new file), naming the folder.
    """
    import tempfile

    folder = os.path.dirname(os.path.abspath(output)) or os.sep
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{os.path.basename(output)}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _folder_error(output, exc) from exc
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:  # removed later as a stale temporary (it is empty)
        pass


def _lock_name(name: str) -> str:
    """The name of the lock file of an output named ``name``: ``.NAME.lock``."""
    return f".{name}.lock"


try:
    import fcntl as _fcntl
except ImportError:  # Windows
    _fcntl = None  # type: ignore[assignment]
try:
    import msvcrt as _msvcrt
except ImportError:  # POSIX
    _msvcrt = None  # type: ignore[assignment]

LOCKING = "flock" if _fcntl is not None else "msvcrt" if _msvcrt is not None else None
"""How :class:`OutputLock` locks: ``flock`` (POSIX), ``msvcrt`` (Windows: a byte range of
the lock file), or None (neither module: runs are not locked)."""

_HELD: set[int] = set()
"""The descriptors of the locks this process holds (closed in a forked child, so that a
worker of the pool does not keep the lock of a parent killed outright)."""


def _forget_locks() -> None:
    for fd in list(_HELD):
        try:
            os.close(fd)  # the child's copy only: the parent's lock stays
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks)


def _try_lock(fd: int) -> bool:
    if _fcntl is not None:
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if _msvcrt is not None:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            _msvcrt.locking(fd, _msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
    return True


def _unlock(fd: int) -> None:
    try:
        if _fcntl is not None:
            _fcntl.flock(fd, _fcntl.LOCK_UN)
        elif _msvcrt is not None:
            os.lseek(fd, 0, os.SEEK_SET)
            _msvcrt.locking(fd, _msvcrt.LK_UNLCK, 1)
    except OSError:
        pass


class OutputLock:
    """An exclusive lock on an output file for one run: ``flock`` on ``.NAME.lock`` beside
    it (Windows: ``msvcrt.locking`` of its first byte; without either, no lock, and a note
    says so). A second
    :meth:`acquire` on the same output, in this or another process, is refused while it is
    held. The kernel releases the lock of a process that dies, so a lock file that a run
    killed outright left behind is free; :meth:`release` removes the file. A context
    manager (acquire, release)."""

    def __init__(self, output: Path) -> None:
        self.output = Path(output)
        real = Path(os.path.realpath(self.output))  # one lock for every name of the file
        self.path = real.with_name(_lock_name(real.name))
        self._fd: int | None = None

    def acquire(self) -> OutputLock:
        """Take the lock.

        Raises:
            click.UsageError: another run holds it (naming the output), or the folder
                does not take the lock file.
        """
        if LOCKING is None:
            click.echo(f"note: files cannot be locked here: run one --resume on {self.output} at a time", err=True)
            return self
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        while True:
            try:
                fd = os.open(self.path, flags, 0o644)
            except OSError as exc:
                if os.path.islink(self.path):
                    raise click.UsageError(f"cannot lock {self.output}: {self.path} is a symbolic link; remove it") from exc
                raise _folder_error(self.output, exc) from exc
            if not _try_lock(fd):
                os.close(fd)
                raise click.UsageError(
                    f"another run is writing {self.output} (it holds {self.path}); wait for it to end, "
                    "or give another -o"
                )
            try:  # the run that held it may have removed the file between our open and lock
                current = os.lstat(self.path)
                same = os.path.samestat(os.fstat(fd), current)
            except OSError:
                same = False
            if same:
                self._fd = fd
                _HELD.add(fd)
                return self
            _unlock(fd)
            os.close(fd)

    def release(self) -> None:
        """Remove the lock file and drop the lock (nothing when not held)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        _HELD.discard(fd)
        if _fcntl is not None:  # removed while held: a run that opened it meanwhile sees another file
            try:
                os.unlink(self.path)
            except OSError:
                pass
        _unlock(fd)
        os.close(fd)
        if _fcntl is None:  # Windows: an open file cannot be removed; a run holding it keeps it
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def __enter__(self) -> OutputLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _dedupe(path: Path) -> int:
    """Rewrite ``path`` without the complete lines whose chunk id an earlier line has (the
    first kept, in place; a last line cut short is kept), atomically; the lines removed."""
    import tempfile

    seen: set[str] = set()
    removed = 0
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with open(path, "rb") as src, os.fdopen(fd, "wb") as dst:
            for line in src:
                if line.endswith(b"\n"):
                    cid = json.loads(line).get("id")
                    if cid is not None:
                        if cid in seen:
                            removed += 1
                            continue
                        seen.add(cid)
                dst.write(line)
            dst.flush()
            os.fsync(dst.fileno())
        if removed:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
            os.replace(tmp, path)
        else:
            os.unlink(tmp)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return removed


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
        doubled: whether the file may hold a chunk twice: a document whose lines come
            again after another document's, or a chunk index that does not follow the
            one before (two runs wrote it at once).
        configs: ``config id -> the first line number with it``, over the complete lines
            that carry a ``config_id`` (lines written before it was added have none).
    """

    known: dict[str, str] = field(default_factory=dict)
    last: tuple[str, str] | None = None
    start: int = 0
    tail: bytes = b""
    doubled: bool = False
    configs: dict[str, int] = field(default_factory=dict)


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
    doubled = False
    index = -1  # the chunk index of the line before, in the current run of lines
    configs: dict[str, int] = {}
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
                doubled = doubled or did in known
                index = -1
            cfg = rec.get(CONFIG_ID_KEY) if type(rec) is dict else None
            if type(cfg) is str and cfg not in configs:
                configs[cfg] = n
            k = rec.get("index") if type(rec) is dict else None
            if type(k) is int:
                doubled = doubled or k != index + 1
                index = k
            pos += len(line)
        fh.seek(last_start)
        tail = fh.read()
    return ResumePoint(known, last, last_start, tail, doubled, configs)


def whole_length(tail: bytes) -> int | None:
    """The length of ``tail``'s complete lines (one document's records, as
    :func:`resume_point` gives them) when they hold the whole document, else None.

    Whole means: at least one complete line; every line has ``next_id`` in its metadata;
    and every chunk id a line points to (``next_id``, and ``child_ids`` where a hierarchy
    has them) is the id of one of its lines. The lines are written in chunk order, and a
    chunk after the first is pointed to by a line before it (the chunk before it in the
    document, or in its level of a hierarchy, or its parent): the lines of a document cut
    short always point to a chunk that is missing. A line cut short after the complete
    lines (a part of the next document's first line, or of this one's) is not counted.
    """
    end = tail.rfind(b"\n") + 1
    if end == 0:
        return None
    ids: set[str] = set()
    wanted: set[str] = set()
    for line in tail[:end].splitlines():
        rec = json.loads(line)
        meta = rec.get("metadata")
        if type(meta) is not dict or "next_id" not in meta:
            return None  # no links to tell by: not known to be whole
        ids.add(rec.get("id"))
        nxt = meta["next_id"]
        if nxt is not None:
            wanted.add(nxt)
        children = meta.get("child_ids")
        if type(children) is list:
            wanted.update(c for c in children if type(c) is str)
    return end if wanted <= ids else None


def _source(tail: bytes) -> str | None:
    """The ``source`` of the first record of ``tail``, or None."""
    try:
        src = json.loads(tail[: tail.index(b"\n")]).get("source")
    except (ValueError, AttributeError):
        return None
    return src if type(src) is str else None


class AppendSink:
    """The output of a ``--resume`` run: cut back to ``keep`` bytes (None: kept whole),
    then appended to, one document per write, fsynced every ``sync_every`` seconds and on
    close."""

    def __init__(self, path: Path, keep: int | None, sync_every: float = 1.0) -> None:
        self.path = path
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


SEARCHED_UP_TO = 65536
"""The whole numbers :func:`options_change` tries for a numeric setting (0 to this)."""

# the settings whose other values options_change tries (besides numbers and True/False)
_CHOICES = {"unit": ("chars", "words", "tokens"), "oversize": ("split", "keep", "raise")}
_ENCODINGS = ("utf-8", "utf-8-sig", "latin-1", "cp1252", "ascii", "utf-16", "utf-32", "iso8859-15", "cp1251",
              "cp437", "mac-roman", "koi8-r", "shift_jis", "euc-jp", "gb18030", "big5", "euc-kr")


def _reading_fields(reading: str) -> dict[str, Any] | None:
    """A :func:`reading_key` as ``{"root": ..., "encoding": ..., "format": ..., "loader": ...}``;
    None when it is not one."""
    import ast

    try:
        value = ast.literal_eval(reading)
    except (ValueError, SyntaxError):
        return None
    if type(value) is not tuple or len(value) != 8 or value[::2] != ("root", "encoding", "format", "loader"):
        return None
    return dict(zip(value[::2], value[1::2]))


def _reading_key_of(fields: dict[str, Any]) -> str:
    """The :func:`reading_key` of ``fields`` (:func:`_reading_fields` read back)."""
    return repr(("root", fields["root"], "encoding", fields["encoding"], "format", fields["format"],
                 "loader", fields["loader"]))


def _shown(key: str, value: Any) -> str:
    """A reading setting as a person reads it."""
    if key == "encoding":
        return "detected" if value is None else str(value)
    if key == "root":
        return "none" if value == NO_ROOT else str(value)
    if key == "loader":
        return ", ".join(f"{k}={v}" for k, v in value) if value else "none"
    return str(value)


def options_change(old: str, job: Any) -> str | None:
    """The one option that, changed back, gives the configuration id ``old`` (a line's
    ``config_id``) from ``job``'s (:func:`chunkwise.corpus.job_config_id`), said as the
    index commands say it: ``chunk_size: 96 -> 200`` (the file's value, then this run's);
    None when no such option is found.

    A configuration id is a hash: the options that wrote a file are found by trying them,
    one setting at a time, against this run's: the encoding (detected, or one of the
    common codecs), the format of standard input, the id root and loader options left
    out; each setting of the chunker (every place it has the same value changed together,
    as ``auto``'s chunkers share a size and a tokenizer, :func:`_setting_change`): a
    True/False turned over, None, the value it has without ``-p``, a choice of its type
    (``unit``, ``oversize``, a tokenizer that needs no download, ``row_format``, ...), each
    whole number from 0 to :data:`SEARCHED_UP_TO`; another strategy with the same size,
    overlap and unit. Only on a refusal: about a second at most.
    """
    import re

    from ..corpus import reading_config_id

    config, reading = job.config, getattr(job, "reading", "")

    def same(cfg: str, rd: str) -> bool:
        return reading_config_id(cfg, rd) == old

    fields = _reading_fields(reading) if reading else None
    if fields is not None:
        from ..loaders import registered_loaders

        encodings: list[Any] = [None]
        for name in _ENCODINGS:
            try:
                encodings.append(codecs.lookup(name).name)
            except LookupError:
                continue
        tries = {
            "encoding": encodings,
            "format": list(dict.fromkeys(["text", *(ld.format for ld in registered_loaders())])),
            "root": [NO_ROOT],
            "loader": [[]],
        }
        for key, values in tries.items():
            for value in dict.fromkeys(values) if key in ("encoding", "format") else values:
                if value != fields[key] and same(config, _reading_key_of({**fields, key: value})):
                    return f"{key}: {_shown(key, value)} -> {_shown(key, fields[key])}"
    settings = _settings(config)
    if settings:
        change = _setting_change(config, settings, _plain_settings(job, settings), reading, same)
        if change:
            return change
        return _strategy_change(job, same)
    for name, value in dict.fromkeys(re.findall(r"\b([a-z_]+)=(\d+)\b", config)):
        pieces = re.split(rf"\b{name}={value}\b", config)
        for n in range(SEARCHED_UP_TO + 1):
            if n != int(value) and same(f"{name}={n}".join(pieces), reading):
                return f"{name}: {n} -> {value}"
    for name, value in dict.fromkeys(re.findall(r"\b([a-z_]+)=(True|False)\b", config)):
        flipped = "False" if value == "True" else "True"
        if same(re.sub(rf"\b{name}={value}\b", f"{name}={flipped}", config), reading):
            return f"{name}: {flipped} -> {value}"
    for name, values in _CHOICES.items():
        found = re.search(rf"\b{name}='([a-z]+)'", config)
        for value in values if found else ():
            if value != found.group(1) and same(re.sub(rf"\b{name}='{found.group(1)}'", f"{name}='{value}'", config),  # type: ignore[union-attr]
                                                reading):
                return f"{name}: {value!r} -> {found.group(1)!r}"  # type: ignore[union-attr]
    return _strategy_change(job, same)


def _strategy_change(job: Any, same: Callable[[str, str], bool]) -> str | None:
    """``strategy: sentence -> recursive`` when another strategy with this run's size,
    overlap, unit and tokenizer gives the configuration id ``same`` looks for."""
    from ..api import make_chunker
    from ..corpus import config_key
    from ..registry import strategy_names

    chunker = job.chunker
    mine = getattr(type(chunker), "name", None)
    if mine is None or config_key(chunker) != job.config:  # a wrapped chunker (a chat model): not tried
        return None
    common = {k: getattr(chunker, k) for k in ("chunk_size", "chunk_overlap", "unit", "tokenizer", "detect_language",
                                               "density") if hasattr(chunker, k)}
    reading = getattr(job, "reading", "")
    for name in strategy_names():
        if name == mine:
            continue
        try:
            other = make_chunker(name, **common)
        except Exception:  # noqa: BLE001 - a strategy that needs more than these (a model, an extra)
            continue
        if same(config_key(other), reading):
            return f"strategy: {name} -> {mine}"
    return None


def _settings(config: str) -> list[tuple[str, int, int, Any]]:
    """The settings of a :func:`chunkwise.corpus.config_key` (a chunker's ``repr``, the
    chunkers inside it too: ``auto``'s, a wrapper's), each as ``(name, start, end,
    value)``: its value a Python literal at bytes ``start:end`` of the UTF-8 text; empty
    when the text is not read as one (then :func:`options_change` reads it with regular
    expressions)."""
    import ast

    try:
        tree = ast.parse(config, mode="eval")
    except (SyntaxError, ValueError):
        return []
    found: list[tuple[str, int, int, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, ast.BinOp):  # chunker|steps after it
            walk(node.left)
            walk(node.right)
        elif isinstance(node, ast.Dict):
            for item in node.values:
                walk(item)
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                value = kw.value
                if kw.arg is None:
                    continue
                if isinstance(value, ast.Call) or (
                        isinstance(value, ast.Dict) and any(isinstance(v, ast.Call) for v in value.values)):
                    walk(value)
                    continue
                try:
                    literal = ast.literal_eval(value)
                except (ValueError, SyntaxError, TypeError):
                    continue
                if value.end_col_offset is not None and value.lineno == value.end_lineno == 1:
                    found.append((kw.arg, value.col_offset, value.end_col_offset, literal))

    walk(tree.body)
    return found


def _plain_settings(job: Any, settings: list[tuple[str, int, int, Any]]) -> list[tuple[str, int, int, Any]]:
    """The :func:`_settings` of this run's strategy made with its size, overlap and unit
    alone (no ``--tokenizer``, no ``-p`` parameter); empty when it cannot be made."""
    from ..api import make_chunker
    from ..corpus import config_key

    name = getattr(type(job.chunker), "name", None)
    if name is None:
        return []
    common: dict[str, Any] = {}
    for key, _start, _end, value in settings:
        if key in ("chunk_size", "chunk_overlap", "unit", "detect_language", "density"):
            common.setdefault(key, value)
    try:
        return _settings(config_key(make_chunker(name, **common)))
    except Exception:  # noqa: BLE001 - a strategy that needs more (a model, an extra)
        return []


def _given(settings: list[tuple[str, int, int, Any]], plain: list[tuple[str, int, int, Any]]) -> list[tuple[str, Any]]:
    """The settings (name, value) of ``settings`` that ``plain`` (:func:`_plain_settings`)
    has not, in order, each once: the ``-p`` parameters and ``--tokenizer`` given."""
    if not plain:
        return []
    base = {(k, repr(v)) for k, _s, _e, v in plain}
    names = {k for k, _s, _e, _v in plain}
    out: dict[tuple[str, str], tuple[str, Any]] = {}
    for key, _start, _end, value in settings:
        if key in names and (key, repr(value)) not in base and key not in ("chunk_size", "chunk_overlap", "unit"):
            out.setdefault((key, repr(value)), (key, value))
    return list(out.values())


def _choices() -> dict[str, list[Any]]:
    """The values a setting takes besides numbers and True/False: the ``Literal`` choices
    of every registered strategy's parameters, ``unit``, ``oversize`` and the tokenizers
    that need no download."""
    import typing

    from ..registry import get_strategy, strategy_names
    from ..sizers import OFFLINE_ENCODINGS

    out: dict[str, list[Any]] = {k: list(v) for k, v in _CHOICES.items()}
    out.setdefault("tokenizer", []).extend(OFFLINE_ENCODINGS)
    for name in strategy_names():
        try:
            hints = typing.get_type_hints(get_strategy(name))
        except Exception:  # noqa: BLE001 - a hint that names an extra not installed
            continue
        for key, hint in hints.items():
            for arg in (hint, *typing.get_args(hint)):
                if typing.get_origin(arg) is typing.Literal:
                    out.setdefault(key, []).extend(typing.get_args(arg))
    return {k: list(dict.fromkeys(v)) for k, v in out.items()}


def _setting_change(config: str, settings: list[tuple[str, int, int, Any]], plain: list[tuple[str, int, int, Any]],
                    reading: str, same: Callable[[str, str], bool]) -> str | None:
    """``name: old -> new``: the one chunker setting (every place it has the same value
    changed together) whose other value gives the configuration id ``same`` looks for:
    first True/False turned over, None, the value the strategy has without ``-p``
    (:func:`_plain_settings`) and the known choices (:func:`_choices`), then each whole
    number from 0 to :data:`SEARCHED_UP_TO`; None when none does."""
    raw = config.encode("utf-8", "surrogatepass")
    groups: dict[tuple[str, str], tuple[Any, list[tuple[int, int]]]] = {}
    for key, start, end, value in settings:
        groups.setdefault((key, repr(value)), (value, []))[1].append((start, end))
    defaults: dict[str, list[Any]] = {}
    for key, _start, _end, value in plain:
        defaults.setdefault(key, []).append(value)
    choices = _choices()

    def changed(spans: list[tuple[int, int]], value: Any) -> str:
        text, at = [], 0
        for start, end in spans:
            text += [raw[at:start], repr(value).encode("utf-8", "surrogatepass")]
            at = end
        return b"".join([*text, raw[at:]]).decode("utf-8", "surrogatepass")

    for (key, shown), (value, spans) in groups.items():
        tries = [not value] if isinstance(value, bool) else [None, *defaults.get(key, ()), *choices.get(key, ())]
        seen = {shown}
        for other in tries:
            if repr(other) not in seen:
                seen.add(repr(other))
                if same(changed(spans, other), reading):
                    return f"{key}: {other!r} -> {shown}"
    for (key, shown), (value, spans) in groups.items():
        if type(value) is int:
            for n in range(SEARCHED_UP_TO + 1):
                if n != value and same(changed(spans, n), reading):
                    return f"{key}: {n} -> {shown}"
    return None


def options_of(job: Any) -> str:
    """This run's options as a person reads them, for a refusal that cannot name the
    change: ``strategy recursive, chunk_size 96, chunk_overlap 0, unit 'tokens'``, then the
    other settings given (``tokenizer 'o200k_base'``, ``-p`` parameters: ``split_level 2``),
    then the reading options given (``encoding iso8859-1``, ``format``, ``root``, loader
    options)."""
    import re

    chunker = job.chunker
    parts = [f"strategy {getattr(type(chunker), 'name', type(chunker).__name__)}"]
    for name in ("chunk_size", "chunk_overlap", "unit"):
        found = re.search(rf"\b{name}=([^,)]+)", job.config)
        if found:
            parts.append(f"{name} {found.group(1)}")
    settings = _settings(job.config)
    if settings:  # --tokenizer and the -p parameters given
        parts += [f"{key} {value!r}" for key, value in _given(settings, _plain_settings(job, settings))]
    fields = _reading_fields(getattr(job, "reading", "") or "")
    if fields is not None:
        for key, unset in (("encoding", None), ("format", "text"), ("root", NO_ROOT), ("loader", [])):
            if fields[key] != unset:
                parts.append(f"{key} {_shown(key, fields[key])}")
    return ", ".join(parts)


class Resume:
    """A ``--resume`` run's output: :func:`resume_point` read, then the file opened for
    appending as it is (nothing cut before :meth:`settle` has checked the last document).

    Raises:
        click.UsageError: as :func:`resume_point`.
    """

    def __init__(self, path: Path) -> None:
        self.completed = 0
        """Chunks that :meth:`settle` wrote to complete the file's last document (lines
        appended after the part a killed run left, or the document's lines written again)."""
        self.lock = OutputLock(path).acquire()  # before the file is read: one run at a time
        try:
            remove_stale_temporaries(path)  # of a run without --resume that was killed
            self.point = resume_point(path) if path.exists() else ResumePoint()
            self.sink = AppendSink(path, None if self.point.last is not None else 0)
        except BaseException:
            self.lock.release()
            raise

    def write(self, payload: bytes) -> None:
        self.sink.write(payload)

    def check_options(self, job: Any) -> None:
        """Refuse (:class:`click.UsageError`, the file left as it was) a file with a line
        whose ``config_id`` is not this run's (``job``'s, :func:`chunkwise.corpus.job_config_id`:
        chunking options, id root, encoding, format, loader options): it was written with other options,
        and appending would mix two configurations in one file. The error names the option
        that changed (:func:`options_change`: ``chunk_size: 96 -> 200``), else this run's
        options (:func:`options_of`). Lines without a ``config_id`` (written before records
        had one) are not checked."""
        mine = job_config_id(job)
        other = next(((c, n) for c, n in self.point.configs.items() if c != mine), None)
        if other is None:
            return
        path = self.sink.path
        change = options_change(other[0], job)
        said = (f": {change} (line {other[1]} has config_id {other[0]}, this run's is {mine})" if change else
                f" than this run's (line {other[1]} has config_id {other[0]}, this run's is {mine}: {options_of(job)})")
        raise click.UsageError(
            f"{path} was written with other chunking options{said}: nothing was appended. To continue it, "
            "run --resume with the options that wrote it; to chunk every document afresh with these options, "
            "run without --resume"
        )

    def _undouble(self) -> None:
        """A file written by two runs at once (before the lock): rewritten without its
        repeated lines, then read again and reopened for appending."""
        path = self.sink.path
        removed = _dedupe(path)
        if removed:
            click.echo(f"{path}: removed {removed} duplicate line{'s' if removed != 1 else ''} "
                       "(chunks written twice by two runs at once)", err=True)
            self.sink.close()
            self.point = resume_point(path)
            self.sink = AppendSink(path, None if self.point.last is not None else 0)

    def settle(self, job: Any, inputs: Sequence[Any]) -> dict[str, str]:
        """Check the options (:meth:`check_options`), then complete or keep the file's
        last document in place (see the module's protocol) and give the documents the run
        skips: ``document id -> content id``. ``job`` is the run's
        :class:`chunkwise.corpus._Job` (reader, chunker, step after, renderer), ``inputs``
        the run's items (``(Input, None)``).

        Raises:
            click.UsageError: the file was written with other options (nothing written).
        """
        self.check_options(job)
        if self.point.doubled:
            self._undouble()
        point, known = self.point, dict(self.point.known)
        if point.last is None:
            return known
        did, cid = point.last
        item = next((i for i in inputs if i[0].found is not None and i[0].found.id == did), None)
        payload = None
        other = False  # its text or the configuration changed
        if item is not None:
            try:
                doc = job.reader(item)
                other = doc.id == did and content_id(doc.text, job.config) != cid
                if doc.id == did and not other:
                    chunks = job.chunker.chunk(doc)
                    if job.after is not None:
                        chunks = job.after(chunks, doc)
                    payload = render_payload(job, chunks, doc, cid)
            except Exception:  # noqa: BLE001 - the pool reads it again and reports the failure
                payload = None
        tail = point.tail
        if payload is None:  # not chunked again: its lines tell whether it is whole
            whole = whole_length(tail)
            if whole is None:  # cut short: chunked again in input order
                if other:
                    click.echo(f"{self.sink.path}: its last document, {_source(tail) or did}, was cut short and its "
                               "text or the options changed since: its lines were removed and it is chunked again "
                               "with this run's options", err=True)
                self.sink.cut(point.start)
                return known
            if whole < len(tail):  # a part of the next document's first line after it
                self.sink.cut(point.start + whole)
        elif payload.startswith(tail):
            if len(payload) > len(tail):
                self.write(payload[len(tail):])
                self.completed = payload.count(b"\n", len(tail))
        elif tail.startswith(payload):
            self.sink.cut(point.start + len(payload))
        else:  # complete lines that differ (an edited file): written again, in place
            self.sink.cut(point.start)
            self.write(payload)
            self.completed = payload.count(b"\n")
        known[did] = cid
        return known

    def close(self) -> None:
        try:
            self.sink.close()
        finally:
            self.lock.release()


def changed(name: str) -> Skipped:
    """A document the output already holds, chunked from another text or configuration:
    left as it is (never rewritten by a resume, so no document is chunked two ways)."""
    return Skipped(
        name,
        "changed",
        "the output holds this document chunked from another text or configuration; its lines are left as they are",
        "run without --resume to chunk every document afresh with these options "
        "(or --resume with the options that wrote the file)",
    )
