"""``--return parents|window|merged``: the matched chunks expanded by the shared expansions
of :mod:`chunkwise.evaluation.expand` (the ones ``chunkwise eval --expand`` scores)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..types import Chunk

__all__ = ["expand_hits"]


def expand_hits(
    how: str,
    matched: Sequence[tuple[Chunk, float]],
    by_doc: Mapping[str, Sequence[Chunk]],
    texts: Mapping[str, str],
) -> list[tuple[Chunk, float, tuple[str, ...]]]:
    """``(chunk, score, matched ids)`` per returned span, best first.

    Args:
        how: an expansion name (``none``, ``window``, ``parent``, ``merged``).
        matched: the chunks matched and their scores, best first.
        by_doc: every chunk (all levels) of the documents of the matched chunks.
        texts: those documents' texts, by id.

    A span that is a chunk (the matched chunk, a parent) is returned as that chunk; a
    sentence window as a new chunk of the document's text over the window (``size`` in
    characters, ``metadata``: ``expansion`` and ``matched``).

    Raises:
        ConfigError: the chunks lack the metadata the expansion needs (the message says how
            to chunk: ``window_sentences`` for ``window``, the hierarchical strategy for
            ``parent`` and ``merged``).
    """
    from ..evaluation.expand import expand

    pool = [c for chunks in by_doc.values() for c in chunks]
    by_id = {c.id: c for c in pool}
    if how == "window":  # the windows of the chunks matched; a hierarchy's parents have none
        pool = [c for c in pool if "window_start" in c.metadata]
    score = {c.id: s for c, s in matched}
    out: list[tuple[Chunk, float, tuple[str, ...]]] = []
    returned = expand([c for c, _ in matched], how, chunks=pool)  # overlapping windows joined there
    for r in returned:
        best = max((score[h] for h in r.hits if h in score), default=0.0)
        chunk: Any = by_id.get(r.chunk_id) if r.chunk_id is not None else None
        if chunk is None:
            text = texts[r.document_id][r.start : r.end]
            chunk = Chunk(
                text,
                r.start,
                r.end,
                size=len(text),
                unit="chars",
                document_id=r.document_id,
                metadata={"expansion": how, "matched": list(r.hits)},
            )
        out.append((chunk, best, tuple(r.hits)))
    return out

