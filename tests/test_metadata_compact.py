"""Chunk metadata held compactly (:class:`chunkwise.types.Metadata`): it behaves as the
read-only view of a dict did, and a chunk holds only its own values."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from collections.abc import Mapping
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import enrich, types
from chunkwise.enrich import build_chunks
from chunkwise.merge import Span
from chunkwise.types import Chunk, Document, Metadata

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
dicts = st.dictionaries(st.text(max_size=10), values, max_size=14)


@settings(max_examples=200, deadline=None)
@given(dicts, dicts)
def test_behaves_as_the_read_only_view_of_a_dict(d, other):
    m = Chunk("t", 0, 1, metadata=d).metadata
    view = MappingProxyType(dict(d))
    assert isinstance(m, Mapping) and isinstance(m, Metadata)
    assert list(m) == list(view) and list(m.keys()) == list(view.keys())
    assert list(m.values()) == list(view.values()) and list(m.items()) == list(view.items())
    assert list(reversed(m)) == list(reversed(view))
    assert len(m) == len(view) and m.keys() == view.keys()
    for k in [*d, "missing key"]:
        assert (k in m) == (k in view)
        assert m.get(k) == view.get(k) and m.get(k, 7) == view.get(k, 7)
        if k in d:  # (a list or a dict is read as an equal copy)
            assert m[k] is d[k] if type(d[k]) not in (list, dict) else m[k] == d[k] and m[k] is not d[k]
    with pytest.raises(KeyError):
        m["missing key" if "missing key" not in d else "\x00never"]
    # equality both ways, with dicts, views and other Metadata
    assert m == d and d == m and m == view and view == m and m == Metadata(d)
    assert (m == other) == (d == other) and (other == m) == (other == d)
    assert (m != other) == (d != other) and (m == Metadata(other)) == (d == other)
    assert m != [] and m != None  # noqa: E711
    # copies are dicts
    for c in (m.copy(), dict(m), {**m}, m | {}, {} | m):
        assert type(c) is dict and c == d and list(c) == list(d)
    assert m | other == view | other and other | m == other | view
    assert list((m | other).items()) == list((view | other).items())
    assert list((other | m).items()) == list((other | view).items())
    assert json.dumps(dict(m), sort_keys=True) == json.dumps(d, sort_keys=True)
    assert repr(dict(d)) in repr(m)


def test_read_only_and_unhashable_as_before():
    m = Chunk("t", 0, 1, metadata={"k": 1}).metadata
    view = MappingProxyType({"k": 1})
    for target in (m, view):
        with pytest.raises(TypeError):
            target["k"] = 2  # type: ignore[index]
        with pytest.raises(TypeError):
            del target["k"]  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            hash(target)
        with pytest.raises(AttributeError):
            target.update({"k": 2})  # type: ignore[attr-defined]
        with pytest.raises(AttributeError):
            target.pop("k")  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            [] in target  # noqa: B015 -- an unhashable key
    with pytest.raises(TypeError):
        hash(Chunk("t", 0, 1, metadata={"k": 1}))


def test_values_travel_whole():
    doc = Document("Alpha beta gamma.\n\n" * 40, metadata={"title": "T", "tags": ["a", "b"]}, source="s.md")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=60)
    assert len(chunks) > 3
    for c in chunks:
        for back in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c)):
            assert back == c and isinstance(back.metadata, Metadata)
            assert list(back.metadata.items()) == list(c.metadata.items())
        assert pickle.loads(pickle.dumps(c.metadata)) == c.metadata
        assert copy.deepcopy(c.metadata) == c.metadata
        assert copy.deepcopy(c).metadata["tags"] is not c.metadata["tags"]
        assert json.loads(json.dumps(c.to_dict()))["metadata"] == dict(c.metadata)
        assert Metadata(c.metadata) is c.metadata
        assert Chunk(c.text, c.start_index, c.end_index, metadata=c.metadata).metadata is c.metadata


def test_empty_and_made_from_mappings():
    assert Chunk("t", 0, 1).metadata == {} and len(Chunk("t", 0, 1).metadata) == 0
    assert Metadata() == {} and Metadata({"a": 1}, b=2) == {"a": 1, "b": 2}
    assert list(Metadata([("b", 1), ("a", 2)])) == ["b", "a"]
    assert Chunk("t", 0, 1, metadata=MappingProxyType({"a": 1})).metadata == {"a": 1}
    assert Chunk("t", 0, 1, metadata={1: "int key"}).metadata[1] == "int key"
    with pytest.raises(TypeError):
        type(Metadata({"a": 1}))({"a": 1})  # the classes behind it are made by Metadata(...)


def _dict_way(doc: Document, spans: list[Span], chunks: list[Chunk]) -> list[dict]:
    """Each chunk's metadata as the enrichment pass built it as a dict (no labels)."""
    base = enrich.document_base(doc)
    out = []
    for k, s in enumerate(spans):
        meta = {**base, "boundary": s.boundary, "prev_id": chunks[k - 1].id if k else None,
                "next_id": chunks[k + 1].id if k + 1 < len(chunks) else None}
        if s.oversize:
            meta["oversize"] = True
        out.append(meta)
    return out


