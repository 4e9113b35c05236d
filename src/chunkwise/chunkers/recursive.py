"""Recursive separator splitting: the field's default chunker, with exact offsets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..boundaries import HARD_LINE, LINE, PARAGRAPH, WORD, Level, RegexLevel, separator_level
from ..errors import ConfigError
from ..registry import register
from ..segments import Segments
from ..sizers import Measure
from ..sentences import SentenceSegmenter
from ..titles import ends_with_title
from ..types import Document
from .base import BaseChunker

__all__ = ["CLAUSE", "DEFAULT_LEVELS", "PAGE", "RecursiveChunker", "with_heading_glue"]

# CJK clause punctuation: a cut after it (CJK text has no spaces to fall back on)
CLAUSE = RegexLevel("clause", re.compile(r"[，、；：,;](?!\s)"), keep_separator="end")
# A form feed: a page break (pdftotext and most PDF-to-text tools write one per page)
PAGE = RegexLevel("page", re.compile(r"\s*\f\s*"), whitespace=True)
# A paragraph break right after a title (a heading-like paragraph, see chunkwise.titles)
# ends a chunk only when no other paragraph break permits: a chunk starts with its title.
DEFAULT_LEVELS: tuple[Level, ...] = (
    PAGE, replace(PARAGRAPH, avoid=ends_with_title), HARD_LINE, SentenceSegmenter(), LINE, CLAUSE, WORD
)


@register("recursive")
@dataclass(frozen=True, kw_only=True)
class RecursiveChunker(BaseChunker):
    """Split on the first separator, merge neighbouring pieces while they fit, and split
    again, with the next separator, only the pieces that are too big.

    Args:
        separators: ordered separators, strongest first: literal strings, or compiled
            regular expressions (``re.compile(...)``). Default: form feed (page break),
            blank line (paragraph), a
            line break the writer meant (after sentence-final punctuation, before a list
            marker or an indented line, after a short line), sentence end (every script's
            terminators: Unicode ``Sentence_Terminal``, see :mod:`chunkwise.sentences`),
            any other line break (a wrap inside running prose), CJK clause
            punctuation, space; then grapheme clusters always. ``""`` in the list means
            "characters" and is implied.
        keep_separator: where a separator that is not whitespace goes: ``"start"`` of the
            next chunk (default) or ``"end"`` of the previous one. Whitespace separators
            are trimmed away from both, and a separator made of closing punctuation
            (``"."``, ``"。"``, ``","``, ...) always stays at the end of the text before it.

    Every chunk fits ``chunk_size`` (a hard cap): a piece no separator can split is cut at
    grapheme cluster boundaries.

    In a document loaded from Markdown or HTML (or another format read as Markdown), each
    heading stays with the start of its section: no chunk ends with a heading, or is a
    heading alone, while its section's text fits after it (:func:`with_heading_glue`).
    A plain string is split as before.

    Method:
        LangChain's ``RecursiveCharacterTextSplitter``, with offsets produced while
        splitting (never searched for afterwards) and the shared merge engine.

    Example:
        >>> text = "One two.\\n\\nThree four five six."
        >>> [c.text for c in RecursiveChunker(chunk_size=12).chunk(text)]
        ['One two.', 'Three four', 'five six.']
    """

    separators: Sequence[str | re.Pattern[str]] | None = None
    keep_separator: Literal["start", "end"] = "start"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.keep_separator not in ("start", "end"):
            raise ConfigError(f"keep_separator must be 'start' or 'end', not {self.keep_separator!r}")
        if self.separators is not None:
            if isinstance(self.separators, (str, re.Pattern)):
                raise ConfigError("separators must be a list of strings or compiled patterns, not a single one")
            levels = tuple(
                separator_level(sep, self.keep_separator) for sep in self.separators if not (isinstance(sep, str) and sep == "")
            )
        else:
            levels = DEFAULT_LEVELS
        object.__setattr__(self, "_levels", levels)

    def levels(self, document: Document) -> Sequence[Level]:
        return self._levels  # type: ignore[attr-defined,no-any-return]

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """The separator levels; in a document loaded from Markdown or HTML, with the glue
        that keeps each heading with the start of its section (:func:`with_heading_glue`)."""
        return with_heading_glue(document, super().parse(document, measure), self.word_fallback)


def with_heading_glue(document: Document, segs: Segments, words: bool) -> Segments:
    """``segs`` with the glue of each heading to the start of its body
    (:func:`~chunkwise.parsers.semantic.heading_glue`), for a document whose format is
    Markdown or HTML (or another format loaded as Markdown): no chunk then ends with a
    heading, or is a heading alone, while its section's text fits after it. Levels keep
    their ``avoid`` rule, and with ``words`` the word level is guarded too, as in the
    hierarchical strategy. ``segs`` itself for any other document (a plain string)."""
    from ..parsers.semantic import heading_glue

    if not getattr(document, "metadata", None):
        return segs
    glue = heading_glue(document if segs.twin is None else replace(document, text=segs.twin))
    if not glue:
        return segs
    from .hierarchical import _with_glue

    return _with_glue(segs, glue, words)
