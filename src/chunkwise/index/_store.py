"""The SQLite part of an index: documents, chunks, embeddings and the index's settings.

One database file, ``index.sqlite``, in write-ahead-log mode: a build is one transaction
(readers keep the snapshot they started with until it commits; a build killed before it
commits leaves the previous state, which SQLite restores on the next open). Standard
library ``sqlite3`` only: no extension is loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..types import Chunk, Document

__all__ = [
    "DB_NAME",
    "FORMAT",
    "config_change",
    "config_of",
    "connect",
    "content_hash",
    "row_to_chunk",
]

DB_NAME = "index.sqlite"
FORMAT = "1"
"""The on-disk format; a database of another format is refused with a message."""

SCHEMA = """
create table if not exists meta (key text primary key, value text not null);
create table if not exists documents (
    id text primary key,
    source text,
    content_hash text not null,
    text text not null,
    metadata text not null
);
create table if not exists chunks (
    key integer primary key autoincrement,
    id text not null,
    document_id text not null references documents(id) on delete cascade,
    position integer not null,
    start_index integer not null,
    end_index integer not null,
    size integer not null,
    unit text not null,
    text text not null,
    context text not null,
    metadata text not null,
    level integer,
    parent_id text,
    leaf integer not null,
    embedding blob
);
create index if not exists chunks_document on chunks(document_id, position);
create index if not exists chunks_id on chunks(id);
"""
"""``key`` never repeats (autoincrement): a vector file and the rows of one generation
cannot be confused with those of another. ``embedding`` is the float32 vector of an
embedded chunk (a leaf), NULL for a parent of a hierarchy (stored for ``--return
parents`` and ``merged``, never searched)."""


def connect(folder: Path, *, create: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are begun explicitly), WAL journal,
    foreign keys on, a 30 s wait for a lock.

    Raises:
        FileNotFoundError: no database in ``folder`` and not ``create``.
        ChunkwiseError: the file is not a SQLite database, or is damaged (see
            :func:`database_errors`).
    """
    path = folder / DB_NAME
    if not create and not path.is_file():
        raise FileNotFoundError(path)
    with database_errors(folder):
        con = sqlite3.connect(str(path), isolation_level=None, timeout=30.0, check_same_thread=False)
        try:
            con.execute("pragma foreign_keys = on")
            con.execute("select count(*) from sqlite_master").fetchone()  # reads the header: a non-database fails
            if create:
                con.execute("pragma journal_mode = wal")
                con.executescript(SCHEMA)
        except BaseException:
            con.close()
            raise
    return con


@contextlib.contextmanager
def database_errors(folder: Path) -> Iterator[None]:
    """SQLite's errors as one-line :class:`ChunkwiseError` messages naming the index: a
    damaged or foreign file (delete the folder and build again), or a database that cannot
    be used now (locked, read-only, disk full: SQLite's own message)."""
    from ..errors import ChunkwiseError

    try:
        yield
    except sqlite3.OperationalError as exc:
        raise ChunkwiseError(f"the index database {folder / DB_NAME} cannot be used: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        raise ChunkwiseError(
            f"the index {folder} is damaged or not a chunkwise index ({folder / DB_NAME}: {exc}); delete the "
            "folder and build the index again"
        ) from exc


def _jsonable(value: Any) -> Any:
    return repr(value)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=_jsonable)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def config_of(chunker: Any) -> str:
    """The chunking configuration as a stable string: the chunker's class and its
    configuration (``repr`` of the frozen dataclass, object addresses removed).

    What says where and how a chat model is asked is left out, what it is asked stays:
    an LLM strategy's endpoint fields (``base_url``, ``api_key``, ``cache``,
    ``concurrency``, ``timeout``, ``max_retries``) and a chat client's URL, key and cache
    are dropped; the model's name (and its sampling settings) remain. So the same index
    can be built against another server of the same model.
    """
    from ..llm.options import config_repr

    cls = type(chunker)
    return f"{cls.__module__}.{cls.__qualname__}:" + _ADDRESS.sub("", config_repr(chunker))


