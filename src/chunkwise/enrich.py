"""Enrichment: the one pass after packing that turns spans into :class:`Chunk` values.

It resolves the parser's labels (:class:`~chunkwise.segments.Label`) into each chunk's
metadata by the label's rule, adds the document's metadata, ``source``, ``boundary``,
``prev_id``/``next_id`` and ``oversize``, asks the chunker for the chunk's ``context`` (a
breadcrumb, a repeated table header) and computes the content-derived ids.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from .merge import Span
from .segments import Label
from .types import Chunk, Document, chunk_id

__all__ = ["build_chunks", "resolve_labels"]


def _common_prefix(values: list[Any]) -> tuple[Any, ...]:
    first = tuple(values[0])
    n = len(first)
    for v in values[1:]:
        v = tuple(v)
        k = 0
        while k < n and k < len(v) and v[k] == first[k]:
            k += 1
        n = k
    return first[:n]


class _Index:
    """Labels of one key, sorted and not overlapping one another."""

    def __init__(self, labels: list[Label]) -> None:
        labels.sort(key=lambda lb: (lb.start, lb.end))
        self.labels = labels
        self.starts = [lb.start for lb in labels]
        self.ends = [lb.end for lb in labels]
        self.rule = labels[0].rule

    def value(self, s: int, e: int) -> tuple[bool, Any]:
        labels, rule = self.labels, self.rule
        if rule == "end":
            k = bisect_right(self.starts, e) - 1
            if k >= 0 and labels[k].start <= e <= labels[k].end:
                return True, labels[k].value
            return False, None
        k = bisect_right(self.starts, s) - 1
        holder = labels[k] if k >= 0 and labels[k].start <= s < labels[k].end else None
        if rule == "start":
            return (True, holder.value) if holder is not None else (False, None)
        if rule == "continued":
            return (True, holder.value) if holder is not None and holder.start < s else (False, None)
        if rule == "within":
            return (True, holder.value) if holder is not None and e <= holder.end else (False, None)
        lo = bisect_right(self.ends, s)
        hi = bisect_left(self.starts, e)
        if hi <= lo:
            return False, None
        if rule == "overlap":
            return True, labels[hi - 1].value
        strong = [labels[i].value for i in range(lo, hi) if not labels[i].weak]
        return True, _common_prefix(strong or [labels[i].value for i in range(lo, hi)])


def resolve_labels(labels: Sequence[Label], spans: Sequence[Span]) -> list[dict[str, Any]]:
    """Per span, the metadata its labels give (tuples become lists).

    Labels of one key must not overlap one another. Returns one dict per span.
    """
    by_key: dict[str, list[Label]] = {}
    for lb in labels:
        by_key.setdefault(lb.key, []).append(lb)
    indexes = {k: _Index(v) for k, v in by_key.items()}
    out: list[dict[str, Any]] = []
    for sp in spans:
        meta: dict[str, Any] = {}
        for key, idx in indexes.items():
            found, value = idx.value(sp.start, sp.end)
            if found:
                meta[key] = list(value) if isinstance(value, tuple) else value
        out.append(meta)
    return out


def build_chunks(
    doc: Document,
    spans: Sequence[Span],
    unit: str,
    labels: Sequence[Label] = (),
    context: Callable[[Mapping[str, Any], Span], str] | None = None,
) -> list[Chunk]:
    """Chunk values for packed spans: metadata, context, neighbours and ids.

    Args:
        doc: the document the spans index into.
        spans: packed spans in document order.
        unit: the sizer's unit label (``chunk.unit``).
        labels: the parser's labels, resolved per span by their rule.
        context: ``(metadata, span) -> str``, the chunk's ``context`` (default: none);
            a ``"context"`` key in the metadata is used and removed when given.

    Returns:
        One :class:`Chunk` per span; ``chunk.metadata`` holds the document's metadata, then
        ``source``, ``boundary``, ``prev_id``, ``next_id``, ``oversize`` (when set),
        ``page_number``/``page_end`` (the pages the chunk starts and ends on, for a
        document with a page map) and the labels' keys.
    """
    text = doc.text
    ids = [chunk_id(doc.id, s.start, s.end, text[s.start : s.end]) for s in spans]
    base = dict(doc.metadata)
    if doc.source is not None and "source" not in base:
        base["source"] = doc.source
    extra = resolve_labels(labels, spans) if labels else None
    pages = doc.pages
    page_starts = [p[1] for p in pages]
    out = []
    last = len(spans) - 1
    for k, s in enumerate(spans):
        meta = dict(base)
        meta["boundary"] = s.boundary
        meta["prev_id"] = ids[k - 1] if k > 0 else None
        meta["next_id"] = ids[k + 1] if k < last else None
        if s.oversize:
            meta["oversize"] = True
        if pages:
            first = max(bisect_right(page_starts, s.start) - 1, 0)
            last = max(bisect_left(page_starts, s.end) - 1, first)
            meta["page_number"], meta["page_end"] = pages[first][0], pages[last][0]
        if extra is not None:
            meta.update(extra[k])
        ctx = meta.pop("context", "") if "context" in meta else ""
        if context is not None:
            ctx = context(meta, s)
        out.append(
            Chunk(
                text=text[s.start : s.end],
                start_index=s.start,
                end_index=s.end,
                index=k,
                size=s.size,
                unit=unit,
                document_id=doc.id,
                metadata=MappingProxyType(meta),  # the dict is ours alone: no copy
                context=ctx,
                id=ids[k],
            )
        )
    return out
