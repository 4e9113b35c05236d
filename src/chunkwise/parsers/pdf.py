"""PDF page layout to Markdown-like text: reading order, headings, page furniture.

The PDF loader (:mod:`chunkwise.loaders.pdf`) reads the text lines of each page with their
position, font size and weight (:class:`PdfLine`); this module, pure Python, turns them
into one text whose structure the markdown strategy reads:

* **reading order**: a page whose lines fall into two columns (left of the middle,
  right of it, side by side over the same height) is read column by column, band by band
  between the lines that span both columns; other pages keep the order of the file;
* **headings**: a line whose font is larger than the body text's (the size that carries
  most characters) is a heading. Levels rank the sizes of numbered headings (``2.1 ...``,
  ``Chapter 3``; two of a size at least: one line of a font size demo, ``17.5 points:
  ...``, is no scheme) when the document numbers them, else the sizes headings use on two
  pages or more: ``#`` for the largest, ``##`` for the next, ``###`` for the rest and for
  the sizes outside the ranking (a note's, a drawing's), but for a title larger than every
  ranked size on one page only, before the numbered headings start, which is ``#``; a short line set wholly in bold at body size is a heading one
  level below the size headings; consecutive heading lines of one size are one heading;
  a run of three heading lines or more that is scattered (the labels of a drawing) or
  holds more than ``MAX_HEADING_CHARS`` characters (a sample paragraph set large; one
  heading set on several lines may hold twice that) -- a numbered heading of the
  document's scheme, ``2.3 Foo``, is never taken for one --, a long line that ends with a
  full stop or whose sentence goes on in the body text under it (a note after a large
  icon), a caption, a line of a table of contents or an index (between its dot-leader
  lines, with its page number beside it, or an index's group letter), a cover's last
  lines under its title (its authors) and a block of heading lines holding an e-mail
  address (a title page's authors) are not headings: they stay, as body text;
  the title is the first page's first line in its largest font;
* **page furniture**: a line in the top or bottom tenth of a page whose text, digits
  aside, recurs in that band on at least three pages (and a quarter of them) is a running
  header or footer (so is one met once, in a place where many pages have their
  running head, with a page number at its end or the first two words of another running
  head; so is a short line whose topic changes from page to page -- a reference manual's
  module names -- in the place, font size and alignment where most pages have a running
  head); such a line and a page number alone (``12``, ``iv``, ``Page 3 of 9``)
  are removed from the text; the furniture is returned, and the printed page numbers;
* **lines** of a paragraph joined with a line break, as the PDF has them (a line that
  Markdown would misread as a heading is indented, never escaped); a word broken at a line
  end joined without the break: a soft hyphen goes, a typed ``-`` stays, PDFium's marks
  (U+FFFE, U+0002: a hyphen at a line end) go or become ``-`` as the document's own words
  say (``Win|dows`` -> ``Windows``, ``Springer|Verlag`` -> ``Springer-Verlag``); a vertical
  gap wider than the line spacing starts a paragraph;
* **tables**: rows of short cells side by side at one height, three rows or more, as
  Markdown pipe tables (the first row the header);
* **pages** joined by a blank line; :attr:`PdfLayout.pages` is the page map
  ``(page_number, start, end)`` of :class:`~chunkwise.types.Document`.

Method: the heading rule is the font-size ranking of pdfminer-based tools (pdfplumber,
unstructured's ``partition_pdf``) and docling's layout pass; the two-column rule reads a
page as bands split by full-width lines, as ``pdftotext``'s reading-order mode does.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..loaders._blocks import misread, pipe_table

__all__ = ["PdfLayout", "PdfLine", "PdfPage", "layout_pages"]

MAX_HEADING_CHARS = 120
"""A longer line is never a heading."""
FURNITURE_BAND = 0.1
"""The top and bottom fraction of a page where running headers, footers and page numbers are looked for."""

_PAGE_NUMBER = re.compile(
    r"(?:page\s+)?(?:\d{1,5}|[ivxlcdm]{1,8})(?:\s*(?:of|/)\s*\d{1,5})?|[-\u2013\u2014]\s*\d{1,5}\s*[-\u2013\u2014]",
    re.IGNORECASE,
)
_EDGE_NUMBER = re.compile(r"^\s*(\d{1,5}|[ivxlcdm]{1,8})\s+\S|\S\s+(\d{1,5}|[ivxlcdm]{1,8})\s*$", re.IGNORECASE)
_HYPHEN_END = re.compile(r"(?<=[^\W\d_])[-\u00ad\u0002\ufffe]$")
_SOFT_END = re.compile(r"\u00ad$")
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*\S{0,8}\s*$")
_NUMBERED = re.compile(r"(?:\d+\.)*\d+\.?\s|[A-Z]\.\d")
# an e-mail address: a line holding one is an author's or a contact's, never a heading
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CAPTION = re.compile(r"(?:figure|fig\.|table|listing|example)\s*[\dA-Z][\w.-]*\s*[:.]", re.IGNORECASE)
_SECTION_NUMBER = re.compile(r"(?:chapter|appendix|part|section)\s+\w|\d+(?:\.\d+)*\.?\s+\S|[A-Z](?:\.\d+)+\.?\s", re.I)
_BARE_NUMBER = re.compile(r"(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+)\.?")
_HYPHEN_MARKS = re.compile("[\u0002\ufffe]")
_SPACE = re.compile(r"\s+")
_CONTAINER = re.compile(r"(?:>[ ]?|[-+*](?: |$)|\d{1,9}[.)](?: |$))+")
_SENTENCE_END = re.compile(r"[.!?:;)\]\"\u201d]$")


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One text line of a page.

    Attributes:
        text: the line's text (no line break).
        x0, x1: left and right edges, in PDF points from the page's left edge.
        top, bottom: upper and lower edges, in points from the page's top edge (top < bottom).
        size: the font size in points.
        bold: the line is set in a bold font (weight 600 or more) from end to end.
    """

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool = False


