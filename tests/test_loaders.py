"""The load stage: loaders chosen by suffix, MIME type and magic bytes; decoding; front
matter; files that no loader handles reported, never silently dropped."""

from __future__ import annotations

import json
import sys

import pytest

import chunkwise
from chunkwise.errors import ConfigError, LoadError, UnsupportedFormatError
from chunkwise.evaluation import load_corpus
from chunkwise.loaders import FoundFile, decode, find_files, get_loader, load, parse
from chunkwise.types import Document

FRENCH = "Le café de la gare était fermé; naïve façade, crème brûlée — « déjà vu » à Noël.\n" * 3


# -- one text whichever way a file is read ------------------------------------------------


def test_crlf_file_gives_the_same_text_and_ids_through_load_parse_and_load_corpus(tmp_path):
    raw = b"First line.\r\nSecond line.\r\n"
    (tmp_path / "a.txt").write_bytes(raw)
    doc = load(tmp_path / "a.txt")
    assert doc.text == raw.decode("utf-8") and len(doc.text) == 27  # \r\n kept: offsets index the real text
    assert parse(raw, "text", source=doc.source, id=doc.id).text == doc.text
    [path_doc] = load_corpus(tmp_path)
    [stem_doc] = load_corpus(tmp_path, ids="stem")  # the ids of earlier versions, still available
    assert stem_doc.text == path_doc.text == doc.text
    assert stem_doc.id == "a" and path_doc.id == doc.id
    assert path_doc.metadata == doc.metadata
    ids = [c.id for c in chunkwise.chunk(doc, chunk_size=12)]
    assert ids == [c.id for c in chunkwise.chunk(path_doc, chunk_size=12)]


