"""The approximate-nearest-neighbour part of an index: one usearch HNSW file per generation.

A file is written whole (to a temporary name, flushed to disk, renamed) and never changed
afterwards; the SQLite database names the generation whose file matches its rows.
Queries open the file memory-mapped (``view=True``): nothing is read that the search does
not touch, so a query on a large index starts in milliseconds.

How wide a search is (usearch's ``expansion_search``, the candidates kept while walking the
graph) is measured on the vectors themselves when the file is written: a sample of the
indexed vectors is taken out of the graph and searched, as new queries, exactly and
through the graph with growing expansions, then put back; the smallest expansion whose recall@10 reaches ``TARGET_RECALL`` is written next to the file
(``<file>.search.json``); where no expansion cheaper than a brute-force scan reaches it,
the file is searched exactly. Why: the expansion a given recall needs depends on the data
far more than on its size (see ``BENCHMARKS.md``: at 20,000 vectors, 64 candidates find
96% of the exact top 10 of clustered vectors and 26% of uniformly random ones), so no fixed
value, nor one scaled by size alone, keeps recall up on every corpus.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ..errors import MissingDependencyError

__all__ = [
    "EXACT_BELOW",
    "TARGET_RECALL",
    "Tuning",
    "VectorFile",
    "expansion_search",
    "tuning_path",
    "vector_path",
]

EXACT_BELOW = 20_000
"""Indexes with fewer vectors than this are searched exactly (brute force over the
memory-mapped vectors): exact results in about a millisecond, as fast as a graph search
that finds 99% of them (measured in ``BENCHMARKS.md``)."""

CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 64
"""The narrowest search (usearch's default expansion): the first step of the tuning."""

TARGET_RECALL = 0.98
"""Recall@10 against exact search that the tuned expansion reaches on the held-out sample
(the margin above 0.95 covers the sample's error: about 1.5 points at 100 queries)."""

TUNING_K = 10
TUNING_SAMPLE = 100
"""Indexed vectors searched to tune a file: recall measured on 100 queries is within about
1.5 points of the recall on all (a query's recall@10 varies by about 0.1-0.15)."""

TUNING_STEP = 1.5
"""Each expansion tried is 1.5 times the one before (64, 96, 144, 216, ...)."""

DISTANCES_PER_CANDIDATE = 4 * CONNECTIVITY
"""Distances a graph search computes per candidate it keeps, about (each candidate's
neighbours, up to 2 x connectivity in the bottom layer, and the candidates it replaces;
64 at connectivity 16, about 60 measured). A graph search with expansion E costs about
``E * DISTANCES_PER_CANDIDATE`` distances, an exact scan ``n``: above ``n /
DISTANCES_PER_CANDIDATE`` the scan is the cheaper of the two."""


def _usearch() -> Any:
    try:
        from usearch.index import Index
    except ImportError as exc:
        raise MissingDependencyError("usearch", "index", "the vector index") from exc
    return Index


def vector_path(folder: Path, generation: int) -> Path:
    """The vector file of a generation: ``vectors-<generation>.usearch``."""
    return folder / f"vectors-{generation:08d}.usearch"


def tuning_path(path: Path) -> Path:
    """Where the search settings measured for the vector file ``path`` are written:
    ``<path>.search.json``."""
    return path.with_name(path.name + ".search.json")


def expansion_search(n: int, k: int, tuned: int | None = None) -> int:
    """Candidates a graph search of ``n`` vectors keeps to find ``k`` neighbours.

    Args:
        n: vectors in the index.
        k: neighbours asked for.
        tuned: the expansion measured for this file to reach ``TARGET_RECALL`` at k = 10
            (``Tuning.expansion``); None for a file written without tuning.

    Returns:
        ``tuned`` scaled by ``k / 10`` (a search keeps about as many candidates per
        neighbour asked for) and never below ``k``. Without a tuning: 64 candidates per 10
        neighbours up to 100,000 vectors, doubled for every tenfold size beyond
        (``64 * 2 ** log10(n / 100,000)``: 128 at 1M) -- a rule for files written before
        tuning, not a guarantee (random vectors need far more; see ``BENCHMARKS.md``).

    Method:
        Malkov and Yashunin (2016), section 4: the search's recall is set by its
        expansion (``ef``), and the expansion needed grows with ``k`` and with the
        size and intrinsic dimension of the data.
    """
    if tuned is None:
        tuned = round(EXPANSION_SEARCH * 2 ** max(0.0, math.log10(max(n, 1) / 100_000)))
    return max(k, math.ceil(tuned * max(1.0, k / TUNING_K)))


class Tuning(dict):
    """The search settings measured for one vector file, as written to its
    ``.search.json``: ``count`` (vectors in the file), ``exact`` (searched by brute
    force), ``expansion`` (the expansion reaching the target at k = 10; None when exact),
    ``recall`` (recall@10 at that setting on the sample), ``target``, ``sample``."""

    @property
    def exact(self) -> bool:
        return bool(self.get("exact"))

    @property
    def expansion(self) -> int | None:
        e = self.get("expansion")
        return int(e) if e else None


class VectorFile:
    """Cosine HNSW (usearch) over float32 vectors keyed by unsigned integers.

    Method:
        Hierarchical navigable small world graphs (Malkov and Yashunin, 2016), as
        implemented by usearch (connectivity 16, expansion 128 when adding). The expansion
        when searching is tuned per file (``tune``): the smallest of 64, 96, 144, ... whose
        recall@10 on 100 of the indexed vectors, taken out of the graph and searched as new
        queries, reaches
        ``TARGET_RECALL`` against exact search, or exact search when no expansion below
        ``n / DISTANCES_PER_CANDIDATE`` does. Below ``EXACT_BELOW`` vectors the search is
        exact. Chosen by measurement: see ``BENCHMARKS.md``.
    """

    def __init__(self, index: Any, tuning: Tuning | None = None) -> None:
        self._index = index
        self.tuning = tuning

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
        into memory to be changed, with the tuning written next to it (None when that is
        missing, unreadable or for another count of vectors).

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
        tuning = None
        try:
            got = json.loads(tuning_path(path).read_text(encoding="utf-8"))
            if isinstance(got, dict) and got.get("count") == len(index):
                tuning = Tuning(got)
        except (OSError, ValueError):
            pass
        return cls(index, tuning)

    def __len__(self) -> int:
        return len(self._index)

    def add(self, keys: Any, vectors: Any) -> None:
        import numpy as np

        if len(keys):
            self._index.add(np.asarray(keys, dtype=np.uint64), np.asarray(vectors, dtype=np.float32))
            self.tuning = None

    def remove(self, keys: Any) -> None:
        import numpy as np

        if len(keys):
            self._index.remove(np.asarray(keys, dtype=np.uint64))
            self.tuning = None

    def tune(self) -> Tuning:
        """Measure the search settings of this file's vectors (see the class); keeps and
        returns them. The index must be in memory (``view=False``): the sample is taken out
        of the graph (usearch's ``remove(compact=True)``, which also removes the links to
        them) so that its vectors are searched as new queries are, then added again.
        Costs ``TUNING_SAMPLE`` exact searches (a brute-force scan each) and as many graph
        searches per expansion tried: seconds at 1M vectors, against minutes to build the
        graph."""
        import numpy as np

        n = len(self._index)
        tuning = Tuning(count=n, exact=True, expansion=None, recall=1.0, target=TARGET_RECALL, sample=0)
        if n >= EXACT_BELOW:
            picks = np.sort(np.random.default_rng(0).choice(n, size=TUNING_SAMPLE, replace=False))
            keys = np.asarray(self._index.keys[picks], dtype=np.uint64)
            queries = np.stack([np.asarray(v, dtype=np.float32).reshape(-1) for v in self._index.get(keys)])
            before = self._index.expansion_search
            self._index.remove(keys, compact=True)
            try:
                truth = self._index.search(queries, TUNING_K, exact=True).keys
                tuning["sample"] = len(keys)
                e = EXPANSION_SEARCH
                while e * DISTANCES_PER_CANDIDATE <= n:
                    self._index.expansion_search = e
                    found = self._index.search(queries, TUNING_K).keys
                    recall = float(
                        np.mean([len(set(f.tolist()) & set(t.tolist())) / TUNING_K for f, t in zip(found, truth)])
                    )
                    if recall >= TARGET_RECALL:
                        tuning.update(exact=False, expansion=e, recall=round(recall, 4))
                        break
                    e = math.ceil(e * TUNING_STEP)
            finally:
                self._index.expansion_search = before
                self._index.add(keys, queries)
        self.tuning = tuning
        return tuning

    def save(self, path: Path) -> None:
        """Tune the search (``tune``, unless done since the last change) and write the
        tuning next to ``path``, then write the file whole: to ``path.tmp``, flushed, then
        renamed to ``path``."""
        tuning = self.tuning if self.tuning is not None and self.tuning.get("count") == len(self) else self.tune()
        side = tuning_path(path)
        _write_whole(side, json.dumps(tuning, sort_keys=True).encode("utf-8"))
        tmp = path.with_name(path.name + ".tmp")
        self._index.save(str(tmp))
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _fsync_dir(path.parent)

    def search(self, vector: Any, k: int) -> tuple[list[int], list[float]]:
        """The ``k`` nearest keys of one vector and their cosine similarities, best first:
        exact below ``EXACT_BELOW`` vectors or when the tuning says so, else a graph search
        with ``expansion_search(n, k, tuned)`` candidates."""
        import numpy as np

        n = len(self._index)
        if n == 0 or k <= 0:
            return [], []
        q = np.asarray(vector, dtype=np.float32).reshape(-1)
        exact = n < EXACT_BELOW or (self.tuning is not None and self.tuning.exact)
        if not exact:
            tuned = self.tuning.expansion if self.tuning is not None else None
            self._index.expansion_search = expansion_search(n, k, tuned)
        matches = self._index.search(q, min(k, n), exact=exact)
        keys = [int(x) for x in matches.keys]
        sims = [1.0 - float(d) for d in matches.distances]
        return keys, sims


def _write_whole(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


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