@dataclass(frozen=True, slots=True)
class PdfPage:
    """One page: its number (1-based, in the file), size in points, and lines in the
    file's order."""

    number: int
    width: float
    height: float
    lines: tuple[PdfLine, ...]


@dataclass(frozen=True)
class PdfLayout:
    """The text of the pages and what was taken out of it.

    Attributes:
        text: Markdown-like text of every page, pages separated by a blank line.
        pages: ``(page_number, start, end)`` per page, half-open offsets into ``text``.
        furniture: the running headers and footers removed (their first occurrence's
            text, in the order met).
        page_labels: the page number printed on each page (``None`` where none was
            found), in page order.
        headings: how many headings were emitted.
        two_column_pages: the pages read as two columns.
        title: the first page's title: its first line in the page's largest font when
            that is larger than the body text (with the lines right below in that font),
            else None.
    """

    text: str
    pages: tuple[tuple[int, int, int], ...]
    furniture: tuple[str, ...] = ()
    page_labels: tuple[str | None, ...] = ()
    headings: int = 0
    two_column_pages: tuple[int, ...] = field(default_factory=tuple)
    title: str | None = None


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", text)).strip().lower()


def _in_band(line: PdfLine, page: PdfPage) -> bool:
    band = page.height * FURNITURE_BAND
    return line.bottom <= band or line.top >= page.height - band


