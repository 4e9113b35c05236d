"""Ray Data: chunk a corpus on a Ray cluster (the workers load and chunk; the driver only
plans).

Install: ``pip install 'chunkwise[ray]'`` (``ray[data]``, ``pyarrow``); importing this
module without them raises :class:`~chunkwise.errors.MissingDependencyError`.

::

    import ray, chunkwise.ray
    ray.init()                                   # or ray.init(address="ray://head:10001")
    files = ray.data.read_binary_files("docs/", include_paths=True)
    chunks = chunkwise.ray.chunk_dataset(files, strategy="markdown", chunk_size=512, root="docs/")
    chunks.write_parquet("chunks/")              # a folder of Parquet files, one per block

:func:`chunk_dataset` reads each file through chunkwise's loader registry (the format from
its magic bytes and suffix, as :func:`chunkwise.load` does), chunks it with the chunker --
which pickles, so it is sent to the workers once per task -- and gives a Dataset of chunk
records: one row per chunk, the columns of the Parquet output of ``chunkwise chunk``
(:data:`COLUMNS`: the record fields, ``content_id``, ``metadata`` as a JSON string and the
common metadata keys as their own columns). The same files and parameters give the same
rows as the single-process run (same ids, offsets, texts); Ray does not keep the input
order unless ``DataContext.get_current().execution_options.preserve_order = True``.
``chunkwise chunk --engine ray`` sets it, so its output file equals the local one.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .corpus import CONFIG_ID_KEY, CONTENT_ID_KEY, config_key, content_id, reading_config_id
from .errors import ConfigError
from .export import PARQUET_FIELDS, chunk_record, dumps, parquet_row, parquet_schema, record_of_row
from .integrations._common import need
from .types import Document, document_id_for_path

need("ray.data", "ray", "ray", "chunkwise.ray")

import ray  # noqa: E402
import ray.data  # noqa: E402,F401

__all__ = ["COLUMNS", "ERROR_COLUMN", "chunk_dataset", "records_of"]

logger = logging.getLogger(__name__)

COLUMNS: tuple[str, ...] = PARQUET_FIELDS
"""The columns of a chunk Dataset, in order (those of ``chunkwise chunk -o x.parquet``)."""

ERROR_COLUMN = "error"
"""With ``errors="report"``: the column holding a failed file's message (null for chunks)."""

EMPTY_REASON = "empty: no text to chunk"
"""The reason given for a file without text (as :func:`chunkwise.chunk_corpus` gives it)."""

Naming = Callable[[str], tuple[str, str]]
"""path (as Ray gives it) -> (the path relative to the root the id derives from, source)."""


def _local(path: str) -> str:
    for scheme in ("local://", "file://"):
        if path.startswith(scheme):
            return path[len(scheme) :]
    return path


def _by_root(root: str | None, path: str) -> tuple[str, str]:
    from .loaders import relative_id_path

    local = _local(path)
    return relative_id_path(local, root), local


def _schema(with_error: bool) -> Any:
    return parquet_schema((ERROR_COLUMN,) if with_error else ())


def _document(data: bytes, path: str, naming: Naming, encoding: str | None, options: Mapping[str, Any]) -> Document:
    """The document of a file's bytes, as :func:`chunkwise.load` reads the file itself."""
    from .loaders import HEAD_BYTES, detect_loader, parse

    relative, source = naming(path)
    loader = detect_loader(source, data[:HEAD_BYTES], None)
    meta = {"filename": os.path.basename(source), "relative_path": relative}
    return parse(
        data, loader.format, source=source, metadata=meta, id=document_id_for_path(relative), encoding=encoding,
        **dict(options),
    )


def _rows(chunker: Any, config: str, doc: Document, reading: str = "") -> list[dict[str, Any]]:
    rows = []
    cid, cfg = content_id(doc.text, config), reading_config_id(config, reading)
    for chunk in chunker.chunk(doc):
        rec = chunk_record(chunk, doc)
        rec[CONTENT_ID_KEY] = cid
        rec[CONFIG_ID_KEY] = cfg
        rows.append(parquet_row(rec))
    return rows


def _describe(exc: BaseException, source: str, stage: str) -> str:
    return f"{source}: {stage}: {type(exc).__name__}: {exc}"


