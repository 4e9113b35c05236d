"""Chunk statistics that need no embeddings: sizes, fill, cuts.

Used by ``chunkwise stats`` to compare configurations before (or instead of) a retrieval
evaluation: how many chunks, how full they are, how often a chunk stops in the middle of
a sentence, and which boundary rule made each cut (``chunk.metadata["boundary"]``, set by
the merge engine: ``paragraph``, ``line``, ``sentence``, ``clause``, ``word``, ``hard``,
``end``, ...).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..chunkers.base import BaseChunker
from ..sentences import split_sentences
from ..types import Chunk, Document

__all__ = ["HISTOGRAM_BINS", "ChunkStats", "chunk_stats", "is_heading_only"]

HISTOGRAM_BINS = 10


@dataclass
class ChunkStats:
    """Statistics of one configuration over a collection.

    Attributes:
        label: the configuration's name.
        unit: what sizes count (``tokens:cl100k_base``, ``chars``, ...).
        chunk_size: the configured budget, in ``unit``.
        documents: documents chunked.
        count: chunks.
        mean, std, min, max: chunk size in ``unit`` (population std).
        fill: mean of size / chunk_size.
        mid_sentence: share of chunks whose last character is not the end of a sentence
            (the project's sentence segmenter; a document's last chunk ends one).
        heading_only: share of chunks whose text is nothing but heading lines (Markdown
            ATX or setext headings): a chunk that retrieves nothing.
        small: share of chunks under a quarter of chunk_size, not counting a chunk that is
            the only one of its document or of its section (same ``header_path``).
        boundaries: how many cuts each boundary rule made (the rule after each chunk).
        histogram: chunk counts in ``HISTOGRAM_BINS`` equal bins of ``[0, chunk_size]``,
            then one bin for oversize chunks (larger than chunk_size).
    """

    label: str
    unit: str
    chunk_size: int
    documents: int = 0
    count: int = 0
    mean: float = 0.0
    std: float = 0.0
    min: int = 0
    max: int = 0
    fill: float = 0.0
    mid_sentence: float = 0.0
    heading_only: float = 0.0
    small: float = 0.0
    boundaries: dict[str, int] = field(default_factory=dict)
    histogram: list[int] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        """A flat record for tables, CSV and JSON."""
        out: dict[str, Any] = {
            "config": self.label,
            "unit": self.unit,
            "documents": self.documents,
            "chunks": self.count,
            "mean": round(self.mean, 2),
            "std": round(self.std, 2),
            "min": self.min,
            "max": self.max,
            "fill": round(self.fill, 4),
            "mid_sentence": round(self.mid_sentence, 4),
            "heading_only": round(self.heading_only, 4),
            "small": round(self.small, 4),
        }
        total = sum(self.boundaries.values())
        for kind, n in sorted(self.boundaries.items(), key=lambda kv: (-kv[1], kv[0])):
            out[f"cut_{kind}"] = round(n / total, 4) if total else 0.0
        out["histogram"] = list(self.histogram)
        return out


_HEADING_LINE = re.compile(r"[ ]{0,3}(?:#{1,6}(?:[ \t].*)?|=+[ \t]*|-+[ \t]*)")


def is_heading_only(text: str) -> bool:
    """Whether every non-blank line of ``text`` is a Markdown heading line (ATX ``#``
    headings, or a setext title with its ``===``/``---`` underline)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    k = 0
    while k < len(lines):
        if _HEADING_LINE.fullmatch(lines[k]) and lines[k].lstrip().startswith("#"):
            k += 1
        elif k + 1 < len(lines) and re.fullmatch(r"[ ]{0,3}(?:=+|-+)[ \t]*", lines[k + 1]):
            k += 2
        else:
            return False
    return True


def _small(chunks: Sequence[Chunk], budget: int) -> int:
    """Chunks under a quarter of ``budget`` that are not alone in their section."""
    out = 0
    paths = [c.metadata.get("header_path") for c in chunks]
    for i, c in enumerate(chunks):
        if c.size * 4 >= budget:
            continue
        alone = (i == 0 or paths[i - 1] != paths[i]) and (i + 1 == len(chunks) or paths[i + 1] != paths[i])
        if not alone:
            out += 1
    return out


def _ends_sentence(chunk: Chunk, ends: set[int], text: str) -> bool:
    end = chunk.end_index
    while end > chunk.start_index and text[end - 1].isspace():
        end -= 1
    return end in ends


def chunk_stats(documents: Sequence[Document], chunker: BaseChunker, label: str | None = None) -> ChunkStats:
    """Chunk every document and summarise the chunks.

    Args:
        documents: the collection.
        chunker: the configuration to measure.
        label: a name for the result (default: strategy/chunk_size/chunk_overlap).

    Returns:
        A :class:`ChunkStats`. Sizes are ``chunk.size`` in the chunker's unit.

    Method:
        Mean and variance by Welford's online algorithm (Welford 1962); sentence ends from
        :func:`chunkwise.split_sentences`.

    Example:
        >>> from chunkwise import make_chunker
        >>> s = chunk_stats([Document("One. Two three. Four")], make_chunker("sentence", chunk_size=12))
        >>> (s.count, s.boundaries["end"])
        (2, 1)
    """
    name = label or f"{chunker.name or type(chunker).__name__}/{chunker.chunk_size}/{chunker.chunk_overlap}"
    out = ChunkStats(label=name, unit=chunker.sizer.unit, chunk_size=chunker.chunk_size)
    hist = [0] * (HISTOGRAM_BINS + 1)
    kinds: Counter[str] = Counter()
    n, mean, m2, fill, mid, heads, small = 0, 0.0, 0.0, 0.0, 0, 0, 0
    lo: int | None = None
    hi: int | None = None
    for doc in documents:
        out.documents += 1
        # what a retriever indexes: a hierarchical chunker's leaves (chunk_size is theirs)
        chunks = [c for c in chunker.chunk(doc) if c.metadata.get("leaf", True)]
        if not chunks:
            continue
        ends = {e for _, e in split_sentences(doc.text)}
        small += _small(chunks, chunker.chunk_size)
        for c in chunks:
            if c.text.lstrip()[:1] in "#=-" or "\n=" in c.text or "\n-" in c.text:
                heads += is_heading_only(c.text)
            n += 1
            d = c.size - mean
            mean += d / n
            m2 += d * (c.size - mean)
            lo = c.size if lo is None else min(lo, c.size)
            hi = c.size if hi is None else max(hi, c.size)
            fill += c.size / chunker.chunk_size
            if c.size > chunker.chunk_size:
                hist[HISTOGRAM_BINS] += 1
            else:
                hist[min(HISTOGRAM_BINS - 1, c.size * HISTOGRAM_BINS // chunker.chunk_size)] += 1
            if not _ends_sentence(c, ends, doc.text):
                mid += 1
            kinds[str(c.metadata.get("boundary", "unknown"))] += 1
    out.count = n
    if n:
        out.mean, out.std = mean, math.sqrt(m2 / n)
        out.min, out.max = lo or 0, hi or 0
        out.fill, out.mid_sentence = fill / n, mid / n
        out.heading_only, out.small = heads / n, small / n
    out.boundaries = dict(kinds)
    out.histogram = hist
    return out
