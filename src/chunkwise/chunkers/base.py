"""The base of every chunker: validated configuration, sizing, chunk construction.

A chunker is a frozen, keyword-only configuration. Subclasses answer one question in
:meth:`BaseChunker.parse` (or just :meth:`BaseChunker.levels`) -- where are the
boundaries, how strong is each, what stays whole, what does each part mean -- as
:class:`~chunkwise.segments.Segments`; the one packer (:mod:`chunkwise.packer`) packs
them to size with overlap, and the enrichment pass (:mod:`chunkwise.enrich`) builds
:class:`~chunkwise.types.Chunk` values with exact offsets, metadata and ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..boundaries import Level
from ..enrich import build_chunks
from ..errors import ConfigError
from ..language import require_language
from ..merge import Span
from ..packer import PackConfig, pack_segments
from ..segments import Segments
from ..sizers import Measure, Sizer, get_sizer
from ..types import Chunk, Document, form_feed_pages

__all__ = ["BaseChunker", "as_document"]


def as_document(source: str | Document) -> Document:
    """A :class:`Document` for a string (read as plain text: form feeds separate pages) or
    a document."""
    if isinstance(source, Document):
        return source
    if isinstance(source, str):
        return Document(source, pages=form_feed_pages(source))
    raise TypeError(f"expected str or Document, not {type(source).__name__}")


def _unit_label(sizer: Sizer) -> str:
    return "tokens" if sizer.unit.startswith("tokens") else sizer.unit


def _rebuild(cls: type, params: dict[str, Any]) -> Any:
    """A pickled chunker, rebuilt through its constructor (see ``BaseChunker.__reduce__``)."""
    return cls(**params)


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
        detect_language: ``metadata["language"]`` (ISO 639-1) on every chunk: None (off,
            the default), ``"document"`` (the document's language) or ``"chunk"`` (each
            chunk's own). See :mod:`chunkwise.language`. Source code keeps
            ``metadata["language"]`` for its programming language (a document loaded as
            code, the ``code`` strategy).
        density: ``metadata["density"]``, the share of distinct content words among the
            chunk's words (see :func:`chunkwise.language.density`).

    Raises:
        ConfigError: an invalid value; the message names it and the fix.
        MissingDependencyError: ``detect_language`` or ``density`` without the ``lang``
            extra.
    """

    name: ClassVar[str] = ""
    trim_spans: ClassVar[bool] = True
    word_fallback: ClassVar[bool] = True
    balance: ClassVar[bool] = True

    chunk_size: int = 512
    chunk_overlap: int = 0
    unit: Any = "chars"
    tokenizer: Any = "cl100k_base"
    detect_language: str | None = None
    density: bool = False
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
        require_language(self.detect_language, self.density)

    # -- what a strategy supplies ------------------------------------------------------

    def levels(self, document: Document) -> Sequence[Level]:
        """Boundary levels for ``document``, strongest first (used by the default
        :meth:`parse`)."""
        return ()

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """What the strategy finds in ``document``: levels, regions, atoms, glue, labels.

        The only method a strategy must supply (the default turns :meth:`levels` into
        segments); packing and enrichment are shared. ``measure`` is the sizer's measure
        of ``document.text`` when the caller has it (the one tokenization of the
        document), for a strategy whose parse needs sizes.
        """
        return Segments(levels=tuple(self.levels(document)))

    def pack_config(self) -> PackConfig:
        """Sizes and policies for the packer (:func:`chunkwise.packer.pack_segments`)."""
        return PackConfig(
            chunk_size=self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            trim_spans=self.trim_spans,
            words=self.word_fallback,
            balance=self.balance,
            unit=self._sizer.unit,
            **self.pack_options(),
        )

    def pack_options(self) -> dict[str, Any]:
        """Extra :class:`~chunkwise.packer.PackConfig` fields (windows, overlaps, policies)."""
        return {}

    def context(self, metadata: Mapping[str, Any], span: Span) -> str:
        """The ``context`` of a chunk from its resolved metadata (default: none)."""
        return ""

    # -- the pipeline ----------------------------------------------------------------

    def spans(self, document: Document, measure: Measure) -> list[Span]:
        """Packed spans of ``document``: parse, then the one packer."""
        return pack_segments(document.text, measure, self.parse(document, measure), self.pack_config())

    # -- the public surface ------------------------------------------------------------

    @property
    def sizer(self) -> Sizer:
        """The sizer that measures chunks (its ``unit`` names what ``size`` counts)."""
        return self._sizer

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and deep-copy the configuration (the init fields) only: the sizer and
        # per-instance caches (a measured text, an embedder) are rebuilt, not copied
        return (_rebuild, (type(self), {f.name: getattr(self, f.name) for f in fields(self) if f.init}))

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document: parse -> pack -> enrich.

        Returns:
            Chunks in document order, each with ``text == document.text[start_index:
            end_index]``, no empty or whitespace-only chunk, every non-whitespace character
            of the document in some chunk, and ``size <= chunk_size`` in the unit (except a
            chunk flagged ``metadata["oversize"]``).

        Raises:
            OversizeError: an atomic unit larger than chunk_size under ``oversize="raise"``.
        """
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        segments = self.parse(doc, measure)
        spans = pack_segments(doc.text, measure, segments, self.pack_config())
        del measure  # (a token measure is about half the text's size: freed before the chunks are made)
        return build_chunks(doc, spans, self._sizer.unit, segments.labels, self._context_fn(), self._annotator(doc))

    def _context_fn(self) -> Any:
        return self.context if type(self).context is not BaseChunker.context else None

    def _annotator(self, doc: Document) -> Any:
        """Per-chunk language and density, when asked for (:func:`chunkwise.language.annotator`)."""
        if self.detect_language is None and not self.density:
            return None
        from ..language import annotator

        # source code keeps metadata["language"] for its programming language
        code = doc.metadata.get("format") == "code"
        detect = None if code else self.detect_language
        return annotator(doc.text, detect, self.density, None if code else doc.metadata.get("language"))

    def chunk_many(self, documents: Iterable[str | Document]) -> Iterator[list[Chunk]]:
        """Chunk each document in turn (one list of chunks per document)."""
        for d in documents:
            yield self.chunk(d)

    def build_chunks(self, doc: Document, spans: Sequence[Span], segments: Segments | None = None) -> list[Chunk]:
        """Chunk values for spans packed from ``segments`` (the enrichment pass,
        :func:`chunkwise.enrich.build_chunks`, with this chunker's unit and context)."""
        labels = segments.labels if segments is not None else ()
        return build_chunks(doc, spans, self._sizer.unit, labels, self._context_fn(), self._annotator(doc))

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The configuration fields and their defaults (for ``chunkwise strategies``)."""
        out = {}
        for f in fields(cls):
            if f.init and not f.name.startswith("_"):
                out[f.name] = f.default
        return out
