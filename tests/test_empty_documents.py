"""Empty documents (zero bytes, white space only, a 0-byte PDF) are skipped and named once in
the summary, with the reason, in ``chunk``, ``stats`` and ``inspect``: not a failure while
another input produced chunks; exit status 1 and nothing written when no input did. Counts
are singular for one ("1 document, 1 chunk"); ``inspect --help`` says its default strategy."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from chunkwise.cli import cli


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "zero.txt").write_bytes(b"")
    (tmp_path / "blank.md").write_text("  \n\t\n", encoding="utf-8")
    (tmp_path / "ok.txt").write_text("Real text here.\n", encoding="utf-8")
    return tmp_path


def test_chunk_names_empty_documents_and_does_not_count_them(folder, tmp_path):
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(folder), "-u", "chars", "-o", str(out)])
    assert result.exit_code == 0, result.output  # nothing failed
    [summary] = [line for line in result.stderr.splitlines() if " chunk;" in line or " chunks;" in line]
    assert summary.startswith("1 document, 1 chunk;") and "empty document" not in summary  # named once, below
    assert "skipped 2 files: 2 empty" in result.stderr
    assert f"  {(folder / 'zero.txt').as_posix()} (empty: zero bytes)" in result.stderr
    assert f"  {(folder / 'blank.md').as_posix()} (empty: white space only)" in result.stderr
    assert result.stderr.count("zero.txt") == 2  # its line when skipped, its name in the summary
    assert f"skipped {(folder / 'zero.txt').as_posix()}: empty document (zero bytes)" in result.stderr
    assert f"skipped {(folder / 'blank.md').as_posix()}: empty document (white space only)" in result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in rows] == ["Real text here."]


def test_stats_names_empty_documents(folder):
    result = CliRunner().invoke(cli, ["stats", str(folder), "-s", "recursive", "-n", "100", "-u", "chars"])
    assert result.exit_code == 0, result.output
    assert "1 document; sizes in chars" in result.stderr
    assert "skipped 2 files: 2 empty" in result.stderr and "zero.txt (empty: zero bytes)" in result.stderr


def test_stats_of_only_empty_documents_says_so(tmp_path):
    (tmp_path / "zero.txt").write_bytes(b"")
    result = CliRunner().invoke(cli, ["stats", str(tmp_path), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 1
    assert "no document with text: nothing to measure" in result.stderr
    assert "skipped 1 file: 1 empty" in result.stderr and "zero.txt (empty: zero bytes)" in result.stderr
    assert "1 zero bytes" not in result.stderr


@pytest.mark.parametrize(("name", "why"), [("zero.txt", "zero bytes"), ("blank.md", "white space only")])
def test_inspect_says_a_file_is_empty(folder, name, why):
    result = CliRunner().invoke(cli, ["inspect", str(folder / name), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 1, result.output  # no input produced a chunk
    assert f"empty document ({why})" in result.stderr
    assert "0 chunks, strategy recursive, unit chars" in result.stderr
    assert f"skipped 1 file: 1 empty\n  {(folder / name).as_posix()} (empty: {why})" in result.stderr


@pytest.mark.parametrize("name", ["zero.txt", "zero.pdf", "stdin"])
def test_chunk_of_only_empty_input_fails_and_writes_nothing(tmp_path, name):
    (tmp_path / "zero.txt").write_bytes(b"")
    (tmp_path / "zero.pdf").write_bytes(b"")
    out = tmp_path / "out.jsonl"
    out.write_text("previous\n", encoding="utf-8")
    arg = "-" if name == "stdin" else str(tmp_path / name)
    result = CliRunner().invoke(cli, ["chunk", arg, "-u", "chars", "-o", str(out)], input=b"")
    assert result.exit_code == 1, result.output
    assert out.read_text(encoding="utf-8") == "previous\n"  # nothing written, the file left as it was
    assert "nothing written" in result.stderr and "skipped 1 file: 1 empty" in result.stderr
    assert "(empty: zero bytes)" in result.stderr
    stats = CliRunner().invoke(cli, ["stats", arg, "-s", "recursive", "-u", "chars"], input=b"")
    assert stats.exit_code == 1 and "(empty: zero bytes)" in stats.stderr


def test_an_empty_pdf_beside_text_is_skipped_as_an_empty_text_file_is(tmp_path):
    (tmp_path / "zero.txt").write_bytes(b"")
    (tmp_path / "zero.pdf").write_bytes(b"")
    (tmp_path / "ok.txt").write_text("Real text here.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path), "-u", "chars", "-o", str(out)])
    assert result.exit_code == 0, result.output  # nothing failed: two empty documents, one with text
    assert "skipped 2 files: 2 empty" in result.stderr and "zero.pdf (empty: zero bytes)" in result.stderr
    assert [json.loads(line)["text"] for line in out.read_text(encoding="utf-8").splitlines()] == ["Real text here."]


def test_inspect_counts_one_chunk_in_the_singular(folder):
    result = CliRunner().invoke(cli, ["inspect", str(folder / "ok.txt"), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 0 and "1 chunk, strategy recursive" in result.stderr


def test_inspect_help_names_its_real_default():
    result = CliRunner().invoke(cli, ["inspect", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Usage: cli inspect [OPTIONS] FILE" in result.output
    assert "Here the default is semantic" in result.output and "[default: semantic]" in result.output
    assert "chunk's default is auto" in result.output


def test_inspect_of_a_missing_file_is_a_usage_error_as_in_chunk(tmp_path):
    missing = (tmp_path / "nonexistent.pdf").as_posix()
    for command in ("inspect", "chunk"):
        result = CliRunner().invoke(cli, [command, missing, "-s", "recursive", "-u", "chars"])
        assert result.exit_code == 2, (command, result.output)
        assert f"cannot read {missing} (no such file or folder)" in result.output


def test_inspect_shows_pages_and_header_paths(tmp_path):
    page = tmp_path / "paged.txt"  # form feeds: a page map
    page.write_text("# Guide\n\n## Setup\n\nFirst page text.\n\f\nSecond page text.\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["inspect", str(page), "-s", "markdown", "-n", "40", "-u", "chars"])
    assert result.exit_code == 0, result.output
    heads = [line for line in result.stdout.splitlines() if line.startswith("[")]
    assert heads[0].endswith("p. 1  Guide > Setup") and heads[-1].endswith("p. 2  Guide > Setup"), heads
    plain = CliRunner().invoke(cli, ["inspect", str(page), "-s", "recursive", "-n", "200", "-u", "chars"])
    assert [line for line in plain.stdout.splitlines() if line.startswith("[")][0].endswith("chars  p. 1-2")
