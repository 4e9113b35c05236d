"""Formats that look like text but are not prose are told by their magic bytes and skipped
with a reason (PostScript, EPS, DVI, a printer job), whatever the file's name."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import chunkwise
from chunkwise.errors import UnsupportedFormatError
from chunkwise.loaders.base import detect_loader, unsupported_format

PS = (b"%!PS-Adobe-3.0\n%%Creator: dvips\n%%Pages: 2\n%%EndComments\n"
      b"/TeXDict 300 dict def TeXDict begin /N{def}def /B{bind def}N\n"
      b"72 Resolution div 72 VResolution div neg scale\n") * 20
EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\nnewpath 0 0 moveto 100 100 lineto stroke\n"
DVI = b"\xf7\x02\x01\x83\x92\xc0\x1c\x3b\x00\x00\x00\x00\x03\xe8\x1b TeX output 2023.05.13:1635" + b"\x8b" + b"\0" * 40


@pytest.mark.parametrize(("name", "head", "fmt"), [
    ("manual.ps", PS, "postscript"),
    ("manual.txt", PS, "postscript"),  # misnamed: the magic bytes win
    ("noname", PS, "postscript"),
    ("figure.eps", EPS, "postscript"),
    ("figure.eps", b"\xc5\xd0\xd3\xc6" + b"\x20\x00\x00\x00" * 8, "postscript"),
    ("job.prn", b"\x04" + PS, "postscript"),
    ("job.prn", b"\x1b%-12345X@PJL JOB\r\n@PJL ENTER LANGUAGE=POSTSCRIPT\r\n" + PS, "printer job (pjl)"),
    ("refcard.dvi", DVI, "dvi"),
    ("refcard.txt", DVI, "dvi"),
])
def test_page_descriptions_are_unsupported_by_magic(name: str, head: bytes, fmt: str) -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        detect_loader(name, head)
    assert info.value.format == fmt


@pytest.mark.parametrize("name", ["empty.ps", "empty.eps", "empty.dvi"])
def test_their_suffixes_are_unsupported_too(name: str) -> None:
    assert unsupported_format(name, b"") is not None


@pytest.mark.parametrize("text", [
    b"Notes on %!PS headers.\n",  # not at the start: prose
    b"%% a comment line of a TeX file\n",
])
def test_text_that_mentions_them_is_text(text: str) -> None:
    assert detect_loader("notes.txt", text).format == "text"


def test_format_text_still_reads_postscript_as_text(tmp_path: Path) -> None:
    path = tmp_path / "manual.ps"
    path.write_bytes(PS)
    with pytest.raises(UnsupportedFormatError):
        chunkwise.load(path)
    assert chunkwise.load(path, format="text").text == PS.decode("ascii")


def test_compressed_postscript_is_skipped_by_the_command(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from chunkwise.cli import cli

    (tmp_path / "manual.ps.gz").write_bytes(gzip.compress(PS))
    (tmp_path / "misnamed.txt").write_bytes(PS)
    (tmp_path / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path), "-o", str(out), "--no-progress"])
    assert "postscript (gzip-compressed) is not a supported format" in result.output
    assert "misnamed.txt: postscript is not a supported format" in result.output
    assert "skipped 2 files: 2 unsupported" in result.output
    import json

    assert {json.loads(line)["source"].rsplit("/", 1)[-1] for line in out.read_text().splitlines()} == {"a.md"}
