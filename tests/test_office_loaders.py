"""DOCX, PPTX, XLSX, EPUB and reStructuredText loaders on real files (tests/corpus/office,
see its SOURCES.md), and the bad files a folder of them holds."""

from __future__ import annotations

import io
import json
import pickle
import sys
import zipfile
from pathlib import Path

import pytest
from test_markdown import assert_invariants, by_text

import chunkwise
from chunkwise.errors import ConfigError, MissingDependencyError, ParseError

pytest.importorskip("lxml")
pytest.importorskip("markdown_it")

CORPUS = Path(__file__).parent / "corpus" / "office"
FILES = sorted(p for p in CORPUS.iterdir() if p.name != "SOURCES.md")


def _needs(module: str) -> None:
    pytest.importorskip(module)


_LIBRARY = {".docx": "lxml", ".pptx": "pptx", ".xlsx": "openpyxl", ".txt": "docutils", ".epub": "lxml"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("size", [60, 400])
def test_every_real_file_keeps_the_chunk_contract(path, size):
    _needs(_LIBRARY[path.suffix])
    doc = chunkwise.load(path)
    assert doc.metadata["format"] == {".txt": "rst"}.get(path.suffix, path.suffix[1:])
    assert doc.text.strip()
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=size, unit="chars")
    assert_invariants(doc.text, chunks, size)
    assert chunkwise.chunk(chunkwise.load(path), strategy="markdown", chunk_size=size, unit="chars") == chunks
    assert pickle.loads(pickle.dumps(doc)) == doc
    for c in chunks:  # a chunk never claims a page its text is not on
        if doc.pages:
            first, last = c.metadata["page_number"], c.metadata["page_end"]
            claimed = [(s, e) for n, s, e in doc.pages if first <= n <= last]
            assert claimed[0][0] <= c.start_index and c.end_index <= claimed[-1][1]


# -- DOCX -----------------------------------------------------------------------------------


def test_docx_footnotes_follow_the_paragraph_that_cites_them():
    _needs("lxml")
    doc = chunkwise.load(CORPUS / "footnotes.docx")
    assert doc.text == "Ouch[^1].[^2]\n\n[^1]: A tachyon walks into a bar.\n[^2]: Fin.\n"
    assert doc.metadata["author"] == "Michael Williamson"
    assert doc.metadata["created"].startswith("2014-06-10T11:09")


def test_docx_tables_are_pipe_tables_chunked_by_rows():
    _needs("lxml")
    doc = chunkwise.load(CORPUS / "tables.docx")
    assert "| Top left | Top right |\n|---|---|\n| Bottom left | Bottom right |" in doc.text
    from chunkwise.parsers.table import find_pipe_tables

    (table,) = find_pipe_tables(doc.text)
    assert doc.text[table.start : table.end].startswith("| Top left")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=40, unit="chars")
    row = by_text(chunks, "| Bottom left")
    assert "| Top left | Top right |" in (row.context or "")  # the header travels with its row


def test_docx_heading_styles_give_header_paths_and_lists_stay_lists():
    _needs("lxml")
    doc = chunkwise.load(CORPUS / "par-known-styles.docx")
    assert "# Heading 1\n\nBody Text" in doc.text
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=25, unit="chars")
    assert by_text(chunks, "Body Text").metadata["header_path"] == ["Heading 1"]
    assert chunkwise.load(CORPUS / "simple-list.docx").text == "- Apple\n- Banana\n"


def test_docx_pages_from_the_breaks_word_laid_out():
    _needs("lxml")
    doc = chunkwise.load(CORPUS / "par-rendered-page-breaks.docx")
    assert [doc.text[s:e].strip() for _, s, e in doc.pages] == [
        "No page breaks\n\nPage break here>>",
        "<<followed by more text.\n\nPage break in>>",
        "<<this hyperlink and another one here>>",
        "<<with text following\n\nTwo page>>",
        "<<breaks>>",
        "<<in one run.",
    ]
    # explicit breaks and the breaks Word rendered are the same page turns: counted once
    sections = chunkwise.load(CORPUS / "sct-first-page-hdrftr.docx")
    chunks = chunkwise.chunk(sections, strategy="markdown", chunk_size=40, unit="chars")
    assert [(c.text, c.metadata["page_number"], c.metadata["page_end"]) for c in chunks] == [
        ("First page.\n\nSecond (even) page.", 1, 2),  # a chunk over a page turn names both
        ("Third (odd) page.", 3, 3),
        ("Page 4, First Page of second section.", 4, 4),
        ("Page 6, Third page of section 2.", 6, 6),  # page 5 is blank
    ]


def test_docx_built_here_headings_numbering_and_escapes():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.core_properties.title = "Handbook"
    d.add_heading("Setup", 1)
    d.add_paragraph("# not a heading")
    d.add_heading("Linux", 2)
    d.add_paragraph("first", style="List Number")
    d.add_paragraph("second", style="List Number")
    d.add_paragraph("point", style="List Bullet")
    table = d.add_table(rows=2, cols=2)
    for r, values in enumerate([("key", "value"), ("a|b", "1")]):
        for k, v in enumerate(values):
            table.cell(r, k).text = v
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    assert doc.metadata["title"] == "Handbook"
    assert doc.text == (
        "# Setup\n\n\\# not a heading\n\n## Linux\n\n1. first\n2. second\n- point\n\n"
        "| key | value |\n|---|---|\n| a\\|b | 1 |\n"
    )
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=30, unit="chars")
    assert by_text(chunks, "2. second").metadata["header_path"] == ["Setup", "Linux"]
    assert not doc.pages  # no page break: no page map