def _furniture(pages: Sequence[PdfPage]) -> tuple[set[str], list[str]]:
    """The keys of the running header and footer lines, and their texts in order met."""
    seen: dict[str, set[int]] = defaultdict(set)
    places: dict[str, set[tuple[bool, int, float]]] = defaultdict(set)
    at: dict[tuple[bool, int, float], set[int]] = defaultdict(set)
    first: dict[str, str] = {}
    for page in pages:
        for line in page.lines:
            if _in_band(line, page) and line.text.strip():
                k = _key(line.text)
                seen[k].add(page.number)
                first.setdefault(k, line.text.strip())
                place = (line.top < page.height / 2, round(line.top), _size(line.size))
                places[k].add(place)
                at[place].add(page.number)
    need = max(3, len(pages) // 4)

    def running(k: str) -> bool:
        if _PAGE_NUMBER.fullmatch(first[k]):
            return False
        if len(seen[k]) >= need:
            return True
        # a chapter's running head: on two pages or more, where many pages have one
        common = any(len(at[p]) >= need for p in places[k])
        return common and (len(seen[k]) >= 2 or bool(_EDGE_NUMBER.search(first[k])))

    keys = {k for k in seen if running(k)}
    # a chapter of one page: in a running head's place, starting as the other running heads do
    starts = {" ".join(k.split()[:2]) for k in keys if len(k.split()) > 2}
    for k in seen:
        if k not in keys and len(k.split()) > 2 and " ".join(k.split()[:2]) in starts:
            if any(len(at[p]) >= need for p in places[k]):
                keys.add(k)
    # the part of a running head that changes (the topic of a reference manual's pages,
    # a module's name on its only page): a short line in the place -- band, height, font
    # size -- where most pages hold a running head already found, aligned with those
    # heads on their left or right edge, is one too
    held: dict[tuple[bool, int, float], set[int]] = defaultdict(set)
    edges: dict[tuple[bool, int, float], set[tuple[str, int]]] = defaultdict(set)
    loose: list[tuple[str, tuple[bool, int, float], float, float]] = []
    for page in pages:
        for line in page.lines:
            if _in_band(line, page) and line.text.strip():
                k = _key(line.text)
                place = (line.top < page.height / 2, round(line.top), _size(line.size))
                if k in keys:
                    held[place].add(page.number)
                    edges[place].update((("left", round(line.x0)), ("right", round(line.x1))))
                elif len(k.split()) <= 8 and not _SENTENCE_END.search(k) and not _PAGE_NUMBER.fullmatch(first[k]):
                    loose.append((k, place, line.x0, line.x1))
    for k, place, x0, x1 in loose:
        if k in keys or len(held[place]) < max(need, len(pages) // 2):
            continue
        if any(abs(x - x0) <= 2 for side, x in edges[place] if side == "left") or any(
            abs(x - x1) <= 2 for side, x in edges[place] if side == "right"
        ):
            keys.add(k)
    return keys, [first[k] for k in first if k in keys]


def _label(line: PdfLine) -> str | None:
    text = line.text.strip()
    if _PAGE_NUMBER.fullmatch(text):
        return re.sub(r"(?i)^page\s+|\s*(?:of|/)\s*\d+$|[-\u2013\u2014\s]", "", text)
    m = _EDGE_NUMBER.search(text)
    if m:
        return m.group(1) or m.group(2)
    return None


def _columns(page: PdfPage, lines: list[PdfLine]) -> list[PdfLine] | None:
    """The lines in column order when the page has two columns, else None."""
    mid, slack = page.width / 2, page.width * 0.02
    left = [ln for ln in lines if ln.x1 <= mid + slack]
    right = [ln for ln in lines if ln.x0 >= mid - slack]
    if len(left) < 3 or len(right) < 3 or len(left) + len(right) < 0.6 * len(lines):
        return None
    # side by side: the columns overlap in height
    if min(ln.bottom for ln in left) < max(ln.top for ln in right) and min(ln.bottom for ln in right) < max(
        ln.top for ln in left
    ):
        pass
    else:
        return None
    ordered: list[PdfLine] = []
    band_left: list[PdfLine] = []
    band_right: list[PdfLine] = []

    def flush() -> None:
        ordered.extend(sorted(band_left, key=lambda ln: ln.top))
        ordered.extend(sorted(band_right, key=lambda ln: ln.top))
        band_left.clear()
        band_right.clear()

    for ln in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        if ln.x1 <= mid + slack:
            band_left.append(ln)
        elif ln.x0 >= mid - slack:
            band_right.append(ln)
        else:  # spans both columns: ends the band
            flush()
            ordered.append(ln)
    flush()
    return ordered


def _tables(page: PdfPage, lines: list[PdfLine]) -> tuple[list[PdfLine], set[int]]:
    """``lines`` with each table replaced by one line holding it as a Markdown pipe table
    (the first row its header), and the ``id()`` of those lines.

    A table is three rows or more in a row (lines side by side at one height, not
    overlapping) of two cells or more, short ones (fewer than a quarter of them wider than
    30% of the page, fewer than half of five words or more: two columns of running text
    are wider and wordier); a cell goes to the column
    whose left edge is nearest its own in the row with the most cells.
    """
    if len(lines) < 6:
        return lines, set()
    rows: list[list[PdfLine]] = []
    for ln in sorted(lines, key=lambda ln: (ln.top + ln.bottom) / 2):
        mid = (ln.top + ln.bottom) / 2
        if rows:
            last = rows[-1][0]
            if abs(mid - (last.top + last.bottom) / 2) < 0.4 * max(last.bottom - last.top, 1.0):
                rows[-1].append(ln)
                continue
        rows.append([ln])
    for row in rows:
        row.sort(key=lambda ln: ln.x0)

    def cells(row: list[PdfLine]) -> bool:
        return len(row) >= 2 and all(a.x1 <= b.x0 for a, b in zip(row, row[1:]))

    found: dict[int, tuple[int, int]] = {}  # first row -> (end row, columns)
    k = 0
    while k < len(rows):
        if not cells(rows[k]):
            k += 1
            continue
        j = k
        while j < len(rows) and cells(rows[j]):
            j += 1
        run = rows[k:j]
        widths = [ln.x1 - ln.x0 for row in run for ln in row]
        wordy = sum(len(ln.text.split()) >= 5 for row in run for ln in row)
        if len(run) >= 3 and sum(w > 0.3 * page.width for w in widths) < 0.25 * len(widths) and wordy < 0.5 * len(widths):
            found[k] = (j, max(len(row) for row in run))
        k = j
    if not found:
        return lines, set()
    replace: dict[int, PdfLine | None] = {}
    ids: set[int] = set()
    for k, (j, ncols) in found.items():
        run = rows[k:j]
        widest = next(row for row in run if len(row) == ncols)
        starts = [ln.x0 for ln in widest]
        grid = []
        for row in run:
            values = [""] * ncols
            for ln in row:
                col = min(range(ncols), key=lambda c: abs(starts[c] - ln.x0))
                values[col] = (values[col] + " " + ln.text).strip()
            grid.append(values)

        members = [ln for row in run for ln in row]
        first = min(members, key=lambda ln: lines.index(ln))
        table = PdfLine(
            pipe_table(grid),
            min(ln.x0 for ln in members),
            max(ln.x1 for ln in members),
            min(ln.top for ln in members),
            max(ln.bottom for ln in members),
            first.size,
        )
        ids.add(id(table))
        for ln in members:
            replace[id(ln)] = None
        replace[id(first)] = table
    out = []
    for ln in lines:
        if id(ln) in replace:
            new = replace[id(ln)]
            if new is not None:
                out.append(new)
        else:
            out.append(ln)
    return out, ids


def _rejoin_numbers(lines: list[PdfLine], tables: set[int]) -> list[PdfLine]:
    """A section number set apart from its title by a wide space (``1.2``, quad, ``Scope``):
    the two runs the loader split at the gap, joined again into one line."""
    out: list[PdfLine] = []
    for ln in lines:
        prev = out[-1] if out else None
        if (
            prev is not None
            and id(prev) not in tables
            and id(ln) not in tables
            and _BARE_NUMBER.fullmatch(prev.text.strip())
            and abs(prev.top - ln.top) < 0.3 * max(ln.bottom - ln.top, 1.0)
            and 0 <= ln.x0 - prev.x1 < 4 * ln.size
        ):
            out[-1] = PdfLine(
                prev.text.strip() + " " + ln.text.strip(), prev.x0, ln.x1, min(prev.top, ln.top),
                max(prev.bottom, ln.bottom), ln.size, ln.bold,
            )
            continue
        out.append(ln)
    return out


def _size(value: float) -> float:
    return round(value * 2) / 2


def _heading_levels(pages: Sequence[list[PdfLine]]) -> tuple[float, dict[float, int], frozenset[float]]:
    """The body size, the heading level of each larger size, and the sizes of the
    document's numbered headings (empty when it numbers none)."""
    weight: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            weight[_size(ln.size)] += len(ln.text)
    if not weight:
        return 0.0, {}, frozenset()
    body = weight.most_common(1)[0][0]
    total = sum(weight.values())
    threshold = body + max(1.0, 0.12 * body)
    # a size that carries much of the text (a large-print preface) is not a heading size
    sizes = [s for s in weight if s >= threshold and weight[s] <= 0.2 * total]
    on_pages: dict[float, set[int]] = defaultdict(set)
    numbered: Counter[float] = Counter()
    count: Counter[float] = Counter()
    first_numbered: dict[float, int] = {}
    for k, lines in enumerate(pages):
        for ln in lines:
            text = ln.text.strip()
            if _size(ln.size) in sizes and _is_heading_text(text):
                on_pages[_size(ln.size)].add(k)
                count[_size(ln.size)] += 1
                if _SECTION_NUMBER.match(text):
                    numbered[_size(ln.size)] += 1
                    first_numbered.setdefault(_size(ln.size), k)
    # the levels are ranked among the sizes of numbered headings ("2.1 Basics", "Chapter 3")
    # when the document numbers them, else among the sizes headings use on two pages or
    # more: a cover's, a note's or a drawing's sizes do not push chapters and sections down.
    # A numbered scheme is two numbered lines of a size or more: one line that starts with
    # a number ("17.5 points: ...", a font size sample) is no scheme
    ranked = [s for s in sizes if numbered[s] >= 2 and numbered[s] >= 0.3 * count[s]]
    if ranked:
        top = max(ranked)
        # (a title: a size larger than the scheme's, on one page, before the scheme starts)
        start = min(first_numbered[s] for s in ranked)
        levels = {
            s: min(1 + sum(1 for r in ranked if r > s), 3)
            if s in ranked or (s > top and len(on_pages[s]) == 1 and min(on_pages[s]) <= start)
            else 3
            for s in sizes
        }
    else:
        ranked = [s for s in sizes if len(on_pages[s]) >= 2] or sizes
        levels = {s: min(1 + sum(1 for r in ranked if r > s), 3) for s in sizes}
        return body, levels, frozenset()
    return body, levels, frozenset(ranked)


def _is_heading_text(text: str) -> bool:
    """Short, with a letter, and not a table-of-contents entry (dot leaders, a page number)."""
    return 0 < len(text) <= MAX_HEADING_CHARS and any(c.isalpha() for c in text) and not _LEADERS.search(text)


def _page_levels(
    lines: Sequence[PdfLine],
    level_of: Callable[[PdfLine], int],
    width: float,
    scheme: frozenset[float] = frozenset(),
    height: float = 0.0,
    cover: bool = False,
) -> list[int]:
    """The heading level of each line of a page (0: body), with three rules that keep the
    labels of a drawing, a caption and a table of contents out of the outline: a run of
    three heading lines or more with no body line between them, scattered over the page
    (not aligned on one left edge, or side by side), is body text (a numbered heading,
    ``2.3 Foo``, is never part of such a run); so is a
    caption (``Figure 2-1: ...``), a line of a page of contents or of an index (three
    lines or more with dot leaders) that ends in a number, lies between two leader lines,
    has its page number apart on its row (``Chapter 1 Introduction`` ... ``6``) or is one
    letter (an index's ``A``; one over a leader line on any page too), the last lines of
    a cover (``cover``: the file's first page) in its lower half, set smaller than a
    line above them, on a page of five body lines or fewer (``Kurt Hornik`` / ``and the
    R Core Team``), and a block of heading lines (one size, each
    right under the one before, as a heading on two lines is set) of which a line holds
    an e-mail address: a title page's authors (``Simon Josefsson`` /
    ``Nikos Mavrogiannopoulos (help-libtasn1@gnu.org)``), not a heading."""
    levels = [level_of(ln) for ln in lines]
    leaders = [k for k, ln in enumerate(lines) if _LEADERS.search(ln.text)]
    contents = len(leaders) >= 3
    for k, ln in enumerate(lines):
        text = ln.text.strip()
        if levels[k] and (_CAPTION.match(text) or (contents and re.search(r"\d\s*$", text))):
            levels[k] = 0
        elif levels[k] and (
            (contents and (leaders[0] < k < leaders[-1] or len(text) == 1 or _numbered_row(ln, lines)))
            or (len(text) == 1 and k + 1 < len(lines) and _LEADERS.search(lines[k + 1].text))
        ):
            # an entry of a table of contents or an index: between its dot-leader lines,
            # an index's group letter (one on a page of its own too, over its entries),
            # or a line with its page number beside it
            levels[k] = 0
    if cover:
        # a cover's last lines in a heading's font, in its lower half, under its title
        # (``Kurt Hornik`` / ``and the R Core Team``): its authors, not a heading
        j = len(lines)
        while j > 0 and levels[j - 1] and not _SECTION_NUMBER.match(lines[j - 1].text.strip()):
            j -= 1
        body_lines = sum(1 for lvl in levels[:j] if not lvl)
        if (
            0 < j < len(lines)
            and body_lines <= 5
            and any(levels[:j])
            and all(ln.top >= height / 2 for ln in lines[j:])
            and all(_size(ln.size) < max(_size(a.size) for a in lines[:j]) for ln in lines[j:])
        ):
            levels[j:] = [0] * (len(lines) - j)
    k = 0
    while k < len(levels):
        j = k + 1
        if levels[k]:
            while (
                j < len(levels)
                and levels[j] == levels[k]
                and _size(lines[j].size) == _size(lines[k].size)
                and 0 <= lines[j].top - lines[j - 1].bottom <= lines[j - 1].bottom - lines[j - 1].top
            ):
                j += 1
            if any(_EMAIL.search(ln.text) for ln in lines[k:j]):
                levels[k:j] = [0] * (j - k)
        k = j
    # a numbered heading ("2.3 Foo", "1. Introduction") in a heading's font is one
    # whatever surrounds it: it ends a run and is never taken for a drawing's label (in a
    # document that numbers its headings, in the font of its numbered headings: a line of
    # a font size sample, "17.5 points: ...", is no heading of the scheme)
    numbered = [
        bool(levels[k]) and bool(_SECTION_NUMBER.match(ln.text.strip())) and (not scheme or _size(ln.size) in scheme)
        for k, ln in enumerate(lines)
    ]
    k = 0
    while k < len(levels):
        if not levels[k] or numbered[k]:
            k += 1
            continue
        j = k
        while j < len(levels) and levels[j] and not numbered[j]:
            j += 1
        run = lines[k:j]
        scattered = max(ln.x0 for ln in run) - min(ln.x0 for ln in run) > 0.1 * width or any(
            b.top < a.bottom - 0.5 * (a.bottom - a.top) for a, b in zip(run, run[1:])
        )
        if j - k >= 3 and (scattered or _prose_run(run)):
            levels[k:j] = [0] * (j - k)
        k = j
    # a long line in a heading's font that is a sentence (ends with a full stop) or whose
    # sentence goes on in the body text right under it (a note's first line after a large
    # icon, "NOTE Note that ... the" / "elements are ...") is prose, not a heading
    for k, ln in enumerate(lines):
        text = ln.text.strip()
        if not levels[k] or numbered[k] or len(text) <= MAX_HEADING_CHARS // 2:
            continue
        if text.endswith(".") and not text.endswith(".."):
            levels[k] = 0
            continue
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        if (
            nxt is not None
            and not levels[k + 1]
            and not _SENTENCE_END.search(text)
            and nxt.text.strip()[:1].islower()
            and _size(nxt.size) < _size(ln.size)
            and -0.5 * (nxt.bottom - nxt.top) <= nxt.top - ln.bottom <= nxt.bottom - nxt.top
        ):
            levels[k] = 0
    return levels


def _numbered_row(line: PdfLine, lines: Sequence[PdfLine]) -> bool:
    """Whether a page number stands alone on ``line``'s row, right of it (a table of
    contents entry whose number the file sets apart: ``Chapter 1 Introduction`` ... ``6``)."""
    height = max(line.bottom - line.top, 1.0)
    return any(
        other is not line
        and other.x0 >= line.x1
        and abs(other.top - line.top) < 0.3 * height
        and re.fullmatch(r"\d{1,5}|[ivxlcdm]{1,8}", other.text.strip(), re.I) is not None
        for other in lines
    )


def _prose_run(run: Sequence[PdfLine]) -> bool:
    """Whether a run of three heading lines or more, with no body line between them, is
    text set large rather than headings: more than :data:`MAX_HEADING_CHARS` characters in
    all (a sample paragraph, lyrics in a font size demo), unless the lines are one heading
    set on several lines (one size, each right under the one before) of at most twice that
    (a long title)."""
    chars = sum(len(ln.text.strip()) for ln in run)
    if chars <= MAX_HEADING_CHARS:
        return False
    stacked = all(
        _size(b.size) == _size(a.size) and 0 <= b.top - a.bottom <= a.bottom - a.top for a, b in zip(run, run[1:])
    )
    return not stacked or chars > 2 * MAX_HEADING_CHARS




def _resolve_hyphens(texts: list[str]) -> list[str]:
    """The texts with PDFium's hyphen marks (U+FFFE, U+0002: a hyphen where PDFium joined
    the two halves of a word broken across lines) resolved: the mark goes (the halves are
    one word, ``Win|dows``) or becomes ``-`` (a hyphen the text has, ``Springer-Verlag``,
    ``easy-to-understand``; every mark not between two letters), one character for one.

    Between two letters, the document's own words decide (dehyphenation by the text's
    lexicon): the word joined or the hyphenated one, whichever the text has more often
    elsewhere (also inside longer words: ``reused`` for ``reuse``); without either, ``-``
    when the left half holds a hyphen already or is in capitals (``DBMS-specific``), or the
    right half starts with a capital; else what the document's other marks were resolved
    to (most often), the join when none says.
    """
    found: list[tuple[int, int, str, str]] = []  # (text, offset, left half, right half)
    for n, t in enumerate(texts):
        if "\u0002" not in t and "\ufffe" not in t:
            continue
        for m in _HYPHEN_MARKS.finditer(t):
            k = m.start()
            a = k
            while a > 0 and (t[a - 1].isalpha() or t[a - 1] == "-"):
                a -= 1
            b = k + 1
            while b < len(t) and t[b].isalpha():
                b += 1
            found.append((n, k, t[a:k].strip("-"), t[k + 1 : b]))
    if not found:
        return texts
    # how often the text has each form elsewhere (as a part of a word too: ``reused``
    # counts for ``reuse``); a broken word is in neither form where it is broken
    low = "\n".join(texts).lower()
    seen: dict[str, int] = {}

    def count(form: str) -> int:
        if form not in seen:
            seen[form] = low.count(form)
        return seen[form]

    decided: list[bool | None] = []  # True: a hyphen, False: joined, None: no evidence
    for _, _, left, right in found:
        if not left or not right:
            decided.append(True)
            continue
        joined = count((left.rsplit("-", 1)[-1] + right).lower())
        hyphened = count((left + "-" + right).lower())
        decided.append(None if joined == hyphened else hyphened > joined)
    votes = Counter(d for d in decided if d is not None)
    default = votes[True] > votes[False]
    out = list(texts)
    pieces: list[str] = []
    last_text, last_end = -1, 0
    for (n, k, left, right), d in zip(found, decided):
        if n != last_text:
            if last_text >= 0:
                out[last_text] = "".join(pieces) + texts[last_text][last_end:]
            pieces, last_text, last_end = [], n, 0
        if d is None:
            d = "-" in left or right[:1].isupper() or left.isupper() or default
        pieces.append(texts[n][last_end:k])
        if d:
            pieces.append("-")
        last_end = k + 1
    out[last_text] = "".join(pieces) + texts[last_text][last_end:]
    return out


def layout_pages(pages: Sequence[PdfPage], context: Sequence[PdfPage] = ()) -> PdfLayout:
    """The Markdown-like text of ``pages`` (see the module's description).

    Args:
        pages: the pages, in order, each with its lines as the file gives them.
        context: other pages of the same file (when ``pages`` is a part of it), read for
            the running heads, the heading sizes and the title but not written: a few
            pages chosen from a long file get the furniture and the heading levels the
            whole file gives them, and the title of its first page.

    Returns:
        A :class:`PdfLayout`: text, page map, furniture removed, printed page numbers, title.

    Body lines are written as the PDF has them, never escaped: a line that a Markdown
    parser would read as a heading or as a block swallowing what follows (``# ...``, a
    code fence, an unclosed ``<!--``, a ``---`` under a line of its paragraph:
    :func:`~chunkwise.loaders._blocks.misread`) is indented instead -- four spaces past
    the widest list marker met before, so that it continues its paragraph or is a line of
    code --, and the ``markdown`` strategy finds the headings this layout made and no
    other. Only white space is added: the text's characters are the PDF's.

    Example:
        >>> body = [PdfLine(f"Line {i} of the body.", 72, 300, 100 + 14 * i, 110 + 14 * i, 10) for i in range(3)]
        >>> page = PdfPage(1, 600, 800, (PdfLine("Intro", 72, 200, 60, 80, 18), *body))
        >>> print(layout_pages([page]).text)
        # Intro
        <BLANKLINE>
        Line 0 of the body.
        Line 1 of the body.
        Line 2 of the body.
    """
    every = sorted([*pages, *context], key=lambda pg: pg.number) if context else list(pages)
    keys, furniture = _furniture(every) if len(every) >= 3 else (set(), [])
    written = {id(pg) for pg in pages}
    kept: list[list[PdfLine]] = []
    kept_all: list[list[PdfLine]] = []
    labels: list[str | None] = []
    two_column: list[int] = []
    tables: set[int] = set()  # id() of the lines that hold a Markdown table
    for page in every:
        label = None
        lines = []
        for ln in page.lines:
            text = ln.text.strip()
            if not text:
                continue
            if _in_band(ln, page):
                if _PAGE_NUMBER.fullmatch(text):
                    label = label or _label(ln)
                    continue
                if _key(text) in keys:
                    label = label or _label(ln)
                    continue
            lines.append(ln)
        lines, found = _tables(page, lines)
        tables.update(found)
        lines = _rejoin_numbers(lines, found)
        ordered = _columns(page, lines)
        kept_all.append(lines if ordered is None else ordered)
        if id(page) not in written:
            continue
        if ordered is not None:
            two_column.append(page.number)
            lines = ordered
        kept.append(lines)
        labels.append(label)
    body, levels, scheme = _heading_levels(kept_all)
    bold_level = min(len(set(levels.values())) + 1, 3)
    title = _title(every[0], kept_all[0], body) if every else None

    def level_of(ln: PdfLine) -> int:
        text = ln.text.strip()
        if id(ln) in tables or not _is_heading_text(text):
            return 0
        lvl = levels.get(_size(ln.size), 0)
        if lvl:
            return lvl
        if ln.bold and _size(ln.size) >= body and len(text) <= 80 and not _SENTENCE_END.search(text):
            return bold_level
        return 0

    texts: list[str] = []
    headings = 0
    deep = 0  # the widest list or quote markers a body line began with so far

    def guard(text: str, continues: bool = False) -> str:
        """A body line as the PDF has it; one a Markdown parser would misread as a
        heading (or a block that swallows the lines after it) indented past any list
        item it could belong to, so that it continues its paragraph or is a line of code."""
        nonlocal deep
        if misread(text, continues):
            return " " * (4 + deep) + text
        m = _CONTAINER.match(text)
        if m is not None:
            deep = max(deep, m.end() + 1)
        return text

    for page, lines in zip(pages, kept):
        out: list[str] = []
        prev: PdfLine | None = None
        prev_level = -1
        for ln, lvl in zip(lines, _page_levels(lines, level_of, page.width, scheme, page.height, page.number == 1)):
            if id(ln) in tables:
                out.append(ln.text)
                prev, prev_level = ln, -1
                continue
            text = _SPACE.sub(" ", ln.text).strip()
            if lvl:
                if (
                    prev is not None
                    and prev_level == lvl
                    and _size(prev.size) == _size(ln.size)
                    and 0 <= ln.top - prev.bottom <= prev.bottom - prev.top
                    and not _NUMBERED.match(text)
                ):
                    out[-1] += " " + text  # a heading on two lines
                else:
                    out.append("#" * lvl + " " + text)
                    headings += 1
                prev, prev_level = ln, lvl
                continue
            joined = False
            if prev is not None and prev_level == 0 and out:
                height = max(prev.bottom - prev.top, 1.0)
                gap = ln.top - prev.bottom
                indented = ln.x0 > prev.x0 + 0.8 * ln.size and _SENTENCE_END.search(out[-1]) is not None
                same_paragraph = -0.5 * height <= gap <= 0.8 * height and not indented
                column_jump = gap < -0.5 * height and not _SENTENCE_END.search(out[-1])
                if same_paragraph or column_jump:
                    last = out[-1]
                    if _HYPHEN_END.search(last) and text[:1].islower():
                        # a soft hyphen goes; a hyphen typed stays; PDFium's marks are
                        # resolved with the others, by the document's words
                        out[-1] = (last[:-1] if _SOFT_END.search(last) else last) + text
                    else:
                        out[-1] = last + "\n" + guard(text, continues=True)
                    joined = True
            if not joined:
                out.append(guard(text))
            prev, prev_level = ln, 0
        texts.append("\n\n".join(out))
    texts = _resolve_hyphens(texts)
    page_map: list[tuple[int, int, int]] = []
    offset = 0
    for page, page_text in zip(pages, texts):
        if page_map:
            offset += 2  # the blank line between pages belongs to no page
        page_map.append((page.number, offset, offset + len(page_text)))
        offset += len(page_text)
    return PdfLayout(
        text="\n\n".join(texts),
        pages=tuple(page_map),
        furniture=tuple(furniture),
        page_labels=tuple(labels),
        headings=headings,
        two_column_pages=tuple(two_column),
        title=title,
    )


def _title(page: PdfPage, lines: Sequence[PdfLine], body: float) -> str | None:
    """The title on a document's first page: its first line in the page's largest font,
    larger than the body text, with the lines right below it in that font (a title on
    two lines); None when no line is larger than the body text."""
    sized = [ln for ln in lines if _is_heading_text(ln.text.strip()) and not _LEADERS.search(ln.text)]
    if not sized:
        return None
    largest = max(_size(ln.size) for ln in sized)
    if largest < body + max(1.0, 0.12 * body):
        return None
    k = next(k for k, ln in enumerate(lines) if ln in sized and _size(ln.size) == largest)
    parts = [_SPACE.sub(" ", lines[k].text).strip()]
    prev = lines[k]
    for ln in lines[k + 1 :]:
        if _size(ln.size) != largest or not 0 <= ln.top - prev.bottom <= prev.bottom - prev.top:
            break
        parts.append(_SPACE.sub(" ", ln.text).strip())
        prev = ln
    title = " ".join(parts)
    return title if len(title) <= 2 * MAX_HEADING_CHARS else None
