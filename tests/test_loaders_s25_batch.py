"""A bad file in a batch is reported and skipped, the others' output complete: a truncated
.gz, a .bz2 that is gzip, an empty .xz, binary garbage named .md (random bytes, or zeros,
which were read as UTF-32 text of NUL characters)."""

from __future__ import annotations

import bz2
import gzip
import json
import random

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli
from chunkwise.loaders import load, looks_like_text
from chunkwise.loaders.base import FileFormatError
from chunkwise.loaders.decoding import decode

TEXT = "".join(f"# Part {i}\n\n" + f"Words about topic {i}. " * 30 + "\n\n" for i in range(12))


def _records(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_folder_of_good_and_bad_files(tmp_path, workers):
    folder = tmp_path / "docs"
    folder.mkdir()
    rng = random.Random(7)
    good = {
        "a.md": TEXT.encode(),
        "b.txt": TEXT.replace("#", "").encode(),
        "c.md.gz": gzip.compress(TEXT.encode()),
        "d.md.bz2": bz2.compress(TEXT.encode()),
    }
    packed = gzip.compress(TEXT.encode() * 4)
    bad = {
        "trunc.md.gz": (packed[: len(packed) // 2], "damaged", "truncated gzip data"),
        "really-gzip.md.bz2": (gzip.compress(TEXT.encode()), "wrong format", "rename it to really-gzip.md.gz"),
        "empty.md.xz": (b"", "empty", "empty file"),
        "garbage.md": (bytes(rng.randrange(256) for _ in range(4000)), "undecodable", "not valid UTF-8"),
        "zeros.md": (b"\0" * 4096, "undecodable", "binary data, not text"),
    }
    for name, data in good.items():
        (folder / name).write_bytes(data)
    for name, (data, _, _) in bad.items():
        (folder / name).write_bytes(data)
    result = CliRunner().invoke(cli, ["chunk", str(folder), "-j", workers, "-v"])
    assert result.exit_code == 1, result.output
    for name, (_, kind, words) in bad.items():
        line = next(x for x in result.output.splitlines() if x.startswith(f"skipped {folder / name}:"))
        assert words in line, line
        assert f"{name} ({kind}" in result.output
    records = _records(result.stdout)
    alone = []
    for name in sorted(good):  # each good file's records, as a run of that file alone gives them
        one = CliRunner().invoke(cli, ["chunk", str(folder / name), "-j", "1"])
        assert one.exit_code == 0, one.output
        alone += _records(one.stdout)
    assert [r["text"] for r in records] == [r["text"] for r in alone]
    assert [r["id"] for r in records] == [r["id"] for r in alone]
    assert {r["source"].rsplit("/", 1)[-1] for r in records} == set(good)


@pytest.mark.parametrize(
    "data", [b"\0" * 8, b"\0" * 500, b"\0" * 4096, b"ab" + b"\0" * 4000, b"\0" * 12 + b"a\0\0\0" * 100 + b"\0" * 800]
)
def test_bytes_mostly_nul_are_binary_not_text(tmp_path, data):
    path = tmp_path / "x.md"
    path.write_bytes(data)
    with pytest.raises(FileFormatError) as err:
        load(path)
    assert err.value.kind == "undecodable" and "binary data, not text" in str(err.value)
    assert not looks_like_text(data)
    assert load(path, encoding="latin-1").text == data.decode("latin-1")  # given: read as told


def test_text_with_some_nul_and_wide_unicode_are_still_text():
    assert decode("line one\n\0\0\0\nline two\n".encode()) == ("line one\n\0\0\0\nline two\n", "utf-8")
    for codec in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        text = "Plain words, and more plain words.\n" * 20
        assert decode(text.encode(codec)) == (text, codec)
        assert looks_like_text(text.encode(codec)[:512])