def test_docx_a_footnote_in_a_list_follows_the_list():
    import zipfile

    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_paragraph("one", style="List Number")
    d.add_paragraph("two", style="List Number")
    d.add_paragraph("three", style="List Number")
    buf = io.BytesIO()
    d.save(buf)
    # a footnote reference in the second item, and the notes part it points to
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    w_ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                ref = b'<w:r><w:footnoteReference w:id="1"/></w:r>'
                data = data.replace(b"<w:t>two</w:t></w:r>", b"<w:t>two</w:t></w:r>" + ref)
            elif info.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdFn" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                    b'relationships/footnotes" Target="footnotes.xml"/></Relationships>',
                )
            elif info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
                )
            dst.writestr(info, data)
        dst.writestr(
            "word/footnotes.xml",
            f'<w:footnotes xmlns:w="{w_ns}"><w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p>'
            "</w:footnote></w:footnotes>",
        )
    doc = chunkwise.parse(out.getvalue(), format="docx")
    assert doc.text == "1. one\n2. two[^1]\n3. three\n\n[^1]: A note.\n"


def test_docx_explicit_page_breaks_number_the_pages():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_heading("Intro", 1)
    d.add_paragraph("First page text.")
    d.add_page_break()
    d.add_heading("Details", 2)
    d.add_paragraph("Second page text.")
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=40, unit="chars")
    got = [(c.metadata["header_path"], c.metadata["page_number"], c.metadata["page_end"]) for c in chunks]
    assert got == [(["Intro"], 1, 1), (["Intro", "Details"], 2, 2)]


def test_docx_list_before_a_page_break_stays_on_its_page():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_paragraph("Intro paragraph.")
    d.add_paragraph("Item A", style="List Bullet")
    d.add_paragraph("Item B", style="List Bullet")
    d.add_page_break()
    d.add_paragraph("Second page text.")
    d.add_paragraph("Item C", style="List Number")
    d.add_page_break()
    d.add_paragraph("Third.")
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    pages = [(number, doc.text[start:end].strip()) for number, start, end in doc.pages]
    assert pages == [
        (1, "Intro paragraph.\n\n- Item A\n- Item B"),
        (2, "Second page text.\n\n1. Item C"),
        (3, "Third."),
    ]
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=20, unit="chars")
    assert_invariants(doc.text, chunks)
    assert {c.text: c.metadata["page_number"] for c in chunks}["- Item A\n- Item B"] == 1


def test_docx_title_style_is_the_root_of_the_header_paths():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_heading("My Report", 0)  # the Title style
    d.add_paragraph("Lead.")
    d.add_heading("Scope", 1)
    d.add_paragraph("Body.")
    d.add_heading("Detail", 2)
    d.add_paragraph("More.")
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    assert doc.text == "# My Report\n\nLead.\n\n## Scope\n\nBody.\n\n### Detail\n\nMore.\n"
    assert doc.metadata["title"] == "My Report"
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=30, unit="chars")
    assert [c.metadata["header_path"] for c in chunks] == [
        ["My Report"], ["My Report", "Scope"], ["My Report", "Scope", "Detail"],
    ]


def test_docx_strict_format_is_read():
    # ISO/IEC 29500 Strict namespaces (purl.oclc.org), which python-docx refuses
    _needs("lxml")
    doc = chunkwise.load(CORPUS / "strict-format.docx")
    assert doc.text == "Test\n"
    assert doc.metadata["author"] == "Tom Chantry" and doc.metadata["created"] == "2018-01-22T14:57:00+00:00"


def test_docx_without_core_properties_or_styles_part():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_heading("Scope", 1)
    d.add_paragraph("Body text.")
    d.add_heading("Terms", 2)
    buf = io.BytesIO()
    d.save(buf)
    full = chunkwise.parse(buf.getvalue(), format="docx")
    assert full.text == "# Scope\n\nBody text.\n\n## Terms\n"
    # no docProps/core.xml: no title or dates made up (python-docx gave "Word Document" and
    # the time of reading as modified)
    bare = chunkwise.parse(_without(buf.getvalue(), "docProps/core.xml"), format="docx")
    assert bare.text == full.text and {"created", "modified", "author"}.isdisjoint(bare.metadata)
    assert bare.metadata["title"] == "Scope"  # the first heading, as for any file without a title
    # no styles part: Word's built-in style ids still say the heading levels
    nostyles = chunkwise.parse(_without(buf.getvalue(), "word/styles.xml"), format="docx")
    assert nostyles.text == full.text


def test_docx_styles_kept_per_template_never_leak_to_another():
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_heading("Scope", 1)
    d.add_paragraph("Body text.")
    buf = io.BytesIO()
    d.save(buf)
    a = buf.getvalue()
    with zipfile.ZipFile(io.BytesIO(a)) as zf:  # the same file, its "Heading 1" style no heading
        parts = {n: zf.read(n) for n in zf.namelist()}
    styles = parts["word/styles.xml"].replace(b'w:val="heading 1"', b'w:val="plain 1"')
    parts["word/styles.xml"] = styles.replace(b'<w:outlineLvl w:val="0"/>', b"")
    b = _zip(parts)
    for _ in range(2):
        assert chunkwise.parse(a, format="docx").text == "# Scope\n\nBody text.\n"
        assert chunkwise.parse(b, format="docx").text == "Scope\n\nBody text.\n"


def test_docx_a_zip_that_is_not_a_word_document():
    _needs("lxml")
    for data, why in (
        (_zip({"readme.txt": b"junk"}), "no word/document.xml part"),
        ((CORPUS / "deaths.xlsx").read_bytes(), "its main part is xl/workbook.xml"),
    ):
        with pytest.raises(ParseError, match=f"^x.docx: not a DOCX file .*{why}.*; rename it") as info:
            chunkwise.parse(data, format="docx", source="x.docx")
        assert "\n" not in str(info.value)


def test_loader_doctests():
    import doctest

    from chunkwise.loaders import _blocks, docx, pptx, rst, xlsx

    for module in (_blocks, docx, pptx, rst, xlsx):
        if module is not _blocks:
            _needs({docx: "docx", pptx: "pptx", rst: "docutils", xlsx: "openpyxl"}[module])
        assert doctest.testmod(module).failed == 0


# -- PPTX -----------------------------------------------------------------------------------