def test_crlf_file_gives_one_text_one_id_and_the_same_chunks_through_cli_load_and_load_corpus(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    raw = "First line of the file.\r\nSecond line, after a CRLF.\r\n\r\nA paragraph: more words here.\r\n"
    (root / "sub" / "a.txt").write_bytes(raw.encode("utf-8"))
    (root / "b.md").write_bytes(b"# B\r\n\r\nAnother file.\r\n")
    out = tmp_path / "chunks.jsonl"
    options = ["--strategy", "recursive", "--chunk-size", "8", "--unit", "words"]
    result = CliRunner().invoke(cli, ["chunk", str(root), *options, "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    chunker = chunkwise.make_chunker("recursive", chunk_size=8, unit="words")
    corpus = {d.metadata["relative_path"]: d for d in load_corpus(root)}
    assert set(corpus) == {"b.md", "sub/a.txt"}
    for rel, from_corpus in corpus.items():
        loaded = load(root / rel, root=root)
        assert from_corpus.text == loaded.text and from_corpus.id == loaded.id
        cli_rows = [r for r in rows if r["document_id"] == loaded.id]
        chunks = chunker.chunk(from_corpus)
        assert [c.id for c in chunks] == [c.id for c in chunker.chunk(loaded)] == [r["id"] for r in cli_rows]
        assert [(c.start_index, c.end_index, c.text) for c in chunks] == [
            (r["start_index"], r["end_index"], r["text"]) for r in cli_rows
        ]
        assert all(loaded.text[r["start_index"] : r["end_index"]] == r["text"] for r in cli_rows)
    assert "\r\n" in corpus["sub/a.txt"].text and len(corpus["sub/a.txt"].text) == len(raw)


def test_parse_keeps_a_string_exactly():
    assert parse("a\r\nb\rc").text == "a\r\nb\rc"
    assert "encoding" not in parse("text").metadata


# -- encodings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoded", "name"),
    [
        ("héllo wörld\n".encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + "héllo wörld\n".encode("utf-8"), "utf-8-sig"),
        (b"\xff\xfe" + "héllo wörld\n".encode("utf-16-le"), "utf-16-le"),
        (b"\xfe\xff" + "héllo wörld\n".encode("utf-16-be"), "utf-16-be"),
        ("héllo wörld\n".encode("utf-32"), "utf-32-le"),
    ],
)
def test_unicode_encodings_and_byte_order_marks(tmp_path, encoded, name):
    p = tmp_path / "doc.txt"
    p.write_bytes(encoded)
    doc = load(p)
    assert doc.text == "héllo wörld\n"  # the byte-order mark is not text
    assert doc.metadata["encoding"] == name


def test_legacy_encodings_are_detected(tmp_path):
    (tmp_path / "fr.txt").write_bytes(FRENCH.encode("cp1252"))
    (tmp_path / "de.txt").write_bytes("Grüße aus München, schöne Straße.\n".encode("latin-1"))
    (tmp_path / "ru.txt").write_bytes(("Привет, как дела? Это тест кодировки текста. " * 4).encode("cp1251"))
    fr, de, ru = load(tmp_path / "fr.txt"), load(tmp_path / "de.txt"), load(tmp_path / "ru.txt")
    assert fr.text == FRENCH and fr.metadata["encoding"] == "cp1252"
    assert de.text == "Grüße aus München, schöne Straße.\n" and de.metadata["encoding"] == "cp1252"
    assert ru.text.startswith("Привет, как дела?") and ru.metadata["encoding"] == "cp1251"


def test_forced_encoding(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes("café".encode("latin-1"))
    doc = load(p, encoding="latin-1")
    assert doc.text == "café" and doc.metadata["encoding"] == "iso8859-1"
    assert load(p, encoding="cp1252").text == "café"
    with pytest.raises(LoadError, match=r"x\.txt.*utf-8"):
        load(p, encoding="utf-8")
    with pytest.raises(ConfigError, match="encoding 'no-such-codec' is unknown"):
        load(p, encoding="no-such-codec")
    assert parse("café".encode("latin-1"), encoding="latin-1").text == "café"


def test_without_charset_normalizer_a_legacy_file_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "charset_normalizer", None)  # import fails
    p = tmp_path / "fr.txt"
    p.write_bytes(FRENCH.encode("cp1252"))
    with pytest.raises(LoadError, match=r"fr\.txt: not valid UTF-8.*chunkwise\[encodings\].*encoding="):
        load(p)
    assert load(p, encoding="cp1252").text == FRENCH  # a forced encoding needs nothing
    p.write_bytes("plain UTF-8 ✓".encode("utf-8"))
    assert load(p).text == "plain UTF-8 ✓"


def test_a_broken_byte_order_mark_is_an_error_not_a_guess(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes(b"\xff\xfe not utf-8 \x80\x81")
    with pytest.raises(LoadError, match=r"bad\.txt: not valid UTF-8"):
        load(p)


def test_html_meta_charset_is_used_for_bytes_that_are_not_utf8():
    page = '<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>cr\xe8me</p></body></html>'
    doc = parse(page.encode("cp1252"), format="html")
    assert doc.metadata["title"] == "Café" and "crème" in doc.text and doc.metadata["encoding"] == "cp1252"


def test_decode_is_the_one_decoder():
    assert decode("é".encode("utf-16")) == ("é", "utf-16-le")
    assert decode(b"abc") == ("abc", "utf-8")


# -- front matter ----------------------------------------------------------------------------


def test_front_matter_is_read_once_into_json_safe_metadata(tmp_path):
    text = "---\ntitle: Guide\ndate: 2024-01-02\nwhen: 2024-01-02 10:30:00\ntags: [a, b]\n1: one\n---\n# Guide\n\nBody.\n"
    p = tmp_path / "g.md"
    p.write_text(text, encoding="utf-8")
    doc = load(p)
    assert doc.text == text
    front = doc.metadata["front_matter"]
    assert front == {"title": "Guide", "date": "2024-01-02", "when": "2024-01-02T10:30:00", "tags": ["a", "b"], "1": "one"}
    assert doc.metadata["title"] == "Guide" and doc.metadata["format"] == "markdown"
    json.dumps(dict(doc.metadata))  # nothing downstream crashes on a date
    for c in chunkwise.chunk(doc, strategy="markdown", chunk_size=200):
        json.dumps(c.to_dict())
    assert parse(text, "markdown").metadata["front_matter"] == front
    assert load(p, metadata={"title": "Mine"}).metadata["title"] == "Mine"


# -- which loader ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("a.txt", b"x", "text"),
        ("a.text", b"x", "text"),
        ("a.rst", b"Title\n=====\n", "rst"),
        ("a.rst.txt", b"Title\n=====\n", "rst"),
        ("a.md", b"# x", "markdown"),
        ("a.markdown", b"# x", "markdown"),
        ("a.htm", b"<p>x</p>", "html"),
        ("a.html", b"<p>x</p>", "html"),
        ("README", b"plain words without a suffix\n", "text"),
        ("page", b"<!DOCTYPE html><html><body><p>x</p></body></html>", "html"),
        ("notes.log", b"a log line\n", "text"),
    ],
)
def test_loader_by_suffix_magic_or_content(tmp_path, name, content, fmt):
    p = tmp_path / name
    p.write_bytes(content)
    assert load(p).metadata["format"] == fmt


def test_loader_by_name_alias_mime_or_suffix():
    assert get_loader("markdown") is get_loader("md") is get_loader("text/markdown") is get_loader(".md")
    assert get_loader("text/html; charset=utf-8").format == "html"
    assert get_loader("text/plain").format == "text"
    with pytest.raises(ConfigError, match="format 'nope' is unknown"):
        get_loader("nope")


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("a.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "ole2"),
        ("report.txt", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "ole2"),  # the bytes say what it is
        ("a.odt", b"PK\x03\x04rest", "odt"),
        ("a.zip", b"PK\x03\x04rest", "zip"),
        ("a.png", b"\x89PNG\r\n\x1a\n\x00\x00", "png"),
        ("empty.doc", b"", "doc"),
        ("blob", b"\x00\x01\x02\x03", "binary data"),
    ],
)
def test_unsupported_formats_raise_naming_file_and_format(tmp_path, name, content, fmt):
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(UnsupportedFormatError) as info:
        load(p)
    assert name in str(info.value) and info.value.format.startswith(fmt)
    assert isinstance(info.value, LoadError)


