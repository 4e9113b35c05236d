"""The table strategy with ``chunk_overlap``: a row that fits ``chunk_size`` is never
cut (the packer packs at ``chunk_size - chunk_overlap``; a row between the two is a
chunk of its own), and the overlap is made of whole rows."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.table import delimited_table
from chunkwise.sizers import CharSizer


def _chunks(text: str, fmt: str = "csv", **kw):
    return chunkwise.make_chunker("table", **kw).chunk(chunkwise.parse(text, format=fmt))


def _rows(text: str, fmt: str = "csv", header_rows: int = 1) -> list[tuple[int, int]]:
    """Every record of the table (header rows too), its end trimmed."""
    t = delimited_table(text, delimiter="\t" if fmt == "tsv" else None, header_rows=header_rows)
    out = []
    heads = t.header_starts
    spans = [(s, heads[k + 1] if k + 1 < len(heads) else t.header[1]) for k, s in enumerate(heads)]
    for s, e in spans + [t.row_span(k) for k in range(len(t.rows))]:
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
    st.integers(1, 3),
)
def test_rows_that_fit_are_never_cut_with_overlap(records, chunk_size, overlap, oversize, header_rows):
    overlap = min(overlap, chunk_size - 1)
    header_rows = min(header_rows, len(records) + 1)
    width = max(map(len, records))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow([f"c{i}" for i in range(width)])
    for r in records:
        w.writerow(r + [""] * (width - len(r)))
    text = buf.getvalue()
    if not text.strip():
        return
    kw = dict(chunk_size=chunk_size, chunk_overlap=overlap, oversize=oversize, header_rows=header_rows)
    cs = _chunks(text, **kw)
    rows = _rows(text, header_rows=header_rows)
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
    assert cs == _chunks(text, **kw)  # deterministic


# -- header_rows and a header larger than chunk_size

CITIES = "city,country,population\nTokyo,Japan,37400068\nDelhi,India,28514000\nShanghai,China,25582000\n"


def test_header_rows_beyond_the_records_is_a_config_error():
    with pytest.raises(chunkwise.ConfigError, match="header_rows"):
        _chunks(CITIES, chunk_size=30, header_rows=9)
    with pytest.raises(chunkwise.ConfigError, match="header_rows"):
        _chunks(CITIES, chunk_size=30, header_rows=5, row_format="kv")
    cs = _chunks(CITIES, chunk_size=30, header_rows=4)  # every record a header row: allowed
    assert cs and all(c.metadata["row_start"] == c.metadata["row_end"] == 0 for c in cs)


@pytest.mark.parametrize("overlap", [0, 10])
def test_a_header_larger_than_chunk_size_is_cut_between_its_rows(overlap):
    cs = _chunks(CITIES, chunk_size=30, chunk_overlap=overlap, header_rows=2)
    assert [c.text for c in cs][:2] == ["city,country,population", "Tokyo,Japan,37400068"]
    assert not _cut_rows(CITIES, cs, _rows(CITIES, header_rows=2), 30)
    assert cs[2].context == "city,country,population\nTokyo,Japan,37400068"


def test_a_header_larger_than_chunk_size_follows_oversize():
    cs = _chunks(CITIES, chunk_size=30, header_rows=2, oversize="keep")
    assert cs[0].text == "city,country,population\nTokyo,Japan,37400068" and cs[0].metadata["oversize"]
    with pytest.raises(chunkwise.OversizeError):
        _chunks(CITIES, chunk_size=30, header_rows=2, oversize="raise")


def test_a_pipe_header_larger_than_chunk_size_is_cut_between_its_rows():
    doc = "| identifier | descr |\n|------------|-------|\n| 1 | a |\n| 2 | b |\n"
    cs = chunkwise.make_chunker("table", chunk_size=25).chunk(doc)
    assert [c.text for c in cs][:2] == ["| identifier | descr |", "|------------|-------|"]


# -- row_format="kv": one line per row


def test_kv_writes_a_line_break_in_a_value_as_a_space():
    text = 'id,note,val\r\n1,"line one\r\nline two",3\r\n2,"a\nb\rc",4\r\n'
    cs = _chunks(text, chunk_size=200, row_format="kv")
    assert cs[0].context == "id: 1; note: line one line two; val: 3\nid: 2; note: a b c; val: 4"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(_cell, min_size=2, max_size=4), min_size=1, max_size=8), st.integers(10, 120))
def test_kv_context_is_one_line_per_row(records, chunk_size):
    width = max(map(len, records))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows([[f"c{i}" for i in range(width)]] + records)
    text = buf.getvalue()
    for c in _chunks(text, chunk_size=chunk_size, row_format="kv"):
        if "row_end" not in c.metadata:
            continue
        lines = c.context.split("\n") if c.context else []
        assert "\r" not in c.context
        assert len(lines) <= c.metadata["row_end"] - c.metadata["row_start"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_cell, min_size=2, max_size=4), min_size=1, max_size=8), st.integers(8, 60), st.integers(1, 30))
def test_rows_that_fit_are_never_cut_with_overlap_in_tokens(cl100k, records, chunk_size, overlap):
    overlap = min(overlap, chunk_size - 1)
    width = max(map(len, records))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows([[f"c{i}" for i in range(width)]] + records)
    text = buf.getvalue()
    cs = _chunks(text, chunk_size=chunk_size, chunk_overlap=overlap, unit=cl100k)
    fits = [(s, e) for s, e in _rows(text) if cl100k.count(text[s:e]) <= chunk_size]
    assert not _cut_rows(text, cs, fits, 10**9)
    for c in cs:
        assert c.text == text[c.start_index : c.end_index]
        assert c.metadata.get("oversize", False) == (c.size > chunk_size)