def test_pptx_one_page_per_slide():
    _needs("pptx")
    doc = chunkwise.load(CORPUS / "sld-slides.pptx")
    assert doc.metadata["slides"] == 3 and [p[0] for p in doc.pages] == [1, 2, 3]
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=10, unit="chars")
    assert [(c.text, c.metadata["page_number"], c.metadata["page_end"]) for c in chunks] == [
        ("# Slide 1", 1, 1),
        ("# Slide 2", 2, 2),
        ("# Slide 3", 3, 3),
    ]


def test_pptx_tables_groups_and_notes():
    _needs("pptx")
    doc = chunkwise.load(CORPUS / "test_slides.pptx")
    assert "| Col head 1 | Col head 2 |\n|---|---|\n| Cell text 1 | Cell text 2 |" in doc.text
    assert "Group test text" in doc.text  # a group's shapes are read
    assert doc.metadata["title"] == "python-pptx was here!"
    notes = chunkwise.load(CORPUS / "prs-notes.pptx")
    assert notes.text == "# Slide 1\n\nNotes:\nNotes\n" and notes.pages == ((1, 0, len(notes.text) - 1),)


def test_pptx_built_here_titles_are_header_paths_and_pages():
    pptx = pytest.importorskip("pptx")
    prs = pptx.Presentation()
    for title, body, note in [("Plan", "Ship in May", "Mention the budget."), ("Risks", "Late parts", "")]:
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
        if note:
            slide.notes_slide.notes_text_frame.text = note
    buf = io.BytesIO()
    prs.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="pptx")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=60, unit="chars")
    got = [(c.metadata["header_path"], c.metadata["page_number"], c.text) for c in chunks]
    assert got == [
        (["Plan"], 1, "# Plan\n\nShip in May\n\nNotes:\nMention the budget."),
        (["Risks"], 2, "# Risks\n\nLate parts"),
    ]


# -- XLSX -----------------------------------------------------------------------------------


def test_xlsx_one_section_per_sheet_with_tables_by_rows():
    _needs("openpyxl")
    doc = chunkwise.load(CORPUS / "datasets.xlsx")
    assert doc.metadata["sheets"] == ["iris", "mtcars", "chickwts", "quakes"]
    assert doc.text.startswith("## iris\n\n| Sepal.Length | Sepal.Width | Petal.Length | Petal.Width | Species |\n")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=300, unit="chars")
    assert_invariants(doc.text, chunks, 300)
    assert {c.metadata["header_path"][0] for c in chunks} == set(doc.metadata["sheets"])
    later = [c for c in chunks if c.metadata["header_path"] == ["quakes"] and c.text.startswith("| -")]
    assert later and all("| lat | long | depth | mag | stations |" in c.context for c in later)


def test_xlsx_cells_dates_and_booleans():
    _needs("openpyxl")
    doc = chunkwise.load(CORPUS / "deaths.xlsx")
    assert "| David Bowie | musician | 69 | TRUE | 1947-01-08 | 2016-01-10 |" in doc.text
    assert doc.metadata["sheets"] == ["arts", "other"]


def test_xlsx_tables_separated_by_blank_rows_and_columns_are_separate_tables():
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Q1"
    ws["A1"] = "Quarterly report"
    # two tables side by side (column C is blank), of different heights, below a blank row
    for r, row in enumerate([("region", "sales"), ("north", 12), ("south", 7), ("west", 3)], start=3):
        ws.cell(r, 1, row[0])
        ws.cell(r, 2, row[1])
    for r, row in enumerate([("month", "target"), ("Jan", 10)], start=3):
        ws.cell(r, 4, row[0])
        ws.cell(r, 5, row[1])
    # a third table under both, after two blank rows, and a note after it
    for r, row in enumerate([("owner", "team"), ("Ana", "ops")], start=9):
        ws.cell(r, 1, row[0])
        ws.cell(r, 2, row[1])
    ws["A12"] = "Figures are provisional."
    buf = io.BytesIO()
    wb.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="xlsx")
    assert doc.text == (
        "## Q1\n\nQuarterly report\n\n"
        "| region | sales |\n|---|---|\n| north | 12 |\n| south | 7 |\n| west | 3 |\n\n"
        "| month | target |\n|---|---|\n| Jan | 10 |\n\n"
        "| owner | team |\n|---|---|\n| Ana | ops |\n\n"
        "Figures are provisional.\n"
    )
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=40, unit="chars")
    assert_invariants(doc.text, chunks, 40)
    (jan,) = [c for c in chunks if "| Jan | 10 |" in c.text]
    assert "| month | target |" in jan.text + jan.context and "region" not in jan.context


def test_xlsx_notes_above_and_below_a_table_are_text_not_its_header():
    _needs("openpyxl")
    # readxl's deaths.xlsx: notes written above and below the table, without a blank row
    doc = chunkwise.load(CORPUS / "deaths.xlsx")
    arts = doc.text.split("## other")[0]
    assert arts.startswith(
        "## arts\n\nLots of people\n\nsimply cannot resist writing some notes\n\n"
        "at the top of their spreadsheets\n\nor merging cells\n\n"
        "| Name | Profession | Age | Has kids | Date of birth | Date of death |\n|---|---|---|---|---|---|\n"
        "| David Bowie |"
    )
    assert arts.endswith("| George Michael | musician | 53 | FALSE | 1963-06-25 | 2016-12-25 |\n\n"
                         "Some\n\nalso like to write stuff\n\nat the bottom,\n\ntoo!\n\n")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=200, unit="chars")
    assert_invariants(doc.text, chunks, 200)
    bowie = [c for c in chunks if "David Bowie" in c.text]
    assert bowie and all("| Name | Profession |" in c.text + c.context for c in bowie)


