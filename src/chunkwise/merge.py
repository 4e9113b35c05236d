"""The merge engine: boundary levels in, size-bounded spans out. Every strategy uses it.

:func:`pack` splits ``text`` at the strongest level that has cuts, merges neighbouring
pieces greedily while they fit the budget, and splits only the pieces that are too big,
at the next level down -- the recursive split-and-merge of LangChain's
RecursiveCharacterTextSplitter, with exact offsets and a hard cap. Below the strategy's
own levels come words (whitespace, then the dictionary words of scripts written without
spaces, :mod:`chunkwise.words`), then grapheme clusters: a piece is cut inside a word only
when a single word does not fit, and never inside a grapheme cluster or inside a character that
several tokens share. A grapheme cluster larger than the budget on its own becomes a span
of its own, flagged ``oversize``.

:func:`add_overlap` is a separate pass over the packed spans: each span is extended into
the next one by up to ``chunk_overlap`` units, ending at the strongest boundary found.

Sizes come from a :class:`~chunkwise.sizers.Measure` of the whole document (one
tokenization); token spans are counted exactly once more when a span is emitted, so no
span's exact size ever exceeds the budget.

Method:
    Greedy split-and-merge (LangChain ``RecursiveCharacterTextSplitter``); the level
    hierarchy and grapheme fallback follow the Rust ``text-splitter`` crate.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from dataclasses import dataclass

from ._text import carries_marks, first_cluster_end, grapheme_floor, is_extender, trim, trim_end
from .boundaries import LINE, PARAGRAPH, WORD, HardLineLevel, Level, PositionsLevel, RegexLevel, _meant, _run_start
from .sizers import Measure, _CharMeasure
from .words import DICTIONARY_WORDS

__all__ = ["END", "HARD", "GuardedPositions", "Span", "add_overlap", "pack", "pack_levels", "with_words"]

_SLACK = 64  # whitespace allowed between a piece end and its cut when searching back
# A token estimate differs from a count of the span alone only at its two ends (a token
# that the span cuts, or pieces that merge differently): on 15,799 random spans of real
# Markdown and Python it was above the count by at most 2. A span estimated up to this much over
# the budget is counted before it is cut (the count decides; this only bounds the cost).
_ESTIMATE_SLACK = 8
HARD = "hard"  # a cut inside a word, at a grapheme cluster (or token) boundary
END = "end"  # the end of the text being packed


@dataclass(slots=True)
class Span:
    """A packed span: ``[start, end)``, its exact size, the kind of cut after it."""

    start: int
    end: int
    size: int
    boundary: str
    oversize: bool = False


def last_cut(text: str, level: Level, pos: int, p: int, end: int, trim_spans: bool = True) -> tuple[int, int] | None:
    """The last cut of ``level`` after ``pos`` whose piece ends at or before ``p``.

    Returns ``(piece_end, next_start_raw)`` or None. Levels that can be read from any
    position (``windowable``) are searched in growing windows before ``p``, so a chunk
    costs time in proportion to its own length, not to the number of cuts in it. A level
    that gives its cuts last first (``cuts_reversed``) is read back from ``p`` and the
    search stops at the first cut that fits; the answer is the same.
    """
    hi = p + _SLACK
    if hi > end:
        hi = end
    if type(level) is RegexLevel and level.whitespace:
        pattern = level.pattern
        if pattern is _WORD_PATTERN:
            return _last_word_cut(text, pos, p, hi)
        if trim_spans:
            if pattern is _PARAGRAPH_PATTERN:
                return _last_run_cut(text, _BLANK_RUNS, pos, p, hi)
            if pattern is _LINE_PATTERN:
                return _last_run_cut(text, _LINE_RUNS, pos, p, hi)
        anchor = level.anchor
        if anchor and text.find(anchor, pos, hi) < 0:
            return None  # every cut of the level holds this character: none here
        return _last_whitespace_cut(text, pattern.finditer, anchor, pos, p, hi, trim_spans)
    if type(level) is GuardedPositions:
        return level.last_cut(text, pos, p, hi, trim_spans)
    anchor = getattr(level, "anchor", "")
    if anchor and text.find(anchor, pos, hi) < 0:
        return None  # every cut of the level holds this character: none here
    if type(level) is HardLineLevel and trim_spans:
        return _last_hard_line_cut(text, pos, p, hi)
    # start with a quarter of the span: one search usually finds a cut, however dense
    window = max(64, (p - pos) >> 2) if getattr(level, "windowable", False) else None
    backward = getattr(level, "cuts_reversed", None)
    while True:
        lo = pos if window is None else max(pos, p - window)
        best = None
        if backward is not None:
            # a piece end never decreases from one cut to the next: the first cut read
            # back whose piece ends at or before ``p`` is the last one
            for a, b in backward(text, lo, hi):
                e = a
                if trim_spans:
                    while e > pos and text[e - 1].isspace():
                        e -= 1
                if e <= p:
                    if e > pos:
                        best = (e, b)
                    break
        else:
            for a, b in level.cuts(text, lo, hi):
                if a <= pos:
                    continue
                e = trim_end(text, pos, a) if trim_spans else a
                if e > p:
                    break
                if e > pos:
                    best = (e, b)
        if best is not None or lo <= pos:
            return best
        window *= 4  # type: ignore[operator]


class GuardedPositions:
    """The cuts of a :class:`~chunkwise.boundaries.PositionsLevel` (``starts``/``ends``)
    with no end strictly inside a protected range (``ps``/``pe``: sorted starts and ends,
    not overlapping): what ``FilteredLevel(PositionsLevel(...), keep)`` gives, read in one
    loop. A cut whose piece end lies inside a range is passed over with the whole range
    (one bisection to the range's end), so a search does not read the cuts of every
    statement inside a definition kept whole. :func:`last_cut` and :func:`_first_cut`
    call :meth:`last_cut` and :meth:`first_cut` (no generator)."""

    __slots__ = ("name", "starts", "ends", "ps", "pe")
    windowable = True
    anchor = ""
    avoid = None

    def __init__(
        self, name: str, starts: Sequence[int], ends: Sequence[int], ps: Sequence[int], pe: Sequence[int]
    ) -> None:
        self.name, self.starts, self.ends, self.ps, self.pe = name, starts, ends, ps, pe

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        starts, ends, ps, pe = self.starts, self.ends, self.ps, self.pe
        k, j = bisect_right(starts, start), bisect_left(starts, end)
        while k < j:
            a = starts[k]
            r = bisect_right(ps, a) - 1
            if r >= 0 and ps[r] < a < pe[r]:
                k = bisect_left(starts, pe[r], k + 1, j)  # the first cut not inside the range
                continue
            b = ends[k]
            if b < end:
                r = bisect_right(ps, b) - 1
                if r < 0 or not ps[r] < b < pe[r]:
                    yield a, b
            k += 1

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        starts, ends, ps, pe = self.starts, self.ends, self.ps, self.pe
        i, k = bisect_right(starts, start), bisect_left(starts, end) - 1
        while k >= i:
            a = starts[k]
            r = bisect_right(ps, a) - 1
            if r >= 0 and ps[r] < a < pe[r]:
                k = bisect_right(starts, ps[r], i, k) - 1  # the last cut not inside the range
                continue
            b = ends[k]
            if b < end:
                r = bisect_right(ps, b) - 1
                if r < 0 or not ps[r] < b < pe[r]:
                    yield a, b
            k -= 1

    def first_cut(self, start: int, end: int) -> tuple[int, int] | None:
        """The first cut of :meth:`cuts`, or None."""
        starts, ends, ps, pe = self.starts, self.ends, self.ps, self.pe
        k, n = bisect_right(starts, start), len(starts)
        while k < n:  # (the starts are sorted: the cuts before ``end`` are read)
            a = starts[k]
            if a >= end:
                return None
            r = bisect_right(ps, a) - 1
            if r >= 0 and ps[r] < a < pe[r]:
                k = bisect_left(starts, pe[r], k + 1)
                continue
            b = ends[k]
            if b < end:
                r = bisect_right(ps, b) - 1
                if r < 0 or not ps[r] < b < pe[r]:
                    return a, b
            k += 1
        return None

    def last_cut(self, text: str, pos: int, p: int, hi: int, trim_spans: bool) -> tuple[int, int] | None:
        """:func:`last_cut` for this level: read back from ``hi``, the first cut whose
        piece (trimmed) ends at or before ``p`` -- the same cut as the windowed search,
        whose windows only bound how far back it reads."""
        starts, ends, ps, pe = self.starts, self.ends, self.ps, self.pe
        k = bisect_left(starts, hi) - 1
        while k >= 0:  # (the starts are sorted: the cuts after ``pos`` are read)
            a = starts[k]
            if a <= pos:
                return None
            r = bisect_right(ps, a) - 1
            if r >= 0 and ps[r] < a < pe[r]:
                k = bisect_right(starts, ps[r], 0, k) - 1
                continue
            b = ends[k]
            if b < hi:
                r = bisect_right(ps, b) - 1
                if r < 0 or not ps[r] < b < pe[r]:
                    e = a
                    if trim_spans:
                        while e > pos and text[e - 1].isspace():
                            e -= 1
                    if e <= p:
                        return (e, b) if e > pos else None
            k -= 1
        return None


_WORD_PATTERN = WORD.pattern
# the last "non-whitespace, whitespace" pair before the end of the span: ``.*`` takes
# the whole span at once and gives back from the end, so the search reads only the
# last word
_LAST_BREAK = re.compile(r"(?s:.*)\S\s")
_SPACES = re.compile(r"\s+")


def _last_word_cut(text: str, pos: int, p: int, hi: int) -> tuple[int, int] | None:
    """:func:`last_cut` for the word level (``\\s+``), searched back from ``p``: the
    last whitespace run that starts after ``pos`` and at or before ``p`` and ends before
    ``hi``. The same cut as the windowed search: a run starting after a non-whitespace
    character needs no trimming, and the one starting at ``pos`` is never a cut."""
    stop = p + 1
    while True:
        m = _LAST_BREAK.match(text, pos, stop)
        if m is None:
            return None
        a = m.end() - 1
        if a < hi:
            b = _SPACES.match(text, a, hi).end()  # type: ignore[union-attr]
            if b < hi:
                return a, b
        stop = a  # the run reaches ``hi``: not a cut of the span, take the one before


# Levels whose every cut is a whole whitespace run holding line breaks: a blank line
# (paragraph: two line breaks with only other whitespace between) or a line break (line).
# The last blank line of a span is found by ``_LAST_BLANK_LINE``: ``.*`` takes the span at
# once and gives back from its end, stopping only at line breaks (a literal), so the
# search reads the span once and the distance back to the cut; line breaks by
# ``str.rfind``.
_PARAGRAPH_PATTERN = PARAGRAPH.pattern
_LINE_PATTERN = LINE.pattern
_BLANK_RUNS, _LINE_RUNS = "blank lines", "line breaks"
_LAST_BLANK_LINE = re.compile(r".*\n[^\S\n]*\n", re.DOTALL)
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


def _runs_of(level: Level, trim_spans: bool) -> str | None:
    """The kind of runs :func:`_last_run_cut` reads for ``level`` (the paragraph and line
    levels, or a copy of them with ``avoid``, when spans are trimmed), or None."""
    if trim_spans and type(level) is RegexLevel and level.whitespace:
        if level.pattern is _PARAGRAPH_PATTERN:
            return _BLANK_RUNS
        if level.pattern is _LINE_PATTERN:
            return _LINE_RUNS
    return None



def _run_cut(text: str, k: int, pos: int, p: int, hi: int) -> tuple[int, tuple[int, int] | None]:
    """The whitespace run around the line break at ``k``: its piece end ``e`` (the run's
    start, not before ``pos``) and the cut ``(e, b)`` it gives when ``e`` lies in
    ``(pos, p]`` and the run ends (at ``b``) before ``hi``, else None."""
    e = k
    while e > pos and text[e - 1].isspace():
        e -= 1
    if pos < e <= p:
        b = _SPACES.match(text, k, hi).end()  # type: ignore[union-attr]
        if b < hi:
            return e, (e, b)
    return e, None

def _last_run_cut(text: str, runs: str, pos: int, p: int, hi: int) -> tuple[int, int] | None:
    """:func:`last_cut` for the paragraph and line levels with trimmed spans, searched
    back from ``hi``: the last whitespace run of the level whose trimmed piece end ``e``
    (the run's start) lies in ``(pos, p]`` and which ends before ``hi``. The same cut as
    the windowed search of :func:`_last_whitespace_cut`: a match of these patterns is a
    whole whitespace run (from its first qualifying line break), its piece end the run's
    start, its next start the run's end."""
    if runs is _LINE_RUNS:  # every line break: read back one at a time
        stop = hi
        while True:
            k = text.rfind("\n", pos, stop)
            if k < 0:
                return None
            e, cut = _run_cut(text, k, pos, p, hi)
            if cut is not None or e <= pos:
                return cut
            stop = e
    match = _LAST_BLANK_LINE.match
    window = (p - pos) >> 2
    if window < 64:
        window = 64
    stop = hi
    while True:
        lo = stop - window
        if lo < pos:
            lo = pos
        m = match(text, lo, stop)
        if m is None:
            if lo <= pos:
                return None
            window <<= 2
            continue
        k = text.rfind("\n", lo, m.end() - 1)  # the first line break of the blank line
        e, cut = _run_cut(text, k, pos, p, hi)
        if cut is not None or e <= pos:
            return cut
        stop = e  # the run starts after ``p`` or reaches ``hi``: the one before it


def _last_hard_line_cut(text: str, pos: int, p: int, hi: int) -> tuple[int, int] | None:
    """:func:`last_cut` for :class:`~chunkwise.boundaries.HardLineLevel` with trimmed
    spans: the windows of the general search, each read back from ``hi`` one line-break
    run at a time (no list of the window's matches), with the level's rule
    (:func:`~chunkwise.boundaries._meant`, read from the window's start as
    ``cuts_reversed`` reads it) only at the runs reached."""
    window = (p - pos) >> 2
    if window < 64:
        window = 64
    while True:
        lo = p - window
        if lo < pos:
            lo = pos
        stop = hi
        while True:
            k = text.rfind("\n", lo, stop)
            if k < 0:
                break
            # the run holding the window's last line break ``k``: its start ``rs`` (not
            # before ``lo``) and its first line break ``a`` (where LINE's match starts)
            a = rs = k
            while rs > lo and text[rs - 1].isspace():
                rs -= 1
                if text[rs] == "\n":
                    a = rs
            if a <= lo:
                break  # the level's own bound: start < a
            # the piece end first: a run whose piece ends after ``p`` is passed over,
            # meant or not (the rule is read only where it decides)
            e = rs
            while e > pos and text[e - 1].isspace():
                e -= 1
            if e <= p:
                b = _SPACES.match(text, k, hi).end()  # type: ignore[union-attr]
                if b < hi and _meant(text, lo, a, b):
                    if e > pos:
                        return e, b
                    break
            stop = rs
        if lo <= pos:
            return None
        window <<= 2


def _last_whitespace_cut(
    text: str, finditer: Callable[..., Any], anchor: str, pos: int, p: int, hi: int, trim_spans: bool
) -> tuple[int, int] | None:
    """:func:`last_cut` for a level whose every match is whitespace (paragraph and line
    breaks): the matches of each window are listed by the regular expression and read
    back from ``p``, as :meth:`RegexLevel.cuts_reversed` gives them; a window without
    the level's anchor character is not scanned."""
    window = max(64, (p - pos) >> 2)
    while True:
        lo = p - window
        if lo < pos:
            lo = pos
        scan = lo
        if anchor:
            k = text.find(anchor, lo, hi)
            scan = -1 if k < 0 else _run_start(text, k, lo)
        if scan >= 0:
            spans = [m.span() for m in finditer(text, scan, hi)]
            for k in range(len(spans) - 1, -1, -1):
                a, b = spans[k]
                if b >= hi or a <= lo:  # the level's own bounds: start < a, b < end
                    continue
                e = a
                if trim_spans:
                    while e > pos and text[e - 1].isspace():
                        e -= 1
                if e <= p:
                    if e > pos:
                        return e, b
                    break
        if lo <= pos:
            return None
        window *= 4


def indent_start(text: str, measure: Measure, pos: int, budget: int) -> int:
    """Where a span starting at ``pos`` is measured from when it keeps its indentation:
    the start of its line when only spaces and tabs come before ``pos`` there and they
    measure under half of ``budget``, else ``pos``."""
    if pos == 0 or text[pos - 1] not in " \t":
        return pos
    ls = text.rfind("\n", 0, pos) + 1
    if text[ls:pos].strip(" \t"):
        return pos
    return ls if (pos - ls if type(measure) is _CharMeasure else measure.size(ls, pos)) * 2 < budget else pos


def _first_cut(
    text: str, level: Level, start: int, end: int, avoid: Callable[[str, int], bool] | None = None
) -> tuple[int, int] | None:
    """The first cut of ``level`` in ``[start, end)`` (not one ``avoid`` rejects), or None."""
    if type(level) is GuardedPositions and avoid is None:
        return level.first_cut(start, end)
    anchor = getattr(level, "anchor", "")
    if anchor and text.find(anchor, start, end) < 0:
        return None
    if avoid is None:
        return next(iter(level.cuts(text, start, end)), None)
    for a, b in level.cuts(text, start, end):
        if not avoid(text, a):
            return a, b
    return None


def _unavoided(
    text: str, level: Level, pos: int, cut: tuple[int, int], end: int, trim_spans: bool, avoid: Callable[[str, int], bool]
) -> tuple[int, int] | None:
    """The last cut before ``cut`` (one that ``avoid`` rejects: the caller has asked)
    that ``avoid`` does not reject (it fits, being earlier), or None."""
    # a level of whole whitespace runs (:func:`_last_run_cut`) has no cut before ``cut``
    # that ends at or after its start: the search back can stop there
    runs = _runs_of(level, trim_spans)
    while True:
        if runs is not None:
            found = _last_run_cut(text, runs, pos, cut[0] - 1, cut[0])
        else:
            found = last_cut(text, level, pos, cut[0] - 1, end, trim_spans)
        if found is None or not avoid(text, found[0]):
            return found
        cut = found


def _precomputed(text: str, level: Level, start: int, end: int, exact: bool = False) -> Level:
    """A level whose cuts cost Python work per candidate (sentences) is read once over
    ``[start, end)`` and then searched by bisection -- when sizes are estimates (tokens),
    where a cut may be searched again after an exact count fails. With exact sizes
    (characters, words) one windowed search back from the budget finds the cut, reading
    a sentence or two instead of every sentence of the span."""
    if exact or not getattr(level, "precompute", False):
        return level
    starts, ends = array("q"), array("q")
    for a, b in level.cuts(text, start, end):
        starts.append(a)
        ends.append(b)
    return PositionsLevel(level.name, starts, ends)


def _guarded_starts(levels: Sequence[Level]) -> list[Sequence[int] | None]:
    """The cut starts of each :class:`GuardedPositions` of ``levels`` (None for the
    others): a level with no start in a window has no cut there (one bisection)."""
    return [lv.starts if type(lv) is GuardedPositions else None for lv in levels]


class _Packer:
    def __init__(
        self,
        text: str,
        measure: Measure,
        budget: int,
        levels: Sequence[Level],
        trim_spans: bool,
        overlap_pieces: int = 0,
        step: int | None = None,
        max_pieces: int | None = None,
        indent: bool = False,
        gstarts: list[Sequence[int] | None] | None = None,
    ) -> None:
        self.indent = indent
        self.overlap_pieces = overlap_pieces
        self.step = step
        self.max_pieces = max_pieces
        self.text = text
        self.m = measure
        self.budget = budget
        self.levels = list(levels)
        # the cut starts of each :class:`GuardedPositions` level (None for the others)
        self.gstarts = gstarts if gstarts is not None else _guarded_starts(self.levels)
        self.trim = trim_spans
        # windows and sentence overlap count whole pieces: no continuation across them
        self.continue_pieces = not (overlap_pieces or step is not None or max_pieces is not None)
        self.out: list[Span] = []

    # -- emission -------------------------------------------------------------------

    def emit(self, start: int, end: int, size: int, boundary: str, oversize: bool = False) -> None:
        self.out.append(Span(start, end, size, boundary, oversize))

    def fits_exact(self, start: int, end: int) -> int:
        """Exact size of [start, end), or -1 when it exceeds the budget."""
        n = self.m.exact(start, end)
        return n if n <= self.budget else -1

    def tend(self, pos: int, a: int) -> int:
        return trim_end(self.text, pos, a) if self.trim else a

    def tstart(self, b: int, end: int) -> int:
        """Start of the piece after a cut ending at ``b`` (leading whitespace trimmed)."""
        return trim(self.text, b, end)[0] if self.trim else b

    def past_start(
        self, level: Level, pos: int, first: tuple[int, int], end: int, avoid: Callable[[str, int], bool] | None
    ) -> tuple[int, int] | None:
        """``first``, the first cut of ``level`` after ``pos``, unless it lies inside the
        cluster that starts the piece (a combining mark on the whitespace at ``pos``, which
        trimming keeps): then the cut after it, so that packing goes on past ``pos`` (it
        read the same cut again and again)."""
        if self.tend(pos, first[0]) <= pos and self.tstart(first[1], end) <= pos:
            return _first_cut(self.text, level, first[0], end, avoid)
        return first

    # -- recursion ------------------------------------------------------------------

    def split(self, start: int, end: int, li: int, end_cut: str, top: bool = False) -> None:
        """Pack ``[start, end)`` (trimmed, non-empty) using levels ``li`` and below.

        Greedy: from ``pos``, the chunk runs to the last cut of the level that fits; a
        piece that does not fit on its own is split at the next level down.
        """
        text, m, budget = self.text, self.m, self.budget
        if top and self.levels and (self.overlap_pieces > 0 or self.step is not None or self.max_pieces is not None):
            # windows count pieces of the first level (sentences), even when the text is
            # a single piece of it: never the words of a sentence that has no cut
            self.split_windows(_precomputed(text, self.levels[0], start, end), start, end, 0, end_cut)
            return
        levels = self.levels
        gstarts = self.gstarts
        n = len(levels)
        while li < n:
            st = gstarts[li]
            if st is not None:  # (a parser's level: passed over at once when no cut lies here)
                k = bisect_right(st, start)
                if k < len(st) and st[k] < end and levels[li].first_cut(start, end) is not None:
                    break
            elif _first_cut(text, levels[li], start, end) is not None:
                break
            li += 1
        else:
            self.hard_cut(start, end, end_cut)
            return
        level = _precomputed(text, self.levels[li], start, end, m.is_exact and not self.step and not self.max_pieces)
        avoid = getattr(self.levels[li], "avoid", None)
        if type(m) is _CharMeasure:
            self.split_chars(level, start, end, li, end_cut, avoid)
            return
        exact, name = m.is_exact, level.name
        pos = start
        while pos < end:
            q = indent_start(text, m, pos, budget) if self.indent else pos  # measured from here
            p = m.advance(q, end, budget)
            if p >= end:
                n = m.size(pos, end) if exact else m.exact(pos, end)
                if (n if q == pos else m.size(q, end) if exact else m.exact(q, end)) <= budget:
                    self.emit(pos, end, n, end_cut)
                    return
                p = end - 1  # the estimate fitted, the exact count does not
            cut = last_cut(text, level, pos, p, end, self.trim)
            n = 0
            while cut is not None:
                n = m.size(pos, cut[0]) if exact else m.exact(pos, cut[0])
                if (n if q == pos else m.size(q, cut[0]) if exact else m.exact(q, cut[0])) <= budget:
                    break
                cut = last_cut(text, level, pos, cut[0] - 1, end, self.trim)
            if cut is not None and avoid is not None and avoid(text, cut[0]):
                cut = _unavoided(text, level, pos, cut, end, self.trim, avoid)
                if cut is not None:
                    n = m.size(pos, cut[0]) if exact else m.exact(pos, cut[0])
            if cut is None:  # the first piece does not fit on its own: split it finer
                first = _first_cut(text, level, pos, end, avoid)
                if first is not None:
                    first = self.past_start(level, pos, first, end, avoid)
                if first is None:
                    self.split(pos, end, li + 1, end_cut)
                    return
                pe = self.tend(pos, first[0])
                mark = len(self.out)
                if pe > pos:
                    self.split(pos, pe, li + 1, name)
                # the last piece of that finer split goes on with the pieces after it at
                # this level (no runt at the end of every big piece)
                if len(self.out) - mark >= 2 and self.continue_pieces:
                    tail = self.out[-1]
                    if not tail.oversize and tail.start > pos and tail.end == pe:
                        self.out.pop()
                        pos = tail.start
                        continue
                pos = self.tstart(first[1], end)
                continue
            self.emit(pos, cut[0], n, name)
            pos = self.tstart(cut[1], end)

    def split_chars(
        self, level: Level, start: int, end: int, li: int, end_cut: str, avoid: Callable[[str, int], bool] | None = None
    ) -> None:
        """:meth:`split` where sizes are character offsets (the same spans, less work):
        a piece ending at or before ``pos + budget`` always fits, so no size is counted."""
        text, budget, trim_spans = self.text, self.budget, self.trim
        out = self.out
        name = level.name
        runs = _runs_of(level, trim_spans)  # the paragraph and line levels: searched directly
        # a parser's level: its own search (what :func:`last_cut` calls for it)
        guarded = level.last_cut if type(level) is GuardedPositions else None
        indent = self.indent
        pos = start
        while pos < end:
            p = pos + budget
            if indent and text[pos - 1] in " \t":  # measured from the start of its line
                ls = text.rfind("\n", 0, pos) + 1  # (indent_start, inline)
                if (pos - ls) * 2 < budget and not text[ls:pos].strip(" \t"):
                    p = ls + budget
            if p >= end:
                out.append(Span(pos, end, end - pos, end_cut))
                return
            if guarded is not None:
                cut = guarded(text, pos, p, p + _SLACK if p + _SLACK < end else end, trim_spans)
            elif runs is not None:
                cut = _last_run_cut(text, runs, pos, p, p + _SLACK if p + _SLACK < end else end)
            else:
                cut = last_cut(text, level, pos, p, end, trim_spans)
            if cut is not None and avoid is not None and avoid(text, cut[0]):
                cut = _unavoided(text, level, pos, cut, end, trim_spans, avoid)
            if cut is None:  # the first piece does not fit on its own: split it finer
                first = _first_cut(text, level, pos, end, avoid)
                if first is not None:
                    first = self.past_start(level, pos, first, end, avoid)
                if first is None:
                    self.split(pos, end, li + 1, end_cut)
                    return
                pe = self.tend(pos, first[0])
                mark = len(out)
                if pe > pos:
                    self.split(pos, pe, li + 1, name)
                # the last piece of that finer split goes on with the pieces after it
                if len(out) - mark >= 2 and self.continue_pieces:
                    tail = out[-1]
                    if not tail.oversize and tail.start > pos and tail.end == pe:
                        out.pop()
                        pos = tail.start
                        continue
                pos = self.tstart(first[1], end)
                continue
            e = cut[0]
            out.append(Span(pos, e, e - pos, name))
            pos = cut[1]
            if trim_spans:  # trim(text, pos, end)[0], inline
                while pos < end and text[pos].isspace():
                    pos += 1
                if pos < end and text[pos] >= "\u0300" and pos > 0 and carries_marks(text[pos - 1]) and is_extender(text[pos]):
                    pos -= 1

    def split_windows(self, level: Level, start: int, end: int, li: int, end_cut: str) -> None:
        """Windows over the pieces of ``level``: at most ``max_pieces`` a span, the next
        starting ``step`` pieces later, or ``overlap_pieces`` before the previous end."""
        text, m, budget = self.text, self.m, self.budget
        pieces: list[tuple[int, int, str]] = []
        prev = start
        for a, b in level.cuts(text, start, end):
            ps, pe = trim(text, prev, a) if self.trim else (prev, a)
            if ps < pe:
                pieces.append((ps, pe, level.name))
            prev = b
        ps, pe = trim(text, prev, end) if self.trim else (prev, end)
        if ps < pe:
            pieces.append((ps, pe, end_cut))
        most = self.max_pieces or len(pieces)
        i, n = 0, len(pieces)
        last = -1  # the last piece a window has covered
        while i < n:
            ps, pe, pc = pieces[i]
            j = i
            while j + 1 < n and j + 1 - i < most and m.size(ps, pieces[j + 1][1]) <= budget:
                j += 1
            got = m.exact(ps, pieces[j][1])
            while got > budget and j > i:
                j -= 1
                got = m.exact(ps, pieces[j][1])
            if j <= last:  # nothing new fits beside the overlap: go on after it
                i = last + 1
                continue
            last = j
            if got > budget:  # one piece that does not fit: split it finer
                if self.max_pieces is not None:
                    self.split_even(ps, pe, li + 1, pc)
                else:
                    self.split(ps, pe, li + 1, pc)
                j = i
            else:
                self.emit(ps, pieces[j][1], got, pieces[j][2])
            if j + 1 >= n:
                break
            if self.step is not None:
                i = min(i + self.step, j + 1)
            else:
                i = max(i + 1, j + 1 - self.overlap_pieces)

    def split_even(self, start: int, end: int, li: int, end_cut: str) -> None:
        """Pack ``[start, end)`` (one piece larger than the budget, at levels ``li`` and
        below) into as few spans as the greedy split gives, as even as the cuts allow:
        each cut is the one of the strongest level nearest to an equal share of what is
        left; where that does not fit, the greedy spans stay."""
        sub = _Packer(self.text, self.m, self.budget, self.levels, self.trim)
        sub.split(start, end, li, end_cut)
        spans = sub.out
        if len(spans) >= 2 and not any(s.oversize for s in spans):
            spans = self.even_spans(start, end, li, end_cut, len(spans)) or spans
        self.out += spans

    def even_spans(self, start: int, end: int, li: int, end_cut: str, k: int) -> list[Span] | None:
        """``k`` spans of ``[start, end)`` cut near equal shares, or None when a cut is
        missing or a span does not fit the budget."""
        text, m, budget = self.text, self.m, self.budget
        out: list[Span] = []
        pos = start
        for left in range(k, 1, -1):
            want = -(-m.size(pos, end) // left)  # an equal share of what is left, rounded up
            t = m.advance(pos, end, want)
            # a cut ahead is looked for only as far as a piece can reach (a level read from
            # the piece's start, dictionary words, must not read the whole rest each time)
            reach = min(end, m.advance(pos, end, budget) + _SLACK)
            found: tuple[int, int, int, str] | None = None  # (distance, piece end, next start, level)
            for level in self.levels[li:]:
                options = []
                back = last_cut(text, level, pos, t, end, self.trim)
                if back is not None:
                    options.append(back)
                ahead = _first_cut(text, level, t, reach)
                if ahead is not None:
                    options.append((self.tend(pos, ahead[0]), ahead[1]))
                for pe, b in options:
                    ns = self.tstart(b, end)
                    if pos < pe and ns < end and (size := m.size(pos, pe)) <= budget:
                        d = abs(size - want)
                        if found is None or d < found[0]:
                            found = (d, pe, ns, level.name)
                if found is not None:
                    break
            if found is None:
                return None
            _, pe, ns, name = found
            n = m.exact(pos, pe)
            if n > budget:
                return None
            out.append(Span(pos, pe, n, name))
            pos = ns
        n = m.exact(pos, end)
        if n > budget:
            return None
        out.append(Span(pos, end, n, end_cut))
        return out

    def hard_cut(self, start: int, end: int, end_cut: str) -> None:
        """Cut ``[start, end)`` into the largest spans that fit, at cluster boundaries."""
        text, m, budget = self.text, self.m, self.budget
        if not m.is_exact and m.size(start, end) <= budget + _ESTIMATE_SLACK:
            # a token estimate counts the document's tokens that touch the span; counted
            # alone, the span's text can merge or split differently at its two ends, so a
            # span estimated a little over the budget may fit: count it before cutting it
            # (a code block cut inside its closing fence left a chunk of one backtick)
            n = m.exact(start, end)
            if n <= budget:
                self.emit(start, end, n, end_cut)
                return
        pos = start
        while pos < end:
            p = grapheme_floor(text, m.advance(pos, end, budget), pos)
            oversize = False
            if p <= pos:
                p = first_cluster_end(text, pos, end)
                oversize = True
            n = m.exact(pos, p)
            while n > budget and not oversize:
                q = grapheme_floor(text, p - 1, pos)
                if q <= pos:
                    p = first_cluster_end(text, pos, end)
                    n = m.exact(pos, p)
                    oversize = n > budget
                    break
                p = q
                n = m.exact(pos, p)
            s, e = trim(text, pos, p) if self.trim else (pos, p)
            if s < e and not text[s:e].isspace():
                if (s, e) != (pos, p):
                    n = m.exact(s, e)
                self.emit(s, e, n, end_cut if p >= end else HARD, oversize and n > budget)
            if self.trim:
                # trimming keeps a combining mark with the whitespace before it; where that
                # whitespace is where this span began, the mark starts the next span (it
                # began here again and again)
                q = trim(text, p, end)[0]
                pos = q if q > pos else p
            else:
                pos = p


def pack(
    text: str,
    measure: Measure,
    budget: int,
    levels: Sequence[Level],
    *,
    start: int = 0,
    end: int | None = None,
    trim_spans: bool = True,
    words: bool = True,
    overlap_pieces: int = 0,
    step: int | None = None,
    max_pieces: int | None = None,
) -> list[Span]:
    """Pack ``text[start:end]`` into spans of at most ``budget`` units.

    Args:
        text: the document text.
        measure: the sizer's measure of ``text``.
        budget: the largest size of a span, in the measure's unit (> 0).
        levels: boundary levels, strongest first.
        start, end: the part of ``text`` to pack (default: all of it).
        trim_spans: trim whitespace from span edges (``False``: spans tile the text, as
            fixed windows do; whitespace-only spans are still dropped).
        words: add the word level (whitespace) below ``levels`` when it is not there.
        overlap_pieces: start each span with this many pieces of the first level from the
            end of the previous span (sentence overlap), while the span fits.
        step, max_pieces: windows over the first level's pieces: at most ``max_pieces``
            pieces a span, the next window starting ``step`` pieces later (never past the
            end of the previous span, so nothing is skipped).

    Returns:
        Spans in document order, not overlapping (unless ``overlap_pieces`` or a ``step``
        smaller than ``max_pieces`` asks for it); each fits ``budget`` exactly, except a
        single grapheme cluster larger than the budget (``oversize``).
    """
    return pack_levels(
        text, measure, budget, with_words(levels, words), start, len(text) if end is None else end, trim_spans,
        overlap_pieces, step, max_pieces,
    )


def with_words(levels: Sequence[Level], words: bool = True) -> list[Level]:
    """The levels :func:`pack` searches: ``levels``, the word level below them when
    ``words`` is set and no level has its name, and the dictionary words of scripts
    written without spaces after the word level itself."""
    all_levels = list(levels)
    if words:
        name = WORD.name
        for lv in all_levels:
            if lv.name == name:
                break
        else:
            all_levels.append(WORD)
    for k, lv in enumerate(all_levels):
        if lv is WORD:  # then the words of scripts written without spaces (Thai, CJK, ...)
            all_levels.insert(k + 1, DICTIONARY_WORDS)
            break
    return all_levels


def pack_levels(
    text: str,
    measure: Measure,
    budget: int,
    all_levels: list[Level],
    start: int,
    end: int,
    trim_spans: bool = True,
    overlap_pieces: int = 0,
    step: int | None = None,
    max_pieces: int | None = None,
    indent: bool = False,
    gstarts: list[Sequence[int] | None] | None = None,
) -> list[Span]:
    """:func:`pack` with its levels ready (:func:`with_words`): a caller packing many
    parts of one document with the same levels prepares them once (``gstarts``:
    :func:`_guarded_starts` of them). With ``indent``, a
    span that starts after the indentation of its line is measured from the line's start
    (:func:`indent_start`), so that the indentation still fits when it is added back."""
    packer = _Packer(text, measure, budget, all_levels, trim_spans, overlap_pieces, step, max_pieces, indent, gstarts)
    s, e = trim(text, start, end) if trim_spans else (start, end)
    if s < e:
        packer.split(s, e, 0, END, top=True)
    return packer.out


def _overlap_end(
    text: str,
    measure: Measure,
    cur: Span,
    nxt: Span,
    last_end: int,
    chunk_size: int,
    overlap: int,
    levels: Sequence[Level],
    trim_spans: bool,
) -> tuple[int, str, int] | None:
    """Where ``cur`` should end when extended past its end, the kind of that cut and the
    extended span's exact size (None: no overlap fits).

    The extension starts at ``nxt.start`` and may run past ``nxt`` (an overlap larger
    than the next span), up to ``last_end``.
    """
    limit = min(measure.advance(nxt.start, last_end, overlap), measure.advance(cur.start, last_end, chunk_size))
    if limit <= nxt.start:
        return None
    if measure.is_exact:  # every size read from offsets is exact: nothing to verify
        found = _overlap_choice(text, measure, nxt, last_end, overlap, limit, levels, trim_spans, _fits)
        return None if found is None else (found[0], found[1], measure.exact(cur.start, found[0]))
    counted: dict[int, int] = {}  # exact sizes of cur.start..p already counted

    def ok(p: int) -> bool:
        n = counted[p] = measure.exact(cur.start, p)
        return n <= chunk_size and measure.exact(nxt.start, p) <= overlap

    found = _overlap_choice(text, measure, nxt, last_end, overlap, limit, levels, trim_spans, ok)
    if found is None:
        return None
    e, kind = found
    return e, kind, counted[e] if e in counted else measure.exact(cur.start, e)


def _fits(p: int) -> bool:
    """Any end fits (exact sizes: the limit already holds the budgets)."""
    return True


def _fits_all(p: int) -> bool:
    """:func:`_fits`, with no level skipped."""
    return True


def _overlap_choice(
    text: str,
    measure: Measure,
    nxt: Span,
    last_end: int,
    overlap: int,
    limit: int,
    levels: Sequence[Level],
    trim_spans: bool,
    ok: Callable[[int], bool],
) -> tuple[int, str] | None:
    """The end of an extension: the strongest level's last fitting cut that gives at least
    half the overlap, else the cut giving the most."""

    if limit >= last_end and ok(last_end):
        return last_end, END
    best: tuple[int, str] | None = None
    # characters: a cut gives half the overlap when it ends at or after ``need``. A cut
    # of a whitespace level starts its match, so when the level's anchor character is
    # not in [need, hi) it has no such cut, and matters only when no level has one (then
    # every level is read, in order)
    need = nxt.start + (overlap + 1) // 2 if type(measure) is _CharMeasure and ok is _fits else -1
    hi = min(last_end, limit + _SLACK)
    skipped = False
    for level in levels:
        if need >= 0 and (type(level) is RegexLevel and level.whitespace or type(level) is HardLineLevel):
            if level.anchor and text.find(level.anchor, need, hi) < 0:
                skipped = True
                continue
            # a paragraph cut ending at or after ``need`` is a blank line inside [need, hi)
            if _runs_of(level, trim_spans) is _BLANK_RUNS and _BLANK_LINE.search(text, need, hi) is None:
                skipped = True
                continue
        p = limit
        while True:  # the last cut of this level that fits, verified exactly
            cut = last_cut(text, level, nxt.start, p, last_end, trim_spans)
            if cut is None or ok(cut[0]):
                break
            p = cut[0] - 1
        if cut is None:
            continue
        e = cut[0]
        if measure.size(nxt.start, e) * 2 >= overlap:
            return e, level.name
        if best is None or e > best[0]:
            best = (e, level.name)
    if skipped:  # no level gives half the overlap: the most it can, over every level
        return _overlap_choice(text, measure, nxt, last_end, overlap, limit, levels, trim_spans, _fits_all)
    if best is None and not levels:  # fixed windows: any cluster boundary will do
        p = grapheme_floor(text, limit, nxt.start)
        while p > nxt.start and not ok(p):
            p = grapheme_floor(text, p - 1, nxt.start)
        if p > nxt.start:
            best = (p, HARD)
    return best


# How :func:`_char_extender` searches a level (what :func:`last_cut` would call for it)
_GENERIC, _WORDS, _BLANKS, _LINES, _HARD_LINES = range(5)


def _search_plan(levels: Sequence[Level], trim_spans: bool) -> list[tuple[Level, str, int, str, bool, bool]]:
    """For each level: the level, its name, how :func:`last_cut` searches it, its anchor,
    whether the overlap search may pass it over (a whitespace or hard-line level: see
    :func:`_overlap_choice`) and whether that test also asks for a blank line."""
    plan = []
    for level in levels:
        how = _GENERIC
        if type(level) is RegexLevel and level.whitespace:
            if level.pattern is _WORD_PATTERN:
                how = _WORDS
            elif trim_spans and level.pattern is _PARAGRAPH_PATTERN:
                how = _BLANKS
            elif trim_spans and level.pattern is _LINE_PATTERN:
                how = _LINES
        elif type(level) is HardLineLevel and trim_spans:
            how = _HARD_LINES
        checked = type(level) is RegexLevel and level.whitespace or type(level) is HardLineLevel
        anchor = getattr(level, "anchor", "") or ""
        plan.append((level, level.name, how, anchor, checked, _runs_of(level, trim_spans) is _BLANK_RUNS))
    return plan


def _char_extender(
    text: str, last_end: int, chunk_size: int, overlap: int, levels: Sequence[Level], trim_spans: bool
) -> Callable[[Span, Span], Span]:
    """The ``extended`` step of :func:`add_overlap` for sizes in characters (a size is a
    difference of offsets, every size exact): :func:`_overlap_end` and
    :func:`_overlap_choice` with the levels' dispatch of :func:`last_cut` worked out once,
    and the levels searched in the first pass not searched again when every level is
    read (their cuts are the same). Same spans as the general step (tested against it)."""
    plan = _search_plan(levels, trim_spans)
    half = (overlap + 1) // 2  # a cut gives half the overlap when it ends this far in
    find, blank_line = text.find, _BLANK_LINE.search
    n_levels = len(plan)
    # the first pass reads the levels that may have a cut here: a level passed over when
    # its anchor is not in [need, hi) is passed over everywhere when the text lacks it
    first = [(k, *step) for k, step in enumerate(plan) if not (step[4] and step[3] and step[3] not in text)]
    always_skipped = len(first) < n_levels

    def search(k: int, pos: int, limit: int, hi: int) -> tuple[int, int] | None:
        """:func:`last_cut` for the level ``plan[k]`` (no verification: sizes are exact)."""
        level, _, how, anchor, _, _ = plan[k]
        if how == _LINES:
            return _last_run_cut(text, _LINE_RUNS, pos, limit, hi)
        if how == _BLANKS:
            return _last_run_cut(text, _BLANK_RUNS, pos, limit, hi)
        if how == _HARD_LINES:
            if anchor and find(anchor, pos, hi) < 0:
                return None
            return _last_hard_line_cut(text, pos, limit, hi)
        if how == _WORDS:
            return _last_word_cut(text, pos, limit, hi)
        return last_cut(text, level, pos, limit, last_end, trim_spans)

    def extended(cur: Span, nxt: Span) -> Span:
        if cur.oversize:
            return cur
        s = nxt.start
        limit = s + overlap
        if limit > last_end:
            limit = last_end
        reach = cur.start + chunk_size
        if reach < limit:
            limit = reach
        if limit <= s:
            return cur
        if limit >= last_end:
            return Span(cur.start, last_end, last_end - cur.start, END)
        need = s + half
        hi = limit + _SLACK
        if hi > last_end:
            hi = last_end
        best = -1
        best_name = ""
        # the first pass's cuts, kept once a level is passed over (then every level is read)
        searched: dict[int, tuple[int, int] | None] | None = {} if always_skipped else None
        for k, level, name, how, anchor, checked, blank in first:
            if checked:
                if anchor and find(anchor, need, hi) < 0 or blank and blank_line(text, need, hi) is None:
                    if searched is None:
                        searched = {}
                    continue
            if how == _LINES:
                cut = _last_run_cut(text, _LINE_RUNS, s, limit, hi)
            elif how == _HARD_LINES:  # its anchor is in [need, hi): last_cut's test holds
                cut = _last_hard_line_cut(text, s, limit, hi)
            elif how == _BLANKS:
                cut = _last_run_cut(text, _BLANK_RUNS, s, limit, hi)
            elif how == _WORDS:
                cut = _last_word_cut(text, s, limit, hi)
            else:
                cut = last_cut(text, level, s, limit, last_end, trim_spans)
            if searched is not None:
                searched[k] = cut
            if cut is None:
                continue
            e = cut[0]
            if e >= need:
                return Span(cur.start, e, e - cur.start, name)
            if e > best:
                best, best_name = e, name
        if searched is not None:  # no level gives half the overlap: the most it can, over every level
            best = -1
            for k in range(n_levels):
                cut = searched[k] if k in searched else search(k, s, limit, hi)
                if cut is None:
                    continue
                e = cut[0]
                if e >= need:
                    return Span(cur.start, e, e - cur.start, plan[k][1])
                if e > best:
                    best, best_name = e, plan[k][1]
        if best < 0:
            return cur
        return Span(cur.start, best, best - cur.start, best_name)

    return extended


def add_overlap(
    text: str,
    measure: Measure,
    spans: list[Span],
    chunk_size: int,
    chunk_overlap: int,
    levels: Sequence[Level],
    *,
    trim_spans: bool = True,
) -> list[Span]:
    """Extend each span into the next by up to ``chunk_overlap`` units (a separate pass).

    The extension ends at the strongest boundary of ``levels`` (then words) that gives at
    least half the requested overlap, else at the one giving the most; the extended span
    stays within ``chunk_size``. A span that an extension covers up to its end is dropped
    and the extension goes on into the span after it (every span adds something its
    predecessor lacks: starts and ends both increase). With no
    levels (fixed windows) the extension is exactly ``chunk_overlap`` units where
    characters allow.

    Returns:
        New spans, in document order, with non-decreasing starts.
    """
    if chunk_overlap <= 0 or len(spans) < 2:
        return spans
    all_levels = list(levels)
    if levels and not any(lv.name == WORD.name for lv in all_levels):
        all_levels.append(WORD)
    k = next((i for i, lv in enumerate(all_levels) if lv is WORD), -1)
    if k >= 0:  # then the words of scripts written without spaces
        all_levels.insert(k + 1, DICTIONARY_WORDS)
    out: list[Span] = []
    last_end = spans[-1].end

    def extended(cur: Span, nxt: Span) -> Span:
        if cur.oversize:
            return cur
        found = _overlap_end(text, measure, cur, nxt, last_end, chunk_size, chunk_overlap, all_levels, trim_spans)
        return cur if found is None else Span(cur.start, found[0], found[2], found[1])

    if type(measure) is _CharMeasure and all_levels:
        extended = _char_extender(text, last_end, chunk_size, chunk_overlap, all_levels, trim_spans)

    for i, cur in enumerate(spans):
        if i + 1 < len(spans):
            cur = extended(cur, spans[i + 1])
        if out and cur.end <= out[-1].end:
            # the chunk before reaches past this one's end: this one would add nothing
            # new; it is dropped and the chunk before goes on into the span after it
            if i + 1 < len(spans):
                further = extended(out[-1], spans[i + 1])
                if further.end > out[-1].end:
                    out[-1] = further
            continue
        out.append(cur)
        if cur.end >= last_end:
            break  # the spans left lie inside this one
    return out
