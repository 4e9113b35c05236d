"""Property tests: every core strategy keeps the chunk contract on hostile text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

from chunkwise import FixedChunker, RecursiveChunker, SentenceChunker
from chunkwise.sizers import CharSizer, WordSizer

PIECES = [
    "word", "a", "The", "quick", "brown", " ", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r\n\r\n", ".", ". ",
    "! ", "? ", "...", "Dr. ", "e.g. ", "3.5", "U.S. ", "\"Quoted.\" ", "(aside.) ", "1. ", "- ",
    "。", "！", "？", "漢字", "の例", "，", "、", "ü", "e\u0301", "a\u0308\u0301", " \u0301",
    "👩\u200d👩\u200d👧", "🇫🇷", "👍🏽", "🚀", "보험", "\u00a0", "x" * 37, "supercalifragilistic", "\x1c",
    "https://example.com/a.b", "name@example.org", "#", "## Title\n",
]

hostile = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=80).map("".join),
    st.text(max_size=300),
    st.builds(lambda w, n: w * n, st.sampled_from(["x", "漢", "🚀", "e\u0301", "ab "]), st.integers(0, 3000)),
)


def _sizers(cl100k):
    return [CharSizer(), WordSizer(), cl100k]


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=hostile, size=st.integers(1, 60), overlap_ratio=st.sampled_from([0, 0, 0.25, 0.5]))
def test_recursive_invariants(kind, cl100k, text, size, overlap_ratio):
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    overlap = min(size - 1, int(size * overlap_ratio))
    chunker = RecursiveChunker(chunk_size=size, chunk_overlap=overlap, unit=sizer)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, overlap_allowed=overlap > 0)
    assert chunks == chunker.chunk(text)


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=hostile, size=st.integers(1, 60), overlap_sentences=st.sampled_from([0, 0, 1, 2]))
def test_sentence_invariants(kind, cl100k, text, size, overlap_sentences):
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    chunker = SentenceChunker(chunk_size=size, overlap_sentences=overlap_sentences, unit=sizer)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, overlap_allowed=overlap_sentences > 0)
    assert chunks == chunker.chunk(text)


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=hostile, size=st.integers(1, 60), window=st.integers(1, 4), step=st.integers(1, 4))
def test_sentence_window_invariants(kind, cl100k, text, size, window, step):
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    chunker = SentenceChunker(chunk_size=size, sentences_per_chunk=window, step=min(step, window), unit=sizer)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, overlap_allowed=step < window)


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=hostile, size=st.integers(1, 60), overlap_ratio=st.sampled_from([0, 0, 0.2, 0.5]))
def test_fixed_invariants(kind, cl100k, text, size, overlap_ratio):
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    overlap = min(size - 1, int(size * overlap_ratio))
    chunker = FixedChunker(chunk_size=size, chunk_overlap=overlap, unit=sizer)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=overlap > 0)
    if overlap == 0:  # windows tile the text: consecutive chunks touch unless whitespace lies between
        for a, b in zip(chunks, chunks[1:]):
            assert a.end_index <= b.start_index
            assert text[a.end_index : b.start_index].strip() == ""
    assert chunks == chunker.chunk(text)


@given(text=hostile, n=st.integers(1, 40), o=st.integers(0, 39))
def test_fixed_char_windows_follow_the_formula(text, n, o):
    """On ASCII text without whitespace-only windows, chunk k covers [k(n-o), k(n-o)+n)."""
    o = min(o, n - 1)
    text = "".join(ch for ch in text if ch.isascii() and not ch.isspace() and ch != "\r") or "abc"
    chunks = FixedChunker(chunk_size=n, chunk_overlap=o).chunk(text)
    step = n - o
    for k, c in enumerate(chunks):
        assert c.start_index == k * step
        assert c.end_index == min(k * step + n, len(text))
    assert chunks[-1].end_index == len(text)
