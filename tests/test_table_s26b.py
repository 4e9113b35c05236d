"""A header larger than ``chunk_size`` is cut on its own: no body row shares a chunk with
a part of it, and every chunk of body rows has the header in ``context``."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.parsers.table import delimited_table, find_pipe_tables

from invariants import check_invariants


def _tsv(text: str, **kw):
    return chunkwise.chunk(chunkwise.parse(text, format="tsv"), strategy="table", **kw)


def _check_header(text: str, chunks, t) -> None:
    """Every chunk that holds body text either holds the whole header in its text or has
    the header in ``context``."""
    hs, he = t.header
    header = text[hs:he].rstrip("\r\n")
    for c in chunks:
        body = text[max(c.start_index, he) : c.end_index]
        if c.end_index <= he or not body.strip():
            continue
        assert c.start_index <= hs or c.context.startswith(header), (c.text, c.context)


def test_a_wide_tsv_header_does_not_take_body_rows():
    text = "name\tqty\tnote\nx\t1\t\t\ny\t\t\n\tz\tq\n"
    chunks = _tsv(text, chunk_size=12)
    t = delimited_table(text, delimiter="\t")
    _check_header(text, chunks, t)
    assert [c.text for c in chunks] == ["name\tqty", "note", "x\t1\t\t\ny\t\t", "\tz\tq"]
    assert [c.context for c in chunks[2:]] == ["name\tqty\tnote"] * 2
    check_invariants(text, chunks, 12, chunkwise.sizers.CharSizer(), trimmed=False)


def test_a_wide_pipe_header_does_not_take_body_rows():
    text = "| Option name | Default value | Description |\n|---|---|---|\n| port | 8080 | the port |\n| a | b | c |\n"
    t = find_pipe_tables(text)[0]
    ds = t.header_starts[-1]
    for size in range(20, 58):
        chunks = chunkwise.chunk(text, strategy="table", chunk_size=size)
        # (the delimiter row may go with the first body row, under the header row in ``context``)
        at_rule = [c for c in chunks if c.start_index == ds]
        assert all(c.context == text[:ds].rstrip("\n") for c in at_rule)
        _check_header(text, [c for c in chunks if c.start_index != ds], t)


_cell = st.text(alphabet="abc xy1", min_size=0, max_size=9)


@settings(max_examples=150, deadline=None)
@given(
    head=st.lists(st.text(alphabet="abcdef ", min_size=1, max_size=12), min_size=1, max_size=5),
    rows=st.lists(st.lists(_cell, min_size=1, max_size=5), min_size=1, max_size=6),
    size=st.integers(8, 40),
    overlap=st.sampled_from([0, 3]),
)
def test_every_body_chunk_has_the_header(head, rows, size, overlap):
    head = [h.strip() or "h" for h in head]
    text = "\t".join(head) + "\n" + "".join("\t".join(r) + "\n" for r in rows)
    if not text.strip() or overlap >= size:
        return
    chunks = _tsv(text, chunk_size=size, chunk_overlap=overlap)
    t = delimited_table(text, delimiter="\t")
    if t is None:
        return
    _check_header(text, chunks, t)
    check_invariants(text, chunks, size, chunkwise.sizers.CharSizer(), trimmed=False)


def test_a_padded_cell_that_fits_is_not_cut_and_a_lone_pipe_joins_a_neighbour():
    md = ("| Name | Aliases" + " " * 150 + "|\n|------|" + "-" * 165 + "|\n| a | b, c, d" + " " * 150
          + "|\n| e | f, g" + " " * 150 + "|\n")
    chunks = chunkwise.chunk(md, strategy="table", chunk_size=60)
    check_invariants(md, chunks, 60, chunkwise.sizers.CharSizer())
    texts = [c.text for c in chunks]
    assert "| a | b, c, d" in texts
    assert "|\n| e | f, g" in texts
    # only the last pipe, with no neighbour it fits with, stays alone
    assert [k for k, s in enumerate(texts) if set(s) <= set("| \n")] == [len(texts) - 1]


_word = st.sampled_from(["a", "b, c, d", "foo bar", "lorem ipsum dolor", "x y"])


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.lists(st.tuples(_word, st.sampled_from([0, 1, 6, 80, 150])), min_size=1, max_size=3),
                  min_size=1, max_size=4),
    size=st.integers(20, 120),
)
def test_a_lone_pipe_joins_a_neighbour_it_fits_with(rows, size):
    w = len(rows[0])
    rows = [(r * w)[:w] for r in rows]
    lines = ["| " + " | ".join(f"h{k}" for k in range(w)) + " |", "|" + "---|" * w]
    lines += ["| " + " | ".join(v + " " * pad for v, pad in r) + " |" for r in rows]
    text = "\n".join(lines) + "\n"
    chunks = chunkwise.chunk(text, strategy="table", chunk_size=size)
    check_invariants(text, chunks, size, chunkwise.sizers.CharSizer())
    he = find_pipe_tables(text)[0].header[1]
    for k, c in enumerate(chunks):
        if c.start_index < he or not set(c.text) <= set("| \n"):
            continue
        if k and chunks[k - 1].start_index >= he and chunks[k - 1].end_index <= c.start_index:
            assert len(text[chunks[k - 1].start_index : c.end_index]) > size
        if k + 1 < len(chunks) and c.end_index <= chunks[k + 1].start_index:
            assert len(text[c.start_index : chunks[k + 1].end_index]) > size


@pytest.mark.parametrize("size", [20, 40, 60, 100])
@pytest.mark.parametrize("pad", [6, 80, 150])
def test_padded_cells_that_fit_are_not_cut_for_their_padding(size, pad):
    """Rows larger than ``chunk_size`` only by their padding: cut between cells, never
    inside a cell's text (the words of a padded cell were cut: "b, c," and "d")."""
    text = "| h0 | h1 |\n|---|---|\n" + "".join(f"| k{r} | b, c, d{' ' * pad} |\n" for r in range(4))
    chunks = chunkwise.chunk(text, strategy="table", chunk_size=size)
    check_invariants(text, chunks, size, chunkwise.sizers.CharSizer())
    cuts = {c.start_index for c in chunks} | {c.end_index for c in chunks}
    for a in (m.start() for m in re.finditer("b, c, d", text)):
        assert not [x for x in cuts if a < x < a + 7], (size, pad)
