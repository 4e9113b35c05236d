"""Hierarchical (parent-child) chunking: every level inside and tiling its parent.

Hypothesis over hostile and Markdown-shaped text, for every base strategy that packs
(recursive, sentence, markdown, sections, fixed) and mixes of them: exact slices at every
level, each level within its size, children inside their parent covering all of its
non-whitespace text and not overlapping (overlap 0), pre-order, metadata links that
agree, ids unique and stable; then configuration errors, the CLI's JSON lines and the
evaluator embedding leaves only.
"""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import cluster_boundaries
from test_invariants import PIECES, hostile

import chunkwise
from chunkwise import ConfigError, Document
from chunkwise.chunkers.hierarchical import HierarchicalChunker
from chunkwise.sizers import CharSizer, WordSizer

try:  # the semantic base's test embedder needs numpy
    from test_semantic_properties import HashEmbedder
except ImportError:  # pragma: no cover - numpy missing
    HashEmbedder = None

STRUCTURED = PIECES + ["\n# H1\n", "\n## H2\n\n", "\n### H3\n", "\n```py\nx = 1\n```\n", "\n| a | b |\n|---|---|\n| 1 | 2 |\n",
                      "\n- item\n    - sub\n", "Article 5 Scope\n", "§ 12\n", "Some prose here. ", "\n\n"]
documents = st.one_of(hostile, st.lists(st.sampled_from(STRUCTURED), max_size=80).map("".join))
BASES = ["recursive", "sentence", "markdown", "sections", "fixed"]
UNTRIMMED = {"fixed"}  # fixed windows tile the text, whitespace included

# strictly decreasing sizes, 1 to 3 levels
sizes = st.lists(st.integers(1, 200), min_size=1, max_size=3, unique=True).map(lambda v: sorted(v, reverse=True))


def _nonspace(text: str, start: int, end: int) -> set[int]:
    return {i for i in range(start, end) if not text[i].isspace()}


