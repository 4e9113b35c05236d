"""Boundary levels: where a text may be cut, and how strong each cut is.

A strategy answers one question -- where are the boundaries in this text, and how strong
is each -- as an ordered list of :class:`Level` objects, strongest first (a heading, a
paragraph break, a line break, a sentence end, a space). The merge engine
(:mod:`chunkwise.merge`) packs the text into chunks with them.

A level yields *cuts* ``(a, b)`` inside a span: the piece before the cut ends at ``a``,
the piece after it begins at ``b`` (``a <= b``); ``text[a:b]`` is dropped only if it is
whitespace (a separator that is not whitespace stays in a piece). A level may also give
the same cuts last first (``cuts_reversed``): the engine looks for the last cut that fits
a budget, and reading back from the budget stops at the first one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "HARD_LINE",
    "LINE",
    "PARAGRAPH",
    "WORD",
    "FilteredLevel",
    "FunctionLevel",
    "Level",
    "PositionsLevel",
    "RegexLevel",
    "closing_punctuation",
    "line_feed_twin",
    "separator_level",
]


class Level(Protocol):
    """A kind of boundary. ``name`` is recorded in ``chunk.metadata["boundary"]``."""

    name: str

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """Cuts ``(a, b)`` with ``start < a`` and ``b < end``, in order."""
        ...


# Optional, on a level: ``cuts_reversed(text, start, end)``, the cuts of ``cuts(text,
# start, end)`` last first (an iterable). The engine uses it where it searches back.


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
    anchor: str = ""  # a character every match holds (found from the pattern when not given)
    # ``avoid(text, a)``: a cut the packer takes as a chunk's end only when no other cut
    # of the level permits (a paragraph break right after a title); read at the chosen
    # cut only, so searching the level stays fast
    avoid: Callable[[str, int], bool] | None = None
    windowable = True  # a match means the same wherever the search starts

    def __post_init__(self) -> None:
        if not self.anchor:
            object.__setattr__(self, "anchor", required_character(self.pattern))

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        if self.whitespace:
            scan = start
            if self.anchor:
                # no match before the first anchor's whitespace run: skip there (a
                # pattern that starts with ``\s*`` is slow to scan)
                k = text.find(self.anchor, start, end)
                if k < 0:
                    return
                scan = _run_start(text, k, start)
            for m in self.pattern.finditer(text, scan, end):
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

    def cuts_reversed(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        if not self.whitespace:
            if self.pattern.search(text, start, end) is None:
                return []
            out = list(self.cuts(text, start, end))
            out.reverse()
            return out
        # matches do not overlap and are not empty: only the first can start at
        # ``start`` and only the last can end at ``end``
        scan = start
        if self.anchor:
            k = text.find(self.anchor, start, end)
            if k < 0:
                return []
            scan = _run_start(text, k, start)
        spans = [m.span() for m in self.pattern.finditer(text, scan, end)]
        if spans:
            if spans[-1][1] >= end:
                spans.pop()
            if spans and spans[0][0] <= start:
                del spans[0]
            spans.reverse()
        return spans


def _run_start(text: str, k: int, start: int) -> int:
    """Start of the whitespace run that holds ``k`` (not before ``start``). A match made
    of whitespace that holds a character found first at ``k`` starts there or later."""
    while k > start and text[k - 1].isspace():
        k -= 1
    return k


def required_character(pattern: re.Pattern[str]) -> str:
    """A character that every match of ``pattern`` holds, or ``""`` when none is sure: a
    literal the pattern always consumes (outside alternatives, optional parts and
    lookarounds). ``text.find`` finds it far faster than the pattern's own search, so a
    span without it is known to hold no match at once."""
    if not isinstance(pattern.pattern, str) or pattern.flags & re.IGNORECASE:
        return ""
    try:
        from re import _parser as parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import sre_parse as parser  # type: ignore[no-redef]
    try:
        items = parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # a private module: when it changes, no shortcut
        return ""

    def required(seq: Any) -> str:
        for op, av in seq:
            if op is parser.LITERAL:
                return chr(av)
            if op is parser.SUBPATTERN:
                found = required(av[-1])
            elif op in (parser.MAX_REPEAT, parser.MIN_REPEAT) and av[0] >= 1:
                found = required(av[2])
            else:
                continue
            if found:
                return found
        return ""

    try:
        return required(items)
    except Exception:
        return ""


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

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        i = bisect_right(self.starts, start)
        j = bisect_left(self.starts, end)
        starts, ends = self.starts, self.ends
        for k in range(j - 1, i - 1, -1):
            b = ends[k]
            if b < end:
                yield starts[k], b


@dataclass(frozen=True)
class FunctionLevel:
    """Cuts from a function ``(text, start, end) -> iterator of (a, b)`` (a segmenter)."""

    name: str
    function: Callable[[str, int, int], Iterator[tuple[int, int]]]

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for a, b in self.function(text, start, end):
            if start < a and b < end:
                yield a, b


@dataclass(frozen=True)
class FilteredLevel:
    """The cuts of ``level`` that ``keep(text, a, b)`` accepts (a rule read at each cut,
    such as "not right after a title").

    It keeps what makes ``level`` fast to search: its anchor character, its windows, and
    its cuts read last first, so ``keep`` runs only on the cuts a search reaches (one or
    two per chunk) rather than on every cut of a window.
    """

    level: Level
    keep: Callable[[str, int, int], bool]
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.level.name)
        object.__setattr__(self, "windowable", getattr(self.level, "windowable", False))
        object.__setattr__(self, "anchor", getattr(self.level, "anchor", ""))
        # (the level's rule against some cuts, "not right after a title", holds here too)
        object.__setattr__(self, "avoid", getattr(self.level, "avoid", None))

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        keep = self.keep
        for a, b in self.level.cuts(text, start, end):
            if keep(text, a, b):
                yield a, b

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        backward = getattr(self.level, "cuts_reversed", None)
        found = backward(text, start, end) if backward is not None else reversed(list(self.level.cuts(text, start, end)))
        keep = self.keep
        for a, b in found:
            if keep(text, a, b):
                yield a, b


# A blank line: a line break, a line holding only spaces or tabs, a line break; the whole
# whitespace run around it is the separator. Written without nested quantifiers over the
# same characters, so long whitespace runs stay linear.
PARAGRAPH = RegexLevel("paragraph", re.compile(r"\n[^\S\n]*\n\s*"), whitespace=True, anchor="\n")
LINE = RegexLevel("line", re.compile(r"\n\s*"), whitespace=True, anchor="\n")
WORD = RegexLevel("word", re.compile(r"\s+"), whitespace=True)

# What may end a line that the writer broke on purpose (not a wrap of running prose).
_LINE_FINAL = frozenset(
    ".!?:;\u3002\uff01\uff1f\u2026\"'\u201d\u2019)]\u00bb|`*_-="
    "\u0964\u0965\u061f\u06d4\u0589\u1362\u1367\u104b\u17d4\u0f0d\u037e\u1803"  # । ॥ ؟ ۔ ։ ። ፧ ။ ។ ། ; ᠃
)
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
    anchor = "\n"

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for m in LINE.pattern.finditer(text, start, end):
            a, b = m.span()
            if start < a and b < end and _meant(text, start, a, b):
                yield a, b

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        for a, b in LINE.cuts_reversed(text, start, end):
            if _meant(text, start, a, b):
                yield a, b


def _meant(text: str, start: int, a: int, b: int) -> bool:
    """Whether the line break ``text[a:b]`` is one the writer meant (see
    :class:`HardLineLevel`)."""
    j = a
    while j > start and text[j - 1] in " \t\r":
        j -= 1
    return (
        (j > start and text[j - 1] in _LINE_FINAL)
        or text[b - 1] != "\n"  # the next line is indented
        or _LINE_OPENER.match(text, b) is not None
        or j - (text.rfind("\n", 0, j) + 1) < _SHORT_LINE
    )


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


# A carriage return not followed by a line feed: a line break (classic Mac OS), as for
# Unicode and ``str.splitlines``; ``"\r\n"`` is one line break.
_LONE_CR = re.compile(r"\r(?!\n)")


def line_feed_twin(text: str) -> str | None:
    """``text`` with a line feed for each lone carriage return (one not followed by a
    line feed: a classic Mac OS line break), or None when it has none. The twin has the
    same length, so its offsets are the text's: the packer packs a text as its twin
    (:func:`chunkwise.packer.pack_segments`), and a parser that reads line breaks as
    ``"\n"`` can read the twin the same way."""
    if "\r" not in text or _LONE_CR.search(text) is None:  # (a search: faster than counting)
        return None
    return _LONE_CR.sub("\n", text) if "\r\n" in text else text.replace("\r", "\n")
