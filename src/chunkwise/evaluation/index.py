"""Exact cosine top-k retrieval with numpy.

At the scale of a probe set (thousands of chunks, hundreds of questions) an exact search
is one matrix product and a partial sort, a few milliseconds: an approximate index (HNSW,
IVF) would add a dependency and recall error for no gain. Vectors are expected
L2-normalised (the embedder protocol guarantees it), so the dot product is the cosine.
"""

from __future__ import annotations

from typing import Any

from ..errors import MissingDependencyError

__all__ = ["ExactIndex"]


def _numpy() -> Any:
    try:
        import numpy as np
    except ImportError as exc:  # pragma: no cover - numpy ships with the tokens extra
        raise MissingDependencyError("numpy", "eval", "evaluation") from exc
    return np


class ExactIndex:
    """Exact top-k search by cosine similarity over a fixed matrix of vectors.

    Args:
        vectors: float array ``[n, dim]``, rows L2-normalised.

    Raises:
        ValueError: ``vectors`` is not two-dimensional.

    Method:
        Brute-force inner product (one matrix product), then ``numpy.argpartition`` and a
        stable sort of the k best; ties go to the lower row index, so results are
        deterministic.

    Example:
        >>> import numpy as np
        >>> ExactIndex(np.eye(3, dtype="float32")).search(np.array([[0, 1, 0]], "float32"), 2)[0][0]
        [1, 0]
    """

    def __init__(self, vectors: Any) -> None:
        np = _numpy()
        arr = np.asarray(vectors, dtype=np.float32)
        if arr.ndim != 2:
            raise ValueError(f"vectors must be [n, dim], got shape {arr.shape}")
        self._vectors = arr

    def __len__(self) -> int:
        return int(self._vectors.shape[0])

    def search(self, queries: Any, k: int) -> tuple[list[list[int]], list[list[float]]]:
        """The k nearest rows for each query, best first.

        Args:
            queries: float array ``[m, dim]`` (L2-normalised).
            k: how many rows per query; more than the index holds returns them all.

        Returns:
            ``(ids, scores)``: per query, row indices and cosine similarities, best first.

        Raises:
            ValueError: ``k < 0`` or the dimensions differ.
        """
        np = _numpy()
        if k < 0:
            raise ValueError(f"k must be 0 or more, got {k}")
        q = np.asarray(queries, dtype=np.float32)
        if q.ndim != 2 or (len(self) and q.shape[1] != self._vectors.shape[1]):
            raise ValueError(f"queries of shape {q.shape} do not match vectors of shape {self._vectors.shape}")
        n = len(self)
        k = min(k, n)
        if k == 0 or q.shape[0] == 0:
            return [[] for _ in range(q.shape[0])], [[] for _ in range(q.shape[0])]
        sims = q @ self._vectors.T
        ids_out: list[list[int]] = []
        scores_out: list[list[float]] = []
        for row in sims:
            part = np.argpartition(-row, k - 1)[:k] if k < n else np.arange(n)
            # Stable ordering: by score descending, then by row index.
            order = part[np.lexsort((part, -row[part]))]
            ids_out.append([int(i) for i in order])
            scores_out.append([float(row[i]) for i in order])
        return ids_out, scores_out
