"""Regressions found by a first trial on real documentation (Debian's /usr/share/doc):
XHTML with an XML declaration, parser failures as LoadError, encoding detection without
silent mojibake, unsupported files in ``inspect``, ids of standard input and ``--root``,
HTML rendering of Sphinx and texinfo pages, invalid front matter, and CLI details."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import LoadError, ParseError


def _rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


# -- 1. XHTML with an XML declaration; parser failures -------------------------------------

XHTML = (
    b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
    b'<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>Manual</title></head>'
    b"<body><h1>Caf\xe9</h1><p>Body text.</p></body></html>\n"
)


def test_xhtml_with_an_encoding_declaration_loads(tmp_path: Path) -> None:
    pytest.importorskip("lxml")
    p = tmp_path / "index.html"
    p.write_bytes(XHTML)
    doc = chunkwise.load(p)
    assert doc.metadata["title"] == "Manual"
    assert doc.metadata["encoding"] == "iso8859-1"  # the declaration's encoding
    assert doc.text == "# Café\n\nBody text.\n"
    # already-decoded text with the declaration parses too
    assert chunkwise.parse(XHTML.decode("latin-1"), format="html").text == doc.text


@pytest.mark.skipif(not Path("/usr/share/doc/libxslt1-dev/html/html/index.html").exists(), reason="no Debian doc")
def test_debian_xhtml_page_loads() -> None:
    pytest.importorskip("lxml")
    doc = chunkwise.load("/usr/share/doc/libxslt1-dev/html/html/index.html")
    assert doc.text.strip()


def test_a_parser_failure_is_a_load_error_with_a_fix(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("lxml")
    from chunkwise.parsers import html as html_parser

    def broken(text: str) -> tuple[str, dict]:
        raise ValueError("lxml said no")

    monkeypatch.setattr(html_parser, "html_to_markdown", broken)
    p = tmp_path / "page.html"
    p.write_text("<p>x</p>", encoding="utf-8")
    with pytest.raises(ParseError) as info:
        chunkwise.load(p)
    assert isinstance(info.value, LoadError)
    assert "page.html" in str(info.value) and "html" in str(info.value) and "lxml said no" in str(info.value)
    with pytest.raises(LoadError):
        chunkwise.parse("<p>x</p>", format="html")
    result = CliRunner().invoke(cli, ["chunk", "-u", "chars", str(p)])
    assert result.exit_code == 1
    assert "unparsable" in result.output and "fix:" in result.output


# -- 3. inspect on an unsupported file -----------------------------------------------------


def test_inspect_reports_an_unsupported_file(tmp_path: Path) -> None:
    p = tmp_path / "fake_doc.txt"
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    result = CliRunner().invoke(cli, ["inspect", str(p), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "ole2 (doc, xls, ppt, msg) is not a supported format" in result.output and "fix:" in result.output


# -- 4. ids: standard input by content, --root --------------------------------------------


def test_stdin_documents_get_content_ids() -> None:
    ids = []
    for text in ("one doc\n", "another doc\n", "one doc\n"):
        result = CliRunner().invoke(cli, ["chunk", "-u", "chars", "-"], input=text)
        assert result.exit_code == 0, result.output
        ids.append(_rows(result.stdout)[0]["document_id"])
    assert ids[0] != ids[1] and ids[0] == ids[2]
    assert chunkwise.parse(b"x", source="<stdin>").id != chunkwise.parse(b"y", source="<stdin>").id
    assert chunkwise.parse("x", source="notes/a.txt").id == chunkwise.parse("y", source="notes/a.txt").id


def test_root_gives_files_named_in_separate_runs_distinct_ids(tmp_path: Path) -> None:
    for pkg in ("libxml2", "git"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "README.md").write_text(f"# {pkg}\n\nAbout {pkg}.\n", encoding="utf-8")
    plain, rooted = [], []
    for pkg in ("libxml2", "git"):
        path = str(tmp_path / pkg / "README.md")
        plain.append(_rows(CliRunner().invoke(cli, ["chunk", path]).stdout)[0]["document_id"])
        result = CliRunner().invoke(cli, ["chunk", "--root", str(tmp_path), path])
        assert result.exit_code == 0, result.output
        row = _rows(result.stdout)[0]
        assert row["metadata"]["relative_path"] == f"{pkg}/README.md"
        rooted.append(row["document_id"])
        assert row["document_id"] == chunkwise.load(path, root=tmp_path).id
    assert plain[0] == plain[1]  # the file name alone: the same id
    assert rooted[0] != rooted[1]
    # the same ids when both are named in one run, or the folder is given
    both = _rows(CliRunner().invoke(cli, ["chunk", "--root", str(tmp_path), str(tmp_path)]).stdout)
    assert sorted({r["document_id"] for r in both}) == sorted(rooted)
    # stats and inspect take it too; a file outside the root is a usage error
    assert CliRunner().invoke(cli, ["stats", "--root", str(tmp_path), str(tmp_path / "git")]).exit_code == 0
    inspect = CliRunner().invoke(
        cli, ["inspect", "-s", "recursive", "--root", str(tmp_path), str(tmp_path / "git" / "README.md")]
    )
    assert inspect.exit_code == 0, inspect.output
    outside = CliRunner().invoke(cli, ["chunk", "--root", str(tmp_path / "git"), str(tmp_path / "libxml2" / "README.md")])
    assert outside.exit_code == 2 and "not inside root" in outside.output


# -- 2. encoding detection without silent mojibake ----------------------------------------

NEWS = (
    "dbus 1.14.10 (2023-09-01)\n=========================\n\n"
    "• Avoid a crash when the bus is shut down (Barnabás Pőcze)\n"
    "• Fix a leak — thanks to Simon McVittie, Ralf Habacker, Dāvis Mosāns\n"
) * 40


def test_utf8_with_one_bad_byte_stays_utf8_with_a_replacement(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    data = NEWS.encode("utf-8")
    i = data.index(b"\n", len(data) // 2)
    p = tmp_path / "NEWS.txt"
    p.write_bytes(data[:i] + b"\xff" + data[i:])
    with caplog.at_level(logging.WARNING, logger="chunkwise"):
        doc = chunkwise.load(p)
    assert doc.metadata["encoding"] == "utf-8" and doc.metadata["decoding_errors"] == 1
    assert doc.text.count("\ufffd") == 1 and doc.text.replace("\ufffd", "") == NEWS
    assert "Barnabás Pőcze" in doc.text
    assert any("NEWS.txt" in r.getMessage() and "U+FFFD" in r.getMessage() for r in caplog.records)
    # a few valid characters and a run of bad bytes: still UTF-8
    doc = chunkwise.parse(b"Valid utf8 then bad \xff\xfe bytes: caf\xc3\xa9 ", format="text")
    assert doc.text == "Valid utf8 then bad \ufffd\ufffd bytes: café " and doc.metadata["decoding_errors"] == 2
    assert "decoding_errors" not in chunkwise.parse("café".encode(), format="text").metadata


@pytest.mark.parametrize(
    ("data", "text", "encoding"),
    [
        (b"Na\xefve\n", "Naïve\n", "cp1252"),
        (b"\xa9 2024 M\xfcller", "© 2024 Müller", "cp1252"),
        (b"\xa9 2024 M\xfcller GmbH. Alle Rechte vorbehalten.\n", "© 2024 Müller GmbH. Alle Rechte vorbehalten.\n", "cp1252"),
        (b"Resum\xe9 of the project, version 2.\n", "Resumé of the project, version 2.\n", "cp1252"),
        (b"Stra\xdfe\n", "Straße\n", "cp1252"),
        ("Привет мир".encode("cp1251"), "Привет мир", "cp1251"),
        ("Zażółć gęślą jaźń".encode("cp1250"), "Zażółć gęślą jaźń", "cp1250"),
        ("Ελληνικά κείμενο".encode("cp1253"), "Ελληνικά κείμενο", "cp1253"),
        ("Türkçe doğru şimdi".encode("cp1254"), "Türkçe doğru şimdi", "cp1254"),
        ("こんにちは世界、日本語のテキストです。".encode("shift_jis"), "こんにちは世界、日本語のテキストです。", "shift_jis"),
        ("用Python编程很有趣。".encode("gbk"), "用Python编程很有趣。", "gb18030"),
    ],
)
def test_short_legacy_text_prefers_common_plausible_code_pages(data: bytes, text: str, encoding: str) -> None:
    pytest.importorskip("charset_normalizer")
    assert chunkwise.loaders.decode(data) == (text, encoding)


def test_implausible_text_is_recognised() -> None:
    from chunkwise.loaders.decoding import implausible

    assert implausible("Naïve café, crème brûlée — « déjà vu ». l’été") == 0
    assert implausible("Naﺅve") and implausible("Ïðèâåò ìèð") and implausible("Za¿ó³æ gêœl¹")
    assert implausible("ЕллзнйкЬ") and implausible("╧ЁштхҐ") and implausible("doðru üç")


# -- 5. HTML: permalinks, stray escapes, texinfo navigation, body lang --------------------


def test_sphinx_permalinks_stay_out_of_headings_and_breadcrumbs() -> None:
    pytest.importorskip("lxml")
    page = (
        '<html><body><div class="related"><ul><li><a href="index.html">index</a></li></ul></div>'
        '<h1>Contents<a class="headerlink" href="#contents" title="Permalink to this heading">¶</a></h1>'
        '<h2>1. Copyright<a class="headerlink" href="#copyright">¶</a></h2><p>Text.</p>'
        '<h2>2. Node<span><a class="mark" href="#node" id="node">#</a></span></h2><p>More.</p></body></html>'
    )
    doc = chunkwise.parse(page, format="html")
    assert "¶" not in doc.text and "index" not in doc.text
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=200)
    assert [c.metadata["header_path"] for c in chunks] == [["Contents", "1. Copyright"], ["Contents", "2. Node"]]
    assert chunks[0].context == "Contents > 1. Copyright"


def test_a_line_starting_with_inline_code_is_not_escaped() -> None:
    pytest.importorskip("lxml")
    doc = chunkwise.parse(
        "<p><code>libffi</code> assumes a pointer.</p><p>*emphasis* first</p><p># not a heading</p>"
        "<p>- not a list</p><p>```</p><p>2) no list</p><p>#hashtag</p>",
        format="html",
    )
    assert doc.text == (
        "`libffi` assumes a pointer.\n\n*emphasis* first\n\n\\# not a heading\n\n\\- not a list\n\n"
        "\\```\n\n2\\) no list\n\n#hashtag\n"
    )


def test_texinfo_navigation_is_left_out() -> None:
    pytest.importorskip("lxml")
    nav = (
        '<div class="header"><p>Next: <a href="b.html" rel="next">Type Example</a>, Previous: '
        '<a href="a.html" rel="prev">Size</a>, Up: <a href="t.html" rel="up">Types</a> &nbsp; '
        '[<a href="Index.html" rel="index">Index</a>]</p></div><hr>'
    )
    page = (
        f'<html><body lang="en">{nav}<h4 class="subsection">2.3.4 Arrays</h4><p><code>libffi</code> has no arrays.</p>'
        f'<hr>{nav}<div class="nav-panel"><p>Next: x</p></div>'
        '<div class="header"><h1>A real header</h1></div></body></html>'
    )
    doc = chunkwise.parse(page, format="html")
    assert doc.text == "#### 2.3.4 Arrays\n\n`libffi` has no arrays.\n\n---\n\n# A real header\n"
    assert doc.metadata["language"] == "en"
    meta = chunkwise.parse('<html><head><meta http-equiv="Content-Language" content="de"></head><p>x</p></html>', format="html")
    assert meta.metadata["language"] == "de"


@pytest.mark.skipif(not Path("/usr/share/doc/python3/python-policy.html").exists(), reason="no Debian doc")
def test_debian_sphinx_page_has_clean_header_paths() -> None:
    pytest.importorskip("lxml")
    doc = chunkwise.load("/usr/share/doc/python3/python-policy.html")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=512)
    assert all("¶" not in part for c in chunks for part in c.metadata["header_path"])


# -- 6. invalid YAML front matter -----------------------------------------------------------


def test_invalid_front_matter_stays_front_matter_with_its_error(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("yaml")
    pytest.importorskip("markdown_it")
    text = "---\ntitle: [unclosed\n---\n\n# H\n\nBody."
    with caplog.at_level(logging.WARNING, logger="chunkwise"):
        doc = chunkwise.parse(text, format="markdown", source="fm.md")
    assert "front_matter" not in doc.metadata
    assert doc.metadata["front_matter_error"].startswith("invalid YAML at line 3")
    assert any("fm.md" in r.getMessage() and "front matter" in r.getMessage() for r in caplog.records)
    for source in (doc, text):  # the loaded document, and the bare string
        chunks = chunkwise.chunk(source, strategy="markdown", chunk_size=50, unit="words")
        assert [c.text for c in chunks] == ["---\ntitle: [unclosed\n---", "# H\n\nBody."]
        assert chunks[0].metadata["is_front_matter"] and chunks[1].metadata["header_path"] == ["H"]
    # a --- block whose first line is not key: stays Markdown (a rule, a setext heading)
    plain = chunkwise.chunk("---\nnot yaml [\n---\n\n# H\n", strategy="markdown", chunk_size=50, unit="words")
    assert not any(c.metadata.get("is_front_matter") for c in plain)
    assert "front_matter_error" not in chunkwise.parse("---\nnot yaml [\n---\n", format="markdown").metadata
    # valid front matter unchanged
    good = chunkwise.parse("---\ntitle: T\n---\n# H\n", format="markdown")
    assert good.metadata["title"] == "T" and "front_matter_error" not in good.metadata


# -- 7. CLI details ---------------------------------------------------------------------------

ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256))


def test_the_skip_hint_for_one_bad_file_of_a_good_suffix_names_that_file(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "a.txt").write_text("Good text.\n", encoding="utf-8")
    (docs / "sub" / "data.txt").write_bytes(ELF)
    (docs / "scan.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    result = CliRunner().invoke(cli, ["chunk", "-u", "chars", str(docs)])
    assert result.exit_code == 1
    assert "--exclude 'sub/data.txt'" in result.output and "--exclude '*.txt'" not in result.output
    assert "--exclude '*.doc'" in result.output
    again = CliRunner().invoke(cli, ["chunk", "-u", "chars", str(docs), "--exclude", "sub/data.txt", "--exclude", "*.doc"])
    assert again.exit_code == 0 and "Good text." in again.stdout


def test_encoding_help_says_the_default_is_detection() -> None:
    for command in ("chunk", "stats", "inspect"):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert "[default: UTF-8]" not in text and "default: detected" in text


def test_a_run_where_every_input_fails_keeps_the_previous_output(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(ELF)
    out = tmp_path / "chunks.jsonl"
    out.write_text('{"old": true}\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["chunk", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8") == '{"old": true}\n'
    assert "left as it was" in result.output
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_output_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("Text.\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["chunk", str(src), "-o", str(tmp_path / "missing" / "out.jsonl")])
    assert result.exit_code == 2 and "missing" in result.output and "does not exist" in result.output
    assert not (tmp_path / "missing").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(os, "symlink"), reason="POSIX links and pipes")
def test_links_and_special_files_in_folders(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "a.txt").write_text("Plain text.\n", encoding="utf-8")
    (docs / "sub" / "g.md").write_text("# Guide\n\nLinked.\n", encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "o.txt").write_text("Other text.\n", encoding="utf-8")
    os.symlink(other, docs / "linked")  # a folder outside, reached through a link
    os.symlink("..", docs / "sub" / "loop")  # a cycle
    os.symlink(tmp_path / "nowhere.md", docs / "dangling.md")
    os.mkfifo(docs / "pipe.txt")
    skipped: list = []
    found = list(chunkwise.loaders.find_files([docs], skipped=skipped))
    assert [f.relative for f in found] == ["a.txt", "linked/o.txt", "sub/g.md"]
    reasons = {s.relative: s.reason for s in skipped}
    assert reasons["dangling.md"].startswith("dangling symbolic link")
    assert reasons["pipe.txt"] == "not a regular file (a named pipe)"
    result = CliRunner().invoke(cli, ["chunk", "-u", "chars", str(docs)])
    assert result.exit_code == 1
    assert "dangling.md (unreadable)" in result.output and "pipe.txt (unsupported)" in result.output
    assert {r["metadata"]["relative_path"] for r in _rows(result.stdout)} == {"a.txt", "linked/o.txt", "sub/g.md"}


def test_find_files_fills_skipped_as_it_runs(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "b.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    skipped: list = []
    files = chunkwise.loaders.find_files([tmp_path], skipped=skipped)
    assert skipped == []  # a generator: nothing happens before the iteration
    assert [f.relative for f in files] == ["a.md"] and [s.relative for s in skipped] == ["b.doc"]
    assert "lazily" in (chunkwise.loaders.find_files.__doc__ or "")
