"""A chunk's list and dict metadata values cannot be changed through what a read gives:
each read of such a value (``m[k]``, ``get``, ``items()``, ``values()``, ``copy()``,
``dict(m)``, ``m | {}``, ``to_dict()``) gives a copy, so a list that many chunks hold (a
table's column names, the document's metadata) stays as it was in every chunk."""

from __future__ import annotations

import copy
import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.types import Chunk, Document, Metadata

MD_TABLE = "# Title\n\n## Part\n\n| name | value |\n|---|---|\n" + "".join(
    f"| row {i} | {i * 7} |\n" for i in range(30)
)
CSV = "a,b,c\n" + "".join(f"{i},x{i},y{i}\n" for i in range(200))
CODE = "".join(f"class C{i}:\n    def m(self):\n        return {i}\n\n\ndef f{i}(x):\n    return x + {i}\n\n\n" for i in range(20))
CHAT = "Alice: hi there, how are you today?\nBob: fine thanks, and you?\nAlice: good.\n" * 20
WIKI = "== A ==\nText here. More text.\n=== B ===\nMore [[link]] text.\n" * 20
DOC_META = {"format": "markdown", "tags": ["a", "b"], "front": {"authors": [{"name": "X"}], "n": 1}}


def _runs():
    """(strategy, document, params) for every strategy that puts lists in metadata."""
    return [
        ("markdown", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
        ("markdown", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100, "chunk_overlap": 20}),
        ("table", Document(CSV, metadata={"format": "csv", "tags": ["t"]}), {"chunk_size": 120}),
        ("table", Document(CSV, metadata={"format": "csv"}), {"chunk_size": 120, "row_format": "kv"}),
        ("table", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
        ("code", Document(CODE, source="m.py", metadata={"format": "code", "language": "python"}), {"chunk_size": 120}),
        ("conversation", Document(CHAT, metadata={"format": "text", "tags": ["c"]}), {"chunk_size": 100}),
        ("wikitext", Document(WIKI, metadata={"format": "wikitext"}), {"chunk_size": 80}),
        ("sections", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
        ("hierarchical", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
        ("recursive", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
        ("auto", Document(MD_TABLE, metadata=DOC_META), {"chunk_size": 100}),
    ]


def _spoil(value):
    """Change a list or dict value (and the lists and dicts in it) in place."""
    if isinstance(value, list):
        for v in value:
            _spoil(v)
        value.append("spoiled")
    elif isinstance(value, dict):
        for v in value.values():
            _spoil(v)
        value["spoiled"] = True


def _containers(chunks):
    return [(c, k) for c in chunks for k, v in c.metadata.items() if isinstance(v, (list, dict))]


def test_the_reported_case_markdown_columns():
    cs = chunkwise.chunk(MD_TABLE, strategy="markdown", chunk_size=100)
    tables = [c for c in cs if "columns" in c.metadata]
    assert len(tables) >= 3
    a, b = tables[1], tables[2]
    assert a.metadata["columns"] == b.metadata["columns"] == ["name", "value"]
    assert a.metadata["columns"] is not b.metadata["columns"]
    a.metadata["columns"].append("x")
    assert b.metadata["columns"] == ["name", "value"] and a.metadata["columns"] == ["name", "value"]


def test_no_read_changes_any_chunk_in_any_strategy():
    for strategy, doc, params in _runs():
        cs = chunkwise.chunk(doc, strategy=strategy, **params)
        before = json.loads(json.dumps([c.to_dict() for c in cs]))  # (a copy of every value)
        found = _containers(cs)
        assert found, strategy
        for c, k in found:
            m = c.metadata
            for read in (m[k], m.get(k), dict(m.items())[k], list(m.values())[list(m).index(k)],
                         m.copy()[k], dict(m)[k], (m | {})[k], ({} | m)[k], c.to_dict()["metadata"][k],
                         (m | Metadata({"z": 1}))[k]):
                assert read == m[k] and type(read) is type(m[k])
                _spoil(read)
        assert [c.to_dict() for c in cs] == before, strategy
        # values keep their types, equality with plain lists and dicts, JSON and pickles
        for c, d in zip(cs, before):
            assert c.metadata == d["metadata"] and dict(c.metadata) == d["metadata"]
            assert json.loads(json.dumps(c.to_dict())) == d
            twin = pickle.loads(pickle.dumps(c))
            assert twin == c and twin.to_dict() == d and copy.deepcopy(c) == c


def test_document_metadata_lists_are_not_changed_through_a_chunk():
    doc = Document("Alpha beta gamma.\n\n" * 30, metadata={"tags": ["a"], "nested": {"x": [1, 2]}})
    cs = chunkwise.chunk(doc, strategy="recursive", chunk_size=40)
    assert len(cs) > 3
    cs[0].metadata["tags"].append("b")
    cs[0].metadata["nested"]["x"].append(3)
    cs[0].metadata.copy()["nested"]["x"].append(3)
    assert all(c.metadata["tags"] == ["a"] and c.metadata["nested"] == {"x": [1, 2]} for c in cs)
    assert doc.metadata["tags"] == ["a"] and doc.metadata["nested"] == {"x": [1, 2]}


def test_a_table_still_holds_one_column_list():
    # the chunks of a table share one list of column names (memory), though reads copy it
    cs = chunkwise.chunk(Document(CSV, metadata={"format": "csv"}), strategy="table", chunk_size=60)
    held = {id(c.metadata._l.own(c.metadata)[list(c.metadata._l.keys[len(c.metadata._l.base):]).index("columns")])
            for c in cs}
    assert len(cs) > 20 and len(held) == 1


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=5), values, max_size=6))
def test_any_metadata_stays_as_made(d):
    frozen = json.dumps(d, sort_keys=True)
    c = Chunk("t", 0, 1, metadata=d)
    m = c.metadata
    for k in list(m):
        _spoil(m[k])
        _spoil(m.get(k))
    for v in [*m.values(), *m.copy().values(), *c.to_dict()["metadata"].values()]:
        _spoil(v)
    assert json.dumps(dict(m), sort_keys=True) == frozen and m == json.loads(frozen)
    assert pickle.loads(pickle.dumps(c)).metadata == json.loads(frozen)


def test_nested_values_copy_as_deepcopy_does():
    shared = [1]
    loop: list = [shared, shared]
    loop.append(loop)
    m = Chunk("t", 0, 1, metadata={"loop": loop, "d": {"a": shared, "b": shared}}).metadata
    got = m["loop"]
    assert got is not loop and got[2] is got and got[0] is got[1] and got[0] is not shared
    d = m["d"]
    assert d["a"] is d["b"] and d["a"] is not shared and d == {"a": [1], "b": [1]}
    d["a"].append(2)
    assert shared == [1] and m["d"] == {"a": [1], "b": [1]}
