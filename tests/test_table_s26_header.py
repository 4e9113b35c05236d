"""A pipe table's delimiter row (``|---|:--:|``) is not a chunk of its own while it fits
``chunk_size`` with a row next to it: it goes with the header row above it when the two
fit together, else with the first body rows; no header row that fits is cut for it. The
chunks after it start at a body row, with the header in ``context``. No chunk grows past
``chunk_size`` for it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.parsers.table import find_pipe_tables
from chunkwise.sizers import CharSizer

_DELIMITER_CHARS = set("|-: \t\r\n")


def _chunks(text: str, strategy: str = "table", **kw):
    return chunkwise.make_chunker(strategy, **kw).chunk(text)


def _check(text: str, chunks, chunk_size: int) -> None:
    """The contract: exact slices, in order, nothing lost, every chunk within ``chunk_size``."""
    covered = bytearray(len(text))
    last = -1
    for c in chunks:
        assert c.text == text[c.start_index : c.end_index]
        assert c.text.strip() and c.start_index > last
        last = c.start_index
        assert c.size == CharSizer().count(c.text) <= chunk_size, (c.size, c.text)
        assert not c.metadata.get("oversize")
        covered[c.start_index : c.end_index] = b"\x01" * len(c.text)
    assert not [i for i, ch in enumerate(text) if not covered[i] and not ch.isspace()]


def _junk(chunks) -> list[str]:
    return [c.text for c in chunks if set(c.text) <= _DELIMITER_CHARS]


HEAD = "| Operating System | Architectures | Versions      | Support Type |"
RULE = "| ---------------- | ------------- | ------------- | ------------ |"
ROWS = [
    "| GNU/Linux        | x64           | kernel >= 4.18 | Tier 1      |",
    "| GNU/Linux        | x86           | kernel >= 3.10 | Experimental |",
    "| Windows          | x64           | >= Windows 10 | Tier 1       |",
]
WIDE = "\n".join([HEAD, RULE, *ROWS]) + "\n"


@pytest.mark.parametrize("overlap", [0, 20])
@pytest.mark.parametrize("size", [78, 100])
def test_a_header_row_that_fits_is_not_cut_for_the_delimiter_row(overlap, size):
    # the header row and the delimiter row fit one by one, not together, and the
    # delimiter row does not fit with the first body row either: it is a chunk of its
    # own, under the header row in ``context``; the header row that fits is not cut
    chunks = _chunks(WIDE, chunk_size=size, chunk_overlap=overlap)
    _check(WIDE, chunks, size)
    assert [c.text for c in chunks[:3]] == [HEAD, RULE, ROWS[0]]
    assert chunks[1].context == HEAD
    assert all(c.context == HEAD + "\n" + RULE for c in chunks[2:])


def test_the_delimiter_row_goes_with_the_first_body_row():
    # the header row and the delimiter row do not fit together: the delimiter row goes
    # with the first body row, under the header row in ``context``
    doc = "| identifier | descr |\n|------------|-------|\n| 1 | a |\n| 2 | b |\n"
    chunks = _chunks(doc, chunk_size=35)
    _check(doc, chunks, 35)
    assert [c.text for c in chunks] == ["| identifier | descr |", "|------------|-------|\n| 1 | a |", "| 2 | b |"]
    assert chunks[1].context == "| identifier | descr |"
    assert (chunks[1].metadata["row_start"], chunks[1].metadata["row_end"]) == (0, 1)
    assert chunks[2].context == "| identifier | descr |\n|------------|-------|"


def test_without_room_the_delimiter_row_goes_with_the_first_rows():
    # one cell without a space: no cut leaves room beside the delimiter row
    doc = "| identifier_long_names |\n|----|\n| 1 |\n| 2 |\n"
    chunks = _chunks(doc, chunk_size=30)
    _check(doc, chunks, 30)
    assert [c.text for c in chunks] == ["| identifier_long_names |", "|----|\n| 1 |\n| 2 |"]
    assert chunks[1].context == "| identifier_long_names |"  # (the header rows above it)


def test_a_delimiter_row_that_fits_nowhere_else_stays_alone():
    # nothing fits beside it: a chunk is never made larger than chunk_size for it
    doc = "| identifier | descr |\n|------------|-------|\n| 1 | a |\n| 2 | b |\n"
    chunks = _chunks(doc, chunk_size=25)
    _check(doc, chunks, 25)
    assert [c.text for c in chunks][1] == "|------------|-------|"
    assert chunks[1].context == "| identifier | descr |"


def test_a_two_row_header_keeps_its_last_row_with_the_delimiter_row():
    top = "| " + " | ".join(f"group {k}" for k in range(4)) + " |"
    doc = f"{top}\n{HEAD}\n{RULE}\n" + "\n".join(ROWS) + "\n"
    chunks = _chunks(doc, chunk_size=150)
    _check(doc, chunks, 150)
    assert [c.text for c in chunks[:2]] == [top, HEAD + "\n" + RULE]
    assert chunks[2].context == f"{top}\n{HEAD}\n{RULE}"


def test_oversize_keep_and_raise_are_unchanged():
    kept = _chunks(WIDE, chunk_size=100, oversize="keep")
    assert kept[0].text == HEAD + "\n" + RULE and kept[0].metadata["oversize"]
    with pytest.raises(chunkwise.OversizeError):
        _chunks(WIDE, chunk_size=100, oversize="raise")


def test_a_header_that_fits_with_the_first_rows_is_unchanged():
    chunks = _chunks(WIDE, chunk_size=250)
    assert chunks[0].text == "\n".join([HEAD, RULE, ROWS[0]])
    assert not chunks[0].metadata.get("oversize") and chunks[1].text == "\n".join(ROWS[1:])


_cell = st.text(alphabet="abc xyz-:", min_size=0, max_size=14).map(str.strip)
_name = st.text(alphabet="abc xyz", min_size=1, max_size=14).map(lambda s: s.strip() or "x")


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda w: st.tuples(
            st.lists(st.lists(_name, min_size=w, max_size=w), min_size=1, max_size=2),
            st.lists(st.integers(1, 20), min_size=w, max_size=w),
            st.lists(st.lists(_cell, min_size=w, max_size=w), min_size=0, max_size=5),
        )
    ),
    st.integers(4, 120),
    st.sampled_from([0, 3]),
    st.sampled_from(["", "Intro text.\n\n"]),
)
def test_no_chunk_starts_at_a_delimiter_row_that_fits_with_its_header_row(table, chunk_size, overlap, before):
    heads, dashes, rows = table
    lines = ["| " + " | ".join(h) + " |" for h in heads]
    lines.append("|" + "|".join("-" * d for d in dashes) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    doc = before + "\n".join(lines) + "\n"
    if overlap >= chunk_size:
        return
    chunks = _chunks(doc, chunk_size=chunk_size, chunk_overlap=overlap)
    _check(doc, chunks, chunk_size)
    [t] = find_pipe_tables(doc)
    ds = t.header_starts[-1]
    de = ds + len(lines[len(heads)])
    header = "\n".join(lines[: len(heads) + 1])
    for c in chunks:
        if c.start_index >= t.header[1]:  # (a part of a row: then its first cell)
            assert c.context == header or c.context.startswith(header + "\n")
        elif ds <= c.start_index:  # (a chunk at the delimiter row: the header rows above it)
            assert c.context == header[: header.rindex("\n")]
    if all(len(h) <= chunk_size for h in lines[: len(heads)]) and len("\n".join(lines[len(heads) - 1 : len(heads) + 1])) <= chunk_size:
        assert not [c for c in chunks if ds <= c.start_index < de], "a chunk starts at the delimiter row"
        assert not [c for c in chunks if c.start_index < t.header[1] and set(c.text) <= _DELIMITER_CHARS]
