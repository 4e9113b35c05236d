"""Named hostile inputs for every core strategy and unit (the property tests' worst cases)."""

from __future__ import annotations

import pytest
from invariants import check_invariants

from chunkwise import FixedChunker, RecursiveChunker, SentenceChunker
from chunkwise.sizers import CharSizer, WordSizer

INPUTS = {
    "giant-word": "x" * 10_000,
    "giant-word-between-text": "Start here. " + "y" * 10_000 + " end here.",
    "crlf": "First line.\r\nSecond line.\r\n\r\nNew paragraph here.\r\n" * 20,
    "tabs": "col1\tcol2\tcol3\n" * 50,
    "emoji-zwj": "👩\u200d👩\u200d👧 family " * 40 + "🇫🇷🇩🇪" * 30,
    "combining": "e\u0301" * 300 + " a\u0308\u0301 " * 50,
    "cjk": "今天天气很好。我们去公园散步，然后吃午饭。" * 40,
    "no-separators": "abcdefghij" * 300,
    "only-whitespace": " \t\r\n " * 20,
    "empty": "",
}
CHUNKERS = {
    "recursive": lambda size, sizer: RecursiveChunker(chunk_size=size, chunk_overlap=size // 4, unit=sizer),
    "sentence": lambda size, sizer: SentenceChunker(chunk_size=size, overlap_sentences=1, unit=sizer),
    "fixed": lambda size, sizer: FixedChunker(chunk_size=size, chunk_overlap=size // 3, unit=sizer),
}


@pytest.mark.parametrize("name", sorted(INPUTS))
@pytest.mark.parametrize("strategy", sorted(CHUNKERS))
@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
def test_hostile_input(name, strategy, kind, cl100k):
    text = INPUTS[name]
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    for size in (1, 7, 64):
        chunker = CHUNKERS[strategy](size, sizer)
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, size, sizer, trimmed=strategy != "fixed")
        if not text.strip():
            assert chunks == []
        assert chunks == chunker.chunk(text)


def test_giant_word_is_cut_into_full_windows():
    chunks = RecursiveChunker(chunk_size=1000).chunk("x" * 10_000)
    assert [len(c.text) for c in chunks] == [1000] * 10
    assert all(c.metadata["boundary"] in ("hard", "end") for c in chunks)


def test_crlf_is_never_split():
    text = "a\r\nb\r\nc"
    for size in range(1, 4):
        for c in FixedChunker(chunk_size=size).chunk(text):
            assert not c.text.startswith("\n")
