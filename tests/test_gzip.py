"""gzip-compressed documents: NAME.EXT.gz decompressed and read as NAME.EXT."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import ConfigError, LoadError, UnsupportedFormatError
from chunkwise.loaders import compressed, find_files, load, parse
from chunkwise.loaders.base import FileFormatError
from chunkwise.types import document_id_for_path

MARKDOWN = b"---\ntitle: Guide\n---\n# Install\n\nRun the installer.\n\n## Use\n\nRead the manual.\n"
CHANGELOG = (
    b"pkg (1.0-1) unstable; urgency=medium\n\n  * Initial release.\n\n -- A B <a@b>  Mon, 1 Jan 2024 00:00:00 +0000\n"
)
TROFF = b'.TH LS 1 "2024" "GNU" "User Commands"\n.SH NAME\nls \\- list directory contents\n.SH SYNOPSIS\n.B ls\n'


def write(path: Path, data: bytes, *, compress: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data, mtime=0) if compress else data)
    return path


def test_a_compressed_markdown_file_reads_as_markdown(tmp_path):
    plain = load(write(tmp_path / "plain" / "README.md", MARKDOWN, compress=False))
    doc = load(write(tmp_path / "README.md.gz", MARKDOWN))
    assert doc.text == plain.text == MARKDOWN.decode()
    assert doc.metadata["format"] == "markdown" and doc.metadata["title"] == "Guide"
    assert doc.metadata["compression"] == "gzip" and "compression" not in plain.metadata
    assert doc.metadata["filename"] == "README.md.gz" and doc.source == (tmp_path / "README.md.gz").as_posix()
    assert doc.id == document_id_for_path("README.md.gz")


def test_the_id_does_not_depend_on_how_the_path_is_typed(tmp_path, monkeypatch):
    write(tmp_path / "docs" / "a.txt.gz", b"Hello.\n")
    monkeypatch.chdir(tmp_path)
    ids = {load(p).id for p in ("docs/a.txt.gz", tmp_path / "docs" / "a.txt.gz", "docs/../docs/a.txt.gz")}
    assert ids == {document_id_for_path("a.txt.gz")}
    found = {f.id for f in find_files(["docs"])} | {f.id for f in find_files([tmp_path / "docs"])}
    assert found == {document_id_for_path("a.txt.gz")}


@pytest.mark.parametrize("name", ["changelog.gz", "NEWS.gz", "changelog.Debian.gz", "copyright.txt.GZ"])
def test_names_without_a_known_inner_suffix_read_as_text(tmp_path, name):
    doc = load(write(tmp_path / name, CHANGELOG))
    assert doc.metadata["format"] == "text" and doc.text == CHANGELOG.decode()


def test_html_and_code_go_to_their_loaders(tmp_path):
    pytest.importorskip("lxml")
    page = load(write(tmp_path / "index.html.gz", b"<html><title>T</title><h1>Hi</h1><p>Text.</p></html>"))
    assert page.metadata["format"] == "html" and page.text == "# Hi\n\nText.\n" and page.metadata["title"] == "T"
    code = load(write(tmp_path / "tool.py.gz", b"def f():\n    return 1\n"))
    assert code.metadata["format"] == "code" and code.metadata["language"] == "python"


def test_a_man_page_reads_as_text_as_its_uncompressed_file_would(tmp_path):
    write(tmp_path / "ls.1", TROFF, compress=False)
    write(tmp_path / "ls.1.gz", TROFF)
    found = {f.relative: f.format for f in find_files([tmp_path])}
    assert found == {"ls.1": "text", "ls.1.gz": "text"}
    assert load(tmp_path / "ls.1.gz").text == load(tmp_path / "ls.1").text


def test_format_names_the_decompressed_files_format(tmp_path):
    path = write(tmp_path / "notes.txt.gz", MARKDOWN)
    assert load(path).metadata["format"] == "text"
    assert load(path, format="markdown").metadata["format"] == "markdown"
    assert load(path, format="gzip").metadata["format"] == "text"


def test_gzip_bytes_without_a_name(tmp_path):
    data = gzip.compress(b"# Title\n\nBody.\n")
    assert load(data).text == "# Title\n\nBody.\n" and load(data).metadata["compression"] == "gzip"
    assert parse(data).text == "# Title\n\nBody.\n"  # text is the default, not a claim
    assert parse(data, "gzip").metadata["format"] == "text"
    with pytest.raises(ConfigError, match="binary"):
        parse("not bytes", "gzip")


def test_loader_options_pass_through_or_fail_as_for_the_plain_file(tmp_path):
    path = write(tmp_path / "a.txt.gz", b"Hello.\n")
    assert load(path, password="x").text == "Hello.\n"  # a PDF option: ignored by text, as for a.txt
    with pytest.raises(ConfigError, match="bogus"):
        load(path, bogus=1)


def test_the_decompressed_size_is_limited(tmp_path, monkeypatch):
    data = b"word " * 1000
    path = write(tmp_path / "bomb.txt.gz", data)
    assert compressed.decompress(gzip.compress(data), limit=len(data)) == data
    with pytest.raises(FileFormatError) as err:
        compressed.decompress(gzip.compress(data), "bomb.txt.gz", limit=len(data) - 1)
    assert err.value.kind == "oversize" and "bomb.txt.gz" in str(err.value)
    monkeypatch.setattr(compressed, "MAX_DECOMPRESSED_BYTES", 4096)
    with pytest.raises(LoadError, match=r"bomb\.txt\.gz: decompresses to more than 4096 bytes"):
        load(path)
    assert compressed.MAX_DECOMPRESSED_BYTES < len(data)
    monkeypatch.undo()
    assert compressed.MAX_DECOMPRESSED_BYTES == 256 * 1024 * 1024
    assert load(path).text == data.decode()


@pytest.mark.parametrize(
    "make, kind, words",
    [
        (lambda d: d[: len(d) // 2], "damaged", "truncated gzip data"),
        (lambda d: d[:-8] + bytes(b ^ 0xFF for b in d[-8:-4]) + d[-4:], "damaged", "damaged gzip data"),
        (lambda d: b"plain text named .gz\n", "wrong format", "not gzip data"),
        (lambda d: b"", "empty", "empty file"),
    ],
)
def test_a_bad_gz_is_an_error_naming_the_file(tmp_path, make, kind, words):
    good = gzip.compress(MARKDOWN * 50)
    path = tmp_path / "bad.md.gz"
    path.write_bytes(make(good))
    with pytest.raises(FileFormatError) as err:
        load(path)
    assert err.value.kind == kind and words in str(err.value) and str(path) in str(err.value)
    assert isinstance(err.value, LoadError)


def test_archives_and_nested_gzip_are_not_read(tmp_path):
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("a.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"abc"))
    write(tmp_path / "src.tar.gz", buf.getvalue())
    (tmp_path / "src.tgz").write_bytes(gzip.compress(buf.getvalue()))
    write(tmp_path / "twice.txt.gz.gz", gzip.compress(b"Hello.\n"))
    skipped: list = []
    assert [f.relative for f in find_files([tmp_path], skipped=skipped)] == []
    reasons = {s.relative: s.reason for s in skipped}
    assert reasons == {
        "src.tar.gz": "binary data (gzip-compressed) is not a supported format",
        "src.tgz": "gzip is not a supported format",
        "twice.txt.gz.gz": "gzip inside gzip is not a supported format",
    }
    with pytest.raises(UnsupportedFormatError, match="twice.txt.gz.gz"):
        load(tmp_path / "twice.txt.gz.gz")


def test_folder_scans_choose_gz_files_by_their_inner_suffix(tmp_path):
    write(tmp_path / "a.md.gz", MARKDOWN)
    write(tmp_path / "b.txt.gz", b"B.\n")
    write(tmp_path / "c.md", MARKDOWN, compress=False)
    found = {f.relative: f.format for f in find_files([tmp_path])}
    assert found == {"a.md.gz": "markdown", "b.txt.gz": "text", "c.md": "markdown"}
    skipped: list = []
    md = [f.relative for f in find_files([tmp_path], suffixes=[".md"], skipped=skipped)]
    assert md == ["a.md.gz", "c.md"] and [s.relative for s in skipped] == ["b.txt.gz"]
    assert [f.relative for f in find_files([tmp_path], include=["*.md.gz"])] == ["a.md.gz"]


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_cli_reads_a_folder_with_good_and_corrupt_gz_files(tmp_path, workers):
    folder = tmp_path / "doc"
    write(folder / "pkg" / "README.md.gz", MARKDOWN * 3)
    write(folder / "pkg" / "changelog.Debian.gz", CHANGELOG * 5)
    (folder / "pkg" / "NEWS.gz").write_bytes(gzip.compress(CHANGELOG * 4)[:40])  # truncated
    (folder / "pkg" / "copyright").write_bytes(b"Copyright 2024 A B.\n\nLicense: MIT.\n")
    out = tmp_path / "out.jsonl"
    args = ["chunk", str(folder), "-u", "chars", "-n", "60", "--workers", workers, "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert f"skipped {(folder / 'pkg' / 'NEWS.gz').as_posix()}: truncated gzip data" in result.stderr
    assert "skipped 1 file: 1 damaged" in result.stderr
    records = _records(out)
    by_source = {}
    for r in records:
        by_source.setdefault(Path(r["source"]).name, []).append(r)
    assert sorted(by_source) == ["README.md.gz", "changelog.Debian.gz", "copyright"]
    for name, rs in by_source.items():
        path = next(folder.rglob(name))
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if name.endswith(".gz") else raw).decode()
        assert [r["text"] for r in rs] == [text[r["start_index"] : r["end_index"]] for r in rs]
        assert " ".join(text[r["start_index"] : r["end_index"]] for r in rs).split() == text.split()
        assert {r["metadata"].get("compression") for r in rs} == ({"gzip"} if name.endswith(".gz") else {None})
        assert {r["document_id"] for r in rs} == {document_id_for_path(f"pkg/{name}")}
    assert by_source["README.md.gz"][0]["metadata"]["format"] == "markdown"
    assert by_source["README.md.gz"][1]["metadata"]["header_path"]
    # the plain file's lines are those of a folder without the .gz files
    alone = tmp_path / "alone"
    (alone / "pkg").mkdir(parents=True)
    (alone / "pkg" / "copyright").write_bytes((folder / "pkg" / "copyright").read_bytes())
    out2 = tmp_path / "alone.jsonl"
    assert CliRunner().invoke(cli, ["chunk", str(alone), *args[2:-1], str(out2)]).exit_code == 0
    lines = [line.replace(folder.as_posix(), "X") for line in out.read_text(encoding="utf-8").splitlines()]
    alone_lines = [line.replace(alone.as_posix(), "X") for line in out2.read_text(encoding="utf-8").splitlines()]
    assert len(alone_lines) == len(by_source["copyright"]) and set(alone_lines) <= set(lines)


def test_cli_reads_gzip_from_standard_input():
    result = CliRunner().invoke(cli, ["chunk", "-", "-u", "chars", "-n", "100"], input=gzip.compress(b"Hello there.\n"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["text"] == "Hello there."


def test_chunks_of_a_gz_document_slice_its_text(tmp_path):
    doc = chunkwise.load(write(tmp_path / "guide.md.gz", MARKDOWN * 20))
    chunks = chunkwise.make_chunker("markdown", chunk_size=80, unit="chars").chunk(doc)
    assert len(chunks) > 5
    assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
    assert all(c.metadata["compression"] == "gzip" and c.metadata["filename"] == "guide.md.gz" for c in chunks)
    assert os.fspath(doc.source).endswith("guide.md.gz")


def test_members_padding_and_trailing_bytes(tmp_path):
    two = gzip.compress(b"one\n") + gzip.compress(b"two\n")
    assert compressed.decompress(two) == gzip.decompress(two) == b"one\ntwo\n"
    assert compressed.decompress(two + b"\0" * 16) == b"one\ntwo\n"  # zero padding, as gzip -d allows
    path = tmp_path / "tail.txt.gz"
    path.write_bytes(two + b"junk")
    with pytest.raises(FileFormatError, match=r"tail\.txt\.gz: damaged gzip data \(bytes that are not gzip") as err:
        load(path)
    assert err.value.kind == "damaged"
    with pytest.raises(FileFormatError) as over:  # the limit counts every member
        compressed.decompress(two, limit=6)
    assert over.value.kind == "oversize"


def test_decompression_in_small_steps_gives_every_byte(monkeypatch):
    import random

    rng = random.Random(0)
    texts = [b"", b"a", b"ab" * 50, bytes(rng.randrange(256) for _ in range(3000)), b"word " * 4000]
    for step in (1, 7, 64, 4096):
        monkeypatch.setattr(compressed, "_STEP", step)
        for text in texts:
            data, whole = gzip.compress(text) + gzip.compress(text[:100]), text + text[:100]
            assert compressed.decompress(data) == whole
            assert compressed.decompress(data, limit=len(whole)) == whole
            if text:
                with pytest.raises(FileFormatError, match="more than"):
                    compressed.decompress(data, limit=len(whole) - 1)
            with pytest.raises(FileFormatError, match="truncated"):
                compressed.decompress(gzip.compress(text)[:-5])
