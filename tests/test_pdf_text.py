"""The PDF's text as the PDF has it: no Markdown escapes but where a heading would be
misread, hyphens kept or joined by the document's words, running heads whose topic varies,
parts of a file (``pages=``), page metadata per chunk, numbered headings and the title,
a PDF on standard input. Real manuals in tests/corpus/pdf (see SOURCES.md)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.cli import cli
from chunkwise.enrich import DOCUMENT_ONLY
from chunkwise.export import chunk_record, dumps, jsonl_lines
from chunkwise.loaders._blocks import guard_line, misread
from chunkwise.parsers.markdown import MarkdownParser
from chunkwise.parsers.pdf import PdfLine, PdfPage, layout_pages

pytest.importorskip("pypdfium2")

CORPUS = Path(__file__).parent / "corpus" / "pdf"
MIME = CORPUS / "shared-mime-info-spec.pdf"
EDOC = CORPUS / "edoc-1.2.pdf"


@pytest.fixture(scope="module")
def docs() -> dict[str, chunkwise.Document]:
    return {p.name: chunkwise.load(p) for p in sorted(CORPUS.glob("*.pdf"))}


def _line(text: str, top: float, size: float = 10, x0: float = 72, x1: float = 500, bold: bool = False) -> PdfLine:
    return PdfLine(text, x0, x1, top, top + size * 1.2, size, bold)


def _page(number: int, *lines: PdfLine) -> PdfPage:
    return PdfPage(number, 600, 800, tuple(lines))


def _headings(text: str) -> list[str]:
    return [h.title for h in MarkdownParser().parse(text).headings]


# -- 1. the text is the PDF's: white space only where a heading would be misread ------------


def test_body_lines_keep_their_characters_and_only_a_misread_heading_is_indented() -> None:
    lines = ["> a quote mark first", "1. a numbered line", "- a dash first", "| a bar first", "+ plus", "* star"]
    body = [_line(t, 100 + 12 * k) for k, t in enumerate(lines)]
    guarded = ["# root prompt line", "```", "====", "<!-- open"]
    layout = layout_pages([_page(1, _line("Real Heading", 60, size=18), *body, *[_line(t, 200 + 12 * k) for k, t in enumerate(guarded)])])
    text = layout.text
    assert "\\" not in text
    for t in lines:
        assert t in text.splitlines()  # as the PDF has it
    for t in guarded:  # indented past the widest list marker before ("1. ": 3 characters, and one)
        assert " " * 8 + t in text.splitlines()
    # the markdown strategy sees the heading the layout made and no other
    assert _headings(text) == ["Real Heading"]
    chunks = chunkwise.chunk(chunkwise.Document(text), strategy="markdown", chunk_size=500)
    assert {tuple(c.metadata["header_path"]) for c in chunks} == {("Real Heading",)}


def test_misread_names_only_what_changes_the_outline() -> None:
    for line in ("# x", "- # x", "> ## x", "~~~ py", "```", "<pre>", "<!-- open", "<?php"):
        assert misread(line) and guard_line(line).count("\\") == 1
        assert _headings(line + "\n") == [] or _headings(guard_line(line) + "\n") == []
    for same in ("1. x", "2) x", "> x", "- x", "| a | b |", "<div>", "<!-- closed -->", "#hashtag", "---", "=", "12 apples"):
        assert not misread(same) and guard_line(same) == same
    assert misread("---", continues=True) and misread("> ===", continues=True)
    assert _headings("Intro\n---\n") == ["Intro"] and _headings("Intro\n    ---\n") == []


_PIECES = [*"ab Z9#-=>`~<!|*+.)\u00a0\t\r\n", "```", "# ", "---", "<!--", "<pre", "1. ", "> ", "- ", "10) "]
_HOSTILE = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_HOSTILE, st.sampled_from([10.0, 10.0, 10.0, 18.0]), st.floats(0, 30)), max_size=14))
def test_the_markdown_outline_is_exactly_the_layouts_headings(rows) -> None:
    lines, top = [], 90.0
    for text, size, gap in rows:
        top += gap
        lines.append(_line(text, top, size=size))
        top += size * 1.2
    layout = layout_pages([_page(1, *lines)])
    # the headings the markdown parser reads are the lines the layout wrote as headings
    written = [ln for ln in layout.text.split("\n") if re.match(r"#{1,3} ", ln)]
    assert len(_headings(layout.text)) == layout.headings == len(written)
    # the characters are the PDF's: only white space (and the headings' marks) added
    source = Counter(c for ln in lines for c in ln.text if not c.isspace())
    mine = Counter(c for c in re.sub(r"(?m)^#{1,3} ", "", layout.text) if not c.isspace())
    assert not (mine - source)


def test_real_manuals_have_no_escapes(docs) -> None:
    text = docs["shared-mime-info-spec.pdf"].text
    assert "1\\." not in text and "\\>" not in text and "\\#" not in text
    assert "# 1. Introduction" in text.splitlines()
    # a comment of a shell example, "# This file was ...", is a line of code, not a heading
    assert re.search(r"(?m)^ {4,}# This file was automatically generated by the$", text)
    assert not any("This file was" in h for h in _headings(text))
    for name, doc in docs.items():
        assert "\\#" not in doc.text and "\\>" not in doc.text and not re.search(r"(?m)^\d+\\\.", doc.text), name


# -- 2. running heads whose topic changes from page to page ---------------------------------


def test_running_heads_naming_each_pages_topic_are_removed(docs) -> None:
    doc = docs["edoc-1.2.pdf"]
    furniture = doc.metadata["page_furniture"]
    # edoc_cmd, edoc_layout: a module of one page, its name in the running head's place
    for topic in ("edoc", "edoc_cmd", "edoc_layout", "edoc_lib"):
        assert topic in furniture
    for n, s, e in doc.pages:
        lines = doc.text[s:e].splitlines()
        assert not lines or lines[0] not in furniture, n
        assert not any(re.fullmatch(r"\d+ \| Ericsson AB.*|Ericsson AB.*\| \d+", line) for line in lines), n
    # the module's own heading stays
    assert "### edoc_cmd" in doc.text.splitlines()


def test_a_topic_on_one_page_in_the_running_heads_place_is_furniture() -> None:
    def head(text: str, n: int) -> PdfLine:  # right-aligned on odd pages, left on even ones
        width = 6 * len(text)
        return _line(text, 30, size=9, x0=520 - width, x1=520) if n % 2 else _line(text, 30, size=9, x0=72, x1=72 + width)

    topics = ["shared_module"] * 6 + ["topic_of_page_seven", "another_topic"]
    pages = [
        _page(n, head(topic, n), _line(f"Body text of page {n} with words.", 120), _line(str(n), 770, x0=300, x1=306))
        for n, topic in enumerate(topics, start=1)
    ]
    # a body line in the band, not aligned with the heads: kept
    pages[7] = PdfPage(8, 600, 800, (*pages[7].lines, _line("Indented body line", 30, size=9, x0=200, x1=300)))
    layout = layout_pages(pages)
    assert {"shared_module", "topic_of_page_seven", "another_topic"} <= set(layout.furniture)
    assert "topic" not in layout.text and "shared_module" not in layout.text
    assert layout.text.count("Body text of page") == 8 and "Indented body line" in layout.text
    # "topic  page-number" on one line, the topic and the number both changing
    numbered = [
        _page(n, head(f"{topic}  {n}", n), _line(f"Body text of page {n} with words.", 120))
        for n, topic in enumerate(["alpha_module"] * 3 + ["beta_module"] * 3 + ["gamma_one", "delta_two"], start=1)
    ]
    layout = layout_pages(numbered)
    assert "_module" not in layout.text and "gamma_one" not in layout.text and "delta_two" not in layout.text
    assert layout.page_labels == tuple(str(n) for n in range(1, 9))


# -- 3. parts of a file ------------------------------------------------------------------------


def test_a_part_of_a_file_gets_the_files_furniture_title_and_an_id_of_its_own(docs) -> None:
    whole = docs["R-FAQ.pdf"]
    part = chunkwise.load(CORPUS / "R-FAQ.pdf", pages="10-11")
    spans = {n: (s, e) for n, s, e in whole.pages}
    assert part.text == whole.text[spans[10][0] : spans[11][1]]
    assert part.metadata["title"] == "R FAQ" and part.metadata["page_labels"] == ["6", "7"]
    assert not any(line.startswith("Chapter 2: R Basics") for line in part.text.splitlines())
    one = chunkwise.load(CORPUS / "R-FAQ.pdf", pages="12")
    assert one.metadata["page_furniture"] and "Chapter 2: R Basics" not in one.text
    ids = {whole.id, part.id, one.id, chunkwise.load(CORPUS / "R-FAQ.pdf", pages="10,11,12").id}
    assert len(ids) == 4
    assert chunkwise.load(CORPUS / "R-FAQ.pdf", pages="10-11").id == part.id  # deterministic
    assert chunkwise.load(CORPUS / "R-FAQ.pdf", pages="1-").id == whole.id  # every page: the file
    chunks = chunkwise.chunk(part, strategy="auto", chunk_size=400)
    assert {c.document_id for c in chunks} == {part.id}
    assert {c.metadata["page_number"] for c in chunks} == {10, 11}


def test_a_part_of_a_file_keeps_the_header_paths_of_the_whole_file(docs) -> None:
    # the headings above the first page asked for (from the pages before it and the PDF's
    # bookmarks) are the part's heading context: header paths as in the whole file, and
    # no text added (the part's text is still the whole file's text of those pages)
    whole = docs["R-FAQ.pdf"]
    spans = {n: (s, e) for n, s, e in whole.pages}
    full = chunkwise.chunk(whole, strategy="markdown", chunk_size=300)
    for number in (12, 20):
        part = chunkwise.load(CORPUS / "R-FAQ.pdf", pages=str(number))
        assert part.text.strip() == whole.text[spans[number][0] : spans[number][1]].strip()
        chunks = chunkwise.chunk(part, strategy="markdown", chunk_size=300)
        assert all(c.text == part.text[c.start_index : c.end_index] for c in chunks)
        assert "heading_context" not in chunks[0].metadata  # on the document, not on each chunk
        by_text = {c.text: c.metadata["header_path"] for c in full}
        same = [(c.metadata["header_path"], by_text[c.text]) for c in chunks if c.text in by_text]
        assert same and all(mine == theirs for mine, theirs in same)
    part = chunkwise.load(CORPUS / "R-FAQ.pdf", pages="20")
    assert part.metadata["heading_context"] == [
        [1, "3 R and S"], [2, "3.3 What are the differences between R and S?"], [3, "3.3.1 Lexical scoping"],
    ]
    first = chunkwise.chunk(part, strategy="markdown", chunk_size=300)[0]
    assert first.metadata["header_path"] == [
        "3 R and S", "3.3 What are the differences between R and S?", "3.3.1 Lexical scoping",
    ]
    assert first.context.startswith("3 R and S > ")  # the breadcrumb too
    assert "heading_context" not in chunkwise.load(CORPUS / "R-FAQ.pdf").metadata  # the whole file: none


# -- 4. page metadata per chunk ---------------------------------------------------------------


def test_chunks_carry_their_own_pages_not_the_documents_lists(docs) -> None:
    doc = docs["R-FAQ.pdf"]
    assert "page_labels" in doc.metadata and "page_furniture" in doc.metadata  # on the document
    labels = dict(zip([n for n, _, _ in doc.pages], doc.metadata["page_labels"]))
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=1000)
    for c in chunks:
        assert DOCUMENT_ONLY.isdisjoint(c.metadata)
        if labels[c.metadata["page_number"]] is not None:
            assert c.metadata["page_label"] == labels[c.metadata["page_number"]]
        if labels[c.metadata["page_end"]] is not None and labels[c.metadata["page_number"]] is not None:
            assert c.metadata["page_label_end"] == labels[c.metadata["page_end"]]
    assert any(c.metadata.get("page_label") == "12" for c in chunks)
    # the JSON lines: what dumps writes, without the lists
    data = jsonl_lines(chunks, doc)
    assert data == "".join(dumps(chunk_record(c, doc)) + "\n" for c in chunks).encode("utf-8")
    assert b"page_labels" not in data and b"page_furniture" not in data
    row = json.loads(data.splitlines()[5])
    assert row["metadata"]["title"] == "R FAQ" and "page_label" in row["metadata"]


# -- 5. hyphens -------------------------------------------------------------------------------


def test_hyphen_marks_are_kept_or_joined_by_the_documents_words(docs) -> None:
    data = docs["R-data.pdf"].text
    # PDFium gives U+FFFE for these hyphens at line ends: real ones, kept
    assert "Springer-Verlag" in data and "Addison-Wesley" in data and "DBMS-specific" in data
    # TeX's hyphenation: joined
    assert "reusable" in data and "representations" in data
    faq = docs["R-FAQ.pdf"].text
    assert "R for Windows FAQ" in faq and "R-help" in faq and "\ufffe" not in faq and "\u0002" not in faq


def test_a_mark_between_words_becomes_a_hyphen_unless_the_text_joins_them() -> None:
    page = _page(
        1,
        _line("A GENERAL\ufffePROCEDURES set, Springer\ufffeVerlag, easy-to\ufffeunderstand", 100),
        _line("and Win\ufffedows; then Windows again, x\ufffe1 and e\u0002mail.", 112),
    )
    text = layout_pages([page]).text
    assert "GENERAL-PROCEDURES" in text and "Springer-Verlag" in text and "easy-to-understand" in text
    assert "Windows; then" in text and "x-1" in text and "email" in text


def test_a_document_of_real_hyphens_keeps_the_unknown_ones() -> None:
    # every mark the text can tell is a hyphen: the one it cannot tell is one too
    lines = [_line("non\ufffeblocking and non-blocking, self\ufffetest and self-test,", 100), _line("user\ufffespecific", 112)]
    assert "user-specific" in layout_pages([_page(1, *lines)]).text


# -- 6. numbered headings and the title -------------------------------------------------------


def test_numbered_headings_under_a_cover_block_and_the_title(docs) -> None:
    doc = docs["shared-mime-info-spec.pdf"]
    assert doc.metadata["title"] == "Shared MIME-info Database"
    paths = [c.metadata.get("header_path") for c in chunkwise.chunk(doc, strategy="auto", chunk_size=1500)]
    for expected in (["1. Introduction", "1.1. Version"], ["2. Unified system", "2.1. Directory layout"]):
        assert expected in paths, paths[:12]
    cover = [
        _line("The Big Title", 60, size=24, x0=150, x1=450, bold=True),
        _line("A subtitle in a large font", 100, size=17, x0=120, x1=480, bold=True),
        _line("An Author", 140, size=17, x0=250, x1=350, bold=True),
        _line("1. Introduction", 200, size=17, bold=True),
        _line("1.1. Scope", 240, size=14, x0=110, bold=True),
        *[_line(f"Body line {k} of the text.", 270 + 12 * k) for k in range(8)],
    ]
    layout = layout_pages([_page(1, *cover)])
    assert layout.title == "The Big Title"
    assert "# 1. Introduction" in layout.text and "## 1.1. Scope" in layout.text
    assert "# The Big Title" not in layout.text  # a cover block is not an outline



def test_an_author_block_with_an_e_mail_address_is_not_a_heading() -> None:
    # libtasn1's manual: "Fabio Fiorina / Simon Josefsson / Nikos Mavrogiannopoulos
    # (help-libtasn1@gnu.org)" in the chapters' size on the title page became a heading
    # that every chunk of the front matter had in its header path
    title_page = _page(
        1,
        _line("Libtasn1", 200, size=21),
        _line("A library for the GNU system", 240),
        _line("Ann Author", 600, size=14),
        _line("Bo Writer", 617, size=14),
        _line("Cy Editor (help-lib@example.org)", 634, size=14),
    )
    chapters = [
        _page(
            n,
            _line(f"{n - 1} Chapter {n - 1}", 72, size=14),
            *[_line(f"Body {k} of chapter {n - 1}.", 100 + 12 * k) for k in range(8)],
        )
        for n in (2, 3)
    ]
    layout = layout_pages([title_page, *chapters])
    assert _headings(layout.text) == ["Libtasn1", "1 Chapter 1", "2 Chapter 2"]
    assert "Ann Author\nBo Writer\nCy Editor (help-lib@example.org)" in layout.text
    doc = chunkwise.Document(layout.text)
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=60, unit="chars")
    paths = [c.metadata.get("header_path") for c in chunks]
    assert ["Libtasn1"] in paths and not any(len(p or []) > 1 and "Author" in p[1] for p in paths)
    # a heading right after the block, apart from it, stays one; so does a heading that
    # names a mail-less contact
    after = _page(
        1,
        _line("Ann Author <ann@example.org>", 60, size=14),
        _line("Contact and Support", 120, size=14),
        *[_line(f"Body line {k} of the section on support.", 150 + 12 * k) for k in range(8)],
        _line("Another Section", 300, size=14),
        *[_line(f"More line {k} of the other section here.", 330 + 12 * k) for k in range(8)],
    )
    assert _headings(layout_pages([after]).text) == ["Contact and Support", "Another Section"]

# -- 7. standard input ------------------------------------------------------------------------


def test_a_pdf_on_standard_input_is_read_as_a_pdf() -> None:
    data = (CORPUS / "camlidl-manual.pdf").read_bytes()
    assert chunkwise.parse(data).metadata["format"] == "pdf"  # text is the default, not a claim
    for args in (["chunk", "-", "-u", "chars", "-n", "400"], ["chunk", "--format", "pdf", "-", "-u", "chars"]):
        result = CliRunner().invoke(cli, args, input=data)
        assert result.exit_code == 0, result.output
        rows = [json.loads(line) for line in result.stdout.splitlines()]
        assert rows and rows[0]["metadata"]["format"] == "pdf" and rows[0]["metadata"]["page_number"] == 1
        assert any(r["metadata"].get("header_path") == ["1 Overview"] for r in rows)
    result = CliRunner().invoke(cli, ["chunk", "-", "-u", "chars", "-L", "pages=2"], input=data)
    assert result.exit_code == 0, result.output
    assert {json.loads(line)["metadata"]["page_number"] for line in result.stdout.splitlines()} == {2}


def test_a_documents_heading_context_seeds_the_header_paths() -> None:
    doc = chunkwise.Document(
        "Text under A.\n\n## B\n\nText under B.\n\n# C\n\nText under C.\n",
        metadata={"heading_context": [[1, "A"], [3, "A.x"], [2, "A.1"]]},  # the stack: A > A.1
    )
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=20, unit="chars")
    assert [c.metadata["header_path"] for c in chunks] == [["A", "A.1"], ["A", "B"], ["C"]]
    assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)


def test_a_part_far_from_the_start_has_the_whole_files_header_paths() -> None:
    """Pages 40-45 of a 134-page manual: every chunk whose text the whole-file run also
    has carries the same header path (heading levels are ranked over the whole file; with
    only 12 pages around the part, 11 of these chunks named another section)."""
    import chunkwise

    path = Path(__file__).parent / "corpus" / "pdf" / "reportlab-userguide.pdf"
    whole = chunkwise.chunk(chunkwise.load(path), strategy="auto", chunk_size=200, unit="tokens")
    paths = {(c.metadata["page_number"], c.text): c.metadata.get("header_path") for c in whole}
    part = chunkwise.chunk(chunkwise.load(path, pages="40-45"), strategy="auto", chunk_size=200, unit="tokens")
    shared = [c for c in part if (c.metadata["page_number"], c.text) in paths]
    assert len(shared) >= 10
    assert all(paths[(c.metadata["page_number"], c.text)] == c.metadata.get("header_path") for c in shared)
