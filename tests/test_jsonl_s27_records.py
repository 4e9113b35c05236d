"""JSON Lines that are not chats: every line a record, never cut while it fits."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise import RecursiveChunker
from chunkwise.types import Document


def _records(text: str) -> list[tuple[int, int]]:
    """The ranges of the records of ``text`` (its lines with text, spaces trimmed)."""
    out, pos = [], 0
    for line in text.split("\n"):
        body = line.strip()
        if body:
            s = pos + len(line) - len(line.lstrip())
            out.append((s, s + len(body)))
        pos += len(line) + 1
    return out


def _whole(chunks, s: int, e: int) -> bool:
    return any(c.start_index <= s and e <= c.end_index for c in chunks)


def _item(i: int, words: int) -> str:
    return json.dumps({"id": i, "title": f"Item {i}", "body": " ".join(["lorem ipsum dolor"] * words)})


def test_a_jsonl_file_loads_as_records_and_auto_packs_them_whole() -> None:
    text = "".join(_item(i, (2, 3, 2, 4, 40)[i % 5]) + "\n" for i in range(30))
    doc = chunkwise.parse(text, format="jsonl")
    assert doc.metadata["format"] == "jsonl" and doc.text == text
    chunks = chunkwise.chunk(doc, chunk_size=96, unit="tokens")
    assert {c.metadata["strategy"] for c in chunks} == {"recursive"}
    sizer = RecursiveChunker(unit="tokens").sizer
    check_invariants(text, chunks, 96, sizer)
    records = _records(text)
    starts = {s for s, _ in records}
    for s, e in records:
        if sizer.count(text[s:e]) <= 96:
            assert _whole(chunks, s, e), text[s:e]
        else:  # a record too big starts a chunk, and so does the record after it
            assert s in {c.start_index for c in chunks}
            assert any(c.end_index == e for c in chunks)
    # several records share a chunk, each cut between two records or inside a big one
    assert any(c.text.count("\n") >= 2 for c in chunks), [c.text for c in chunks]
    for c in chunks:
        assert c.start_index in starts or not any(s > c.start_index and s < c.end_index for s in starts)


def test_a_record_too_big_is_cut_between_its_top_level_members_first() -> None:
    inner = {"a": "x " * 25, "b": "y " * 25}
    rec = json.dumps({"id": 7, "nested": inner, "tail": "z " * 40, "end": True})
    text = _item(1, 2) + "\n" + rec + "\n" + _item(2, 2) + "\n"
    chunks = RecursiveChunker(chunk_size=150).chunk(Document(text, metadata={"format": "jsonl"}))
    check_invariants(text, chunks, 150, RecursiveChunker(chunk_size=150).sizer)
    s = text.index(rec)
    parts = [c for c in chunks if s <= c.start_index and c.end_index <= s + len(rec)]
    assert parts[0].start_index == s and parts[-1].end_index == s + len(rec)
    assert [c.text for c in chunks if c not in parts] == [_item(1, 2), _item(2, 2)]
    # cut after the commas between the record's own members, not inside "nested" (which fits)
    assert len(parts) > 1
    assert any(c.text.endswith('"nested": ' + json.dumps(inner) + ",") for c in parts), [c.text for c in parts]
    assert all(c.metadata["boundary"] in ("member", "record", "end") for c in chunks)


def test_with_an_overlap_a_record_that_fits_chunk_size_is_not_cut() -> None:
    # a record larger than chunk_size - chunk_overlap that fits chunk_size is one chunk
    mid = _item(5, 22)
    sizer = RecursiveChunker(unit="tokens").sizer
    assert 80 < sizer.count(mid) <= 96
    text = "\n".join([_item(1, 2), _item(2, 2), mid, _item(3, 2)]) + "\n"
    chunks = RecursiveChunker(chunk_size=96, chunk_overlap=16, unit="tokens").chunk(
        Document(text, metadata={"format": "jsonl"})
    )
    check_invariants(text, chunks, 96, sizer)
    for s, e in _records(text):
        assert _whole(chunks, s, e), text[s:e]
    assert [c.text for c in chunks if c.start_index == text.index(mid)] == [mid]


def test_crlf_and_blank_lines_between_records() -> None:
    text = "\r\n".join([_item(1, 2), "", _item(2, 30), "  ", _item(3, 2), _item(4, 2)]) + "\r\n"
    chunker = RecursiveChunker(chunk_size=200)
    chunks = chunker.chunk(Document(text, metadata={"format": "jsonl"}))
    check_invariants(text, chunks, 200, chunker.sizer)
    big = text.index(_item(2, 30))
    assert big in {c.start_index for c in chunks}
    assert [c.text for c in chunks][-1] == _item(3, 2) + "\r\n" + _item(4, 2)


def test_chat_jsonl_stays_a_conversation_and_json_stays_text() -> None:
    chat = '{"messages":[{"role":"user","content":"Q?"},{"role":"assistant","content":"A."}]}\n'
    doc = chunkwise.parse(chat * 3, format="jsonl")
    assert doc.metadata["format"] == "chat"
    assert {c.metadata["strategy"] for c in chunkwise.chunk(doc)} == {"conversation"}
    # a .json file (one document) is read as before: the default levels, no record rule
    js = json.dumps([{"id": i, "body": "word " * 30} for i in range(20)], indent=1)
    doc = chunkwise.parse(js, format="json")
    assert doc.metadata["format"] == "json"
    got = [(c.start_index, c.end_index) for c in RecursiveChunker(chunk_size=100).chunk(doc)]
    assert got == [(c.start_index, c.end_index) for c in RecursiveChunker(chunk_size=100).chunk(js)]


def test_custom_separators_are_used_as_given_on_jsonl() -> None:
    text = "\n".join(_item(i, 3) for i in range(6))
    doc = Document(text, metadata={"format": "jsonl"})
    ch = RecursiveChunker(chunk_size=120, separators=[" "])
    assert [c.text for c in ch.chunk(doc)] == [c.text for c in ch.chunk(text)]


_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-999, 999) | st.text(max_size=40),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    values=st.lists(_VALUE, min_size=1, max_size=25),
    ascii_=st.booleans(),
    blank=st.sampled_from(["\n", "\n\n", "\r\n"]),
    size=st.sampled_from([40, 80, 160]),
    overlap=st.sampled_from([0, 10]),
    unit=st.sampled_from(["chars", "tokens"]),
)
def test_property_no_record_that_fits_is_cut(values, ascii_, blank, size, overlap, unit) -> None:
    text = blank.join(json.dumps(v, ensure_ascii=ascii_) for v in values) + "\n"
    chunker = RecursiveChunker(chunk_size=size, chunk_overlap=overlap, unit=unit)
    chunks = chunker.chunk(Document(text, metadata={"format": "jsonl"}))
    check_invariants(text, chunks, size, chunker.sizer)
    starts = {c.start_index for c in chunks}
    for s, e in _records(text):
        n = chunker.sizer.count(text[s:e])
        if n <= size:
            assert _whole(chunks, s, e), (text[s:e], [c.text for c in chunks])
        if n > size - overlap:  # a record too big for the budget starts a chunk
            assert s in starts, text[s:e]
