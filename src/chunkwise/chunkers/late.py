"""Late chunking: spans from any strategy, embedded from the whole document's token vectors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..enrich import with_metadata
from ..errors import ConfigError
from ..packer import PackConfig
from ..registry import register
from ..sizers import Measure
from ..segments import Segments
from ..types import Chunk, Document
from .base import BaseChunker, as_document

__all__ = ["LateChunker"]

@register("late")
@dataclass(frozen=True, kw_only=True)
class LateChunker(BaseChunker):
    """Spans from another strategy, embedded by late chunking; chunks carry ``embedding``.

    The whole document is encoded once by a transformer that gives contextual token vectors
    (``embed_tokens``; default all-MiniLM-L6-v2, numpy), in overlapping macro windows when
    it is longer than the model's window (256 word pieces for MiniLM; ``window_overlap``
    pieces shared). Each chunk's vector is the mean of the vectors of the tokens inside its
    span (L2-normalised), so it carries context from outside the chunk.

    Args:
        base_strategy: the strategy that supplies the spans (default ``"sentence"``).
        base_params: its own parameters (a mapping), besides size, overlap and unit.
        model: an embedder with ``embed_tokens`` (default ``"minilm"``).
        window_overlap: word pieces shared by consecutive macro windows.

    Raises:
        ConfigError: the model has no token-level output.
        MissingDependencyError: the model's files or extra are missing.

    Method:
        Günther et al. 2024, "Late Chunking: Contextual Chunk Embeddings Using
        Long-Context Embedding Models", arXiv:2409.04701 (long late chunking with macro
        chunks, section 3.1).
    """

    base_strategy: str = "sentence"
    base_params: Mapping[str, Any] | None = None
    model: Any = "minilm"
    window_overlap: int = 64
    _emb: list[Any] = field(init=False, repr=False, compare=False, default_factory=list)
    _base: list[Any] = field(init=False, repr=False, compare=False, default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.base_strategy in ("late",):
            raise ConfigError("base_strategy cannot be 'late'; choose e.g. 'sentence' or 'recursive'")
        self.base  # noqa: B018 - builds the base chunker: its configuration errors surface here
        if isinstance(self.window_overlap, bool) or not isinstance(self.window_overlap, int) or self.window_overlap < 0:
            raise ConfigError(f"window_overlap ({self.window_overlap!r}) must be an integer >= 0 (word pieces)")

    @property
    def embedder(self) -> Any:
        """The token-vector model (built on first use).

        Raises:
            ConfigError: the model gives no token vectors.
        """
        if not self._emb:
            from ..embeddings import get_embedder

            emb = get_embedder(self.model)
            if not hasattr(emb, "embed_tokens"):
                raise ConfigError(f"model {emb.name!r} gives no token vectors; late chunking needs one like 'minilm'")
            self._emb.append(emb)
        return self._emb[0]

    @property
    def base(self) -> BaseChunker:
        """The chunker of ``base_strategy`` with this size, overlap and unit (built once)."""
        if not self._base:
            from ..api import make_chunker

            self._base.append(
                make_chunker(
                    self.base_strategy,
                    chunk_size=self.chunk_size,
                    chunk_overlap=self.chunk_overlap,
                    unit=self.unit,
                    tokenizer=self.tokenizer,
                    # chunk metadata read from the text (language, density): this chunker's
                    **{"detect_language": self.detect_language, "density": self.density, **dict(self.base_params or {})},
                )
            )
        return self._base[0]

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """The base strategy's segments: late chunking changes embeddings, not spans."""
        return self.base.parse(document, measure)

    def pack_config(self) -> PackConfig:
        """The base strategy's packing configuration."""
        return self.base.pack_config()

    def chunk(self, document: str | Document) -> list[Chunk]:
        """The base strategy's chunks, each with its late-chunking ``embedding``.

        Raises:
            ConfigError: the model gives no token vectors.
            MissingDependencyError: the model's files or extra are missing.
        """
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        return self.embed_chunks(doc, self.base.chunk(doc))

    def embed_chunks(self, doc: Document, chunks: list[Chunk]) -> list[Chunk]:
        """``chunks`` of ``doc`` with ``embedding`` set: the mean of the contextual vectors
        of the tokens inside each chunk's span, L2-normalised (the enrichment step of late
        chunking); ``metadata`` gains ``embedding_model`` and ``late``."""
        import numpy as np

        from ..embeddings._common import l2_normalize

        emb = self.embedder
        vecs, offs = emb.embed_tokens(doc.text, window_overlap=self.window_overlap)
        out = np.zeros((len(chunks), vecs.shape[1]), dtype=np.float32)
        starts, ends = offs[:, 0], offs[:, 1]
        missing = []
        for k, c in enumerate(chunks):
            lo = int(np.searchsorted(starts, c.start_index, "left"))
            hi = int(np.searchsorted(ends, c.end_index, "right"))
            if hi > lo:
                out[k] = vecs[lo:hi].mean(0)
            else:
                missing.append(k)
        if missing:  # a span with no whole token inside (rare): embed it on its own
            out[missing] = emb.embed([chunks[k].text for k in missing])
        out = l2_normalize(out)
        late = with_metadata(chunks, {"embedding_model": emb.name, "late": True})
        for k, c in enumerate(late):  # new values that nothing else holds yet
            object.__setattr__(c, "embedding", out[k])
        return late
