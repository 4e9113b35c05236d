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
    returned = expand([c for c, _ in matched], how, chunks=pool)
    if how == "window":
        returned = _merge_windows(returned)
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


def _merge_windows(returned: Sequence[Any]) -> list[Any]:
    """Overlapping sentence windows of one document as one span (their union), at the
    rank of the first of them, standing for all their hits (first rank first):
    neighbouring sentences' windows share sentences, and the reader gets that text once."""
    from ..evaluation.expand import Returned

    groups: list[list[Any]] = []  # [document_id, start, end, hits, original], in rank order
    for r in returned:
        groups.append([r.document_id, r.start, r.end, list(r.hits), r])
        changed = True
        while changed:  # a grown span may now reach another: merge until none overlaps
            changed = False
            for i, a in enumerate(groups):
                j = next(
                    (j for j in range(i + 1, len(groups))
                     if groups[j][0] == a[0] and groups[j][1] < a[2] and a[1] < groups[j][2]),
                    None,
                )
                if j is not None:
                    b = groups.pop(j)
                    a[1], a[2] = min(a[1], b[1]), max(a[2], b[2])
                    a[3] = list(dict.fromkeys(a[3] + b[3]))
                    a[4] = None
                    changed = True
                    break
    return [
        g[4] if g[4] is not None else Returned(g[0], g[1], g[2], None, tuple(g[3]))
        for g in groups
    ]
