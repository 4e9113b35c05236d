"""bzip2 and xz compressed documents: NAME.EXT.bz2 and NAME.EXT.xz decompressed and read as
NAME.EXT, with the protections of .gz (a size limit, clear errors, a batch that goes on)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.errors import LoadError, UnsupportedFormatError
from chunkwise.loaders import compressed, find_files, load
from chunkwise.loaders.base import FileFormatError
from chunkwise.types import document_id_for_path

MARKDOWN = b"---\ntitle: Field notes\n---\n# Birds\n\nTwo herons by the lake.\n\n## Plants\n\nReeds, mostly.\n"
CHANGELOG = b"tool (2.1) stable; urgency=low\n\n  * Fix the reader.\n\n -- C D <c@d>  Tue, 2 Jan 2024 10:00:00 +0000\n"
COMPRESS = {".bz2": bz2.compress, ".xz": lzma.compress}
FORMAT = {".bz2": "bzip2", ".xz": "xz"}
BOTH = pytest.mark.parametrize("suffix", [".bz2", ".xz"])


def write(path: Path, data: bytes, suffix: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(COMPRESS[suffix or path.suffix](data))
    return path


@BOTH
def test_a_compressed_markdown_file_reads_as_markdown(tmp_path, suffix):
    plain = tmp_path / "plain" / "notes.md"
    plain.parent.mkdir()
    plain.write_bytes(MARKDOWN)
    doc = load(write(tmp_path / f"notes.md{suffix}", MARKDOWN))
    assert doc.text == load(plain).text == MARKDOWN.decode()
    assert doc.metadata["format"] == "markdown" and doc.metadata["title"] == "Field notes"
    assert doc.metadata["compression"] == FORMAT[suffix]
    assert doc.metadata["filename"] == f"notes.md{suffix}" and doc.source == (tmp_path / f"notes.md{suffix}").as_posix()
    assert doc.id == document_id_for_path(f"notes.md{suffix}")


@BOTH
def test_ids_derive_from_the_compressed_files_path(tmp_path, suffix):
    write(tmp_path / "docs" / f"a.txt{suffix}", b"Hello.\n")
    (tmp_path / "docs" / "a.txt.gz").write_bytes(gzip.compress(b"Hello.\n"))
    ids = {load(tmp_path / "docs" / f"a.txt{suffix}", root=tmp_path).id}
    assert ids == {document_id_for_path(f"docs/a.txt{suffix}")}
    found = {f.relative: f.id for f in find_files([tmp_path / "docs"])}
    assert found == {
        f"a.txt{suffix}": document_id_for_path(f"a.txt{suffix}"), "a.txt.gz": document_id_for_path("a.txt.gz")
    }


@BOTH
@pytest.mark.parametrize("stem", ["NEWS", "changelog", "changelog.Debian", "COPYING"])
def test_names_without_a_known_inner_suffix_read_as_text(tmp_path, suffix, stem):
    path = write(tmp_path / f"{stem}{suffix.upper() if stem == 'COPYING' else suffix}", CHANGELOG, suffix)
    doc = load(path)
    assert doc.metadata["format"] == "text" and doc.text == CHANGELOG.decode()


@BOTH
def test_code_keeps_its_language(tmp_path, suffix):
    doc = load(write(tmp_path / f"tool.py{suffix}", b"def f():\n    return 1\n"))
    assert doc.metadata["format"] == "code" and doc.metadata["language"] == "python"


@BOTH
def test_the_decompressed_size_is_limited_by_the_module_constant(tmp_path, monkeypatch, suffix):
    data = b"word " * 1000
    path = write(tmp_path / f"bomb.txt{suffix}", data)
    fmt = FORMAT[suffix]
    assert compressed.decompress(COMPRESS[suffix](data), format=fmt, limit=len(data)) == data
    with pytest.raises(FileFormatError) as err:
        compressed.decompress(COMPRESS[suffix](data), f"bomb.txt{suffix}", limit=len(data) - 1, format=fmt)
    assert err.value.kind == "oversize" and f"bomb.txt{suffix}" in str(err.value)
    monkeypatch.setattr(compressed, "MAX_DECOMPRESSED_BYTES", 4096)
    with pytest.raises(LoadError, match=rf"bomb\.txt\{suffix}: decompresses to more than 4096 bytes"):
        load(path)
    monkeypatch.undo()
    assert compressed.MAX_DECOMPRESSED_BYTES == 256 * 1024 * 1024
    assert load(path).text == data.decode()


@BOTH
def test_a_bomb_stops_near_the_limit(monkeypatch, suffix):
    bomb = COMPRESS[suffix](b"\0" * (8 * 1024 * 1024))  # 8 MiB of zeros in a few KiB
    assert len(bomb) < 64 * 1024
    monkeypatch.setattr(compressed, "_STEP", 4096)
    got: list[int] = []
    real = compressed._unstream

    def spy(data, name, limit, parts, format):
        try:
            return real(data, name, limit, parts, format)
        finally:
            got.append(sum(map(len, parts)))

    monkeypatch.setattr(compressed, "_unstream", spy)
    with pytest.raises(FileFormatError) as err:
        compressed.decompress(bomb, "bomb", limit=10_000, format=FORMAT[suffix])
    assert err.value.kind == "oversize" and got == [10_001]


@BOTH
@pytest.mark.parametrize(
    "make, kind, words",
    [
        (lambda d: d[: len(d) // 2], "damaged", "truncated {fmt} data"),
        (lambda d: d[:40] + bytes(b ^ 0x55 for b in d[40:60]) + d[60:], "damaged", "damaged {fmt} data"),
        (lambda d: d + b"junk after the stream", "damaged", "bytes that are not {fmt} after byte"),
        (lambda d: b"plain text named as compressed\n", "wrong format", "not {fmt} data"),
        (lambda d: b"", "empty", "empty file"),
    ],
)
def test_a_bad_file_is_an_error_naming_the_file(tmp_path, suffix, make, kind, words):
    path = tmp_path / f"bad.md{suffix}"
    path.write_bytes(make(COMPRESS[suffix](MARKDOWN * 50)))
    with pytest.raises(FileFormatError) as err:
        load(path)
    assert err.value.kind == kind and words.format(fmt=FORMAT[suffix]) in str(err.value)
    assert str(path) in str(err.value) and isinstance(err.value, LoadError)


@BOTH
def test_concatenated_streams_and_small_steps_give_every_byte(monkeypatch, suffix):
    import random

    rng = random.Random(1)
    texts = [b"", b"a", b"ab" * 50, bytes(rng.randrange(256) for _ in range(3000)), b"word " * 4000]
    fmt = FORMAT[suffix]
    for step in (1, 7, 4096):
        monkeypatch.setattr(compressed, "_STEP", step)
        for text in texts:
            data, whole = COMPRESS[suffix](text) + COMPRESS[suffix](text[:100]), text + text[:100]
            assert compressed.decompress(data, format=fmt) == whole
            assert compressed.decompress(data, limit=len(whole), format=fmt) == whole
            if text:
                with pytest.raises(FileFormatError, match="more than"):
                    compressed.decompress(data, limit=len(whole) - 1, format=fmt)
            with pytest.raises(FileFormatError, match="truncated"):
                compressed.decompress(COMPRESS[suffix](text)[:-5], format=fmt)
    assert compressed.decompress(lzma.compress(b"x") + b"\0" * 8, format="xz") == b"x"  # stream padding


def test_names_and_magic():
    assert [compressed.is_compressed_name(n) for n in ("a.md.xz", "A.BZ2", "b.gz", ".xz", "a.zip", "a.xz.txt")] == [
        True, True, True, False, False, False,
    ]
    assert compressed.is_gzip_name("a.gz") and not compressed.is_gzip_name("a.xz")
    assert compressed.inner_name("doc/notes.md.bz2") == "doc/notes.md" and compressed.inner_name("x.xz") == "x"
    assert compressed.compression_of(bz2.compress(b"")) == "bzip2"
    assert compressed.compression_of(b"BZh9 is text") is None and compressed.compression_of(b"plain") is None
    assert compressed.peek(lzma.compress(b"hello"), 3, "xz") == b"hel" and compressed.peek(b"hello", 3, "xz") is None
    with pytest.raises(ValueError, match="format"):
        compressed.decompress(b"x", format="zstd")


def _tar(data: bytes = b"abc") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("a.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


ARCHIVES = {
    "src.tar.bz2": "tar archive (bzip2-compressed) is not a supported format",
    "src.tar.xz": "tar archive (xz-compressed) is not a supported format",
    "noname.xz": "tar archive (xz-compressed) is not a supported format",  # told by its ustar mark
    "src.tbz2": "bzip2 is not a supported format",
    "src.txz": "xz is not a supported format",
    "twice.txt.gz.xz": "gzip inside xz is not a supported format",
    "twice.txt.xz.bz2": "xz inside bzip2 is not a supported format",
}


def _archives(folder: Path) -> Path:
    write(folder / "src.tar.bz2", _tar())
    write(folder / "src.tar.xz", _tar())
    (folder / "src.tbz2").write_bytes(bz2.compress(_tar()))
    (folder / "src.txz").write_bytes(lzma.compress(_tar()))
    write(folder / "noname.xz", _tar())
    write(folder / "twice.txt.gz.xz", gzip.compress(b"Hello.\n"))
    write(folder / "twice.txt.xz.bz2", lzma.compress(b"Hello.\n"))
    return folder


def test_archives_and_nested_compression_are_not_read(tmp_path):
    folder = _archives(tmp_path)
    for name, reason in ARCHIVES.items():
        with pytest.raises(UnsupportedFormatError) as err:
            load(folder / name)
        assert str(err.value).startswith(f"{(folder / name).as_posix()}: {reason}")
    with pytest.raises(UnsupportedFormatError, match=r"src\.tar\.xz: tar archive \(xz-compressed\).*extract it"):
        load(folder / "src.tar.xz")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_batch_reports_archives_and_goes_on(tmp_path, workers):
    folder = _archives(tmp_path / "in")
    write(folder / "ok.txt.xz", b"Fine.\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(folder), "--workers", workers, "-o", str(out)])
    assert result.exit_code == 1, result.output
    for name, reason in ARCHIVES.items():
        assert f"{(folder / name).as_posix()}: {reason}" in result.stderr
    assert [r["text"] for r in _records(out)] == ["Fine."]


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_cli_reads_a_folder_with_good_and_corrupt_bz2_and_xz_files(tmp_path, workers):
    folder = tmp_path / "doc"
    write(folder / "pkg" / "notes.md.xz", MARKDOWN * 3)
    write(folder / "pkg" / "changelog.bz2", CHANGELOG * 5)
    (folder / "pkg" / "NEWS.xz").write_bytes(lzma.compress(CHANGELOG * 4)[:40])  # truncated
    (folder / "pkg" / "src.tar.bz2").write_bytes(bz2.compress(_tar()))
    (folder / "pkg" / "copyright").write_bytes(b"Copyright 2024 C D.\n\nLicense: MIT.\n")
    out = tmp_path / "out.jsonl"
    args = ["chunk", str(folder), "-u", "chars", "-n", "60", "--workers", workers, "-o", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert f"skipped {(folder / 'pkg' / 'NEWS.xz').as_posix()}: truncated xz data" in result.stderr
    assert "tar archive (bzip2-compressed) is not a supported format" in result.stderr
    by_source: dict[str, list[dict]] = {}
    for r in _records(out):
        by_source.setdefault(Path(r["source"]).name, []).append(r)
    assert sorted(by_source) == ["changelog.bz2", "copyright", "notes.md.xz"]
    for name, rs in by_source.items():
        raw = next(folder.rglob(name)).read_bytes()
        text = {".xz": lzma.decompress, ".bz2": bz2.decompress}.get(Path(name).suffix, bytes)(raw).decode()
        assert [r["text"] for r in rs] == [text[r["start_index"] : r["end_index"]] for r in rs]
        assert " ".join(r["text"] for r in rs).split() == text.split()
        assert {r["metadata"].get("compression") for r in rs} == {FORMAT.get(Path(name).suffix)}
        assert {r["document_id"] for r in rs} == {document_id_for_path(f"pkg/{name}")}
    assert by_source["notes.md.xz"][0]["metadata"]["format"] == "markdown"
    assert by_source["notes.md.xz"][1]["metadata"]["header_path"]


@BOTH
def test_chunks_of_a_compressed_document_slice_its_text(tmp_path, suffix):
    doc = chunkwise.load(write(tmp_path / f"guide.md{suffix}", MARKDOWN * 20))
    chunks = chunkwise.make_chunker("markdown", chunk_size=80, unit="chars").chunk(doc)
    assert len(chunks) > 5 and all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
    assert all(c.metadata["compression"] == FORMAT[suffix] for c in chunks)


@BOTH
def test_folder_scans_choose_files_by_their_inner_suffix(tmp_path, suffix):
    write(tmp_path / f"a.md{suffix}", MARKDOWN)
    write(tmp_path / f"b.txt{suffix}", b"B.\n")
    found = {f.relative: f.format for f in find_files([tmp_path])}
    assert found == {f"a.md{suffix}": "markdown", f"b.txt{suffix}": "text"}
    assert [f.relative for f in find_files([tmp_path], suffixes=[".md"])] == [f"a.md{suffix}"]


@BOTH
def test_format_names_the_decompressed_files_format_and_bytes_are_told_by_their_magic(tmp_path, suffix):
    path = write(tmp_path / f"notes.txt{suffix}", MARKDOWN)
    assert load(path).metadata["format"] == "text"
    assert load(path, format="markdown").metadata["format"] == "markdown"
    doc = load(COMPRESS[suffix](b"# Title\n\nBody.\n"))
    assert doc.text == "# Title\n\nBody.\n" and doc.metadata["compression"] == FORMAT[suffix]


def test_folder_scans_skip_archives_before_reading_them(tmp_path):
    skipped: list = []
    assert [f.relative for f in find_files([_archives(tmp_path)], skipped=skipped)] == []
    assert {s.relative: s.reason for s in skipped} == ARCHIVES
