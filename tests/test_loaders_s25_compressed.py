"""Compressed input: standard input told by its magic bytes whatever --format names, a
decompression bomb refused without holding the limit's worth of bytes, the limit's loader
option, and a mislabelled file's fix."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import tracemalloc

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.errors import ConfigError
from chunkwise.loaders import compressed, load, parse
from chunkwise.loaders.base import FileFormatError

COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}
SUFFIX = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz"}
ALL = pytest.mark.parametrize("fmt", sorted(COMPRESS))

MARKDOWN = "# Guide\n\nIntro text about the guide.\n\n## Install\n\nRun the installer.\n\n## Use\n\nCall it.\n"
CSV = "name,age,city\nalice,30,paris\nbob,25,rome\n"


def _records(args: list[str], data: bytes) -> list[dict]:
    result = CliRunner().invoke(cli, ["chunk", *args, "-j", "1"], input=data)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def _without_compression(records: list[dict]) -> list[dict]:
    for r in records:
        r["metadata"].pop("compression", None)
    return records


@ALL
@pytest.mark.parametrize("given, text", [("markdown", MARKDOWN), ("csv", CSV), ("html", "<h1>T</h1><p>Body.</p>")])
def test_compressed_standard_input_is_read_in_the_format_given(fmt, given, text):
    """`gzip -c a.md | chunkwise chunk - --format markdown`: decompressed, then read as
    Markdown (it was refused as 'gzip is not a supported format')."""
    plain = _records(["-", "--format", given], text.encode())
    packed = _records(["-", "--format", given], COMPRESS[fmt](text.encode()))
    assert packed and all(r["metadata"]["compression"] == fmt for r in packed)
    assert all(r["metadata"]["format"] == given for r in packed)
    assert _without_compression(packed) == plain


@ALL
def test_compressed_standard_input_in_the_default_format_is_read_by_its_own_format(fmt):
    plain = _records(["-"], MARKDOWN.encode())
    packed = _records(["-"], COMPRESS[fmt](MARKDOWN.encode()))
    assert _without_compression(packed) == plain and plain[0]["metadata"]["format"] == "text"


@ALL
def test_parse_decompresses_bytes_given_another_format(fmt):
    doc = parse(COMPRESS[fmt](MARKDOWN.encode()), "markdown", source="<stdin>")
    assert doc.text == MARKDOWN and doc.metadata["format"] == "markdown" and doc.metadata["compression"] == fmt
    assert doc.id == parse(MARKDOWN.encode(), "markdown", source="<stdin>").id
    assert load(COMPRESS[fmt](MARKDOWN.encode()), "markdown").text == MARKDOWN


def test_damaged_compressed_standard_input_is_named_not_read_as_text():
    data = gzip.compress(MARKDOWN.encode() * 20)
    result = CliRunner().invoke(cli, ["chunk", "-", "--format", "markdown", "-j", "1"], input=data[: len(data) // 2])
    assert result.exit_code == 1 and "truncated gzip data" in result.output
    assert not [line for line in result.stdout.splitlines() if line.startswith("{")]


@ALL
def test_a_bomb_is_refused_without_holding_the_limit(monkeypatch, fmt):
    """The bytes past KEEP_BYTES are counted, not held: refusing a bomb with a 4 MiB limit
    allocates about KEEP_BYTES plus a step, not the limit (before: over 4 MiB)."""
    monkeypatch.setattr(compressed, "KEEP_BYTES", 64 * 1024, raising=False)
    monkeypatch.setattr(compressed, "_STEP", 16 * 1024)
    zeros = b"\0" * (8 * 1024 * 1024)
    # (xz's decoder allocates its dictionary, 8 MiB at the default preset: preset 0's is 256 KiB)
    bomb = lzma.compress(zeros, preset=0) if fmt == "xz" else COMPRESS[fmt](zeros)
    del zeros
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError) as err:
            compressed.decompress(bomb, "bomb", limit=4 * 1024 * 1024, format=fmt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert err.value.kind == "oversize" and "more than 4 MiB" in str(err.value)
    assert peak < 1024 * 1024, peak


@ALL
@pytest.mark.parametrize("keep", [1, 7, 4096, 10**9])
def test_a_file_past_the_held_bytes_is_decompressed_whole(monkeypatch, fmt, keep):
    import random

    rng = random.Random(5)
    text = bytes(rng.randrange(256) for _ in range(20_000)) + b"word " * 3000
    data = COMPRESS[fmt](text) + COMPRESS[fmt](text[:777])  # two members / streams
    whole = text + text[:777]
    monkeypatch.setattr(compressed, "KEEP_BYTES", keep, raising=False)
    monkeypatch.setattr(compressed, "_STEP", 1000)
    assert compressed.decompress(data, format=fmt) == whole
    assert compressed.decompress(data, limit=len(whole), format=fmt) == whole
    with pytest.raises(FileFormatError, match="more than"):
        compressed.decompress(data, limit=len(whole) - 1, format=fmt)
    with pytest.raises(FileFormatError, match="truncated"):
        compressed.decompress(data[:-9], format=fmt)


@ALL
def test_the_limit_is_a_loader_option_named_in_the_refusal(tmp_path, fmt):
    path = tmp_path / f"notes.md{SUFFIX[fmt]}"
    path.write_bytes(COMPRESS[fmt](MARKDOWN.encode() * 40))
    size = len(MARKDOWN.encode()) * 40
    assert load(path).text == MARKDOWN * 40
    assert load(path, max_decompressed=size).text == MARKDOWN * 40
    with pytest.raises(FileFormatError) as err:
        load(path, max_decompressed="1K")
    message = str(err.value)
    assert "more than 1024 bytes" in message and "max_decompressed" in message and "-L max_decompressed=" in message
    with pytest.raises(FileFormatError, match="max_decompressed"):
        parse(path.read_bytes(), "markdown", max_decompressed="1k")


def test_the_default_refusal_names_the_option(monkeypatch, tmp_path):
    monkeypatch.setattr(compressed, "MAX_DECOMPRESSED_BYTES", 1000)
    path = tmp_path / "a.txt.gz"
    path.write_bytes(gzip.compress(b"x" * 5000))
    with pytest.raises(FileFormatError) as err:
        load(path)
    assert "more than 1000 bytes" in str(err.value) and "-L max_decompressed=1M" in str(err.value)


@pytest.mark.parametrize(
    "value, size",
    [(1, 1), ("4096", 4096), ("512M", 512 * 1024**2), ("1G", 1024**3), ("2GiB", 2 * 1024**3), ("1.5k", 1536),
     (" 3 mb ", 3 * 1024**2)],
)
def test_parse_size(value, size):
    assert compressed.parse_size(value) == size


@pytest.mark.parametrize("value", [0, -5, "", "abc", "1X", "-1G", True, "1e3"])
def test_a_bad_limit_is_a_config_error_naming_the_option(value):
    with pytest.raises(ConfigError, match="max_decompressed"):
        compressed.parse_size(value)


def test_a_bad_limit_on_the_command_line_is_a_usage_error_before_any_file(tmp_path):
    (tmp_path / "a.md").write_text(MARKDOWN)
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path), "-L", "max_decompressed=lots", "-j", "1"])
    assert result.exit_code == 2 and "max_decompressed" in result.output
    ok = CliRunner().invoke(cli, ["chunk", str(tmp_path), "-L", "max_decompressed=1G", "-j", "1"])
    assert ok.exit_code == 0, ok.output


def test_a_file_of_another_compression_is_told_to_be_renamed(tmp_path):
    """A `.bz2` that is gzip: renaming it is the fix for a file (format= of a file names
    the decompressed file's format); standard input is told its --format."""
    path = tmp_path / "notes.md.bz2"
    path.write_bytes(gzip.compress(MARKDOWN.encode()))
    with pytest.raises(FileFormatError) as err:
        load(path)
    assert err.value.kind == "wrong format" and "rename it to notes.md.gz" in str(err.value)
    with pytest.raises(FileFormatError) as stream:
        parse(path.read_bytes(), "bzip2", source="<stdin>")
    assert "--format gzip" in str(stream.value) and "rename" not in str(stream.value)


def test_a_stream_s_decompressed_bytes_that_fail_say_how_they_were_read():
    """Standard input's error says it was decompressed and in which format it was read
    (--format given); a file's message is unchanged (its name says it)."""
    from chunkwise.errors import LoadError

    binary = bytes(range(256)) * 8
    with pytest.raises(LoadError) as err:
        parse(gzip.compress(binary), "markdown", source="<stdin>")
    assert "decompressed from gzip and read as markdown, the format given" in str(err.value)
    assert str(err.value).startswith("<stdin>: not valid UTF-8")
    with pytest.raises(FileFormatError) as zeros:
        parse(bz2.compress(b"\0" * 600), "html", source="<stdin>")
    assert zeros.value.kind == "undecodable" and "(decompressed from bzip2 and read as html" in zeros.value.problem
    result = CliRunner().invoke(cli, ["chunk", "-", "--format", "markdown", "-j", "1"], input=gzip.compress(binary))
    assert result.exit_code == 1 and "(decompressed from gzip and read as markdown, the format given)" in result.output


def test_a_file_s_decompressed_bytes_that_fail_keep_their_message(tmp_path):
    from chunkwise.errors import LoadError

    path = tmp_path / "bad.md.gz"
    path.write_bytes(gzip.compress(bytes(range(256)) * 8))
    with pytest.raises(LoadError) as err:
        load(path)
    assert "decompressed from" not in str(err.value) and str(err.value).startswith(f"{path}: not valid UTF-8")