def check_hierarchy(text, chunks, level_sizes, sizer, *, overlap=0, bases=None, leaves_only=False):
    """Assert the hierarchical contract on one result."""
    n = len(level_sizes)
    bounds = cluster_boundaries(text)
    by_id = {c.id: c for c in chunks}
    assert len(by_id) == len(chunks), "ids are not unique"
    assert [c.index for c in chunks] == list(range(len(chunks)))
    keys = [(c.start_index, c.metadata["level"]) for c in chunks]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), "not in pre-order"
    for c in chunks:
        k = c.metadata["level"]
        assert 0 <= k < n
        assert c.text == text[c.start_index : c.end_index] and c.text.strip()
        assert c.start_index in bounds and c.end_index in bounds
        assert c.size == sizer.count(c.text)
        if c.metadata.get("oversize"):
            assert c.size > level_sizes[k]
        else:
            assert c.size <= level_sizes[k], (k, c.size, level_sizes[k])
        assert c.metadata["leaf"] is (k == n - 1)
        trimmed = (bases[k] if bases else "recursive") not in UNTRIMMED
        if trimmed:
            assert not c.text[-1].isspace()
        if k == 0:
            assert c.metadata["parent_id"] is None
        elif not leaves_only:
            parent = by_id[c.metadata["parent_id"]]
            assert parent.metadata["level"] == k - 1 and parent.index < c.index
            assert parent.start_index <= c.start_index and c.end_index <= parent.end_index
    if leaves_only:
        assert all(c.metadata["leaf"] for c in chunks)
        return
    for k in range(n):  # every level alone covers the document; upper levels never overlap
        level = [c for c in chunks if c.metadata["level"] == k]
        covered = set().union(*(_nonspace(text, c.start_index, c.end_index) for c in level)) if level else set()
        assert covered == _nonspace(text, 0, len(text)), f"level {k} loses text"
        if k < n - 1 or not overlap:
            assert all(b.start_index >= a.end_index for a, b in zip(level, level[1:])), f"level {k} overlaps"
    for p in chunks:  # children tile their parent's non-whitespace, in order, as child_ids says
        kids = [c for c in chunks if c.metadata["parent_id"] == p.id]
        assert p.metadata["child_ids"] == [c.id for c in kids]
        if p.metadata["leaf"]:
            assert kids == []
            continue
        assert kids, "a parent without children"
        covered = set().union(*(_nonspace(text, c.start_index, c.end_index) for c in kids))
        assert covered == _nonspace(text, p.start_index, p.end_index), "children do not tile their parent"
        if not overlap or p.metadata["level"] < n - 2:
            assert all(b.start_index >= a.end_index for a, b in zip(kids, kids[1:])), "siblings overlap"


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=documents, level_sizes=sizes, overlap_ratio=st.sampled_from([0, 0, 0.25]))
def test_children_tile_their_parents_at_every_level(request, base, kind, text, level_sizes, overlap_ratio):
    if base == "markdown":
        pytest.importorskip("markdown_it")
    sizer = {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")
    overlap = min(level_sizes[-1] - 1, int(level_sizes[-1] * overlap_ratio))
    chunker = HierarchicalChunker(chunk_sizes=level_sizes, chunk_overlap=overlap, unit=sizer, base=base)
    chunks = chunker.chunk(text)
    check_hierarchy(text, chunks, level_sizes, sizer, overlap=overlap, bases=[base] * len(level_sizes))
    # deterministic, and the same ids from a copy of the chunker
    again = pickle.loads(pickle.dumps(chunker)).chunk(text)
    assert [(c.id, c.start_index, c.end_index, dict(c.metadata)) for c in again] == [
        (c.id, c.start_index, c.end_index, dict(c.metadata)) for c in chunks
    ]
    # leaves_only: the same leaves, linked to the same parents
    leaves = HierarchicalChunker(chunk_sizes=level_sizes, chunk_overlap=overlap, unit=sizer, base=base, leaves_only=True).chunk(text)
    check_hierarchy(text, leaves, level_sizes, sizer, overlap=overlap, bases=[base] * len(level_sizes), leaves_only=True)
    want = [c for c in chunks if c.metadata["leaf"]]
    assert [(c.id, c.start_index, c.end_index, c.metadata["parent_id"]) for c in leaves] == [
        (c.id, c.start_index, c.end_index, c.metadata["parent_id"]) for c in want
    ]


@given(text=documents, level_sizes=st.lists(st.integers(1, 120), min_size=3, max_size=3, unique=True).map(lambda v: sorted(v, reverse=True)),
       bases=st.lists(st.sampled_from(BASES), min_size=3, max_size=3))
def test_mixed_bases_per_level(text, level_sizes, bases):
    pytest.importorskip("markdown_it")
    sizer = CharSizer()
    chunks = HierarchicalChunker(chunk_sizes=level_sizes, base=bases).chunk(text)
    check_hierarchy(text, chunks, level_sizes, sizer, bases=bases)


@given(text=documents, level_sizes=st.lists(st.integers(4, 120), min_size=2, max_size=2, unique=True).map(lambda v: sorted(v, reverse=True)))
def test_semantic_and_auto_bases(text, level_sizes):
    if HashEmbedder is None:
        pytest.skip("numpy is not installed")
    pytest.importorskip("markdown_it")
    sizer = CharSizer()
    # semantic regions may overlap across their edges on their own: inside a parent they do not
    semantic = HierarchicalChunker(
        chunk_sizes=level_sizes, chunk_overlap=1, base=["recursive", "semantic"], base_params=[{}, {"model": HashEmbedder()}]
    )
    check_hierarchy(text, semantic.chunk(text), level_sizes, sizer, overlap=1, bases=["recursive", "semantic"])
    doc = Document(text, metadata={"format": "markdown"})
    auto = HierarchicalChunker(chunk_sizes=level_sizes, base="auto").chunk(doc)
    check_hierarchy(text, auto, level_sizes, sizer, bases=["markdown", "markdown"])
    assert [c.id for c in auto] == [c.id for c in HierarchicalChunker(chunk_sizes=level_sizes, base="markdown").chunk(doc)]


@given(text=st.lists(st.sampled_from(STRUCTURED), max_size=60).map("".join), front=st.booleans(),
       level_sizes=st.lists(st.integers(8, 200), min_size=2, max_size=3, unique=True).map(lambda v: sorted(v, reverse=True)))
def test_markdown_small_sections_merge_only_inside_their_parent(text, front, level_sizes):
    pytest.importorskip("markdown_it")
    if front:
        text = "---\ntitle: T\ntags: [a, b]\n---\n" + text
    params = {"merge_small_sections": True, "min_chunk_size": level_sizes[-1] // 2}
    chunks = HierarchicalChunker(chunk_sizes=level_sizes, base="markdown", base_params=params).chunk(text)
    check_hierarchy(text, chunks, level_sizes, CharSizer(), bases=["markdown"] * len(level_sizes))


def test_tokens_and_markdown_sections_over_sentences(cl100k):
    pytest.importorskip("markdown_it")
    text = (
        "# Billing\n\nInvoices are due in thirty days. Late fees apply after that. A receipt is sent by email.\n\n"
        "## Refunds\n\nReturns need a receipt. Store credit is offered for opened items.\n\n"
        "# Shipping\n\nOrders ship from the Denver warehouse. Tracking numbers arrive by email.\n"
    )
    level_sizes = [60, 12]
    chunks = chunkwise.chunk(text, strategy="hierarchical", chunk_sizes=level_sizes, unit=cl100k, base=["markdown", "sentence"])
    check_hierarchy(text, chunks, level_sizes, cl100k, bases=["markdown", "sentence"])
    parents = [c for c in chunks if c.metadata["level"] == 0]
    # markdown parents keep their header path and breadcrumb; no leaf crosses a section
    assert [c.metadata["header_path"] for c in parents][-1] == ["Shipping"]
    assert parents[-1].context == "Shipping"
    assert all(c.metadata["boundary"] == "sentence" or c.metadata["boundary"] in ("h1", "h2", "end") or not c.metadata["leaf"]
               for c in chunks if c.metadata["leaf"] and c.metadata["next_id"])


def test_default_levels_from_chunk_size_and_the_issue_default():
    c = HierarchicalChunker(chunk_size=128)
    assert c.sizes == (2048, 512, 128) and c.chunk_size == 128
    given_sizes = HierarchicalChunker(chunk_sizes=[300, 100])
    assert given_sizes.sizes == (300, 100) and given_sizes.chunk_size == 100
    # chunkwise.chunk passes its default chunk_size (512): chunk_sizes decides
    text = "Alpha beta gamma. " * 40
    chunks = chunkwise.chunk(text, strategy="hierarchical", chunk_sizes=[200, 50])
    assert max(c.size for c in chunks if c.metadata["leaf"]) <= 50
    assert {c.metadata["level"] for c in chunks} == {0, 1}


def test_a_small_parent_has_one_child_of_the_same_span_with_another_id():
    chunks = HierarchicalChunker(chunk_sizes=[100, 40]).chunk("Short text.")
    assert [(c.metadata["level"], c.text) for c in chunks] == [(0, "Short text."), (1, "Short text.")]
    assert chunks[0].id != chunks[1].id and chunks[1].metadata["parent_id"] == chunks[0].id


def test_ids_depend_on_document_and_level_and_change_with_an_edit():
    text = "One two three. Four five six.\n\nSeven eight nine."
    a = HierarchicalChunker(chunk_sizes=[30, 15]).chunk(Document(text, source="a.txt"))
    b = HierarchicalChunker(chunk_sizes=[30, 15]).chunk(Document(text, source="a.txt"))
    other = HierarchicalChunker(chunk_sizes=[30, 15]).chunk(Document(text, source="b.txt"))
    edited = HierarchicalChunker(chunk_sizes=[30, 15]).chunk(Document(text.replace("Seven", "Sever"), source="a.txt"))
    assert [c.id for c in a] == [c.id for c in b]
    assert not {c.id for c in a} & {c.id for c in other}
    changed = {c.id for c in a} ^ {c.id for c in edited}
    assert changed and all("Sever" in c.text or "Seven" in c.text for c in a + edited if c.id in changed)


def test_empty_text_gives_no_chunks():
    assert HierarchicalChunker(chunk_sizes=[20, 5]).chunk("") == []
    assert HierarchicalChunker(chunk_sizes=[20, 5]).chunk(" \n\t ") == []


@pytest.mark.parametrize(
    ("params", "names"),
    [
        ({"chunk_sizes": [128, 512]}, "chunk_sizes"),
        ({"chunk_sizes": [512, 512]}, "chunk_sizes"),
        ({"chunk_sizes": [512, 0]}, "chunk_sizes"),
        ({"chunk_sizes": []}, "chunk_sizes"),
        ({"chunk_sizes": 512}, "chunk_sizes"),
        ({"chunk_sizes": [512, 12.5]}, "chunk_sizes"),
        ({"chunk_sizes": [200, 50], "chunk_size": 100}, "chunk_size"),
        ({"chunk_sizes": [200, 50], "chunk_overlap": 50}, "chunk_overlap"),
        ({"chunk_sizes": [200, 50], "base": ["markdown", "sentence", "recursive"]}, "base"),
        ({"chunk_sizes": [200, 50], "base": "hierarchical"}, "base"),
        ({"chunk_sizes": [200, 50], "base": "nope"}, r"^base \(level 0, 'nope', chunk_size=200\): .*'nope'"),
        ({"chunk_sizes": [200, 50], "base": ["recursive", "nope"]}, r"^base \(level 1, 'nope'"),
        ({"chunk_sizes": [200, 50], "base": 3}, "base"),
        ({"chunk_sizes": [200, 50], "base_params": {"chunk_size": 3}}, "base_params"),
        ({"chunk_sizes": [200, 50], "base_params": [{}]}, "base_params"),
        ({"chunk_sizes": [200, 50], "base_params": {"typo": 1}}, r"^base \(level 0, .*typo"),
        ({"chunk_sizes": [200, 50], "leaves_only": "yes"}, "leaves_only"),
    ],
)
def test_invalid_configuration_names_the_parameter(params, names):
    with pytest.raises(ConfigError, match=names):
        chunkwise.make_chunker("hierarchical", **params)


def test_overlap_above_the_leaves_is_rejected():
    chunker = HierarchicalChunker(chunk_sizes=[40, 15], base="sentence", base_params=[{"overlap_sentences": 1}, {}])
    with pytest.raises(ConfigError, match="leaves only"):
        chunker.chunk("One two three. Four five six. Seven eight nine. Ten eleven twelve. " * 3)
    # at the leaves it is what overlap means
    ok = HierarchicalChunker(chunk_sizes=[40, 15], base="sentence", base_params=[{}, {"overlap_sentences": 1}])
    check_hierarchy(
        "One two three. Four five six. Seven eight nine. Ten eleven twelve. " * 3,
        ok.chunk("One two three. Four five six. Seven eight nine. Ten eleven twelve. " * 3),
        [40, 15], CharSizer(), overlap=1, bases=["sentence", "sentence"],
    )


def test_cli_writes_every_level_with_its_links(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli as main

    src = tmp_path / "notes.txt"
    src.write_text("Invoices are due in thirty days. Late fees apply after that.\n\nOrders ship from Denver. " * 4, encoding="utf-8")
    out = tmp_path / "chunks.jsonl"
    result = CliRunner().invoke(main, ["chunk", str(src), "-s", "hierarchical", "-p", "chunk_sizes=[160, 40]", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    ids = {r["id"] for r in rows}
    levels = {r["metadata"]["level"] for r in rows}
    assert levels == {0, 1} and len(ids) == len(rows)
    for r in rows:
        m = r["metadata"]
        assert (m["parent_id"] is None) == (m["level"] == 0) and (m["parent_id"] is None or m["parent_id"] in ids)
        assert set(m["child_ids"]) <= ids and m["leaf"] == (m["level"] == 1)
    stats = CliRunner().invoke(main, ["stats", str(src), "-s", "hierarchical", "--chunk-size", "40"])
    assert stats.exit_code == 0, stats.output
    assert "hierarchical/40/0" in stats.output  # the leaves, measured against their size


def test_both_interfaces_defaults_leave_chunk_sizes_in_charge():
    from chunkwise.chunkers.hierarchical import DEFAULT_CHUNK_SIZES
    from chunkwise.commands._options import CLI_DEFAULTS, PYTHON_DEFAULTS

    assert {CLI_DEFAULTS["chunk_size"], PYTHON_DEFAULTS["chunk_size"]} <= set(DEFAULT_CHUNK_SIZES)
    for cs in DEFAULT_CHUNK_SIZES:
        assert chunkwise.make_chunker("hierarchical", chunk_size=cs, chunk_sizes=[160, 40]).chunk_size == 40
    with pytest.raises(ConfigError, match="disagrees"):
        chunkwise.make_chunker("hierarchical", chunk_size=100, chunk_sizes=[160, 40])


def test_the_evaluator_embeds_only_the_leaves():
    if HashEmbedder is None:
        pytest.skip("numpy is not installed")
    from chunkwise.evaluation.probes import Question
    from chunkwise.evaluation.runner import evaluate

    class Counting(HashEmbedder):
        def __init__(self):
            super().__init__()
            self.texts = []

        def embed(self, texts):
            self.texts.extend(texts)
            return super().embed(texts)

    text = "Invoices are due in thirty days. Late fees apply after that.\n\nOrders ship from Denver. " * 4
    doc = Document(text, source="notes.txt")
    chunker = chunkwise.make_chunker("hierarchical", chunk_sizes=[160, 40])
    leaves = [c for c in chunker.chunk(doc) if c.metadata["leaf"]]
    ref = text.index("Orders")
    q = Question(id="q1", text="Where do orders ship from?", references=((doc.id, ref, ref + 23),))
    emb = Counting()
    result = evaluate([doc], [q], chunker, emb, k=2)
    assert result.n_chunks == len(leaves)
    assert sorted(emb.texts) == sorted([c.text_for_embedding() for c in leaves] + [q.text])


OTHER_BASES = ["conversation", "wikitext", "code", "table"]


@pytest.mark.parametrize("base", OTHER_BASES)
@pytest.mark.parametrize("top", ["recursive", "same"])
@settings(max_examples=30, deadline=None)
@given(text=documents, level_sizes=st.lists(st.integers(4, 160), min_size=2, max_size=2, unique=True).map(lambda v: sorted(v, reverse=True)))
def test_other_strategies_as_levels_tile_their_parents(base, top, text, level_sizes):
    """The strategies not in BASES, as the leaves under recursive parents or as both levels: the
    same contract (a code leaf does not reach back over indentation its parent trimmed)."""
    import warnings

    bases = ["recursive" if top == "recursive" else base, base]
    params = [{"language": "python"} if b == "code" else {} for b in bases]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chunks = HierarchicalChunker(chunk_sizes=level_sizes, base=bases, base_params=params).chunk(text)
    check_hierarchy(text, chunks, level_sizes, CharSizer(), bases=bases)


# -- LLM strategies as levels -------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(text=documents, level_sizes=st.lists(st.integers(4, 160), min_size=2, max_size=3, unique=True).map(
    lambda v: sorted(v, reverse=True)))
def test_agentic_levels_tile_their_parents_whatever_the_model_answers(text, level_sizes):
    """``client=`` reaches the agentic levels; valid, invalid and retried answers (scripted
    in process) keep the contract; a level that fell back says so in its metadata."""
    pytest.importorskip("httpx")
    from llm_server import scripted_client

    bases = ["recursive"] * (len(level_sizes) - 1) + ["agentic"]
    chunker = HierarchicalChunker(chunk_sizes=level_sizes, base=bases, client=scripted_client())
    chunks = chunker.chunk(text)
    check_hierarchy(text, chunks, level_sizes, CharSizer(), bases=bases)
    for c in chunks:
        if c.metadata["leaf"]:
            assert isinstance(c.metadata["llm_fallback"], bool)
            if c.metadata["agentic"].startswith("fallback"):  # (a chunk may also reach into such a window)
                assert c.metadata["llm_fallback"] is True
        else:
            assert "llm_fallback" not in c.metadata


def test_estimate_counts_the_requests_of_the_llm_levels():
    pytest.importorskip("httpx")
    from llm_server import ScriptedServer

    from chunkwise.llm import ChatClient

    text = "Pumps move water. Valves open at dawn. Tanks fill at night.\n\n" * 12
    with ScriptedServer() as server:
        client = ChatClient("m", base_url=server.url)
        chunker = HierarchicalChunker(chunk_sizes=[300, 80, 30], base=["recursive", "agentic", "agentic"],
                                      client=client)
        est = chunker.estimate([text])
        assert server.requests == 0 and est.requests > 1 and est.input_tokens > 0
        assert chunker.llm is client
        chunks = chunker.chunk(text)
        assert server.requests == est.requests
        assert {c.metadata["agentic"] for c in chunks if c.metadata["level"] > 0} == {"model"}
    assert HierarchicalChunker(chunk_sizes=[300, 80]).estimate([text]).requests == 0
    assert HierarchicalChunker(chunk_sizes=[300, 80]).llm is None


def test_llm_levels_configuration_errors():
    pytest.importorskip("httpx")
    from chunkwise.llm import ChatClient

    client = ChatClient("m", base_url="http://localhost:11434/v1")
    with pytest.raises(ConfigError, match="client is given but no level's base asks a chat model"):
        HierarchicalChunker(chunk_sizes=[200, 50], client=client)
    with pytest.raises(ConfigError, match="base cannot be 'propositions'"):
        HierarchicalChunker(chunk_sizes=[200, 50], base=["recursive", "propositions"], client=client)
    with pytest.raises(ConfigError, match=r"base \(level 1, 'agentic'.*needs model=.*client="):
        HierarchicalChunker(chunk_sizes=[200, 50], base=["recursive", "agentic"])
    # a level's own endpoint wins over the shared client
    own = ChatClient("own", base_url="http://localhost:8000/v1")
    chunker = HierarchicalChunker(chunk_sizes=[200, 50], base=["agentic", "agentic"], client=client,
                                  base_params=[{"client": own}, {}])
    assert [c.llm.model for c in chunker.level_chunkers()] == ["own", "m"]
    assert pickle.loads(pickle.dumps(chunker)).level_chunkers()[1].llm.model == "m"


def test_cli_explicit_chunk_size_must_agree_with_the_leaf_size(tmp_path):
    """Only the default --chunk-size gives way to chunk_sizes[-1]; one given that
    disagrees is a usage error, even when it equals a default (96)."""
    from click.testing import CliRunner

    from chunkwise.cli import cli

    src = tmp_path / "a.txt"
    src.write_text("Pumps start at six. Valves open at seven. Tanks fill by eight.\n", encoding="utf-8")
    base = ["chunk", str(src), "-s", "hierarchical", "-p", "chunk_sizes=[400,100]"]
    for given in ("96", "10"):
        r = CliRunner().invoke(cli, [*base, "--chunk-size", given])
        assert r.exit_code == 2 and "disagrees with the leaf size chunk_sizes[-1] (100)" in r.output, r.output
    for ok in ([], ["--chunk-size", "100"]):
        r = CliRunner().invoke(cli, [*base, *ok])
        assert r.exit_code == 0, r.output
        assert {json.loads(line)["metadata"]["level"] for line in r.stdout.splitlines()} == {0, 1}
    r = CliRunner().invoke(cli, ["chunk", str(src), "-p", "contextualize=true"])
    assert r.exit_code == 2 and "give --contextualize" in r.output, r.output


@pytest.mark.parametrize("base", [["bogus"], ["recursive", "sentence", "bogus"]])
def test_an_unknown_base_strategy_is_named(base):
    with pytest.raises(ConfigError, match="'bogus'.*choose one of:.*recursive"):
        HierarchicalChunker(chunk_sizes=[100, 20], base=base)


def test_every_chunk_carries_its_place_id_and_links_after_the_base_metadata():
    """On a real file: index is the position in the list, id is the level's own (document
    id and level), the hierarchy's keys follow the document's and the base chunk's own keys
    in a fixed order, and the values stay frozen and picklable."""
    from pathlib import Path

    from chunkwise.types import chunk_id

    path = Path(__file__).resolve().parents[1] / "data" / "chroma_eval" / "corpora" / "state_of_the_union.md"
    doc = chunkwise.load(path)
    chunks = HierarchicalChunker(chunk_sizes=[1200, 300]).chunk(doc)
    assert len(chunks) > 20 and chunks == HierarchicalChunker(chunk_sizes=[1200, 300]).chunk(doc)
    own = ["source", "boundary", "prev_id", "next_id", "level", "parent_id", "child_ids", "leaf"]
    for i, c in enumerate(chunks):
        level = c.metadata["level"]
        assert c.index == i and c.id == chunk_id(f"{doc.id}#{level}", c.start_index, c.end_index, c.text)
        assert list(c.metadata) == [*doc.metadata, *own]
        assert c.metadata["leaf"] is (level == 1)
        assert pickle.loads(pickle.dumps(c)) == c
        with pytest.raises(AttributeError):
            c.index = 0  # type: ignore[misc]
    by_id = {c.id: c for c in chunks}
    for c in chunks:
        if c.metadata["parent_id"] is not None:
            assert c.id in by_id[c.metadata["parent_id"]].metadata["child_ids"]
        if c.metadata["next_id"] is not None:
            nxt = by_id[c.metadata["next_id"]]
            assert nxt.metadata["level"] == c.metadata["level"] and nxt.metadata["prev_id"] == c.id
