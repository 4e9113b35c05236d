"""``--resume`` on a file whose last document cannot be chunked again to compare (other
options, an edited text, an input not named): a whole document is kept as it is and
reported ``changed``; only a document cut short is chunked again."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.cli import cli
from chunkwise.commands._chunk_run import whole_length
from chunkwise.export import jsonl_lines

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()


def _text(i: int, paragraphs: int = 8) -> str:
    r = random.Random(i)
    return "\n\n".join(
        ". ".join(" ".join(r.choice(WORDS) for _ in range(r.randint(4, 12))).capitalize() for _ in range(3)) + "."
        for _ in range(paragraphs)
    )


@pytest.fixture()
def files(tmp_path: Path) -> list[Path]:
    a, b = tmp_path / "a.md", tmp_path / "b.txt"
    a.write_text("# Title\n\n" + _text(1), encoding="utf-8")
    b.write_text(_text(2), encoding="utf-8")
    return [a, b]


def _chunk(paths: list[Path], out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["chunk", *map(str, paths), "-u", "chars", "-s", "recursive", "--no-progress", "-o", str(out), *args]
    )
    return result.exit_code, result.stderr


def _without_config_id(path: Path) -> None:
    """Make ``path`` a file written before records carried a ``config_id``: such a file
    cannot tell other options from an edited text, and keeps the behaviour tested here."""
    path.write_bytes(re.sub(rb', "config_id": "[0-9a-f]{16}"}\n', b"}\n", path.read_bytes()))


def _per_source(path: Path) -> dict[str, set[str]]:
    got: dict[str, set[str]] = {}
    for line in path.read_bytes().splitlines():
        r = json.loads(line)
        got.setdefault(Path(r["source"]).name, set()).add(r["content_id"])
    return got


def test_resume_with_other_options_is_refused_and_leaves_the_file_alone(files: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    before = out.read_bytes()
    code, log = _chunk(files, out, "-n", "120", "--resume")
    assert out.read_bytes() == before  # the last document (b.txt) too: never chunked two ways
    # refused before any work: every line carries the config_id of the options that wrote it
    assert code == 2 and "written with other chunking options" in log and "without --resume" in log
    assert "changed" not in log
    # resuming with the options that wrote it: nothing to do, nothing reported
    code, log = _chunk(files, out, "-n", "96", "--resume")
    assert code == 0 and "2 documents already in the output" in log and "changed" not in log
    assert out.read_bytes() == before


def test_resume_after_the_last_file_was_edited_keeps_its_lines(files: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    before = out.read_bytes()
    files[1].write_text(_text(3), encoding="utf-8")
    code, log = _chunk(files, out, "-n", "96", "--resume")
    assert code == 1 and "b.txt (changed)" in log and "a.md" not in log
    assert out.read_bytes() == before


def test_resume_without_the_last_input_keeps_its_document(files: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    before = out.read_bytes()
    code, log = _chunk(files[:1], out, "-n", "96", "--resume")  # b.txt not named this time
    assert code == 0 and "1 document already in the output" in log
    assert out.read_bytes() == before


def test_a_whole_last_document_then_a_line_cut_short_is_kept_with_other_options(
    files: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    _without_config_id(out)
    whole = out.read_bytes()
    first_b = next(k for k, line in enumerate(whole.splitlines(keepends=True)) if b'"b.txt"' in line)
    a_lines = b"".join(whole.splitlines(keepends=True)[:first_b])
    out.write_bytes(a_lines + whole[len(a_lines):len(a_lines) + 40])  # b.txt's first line begun
    code, log = _chunk(files, out, "-n", "120", "--resume")
    assert code == 1 and "a.md (changed)" in log
    data = out.read_bytes()
    assert data.startswith(a_lines)  # a.md whole, as it was; the part of a line cut off
    assert all(line.endswith(b"}") for line in data.splitlines())
    assert len(_per_source(out)["a.md"]) == 1


def test_a_last_document_cut_short_is_completed_with_the_same_options(files: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    whole = out.read_bytes()
    lines = whole.splitlines(keepends=True)
    for keep in (len(lines) - 3, len(lines) - 1):  # at a line's end: chunks missing, no line cut short
        out.write_bytes(b"".join(lines[:keep]))
        code, log = _chunk(files, out, "-n", "96", "--resume")
        assert code == 0, log
        assert out.read_bytes() == whole


def test_a_last_document_cut_short_with_other_options_is_chunked_again(files: list[Path], tmp_path: Path) -> None:
    """Its old lines are not a whole document: removed, and it is chunked again with the
    run's options, saying so; the document before it is reported changed and kept."""
    out = tmp_path / "out.jsonl"
    assert _chunk(files, out, "-n", "96")[0] == 0
    _without_config_id(out)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:-2]))
    code, log = _chunk(files, out, "-n", "120", "--resume")
    assert code == 1 and "a.md (changed)" in log and "b.txt" not in log.split("skipped 1 file")[1]
    assert "was cut short" in log and "chunked again" in log
    fresh = tmp_path / "fresh.jsonl"
    assert _chunk(files[1:], fresh, "-n", "120")[0] == 0
    got = out.read_bytes()
    a_lines = b"".join(line for line in lines if b'"a.md"' in line)
    assert got == a_lines + fresh.read_bytes()  # b.txt wholly in the new options, once


def _doc_lines(text: str, strategy: str, size: int) -> list[bytes]:
    doc = chunkwise.Document(text=text, id="d", source="d.txt")
    chunks = chunkwise.make_chunker(strategy, chunk_size=size, unit="chars").chunk(doc)
    return jsonl_lines(chunks, doc, "c").splitlines(keepends=True)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    paragraphs=st.integers(1, 12),
    size=st.integers(40, 400),
    strategy=st.sampled_from(["recursive", "sentence", "fixed", "hierarchical", "markdown"]),
    cut=st.integers(1, 60),
)
def test_whole_length_tells_a_whole_document_from_one_cut_short(
    seed: int, paragraphs: int, size: int, strategy: str, cut: int
) -> None:
    lines = _doc_lines(_text(seed, paragraphs), strategy, size)
    data = b"".join(lines)
    assert whole_length(data) == len(data)
    assert whole_length(data + b'{"id": "0123') == len(data)  # the next document's line begun
    for k in range(len(lines)):  # every proper prefix at a line's end, and with a line cut short
        part = b"".join(lines[:k])
        assert whole_length(part) is None
        assert whole_length(part + lines[k][: min(cut, len(lines[k]) - 1)]) is None


def test_whole_length_without_links_is_not_known() -> None:
    lines = _doc_lines(_text(5), "recursive", 100)
    bare = []
    for line in lines:
        r = json.loads(line)
        r["metadata"].pop("next_id")
        bare.append((json.dumps(r) + "\n").encode())
    assert whole_length(b"".join(bare)) is None