@pytest.mark.parametrize("doc_meta", [{}, {"title": "T", "n": 3}, {"boundary": "mine", "x": 1}, {"next_id": 0}])
def test_plain_pass_keeps_the_keys_and_order_of_the_dict(doc_meta):
    doc = Document("one two three four five six", metadata=doc_meta, source="a.txt")
    spans = [Span(0, 7, 2, "word"), Span(8, 18, 2, "word", oversize=True), Span(19, 27, 2, "end")]
    chunks = build_chunks(doc, spans, "words")
    want = _dict_way(doc, spans, chunks)
    assert [list(c.metadata.items()) for c in chunks] == [list(w.items()) for w in want]


def test_the_documents_values_are_held_once():
    title = "a title shared by every chunk"
    doc = Document("word " * 400, metadata={"title": title, "tags": ["x"]}, source="s.txt")
    chunks = chunkwise.chunk(doc, chunk_size=50)
    assert len(chunks) > 10
    layouts = {id(c.metadata._l) for c in chunks}
    assert len(layouts) <= 2  # (one with ``oversize`` when a chunk has it)
    assert all(c.metadata["title"] is title and types._raw_dict(c.metadata)["tags"] is doc.metadata["tags"]
               for c in chunks)
    # a chunk holds its own values (boundary, prev_id, next_id, oversize when set) and
    # its layout: 8 bytes each above an empty one
    empty = sys.getsizeof(Metadata())
    for c in chunks:
        own = [k for k in c.metadata if k not in ("title", "tags", "source")]
        assert own[:3] == ["boundary", "prev_id", "next_id"]
        assert sys.getsizeof(c.metadata) == empty + 8 * len(own)


def test_a_callback_that_sets_a_document_key_keeps_its_value():
    doc = Document("alpha beta gamma delta " * 20, metadata={"flag": 1, "k": "v"}, source="s.txt")
    spans = [Span(0, 230, 40, "word"), Span(230, 460, 40, "end")]

    def context(meta, span):
        meta["flag"] = True if span.start else 1.0  # equal to 1, not the same value
        meta["own"] = span.start
        return ""

    chunks = build_chunks(doc, spans, "words", context=context)
    assert chunks[0].metadata["flag"] is not 1 and type(chunks[0].metadata["flag"]) is float
    assert chunks[1].metadata["flag"] is True
    assert [list(c.metadata) for c in chunks] == [["flag", "k", "source", "boundary", "prev_id", "next_id", "own"]] * 2
    assert chunks[1].metadata["own"] == 230


def test_table_chunk_metadata_is_small():
    text = "id,name,city,amount,date,note\n" + "".join(
        f"{i},Customer {i},Paris,{i * 3.5:.2f},2024-01-02,note {i}\n" for i in range(3000))
    doc = chunkwise.parse(text, format="csv")
    doc = Document(doc.text, metadata={**doc.metadata, "relative_path": "t.csv", "filename": "t.csv",
                                       "encoding": "utf-8"}, source="t.csv")
    chunks = chunkwise.chunk(doc, strategy="table", chunk_size=500)
    assert len(chunks) > 50
    keys = list(chunks[5].metadata)
    assert keys[-7:] == ["boundary", "prev_id", "next_id", "table_index", "columns", "row_start", "row_end"]
    # 7 own values in slots: 96 bytes (a dict of these 12 keys and its view took 504)
    assert all(sys.getsizeof(c.metadata) <= 96 for c in chunks[1:])
    columns = types._raw_dict(chunks[0].metadata)["columns"]
    assert all(types._raw_dict(c.metadata)["columns"] is columns for c in chunks)
    assert [c.metadata["row_start"] for c in chunks[1:]] == [c.metadata["row_end"] for c in chunks[:-1]]


def test_equal_sizes_share_one_int():
    doc = Document("Lorem ipsum dolor sit amet. " * 2000)
    chunks = chunkwise.chunk(doc, chunk_size=400)
    big = [c.size for c in chunks if c.size > 256]
    assert len(big) > 50
    assert len({id(s) for s in big}) == len(set(big))


def test_with_metadata_keeps_the_shared_values_shared():
    doc = Document("word " * 300, metadata={"title": "T"}, source="s.txt")
    chunks = chunkwise.chunk(doc, strategy="recursive", chunk_size=50)
    got = enrich.with_metadata(chunks, {"strategy": "recursive"})
    assert [dict(c.metadata) for c in got] == [{**c.metadata, "strategy": "recursive"} for c in chunks]
    assert all(g.metadata._l.base is c.metadata._l.base for g, c in zip(got, chunks))
    again = enrich.with_metadata(got, {"strategy": "auto", "title": "new"})  # keys already there
    assert [list(c.metadata.items()) for c in again] == [
        list({**c.metadata, "strategy": "auto", "title": "new"}.items()) for c in got]


def test_many_key_orders_stay_right_past_the_cache():
    made = [Chunk("t", 0, 1, metadata={f"k{i}": i, "v": [i]}) for i in range(types._CACHE_LIMIT + 50)]
    assert all(c.metadata == {f"k{i}": i, "v": [i]} for i, c in enumerate(made))
    assert len(types._LAYOUTS) <= types._CACHE_LIMIT
