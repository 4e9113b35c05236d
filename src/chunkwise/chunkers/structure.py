"""Structure-aware chunking: Markdown (and HTML rendered to Markdown) and numbered sections.

A parser finds the document's own structure -- headings and blocks with exact offsets
(:mod:`chunkwise.parsers`) -- and the shared merge engine packs each section on its own:

* a heading of level ``split_level`` or stronger always starts a new chunk, and no chunk
  holds text of two sections (unless ``merge_small_sections`` joins small siblings);
* a section that fits is one chunk; a bigger one is cut at its strongest inner boundary:
  deeper headings, thematic breaks, blocks, list items, code lines / table rows (only in
  code and tables too big to keep), paragraphs, lines, sentences, words, graphemes;
* code blocks and tables are never cut while they fit; bigger ones follow ``oversize``;
* every chunk has ``metadata["header_path"]`` (heading titles above it, top first) and a
  breadcrumb in ``chunk.context`` ("Guide > Install > Linux"); a chunk that holds only
  headings with no body of their own gets the path of the last of them;
* headings with no body at all after them (a text of headings only, or a run of them at
  the end) are packed together, not one chunk each, and at the end with the last chunk
  of the section before them when it has room (that chunk keeps its path)
  (``"markdown"``; in ``"sections"`` a numbered heading may hold its text, and each stays
  a chunk of its own);
* a heading goes with the first piece of its body (past a list or quote marker), but a
  code block or a table row that fits is never cut for it: a heading that does not fit
  with it (with a table's header rows and delimiter row) is a chunk of its own;
  thematic breaks and link targets (``<a id="x"></a>``, ``(label)=``) alone under a
  heading or before the first one are no text of their own: they lead the section after
  them, and a rule that closes a section stays with the paragraph above it; link targets
  right above a heading start its section (Node.js puts an anchor above each heading);
  so do HTML comments right above a heading (Node.js keeps old targets in ``<!-- -->``);
* an HTML block that fits the budget is never cut (a bigger one is cut as text);
* a chunk of a table has the table metadata of the ``table`` strategy (``row_start``,
  ``row_end``, ``columns``, ``table_index``) and, when it continues a split table, the
  header rows in ``chunk.context`` after the breadcrumb; a pipe table's delimiter row
  stays with the last header row while the two fit, else with the first body row while
  those fit (a chunk that starts with it has the header rows above it in ``context``).

Method:
    Header-path section splitting as in LangChain's ``MarkdownHeaderTextSplitter`` and
    LlamaIndex's ``MarkdownNodeParser``, with the size cap and boundary hierarchy of the
    Rust ``text-splitter`` crate's ``MarkdownSplitter``, on chunkwise's one merge engine.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar
from dataclasses import dataclass

from .._text import trim
from ..boundaries import HARD_LINE, LINE, PARAGRAPH, WORD, Level, PositionsLevel
from ..errors import ConfigError, OversizeError
from ..merge import Span
from ..packer import OVERSIZE_POLICIES, OversizePolicy
from ..parsers.outline import Outline
from ..registry import register
from ..sizers import Measure
from ..segments import Atom, Label, Region, Segments
from ..sentences import SentenceSegmenter
from .table import TablesLabel, row_atoms
from ..types import Document
from .base import BaseChunker

__all__ = ["MarkdownChunker", "OversizeError", "OversizePolicy", "SectionsChunker", "StructureChunker"]


def _ONE(start: int, end: int) -> int:  # every row of a Markdown table is an atom
    return 1



def _heading_context(value: Any) -> list[tuple[int, str]]:
    """A document's ``metadata["heading_context"]`` (``[[level, title], ...]``, top first:
    the headings in force before its text starts, as a loader of a part of a file gives
    them) as a stack of ``(level, title)``; anything else gives an empty one."""
    out: list[tuple[int, str]] = []
    if isinstance(value, (list, tuple)):
        for item in value:
            if (isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], int)
                    and not isinstance(item[0], bool) and isinstance(item[1], str) and item[1]):
                while out and out[-1][0] >= item[0]:
                    out.pop()
                out.append((item[0], item[1]))
    return out


_DEFINITION = re.compile(r"\n: ")


def _term_glue(text: str, blocks: Sequence[Any]) -> tuple[tuple[int, int], ...]:
    """Glue of a definition list's term to its definition: a paragraph whose lines begin
    with the term(s) and go on with ``: definition`` (Pandoc's form, which the HTML and
    other loaders write for ``<dl>``) is not cut between them -- a chunk that ended on a
    lone term would leave its definition without it."""
    out = []
    for b in blocks:
        if b.kind != "paragraph" or b.depth != 0:
            continue
        m = _DEFINITION.search(text, b.start, b.end)
        if m is not None and not text.startswith(":", b.start):
            out.append((b.start, m.start() + 2))  # through the line end, to the ':'
    return tuple(out)


# an HTML block of horizontal rules only (``<hr>``, ``<hr/>``, ``<HR class="x">``)
# (one way to match: spaces between tags that could go to either side made a line of
# many ``<hr>`` tags and a word after them take exponential time)
_HTML_RULE = re.compile(r"[ \t]*<hr\b[^>]*>(?:\s*<hr\b[^>]*>)*\s*", re.IGNORECASE)


# a paragraph or HTML block of link targets only: HTML anchors (``<a id="x"></a>``,
# ``<a name="x"/>``) and MyST targets (``(label)=``), which name the heading after them
_ANCHOR = r"(?:<a[ \t]+(?:id|name)[ \t]*=[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'/>]+)[ \t]*/?>(?:[ \t]*</a>)?|\([^()\s][^()\n]*\)=)"
_ANCHORS = re.compile(r"[ \t]*" + _ANCHOR + r"(?:\s*" + _ANCHOR + r")*\s*", re.IGNORECASE)
# link targets and HTML comments (Node.js keeps old link targets in a comment above a
# heading), right above a heading: they start its section (:func:`_anchor_leads`); a
# comment holds no "-->", so that a block that does not match fails in linear time
_COMMENT = r"<!--(?:[^-]|-(?!->))*-->"
_LEADS = re.compile(
    r"[ \t]*(?:" + _ANCHOR + "|" + _COMMENT + r")(?:\s*(?:" + _ANCHOR + "|" + _COMMENT + r"))*\s*", re.IGNORECASE
)


def _rules(text: str, blocks: Sequence[Any]) -> tuple[list[int], list[int]]:
    """The starts and ends of the top-level thematic breaks (``---``, ``***``, ``___``,
    and HTML blocks of ``<hr>`` tags only) and link targets (:data:`_ANCHORS`), in order:
    what is not text of its own under a heading or before the first one."""
    starts: list[int] = []
    ends: list[int] = []
    for b in blocks:
        if b.depth == 0 and (
            b.kind == "hr"
            or (b.kind == "html" and _HTML_RULE.fullmatch(text, b.start, b.end))
            or (b.kind in ("paragraph", "html") and _ANCHORS.fullmatch(text, b.start, b.end))
        ):
            starts.append(b.start)
            ends.append(b.end)
    return starts, ends


def _anchor_leads(text: str, blocks: Sequence[Any], count: Any = None, half: int = 0) -> dict[int, int]:
    """Where each top-level heading that has link targets or HTML comments (:data:`_LEADS`)
    right above it starts with them: the start of the first of those blocks, by the heading's start
    (only whitespace between them and the heading). Node.js and rustdoc put an
    ``<a id="x"></a>`` line above each heading: it names the heading after it, so it goes
    with that heading's section, not at the end of the one above. A block that holds an
    HTML comment leads only when ``count`` of it is at most ``half`` (half the budget:
    a commented-out page above a heading is not glued to it)."""
    out: dict[int, int] = {}
    for i, b in enumerate(blocks):
        if b.kind != "heading" or b.depth != 0:
            continue
        s = b.start
        j = i - 1
        while j >= 0:
            p = blocks[j]
            if not (p.depth == 0 and p.kind in ("paragraph", "html") and not text[p.end : s].strip()
                    and _LEADS.fullmatch(text, p.start, p.end)):
                break
            if not _ANCHORS.fullmatch(text, p.start, p.end) and (count is None or count(text[p.start : p.end]) > half):
                break
            s = p.start
            j -= 1
        if s < b.start:
            out[b.start] = s
    return out


# the first lines of a paragraph when they hold link targets only (:data:`_ANCHOR`)
_ANCHOR_LINES = re.compile(r"(?:[ \t]*" + _ANCHOR + r"(?:[ \t]*" + _ANCHOR + r")*[ \t]*\r?\n)+", re.IGNORECASE)


def _anchor_glue(text: str, blocks: Sequence[Any]) -> tuple[tuple[int, int], ...]:
    """Glue of link targets on the first lines of a paragraph (``<a id="x"></a>`` on a
    line of its own, the paragraph's text on the next) to that text: the target names
    the paragraph, so it goes with it, not at the end of the chunk before. (Targets in
    a paragraph of their own are rules: see :func:`_rules`.)"""
    out = []
    for b in blocks:
        if b.kind != "paragraph":
            continue
        s, e = trim(text, b.start, b.end)
        m = _ANCHOR_LINES.match(text, s, e)
        if m is not None and (t := trim(text, m.end(), e)[0]) < e:
            out.append((s, t + 1))
    return tuple(out)


# list item and block quote markers at the start of a body ("- ", "1. ", "> ", "> - ")
_MARKERS = re.compile(r"(?:(?:[-+*]|\d{1,9}[.)])[ \t]+|>[ \t]*)*")


def _past_rules(text: str, rules: tuple[list[int], list[int]], b0: int, b1: int) -> int:
    """The first character of ``[b0, b1)`` (trimmed) that is not in a thematic break or
    a link target (:func:`_rules`): ``b1`` or more when there is none."""
    starts, ends = rules
    while b0 < b1:
        k = bisect_right(starts, b0) - 1
        if k < 0 or ends[k] <= b0:
            return b0
        b0 = trim(text, ends[k], b1)[0]
    return b0


def _rule_glue(text: str, blocks: Sequence[Any], leads: Mapping[int, int] | None = None) -> tuple[tuple[int, int], ...]:
    """Glue of top-level thematic breaks that close a section (a heading or the end comes
    next) to the end of the paragraph above them: a chunk that holds only a rule helps
    nobody, and the rule belongs to the section it closes. (A rule after a code block, a
    table or a list is not glued: such a block is not split to keep a rule company; nor
    is a rule inside a section, which the packer puts with the text above or below it.)
    ``leads``: :func:`_anchor_leads` (link targets above a heading start its section)."""
    out = []
    lead_starts = set(leads.values()) if leads else set()
    n = len(blocks)
    i = 0
    while i < n:
        b = blocks[i]
        if not (b.depth == 0 and (b.kind == "hr" or (b.kind == "html" and _HTML_RULE.fullmatch(text, b.start, b.end)))):
            i += 1
            continue
        j = i
        while j + 1 < n and blocks[j + 1].depth == 0 and (
            blocks[j + 1].kind == "hr" or (blocks[j + 1].kind == "html" and _HTML_RULE.fullmatch(text, blocks[j + 1].start, blocks[j + 1].end))
        ):
            j += 1
        p = blocks[i - 1] if i > 0 else None
        if (p is not None and p.kind == "paragraph" and p.depth == 0 and not text[p.end : b.start].strip()
                and (j + 1 == n or blocks[j + 1].kind == "heading" or blocks[j + 1].start in lead_starts)):
            e = trim(text, b.start, blocks[j].end)[1]
            s = trim(text, p.start, p.end)[1]
            if s > p.start and e > b.start:
                out.append((s - 1, e))
        i = j + 1
    return tuple(out)


def _delimiter_atoms(
    text: str, tables: Sequence[Any], regions: Sequence[Region], budget0: int, overlap: int,
    size: Callable[[int, int], int],
) -> list[Atom]:
    """Atoms that keep each pipe table's delimiter row (``|---|``) with a row next to it:
    the last header row and the delimiter row when they fit together (within the budget of
    the table's section, or ``chunk_size`` less its reserve with an overlap: packed whole
    then); else the delimiter row and the first body row when those fit the budget. (A
    header of one row and the delimiter row are an atom already: the header's.) A
    delimiter row alone is then a chunk only when it fits with neither."""
    out: list[Atom] = []
    starts = [r.start for r in regions]
    for t in tables:
        heads = t.header_starts
        if t.kind != "pipe" or len(heads) < 2:
            continue
        lh, ds = trim(text, heads[-2], heads[-1])[0], trim(text, heads[-1], t.header[1])[0]
        de = trim(text, ds, t.header[1])[1]
        if not lh < ds < de:
            continue
        k = bisect_right(starts, t.start) - 1
        budget = budget0 - (regions[k].reserve if k >= 0 else 0)
        if size(lh, de) <= budget + overlap:
            if len(heads) > 2:
                out.append(Atom(lh, de, "table_header", (heads[-1],), "table_row"))
        elif len(t.rows):
            r0, r1 = t.row_span(0)
            r1 = trim(text, r0, r1)[1]
            if r0 < r1 and size(ds, r1) <= budget:
                out.append(Atom(ds, r1, "table_row", (r0,), "table_row"))
    return out


def _positions(name: str, points: Sequence[int]) -> PositionsLevel:
    pts = sorted(set(points))
    return PositionsLevel(name, pts, pts)


@dataclass(frozen=True, kw_only=True)
class StructureChunker(BaseChunker):
    """Shared configuration and packing of the structure strategies.

    Args:
        split_level: headings of this level or stronger (1 is strongest) always start a
            new chunk; deeper ones are inner boundaries (1-6, default 6).
        merge_small_sections: join a section smaller than ``min_chunk_size`` with its
            following siblings (or subsections) while the result fits ``chunk_size``.
        min_chunk_size: the size, in ``unit``, under which a section counts as small.
        include_context_in_size: count the breadcrumb (``chunk.context``) against
            ``chunk_size``. A breadcrumb larger than half the budget is shortened from the
            top (the nearest headings are kept), so the body always keeps half the budget.
        oversize: a code block or table larger than ``chunk_size``: ``"split"`` it (code
            between lines, tables between rows with the header row repeated in
            ``chunk.context``), ``"keep"`` it whole as one chunk flagged
            ``metadata["oversize"]``, or ``"raise"`` :class:`OversizeError`.
        context_separator: what joins the titles of the breadcrumb.
    """

    # headings with no body at all after them are packed together (Markdown: such a
    # heading is a title and nothing else); False: each stays a chunk of its own (a
    # numbered heading of a statute, "Section 2.1 Scope. Work.", may hold its text)
    pack_bare_headings: ClassVar[bool] = True

    split_level: int = 6
    merge_small_sections: bool = False
    min_chunk_size: int = 0
    include_context_in_size: bool = False
    oversize: OversizePolicy = "split"
    context_separator: str = " > "

    def __post_init__(self) -> None:
        super().__post_init__()
        if (
            isinstance(self.split_level, bool)
            or not isinstance(self.split_level, int)
            or not 1 <= self.split_level <= 6
        ):
            raise ConfigError(f"split_level must be an integer from 1 to 6, not {self.split_level!r}")
        if self.oversize not in OVERSIZE_POLICIES:
            raise ConfigError(f"oversize must be one of 'split', 'keep', 'raise', not {self.oversize!r}")
        m = self.min_chunk_size
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise ConfigError(f"min_chunk_size must be an integer >= 0, not {m!r}")
        if m > self.chunk_size:
            raise ConfigError(
                f"min_chunk_size ({m}) must not exceed chunk_size ({self.chunk_size}); lower min_chunk_size"
            )
        if self.merge_small_sections and m == 0:
            raise ConfigError("merge_small_sections=True needs min_chunk_size > 0 (the size of a small section)")
        if not isinstance(self.context_separator, str):
            raise ConfigError(f"context_separator must be a string, not {self.context_separator!r}")

    # -- what a subclass supplies --------------------------------------------------------

    def outline(self, document: Document) -> Outline:
        """The headings and blocks of ``document`` (offsets into its text)."""
        raise NotImplementedError

    # -- parse: what the one packer and the enrichment pass need ------------------------

    def _context(self, path: Sequence[str], budget: int) -> tuple[str, int]:
        """The breadcrumb for ``path`` and what it costs of the budget (0 unless counted)."""
        if not path:
            return "", 0
        sep = self.context_separator
        if not self.include_context_in_size:
            return sep.join(path), 0
        count = self._sizer.count
        half = budget // 2
        titles = list(path)
        while titles:
            c = sep.join(titles)
            n = count(c + "\n")
            if n <= half:
                return c, n
            titles.pop(0)
        words = path[-1].split()
        while len(words) > 1:
            words.pop(0)
            c = "\u2026 " + " ".join(words)
            n = count(c + "\n")
            if n <= half:
                return c, n
        return "", 0

    def context(self, metadata: Mapping[str, Any], span: Span) -> str:
        """The breadcrumb of the chunk's header path, then, for a chunk that continues a
        split table, the table's header rows and delimiter row (and the first cell of a
        row the chunk starts inside); a chunk that overlaps a table gets its
        ``table_index``, ``columns``, ``row_start`` and ``row_end`` (as ``"table"``
        chunks: :func:`~chunkwise.chunkers.table.table_context`; the first table it
        overlaps)."""
        meta = metadata  # the enrichment pass hands over the chunk's own dict
        path = meta.get("header_path") or ()
        c = self._context(path, self.chunk_size - self.chunk_overlap)[0]
        tables = meta.pop("_tables", None) if isinstance(meta, dict) else None
        head = tables.context(meta, span) if isinstance(tables, TablesLabel) else ""
        if head:
            c = f"{c}\n{head}" if c else head
        return c

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Sections (regions at headings of ``split_level`` or stronger), inner levels,
        atoms (code blocks, tables, list items with their sub-items), the glue between a
        heading and its body, and labels (header path, code language, table header)."""
        text = document.text
        outline = self.outline(document)
        heads = list(outline.headings)
        # the headings in force before the text starts (a part of a file: a PDF's pages=)
        stack: list[tuple[int, str]] = _heading_context(document.metadata.get("heading_context"))
        base = tuple(t for _, t in stack)
        paths: list[tuple[str, ...]] = []
        for h in heads:
            while stack and stack[-1][0] >= h.level:
                stack.pop()
            stack.append((h.level, h.title))
            paths.append(tuple(t for _, t in stack if t))
        blocks = [b for b in outline.blocks if b.kind != "front_matter"]
        body = outline.front_matter[1] if outline.front_matter else 0
        n = len(text)
        # where the body of each heading starts: the first character after it, before the
        # next heading (None: the heading is followed by another heading or nothing, or by
        # thematic breaks only: a heading and the rule under it lead what follows, as a
        # heading alone does; texinfo's HTML puts a rule under many headings)
        # (a heading starts at the link targets right above it: they name it)
        rules = _rules(text, blocks)
        anchor_leads = _anchor_leads(text, blocks, self._sizer.count, (self.chunk_size - self.chunk_overlap) // 2)
        head_starts = [anchor_leads.get(h.start, h.start) for h in heads]
        body_of: list[int | None] = []
        for k, h in enumerate(heads):
            nxt = head_starts[k + 1] if k + 1 < len(heads) else n
            b0, b1 = trim(text, max(h.end, body), nxt)
            if rules[0]:
                b0 = _past_rules(text, rules, b0, b1)
            body_of.append(b0 if b0 < b1 else None)
        # a heading with no body of its own leads the section after it: glued to it (up to
        # the first body) with a weak label of its path (an empty heading alone is a chunk
        # that helps nobody)
        glue_end: list[int | None] = [None] * len(heads)
        for k in range(len(heads) - 1, -1, -1):
            b = body_of[k]
            if b is not None:
                # (past a list marker or quote marker: a chunk never ends on a bare "-")
                m = _MARKERS.match(text, b)
                glue_end[k] = (m.end() if m.end() < n and not text[m.end()].isspace() else b) + 1
            elif k + 1 < len(heads):
                glue_end[k] = glue_end[k + 1]
        # (headings with nothing after them but headings -- at the end of the text, or a
        # text of headings only -- lead nothing: they go together; their labels are weak
        # too: such a chunk has the path of the last of them)
        pack = self.pack_bare_headings
        leads = [body_of[k] is None and (pack or glue_end[k] is not None) for k in range(len(heads))]
        budget0 = self.chunk_size - self.chunk_overlap
        # sections: a heading of split_level or stronger starts one, unless the section
        # before it holds nothing but headings (then they go with it: a heading is never
        # a chunk alone when a body follows)
        split = [k for k, h in enumerate(heads) if h.level <= self.split_level]
        regions: list[Region] = []
        if outline.front_matter is not None:
            fs, fe = outline.front_matter
            regions.append(Region(fs, fe, 0, "front_matter", (LINE,), -1))
        first = head_starts[split[0]] if split else n
        lead_in = False  # the text before the first section leads it
        lead_glue: tuple[tuple[int, int], ...] = ()
        if body < first and text[body:first].strip():
            # a part of its own, unless it holds only headings with no body (and thematic
            # breaks under them): they lead the first section, as any such heading does;
            # so do thematic breaks alone (a rule alone is a chunk that helps nobody)
            r0 = b0 = trim(text, body, first)[0]
            if rules[0]:
                b0 = _past_rules(text, rules, b0, first)
            if split and b0 >= first:
                lead_in = True
                g = glue_end[split[0]]
                lead_glue = ((r0, g if g is not None else heads[split[0]].start + 1),)
            else:
                lead_in = bool(split) and split[0] > 0 and heads[0].start <= b0 < heads[0].end and all(body_of[j] is None for j in range(split[0]))
            if not lead_in:
                regions.append(Region(body, first, self._context(base, budget0)[1] if base else 0,
                                      f"h{heads[split[0]].level}" if split else "end", None, 0))
        starts_at: list[int] = []  # the heading index that opens each section
        for k in split:
            if starts_at and (pack or glue_end[starts_at[-1]] is not None) and all(body_of[j] is None for j in range(starts_at[-1], k)):
                continue  # the open section is headings only: they go with this one
            starts_at.append(k)
        for i, k in enumerate(starts_at):
            s0 = body if lead_in and i == 0 else max(head_starts[k], body)
            e0 = head_starts[starts_at[i + 1]] if i + 1 < len(starts_at) else n
            last = starts_at[i + 1] if i + 1 < len(starts_at) else len(heads)
            # room for the costliest breadcrumb a chunk of this section can get
            reserve = max(self._context(paths[j], budget0)[1] for j in range(k, last))
            nxt = f"h{heads[starts_at[i + 1]].level}" if i + 1 < len(starts_at) else "end"
            regions.append(Region(s0, e0, reserve, nxt, None, heads[k].level))
        if pack and starts_at and glue_end[starts_at[-1]] is None and len(regions) > 1 and regions[-2].level >= 0:
            # the last section is headings with no body up to the end: it goes with the
            # section before it (with its last chunk when that has room)
            p, q = regions[-2], regions[-1]
            regions[-2:] = [Region(p.start, q.end, max(p.reserve, q.reserve), q.end_boundary, p.levels, p.level)]
        # labels
        labels: list[Label] = []
        if outline.front_matter is not None:
            fs, fe = outline.front_matter
            labels.append(Label(fs, fe, "header_path", (), "common_prefix"))
            labels.append(Label(fs, fe, "is_front_matter", True, "within"))
        path_labels: list[Label] = []
        if body < (head_starts[0] if heads else n):  # (weak where it leads the first section)
            path_labels.append(Label(body, head_starts[0] if heads else n, "header_path", base, "common_prefix", weak=lead_in))
        for k, h in enumerate(heads):
            end = head_starts[k + 1] if k + 1 < len(heads) else n
            path_labels.append(Label(head_starts[k], end, "header_path", paths[k], "common_prefix", weak=leads[k]))
        labels.extend(path_labels)
        atoms: list[Atom] = []
        table_cost = 0
        tables = []
        for b in blocks:
            # (a block inside a list item or a quote is an atom from its first character to
            # its last: the indentation before it and the line end after it are not inside
            # it, so that a paragraph cut before or after it is one; such a block has no
            # boundary level of its own)
            nested = b.depth > 0 and b.kind in ("table", "fence", "code")
            if nested:
                b0, b1 = trim(text, b.start, b.end)
                if b0 >= b1:
                    continue
            else:
                b0, b1 = b.start, b.end
            if b.kind == "table":
                atoms.append(Atom(b0, b1, "table", b.cuts, "table_row"))
                if b.table is not None:  # every row whole while it fits, else cut between cells
                    rows = row_atoms(text, b.table, 0, _ONE)
                    if nested:
                        rows = [Atom(max(a.start, trim(text, a.start, a.end)[0]), a.end, a.kind, a.cuts, a.cut_name) for a in rows]
                    atoms.extend(rows)
                    tables.append(b.table)
                    if self.include_context_in_size:  # the header, and the first cell of a row cut
                        hs, he = b.table.header
                        cell = max((text[a.start : b.table.first_cell_end(text, a.start, a.end)].strip()
                                    for a in rows if a.kind == "table_row"), key=len, default="")
                        head = text[hs:he].rstrip("\r\n") + ("\n" + cell if cell else "")
                        table_cost = max(table_cost, self._sizer.count(head + "\n"))
            elif b.atomic:
                atoms.append(Atom(b0, b1, "code", b.cuts, "code_line"))
                if b.kind == "fence" and b.info:
                    labels.append(Label(b.start, b.end, "code_language", b.info.split()[0], "overlap"))
        if tables:
            labels.append(Label(0, n, "_tables", TablesLabel(tuple(tables), text), "overlap"))
        if table_cost:  # a split table's header is context too: keep room for it
            regions = [
                Region(r.start, r.end, max(min(r.reserve + table_cost, budget0 // 2), r.reserve), r.end_boundary, r.levels, r.level)
                for r in regions
            ]
        if tables:  # a pipe table's delimiter row stays with a row next to it
            size = measure.exact if measure is not None else (lambda a, b: self._sizer.count(text[a:b]))
            atoms += _delimiter_atoms(text, tables, regions, budget0, self.chunk_overlap, size)
        # an HTML block (a comment, a <div>) that fits its section's budget is never cut;
        # a bigger one is cut at the region's levels, as before (no oversize policy)
        region_starts = [r.start for r in regions]
        for b in blocks:
            if b.kind == "html" and b.depth == 0:
                k = bisect_right(region_starts, b.start) - 1
                room = budget0 - (regions[k].reserve if k >= 0 else 0)
                b0, b1 = trim(text, b.start, b.end)
                if b0 < b1 and self._sizer.count(text[b0:b1]) <= room:
                    atoms.append(Atom(b0, b1, "html"))
        atoms.extend(Atom(s, e, "list_item") for s, e in outline.item_spans)
        # (link targets go with their heading even where nothing follows it)
        glue = lead_glue + tuple(
            (hs, g if g is not None else h.start + 1) for h, hs, g in zip(heads, head_starts, glue_end) if g is not None or hs < h.start
        ) + _term_glue(text, blocks) + _rule_glue(text, blocks, anchor_leads) + _anchor_glue(text, blocks)
        by_level: dict[int, list[int]] = {}
        for h, hs in zip(heads, head_starts):
            by_level.setdefault(h.level, []).append(hs)
        top: list[Level] = [_positions(f"h{lv}", pts) for lv, pts in sorted(by_level.items())]
        top.append(_positions("thematic_break", [b.start for b in blocks if b.kind == "hr"]))
        top.append(_positions("block", [b.start for b in blocks if b.depth == 0 and b.kind != "heading"]))
        top.append(_positions("item", outline.items))
        inner: list[Level] = [PARAGRAPH, HARD_LINE, SentenceSegmenter(), LINE, WORD]
        if outline.metadata and "front_matter" not in document.metadata:
            labels.append(Label(0, n, "front_matter", dict(outline.metadata), "overlap"))
        error = getattr(outline, "front_matter_error", "")
        if error and "front_matter_error" not in document.metadata:  # (the loader's wins)
            labels.append(Label(0, n, "front_matter_error", error, "overlap"))
        return Segments(
            levels=tuple(top + inner),
            regions=tuple(regions),
            atoms=tuple(atoms),
            glue=glue,
            labels=tuple(labels),
            atom_levels_at=len(top),
        )

    def pack_options(self) -> dict[str, Any]:
        return {
            "oversize": self.oversize,
            "min_chunk_size": self.min_chunk_size,
            "merge_small_regions": self.merge_small_sections,
        }


@register("markdown")
@dataclass(frozen=True, kw_only=True)
class MarkdownChunker(StructureChunker):
    """Chunk Markdown along its headings, with a header path and a hard size cap.

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker` (sizes in
            ``unit``; the overlap stays inside a section).
        split_level, merge_small_sections, min_chunk_size, include_context_in_size,
        oversize, context_separator: see the module docstring and :class:`StructureChunker`.

    The text is parsed as CommonMark (ATX and setext headings, fenced code of any fence
    length -- unclosed fences run to the end --, indented code, GFM tables, lists, block
    quotes, thematic breaks, HTML blocks). YAML front matter becomes one chunk of its
    own flagged ``metadata["is_front_matter"]``, with an empty header path; its fields go
    to ``metadata["front_matter"]`` of every chunk unless the document's metadata already
    has that key (``chunkwise.load``/``parse`` put it there).

    Chunk metadata: ``header_path`` (list of titles, top first), ``code_language`` (the
    first word of the info string of a fenced block the chunk overlaps), ``oversize``,
    ``is_front_matter``; a chunk that overlaps a table also has ``table_index``,
    ``columns``, ``row_start`` and ``row_end`` (of the first table it overlaps, as the
    ``table`` strategy gives them). ``chunk.context`` is the breadcrumb, plus a table's
    header rows and delimiter row for a chunk that continues a split table (and the first
    cell of a row it starts inside; for a chunk that starts at the delimiter row, the
    header rows above it).

    Raises:
        ConfigError: invalid parameters. OversizeError: see ``oversize``.
        MissingDependencyError: markdown-it-py missing: ``pip install 'chunkwise[markdown]'``.

    Method:
        CommonMark parsing with markdown-it-py; sections as in LangChain's
        ``MarkdownHeaderTextSplitter``, packing as in text-splitter's ``MarkdownSplitter``.

    Example:
        >>> cs = MarkdownChunker(chunk_size=100).chunk("# Guide\\n\\n## Install\\n\\nRun it.\\n")
        >>> [(c.text, c.metadata["header_path"], c.context) for c in cs]
        [('# Guide\\n\\n## Install\\n\\nRun it.', ['Guide', 'Install'], 'Guide > Install')]
    """

    def outline(self, document: Document) -> Outline:
        from ..parsers.markdown import MarkdownParser

        # front matter the loader read (or found unreadable) is not parsed again
        known = "front_matter" in document.metadata or "front_matter_error" in document.metadata
        return MarkdownParser(front_matter="known" if known else True).parse(document.text)


@register("sections")
@dataclass(frozen=True, kw_only=True)
class SectionsChunker(StructureChunker):
    """Chunk plain text along its numbered structure: statutes, contracts, standards.

    Headings are lines such as "PART II", "Chapter IV", "Article 5", "ARTICLE V",
    "Section 2.1(b)", "§ 12" and numbered titles ("1.", "1.2", "1.2.3 Title"); see
    :class:`chunkwise.parsers.sections.NumberedSectionParser`. Levels follow the kind
    (part > chapter > article > section > numbered) and the depth of the number; each
    chunk gets the same ``header_path``, breadcrumb context and caps as ``"markdown"``.
    Inside a section: paragraphs, lines, sentences, words.

    Method:
        Rule-based heading recognition (numbering patterns of legislative drafting) and
        section packing on the shared merge engine.

    Example:
        >>> text = "Article 1 Scope\\nThis applies.\\n\\nArticle 2 Terms\\nWords mean things.\\n"
        >>> [c.metadata["header_path"] for c in SectionsChunker(chunk_size=200).chunk(text)]
        [['Article 1 Scope'], ['Article 2 Terms']]
    """

    pack_bare_headings: ClassVar[bool] = False

    def outline(self, document: Document) -> Outline:
        from ..parsers.sections import NumberedSectionParser

        return NumberedSectionParser().parse(document.text)
