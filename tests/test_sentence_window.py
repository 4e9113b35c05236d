"""Sentence windows: ``window_sentences=N`` gives each chunk the exact slice of the N
sentences before and after it (LlamaIndex's SentenceWindowNodeParser, as spans)."""

from __future__ import annotations

import pickle
from bisect import bisect_right

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants
from test_invariants import hostile

import chunkwise
from chunkwise import ConfigError, SentenceChunker
from chunkwise.sentences import split_sentences
from chunkwise.sizers import CharSizer, WordSizer

TEXT = "Pumps start at six. Valves open at seven. Tanks fill by eight. Trucks leave at nine. Crews rest at ten."
SENTENCES = [TEXT[a:b] for a, b in split_sentences(TEXT)]


def _windows(chunks):
    return [(c.text, c.metadata["window"]) for c in chunks]


def test_one_sentence_a_chunk_with_one_sentence_each_side():
    chunks = chunkwise.chunk(
        TEXT, strategy="sentence", chunk_size=200, unit="chars", sentences_per_chunk=1, window_sentences=1
    )
    assert _windows(chunks) == [
        (SENTENCES[0], " ".join(SENTENCES[0:2])),
        (SENTENCES[1], " ".join(SENTENCES[0:3])),
        (SENTENCES[2], " ".join(SENTENCES[1:4])),
        (SENTENCES[3], " ".join(SENTENCES[2:5])),
        (SENTENCES[4], " ".join(SENTENCES[3:5])),
    ]
    for c in chunks:
        assert TEXT[c.metadata["window_start"] : c.metadata["window_end"]] == c.metadata["window"]


def test_window_sentences_alone_means_one_sentence_a_chunk():
    chunks = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=200, window_sentences=2)
    assert [c.text for c in chunks] == SENTENCES
    assert chunks[2].metadata["window"] == TEXT  # two on each side of the middle one: all five
    assert chunks[0].metadata["window"] == " ".join(SENTENCES[0:3])


def test_a_group_of_sentences_gets_the_window_around_the_group():
    chunks = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=200, sentences_per_chunk=2, window_sentences=1)
    assert _windows(chunks) == [
        (" ".join(SENTENCES[0:2]), " ".join(SENTENCES[0:3])),
        (" ".join(SENTENCES[2:4]), " ".join(SENTENCES[1:5])),
        (SENTENCES[4], " ".join(SENTENCES[3:5])),
    ]


def test_window_zero_is_the_chunk_s_own_sentences():
    chunks = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=30, window_sentences=0)
    assert all(c.metadata["window"] == c.text for c in chunks)


def test_pieces_of_a_sentence_too_big_get_the_window_of_their_sentence():
    text = "Short one. " + "This sentence is much too long to fit in one chunk of thirty characters. " + "Last one."
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=30, window_sentences=1)
    sentences = [text[a:b] for a, b in split_sentences(text)]
    assert [c.text for c in chunks][0] == sentences[0] and chunks[-1].text == sentences[2]
    middle = chunks[1:-1]
    assert len(middle) >= 3  # the long sentence is cut in pieces
    assert {c.metadata["window"] for c in middle} == {text.strip()}
    assert chunks[0].metadata["window"] == text[: text.index("characters.") + len("characters.")]


def test_cjk_sentences_without_spaces():
    text = "你好。再见！谢谢。"
    chunks = chunkwise.chunk(text, strategy="sentence", chunk_size=50, window_sentences=1)
    assert _windows(chunks) == [("你好。", "你好。再见！"), ("再见！", text), ("谢谢。", "再见！谢谢。")]


def test_no_window_metadata_unless_asked():
    chunks = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=200, sentences_per_chunk=1)
    assert not any(k.startswith("window") for c in chunks for k in c.metadata)


def test_window_survives_pickling_and_is_deterministic():
    chunker = SentenceChunker(chunk_size=40, window_sentences=1)
    again = pickle.loads(pickle.dumps(chunker))
    assert again == chunker
    assert again.chunk(TEXT) == chunker.chunk(TEXT)


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"window_sentences": -1}, "window_sentences (-1) must be 0 or more"),
        ({"window_sentences": 1.5}, "window_sentences must be an integer"),
        ({"window_sentences": 1, "overlap_sentences": 1}, "overlap_sentences applies to packing"),
        ({"sentences_per_chunk": 2, "overlap_sentences": 1}, "overlap_sentences applies to packing"),
        ({"sentences_per_chunk": 0}, "sentences_per_chunk (0) must be greater than 0"),
        ({"step": 1}, "step needs sentences_per_chunk"),
        ({"window": 2, "sentences_per_chunk": 3}, "window (2) is the old name of sentences_per_chunk (3)"),
    ],
)
def test_invalid_configuration(params, fragment):
    with pytest.raises(ConfigError) as err:
        chunkwise.make_chunker("sentence", **params)
    assert fragment in str(err.value)


def test_window_is_the_deprecated_name_of_sentences_per_chunk():
    old = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=200, window=2, step=1)
    new = chunkwise.chunk(TEXT, strategy="sentence", chunk_size=200, sentences_per_chunk=2, step=1)
    assert old == new and len(new) == 4
    assert "window" not in SentenceChunker.parameters()
    assert {"sentences_per_chunk", "window_sentences"} <= set(SentenceChunker.parameters())


def _sentence_at(starts, sentences, pos):
    k = bisect_right(starts, pos) - 1
    assert k >= 0 and sentences[k][0] <= pos < sentences[k][1], f"offset {pos} is in no sentence"
    return k


@settings(max_examples=150)
@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(
    text=hostile,
    size=st.integers(2, 80),
    n=st.integers(0, 3),
    per_chunk=st.sampled_from([None, 1, 2, 3]),
    step=st.sampled_from([None, 1]),
    overlap=st.sampled_from([0, 0, 1]),
)
def test_window_is_the_slice_of_n_sentences_each_side(kind, cl100k, text, size, n, per_chunk, step, overlap):
    sizer = {"chars": CharSizer(), "words": WordSizer(), "tokens": cl100k}[kind]
    step = step if per_chunk is not None else None
    params = {"chunk_size": size, "chunk_overlap": overlap, "unit": sizer, "step": step}
    chunker = SentenceChunker(**params, sentences_per_chunk=per_chunk, window_sentences=n)
    chunks = chunker.chunk(text)
    overlapping = overlap > 0 or (step is not None and step < (per_chunk or 1))
    check_invariants(text, chunks, size, sizer, overlap_allowed=overlapping)
    # the windows change no chunk: the same spans as without them
    plain = SentenceChunker(**params, sentences_per_chunk=per_chunk or 1)
    assert [(c.start_index, c.end_index) for c in chunks] == [(c.start_index, c.end_index) for c in plain.chunk(text)]
    sentences = split_sentences(text)
    starts = [s for s, _ in sentences]
    last = len(sentences) - 1
    for c in chunks:
        ws, we = c.metadata["window_start"], c.metadata["window_end"]
        assert c.metadata["window"] == text[ws:we]
        assert ws <= c.start_index and c.end_index <= we
        i = _sentence_at(starts, sentences, c.start_index)
        j = _sentence_at(starts, sentences, c.end_index - 1)
        assert ws == sentences[max(0, i - n)][0]  # N sentences before, clipped at the start
        assert we == sentences[min(last, j + n)][1]  # N sentences after, clipped at the end
