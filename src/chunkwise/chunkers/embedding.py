"""The base of the strategies that embed sentences (``semantic``, ``semantic_cluster``).

An :class:`EmbeddingChunker` splits a document into sentences, embeds them and hands the
packer sentence groups with scored cuts (:meth:`EmbeddingChunker.parse`); the shared
packer (:func:`chunkwise.packer.pack_segments`) sizes them and the enrichment pass turns
the similarity labels into ``metadata["boundary_similarity"]``. :meth:`analyze` exposes
every step for ``chunkwise inspect``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ConfigError
from ..parsers.semantic import SemanticAnalysis, buffered_vectors, line_feed_document, make_embedder
from ..segments import Segments
from ..sentences import split_sentences
from ..sizers import Measure
from ..types import Document
from .base import BaseChunker, as_document

__all__ = ["EmbeddingChunker"]


@dataclass(frozen=True, kw_only=True)
class EmbeddingChunker(BaseChunker):
    """Common fields of the strategies that embed sentences.

    Args:
        model: embedder (name, path, callable or object; see
            :func:`chunkwise.embeddings.get_embedder`); default: the offline default model.
        cache: an :class:`~chunkwise.embeddings.EmbeddingCache` or a SQLite path.
        buffer_size: sentences on each side embedded with each sentence (0: none).
        batch_size: texts per embedding batch (default: the embedder's).

    Raises:
        ConfigError: an invalid value; the message names it and the fix.
    """

    model: Any = None
    cache: Any = None
    buffer_size: int = 0
    batch_size: int | None = None
    _emb: list[Any] = field(init=False, repr=False, compare=False, default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.buffer_size, bool) or not isinstance(self.buffer_size, int) or self.buffer_size < 0:
            raise ConfigError(f"buffer_size ({self.buffer_size!r}) must be an integer >= 0 (sentences on each side)")
        if self.batch_size is not None and (
            isinstance(self.batch_size, bool) or not isinstance(self.batch_size, int) or self.batch_size <= 0
        ):
            raise ConfigError(f"batch_size ({self.batch_size!r}) must be a positive integer")

    @property
    def embedder(self) -> Any:
        """The embedder (built on first use from ``model`` and ``cache``)."""
        if not self._emb:
            self._emb.append(make_embedder(self.model, self.cache, self.batch_size))
        return self._emb[0]

    @property
    def budget(self) -> int:
        """The size packed before overlap: ``chunk_size - chunk_overlap`` (in the unit)."""
        return self.chunk_size - self.chunk_overlap

    def sentence_vectors(self, text: str, sentences: list[tuple[int, int]]) -> Any:
        """Unit vectors of each sentence with ``buffer_size`` neighbours on each side
        (see :func:`chunkwise.parsers.semantic.buffered_vectors`)."""
        return buffered_vectors(self.embedder, text, sentences, self.buffer_size)

    # -- the pipeline --------------------------------------------------------------------

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Sentence groups, scored sentence cuts and similarity labels of ``document``
        (sized with ``measure``, the caller's measure of its text, when given).

        Raises:
            MissingDependencyError: numpy or the model's extra is not installed.
        """
        doc = as_document(document)
        return self.analyze_segments(doc, measure or self._sizer.measure(doc.text))[0]

    def analyze_segments(self, doc: Document, measure: Measure) -> tuple[Segments, SemanticAnalysis]:
        """The segments of ``doc`` and what was seen on the way (no spans yet).

        Subclasses implement :meth:`segments_of`; this splits sentences and handles the
        empty case. A text whose lines end with a lone carriage return is read as its
        line-feed twin (same offsets), as the packer packs it
        (:func:`~chunkwise.parsers.semantic.line_feed_document`); the twin goes to the
        packer in ``Segments.twin``.

        Args:
            doc: the document.
            measure: the sizer's measure of ``doc.text`` (group sizes, the floor).
        """
        import numpy as np

        read = line_feed_document(doc)
        sents = split_sentences(read.text)
        if not sents:
            return Segments(regions=()), SemanticAnalysis([], np.zeros(0, dtype=np.float32), float("nan"), [])
        segs, analysis = self.segments_of(read, measure, sents)
        return (segs, analysis) if read is doc else (replace(segs, twin=read.text), analysis)

    def segments_of(
        self, doc: Document, measure: Measure, sents: list[tuple[int, int]]
    ) -> tuple[Segments, SemanticAnalysis]:
        """Segments for a document with at least one sentence (strategy-specific)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def analyze(self, document: str | Document) -> SemanticAnalysis:
        """Sentences, similarity curve, threshold, cuts, packed spans and their metadata.

        ``build_chunks(doc, a.spans, a.segments)`` gives the same chunks as
        :meth:`chunk` (``chunkwise inspect`` shows them with the curve).

        Raises:
            MissingDependencyError: numpy or the model's extra is not installed.
        """
        from ..enrich import resolve_labels
        from ..packer import pack_segments

        doc = as_document(document)
        measure = self._sizer.measure(doc.text)
        segs, analysis = self.analyze_segments(doc, measure)
        if analysis.sentences:
            spans = pack_segments(doc.text, measure, segs, self.pack_config())
            analysis.spans = spans
            analysis.metadata = resolve_labels(segs.labels, spans)
        analysis.segments = segs
        return analysis
