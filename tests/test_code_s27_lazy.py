"""The code strategy computes a chunk's metadata and context when they are first read.

The chunks it returns hold one object per chunk in their ``metadata`` and ``context``
slots (``types._Deferred``) instead of the values: these tests check that every way of
reading a chunk gives what the eager enrichment pass gives (the same callback, not marked
lazy), in any order, and that a pickle, a copy or ``to_dict`` holds the values.
"""

from __future__ import annotations

import copy
import gc
import pickle
import threading
import weakref
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise import enrich
from chunkwise.chunkers.code import CodeChunker
from chunkwise.enrich import build_chunks
from chunkwise.packer import pack_segments
from chunkwise.types import Chunk, Document, Metadata, _Deferred

CORPUS = Path(__file__).parent / "corpus" / "code"
FILES = {
    "c": "strbuf.c", "go": "shapes.go", "javascript": "fast-deep-equal.js", "java": "inventory.java",
    "rust": "ring.rs", "cpp": "matrix.hpp", "ruby": "cache.rb", "bash": "backup.sh",
}

PY = '''"""A module."""
import os
from typing import Any

LIMIT = 3


@dataclass
class Store:
    """Holds things."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[Any] = []

    def load(self, name):
        # read it
        for line in open(os.path.join(self.path, name)):
            if line.strip():
                self.items.append(line)
        return self.items


def helper(a, b=2):
    return a + b  # sum


if __name__ == "__main__":
    Store(".").load("x")
'''


def eager(chunker: CodeChunker, doc: Document) -> list[Chunk]:
    """The chunks of ``chunker.chunk(doc)`` with their metadata and context computed by
    the enrichment pass (the same callback, not marked lazy)."""
    measure = chunker.sizer.measure(doc.text)
    segments = chunker.parse(doc, measure)
    spans = pack_segments(doc.text, measure, segments, chunker.pack_config())
    return build_chunks(doc, spans, chunker.sizer.unit, segments.labels, lambda m, s: chunker.context(m, s))


def full(c: Chunk) -> tuple:
    """Everything a chunk gives, the metadata's key order included."""
    d = c.to_dict()
    return d, list(d["metadata"].items()), repr(c)


def sample(draw, lang: str) -> str:
    if lang == "python":
        text = PY
    else:
        text = (CORPUS / FILES[lang]).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    a = draw(st.integers(0, max(0, len(lines) - 5)))
    b = draw(st.integers(a + 1, len(lines)))
    text = "".join(lines[a:b])
    if draw(st.booleans()):
        text = text.replace("\n", draw(st.sampled_from(["\r\n", "\r"])))
    return text


