"""Chunking a corpus: many files, in parallel, streamed in input order, resumable.

* :func:`chunk_corpus` -- the Python API: chunks of every file under the paths given,
  yielded lazily, in the order of the files (the order of ``--workers 1``), whatever the
  number of worker processes.
* :func:`ordered_map` -- the pool under it (and under ``chunkwise chunk --workers N``): a
  :class:`concurrent.futures.ProcessPoolExecutor` with a bounded window of documents in
  flight (``4 x workers`` tasks, each of up to 512 KB of files and 64 files -- a larger
  file alone); results come back in submission order. Memory is bounded by the window,
  never by the corpus: no list of chunks or texts is kept. The inputs are consumed as
  tasks are submitted: one folder without symbolic links is listed but not read
  (:func:`chunkwise.loaders.files.list_folder`) and the workers classify its files (first
  bytes, format, id: what :func:`chunkwise.loaders.find_files` gives); other inputs are
  found by :func:`~chunkwise.loaders.find_files` first. Results that are bytes (JSON lines)
  come back through unnamed spool files (:class:`_Spool`), not the pool's pipe.
* :func:`content_id` / :func:`config_key` -- what ``--resume`` recognises a document by;
  :func:`config_id` -- what it recognises the options that wrote a file by.

Content ids: ``content_id = blake2b(config_key(chunker) + "\\0" + document.text)`` (16 hex
digits), where the configuration key is the chunker's ``repr`` (a frozen dataclass: its
strategy and every parameter; memory addresses removed) plus any step after chunking
(``--contextualize`` and its model). The same text chunked the same way has the same
content id in any run; a changed text or configuration changes it. The configuration id
``config_id = blake2b(config_key(chunker))`` (16 hex digits) hashes the same configuration
alone: every record of one run carries the same one, so a ``--resume`` with other options
is told from an edited document.

The pool forks on POSIX (the chunker and the reader reach the workers once, through the
initializer; the parent's objects are frozen for the garbage collector while it forks, so
that the workers' collections never walk them) and spawns elsewhere; ``workers=1`` runs in
the calling process.
"""

from __future__ import annotations

import hashlib
import logging
import operator
import os
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .types import Chunk, Document

__all__ = [
    "CONFIG_ID_KEY",
    "CONTENT_ID_KEY",
    "Outcome",
    "chunk_corpus",
    "config_id",
    "config_key",
    "content_id",
    "default_workers",
    "ordered_map",
]

log = logging.getLogger("chunkwise")

CONTENT_ID_KEY = "content_id"
"""The key of the content id in an output record."""

CONFIG_ID_KEY = "config_id"
"""The key of the configuration id in an output record (next to the content id)."""

WINDOW_PER_WORKER = 4
"""Tasks in flight per worker process (queued or being chunked)."""

BATCH = 4
"""Documents per task sent to a worker when their sizes are not known."""

BATCH_BYTES = 512 * 1024
"""With sizes known (``weight``): a task takes files until it holds this many bytes..."""

BATCH_MAX = 64
"""...or this many files (a file larger than :data:`BATCH_BYTES` is a task of its own)."""

