"""EPUB: a table of contents in the spine is not read as chapters.

Debian's live manual opens its spine with a contents page whose entries are ``<h1>``-``<h6>``
links: read as a chapter, it gave 26 chunks of headings alone, each with the header path of
whatever entry came last. The EPUB 3 navigation document, the EPUB 2 guide's ``toc``
reference and a page that is mostly links to the book's other documents are left out.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

import chunkwise

pytest.importorskip("lxml")

CORPUS = Path(__file__).parent / "corpus" / "office"

CHAPTERS = {
    f"ch{i}.xhtml": f"<html><body><h1>{i}. Chapter {i}</h1><p>Text of chapter {i}, long enough to be a paragraph of "
    f"prose that says something about topic {i}. See <a href='ch1.xhtml'>the first chapter</a>.</p></body></html>"
    for i in range(1, 7)
}
TOC = "<html><body><h1>Book</h1><h1>Contents</h1>" + "".join(
    f"<h4><a href='ch{i}.xhtml'>{i}. Chapter {i}</a></h4><h5><a href='ch{i}.xhtml#s1'>{i}.1 Section</a></h5>"
    for i in range(1, 7)
) + "</body></html>"


def _epub(spine: dict[str, str], *, nav: str | None = None, guide_toc: str | None = None) -> bytes:
    prop = ' properties="nav"'
    items = "".join(
        f'<item id="{n}" href="{n}" media-type="application/xhtml+xml"{prop if n == nav else ""}/>' for n in spine
    )
    refs = "".join(f'<itemref idref="{n}"/>' for n in spine)
    guide = f'<guide><reference type="toc" title="Contents" href="{guide_toc}"/></guide>' if guide_toc else ""
    opf = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book</dc:title></metadata>'
        f"<manifest>{items}</manifest><spine>{refs}</spine>{guide}</package>"
    )
    container = (
        '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0">'
        '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml", container)
        zf.writestr("OEBPS/content.opf", opf)
        for n, body in spine.items():
            zf.writestr(f"OEBPS/{n}", body)
    return buf.getvalue()


def _heading_only(chunk: chunkwise.Chunk) -> bool:
    return all(re.match(r"\s*#{1,6} ", line) or not line.strip() for line in chunk.text.split("\n"))


def test_a_contents_page_of_heading_links_is_left_out():
    doc = chunkwise.parse(_epub({"toc.xhtml": TOC, **CHAPTERS}), format="epub")
    assert doc.metadata["chapters"] == 6
    assert "Contents" not in doc.text and "1.1 Section" not in doc.text
    assert re.findall(r"(?m)^# (\d)\. ", doc.text) == ["1", "2", "3", "4", "5", "6"]
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=40, unit="tokens")
    assert not any(_heading_only(c) for c in chunks)


@pytest.mark.parametrize("named", ["nav", "guide"])
def test_the_navigation_document_the_package_names_is_left_out(named):
    # a short contents page (fewer links than a page of contents needs): named by the package
    short = "<html><body><nav><ol><li><a href='ch1.xhtml'>One</a></li></ol></nav><p>Only a few words.</p></body></html>"
    spine = {"nav.xhtml": short, **CHAPTERS}
    data = _epub(spine, nav="nav.xhtml") if named == "nav" else _epub(spine, guide_toc="nav.xhtml#start")
    doc = chunkwise.parse(data, format="epub")
    assert doc.metadata["chapters"] == 6 and "Only a few words" not in doc.text


def test_a_chapter_with_links_in_its_prose_is_read():
    links = "<html><body><h1>Links</h1><p>" + " ".join(
        f"Read <a href='ch{i}.xhtml'>chapter {i}</a> for the details of topic {i}, which matter a great deal here."
        for i in range(1, 7)
    ) + "</p></body></html>"
    doc = chunkwise.parse(_epub({"links.xhtml": links, **CHAPTERS}), format="epub")
    assert doc.metadata["chapters"] == 7 and "# Links" in doc.text


@pytest.mark.skipif(not (CORPUS / "live-manual.en.epub").exists(), reason="corpus file missing")
def test_the_live_manual_gives_no_chunk_of_headings_alone():
    doc = chunkwise.load(CORPUS / "live-manual.en.epub")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=96, unit="tokens")
    assert [c.text[:60] for c in chunks if _heading_only(c)] == []
    first = next(c for c in chunks if "This manual serves as a single access point" in c.text)
    assert first.metadata["header_path"] == ["1. About this manual"]
