"""The enrichment pass's fast paths give the values the plain definitions give.

``build_chunks`` hashes ids from a copied BLAKE2b state and byte-formatted offsets, builds
each chunk's metadata from a copy of the document's, and makes ``Chunk`` values by filling
a blank of the same layout and assigning its class. Here every chunk is compared with a
reference built the slow, obvious way: ``chunk_id`` of the joined string, the metadata as
``{**base, "boundary": ..., "prev_id": ..., "next_id": ...}`` and the ``Chunk``
constructor -- over hostile text (surrogates, astral characters, combining marks),
overlapping and unordered spans, oversize flags, page maps and labels.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from bisect import bisect_left, bisect_right

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import enrich
from chunkwise.enrich import build_chunks, document_base, resolve_labels
from chunkwise.merge import Span
from chunkwise.segments import Label
from chunkwise.types import Chunk, Document, chunk_id

ALPHABET = st.sampled_from(["a", "Z", " ", "\n", "é", "\u0301", "中", "\U0001f600", "\ud800", "\udfff", "\x00", "\t"])
texts = st.lists(ALPHABET, min_size=1, max_size=80).map("".join)


def reference(doc, spans, unit, labels=(), context=None):
    """The enrichment pass written plainly (the definitions the fast paths must keep)."""
    base = document_base(doc)
    extra = resolve_labels(labels, spans, doc.text) if labels else None
    ids = [chunk_id(doc.id, s.start, s.end, doc.text[s.start : s.end]) for s in spans]
    pages = doc.pages
    starts = [p[1] for p in pages]
    out = []
    for k, s in enumerate(spans):
        meta = {**base, "boundary": s.boundary, "prev_id": ids[k - 1] if k else None,
                "next_id": ids[k + 1] if k + 1 < len(ids) else None}
        if s.oversize:
            meta["oversize"] = True
        if pages:
            first = max(bisect_right(starts, s.start) - 1, 0)
            last = max(bisect_left(starts, s.end) - 1, first)
            meta["page_number"], meta["page_end"] = pages[first][0], pages[last][0]
        if extra is not None:
            meta.update(extra[k])
        ctx = meta.pop("context", "")
        if context is not None:
            ctx = context(meta, s)
        out.append(Chunk(text=doc.text[s.start : s.end], start_index=s.start, end_index=s.end, index=k,
                         size=s.size, unit=unit, document_id=doc.id, metadata=meta, context=ctx))
    return out


def fields_of(c):
    return (type(c), c.text, c.start_index, c.end_index, c.index, c.size, c.unit, c.document_id,
            list(c.metadata.items()), c.context, c.embedding, c.id)


@st.composite
def documents_and_spans(draw):
    text = draw(texts)
    n = len(text)
    spans = []
    for _ in range(draw(st.integers(0, 8))):
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, n))
        spans.append(Span(a, b, b - a, draw(st.sampled_from(["paragraph", "word", "end"])), draw(st.booleans())))
    meta = draw(st.sampled_from([{}, {"format": "text", "boundary": "doc's own"}, {"context": "from the document"},
                                 {"warnings": ["x"], "k": 1}]))
    source = draw(st.sampled_from([None, "a/b.txt"]))
    pages = ()
    if n >= 2 and draw(st.booleans()):
        cut = draw(st.integers(1, n - 1))
        pages = ((1, 0, cut), (2, cut, n))
    return Document(text, metadata=meta, source=source, pages=pages), spans


@settings(max_examples=300, deadline=None)
@given(documents_and_spans(), st.booleans())
def test_build_chunks_equals_the_plain_definition(case, with_labels):
    doc, spans = case
    labels = (Label(0, len(doc.text), "section", ("a", "b"), "common_prefix"),) if with_labels else ()
    got = build_chunks(doc, spans, "chars", labels)
    want = reference(doc, spans, "chars", labels)
    assert [fields_of(c) for c in got] == [fields_of(c) for c in want]
    assert got == want


@settings(max_examples=100, deadline=None)
@given(documents_and_spans())
def test_the_constructor_path_gives_the_same_chunks(monkeypatch_case):
    doc, spans = monkeypatch_case
    fast = build_chunks(doc, spans, "words")
    saved = enrich._SWAP
    enrich._SWAP = False  # as when Chunk's layout is not the one the fast path expects
    try:
        slow = build_chunks(doc, spans, "words")
    finally:
        enrich._SWAP = saved
    assert [fields_of(c) for c in fast] == [fields_of(c) for c in slow]


def test_the_fast_path_is_taken_here():
    # the blank's layout matches Chunk's today: if Chunk changes, this says so (the
    # constructor path keeps the output right, only slower)
    assert enrich._SWAP is True


def test_chunks_built_fast_are_ordinary_frozen_chunks():
    doc = Document("Alpha beta.\n\nGamma \U0001f600 delta.", metadata={"k": [1, 2]}, source="s.txt")
    chunks = chunkwise.chunk(doc, chunk_size=12)
    assert len(chunks) >= 2
    for c in chunks:
        assert type(c) is Chunk
        with pytest.raises(dataclasses.FrozenInstanceError):
            c.text = "x"  # type: ignore[misc]
        with pytest.raises(TypeError):
            c.metadata["k"] = 3  # type: ignore[index]
        assert pickle.loads(pickle.dumps(c)) == c
        assert copy.deepcopy(c) == c
        assert dataclasses.replace(c, index=c.index) == c
        assert c.id == chunk_id(doc.id, c.start_index, c.end_index, doc.text[c.start_index : c.end_index])


@pytest.mark.parametrize("text", ["plain ascii text " * 40, "caf\u00e9 na\u00efve " * 40, "\ud800 lone " * 40,
                                  "\U0001f600 astral " * 40, "\u4e2d\u6587\u5b57 " * 60])
@pytest.mark.parametrize("overlap", [0, 30])
def test_ids_match_chunk_id_for_every_script_and_overlap(text, overlap):
    doc = Document(text, source="t.txt")
    chunks = chunkwise.chunk(doc, chunk_size=100, chunk_overlap=overlap)
    assert len(chunks) > 1
    for c in chunks:
        assert c.id == chunk_id(doc.id, c.start_index, c.end_index, c.text)
    assert [c.metadata["next_id"] for c in chunks[:-1]] == [c.id for c in chunks[1:]]
    assert [c.metadata["prev_id"] for c in chunks[1:]] == [c.id for c in chunks[:-1]]


@settings(max_examples=150, deadline=None)
@given(documents_and_spans(), st.sampled_from([{"strategy": "markdown"}, {"format": "override", "new": [1]}, {}]))
def test_with_metadata_equals_dataclasses_replace(case, extra):
    doc, spans = case
    chunks = build_chunks(doc, spans, "tokens:cl100k_base")
    got = enrich.with_metadata(chunks, extra)
    want = [dataclasses.replace(c, metadata={**c.metadata, **extra}) for c in chunks]
    assert [fields_of(c) for c in got] == [fields_of(c) for c in want]
    assert all(c.metadata is not old.metadata for c, old in zip(got, chunks))  # the originals stay as they were


def test_auto_names_its_strategy_last_in_every_chunk():
    doc = Document("# Title\n\nSome text here.\n\n## Part\n\nMore text.", metadata={"format": "markdown"})
    plain = chunkwise.chunk(doc, strategy="markdown", chunk_size=20)
    auto = chunkwise.chunk(doc, strategy="auto", chunk_size=20)
    assert [list(c.metadata) for c in auto] == [[*c.metadata, "strategy"] for c in plain]
    assert {c.metadata["strategy"] for c in auto} == {"markdown"}
    assert [fields_of(c)[:-4] for c in auto] == [fields_of(c)[:-4] for c in plain]


@st.composite
def range_labels(draw):
    """Non-overlapping labels of the key "window" whose values are ranges (sentence
    windows), shuffled, and spans anywhere."""
    n = 60
    cuts = sorted(set(draw(st.lists(st.integers(0, n), min_size=2, max_size=12))))
    labels = []
    for a, b in zip(cuts, cuts[1:]):
        lo = draw(st.integers(0, n))
        labels.append(Label(a, b, "window", (lo, draw(st.integers(lo, n))), "range"))
    labels.append(Label(0, n, "section", ("x",), "overlap"))
    order = draw(st.permutations(range(len(labels))))
    spans = []
    for _ in range(draw(st.integers(1, 6))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(a + 1, n))
        spans.append(Span(a, b, b - a, "sentence"))
    return [labels[i] for i in order], spans


@settings(max_examples=300, deadline=None)
@given(range_labels())
def test_range_labels_resolve_to_the_union_of_the_ranges_overlapped(case):
    labels, spans = case
    text = "".join(chr(ord("a") + i % 26) for i in range(60))
    got = resolve_labels(labels, spans, text)
    windows = [lb for lb in labels if lb.key == "window"]
    first_key = labels[0].key  # keys come in the order their first label comes
    for sp, meta in zip(spans, got):
        hit = [lb.value for lb in windows if lb.start < sp.end and lb.end > sp.start]
        want = {"section": ["x"]}
        if hit:
            a, b = min(v[0] for v in hit), max(v[1] for v in hit)
            want.update({"window": text[a:b], "window_start": a, "window_end": b})
        assert meta == want
        assert list(meta)[0] == (first_key if hit or first_key == "section" else "section")


@st.composite
def colliding_labels(draw):
    """Labels of several keys, some of them keys the pass sets itself (``format`` from the
    document, ``boundary``, ``page_number``, ``context``) or the ``_start``/``_end`` keys
    of a range label, in any order, over spans anywhere."""
    n = 40
    keys = draw(st.lists(st.sampled_from(["format", "boundary", "page_number", "context", "win", "win_start",
                                          "sec"]), min_size=1, max_size=5, unique=True))
    labels = []
    for key in keys:
        cuts = sorted(set(draw(st.lists(st.integers(0, n), min_size=2, max_size=6))))
        if key == "win":
            rule = "range"
        else:
            rule = draw(st.sampled_from(["overlap", "start", "end", "within", "continued", "common_prefix"]))
        for a, b in zip(cuts, cuts[1:]):
            if rule == "range":
                lo = draw(st.integers(0, n))
                value = (lo, draw(st.integers(lo, n)))
            elif key == "context":
                value = draw(st.sampled_from(["ctx one", "ctx two"]))
            elif rule == "common_prefix":
                value = draw(st.sampled_from([("a",), ("a", "b"), ("a", "c"), ()]))
            else:
                value = draw(st.sampled_from([("a",), ("a", "b"), 7, "v"]))
            labels.append(Label(a, b, key, value, rule))
    order = draw(st.permutations(range(len(labels))))
    spans = []
    for _ in range(draw(st.integers(0, 6))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(a + 1, n))
        spans.append(Span(a, b, b - a, "line", draw(st.booleans())))
    return [labels[i] for i in order], spans


@settings(max_examples=300, deadline=None)
@given(colliding_labels(), st.booleans())
def test_labels_written_into_each_chunk_equal_the_resolved_dicts_merged(case, with_pages):
    # the pass writes each chunk's labels straight into its metadata; the keys, values and
    # their order must be those of ``meta.update(resolve_labels(...)[k])``, also where a
    # label's key is one the pass or the document already set
    labels, spans = case
    text = "".join(chr(ord("a") + i % 26) for i in range(40))
    pages = ((1, 0, 15), (2, 15, 40)) if with_pages else ()
    doc = Document(text, metadata={"format": "csv", "rows": 3}, source="t.csv", pages=pages)
    got = build_chunks(doc, spans, "chars", labels)
    want = reference(doc, spans, "chars", labels)
    assert [fields_of(c) for c in got] == [fields_of(c) for c in want]
    resolved = resolve_labels(labels, spans, text)
    for sp, meta in zip(spans, resolved):  # a label_writer on an empty dict gives resolve_labels' dict
        fresh: dict = {}
        enrich.label_writer(labels, text)(fresh, sp.start, sp.end)
        assert list(fresh.items()) == list(meta.items())


def test_build_chunks_holds_nothing_per_chunk_beside_the_chunks():
    # labels are resolved and ids hashed one chunk at a time: the peak while building is
    # the returned chunks plus a few temporaries (a dict of labels per chunk made first
    # was ~200 bytes a chunk above the output)
    import gc
    import tracemalloc

    n = 4000
    text = "".join(f"row {i:05d} of text\n" for i in range(n))
    w = len(text) // n
    doc = Document(text, metadata={"format": "csv"}, source="t.csv")
    spans = [Span(i * w, (i + 1) * w, w, "line") for i in range(n)]
    labels = [Label(0, len(text), "table", 0, "overlap"), Label(0, len(text), "section", ("a", "b"), "within")]
    labels += [Label(i * w * 50, (i + 1) * w * 50, "rows", (i, i + 1), "range") for i in range(n // 50)]
    build_chunks(doc, spans, "chars", labels)  # caches warm
    gc.collect()
    tracemalloc.start()
    try:
        chunks = build_chunks(doc, spans, "chars", labels)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - kept < 20 * n
    assert len(chunks) == n and chunks[-1].metadata["rows_start"] == n // 50 - 1
    assert [c.id for c in chunks] == [chunk_id(doc.id, s.start, s.end, doc.text[s.start : s.end]) for s in spans]
    assert [c.metadata["next_id"] for c in chunks] == [c.id for c in chunks[1:]] + [None]
    assert [c.metadata["prev_id"] for c in chunks] == [None] + [c.id for c in chunks[:-1]]


def test_build_chunks_reads_the_spans_once():
    # the spans are walked once (an iterator of spans gives the same chunks as the list)
    doc = Document("one two three four five six", source="s.txt")
    spans = [Span(0, 7, 7, "word"), Span(8, 18, 10, "word"), Span(19, 27, 8, "end", True)]
    labels = (Label(0, 27, "section", ("a",), "overlap"),)
    want = [fields_of(c) for c in build_chunks(doc, spans, "chars", labels)]
    assert [fields_of(c) for c in build_chunks(doc, iter(spans), "chars", labels)] == want
    assert [c.metadata["next_id"] for c in build_chunks(doc, iter(spans), "chars")][:2] == [c[-1] for c in want[1:]]


@settings(max_examples=150, deadline=None)
@given(documents_and_spans(), st.integers(1, 4), st.booleans())
def test_batches_of_any_size_give_the_same_chunks(case, batch, with_labels):
    # texts and ids are made a batch of spans ahead of the chunks; the next_id of a
    # batch's last chunk comes from the next batch
    doc, spans = case
    labels = (Label(0, len(doc.text), "section", ("a", "b"), "common_prefix"),) if with_labels else ()
    want = [fields_of(c) for c in reference(doc, spans, "chars", labels)]
    saved = enrich._BATCH
    enrich._BATCH = batch
    try:
        got = [fields_of(c) for c in build_chunks(doc, spans, "chars", labels)]
    finally:
        enrich._BATCH = saved
    assert got == want