def _settings_of(config: str) -> dict[str, tuple[str, bool]] | None:
    """A configuration string of :func:`config_of` as its settings: ``path -> (value,
    is_call)`` (``chunk_size -> ("200", False)``; a nested chunker's under its field,
    ``text_chunker.chunk_size``). A call's own path maps to its name and positional
    arguments (``"" -> ("RecursiveChunker", True)``, ``client -> ("ChatClient('m')",
    True)``). A ``Contextualized`` wrapper (``--contextualize``) becomes the setting
    ``contextualize`` (``on``, else ``off``), its other fields ``contextualize.<field>``,
    around its chunker's settings. None when the ``repr`` is not Python syntax."""
    import ast

    head, _, text = config.partition(":")
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    out: dict[str, tuple[str, bool]] = {}

    def walk(node: ast.expr, path: str) -> None:
        if isinstance(node, ast.Call):
            args = ", ".join(ast.unparse(a) for a in node.args)
            out[path] = (ast.unparse(node.func) + (f"({args})" if args else ""), True)
            for kw in node.keywords:
                walk(kw.value, f"{path}.{kw.arg}" if path else str(kw.arg))
        elif isinstance(node, ast.Dict) and any(isinstance(v, ast.Call) for v in node.values):
            for k, v in zip(node.keys, node.values):
                walk(v, f"{path}[{ast.unparse(k) if k is not None else '**'}]")
        else:
            out[path] = (ast.unparse(node), False)

    fields = {kw.arg: kw.value for kw in tree.keywords} if isinstance(tree, ast.Call) else {}
    wrapped = head.rsplit(".", 1)[-1] == "Contextualized" and "chunker" in fields
    walk(fields.pop("chunker") if wrapped else tree, "")
    out["contextualize"] = ("on" if wrapped else "off", False)
    for key, value in fields.items() if wrapped else ():
        walk(value, f"contextualize.{key}")
    return out


def _inside(path: str, parent: str) -> bool:
    """Whether the setting ``path`` belongs to the call or wrapper at ``parent``."""
    if parent == "contextualize":
        return path.startswith("contextualize.")
    if path == "contextualize" or path.startswith("contextualize."):
        return parent != "" and path.startswith((parent + ".", parent + "["))
    return path != parent and (parent == "" or path.startswith((parent + ".", parent + "[")))


def config_change(old: str, new: str) -> str:
    """What differs between two configurations of :func:`config_of`, ``old -> new`` per
    setting: ``chunk_size: 200 -> 300, unit: 'chars' -> 'tokens'``. Another strategy reads
    ``chunker: RecursiveChunker -> SentenceChunker`` (its settings are not compared),
    ``--contextualize`` given or left out ``contextualize: off -> on``, another chat
    model ``contextualize.client: ChatClient('a') -> ChatClient('b')``. A setting changed
    the same way at several places (the chunk size of each chunker of ``auto``) is named
    once by its field; a setting one side lacks reads ``(none)``."""
    import re

    a, b = _settings_of(old), _settings_of(new)
    if a is None or b is None:  # not Python syntax: the two configurations whole
        return f"{old} -> {new}"
    changed = [p for p in dict.fromkeys([*a, *b]) if a.get(p) != b.get(p)]
    # another class, another wrapper, or a value in place of a call: named, not its settings
    replaced = [p for p in changed if p == "contextualize" or (a.get(p, ("", False))[1] or b.get(p, ("", False))[1])]
    shown = [p for p in changed if not any(_inside(p, r) for r in replaced)]

    def field(path: str) -> str:
        return re.split(r"[.\[]", path)[-1].rstrip("]") if path else "chunker"

    def value(side: dict[str, tuple[str, bool]], path: str) -> str:
        return side[path][0] if path in side else "(none)"

    changes: dict[str, set[tuple[str, str]]] = {}
    for p in shown:
        changes.setdefault(field(p), set()).add((value(a, p), value(b, p)))
    parts: dict[str, str] = {}
    for p in shown:
        own = p == "" or (len(changes[field(p)]) == 1 and not p.startswith("contextualize"))
        key = field(p) if own else p
        parts.setdefault(key, f"{key}: {value(a, p)} -> {value(b, p)}")
    return ", ".join(parts.values()) or f"{old} -> {new}"


