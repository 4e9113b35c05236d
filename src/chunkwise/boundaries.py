"""Boundary levels: where a text may be cut, and how strong each cut is.

A strategy answers one question -- where are the boundaries in this text, and how strong
is each -- as an ordered list of :class:`Level` objects, strongest first (a heading, a
paragraph break, a line break, a sentence end, a space). The merge engine
(:mod:`chunkwise.merge`) packs the text into chunks with them.

A level yields *cuts* ``(a, b)`` inside a span: the piece before the cut ends at ``a``,
the piece after it begins at ``b`` (``a <= b``); ``text[a:b]`` is dropped only if it is
whitespace (a separator that is not whitespace stays in a piece).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = [
    "LINE",
    "PARAGRAPH",
    "WORD",
    "FunctionLevel",
    "Level",
    "PositionsLevel",
    "RegexLevel",
    "separator_level",
]


class Level(Protocol):
    """A kind of boundary. ``name`` is recorded in ``chunk.metadata["boundary"]``."""

    name: str

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """Cuts ``(a, b)`` with ``start < a`` and ``b < end``, in order."""
        ...


@dataclass(frozen=True)
class RegexLevel:
    """Cuts at the matches of a regular expression.

    Args:
        name: the boundary kind ("paragraph", "line", ...).
        pattern: compiled pattern; each match is a separator.
        keep_separator: where a separator that is not whitespace goes: to the start of the
            next piece (``"start"``, the default) or the end of the previous one (``"end"``).
            Whitespace separators are dropped from both.
    """

    name: str
    pattern: re.Pattern[str]
    keep_separator: Literal["start", "end"] = "start"
    whitespace: bool = False  # every match is whitespace (no need to look at it)
    windowable = True  # a match means the same wherever the search starts

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        if self.whitespace:
            for m in self.pattern.finditer(text, start, end):
                a, b = m.span()
                if start < a and b < end:
                    yield a, b
            return
        keep_end = self.keep_separator == "end"
        for m in self.pattern.finditer(text, start, end):
            a, b = m.span()
            if a == b and (a <= start or a >= end):
                continue
            if not text[a:b].isspace():
                a = b = (b if keep_end else a)
            if start < a and b < end:
                yield a, b


@dataclass(frozen=True)
class PositionsLevel:
    """Cuts at precomputed positions (a parser found them once for the whole document).

    ``positions`` are sorted ``(a, b)`` pairs.
    """

    name: str
    starts: Sequence[int]
    ends: Sequence[int]
    windowable = True

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        i = bisect_right(self.starts, start)
        j = bisect_left(self.starts, end)
        for k in range(i, j):
            b = self.ends[k]
            if b < end:
                yield self.starts[k], b


@dataclass(frozen=True)
class FunctionLevel:
    """Cuts from a function ``(text, start, end) -> iterator of (a, b)`` (a segmenter)."""

    name: str
    function: Callable[[str, int, int], Iterator[tuple[int, int]]]

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for a, b in self.function(text, start, end):
            if start < a and b < end:
                yield a, b


# A blank line: a line break, a line holding only spaces or tabs, a line break; the whole
# whitespace run around it is the separator. Written without nested quantifiers over the
# same characters, so long whitespace runs stay linear.
PARAGRAPH = RegexLevel("paragraph", re.compile(r"\n[^\S\n]*\n\s*"), whitespace=True)
LINE = RegexLevel("line", re.compile(r"\n\s*"), whitespace=True)
WORD = RegexLevel("word", re.compile(r"\s+"), whitespace=True)


def separator_level(separator: str | re.Pattern[str], keep_separator: Literal["start", "end"] = "start") -> RegexLevel:
    """A level for a user separator: a literal string, or a compiled regular expression.

    Raises:
        ValueError: an empty separator (use the engine's character fallback instead).
    """
    if isinstance(separator, re.Pattern):
        return RegexLevel(f"regex:{separator.pattern}", separator, keep_separator)
    if not separator:
        raise ValueError("an empty separator cuts nowhere; the character fallback is built in")
    return RegexLevel(f"separator:{separator!r}", re.compile(re.escape(separator)), keep_separator)
