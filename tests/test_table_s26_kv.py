"""A ``kv`` table chunk's context is computed on access and the last one is kept per
table: reading a chunk's context twice (``to_dict()`` then ``text_for_embedding()``)
computes it once; values, pickles, copies and equality are as before."""

from __future__ import annotations

import copy
import pickle
import threading

import chunkwise
from chunkwise.chunkers import table as table_module
from chunkwise.types import Document

CSV = "id,name,city\n" + "".join(f"{i},name {i},city {i % 7}\n" for i in range(300))


def _chunks(**params):
    return chunkwise.chunk(Document(CSV, metadata={"format": "csv"}), strategy="table", row_format="kv", **params)


def test_a_second_read_of_a_context_is_not_computed_again(monkeypatch):
    cs = _chunks(chunk_size=120)
    calls = []
    real = table_module._kv
    monkeypatch.setattr(table_module, "_kv", lambda *a: calls.append(a[2:4]) or real(*a))
    for c in cs:
        d = c.to_dict()
        e = c.text_for_embedding()
        assert e == f"{d['context']}\n{c.text}" and d["context"] == c.context
    assert len(calls) == len(cs) and len(set(calls)) == len(cs)


def test_kept_context_is_the_context_of_the_chunk_read():
    cs = _chunks(chunk_size=120)
    fresh = _chunks(chunk_size=120)
    # in any order, the same contexts as chunks that never read one before
    order = list(range(len(cs)))[::-1] + list(range(0, len(cs), 3)) + list(range(len(cs)))
    for k in order:
        assert cs[k].context == fresh[k].context and cs[k].context.startswith("id: ")
    assert [c.to_dict() for c in cs] == [c.to_dict() for c in fresh]
    for c in cs:
        for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c)):
            assert twin == c and type(twin._held_context) is str and twin.context == c.context
    # the kept value is one string for the table, not one a chunk
    assert len({id(c._held_context) for c in cs}) == 1


def test_threads_read_the_right_contexts():
    cs = _chunks(chunk_size=90)
    want = [c.context for c in _chunks(chunk_size=90)]
    bad = []

    def read():
        for _ in range(20):
            for k, c in enumerate(cs):
                if c.context != want[k]:
                    bad.append(k)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad
