"""The PDF loader on real manuals (tests/corpus/pdf, see SOURCES.md) and generated edge
cases: pages claimed by chunks, header paths, page furniture, reading order, errors with
their fix in chunk, stats and eval, loader options."""

from __future__ import annotations

import json
import pickle
import re
import shutil
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import ConfigError, MissingDependencyError
from chunkwise.parsers.pdf import PdfLine, PdfPage, layout_pages
from chunkwise.sizers import get_sizer

pdfium = pytest.importorskip("pypdfium2")

from chunkwise.loaders.pdf import PdfError, parse_page_ranges  # noqa: E402

from invariants import check_invariants  # noqa: E402

CORPUS = Path(__file__).parent / "corpus" / "pdf"
REAL = sorted(CORPUS.glob("*.pdf"))
GENERATED = CORPUS / "generated"
BAD = {
    "empty.pdf": ("the file is empty", "export or download it again"),
    "encrypted.pdf": ("encrypted", "-L password="),
    "html_named.pdf": ("not a PDF: its content is HTML", "rename it"),
    "image_only.pdf": ("no text layer", "OCR"),
    "truncated.pdf": ("damaged or truncated", "download or export it again"),
}


def _norm(text: str) -> str:
    return " ".join(text.split())


def _raw_pages(path: Path) -> list[str]:
    """Each page's text as PDFium gives it, without our layout (an independent reading)."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def _alnum(text: str) -> Counter[str]:
    """The letters and digits of ``text``, accents apart (NFKD: the loader composes ``¨a``,
    TeX's accent drawn over its letter, into ``ä``)."""
    return Counter(c for c in unicodedata.normalize("NFKD", text) if c.isalnum())


@pytest.fixture(scope="module")
def docs() -> dict[str, chunkwise.Document]:
    return {p.name: chunkwise.load(p) for p in REAL}


def test_the_real_corpus_is_there() -> None:
    assert len(REAL) >= 3
    assert sum(p.stat().st_size for p in REAL) < 3_000_000


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_every_chunk_is_on_the_pages_it_claims(path: Path, docs) -> None:
    doc = docs[path.name]
    raw = _raw_pages(path)
    assert [n for n, _, _ in doc.pages] == list(range(1, len(raw) + 1))
    # each page's text is drawn from that page's own characters (read independently)
    for n, s, e in doc.pages:
        mine, theirs = _alnum(doc.text[s:e]), _alnum(raw[n - 1])
        assert not (mine - theirs), (n, (mine - theirs).most_common(5))
    for strategy in ("auto", "recursive"):
        chunks = chunkwise.chunk(doc, strategy=strategy, chunk_size=800)
        assert chunks
        check_invariants(doc.text, chunks, 800, get_sizer("chars"))
        for c in chunks:
            first, last = c.metadata["page_number"], c.metadata["page_end"]
            assert 1 <= first <= last <= len(raw)
            claimed = " ".join(doc.text[s:e] for n, s, e in doc.pages if first <= n <= last)
            assert _norm(c.text) in _norm(claimed), (c.index, first, last)
            # a chunk's first and last characters are on the pages it names
            assert doc.page_at(c.start_index) == first and doc.page_at(c.end_index - 1) == last


EXPECTED_PATHS = {
    "R-FAQ.pdf": [
        ["1 Introduction", "1.1 Legalese"],
        ["2 R Basics", "2.1 What is R?"],
        ["2 R Basics", "2.5 How can R be installed?", "2.5.1 How can R be installed (Unix-like)"],
    ],
    "R-data.pdf": [
        ["1 Introduction", "1.1 Imports", "1.1.1 Encodings"],
        ["2 Spreadsheet-like data", "2.1 Variations on read.table"],
        ["4 Relational databases", "4.2 Overview of RDBMSs", "4.2.1 SQL queries"],
    ],
    "camlidl-manual.pdf": [["1 Overview"], ["2 IDL syntax"], ["7 Release notes"]],
    "reportlab-userguide.pdf": [
        ["Chapter 1 Introduction", "1.1 About this document"],
        ["Chapter 2 Graphics and Text with pdfgen", "2.1 Basic Concepts"],
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED_PATHS))
def test_headings_come_out_as_header_paths(name: str, docs) -> None:
    chunks = chunkwise.chunk(docs[name], strategy="auto", chunk_size=1500)
    paths = [c.metadata.get("header_path") for c in chunks]
    for expected in EXPECTED_PATHS[name]:
        assert expected in paths, (expected, [p for p in paths if p][:20])
    # a table of contents line (dot leaders) never becomes a heading
    assert not any(p and any(re.search(r"\. \. \.", h) for h in p) for p in paths)


def test_running_heads_and_page_numbers_are_removed_and_recorded(docs) -> None:
    doc = docs["R-FAQ.pdf"]
    furniture = doc.metadata["page_furniture"]
    assert any(f.startswith("Chapter 2: R Basics") for f in furniture)
    for line in furniture:
        assert line not in doc.text
    labels = doc.metadata["page_labels"]
    assert len(labels) == len(doc.pages) and "i" in labels and "12" in labels
    # no page is left with its bare page number as a line of its own
    for n, s, e in doc.pages:
        label = labels[n - 1]
        if label:
            assert label not in doc.text[s:e].splitlines()
    guide = docs["reportlab-userguide.pdf"]
    assert not any(line.startswith("User Guide Chapter") for line in guide.text.splitlines())


def test_hyphenated_words_are_joined(docs) -> None:
    text = docs["R-FAQ.pdf"].text
    assert "R for Windows FAQ" in text and "Win-dows" not in text and "\ufffe" not in text
    assert "Chambers & Wilks" in text


def test_no_control_characters_and_tex_symbols_mapped(docs) -> None:
    # TeX's symbol font has no Unicode map in these files: PDFium gives its codes (the large
    # circle of \copyright is "\r", a carriage return inside a line)
    for name, doc in docs.items():
        assert not re.search("[\x00\x01\x03-\x08\x0b-\x1f\x7f]", doc.text), name
    assert "Copyright © 1998–2020 Kurt Hornik" in docs["R-FAQ.pdf"].text
    assert "Copyright © 2000–2022 R Core Team" in docs["R-data.pdf"].text
    # TeX draws an accent over its letter: the text layer has "Wirtschaftsuniversit¨at"
    assert "WU (Wirtschaftsuniversität Wien)" in docs["R-FAQ.pdf"].text
    assert not re.search("[\u00a8\u00b4\u02c6\u02dc\u02c7\u02da][^\\W\\d_]", "".join(d.text for d in docs.values()))


def test_a_pdf_without_a_title_takes_its_first_pages_top_heading(docs) -> None:
    # the TeX manuals' Info dictionaries have an empty Title
    assert docs["R-FAQ.pdf"].metadata["title"] == "R FAQ"
    assert docs["camlidl-manual.pdf"].metadata["title"] == "Camlidl user’s manual Version 1.04"


def test_document_metadata(docs) -> None:
    guide = docs["reportlab-userguide.pdf"].metadata
    assert guide["title"] == "ReportLab PDF Generation User Guide"
    assert guide["author"] == "the ReportLab Team"
    assert guide["created"] == "2024-10-12T17:14:35+00:00"
    assert guide["page_count"] == 134 and guide["format"] == "pdf"
    assert docs["R-FAQ.pdf"].metadata["created"] == "2023-01-20T16:49:27+00:00"
    assert guide["modified"] == "2024-10-12T17:14:35+00:00"  # ModDate, in the same format
    assert docs["camlidl-manual.pdf"].metadata["created"] == "2002-05-01T18:46:00"  # no zone given: none invented
    json.dumps(chunkwise.loaders.json_safe(dict(guide)))


def test_a_document_pickles(docs) -> None:
    doc = docs["camlidl-manual.pdf"]
    again = pickle.loads(pickle.dumps(doc))
    assert again == doc and again.pages == doc.pages


# -- generated edge cases --------------------------------------------------------------------


def test_two_columns_are_read_column_by_column() -> None:
    doc = chunkwise.load(GENERATED / "two_columns.pdf")
    assert doc.metadata["two_column_pages"] == [1]
    text = doc.text
    lefts = [m.start() for m in re.finditer("Left sentence", text)]
    rights = [m.start() for m in re.finditer("Right sentence", text)]
    assert len(lefts) == len(rights) == 14 and max(lefts) < min(rights)
    assert text.index("Left sentence 2 ") < text.index("Left sentence 10 ")
    assert text.startswith("# Reading in columns\n\n")
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=200)
    assert ["Reading in columns", "Right column"] in [c.metadata.get("header_path") for c in chunks]


