"""The enrichment pass with labels and no callback: each chunk's Metadata is built from
the label values directly (labels of one key) or from a dict of the chunk's own keys
only (labels of several keys). The chunks must be those of the plain definition: the
same fields, the same metadata items in the same order, whatever the labels' keys (one
of the document's keys, one of the pass's own keys) and whatever the spans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.enrich import build_chunks, document_base, resolve_labels
from chunkwise.merge import Span
from chunkwise.segments import Label
from chunkwise.types import Chunk, Document, Metadata, chunk_id

texts = st.lists(st.sampled_from(["a", "Z", " ", "\n", "é", "中", "\U0001f600", "."]), min_size=1, max_size=60).map("".join)


def reference(doc, spans, unit, labels):
    """The enrichment pass written plainly: a dict per chunk, the labels' items after it."""
    base = document_base(doc)
    extra = resolve_labels(labels, spans, doc.text)
    ids = [chunk_id(doc.id, s.start, s.end, doc.text[s.start : s.end]) for s in spans]
    out = []
    for k, s in enumerate(spans):
        meta = {**base, "boundary": s.boundary, "prev_id": ids[k - 1] if k else None,
                "next_id": ids[k + 1] if k + 1 < len(ids) else None}
        if s.oversize:
            meta["oversize"] = True
        meta.update(extra[k])
        ctx = meta.pop("context", "")
        out.append(Chunk(text=doc.text[s.start : s.end], start_index=s.start, end_index=s.end, index=k,
                         size=s.size, unit=unit, document_id=doc.id, metadata=meta, context=ctx))
    return out


def fields_of(c):
    return (type(c), c.text, c.start_index, c.end_index, c.index, c.size, c.unit, c.document_id,
            list(c.metadata.items()), list(c.metadata), c.context, c.embedding, c.id)


@st.composite
def cases(draw):
    text = draw(texts)
    n = len(text)
    spans = []
    for _ in range(draw(st.integers(0, 8))):
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, n))
        spans.append(Span(a, b, b - a, draw(st.sampled_from(["sentence", "word"])), draw(st.booleans())))
    meta = draw(st.sampled_from([{}, {"format": "text"}, {"window": "the document's"}, {"boundary": "doc"},
                                 {"context": "from the document"}]))
    source = draw(st.sampled_from([None, "a.txt"]))
    # labels of one key, of one key and a rule, then of two keys; never overlapping within a key
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=0, max_size=6)))
    keys = draw(st.sampled_from([("window",), ("header_path",), ("format",), ("boundary",), ("oversize",),
                                 ("window", "header_path"), ("window_start",), ("context",)]))
    rule = draw(st.sampled_from(["range", "overlap", "start", "common_prefix"]))
    labels = []
    for key in keys:
        for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
            if a == b:
                continue
            if rule == "range":
                value = (max(a - 1, 0), min(b + 1, n))
            elif rule == "common_prefix":
                value = ("h", f"s{i}")
            else:
                value = draw(st.sampled_from([i, (i, "t"), f"v{i}"]))
            labels.append(Label(a, b, key, value, rule))
    return Document(text, metadata=meta, source=source), spans, labels


@settings(max_examples=400, deadline=None)
@given(cases())
def test_chunks_built_from_labels_equal_the_plain_definition(case):
    doc, spans, labels = case
    got = build_chunks(doc, spans, "chars", labels)
    want = reference(doc, spans, "chars", labels)
    assert [fields_of(c) for c in got] == [fields_of(c) for c in want]
    assert got == want
    assert all(type(c.metadata).__mro__[1] is Metadata or type(c.metadata) is Metadata for c in got)


def test_a_sentence_window_chunk_shares_the_documents_values():
    doc = Document("One. Two. Three.", metadata={"format": "text"}, source="s.txt")
    spans = [Span(0, 4, 4, "sentence"), Span(5, 9, 4, "sentence"), Span(10, 16, 6, "end", True)]
    labels = [Label(0, 4, "window", (0, 9), "range"), Label(5, 9, "window", (0, 16), "range")]
    got = build_chunks(doc, spans, "chars", labels)
    assert [dict(c.metadata) for c in got] == [dict(c.metadata) for c in reference(doc, spans, "chars", labels)]
    assert list(got[0].metadata) == ["format", "source", "boundary", "prev_id", "next_id", "window", "window_start",
                                      "window_end"]
    assert got[0].metadata["window"] == "One. Two."
    assert list(got[2].metadata) == ["format", "source", "boundary", "prev_id", "next_id", "oversize"]
    # the document's values are held by the layout, not by each chunk
    assert got[0].metadata._l.base == ("text", "s.txt")