def test_xlsx_a_title_and_a_note_above_a_blank_row_are_paragraphs():
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Stock"
    ws["A1"] = "Inventory at 1 March"
    ws["A2"] = "Counted by Ana"
    for row in ([], ["item", "count", "place"], ["bolt", 12, "shelf 1"], ["nut", 30, "shelf 2"]):
        ws.append(row)
    ws["E6"] = "Stock, not orders."  # a note beside the table's last row, not a column of its own
    buf = io.BytesIO()
    wb.save(buf)
    assert chunkwise.parse(buf.getvalue(), format="xlsx").text == (
        "## Stock\n\nInventory at 1 March\n\nCounted by Ana\n\n"
        "| item | count | place |\n|---|---|---|\n| bolt | 12 | shelf 1 |\n| nut | 30 | shelf 2 |\n\n"
        "Stock, not orders.\n"
    )


def test_split_notes_keeps_a_plain_table_and_a_one_column_list_whole():
    from chunkwise.loaders.xlsx import split_notes

    table = [["a", "b"], ["1", "2"], ["3", ""]]
    assert split_notes(table) == ([], table, [])  # a sparse last row of a narrow table stays in it
    listing = [["Names"], ["Ana"], ["Bo"], ["Cy"]]
    assert split_notes(listing) == ([], listing, [])
    notes = [["Report for the board"], ["Draft, do not share"]]
    assert split_notes(notes) == (notes, [], [])


# -- EPUB -----------------------------------------------------------------------------------


def test_epub_chapters_in_spine_order_with_header_paths():
    doc = chunkwise.load(CORPUS / "live-manual.en.epub")
    assert doc.metadata["title"] == "Live Systems Manual" and doc.metadata["language"] == "en"
    assert doc.metadata["chapters"] > 20
    import re

    chapters = [int(m.group(1)) for m in re.finditer(r"(?m)^# (\d+)\. ", doc.text)]
    assert chapters == list(range(1, 20))  # the spine's order
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=500, unit="chars")
    assert by_text(chunks, "This manual serves as a single access point").metadata["header_path"] == [
        "1. About this manual"
    ]
    paths = {tuple(c.metadata["header_path"]) for c in chunks}
    # this book marks its sections as bold paragraphs: its chapters are its headings
    assert {("4. The basics",), ("8. Customizing package installation",), ("19. Style guide",)} <= paths


# -- reStructuredText -----------------------------------------------------------------------


def test_rst_sections_are_headings_on_a_real_howto():
    _needs("docutils")
    doc = chunkwise.load(CORPUS / "sorting.rst.txt")
    assert doc.metadata["format"] == "rst" and doc.metadata["title"] == "Sorting HOW TO"
    assert doc.text.startswith("# Sorting HOW TO\n")
    assert "```\n>>> sorted([5, 2, 3, 1, 4])\n[1, 2, 3, 4, 5]\n```" in doc.text
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=400)
    paths = {tuple(c.metadata["header_path"]) for c in chunks}
    for section in ("Sorting Basics", "Key Functions", "Operator Module Functions", "Odds and Ends"):
        assert ("Sorting HOW TO", section) in paths


def test_rst_sphinx_directives_and_roles_keep_their_text():
    _needs("docutils")
    text = (
        "Guide\n=====\n\nCall :func:`~os.path.join` or see :ref:`the index <genindex>`.\n\n"
        ".. function:: join(a, *p)\n   :noindex:\n\n   Join *paths*.\n"
        ".. function:: split(p)\n\n   Split a path.\n\n"
        ".. code-block:: python\n\n   print(1)\n\n"
        "* item\n\n  .. versionadded:: 3.2\n     New here.\n\n"
        "Setup\n-----\n\n.. include:: /etc/passwd\n\nDone.\n"
    )
    doc = chunkwise.parse(text, format="rst")
    kept = ("Call `join` or", "the index", "`join(a, *p)`", "Join paths.", "`split(p)`", "New in version 3.2: New here.")
    for piece in kept:
        assert piece in doc.text
    assert "```python\nprint(1)\n```" in doc.text
    assert "root:" not in doc.text and ":noindex:" not in doc.text
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=200, unit="chars")
    assert by_text(chunks, "Done.").metadata["header_path"] == ["Guide", "Setup"]


def test_rst_roles_render_to_the_text_sphinx_shows():
    _needs("docutils")
    text = (
        "The :mod:`os` module\n====================\n\n"
        "Call :func:`foo`, :py:meth:`~pkg.Cls.run`, :func:`!nolink` and see :ref:`the guide <guide-label>`, "
        ":ref:`label`, :doc:`other page <other>`, :term:`glossary term <term>` and :custom-role:`odd text`.\n"
        "Press :kbd:`Ctrl+C` or :guilabel:`&Cancel`, then :menuselection:`File --> Open`; "
        "run :samp:`print({x})`; math :math:`\\alpha + b_1^2` stays LaTeX.\n\n"
        "+----------------+------------------------+\n| Name           | See                    |\n"
        "+================+========================+\n| :class:`Foo`   | :ref:`see <foo-label>` |\n"
        "+----------------+------------------------+\n\n"
        ".. seealso:: :mod:`sys` and :func:`os.getcwd`\n\n"
        ".. versionchanged:: 3.2\n   Use :func:`bar` now.\n\n"
        ".. deprecated:: 3.1 Use :func:`baz`.\n\n"
        ".. math::\n\n   E = mc^2\n\nLast paragraph.\n"
    )
    doc = chunkwise.parse(text, format="rst")
    assert doc.text.startswith("# The `os` module\n\n")
    for piece in (
        "Call `foo`, `run`, `nolink` and see the guide, label, other page, glossary term and odd text.",
        "Press `Ctrl+C` or Cancel, then File \u2023 Open; run `print(x)`; math `\\alpha + b_1^2` stays LaTeX.",
        "| `Foo` | see |",
        "See also: `sys` and `os.getcwd`",
        "Changed in version 3.2: Use `bar` now.",
        "Deprecated since version 3.1: Use `baz`.",
        "E = mc^2",
        "Last paragraph.",
    ):
        assert piece in doc.text, piece
    assert ":func:" not in doc.text and ":ref:" not in doc.text and "<guide-label>" not in doc.text


# -- bad files ------------------------------------------------------------------------------


