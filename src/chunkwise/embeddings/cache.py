"""An on-disk embedding cache keyed by (model name, text hash), in SQLite.

Why SQLite: it ships with Python (no extra dependency), is one file, is crash-safe
(transactions, WAL journal), lets several processes read while one writes, and looks up a
primary key in microseconds -- what a cache of millions of small vectors needs. Vectors are
stored as raw float32 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._kvcache import SQLiteCache
from ..errors import ChunkwiseError

__all__ = ["CachedEmbedder", "EmbeddingCache", "text_hash"]


def text_hash(text: str) -> bytes:
    """16-byte BLAKE2b digest of the UTF-8 text (the cache key with the model name)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class EmbeddingCache(SQLiteCache):
    """Vectors by (model name, text hash), persisted in a SQLite file.

    Args:
        path: the database file (created with its folder if missing); ``None`` or
            ``":memory:"`` keeps the cache in memory for the life of this object.

    Safe to share between threads (one lock around the connection); a ``with`` block closes
    it; pickles (reopening the same file). The file, lock, ``len``, ``close`` and pickling:
    :class:`~chunkwise._kvcache.SQLiteCache`.

    Example:
        >>> cache = EmbeddingCache()
        >>> cache.get_many("m", ["a"])
        {}
    """

    table = "embeddings"
    schema = (
        "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, key BLOB NOT NULL, "
        "dim INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, key)) WITHOUT ROWID"
    )

    def get_many(self, model: str, texts: Sequence[str]) -> dict[int, Any]:
        """Cached vectors for ``texts``: ``{position in texts: float32 [dim]}`` (hits only)."""
        import numpy as np

        keys = [text_hash(t) for t in texts]
        found: dict[bytes, Any] = {}
        uniq = list(dict.fromkeys(keys))
        with self._lock:
            for i in range(0, len(uniq), 500):
                part = uniq[i : i + 500]
                q = f"SELECT key, dim, vector FROM embeddings WHERE model = ? AND key IN ({','.join('?' * len(part))})"
                for key, dim, blob in self._db.execute(q, [model, *part]):
                    found[bytes(key)] = np.frombuffer(blob, dtype=np.float32, count=dim)
        return {i: found[k] for i, k in enumerate(keys) if k in found}

    def put_many(self, model: str, texts: Sequence[str], vectors: Any) -> None:
        """Store ``vectors`` (float32 ``[len(texts), dim]``) for ``texts`` under ``model``."""
        import numpy as np

        vecs = np.asarray(vectors, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != len(texts):
            raise ChunkwiseError(f"put_many: {len(texts)} texts but vectors of shape {vecs.shape}")
        rows = [(model, text_hash(t), int(vecs.shape[1]), vecs[i].tobytes()) for i, t in enumerate(texts)]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")


class CachedEmbedder:
    """An embedder that asks ``cache`` first and embeds only the texts it lacks.

    Duplicate texts in one call are embedded once. ``name``, ``dim`` (and ``embed_tokens``
    and ``window`` when the wrapped embedder has them) pass through.

    Args:
        embedder: any embedder (see :func:`chunkwise.embeddings.get_embedder`).
        cache: an :class:`EmbeddingCache`, or a path for one.

    Attributes:
        calls: how many texts were sent to the wrapped embedder (misses).
    """

    def __init__(self, embedder: Any, cache: EmbeddingCache | str | Path | None = None) -> None:
        self.embedder = embedder
        self.cache = cache if isinstance(cache, EmbeddingCache) else EmbeddingCache(cache)
        self.name = embedder.name
        self.calls = 0

    @property
    def dim(self) -> int:
        return int(self.embedder.dim)

    def __getattr__(self, attr: str) -> Any:
        if attr in ("embed_tokens", "window", "tokenizer"):
            return getattr(self.embedder, attr)
        raise AttributeError(attr)

    def embed(self, texts: Sequence[str]) -> Any:
        """float32 ``[len(texts), dim]``, L2-normalised; misses are embedded and stored."""
        import numpy as np

        items = list(texts)
        hits = self.cache.get_many(self.name, items)
        missing = list(dict.fromkeys(t for i, t in enumerate(items) if i not in hits))
        new: dict[str, Any] = {}
        if missing:
            vecs = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            self.calls += len(missing)
            self.cache.put_many(self.name, missing, vecs)
            new = dict(zip(missing, vecs))
        if not items:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([hits[i] if i in hits else new[t] for i, t in enumerate(items)]).astype(np.float32, copy=False)

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.embedder!r}, {self.cache!r})"