def test_two_columns_written_row_by_row_are_split_at_the_gap() -> None:
    doc = chunkwise.load(GENERATED / "two_columns_row_by_row.pdf")
    assert doc.metadata["two_column_pages"] == [1]
    lines = doc.text.splitlines()
    assert lines[0] == "# Columns written row by row"
    west = [k for k, line in enumerate(lines) if line.startswith("West line")]
    east = [k for k, line in enumerate(lines) if line.startswith("East line")]
    assert len(west) == len(east) == 20 and max(west) < min(east)
    assert "| West" not in doc.text  # running text, not a table


def test_a_table_across_a_page_break_is_a_pipe_table_on_each_page() -> None:
    doc = chunkwise.load(GENERATED / "table_across_pages.pdf")
    assert len(doc.pages) == 2
    for n, s, e in doc.pages:
        page = doc.text[s:e]
        assert "| Item | Colour | Count |\n|---|---|---|\n" in page  # the header repeated
        assert ("| item 1 | green | 7 |" in page) == (n == 1)
        assert ("| item 60 | red | 420 |" in page) == (n == 2)
    rows = [line for line in doc.text.splitlines() if line.startswith("| item ")]
    assert len(rows) == 60
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=300)
    last = next(c for c in chunks if "item 60" in c.text)
    assert last.metadata["page_end"] == 2
    # a continued table's chunk carries the header row as context
    assert any(c.context and "Colour" in c.context for c in chunks if "item 5" in c.text)


