"""Golden tests on a five-sentence passage, with expected values computed from the text."""

from __future__ import annotations

import chunkwise
from chunkwise import split_sentences

SENTENCES = [
    "Climate change refers to long-term shifts in global temperatures and weather patterns, mostly driven by human activity.",
    "Since the 1800s, burning fossil fuels such as coal, oil and natural gas has been the main driver of warming.",
    "These fuels release greenhouse gases that act like a blanket around the Earth, trapping heat.",
    "The results include droughts, water scarcity, severe fires, rising seas, floods and melting ice.",
    "Cutting emissions quickly, and adapting to the changes already under way, can still limit the coming damage.",
]
PASSAGE = " ".join(SENTENCES)


def test_passage_measures():
    assert len(SENTENCES[0]) == 119
    assert len(PASSAGE) == 528
    assert [len(s) for s in SENTENCES] == [119, 108, 93, 96, 108]


def test_sentences_are_found_with_offsets():
    spans = split_sentences(PASSAGE)
    assert [PASSAGE[a:b] for a, b in spans] == SENTENCES
    assert spans[1] == (120, 228)


def test_sentence_packing_by_characters():
    # 119 + 1 + 108 = 228 <= 250; adding 93 more (+1) would be 322 > 250
    chunks = chunkwise.chunk(PASSAGE, strategy="sentence", chunk_size=250)
    assert [c.text for c in chunks] == [
        " ".join(SENTENCES[0:2]),
        " ".join(SENTENCES[2:4]),
        SENTENCES[4],
    ]
    assert [(c.start_index, c.end_index) for c in chunks] == [(0, 228), (229, 419), (420, 528)]
    assert [c.size for c in chunks] == [228, 190, 108]


def test_sentence_overlap_repeats_the_last_sentence():
    chunks = chunkwise.chunk(PASSAGE, strategy="sentence", chunk_size=250, overlap_sentences=1)
    texts = [c.text for c in chunks]
    assert texts == [
        " ".join(SENTENCES[0:2]),
        " ".join(SENTENCES[1:3]),
        " ".join(SENTENCES[2:4]),
        " ".join(SENTENCES[3:5]),
    ]


def test_sentence_windows():
    chunks = chunkwise.chunk(PASSAGE, strategy="sentence", chunk_size=1000, sentences_per_chunk=3, step=1)
    assert [c.text for c in chunks] == [" ".join(SENTENCES[i : i + 3]) for i in range(3)]
    chunks = chunkwise.chunk(PASSAGE, strategy="sentence", chunk_size=1000, sentences_per_chunk=2)
    assert [c.text for c in chunks] == [" ".join(SENTENCES[0:2]), " ".join(SENTENCES[2:4]), SENTENCES[4]]


def test_recursive_prefers_sentence_ends():
    # 93 + 1 + 96 + 1 + 108 = 299 characters: the last three sentences fit 300 together
    chunks = chunkwise.chunk(PASSAGE, strategy="recursive", chunk_size=300)
    assert [c.text for c in chunks] == [" ".join(SENTENCES[0:2]), " ".join(SENTENCES[2:5])]
    chunks = chunkwise.chunk(PASSAGE, strategy="recursive", chunk_size=250)
    assert [c.text for c in chunks] == [" ".join(SENTENCES[0:2]), " ".join(SENTENCES[2:4]), SENTENCES[4]]
    assert [c.metadata["boundary"] for c in chunks] == ["sentence", "sentence", "end"]


def test_recursive_overlap_in_characters():
    chunks = chunkwise.chunk(PASSAGE, strategy="recursive", chunk_size=300, chunk_overlap=100)
    for a, b in zip(chunks, chunks[1:]):
        shared = a.end_index - b.start_index
        assert 0 < shared <= 100
        assert a.size <= 300
    # packed to 200 characters, each chunk repeats the next chunk's opening up to a word end
    assert chunks[0].text.startswith(SENTENCES[0])
    assert all(c.text == PASSAGE[c.start_index : c.end_index] for c in chunks)


def test_fixed_windows_by_characters():
    chunks = chunkwise.chunk(PASSAGE, strategy="fixed", chunk_size=200, chunk_overlap=50)
    assert [(c.start_index, c.end_index) for c in chunks] == [(0, 200), (150, 350), (300, 500), (450, 528)]


def test_fixed_windows_by_tokens(cl100k):
    ids = cl100k.encode(PASSAGE)
    chunks = chunkwise.chunk(PASSAGE, strategy="fixed", chunk_size=40, chunk_overlap=10, unit="tokens")
    # ASCII text: every token boundary is a character boundary, so windows are exact
    starts = list(range(0, len(ids), 30))
    expected = []
    for s in starts:
        expected.append(cl100k._enc.decode(ids[s : s + 40]))
        if s + 40 >= len(ids):
            break
    assert [c.text for c in chunks] == expected
    assert all(c.size <= 40 for c in chunks)
