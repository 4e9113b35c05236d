"""An on-disk cache of chat answers keyed by (model, request), in SQLite.

The same choice as the embedding cache (:mod:`chunkwise.embeddings.cache`): SQLite ships
with Python, is one crash-safe file that several processes can read while one writes, and
looks a primary key up in microseconds. The key is a BLAKE2b digest of the model name and
the request as sent (the prompt with the input filled in, and the sampling settings), so a
changed prompt, input or model is a miss and nothing else is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._kvcache import SQLiteCache

__all__ = ["ResponseCache", "request_key"]


def request_key(model: str, messages: Sequence[Mapping[str, str]], settings: Mapping[str, Any]) -> bytes:
    """16-byte BLAKE2b digest of ``(model, messages, settings)`` as canonical JSON."""
    payload = json.dumps([model, list(messages), dict(settings)], sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(payload.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class ResponseCache(SQLiteCache):
    """Chat answers by (model, request digest), persisted in a SQLite file.

    Args:
        path: the database file (created with its folder if missing); ``None`` or
            ``":memory:"`` keeps the cache in memory for the life of this object.

    Safe to share between threads (one lock around the connection); pickles (reopening the
    same file). The file, lock, ``len``, ``close`` and pickling: :class:`~chunkwise._kvcache.SQLiteCache`.

    Example:
        >>> cache = ResponseCache()
        >>> cache.put("m", b"k" * 16, "answer"); cache.get("m", b"k" * 16)
        'answer'
    """

    table = "answers"
    schema = (
        "CREATE TABLE IF NOT EXISTS answers (model TEXT NOT NULL, key BLOB NOT NULL, "
        "answer TEXT NOT NULL, PRIMARY KEY (model, key)) WITHOUT ROWID"
    )
    timeout = 30.0

    def get(self, model: str, key: bytes) -> str | None:
        """The cached answer, or None."""
        with self._lock:
            row = self._db.execute("SELECT answer FROM answers WHERE model = ? AND key = ?", (model, key)).fetchone()
        return None if row is None else str(row[0])

    def put(self, model: str, key: bytes, answer: str) -> None:
        """Store ``answer`` (replacing an earlier one)."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (model, key, answer))
