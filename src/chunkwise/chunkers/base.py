"""The base of every chunker: validated configuration, sizing, chunk construction.

A chunker is a frozen, keyword-only configuration. Subclasses answer one question in
:meth:`BaseChunker.levels` -- where are the boundaries, and how strong is each -- and the
shared engine (:mod:`chunkwise.merge`) does the rest: pack to size, add overlap, build
:class:`~chunkwise.types.Chunk` values with exact offsets and metadata.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar

from ..boundaries import Level
from ..errors import ConfigError
from ..merge import Span, add_overlap, pack
from ..sizers import Measure, Sizer, get_sizer
from ..types import Chunk, Document, chunk_id

__all__ = ["BaseChunker", "as_document"]


def as_document(source: str | Document) -> Document:
    """A :class:`Document` for a string or a document."""
    if isinstance(source, Document):
        return source
    if isinstance(source, str):
        return Document(source)
    raise TypeError(f"expected str or Document, not {type(source).__name__}")


def _unit_label(sizer: Sizer) -> str:
    return "tokens" if sizer.unit.startswith("tokens") else sizer.unit


@dataclass(frozen=True, kw_only=True)
class BaseChunker:
    """Common configuration of every strategy.

    Args:
        chunk_size: the largest chunk, in ``unit`` (> 0).
        chunk_overlap: how much of the next chunk each chunk repeats at its end, in
            ``unit`` (>= 0 and < chunk_size). Chunks are packed to
            ``chunk_size - chunk_overlap`` and then extended into the next chunk.
        unit: ``"chars"``, ``"words"``, ``"tokens"`` or a :class:`~chunkwise.sizers.Sizer`.
        tokenizer: for ``unit="tokens"``: an encoding name (default ``"cl100k_base"``), a
            ``tokenizer.json`` path, a tokenizer object or a callable ``text -> int``.

    Raises:
        ConfigError: an invalid value; the message names it and the fix.
    """

    name: ClassVar[str] = ""
    trim_spans: ClassVar[bool] = True
    word_fallback: ClassVar[bool] = True

    chunk_size: int = 512
    chunk_overlap: int = 0
    unit: Any = "chars"
    tokenizer: Any = "cl100k_base"
    _sizer: Sizer = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sizer = get_sizer(self.unit, self.tokenizer)
        object.__setattr__(self, "_sizer", sizer)
        unit = _unit_label(sizer)
        for fname in ("chunk_size", "chunk_overlap"):
            value = getattr(self, fname)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{fname} must be an integer number of {unit}, not {value!r}")
        if self.chunk_size <= 0:
            raise ConfigError(f"chunk_size ({self.chunk_size} {unit}) must be greater than 0")
        if self.chunk_overlap < 0:
            raise ConfigError(f"chunk_overlap ({self.chunk_overlap} {unit}) must be 0 or more")
        if self.chunk_overlap >= self.chunk_size:
            raise ConfigError(
                f"chunk_overlap ({self.chunk_overlap} {unit}) must be smaller than chunk_size "
                f"({self.chunk_size} {unit}); lower chunk_overlap or raise chunk_size"
            )

    # -- what a strategy supplies ------------------------------------------------------

    def levels(self, document: Document) -> Sequence[Level]:
        """Boundary levels for ``document``, strongest first."""
        return ()

    def spans(self, document: Document, measure: Measure) -> list[Span]:
        """Packed spans of ``document`` (the engine; strategies rarely override this)."""
        levels = self.levels(document)
        spans = pack(
            document.text,
            measure,
            self.chunk_size - self.chunk_overlap,
            levels,
            trim_spans=self.trim_spans,
            words=self.word_fallback,
            **self.pack_options(),
        )
        spans = add_overlap(
            document.text, measure, spans, self.chunk_size, self.chunk_overlap, levels, trim_spans=self.trim_spans
        )
        for s in spans:  # packing used chunk_size - chunk_overlap; oversize means over chunk_size
            s.oversize = s.size > self.chunk_size
        return spans

    def pack_options(self) -> dict[str, Any]:
        """Extra keyword arguments for :func:`chunkwise.merge.pack` (windows, overlaps)."""
        return {}

    # -- the public surface ------------------------------------------------------------

    @property
    def sizer(self) -> Sizer:
        """The sizer that measures chunks (its ``unit`` names what ``size`` counts)."""
        return self._sizer

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document.

        Returns:
            Chunks in document order, each with ``text == document.text[start_index:
            end_index]``, no empty or whitespace-only chunk, every non-whitespace character
            of the document in some chunk, and ``size <= chunk_size`` in the unit (except a
            chunk flagged ``metadata["oversize"]``).
        """
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        spans = self.spans(doc, measure)
        return self.build_chunks(doc, spans, self.span_metadata(doc, spans))

    def span_metadata(self, document: Document, spans: Sequence[Span]) -> list[dict[str, Any]] | None:
        """Per-span extra metadata (and ``"context"``), one dict per span, or None.

        Strategies that know more about each span (a header path, a table header) override
        this; the base adds nothing.
        """
        return None

    def chunk_many(self, documents: Iterable[str | Document]) -> Iterator[list[Chunk]]:
        """Chunk each document in turn (one list of chunks per document)."""
        for d in documents:
            yield self.chunk(d)

    def build_chunks(self, doc: Document, spans: Sequence[Span], extra: Sequence[dict[str, Any]] | None = None) -> list[Chunk]:
        """Chunk values for packed spans, with ids, neighbours and metadata."""
        text, unit = doc.text, self._sizer.unit
        ids = [chunk_id(doc.id, s.start, s.end) for s in spans]
        base = dict(doc.metadata)
        if doc.source is not None and "source" not in base:
            base["source"] = doc.source
        out = []
        last = len(spans) - 1
        for k, s in enumerate(spans):
            meta = dict(base)
            meta["boundary"] = s.boundary
            meta["prev_id"] = ids[k - 1] if k > 0 else None
            meta["next_id"] = ids[k + 1] if k < last else None
            if s.oversize:
                meta["oversize"] = True
            context = ""
            if extra is not None:
                more = extra[k]
                context = more.pop("context", "") if "context" in more else ""
                meta.update(more)
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
                    context=context,
                    id=ids[k],
                )
            )
        return out

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The configuration fields and their defaults (for ``chunkwise strategies``)."""
        out = {}
        for f in fields(cls):
            if f.init and not f.name.startswith("_"):
                out[f.name] = f.default
        return out
