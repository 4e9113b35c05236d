"""``wikitext``: MediaWiki text chunked along its headings, with the breadcrumb in context."""

from __future__ import annotations

from dataclasses import dataclass

from ..parsers.outline import Outline
from ..registry import register
from ..types import Document
from .structure import StructureChunker

__all__ = ["WikitextChunker"]


@register("wikitext")
@dataclass(frozen=True, kw_only=True)
class WikitextChunker(StructureChunker):
    """Chunk MediaWiki text (Wikipedia dumps, WikiText-103) along its ``= Title =`` headings.

    Headings are lines of the form ``== Section ==`` (the level is the number of ``=``;
    WikiText-103's spaced ``= = Section = =`` too: :class:`chunkwise.parsers.wikitext.WikitextParser`).
    Sections are packed as ``"markdown"`` packs them: a section never shares a chunk with
    another (unless ``merge_small_sections``), a big one is cut at paragraphs, lines,
    sentences, words; every chunk gets ``metadata["header_path"]`` and the breadcrumb
    (``"Valkyria Chronicles III > Gameplay"``) in ``chunk.context``, which is what is
    embedded with the text. A text without such headings is chunked like plain text.
    ``auto`` picks this strategy for plain text and Markdown files that are MediaWiki
    markup (:func:`chunkwise.parsers.wikitext.looks_like_wikitext`).

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker`.
        split_level, merge_small_sections, min_chunk_size, include_context_in_size,
        oversize, context_separator: as for ``"markdown"``
        (:class:`chunkwise.chunkers.structure.MarkdownChunker`).

    Raises:
        ConfigError: invalid parameters.

    Method:
        MediaWiki section syntax; header-path sections with breadcrumbs as in LangChain's
        ``MarkdownHeaderTextSplitter``, on chunkwise's one packer. The breadcrumb is what
        lifts retrieval on Wikipedia text (EVALUATION.md, "The recommended configuration").

    Example:
        >>> text = "= Owls =\\nOwls hunt at night.\\n= = Diet = =\\nMice, mostly.\\n"
        >>> [(c.text, c.context) for c in WikitextChunker(chunk_size=40).chunk(text)]
        [('= Owls =\\nOwls hunt at night.', 'Owls'), ('= = Diet = =\\nMice, mostly.', 'Owls > Diet')]
    """

    def outline(self, document: Document) -> Outline:
        from ..parsers.wikitext import WikitextParser

        return WikitextParser().parse(document.text)
