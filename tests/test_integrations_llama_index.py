"""The LlamaIndex drop-in: ChunkwiseNodeParser, tested through LlamaIndex's own interfaces
(get_nodes_from_documents, relationships, IngestionPipeline, VectorStoreIndex with
MockEmbedding, the hierarchy helpers and AutoMergingRetriever)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

pytest.importorskip("llama_index.core", reason="the llama-index extra is not installed")

from llama_index.core import Document, MockEmbedding, StorageContext, VectorStoreIndex  # noqa: E402
from llama_index.core.ingestion import IngestionPipeline  # noqa: E402
from llama_index.core.node_parser import NodeParser, get_leaf_nodes, get_root_nodes  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise import ConfigError  # noqa: E402
from chunkwise.integrations.llama_index import ChunkwiseNodeParser  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEECH = (ROOT / "data" / "chroma_eval" / "corpora" / "state_of_the_union.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "tests" / "corpus" / "structure" / "sqlite-cli.md").read_text(encoding="utf-8")


def _doc(text: str, doc_id: str, **meta) -> Document:
    return Document(text=text, id_=doc_id, metadata=meta)


def test_nodes_are_chunkwise_chunks_with_exact_offsets():
    parser = ChunkwiseNodeParser("recursive", chunk_size=400, chunk_overlap=50)
    assert isinstance(parser, NodeParser)
    doc = _doc(SPEECH, "speech", title="State of the Union")
    nodes = parser.get_nodes_from_documents([doc])
    chunks = chunkwise.chunk(chunkwise.Document(SPEECH, id="speech"), chunk_size=400, chunk_overlap=50)
    assert [n.text for n in nodes] == [c.text for c in chunks]
    for n, c in zip(nodes, chunks):
        assert isinstance(n, TextNode)
        assert (n.start_char_idx, n.end_char_idx) == (c.start_index, c.end_index)
        assert SPEECH[n.start_char_idx : n.end_char_idx] == n.text
        assert n.node_id == c.id and n.metadata["chunk_id"] == c.id
        assert n.metadata["title"] == "State of the Union"
        assert n.ref_doc_id == "speech"
        assert n.relationships[NodeRelationship.SOURCE].node_id == "speech"


def test_repeated_passages_keep_their_own_offsets():
    # LlamaIndex's base class finds each node's text again (str.find from the previous
    # start); with overlap and repeats that can move a node: the parser's offsets stand
    para = "Repeat me exactly, please. " * 3
    text = "\n\n".join([para, "A different paragraph here.", para, para])
    nodes = ChunkwiseNodeParser(chunk_size=30, chunk_overlap=10).get_nodes_from_documents([_doc(text, "r")])
    chunks = chunkwise.chunk(chunkwise.Document(text, id="r"), chunk_size=30, chunk_overlap=10)
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [(c.start_index, c.end_index) for c in chunks]
    assert all(text[n.start_char_idx : n.end_char_idx] == n.text for n in nodes)


def test_previous_and_next_link_neighbours():
    nodes = ChunkwiseNodeParser(chunk_size=300).get_nodes_from_documents([_doc(SPEECH[:5000], "a"), _doc(GUIDE, "b")])
    for doc_id in ("a", "b"):
        mine = [n for n in nodes if n.ref_doc_id == doc_id]
        assert len(mine) > 2
        assert NodeRelationship.PREVIOUS not in mine[0].relationships
        assert NodeRelationship.NEXT not in mine[-1].relationships
        for prev, cur in zip(mine, mine[1:]):
            assert cur.relationships[NodeRelationship.PREVIOUS].node_id == prev.node_id
            assert prev.relationships[NodeRelationship.NEXT].node_id == cur.node_id
    unlinked = ChunkwiseNodeParser(chunk_size=300, include_prev_next_rel=False)
    plain = unlinked.get_nodes_from_documents([_doc(GUIDE, "b")])
    assert all(NodeRelationship.NEXT not in n.relationships for n in plain)


def test_hierarchical_chunks_give_parent_and_child_relationships():
    parser = ChunkwiseNodeParser("hierarchical", chunk_sizes=[2000, 500, 120])
    nodes = parser.get_nodes_from_documents([_doc(GUIDE, "guide")])
    by_id = {n.node_id: n for n in nodes}
    levels = {n.metadata["level"] for n in nodes}
    assert levels == {0, 1, 2}
    roots, leaves = get_root_nodes(nodes), get_leaf_nodes(nodes)
    assert {n.node_id for n in roots} == {n.node_id for n in nodes if n.metadata["level"] == 0}
    assert {n.node_id for n in leaves} == {n.node_id for n in nodes if n.metadata["leaf"]}
    for n in nodes:
        assert GUIDE[n.start_char_idx : n.end_char_idx] == n.text
        parent = n.relationships.get(NodeRelationship.PARENT)
        if n.metadata["level"] == 0:
            assert parent is None
        else:
            p = by_id[parent.node_id]
            assert p.node_id == n.metadata["parent_id"]
            assert p.start_char_idx <= n.start_char_idx and n.end_char_idx <= p.end_char_idx
        children = n.relationships.get(NodeRelationship.CHILD, [])
        assert [c.node_id for c in children] == list(n.metadata["child_ids"])
        # neighbours stay within a level
        for rel in (NodeRelationship.PREVIOUS, NodeRelationship.NEXT):
            if rel in n.relationships:
                assert by_id[n.relationships[rel].node_id].metadata["level"] == n.metadata["level"]


def test_structure_keys_stay_out_of_the_embedded_text():
    nodes = ChunkwiseNodeParser("markdown", chunk_size=400).get_nodes_from_documents([_doc(GUIDE, "g", title="CLI")])
    node = next(n for n in nodes if n.metadata.get("context"))
    embedded = node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "title: CLI" in embedded and node.metadata["context"] in embedded
    assert node.metadata["chunk_id"] not in embedded and "boundary" not in embedded
    assert node.get_content(metadata_mode=MetadataMode.NONE) == node.text


def test_ingestion_pipeline_and_vector_store_index_with_a_mock_embedding():
    parser = ChunkwiseNodeParser("sentence", chunk_size=300, chunk_overlap=60)
    docs = [_doc(SPEECH, "speech"), _doc(GUIDE, "guide")]
    pipeline = IngestionPipeline(transformations=[parser, MockEmbedding(embed_dim=8)])
    nodes = pipeline.run(documents=docs)
    expected = parser.get_nodes_from_documents(docs)
    assert [n.node_id for n in nodes] == [n.node_id for n in expected]
    assert all(n.embedding is not None and len(n.embedding) == 8 for n in nodes)
    # the same documents give the same node ids (content-derived): idempotent upserts
    again = IngestionPipeline(transformations=[parser]).run(documents=docs)
    assert [n.node_id for n in again] == [n.node_id for n in nodes]

    index = VectorStoreIndex.from_documents(docs, transformations=[parser], embed_model=MockEmbedding(embed_dim=8))
    found = index.as_retriever(similarity_top_k=3).retrieve("What did the president say about the economy?")
    assert len(found) == 3
    by_id = {n.node_id: n for n in expected}
    for hit in found:
        assert hit.node.text == by_id[hit.node.node_id].text
        assert hit.node.start_char_idx == by_id[hit.node.node_id].start_char_idx


def test_auto_merging_retriever_returns_the_parent_of_its_leaves():
    from llama_index.core.retrievers import AutoMergingRetriever

    text = GUIDE[:6000]
    nodes = ChunkwiseNodeParser("hierarchical", chunk_sizes=[1500, 300]).get_nodes_from_documents([_doc(text, "g")])
    leaves = get_leaf_nodes(nodes)
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(leaves, storage_context=storage, embed_model=MockEmbedding(embed_dim=8))
    # every leaf retrieved (a constant mock embedding ties them all): each parent has all
    # its children, so the retriever merges them into the parents
    retriever = AutoMergingRetriever(index.as_retriever(similarity_top_k=len(leaves)), storage, simple_ratio_thresh=0.5)
    merged = retriever.retrieve("anything")
    roots = [n for n in nodes if n.metadata["level"] == 0]
    assert sorted(hit.node.node_id for hit in merged) == sorted(n.node_id for n in roots)


def test_parser_pickles_and_rejects_bad_parameters():
    parser = ChunkwiseNodeParser("recursive", chunk_size=200, separators=["\n\n", "\n", " "])
    copy = pickle.loads(pickle.dumps(parser))
    doc = _doc(GUIDE[:3000], "g")
    again = copy.get_nodes_from_documents([doc])
    assert [(n.node_id, n.text) for n in again] == [(n.node_id, n.text) for n in parser.get_nodes_from_documents([doc])]
    with pytest.raises(ConfigError, match="chunk_overlap"):
        ChunkwiseNodeParser(chunk_size=50, chunk_overlap=60)
    with pytest.raises(ConfigError, match="no parameter"):
        ChunkwiseNodeParser(chunk_sizes=[100, 50])


def test_doctests_of_the_module():
    import doctest

    import chunkwise.integrations.llama_index as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
