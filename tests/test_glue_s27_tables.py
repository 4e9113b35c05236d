"""A table row or a code block that fits the budget is never cut to make room for a
heading, and a pipe table's delimiter row is no chunk of its own while it fits with the
header row above it or the first body row below it (markdown and table strategies)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import chunkwise
from chunkwise.parsers.table import find_pipe_tables

from chunkwise.sizers import CharSizer
from invariants import check_invariants

_CHARS = CharSizer()

_ROWS = "\n".join(f"| item {i} | some value {i} | another description of item {i} |" for i in range(8))
_HEADING = "## A rather long section heading about the parts list"
_HEADER = "| Name | Description of the part | Notes and remarks |"
_TABLE_DOC = f"# Intro\n\nSome text here.\n\n{_HEADING}\n\n{_HEADER}\n|---|---|---|\n{_ROWS}\n"
_DELIM_CHARS = set("|-: \t\r\n")


def _rows(text: str) -> list[tuple[int, int, str]]:
    """Every row of every pipe table of ``text``, trimmed: (start, end, kind) with kind
    ``"header"``, ``"delimiter"`` or ``"body"``."""
    out = []
    for t in find_pipe_tables(text):
        heads = list(t.header_starts)
        spans = [(heads[k], heads[k + 1], "header") for k in range(len(heads) - 1)]
        spans.append((heads[-1], t.header[1], "delimiter"))
        rows = list(t.rows)
        spans += [(rows[k], rows[k + 1] if k + 1 < len(rows) else t.end, "body") for k in range(len(rows))]
        for a, b, kind in spans:
            b = len(text[a:b].rstrip()) + a
            if a < b:
                out.append((a, b, kind))
    return out


def _cut_inside(chunks, a: int, b: int) -> bool:
    return any(a < c.start_index < b or a < c.end_index < b for c in chunks)


def _check_rows(text: str, chunks, size: int) -> None:
    """No row of at most ``size`` characters is cut; no chunk is a delimiter row alone
    when that row fits with the header row above it or the first body row below it."""
    rows = _rows(text)
    for a, b, kind in rows:
        if b - a <= size:
            assert not _cut_inside(chunks, a, b), (kind, text[a:b], [c.text for c in chunks])
    for c in chunks:
        if not (set(c.text) <= _DELIM_CHARS and "-" in c.text):
            continue
        for k, (a, b, kind) in enumerate(rows):
            if kind == "delimiter" and a <= c.start_index < b:
                above = rows[k - 1] if k and rows[k - 1][2] == "header" else None
                below = rows[k + 1] if k + 1 < len(rows) and rows[k + 1][2] == "body" else None
                fits = b - a <= size and (
                    (above is not None and b - above[0] <= size) or (below is not None and below[1] - a <= size)
                )
                assert not fits, (text[a:b], [ch.text for ch in chunks])


def test_heading_does_not_cut_a_header_row_that_fits():
    for size in range(60, 200, 4):
        chunks = chunkwise.chunk(_TABLE_DOC, strategy="markdown", chunk_size=size, unit="characters")
        check_invariants(_TABLE_DOC, chunks, size, _CHARS)
        _check_rows(_TABLE_DOC, chunks, size)
        hs = _TABLE_DOC.index(_HEADER)
        de = _TABLE_DOC.index("|---|---|---|") + len("|---|---|---|")
        if de - hs <= size:  # the header row and the delimiter row together
            assert any(c.start_index <= hs and de <= c.end_index for c in chunks), size
        # the heading is alone, or with the whole header row and delimiter row
        first = next(c for c in chunks if c.text.startswith(_HEADING))
        assert first.text == _HEADING or first.end_index >= de, (size, first.text)

    # a table that fits alone but not with the heading is split between its rows, the
    # heading with the header row and the delimiter row (the first body row cannot come)
    row = "| " + " | ".join(["value value value"] * 4) + " |"
    text = "## Parts\n\n| a | b | c | d |\n|---|---|---|---|\n" + row + "\n"
    size = len(text.strip()) - 5
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=size, unit="characters")
    assert [c.text for c in chunks] == ["## Parts\n\n| a | b | c | d |\n|---|---|---|---|", row]
    assert chunks[1].context.endswith("| a | b | c | d |\n|---|---|---|---|")


def test_header_context_of_the_rows_after_a_lone_heading():
    chunks = chunkwise.chunk(_TABLE_DOC, strategy="markdown", chunk_size=80, unit="characters")
    texts = [c.text for c in chunks]
    assert texts[1] == _HEADING
    assert texts[2] == _HEADER + "\n|---|---|---|"
    for c in chunks[3:]:
        assert c.text.startswith("| item ")
        assert c.context.endswith(_HEADER + "\n|---|---|---|")


def test_heading_does_not_cut_a_code_block_that_fits():
    code = "```python\n" + "\n".join(f"x{i} = compute_value({i})  # step {i}" for i in range(3)) + "\n```"
    text = f"# Intro\n\nSome text here.\n\n## A rather long section heading about the code\n\n{code}\n\nAfter.\n"
    s = text.index(code)
    for size in range(len(code), len(code) + 60, 5):
        chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=size, unit="characters")
        check_invariants(text, chunks, size, _CHARS)
        assert not _cut_inside(chunks, s, s + len(code)), (size, [c.text for c in chunks])
    # prose still is: a list item that fits alone but not with its heading is split, its
    # first part with the heading
    text = "# Guide\n\n## A heading of some length for the list\n\n- first item with a long line of prose that goes on\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=80, unit="characters")
    assert chunks[0].text.startswith("# Guide\n\n## A heading") and "- first" in chunks[0].text


_WORD = st.text(alphabet="abcdefgh", min_size=1, max_size=9)
_CELL = st.lists(_WORD, min_size=1, max_size=4).map(" ".join)


@st.composite
def _table_docs(draw):
    ncols = draw(st.integers(1, 4))
    header = "| " + " | ".join(draw(st.lists(_CELL, min_size=ncols, max_size=ncols))) + " |"
    delim = "|" + "|".join("-" * draw(st.integers(3, 14)) for _ in range(ncols)) + "|"
    body = [
        "| " + " | ".join(draw(st.lists(_CELL, min_size=ncols, max_size=ncols))) + " |"
        for _ in range(draw(st.integers(1, 4)))
    ]
    parts = []
    if draw(st.booleans()):
        parts.append("# " + draw(_CELL))
    if draw(st.booleans()):
        parts.append(draw(_CELL) + ".")
    if draw(st.booleans()):
        parts.append("## " + draw(_CELL))
    parts.append("\n".join([header, delim, *body]))
    if draw(st.booleans()):
        parts.append(draw(_CELL) + ".")
    return "\n\n".join(parts) + "\n", draw(st.integers(12, 120))


@given(_table_docs(), st.sampled_from(["markdown", "table"]))
def test_property_fitting_rows_are_not_cut_and_no_lone_delimiter_row(doc, strategy):
    text, size = doc
    chunks = chunkwise.chunk(text, strategy=strategy, chunk_size=size, unit="characters")
    check_invariants(text, chunks, size, _CHARS)
    _check_rows(text, chunks, size)


# -- the delimiter row: a rule of the parse that the packer honours ---------------------

_HEAD = "| Operating System | Architectures | Versions      | Support Type |"
_RULE = "| ---------------- | ------------- | ------------- | ------------ |"
_BODY = [
    "| GNU/Linux        | x64           | kernel >= 4.18 | Tier 1      |",
    "| Windows          | x64           | >= Windows 10 | Tier 1       |",
]
_WIDE = "\n".join([_HEAD, _RULE, *_BODY]) + "\n"
_NARROW = "| identifier | descr |\n|------------|-------|\n| 1 | a |\n| 2 | b |\n"


def test_table_header_row_that_fits_is_not_cut_for_the_delimiter_row():
    # the header row and the delimiter row fit one by one, not together, nor does the
    # delimiter row fit with the first body row: it is a chunk of its own (the header
    # row was cut between its cells so that its last cells went with it)
    for overlap in (0, 20):
        chunks = chunkwise.chunk(_WIDE, strategy="table", chunk_size=100, chunk_overlap=overlap)
        check_invariants(_WIDE, chunks, 100, _CHARS)
        assert [c.text for c in chunks[:3]] == [_HEAD, _RULE, _BODY[0]]
        assert [c.context for c in chunks[:3]] == ["", _HEAD, _HEAD + "\n" + _RULE]


def test_table_delimiter_row_goes_with_the_first_body_row():
    # the header row and the delimiter row do not fit together: the delimiter row goes
    # with the first body row, the header row above it in ``context``
    for strategy in ("table", "markdown"):
        chunks = chunkwise.chunk(_NARROW, strategy=strategy, chunk_size=35)
        check_invariants(_NARROW, chunks, 35, _CHARS)
        assert [c.text for c in chunks] == ["| identifier | descr |", "|------------|-------|\n| 1 | a |", "| 2 | b |"]
        assert (chunks[1].metadata["row_start"], chunks[1].metadata["row_end"]) == (0, 1)
        assert chunks[2].context == "| identifier | descr |\n|------------|-------|"
        # (the header row above it in ``context``, in both strategies)
        assert chunks[1].context == "| identifier | descr |"


def test_table_spans_are_the_packers():
    # no pass moves the spans after the packer: the delimiter row's place is decided by
    # the parse (atoms, regions, glue) and honoured by the packer
    from chunkwise.chunkers.table import TableChunker
    from chunkwise.packer import pack_segments
    from chunkwise.types import Document

    top = "| " + " | ".join(f"group {k}" for k in range(4)) + " |"
    for text, size in ((_WIDE, 100), (_WIDE, 78), (_NARROW, 35), (_NARROW, 25), (f"{top}\n{_WIDE}", 150)):
        chunker = TableChunker(chunk_size=size)
        doc = Document(text)
        measure = chunker.sizer.measure(text)
        packed = pack_segments(text, measure, chunker.parse(doc, measure), chunker.delimited_config(doc))
        assert [(s.start, s.end) for s in chunker.spans(doc, measure)] == [(s.start, s.end) for s in packed], size


@given(_table_docs(), st.sampled_from(["markdown", "table"]), st.integers(1, 30))
def test_property_with_an_overlap_fitting_rows_are_not_cut(doc, strategy, overlap):
    # (with an overlap a row larger than ``chunk_size - chunk_overlap`` that fits
    # ``chunk_size`` is a chunk of its own, whole, though the overlap of the chunk before
    # may end inside it: every row of at most ``chunk_size`` is whole in some chunk)
    text, size = doc
    overlap = min(overlap, size - 1)
    chunks = chunkwise.chunk(text, strategy=strategy, chunk_size=size, chunk_overlap=overlap, unit="characters")
    check_invariants(text, chunks, size, _CHARS)
    for a, b, kind in _rows(text):
        if b - a <= size:
            assert any(c.start_index <= a and b <= c.end_index for c in chunks), (kind, text[a:b], [c.text for c in chunks])
