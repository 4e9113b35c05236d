"""The SQLite file behind the on-disk caches (embeddings, chat answers).

Why SQLite: it ships with Python (no extra dependency), is one crash-safe file (WAL
journal), lets several processes read while one writes, and looks a primary key up in
microseconds. This module holds what every cache repeats -- opening the file (its folder
created), the WAL journal, the one lock around the connection, ``len``, ``close``, the
``with`` block and reopening the same file when unpickled; each cache names its table,
the table's ``CREATE`` statement and its own ``get``/``put``.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, ClassVar

__all__ = ["SQLiteCache"]


class SQLiteCache:
    """A key-value table in one SQLite file, shared between threads behind one lock.

    A subclass sets ``table`` (the table's name), ``schema`` (its ``CREATE TABLE IF NOT
    EXISTS`` statement) and may set ``timeout`` (seconds a writer waits for another
    process's lock, :func:`sqlite3.connect`'s ``timeout``). Its reads and writes go through
    ``self._db`` while holding ``self._lock``.

    Args:
        path: the database file (created with its folder if missing); ``None`` or
            ``":memory:"`` keeps the cache in memory for the life of this object.

    Pickling (and :func:`copy.deepcopy`) reopens the same file; an in-memory cache comes
    back empty.

    Example:
        >>> class Notes(SQLiteCache):
        ...     table = "notes"
        ...     schema = "CREATE TABLE IF NOT EXISTS notes (k TEXT PRIMARY KEY, v TEXT)"
        >>> notes = Notes(); notes._db.execute("INSERT INTO notes VALUES ('a', 'b')") and len(notes)
        1
        >>> notes
        Notes(':memory:')
    """

    table: ClassVar[str]
    schema: ClassVar[str]
    timeout: ClassVar[float] = 5.0  # sqlite3.connect's default

    def __init__(self, path: str | Path | None = None) -> None:
        target = ":memory:" if path is None or str(path) == ":memory:" else str(path)
        if target != ":memory:":
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        self.path = target
        self._lock = threading.Lock()
        self._db = sqlite3.connect(target, check_same_thread=False, isolation_level=None, timeout=self.timeout)
        if target != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(self.schema)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute(f"SELECT COUNT(*) FROM {self.table}").fetchone()[0])

    def close(self) -> None:
        """Close the database (further use raises)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self) -> tuple[Any, ...]:
        # a connection does not pickle: reopen the same file (an in-memory cache starts empty)
        return (type(self), (None if self.path == ":memory:" else self.path,))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.path!r})"
