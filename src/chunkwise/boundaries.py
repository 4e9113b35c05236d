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
    "HARD_LINE",
    "LINE",
    "PARAGRAPH",
    "WORD",
    "FunctionLevel",
    "Level",
    "PositionsLevel",
    "RegexLevel",
    "closing_punctuation",
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

# What may end a line that the writer broke on purpose (not a wrap of running prose).
_LINE_FINAL = frozenset(".!?:;\u3002\uff01\uff1f\u2026\"'\u201d\u2019)]\u00bb|`*_-=")
# What may start a line that begins something new: a list marker, a quote, a table row,
# a heading, a numbered item.
_LINE_OPENER = re.compile(r"[-*+\u2022>|#]|\d{1,3}[.)]\s|[A-Za-z][.)]\s")
_SHORT_LINE = 40  # characters: shorter lines (titles, addresses, verse) are broken on purpose


@dataclass(frozen=True)
class HardLineLevel:
    """Line breaks that a writer meant: after sentence-final punctuation, before a list
    marker, a quote, a table row or an indented line, or after a short line.

    The other line breaks wrap running prose; they are weaker than a sentence end (the
    plain :data:`LINE` level, placed below sentences, still has them).
    """

    name: str = "line"
    windowable = True

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for m in LINE.pattern.finditer(text, start, end):
            a, b = m.span()
            if not (start < a and b < end):
                continue
            j = a
            while j > start and text[j - 1] in " \t\r":
                j -= 1
            if (
                (j > start and text[j - 1] in _LINE_FINAL)
                or text[b - 1] != "\n"  # the next line is indented
                or _LINE_OPENER.match(text, b) is not None
                or j - (text.rfind("\n", 0, j) + 1) < _SHORT_LINE
            ):
                yield a, b


HARD_LINE = HardLineLevel()


def separator_level(separator: str | re.Pattern[str], keep_separator: Literal["start", "end"] = "start") -> RegexLevel:
    """A level for a user separator: a literal string, or a compiled regular expression.

    Raises:
        ValueError: an empty separator (use the engine's character fallback instead).
    """
    if isinstance(separator, re.Pattern):
        return RegexLevel(f"regex:{separator.pattern}", separator, keep_separator)
    if not separator:
        raise ValueError("an empty separator cuts nowhere; the character fallback is built in")
    if closing_punctuation(separator):
        keep_separator = "end"  # a full stop or comma never starts the next chunk
    return RegexLevel(f"separator:{separator!r}", re.compile(re.escape(separator)), keep_separator)


def closing_punctuation(separator: str) -> bool:
    """Whether a separator is punctuation that closes what comes before it: its
    non-whitespace characters are all Unicode ``Terminal_Punctuation`` (``. , ; : ! ?``,
    ``。 ， 、``, ``।``, ...) or closing quotes and brackets. Such a separator stays with
    the text before it whatever ``keep_separator`` says."""
    import regex

    core = separator.strip()
    return bool(core) and regex.fullmatch(r"[\p{Terminal_Punctuation}\p{Pe}\p{Pf}]+", core) is not None
