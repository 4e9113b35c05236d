"""The approximate-nearest-neighbour part of an index: one usearch HNSW file per generation.

A file is written whole (to a temporary name, flushed to disk, renamed) and never changed
afterwards; the SQLite database names the generation whose file matches its rows.
Queries open the file memory-mapped (``view=True``): nothing is read that the search does
not touch, so a query on a large index starts in milliseconds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError

__all__ = ["EXACT_BELOW", "VectorFile", "vector_path"]

EXACT_BELOW = 20_000
"""Indexes with fewer vectors than this are searched exactly (brute force over the
memory-mapped vectors): exact results at the cost of a few milliseconds."""

CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 64


def _usearch() -> Any:
    try:
        from usearch.index import Index
    except ImportError as exc:
        raise MissingDependencyError("usearch", "index", "the vector index") from exc
    return Index


def vector_path(folder: Path, generation: int) -> Path:
    """The vector file of a generation: ``vectors-<generation>.usearch``."""
    return folder / f"vectors-{generation:08d}.usearch"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open a folder
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class VectorFile:
    """Cosine HNSW (usearch) over float32 vectors keyed by unsigned integers.

    Method:
        Hierarchical navigable small world graphs (Malkov and Yashunin, 2016), as
        implemented by usearch (connectivity 16, expansion 128 when adding, 64 or ``k``
        when searching). Chosen by measurement: see ``BENCHMARKS.md``.
    """

    def __init__(self, index: Any) -> None:
        self._index = index

    @classmethod
    def new(cls, dim: int) -> VectorFile:
        Index = _usearch()
        return cls(
            Index(
                ndim=dim,
                metric="cos",
                dtype="f32",
                connectivity=CONNECTIVITY,
                expansion_add=EXPANSION_ADD,
                expansion_search=EXPANSION_SEARCH,
            )
        )

    @classmethod
    def load(cls, path: Path, *, view: bool) -> VectorFile:
        """The index saved at ``path``: memory-mapped read-only (``view=True``) or copied
        into memory to be changed.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: the file is not a usearch index (damaged, truncated).
        """
        Index = _usearch()
        if not path.is_file():
            raise FileNotFoundError(path)
        try:
            index = Index.restore(str(path), view=view)
        except (RuntimeError, ValueError) as exc:
            raise ValueError(f"{path} is not a usable vector file: {exc}") from exc
        if index is None:  # pragma: no cover - usearch returns None for an unreadable file
            raise FileNotFoundError(path)
        return cls(index)

    def __len__(self) -> int:
        return len(self._index)

    def add(self, keys: Any, vectors: Any) -> None:
        import numpy as np

        if len(keys):
            self._index.add(np.asarray(keys, dtype=np.uint64), np.asarray(vectors, dtype=np.float32))

    def remove(self, keys: Any) -> None:
        import numpy as np

        if len(keys):
            self._index.remove(np.asarray(keys, dtype=np.uint64))

    def save(self, path: Path) -> None:
        """Write the file whole: to ``path.tmp``, flushed, then renamed to ``path``."""
        tmp = path.with_name(path.name + ".tmp")
        self._index.save(str(tmp))
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _fsync_dir(path.parent)

    def search(self, vector: Any, k: int) -> tuple[list[int], list[float]]:
        """The ``k`` nearest keys of one vector and their cosine similarities, best first."""
        import numpy as np

        n = len(self._index)
        if n == 0 or k <= 0:
            return [], []
        q = np.asarray(vector, dtype=np.float32).reshape(-1)
        exact = n < EXACT_BELOW
        if not exact:
            self._index.expansion_search = max(EXPANSION_SEARCH, k)
        matches = self._index.search(q, min(k, n), exact=exact)
        keys = [int(x) for x in matches.keys]
        sims = [1.0 - float(d) for d in matches.distances]
        return keys, sims
