"""chunkwise: retrieval-ready chunks with exact offsets.

Quick use::

    import chunkwise
    chunks = chunkwise.chunk(text, strategy="recursive", chunk_size=512, unit="tokens")
    for c in chunks:
        assert c.text == text[c.start_index:c.end_index]

Importing the package loads no heavy dependency; tokenizers, numpy and parsers load when
a feature needs them.
"""

from __future__ import annotations

from .api import chunk, make_chunker
from .chunkers.base import BaseChunker
from .chunkers.fixed import FixedChunker
from .chunkers.hierarchical import HierarchicalChunker
from .chunkers.recursive import RecursiveChunker
from .chunkers.sentence import SentenceChunker
from .chunkers.structure import MarkdownChunker, SectionsChunker
from .corpus import chunk_corpus
from .embeddings import embed_chunks as embed
from .errors import ChunkwiseError, ConfigError, LoadError, MissingDependencyError, OversizeError, UnsupportedFormatError
from .evaluation import evaluate
from .loaders import load, parse
from .registry import get_strategy, strategy_names
from .sentences import SentenceSegmenter, split_sentences
from .sizers import CallableSizer, CharSizer, HFTokenizerSizer, Sizer, TiktokenSizer, WordSizer, get_sizer
from .types import Chunk, Document

__version__ = "0.1.0"

__all__ = [
    "BaseChunker",
    "CallableSizer",
    "CharSizer",
    "Chunk",
    "ChunkwiseError",
    "ConfigError",
    "Document",
    "FixedChunker",
    "HFTokenizerSizer",
    "HierarchicalChunker",
    "LoadError",
    "MarkdownChunker",
    "MissingDependencyError",
    "OversizeError",
    "RecursiveChunker",
    "SectionsChunker",
    "SentenceChunker",
    "SentenceSegmenter",
    "Sizer",
    "TiktokenSizer",
    "UnsupportedFormatError",
    "WordSizer",
    "__version__",
    "chunk",
    "chunk_corpus",
    "embed",
    "evaluate",
    "get_sizer",
    "get_strategy",
    "load",
    "make_chunker",
    "parse",
    "split_sentences",
    "strategy_names",
]
