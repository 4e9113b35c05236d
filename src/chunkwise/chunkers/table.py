"""Tables by rows: CSV and TSV documents, and the pipe tables of any text.

The table parser (:mod:`chunkwise.parsers.table`) finds every table with exact offsets --
its header rows, its body rows and, on demand, their cells -- and the one packer packs
each table on its own:

* rows are atomic: a chunk ends between rows, and a table that does not fit is packed by
  rows; the header rows (with a pipe table's ``|---|`` line) stay with the first body
  row and are repeated in ``chunk.context`` of every later chunk of the table (the
  first chunk holds them in its text already); a header larger than ``chunk_size`` is
  cut on its own (no body row shares a chunk with a part of it), between its rows; a
  pipe table's ``|---|`` line stays with the header row above it while the two fit
  together, else it goes with the first body row, while those fit (a chunk that starts
  with it has the header rows above it in ``context``): it is a chunk of its own only
  when it fits with neither, and no header row that fits is cut for it (a rule of the
  parse, which the packer honours: see :meth:`TableChunker._delimiter_row`);
* a single row larger than ``chunk_size`` follows ``oversize``: ``"split"`` between its
  cells (then inside a cell: lines, sentences, words), each later part with the header
  and the row's first cell in ``context`` (an empty first cell: its delimiter, the tab of
  a TSV row); a split row starts a chunk (its first part holds more than the first cell
  when the next cell is cut anyway), and the rows after it start a new one; a part under
  a quarter of ``chunk_size`` is evened out with the next or the one before at a word of
  a cell cut anyway, else of any cell but the first (cuts between cells first; a header
  chunk above a split first row is one of its parts);
  a pipe row's cell padded with spaces is cut at the end of its text too (a cell that
  fits is not cut between its words for its padding), and a part of only pipes goes with
  the part before it, else after it, where they fit together;
  ``"keep"`` (one chunk flagged
  ``metadata["oversize"]``) or ``"raise"`` (:class:`~chunkwise.errors.OversizeError`);
* text outside tables is packed like ``"recursive"`` (paragraphs, lines, sentences,
  words), apart from the tables.

Method:
    Row-atomic table chunking with repeated headers (as docling's and chonkie's table
    chunkers intend), on chunkwise's one packer: a table is a region whose strongest
    level is the row; cuts inside a row exist only in rows that may not fit.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from heapq import merge
from operator import sub
from typing import Any, Literal

from ..boundaries import LINE, WORD, Level, PositionsLevel
from ..errors import ConfigError
from ..merge import Span
from ..enrich import build_chunks
from .._text import trim
from ..packer import OVERSIZE_POLICIES, OversizePolicy, PackConfig, balance_spans, pack_segments
from ..parsers.table import Table, delimited_table, find_pipe_tables
from ..registry import register
from ..segments import Atom, Label, Region, Segments
from ..sentences import SentenceSegmenter
from ..sizers import Measure, Sizer
from ..words import DICTIONARY_WORDS
from ..types import Chunk, Document, _Derived
from .base import BaseChunker, as_document
from .recursive import DEFAULT_LEVELS

__all__ = [
    "DELIMITED_FORMATS", "TableChunker", "TablesLabel", "row_atoms", "size_bound", "table_context"
]

DELIMITED_FORMATS = {"csv": None, "tsv": "\t"}
"""Document formats read as one delimited table, and their delimiter (None: sniffed)."""

_KEY = "_table"
_CELL_WORD = "table_cell_word"  # (a word cut inside a cell, for balancing; named "word" in chunks)


@dataclass(frozen=True)
class _Within:
    """The cuts of ``level`` strictly inside the ranges ``[starts[k], ends[k])`` only
    (the rows that may not fit): no cut inside any other row, even when balancing."""

    name: str
    level: Level
    starts: Sequence[int]
    ends: Sequence[int]

    @property
    def windowable(self) -> bool:
        return bool(getattr(self.level, "windowable", False))

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        starts, ends = self.starts, self.ends
        k = bisect_right(ends, start)
        n = len(starts)
        while k < n and starts[k] < end:
            yield from self.level.cuts(text, max(starts[k], start), min(ends[k], end))
            k += 1


@dataclass(frozen=True)
class _Words:
    """Word boundaries: whitespace, and the dictionary words of scripts written without
    spaces (as the packer's word fallback reads them), in order."""

    name: str = WORD.name

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        return merge(WORD.cuts(text, start, end), DICTIONARY_WORDS.cuts(text, start, end))


_WORDS = _Words()


@dataclass(frozen=True, eq=False)
class _TableInfo:
    """The label value of a table: the table and its position among the document's."""

    table: Table
    index: int
    text: str
    shared: dict[str, Any] = field(default_factory=dict, repr=False)


def size_bound(sizer: Sizer, text: str) -> Callable[[int, int], int]:
    """An upper bound of the size of ``text[s:e]`` that costs no counting: characters
    and words, at most the length; tokens, at most the UTF-8 bytes plus one."""
    unit = sizer.unit
    if unit in ("chars", "words"):
        return lambda s, e: e - s
    if text.isascii():
        return lambda s, e: e - s + 1

    def utf8(s: int, e: int) -> int:
        return len(text[s:e].encode("utf-8", "surrogatepass")) + 1

    return utf8


def row_atoms(
    text: str, t: Table, budget: int, bound: Callable[[int, int], int], padded: bool = False
) -> list[Atom]:
    """Atoms for the rows of ``t`` that may be larger than ``budget`` (``bound`` of their
    span above it), and for its header when it may: each cut between its cells. A header
    of several rows (a pipe table's ``|---|`` line is one) is cut between its rows first
    (``"table_row"`` cuts), and each of its rows that may be larger than ``budget`` is an
    atom of its own, cut between its cells. Rows that certainly fit need no atom: no cut
    inside them exists (see :class:`_Within`). ``padded``: a pipe row is also cut at the
    end of the text of each cell padded with spaces (see :func:`_padded`)."""
    out: list[Atom] = []
    hs, he = t.header
    he = _rstrip(text, hs, he)
    if hs < he and bound(hs, he) > budget:
        heads = t.header_starts
        if len(heads) < 2:
            cuts = tuple(c for c in t.cell_cuts(text, hs, he) if hs < c < he)
            if padded and t.kind == "pipe":
                cuts = _padded(text, hs, he, cuts)
            out.append(Atom(hs, he, "table_header", cuts, "table_cell"))
        else:
            out.append(Atom(hs, he, "table_header", tuple(c for c in heads[1:] if hs < c < he), "table_row"))
            for s, e in _pairs(heads, he):
                e = _rstrip(text, s, e)
                if s < e and bound(s, e) > budget:
                    cuts = tuple(c for c in t.cell_cuts(text, s, e) if s < c < e)
                    if padded and t.kind == "pipe":
                        cuts = _padded(text, s, e, cuts)
                    out.append(Atom(s, e, "table_header", cuts, "table_cell"))
    rows = t.rows
    nrows = len(rows)
    for k in range(nrows):
        rs = rows[k]
        re_ = _rstrip(text, rs, rows[k + 1] if k + 1 < nrows else t.end)
        if bound(rs, re_) > budget:
            cuts = tuple(c for c in t.cell_cuts(text, rs, re_) if rs < c < re_)
            if padded and t.kind == "pipe":
                cuts = _padded(text, rs, re_, cuts)
            out.append(Atom(rs, re_, "table_row", cuts, "table_cell"))
    return out


def _padded(text: str, start: int, end: int, cuts: tuple[int, ...]) -> tuple[int, ...]:
    """The cell cuts of the pipe row ``[start, end)``, and a cut at the end of the text of
    each cell padded with more than one space (before the padding): a cell that fits is
    then a part with its text whole, never cut between its words because of its padding."""
    out: list[int] = []
    last = end - 1 if end - start > 1 and text[end - 1] == "|" else end
    prev = start
    for c in (*cuts, last):
        q = _rstrip(text, prev, c)
        if prev < q and c - q > 1 and q not in out:
            out.append(q)
        if c < end and c not in out and c > start:
            out.append(c)
        prev = c
    return tuple(c for c in out if start < c < end)


@register("table")
@dataclass(frozen=True, kw_only=True)
class TableChunker(BaseChunker):
    """Chunk tables by rows, with the header in ``context``; text around them as recursive.

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker` (an overlap
            stays inside its table, whole rows first; a row that fits ``chunk_size`` is
            never cut: one larger than ``chunk_size - chunk_overlap`` is a chunk of its
            own, without overlap).
        row_format: ``"text"`` (default): ``context`` of a chunk that continues a table is
            its header rows (and, for a chunk that starts inside a row, that row's first
            cell); ``"kv"``: ``context`` is one line per row of the chunk, ``column:
            value; column: value`` (for embedding: every value named by its column); a
            part of a split row names the row's first cell whole (its key) and the cells
            whose text lies in the part, a cut cell by its piece there. An empty cell is
            left out, as the missing cells of a short row are (a row without a value has
            no line). A line break inside a value is written as a space. The chunk does
            not hold these lines: it computes them on access of ``context`` from its
            table and its document's text (the same string each time; the table keeps
            the last one computed, so a second read of the same chunk's context is
            free; a pickle or a copy holds the string). The chunk text is the exact source slice either way.
        oversize: a row larger than ``chunk_size``: ``"split"`` between cells, ``"keep"``
            whole (flagged ``metadata["oversize"]``) or ``"raise"`` ``OversizeError``.
        header_rows: CSV/TSV: how many records, from the first, are the header (0: none;
            columns are then ``"column 1"``, ...; more than the table has: ``ConfigError``).
            Pipe tables say it themselves. A header larger than ``chunk_size`` follows
            ``oversize``: ``"split"`` between its rows (a row too big: between its cells;
            a pipe table's delimiter row stays with the header row above it when the two
            fit together, else with the first body row when those fit, see
            :meth:`_delimiter_row`).
        delimiter: CSV: the cell delimiter (default: sniffed among ``, ; tab |``).

    Documents whose ``metadata["format"]`` is ``"csv"`` or ``"tsv"`` (``chunkwise.load``
    of ``.csv`` and ``.tsv`` files) are one delimited table; any other text is searched for
    Markdown pipe tables (HTML pages load as Markdown, their tables as pipe tables). A CSV
    or TSV chunk starts at its first row's start when only spaces and tabs come before it
    there (a TSV row's empty first cells), unless they take half of ``chunk_size``; a TSV
    chunk ends at its last row's end when only tabs and spaces come after it there (the
    row's empty last cells), while it fits.

    Chunk metadata (chunks of a table): ``table_index`` (0-based, in the document),
    ``columns`` (the column names), ``row_start`` and ``row_end`` (the 0-based body rows
    the chunk holds, half-open: a chunk of rows 3 and 4 has 3 and 5; a part of row 7
    has 7 and 8), ``oversize``.

    Method:
        Row-atomic packing with repeated headers on the one packer (see the module
        docstring).

    Example:
        >>> doc = "| a | b |\\n|---|---|\\n| 1 | 2 |\\n| 3 | 4 |\\n| 5 | 6 |\\n"
        >>> cs = TableChunker(chunk_size=30).chunk(doc)
        >>> [(c.text, c.context, c.metadata["row_start"], c.metadata["row_end"]) for c in cs]
        [('| a | b |\\n|---|---|\\n| 1 | 2 |', '', 0, 1), ('| 3 | 4 |\\n| 5 | 6 |', '| a | b |\\n|---|---|', 1, 3)]
    """

    row_format: Literal["text", "kv"] = "text"
    oversize: OversizePolicy = "split"
    header_rows: int = 1
    delimiter: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.row_format not in ("text", "kv"):
            raise ConfigError(f"row_format must be 'text' or 'kv', not {self.row_format!r}")
        if self.oversize not in OVERSIZE_POLICIES:
            raise ConfigError(f"oversize must be one of 'split', 'keep', 'raise', not {self.oversize!r}")
        h = self.header_rows
        if isinstance(h, bool) or not isinstance(h, int) or h < 0:
            raise ConfigError(f"header_rows must be an integer >= 0, not {h!r}")
        d = self.delimiter
        if d is not None and (not isinstance(d, str) or len(d) != 1 or d in "\r\n\"'"):
            raise ConfigError(f"delimiter must be one character (not a quote or line break), not {d!r}")

    def tables(self, document: Document) -> list[Table]:
        """The tables of ``document``: one delimited table for CSV/TSV, else its pipe tables."""
        text = document.text
        fmt = document.metadata.get("format")
        if fmt in DELIMITED_FORMATS:
            t = delimited_table(
                text, delimiter=DELIMITED_FORMATS[fmt] or self.delimiter, header_rows=self.header_rows
            )
            if t is not None and t.unclosed >= 0:
                _warn_unclosed(document, t.unclosed)
            if t is not None and self.header_rows > len(t.header_starts):
                n = len(t.header_starts)
                raise ConfigError(
                    f"header_rows={self.header_rows} but the table has only {n} record{'s' * (n != 1)}; "
                    "give header_rows at most the number of records (the header rows are the first records)"
                )
            return [t] if t is not None else []
        return find_pipe_tables(text)

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Regions (each table, and the text between tables), the row level of each table,
        atoms (rows that may not fit, with their cell cuts), the glue of a header to the
        first row, and one label per table."""
        text = document.text
        n = len(text)
        budget = self.chunk_size - self.chunk_overlap
        bound = size_bound(self._sizer, text)
        regions: list[Region] = []
        atoms: list[Atom] = []
        glue: list[tuple[int, int]] = []
        labels: list[Label] = []
        pos = 0
        for index, t in enumerate(self.tables(document)):
            if pos < t.start and text[pos : t.start].strip():
                regions.append(Region(pos, t.start, end_boundary="table"))
            rows = t.rows
            # (rows that fit chunk_size are never cut: with an overlap too, only rows
            # larger than chunk_size itself are cut between their cells)
            found = row_atoms(text, t, self.chunk_size, bound, padded=True)
            hs, he = t.header
            own = self._own_header(text, t, budget, bound, measure) if self.chunk_overlap else []
            if len(own) > 1:  # (the header's rows are regions of their own: no cut between them needed)
                found = [a for a in found if a.cut_name != "table_row"]
            if not own and self.oversize == "split" and self._wide_header(text, t, measure):
                # a header larger than ``chunk_size`` is cut: a region of its own, so that no
                # body row shares a chunk with a part of it (that chunk would start inside
                # the header and have no header in ``context``)
                own = [(hs, _rstrip(text, hs, he), False, 0)]
            if own and self.oversize == "split":
                # a header cut between its rows: the delimiter row stays with a row next to it
                found, own = self._delimiter_row(text, t, found, own, measure, glue)
            # the rows split between their cells (``split``), and the ranges where lines,
            # sentences and words may cut each big row (not between its first cell and the
            # next where a part may not hold that cell alone, see :meth:`_first_cut`)
            split = []
            big_s: list[int] = []
            big_e: list[int] = []
            for i, a in enumerate(found):
                gap = None
                if a.kind == "table_header" and a.cut_name == "table_row":
                    continue  # (cut between its rows; inside a row only where that row is an atom)
                if a.kind == "table_row" and self._split(text, a.start, a.end, self.chunk_size, measure):
                    first = hs < he and a.start == rows[0] and not own
                    split.append((i, first))
                    found[i], gap = self._first_cut(text, t, a, hs if first else a.start, budget, measure)
                if gap is None:
                    big_s.append(a.start)
                    big_e.append(a.end)
                    continue
                if a.start < gap[0]:
                    big_s.append(a.start)
                    big_e.append(gap[0])
                big_s.append(gap[1])
                big_e.append(a.end)
            nrows = len(rows)
            if hs < he and nrows and not own:
                r0, r1 = t.row_span(0)
                while r1 > r0 and text[r1 - 1].isspace():
                    r1 -= 1
                glue.append((hs, r1))
            within = tuple(_Within(lv.name, lv, big_s, big_e) for lv in (LINE, SentenceSegmenter(), WORD))
            levels = (PositionsLevel("table_row", rows, rows), *within)
            if split:
                # the words of the cells that a split row cuts anyway (larger than the
                # budget): the packer evens out a small part with them when no cut between
                # cells can (see :meth:`_cell_words`)
                words = self._cell_words(text, t, [found[i] for i, _ in split], budget, bound, measure)
                if words is not None:
                    levels += (words,)
            # a row split between its cells is a region of its own: its first part starts
            # at the row's start (packed after other rows, its first cells would end their
            # chunk, apart from the rest of the row), and the rows after it start a new
            # chunk, whose context is the header alone (packed with the split row's last
            # part, whole rows would sit under that row's first cell in ``context``). The
            # first body row stays with the header rows, glued to it.
            # With an overlap, the packer packs at ``chunk_size - chunk_overlap``: a row
            # larger than that that fits ``chunk_size`` is a region of its own, packed
            # whole at ``chunk_size`` (a reserve of minus the overlap; one chunk, so no
            # overlap pass inside it), never cut.
            own += [(found[i].start, found[i].end, first, 0) for i, first in split]
            if self.chunk_overlap:
                own += self._tight_rows(text, t, budget, bound, measure, {found[i].start for i, _ in split})
                own.sort()
            rs = t.start
            for a_start, a_end, first, reserve in own:
                if rs < a_start and (not first or reserve) and text[rs:a_start].strip():
                    regions.append(Region(rs, a_start, end_boundary="table_row", levels=levels, level=-1))
                    rs = a_start
                regions.append(Region(rs, a_end, reserve, end_boundary="table_row", levels=levels, level=-1))
                rs = a_end
            regions.append(Region(rs, t.end, end_boundary="table", levels=levels, level=-1))
            atoms += found
            labels.append(Label(t.start, t.end, _KEY, _TableInfo(t, index, text), "overlap"))
            pos = t.end
        if pos < n and text[pos:].strip():
            regions.append(Region(pos, n))
        return Segments(
            levels=DEFAULT_LEVELS,
            regions=tuple(regions) if regions else None,
            atoms=tuple(atoms),
            glue=tuple(glue),
            labels=tuple(labels),
            atom_levels_at=1,
        )

    def _own_header(
        self, text: str, t: Table, budget: int, bound: Callable[[int, int], int], measure: Measure | None
    ) -> list[tuple[int, int, bool, int]]:
        """With an overlap: the regions of the header of ``t`` when it is larger than
        ``budget`` (``chunk_size - chunk_overlap``): the whole header when it fits
        ``chunk_size`` (packed whole, see :meth:`_tight_rows`), else each header row, whole
        when it fits ``chunk_size``, else cut between its cells. Empty: the header fits
        ``budget`` (packed with the rows)."""
        hs, he = t.header
        he = _rstrip(text, hs, he)
        if hs >= he or bound(hs, he) <= budget or self._size(text, hs, he, measure) <= budget:
            return []
        ov, limit = self.chunk_overlap, self.chunk_size
        if self._size(text, hs, he, measure) <= limit:
            return [(hs, he, False, -ov)]
        if self.oversize != "split":  # (kept whole, or raised, as its atom says)
            return [(hs, he, False, 0)]
        out = []
        for s, e in _pairs(t.header_starts, he):
            e = _rstrip(text, s, e)
            if s < e:
                out.append((s, e, False, -ov if self._size(text, s, e, measure) <= limit else 0))
        return out

    def _delimiter_row(
        self, text: str, t: Table, found: list[Atom], own: list[tuple[int, int, bool, int]], measure: Measure | None,
        glue: list[tuple[int, int]],
    ) -> tuple[list[Atom], list[tuple[int, int, bool, int]]]:
        """The atoms and header regions of ``t`` (a header cut between its rows, ``own``)
        with a pipe table's delimiter row (``|---|``) kept with a row next to it while it
        fits ``chunk_size``: with the last header row when the two fit together (no cut
        between them); else it leaves the header for the body, glued to the first body
        row (``glue``, appended to), which it goes with when the two fit the budget. A
        chunk that starts with it has the header rows above it in ``context``. So the
        delimiter row is a chunk of its own only when it fits with neither row."""
        heads = t.header_starts
        hs, he = t.header
        if t.kind != "pipe" or len(heads) < 2:
            return found, own
        lh, ds = heads[-2], heads[-1]
        de = _rstrip(text, ds, he)
        lh_end = _rstrip(text, lh, ds)
        if not (lh < lh_end and ds < de) or self._size(text, ds, de, measure) > self.chunk_size:
            return found, own
        together = self._size(text, lh, de, measure) <= self.chunk_size
        out = []
        for a in found:
            if a.kind == "table_header" and a.cut_name == "table_row":
                cuts = tuple(c for c in a.cuts if c != ds and (together or c < lh_end))
                a = replace(a, cuts=cuts) if together else Atom(hs, lh_end, a.kind, cuts, a.cut_name)
                if a.start >= a.end:
                    continue
            out.append(a)
        if together:
            if len(own) > 1 and own[-1][0] == ds:  # (a region a row: the last two are one)
                own = [*own[:-2], (own[-2][0], own[-1][1], False, -self.chunk_overlap)]
            return out, own
        own = [(s, min(e, lh_end), first, r) for s, e, first, r in own if s < lh_end]
        if len(t.rows):
            r0, r1 = t.row_span(0)
            glue.append((ds, _rstrip(text, r0, r1)))
        return out, own

    def _wide_header(self, text: str, t: Table, measure: Measure | None) -> bool:
        """Whether the header of ``t`` (trimmed) is larger than ``chunk_size``."""
        hs, he = t.header
        he = _rstrip(text, hs, he)
        return hs < he and self._size(text, hs, he, measure) > self.chunk_size

    def _tight_rows(
        self, text: str, t: Table, budget: int, bound: Callable[[int, int], int], measure: Measure | None,
        skip: set[int],
    ) -> list[tuple[int, int, bool, int]]:
        """The body rows of ``t`` (not starting at an offset in ``skip``: the rows split
        anyway) larger than ``budget`` (``chunk_size - chunk_overlap``): ``(start, end,
        False, -chunk_overlap)`` each, the region of one row packed whole (it fits
        ``chunk_size``: an atom of a row that may not fit is protected there)."""
        out = []
        rows = t.rows
        nrows = len(rows)
        for k in range(nrows):
            rs = rows[k]
            if rs in skip:
                continue
            re_ = _rstrip(text, rs, rows[k + 1] if k + 1 < nrows else t.end)
            if bound(rs, re_) > budget and self._size(text, rs, re_, measure) > budget:
                out.append((rs, re_, False, -self.chunk_overlap))
        return out

    def _split(self, text: str, start: int, end: int, budget: int, measure: Measure | None) -> bool:
        """Whether the row ``[start, end)`` (trimmed) is split between its cells: larger
        than ``budget`` under ``oversize="split"`` (as the packer finds it)."""
        if self.oversize != "split":
            return False
        while start < end and text[start].isspace():
            start += 1
        if start >= end:
            return False
        n = measure.exact(start, end) if measure is not None else self._sizer.count(text[start:end])
        return n > budget

    def _first_cut(
        self, text: str, t: Table, a: Atom, start: int, budget: int, measure: Measure | None
    ) -> tuple[Atom, tuple[int, int] | None]:
        """The split row ``a`` of ``t``, and the range between its first cell and the next
        where no cut may be (None: no such range).

        When the first part, from ``start`` (the row's start, or the header's above the
        first row), would hold the first cell alone (it fits, and the next cell does not
        fit beside it) and the next cell is cut anyway (it does not fit alone), the row
        loses its cut after the first cell, and no cut of words comes between the two
        cells: every later part repeats the first cell in ``context``, so a part of it
        alone would say nothing more; the first part holds the first cell and as much of
        the row as fits. (A next cell that fits alone keeps the cut: it stays whole.)"""
        cuts = a.cuts
        if not cuts:
            return a, None
        nxt = cuts[1] if len(cuts) > 1 else a.end
        size = self._size
        if size(text, start, cuts[0], measure) <= budget < size(text, cuts[0], nxt, measure):
            cells = t.cells(text, a.start, a.end)
            lo = cells[0][1]
            while lo > a.start and text[lo - 1] in " \t":
                lo -= 1
            hi = max(t.first_cell_end(text, a.start, a.end), cuts[0])
            while hi < a.end and text[hi] in " \t":
                hi += 1
            return replace(a, cuts=cuts[1:]), (lo, hi)
        return a, None

    def _cell_words(
        self,
        text: str,
        t: Table,
        rows: Sequence[Atom],
        budget: int,
        bound: Callable[[int, int], int],
        measure: Measure | None,
    ) -> _Within | None:
        """The word cuts inside the cells of the split ``rows`` of ``t`` that are larger
        than ``budget`` (cut in any case), as a level that balancing may use.

        The packer's balancing moves a cut to a word boundary only where the cut was
        inside a sentence already; a part of a split row ends between cells, so a small
        cell between a cell that fits and one cut anyway (``k1,"lorem ...",NoKey,"ipsum
        ...``) stayed a part of its own. This level, after every other, lets balancing
        join such a part with the start (or the end) of a cell that is cut in any case;
        a cell that fits is never cut for it, and the cuts between cells are tried first.
        Words end at spaces and, in scripts written without spaces, at their dictionary
        words (:data:`~chunkwise.words.DICTIONARY_WORDS`: a CJK cell cut anyway is cut
        between words, not at any character). Its cuts are named ``"word"`` in the
        chunks (see :meth:`_pack`). None: no such
        cell (``bound``, an upper bound of a size, rules out most rows without reading
        their cells)."""
        starts: list[int] = []
        ends: list[int] = []
        size = self._size
        lengths = self._sizer.unit in ("chars", "words")  # (then ``bound`` is the length)
        for a in rows:
            edges = (a.start, *a.cuts, a.end)  # (a cell lies between two of the row's cuts)
            widest = max(map(sub, edges[1:], edges))
            if lengths:
                big = widest > budget
            else:  # (a bound of tokens: at most 4 bytes a character, plus one)
                big = 4 * widest >= budget and not all(map(_fits(bound, budget), edges, edges[1:]))
            if not big:
                continue
            for cs, ce in t.cells(text, a.start, a.end):
                while cs < ce and text[cs].isspace():
                    cs += 1
                while ce > cs and text[ce - 1].isspace():
                    ce -= 1
                if ce - cs > 1 and size(text, cs, ce, measure) > budget:
                    starts.append(cs)
                    ends.append(ce)
        return _Within(_CELL_WORD, _WORDS, starts, ends) if starts else None

    def _size(self, text: str, start: int, end: int, measure: Measure | None) -> int:
        """The size of ``text[start:end]`` with its edges' whitespace trimmed."""
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            return 0
        return measure.exact(start, end) if measure is not None else self._sizer.count(text[start:end])

    def pack_options(self) -> dict[str, Any]:
        return {"oversize": self.oversize}

    def delimited_config(self, document: Document) -> PackConfig:
        """The packing configuration for ``document``: a CSV or TSV document keeps the
        spaces and tabs that begin a chunk's first row (``keep_indent``): an empty first
        cell of a TSV row is a tab, and trimmed away it would shift the row's values under
        the wrong columns of the header in ``context``."""
        config = self.pack_config()
        if document.metadata.get("format") in DELIMITED_FORMATS:
            config = replace(config, keep_indent=True)
        return config

    def spans(self, document: Document, measure: Measure) -> list[Span]:
        return self._pack(document, measure, self.parse(document, measure))

    def _pack(self, document: Document, measure: Measure, segments: Segments) -> list[Span]:
        """The packed spans; a span that ends before the empty last cells of its row (the
        tabs that end a TSV row) holds them when it still fits (see :func:`_keep_last_cells`)."""
        config = self.delimited_config(document)
        spans = pack_segments(document.text, measure, segments, config)
        if config.balance and not config.chunk_overlap and self.oversize == "split":
            _even_split_rows(document.text, measure, spans, segments, config)
        _keep_last_cells(document.text, measure, spans, segments.labels, self.chunk_size)
        tables = [lb.value.table for lb in segments.labels if lb.key == _KEY]
        _join_pipes(document.text, measure, spans, tables, self.chunk_size)
        for sp in spans:
            if sp.boundary == _CELL_WORD:
                sp.boundary = WORD.name
        return spans

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document (see :meth:`BaseChunker.chunk`); a CSV or TSV
        chunk starts at its first row's start (see :meth:`delimited_config`)."""
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        segments = self.parse(doc, measure)
        spans = self._pack(doc, measure, segments)
        del measure
        context, annotate = self._context_fn(), self._annotator(doc)
        if self.row_format == "kv" and type(self).context is TableChunker.context:
            context = self._derived_context  # (the same context, computed on access)
        return build_chunks(doc, _drain(spans), self._sizer.unit, segments.labels, context, annotate)

    def context(self, metadata: Mapping[str, Any], span: Span) -> str:
        """A table chunk's context (the header, or ``column: value`` lines); its
        ``table_index``, ``columns``, ``row_start`` and ``row_end`` go to the metadata."""
        info = metadata.pop(_KEY, None) if isinstance(metadata, dict) else None
        if info is None:
            return ""
        meta: dict[str, Any] = metadata  # type: ignore[assignment]
        return table_context(meta, span, info.table, info.index, info.text, self.row_format, info.shared)

    def _derived_context(self, metadata: Mapping[str, Any], span: Span) -> str | _Derived:
        """:meth:`context`, but a ``"kv"`` context as the table's :class:`_KvContext`
        (shared by its chunks), which each chunk computes its context from on access
        instead of holding the ``column: value`` lines."""
        info = metadata.pop(_KEY, None) if isinstance(metadata, dict) else None
        if info is None:
            return ""
        meta: dict[str, Any] = metadata  # type: ignore[assignment]
        return _table_context(meta, span, info.table, info.index, info.text, self.row_format, info.shared)


def table_context(
    metadata: dict[str, Any],
    span: Span,
    t: Table,
    index: int,
    text: str,
    row_format: str = "text",
    shared: dict[str, Any] | None = None,
) -> str:
    """Sets the table metadata of the chunk ``span`` of table ``t`` (the ``index``-th table
    of the document) and returns its table context.

    Metadata: ``table_index``, ``columns`` (the column names), ``row_start`` and
    ``row_end`` (the 0-based body rows the chunk holds, half-open; a part of one row has
    ``k`` and ``k + 1``). Context (``row_format="text"``): empty when the chunk holds the
    table's start (the header is in its text), else the header rows (with a pipe table's
    delimiter row), and, when the chunk starts inside a row, that row's first cell (with
    its delimiter; an empty one: the delimiter alone);
    ``"kv"``: one ``column: value; ...`` line per row of the chunk; for a part of a split
    row, the row's first cell whole (its key, as the text marker repeats it) and the cells
    whose text lies in the part, each cut cell by the piece of its value there (every cell
    of the row with a value is named in a part that holds it; no part repeats the whole
    row); an empty cell (or an empty piece of a cut cell) is left out, as a short row's
    missing cells are, and a row without a value has no line; a line break in a value (or
    a column name) is a space: one line per row. A chunk that starts at (or inside) a
    pipe table's delimiter row has the header rows above it in ``context`` (the
    ``table`` and ``markdown`` strategies alike).

    ``shared``: a dict kept across the chunks of one table, where the column list and the
    header context are made once and then shared by every chunk of the table (one string
    and one list per table instead of one per chunk: 50,000 rows in chunks of a few rows
    made thousands of equal copies), and a chunk's ``row_start`` is the integer object of
    the ``row_end`` before it when they are equal.
    """
    c = _table_context(metadata, span, t, index, text, row_format, shared)
    return c if c.__class__ is str else c.value(span.start, span.end)  # type: ignore[union-attr]


def _table_context(
    metadata: dict[str, Any],
    span: Span,
    t: Table,
    index: int,
    text: str,
    row_format: str = "text",
    shared: dict[str, Any] | None = None,
) -> str | _Derived:
    """:func:`table_context`, but a ``"kv"`` context as the table's :class:`_KvContext`
    (one per table, kept in ``shared``) instead of the string."""
    k0, k1 = _row_range(t, span.start, span.end)
    if shared is None:
        shared = {}
    columns = shared.get("columns")
    if columns is None:
        columns = shared["columns"] = list(t.columns)
    metadata["table_index"] = index
    metadata["columns"] = columns
    start = min(k0, k1)
    last = shared.get("row_end")  # a chunk that starts where the one before ended shares its int
    metadata["row_start"] = last if last == start else start
    metadata["row_end"] = shared["row_end"] = k1
    if row_format == "kv":
        kv = shared.get("kv")
        if kv is None:
            kv = shared["kv"] = _KvContext(t, text)
        return kv  # type: ignore[no-any-return]
    hs, he = t.header
    if span.start < he or hs == he:
        heads = t.header_starts
        if t.kind == "pipe" and len(heads) > 1 and hs < heads[-1] <= span.start:
            # a chunk that starts at the delimiter row: the header rows above it
            return text[hs : heads[-1]].rstrip()
        return ""
    c = shared.get("header")
    if c is None:
        c = shared["header"] = text[hs:he].rstrip("\r\n")
    rs, re_ = t.row_span(k0)
    if text[rs : span.start].strip():  # the chunk starts inside the row: name it
        # (an empty first cell of a TSV row is its tab: the mark of a part of that row)
        c += "\n" + (text[rs : t.first_cell_end(text, rs, re_)].strip() or t.delimiter)
    return c


@dataclass(frozen=True, eq=False)
class TablesLabel:
    """A label value that carries a document's tables (sorted, apart) to the enrichment
    pass of a strategy whose chunks may hold text around them (``markdown``):
    :meth:`context` describes the first table a chunk overlaps."""

    tables: tuple[Table, ...]
    text: str
    row_format: str = "text"
    ends: tuple[int, ...] = field(init=False, repr=False)
    shared: tuple[dict[str, Any], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ends", tuple(t.end for t in self.tables))
        object.__setattr__(self, "shared", tuple({} for _ in self.tables))

    def context(self, metadata: dict[str, Any], span: Span) -> str:
        """:func:`table_context` of the first table that ``span`` overlaps ("" and no
        table metadata when it overlaps none)."""
        tables = self.tables
        k = bisect_right(self.ends, span.start)
        if k < len(tables) and tables[k].start < span.end:
            return table_context(metadata, span, tables[k], k, self.text, self.row_format, self.shared[k])
        return ""


def _row_range(t: Table, start: int, end: int) -> tuple[int, int]:
    """The body rows ``[k0, k1)`` that the span ``[start, end)`` of table ``t`` touches."""
    k0 = max(t.row_at(start), 0)
    k1 = max(t.row_at(end - 1) + 1, 0) if len(t.rows) else 0
    return k0, k1


class _KvContext(_Derived):
    """The ``"kv"`` context of the chunks of one table, computed from their span: one
    object per table, shared by its chunks (each holds it in its ``context`` slot, see
    :class:`~chunkwise.types.Chunk`), holding the table and the document's text, which
    the chunks keep alive anyway. ``value(start, end)`` is the context of the chunk
    ``[start, end)``, equal to the one :func:`table_context` returns.

    The last value computed is kept, with its span (``last``: one string per table, not
    one per chunk): reading a chunk's context again (``to_dict()`` then
    ``text_for_embedding()``) returns it without computing it again. A pass over all the
    chunks, then another, computes each context once per pass."""

    __slots__ = ("table", "text", "last")

    def __init__(self, table: Table, text: str) -> None:
        self.table = table
        self.text = text
        self.last: tuple[int, int, str] | None = None

    def value(self, start: int, end: int) -> str:
        last = self.last  # (one tuple, stored whole: threads read a consistent one)
        if last is not None and last[0] == start and last[1] == end:
            return last[2]
        t = self.table
        k0, k1 = _row_range(t, start, end)
        v = _kv(self.text, t, start, end, k0, k1)
        self.last = (start, end, v)
        return v

    def __reduce__(self) -> tuple[Any, ...]:
        # (never pickled through a chunk, whose pickle holds its context: see Chunk.__reduce__)
        return (_KvContext, (self.table, self.text))


def _kv(text: str, t: Table, start: int, end: int, k0: int, k1: int) -> str:
    cols = t.columns
    lines = []
    for k in range(k0, k1):
        rs, re_ = t.row_span(k)
        if re_ <= start or rs >= end:
            continue
        cells = t.cells(text, rs, re_)
        values = t.cell_values(text, cells)
        # only spaces or tabs before the chunk in its row (empty cells of a TSV row that
        # the chunk could not keep): the chunk holds the row from its first cell
        lo = start if start > rs and text[rs:start].strip() else rs
        pairs = []
        for i, ((cs, ce), v) in enumerate(zip(cells, values)):
            if i > 0:
                # a part of a split row names the row's first cell (its key, whole) and the
                # cells whose text lies in the part: none that ends before it (an empty
                # cell where it starts is its own), and after it only empty cells with
                # nothing but separators before them (those the chunk's end trimmed off)
                if ce < lo or ce == lo and cs < ce or cs >= end and text[end:ce].strip():
                    continue
                if cs < lo and text[cs:lo].strip() or ce > end and text[end:ce].strip():
                    v = _value_part(t, text, cs, ce, lo, end)
            if "\n" in v or "\r" in v:  # one line per row: a line break in a value is a space
                v = _BREAK.sub(" ", v).strip()
            if not v or v.isspace():  # an empty cell is left out, as a short row's missing cells are
                continue
            name = cols[i] if i < len(cols) else f"column {i + 1}"
            if "\n" in name or "\r" in name:
                name = _BREAK.sub(" ", name).strip()
            pairs.append(f"{name}: {v}")
        if pairs:
            lines.append("; ".join(pairs))
    return "\n".join(lines)


_BREAK = re.compile(r"[ \t]*(?:\r\n|\r|\n)[ \t]*")


def _value_part(t: Table, text: str, cs: int, ce: int, lo: int, end: int) -> str:
    """The value of the cell ``[cs, ce)`` of ``t`` read (as :meth:`Table.cell_values`
    reads it) from its text inside ``[lo, end)`` only: a cut cell's piece, spaces stripped,
    the quotes that open and close a quoted cell left out where the piece holds them."""
    a, b = cs, ce
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    q = t.quotechar
    quoted = bool(q) and t.kind != "pipe" and b - a >= 2 and text[a] == q and text[b - 1] == q
    if quoted:
        a, b = a + 1, b - 1
    v = text[max(a, lo) : min(b, end)].strip()
    if t.kind == "pipe":
        return v.replace("\\|", "|")
    return v.replace(q + q, q) if quoted else v


def _even_split_rows(text: str, m: Measure, spans: list[Span], segments: Segments, config: PackConfig) -> None:
    """Even out a small part of a split row that the packer left (no cut between cells,
    nor a word of a cell cut anyway, gave a more even one): the packer's balancing again,
    over that row's parts only, now with the words of every cell of the row but the first
    (a cell that fits is cut only here, for a part that would be small otherwise; the
    first cell is repeated whole in ``context``). A header chunk above a split first row
    is one of its parts. Without overlap only (overlapping spans are not evened out). In
    place."""
    budget = config.chunk_size
    floor = max(config.min_chunk_size, budget // 4)
    if not any(sp.size < floor and not sp.oversize for sp in spans):
        return
    rows = [a for a in segments.atoms if a.kind == "table_row"]
    if not rows:
        return
    starts = [a.start for a in rows]
    tables = sorted((lb.value.table for lb in segments.labels if lb.key == _KEY), key=lambda t: t.start)
    tstarts = [t.start for t in tables]
    todo: dict[int, Table] = {}
    for sp in spans:
        if sp.size >= floor or sp.oversize or _PIPE_CHARS.issuperset(text[sp.start : sp.end]):
            continue  # (a lone pipe is joined to a neighbour where it fits, see :func:`_join_pipes`)
        k = bisect_right(starts, sp.start) - 1
        above = k < 0 or rows[k].end <= sp.start  # a header chunk above a split first row?
        if above:
            k += 1
            if k >= len(rows) or sp.end > rows[k].start:
                continue
        j = bisect_right(tstarts, rows[k].start) - 1
        if j < 0 or rows[k].end > tables[j].end:
            continue
        t = tables[j]
        if above and not (t.start <= sp.start and len(t.rows) and t.rows[0] == rows[k].start):
            continue
        todo[k] = t
    span_starts = [sp.start for sp in spans]
    for k in sorted(todo, reverse=True):  # (from the end: a join shifts the spans after it)
        a, t = rows[k], todo[k]
        hs, he = t.header
        lo = t.start if hs < he and len(t.rows) and a.start == t.rows[0] else a.start
        i = bisect_left(span_starts, lo)
        j = bisect_left(span_starts, a.end, i)
        if j - i < 2 or spans[j - 2].end <= a.start or spans[j - 1].end > a.end:
            continue  # (not a row split over its own chunks: a row that fits is never cut)
        cells = t.cells(text, a.start, a.end)
        cs_, ce_ = [], []
        for c, (cs, ce) in enumerate(cells):
            cs, ce = trim(text, cs, ce)
            if ce - cs > 1 and (c > 0 or m.exact(cs, ce) > budget):
                cs_.append(cs)
                ce_.append(ce)
        if not cs_:
            continue
        words = _Within(_CELL_WORD, _WORDS, cs_, ce_)
        # (the same cuts as the word level that balancing adds after a cut inside a
        # sentence: no other word of the row, none of its first cell, is cut)
        levels = (PositionsLevel("table_cell", a.cuts, a.cuts), words, replace(words, name=WORD.name))
        group = spans[i:j]
        balance_spans(text, m, group, budget, levels, floor, config.trim_spans, config.keep_indent)
        spans[i:j] = group
        span_starts[i:j] = [sp.start for sp in group]


def _keep_last_cells(text: str, m: Measure, spans: list[Span], labels: Sequence[Label], chunk_size: int) -> None:
    """Move a span's end forward to its row's end when only spaces and tabs, among them
    the delimiter of a table whose delimiter is a space or a tab, come before it there (a
    TSV row's empty last cells: trimmed off, the chunk's last row would lose its columns),
    while the span fits ``chunk_size`` (or grows no larger) and ends before the next span
    starts. In place."""
    tables = [
        lb.value.table for lb in labels
        if lb.key == _KEY and lb.value.table.kind == "delimited" and lb.value.table.delimiter in " \t"
    ]
    if not tables:
        return
    n = len(text)
    ends = [t.end for t in tables]
    for i, sp in enumerate(spans):
        e = sp.end
        if e >= n or text[e] not in " \t":
            continue
        k = bisect_right(ends, e - 1)
        if k >= len(tables) or not tables[k].start < e:
            continue
        stop = e
        while stop < n and text[stop] in " \t":
            stop += 1
        nxt = spans[i + 1].start if i + 1 < len(spans) else n
        if nxt >= e:  # (an overlapping next span may share them)
            stop = min(stop, nxt)
        t = tables[k]
        if t.delimiter not in text[e:stop]:
            continue
        # to the row's end only: a line break outside quotes (not a cell of a split row,
        # whose next part holds the next cell, nor a line break inside a quoted cell)
        if stop < n and text[stop] not in "\r\n":
            continue
        r = t.row_at(e - 1)
        if r >= 0:
            rs = t.rows[r]
        else:  # a header row
            hs = t.header_starts
            rs = hs[max(bisect_right(hs, e - 1) - 1, 0)] if hs else t.start
        q = t.quotechar
        if q and rs != t.unclosed and text.count(q, rs, stop) & 1:
            continue
        size = m.exact(sp.start, stop)
        if size <= chunk_size or size <= sp.size:
            sp.end, sp.size = stop, size
            sp.oversize = size > chunk_size


_PIPE_CHARS = frozenset("| \t\r\n")


def _join_pipes(text: str, m: Measure, spans: list[Span], tables: Sequence[Table], chunk_size: int) -> None:
    """A span of a pipe table's body with only pipes and whitespace (the pipe that ends a
    padded row cut before it) goes with the span before it when they fit together, else
    with the one after it in the same table; spans that overlap are left as they are.
    ``tables`` sorted, apart. In place."""
    tables = [t for t in tables if t.kind == "pipe"]
    if not spans or not tables:
        return
    ends = [t.end for t in tables]
    p = 0
    while p < len(spans):
        sp = spans[p]
        k = bisect_right(ends, sp.start)
        if (
            k >= len(tables) or sp.start < tables[k].header[1] or sp.start < tables[k].start or sp.oversize
            or not _PIPE_CHARS.issuperset(text[sp.start : sp.end])
        ):
            p += 1
            continue
        t = tables[k]
        prev = spans[p - 1] if p else None
        nxt = spans[p + 1] if p + 1 < len(spans) else None
        if (
            prev is not None and not prev.oversize and t.header[1] <= prev.start and prev.end <= sp.start
            and m.exact(prev.start, sp.end) <= chunk_size
        ):
            prev.end, prev.boundary = sp.end, sp.boundary
            prev.size = m.exact(prev.start, prev.end)
        elif (
            nxt is not None and not nxt.oversize and sp.end <= nxt.start and nxt.end <= t.end
            and m.exact(sp.start, nxt.end) <= chunk_size
        ):
            nxt.start = sp.start
            nxt.size = m.exact(nxt.start, nxt.end)
        else:
            p += 1
            continue
        del spans[p]


def _warn_unclosed(document: Document, offset: int) -> None:
    """A :class:`~chunkwise.loaders.csv.CsvWarning` for the quote of the record at
    ``offset`` that the text never closes, unless the document's loader reported it in
    ``metadata["warnings"]`` already."""
    from ..errors import warn_at_caller
    from ..loaders.csv import CsvWarning, unclosed_quote_note

    note = unclosed_quote_note(document.text, offset, document.source)
    if note not in (document.metadata.get("warnings") or ()):
        warn_at_caller(note, CsvWarning)


def _drain(spans: list[Span]) -> Sequence[Span]:
    """The spans, in order, each let go as the enrichment pass takes it: the packed list
    is emptied as the chunks are built, so the spans do not live beside the finished
    chunks (80 bytes a chunk, at the peak: 0.37x the file for a CSV in chunks of 96
    tokens). The enrichment pass only iterates over them."""
    spans.reverse()

    def take() -> Iterator[Span]:
        pop = spans.pop
        while spans:
            yield pop()

    return take()  # type: ignore[return-value]


def _fits(bound: Callable[[int, int], int], budget: int) -> Callable[[int, int], bool]:
    """Whether ``bound`` of ``[s, e)`` is within ``budget``, as a function of ``s, e``."""
    return lambda s, e: bound(s, e) <= budget


def _rstrip(text: str, start: int, end: int) -> int:
    """``end`` moved back over whitespace (an atom ends with its row, not its line end)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _pairs(starts: Sequence[int], end: int) -> Iterator[tuple[int, int]]:
    for i, s in enumerate(starts):
        yield s, starts[i + 1] if i + 1 < len(starts) else end
