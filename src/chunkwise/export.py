"""Writing chunks out: JSON lines and Parquet (extra ``parquet``), written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .enrich import document_base
from .loaders.base import json_safe
from .types import Chunk, Document, Metadata

__all__ = [
    "PARQUET_COLUMNS",
    "PARQUET_FIELDS",
    "RECORD_COLUMNS",
    "ParquetWriter",
    "atomic_writer",
    "chunk_record",
    "dumps",
    "jsonable",
    "jsonl_lines",
    "parquet_row",
    "parquet_schema",
    "record_of_row",
    "write_jsonl",
]


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
        "metadata": chunk.metadata.copy(),
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
        return _ENCODER.encode(record)
    except (TypeError, ValueError) as exc:  # a NaN, an infinity or a key json cannot write
        if "ircular" in str(exc):  # a value that holds itself: no conversion helps
            raise
        return json.dumps(jsonable(record), ensure_ascii=False, allow_nan=False)


jsonable = json_safe
"""A JSON value for any value: :func:`chunkwise.loaders.json_safe` (dates and times in ISO
8601, NaN and infinities as strings, bytes as base64, sets as sorted lists, arrays by
``tolist()``, anything else as its ``str``)."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=jsonable)
"""What ``json.dumps(..., ensure_ascii=False, allow_nan=False, default=jsonable)`` makes on
every call, made once (it holds no state between calls)."""


def _string_encoder() -> Any:
    """``str -> bytes``: the JSON string literal of ``json.dumps(s, ensure_ascii=False)``,
    UTF-8 encoded; orjson's where installed (the same bytes for every code point; lone
    surrogates raise ``TypeError``), else the standard library's C encoder."""
    try:
        import orjson

        return orjson.dumps
    except ImportError:
        from json.encoder import encode_basestring

        return lambda text: encode_basestring(text).encode("utf-8")


_jstr: Any = None


def jsonl_lines(
    chunks: Iterable[Chunk], document: Document, content_id: str | None = None, config_id: str | None = None
) -> bytes:
    """The JSON lines of ``chunks`` (of ``document``), UTF-8: byte for byte
    ``"".join(dumps(r) + "\n" for r in records).encode("utf-8")`` where each record is
    :func:`chunk_record` with ``content_id`` added last (when given), then ``config_id``
    (when given with it) -- the lines of ``chunkwise chunk`` -- made several times faster.

    Method: the record's fields are written into a fixed template (strings through
    orjson when installed, else the standard library's C string encoder: the same bytes
    as :func:`json.dumps`); the document's metadata, which begins every chunk's metadata,
    is serialised once per document and each chunk's own keys after it. A chunk whose
    record does not fit that mould (metadata not starting with the document's keys and
    values, a field of another type, a value :func:`dumps` converts) is written by
    :func:`dumps` itself.

    Raises:
        UnicodeEncodeError: a text with a lone surrogate (UTF-8 cannot hold it).
    """
    global _jstr
    if _jstr is None:
        _jstr = _string_encoder()
    js = _jstr
    encode = _ENCODER.encode
    base = document_base(document)  # as the enrich stage starts every chunk's metadata
    keys = list(base)
    n = len(keys)
    try:
        head = encode(base)[1:-1].encode("utf-8") if n else b""
        src = document.source
        source = b"null" if src is None else js(src) if type(src) is str else None
    except (TypeError, ValueError):
        head = source = None  # type: ignore[assignment]
    if content_id is None:
        config_id = None
        tail = b"}\n"
    else:
        tail = b', "content_id": ' + js(content_id)
        tail += b"}\n" if config_id is None else b', "config_id": ' + js(config_id) + b"}\n"
    out: list[bytes] = []
    for c in chunks:
        line = None
        if source is not None:
            try:
                line = _line(c, js, encode, base, keys, n, head, source, tail)
            except (TypeError, ValueError):
                line = None
        if line is None:
            rec = chunk_record(c, document)
            if content_id is not None:
                rec["content_id"] = content_id
                if config_id is not None:
                    rec["config_id"] = config_id
            line = (dumps(rec) + "\n").encode("utf-8")
        out.append(line)
    return b"".join(out)


def _value(v: Any, js: Any, encode: Any) -> bytes:
    """A metadata value as :func:`json.dumps` writes it inside an object (raises
    ``TypeError``/``ValueError`` where :func:`dumps` would convert it: the caller then
    writes the record by :func:`dumps`)."""
    t = type(v)
    if t is str:
        return js(v)  # type: ignore[no-any-return]
    if v is None:
        return b"null"
    if v is True:
        return b"true"
    if v is False:
        return b"false"
    if t is int:
        return b"%d" % v
    if t is list and all(type(x) is str for x in v):
        return b"[" + b", ".join([js(x) for x in v]) + b"]"
    return encode(v).encode("utf-8")  # type: ignore[no-any-return]