def test_unsupported_formats_by_name_or_bytes_in_parse():
    with pytest.raises(UnsupportedFormatError, match="ole2"):
        parse(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "text", source="x")
    with pytest.raises(UnsupportedFormatError, match="doc"):
        parse("x", "application/msword")
    with pytest.raises(UnsupportedFormatError, match="odt"):
        get_loader("odt")


# -- finding files ---------------------------------------------------------------------------


def _tree(root):
    (root / "guide").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "a.md").write_text("# A\n", encoding="utf-8")
    (root / "guide" / "b.txt").write_text("B.\n", encoding="utf-8")
    (root / "guide" / "c.rst.txt").write_text("C.\n", encoding="utf-8")
    (root / "guide" / "d.html").write_text("<p>D</p>", encoding="utf-8")
    (root / "LICENSE").write_text("MIT\n", encoding="utf-8")
    (root / "report.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    (root / "data.bin").write_bytes(b"\x00\x01\x02")
    (root / ".git" / "HEAD").write_text("ref: x\n", encoding="utf-8")
    return root


def test_find_files_reports_what_it_skips(tmp_path):
    root = _tree(tmp_path / "docs")
    skipped: list[FoundFile] = []
    found = list(find_files([root], skipped=skipped))
    assert [f.relative for f in found] == ["LICENSE", "a.md", "guide/b.txt", "guide/c.rst.txt", "guide/d.html"]
    assert all(f.supported and f.root == root for f in found)
    assert [f.format for f in found] == ["text", "markdown", "text", "rst", "html"]
    assert sorted((s.relative, s.supported, s.reason) for s in skipped) == [
        ("data.bin", False, "binary data is not a supported format"),
        ("report.doc", False, "ole2 (doc, xls, ppt, msg) is not a supported format"),
    ]
    assert ".git/HEAD" in [f.relative for f in find_files([root], hidden=True)]


def test_directly_named_files_are_always_yielded(tmp_path):
    root = _tree(tmp_path / "docs")
    pdf, missing = list(find_files([root / "report.doc", root / "nope.txt"]))
    assert (pdf.supported, pdf.reason) == (False, "ole2 (doc, xls, ppt, msg) is not a supported format")
    assert (missing.supported, missing.reason) == (False, "does not exist")
    with pytest.raises(UnsupportedFormatError):
        load(pdf)
    with pytest.raises(LoadError, match="cannot read"):
        load(missing)


def test_include_and_exclude_globs(tmp_path):
    root = _tree(tmp_path / "docs")
    rel = lambda **kw: [f.relative for f in find_files([root], **kw)]  # noqa: E731
    assert rel(include=["*.md", "*.html"]) == ["a.md", "guide/d.html"]
    assert rel(include=["guide/*"]) == ["guide/b.txt", "guide/c.rst.txt", "guide/d.html"]
    assert rel(include=["**/*.txt"]) == ["guide/b.txt", "guide/c.rst.txt"]
    assert rel(exclude=["guide"]) == ["LICENSE", "a.md"]
    assert rel(exclude=["*.txt", "LICENSE"]) == ["a.md", "guide/d.html"]
    assert rel(suffixes=[".md"]) == ["a.md"]


# -- the page map ------------------------------------------------------------------------------


def test_page_map():
    text = "page one\fpage two\fthree"
    doc = Document(text, pages=[(1, 0, 8), (2, 9, 17), (3, 18, 23)])
    assert doc.pages == ((1, 0, 8), (2, 9, 17), (3, 18, 23))
    assert [doc.page_at(i) for i in (0, 7, 8, 9, 22, 23)] == [1, 1, None, 2, 3, None]
    assert doc.pages_for(0, 23) == (1, 2, 3) and doc.pages_for(5, 10) == (1, 2) and doc.pages_for(10, 10) == (2,)
    assert Document("no pages").pages == () and Document("x").page_at(0) is None
    with pytest.raises(ValueError, match="outside"):
        Document("short", pages=[(1, 0, 99)])
    with pytest.raises(ValueError, match="before the previous page ends"):
        Document(text, pages=[(1, 0, 9), (2, 5, 17)])


# -- one conversion to JSON --------------------------------------------------------------------


def test_json_safe_is_the_one_conversion_of_front_matter_and_json_lines():
    import datetime

    from chunkwise.export import dumps, jsonable
    from chunkwise.loaders import json_safe

    assert jsonable is json_safe
    value = {
        "when": datetime.datetime(2024, 1, 2, 3, 4),
        "nan": float("nan"),
        "inf": float("-inf"),
        "raw": b"\x00\xff",
        "set": {10, 9},
        "mixed": {1, "a"},
        (1, 2): "tuple key",
        "t": (1, None),
    }
    line = dumps(value)
    back = json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} is not strict JSON"))
    assert back == json_safe(value)
    assert back["nan"] == "nan" and back["inf"] == "-inf" and back["raw"] == "AP8="
    assert back["set"] == [9, 10] and back["t"] == [1, None] and back["[1, 2]"] == "tuple key"
    assert back["when"] == "2024-01-02T03:04:00"


def test_loading_a_folder_says_how_to_read_its_files(tmp_path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    with pytest.raises(chunkwise.errors.LoadError, match="a folder, not a file; .*find_files") as info:
        chunkwise.load(tmp_path)
    assert "\n" not in str(info.value)
    # what the message says works
    docs = [chunkwise.load(f) for f in chunkwise.loaders.find_files([tmp_path])]
    assert [d.text for d in docs] == ["# A\n"]
