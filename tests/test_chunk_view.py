"""Chunks made by chunking read their text from their document's text.

The enrichment pass does not give each chunk a copy of its text: the chunk holds its
document's text (one string shared by all its chunks) and ``chunk.text`` slices it on
access. Everything else about :class:`~chunkwise.types.Chunk` stays as it was: the
constructor stores the text it is given, and fields, ``replace``, ``asdict``, ``==``,
``hash``, repr, frozenness, pickle and deep copies behave as before; a pickle holds the
chunk's slice, never the whole document.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import enrich
from chunkwise.enrich import build_chunks, with_metadata
from chunkwise.merge import Span
from chunkwise.types import Chunk, Document

ALPHABET = st.sampled_from(["a", "Z", " ", "\n", ".", "é", "中", "\U0001f600", "\ud800", "\x00", "\t"])
texts = st.lists(ALPHABET, min_size=1, max_size=300).map("".join)
FIELDS = ("text", "start_index", "end_index", "index", "size", "unit", "document_id", "metadata", "context",
          "embedding", "id")


def owned(c: Chunk) -> Chunk:
    """The same chunk built by the constructor (holding its own text)."""
    return Chunk(**{name: getattr(c, name) for name in FIELDS})


def big_document(n: int = 400_000) -> Document:
    words = ["alpha", "beta", "gamma", "delta.", "epsilon", "zeta\n\n"]
    return Document(" ".join(words[i % len(words)] for i in range(n // 6))[:n])


def test_the_enrichment_pass_can_swap_classes():
    # (else every chunk goes through the constructor and holds its own text)
    assert enrich._SWAP


@settings(max_examples=150, deadline=None)
@given(texts, st.sampled_from(["recursive", "fixed", "sentence"]), st.integers(3, 40))
def test_text_is_the_documents_slice_after_pickle_deepcopy_and_replace(text, strategy, size):
    doc = Document(text, metadata={"k": 1})
    for c in chunkwise.chunk(doc, strategy=strategy, chunk_size=size):
        assert c._source is doc.text
        assert c.text == doc.text[c.start_index : c.end_index]
        plain = owned(c)
        assert plain._source is None
        copies = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c), dataclasses.replace(c)]
        for other in copies:
            assert type(other) is Chunk
            assert other == c == plain
            assert other.to_dict() == c.to_dict()
            assert other.text == doc.text[other.start_index : other.end_index]
            assert other._source is None  # the copy holds the slice, not the document
        moved = dataclasses.replace(c, metadata={"x": 2}, index=7)
        assert moved.text == c.text and moved.index == 7 and dict(moved.metadata) == {"x": 2}
        assert moved.id == c.id


@settings(max_examples=100, deadline=None)
@given(texts, st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), max_size=6))
def test_build_chunks_reads_every_span_from_the_document(text, pairs):
    doc = Document(text)
    n = len(text)
    spans = [Span(min(a, n), max(min(a, n), min(b, n)), 1, "word", False) for a, b in pairs]
    got = build_chunks(doc, spans, "chars")
    for c, s in zip(got, spans, strict=True):
        assert c._source is doc.text
        assert (c.start_index, c.end_index) == (s.start, s.end)
        assert c.text == text[s.start : s.end]
        assert c == owned(c)
        assert repr(c) == repr(owned(c))


def test_a_chunk_made_by_chunking_holds_no_copy_of_its_text():
    doc = big_document()
    chunks = chunkwise.chunk(doc, strategy="recursive", chunk_size=2000)
    assert len(chunks) > 100
    for c in chunks:
        assert c._source is doc.text
        assert c.text == doc.text[c.start_index : c.end_index]
    # each access makes a new string; the chunk keeps none of them
    c = chunks[10]
    assert c.text is not c.text
    # one object for the document's text, shared by all its chunks
    assert len({id(c._held_text) for c in chunks}) == 1
    assert sys.getsizeof(c._held_text) < 100  # (a reference to the text, not a copy)


def test_the_returned_chunks_cost_much_less_than_the_text():
    doc = big_document()
    chunkwise.chunk(doc, strategy="recursive", chunk_size=2000)  # (imports, caches)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        chunks = chunkwise.chunk(doc, strategy="recursive", chunk_size=2000)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(chunks) > 150
    # a copy of each chunk's text alone would be more than the document's size
    assert held < 0.5 * len(doc.text), held


def test_the_pickle_of_a_chunk_holds_its_slice_only():
    doc = big_document()
    chunks = chunkwise.chunk(doc, strategy="recursive", chunk_size=500)
    c = chunks[len(chunks) // 2]
    data = pickle.dumps(c)
    assert len(data) < len(c.text) + 600
    assert len(data) < len(doc.text) // 100
    assert len(pickle.dumps(chunks)) < 2 * len(doc.text)  # (the slices, not a document each)
    back = pickle.loads(data)
    assert back == c and back.text == c.text and back._source is None


def test_strategies_through_with_metadata_keep_reading_from_the_document():
    doc = Document("# Title\n\nSome words here. " * 200 + "\n\nEnd.", source="a.md", metadata={"format": "markdown"})
    for strategy in ("auto", "markdown", "recursive"):
        chunks = chunkwise.chunk(doc, strategy=strategy, chunk_size=300)
        assert all(c._source is doc.text for c in chunks)
        assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
    tagged = with_metadata(chunks, {"extra": 1})
    assert [c._source for c in tagged] == [doc.text] * len(chunks)
    assert [c.text for c in tagged] == [c.text for c in chunks]


def test_table_chunks_read_from_the_document():
    rows = "".join(f"{i},name {i},{i * 3}\n" for i in range(2000))
    doc = chunkwise.parse("id,name,amount\n" + rows, format="csv")
    chunks = chunkwise.chunk(doc, strategy="table", chunk_size=300)
    assert len(chunks) > 10
    assert all(c._source is doc.text and c.text == doc.text[c.start_index : c.end_index] for c in chunks)


# -- the public API of Chunk, unchanged -------------------------------------------------


def test_construction_stores_the_given_text():
    text = "not from any document"
    kw = Chunk(text=text, start_index=5, end_index=9, index=1, size=4, metadata={"a": 1}, context="ctx")
    pos = Chunk(text, 5, 9, 1, 4, "chars", "", {"a": 1}, "ctx")
    assert kw == pos
    assert kw.text is text and pos.text is text
    assert kw._source is None
    assert [f.name for f in dataclasses.fields(Chunk)] == list(FIELDS)
    assert Chunk.__match_args__ == FIELDS
    assert dataclasses.replace(kw, text="other").text == "other"
    # a text that is not a str is stored and read back as before
    odd = Chunk(text=None, start_index=0, end_index=0)  # type: ignore[arg-type]
    assert odd.text is None


def test_frozen():
    c = chunkwise.chunk(Document("One two three. Four five six."), strategy="recursive", chunk_size=10)[0]
    for name in ("text", "start_index", "metadata"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(c, name, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        del c.text
    assert c.text == "One two"


def test_equality_repr_hash_asdict_and_to_dict_match_a_constructed_chunk():
    doc = Document("Alpha beta gamma. Delta epsilon zeta. Eta theta.", metadata={"title": "T"})
    for c in chunkwise.chunk(doc, strategy="recursive", chunk_size=20):
        plain = owned(c)
        assert c == plain and plain == c and not (c != plain)
        assert repr(c) == repr(plain) and f"text={c.text!r}" in repr(c)
        assert c.to_dict() == plain.to_dict()
        assert c.text_for_embedding() == plain.text_for_embedding()
        assert dataclasses.asdict(c) == dataclasses.asdict(plain)
        assert dataclasses.astuple(c) == dataclasses.astuple(plain)
        with pytest.raises(TypeError):  # (the metadata is not hashable: neither is a chunk)
            hash(c)
        with pytest.raises(TypeError):
            hash(plain)
    other = dataclasses.replace(plain, start_index=plain.start_index + 1)
    assert c != other


def test_subclasses_still_work():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Scored(Chunk):
        score: float = 0.0

    @dataclasses.dataclass(frozen=True)
    class Tagged(Chunk):
        tag: str = ""

    class Plain(Chunk):
        __slots__ = ()

    s = Scored(text="abc", start_index=0, end_index=3, score=0.5)
    t = Tagged("abc", 0, 3, tag="x")
    p = Plain("abc", 0, 3)
    for c in (s, t, p):
        assert c.text == "abc" and c._source is None
        assert c.id == Chunk("abc", 0, 3).id
        back = copy.deepcopy(c)
        assert back.text == "abc"
    assert dataclasses.replace(s, score=1.0).score == 1.0
    assert dataclasses.replace(t, text="zz").text == "zz"
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.text = "no"  # type: ignore[misc]
    # with_metadata keeps a subclass's class (through replace)
    (kept,) = with_metadata([s], {"k": 1})
    assert type(kept) is Scored and kept.text == "abc" and kept.metadata["k"] == 1