def test_tables_of_real_manuals(docs) -> None:
    faq = docs["R-FAQ.pdf"].text
    assert "| Debian | i386/amd64 | squeeze/wheezy | Johannes Ranke |" in faq
    caml = docs["camlidl-manual.pdf"].text
    assert "| Attribute | Context where it can appear |\n|---|---|\n| abstract | typedef |" in caml
    # a code listing in a monospaced font keeps its spaces: no table made of it
    assert "Admitted Male 512 353 120 138 53 22" in docs["R-data.pdf"].text


def test_doctests_of_the_pdf_modules() -> None:
    import doctest
    import importlib

    for name in ("chunkwise.parsers.pdf", "chunkwise.loaders.pdf"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, name


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_raise_one_line_naming_the_file_and_the_fix(name: str) -> None:
    problem, fix = BAD[name]
    with pytest.raises(PdfError) as info:
        chunkwise.load(GENERATED / name)
    message = str(info.value)
    assert "\n" not in message and name in message and problem in message and fix in info.value.fix
    assert isinstance(info.value, chunkwise.errors.LoadError)
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == message and again.fix == info.value.fix


def test_password_opens_an_encrypted_pdf() -> None:
    doc = chunkwise.load(GENERATED / "encrypted.pdf", password="secret")
    assert doc.text == "The secret text of an encrypted document."
    with pytest.raises(PdfError, match="password given does not open"):
        chunkwise.load(GENERATED / "encrypted.pdf", password="wrong")


def test_reportlabs_placeholder_title_and_author_are_not_metadata() -> None:
    # owner_only.pdf was written by ReportLab without a title: its info says "untitled",
    # "anonymous" and "unspecified", which are not the document's
    with pdfium.PdfDocument(str(GENERATED / "owner_only.pdf")) as raw:
        info = raw.get_metadata_dict()
    assert (info["Title"], info["Author"], info["Subject"]) == ("untitled", "anonymous", "unspecified")
    meta = chunkwise.load(GENERATED / "owner_only.pdf").metadata
    assert {"title", "author", "subject"}.isdisjoint(meta)
    assert chunkwise.load(GENERATED / "two_columns.pdf").metadata["author"] == "chunkwise tests"  # a real one stays


def test_a_password_does_not_lock_an_owner_password_only_pdf() -> None:
    # owner_only.pdf opens with the empty user password: any password given falls back to it
    expected = "Anyone may read this; only the owner may change it."
    for password in (None, "s3cret", "owner"):
        options = {} if password is None else {"password": password}
        assert chunkwise.load(GENERATED / "owner_only.pdf", **options).text == expected
    result = CliRunner().invoke(
        cli, ["chunk", str(GENERATED / "owner_only.pdf"), "-u", "chars", "-L", "password=s3cret"]
    )
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["text"] for line in result.stdout.splitlines()] == [expected]


