"""The structure a parser finds in a text: headings and blocks, as exact offsets."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["NEWLINE", "Block", "Heading", "Outline", "line_starts"]

# The line breaks CommonMark recognises (and markdown-it normalises): CRLF, CR, LF.
NEWLINE = re.compile(r"\r\n?|\n")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading: ``level`` 1 (strongest) and up, its plain-text ``title``, and the
    half-open ``[start, end)`` character span of the heading's lines in the text."""

    level: int
    title: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Block:
    """A block of the document: ``kind`` ("paragraph", "fence", "code", "table", "list",
    "blockquote", "hr", "html", "front_matter", ...), its ``[start, end)`` character span
    (line starts), ``depth`` (0: top level; nested blocks are listed only when atomic
    or headings) and, for atomic blocks, where they may be cut
    when too big: ``cuts`` (character offsets, sorted) and ``header`` (the span of a
    table's header rows and separator, repeated as context), ``info`` (a fence's info
    string, such as the language), ``table`` (a table's
    :class:`~chunkwise.parsers.table.Table`: rows and cells)."""

    kind: str
    start: int
    end: int
    depth: int = 0
    info: str = ""
    cuts: tuple[int, ...] = ()
    header: tuple[int, int] | None = None
    table: Any = None

    @property
    def atomic(self) -> bool:
        """Code and tables: kept whole while they fit the budget."""
        return self.kind in ("fence", "code", "table")


@dataclass(frozen=True, slots=True)
class Outline:
    """What a parser found: headings and blocks in document order (offsets into the
    original text), the parsed front matter (``front_matter`` span and ``metadata``) and
    the ``[start, end)`` spans of list items with their sub-items (``item_spans``, in
    document order; nested items follow their parent)."""

    headings: Sequence[Heading] = ()
    blocks: Sequence[Block] = ()
    front_matter: tuple[int, int] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    item_spans: Sequence[tuple[int, int]] = ()

    @property
    def items(self) -> list[int]:
        """The starts of the list items, sorted."""
        return sorted(s for s, _ in self.item_spans)


def line_starts(text: str) -> array:
    """Offsets of the start of every line (CRLF, CR and LF all end a line), plus
    ``len(text)`` as the start of the line after the last."""
    out = array("q", [0])
    out.extend(m.end() for m in NEWLINE.finditer(text))
    if out[-1] != len(text):
        out.append(len(text))
    return out


def line_of(starts: Sequence[int], offset: int) -> int:
    """The index of the line holding ``offset``."""
    return bisect_right(starts, offset) - 1