def _chunk_batch(
    batch: Any,
    *,
    chunker: Any,
    config: str,
    naming: Naming,
    encoding: str | None,
    options: Mapping[str, Any],
    errors: str,
    describe: Callable[[BaseException, str, str], str],
    reading: str = "",
    empty: bool = False,
) -> Any:
    """A batch of files (a pyarrow table of ``bytes`` and ``path``) -> a table of chunk rows
    (``reading``: what else the records' ``config_id`` covers, see
    :func:`chunkwise.corpus.reading_config_id`). With ``empty``, a file that gives no
    chunk (zero bytes, white space only, no text) is a failure too, as
    :func:`chunkwise.chunk_corpus` lists it in ``skipped``: a row under ``"report"``, a
    log line under ``"skip"``."""
    import pyarrow as pa

    schema = _schema(errors == "report")
    missing = {"bytes", "path"} - set(batch.column_names)
    if missing:
        raise ConfigError(
            f"the Dataset has no column {', '.join(sorted(missing))}: read it with "
            "ray.data.read_binary_files(paths, include_paths=True)"
        )
    rows: list[dict[str, Any]] = []
    for data, path in zip(batch.column("bytes").to_pylist(), batch.column("path").to_pylist()):
        stage = "read"
        try:
            doc = _document(data, path, naming, encoding, options)
            stage = "chunk"
            made = _rows(chunker, config, doc, reading)
        except Exception as exc:
            if errors == "raise":
                raise
            try:
                source = naming(path)[1]
            except Exception:  # noqa: BLE001 - a path outside the root: as Ray gives it
                source = _local(path)
            message = describe(exc, source, stage)
            if errors == "skip":
                logger.warning("skipped %s", message)
            else:
                rows.append({"source": source, ERROR_COLUMN: message})
            continue
        if not made and empty and errors != "raise":
            source = naming(path)[1]
            message = f"{source}: {EMPTY_REASON}"
            if errors == "skip":
                logger.info("skipped %s", message)
            else:
                rows.append({"source": source, ERROR_COLUMN: message})
            continue
        rows.extend(made)
    return pa.Table.from_pylist(rows, schema=schema)


def chunk_dataset(
    ds: Any,
    strategy: str = "auto",
    *,
    chunker: Any = None,
    root: str | os.PathLike[str] | None = None,
    encoding: str | None = None,
    loader_options: Mapping[str, Any] | None = None,
    errors: str = "raise",
    batch_size: int = 16,
    **params: Any,
) -> Any:
    """Chunk the files of a Ray Dataset on the cluster's workers.

    Args:
        ds: a Dataset with a ``bytes`` and a ``path`` column:
            ``ray.data.read_binary_files(paths, include_paths=True)``.
        strategy, **params: the chunker, as :func:`chunkwise.make_chunker` makes it
            (``chunk_size``, ``chunk_overlap``, ``unit``, ...; default ``"auto"``: each
            file gets the strategy of its format, as ``chunkwise chunk`` does); or
            ``chunker``: one made already (it pickles).
        root: the folder document ids are relative to (as when ``chunkwise chunk`` is
            given that folder, or ``--root``); default: each file's name.
        encoding: a codec instead of detecting one.
        loader_options: loader options (PDF: ``{"password": ..., "pages": "1-5"}``).
        errors: a file that cannot be read or chunked: ``"raise"`` (the Dataset's
            execution fails with its error), ``"skip"`` (logged on the worker, left out)
            or ``"report"`` (one row with ``source`` and :data:`ERROR_COLUMN` set, the
            rest null; the chunk rows have a null ``error``). A file that gives no chunk
            (zero bytes, white space only, no text) counts as one that fails under
            ``"skip"`` and ``"report"`` (message ``"<source>: empty: no text to chunk"``),
            as :func:`chunkwise.chunk_corpus` lists it in ``skipped``.
        batch_size: files per task batch.

    Returns:
        A lazy Dataset of chunk rows with the columns :data:`COLUMNS` (``start_index``/
        ``end_index``: half-open character offsets into the document text; ``size`` in
        ``unit``; ``metadata``: a JSON string). Nothing runs until it is consumed
        (``write_parquet``, ``iter_rows``, ``take_all``, ...).

    Raises:
        ConfigError: an invalid parameter or ``errors`` value (before anything runs).

    Method:
        Ray Data's ``map_batches`` over the files; in each task, chunkwise's load ->
        parse -> pack -> enrich, as :func:`chunkwise.chunk_corpus` runs it locally.
    """
    from .api import make_chunker

    if errors not in ("raise", "skip", "report"):
        raise ConfigError(f"errors={errors!r}: use 'raise', 'skip' or 'report'")
    if chunker is None:
        chunker = make_chunker(strategy, **params)
    elif params:
        raise ConfigError(f"give either chunker= or parameters ({', '.join(sorted(params))}), not both")
    naming = functools.partial(_by_root, os.fspath(root) if root is not None else None)
    return _map(ds, chunker, naming, encoding, loader_options or {}, errors, batch_size, _describe, empty=True)


def _map(
    ds: Any,
    chunker: Any,
    naming: Naming,
    encoding: str | None,
    options: Mapping[str, Any],
    errors: str,
    batch_size: int,
    describe: Callable[[BaseException, str, str], str],
    reading: str = "",
    empty: bool = False,
) -> Any:
    schema = ds.schema(fetch_if_missing=False)  # known without running anything, or None
    missing = {"bytes", "path"} - set(schema.names) if schema is not None else set()
    if missing:
        raise ConfigError(
            f"the Dataset has no column {', '.join(sorted(missing))}: read it with "
            "ray.data.read_binary_files(paths, include_paths=True)"
        )
    fn = functools.partial(
        _chunk_batch, chunker=chunker, config=config_key(chunker), reading=reading, naming=naming, encoding=encoding,
        options=dict(options), errors=errors, describe=describe, empty=empty,
    )
    return ds.map_batches(fn, batch_format="pyarrow", batch_size=batch_size)


