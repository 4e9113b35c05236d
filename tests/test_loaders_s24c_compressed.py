"""Data of one compression given as another (``--format gzip`` on xz data, a ``.gz`` file
that is xz): the error names the compression the data is in, not an unsupported format."""

from __future__ import annotations

import bz2
import gzip
import lzma

import pytest
from click.testing import CliRunner

import chunkwise
from chunkwise.cli import cli
from chunkwise.loaders.base import FileFormatError
from chunkwise.loaders.compressed import decompress

COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}
SUFFIX = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz"}
PAIRS = [(real, given) for real in COMPRESS for given in COMPRESS if real != given]


@pytest.mark.parametrize("real, given", PAIRS)
def test_decompress_names_the_real_compression(real, given):
    with pytest.raises(FileFormatError) as exc:
        decompress(COMPRESS[real](b"hello world\n"), "x", format=given)
    message = str(exc.value)
    assert f"{real} data, not {given}" in message
    assert f"--format {real}" in message and SUFFIX[real] in message
    assert exc.value.kind == "wrong format"


@pytest.mark.parametrize("real, given", PAIRS)
def test_parse_with_another_compression_names_the_real_one(real, given):
    with pytest.raises(FileFormatError, match=f"{real} data, not {given}"):
        chunkwise.parse(COMPRESS[real](b"hello world\n"), format=given, source="<stdin>")


@pytest.mark.parametrize("real, given", PAIRS)
def test_a_file_whose_suffix_names_another_compression(tmp_path, real, given):
    path = tmp_path / f"notes.md{SUFFIX[given]}"
    path.write_bytes(COMPRESS[real](b"# Notes\n\nhello\n"))
    with pytest.raises(FileFormatError, match=f"{real} data, not {given}"):
        chunkwise.load(str(path))


@pytest.mark.parametrize("real", list(COMPRESS))
def test_the_right_format_and_no_format_still_read(real):
    data = COMPRESS[real](b"hello world\n")
    assert chunkwise.parse(data, format=real).text == "hello world\n"
    assert chunkwise.parse(data, source="<stdin>").text == "hello world\n"


def test_plain_text_given_as_gzip_is_still_not_gzip_data():
    with pytest.raises(FileFormatError, match="not gzip data"):
        decompress(b"hello world\n", "x", format="gzip")


def test_cli_xz_on_stdin_given_as_gzip():
    result = CliRunner().invoke(cli, ["chunk", "-", "--format", "gzip"], input=lzma.compress(b"hello world\n"))
    assert "xz data, not gzip" in result.stderr
    assert "not a supported format" not in result.stderr
    assert "hello world" not in result.stdout
    right = CliRunner().invoke(cli, ["chunk", "-", "--format", "xz"], input=lzma.compress(b"hello world\n"))
    assert right.exit_code == 0 and "hello world" in right.stdout