def test_bytes_and_pages_options(docs) -> None:
    data = (CORPUS / "R-data.pdf").read_bytes()
    whole = docs["R-data.pdf"]
    doc = chunkwise.load(data)  # format from the magic bytes
    assert doc.text == whole.text and doc.pages == whole.pages
    part = chunkwise.load(data, format="pdf", pages="5-6,8")
    assert [n for n, _, _ in part.pages] == [5, 6, 8] and part.metadata["pages_read"] == [5, 6, 8]
    start = whole.pages[4][1]
    assert part.text[:200] == whole.text[start : start + 200]
    assert parse_page_ranges("40-", 41) == [40, 41] and parse_page_ranges(3, 5) == [3]
    for bad in ("0-2", "x", "", "5-3", "90"):
        with pytest.raises(ConfigError, match="pages="):
            chunkwise.load(data, pages=bad)
    # past the last page: an error alike for one page and for the end of a range (no silent clamp)
    for past in ("99", "1-100", "40-42"):
        with pytest.raises(ConfigError, match=r"runs past the last page \(the document has 41 pages\)"):
            chunkwise.load(data, pages=past)
    assert chunkwise.load(data, pages="40-").metadata["pages_read"] == [40, 41]


def test_a_part_is_laid_out_with_every_other_page_of_the_file() -> None:
    from chunkwise.loaders.pdf import _context_pages

    # the file's heading sizes and running heads come from all of it, in page order
    assert _context_pages([5, 6, 8], 10) == [1, 2, 3, 4, 7, 9, 10]
    assert _context_pages([2], 3) == [1, 3] and _context_pages([1, 2, 3], 3) == [] and _context_pages([1], 1) == []


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="the tesseract program is not installed")
def test_ocr_reads_a_scanned_page() -> None:
    pytest.importorskip("PIL")
    doc = chunkwise.load(GENERATED / "scanned.pdf", ocr="true")
    assert doc.metadata["ocr_pages"] == [1]
    assert doc.text.startswith("# Scanned Report\n\n")  # the larger letters make a heading
    assert "The pumps start at six every morning." in doc.text and "The tanks are full by eight." in doc.text
    chunks = chunkwise.chunk(doc, strategy="auto", chunk_size=200)
    assert chunks[-1].metadata["header_path"] == ["Scanned Report"] and chunks[-1].metadata["page_number"] == 1
    result = CliRunner().invoke(cli, ["chunk", str(GENERATED / "scanned.pdf"), "-u", "chars", "-L", "ocr=eng"])
    assert result.exit_code == 0 and "The valves open at seven." in result.stdout


def test_ocr_without_tesseract_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(PdfError, match="tesseract program is not installed") as info:
        chunkwise.load(GENERATED / "scanned.pdf", ocr=True)
    assert "apt-get install tesseract-ocr" in info.value.fix and "chunkwise[ocr]" in info.value.fix
    with pytest.raises(PdfError, match="-L ocr=true"):  # without ocr, the error says how to ask for it
        chunkwise.load(GENERATED / "scanned.pdf")
    with pytest.raises(ConfigError, match="ocr="):
        chunkwise.load(GENERATED / "scanned.pdf", ocr="e!")


def test_unknown_loader_options_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match=r"no option 'colour'.*password, pages, ocr"):
        chunkwise.load(GENERATED / "two_columns.pdf", colour="red")
    # an option of another format's loader is ignored (one -L serves a mixed folder)
    assert chunkwise.load(b"# Title\n", format="markdown", password="x").text == "# Title\n"