def _line(c: Chunk, js: Any, encode: Any, base: dict[str, Any], keys: list[str], n: int, head: bytes,
          source: bytes, tail: bytes) -> bytes | None:
    """One chunk's line by the template of :func:`jsonl_lines`, or None: not in the mould."""
    index, start, end, size = c.index, c.start_index, c.end_index, c.size
    if not (type(index) is int and type(start) is int and type(end) is int and type(size) is int):
        return None
    cid, did, unit, text, context = c.id, c.document_id, c.unit, c.text, c.context
    if not (type(cid) is str and type(did) is str and type(unit) is str and type(text) is str
            and type(context) is str):
        return None
    m = c.metadata  # (one pass: a Metadata's items come from its slots, the values themselves)
    items = list((m._dict() if isinstance(m, Metadata) else m).items())
    if n and (len(items) < n or any(k != want or v is not base[k] for (k, v), want in zip(items, keys))):
        return None
    if len(items) > n:
        own = items[n:]
        if not all(type(k) is str for k, _ in own):
            return None
        rest = b", ".join([js(k) + b": " + _value(v, js, encode) for k, v in own])
        body = head + b", " + rest if n else rest
    else:
        body = head
    return b"".join((
        b'{"id": ', js(cid), b', "document_id": ', js(did), b', "source": ', source,
        b', "index": %d, "start_index": %d, "end_index": %d, "size": %d, "unit": ' % (index, start, end, size),
        js(unit), b', "text": ', js(text), b', "context": ', js(context), b', "metadata": {', body, b"}",
        tail,
    ))


PARQUET_COLUMNS: tuple[tuple[str, str], ...] = (
    ("header_path", "list<string>"),
    ("page_number", "int64"),
    ("page_end", "int64"),
    ("language", "string"),
    ("boundary", "string"),
    ("prev_id", "string"),
    ("next_id", "string"),
    ("level", "int64"),
    ("parent_id", "string"),
)
"""The metadata keys that also get a column of their own in Parquet (null where a chunk
has none, or a value of another type); the whole metadata is in the ``metadata`` column."""

RECORD_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "string"),
    ("document_id", "string"),
    ("source", "string"),
    ("index", "int64"),
    ("start_index", "int64"),
    ("end_index", "int64"),
    ("size", "int64"),
    ("unit", "string"),
    ("text", "string"),
    ("context", "string"),
    ("content_id", "string"),
    ("config_id", "string"),
)
"""The record fields (:func:`chunk_record`, ``content_id`` and ``config_id``) with their
Parquet column types (``string``, ``int64``, ``list<string>``), in column order."""

PARQUET_FIELDS: tuple[str, ...] = (
    *(n for n, _ in RECORD_COLUMNS),
    "metadata",
    *(n for n, _ in PARQUET_COLUMNS),
)
"""The columns of a chunk row (:func:`parquet_row`, :func:`parquet_schema`), in order."""


def _arrow_type(pa: Any, name: str) -> Any:
    return pa.list_(pa.string()) if name == "list<string>" else getattr(pa, name)()


def _cell(value: Any, kind: str) -> Any:
    """``value`` if it has the column's type, else None (bools are not integers here)."""
    if kind == "list<string>":
        return list(value) if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value) else None
    if kind == "int64":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return value if isinstance(value, str) else None


def parquet_schema(extra: Iterable[str] = ()) -> Any:
    """The pyarrow schema of chunk rows: the columns :data:`PARQUET_FIELDS` (record fields,
    ``metadata`` as a JSON string, the keys of :data:`PARQUET_COLUMNS`), then a string
    column per name in ``extra``.

    Raises:
        ImportError: pyarrow is not installed.
    """
    import pyarrow as pa

    fields = [(n, _arrow_type(pa, k)) for n, k in RECORD_COLUMNS]
    fields.append(("metadata", pa.string()))
    fields += [(n, _arrow_type(pa, k)) for n, k in PARQUET_COLUMNS]
    fields += [(n, pa.string()) for n in extra]
    return pa.schema(fields)


