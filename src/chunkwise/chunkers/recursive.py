"""Recursive separator splitting: the field's default chunker, with exact offsets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..boundaries import HARD_LINE, LINE, PARAGRAPH, WORD, Level, PositionsLevel, RegexLevel, separator_level
from ..errors import ConfigError
from ..registry import register
from ..segments import Label, Region, Segments
from ..sentences import SentenceSegmenter
from ..sizers import Measure
from ..titles import ends_with_title
from ..types import Document
from .base import BaseChunker

__all__ = ["CLAUSE", "DEFAULT_LEVELS", "PAGE", "RECORD", "RecursiveChunker", "jsonl_segments"]

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

    JSON Lines (a document of format ``"jsonl"``: a ``.jsonl`` or ``.ndjson`` file that
    is not a chat), with the default separators: every line is a record, never cut while
    it fits; records are packed whole, several a chunk, cuts between lines. A record
    larger than ``chunk_size`` is packed on its own (it starts a chunk, and the records
    after it start the next) and cut between its top-level members, then between nested
    members, then sentences and words (see :func:`jsonl_segments`). Every piece of such a
    record after its first has the record's first top-level member, as written (such as
    ``"sku": "A-17"``), in ``context``, when that member is at most a quarter of
    ``chunk_size`` (not counted in it); other chunks have no context.

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
        if self.separators is None and document.metadata.get("format") == "jsonl":
            return jsonl_segments(document.text, self.chunk_size, self.chunk_overlap, self.sizer, measure)
        return Segments(levels=tuple(self.levels(document)))


# JSON Lines: a line break (and the blank lines after it) between two records
RECORD = RegexLevel("record", re.compile(r"\n\s*"), whitespace=True, anchor="\n")
_RECORD_TEXT = re.compile(r"[^\r\n]+")
# the text up to the next bracket or comma outside strings (strings and other text
# consumed, never backtracked: the group always matches); a quote in the group opens a
# string that the line does not close
_JSON_STEP = re.compile(r'(?:"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[^"\[\]{},\n]+)*([\[\]{},"\n]|$)')
_RECORD_LEVELS: tuple[Level, ...] = (RECORD,)


def jsonl_segments(text: str, chunk_size: int, chunk_overlap: int, sizer: Any, measure: Measure | None) -> Segments:
    """The segments of a JSON Lines text: every line a record.

    Records are never cut while they fit: the only level between records is the line
    break (``"record"``). A record larger than the budget (``chunk_size - chunk_overlap``)
    is a region of its own: one that fits ``chunk_size`` is packed whole (no overlap
    reaches into it); a larger one starts a chunk and is cut at its commas between
    members and array items, those of the record's top-level object or array first
    (``"member"``), then deeper ones (``"nested_member"``), then sentences and words. The
    records between them are regions too, so that no chunk holds a part of a record cut
    with other records. A line that is not JSON is a record all the same (its commas
    outside quotes are its members).

    A record cut in pieces (an object or array larger than ``chunk_size``) has a label
    ``"context"`` (rule ``"continued"``): its first top-level member or item, as written,
    is the ``context`` of every piece after its first, when it fits a quarter of
    ``chunk_size``."""
    from .table import size_bound

    budget = chunk_size - chunk_overlap
    bound = size_bound(sizer, text)

    def exact(s: int, e: int) -> int:
        return measure.exact(s, e) if measure is not None else sizer.count(text[s:e])

    big: list[tuple[int, int, int]] = []  # start, end, reserve
    top: list[tuple[int, int]] = []
    inner: list[tuple[int, int]] = []
    labels: list[Label] = []
    for m in _RECORD_TEXT.finditer(text):
        s, e = m.span()
        if bound(s, e) <= budget:
            continue
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e and bound(s, e) > budget and (size := exact(s, e)) > budget:
            big.append((s, e, -chunk_overlap if size <= chunk_size else 0))
            if size > chunk_size:
                _member_cuts(text, s, e, top, inner)
                first = _first_member(text, s, e)
                if first is not None and sizer.count(first) <= chunk_size // 4:
                    labels.append(Label(s, e, "context", first, "continued"))
    if not big:
        return Segments(levels=_RECORD_LEVELS)
    words = (SentenceSegmenter(), WORD)
    inside = tuple(
        PositionsLevel(name, [a for a, _ in cuts], [b for _, b in cuts])
        for name, cuts in (("member", top), ("nested_member", inner))
        if cuts
    ) + words
    n = len(text)
    regions: list[Region] = []
    pos = 0
    for s, e, reserve in big:
        if text[pos:s].strip():
            regions.append(Region(pos, s, end_boundary="record", levels=_RECORD_LEVELS, level=-1))
            pos = s
        regions.append(Region(pos, e, reserve, end_boundary="record", levels=inside, level=-1))
        pos = e
    if text[pos:].strip():
        regions.append(Region(pos, n, levels=_RECORD_LEVELS, level=-1))
    else:
        last = regions[-1]
        regions[-1] = Region(last.start, n, last.reserve, levels=last.levels, level=-1)
    return Segments(levels=_RECORD_LEVELS, regions=tuple(regions), labels=tuple(labels))


def _first_member(text: str, start: int, end: int) -> str | None:
    """The first top-level member (or item) of the object (or array) record
    ``[start, end)``, as written, spaces trimmed: the text from after its opening bracket
    to its first comma at depth 1; None for a record that is not an object or array, or
    whose first member does not end with such a comma."""
    if text[start] not in "{[":
        return None
    depth = 0
    for m in _JSON_STEP.finditer(text, start, end):
        c = m.group(1)
        if c == ",":
            if depth == 1:
                member = text[start + 1 : m.start(1)].strip()
                return member or None
            if depth < 1:
                return None
        elif c == "[" or c == "{":
            depth += 1
        elif c == "]" or c == "}":
            depth -= 1
            if depth < 1:
                return None
        else:  # (a string left open, a line break, or the end)
            return None
    return None


def _member_cuts(text: str, start: int, end: int, top: list[tuple[int, int]], inner: list[tuple[int, int]]) -> None:
    """The cuts after each comma of the record ``[start, end)`` that is outside strings:
    to ``top`` those at depth 1 (between the record's own members or items), to ``inner``
    the deeper ones. A cut ends a piece after the comma and starts the next after the
    spaces that follow it."""
    depth = 0
    for m in _JSON_STEP.finditer(text, start, end):
        c = m.group(1)
        if c == ",":
            a = m.end()
            b = a
            while b < end and text[b].isspace():
                b += 1
            if b < end:
                (top if depth <= 1 else inner).append((a, b))
        elif c == "[" or c == "{":
            depth += 1
        elif c == "]" or c == "}":
            depth -= 1
        elif c != "\n":  # (a string left open, or the end: no structure after it)
            break