def records_of(rows: Iterable[Mapping[str, Any]]) -> Iterable[dict[str, Any]]:
    """The records of ``chunkwise chunk``'s JSON lines (``chunk_record`` and ``content_id``,
    ``metadata`` a mapping again) from chunk rows of :func:`chunk_dataset`."""
    for row in rows:
        yield record_of_row(row)


# -- chunkwise chunk --engine ray ------------------------------------------------------


def _describe_for_cli(exc: BaseException, source: str, stage: str, encoding: str | None = None) -> str:
    """The CLI's diagnosis of a failed file (:func:`chunkwise.commands._inputs.classify`),
    as JSON, to cross from the worker in the error column."""
    import dataclasses

    from .commands._inputs import classify

    return json.dumps(dataclasses.asdict(classify(exc, source, stage, encoding if stage == "read" else None)))


def _by_map(names: Mapping[str, tuple[str, str]], path: str) -> tuple[str, str]:
    return names[os.path.abspath(_local(path))]


def run_cli(
    chunker: Any,
    inputs: list[Any],
    *,
    address: str | None,
    workers: int | None,
    encoding: str | None,
    options: Mapping[str, Any],
    out_format: str,
    write: Callable[[Any], Any],
    failures: Any,
    stats: Any,
    counts: dict[str, int],
    show: bool,
    reading: str = "",
) -> None:
    """``chunkwise chunk --engine ray``: the inputs read and chunked on the Ray cluster at
    ``address`` (None: a local one, ``workers`` CPUs), in input order; each document's
    records go to ``write`` as the local run writes them (JSON lines bytes, or Parquet
    records), so the output file is the same. Failures are reported (``failures``)."""
    from .commands._inputs import Skipped
    from .loaders import relative_id_path

    names: dict[str, tuple[str, str]] = {}
    for inp in inputs:
        if inp.path is None:
            raise ConfigError("--engine ray reads files: standard input (-) is read by the local engine")
        relative = inp.found.relative if inp.found is not None else relative_id_path(inp.path, inp.root)
        source = inp.found.path.as_posix() if inp.found is not None else inp.path.as_posix()
        names[os.path.abspath(source)] = (relative, source)
    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {"address": address} if address else {"num_cpus": workers}
        ray.init(**kwargs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    try:
        logging.getLogger("ray.data").setLevel(logging.ERROR)  # its progress is the bar's (show)
        context = ray.data.DataContext.get_current()
        context.execution_options.preserve_order = True
        context.enable_progress_bars = show
        ds = ray.data.read_binary_files(list(names), include_paths=True)
        describe = functools.partial(_describe_for_cli, encoding=encoding)
        rows = _map(ds, chunker, functools.partial(_by_map, names), encoding, options, "report", 16, describe, reading)
        order = [source for _, source in names.values()]
        failed = _write_documents(rows.iter_rows(), out_format, write, failures, stats, Skipped, order)
    finally:
        if started:
            ray.shutdown()
    done = [source for source in order if source not in failed]
    counts["docs"] += len(done)
    counts["nbytes"] += sum(os.path.getsize(s) for s in done if os.path.exists(s))  # file bytes


def _empty_reason(source: str) -> str:
    """Why a file gave no chunk, in the words of the local engine: ``zero bytes``, ``white
    space only`` (its bytes are white space), else ``no text`` (a document whose loader
    found none)."""
    try:
        with open(source, "rb") as fh:
            data = fh.read()
    except OSError:
        return "no text"
    return "zero bytes" if not data else "white space only" if not data.strip() else "no text"


def _write_documents(rows: Iterable[Mapping[str, Any]], out_format: str, write: Any, failures: Any, stats: Any,
                     skipped: type, order: list[str] | None = None) -> set[str]:
    """Group the rows (in input order) by document and write each; the sources failed or
    empty. With ``order`` (the sources in input order), a source without any row (a
    document without text: no chunk) is reported as the local engine reports it
    (``failures.add_empty``), in its place."""
    current: list[dict[str, Any]] = []
    failed: set[str] = set()
    pending = iter(order or ())
    listed = set(order or ())

    def reach(source: str | None) -> None:
        """Report the sources before ``source`` (None: all left) that gave no row."""
        if order is None or (source is not None and source not in listed):
            return
        for s in pending:
            if s == source:
                return
            failed.add(s)
            failures.add_empty(s, _empty_reason(s))

    def flush() -> None:
        if current:
            write("".join(dumps(r) + "\n" for r in current).encode("utf-8") if out_format == "jsonl" else list(current))
            current.clear()

    last = None
    for row in rows:
        if row["source"] != last:
            flush()
            reach(row["source"])
            last = row["source"]
        if row.get(ERROR_COLUMN) is not None:
            failures.add(skipped(**json.loads(row[ERROR_COLUMN])))
            failed.add(row["source"])
            continue
        (rec,) = records_of([row])
        if current and current[-1]["document_id"] != rec["document_id"]:
            flush()
        current.append(rec)
        stats.add(rec["size"])
    flush()
    reach(None)
    return failed
