"""A sentence stays whole while it fits; one too big is cut into as few near-even pieces.

With ``sentences_per_chunk`` or ``window_sentences``, a text without any sentence cut (a
one-sentence document) used to be counted in words: one chunk per word. Windows now count
the pieces of the sentence level even when there is only one; a sentence larger than
``chunk_size`` is cut by the engine into as many pieces as the greedy split needs, each
near an equal share.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise import SentenceChunker
from chunkwise.sizers import CharSizer, WordSizer

SENTENCE = "The committee met on Tuesday to review the budget and the hiring plan for the new regional office"
GROUPINGS = [
    {"sentences_per_chunk": 1},
    {"sentences_per_chunk": 2},
    {"sentences_per_chunk": 3, "step": 1},
    {"window_sentences": 0},
    {"window_sentences": 2},
    {"sentences_per_chunk": 2, "window_sentences": 1},
    {"overlap_sentences": 1},
]


@pytest.mark.parametrize("params", GROUPINGS)
@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
def test_a_one_sentence_document_that_fits_is_one_chunk(request, kind, params):
    unit = {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")
    for text in (SENTENCE, SENTENCE + ".", "  " + SENTENCE + "!\n"):
        chunks = SentenceChunker(chunk_size=200, unit=unit, **params).chunk(text)
        assert [c.text for c in chunks] == [text.strip()]
        if "window_sentences" in params:
            assert chunks[0].metadata["window"] == text.strip()


@pytest.mark.parametrize("params", GROUPINGS)
def test_a_sentence_too_big_is_cut_into_as_few_even_pieces_as_fit(params):
    # 18 words at 8 a chunk: 3 pieces of 6 words (the greedy cut gave 8, 8, 2)
    chunks = chunkwise.chunk(SENTENCE, strategy="sentence", chunk_size=8, unit="words", **params)
    if "overlap_sentences" in params:  # packing: the balancing of runts, not windows
        assert len(chunks) == 3
        return
    assert [c.text for c in chunks] == [
        "The committee met on Tuesday to",
        "review the budget and the hiring",
        "plan for the new regional office",
    ]
    if "window_sentences" in params:  # each piece's window is its whole sentence
        assert {c.metadata["window"] for c in chunks} == {SENTENCE}


def test_short_sentences_stay_whole_around_a_long_one():
    text = f"Short one. {SENTENCE}. Another short one! And a last."
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=8, unit="words", sentences_per_chunk=1)
    assert [c.text for c in chunks] == [
        "Short one.",
        "The committee met on Tuesday to",
        "review the budget and the hiring",
        "plan for the new regional office.",
        "Another short one!",
        "And a last.",
    ]


def test_tokens_pieces_are_near_even(cl100k):
    text = " ".join([SENTENCE] * 6)  # one sentence of 108 words, no terminator
    total = cl100k.count(text)
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=40, unit="tokens", window_sentences=1)
    check_invariants(text, chunks, 40, cl100k, overlap_allowed=False)
    assert len(chunks) == math.ceil(total / 40)
    sizes = [c.size for c in chunks]
    assert max(sizes) - min(sizes) <= 3, sizes


words = st.lists(st.text("abcdefghijklmnopqrstuvwxyzé", min_size=1, max_size=12), min_size=1, max_size=60)
gaps = st.sampled_from([" ", " ", "  ", "\t"])


@given(words=words, gap=gaps, size=st.integers(1, 40), params=st.sampled_from(GROUPINGS[:6]))
def test_words_split_into_the_fewest_pieces_differing_by_one_word(words, gap, size, params):
    text = gap.join(words)
    chunks = SentenceChunker(chunk_size=size, unit="words", **params).chunk(text)
    check_invariants(text, chunks, size, WordSizer(), overlap_allowed=False)
    n = len(words)
    assert len(chunks) == math.ceil(n / size)
    sizes = [c.size for c in chunks]
    assert max(sizes) - min(sizes) <= 1, sizes


@given(words=words, gap=gaps, size=st.integers(12, 200), params=st.sampled_from(GROUPINGS[:6]))
def test_chars_pieces_differ_by_at_most_two_words(words, gap, size, params):
    text = gap.join(words)
    chunks = SentenceChunker(chunk_size=size, unit="chars", **params).chunk(text)
    check_invariants(text, chunks, size, CharSizer(), overlap_allowed=False)
    if len(text) <= size:
        assert len(chunks) == 1
        return
    greedy = chunkwise.chunk(text, strategy="recursive", chunk_size=size)  # the fewest pieces
    assert len(chunks) <= max(len(greedy), 2)
    sizes = [c.size for c in chunks]
    longest = max(map(len, words)) + len(gap)
    assert max(sizes) - min(sizes) <= 2 * longest, sizes


def test_a_long_sentence_without_spaces_is_read_a_bounded_number_of_times(monkeypatch):
    # Japanese without a terminator: one sentence of 8,200 characters, cut at dictionary
    # words; looking for a cut ahead of each share reads no further than a chunk can
    # reach (reading the rest of the sentence for every piece was quadratic)
    pytest.importorskip("icu4py")
    from chunkwise import words

    read = []
    cuts = words.dictionary_word_cuts

    def counting(text, start=0, end=None):
        end = len(text) if end is None else end
        read.append(max(0, end - start))
        return cuts(text, start, end)

    monkeypatch.setattr(words, "dictionary_word_cuts", counting)
    text = "日本語の文章は単語の間に空白を入れずに書かれるので辞書を使って区切る必要があります" * 200
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=200, window_sentences=1)
    check_invariants(text, chunks, 200, CharSizer(), overlap_allowed=False)
    assert len(chunks) <= math.ceil(len(text) / 200) + 1  # words do not fill every chunk
    assert max(c.size for c in chunks) - min(c.size for c in chunks) <= 8
    assert sum(read) <= 6 * len(text)