def _bad_files(folder: Path) -> dict[str, bytes]:
    good = (CORPUS / "tables.docx").read_bytes()
    return {
        "truncated.docx": good[: len(good) // 2],
        "empty.docx": b"",
        "notes.docx": b"These are plain notes, saved with the wrong name.\n",
        "random.xlsx": bytes(range(256)) * 4,
        "half.pptx": (CORPUS / "sld-slides.pptx").read_bytes()[:3000],
        "broken.epub": b"PK\x03\x04" + b"\x00" * 200,
        "junk.docx": _zip({"readme.txt": b"junk", "data/x.bin": bytes(range(256))}),
        "workbook.docx": (CORPUS / "deaths.xlsx").read_bytes(),
    }


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _without(data: bytes, *names: str) -> bytes:
    """A copy of a ZIP package without the members ``names``."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return _zip({n: zf.read(n) for n in zf.namelist() if n not in names})


@pytest.mark.parametrize("name", sorted(_bad_files(Path("."))))
def test_bad_files_raise_one_line_naming_the_file(tmp_path, name):
    p = tmp_path / name
    p.write_bytes(_bad_files(tmp_path)[name])
    with pytest.raises(ParseError) as info:
        chunkwise.load(p)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{p.as_posix()}: ")
    assert "Traceback" not in message
    # the problem and the fix apart (the command line prints the fix after "fix:"), and the
    # error crosses process boundaries (corpus workers)
    err = info.value
    assert message == f"{err.problem}; {err.fix}" and err.kind
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), str(again), again.kind) == (type(err), message, err.kind)


def test_a_folder_with_bad_files_reports_each_and_chunks_the_rest(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    _needs("lxml")
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, data in _bad_files(folder).items():
        (folder / name).write_bytes(data)
    (folder / "tables.docx").write_bytes((CORPUS / "tables.docx").read_bytes())
    (folder / "guide.rst").write_text("Guide\n=====\n\nRead me.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(folder), "--unit", "chars", "-n", "200", "-o", str(out)])
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["metadata"]["filename"] for r in rows} == {"tables.docx", "guide.rst"}
    assert any("| Top left | Top right |" in r["text"] for r in rows)
    skipped = [line for line in result.output.splitlines() if line.startswith(f"skipped {folder.as_posix()}/")]
    assert len(skipped) == len(_bad_files(folder))
    for name in _bad_files(folder):
        (line,) = [x for x in skipped if f"{name}:" in x]
        assert "Traceback" not in line and line.count("fix:") == 1
    # the loader's own fix, not a generic one after it
    (empty,) = [x for x in skipped if "empty.docx:" in x]
    assert empty.endswith("empty file (0 bytes), not a DOCX file; fix: leave it out or save it again")
    (junk,) = [x for x in skipped if "junk.docx:" in x]
    assert junk.endswith("no word/document.xml part); fix: rename it to its real format (.xlsx, .pptx, .epub, .zip) "
                         "or leave it out")
    (summary,) = [x for x in result.output.splitlines() if x.startswith(f"skipped {len(skipped)} files: ")]
    assert "wrong format" in summary and "damaged" in summary and "empty" in summary


def test_standard_input_in_an_office_format():
    from click.testing import CliRunner

    from chunkwise.cli import cli

    _needs("lxml")
    data = (CORPUS / "tables.docx").read_bytes()
    result = CliRunner().invoke(cli, ["chunk", "-", "--format", "docx", "--unit", "chars", "-n", "200"], input=data)
    assert result.exit_code == 0, result.output
    (row,) = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert row["source"] == "<stdin>" and "| Top left | Top right |" in row["text"]


def test_detection_without_a_suffix_and_bytes_with_a_format(tmp_path):
    _needs("lxml")
    data = (CORPUS / "tables.docx").read_bytes()
    p = tmp_path / "report"
    p.write_bytes(data)
    assert chunkwise.load(p).metadata["format"] == "docx"  # a ZIP whose members say Word
    assert chunkwise.parse(data, format="docx").text == chunkwise.load(CORPUS / "tables.docx").text
    epub = tmp_path / "book"
    epub.write_bytes((CORPUS / "live-manual.en.epub").read_bytes())
    assert chunkwise.load(epub).metadata["format"] == "epub"
    with pytest.raises(ConfigError, match="binary"):
        chunkwise.parse("not bytes", format="docx")
    # a PDF option is ignored by the DOCX loader (one -L serves a mixed folder); a name no loader takes is refused
    assert chunkwise.load(CORPUS / "tables.docx", password="x").text == chunkwise.load(CORPUS / "tables.docx").text
    with pytest.raises(ConfigError, match="no option 'pasword'"):
        chunkwise.load(CORPUS / "tables.docx", pasword="x")


def test_a_missing_library_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "lxml", None)  # import lxml fails
    with pytest.raises(MissingDependencyError, match=r"pip install 'chunkwise\[docx\]'"):
        chunkwise.load(CORPUS / "tables.docx")
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    with pytest.raises(MissingDependencyError, match=r"chunkwise\[xlsx\]"):
        chunkwise.load(CORPUS / "deaths.xlsx")


# -- properties of what the loaders write ---------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_HOSTILE = st.text(alphabet=st.sampled_from(list("ab #|-*`>=~_+1.)[]:<!/\\\t\r\n é中😀\u0301\u200b")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_HOSTILE, min_size=1, max_size=4), min_size=1, max_size=5))
def test_pipe_tables_of_any_cells_parse_back_row_for_row(rows):
    from chunkwise.loaders._blocks import pipe_table
    from chunkwise.parsers.table import find_pipe_tables

    table = pipe_table(rows)
    clean = [[" ".join(c.split()) for c in r] for r in rows]
    if not any(c for r in clean for c in r):
        assert table == ""
        return
    (found,) = find_pipe_tables(table)
    assert (found.start, found.end) == (0, len(table))
    assert len(found.rows) == len(rows) - 1
    width = max(len(r) for r in rows)
    for k, start in enumerate(found.rows):
        end = found.rows[k + 1] if k + 1 < len(found.rows) else found.end
        values = found.values(table, start, end)  # "\\|" read back as "|"
        assert values == clean[k + 1] + [""] * (width - len(clean[k + 1]))


@settings(max_examples=300, deadline=None)
@given(_HOSTILE)
def test_an_escaped_line_is_a_paragraph_of_its_text(line):
    pytest.importorskip("markdown_it")
    from markdown_it import MarkdownIt

    from chunkwise.loaders._blocks import escape_line

    line = " ".join(line.split())
    if not line:
        return
    tokens = MarkdownIt("commonmark").parse(escape_line(line))
    assert [t.type for t in tokens if t.nesting == 1] == ["paragraph_open"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab \n\ue000", max_size=8), max_size=8), st.booleans())
def test_the_page_map_covers_the_text_in_order(blocks, slides):
    from chunkwise.loaders._blocks import PAGE_BREAK, MarkdownWriter
    from chunkwise.types import Document

    w = MarkdownWriter()
    w.begin_page(1)
    for k, block in enumerate(blocks):
        if slides:  # a page per block (PPTX), else page breaks inside blocks (DOCX)
            w.begin_page(k + 1)
            block = block.replace(PAGE_BREAK, "")
        w.add(block)
    text = w.text()
    assert PAGE_BREAK not in text
    doc = Document(text, pages=tuple(w.pages))  # validates order and bounds
    numbers = [p[0] for p in doc.pages]
    assert numbers == sorted(set(numbers))
    for _, s, e in doc.pages:
        assert text[s:e].strip()  # no page without text
    covered = "".join(text[s:e] for _, s, e in doc.pages)
    assert "".join(covered.split()) == "".join(text.split())  # every character on a page


@pytest.mark.parametrize("name", ["tables.docx", "sld-slides.pptx", "deaths.xlsx", "live-manual.en.epub"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_damaged_files_give_a_document_or_one_parse_error(name, data):
    _needs({".docx": "docx", ".pptx": "pptx", ".xlsx": "openpyxl", ".epub": "lxml"}[Path(name).suffix])
    raw = bytearray((CORPUS / name).read_bytes())
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.one_of(st.none(), st.integers(1, len(raw))))
    damaged = bytes(raw[:cut])
    try:
        doc = chunkwise.parse(damaged, format=Path(name).suffix[1:], source=name)
    except ParseError as exc:
        assert str(exc).startswith(f"{name}: ") and "\n" not in str(exc)
    else:
        assert isinstance(doc.text, str)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["", " ", "a", "b7"]), max_size=6), max_size=8))
def test_cell_blocks_hold_every_filled_cell_once_with_no_blank_edge(rows):
    from chunkwise.loaders.xlsx import cell_blocks

    blocks = cell_blocks(rows)
    filled = sum(1 for r in rows for c in r if c.strip())
    assert sum(1 for b in blocks for r in b for c in r if c.strip()) == filled
    for b in blocks:
        assert b and all(len(r) == len(b[0]) for r in b)
        assert all(any(c.strip() for c in r) for r in b)  # no blank row, at the edge or inside
        assert all(any(r[k].strip() for r in b) for k in range(len(b[0])))  # nor blank column


def test_rst_file_wide_fields_are_metadata_not_a_chunk():
    _needs("docutils")
    # Sphinx's file-wide metadata (pip's docs/html/news.rst: ":tocdepth: 2" before the title)
    text = ":tocdepth: 2\n:orphan:\n\n.. _changes:\n\nHistory\n*******\n\n:field: later, kept\n\nSome text.\n"
    doc = chunkwise.parse(text, format="rst")
    assert doc.metadata["file_fields"] == {"tocdepth": "2", "orphan": ""}
    assert doc.text == "## History\n\nfield:\n: later, kept\n\nSome text.\n"  # a field list further on is content
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=40, unit="chars")
    assert not any("tocdepth" in c.text for c in chunks)
    assert "file_fields" not in chunkwise.parse("Title\n=====\n\nText.\n", format="rst").metadata


def test_a_page_break_inside_a_paragraph_ends_its_line() -> None:
    """``Alpha`` + a typed page break + ``Beta`` in one paragraph: two lines on two pages,
    not ``AlphaBeta``; the same inside a list item."""
    import io

    import docx
    from docx.enum.text import WD_BREAK

    d = docx.Document()
    p = d.add_paragraph("Alpha")
    p.add_run().add_break(WD_BREAK.PAGE)
    p.add_run("Beta")
    b = d.add_paragraph("One", style="List Bullet")
    b.add_run().add_break(WD_BREAK.PAGE)
    b.add_run("Two")
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    assert "AlphaBeta" not in doc.text and "OneTwo" not in doc.text
    pages = {n: doc.text[a:b] for n, a, b in doc.pages}
    assert "Alpha" in pages[1] and "Beta" in pages[2] and "One" in pages[2] and "Two" in pages[3]


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_RUN_PARTS = st.sampled_from([
    "<w:t>ab</w:t>", '<w:t xml:space="preserve"> c </w:t>', "<w:t/>", "<w:tab/>", "<w:br/>", '<w:br w:type="page"/>',
    '<w:br w:type="column"/>', "<w:cr/>", "<w:noBreakHyphen/>", "<w:lastRenderedPageBreak/>",
    '<w:footnoteReference w:id="2"/>', '<w:endnoteReference w:id="3"/>', "<w:rPr><w:b/></w:rPr>",
    "<w:instrText> PAGE </w:instrText>", '<w:fldChar w:fldCharType="begin"/>', "<w:sym/>",
])
_RUN = st.lists(_RUN_PARTS, max_size=5).map(lambda parts: "<w:r>" + "".join(parts) + "</w:r>")
_INLINE = st.recursive(
    _RUN,
    lambda inner: st.tuples(
        st.sampled_from(["w:hyperlink", "w:ins", "w:smartTag", "w:fldSimple", "w:sdt", "w:customXml"]),
        st.lists(inner, max_size=3),
    ).map(lambda t: f"<{t[0]}>" + "".join(t[1]) + f"</{t[0]}>"),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_INLINE, max_size=6), st.booleans(), st.booleans())
def test_a_paragraphs_text_is_the_same_by_either_reading(inlines, tab_stops, rendered):
    """The loader reads a plain document's paragraphs (no text box, alternate content or
    deleted revision) by lxml's iteration over the text elements, others by its own walk:
    the same text and notes either way, in both page modes."""
    from lxml import etree

    from chunkwise.loaders.docx import _W, _paragraph_text

    ppr = '<w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>' if tab_stops else ""
    p = etree.fromstring(f'<w:p xmlns:w="{_W_NS}">{ppr}{"".join(inlines)}</w:p>')
    page = _W + ("lastRenderedPageBreak" if rendered else "br")
    notes_plain: list[str] = []
    notes_walk: list[str] = []
    assert _paragraph_text(p, notes_plain, page, plain=True) == _paragraph_text(p, notes_walk, page, plain=False)
    assert notes_plain == notes_walk


def test_text_boxes_deleted_revisions_and_field_codes() -> None:
    """A text box is read once (its alternate content's fallback copy left out), on lines
    of its own; deleted text and field codes are left out, inserted text kept."""
    docx = pytest.importorskip("docx")
    from lxml import etree

    d = docx.Document()
    d.add_paragraph("placeholder")
    body = d.element.body
    p = body.find(f"{{{_W_NS}}}p")
    xml = (
        f'<w:p xmlns:w="{_W_NS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">'
        "<w:r><w:t>Before </w:t></w:r>"
        "<w:r><mc:AlternateContent><mc:Choice><w:txbxContent>"
        "<w:p><w:r><w:t>Boxed one.</w:t></w:r></w:p><w:p><w:r><w:t>Boxed two.</w:t></w:r></w:p>"
        "</w:txbxContent></mc:Choice><mc:Fallback><w:txbxContent><w:p><w:r><w:t>Boxed one.</w:t></w:r></w:p>"
        "</w:txbxContent></mc:Fallback></mc:AlternateContent></w:r>"
        "<w:del><w:r><w:delText>gone</w:delText><w:tab/></w:r></w:del>"
        "<w:ins><w:r><w:t>kept</w:t></w:r></w:ins>"
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r>'
        "</w:p>"
    )
    p.addprevious(etree.fromstring(xml))
    body.remove(p)
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    assert doc.text == "Before\nBoxed one.\nBoxed two.\nkept7\n"


def _docx_pages(d) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    return [(n, doc.text[s:e].strip()) for n, s, e in doc.pages]


def test_docx_page_break_before_starts_a_new_page() -> None:
    """``w:pageBreakBefore`` (python-docx's ``paragraph_format.page_break_before``), on the
    paragraph or through its style and the styles it is based on, starts the paragraph on
    a new page; not at the top of a page already (the first paragraph, after a page
    break); the paragraph's own ``False`` overrides its style's."""
    docx = pytest.importorskip("docx")
    from docx.enum.style import WD_STYLE_TYPE

    d = docx.Document()
    d.add_paragraph("Cover text.")
    p = d.add_paragraph("Own break.")
    p.paragraph_format.page_break_before = True
    d.add_paragraph("Same page as the own break.")
    assert _docx_pages(d) == [(1, "Cover text."), (2, "Own break.\n\nSame page as the own break.")]

    d = docx.Document()
    d.styles["Heading 1"].paragraph_format.page_break_before = True
    chapter = d.styles.add_style("Chapter", WD_STYLE_TYPE.PARAGRAPH)
    chapter.base_style = d.styles["Heading 1"]  # inherits the break
    d.add_heading("One", 1)  # the first paragraph: already at the top of page 1
    d.add_paragraph("Text of one.")
    d.add_heading("Two", 1)
    d.add_paragraph("Text of two.")
    d.add_paragraph("Three", style="Chapter")
    d.add_paragraph("Text of three.")
    off = d.add_heading("Not a new page", 1)
    off.paragraph_format.page_break_before = False
    d.add_paragraph("Item", style="List Bullet")
    d.add_page_break()
    d.add_heading("Four", 1)  # after a page break: at the top already, no blank page
    d.add_paragraph("Text of four.")
    d.add_paragraph("")  # an empty paragraph takes a line: the next break turns a page
    d.add_heading("Five", 1)
    assert _docx_pages(d) == [
        (1, "# One\n\nText of one."),
        (2, "# Two\n\nText of two."),
        (3, "# Three\n\nText of three.\n\n# Not a new page\n\n- Item"),
        (4, "# Four\n\nText of four."),
        (5, "# Five"),
    ]
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=30, unit="chars")
    assert_invariants(doc.text, chunks)
    assert [(c.metadata["header_path"], c.metadata["page_number"]) for c in chunks if "Text of" in c.text] == [
        (["One"], 1), (["Two"], 2), (["Three"], 3), (["Four"], 4)
    ]


def test_docx_page_break_before_gives_way_to_the_breaks_word_rendered() -> None:
    """A file with Word's rendered page breaks takes its pages from them alone: Word marks
    the paragraph that a "page break before" moved (counting it again would turn two pages)."""
    docx = pytest.importorskip("docx")
    from lxml import etree

    d = docx.Document()
    d.add_paragraph("Page one.")
    p = d.add_paragraph("Page two.")
    p.paragraph_format.page_break_before = True
    p.runs[0]._r.insert(0, etree.fromstring(f'<w:lastRenderedPageBreak xmlns:w="{_W_NS}"/>'))
    assert _docx_pages(d) == [(1, "Page one."), (2, "Page two.")]


def test_docx_a_section_break_starts_a_new_page_unless_continuous() -> None:
    """A paragraph holding a ``w:sectPr`` ends a section; the next section's own
    ``w:sectPr`` says how it starts: ``nextPage`` (also when no type is given),
    ``oddPage`` and ``evenPage`` turn a page, ``continuous`` does not. The section
    mark takes a line: after a page break it leaves a blank page, as Word shows it; a
    table can start the new page."""
    docx = pytest.importorskip("docx")
    from docx.enum.section import WD_SECTION

    d = docx.Document()
    d.add_paragraph("One.")
    d.add_section(WD_SECTION.NEW_PAGE)
    d.add_paragraph("Two.")
    d.add_section(WD_SECTION.CONTINUOUS)
    d.add_paragraph("Still two.")
    d.add_section(WD_SECTION.ODD_PAGE)
    d.add_paragraph("Three.")
    d.add_page_break()
    d.add_section(WD_SECTION.EVEN_PAGE)  # its mark alone on page 4
    d.add_paragraph("Five.")
    d.add_section(WD_SECTION.NEW_PAGE)
    table = d.add_table(rows=2, cols=1)
    table.cell(0, 0).text = "head"
    table.cell(1, 0).text = "cell"
    assert _docx_pages(d) == [
        (1, "One."),
        (2, "Two.\n\nStill two."),
        (3, "Three."),
        (5, "Five."),
        (6, "| head |\n|---|\n| cell |"),
    ]

    d = docx.Document()  # a section break in a paragraph with text: the break follows the text
    d.add_paragraph("Only section.")
    d.add_section(WD_SECTION.CONTINUOUS)
    d.add_paragraph("Same page.")
    assert _docx_pages(d) == []  # one page: no page map


def test_docx_section_breaks_give_the_pages_word_rendered() -> None:
    """A real file (two sections, the second starting on a new page, page breaks in
    both) read without its rendered page marks: the explicit breaks and the section
    break number the pages as Word laid them out."""
    path = CORPUS / "sct-first-page-hdrftr.docx"
    data = path.read_bytes()
    rendered = chunkwise.parse(data, format="docx")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            part = src.read(info)
            if info.filename == "word/document.xml":
                assert b"<w:lastRenderedPageBreak/>" in part
                part = part.replace(b"<w:lastRenderedPageBreak/>", b"")
            dst.writestr(info, part)
    explicit = chunkwise.parse(out.getvalue(), format="docx")
    assert explicit.text == rendered.text
    assert [p[0] for p in rendered.pages] == [1, 2, 3, 4, 6]
    assert explicit.pages == rendered.pages


def test_docx_page_break_before_of_the_default_style_and_document_defaults() -> None:
    """"Page break before" set on the default paragraph style reaches the paragraphs
    that name no style (no ``w:pStyle`` in the whole body), and the styles based on it;
    set in the document defaults (``w:pPrDefault``), every paragraph whose styles say
    nothing."""
    docx = pytest.importorskip("docx")
    from docx.enum.style import WD_STYLE_TYPE
    from lxml import etree

    d = docx.Document()
    d.styles["Normal"].paragraph_format.page_break_before = True
    d.add_paragraph("One.")
    d.add_paragraph("Two.")
    assert _docx_pages(d) == [(1, "One."), (2, "Two.")]

    d = docx.Document()
    d.styles["Normal"].paragraph_format.page_break_before = True
    mine = d.styles.add_style("Mine", WD_STYLE_TYPE.PARAGRAPH)
    mine.base_style = d.styles["Normal"]
    d.add_paragraph("One.")
    d.add_paragraph("Two.", style="Mine")
    d.add_paragraph("Three.")
    assert _docx_pages(d) == [(1, "One."), (2, "Two."), (3, "Three.")]

    d = docx.Document()
    defaults = d.styles.element.find(f"{{{_W_NS}}}docDefaults")
    ppr = defaults.find(f"{{{_W_NS}}}pPrDefault/{{{_W_NS}}}pPr")
    if ppr is None:
        ppr_default = defaults.find(f"{{{_W_NS}}}pPrDefault")
        if ppr_default is None:
            ppr_default = etree.SubElement(defaults, f"{{{_W_NS}}}pPrDefault")
        ppr = etree.SubElement(ppr_default, f"{{{_W_NS}}}pPr")
    etree.SubElement(ppr, f"{{{_W_NS}}}pageBreakBefore")
    d.add_paragraph("One.")
    d.add_paragraph("Two.")
    off = d.add_paragraph("Still two.")
    off.paragraph_format.page_break_before = False
    d.add_heading("Three", 1)
    assert _docx_pages(d) == [(1, "One."), (2, "Two.\n\nStill two."), (3, "# Three")]


def test_docx_an_explicit_page_turn_makes_the_document_paged_even_on_one_page() -> None:
    """A page break, a "page break before" or a section that starts a new page says the
    file has pages, even when all its text is on page 1 (a break at the end, a break before
    the first paragraph); a file with no page information stays unpaged."""
    docx = pytest.importorskip("docx")
    from docx.enum.section import WD_SECTION

    d = docx.Document()
    d.add_paragraph("First para.")
    d.add_paragraph("Second.")
    d.add_page_break()
    assert _docx_pages(d) == [(1, "First para.\n\nSecond.")]
    buf = io.BytesIO()
    d.save(buf)
    doc = chunkwise.parse(buf.getvalue(), format="docx")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=20, unit="chars")
    assert_invariants(doc.text, chunks)
    assert {(c.metadata["page_number"], c.metadata["page_end"]) for c in chunks} == {(1, 1)}

    d = docx.Document()
    p = d.add_paragraph("Only para.")
    p.paragraph_format.page_break_before = True
    d.add_paragraph("Same page.")
    assert _docx_pages(d) == [(1, "Only para.\n\nSame page.")]

    d = docx.Document()
    d.add_paragraph("Before the section.")
    d.add_section(WD_SECTION.NEW_PAGE)  # a section of no text after it
    assert _docx_pages(d) == [(1, "Before the section.")]

    d = docx.Document()
    d.add_paragraph("No page information.")
    d.add_paragraph("At all.")
    buf = io.BytesIO()
    d.save(buf)
    assert chunkwise.parse(buf.getvalue(), format="docx").pages == ()
