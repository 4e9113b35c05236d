"""Invariants of the structure strategies on every file of the committed corpus.

The corpus (tests/corpus/structure, see its README) holds real documents: SQLite's
documentation (public domain) as HTML and as Markdown rendered from it, and documents
written for the tests (front matter, setext headings, CRLF, unclosed fences, numbered
legal text).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from invariants import check_sections
from test_markdown import assert_invariants

import chunkwise

pytest.importorskip("markdown_it")
pytest.importorskip("lxml")

CORPUS = Path(__file__).parent / "corpus" / "structure"
FILES = sorted(p for p in CORPUS.iterdir() if p.suffix in (".md", ".html", ".txt") and p.name != "README.md")


def test_corpus_is_large_enough():
    assert len(FILES) >= 20
    assert sum(p.stat().st_size > 100_000 for p in FILES) >= 3
    assert {p.suffix for p in FILES} >= {".md", ".html"}


def _titles_are_strings(chunks):
    return all(isinstance(t, str) and t for c in chunks for t in c.metadata["header_path"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("size", [200, 1000])
def test_markdown_strategy_invariants_on_corpus(path, size):
    doc = chunkwise.load(path)
    strategy = "sections" if path.suffix == ".txt" else "markdown"
    chunker = chunkwise.make_chunker(strategy, chunk_size=size)
    chunks = chunker.chunk(doc)
    assert chunks
    assert_invariants(doc.text, chunks, size, chunker.sizer)
    assert _titles_are_strings(chunks)
    again = chunker.chunk(doc)
    assert [(c.start_index, c.end_index, c.id, dict(c.metadata), c.context) for c in again] == [
        (c.start_index, c.end_index, c.id, dict(c.metadata), c.context) for c in chunks
    ]
    # every chunk lies inside one section (a heading may carry its subsection along)
    if strategy == "markdown":
        from chunkwise.parsers.markdown import MarkdownParser

        check_sections(doc.text, chunks, MarkdownParser().parse(doc.text).headings)


@pytest.mark.parametrize("path", [p for p in FILES if p.stat().st_size > 100_000][:2], ids=lambda p: p.name)
def test_tokens_and_overlap_on_large_files(path):
    pytest.importorskip("tiktoken")
    doc = chunkwise.load(path)
    chunker = chunkwise.make_chunker(
        "markdown", chunk_size=256, chunk_overlap=32, unit="tokens", include_context_in_size=True
    )
    chunks = chunker.chunk(doc)
    assert_invariants(doc.text, chunks, 256, chunker.sizer)


def test_corpus_html_titles_and_languages():
    doc = chunkwise.load(CORPUS / "handbook.html")
    assert doc.metadata["title"] == "Volunteer handbook" and doc.metadata["language"] == "en-GB"
    doc = chunkwise.load(CORPUS / "sqlite-fts5.html")
    assert doc.metadata["title"] == "SQLite FTS5 Extension"
    assert "toggle_search" not in doc.text and "Search Documentation" not in doc.text


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix != ".txt"], ids=lambda p: p.name)
def test_parsing_in_pieces_gives_the_same_outline(path):
    from test_markdown import _outline_key

    from chunkwise.parsers.markdown import MarkdownParser

    text = chunkwise.load(path).text
    whole = _outline_key(MarkdownParser(piece_chars=10**9).parse(text))
    assert _outline_key(MarkdownParser(piece_chars=1).parse(text)) == whole
    assert _outline_key(MarkdownParser(piece_chars=5000).parse(text)) == whole
