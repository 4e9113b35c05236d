"""PDF headings: text set large is not a heading, and a numbered scheme ranks first.

A user guide's font size demo ("17.5 points: til her Daddy ...", one line per size), its
sample paragraphs set at a heading's size, and its notes (a large "NOTE" icon on the
first line of a paragraph) were read as headings; the demo's one numbered-looking line
then ranked among the numbered headings and pushed the sections (``2.15 Bezier curves``)
down to ``###``, under it, for twenty pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import chunkwise
from chunkwise.parsers.markdown import MarkdownParser
from chunkwise.parsers.pdf import PdfLine, PdfPage, layout_pages

CORPUS = Path(__file__).parent / "corpus" / "pdf"


def _line(text: str, top: float, size: float = 10, x0: float = 72, x1: float = 500) -> PdfLine:
    return PdfLine(text, x0, x1, top, top + size * 1.2, size)


def _page(number: int, *lines: PdfLine) -> PdfPage:
    return PdfPage(number, 600, 800, tuple(lines))


def _body(top: float, n: int = 6) -> list[PdfLine]:
    # (enough body text that no demo below carries a fifth of the characters)
    words = "body text of the page, as long as a line of body text is in a manual set in ten points"
    return [_line(f"Line {i}: {words}.", top + 12 * i) for i in range(n)]


def _headings(text: str) -> list[tuple[int, str]]:
    return [(h.level, h.title) for h in MarkdownParser().parse(text).headings]


def _manual(*demo: PdfLine) -> list[PdfPage]:
    """Chapters at 18 points and numbered sections at 14 over three pages; ``demo`` on
    the second page, between its section and its body."""
    return [
        _page(1, _line("Chapter 1 Basics", 60, 18), *_body(100), _line("1.1 First steps", 200, 14), *_body(230)),
        _page(2, _line("1.2 Fonts", 60, 14), *demo, *_body(600)),
        _page(3, _line("Chapter 2 More", 60, 18), *_body(100), _line("2.1 Curves", 200, 14), *_body(230)),
    ]


def test_a_font_size_demo_is_body_text_and_sections_stay_under_their_chapter() -> None:
    # one line per size, each starting with a number ("17.5 points: ...")
    demo = [_line(f"{s} points: a line of the sample lyrics", 100 + 22 * k, s) for k, s in enumerate((11.5, 13.0, 14.5, 16.0, 17.5))]
    got = _headings(layout_pages(_manual(*demo)).text)
    assert got == [(1, "Chapter 1 Basics"), (2, "1.1 First steps"), (2, "1.2 Fonts"), (1, "Chapter 2 More"), (2, "2.1 Curves")]


def test_one_numbered_looking_line_is_no_numbered_scheme() -> None:
    # alone, the 17.5 points line stays a heading of the sizes outside the scheme (###)
    got = _headings(layout_pages(_manual(_line("17.5 points: til her Daddy takes the keyboard away", 100, 17.5))).text)
    assert (2, "2.1 Curves") in got and (2, "1.2 Fonts") in got
    assert (3, "17.5 points: til her Daddy takes the keyboard away") in got


def test_a_paragraph_set_at_a_heading_size_is_body_text_but_a_two_line_title_is_a_heading() -> None:
    lyrics = ["well she hit Net Solutions", "and she registered her own .com site now", "and filled it up with yahoo profile pics",
              "she snarfed in one night now", "and she made 50 million when Hugh Hefner", "bought up the rights now",
              "and she'll have fun fun fun", "til her Daddy takes the keyboard away"]
    demo = [_line(t, 100 + 17 * k, 14, x0=190) for k, t in enumerate(lyrics)]
    text = layout_pages(_manual(*demo)).text
    assert all(lv and "she" not in t for lv, t in _headings(text))
    assert "well she hit Net Solutions\nand she registered" in text  # one paragraph, as the PDF has it
    two = [_line("A Long Title Set", 100, 14), _line("On Two Lines", 117, 14)]
    assert (2, "A Long Title Set On Two Lines") in _headings(layout_pages(_manual(*two)).text)


def test_a_note_whose_first_line_is_large_is_a_paragraph() -> None:
    note = [
        _line("NOTE You need the Python Imaging Library (PIL) to use images with this package. Examples of", 100, 21.6, x0=45),
        _line("techniques below can be found by running the script in our tests directory.", 125, 10, x0=78),
    ]
    sentence = [_line("NOTE Note: Two previous bookmark methods are supported but deprecated now.", 200, 21.6, x0=45)]
    text = layout_pages(_manual(*note, *sentence)).text
    assert [t for _, t in _headings(text) if "NOTE" in t] == []
    assert "Examples of\ntechniques below" in text
    # a short heading over a body that starts in lower case is still a heading
    short = [_line("Installing", 100, 14), _line("pip install the package, then import it.", 122, 10)]
    assert (2, "Installing") in _headings(layout_pages(_manual(*short)).text)


@pytest.mark.skipif(not (CORPUS / "reportlab-userguide.pdf").exists(), reason="corpus file missing")
def test_the_user_guide_sections_nest_under_their_chapters() -> None:
    pytest.importorskip("pypdfium2")
    doc = chunkwise.load(CORPUS / "reportlab-userguide.pdf")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=96, unit="tokens")
    paths = [c.metadata["header_path"] for c in chunks]
    samples = [p for p in paths if any("points:" in h or "well she hit" in h or h.startswith("NOTE ") for h in p)]
    assert samples == []
    assert ["Chapter 2 Graphics and Text with pdfgen", "2.15 Bezier curves"] in paths
    assert max(len(h) for p in paths for h in p) <= 120