def parquet_row(record: dict[str, Any]) -> dict[str, Any]:
    """A chunk record (:func:`chunk_record` and a ``content_id``) as a row of
    :func:`parquet_schema`: the record fields (a missing one null), ``metadata`` as one
    line of JSON (:func:`dumps`), and each key of :data:`PARQUET_COLUMNS` as its own cell
    (null where the metadata has no such key, or a value of another type).

    Raises:
        TypeError, ValueError: a metadata value :func:`dumps` cannot write (one that holds
            itself).

    Example:
        >>> row = parquet_row({"id": "c", "metadata": {"page_number": 3, "level": True}})
        >>> row["metadata"], row["page_number"], row["level"], row["text"]
        ('{"page_number": 3, "level": true}', 3, None, None)
    """
    meta = record.get("metadata") or {}
    row = {n: record.get(n) for n, _ in RECORD_COLUMNS}
    row["metadata"] = dumps(meta)
    for n, kind in PARQUET_COLUMNS:
        row[n] = _cell(meta.get(n), kind)
    return row


def record_of_row(row: Any) -> dict[str, Any]:
    """The inverse of :func:`parquet_row`: the JSON lines record (the fields of
    :func:`chunk_record` in its order, ``metadata`` a mapping again, then ``content_id``,
    then ``config_id`` where the row has one) of a chunk row (any mapping with the columns
    :data:`PARQUET_FIELDS`).

    Example:
        >>> rec = {**{n: None for n, _ in RECORD_COLUMNS}, "metadata": {"a": [1]}, "content_id": "k"}
        >>> record_of_row(parquet_row({**rec, "config_id": "c"})) == {**rec, "config_id": "c"}
        True
        >>> "config_id" in record_of_row(parquet_row(rec))
        False
    """
    rec = {n: row[n] for n, _ in RECORD_COLUMNS if n not in ("content_id", "config_id")}
    rec["metadata"] = json.loads(row["metadata"])
    rec["content_id"] = row["content_id"]
    cfg = row.get("config_id") if hasattr(row, "get") else None
    if cfg is not None:  # rows written before the column, or without a configuration id
        rec["config_id"] = cfg
    return rec


class ParquetWriter:
    """Chunk records (:func:`chunk_record`, and a ``content_id``) to a Parquet file, in row
    groups of ``row_group_size`` rows as they come (memory: one row group), written to a
    temporary file renamed over ``path`` by :meth:`close` -- :meth:`abort` (or an error in a
    ``with`` block) leaves any previous file as it was.

    Columns: one per record field (``id``, ``document_id``, ``source``, ``index``,
    ``start_index``, ``end_index``, ``size``, ``unit``, ``text``, ``context``,
    ``content_id``, ``config_id``), ``metadata`` as a JSON string (:func:`dumps`), then the common
    metadata keys of :data:`PARQUET_COLUMNS` as their own columns.

    Raises:
        MissingDependencyError: pyarrow is not installed (``pip install 'chunkwise[parquet]'``).
    """

    def __init__(self, path: str | os.PathLike[str], row_group_size: int = 10_000) -> None:
        from .errors import MissingDependencyError

        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise MissingDependencyError(
                "writing Parquet needs pyarrow: pip install 'chunkwise[parquet]'"
            ) from exc
        self._pa = pa
        self.schema = parquet_schema()
        self._target = Path(path)
        self._target.parent.mkdir(parents=True, exist_ok=True)
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self._target.name}.", suffix=".tmp", dir=self._target.parent)
        os.close(fd)
        self._writer = pq.ParquetWriter(self._tmp, self.schema)
        self._rows: list[dict[str, Any]] = []
        self._size = row_group_size
        self.rows = 0

    def write(self, records: Iterable[dict[str, Any]]) -> None:
        """Buffer ``records``; a full row group is written out."""
        for r in records:
            self._rows.append(parquet_row(r))
            if len(self._rows) >= self._size:
                self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._writer.write_table(self._pa.Table.from_pylist(self._rows, schema=self.schema))
            self.rows += len(self._rows)
            self._rows = []

    def close(self) -> None:
        """Write the last row group, close the file and rename it over ``path``."""
        try:
            self._flush()
            self._writer.close()
            with open(self._tmp, "rb") as fh:
                os.fsync(fh.fileno())
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self._tmp, 0o666 & ~umask)
            os.replace(self._tmp, self._target)
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Drop what was written; any previous file at ``path`` stays."""
        try:
            self._writer.close()
        except Exception:  # noqa: BLE001 - already closed or broken: the file goes anyway
            pass
        try:
            os.unlink(self._tmp)
        except FileNotFoundError:
            pass

    def __enter__(self) -> ParquetWriter:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()