STOP_GRACE = 0.5
"""Seconds a worker is given to end on SIGTERM when a run stops early, before SIGKILL."""

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def default_workers() -> int:
    """The CPUs this process may run on (``os.sched_getaffinity`` where there is one, else
    ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def config_key(chunker: Any, *extra: Any) -> str:
    """The chunking configuration as text: ``repr(chunker)`` (every parameter of a frozen
    chunker) without memory addresses, then ``extra`` (steps after chunking), ``|``-joined."""
    return "|".join(_ADDRESS.sub("", repr(x)) for x in (chunker, *extra))


def content_id(text: str, config: str) -> str:
    """16 hex digits of BLAKE2b over ``config``, a NUL and ``text`` (UTF-8, lone surrogates
    kept): the same document text chunked with the same configuration, the same id.

    Example:
        >>> content_id("hello", "k") == content_id("hello", "k") != content_id("hello", "k2")
        True
    """
    h = hashlib.blake2b(digest_size=8)
    h.update(config.encode("utf-8", "surrogatepass"))
    h.update(b"\0")
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def config_id(config: str) -> str:
    """16 hex digits of BLAKE2b over ``config`` (a :func:`config_key`) alone: the same
    chunking configuration, the same id, whatever the text.

    Example:
        >>> config_id("k") == config_id("k") != config_id("k2")
        True
        >>> len(config_id("k"))
        16
    """
    h = hashlib.blake2b(digest_size=8)
    h.update(config.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def reading_config_id(config: str, reading: str = "") -> str:
    """The :func:`config_id` of a chunking configuration ``config`` read with ``reading``
    (what else changes the records: ``chunkwise chunk``'s id root, encoding, format and
    loader options; empty: none given, the configuration alone)."""
    return config_id(config + ("\0" + reading if reading else ""))


def job_config_id(job: Any) -> str:
    """The :func:`config_id` of a job: its chunking configuration and, when it has one,
    its reading configuration (``job.reading``), as :func:`reading_config_id`."""
    return reading_config_id(job.config, getattr(job, "reading", ""))


def render_payload(job: Any, chunks: list[Chunk], doc: Document, cid: str) -> Any:
    """``job.render(chunks, doc, cid)``; a renderer marked ``with_config_id = True`` (the
    command line's) also gets the job's configuration id (:func:`config_id`) as a fourth
    argument."""
    assert job.render is not None
    if getattr(job.render, "with_config_id", False):
        return job.render(chunks, doc, cid, job_config_id(job))
    return job.render(chunks, doc, cid)


# -- the worker ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """What every worker needs, sent once (pickled) through the pool's initializer."""

    chunker: Any
    reader: Callable[[Any], Document]
    """item -> Document (may raise: reported through ``describe``)."""
    config: str
    render: Callable[[list[Chunk], Document, str], Any] | None = None
    """(chunks, document, content id) -> the payload returned instead of the chunks."""
    after: Callable[[list[Chunk], Document], list[Chunk]] | None = None
    """A step after chunking (contextualize), or None."""
    describe: Callable[[BaseException, Any, str], Any] | None = None
    """(exception, item, stage) -> a picklable description of a failure; None: the exception."""
    reading: str = ""
    """What reading changes in the records besides the chunking (``chunkwise chunk``: the
    id root, encoding, format, loader options; see :func:`job_config_id`): in the
    configuration id, not in the content ids (so files written before keep resuming)."""
    known: dict[str, str] = field(default_factory=dict)
    """document id -> content id of the documents already written (``--resume``): a
    document with both is skipped; one whose id is known with another content id is
    reported as changed."""
    around: Callable[[Document], Any] | None = None
    """document -> the context manager its chunking runs in (``chunkwise chunk --strategy
    code``: the warning about a document that is not code, made clear), or None."""
    logs: bool = False
    """Keep the warnings the ``chunkwise`` loggers log while an item is read and chunked
    (a file's invalid UTF-8 replaced) in :attr:`Outcome.logs` instead of printing them
    where the item is worked (a worker process, over the caller's progress bar): the
    caller says them with the item's outcome, in input order."""


@dataclass
class Outcome:
    """What became of one input.

    ``failure`` set: it failed at ``stage`` (``read``, ``chunk``, ``write``), nothing else
    is set. ``skipped``: its content id was already in the output. ``changed``: the output
    holds this document id with another content id. Otherwise ``chunks`` (or ``payload``,
    when the job renders) and ``sizes`` (each chunk's size) are set.
    """

    item: Any
    document_id: str | None = None
    content_id: str | None = None
    chunks: list[Chunk] | None = None
    payload: Any = None
    sizes: list[int] = field(default_factory=list)
    text_bytes: int = 0
    skipped: bool = False
    changed: bool = False
    stage: str = ""
    failure: Any = None
    spooled: int = -1
    """Between a worker and the parent only: the payload's length in the task's spool file
    (-1: the payload travelled itself)."""
    logs: list[str] | None = None
    """With :attr:`_Job.logs`: the warnings logged while the item was worked, as lines."""


_JOB: _Job | None = None
_SLOTS: tuple[int, ...] = ()
"""A forked worker's spool files (descriptors inherited from the parent), by slot."""


def _init(job: _Job, slots: tuple[int, ...] = (), parent: int | None = None) -> None:
    """A worker's start: its job and spool files; Ctrl-C and SIGTERM are the parent's to
    handle (it stops the pool), so the worker ignores SIGINT and dies plainly on SIGTERM.
    On Linux it also asks for SIGTERM when its parent (pid ``parent``) dies, even by
    ``kill -9``, so that no worker outlives the run (:func:`_die_with_parent`)."""
    global _JOB, _SLOTS
    _JOB = job
    _SLOTS = slots
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if parent is not None:
        _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """Linux only (a no-op elsewhere): ``prctl(PR_SET_PDEATHSIG, SIGTERM)``, so the kernel
    sends this process SIGTERM when its parent dies; then, to close the race of a parent
    that died before the call, exit at once if the parent is no longer ``parent``."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl to call: the worker ends with the pool
        return
    if os.getppid() != parent:
        os._exit(1)


def _fail(job: _Job, exc: BaseException, item: Any, stage: str) -> Outcome:
    if job.describe is not None:
        return Outcome(item, stage=stage, failure=job.describe(exc, item, stage))
    try:  # the exception crosses the process boundary as itself when it pickles
        import pickle

        pickle.loads(pickle.dumps(exc))
        failure: Any = exc
    except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
        failure = RuntimeError(f"{type(exc).__name__}: {exc}")
    return Outcome(item, stage=stage, failure=failure)


class _LogLines(logging.Handler):
    """A handler that keeps each record's message (WARNING and above) as a line."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(record.getMessage())
        except Exception:  # noqa: BLE001 - a malformed record: as logging itself reports it
            self.handleError(record)


def _work(item: Any) -> Outcome:
    """Read, chunk and render one input with the worker's job; every failure is caught
    and described (never raised), so that one bad file stops nothing. With
    :attr:`_Job.logs`, the warnings logged meanwhile come back in :attr:`Outcome.logs`."""
    job = _JOB
    assert job is not None, "the worker was not initialised"
    if not job.logs:
        return _work_item(job, item)
    handler = _LogLines()
    logger = logging.getLogger("chunkwise")
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False  # kept here, said by the caller
    try:
        out = _work_item(job, item)
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    if handler.lines:
        out.logs = handler.lines
    return out


def _work_item(job: _Job, item: Any) -> Outcome:
    try:
        doc = job.reader(item)
    except Exception as exc:  # noqa: BLE001 - reported by the caller, then skipped
        return _fail(job, exc, item, "read")
    cid = content_id(doc.text, job.config)
    if doc.id in job.known:  # --resume: written already (or written from another text or configuration)
        return Outcome(item, doc.id, cid, skipped=job.known[doc.id] == cid, changed=job.known[doc.id] != cid)
    try:
        if job.around is None:
            chunks = job.chunker.chunk(doc)
        else:
            with job.around(doc):
                chunks = job.chunker.chunk(doc)
        if job.after is not None:
            chunks = job.after(chunks, doc)
    except Exception as exc:  # noqa: BLE001
        return _fail(job, exc, item, "chunk")
    out = Outcome(item, doc.id, cid, sizes=[c.size for c in chunks])
    out.text_bytes = len(doc.text.encode("utf-8", "surrogatepass"))
    if job.render is None:
        out.chunks = list(chunks)
        return out
    try:
        out.payload = render_payload(job, chunks, doc, cid)
    except Exception as exc:  # noqa: BLE001
        return _fail(job, exc, item, "write")
    return out


# -- the pool --------------------------------------------------------------------------


def _context() -> Any:
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")


def _work_batch(items: list[Any], slot: int | None = None) -> list[Outcome]:
    """:func:`_work` over a task's items. With a ``slot``, the payloads that are bytes (JSON
    lines) are written one after another into that slot's spool file, from its start, and
    only their lengths travel back (see :class:`_Spool`)."""
    out = [_work(item) for item in items]
    spooled: list[Outcome] = []
    for o in out:  # the parent has the items: they do not travel back
        o.item = None
        if slot is not None and type(o.payload) is bytes:
            spooled.append(o)
    if spooled:
        try:
            _write_at(_SLOTS[slot], [o.payload for o in spooled])  # type: ignore[index]
        except OSError:  # the temporary folder full or gone: these payloads travel themselves
            return out
        for o in spooled:
            o.spooled = len(o.payload)
            o.payload = None
    return out


def _write_at(fd: int, buffers: list[bytes]) -> None:
    """``buffers`` one after another into ``fd`` from offset 0 (``pwritev``, no joining
    copy; partial writes continued)."""
    views = [memoryview(b) for b in buffers if b]
    offset = 0
    while views:
        n = os.pwritev(fd, views[:512], offset)
        offset += n
        while views and n >= len(views[0]):
            n -= len(views.pop(0))
        if n:
            views[0] = views[0][n:]


class _Spool:
    """The files a forked pool's results come back through: one unnamed temporary file per
    task in flight (a slot), opened before the workers fork (they inherit the descriptors).
    A worker writes a task's JSON lines into the task's slot from offset 0 and sends back
    only their lengths; the parent reads each document's bytes with ``pread`` and frees the
    slot. Against sending them through the pool's pipe (pickled, read in pieces, unpickled)
    this halves the parent's CPU per byte and saves the workers' pickling: 250 MB of
    results cost the parent 0.12-0.18 CPU s instead of 0.28-0.33 s. The files hold at most
    one task's lines each (rewritten in place), are never named on disk (``O_TMPFILE``
    where there is one) and go when the run ends."""

    SHRINK = 8 * 1024 * 1024
    """A slot file grown past this (a large document) is cut back once read."""

    def __init__(self, slots: int) -> None:
        import tempfile

        self.files = [tempfile.TemporaryFile() for _ in range(slots)]
        self.fds = tuple(f.fileno() for f in self.files)
        self.free = list(range(slots))[::-1]

    @staticmethod
    def usable(context: Any) -> bool:
        return context.get_start_method() == "fork" and hasattr(os, "pwritev") and hasattr(os, "pread")

    def take(self, results: list[Outcome], slot: int) -> None:
        """Put each spooled payload of ``results`` back from ``slot``'s file; free the slot."""
        fd, offset = self.fds[slot], 0
        for out in results:
            n = out.spooled
            if n < 0:
                continue
            parts = [os.pread(fd, n, offset)]
            got = len(parts[0])
            while got < n:  # a short read (a payload over 2 GB)
                more = os.pread(fd, n - got, offset + got)
                if not more:
                    raise OSError(f"spool file ended {n - got} bytes short")
                parts.append(more)
                got += len(more)
            out.payload = parts[0] if len(parts) == 1 else b"".join(parts)
            out.spooled = -1
            offset += n
        if offset > self.SHRINK:
            os.ftruncate(fd, 0)
        self.free.append(slot)

    def close(self) -> None:
        for f in self.files:
            f.close()


def _batches(items: Iterator[Any], batch: int, weight: Callable[[Any], int] | None) -> Iterator[list[Any]]:
    """``items`` in lists: of ``batch`` items, or with ``weight``, of up to
    :data:`BATCH_BYTES` (an item heavier than that alone) and :data:`BATCH_MAX` items."""
    if weight is None:
        from itertools import islice

        while True:
            chunk = list(islice(items, batch))
            if not chunk:
                return
            yield chunk
    chunk, total = [], 0
    for item in items:
        w = weight(item)
        if chunk and total + w > BATCH_BYTES:
            yield chunk
            chunk, total = [], 0
        chunk.append(item)
        total += w
        if len(chunk) >= BATCH_MAX:
            yield chunk
            chunk, total = [], 0
    if chunk:
        yield chunk


def ordered_map(
    job: _Job,
    items: Iterable[Any],
    workers: int = 1,
    window: int | None = None,
    batch: int = BATCH,
    weight: Callable[[Any], int] | None = None,
) -> Iterator[Outcome]:
    """:func:`_work` over ``items`` with ``job``, in the order of ``items``.

    ``workers == 1``: in this process, one item at a time. Otherwise a process pool sent
    several items per task (fewer round trips between processes): ``batch`` items, or, with
    ``weight`` (``item -> bytes``, such as the file's size), up to :data:`BATCH_BYTES` and
    :data:`BATCH_MAX` items -- tasks of even work, so that the task the results wait for in
    order is seldom much longer than the others. At most ``window`` (default ``4 x
    workers``) tasks are submitted and not yet yielded: the items are consumed lazily, so
    memory stays bounded by ``window`` tasks whatever the corpus. Each outcome comes back
    without its item (the parent puts it back), so only the results cross between
    processes. Closing the generator early (or an interrupt, or an error) cancels what is
    queued and ends the workers without waiting for the documents being chunked
    (:func:`_stop_workers`).
    """
    if workers <= 1:
        global _JOB
        previous = _JOB
        _JOB = job
        try:
            for item in items:
                yield _work(item)
        finally:
            _JOB = previous
        return
    from concurrent.futures import ProcessPoolExecutor

    window = max(workers, window or WINDOW_PER_WORKER * workers)
    tasks = _batches(iter(items), max(1, batch), weight)
    context = _context()
    spool = None
    if _Spool.usable(context):
        try:
            spool = _Spool(window)
        except OSError:  # no temporary folder to write in: the results travel through the pipe
            spool = None
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init,
                               initargs=(job, spool.fds if spool is not None else (), os.getpid()))

    def submit() -> bool:
        chunk = next(tasks, None)
        if chunk:
            slot = spool.free.pop() if spool is not None else None
            pending.append((chunk, pool.submit(_work_batch, chunk, slot), slot))
        return bool(chunk)

    import gc

    # the workers fork at the first submit: what the parent holds then, they never collect (no
    # collection of theirs walks, and copies, the parent's pages); not when the caller froze objects
    frozen = context.get_start_method() == "fork" and gc.get_freeze_count() == 0
    if frozen:
        gc.freeze()
    finished = False
    try:
        pending: deque[Any] = deque()
        try:
            submit()
        finally:
            if frozen:
                gc.unfreeze()
        while len(pending) < window and submit():
            pass
        while pending:
            chunk, future, slot = pending.popleft()
            results = future.result()
            if slot is not None:
                spool.take(results, slot)  # type: ignore[union-attr]
            submit()  # one in, one out: the window stays full
            for item, out in zip(chunk, results):
                out.item = item
                yield out
        finished = True
    finally:
        if not finished:  # interrupted, failed or closed early: nobody waits for the documents in work
            _stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
        if spool is not None:
            spool.close()