def content_hash(document: Document, config: str, model: str) -> str:
    """sha256 of what a document's chunks and vectors depend on: its text, its metadata,
    the chunking configuration and the model."""
    h = hashlib.sha256()
    for part in (config, model, dumps(dict(document.metadata)), document.text):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


NOT_FINAL = ":not-final"
"""Appended to the content hash of a document stored although chunked in part by an LLM
strategy's fallback: it never equals a content hash, so the next build chunks it again."""


def not_final(digest: str) -> str:
    """The stored hash of a document that the next build must chunk again."""
    return digest + NOT_FINAL


def supported_returns(con: sqlite3.Connection) -> tuple[str, ...]:
    """What the stored chunks can return (``Index.query``'s ``returns``): ``chunks``;
    ``parents`` and ``merged`` when some chunk has a ``parent_id`` and every parent id is
    a stored chunk; ``window`` when there are embedded chunks and each has a sentence
    window in its metadata."""
    out = ["chunks"]
    has_parent = con.execute("select exists(select 1 from chunks where parent_id is not null)").fetchone()[0]
    if has_parent:
        orphan = con.execute(
            "select exists(select 1 from chunks c where c.parent_id is not null and not exists "
            "(select 1 from chunks p where p.id = c.parent_id))"
        ).fetchone()[0]
        if not orphan:
            out += ["parents", "merged"]
    embedded = con.execute("select exists(select 1 from chunks where embedding is not null)").fetchone()[0]
    if embedded:
        bare = con.execute(
            "select exists(select 1 from chunks where embedding is not null and "
            """(instr(metadata, '"window_start"') = 0 or instr(metadata, '"window_end"') = 0))"""
        ).fetchone()[0]
        if not bare:
            out.append("window")
    return tuple(out)


def read_meta(con: sqlite3.Connection) -> dict[str, str]:
    return {k: v for k, v in con.execute("select key, value from meta")}


def write_meta(con: sqlite3.Connection, values: Mapping[str, Any]) -> None:
    con.executemany(
        "insert into meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value",
        [(k, str(v)) for k, v in values.items()],
    )


def insert_document(con: sqlite3.Connection, doc: Document, digest: str) -> None:
    con.execute(
        "insert into documents(id, source, content_hash, text, metadata) values (?, ?, ?, ?, ?)",
        (doc.id, doc.source, digest, doc.text, dumps(dict(doc.metadata))),
    )


def insert_chunks(
    con: sqlite3.Connection, chunks: Iterable[Chunk], vectors: Mapping[str, Any]
) -> list[tuple[int, Any]]:
    """Insert chunks (``vectors``: chunk id -> float32 vector of those embedded); returns
    ``(key, vector)`` of the embedded ones, for the vector file."""
    out: list[tuple[int, Any]] = []
    for c in chunks:
        md = c.metadata
        vec = vectors.get(c.id)
        cur = con.execute(
            "insert into chunks(id, document_id, position, start_index, end_index, size, unit, text, context,"
            " metadata, level, parent_id, leaf, embedding) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                c.id,
                c.document_id,
                c.index,
                c.start_index,
                c.end_index,
                c.size,
                c.unit,
                c.text,
                c.context,
                dumps(dict(md)),
                md.get("level"),
                md.get("parent_id"),
                int(bool(md.get("leaf", True))),
                None if vec is None else vec.tobytes(),
            ),
        )
        if vec is not None:
            out.append((int(cur.lastrowid or 0), vec))
    return out


CHUNK_COLUMNS = "key, id, document_id, position, start_index, end_index, size, unit, text, context, metadata"


def row_to_chunk(row: tuple[Any, ...]) -> Chunk:
    """A :class:`Chunk` from a row of ``select CHUNK_COLUMNS``."""
    _, cid, doc_id, position, start, end, size, unit, text, context, metadata = row
    return Chunk(
        text,
        start,
        end,
        index=position,
        size=size,
        unit=unit,
        document_id=doc_id,
        metadata=json.loads(metadata),
        context=context,
        id=cid,
    )