def test_a_missing_extra_names_the_pip_command(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'chunkwise\[pdf\]'"):
        chunkwise.load(GENERATED / "two_columns.pdf")


# -- the commands ----------------------------------------------------------------------------


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in (*BAD, "two_columns.pdf"):
        (docs / name).write_bytes((GENERATED / name).read_bytes())
    (docs / "camlidl-manual.pdf").write_bytes((CORPUS / "camlidl-manual.pdf").read_bytes())
    (docs / "notes.md").write_text("# Notes\n\nA short note about columns.\n", encoding="utf-8")
    return docs


def _skipped_lines(output: str) -> dict[str, str]:
    return {
        name: line for line in output.splitlines() for name in BAD if line.startswith("skipped ") and name + ":" in line
    }


def _check_bad_reported(output: str) -> None:
    lines = _skipped_lines(output)
    assert sorted(lines) == sorted(BAD), output
    for name, line in lines.items():
        problem, fix = BAD[name]
        assert problem in line and "; fix: " in line and fix in line.split("; fix: ", 1)[1], line


def test_chunk_reports_each_bad_file_and_completes_the_others(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "chunks.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(folder), "-u", "chars", "-n", "400", "-o", str(out)])
    assert result.exit_code == 1, result.output
    _check_bad_reported(result.output)
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by_file = Counter(r["metadata"]["filename"] for r in rows)
    for name in ("camlidl-manual.pdf", "two_columns.pdf", "notes.md"):
        expected = chunkwise.chunk(chunkwise.load(folder / name), strategy="auto", chunk_size=400)
        assert by_file[name] == len(expected), name
    pdf_rows = [r for r in rows if r["metadata"]["format"] == "pdf"]
    assert all(1 <= r["metadata"]["page_number"] <= r["metadata"]["page_end"] for r in pdf_rows)
    assert any(r["metadata"].get("header_path") == ["1 Overview"] for r in pdf_rows)


def test_chunk_takes_loader_options(folder: Path) -> None:
    result = CliRunner().invoke(
        cli, ["chunk", str(folder / "encrypted.pdf"), "-u", "chars", "-L", "password=secret"]
    )
    assert result.exit_code == 0, result.output
    assert "The secret text" in result.stdout
    result = CliRunner().invoke(cli, ["chunk", str(folder / "camlidl-manual.pdf"), "-u", "chars", "-L", "pages=2"])
    assert result.exit_code == 0, result.output
    assert {json.loads(line)["metadata"]["page_number"] for line in result.stdout.splitlines()} == {2}
    result = CliRunner().invoke(cli, ["chunk", str(folder / "notes.md"), "-u", "chars", "-L", "pages=2"])
    assert result.exit_code == 0 and result.stdout  # a PDF option: the Markdown loader ignores it
    result = CliRunner().invoke(cli, ["chunk", str(folder / "notes.md"), "-L", "nonsense"])
    assert result.exit_code == 2 and "KEY=VALUE" in result.output


def test_stats_reports_each_bad_file(folder: Path) -> None:
    result = CliRunner().invoke(cli, ["stats", str(folder), "-s", "recursive", "-n", "400", "-u", "chars"])
    assert result.exit_code == 1, result.output
    _check_bad_reported(result.output)
    assert "3 documents" in result.output


def test_eval_reports_each_bad_file(folder: Path, tmp_path: Path, monkeypatch) -> None:
    np = pytest.importorskip("numpy")
    from chunkwise import embeddings

    class Constant:
        name = "constant"

        def embed(self, texts):  # type: ignore[no-untyped-def]
            return np.ones((len(texts), 4), dtype=np.float32) / 2

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: Constant())
    camlidl = chunkwise.load(folder / "camlidl-manual.pdf", root=folder)
    start = camlidl.text.index("Camlidl generates stub code")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps(
            {
                "question": "What does Camlidl generate?",
                "document_id": "camlidl-manual",
                "references": [{"start_index": start, "end_index": start + 40}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli,
        ["eval", "--corpus", str(folder), "--questions", str(questions), "--no-cache", "--no-plot",
         "-s", "recursive", "-n", "300", "-u", "chars", "--k", "1", "-o", str(tmp_path / "res")],
    )
    assert result.exit_code == 1, result.output
    _check_bad_reported(result.output)
    payload = json.loads((tmp_path / "res" / "results.json").read_text(encoding="utf-8"))
    assert payload["run"]["n_questions"] == 1 and "camlidl-manual" in payload["run"]["documents"]


def test_a_missing_extra_is_reported_and_the_rest_completes(folder: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    result = CliRunner().invoke(cli, ["chunk", str(folder / "two_columns.pdf"), str(folder / "notes.md"), "-u", "chars"])
    assert result.exit_code == 1
    assert "two_columns.pdf" in result.output and "pip install 'chunkwise[pdf]'" in result.output
    assert "A short note about columns." in result.stdout


# -- the layout rules, on lines written here -------------------------------------------------


def _line(text: str, top: float, size: float = 10, x0: float = 72, x1: float = 500, bold: bool = False) -> PdfLine:
    return PdfLine(text, x0, x1, top, top + size * 1.2, size, bold)


def _page(number: int, *lines: PdfLine) -> PdfPage:
    return PdfPage(number, 600, 800, tuple(lines))


def test_layout_furniture_hyphens_headings_and_escapes() -> None:
    pages = []
    for n in range(1, 6):
        pages.append(
            _page(
                n,
                _line(f"Running head of the book {n}", 20),
                _line(f"{n} Chapter number {n}", 100, size=16),
                _line("A first line that ends in a hyphen-", 130),
                _line("ated word, then more text.", 142),
                _line("# not a heading but a line starting with a hash", 154),
                _line("Bold words alone", 190, bold=True),
                _line("Body again.", 220),
                _line(str(n), 780),
            )
        )
    layout = layout_pages(pages)
    assert layout.furniture == ("Running head of the book 1",)
    assert layout.page_labels == ("1", "2", "3", "4", "5")
    first = layout.text[layout.pages[0][1] : layout.pages[0][2]]
    assert first == (
        "# 1 Chapter number 1\n\n"
        "A first line that ends in a hyphen-ated word, then more text.\n"
        "    # not a heading but a line starting with a hash\n\n"
        "## Bold words alone\n\n"
        "Body again."
    )
    assert layout.headings == 10
    soft = layout_pages([_page(1, _line("hyphen\u00ad", 100), _line("ated", 112))])
    assert soft.text == "hyphenated"


# -- properties of the layout, over hostile lines --------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TEXT = st.text(
    alphabet=st.sampled_from(list("ab Z9#-|>=\u00ad\u0002\ufffe.\t") + ["\u00e9", "\u0301", "\U0001f600", "\u4e2d", "\r"]),
    min_size=0,
    max_size=30,
)
_LINE = st.builds(
    PdfLine,
    _TEXT,
    st.floats(0, 550),
    st.floats(0, 600),
    st.floats(0, 780),
    st.floats(0, 800),
    st.sampled_from([8.0, 10.0, 10.0, 10.0, 14.0, 20.0]),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_LINE, max_size=12), min_size=1, max_size=6))
def test_layout_keeps_a_valid_page_map_and_only_the_pages_characters(pages_lines) -> None:
    pages = [PdfPage(n, 600, 800, tuple(lines)) for n, lines in enumerate(pages_lines, start=1)]
    layout = layout_pages(pages)
    assert layout_pages(pages) == layout  # deterministic
    doc = chunkwise.Document(layout.text, pages=layout.pages)  # the map is valid for the text
    assert [n for n, _, _ in doc.pages] == list(range(1, len(pages) + 1))
    for (n, s, e), page in zip(doc.pages, pages):
        mine = _alnum(doc.text[s:e])
        theirs = _alnum("".join(ln.text for ln in page.lines))
        assert not (mine - theirs), n  # a page's text comes from that page's lines
    outside = "".join(doc.text[e:s] for (_, _, e), (_, s, _) in zip(doc.pages, doc.pages[1:]))
    assert not outside.strip()  # only the blank lines between pages belong to no page
    for c in chunkwise.chunk(doc, strategy="auto", chunk_size=60):
        assert c.text == doc.text[c.start_index : c.end_index]
