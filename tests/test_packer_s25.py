"""The packer's overlap pass and table rows: an overlap that reaches into a row larger
than ``chunk_size - chunk_overlap`` ends at the edge of a cell, not inside one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants, table_row_cells

import chunkwise

from chunkwise._text import trim_end
from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.chunkers.table import TableChunker
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


_row_cells = table_row_cells


def _inside_a_cell(text, rows, x, budget):
    """The cell that ``x`` lies strictly inside, when that cell's text fits ``budget``
    (characters); else None."""
    for s, e, edges in rows:
        if not s < x < e:
            continue
        for a, b in zip(edges, edges[1:]):
            end = trim_end(text, a, b)
            if a < x < end and end - a <= budget:
                return text[a:end]
    return None


def _overlap_ends(chunks):
    return [a.end_index for a, b in zip(chunks, chunks[1:]) if a.end_index > b.start_index]


_TABLE = (
    "| Type      | Description                                                          |\n"
    "| --------- | -------------------------------------------------------------------- |\n"
    "| `'CNAME'` | `value` of the canonical name record, as a string, for each answer   |\n"
    "| `'MX'`    | Refer to [`dns.resolveMx()`][] for the records and their priorities  |\n"
    "| `'NAPTR'` | Refer to [`dns.resolveNaptr()`][] for the naming authority pointers  |\n"
)


def test_overlap_after_a_row_packed_whole_ends_at_a_cell_edge():
    # as in Node.js's dns.md: each row (85 characters) is larger than 100 - 20 and fits
    # 100, so it is a chunk of its own; the overlap after it took "| `'MX'`    | Refer"
    chunker = MarkdownChunker(chunk_size=100, chunk_overlap=20)
    chunks = chunker.chunk(_TABLE)
    check_invariants(_TABLE, chunks, 100, chunker.sizer)
    rows = _row_cells(_TABLE)
    ends = _overlap_ends(chunks)
    assert ends  # the first cell of the next row still fits what chunk_size leaves
    assert [_inside_a_cell(_TABLE, rows, x, 80) for x in ends] == [None] * len(ends)
    assert [c.text.rsplit("\n", 1)[-1] for c in chunks[1:4]] == ["| `'CNAME'`", "| `'MX'`", "| `'NAPTR'`"]


def test_no_overlap_when_no_cell_of_the_next_row_fits():
    # the room the row leaves is under the first cell of the next row: no overlap, as
    # after an atom that fits (the overlap took "| The" before)
    text = (
        "| A | B |\n| --- | --- |\n"
        "| The first cell is here | and the second cell of this row is long enough to fill it |\n"
        "| The second row starts | with a cell and goes on with another cell that is long too |\n"
    )
    chunker = MarkdownChunker(chunk_size=100, chunk_overlap=20)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 100, chunker.sizer)
    rows = _row_cells(text)
    assert all(_inside_a_cell(text, rows, x, 80) is None for x in _overlap_ends(chunks))
    assert chunks[-2].text.endswith("long enough to fill it |")


def test_split_row_of_a_csv_table_overlaps_at_cell_edges():
    # the table strategy cuts a row larger than chunk_size between its cells: the overlap
    # into the next part ends at a cell edge too
    cells = [f"cell {i} " + "word " * (3 + i % 4) for i in range(12)]
    text = "a,b,c,d,e,f,g,h,i,j,k,l\n" + ",".join(c.strip() for c in cells) + "\n1,2,3,4,5,6,7,8,9,10,11,12\n"
    chunker = TableChunker(chunk_size=80, chunk_overlap=30)
    chunks = chunker.chunk(chunkwise.parse(text, format="csv"))
    check_invariants(text, chunks, 80, chunker.sizer)
    row = text.split("\n")[1]
    rs = text.index(row)
    edges = [rs] + [rs + i + 1 for i, ch in enumerate(row) if ch == ","] + [rs + len(row)]
    for x in _overlap_ends(chunks):
        if rs < x < rs + len(row):
            assert x in edges or text[x] == ",", text[x - 10 : x + 10]


_CELL = st.lists(st.sampled_from(["alpha", "beta", "gamma", "x", "`code`", "1.5", "delta"]), min_size=1, max_size=9).map(" ".join)


@st.composite
def tables(draw):
    ncols = draw(st.integers(1, 4))
    nrows = draw(st.integers(1, 6))
    pad = draw(st.booleans())
    rows = [[draw(_CELL) for _ in range(ncols)] for _ in range(nrows + 1)]
    width = [max(len(r[k]) for r in rows) for k in range(ncols)] if pad else [0] * ncols

    def line(r):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, width)) + " |"

    head = line(rows[0]) + "\n" + "|" + "|".join("---" for _ in range(ncols)) + "|"
    intro = draw(st.sampled_from(["", "# Title\n\nSome text before the table.\n\n"]))
    return intro + head + "\n" + "\n".join(line(r) for r in rows[1:]) + "\n"


@_SETTINGS
@given(tables(), st.integers(30, 160), st.integers(10, 40))
def test_property_overlap_does_not_end_inside_a_cell_that_fits(text, size, percent):
    overlap = size * percent // 100
    chunker = MarkdownChunker(chunk_size=size, chunk_overlap=overlap)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    rows = _row_cells(text)
    for x in _overlap_ends(chunks):
        assert _inside_a_cell(text, rows, x, size - overlap) is None, (x, text[max(0, x - 30) : x + 10])
