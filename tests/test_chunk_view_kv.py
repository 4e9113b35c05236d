"""A table chunk with ``row_format="kv"`` computes its context on access.

The ``column: value`` lines of a ``"kv"`` table chunk are not stored as a string in the
chunk: the chunk holds one object shared by its table's chunks and computes ``context``
from the table and its document's text (which it keeps alive for its text anyway) on
each access. Everything else about :class:`~chunkwise.types.Chunk` stays as it was:
``context`` is an equal string every time, and fields, ``replace``, ``asdict``, ``==``,
repr, pickle and copies give chunks holding plain strings.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import enrich
from chunkwise.chunkers.table import TableChunker, table_context
from chunkwise.enrich import with_metadata
from chunkwise.types import Chunk, Document

FIELDS = ("text", "start_index", "end_index", "index", "size", "unit", "document_id", "metadata", "context",
          "embedding", "id")


class EagerTable(TableChunker):
    """The table strategy with an overridden ``context``: its chunks hold the string."""

    def context(self, metadata, span):  # type: ignore[no-untyped-def]
        return super().context(metadata, span)


def owned(c: Chunk) -> Chunk:
    """The same chunk built by the constructor (holding its own text and context)."""
    return Chunk(**{name: getattr(c, name) for name in FIELDS})


def csv_doc(rows: int = 40) -> Document:
    lines = ["id,name,city,note"]
    for i in range(rows):
        lines.append(f'{i},name {i},"Zürich, CH","a note\nover two lines {i}"')
    return chunkwise.parse("\n".join(lines) + "\n", format="csv")


def kv_chunks(doc: Document, **kw) -> list[Chunk]:
    return chunkwise.chunk(doc, strategy="table", row_format="kv", **{"chunk_size": 120, **kw})


def test_a_kv_chunk_holds_no_context_string():
    chunks = kv_chunks(csv_doc())
    assert len(chunks) > 5
    held = [c._held_context for c in chunks]
    assert not any(isinstance(h, str) for h in held)
    assert all(h is held[0] for h in held)  # one object for the table's chunks
    assert chunks[3].context.startswith("id: ")
    assert "city: Zürich, CH; note: a note over two lines" in chunks[3].context


def test_context_is_an_equal_string_each_time_and_not_kept():
    c = kv_chunks(csv_doc())[2]
    a, b = c.context, c.context
    assert type(a) is str and a == b and a
    assert a is b  # (the table's object keeps the last context it computed)
    assert not isinstance(c._held_context, str)  # not cached in the chunk


def test_the_text_format_and_an_overridden_context_hold_strings():
    doc = csv_doc()
    text = chunkwise.chunk(doc, strategy="table", chunk_size=120)
    assert all(type(c._held_context) is str for c in text)
    eager = EagerTable(chunk_size=120, row_format="kv").chunk(doc)
    assert all(type(c._held_context) is str for c in eager)
    assert [c.to_dict() for c in eager] == [c.to_dict() for c in kv_chunks(doc)]


cell = st.lists(st.sampled_from(list('ab Z,;"\n\r\t|é中') + ["\U0001f600", "  ", "word "]), max_size=12).map("".join)


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, str]:
    fmt = draw(st.sampled_from(["csv", "tsv"]))
    delim = "," if fmt == "csv" else "\t"
    end = draw(st.sampled_from(["\n", "\r\n"]))
    width = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(cell, min_size=0, max_size=width + 1), min_size=1, max_size=12))
    head = draw(st.lists(cell, min_size=width, max_size=width))
    return end.join(delim.join(r) for r in [head, *rows]) + end, fmt


@settings(max_examples=150, deadline=None)
@given(tables(), st.integers(4, 80), st.sampled_from([0, 3]), st.sampled_from(["split", "keep"]),
       st.sampled_from(["chars", "words"]))
def test_a_computed_context_equals_the_stored_one(table, size, overlap, oversize, unit):
    text, fmt = table
    doc = chunkwise.parse(text, format=fmt)
    kw = dict(chunk_size=size, chunk_overlap=min(overlap, size // 2), oversize=oversize, unit=unit, row_format="kv")
    try:
        eager = EagerTable(**kw).chunk(doc)
    except chunkwise.ConfigError:
        return
    lazy = TableChunker(**kw).chunk(doc)
    assert [c.to_dict() for c in lazy] == [c.to_dict() for c in eager]
    assert [c.text_for_embedding() for c in lazy] == [c.text_for_embedding() for c in eager]
    assert lazy == eager
    for c, e in zip(lazy, eager):
        assert type(c.context) is str
        assert c == owned(e) and repr(c) == repr(e)


def test_pickle_copies_and_replace_hold_strings():
    chunks = kv_chunks(csv_doc())
    for c in chunks:
        plain = owned(c)
        assert type(plain._held_context) is str
        copies = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c), dataclasses.replace(c)]
        for other in copies:
            assert other == c == plain
            assert type(other._held_context) is str and other.context == c.context
            assert other._source is None
        # a pickle holds the context string (and the text's slice), nothing of the table
        assert len(pickle.dumps(c)) == len(pickle.dumps(plain))
        assert dataclasses.asdict(c)["context"] == c.context
        assert dataclasses.replace(c, context="x").context == "x"
        with pytest.raises(dataclasses.FrozenInstanceError):
            c.context = "x"  # type: ignore[misc]


def test_the_context_object_costs_a_chunk_nothing():
    # the chunks of a table share one object; a kv chunk is as large as a text-format one
    doc = csv_doc(400)
    kv, text = kv_chunks(doc), chunkwise.chunk(doc, strategy="table", chunk_size=120)
    assert [(c.start_index, c.end_index) for c in kv] == [(c.start_index, c.end_index) for c in text]
    assert len({id(c._held_context) for c in kv}) == 1
    assert {sys.getsizeof(c) for c in kv} == {sys.getsizeof(c) for c in text}
    held = kv[0]._held_context
    assert set(type(held).__slots__) == {"table", "text", "last"} and not hasattr(held, "__dict__")
    assert held.text is doc.text and kv[0]._source is doc.text


def test_chunks_built_by_the_constructor_hold_their_context(monkeypatch):
    doc = csv_doc()
    want = kv_chunks(doc)
    monkeypatch.setattr(enrich, "_SWAP", False)
    got = kv_chunks(doc)
    assert got == want
    assert all(type(c._held_context) is str for c in got)


def test_with_metadata_keeps_the_shared_context():
    chunks = kv_chunks(csv_doc())
    more = with_metadata(chunks, {"extra": 1})
    assert [c.context for c in more] == [c.context for c in chunks]
    assert all(m._held_context is c._held_context for m, c in zip(more, chunks))
    assert all(m.metadata["extra"] == 1 for m in more)


def test_the_public_table_context_returns_a_string():
    doc = csv_doc()
    chunker = TableChunker(chunk_size=120, row_format="kv")
    for c in chunker.chunk(doc):
        t = chunker.tables(doc)[0]
        meta: dict = {}
        got = table_context(meta, _span(c), t, 0, doc.text, "kv")
        assert type(got) is str and got == c.context
        assert meta["row_start"] == c.metadata["row_start"] and meta["row_end"] == c.metadata["row_end"]


def _span(c: Chunk):  # type: ignore[no-untyped-def]
    from chunkwise.merge import Span

    return Span(c.start_index, c.end_index, c.size, "")


def test_markdown_tables_and_context_in_size_keep_strings():
    rows = "\n".join(f"| {i} | item {i} with some words |" for i in range(60))
    doc = chunkwise.parse(f"# Title\n\nIntro.\n\n| id | item |\n|---|---|\n{rows}\n\nAfter.\n", format="markdown")
    for kw in ({}, {"include_context_in_size": True}):
        chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=120, **kw)
        later = [c for c in chunks if "| id | item |" in c.context]
        assert later, [c.context for c in chunks]
        assert all(type(c._held_context) is str for c in chunks)
        assert all(c.context.startswith("Title\n| id | item |\n|---|---|") for c in later)
