"""Core values: :class:`Document` and :class:`Chunk`.

A chunk is a span of its document: ``chunk.text == document.text[chunk.start_index:
chunk.end_index]`` always, with half-open Python ``str`` offsets (code points). Text that
helps embedding but is not at that place in the source (a header breadcrumb, a table's
repeated header row) lives in ``chunk.context``, never in ``chunk.text``.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Chunk", "Document", "PageRange", "chunk_id", "document_id_for", "document_id_for_path", "form_feed_pages"]

PageRange = tuple[int, int, int]
"""One page of a document: ``(page_number, start, end)``, half-open character offsets."""

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if not mapping:
        return _EMPTY
    if isinstance(mapping, MappingProxyType):
        return mapping
    return MappingProxyType(dict(mapping))


def _digest(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def document_id_for(text: str, source: str | None = None) -> str:
    """A stable id: the source string when there is one, else a hash of the text.

    Args:
        text: the document text (used only when ``source`` is empty).
        source: the document's source, taken exactly as given.

    Returns:
        16 hex digits (BLAKE2b, 8 bytes) of ``"source:" + source``, or of ``"text:" + text``.

    Note:
        Files loaded by :func:`chunkwise.load` do not hash their ``source`` (the path as
        typed, which depends on the working directory) but their path relative to the
        root the user gave: see :func:`document_id_for_path`.

    Example:
        >>> document_id_for("Hello.") == document_id_for("Hello.")
        True
    """
    return _digest(("source:" + source) if source else ("text:" + text))


def document_id_for_path(relative_path: str) -> str:
    """The id of a file document: 16 hex digits derived from its path relative to its root.

    ``relative_path`` uses POSIX separators (``"guide/install.md"``); a backslash is read
    as a separator too, so the same tree gives the same ids on every system. It equals
    ``document_id_for("", relative_path)``. :func:`chunkwise.load` gives it the file's real
    path (symbolic links resolved) relative to the root's real path, so a file reached
    through a link has the id it has when reached directly
    (:func:`chunkwise.loaders.relative_id_path`).

    Example:
        >>> document_id_for_path("guide/a.md") == document_id_for_path("guide\\\\a.md")
        True
    """
    return document_id_for("", relative_path.replace("\\", "/"))


def chunk_id(document_id: str, start_index: int, end_index: int, text: str) -> str:
    """The id of the chunk ``text == document.text[start_index:end_index]`` of a document.

    Args:
        document_id: the id of the chunk's document.
        start_index: the chunk's first character (inclusive, ``str`` offset).
        end_index: the offset after its last character (exclusive).
        text: the chunk's text: an edited text changes the id even at the same offsets.

    Returns:
        16 hex digits (BLAKE2b, 8 bytes).

    Example:
        >>> chunk_id("d", 0, 5, "Hello") != chunk_id("d", 0, 5, "Jello")
        True
    """
    return _digest(f"{document_id}:{start_index}:{end_index}:{text}")


def form_feed_pages(text: str) -> tuple[PageRange, ...]:
    """The page map of a text whose pages are separated by form feeds (``\\f``, as
    pdftotext and most PDF-to-text tools write them): page ``k`` (from 1) is the text
    between the ``k-1``-th and the ``k``-th form feed, which belongs to no page. ``()``
    for a text without a form feed.

    Example:
        >>> form_feed_pages("one\\ftwo")
        ((1, 0, 3), (2, 4, 7))
    """
    if "\f" not in text:
        return ()
    out: list[PageRange] = []
    start = 0
    number = 1
    while True:
        k = text.find("\f", start)
        if k < 0:
            out.append((number, start, len(text)))
            return tuple(out)
        out.append((number, start, k))
        start, number = k + 1, number + 1


def _pages(pages: Sequence[Sequence[int]], length: int) -> tuple[PageRange, ...]:
    out: list[PageRange] = []
    last_end = 0
    for item in pages:
        try:
            number, start, end = (int(v) for v in item)
        except (TypeError, ValueError):
            raise ValueError(f"Document.pages holds (page_number, start, end) triples, not {item!r}") from None
        if not 0 <= start <= end <= length:
            raise ValueError(f"page {number} spans [{start}, {end}), outside the text's 0..{length} characters")
        if start < last_end:
            raise ValueError(f"page {number} starts at {start}, before the previous page ends ({last_end})")
        out.append((number, start, end))
        last_end = end
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Document:
    """A text to chunk, with where it came from.

    Attributes:
        text: the full text; every chunk offset indexes into it.
        id: a stable identifier; by default derived from ``source`` or the text
            (see :func:`document_id_for`), never random.
        source: where the text came from (a path or URL), if known.
        metadata: read-only mapping copied onto every chunk (title, language, ...); JSON
            values when it comes from a loader.
        pages: the page map of a paged source (a PDF): ``(page_number, start, end)``
            half-open character ranges of ``text``, in order, not overlapping (text
            between pages, such as a page separator, belongs to none); ``()`` when the
            source has no pages.

    Documents pickle and deep-copy to equal values.

    Raises:
        TypeError: ``text`` is not a ``str``.
        ValueError: a page range is malformed, outside the text or out of order.

    Example:
        >>> Document("Hello.", source="a.txt").id == Document("Other", source="a.txt").id
        True
        >>> doc = Document("page one\fpage two", pages=((1, 0, 8), (2, 9, 17)))
        >>> doc.page_at(10), doc.pages_for(5, 12)
        (2, (1, 2))
    """

    text: str
    id: str = ""
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    pages: tuple[PageRange, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Document.text must be str, not {type(self.text).__name__}")
        if not self.id:
            object.__setattr__(self, "id", document_id_for(self.text, self.source))
        object.__setattr__(self, "metadata", _freeze(self.metadata))
        if self.pages:
            object.__setattr__(self, "pages", _pages(self.pages, len(self.text)))
        elif not isinstance(self.pages, tuple):
            object.__setattr__(self, "pages", ())

    def __reduce__(self) -> tuple[Any, ...]:
        # the read-only metadata view cannot be pickled: rebuild from a plain dict
        return (_document, (self.text, self.id, self.source, dict(self.metadata), self.pages))

    def page_at(self, offset: int) -> int | None:
        """The number of the page holding character ``offset``, or None (no page map, or
        the offset lies between pages or outside the text)."""
        starts = [p[1] for p in self.pages]
        k = bisect_right(starts, offset) - 1
        if k >= 0 and self.pages[k][1] <= offset < self.pages[k][2]:
            return self.pages[k][0]
        return None

    def pages_for(self, start: int, end: int) -> tuple[int, ...]:
        """Numbers of the pages that the span ``[start, end)`` touches, in order (for an
        empty span, the page holding ``start``); ``()`` without a page map."""
        if end <= start:
            page = self.page_at(start)
            return () if page is None else (page,)
        return tuple(n for n, s, e in self.pages if s < end and start < e)


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieval unit: a span of a document, measured in its unit.

    Attributes:
        text: ``document.text[start_index:end_index]``, unchanged.
        start_index: offset of the first character (inclusive, ``str`` index).
        end_index: offset after the last character (exclusive).
        index: position of the chunk in its document's chunk list, from 0.
        size: the measured size of ``text`` in ``unit``.
        unit: what ``size`` counts: ``"chars"``, ``"words"``, ``"tokens:cl100k_base"``, ...
        document_id: id of the document the chunk belongs to.
        metadata: read-only mapping: the document's metadata, then the chunk's own keys
            (``boundary``: the rule that made the cut after it; ``prev_id``/``next_id``;
            ``oversize`` when an atomic unit is larger than chunk_size; ...).
        context: text to put before the chunk when embedding, which is not at this place
            in the source (a header breadcrumb, a repeated table header); "" if none.
        embedding: the chunk's vector, when one was computed.
        id: 16 hex digits derived from ``document_id``, the span and ``text`` (see
            :func:`chunk_id`): stable across runs, changed by an edit of the text.

    Chunks pickle and deep-copy to equal values (the metadata is rebuilt read-only).
    """

    text: str
    start_index: int
    end_index: int
    index: int = 0
    size: int = 0
    unit: str = "chars"
    document_id: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    context: str = ""
    embedding: Any = None
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", chunk_id(self.document_id, self.start_index, self.end_index, self.text))
        object.__setattr__(self, "metadata", _freeze(self.metadata))

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _chunk,
            (
                self.text,
                self.start_index,
                self.end_index,
                self.index,
                self.size,
                self.unit,
                self.document_id,
                dict(self.metadata),
                self.context,
                self.embedding,
                self.id,
            ),
        )

    def text_for_embedding(self) -> str:
        """``context`` and ``text`` joined by a newline (just ``text`` when context is empty)."""
        return f"{self.context}\n{self.text}" if self.context else self.text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the schema of the CLI's JSON lines, without the source path)."""
        out: dict[str, Any] = {
            "id": self.id,
            "document_id": self.document_id,
            "index": self.index,
            "start_index": self.start_index,
            "end_index": self.end_index,
            "size": self.size,
            "unit": self.unit,
            "text": self.text,
            "context": self.context,
            "metadata": dict(self.metadata),
        }
        return out


def _document(text: str, id: str, source: str | None, metadata: dict[str, Any], pages: tuple[PageRange, ...]) -> Document:
    """Rebuild a pickled :class:`Document` (positional, so old pickles keep loading)."""
    return Document(text, id=id, source=source, metadata=metadata, pages=pages)


def _chunk(*args: Any) -> Chunk:
    """Rebuild a pickled :class:`Chunk`."""
    return Chunk(*args)
