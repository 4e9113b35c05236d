"""Fixed windows of ``chunk_size`` units (characters, words or tokens) with overlap."""

from __future__ import annotations

from dataclasses import dataclass

from ..registry import register
from .base import BaseChunker

__all__ = ["FixedChunker"]


@register("fixed")
@dataclass(frozen=True, kw_only=True)
class FixedChunker(BaseChunker):
    """Windows of ``chunk_size`` units, each starting ``chunk_size - chunk_overlap`` units
    after the previous one: chunk k covers units ``[k(n-o), k(n-o)+n)``.

    Windows tile the text exactly (they are not trimmed, so a window may begin or end
    with whitespace; a window holding only whitespace is skipped). A window never ends
    inside a grapheme cluster or inside a character that several tokens share: it ends
    one cluster earlier, and the next window starts there. The last window is dropped
    when the previous one already reaches the end of the text.

    Units: ``chunk_size`` and ``chunk_overlap`` in ``unit`` (characters by default).

    Method:
        Fixed-size windowing as in LangChain's ``TokenTextSplitter`` (start offsets
        ``k * (chunk_size - chunk_overlap)``), on the shared engine's hard-cut fallback.

    Example:
        >>> [c.text for c in FixedChunker(chunk_size=4, chunk_overlap=1).chunk("abcdefghij")]
        ['abcd', 'defg', 'ghij']
    """

    trim_spans = False
    word_fallback = False
    balance = False
