"""Overlap never repeats a chunk: every chunk adds text its predecessor lacks.

The overlap pass extends each packed span into the next one; when an extension reached the
end of the next span, that span was kept although it lay wholly inside the extended one
(``"One. Two. Three. Four. Five."`` at 12 characters with an overlap of 4 gave
``"One. Two."`` then ``"Two."``). A span an extension covers is now dropped, so both the
starts and the ends of consecutive chunks strictly increase, for every strategy and unit.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants
from test_every_strategy import NEEDS, _params, documents

import chunkwise
from chunkwise import SentenceChunker
from chunkwise.sizers import CharSizer, WordSizer

# propositions are records that may repeat a span by design (test_llm_strategies.py)
FLAT = [n for n in chunkwise.strategy_names() if n != "propositions"]


def _sizer(request, kind):
    return {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")


def _check_progress(chunks):
    for i, (a, b) in enumerate(zip(chunks, chunks[1:]), 1):
        assert b.start_index > a.start_index, f"chunk {i} starts no later than chunk {i - 1}"
        assert b.end_index > a.end_index, f"chunk {i} lies inside chunk {i - 1}: {b.text!r} in {a.text!r}"


def test_a_chunk_wholly_inside_its_predecessor_is_not_emitted():
    text = "One. Two. Three. Four. Five."
    chunks = chunkwise.chunk(text, chunk_size=12, chunk_overlap=4)
    assert [c.text for c in chunks] == ["One. Two.", "Three.", "Four.", "Five."]
    _check_progress(chunks)
    check_invariants(text, chunks, 12, CharSizer(), overlap_allowed=True)


def test_an_overlap_that_ends_inside_the_next_chunk_is_kept():
    text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."
    chunks = chunkwise.chunk(text, chunk_size=30, chunk_overlap=10)
    _check_progress(chunks)
    # consecutive chunks share text: each extension ends inside the chunk after it
    assert all(a.end_index > b.start_index for a, b in zip(chunks, chunks[1:]))


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@pytest.mark.parametrize("name", FLAT)
@settings(max_examples=30)
@given(text=documents, size=st.integers(2, 80), ratio=st.sampled_from([0.1, 0.25, 0.5, 0.9]))
def test_every_strategy_with_overlap_moves_forward(request, name, kind, text, size, ratio):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    sizer = _sizer(request, kind)
    overlap = max(1, min(size - 1, int(size * ratio)))
    chunker = chunkwise.make_chunker(name, chunk_size=size, chunk_overlap=overlap, unit=sizer, **_params(name))
    chunks = chunker.chunk(text)
    _check_progress(chunks)
    check_invariants(text, chunks, size, sizer, trimmed=name not in ("fixed", "code"), overlap_allowed=True)


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@settings(max_examples=40)
@given(text=documents, size=st.integers(2, 80), k=st.integers(1, 3), window=st.integers(1, 4), step=st.integers(1, 4))
def test_sentence_overlap_and_windows_move_forward(request, kind, text, size, k, window, step):
    sizer = _sizer(request, kind)
    packed = SentenceChunker(chunk_size=size, overlap_sentences=k, unit=sizer).chunk(text)
    _check_progress(packed)
    windows = SentenceChunker(chunk_size=size, sentences_per_chunk=window, step=min(step, window), unit=sizer).chunk(text)
    _check_progress(windows)
