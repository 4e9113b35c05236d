"""HTML comments and HTML blocks in the markdown strategy: a block that fits is never cut,
and a comment right above a heading (Node.js keeps old link targets so) starts that
heading's section, as a link target there does."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
_COMMENT = "<!-- Anchor to make sure old links find a target -->"


def _node_cli(n: int = 14) -> str:
    # as in Node.js's doc/api/cli.md: a run of option headings with no body, a comment
    # that keeps an old link target, then the heading it names
    heads = "".join(f"### `--option-number-{i}`\n\n" for i in range(n))
    return "## V8\n\nIntro.\n\n" + heads + _COMMENT + "\n\n### `--max`\n\nSets the max memory size.\n"


def _html_blocks(text: str) -> list[tuple[int, int]]:
    out = []
    for b in MarkdownParser().parse(text).blocks:
        if b.kind == "html" and b.depth == 0:
            s, e = b.start, b.end
            while text[e - 1].isspace():
                e -= 1
            out.append((s, e))
    return out


def _cut_inside(chunks, spans) -> list[int]:
    return [c.index for c in chunks for s, e in spans if s < c.start_index < e or s < c.end_index < e]


def test_comment_above_a_heading_is_not_cut_and_leaves_no_scrap():
    text = _node_cli()
    chunker = MarkdownChunker(chunk_size=96, unit="tokens")
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 96, chunker.sizer)
    assert _cut_inside(chunks, _html_blocks(text)) == []
    # the comment starts the section of the heading under it
    at = text.index(_COMMENT)
    (c,) = [c for c in chunks if c.start_index <= at < c.end_index]
    assert c.text.rstrip().endswith("Sets the max memory size.")
    assert c.metadata["header_path"] == ["V8", "--max"]
    # no scrap: every chunk but the intro holds more than a few tokens
    assert min(c.size for c in chunks[1:]) >= 8


@pytest.mark.parametrize("size", [90, 100, 120, 150])
def test_html_block_that_fits_is_an_atom(size):
    html = '<div class="note">\nA note in HTML that runs on for a while, words and words.\n</div>'
    text = "# Title\n\n" + "Some text of a paragraph, long. " * 3 + "\n\n" + html + "\n\nMore text after it.\n"
    chunker = MarkdownChunker(chunk_size=size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    assert len(html) <= size
    assert _cut_inside(chunks, _html_blocks(text)) == []


def test_html_block_larger_than_the_budget_is_still_cut():
    html = "<!--\n" + "a commented-out line of text\n" * 10 + "-->"
    text = "# Title\n\nText.\n\n" + html + "\n\nMore.\n"
    for oversize in ("split", "keep", "raise"):  # (no oversize policy for HTML blocks)
        chunker = MarkdownChunker(chunk_size=80, oversize=oversize)
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, 80, chunker.sizer)
        assert not any(c.metadata.get("oversize") for c in chunks)


def test_comment_under_a_heading_stays_with_it_whole():
    # Node.js's "<!-- YAML ... -->" under each heading: the heading goes with it, and the
    # comment is not cut while heading and comment fit
    yaml = "<!-- YAML\nadded: v17.5.0\nchanges:\n  - version: v18.0.0\n-->"
    text = "# A\n\n" + "Words of a. " * 8 + "\n\n## B\n\n" + yaml + "\n\n" + "Text of b here. " * 4 + "\n"
    for size in (70, 100, 140):
        chunker = MarkdownChunker(chunk_size=size)
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, size, chunker.sizer)
        (c,) = [c for c in chunks if "## B" in c.text]
        assert yaml in c.text
        assert _cut_inside(chunks, _html_blocks(text)) == []


def test_big_comment_above_a_heading():
    big = "<!--\n" + "a commented-out line of text\n" * 10 + "-->"
    text = "# A\n\nBody of a.\n\n" + big + "\n## B\n\nBody of b.\n"
    for size in (40, 80, 400):
        chunker = MarkdownChunker(chunk_size=size)
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, size, chunker.sizer)
        assert any(c.text.endswith("Body of b.") and "## B" in c.text for c in chunks)


def test_a_comment_that_does_not_close_its_block_is_text():
    # "<!-- a --> b": the block holds text after the comment: not a link target
    text = "# A\n\nBody.\n\n<!-- a --> tail words\n\n## B\n\nText.\n"
    chunks = MarkdownChunker(chunk_size=30).chunk(text)
    (c,) = [c for c in chunks if "tail words" in c.text]
    assert "## B" not in c.text


@_SETTINGS
@given(
    n=st.integers(0, 20),
    size=st.integers(40, 160),
    comment=st.sampled_from([_COMMENT, "<!-- x -->", "<!--\nmulti\nline\n-->", '<!-- a --> <a id="z"></a>']),
    unit=st.sampled_from(["chars", "tokens"]),
)
def test_property_comments_above_headings(n, size, comment, unit):
    text = _node_cli(n).replace(_COMMENT, comment)
    chunker = MarkdownChunker(chunk_size=size, unit=unit)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    # (a comment of at most half the budget leads the heading under it; a bigger one is
    # the body of the heading above, and is cut where it does not fit with that heading)
    fits = [(s, e) for s, e in _html_blocks(text) if chunker.sizer.count(text[s:e]) <= size // 2]
    assert _cut_inside(chunks, fits) == []
