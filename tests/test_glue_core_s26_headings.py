"""A heading stays with the start of its section in the recursive and sentence
strategies, for documents loaded from Markdown or HTML (the markdown strategy's glue of
a heading to the start of its body goes to the packer, as for semantic and hierarchical):
no chunk ends with a heading, and no chunk is a heading alone, while its section's text
fits after it. A plain string is chunked as before.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

from test_leaves_s26_headings import MARKDOWN, check_tiling, heading_only

import chunkwise
from chunkwise import Document
from chunkwise.chunkers.recursive import RecursiveChunker
from chunkwise.chunkers.sentence import SentenceChunker

_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
SENTENCE = "A sentence of about fifty-eight characters for the test. "
TITLED = "# Title\n\n" + SENTENCE * 3


def ends_with_heading(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and _HEADING.match(lines[-1]) is not None


@pytest.mark.parametrize("strategy", ["recursive", "sentence"])
def test_the_reported_title_is_not_alone(strategy):
    doc = chunkwise.parse(TITLED, format="markdown")
    cs = chunkwise.chunk(doc, strategy=strategy, chunk_size=60)
    assert [c.text for c in cs][:2] == ["# Title\n\nA sentence of about", "fifty-eight characters for the test."]
    assert not [c.text for c in cs if heading_only(c.text)]
    check_invariants(TITLED, cs, 60, RecursiveChunker(chunk_size=60).sizer)


@pytest.mark.parametrize("strategy", ["recursive", "sentence"])
def test_plain_string_unchanged(strategy):
    cs = chunkwise.chunk(TITLED, strategy=strategy, chunk_size=60)
    assert [c.text for c in cs] == ["# Title"] + [SENTENCE.strip()] * 3


GUIDE = (
    "Intro words about packing. They come first.\n\n"
    "## Sizes\n\n"
    "Every level has its own size. The leaves are small.\n\n"
    "### Budgets\n\n"
    "A budget is a size. It is counted in characters.\n"
)


@pytest.mark.parametrize("fmt", ["markdown", "html", "pdf"])
@pytest.mark.parametrize("chunker", [RecursiveChunker(chunk_size=70), SentenceChunker(chunk_size=70)])
def test_no_chunk_ends_with_a_heading(chunker, fmt):
    doc = Document(GUIDE, metadata={"format": fmt})
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if ends_with_heading(c.text)]
    assert any(c.text.startswith("## Sizes\n\nEvery level") for c in cs)
    assert any(c.text.startswith("### Budgets\n\nA budget") for c in cs)
    check_invariants(GUIDE, cs, 70, chunker.sizer)
    if isinstance(chunker, SentenceChunker):
        # the same text as a plain string: a heading ends the intro's chunk
        assert [c.text for c in chunker.chunk(GUIDE) if ends_with_heading(c.text)]


def test_sentence_windows_and_counts_keep_the_heading():
    doc = Document(GUIDE, metadata={"format": "markdown"})
    for chunker in (
        SentenceChunker(chunk_size=200, window_sentences=1),
        SentenceChunker(chunk_size=200, sentences_per_chunk=2),
    ):
        cs = chunker.chunk(doc)
        assert not [c.text for c in cs if heading_only(c.text)], chunker
        check_tiling(GUIDE, cs)
        for c in cs:
            if "window" in c.metadata:
                s, e = c.metadata["window_start"], c.metadata["window_end"]
                assert c.metadata["window"] == GUIDE[s:e]


def test_recursive_custom_separators_keep_the_heading():
    doc = Document(GUIDE, metadata={"format": "markdown"})
    cs = RecursiveChunker(chunk_size=70, separators=["\n\n", " "]).chunk(doc)
    assert not [c.text for c in cs if ends_with_heading(c.text)]
    check_tiling(GUIDE, cs)


@settings(max_examples=60, deadline=None)
@given(text=MARKDOWN, size=st.integers(45, 200), strategy=st.sampled_from(["recursive", "sentence"]))
def test_no_heading_alone_property(text, size, strategy):
    doc = Document(text, metadata={"format": "markdown"})
    kind = RecursiveChunker if strategy == "recursive" else SentenceChunker
    chunker = kind(chunk_size=size)
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if heading_only(c.text)]
    assert not [c.text for c in cs[:-1] if ends_with_heading(c.text)]
    check_invariants(text, cs, size, chunker.sizer)
