"""PDF tables of contents and indexes: their lines are body text, not headings.

A user guide's contents page sets each chapter entry at a heading's size, with its page
number apart on the same row (``Chapter 2 Graphics and Text with pdfgen`` ... ``11``);
the entries became headings and the contents' chunks carried them in their header paths.
An index's group letters (``A``, ``F``, ``H``) made tiny chunks of their own, and a
cover's author lines (``Kurt Hornik`` / ``and the R Core Team``) a heading. The lines stay
in the text, as body text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import chunkwise
from chunkwise.parsers.markdown import MarkdownParser
from chunkwise.parsers.pdf import PdfLine, PdfPage, layout_pages

CORPUS = Path(__file__).parent / "corpus" / "pdf"
TITLES = {"contents", "table of contents", "index"}


def _line(text: str, top: float, size: float = 10, x0: float = 72, x1: float = 500) -> PdfLine:
    return PdfLine(text, x0, x1, top, top + size * 1.2, size)


def _page(number: int, *lines: PdfLine) -> PdfPage:
    return PdfPage(number, 600, 800, tuple(lines))


def _body(top: float, n: int = 8) -> list[PdfLine]:
    words = "body text of the page, as long as a line of body text is in a manual set in ten points"
    return [_line(f"Line {i}: {words}.", top + 12 * i) for i in range(n)]


def _headings(text: str) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in MarkdownParser().parse(text).headings]


def _chars(text: str) -> str:
    return re.sub(r"\s", "", re.sub(r"(?m)^#{1,6} ", "", text))


def _leader(text: str, page: int, top: float, size: float = 10, x0: float = 90) -> PdfLine:
    return _line(f"{text} . . . . . . . . . . . . . . . . . . {page}", top, size, x0)


def _book() -> list[PdfPage]:
    """A contents page (chapter entries at 14 points, their numbers apart on the row;
    section entries with dot leaders), two chapters, and an index with group letters."""
    contents = _page(
        1,
        _line("Table of contents", 40, 18, 200, 360),
        _line("Chapter 1 Basics", 80, 14, 72, 220),
        _line("3", 80, 14, 490, 500),
        _leader("1.1 First steps", 3, 100),
        _leader("1.2 Fonts", 4, 114),
        _line("Chapter 2 More", 140, 14, 72, 220),
        _line("5", 140, 14, 490, 500),
        _leader("2.1 Curves", 5, 160),
        _leader("2.2 Colours", 6, 174),
    )
    chapter1 = _page(2, _line("Chapter 1 Basics", 60, 18), *_body(100), _line("1.1 First steps", 220, 14), *_body(250))
    chapter2 = _page(3, _line("Chapter 2 More", 60, 18), *_body(100), _line("2.1 Curves", 220, 14), *_body(250))
    index = _page(
        4,
        _line("Index", 40, 18, 72, 140),
        _line("A", 80, 14, 72, 82),
        _leader("alpha", 3, 100, 9),
        _leader("arcs", 5, 112, 9),
        _line("B", 140, 14, 72, 82),
        _leader("bezier", 5, 160, 9),
        _leader("body", 3, 172, 9),
    )
    last = _page(5, _line("Z", 80, 14, 72, 82), _leader("zoom", 4, 100, 9))
    return [contents, chapter1, chapter2, index, last]


def test_contents_and_index_entries_are_body_text_and_keep_their_characters() -> None:
    pages = _book()
    text = layout_pages(pages).text
    assert _headings(text) == [
        (1, "Table of contents"),
        (1, "Chapter 1 Basics"),
        (2, "1.1 First steps"),
        (1, "Chapter 2 More"),
        (2, "2.1 Curves"),
        (1, "Index"),
    ]
    # nothing dropped: only the heading marks differ from the lines of the pages
    assert _chars(text) == _chars("".join(ln.text for pg in pages for ln in pg.lines))
    assert "Chapter 1 Basics\n3" in text  # the entry and its page number, one row


def test_a_cover_s_author_lines_are_body_text() -> None:
    cover = _page(
        1,
        _line("R FAQ", 200, 20),
        _line("Frequently Asked Questions on R", 240, 10, 360, 520),
        _line("Kurt Hornik", 650, 14),
        _line("and the R Core Team", 668, 14),
    )
    rest = [
        _page(n, _line(f"{n} Chapter", 60, 17), *_body(100), _line(f"{n}.1 Part", 220, 14), *_body(250))
        for n in (2, 3)
    ]
    text = layout_pages([cover, *rest]).text
    assert _headings(text)[0] == (1, "R FAQ")
    assert "Kurt Hornik\nand the R Core Team" in text
    assert not any("Hornik" in title for _, title in _headings(text))


def _toc_paths(path: Path) -> tuple[list[list[str]], list[tuple[int, str]]]:
    pytest.importorskip("pypdfium2")
    doc = chunkwise.load(path)
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=96, unit="tokens")
    return [c.metadata["header_path"] for c in chunks], _headings(doc.text)


@pytest.mark.skipif(not (CORPUS / "reportlab-userguide.pdf").exists(), reason="corpus file missing")
def test_the_user_guide_contents_entries_enter_no_header_path() -> None:
    paths, headings = _toc_paths(CORPUS / "reportlab-userguide.pdf")
    under = [p for p in paths if p and p[0] == "Table of contents"]
    assert under and all(p == ["Table of contents"] for p in under)
    assert [t for _, t in headings].count("Chapter 2 Graphics and Text with pdfgen") == 1
    assert ["Chapter 2 Graphics and Text with pdfgen", "2.15 Bezier curves"] in paths


@pytest.mark.skipif(not (CORPUS / "R-FAQ.pdf").exists(), reason="corpus file missing")
def test_the_faq_cover_authors_are_no_heading() -> None:
    paths, headings = _toc_paths(CORPUS / "R-FAQ.pdf")
    assert headings[:3] == [(1, "R FAQ"), (1, "Table of Contents"), (1, "1 Introduction")]


@pytest.mark.skipif(not (CORPUS / "R-data.pdf").exists(), reason="corpus file missing")
def test_index_group_letters_are_no_headings() -> None:
    paths, headings = _toc_paths(CORPUS / "R-data.pdf")
    assert not [t for _, t in headings if len(t) == 1]
    assert not [p for p in paths if len(p) > 1 and p[0].lower() in TITLES | {"concept index"}]

