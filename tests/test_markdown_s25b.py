"""Markdown tables with an overlap: an overlap that reaches into a row that fits
``chunk_size`` (packed whole) ends at the edge of a cell or is absent, even when a cell
of that row is larger than ``chunk_size - chunk_overlap``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants, table_row_cells

import chunkwise
from chunkwise._text import trim_end
from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


_rows = table_row_cells


def _inside_a_cell(text, rows, x, size):
    """The cell that ``x`` lies strictly inside, in a row that fits ``size``; else None."""
    for s, e, edges in rows:
        if not s < x < e or e - s > size:
            continue
        for a, b in zip(edges, edges[1:]):
            end = trim_end(text, a, b)
            if a < x < end:
                return text[a:end]
    return None


def _overlap_ends(chunks):
    return [a.end_index for a, b in zip(chunks, chunks[1:]) if a.end_index > b.start_index]


_WIDE = "## Wide\n\n| a | b |\n|---|---|\n| " + "x " * 60 + "| short |\n| " + "y " * 70 + "| z |\n| small | row |\n"


@pytest.mark.parametrize(("size", "overlap"), [(200, 60), (160, 40)])
def test_overlap_into_a_wide_row_with_a_cell_over_the_budget(size, overlap):
    # the y row (147 characters) is larger than size - overlap and fits size: it starts a
    # chunk; its first cell ("| y y ... y", 141 characters) is larger than the budget too,
    # and the overlap before it ended inside that cell ("| y y y ... y")
    chunks = chunkwise.chunk(_WIDE, strategy="markdown", chunk_size=size, chunk_overlap=overlap)
    check_invariants(_WIDE, chunks, size, MarkdownChunker(chunk_size=size, chunk_overlap=overlap).sizer)
    rows = _rows(_WIDE)
    y = _WIDE.index("| y")
    assert any(c.start_index == y for c in chunks)
    assert [_inside_a_cell(_WIDE, rows, x, size) for x in _overlap_ends(chunks)] == [None] * len(_overlap_ends(chunks))
    assert chunks[1].text.endswith("| short |")


def test_overlap_into_a_wide_row_still_ends_at_a_cell_edge_that_fits():
    # a small first cell before the wide one: the overlap keeps it and stops at its edge
    text = "| a | b |\n|---|---|\n| " + "x " * 60 + "|\n| y | " + "w " * 70 + "|\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=200, chunk_overlap=60)
    check_invariants(text, chunks, 200, MarkdownChunker(chunk_size=200, chunk_overlap=60).sizer)
    assert _overlap_ends(chunks)
    assert all(_inside_a_cell(text, _rows(text), x, 200) is None for x in _overlap_ends(chunks))
    assert chunks[1].text.endswith("\n| y")


_WORDS = st.sampled_from(["x", "yy", "alpha", "beta", "`c`", "1.5"])


@st.composite
def wide_tables(draw):
    ncols = draw(st.integers(1, 3))
    nrows = draw(st.integers(1, 5))
    rows = []
    for _ in range(nrows + 1):
        row = []
        for _ in range(ncols):
            n = draw(st.sampled_from([1, 2, 5, 20, 40, 70]))
            row.append(" ".join(draw(st.lists(_WORDS, min_size=n, max_size=n))))
        rows.append(row)
    pad = draw(st.booleans())
    width = [max(len(r[k]) for r in rows) for k in range(ncols)] if pad else [0] * ncols

    def line(r):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, width)) + " |"

    head = line(rows[0]) + "\n|" + "|".join("---" for _ in range(ncols)) + "|"
    intro = draw(st.sampled_from(["", "## Wide\n\n", "# Title\n\nSome text before the table.\n\n"]))
    return intro + head + "\n" + "\n".join(line(r) for r in rows[1:]) + "\n"


@_SETTINGS
@given(wide_tables(), st.data(), st.integers(10, 45))
def test_property_no_overlap_ends_inside_a_cell_of_a_row_that_fits(text, data, percent):
    rows = _rows(text)
    # chunk_size near the widest row, or any: rows that fit it with a cell over the budget
    widest = max(e - s for s, e, _ in rows)
    size = data.draw(st.one_of(st.integers(widest, widest + 40), st.integers(60, 400)), label="size")
    overlap = size * percent // 100
    chunker = MarkdownChunker(chunk_size=size, chunk_overlap=overlap)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    # a row the packer cut (a heading glued to a row that fits alone, not with it) is
    # left out: an overlap may end inside a cell the packer cut anyway
    starts = [c.start_index for c in chunks]
    whole = [r for r in rows if not any(r[0] < p < r[1] for p in starts)]
    for x in _overlap_ends(chunks):
        assert _inside_a_cell(text, whole, x, size) is None, (x, text[max(0, x - 30) : x + 10])


_ANCHORED = (
    "Some text first. This is true even if the deprecation is no longer in use (for\n"
    "example, due to removal of an End-of-Life deprecated API).\n\n"
    '<a id="deprecation-cycle"></a>\n'
    "A _deprecation cycle_ is a major release during which an API has been in one of\n"
    "the three Deprecation levels. Documentation-Only Deprecations can land in a\n"
    "minor release.\n"
)


@pytest.mark.parametrize("anchor", ['<a id="deprecation-cycle"></a>', "<a name='x'/>", '<a id="a"></a> <a id="b"></a>'])
def test_anchor_line_above_a_paragraph_goes_with_it(anchor):
    # as in Node.js's collaborator-guide.md: the anchor is the first line of the
    # paragraph it names; it was left at the end of the chunk before
    text = _ANCHORED.replace('<a id="deprecation-cycle"></a>', anchor)
    chunker = MarkdownChunker(chunk_size=200)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 200, chunker.sizer)
    assert len(chunks) > 1
    assert [c.text.startswith(anchor) for c in chunks].count(True) == 1
    assert not any(c.text.endswith(anchor) for c in chunks)
