"""An embedded vector index of chunks: ``chunkwise index build`` and ``chunkwise index query``.

An index is a folder:

* ``index.sqlite`` (standard library SQLite, write-ahead log): the documents (text, source,
  metadata, content hash), every chunk (span, text, context, metadata -- the hierarchy's
  ``level``, ``parent_id``, ``child_ids``, ``leaf`` included) and the float32 embedding of
  each embedded chunk, with the settings (chunking configuration, model, generation);
* ``vectors-<generation>.usearch``: an HNSW graph (usearch) of the embedded chunks, keyed
  by their row, written whole before the build that names it commits.

Builds are incremental (a document is re-chunked and re-embedded only when its text,
metadata, the chunking configuration or the model changed; documents no longer given are
deleted) and atomic (one SQLite transaction): readers see the index before or after a
build, never a mix, and a build killed midway leaves the previous index, queryable.

Needs the extra ``index`` (usearch): ``pip install 'chunkwise[index]'``. Importing
:mod:`chunkwise` does not import this package; importing this package does not import
usearch or numpy.

Example:
    >>> import tempfile, chunkwise
    >>> from chunkwise.index import build_index, query
    >>> embed = lambda texts: [[1.0, float("pump" in t)] for t in texts]
    >>> docs = [chunkwise.Document("The pump starts.", id="a"), chunkwise.Document("Valves open.", id="b")]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     build_index(docs, d, model=embed).added
    ...     [h.chunk.document_id for h in query(d, "pump", k=1, model=embed)]
    ('a', 'b')
    ['a']
"""

from __future__ import annotations

from ._index import RETURNS, BuildReport, Hit, Index, build_index, query

__all__ = ["RETURNS", "BuildReport", "Hit", "Index", "build_index", "query"]
