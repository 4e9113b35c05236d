"""The Haystack 2 drop-in: ChunkwiseDocumentSplitter, tested the way Haystack tests its
DocumentSplitter (run(documents=...) -> {"documents": ...}, source_id, split_id,
split_idx_start, page_number from form feeds, _split_overlap, to_dict/from_dict) and in a
Pipeline that writes to an in-memory store and retrieves with BM25."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")  # tests never touch the network
pytest.importorskip("haystack", reason="the haystack extra is not installed")

from haystack import Document, Pipeline  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise import ConfigError  # noqa: E402
from chunkwise.integrations.haystack import ChunkwiseDocumentSplitter  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEECH = (ROOT / "data" / "chroma_eval" / "corpora" / "state_of_the_union.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "tests" / "corpus" / "structure" / "sqlite-cli.md").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _no_telemetry(monkeypatch):
    import haystack.telemetry._telemetry as telemetry

    monkeypatch.setattr(telemetry, "telemetry", None)


def test_run_returns_documents_with_haystack_meta():
    splitter = ChunkwiseDocumentSplitter("recursive", chunk_size=400)
    doc = Document(content=SPEECH, meta={"name": "sotu"})
    result = splitter.run(documents=[doc])
    assert list(result) == ["documents"]
    out = result["documents"]
    chunks = chunkwise.chunk(chunkwise.Document(SPEECH, id=doc.id), chunk_size=400)
    assert [d.content for d in out] == [c.text for c in chunks]
    for i, (d, c) in enumerate(zip(out, chunks)):
        assert d.meta["source_id"] == doc.id and d.meta["name"] == "sotu"
        assert d.meta["split_id"] == i
        assert d.meta["split_idx_start"] == c.start_index
        assert SPEECH[d.meta["split_idx_start"] : d.meta["split_idx_start"] + len(d.content)] == d.content
        assert d.meta["chunk_id"] == c.id
        assert "page_number" not in d.meta and "_split_overlap" not in d.meta
    # the input meta is copied, not shared
    out[0].meta["name"] = "changed"
    assert doc.meta["name"] == "sotu"


def test_page_number_counts_form_feeds():
    pages = ["First page text. " * 10, "Second page text. " * 10, "", "Fourth page, after an empty one. " * 4]
    text = "\f".join(pages)
    out = ChunkwiseDocumentSplitter(chunk_size=120).run(documents=[Document(content=text)])["documents"]
    for d in out:
        start = d.meta["split_idx_start"]
        assert d.meta["page_number"] == text.count("\f", 0, start) + 1
    assert {d.meta["page_number"] for d in out} == {1, 2, 4}
    # a page_number the input already has (one document per page) is kept
    one = ChunkwiseDocumentSplitter(chunk_size=50).run(documents=[Document(content=pages[1], meta={"page_number": 7})])
    assert {d.meta["page_number"] for d in one["documents"]} == {7}


def test_split_overlap_ranges_are_the_shared_text():
    splitter = ChunkwiseDocumentSplitter("sentence", chunk_size=200, chunk_overlap=60)
    out = splitter.run(documents=[Document(content=SPEECH[:6000])])["documents"]
    by_id = {d.id: d for d in out}
    shared = 0
    for d in out:
        for entry in d.meta["_split_overlap"]:
            other = by_id[entry["doc_id"]]
            a, b = entry["range"]
            # the range is in the other document's content; the shared text starts or ends this one
            piece = other.content[a:b]
            assert piece and (d.content.startswith(piece) or d.content.endswith(piece))
            shared += 1
    assert shared > 0


def test_split_overlap_of_hierarchical_chunks_is_between_neighbours_of_one_level():
    """A parent contains its children: that is not an overlap; chunks of one level that
    share text are."""
    splitter = ChunkwiseDocumentSplitter(
        "hierarchical", chunk_size=100, chunk_overlap=20, strategy_params={"chunk_sizes": [400, 100]}
    )
    out = splitter.run(documents=[Document(content=SPEECH[:4000])])["documents"]
    by_id = {d.id: d for d in out}
    shared = 0
    for d in out:
        for entry in d.meta["_split_overlap"]:
            other = by_id[entry["doc_id"]]
            assert other.meta["level"] == d.meta["level"]
            a, b = entry["range"]
            piece = other.content[a:b]
            assert piece and (d.content.startswith(piece) or d.content.endswith(piece))
            shared += 1
    assert shared > 0 and {d.meta["level"] for d in out} == {0, 1}


def test_empty_and_invalid_input():
    splitter = ChunkwiseDocumentSplitter(chunk_size=100)
    assert splitter.run(documents=[]) == {"documents": []}
    assert splitter.run(documents=[Document(content="")]) == {"documents": []}
    with pytest.raises(TypeError, match="list of Haystack Documents"):
        splitter.run(documents="text")
    with pytest.raises(ValueError, match="None"):
        splitter.run(documents=[Document(content=None)])
    with pytest.raises(ConfigError, match="chunk_overlap"):
        ChunkwiseDocumentSplitter(chunk_size=10, chunk_overlap=10)
    with pytest.raises(ConfigError, match="no parameter"):
        ChunkwiseDocumentSplitter(strategy_params={"split_by": "word"})


def test_to_dict_and_from_dict_round_trip():
    splitter = ChunkwiseDocumentSplitter("hierarchical", chunk_size=128, strategy_params={"chunk_sizes": [512, 128]})
    data = splitter.to_dict()
    assert data["type"] == "chunkwise.integrations.haystack.ChunkwiseDocumentSplitter"
    assert data["init_parameters"]["strategy_params"] == {"chunk_sizes": [512, 128]}
    again = ChunkwiseDocumentSplitter.from_dict(data)
    docs = [Document(content=GUIDE[:4000])]
    assert again.run(documents=docs) == splitter.run(documents=docs)


def test_in_a_pipeline_with_a_document_store_and_bm25():
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.components.writers import DocumentWriter
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    store = InMemoryDocumentStore()
    indexing = Pipeline()
    indexing.add_component("splitter", ChunkwiseDocumentSplitter("markdown", chunk_size=500))
    indexing.add_component("writer", DocumentWriter(document_store=store))
    indexing.connect("splitter.documents", "writer.documents")
    docs = [Document(content=GUIDE, meta={"file": "sqlite-cli.md"}), Document(content=SPEECH, meta={"file": "sotu.md"})]
    result = indexing.run({"splitter": {"documents": docs}})
    expected = ChunkwiseDocumentSplitter("markdown", chunk_size=500).run(documents=docs)["documents"]
    assert result["writer"]["documents_written"] == len(expected) == store.count_documents()

    # the pipeline serializes with the component and loads back (Haystack 3 loads only
    # the modules it is told to trust)
    trust = {"allowed_modules": ["chunkwise.integrations.haystack"]}
    if "allowed_modules" not in inspect.signature(Pipeline.loads).parameters:
        trust = {}
    loaded = Pipeline.loads(indexing.dumps(), **trust)
    assert loaded.get_component("splitter").to_dict() == indexing.get_component("splitter").to_dict()

    querying = Pipeline()
    querying.add_component("retriever", InMemoryBM25Retriever(document_store=store, top_k=3))
    hits = querying.run({"retriever": {"query": "sqlite3 command-line shell dot-commands"}})["retriever"]["documents"]
    assert hits and hits[0].meta["file"] == "sqlite-cli.md"
    source = {d.id: d.content for d in docs}
    for hit in hits:
        start = hit.meta["split_idx_start"]
        assert source[hit.meta["source_id"]][start : start + len(hit.content)] == hit.content


def test_doctests_of_the_module():
    import doctest

    import chunkwise.integrations.haystack as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