def _stop_workers(pool: Any) -> None:
    """Cancel the queued tasks of ``pool`` (a ``ProcessPoolExecutor``) and end its workers
    now (SIGTERM, then SIGKILL after :data:`STOP_GRACE` seconds), so that Ctrl-C or SIGTERM
    stops a run within about a second instead of after the documents being chunked (a
    large document under ``semantic`` takes seconds). Their results are not wanted."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # (the pool's manager thread: shutdown(wait=False) forgets it, so it is joined here once
    # the workers are gone; left running, it raced the interpreter's exit hook, which wakes
    # it through a pipe it was closing: "Exception ignored ... Bad file descriptor")
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.terminate()
        except (OSError, ValueError, AttributeError):  # ended already, or closed
            pass
    deadline = time.monotonic() + STOP_GRACE
    for process in processes:
        try:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)
        except (OSError, ValueError, AttributeError, AssertionError):
            pass
    if manager is not None:
        try:
            manager.join(STOP_GRACE + 1.0)
        except RuntimeError:  # (not started)
            pass


# -- the Python API --------------------------------------------------------------------


def _file_size(found: Any) -> int:
    if type(found) is _PassedOver:  # not read
        return 0
    try:
        return os.path.getsize(found.path)
    except OSError:  # reported by the worker that reads it
        return 0


def _load_found(item: Any, encoding: str | None = None, options: dict[str, Any] | None = None) -> Document:
    from .loaders import load

    if type(item) is _PassedOver:
        if not _unreadable(item.found):
            raise _NotRead(item.found.reason)
        _read_failed(item.found, encoding)
    return load(item, encoding=encoding, **(options or {}))


class _PassedOver(NamedTuple):
    """A file of a folder that :func:`~chunkwise.loaders.find_files` passed over, sent
    through the pool in its place among the files so that it is reported in input order."""

    found: Any

    def __fspath__(self) -> str:
        return os.fspath(self.found.path)


def _unreadable(found: Any) -> bool:
    """Whether a file that :func:`~chunkwise.loaders.find_files` passed over is one that
    could not be read -- gone since its folder was listed (deleted during the run), no
    permission to read it, a subfolder that cannot be listed, a dangling or looping
    symbolic link: a failed read (raised with ``errors="raise"``), as the command line
    reports it (unreadable), not a file that no loader reads. A format no loader reads and
    a special file (a named pipe, a socket, a device) stay passed over."""
    reason = found.reason
    return reason == "does not exist" or reason.startswith(("cannot read", "dangling"))


def _read_failed(found: Any, encoding: str | None = None) -> Document:
    """Raise the :class:`~chunkwise.errors.LoadError` of an unreadable entry
    (:func:`_unreadable`): a file's is the one :func:`chunkwise.load` raises (as for the
    file named directly); a dangling link's or a folder's names it with its reason."""
    from .errors import LoadError
    from .loaders import load

    if found.reason == "does not exist" or os.path.isfile(found.path):
        return load(found, encoding=encoding)  # raises, unless it became readable since
    raise LoadError(f"{found.path}: {found.reason}")


class _Listed(NamedTuple):
    """A file of a folder listed by :func:`chunkwise.loaders.files.list_folder`, not yet
    read: the worker that gets it classifies it (:func:`_load_listed`)."""

    folder: str
    relative: str
    size: int
    root: str | None

    def __fspath__(self) -> str:
        return os.path.join(self.folder, self.relative)


class _NotRead(Exception):
    """A listed file that no loader reads: passed over, as :func:`~chunkwise.loaders.find_files`
    passes it over (logged, never yielded nor raised)."""


def _load_listed(item: _Listed, encoding: str | None = None) -> Document:
    from .loaders import load
    from .loaders.files import classify_entry

    found = classify_entry(item.folder, item.relative, item.root)
    if not found.supported and _unreadable(found):  # deleted since the listing, no permission
        return _read_failed(found, encoding)  # raises the LoadError of an entry that cannot be read
    if not found.supported:
        logging.getLogger("chunkwise.loaders.files").info("skipped %s: %s", found.path, found.reason)
        raise _NotRead(found.reason)
    return load(found, found.format or None, encoding=encoding)


def _listed(paths: list[Any], include: list[str] | None, exclude: list[str] | None, root: Any) -> list[_Listed] | None:
    """One folder without symbolic links named: its files as :func:`find_files` would find
    them, listed but not read (the workers classify them); otherwise None.

    Raises:
        ConfigError: the folder's files are not inside ``root``.
    """
    from pathlib import Path

    from .loaders.files import list_folder, relative_id_path

    if len(paths) != 1 or not Path(paths[0]).is_dir():
        return None
    listed = list_folder(paths[0], include=include, exclude=exclude)
    if listed is None:
        return None
    top, base = os.fspath(paths[0]), None if root is None else os.fspath(root)
    if base is not None and listed:
        relative_id_path(os.path.join(top, listed[0][0]), base)  # the first inside root: every one
    return [_Listed(top, rel, size, base) for rel, size in listed]


def _without_path(message: str, path: str) -> str:
    """``message`` without a leading ``path: `` (the path is the other half of a skipped
    entry: not said twice)."""
    for name in dict.fromkeys((path, os.path.normpath(path))):
        if message.startswith(name + ": "):
            return message[len(name) + 2 :]
    return message


def chunk_corpus(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    strategy: str = "auto",
    *,
    chunker: Any = None,
    workers: int | None = None,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
    root: str | os.PathLike[str] | None = None,
    encoding: str | None = None,
    errors: str = "raise",
    skipped: list[tuple[str, str]] | None = None,
    **params: Any,
) -> Iterator[Chunk]:
    """The chunks of every file under ``paths``, yielded lazily, file after file in the
    order :func:`chunkwise.loaders.find_files` finds them (folders recursively, sorted),
    each file's chunks in document order -- the same sequence for any ``workers``.

    Args:
        paths: files and folders.
        strategy, **params: the chunker, as :func:`chunkwise.make_chunker` makes it
            (``chunk_size``, ``chunk_overlap``, ``unit``, ...; default ``"auto"``: each
            file gets the strategy of its format, as ``chunkwise chunk`` does); or
            ``chunker``: one made already (it must pickle).
        workers: processes that load and chunk (default: the CPUs available; 1: this
            process). At most 4 tasks per worker are in flight at once, each of up to
            512 KB of files and 64 files (a larger file is a task of its own).
        include, exclude, root: as :func:`~chunkwise.loaders.find_files`.
        encoding: a codec instead of detecting one.
        errors: ``"raise"``: the first file that cannot be read or chunked raises its
            error (the files before it were yielded) -- a file deleted after its folder
            was listed, one without read permission, a dangling or looping symbolic
            link and a subfolder that cannot be listed (what ``chunkwise chunk`` reports
            as unreadable) raise :class:`~chunkwise.errors.LoadError`, as a missing file
            or a dangling link named directly does; ``"skip"``: it is skipped, logged at
            INFO (logger ``chunkwise``), and, unless ``skipped`` is given, counted in one
            warning once the iteration ends. Either way, files of a folder that no
            loader reads (a format not supported, a special file such as a named pipe)
            and empty files are left out without raising or warning.
        skipped: a list that receives every file left out, as ``(path, reason)``: those
            passed over (``reason`` as :func:`~chunkwise.loaders.find_files` gives it,
            e.g. ``"odt is not a supported format"``), empty ones (``"empty: no text to
            chunk"``) and, with ``errors="skip"``, failed ones (``"read failed:
            LoadError: ..."``; with ``"raise"`` the failed file is appended, then its
            error raised). In input order (the order of the files), whatever
            ``workers``; filled as the iteration goes: complete once it is exhausted.

    Raises:
        ConfigError: an invalid parameter or ``errors`` value (before any file is read).
        LoadError, ...: with ``errors="raise"``, the error of a file that failed.

    Example:
        >>> import chunkwise, tempfile, pathlib
        >>> d = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (d / "a.txt").write_text("One. Two. Three."); _ = (d / "b.txt").write_text("Four.")
        >>> [c.text for c in chunkwise.chunk_corpus(d, chunk_size=10, workers=1)]
        ['One. Two.', 'Three.', 'Four.']
    """
    from .api import make_chunker
    from .errors import ConfigError
    from .loaders import find_files

    if errors not in ("raise", "skip"):
        raise ConfigError(f"errors={errors!r}: use 'raise' or 'skip'")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"workers={workers!r}: give a whole number of processes, 1 or more (or None: the CPUs)")
    if chunker is None:
        chunker = make_chunker(strategy, **params)
    elif params:
        raise ConfigError(f"give either chunker= or parameters ({', '.join(sorted(params))}), not both")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    import functools

    paths = list(paths)
    include = list(include) if include else None
    exclude = list(exclude) if exclude else None
    listed = _listed(paths, include, exclude, root)
    if listed is not None:  # one folder: the workers classify its files
        found: Iterable[Any] = listed
        reader: Callable[[Any], Document] = functools.partial(_load_listed, encoding=encoding)
        weigh: Callable[[Any], int] = operator.attrgetter("size")
    else:
        passed: list[Any] = []

        def files() -> Iterator[Any]:
            # the files passed over go through the pool too, so that they are reported in
            # input order (a file that could not be opened fails there)
            for f in find_files(paths, include=include, exclude=exclude, root=root, skipped=passed):
                while passed:  # the files passed over before this one
                    yield _PassedOver(passed.pop(0))
                yield f
            while passed:
                yield _PassedOver(passed.pop(0))

        found = files()
        reader, weigh = functools.partial(_load_found, encoding=encoding), _file_size
    job = _Job(chunker=chunker, reader=reader, config=config_key(chunker))
    n = workers or default_workers()
    failed = 0
    for out in ordered_map(job, found, n, weight=weigh):
        if isinstance(out.failure, _NotRead):  # a file no loader reads: passed over
            if skipped is not None:
                skipped.append((os.fspath(out.item), str(out.failure)))
            continue
        if out.failure is not None:
            if skipped is not None:
                failure = out.failure
                skipped.append((os.fspath(out.item), f"{out.stage} failed: {type(failure).__name__}: "
                                                     f"{_without_path(str(failure), os.fspath(out.item))}"))
            if errors == "raise":
                raise out.failure
            log.info("skipped %s (%s failed): %s", os.fspath(out.item), out.stage, out.failure)
            failed += 1
            continue
        if not out.chunks and skipped is not None:
            skipped.append((os.fspath(out.item), "empty: no text to chunk"))
        yield from out.chunks or ()
    if failed and skipped is None:  # one line for the run, not one per file
        log.warning("chunk_corpus skipped %d %s that could not be read or chunked (errors='skip'); "
                    "pass skipped=[] to get them with their reasons", failed, "file" if failed == 1 else "files")
