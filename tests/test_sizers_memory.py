"""What a token measure holds: one byte a token, and no UTF-8 copy of the document."""

from __future__ import annotations

import sys
import tracemalloc

import pytest

import chunkwise
from chunkwise.sizers import TiktokenSizer

np = pytest.importorskip("numpy")

ROWS = "".join(f"{i},Customer {i * 7 % 1000},São Paulo,{i % 97}.5\n" for i in range(40000))


def test_a_long_text_gets_no_utf8_copy_from_the_encoder():
    """The encoder is handed slices of a long text, not the text: CPython keeps the UTF-8
    form of a non-ASCII string it hands to C code as long as the string lives."""
    text = "x" + ROWS  # a new string, never encoded before
    before = sys.getsizeof(text)
    m = TiktokenSizer("cl100k_base").measure(text)
    assert m.size(0, len(text)) > 0
    assert sys.getsizeof(text) == before
    short = "São Paulo " * 10  # one block: handed whole
    TiktokenSizer("cl100k_base").measure(short)
    assert sys.getsizeof(short) > len(short) + 49


def test_the_measure_holds_about_one_byte_a_token():
    sizer = TiktokenSizer("cl100k_base")
    sizer.measure("warm up")  # the vocabulary's tables are built once per encoding
    tracemalloc.start()
    try:
        m = sizer.measure(ROWS)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    tokens = m.size(0, len(ROWS))
    assert tokens == sizer.count(ROWS)
    # a byte a token, pages of 256 characters at 8 bytes, and small objects
    assert held < tokens + len(ROWS) / 256 * 8 + 8192, (held, tokens)
    # while built: the bytes joined at the end, and one block's ids and sums (the ids of
    # the whole text and an int32 offset each would be 8 bytes a token)
    assert peak < 3 * tokens + 400_000, (peak, tokens)


def test_table_chunks_share_row_numbers():
    """A chunk that starts where the one before ended holds the same int object."""
    doc = chunkwise.parse("a,b,c\n" + "".join(f"{i},{i % 7},x{i}\n" for i in range(3000)), format="csv")
    chunks = chunkwise.chunk(doc, strategy="table", chunk_size=200)
    assert len(chunks) > 50
    pairs = list(zip(chunks, chunks[1:]))
    assert all(b.metadata["row_start"] == a.metadata["row_end"] for a, b in pairs)
    assert all(b.metadata["row_start"] is a.metadata["row_end"] for a, b in pairs)
