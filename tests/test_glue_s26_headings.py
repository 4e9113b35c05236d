"""A heading is never a chunk of its own while its section has text, in the
semantic_cluster and topic strategies, for documents loaded from Markdown or HTML: a
segment end or topic change right after a heading moves before it, and the markdown
strategy's glue of a heading to the start of its body goes to the packer (as for the
semantic strategy). Text that is not Markdown (a plain string) is chunked as before.
"""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

np = pytest.importorskip("numpy")
pytest.importorskip("sklearn")

from test_leaves_s26_headings import MARKDOWN, check_tiling, heading_only, toy  # noqa: E402
from test_semantic_properties import HashEmbedder  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise import Document  # noqa: E402
from chunkwise.chunkers.semantic_cluster import ClusterSemanticChunker  # noqa: E402
from chunkwise.chunkers.topic import TopicChunker  # noqa: E402

# -- topic ------------------------------------------------------------------------------

SMALL = "# Hi\n\nSome text here. More text.\n\n## Two\n\nBody."


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_topic_keeps_a_heading_with_its_section(fmt):
    # LDA puts the title paragraph in a topic of its own: the topic change moves before it
    doc = Document(SMALL, metadata={"format": fmt})
    cs = chunkwise.chunk(doc, strategy="topic", chunk_size=40)
    assert [c.text for c in cs] == ["# Hi\n\nSome text here. More text.", "## Two\n\nBody."]


def test_topic_plain_text_unchanged():
    cs = chunkwise.chunk(SMALL, strategy="topic", chunk_size=40)
    assert [c.text for c in cs] == ["# Hi\n\nSome text here. More text.", "## Two\n\nBody."]


@settings(max_examples=15, deadline=None)
@given(text=MARKDOWN, size=st.integers(45, 120))
def test_topic_no_heading_alone_property(text, size):
    doc = Document(text, metadata={"format": "markdown"})
    chunker = TopicChunker(chunk_size=size, n_topics=3, restarts=1)
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if heading_only(c.text)]
    check_tiling(text, cs)
    assert all(c.size <= size for c in cs)


# -- semantic_cluster -------------------------------------------------------------------

# (``toy``: sentences point where their first word says, see test_leaves_s26_headings)


# the heading is like the sentences before it, unlike those after it
ALPHA = "Alpha one. Alpha two. Alpha three.\n\n# Alpha heading\n\nBeta one. Beta two. Beta three."


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_semantic_cluster_segment_end_after_a_heading_moves_before_it(fmt):
    doc = Document(ALPHA, metadata={"format": fmt})
    chunker = ClusterSemanticChunker(model=toy, chunk_size=50)
    assert chunker.analyze(ALPHA).cuts == [2, 3]  # (a plain string: the heading is a segment)
    a = chunker.analyze(doc)
    assert a.cuts == [2]
    cs = chunker.chunk(doc)
    assert [c.text for c in cs] == [
        "Alpha one. Alpha two. Alpha three.", "# Alpha heading\n\nBeta one. Beta two. Beta three."
    ]
    check_invariants(ALPHA, cs, 50, chunker.sizer)


def test_semantic_cluster_size_cap_does_not_cut_after_a_heading():
    # the segment after the moved cut is over the cap: it is split, not after the heading
    doc = Document(ALPHA, metadata={"format": "markdown"})
    chunker = ClusterSemanticChunker(model=toy, chunk_size=40)
    cs = chunker.chunk(doc)
    assert [c.text for c in cs] == [
        "Alpha one. Alpha two. Alpha three.", "# Alpha heading\n\nBeta one.", "Beta two. Beta three."
    ]
    check_invariants(ALPHA, cs, 40, chunker.sizer)


def test_semantic_cluster_plain_text_unchanged():
    chunker = ClusterSemanticChunker(model=toy, chunk_size=40)
    assert [c.text for c in chunker.chunk(ALPHA)] == [
        "Alpha one. Alpha two. Alpha three.", "# Alpha heading", "Beta one. Beta two. Beta three."
    ]


@settings(max_examples=40, deadline=None)
@given(text=MARKDOWN, size=st.integers(45, 120), max_sentences=st.sampled_from([None, 1, 2]))
def test_semantic_cluster_no_heading_alone_property(text, size, max_sentences):
    doc = Document(text, metadata={"format": "markdown"})
    chunker = ClusterSemanticChunker(model=HashEmbedder(), chunk_size=size, max_sentences=max_sentences)
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if heading_only(c.text)]
    check_tiling(text, cs)
    assert all(c.size <= size for c in cs)
