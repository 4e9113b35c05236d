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

import importlib as _importlib
import importlib.util as _importlib_util
import typing as _typing

from .api import chunk, make_chunker
from .chunkers.base import BaseChunker
from .chunkers.fixed import FixedChunker
from .chunkers.hierarchical import HierarchicalChunker
from .chunkers.recursive import RecursiveChunker
from .chunkers.sentence import SentenceChunker
from .chunkers.structure import MarkdownChunker, SectionsChunker
from .corpus import chunk_corpus
from .errors import ChunkwiseError, ConfigError, LoadError, MissingDependencyError, OversizeError, UnsupportedFormatError
from .loaders import load, parse
from .registry import get_strategy, strategy_names
from .sentences import SentenceSegmenter, split_sentences
from .sizers import CallableSizer, CharSizer, HFTokenizerSizer, Sizer, TiktokenSizer, WordSizer, get_sizer
from .types import Chunk, Document

if _typing.TYPE_CHECKING:
    from .embeddings import embed_chunks as embed
    from .evaluation import evaluate

# Names whose modules ``chunkwise chunk`` does not need: they load on first use
# (PEP 562), so that importing the package stays quick. Name -> (module, attribute).
_LAZY: dict[str, tuple[str, str]] = {
    "embed": ("chunkwise.embeddings", "embed_chunks"),
    "evaluate": ("chunkwise.evaluation", "evaluate"),
}

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


def __getattr__(name: str) -> _typing.Any:
    """Load a lazy name of ``__all__`` (see ``_LAZY``) or a subpackage such as
    ``chunkwise.embeddings`` on first access; the value is then cached in the module."""
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(_importlib.import_module(module), attr)
    elif not name.startswith("_") and _importlib_util.find_spec(f"{__name__}.{name}") is not None:
        value = _importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
