"""Empty documents (zero bytes, white space only) are skipped and named, with the reason in
the summary line, in ``chunk``, ``stats`` and ``inspect``; counts are singular for one
("1 document, 1 chunk"); ``inspect --help`` says what its default strategy is."""

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
    assert summary.startswith("1 document, 1 chunk;")
    assert "skipped 2 empty documents (1 white space only, 1 zero bytes)" in summary
    assert f"skipped {(folder / 'zero.txt').as_posix()}: empty document (zero bytes)" in result.stderr
    assert f"skipped {(folder / 'blank.md').as_posix()}: empty document (white space only)" in result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in rows] == ["Real text here."]


def test_stats_names_empty_documents(folder):
    result = CliRunner().invoke(cli, ["stats", str(folder), "-s", "recursive", "-n", "100", "-u", "chars"])
    assert result.exit_code == 0, result.output
    assert "1 document; sizes in chars" in result.stderr
    assert "skipped 2 empty documents" in result.stderr and "zero.txt (empty)" in result.stderr


def test_stats_of_only_empty_documents_says_so(tmp_path):
    (tmp_path / "zero.txt").write_bytes(b"")
    result = CliRunner().invoke(cli, ["stats", str(tmp_path), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 1
    assert "no document with text: nothing to measure; skipped 1 empty document (1 zero bytes)" in result.stderr


@pytest.mark.parametrize(("name", "why"), [("zero.txt", "zero bytes"), ("blank.md", "white space only")])
def test_inspect_says_a_file_is_empty(folder, name, why):
    result = CliRunner().invoke(cli, ["inspect", str(folder / name), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 0, result.output
    assert f"empty document ({why})" in result.stderr
    assert f"0 chunks, strategy recursive, unit chars; skipped 1 empty document (1 {why})" in result.stderr


def test_inspect_counts_one_chunk_in_the_singular(folder):
    result = CliRunner().invoke(cli, ["inspect", str(folder / "ok.txt"), "-s", "recursive", "-u", "chars"])
    assert result.exit_code == 0 and "1 chunk, strategy recursive" in result.stderr


def test_inspect_help_names_its_real_default():
    result = CliRunner().invoke(cli, ["inspect", "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "Usage: cli inspect [OPTIONS] FILE" in result.output
    assert "Here the default is semantic" in result.output and "[default: semantic]" in result.output
    assert "chunk's default is auto" in result.output
