"""Recursive separator splitting: the field's default chunker, with exact offsets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..boundaries import HARD_LINE, LINE, PARAGRAPH, WORD, Level, RegexLevel, separator_level
from ..errors import ConfigError
from ..registry import register
from ..sentences import SentenceSegmenter
from ..titles import ends_with_title
from ..types import Document
from .base import BaseChunker

__all__ = ["CLAUSE", "DEFAULT_LEVELS", "PAGE", "RecursiveChunker"]

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
