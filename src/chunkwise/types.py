"""Core values: :class:`Document` and :class:`Chunk`.

A chunk is a span of its document: ``chunk.text == document.text[chunk.start_index:
chunk.end_index]`` always, with half-open Python ``str`` offsets (code points). Text that
helps embedding but is not at that place in the source (a header breadcrumb, a table's
repeated header row) lives in ``chunk.context``, never in ``chunk.text``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Chunk", "Document", "chunk_id", "document_id_for"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if not mapping:
        return _EMPTY
    if isinstance(mapping, MappingProxyType):
        return mapping
    return MappingProxyType(dict(mapping))


def document_id_for(text: str, source: str | None = None) -> str:
    """A stable id: the source path when there is one, else a hash of the text.

    Returns 16 hex digits (BLAKE2b, 8 bytes) of the source string or of the UTF-8 text.
    """
    key = ("source:" + source) if source else ("text:" + text)
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def chunk_id(document_id: str, start_index: int, end_index: int) -> str:
    """The id of the chunk ``[start_index, end_index)`` of a document: 16 hex digits."""
    key = f"{document_id}:{start_index}:{end_index}"
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Document:
    """A text to chunk, with where it came from.

    Attributes:
        text: the full text; every chunk offset indexes into it.
        id: a stable identifier; by default derived from ``source`` or the text
            (see :func:`document_id_for`), never random.
        source: where the text came from (a path or URL), if known.
        metadata: read-only mapping copied onto every chunk (title, language, ...).

    Example:
        >>> Document("Hello.", source="a.txt").id == Document("Other", source="a.txt").id
        True
    """

    text: str
    id: str = ""
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Document.text must be str, not {type(self.text).__name__}")
        if not self.id:
            object.__setattr__(self, "id", document_id_for(self.text, self.source))
        object.__setattr__(self, "metadata", _freeze(self.metadata))


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
        id: 16 hex digits derived from ``document_id`` and the span: stable across runs.
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
            object.__setattr__(self, "id", chunk_id(self.document_id, self.start_index, self.end_index))
        object.__setattr__(self, "metadata", _freeze(self.metadata))

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
