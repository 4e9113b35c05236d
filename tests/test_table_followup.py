"""The table strategy with ``chunk_overlap``: a row that fits ``chunk_size`` is never
cut (the packer packs at ``chunk_size - chunk_overlap``; a row between the two is a
chunk of its own), and the overlap is made of whole rows."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.table import delimited_table
from chunkwise.sizers import CharSizer


def _chunks(text: str, fmt: str = "csv", **kw):
    return chunkwise.make_chunker("table", **kw).chunk(chunkwise.parse(text, format=fmt))


def _rows(text: str, fmt: str = "csv") -> list[tuple[int, int]]:
    t = delimited_table(text, delimiter="\t" if fmt == "tsv" else None, header_rows=1)
    out = []
    for k in range(len(t.rows)):
        s, e = t.row_span(k)
        while e > s and text[e - 1].isspace():
            e -= 1
        out.append((s, e))
    return out


def _cut_rows(text, chunks, rows, chunk_size):
    """The rows that fit ``chunk_size`` and that a chunk edge falls inside (not only
    after spaces that begin the row)."""
    cut = []
    for s, e in rows:
        if e - s > chunk_size:
            continue
        for c in chunks:
            a, b = c.start_index, c.end_index
            if s < a < e and text[s:a].strip() or s < b < e and text[b:e].strip():
                cut.append((s, e))
                break
    return cut


REPRO = 'id,note,val\r\n1,"line one\r\nline two",3\r\n2,"x, y",4\r\n'


def test_overlap_keeps_a_quoted_multiline_row_whole():
    cs = _chunks(REPRO, chunk_size=30, chunk_overlap=10)
    texts = [c.text for c in cs]
    assert '1,"line one\r\nline two",3' in texts
    assert not _cut_rows(REPRO, cs, _rows(REPRO), 30)
    assert [c.text for c in cs] == [c.text for c in _chunks(REPRO, chunk_size=30)]


def test_overlap_is_whole_rows():
    text = "k,v\n" + "".join(f"{i},{'x' * 6}\n" for i in range(20))  # rows of 8-9 characters
    cs = _chunks(text, chunk_size=40, chunk_overlap=12)
    rows = _rows(text)
    assert not _cut_rows(text, cs, rows, 40)
    starts = {s for s, _ in rows}
    shared = 0
    for a, b in zip(cs, cs[1:]):
        if b.start_index < a.end_index:  # an overlap: whole rows of the chunk before
            shared += 1
            assert b.start_index in starts
            assert a.end_index - b.start_index <= 12
    assert shared
    check_invariants(text, cs, 40, CharSizer(), overlap_allowed=True)


_cell = st.text(alphabet="ab ,\"\n\r\t;xyz", min_size=0, max_size=18)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(_cell, min_size=2, max_size=4), min_size=1, max_size=10),
    st.integers(8, 80),
    st.integers(1, 40),
    st.sampled_from(["split", "keep"]),
)
def test_rows_that_fit_are_never_cut_with_overlap(records, chunk_size, overlap, oversize):
    overlap = min(overlap, chunk_size - 1)
    width = max(map(len, records))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow([f"c{i}" for i in range(width)])
    for r in records:
        w.writerow(r + [""] * (width - len(r)))
    text = buf.getvalue()
    if not text.strip():
        return
    cs = _chunks(text, chunk_size=chunk_size, chunk_overlap=overlap, oversize=oversize)
    rows = _rows(text)
    assert not _cut_rows(text, cs, rows, chunk_size)
    covered = bytearray(len(text))
    prev = -1
    for c in cs:
        assert c.text == text[c.start_index : c.end_index] and c.text.strip()
        assert c.start_index > prev
        prev = c.start_index
        assert c.size == len(c.text)
        assert c.metadata.get("oversize", False) == (c.size > chunk_size)
        covered[c.start_index : c.end_index] = b"\x01" * len(c.text)
    assert all(covered[i] or ch.isspace() for i, ch in enumerate(text))
    # the same chunks as without overlap where no chunk overlaps (rows apart)
    assert cs == _chunks(text, chunk_size=chunk_size, chunk_overlap=overlap, oversize=oversize)
