"""JSON Lines: every piece of a record cut in pieces, after its first, has the record's
first top-level member in ``context`` (its key, as the table strategy repeats a split
row's first cell)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants
from test_jsonl_s27_records import _records

import chunkwise
from chunkwise import RecursiveChunker
from chunkwise.types import Document


def _product(i: int, words: int) -> dict:
    return {"sku": f"A-{i}", "name": f"Product {i}", "description": " ".join(["a sturdy steel kettle"] * words)}


def test_the_pieces_of_a_product_after_its_first_name_its_sku() -> None:
    text = "".join(json.dumps(_product(i, 40 if i % 2 == 0 else 3)) + "\n" for i in range(6))
    chunks = chunkwise.chunk(chunkwise.parse(text, format="jsonl"), chunk_size=96, unit="tokens")
    sizer = RecursiveChunker(unit="tokens").sizer
    check_invariants(text, chunks, 96, sizer)
    continued = [c for c in chunks if not c.text.startswith("{")]
    assert len(continued) >= 3
    for c in chunks:
        if c.text.startswith("{"):  # a record's first piece, or records that fit
            assert c.context == ""
        else:
            i = text.rfind("\n", 0, c.start_index) + 1
            sku = json.loads(text[i : text.index("\n", i)])["sku"]
            assert c.context == f'"sku": "{sku}"', (c.text, c.context)
    # the context is not counted in chunk_size
    assert max(c.size for c in chunks) <= 96


def test_a_long_first_member_is_left_out_and_nested_commas_do_not_end_it() -> None:
    long_first = {"title": "word " * 40, "body": "text " * 200}
    nested = {"id": {"a": 1, "b": [2, 3]}, "body": "text " * 200}
    array = ["K-9", "text " * 200, "more " * 50]
    text = "\n".join(json.dumps(r) for r in (long_first, nested, array)) + "\n"
    chunker = RecursiveChunker(chunk_size=100, unit="tokens")
    chunks = chunker.chunk(Document(text, metadata={"format": "jsonl"}))
    check_invariants(text, chunks, 100, chunker.sizer)
    (a, ae), (b, be), (c, ce) = _records(text)
    got = {(s, e): {ch.context for ch in chunks if s < ch.start_index < e} for s, e in _records(text)}
    assert got[(a, ae)] == {""}  # 40 words: more than a quarter of chunk_size
    assert got[(b, be)] == {'"id": {"a": 1, "b": [2, 3]}'}
    assert got[(c, ce)] == {'"K-9"'}
    assert all(ch.context == "" for ch in chunks if ch.start_index in (a, b, c))


def test_a_record_that_fits_chunk_size_with_an_overlap_has_no_context() -> None:
    text = json.dumps(_product(1, 12)) + "\n" + json.dumps(_product(2, 1)) + "\n"
    chunker = RecursiveChunker(chunk_size=96, chunk_overlap=40, unit="tokens")
    chunks = chunker.chunk(Document(text, metadata={"format": "jsonl"}))
    assert chunker.sizer.count(text.split("\n")[0]) > 56
    assert [c.context for c in chunks] == [""] * len(chunks)


_SCALAR = st.none() | st.booleans() | st.integers(-999, 999) | st.text(max_size=12)
_VALUE = st.recursive(
    _SCALAR | st.text(min_size=20, max_size=300),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=10,
)
_RECORD = st.one_of(
    st.tuples(st.text(max_size=8), _VALUE, st.dictionaries(st.text(min_size=1, max_size=8), _VALUE, min_size=1, max_size=6)),
    st.lists(_VALUE, min_size=2, max_size=6),
    _SCALAR,
)


def _dump(r, ascii_: bool) -> tuple[str, str | None]:
    """The line of a record and its first member as ``json.dumps`` writes it (None: the
    record has no comma after its first member)."""
    if isinstance(r, tuple):
        key, first, rest = r
        rest = {k: v for k, v in rest.items() if k != key}
        obj = {key: first, **rest}
        member = json.dumps({key: first}, ensure_ascii=ascii_)[1:-1]
        return json.dumps(obj, ensure_ascii=ascii_), member if rest else None
    if isinstance(r, list):
        return json.dumps(r, ensure_ascii=ascii_), json.dumps(r[:1], ensure_ascii=ascii_)[1:-1]
    return json.dumps(r, ensure_ascii=ascii_), None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    records=st.lists(_RECORD, min_size=1, max_size=12),
    ascii_=st.booleans(),
    blank=st.sampled_from(["\n", "\n\n", "\r\n"]),
    size=st.sampled_from([40, 80, 160]),
    overlap=st.sampled_from([0, 10]),
    unit=st.sampled_from(["chars", "tokens", "words"]),
)
def test_property_every_later_piece_of_a_record_has_its_first_member(records, ascii_, blank, size, overlap, unit) -> None:
    lines = [_dump(r, ascii_) for r in records]
    text = blank.join(line for line, _ in lines) + "\n"
    chunker = RecursiveChunker(chunk_size=size, chunk_overlap=overlap, unit=unit)
    chunks = chunker.chunk(Document(text, metadata={"format": "jsonl"}))
    check_invariants(text, chunks, size, chunker.sizer)
    spans = _records(text)
    assert len(spans) == len(lines)
    for c in chunks:
        want = ""
        for (s, e), (_, first) in zip(spans, lines):
            if s < c.start_index < e and chunker.sizer.count(text[s:e]) > size:
                if first is not None and chunker.sizer.count(first) <= size // 4:
                    want = first
        assert c.context == want, (c.text, c.context, want)
