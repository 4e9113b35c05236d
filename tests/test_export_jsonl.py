""":func:`chunkwise.export.jsonl_lines` (the lines ``chunkwise chunk`` writes) is byte for
byte the records of :func:`chunk_record` through :func:`dumps`, whatever the text and the
metadata (hostile characters, values JSON has no type for, keys that are not strings),
with orjson's string encoder and with the standard library's."""

from __future__ import annotations

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import export
from chunkwise.export import chunk_record, dumps, jsonl_lines


def _reference(chunks: list, doc: chunkwise.Document, cid: str | None) -> bytes:
    records = []
    for c in chunks:
        rec = chunk_record(c, doc)
        if cid is not None:
            rec["content_id"] = cid
        records.append(rec)
    return "".join(dumps(r) + "\n" for r in records).encode("utf-8")


def _stdlib_strings(text: str) -> bytes:
    from json.encoder import encode_basestring

    return encode_basestring(text).encode("utf-8")


@pytest.fixture(params=["default", "stdlib"])
def encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "stdlib":
        monkeypatch.setattr(export, "_jstr", _stdlib_strings)
    return request.param


# no lone surrogates: UTF-8 cannot write them (both ways raise; see the last test)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=300)
SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), TEXT,
    st.dates(), st.binary(max_size=8),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.tuples(inner, inner), st.dictionaries(st.one_of(TEXT, st.integers()), inner,
                                                                              max_size=3),
    ),
    max_leaves=6,
)
METADATA = st.dictionaries(st.one_of(TEXT, st.integers(), st.booleans()), VALUE, max_size=4)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, metadata=METADATA, source=st.one_of(st.none(), TEXT), cid=st.one_of(st.none(), TEXT),
       strategy=st.sampled_from(["recursive", "sentence", "markdown", "hierarchical"]))
def test_the_lines_are_those_of_dumps(encoder: str, text: str, metadata: dict, source: str | None,
                                      cid: str | None, strategy: str) -> None:
    doc = chunkwise.Document(text, source=source, metadata=metadata)
    params = {"chunk_sizes": [60, 20]} if strategy == "hierarchical" else {"chunk_size": 40}
    chunks = chunkwise.chunk(doc, strategy=strategy, unit="chars", **params)
    assert jsonl_lines(chunks, doc, cid) == _reference(chunks, doc, cid)


def test_real_documents_of_every_kind_of_metadata(encoder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "---\ntitle: Guide\ndate: 2024-01-02\nscore: .nan\ntags: [a, b]\n---\n# Guide\n\n## Install\n\n" + (
        "Run “the installer”\t\x00 now. " * 40
    ) + "\n\n## Use\n\n" + "Call it\u2028again. " * 40
    doc = chunkwise.parse(text.encode("utf-8"), "markdown", source="docs/guide.md")
    for strategy in ("markdown", "recursive", "hierarchical"):
        params = {"chunk_sizes": [400, 100]} if strategy == "hierarchical" else {"chunk_size": 100}
        chunks = chunkwise.chunk(doc, strategy=strategy, unit="chars", **params)
        want = _reference(chunks, doc, "0123456789abcdef")
        with monkeypatch.context() as m:  # the fast path alone: dumps is not called
            m.setattr(export, "dumps", None)
            lines = jsonl_lines(chunks, doc, "0123456789abcdef")
        assert lines == want
        records = [json.loads(line) for line in lines.splitlines()]
        assert [r["text"] for r in records] == [c.text for c in chunks]
        assert records[0]["metadata"]["front_matter"]["date"] == "2024-01-02"
    extra = chunkwise.Document("One. Two.", metadata={"when": datetime.datetime(2024, 1, 2, 3, 4), 1: {2}})
    chunks = chunkwise.chunk(extra, chunk_size=5, unit="chars")
    assert jsonl_lines(chunks, extra) == _reference(chunks, extra, None)


def test_a_lone_surrogate_raises_as_utf_8_does(encoder: str) -> None:
    doc = chunkwise.Document("abc \ud800 def")
    chunks = chunkwise.chunk(doc, chunk_size=50, unit="chars")
    with pytest.raises(UnicodeEncodeError):
        _reference(chunks, doc, None)
    with pytest.raises(UnicodeEncodeError):
        jsonl_lines(chunks, doc, None)


def test_a_value_that_holds_itself_raises_as_dumps_does(encoder: str) -> None:
    loop: list = []
    loop.append(loop)
    doc = chunkwise.Document("One. Two. Three.", metadata={"loop": loop})
    chunks = chunkwise.chunk(doc, chunk_size=8, unit="chars")
    with pytest.raises(ValueError, match="ircular"):
        _reference(chunks, doc, None)
    with pytest.raises(ValueError, match="ircular"):
        jsonl_lines(chunks, doc, None)
