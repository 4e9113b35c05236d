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
  breadcrumb in ``chunk.context`` ("Guide > Install > Linux").

Method:
    Header-path section splitting as in LangChain's ``MarkdownHeaderTextSplitter`` and
    LlamaIndex's ``MarkdownNodeParser``, with the size cap and boundary hierarchy of the
    Rust ``text-splitter`` crate's ``MarkdownSplitter``, on chunkwise's one merge engine.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .._text import trim
from ..boundaries import LINE, PARAGRAPH, WORD, FunctionLevel, Level, PositionsLevel
from ..errors import ConfigError, OversizeError
from ..merge import Span, add_overlap, pack
from ..parsers.outline import Block, Outline
from ..registry import register
from ..sentences import SentenceSegmenter
from ..sizers import Measure
from ..types import Chunk, Document
from .base import BaseChunker, as_document

__all__ = ["MarkdownChunker", "OversizeError", "OversizePolicy", "SectionsChunker"]

OversizePolicy = Literal["split", "keep", "raise"]
_POLICIES = ("split", "keep", "raise")


@dataclass(frozen=True, slots=True)
class _Section:
    start: int
    end: int
    level: int  # 0: the text before the first heading
    path: tuple[str, ...]


def _common(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return a[:n]


def _guarded(level: Level, starts: Sequence[int], ends: Sequence[int]) -> Level:
    """``level`` without the cuts that fall strictly inside a protected range."""
    if not starts:
        return level

    def cuts(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for a, b in level.cuts(text, start, end):
            k = bisect_right(starts, a) - 1
            if k >= 0 and starts[k] < a < ends[k]:
                continue
            k = bisect_right(starts, b) - 1
            if k >= 0 and starts[k] < b < ends[k]:
                continue
            yield a, b

    return FunctionLevel(level.name, cuts)


def _positions(name: str, points: Sequence[int]) -> PositionsLevel:
    pts = sorted(set(points))
    return PositionsLevel(name, pts, pts)


@dataclass(frozen=True, kw_only=True)
class _StructureChunker(BaseChunker):
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
        if self.oversize not in _POLICIES:
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

    # -- the engine --------------------------------------------------------------------

    def chunk(self, document: str | Document) -> list[Chunk]:
        """Chunk one text or document (see the class docstring for the rules).

        Raises:
            OversizeError: ``oversize="raise"`` and a code block or table is too big.
            MissingDependencyError: the parser's optional library is not installed.
        """
        doc = as_document(document)
        if not doc.text or doc.text.isspace():
            return []
        measure = self._sizer.measure(doc.text)
        spans, extra = self._plan(doc, measure)
        return self.build_chunks(doc, spans, extra)

    def spans(self, document: Document, measure: Measure) -> list[Span]:
        return self._plan(document, measure)[0]

    def _context(self, path: tuple[str, ...], budget: int) -> tuple[str, int]:
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

    def _sections(self, text: str, outline: Outline) -> tuple[list[_Section], list[tuple[str, ...]]]:
        heads = outline.headings
        stack: list[tuple[int, str]] = []
        paths: list[tuple[str, ...]] = []
        for h in heads:
            while stack and stack[-1][0] >= h.level:
                stack.pop()
            stack.append((h.level, h.title))
            paths.append(tuple(t for _, t in stack if t))
        body = outline.front_matter[1] if outline.front_matter else 0
        split = [(h, p) for h, p in zip(heads, paths) if h.level <= self.split_level]
        out: list[_Section] = []
        first = split[0][0].start if split else len(text)
        if body < first:
            out.append(_Section(body, first, 0, ()))
        for k, (h, p) in enumerate(split):
            end = split[k + 1][0].start if k + 1 < len(split) else len(text)
            out.append(_Section(max(h.start, body), end, h.level, p))
        return out, paths

    def _merge_small(self, sections: list[_Section], measure: Measure, budget: int) -> list[_Section]:
        small = self.min_chunk_size
        out: list[_Section] = []
        for sec in sections:
            if out:
                prev = out[-1]
                tiny = measure.size(prev.start, prev.end) < small or measure.size(sec.start, sec.end) < small
                if tiny and sec.level >= prev.level and measure.size(prev.start, sec.end) <= budget:
                    path = _common(prev.path, sec.path)
                    if self._context(path, budget)[1] + measure.size(prev.start, sec.end) <= budget:
                        out[-1] = _Section(prev.start, sec.end, prev.level, path)
                        continue
            out.append(sec)
        return out

    def _plan(self, doc: Document, measure: Measure) -> tuple[list[Span], list[dict[str, Any]]]:
        text = doc.text
        outline = self.outline(doc)
        heads = outline.headings
        sections, paths = self._sections(text, outline)
        budget0 = self.chunk_size - self.chunk_overlap
        if self.merge_small_sections:
            sections = self._merge_small(sections, measure, budget0)
        head_starts = [h.start for h in heads]
        blocks = [b for b in outline.blocks if b.kind != "front_matter"]
        atoms = [b for b in blocks if b.atomic]
        fences = [b for b in atoms if b.kind == "fence" and b.info]
        fence_starts = [b.start for b in fences]
        by_level: dict[int, list[int]] = {}
        for h in heads:
            by_level.setdefault(h.level, []).append(h.start)
        top: list[Level] = [_positions(f"h{lv}", pts) for lv, pts in sorted(by_level.items())]
        top.append(_positions("thematic_break", [b.start for b in blocks if b.kind == "hr"]))
        top.append(_positions("block", [b.start for b in blocks if b.depth == 0 and b.kind != "heading"]))
        top.append(_positions("item", outline.items))
        code_cuts = _positions("code_line", [p for b in atoms if b.kind != "table" for p in b.cuts])
        row_cuts = _positions("table_row", [p for b in atoms if b.kind == "table" for p in b.cuts])
        inner: list[Level] = [code_cuts, row_cuts, PARAGRAPH, LINE, SentenceSegmenter(), WORD]
        atom_starts = [b.start for b in atoms]

        spans: list[Span] = []
        extra: list[dict[str, Any]] = []
        if outline.front_matter is not None:
            fs, fe = outline.front_matter
            for sp in pack(text, measure, budget0, [LINE], start=fs, end=fe):
                spans.append(sp)
                extra.append({"header_path": [], "is_front_matter": True})
        for si, sec in enumerate(sections):
            ctx, cost = self._context(sec.path, budget0)
            budget = budget0 - cost
            i, j = bisect_left(atom_starts, sec.start), bisect_left(atom_starts, sec.end)
            sized = [(b, measure.size(b.start, b.end)) for b in atoms[i:j]]
            big = [b for b, n in sized if n > budget and measure.exact(*_trimmed(text, b)) > budget]
            too_big = {b.start for b in big}
            fit = [b for b in atoms[i:j] if b.start not in too_big]
            if big and self.oversize == "raise":
                b = big[0]
                raise OversizeError(
                    f"a {'table' if b.kind == 'table' else 'code block'} at characters {b.start}-{b.end} "
                    f"({measure.exact(*_trimmed(text, b))} {self._sizer.unit}) is larger than chunk_size "
                    f"({self.chunk_size}); raise chunk_size or use oversize='split' or 'keep'"
                )
            if self.include_context_in_size and any(b.kind == "table" and b.header for b in big):
                header_cost = max(self._sizer.count(text[b.header[0] : b.header[1]]) for b in big if b.header)  # type: ignore[index]
                budget = max(budget - header_cost, (budget0 + 1) // 2)
            fs_, fe_ = [b.start for b in fit], [b.end for b in fit]
            levels = top + [_guarded(lv, fs_, fe_) for lv in inner]
            sec_spans: list[Span] = []
            pos = sec.start
            keep = big if self.oversize == "keep" else []
            for b in keep:
                sec_spans += pack(text, measure, budget, levels, start=pos, end=b.start)
                s, e = _trimmed(text, b)
                n = measure.exact(s, e)
                sec_spans.append(Span(s, e, n, b.kind, n > budget))
                pos = b.end
            sec_spans += pack(text, measure, budget, levels, start=pos, end=sec.end)
            if self.chunk_overlap and len(sec_spans) > 1:
                sec_spans = add_overlap(text, measure, sec_spans, self.chunk_size - cost, self.chunk_overlap, levels)
            if sec_spans and si + 1 < len(sections) and sections[si + 1].level:
                sec_spans[-1].boundary = f"h{sections[si + 1].level}"  # the next section's heading
            tables = [b for b in big if b.kind == "table" and b.header]
            for sp in sec_spans:
                spans.append(sp)
                # the headings above the span's start, and only those all of it lies under
                at = bisect_right(head_starts, sp.start) - 1
                path = paths[at] if at >= 0 and head_starts[at] >= sec.start else sec.path
                for inside in range(at + 1, bisect_left(head_starts, sp.end)):
                    path = _common(path, paths[inside])
                meta: dict[str, Any] = {"header_path": list(path)}
                c = ctx if path == sec.path else self._context(path, budget0)[0]
                for t in tables:
                    if t.start < sp.start < t.end and t.header:
                        head = text[t.header[0] : t.header[1]].strip()
                        c = f"{c}\n{head}" if c else head
                if c:
                    meta["context"] = c
                k = bisect_right(fence_starts, sp.end) - 1
                while k >= 0 and fences[k].end > sp.start:
                    if fences[k].start < sp.end:
                        meta["code_language"] = fences[k].info.split()[0]
                    k -= 1
                extra.append(meta)
        return spans, extra


def _trimmed(text: str, b: Block) -> tuple[int, int]:
    return trim(text, b.start, b.end)


@register("markdown")
@dataclass(frozen=True, kw_only=True)
class MarkdownChunker(_StructureChunker):
    """Chunk Markdown along its headings, with a header path and a hard size cap.

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker` (sizes in
            ``unit``; the overlap stays inside a section).
        split_level, merge_small_sections, min_chunk_size, include_context_in_size,
        oversize, context_separator: see the module docstring and :class:`_StructureChunker`.

    The text is parsed as CommonMark (ATX and setext headings, fenced code of any fence
    length -- unclosed fences run to the end --, indented code, GFM tables, lists, block
    quotes, thematic breaks, HTML blocks). YAML front matter becomes one chunk of its
    own flagged ``metadata["is_front_matter"]``, with an empty header path; its fields go
    to ``metadata["front_matter"]`` of every chunk unless the document's metadata already
    has that key (``chunkwise.load``/``parse`` put it there).

    Chunk metadata: ``header_path`` (list of titles, top first), ``code_language`` (the
    first word of the info string of a fenced block the chunk overlaps), ``oversize``,
    ``is_front_matter``. ``chunk.context`` is the breadcrumb, plus a table's header row and
    separator for a chunk that continues a split table.

    Raises:
        ConfigError: invalid parameters. OversizeError: see ``oversize``.
        MissingDependencyError: markdown-it-py missing: ``pip install 'chunkwise[markdown]'``.

    Method:
        CommonMark parsing with markdown-it-py; sections as in LangChain's
        ``MarkdownHeaderTextSplitter``, packing as in text-splitter's ``MarkdownSplitter``.

    Example:
        >>> cs = MarkdownChunker(chunk_size=100).chunk("# Guide\\n\\n## Install\\n\\nRun it.\\n")
        >>> [(c.text, c.metadata["header_path"], c.context) for c in cs]
        [('# Guide', ['Guide'], 'Guide'), ('## Install\\n\\nRun it.', ['Guide', 'Install'], 'Guide > Install')]
    """

    def outline(self, document: Document) -> Outline:
        from ..parsers.markdown import MarkdownParser

        return MarkdownParser().parse(document.text)

    def build_chunks(
        self, doc: Document, spans: Sequence[Span], extra: Sequence[dict[str, Any]] | None = None
    ) -> list[Chunk]:
        if extra and "front_matter" not in doc.metadata and any(e.get("is_front_matter") for e in extra):
            from ..parsers.markdown import parse_front_matter

            fm = parse_front_matter(doc.text)
            if fm is not None:
                for e in extra:
                    e["front_matter"] = fm[1]
        return super().build_chunks(doc, spans, extra)


@register("sections")
@dataclass(frozen=True, kw_only=True)
class SectionsChunker(_StructureChunker):
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

    def outline(self, document: Document) -> Outline:
        from ..parsers.sections import NumberedSectionParser

        return NumberedSectionParser().parse(document.text)
