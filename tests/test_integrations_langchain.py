"""The LangChain drop-in: ChunkwiseTextSplitter, tested through LangChain's own interfaces
(TextSplitter methods, BaseDocumentTransformer, ParentDocumentRetriever with the in-memory
vector store and a deterministic fake embedding)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("langchain_text_splitters", reason="the langchain extra is not installed")

from langchain_core.documents import Document  # noqa: E402
from langchain_text_splitters import TextSplitter  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise import ConfigError  # noqa: E402
from chunkwise.integrations.langchain import ChunkwiseTextSplitter  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEECH = (ROOT / "data" / "chroma_eval" / "corpora" / "state_of_the_union.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "tests" / "corpus" / "structure" / "sqlite-cli.md").read_text(encoding="utf-8")


def test_importing_chunkwise_imports_no_framework():
    code = (
        "import sys, chunkwise, chunkwise.cli, chunkwise.integrations\n"
        "frameworks = ('langchain', 'langchain_core', 'langchain_text_splitters', 'llama_index', 'haystack', 'ray')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in frameworks))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_it_is_a_langchain_text_splitter_with_chunkwise_parameters():
    splitter = ChunkwiseTextSplitter("sentence", chunk_size=300, chunk_overlap=50, unit="chars")
    assert isinstance(splitter, TextSplitter)
    assert splitter.chunker == chunkwise.make_chunker("sentence", chunk_size=300, chunk_overlap=50)


def test_split_text_gives_chunkwise_chunks():
    splitter = ChunkwiseTextSplitter("recursive", chunk_size=400)
    expected = [c.text for c in chunkwise.chunk(SPEECH, strategy="recursive", chunk_size=400)]
    assert splitter.split_text(SPEECH) == expected
    assert all(len(t) <= 400 for t in expected) and len(expected) > 100


def test_create_documents_start_index_is_where_the_chunk_was_cut():
    # a repeated paragraph: a search for the text (LangChain's own add_start_index) can
    # land on the wrong copy; chunkwise's offset is the place the chunk came from
    para = "The same paragraph, word for word, appears twice in this text.\n\n"
    text = para + "Something between the copies.\n\n" + para + "The end."
    splitter = ChunkwiseTextSplitter(chunk_size=70, add_start_index=True)
    docs = splitter.create_documents([text, SPEECH], metadatas=[{"source": "a"}, {"source": "b"}])
    chunks = chunkwise.chunk(chunkwise.Document(text, source="a"), chunk_size=70)
    first = [d for d in docs if d.metadata["source"] == "a"]
    assert [d.metadata["start_index"] for d in first] == [c.start_index for c in chunks]
    assert [d.metadata["chunk_id"] for d in first] == [c.id for c in chunks]
    starts = [d.metadata["start_index"] for d in first if d.page_content == para.strip()]
    assert starts == [0, text.index(para, 1)]
    for d in docs:
        source = text if d.metadata["source"] == "a" else SPEECH
        start = d.metadata["start_index"]
        assert source[start : start + len(d.page_content)] == d.page_content


def test_without_add_start_index_there_is_none():
    docs = ChunkwiseTextSplitter(chunk_size=200).create_documents([SPEECH[:2000]])
    assert docs and all("start_index" not in d.metadata for d in docs)


def test_chunk_metadata_is_merged_into_the_document_metadata():
    splitter = ChunkwiseTextSplitter("markdown", chunk_size=500)
    source = Document(page_content=GUIDE, metadata={"source": "sqlite-cli.md", "tags": ["docs"]})
    docs = splitter.split_documents([source])
    chunks = chunkwise.chunk(chunkwise.Document(GUIDE, source="sqlite-cli.md"), strategy="markdown", chunk_size=500)
    assert [d.page_content for d in docs] == [c.text for c in chunks]
    for d, c in zip(docs, chunks):
        assert d.metadata["source"] == "sqlite-cli.md" and d.metadata["tags"] == ["docs"]
        for key, value in c.metadata.items():
            assert d.metadata[key] == value
        assert d.metadata["chunk_id"] == c.id
        assert d.metadata.get("context", "") == c.context
    assert any(d.metadata.get("header_path") for d in docs)
    # the input metadata is copied, not shared
    docs[0].metadata["tags"].append("changed")
    assert source.metadata["tags"] == ["docs"]


def test_transform_documents_is_split_documents():
    splitter = ChunkwiseTextSplitter(chunk_size=300)
    docs = [Document(page_content=SPEECH[:3000], metadata={"n": 1}), Document(page_content=GUIDE[:3000])]
    assert list(splitter.transform_documents(docs)) == splitter.split_documents(docs)


def test_tokens_unit_measures_with_the_tokenizer(cl100k):
    splitter = ChunkwiseTextSplitter(chunk_size=64, chunk_overlap=8, unit="tokens")
    texts = splitter.split_text(SPEECH[:8000])
    assert texts and all(cl100k.count(t) <= 64 for t in texts)
    assert splitter._length_function("hello world") == cl100k.count("hello world")


def test_invalid_parameters_raise_config_error():
    with pytest.raises(ConfigError, match="chunk_overlap"):
        ChunkwiseTextSplitter(chunk_size=100, chunk_overlap=100)
    with pytest.raises(ConfigError, match="no parameter 'separator'"):
        ChunkwiseTextSplitter(separator="\n")
    with pytest.raises(ValueError, match="one per text"):
        ChunkwiseTextSplitter().create_documents(["a", "b"], metadatas=[{}])


@given(st.text(alphabet=st.sampled_from(list("ab \n\r\t.é😀\u0301漢")), max_size=400))
def test_start_index_slices_the_text_on_hostile_input(text):
    splitter = ChunkwiseTextSplitter(chunk_size=40, chunk_overlap=10, add_start_index=True)
    docs = splitter.create_documents([text])
    covered = [False] * len(text)
    for d in docs:
        start = d.metadata["start_index"]
        assert text[start : start + len(d.page_content)] == d.page_content
        assert d.page_content.strip()
        covered[start : start + len(d.page_content)] = [True] * len(d.page_content)
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace())  # nothing lost


def test_both_splitters_of_parent_document_retriever():
    retrievers = pytest.importorskip("langchain_classic.retrievers", reason="langchain-classic is not installed")
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.stores import InMemoryStore
    from langchain_core.vectorstores import InMemoryVectorStore

    parent_splitter = ChunkwiseTextSplitter("markdown", chunk_size=1200, add_start_index=True)
    child_splitter = ChunkwiseTextSplitter("sentence", chunk_size=200, add_start_index=True)
    vectorstore = InMemoryVectorStore(DeterministicFakeEmbedding(size=32))
    store = InMemoryStore()
    retriever = retrievers.ParentDocumentRetriever(
        vectorstore=vectorstore,
        docstore=store,
        child_splitter=child_splitter,
        parent_splitter=parent_splitter,
        search_kwargs={"k": 1},
    )
    originals = [
        Document(page_content=GUIDE, metadata={"source": "sqlite-cli.md"}),
        Document(page_content=SPEECH, metadata={"source": "state_of_the_union.md"}),
    ]
    retriever.add_documents(originals, ids=None)

    keys = list(store.yield_keys())
    parents = dict(zip(keys, store.mget(keys)))
    text_of = {d.metadata["source"]: d.page_content for d in originals}
    expected_parents = parent_splitter.split_documents(originals)
    assert sorted(p.page_content for p in parents.values()) == sorted(p.page_content for p in expected_parents)
    for parent in parents.values():  # parents are spans of their document
        start = parent.metadata["start_index"]
        assert text_of[parent.metadata["source"]][start : start + len(parent.page_content)] == parent.page_content

    children = list(vectorstore.store.values())
    assert len(children) > len(parents)
    for child in children:  # children are spans of their parent, tagged with its id
        parent = parents[child["metadata"]["doc_id"]]
        start = child["metadata"]["start_index"]
        assert parent.page_content[start : start + len(child["text"])] == child["text"]
        assert len(child["text"]) <= 200

    # a child's exact text embeds to the same fake vector: its parent comes back
    child = children[len(children) // 2]
    found = retriever.invoke(child["text"])
    assert [d.page_content for d in found] == [parents[child["metadata"]["doc_id"]].page_content]


def test_doctests_of_the_module():
    import doctest

    import chunkwise.integrations.langchain as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("chunkwise.integrations.langchain", "langchain_text_splitters", "langchain"),
        ("chunkwise.integrations.llama_index", "llama_index", "llama-index"),
        ("chunkwise.integrations.haystack", "haystack", "haystack"),
        ("chunkwise.ray", "ray", "ray"),
    ],
)
def test_a_missing_framework_names_its_extra(module, blocked, extra):
    code = (
        f"import sys\nsys.modules[{blocked!r}] = None\n"
        "from chunkwise import MissingDependencyError\n"
        f"try:\n    import {module}\nexcept MissingDependencyError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f"pip install 'chunkwise[{extra}]'" in out.stdout
