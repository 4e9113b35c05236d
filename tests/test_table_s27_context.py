"""A chunk that starts at (or inside) a pipe table's delimiter row has the header rows
above it in ``context``, after the breadcrumb, in the ``markdown`` strategy as in the
``table`` strategy: every chunk of a table that does not hold the table's first row names
its columns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise

_NARROW = "| identifier | descr |\n|------------|-------|\n| 1 | a |\n| 2 | b |\n"
_HEAD = "| identifier | descr |"


def test_markdown_chunk_at_the_delimiter_row_has_the_header_row_in_context():
    # the header row and the delimiter row do not fit 35 characters together: the
    # delimiter row goes with the first body row, the header row above it in context
    chunks = chunkwise.chunk(_NARROW, strategy="markdown", chunk_size=35)
    assert [c.text for c in chunks] == [_HEAD, "|------------|-------|\n| 1 | a |", "| 2 | b |"]
    assert [c.context for c in chunks] == ["", _HEAD, _HEAD + "\n|------------|-------|"]
    assert (chunks[1].metadata["row_start"], chunks[1].metadata["row_end"]) == (0, 1)


def test_markdown_header_rows_follow_the_breadcrumb():
    text = "# Title\n\nSome words here.\n\n" + _NARROW
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=35)
    assert [c.text for c in chunks][2:] == ["|------------|-------|\n| 1 | a |", "| 2 | b |"]
    assert [c.context for c in chunks][1:] == [
        "Title", "Title\n" + _HEAD, "Title\n" + _HEAD + "\n|------------|-------|"
    ]


def test_markdown_and_table_strategies_agree_on_the_context():
    for size in (25, 30, 35):
        md = chunkwise.chunk(_NARROW, strategy="markdown", chunk_size=size)
        tb = chunkwise.chunk(_NARROW, strategy="table", chunk_size=size)
        assert [(c.text, c.context) for c in md] == [(c.text, c.context) for c in tb], size


_WORD = st.text("abcdefgh", min_size=1, max_size=12)


@st.composite
def _tables(draw):
    cols = draw(st.integers(1, 5))
    head = "| " + " | ".join(draw(st.lists(_WORD, min_size=cols, max_size=cols))) + " |"
    rule = "|" + "|".join("-" * draw(st.integers(3, 12)) for _ in range(cols)) + "|"
    rows = [
        "| " + " | ".join(draw(st.lists(_WORD, min_size=cols, max_size=cols))) + " |"
        for _ in range(draw(st.integers(0, 4)))
    ]
    title = draw(st.sampled_from(["", "# Results\n\n", "# Results\n\nSome text.\n\n"]))
    return title + "\n".join([head, rule, *rows]) + "\n", head


@settings(max_examples=150, deadline=None)
@given(_tables(), st.integers(8, 90), st.sampled_from(["markdown", "table"]), st.integers(0, 10))
def test_property_a_chunk_at_the_delimiter_row_names_the_header(doc, size, strategy, overlap):
    text, head = doc
    ds = text.index(head) + len(head) + 1
    de = text.index("\n", ds)
    overlap = min(overlap, size - 1)
    chunks = chunkwise.chunk(text, strategy=strategy, chunk_size=size, chunk_overlap=overlap, unit="characters")
    for c in chunks:
        if ds <= c.start_index < de:  # (at the delimiter row, or in a part of it)
            assert c.context.split("\n")[-1] == head, (c.text, c.context)
            if strategy == "markdown" and text.startswith("#"):
                assert c.context.split("\n")[0] == "Results", c.context