@st.composite
def cases(draw):
    lang = draw(st.sampled_from(["python", *FILES]))
    size = draw(st.integers(40, 700))
    overlap = draw(st.sampled_from([0, 0, size // 5]))
    chunker = CodeChunker(
        language=lang, chunk_size=size, chunk_overlap=overlap,
        include_imports=draw(st.booleans()), include_context_in_size=draw(st.booleans()),
        unit=draw(st.sampled_from(["chars", "chars", "words"])),
    )
    meta = draw(st.sampled_from([{}, {"format": "code", "language": lang, "filename": "f"}, {"title": "T"}]))
    doc = Document(sample(draw, lang), source="f", metadata=meta)
    return chunker, doc


READS = ["to_dict", "metadata", "context", "pickle", "deepcopy", "copy", "repr", "eq", "items", "reversed"]


def read(c: Chunk, how: str):
    if how == "to_dict":
        return c.to_dict()
    if how == "metadata":
        return [(k, c.metadata[k]) for k in c.metadata]
    if how == "context":
        return c.context
    if how == "pickle":
        return pickle.loads(pickle.dumps(c)).to_dict()
    if how == "deepcopy":
        return copy.deepcopy(c).to_dict()
    if how == "copy":
        return copy.copy(c).to_dict()
    if how == "repr":
        return repr(c)
    if how == "eq":
        return c.metadata == dict(c.metadata)
    if how == "items":
        return list(c.metadata.items()), list(c.metadata.values()), list(c.metadata.keys()), len(c.metadata)
    return list(reversed(c.metadata))


@settings(max_examples=120, deadline=None)
@given(cases(), st.permutations(READS), st.booleans())
def test_lazy_chunks_read_as_the_eager_ones_in_any_order(case, order, backwards):
    chunker, doc = case
    got = chunker.chunk(doc)
    want = eager(chunker, doc)
    assert len(got) == len(want)
    assert all(type(c._held_context) is str for c in want)
    assert all(isinstance(c._held_context, _Deferred) and c.metadata is c._held_context for c in got)
    # the first reads, in a drawn order, the chunks first to last or last to first
    for c, w in (zip(reversed(got), reversed(want)) if backwards else zip(got, want)):
        for how in order:
            assert read(c, how) == read(w, how), how
    assert [full(c) for c in got] == [full(c) for c in want]
    assert got == want
    assert pickle.dumps(got) == pickle.dumps(want)


@settings(max_examples=60, deadline=None)
@given(cases())
def test_the_metadata_read_is_the_metadata_pickled_copied_and_written(case):
    chunker, doc = case
    # each chunk read one way first, on fresh chunks each time
    for how in ("pickle", "deepcopy", "to_dict", "metadata"):
        chunks = chunker.chunk(doc)
        first = [read(c, how) for c in chunks]
        again = [read(c, how) for c in chunks]
        assert first == again
        for c in chunks:
            m = c.metadata
            assert pickle.loads(pickle.dumps(m)) == m == copy.deepcopy(m) == c.to_dict()["metadata"]
            assert list(pickle.loads(pickle.dumps(c)).metadata.items()) == list(m.items())
            assert list(copy.deepcopy(c).metadata) == list(m) == list(c.to_dict()["metadata"])
            assert isinstance(m, Metadata) and dict(m) == m.copy() == {k: m.get(k) for k in m}
            assert all(k in m for k in m) and "no such key" not in m and m.get("no such key", 7) == 7
            assert (m | {"x": 1}) == {**dict(m), "x": 1} and ({"x": 1} | m) == {"x": 1, **dict(m)}


def test_a_pickle_or_a_copy_holds_the_values():
    chunks = CodeChunker(language="python", chunk_size=120).chunk(PY)
    assert len(chunks) > 3
    for c in chunks:
        for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c), copy.copy(c)):
            assert twin == c
            assert type(twin._held_context) is str and not isinstance(twin.metadata, _Deferred)
    # dataclasses.replace keeps a lazy value (a Metadata like any)
    from dataclasses import replace

    moved = replace(chunks[2], index=9)
    assert moved.metadata == chunks[2].metadata and moved.context == chunks[2].context and moved.index == 9


def test_metadata_read_last_to_first_counts_lines_the_same():
    text = PY * 3
    chunker = CodeChunker(language="python", chunk_size=150)
    forward = [(c.metadata["start_line"], c.metadata["end_line"]) for c in chunker.chunk(text)]
    chunks = chunker.chunk(text)
    backward = [(c.metadata["start_line"], c.metadata["end_line"]) for c in reversed(chunks)][::-1]
    assert forward == backward
    lines = text.split("\n")
    assert forward == [
        (text.count("\n", 0, c.start_index) + 1, text.count("\n", 0, c.end_index - 1) + 1) for c in chunks
    ]
    assert lines[forward[-1][1] - 1].strip()


def test_threads_reading_at_once_read_the_same_values():
    chunker = CodeChunker(language="python", chunk_size=100, include_imports=True)
    want = [full(c) for c in eager(chunker, Document(PY * 4))]
    for _ in range(5):
        chunks = chunker.chunk(PY * 4)
        out: list[list] = [[] for _ in range(4)]

        def work(k: int) -> None:
            order = chunks if k % 2 else list(reversed(chunks))
            got = {c.index: full(c) for c in order}
            out[k] = [got[i] for i in range(len(chunks))]

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(o == want for o in out)


def test_reading_every_chunk_lets_go_of_the_parse():
    chunks = CodeChunker(language="python", chunk_size=150).chunk(PY * 2)
    held = [c._held_context for c in chunks]
    make = held[0]._make
    assert make is not None
    ref = weakref.ref(make)
    del make
    for c in chunks[:-1]:
        c.metadata.get("symbols")
    gc.collect()
    assert ref() is not None  # (the last chunk has not computed its values yet)
    chunks[-1].context
    gc.collect()
    assert ref() is None
    assert all(h._make is None and h._args is None for h in held)


def test_with_metadata_on_lazy_chunks():
    chunks = CodeChunker(language="go", chunk_size=200).chunk((CORPUS / "shapes.go").read_text(encoding="utf-8"))
    want = eager(CodeChunker(language="go", chunk_size=200), Document((CORPUS / "shapes.go").read_text(encoding="utf-8")))
    got = enrich.with_metadata(chunks, {"strategy": "code"})
    assert [list(c.metadata.items()) for c in got] == [list({**w.metadata, "strategy": "code"}.items()) for w in want]
    assert [c.context for c in got] == [w.context for w in want]


@pytest.mark.parametrize("lang", ["python", "go", "c"])
def test_carriage_returns_count_lines_with_the_context_in_the_size(lang):
    # a text whose lines end with a lone carriage return numbers its lines as its twin
    # with line feeds, also when the context counts in the size (it gave line 1 to every
    # chunk: the imports, read while parsing the twin, numbered its lines without "\r")
    text = PY if lang == "python" else (CORPUS / FILES[lang]).read_text(encoding="utf-8")
    chunker = CodeChunker(language=lang, chunk_size=300, include_imports=True, include_context_in_size=True)
    lf = chunker.chunk(text)
    cr = chunker.chunk(text.replace("\n", "\r"))
    assert len(lf) > 2
    lines = [(c.metadata["start_line"], c.metadata["end_line"]) for c in lf]
    assert [(c.metadata["start_line"], c.metadata["end_line"]) for c in cr] == lines
    assert lines[-1][1] > 10
