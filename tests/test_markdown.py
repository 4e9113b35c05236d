"""The "markdown" strategy: sections, header paths, atomic blocks, caps, invariants."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants, check_sections, path_offset, trailing_headings

import chunkwise
from chunkwise.chunkers.structure import MarkdownChunker, OversizeError
from chunkwise.errors import ConfigError
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")


def assert_invariants(text, chunks, chunk_size=None, sizer=None):
    """The invariants every strategy keeps (offsets, order, coverage, size, no blanks)."""
    prev = -1
    covered = bytearray(len(text))
    for i, c in enumerate(chunks):
        assert 0 <= c.start_index < c.end_index <= len(text), (i, c.start_index, c.end_index)
        assert c.text == text[c.start_index : c.end_index]
        assert c.text.strip(), f"chunk {i} is blank"
        assert c.start_index >= prev, "chunks out of order"
        assert c.index == i
        prev = c.start_index
        covered[c.start_index : c.end_index] = b"\x01" * (c.end_index - c.start_index)
        if chunk_size is not None and not c.metadata.get("oversize"):
            assert c.size <= chunk_size, (i, c.size, c.text[:80])
        if sizer is not None:
            assert c.size == sizer.count(c.text)
        assert isinstance(c.metadata["header_path"], list)
    if chunk_size is not None and sizer is not None and not any(c.metadata.get("oversize") for c in chunks):
        check_invariants(text, chunks, chunk_size, sizer)  # the project's contract, grapheme cuts included
    lost = [k for k, ch in enumerate(text) if not covered[k] and not ch.isspace()]
    assert not lost, f"{len(lost)} characters lost, first at {lost[0]}: {text[max(0, lost[0] - 20) : lost[0] + 20]!r}"


def by_text(chunks, needle):
    found = [c for c in chunks if needle in c.text]
    assert found, f"{needle!r} in no chunk"
    return found[0]


# -- headings ---------------------------------------------------------------------------


def test_atx_and_setext_headings_give_titles_and_levels():
    text = "Top\n===\n\nIntro.\n\nSub\n---\n\nBody.\n\n### Deep ###\n\nMore.\n\n## Notes on C#\n\nEnd.\n"
    heads = MarkdownParser().parse(text).headings
    assert [(h.level, h.title) for h in heads] == [(1, "Top"), (2, "Sub"), (3, "Deep"), (2, "Notes on C#")]
    assert text[heads[0].start : heads[0].end] == "Top\n===\n"


def test_header_path_is_a_list_and_keeps_slashes_and_arrows():
    text = "# Input / Output\n\nA.\n\n## Parse > Render\n\nB.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100)
    assert by_text(chunks, "B.").metadata["header_path"] == ["Input / Output", "Parse > Render"]
    assert by_text(chunks, "B.").context == "Input / Output > Parse > Render"


def test_inline_markup_is_rendered_to_plain_titles():
    text = "# Use `pack()` with **care** and [links](http://x.org)\n\nBody.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100)
    assert chunks[0].metadata["header_path"] == ["Use pack() with care and links"]


def test_every_heading_starts_a_chunk_and_sections_do_not_mix():
    text = "# A\n\na.\n\n## B\n\nb.\n\n## C\n\nc.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=1000)
    assert [c.text for c in chunks] == ["# A\n\na.", "## B\n\nb.", "## C\n\nc."]
    assert [c.metadata["header_path"] for c in chunks] == [["A"], ["A", "B"], ["A", "C"]]


def test_split_level_keeps_deeper_headings_inside_the_section():
    text = "# A\n\na.\n\n## B\n\nb.\n\n### B1\n\nb1.\n\n## C\n\nc.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=1000, split_level=2)
    assert [c.text for c in chunks] == ["# A\n\na.", "## B\n\nb.\n\n### B1\n\nb1.", "## C\n\nc."]
    assert chunks[1].metadata["header_path"] == ["A", "B"]


def test_deeper_heading_is_the_strongest_inner_boundary_of_a_big_section():
    body = "Words here. " * 6
    text = f"## B\n\n{body}\n\n### B1\n\n{body}\n\n### B2\n\n{body}\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100, split_level=2)
    assert_invariants(text, chunks, 100)
    assert [c.metadata["boundary"] for c in chunks][:2] == ["h3", "h3"]
    assert any(c.text.startswith("### B1") for c in chunks)
    assert by_text(chunks, "### B2").metadata["header_path"] == ["B", "B2"]


def test_preamble_has_an_empty_header_path():
    chunks = chunkwise.chunk("Before.\n\n# H\n\nAfter.\n", strategy="markdown", chunk_size=100)
    assert chunks[0].metadata["header_path"] == [] and chunks[0].context == ""


def test_crlf_gives_the_same_chunks_as_lf():
    lf = "Title\n=====\n\nOne.\n\n## Two ##\n\n```py\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    crlf = lf.replace("\n", "\r\n")
    a = chunkwise.chunk(lf, strategy="markdown", chunk_size=100)
    b = chunkwise.chunk(crlf, strategy="markdown", chunk_size=100)
    assert [c.metadata["header_path"] for c in a] == [c.metadata["header_path"] for c in b]
    assert [c.text.replace("\r\n", "\n") for c in b] == [c.text for c in a]
    assert_invariants(crlf, b, 100)
    assert len(b) == 2


# -- code, tables, oversize ---------------------------------------------------------------


def test_code_block_that_fits_is_never_split():
    code = "```python\n" + "\n".join(f"x{i} = {i}" for i in range(8)) + "\n```"
    text = f"# Code\n\n{'Some prose here. ' * 5}\n\n{code}\n\nAfter.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=len(code) + 5)
    assert_invariants(text, chunks, len(code) + 5)
    assert any(code in c.text for c in chunks)


def test_unclosed_fence_runs_to_the_end():
    text = "# A\n\n~~~~\ncode\n\n# not a heading\n\nmore code\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=1000)
    assert len(chunks) == 1 and chunks[0].metadata["header_path"] == ["A"]


def test_oversize_code_split_keeps_fences_with_code_and_language_in_metadata():
    lines = [f"value_{i} = compute({i})" for i in range(20)]
    text = "# A\n\n```rust\n" + "\n".join(lines) + "\n```\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100)
    assert_invariants(text, chunks, 100)
    code = [c for c in chunks if "value_" in c.text]
    assert len(code) > 1
    assert all(c.metadata["code_language"] == "rust" for c in code)
    assert code[0].text.startswith("# A\n\n```rust\nvalue_0")  # the heading stays with its body
    assert code[-1].text.endswith("value_19 = compute(19)\n```")
    # between lines only
    assert all(c.text.split("\n")[-1].startswith(("value_", "```")) for c in code)


def test_oversize_keep_and_raise():
    rows = "\n".join(f"| r{i} | {i * i} |" for i in range(30))
    table = "| name | square |\n|------|--------|\n" + rows
    text = f"# T\n\nIntro.\n\n{table}\n\nOutro.\n"
    kept = chunkwise.chunk(text, strategy="markdown", chunk_size=80, oversize="keep")
    assert_invariants(text, kept, 80)
    big = [c for c in kept if c.metadata.get("oversize")]
    assert len(big) == 1 and big[0].text == table and big[0].size > 80
    with pytest.raises(OversizeError, match="chunk_size"):
        chunkwise.chunk(text, strategy="markdown", chunk_size=80, oversize="raise")
    assert issubclass(OversizeError, chunkwise.errors.ChunkwiseError)


def test_oversize_table_split_between_rows_with_header_in_context():
    rows = "\n".join(f"| r{i} | {i * i} |" for i in range(30))
    header = "| name | square |\n|------|--------|"
    text = f"# T\n\n{header}\n{rows}\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=80)
    assert_invariants(text, chunks, 80)
    pieces = [c for c in chunks if "| r" in c.text]
    assert len(pieces) > 2
    assert header in pieces[0].text and pieces[0].context == "T"
    for c in pieces[1:]:
        assert c.text.startswith("| r") and c.text.endswith("|")
        assert c.context == "T\n" + header
    assert all(line.startswith("| ") for c in pieces[1:] for line in c.text.split("\n"))


def test_table_that_fits_is_atomic():
    table = "| a | b |\n|---|---|\n" + "\n".join(f"| {i} | {i} |" for i in range(5))
    text = f"# T\n\n{'Prose words. ' * 4}\n\n{table}\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=len(table) + 2)
    assert any(table in c.text for c in chunks)


# -- context in size, merging, overlap ------------------------------------------------------


def test_include_context_in_size_shortens_the_breadcrumb_from_the_top():
    text = "# Alpha\n\n## Beta\n\n### Gamma gamma gamma gamma\n\n" + "Body words go here. " * 10
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=60, include_context_in_size=True)
    assert_invariants(text, chunks, 60)
    body = by_text(chunks, "Body words")
    assert body.metadata["header_path"] == ["Alpha", "Beta", "Gamma gamma gamma gamma"]
    assert body.context == "Gamma gamma gamma gamma"  # Alpha > Beta dropped
    for c in chunks:
        assert len(c.text_for_embedding()) <= 60 + 1


def test_merge_small_sections_joins_siblings_under_their_parent():
    text = "# P\n\n## a\n\nx.\n\n## b\n\ny.\n\n## c\n\n" + "long text. " * 10 + "\n"
    plain = chunkwise.chunk(text, strategy="markdown", chunk_size=80)
    merged = chunkwise.chunk(text, strategy="markdown", chunk_size=80, merge_small_sections=True, min_chunk_size=20)
    assert_invariants(text, merged, 80)
    assert len(merged) < len(plain)
    joined = by_text(merged, "## a")
    assert "## b" in joined.text and joined.metadata["header_path"] == ["P"]


def test_overlap_stays_inside_the_section():
    text = "# A\n\n" + "One sentence here. " * 12 + "\n\n# B\n\nOther words.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=60, chunk_overlap=20)
    assert_invariants(text, chunks, 60)
    b = text.index("# B")
    assert all(c.end_index <= b or c.start_index >= b for c in chunks)
    a_chunks = [c for c in chunks if c.end_index <= b]
    assert any(x.end_index > y.start_index for x, y in itertools.pairwise(a_chunks))


def test_front_matter_is_its_own_chunk_and_parsed_into_metadata():
    text = "---\ntitle: Guide\ntags: [a, b]\n---\n\n# Start\n\nText.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=100)
    assert chunks[0].metadata["is_front_matter"] is True
    assert chunks[0].metadata["header_path"] == []
    assert chunks[1].metadata["front_matter"] == {"title": "Guide", "tags": ["a", "b"]}
    doc = chunkwise.parse(text, format="markdown")
    assert doc.metadata["title"] == "Guide"


def test_config_errors_name_the_parameter():
    with pytest.raises(ConfigError, match="oversize"):
        MarkdownChunker(oversize="truncate")
    with pytest.raises(ConfigError, match="split_level"):
        MarkdownChunker(split_level=7)
    with pytest.raises(ConfigError, match="min_chunk_size"):
        MarkdownChunker(chunk_size=10, min_chunk_size=20)
    with pytest.raises(ConfigError, match="min_chunk_size"):
        MarkdownChunker(merge_small_sections=True)


def test_tokens_unit_fits_exactly():
    pytest.importorskip("tiktoken")
    sizer = chunkwise.sizers.get_sizer("tokens")
    text = "# Intro\n\n" + "Tokens are counted once per document, exactly. " * 40 + "\n\n## More\n\n" + "x = 1\n" * 50
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=32, unit="tokens")
    assert_invariants(text, chunks, 32, sizer)


def test_importing_the_strategy_does_not_import_the_parser():
    code = (
        "import chunkwise, sys; chunkwise.strategy_names(); "
        "print('markdown_it' in sys.modules, 'yaml' in sys.modules, 'lxml' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


# -- peers' documented examples, in our own words ------------------------------------------


def test_langchain_markdown_header_splitter_example():
    # LangChain's MarkdownHeaderTextSplitter example: sections under # / ## / ### with
    # their header metadata; ours adds the heading line to the chunk text.
    text = (
        "# Kitchen\n\n## Knives\n\nKeep them sharp.\n\nStore them dry.\n\n"
        "### Whetstones\n\nSoak the stone first.\n\n## Pans\n\nSeason the iron pan.\n"
    )
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=1000)
    # "# Kitchen" has no body of its own: it leads the chunk of its first subsection
    got = [(c.metadata["header_path"], c.text.split("\n\n", 1)[-1]) for c in chunks if c.text.count("\n")]
    assert got == [
        (["Kitchen", "Knives"], "## Knives\n\nKeep them sharp.\n\nStore them dry."),
        (["Kitchen", "Knives", "Whetstones"], "Soak the stone first."),
        (["Kitchen", "Pans"], "Season the iron pan."),
    ]
    # splitting on # and ## only (headers_to_split_on without ###)
    two = chunkwise.chunk(text, strategy="markdown", chunk_size=1000, split_level=2)
    assert [c.metadata["header_path"] for c in two] == [["Kitchen", "Knives"], ["Kitchen", "Pans"]]
    assert "Soak the stone first." in two[0].text


def test_llamaindex_markdown_node_parser_example():
    # LlamaIndex's MarkdownNodeParser: one node per heading, its text starting with the
    # heading; its header_path "/Main/" is our header_path without the node's own title.
    text = "# Main\nOpening words.\n## Part one\nFirst part.\n## Part two\nSecond part.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=1000)
    assert [c.text for c in chunks] == [
        "# Main\nOpening words.",
        "## Part one\nFirst part.",
        "## Part two\nSecond part.",
    ]
    paths = ["/" + "".join(t + "/" for t in c.metadata["header_path"][:-1]) for c in chunks]
    assert paths == ["/", "/Main/", "/Main/"]


# -- properties -------------------------------------------------------------------------------

_WORDS = st.sampled_from(
    [
        "alpha",
        "beta",
        "gamma",
        "C#",
        "a/b",
        "x>y",
        "naïve",
        "e\u0301t\u00e9",
        "日本語",
        "数据",
        "👩‍👩‍👧",
        "🇫🇷",
        "tab\tbed",
        "Ωmega",
        "1999",
        "z",
    ]
)
_TEXT = st.lists(_WORDS, min_size=1, max_size=8).map(" ".join)


@st.composite
def markdown_docs(draw):
    """A Markdown document and its headings: (level, title, offset) in order."""
    parts: list[str] = []
    heads: list[tuple[int, str, int]] = []
    pos = 0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["atx", "setext", "para", "fence", "table", "list", "hr", "quote", "indented"]))
        unclosed = False
        if kind == "atx":
            level = draw(st.integers(1, 6))
            title = draw(_TEXT)
            closing = draw(st.sampled_from(["", " #", " ###"]))
            block = "#" * level + " " + title + closing
            heads.append((level, " ".join(title.split()), pos))
        elif kind == "setext":
            level = draw(st.integers(1, 2))
            title = draw(_TEXT)
            block = title + "\n" + ("=" if level == 1 else "-") * draw(st.integers(1, 5))
            heads.append((level, " ".join(title.split()), pos))
        elif kind == "para":
            block = "\n".join(draw(st.lists(_TEXT, min_size=1, max_size=4)))
        elif kind == "fence":
            ch = draw(st.sampled_from("`~"))
            n = draw(st.integers(3, 5))
            body = "\n".join(draw(st.lists(st.one_of(_TEXT, st.just("# not a heading"), st.just("")), max_size=6)))
            unclosed = draw(st.booleans())
            block = (
                ch * n
                + draw(st.sampled_from(["", "py", "js x"]))
                + "\n"
                + body
                + ("" if unclosed else "\n" + ch * (n + draw(st.integers(0, 2))))
            )
        elif kind == "table":
            cols = draw(st.integers(1, 3))
            rows = draw(st.lists(st.lists(_TEXT, min_size=cols, max_size=cols), min_size=1, max_size=6))
            block = "\n".join(
                ["| " + " | ".join(r) + " |" for r in rows[:1]]
                + ["|" + "---|" * cols]
                + ["| " + " | ".join(r) + " |" for r in rows[1:]]
            )
        elif kind == "list":
            marker = draw(st.sampled_from(["- ", "* ", "1. "]))
            block = "\n".join(marker + t for t in draw(st.lists(_TEXT, min_size=1, max_size=5)))
        elif kind == "hr":
            block = draw(st.sampled_from(["---", "***", "* * *", "___"]))
        elif kind == "quote":
            block = "\n".join("> " + t for t in draw(st.lists(_TEXT, min_size=1, max_size=3)))
        else:
            block = "\n".join("    " + t for t in draw(st.lists(_TEXT, min_size=1, max_size=3)))
        parts.append(block)
        pos += len(block) + 2
        if unclosed:
            break
    text = "\n\n".join(parts) + draw(st.sampled_from(["", "\n", "\n\n"]))
    if draw(st.booleans()):
        # CRLF: offsets of the headings move with the line ends before them
        heads = [(lv, t, off + text.count("\n", 0, off)) for lv, t, off in heads]
        text = text.replace("\n", "\r\n")
    return text, heads


def _expected_path(heads, offset):
    stack: list[tuple[int, str]] = []
    for level, title, at in heads:
        if at > offset:
            break
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
    return [t for _, t in stack]


_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(markdown_docs(), st.integers(8, 200), st.sampled_from(["chars", "words"]), st.sampled_from(["split", "keep"]))
def test_property_invariants_and_header_paths(doc, size, unit, policy):
    text, heads = doc
    chunker = MarkdownChunker(chunk_size=size, unit=unit, oversize=policy)
    chunks = chunker.chunk(text)
    assert_invariants(text, chunks, size, chunker.sizer)
    assert [c.to_dict() for c in chunker.chunk(text)] == [c.to_dict() for c in chunks]
    starts = [at for _, _, at in heads]
    tail = trailing_headings(text, MarkdownParser().parse(text).headings)
    # a heading lies inside a chunk only when headings above it lead the chunk
    check_sections(text, chunks, MarkdownParser().parse(text).headings)
    for c in chunks:
        at = path_offset(c, starts, tail)
        assert c.metadata["header_path"] == _expected_path(heads, at)
        if c.metadata.get("oversize"):
            assert policy == "keep"


@_SETTINGS
@given(markdown_docs(), st.integers(20, 120), st.integers(0, 15))
def test_property_overlap_context_and_merging(doc, size, overlap):
    text, _ = doc
    chunker = MarkdownChunker(
        chunk_size=size,
        chunk_overlap=min(overlap, size - 1),
        include_context_in_size=True,
        merge_small_sections=True,
        min_chunk_size=size // 3,
    )
    chunks = chunker.chunk(text)
    assert_invariants(text, chunks, size, chunker.sizer)
    for c in chunks:
        if c.context and not c.metadata.get("oversize"):
            ls = text.rfind("\n", 0, c.start_index) + 1  # (the line the chunk starts in)
            line = text[ls:].splitlines()[0]
            if "\n" not in c.context and "table_index" in c.metadata and "-" in line and set(line) <= set("|-: \t"):
                # a chunk that starts at (or inside) a pipe table's delimiter row, with no
                # breadcrumb: its context is the header rows above it (the table's, not capped)
                assert text[:ls].rstrip().endswith(c.context)
                continue
            # the breadcrumb takes at most half the budget (a table's header may follow it)
            assert len(c.context.split("\n")[0]) + 1 <= size // 2 or "\n" in c.context


_JUNK = st.lists(
    st.sampled_from(
        list("#-`~|>*=_[]:!<1. a\t\r\n\n\u0301")
        + ["é", "👩‍👩‍👧", "```", "~~~", "# ", "- ", "> ", "| a | b |\n|---|---|\n", "    ", "---\n", "a\n===\n", "\r\n"]
    ),
    max_size=80,
).map("".join)


@_SETTINGS
@given(_JUNK, st.integers(1, 60), st.sampled_from(["split", "keep"]))
def test_property_markdown_punctuation_soup(text, size, policy):
    chunker = MarkdownChunker(chunk_size=size, oversize=policy)
    chunks = chunker.chunk(text)
    assert_invariants(text, chunks, size, chunker.sizer)
    check_sections(text, chunks, MarkdownParser().parse(text).headings)


def _outline_key(o):
    return (
        [(h.level, h.title, h.start, h.end) for h in o.headings],
        [(b.kind, b.start, b.end, b.depth, b.info, b.cuts, b.header) for b in o.blocks],
        list(o.items),
        o.front_matter,
    )


@_SETTINGS
@given(st.one_of(markdown_docs().map(lambda d: d[0]), _JUNK), st.integers(1, 40))
def test_property_parsing_in_pieces_gives_the_same_outline(text, piece):
    whole = MarkdownParser(piece_chars=10**9).parse(text)
    assert _outline_key(MarkdownParser(piece_chars=piece).parse(text)) == _outline_key(whole)


def test_doctests_of_the_structure_modules():
    import doctest
    import importlib

    for name in (
        "chunkwise.parsers.markdown",
        "chunkwise.parsers.html",
        "chunkwise.parsers.sections",
        "chunkwise.chunkers.structure",
    ):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name


def test_missing_parser_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "markdown_it", None)
    with pytest.raises(chunkwise.errors.MissingDependencyError, match=r"chunkwise\[markdown\]"):
        chunkwise.chunk("# A\n\nb\n", strategy="markdown")


def test_missing_html_parser_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "lxml.html", None)
    monkeypatch.setitem(sys.modules, "lxml", None)
    with pytest.raises(chunkwise.errors.MissingDependencyError, match=r"chunkwise\[html\]"):
        chunkwise.parse("<p>x</p>", format="html")
