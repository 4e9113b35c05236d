"""The one packer: a strategy's :class:`~chunkwise.segments.Segments` in, sized spans out.

Every strategy goes through :func:`pack_segments`; nothing else plans chunks. It handles,
once for all strategies:

* regions (hard cuts: a heading of ``split_level``, a semantic breakpoint, a topic change),
  each packed apart, with its own budget when part of it is reserved for context;
* atoms (a code block, a table, a list item with its sub-items): never cut while they fit;
  larger ones follow the oversize policy -- ``"split"`` at the atom's own cuts (code lines,
  table rows) and then the region's levels, ``"keep"`` as one chunk flagged oversize, or
  ``"raise"`` :class:`~chunkwise.errors.OversizeError`. With an overlap the budget is
  ``chunk_size - chunk_overlap``; an atom larger than that which fits ``chunk_size`` (less
  the region's reserve) is not cut either: it starts a chunk of its own and is packed
  whole, with the heading glued to it when both fit (so is an atom that fits the budget
  but not with its heading); the overlap after it is what ``chunk_size`` leaves. An
  overlap that reaches into a table row cut between its cells (larger than the budget)
  ends at the edge of a cell, not inside one that fits the budget;
* glue (a heading and the start of its body): no cut strictly inside. A body that starts
  with an atom that fits the budget but not with the heading: a paragraph-like atom (a
  list item, an HTML block) or a table is split (``"split"``) so that its first part goes
  with the heading -- a table between its rows, the heading with the header rows and the
  delimiter row (and the first body rows that fit too) -- when the heading fits with what
  stays whole at the atom's start; a code block or a table row that fits (a header row
  above all) is never cut for a heading: the heading is then not glued and is packed as
  any block (a chunk alone at its section's start);
* the greedy split-and-merge of :mod:`chunkwise.merge` with its fallbacks (words, grapheme
  clusters), sentence windows and sentence overlap;
* the scored size-cap split (semantic: weakest similarity first, :mod:`chunkwise.scored`);
* balancing: a chunk under a quarter of the budget (or under ``min_chunk_size``) is evened
  out with a neighbour of its run, at the strongest boundary that allows it (inside a
  sentence: whitespace, then the dictionary words of scripts written without spaces); a
  moved cut is taken only when its exact counts keep both sides within the floor and the
  budget, so balancing always ends;
* overlap, a separate pass (inside each region, or across regions when the strategy asks);
  a chunk that would lie wholly inside the one before is not emitted;
* line breaks: a lone carriage return (classic Mac OS) ends a line, as for Unicode and
  ``str.splitlines``; ``"\\r\\n"`` is one break. A text that has one is packed as its twin
  with line feeds there (same length, so the same offsets): every level, the indentation
  rule and the title rule read the twin, sizes come from the text's own measure. A
  level whose pattern names a carriage return itself (a ``"\\r"`` separator) reads the
  text. A text without a lone carriage return costs one ``"\\r" in text``.

Method:
    Level-ordered split-and-merge as in the Rust ``text-splitter`` crate and LangChain's
    ``RecursiveCharacterTextSplitter``; regions and atoms as in text-splitter's
    ``MarkdownSplitter``; the scored split as in semantic chunkers' size caps.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Literal

from ._text import carries_marks, is_extender, trim, trim_end
from .boundaries import WORD, FilteredLevel, Level, PositionsLevel, RegexLevel, line_feed_twin
from .errors import ConfigError, OversizeError
from .merge import END, HARD, Span, add_overlap, indent_start, pack_levels, with_words
from .merge import GuardedPositions as _GuardedPositions
from .merge import _guarded_starts
from .segments import Atom, Region, Segments
from .titles import ends_with_title, title_start
from .words import DICTIONARY_WORDS
from .sizers import Measure, _CharMeasure, exact_size

__all__ = ["OVERSIZE_POLICIES", "OversizePolicy", "PackConfig", "balance_spans", "pack_segments"]

OversizePolicy = Literal["split", "keep", "raise"]
OVERSIZE_POLICIES = ("split", "keep", "raise")
_START = attrgetter("start")


@dataclass(frozen=True, slots=True, kw_only=True)
class PackConfig:
    """How to pack: sizes in the sizer's unit.

    Attributes:
        chunk_size: the largest chunk (> 0).
        chunk_overlap: how much each chunk repeats of the next (< chunk_size).
        oversize: the policy for an atom larger than the budget.
        trim_spans: trim whitespace at span edges (False: fixed windows tile the text).
        words: add the word level below the strategy's levels.
        overlap_pieces, step, max_pieces: sentence overlap and windows (see
            :func:`chunkwise.merge.pack`).
        min_chunk_size: no chunk below this when a boundary permits (balancing).
        balance: even out a run's last two chunks when the last is a runt.
        merge_small_regions: join a region smaller than ``min_chunk_size`` with the next
            one when that one is not of a stronger level and the result fits.
        keep_indent: start a chunk at the beginning of its first line when only spaces
            and tabs come before it there (code: indentation is kept), unless that would
            make it larger than ``chunk_size`` or reach into the chunk before.
        indent_overlap: with ``keep_indent`` and an overlap, a chunk's start moves back
            over its indentation before the overlap is added, so that it starts at its
            line's start even where the chunk before reaches into that line (code).
        unit: the unit's name, for messages.
    """

    chunk_size: int
    chunk_overlap: int = 0
    oversize: OversizePolicy = "split"
    trim_spans: bool = True
    words: bool = True
    overlap_pieces: int = 0
    step: int | None = None
    max_pieces: int | None = None
    min_chunk_size: int = 0
    balance: bool = True
    merge_small_regions: bool = False
    keep_indent: bool = False
    indent_overlap: bool = False
    unit: str = "chars"

    def __post_init__(self) -> None:
        if self.oversize not in OVERSIZE_POLICIES:
            raise ConfigError(f"oversize must be one of 'split', 'keep', 'raise', not {self.oversize!r}")


def _guarded(level: Level, starts: Sequence[int], ends: Sequence[int]) -> Level:
    """``level`` without the cuts that fall strictly inside a protected range.

    ``starts``/``ends`` are sorted and the ranges do not overlap. The result keeps what
    makes ``level`` fast to search (windows, anchor, backward reading): the rule is read
    only at the cuts a search reaches. A :class:`PositionsLevel` (a parser's cuts) is
    guarded in one loop (:class:`_GuardedPositions`), any other level through
    :class:`FilteredLevel`; both give the same cuts. A level may guard itself: a method
    ``guarded(starts, ends)`` returns a level with exactly the cuts ``FilteredLevel``
    would keep (a parser's level whose positions are read on demand, say).
    """
    if not starts:
        return level
    if type(level) is PositionsLevel:
        return _GuardedPositions(level.name, level.starts, level.ends, starts, ends)
    own = getattr(level, "guarded", None)
    if own is not None:
        return own(starts, ends)  # type: ignore[no-any-return]

    def keep(text: str, a: int, b: int) -> bool:
        k = bisect_right(starts, a) - 1
        if k >= 0 and starts[k] < a < ends[k]:
            return False
        k = bisect_right(starts, b) - 1
        return not (k >= 0 and starts[k] < b < ends[k])

    return FilteredLevel(level, keep)


def _merge_ranges(ranges: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    ranges.sort()
    starts: list[int] = []
    ends: list[int] = []
    if not ranges:
        return starts, ends
    rest = iter(ranges)
    cs, ce = next(rest)  # the range being merged
    for s, e in rest:
        if s < ce:
            if e > ce:
                ce = e
        else:
            starts.append(cs)
            ends.append(ce)
            cs, ce = s, e
    starts.append(cs)
    ends.append(ce)
    return starts, ends


def _lift_headings(
    text: str,
    m: Measure,
    spans: list[Span],
    budget: int,
    trim_spans: bool,
    protected: tuple[Sequence[int], Sequence[int]] = ((), ()),
    levels: Sequence[Level] = (),
    indent: bool = False,
) -> None:
    """A chunk does not end with a heading-like paragraph when the next chunk can take it
    (within ``budget``): the heading moves to the start of the chunk it introduces. The
    new cut must be one of ``levels``' cuts and not inside a ``protected`` range (sorted
    starts and ends). With ``indent`` the chunk is measured from its line's start
    (:func:`~chunkwise.merge.indent_start`). In place."""
    if not trim_spans:
        return
    starts, ends = protected
    find = text.find
    for i in range(len(spans) - 1):
        cur, nxt = spans[i], spans[i + 1]
        if cur.oversize or nxt.oversize or cur.end > nxt.start or find("\n", cur.end, nxt.start) < 0:
            continue
        if not ends_with_title(text, cur.end):
            continue
        head = title_start(text, cur.start, cur.end)
        if head < 0:
            continue
        head = trim(text, head, cur.end)[0]  # an indented title starts at its first character
        k = bisect_right(starts, head) - 1
        if k >= 0 and starts[k] < head < ends[k]:
            continue
        pe = trim_end(text, cur.start, head)
        q = indent_start(text, m, head, budget) if indent else head
        if pe <= cur.start or m.size(q, nxt.end) > budget:
            continue
        if not _is_cut(text, levels, pe, head):
            continue
        n2 = exact_size(m, head, nxt.end)
        if (n2 if q == head else exact_size(m, q, nxt.end)) <= budget:
            spans[i] = Span(cur.start, pe, exact_size(m, cur.start, pe), "paragraph")
            spans[i + 1] = Span(head, nxt.end, n2, nxt.boundary)


def _cells(
    text: str, m: Measure, atoms: Sequence[tuple[Atom, int, int, int]], budget: int, whole: int = 0
) -> list[tuple[int, int]]:
    """The cells of the table rows among ``atoms`` (rows larger than ``budget``, cut
    between their cells: ``cut_name`` ``"table_cell"``) that fit ``budget``: the overlap
    pass ends at a cell's edge, not inside it (a chunk that ends in the middle of a cell
    of the next row repeats a piece of it that reads as nothing), as it ends at the edge
    of an atom that fits. A cell larger than ``budget`` is cut by the packer anyway: an
    overlap may end inside it. The first ``whole`` atoms are packed whole (they fit
    ``chunk_size``): the packer cuts none of their cells, so each is kept whole, whatever
    its size. (A cell ends where its text does: an overlap may end before the spaces
    that pad a column.)"""
    out: list[tuple[int, int]] = []
    for i, (a, _s, _e, _n) in enumerate(atoms):
        if a.cut_name != "table_cell" or not (a.cuts or i < whole):
            continue
        prev = a.start
        for c in (*a.cuts, a.end):
            e = trim_end(text, prev, c)
            if prev < e and (i < whole or m.size(prev, e) <= budget):
                out.append((prev, e))
            prev = c
    return out


def _is_cut(text: str, levels: Sequence[Level], pe: int, ns: int) -> bool:
    """Whether a level cuts between a piece ending at ``pe`` and one starting at ``ns``
    (whitespace between them trimmed)."""
    lo, hi = max(0, pe - 1), min(len(text), ns + 1)
    for level in levels:
        if type(level) is _GuardedPositions and level.first_cut(lo, hi) is None:
            continue
        for a, b in level.cuts(text, lo, hi):
            if trim_end(text, 0, a) == pe and trim(text, b, len(text))[0] == ns:
                return True
    return False


def _inside(starts: Sequence[int], ends: Sequence[int], s: int, e: int) -> bool:
    """Whether ``[s, e)`` lies inside one of the sorted, disjoint ranges."""
    k = bisect_right(starts, s) - 1
    return k >= 0 and e <= ends[k]


def _cut_name(text: str, levels: Sequence[Level], pe: int, ns: int) -> str | None:
    """The name of the first level that cuts between a piece ending at ``pe`` and one
    starting at ``ns`` (None: none does)."""
    for level in levels:
        if _is_cut(text, (level,), pe, ns):
            return level.name
    return None


# atoms that fit the budget and are not split so that the heading glued to them goes with
# their first part: a code block, a table row (the header rows above all). The heading is
# then not glued to them: it is packed as any block (alone at its section's start). A
# table that fits is split between its rows, as one too big is, when the heading fits with
# its header rows and delimiter row (the first body row with them when it fits too).
_NOT_OPENED = frozenset(("code", "table_row", "table_header"))


def _first_whole(
    whole: Sequence[tuple[int, int]], whole_starts: Sequence[int], end: int, skip: tuple[int, int],
    opened: set[tuple[int, int]],
) -> int:
    """Where the range from ``skip``'s start to ``end`` ends once the ranges of ``whole``
    (atoms kept whole, sorted) that start in it and reach past it are taken in, over and
    over (``skip`` and the ``opened`` ranges left out): the end of what a chunk that
    starts with glue ending at ``end`` must hold whole."""
    lo = bisect_left(whole_starts, skip[0])
    while True:
        hi = bisect_left(whole_starts, end)
        new = end
        for r in whole[lo:hi]:
            if r[1] > new and r != skip and r not in opened:
                new = r[1]
        if new == end:
            return end
        lo, end = hi, new


def _word_end(text: str, pos: int, end: int) -> int:
    """End of the run of non-whitespace characters that starts at ``pos`` (at most ``end``)."""
    while pos < end and not text[pos].isspace():
        pos += 1
    return pos


@dataclass(slots=True)
class _Plan:
    big: list[tuple[Atom, int, int, int]]
    big_starts: list[int]
    levels: list[Level]
    protected: tuple[Sequence[int], Sequence[int]]
    # atoms larger than the budget that fit ``chunk_size`` (with an overlap): atom, start
    # (its glued heading's when that fits too), trimmed end, exact size from that start
    tight: list[tuple[Atom, int, int, int]] = ()  # type: ignore[assignment]
    tight_starts: list[int] = ()  # type: ignore[assignment]
    # the levels of the overlap pass when it differs from ``levels`` (see :func:`_cells`)
    overlap_levels: list[Level] | None = None


class _RegionPacker:
    """Packs the regions of one document (state shared by the helpers below)."""

    def __init__(self, text: str, measure: Measure, segs: Segments, cfg: PackConfig) -> None:
        self.text = text
        self.m = measure
        self.segs = segs
        self.cfg = cfg
        atoms = segs.atoms
        starts = list(map(_START, atoms))
        if len(set(starts)) == len(starts) and starts == sorted(starts):  # (in order already: a parser's)
            self.atoms = list(atoms)
        else:
            self.atoms = sorted(atoms, key=lambda a: (a.start, -a.end))
        glue = sorted(segs.glue)
        self.glue = glue
        self.glue_starts = [g[0] for g in glue]
        self.protected: tuple[Sequence[int], Sequence[int]] = ((), ())
        self._plans: dict[tuple[int, int], _Plan] = {}
        self._last_plan: tuple[int, Sequence[Level] | None, _Plan | None] = (0, None, None)
        self._with_words: dict[int, tuple[list[Level], list[Level], list[Sequence[int] | None]]] = {}
        # a region that fits is one span, found without the levels (most regions of code)
        self.whole = segs.scored is None and not (cfg.step or cfg.max_pieces or cfg.overlap_pieces)
        self.chars = type(measure) is _CharMeasure  # (a size is a difference of offsets)

    def plan(self, budget: int, base: Sequence[Level]) -> _Plan:
        """What depends only on the budget, for the whole document (once per budget and
        level list): the atoms too big for it, the ranges kept whole (atoms that fit, glue
        that binds) and the levels guarded by them."""
        last_budget, last_base, found = self._last_plan
        if base is last_base and budget == last_budget:  # (the region before's plan: most regions)
            return found  # type: ignore[return-value]
        key = (budget, id(base))
        found = self._plans.get(key)
        if found is not None:
            self._last_plan = (budget, base, found)
            return found
        text, m, cfg = self.text, self.m, self.cfg
        big: list[tuple[Atom, int, int, int]] = []  # atom, trimmed start, end, exact size
        tight: list[tuple[Atom, int, int, int]] = []  # the same, for atoms that fit ``limit``
        # with an overlap, an atom larger than the budget that fits ``chunk_size`` (less the
        # region's reserve) is never cut: it starts a chunk of its own (see :meth:`region`);
        # kept atoms are chunks of their own already
        limit = min(budget + cfg.chunk_overlap, cfg.chunk_size) if cfg.oversize != "keep" else budget
        protect: list[tuple[int, int]] = []
        fitting: dict[tuple[int, int], Atom] = {}
        glue = self.glue
        size = m.size
        chars = type(m) is _CharMeasure  # (a size is a difference of offsets)
        for a in self.atoms:
            s, e = a.start, a.end
            if s >= e:
                continue
            c = text[s]
            if c.isspace() or c >= "\u0300" or text[e - 1].isspace():  # else trim changes nothing
                s, e = trim(text, s, e)
                if s >= e:
                    continue
            if (e - s if chars else size(s, e)) > budget and (n := m.exact(s, e)) > budget:
                if n <= limit:
                    tight.append((a, s, e, n))
                else:
                    big.append((a, s, e, n))
            else:
                protect.append((a.start, a.end))
                if glue:
                    fitting.setdefault((a.start, a.end), a)
        # glue binds only when what it holds together fits the budget up to the end of the
        # first word after it, or when that word is a blob of over half the budget (a URL,
        # base64) that a chunk can share with little else; a run of headings too long binds
        # nothing; glue into an atom kept whole binds the whole atom
        whole = sorted(protect)
        whole_starts = [a for a, _ in whole]
        opened: set[tuple[int, int]] = set()  # atoms split so that a heading goes with them
        # with an overlap, a heading glued to an atom goes with it into the chunk the atom
        # starts when both fit ``limit`` (see :meth:`region`): the first such heading
        headed: dict[int, tuple[Atom, int, int, int] | None] = {}  # tight atom's index -> entry
        dropped: set[int] = set()  # tight atoms split after all
        unglued: set[int] = set()  # tight atoms kept whole, no heading glued to them
        tight_s = [t[1] for t in tight]
        for g in self.glue:
            if m.size(g[0], g[1]) > budget:
                continue
            k = bisect_right(whole_starts, g[1] - 1) - 1
            if (
                tight_s
                and (i := bisect_right(tight_s, g[0])) < len(tight_s)
                and tight_s[i] < g[1]
                and (k < 0 or whole[k][1] <= tight[i][2])
            ):
                # the body starts with an atom larger than the budget that fits ``limit``
                if i not in headed:
                    a, s0, e0, _n = tight[i]
                    if (n0 := m.exact(g[0], e0)) <= limit:
                        headed[i] = (a, g[0], e0, n0)
                        continue
                    headed[i] = None  # (no heading goes with it)
                    if cfg.oversize == "split":  # split, as an atom that fits is when its heading does not
                        if a.kind in _NOT_OPENED or m.size(
                            g[0], _first_whole(whole, whole_starts, g[1], (a.start, a.end), opened)
                        ) > budget:
                            unglued.add(i)  # (never cut for a heading: whole, the heading not glued)
                            continue
                        big.append(tight[i])
                        dropped.add(i)
                elif headed[i] is not None or i in unglued:
                    continue  # (an earlier heading goes with it, or none does)
                # (then the rule for an atom that fits, or the word after the glue, as for any atom too big)
            if k >= 0 and whole[k][1] > g[1] - 1:  # the body starts with an atom that fits
                if m.size(g[0], whole[k][1]) <= budget:
                    protect.append(g)
                elif limit > budget and whole[k] in fitting and (
                    n0 := m.exact(g[0], (e0 := trim_end(text, whole[k][0], whole[k][1])))
                ) <= limit:
                    # with an overlap: the two start a chunk together (see :meth:`region`)
                    a = fitting[whole[k]]
                    tight.append((a, g[0], e0, n0))
                elif cfg.oversize == "split" and whole[k] in fitting and fitting[whole[k]].kind not in _NOT_OPENED:
                    # the atom fits alone but not with its heading: a heading alone helps
                    # nobody, so the atom is split (at its own cuts, then the levels) and
                    # its first part goes with the heading -- when the heading fits with
                    # what stays whole at the atom's start (a table's header rows, a
                    # code block first in a list item); else the atom stays whole and
                    # the heading is not glued (see _NOT_OPENED)
                    first = _first_whole(whole, whole_starts, g[1], whole[k], opened)
                    if m.size(g[0], first) <= budget:
                        a = fitting[whole[k]]
                        s0, e0 = trim(text, a.start, a.end)
                        opened.add(whole[k])
                        big.append((a, s0, e0, m.exact(s0, e0)))
                        protect.append(g)
                continue
            w = _word_end(text, g[1] - 1, len(text))
            if m.size(g[0], w) <= budget or 2 * m.size(g[1] - 1, w) > budget:
                protect.append(g)
        if tight:
            if headed:
                tight = [headed.get(i) or x for i, x in enumerate(tight) if i not in dropped]
            tight.sort(key=lambda x: (x[0].start, -x[0].end))
        if opened or tight:
            protect = [r for r in protect if r not in opened]
            big.sort(key=lambda b: b[0].start)
        levels = list(base)
        if cfg.oversize == "split" and (big or tight):
            # an atom too big is not protected (what it contains may be: a small code block
            # inside a big list item); it is cut at its own cuts first. (So are the cuts of
            # an atom packed whole, for the overlap that reaches into it, and for an atom
            # that a region's edge cuts)
            by_name: dict[str, list[int]] = {}
            for a, _s, _e, _n in (*big, *tight) if tight else big:
                if a.cuts:
                    by_name.setdefault(a.cut_name or a.kind, []).extend(a.cuts)
            at = self.segs.atom_levels_at
            levels[at:at] = [PositionsLevel(nm, sorted(set(p)), sorted(set(p))) for nm, p in by_name.items()]
        ps, pe = _merge_ranges(protect)
        plan = _Plan(big, [b[0].start for b in big], [_guarded(lv, ps, pe) for lv in levels], (ps, pe))
        if tight:  # (an atom inside a range kept whole needs nothing more)
            plan.tight = [t for t in tight if not _inside(ps, pe, t[1], t[2])]
            plan.tight_starts = [t[0].start for t in plan.tight]
        if cfg.chunk_overlap and (big or tight):
            cells = _cells(text, m, (*tight, *big), budget, len(tight))
            if cells:
                os_, oe = _merge_ranges(protect + cells)
                plan.overlap_levels = [_guarded(lv, os_, oe) for lv in levels]
        self._plans[key] = plan
        self._last_plan = (budget, base, plan)
        return plan

    def region(self, reg: Region) -> list[Span]:
        text, m, cfg = self.text, self.m, self.cfg
        budget = cfg.chunk_size - cfg.chunk_overlap - reg.reserve
        if budget <= 0:
            raise ConfigError(
                f"chunk_size ({cfg.chunk_size} {cfg.unit}) leaves no room once chunk_overlap "
                f"({cfg.chunk_overlap}) and context ({reg.reserve}) are taken; raise chunk_size"
            )
        plan = self.plan(budget, reg.levels if reg.levels is not None else self.segs.levels)
        bi, bj = bisect_left(plan.big_starts, reg.start), bisect_left(plan.big_starts, reg.end)
        tried = False  # whether the region, trimmed to ``[s, e)``, is known not to fit
        if bi == bj and self.whole:  # no atom too big: what :meth:`run` does for a run that fits
            s, e = reg.start, reg.end
            if cfg.trim_spans:
                c = text[s] if s < e else " "
                if c.isspace() or c >= "\u0300":
                    s, e = trim(text, s, e)
                else:  # (the start stays: only the end is trimmed)
                    while e > s and text[e - 1].isspace():
                        e -= 1
            if s >= e:
                return []
            # measured from here (the line's start: only a space or a tab before can be indentation)
            q = indent_start(text, m, s, budget) if cfg.keep_indent and text[s - 1] in " \t" else s
            if self.chars:
                if e - q <= budget:
                    return [Span(s, e, e - s, reg.end_boundary)]
            elif m.advance(q, e, budget) >= e and (n := exact_size(m, q, e)) <= budget:
                return [Span(s, e, n if q == s else exact_size(m, s, e), reg.end_boundary)]
            tried = True
        big = [b for b in plan.big[bi:bj] if b[0].end <= reg.end] if bi < bj else ()
        if big and cfg.oversize == "raise":
            a, s, e, n = big[0]
            what = {"code": "code block", "list_item": "list item"}.get(a.kind, a.kind)
            raise OversizeError(
                f"a {what} at characters {s}-{e} ({n} {cfg.unit}) is larger than chunk_size "
                f"({cfg.chunk_size}); raise chunk_size, or set oversize to 'split' or 'keep'"
            )
        self.protected = plan.protected
        levels = plan.levels
        out: list[Span] = []
        pos = reg.start
        keep = big if big and cfg.oversize == "keep" else ()
        if keep:
            gi, gj = bisect_left(self.glue_starts, reg.start), bisect_left(self.glue_starts, reg.end)
            glue = self.glue[gi:gj]
        for a, s, e, n in keep:
            if a.start < pos:
                continue  # inside an atom kept already (a code block in a list item)
            # the headings glued to a kept atom go with it (it is oversize anyway)
            g0 = next((g[0] for g in glue if pos <= g[0] < s < g[1]), s)
            out += self.run(pos, g0, budget, levels, a.kind)
            if g0 < s:
                n = m.exact(g0, e)
            out.append(Span(g0, e, n, a.kind, n > cfg.chunk_size))
            pos = a.end
        if plan.tight:
            ti, tj = bisect_left(plan.tight_starts, reg.start), bisect_left(plan.tight_starts, reg.end)
            if ti < tj:
                tried = False
                pos = self.tight(plan.tight[ti:tj], reg, pos, budget, levels, out)
        if tried:  # (what :meth:`run` gives: the trim and the test that it fits are done)
            out = self.pack_run(s, e, budget, levels, reg.end_boundary)
        else:
            out += self.run(pos, reg.end, budget, levels, reg.end_boundary)
        if cfg.chunk_overlap and len(out) > 1 and not self.segs.overlap_across_regions:
            if cfg.keep_indent and cfg.indent_overlap:
                # each chunk starts at its line's start before the overlap reaches into it
                # (after, the chunk before reaches past that start: it would stay inside
                # the line); the overlap is then measured with the indentation
                _keep_indent(text, m, out, cfg.chunk_size - reg.reserve)
            out = add_overlap(
                text, m, out, cfg.chunk_size - reg.reserve, cfg.chunk_overlap,
                levels if plan.overlap_levels is None else plan.overlap_levels, trim_spans=cfg.trim_spans,
            )
        if out:
            out[-1].boundary = reg.end_boundary
        return out

    def tight(
        self, tight: list[tuple[Atom, int, int, int]], reg: Region, pos: int, budget: int, levels: list[Level],
        out: list[Span],
    ) -> int:
        """Pack the atoms of ``tight`` (larger than ``budget``, within ``chunk_size``) that
        lie in ``reg`` after ``pos``: the run before each, then the atom whole (with its
        glued heading when :meth:`plan` found that both fit) as one span. Appends
        to ``out``; returns where the rest of the region starts."""
        text = self.text
        for a, s, e, n in tight:
            if a.start < pos or a.end > reg.end:
                continue  # inside an atom packed already (a code block in a list item)
            if s < pos:  # (a heading glued from before ``pos``: the atom alone)
                s = trim(text, a.start, a.end)[0]
                n = exact_size(self.m, s, e)
            before = len(out)
            out += self.run(pos, s, budget, levels, a.kind)
            if len(out) > before:
                out[-1].boundary = _cut_name(text, levels, out[-1].end, s) or a.kind
            out.append(Span(s, e, n, a.kind))
            pos = a.end
            if pos < reg.end:
                ns = trim(text, e, reg.end)[0]
                if ns < reg.end:
                    out[-1].boundary = _cut_name(text, levels, e, ns) or a.kind
        return pos

    def run(self, start: int, end: int, budget: int, levels: list[Level], end_cut: str) -> list[Span]:
        """Pack ``[start, end)`` of one region (no kept atom inside)."""
        text, m, cfg = self.text, self.m, self.cfg
        s, e = trim(text, start, end) if cfg.trim_spans else (start, end)
        if s >= e:
            return []
        q = indent_start(text, m, s, budget) if cfg.keep_indent and text[s - 1] in " \t" else s  # (measured from)
        if self.whole and m.advance(q, e, budget) >= e:
            # a run that fits is one span: no level is searched (most regions of code)
            n = exact_size(m, q, e)
            if n <= budget:
                return [Span(s, e, n if q == s else exact_size(m, s, e), end_cut)]
        return self.pack_run(s, e, budget, levels, end_cut)

    def pack_run(self, s: int, e: int, budget: int, levels: list[Level], end_cut: str) -> list[Span]:
        """:meth:`run` for ``[s, e)`` trimmed, once it is known not to be one span that
        fits: split, then headings lifted and runts evened out."""
        text, m, cfg = self.text, self.m, self.cfg
        scored = self.segs.scored
        if scored is not None:
            from .scored import split_scored

            def rest(a: int, b: int, boundary: str) -> list[Span]:
                return self.greedy(a, b, budget, levels, boundary)

            spans = split_scored(
                text, m, budget, s, e, scored, min_size=self.floor(budget), pack_rest=rest, end_boundary=end_cut
            )
        else:
            spans = self.greedy(s, e, budget, levels, end_cut)
        # sentence windows keep their sentence counts; with sentence overlap only spans
        # that do not overlap are evened out (the passes skip overlapping pairs)
        if cfg.balance and len(spans) > 1 and not (cfg.step or cfg.max_pieces):
            _lift_headings(text, m, spans, budget, cfg.trim_spans, self.protected, levels, cfg.keep_indent)
            balance_spans(text, m, spans, budget, levels, self.floor(budget), cfg.trim_spans, cfg.keep_indent)
        return spans

    def floor(self, budget: int) -> int:
        return max(self.cfg.min_chunk_size, budget // 4)

    def greedy(self, start: int, end: int, budget: int, levels: list[Level], end_cut: str) -> list[Span]:
        cfg = self.cfg
        ready = self._with_words.get(id(levels))
        if ready is None or ready[0] is not levels:  # (the levels of a plan: prepared once)
            all_levels = with_words(levels, cfg.words)
            ready = self._with_words[id(levels)] = (levels, all_levels, _guarded_starts(all_levels))
        out = pack_levels(
            self.text, self.m, budget, ready[1], start, end, cfg.trim_spans, cfg.overlap_pieces, cfg.step,
            cfg.max_pieces, cfg.keep_indent, ready[2],
        )
        if out:
            out[-1].boundary = end_cut
        return out


def balance_spans(
    text: str, m: Measure, spans: list[Span], budget: int, levels: Sequence[Level], floor: int, trim_spans: bool,
    indent: bool = False,
) -> None:
    """No runt where boundaries allow: a span under ``floor`` is joined with the span
    before it (else the one after it) when both fit in one, or evened out with it by
    moving the cut between them to the strongest
    boundary that leaves both at or above the floor and within ``budget`` (a word
    boundary only where the cut was inside a sentence already); the most even cut of that
    level wins. With ``indent`` a span is measured from its line's start
    (:func:`~chunkwise.merge.indent_start`) against the budget. In place."""
    i = 0
    while i < len(spans):
        if spans[i].size < floor and not spans[i].oversize and len(spans) > 1:
            if i > 0 and _even(text, m, spans, i - 1, budget, levels, floor, trim_spans, indent):
                i = max(i - 1, 0)  # a join may leave a runt to look at again
                continue
            if i + 1 < len(spans) and _even(text, m, spans, i, budget, levels, floor, trim_spans, indent):
                continue
        i += 1


def _even(
    text: str, m: Measure, spans: list[Span], j: int, budget: int, levels: Sequence[Level], floor: int,
    trim_spans: bool, indent: bool = False,
) -> bool:
    """Join ``spans[j]`` and ``spans[j + 1]`` when both fit in one, else move the cut
    between them; True when something changed."""
    left, right = spans[j], spans[j + 1]
    if left.oversize or right.oversize or left.end > right.start:
        return False
    total = m.size(left.start, right.end)
    q = indent_start(text, m, left.start, budget) if indent else left.start  # measured from here
    if (
        (total if q == left.start else m.size(q, right.end)) <= budget
        and (n := exact_size(m, left.start, right.end)) <= budget
        and (q == left.start or exact_size(m, q, right.end) <= budget)
    ):
        spans[j : j + 2] = [Span(left.start, right.end, n, right.boundary)]
        return True
    if total > 2 * budget or total < 2 * floor:
        return False
    # only cuts that leave at least the floor on both sides can do (64: trimming slack)
    lo = max(left.start, m.advance(left.start, right.end, floor) - 64)
    hi = min(right.end, m.advance(left.start, right.end, total - floor) + 64)
    word = WORD.name
    usable = [lv for lv in levels if lv.name != word]
    if left.boundary in (word, HARD):  # the cut is inside a sentence already
        # the word level as the strategy gave it (guarded: no cut inside a kept atom or glue)
        words = [lv for lv in levels if lv.name == word][:1] or [WORD]
        if words[0] is WORD:  # then, as in the engine, the words of scripts without spaces
            words.append(DICTIONARY_WORDS)
        usable += words
    start, end = left.start, right.end
    size, exact = m.size, m.is_exact
    chars = type(m) is _CharMeasure
    for level in usable:
        if type(level) is _GuardedPositions:
            # (a parser's level with no cut here: most of a code file's levels)
            positions = level.starts
            k = bisect_right(positions, lo)  # (no start in (lo, hi): no cut)
            if k == len(positions) or positions[k] >= hi or level.first_cut(lo, hi) is None:
                continue
            avoid = None
        else:
            avoid = getattr(level, "avoid", None)
        found: list[tuple[int, int, int]] = []  # (unevenness, piece end, next start)
        best: tuple[int, int, int, int, int] | None = None  # exact sizes: the first most even
        for a, b in level.cuts(text, lo, hi):
            if avoid is not None and avoid(text, a):
                continue
            pe = a
            if trim_spans:
                while pe > start and text[pe - 1].isspace():  # trim_end(text, start, a)
                    pe -= 1
            if chars and (pe - start > budget or best is not None and best[0] <= 2 * pe - start - end - 1):
                # the cuts come in order, so the piece ends never decrease: every cut from
                # here on leaves more than the budget before it, or is at least as uneven
                # as the best (its next start is at least ``pe - 1``: unevenness at least
                # ``2 * pe - start - end - 1``), and the first most even cut is kept
                break
            if trim_spans:
                ns = b  # trim(text, b, end)[0]
                while ns < end and text[ns].isspace():
                    ns += 1
                if ns < end and text[ns] >= "\u0300" and ns > 0 and carries_marks(text[ns - 1]):
                    ns -= is_extender(text[ns])
            else:
                ns = b
            if pe <= start or ns >= end:
                continue
            if chars:
                n1, n2 = pe - start, end - ns
            else:
                n1, n2 = size(start, pe), size(ns, end)
            if n1 < floor or n2 < floor or n1 > budget or n2 > budget:
                continue
            if best is not None and abs(n1 - n2) >= best[0]:
                continue  # (exact sizes: not more even than the best, whatever its indentation)
            if indent:  # each side measured from its line's start
                if q != start and (pe - q if chars else size(q, pe)) > budget:
                    continue
                # (characters: indentation under half the budget matters only to a larger half)
                if (
                    text[ns - 1] in " \t"
                    and (2 * n2 > budget or not chars)
                    and (q2 := indent_start(text, m, ns, budget)) != ns
                    and size(q2, end) > budget
                ):
                    continue
            if exact:
                if best is None or abs(n1 - n2) < best[0]:
                    best = (abs(n1 - n2), pe, ns, n1, n2)
            else:
                found.append((abs(n1 - n2), pe, ns))
        if best is not None:
            # exact sizes (characters, words): the counts above are the exact counts, so
            # the most even cut (the first of equally even ones) is the one taken below
            _, pe, ns, n1, n2 = best
            spans[j] = Span(start, pe, n1, level.name)
            spans[j + 1] = Span(ns, end, n2, right.boundary)
            return True
        # the estimates read from the token offsets may miss by a token or two at a
        # span's edge: the most even cuts are counted exactly, and one is taken only when
        # its counts keep both sides within [floor, budget] -- then the runt is gone for
        # good and balancing moves on (accepting a cut whose count fell under the floor
        # left the runt in place, and balancing moved the same cut forever)
        found.sort(key=lambda c: c[0])  # stable: of equally even cuts, the first
        for _, pe, ns in found[:_EXACT_TRIES]:
            n1 = exact_size(m, start, pe)
            if n1 < floor or n1 > budget or (indent and q != start and exact_size(m, q, pe) > budget):
                continue
            n2 = exact_size(m, ns, end)
            if indent and (q2 := indent_start(text, m, ns, budget)) != ns and exact_size(m, q2, end) > budget:
                continue
            if floor <= n2 <= budget:
                spans[j] = Span(start, pe, n1, level.name)
                spans[j + 1] = Span(ns, end, n2, right.boundary)
                return True
    return False


_EXACT_TRIES = 4  # cuts counted exactly per level when evening out a pair (bounds the work)


def _merge_small(regions: Sequence[Region], m: Measure, budget: int, small: int) -> list[Region]:
    """Join a small region with the next while the next is not of a stronger level (a
    sibling or a subsection) and the two fit ``budget`` with the larger reserve."""
    out: list[Region] = []
    for r in regions:
        if out:
            p = out[-1]
            if p.level >= 0 and r.level >= p.level and (m.size(p.start, p.end) < small or m.size(r.start, r.end) < small):
                reserve = max(p.reserve, r.reserve)
                if m.size(p.start, r.end) + reserve <= budget:
                    out[-1] = Region(p.start, r.end, reserve, r.end_boundary, p.levels, p.level)
                    continue
        out.append(r)
    return out


def pack_segments(text: str, measure: Measure, segments: Segments, config: PackConfig) -> list[Span]:
    """Pack a document's segments into spans of at most ``config.chunk_size`` units.

    Args:
        text: the document text.
        measure: the sizer's measure of ``text`` (one tokenization).
        segments: what the strategy's parser found.
        config: sizes and policies.

    Returns:
        Spans in document order. Each fits ``chunk_size`` exactly (a kept atom or a single
        grapheme cluster larger than it is flagged ``oversize``); with ``chunk_overlap``
        consecutive spans share up to that much.

    Raises:
        OversizeError: an atom larger than the budget under ``oversize="raise"``.
    """
    if "\r" in text:  # (a text without a carriage return pays this test only)
        twin = segments.twin  # (the parser's, when it read the twin)
        if twin is None or len(twin) != len(text):
            twin = line_feed_twin(text)
        if twin is not None:
            segments = _reading_text(segments, text)
            text = twin
    regions = segments.regions if segments.regions is not None else (Region(0, len(text)),)
    if config.merge_small_regions and config.min_chunk_size:
        regions = _merge_small(regions, measure, config.chunk_size - config.chunk_overlap, config.min_chunk_size)
    packer = _RegionPacker(text, measure, segments, config)
    out: list[Span] = []
    for reg in regions:
        out += packer.region(reg)
    if out:
        out[-1].boundary = END
    if segments.overlap_across_regions and config.balance and len(out) > 1:  # soft regions
        every = _merge_ranges([(a.start, a.end) for a in segments.atoms] + list(segments.glue))
        _lift_headings(
            text, measure, out, config.chunk_size - config.chunk_overlap, config.trim_spans, every, segments.levels,
            config.keep_indent,
        )
    if segments.overlap_across_regions and config.chunk_overlap and len(out) > 1:
        if config.keep_indent and config.indent_overlap:
            _keep_indent(text, measure, out, config.chunk_size)
        out = add_overlap(
            text, measure, out, config.chunk_size, config.chunk_overlap, segments.levels, trim_spans=config.trim_spans
        )
    if config.keep_indent:
        _keep_indent(text, measure, out, config.chunk_size)
    limit = config.chunk_size
    for s in out:  # packing used chunk_size - chunk_overlap; oversize means over chunk_size
        s.oversize = s.size > limit
    return out


def _keep_indent(text: str, m: Measure, spans: list[Span], chunk_size: int) -> None:
    """Move each span's start back over the spaces and tabs that begin its line. In
    place (a span's own values change: the packer's spans are not shared)."""
    prev_end = 0
    exact = m.exact
    chars = type(m) is _CharMeasure
    rfind = text.rfind
    for sp in spans:
        s = sp.start
        # (only a space or a tab before the start can be indentation)
        if s > prev_end and text[s - 1] in " \t":
            ls = rfind("\n", 0, s) + 1
            if ls >= prev_end and not text[ls:s].strip(" \t"):
                n = sp.end - ls if chars else exact(ls, sp.end)
                if n <= chunk_size or n <= sp.size:
                    sp.start = ls
                    sp.size = n
        prev_end = sp.end


# a pattern that names a carriage return: the character itself, or ``\r`` after an even
# number of backslashes (``\\r`` is a backslash and the letter r)
_NAMES_CR = re.compile(r"\r|(?<!\\)(?:\\\\)*\\r")


@dataclass(frozen=True, slots=True)
class _OnText:
    """A level that reads carriage returns itself (a user's ``"\\r"`` separator), searched
    in the text rather than in the twin the packer reads (:func:`line_feed_twin`)."""

    level: RegexLevel
    text: str
    name: str
    avoid: Callable[[str, int], bool] | None = None
    windowable = True

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        return self.level.cuts(self.text, start, end)

    def cuts_reversed(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        return self.level.cuts_reversed(self.text, start, end)


def _names_cr(level: Level) -> bool:
    return type(level) is RegexLevel and _NAMES_CR.search(level.pattern.pattern) is not None


def _reading_text(segments: Segments, text: str) -> Segments:
    """``segments`` with each level that names a carriage return (:func:`_names_cr`)
    searched in ``text`` (usually none: ``segments`` itself)."""
    done: dict[int, tuple[Level, ...]] = {}

    def levels(found: tuple[Level, ...]) -> tuple[Level, ...]:
        key = id(found)
        if key not in done:
            out = []
            for lv in found:
                if _names_cr(lv):
                    own = lv.avoid
                    avoid = None if own is None else (lambda _t, a, own=own: own(text, a))
                    lv = _OnText(lv, text, lv.name, avoid)  # type: ignore[arg-type]
                out.append(lv)
            done[key] = tuple(out)
        return done[key]

    if not any(_names_cr(lv) for lv in segments.levels) and not any(
        r.levels and any(_names_cr(lv) for lv in r.levels) for r in segments.regions or ()
    ):
        return segments
    regions = segments.regions
    if regions is not None:
        regions = tuple(r if r.levels is None else replace(r, levels=levels(r.levels)) for r in regions)
    return replace(segments, levels=levels(segments.levels), regions=regions)
