"""The "markdown" strategy: link targets right above a heading go with its section."""

from __future__ import annotations

import re

import chunkwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants, check_sections

from chunkwise._text import trim
from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")

_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

_ANCHOR_ONLY = re.compile(r"\s*(?:<a id=\"[^\"]*\"></a>|<a name='[^']*'/>|\([a-z0-9-]+\)=)(?:\s*(?:<a id=\"[^\"]*\"></a>|<a name='[^']*'/>|\([a-z0-9-]+\)=))*\s*")


def _rows(text, **kw):
    return [(c.text, c.metadata["header_path"]) for c in MarkdownChunker(**kw).chunk(text)]


# -- Node.js style: an anchor line above each heading ---------------------------------


def test_anchor_above_a_heading_is_not_left_at_the_end_of_the_section_above():
    # as in Node.js's errors.md: the body above fills the chunk, so the anchor was a chunk
    # alone with the path of the section above
    body = "A function argument is used in a way that suggests a mistake here."
    text = (
        f'<a id="ERR_A"></a>\n\n### `ERR_A`\n\n{body}\n\n'
        f'<a id="ERR_B"></a>\n\n### `ERR_B`\n\n{body}\n'
    )
    chunker = MarkdownChunker(chunk_size=80)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 80, chunker.sizer)
    head = "A function argument is used in a way that"
    tail = "suggests a mistake here."
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [
        (f'<a id="ERR_A"></a>\n\n### `ERR_A`\n\n{head}', ["ERR_A"]),
        (tail, ["ERR_A"]),
        (f'<a id="ERR_B"></a>\n\n### `ERR_B`\n\n{head}', ["ERR_B"]),
        (tail, ["ERR_B"]),
    ]


@pytest.mark.parametrize("target", ['<a id="b"></a>', "<a name='b'/>", "(label-b)=", '<a id="b1"></a>\n<a id="b2"></a>', '<a id="b1"></a>\n\n<a id="b2"></a>'])
def test_link_targets_above_a_heading_start_its_section(target):
    text = f"# A\n\nSome text of the first section, long enough.\n\n{target}\n\n## B\n\nMore.\n"
    at = text.index(target)
    chunks = MarkdownChunker(chunk_size=60).chunk(text)
    assert [(c.start_index, c.metadata["header_path"]) for c in chunks] == [(0, ["A"]), (at, ["A", "B"])]
    assert chunks[0].text == "# A\n\nSome text of the first section, long enough."


def test_targets_above_a_heading_with_split_level():
    # a deeper heading is an inner boundary: the cut before it comes before its anchor
    text = '# A\n\nFirst paragraph of the section, quite long.\n\n<a id="b"></a>\n\n## B\n\nSecond one.\n'
    assert _rows(text, chunk_size=60, split_level=1) == [
        ("# A\n\nFirst paragraph of the section, quite long.", ["A"]),
        ('<a id="b"></a>\n\n## B\n\nSecond one.', ["A", "B"]),
    ]


def test_anchor_inside_a_section_stays_where_it_is():
    # an anchor followed by text (not a heading) is not moved
    text = '# A\n\nFirst paragraph.\n\n<a id="x"></a>\n\nSecond paragraph.\n\n## B\n\nMore.\n'
    assert _rows(text, chunk_size=200) == [
        ('# A\n\nFirst paragraph.\n\n<a id="x"></a>\n\nSecond paragraph.', ["A"]),
        ("## B\n\nMore.", ["A", "B"]),
    ]


def test_link_with_text_above_a_heading_is_text_of_the_section_above():
    text = '# A\n\nFirst paragraph here.\n\n<a id="x">see this</a>\n\n## B\n\nMore.\n'
    assert _rows(text, chunk_size=60) == [
        ('# A\n\nFirst paragraph here.\n\n<a id="x">see this</a>', ["A"]),
        ("## B\n\nMore.", ["A", "B"]),
    ]


def test_rule_that_closes_a_section_above_anchors_stays_with_the_paragraph():
    text = '# A\n\nThe first paragraph is here.\n\n---\n\n<a id="b"></a>\n\n## B\n\nMore text.\n'
    assert _rows(text, chunk_size=40) == [
        ("# A\n\nThe first paragraph is here.\n\n---", ["A"]),
        ('<a id="b"></a>\n\n## B\n\nMore text.', ["A", "B"]),
    ]


def test_anchors_above_an_empty_heading_lead_the_next_section():
    text = '<a id="codes"></a>\n\n## Codes\n\n<a id="E1"></a>\n\n### E1\n\nUsed when it fails.\n'
    assert _rows(text, chunk_size=200) == [(text.rstrip("\n"), ["Codes", "E1"])]


def test_crlf_anchors():
    text = '# A\r\n\r\nSome text of the first section, long enough.\r\n\r\n<a id="b"></a>\r\n\r\n## B\r\n\r\nMore.\r\n'
    assert _rows(text, chunk_size=60) == [
        ("# A\r\n\r\nSome text of the first section, long enough.", ["A"]),
        ('<a id="b"></a>\r\n\r\n## B\r\n\r\nMore.', ["A", "B"]),
    ]


_WORD = st.sampled_from(["alpha", "beta", "gamma", "delta", "error", "node", "x"])


@st.composite
def anchored_docs(draw):
    """Sections with link targets above some headings: (text, [(anchor start, heading
    start, heading end, path, whether it has a body, end of the first word after it)])."""
    parts: list[str] = []
    pos = 0
    found = []
    stack: list[tuple[int, str]] = []
    bodies: list[int] = []
    for i in range(draw(st.integers(1, 8))):
        anchors = draw(st.lists(st.sampled_from([f'<a id="e{i}"></a>', f"<a name='e{i}'/>", f"(e-{i})="]), max_size=2))
        # (a line of a self-closing tag opens an HTML block, which runs to a blank line)
        sep = "\n\n" if any(a.endswith("/>") for a in anchors) else draw(st.sampled_from(["\n\n", "\n"]))
        level = draw(st.integers(1, 3))
        title = f"T{i}"
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        lead = sep.join(anchors) + (sep if anchors else "")
        head = "#" * level + " " + title
        body = "\n\n".join(" ".join(draw(st.lists(_WORD, min_size=1, max_size=12))) for _ in range(draw(st.integers(0, 3))))
        block = lead + head + ("\n\n" + body if body else "") + "\n\n"
        if anchors:
            found.append([pos, pos + len(lead), pos + len(lead) + len(head), [t for _, t in stack], bool(body)])
        if body:
            bodies.append(pos + len(lead) + len(head) + 2 + len(body.split()[0]))
        parts.append(block)
        pos += len(block)
    for f in found:  # the glue of the heading binds when it fits up to the end of the first word of a body
        f.append(min((b for b in bodies if b > f[2]), default=f[2]))
    return "".join(parts), found


@_SETTINGS
@given(anchored_docs(), st.integers(20, 120), st.sampled_from([1, 6]))
def test_property_targets_go_with_the_heading_after_them(doc, size, split_level):
    text, found = doc
    chunker = MarkdownChunker(chunk_size=size, split_level=split_level)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    if split_level == 6:
        check_sections(text, chunks, MarkdownParser().parse(text).headings)
    if all(g - a0 <= size for a0, _, _, _, _, g in found):
        for c in chunks:
            assert not _ANCHOR_ONLY.fullmatch(c.text), c.text
    for a0, h0, h1, path, has_body, g in found:
        if g - a0 > size:
            continue
        # the targets, their heading and the start of what follows are in one chunk
        holders = [c for c in chunks if c.start_index < h0 + 1 and c.end_index > a0]
        assert len(holders) == 1, (text[a0:h1], [c.text for c in holders])
        c = holders[0]
        assert c.start_index <= a0 and c.end_index >= h1
        if split_level == 6 and has_body:  # the chunk holds its body: its path
            assert c.metadata["header_path"] == path


# -- blocks inside a list item or a quote: cut before and after them ------------------


def test_code_block_in_a_list_item_is_cut_around_at_its_blank_lines():
    # the block's indentation was inside the atom, so the blank-line cuts before and
    # after it were not cuts: "Example text here, long" / "enough. ```sh ... More"
    text = "* Item with some words:\n\n  Example text here, long enough.\n\n  ```sh\n  cargo fmt -- --emit files\n  ```\n\n  More words after the code block.\n"
    assert [c.text for c in MarkdownChunker(chunk_size=60).chunk(text)] == [
        "* Item with some words:\n\n  Example text here, long enough.",
        "```sh\n  cargo fmt -- --emit files\n  ```",
        "More words after the code block.",
    ]


def test_table_in_a_list_item_is_not_cut_inside_a_word():
    # rustfmt's README: the chunk before the table ended at "overwrites output to fi" (a
    # hard cut) and the next one started with "les | No |"
    text = (
        "* Item:\n\n  Example:\n\n  ```sh\n  cargo fmt -- --emit files\n  ```\n\n  Options:\n\n"
        "  | Flag |Description| Nightly Only |\n  |:---:|:---:|:---:|\n"
        "  | files | overwrites output to files | No |\n  | stdout | writes output to stdout | No |\n"
        "  | coverage | displays how much of the input file was processed | Yes |\n"
    )
    for size, overlap in ((160, 0), (200, 40)):
        chunker = MarkdownChunker(chunk_size=size, chunk_overlap=overlap)
        chunks = chunker.chunk(text)
        check_invariants(text, chunks, size, chunker.sizer)
        for c in chunks:
            s, e = c.start_index, c.end_index
            assert not (text[s - 1].isalnum() and text[s].isalnum()), c.text
            assert not (e < len(text) and text[e - 1].isalnum() and text[e].isalnum()), c.text
        assert any(c.text.startswith("| Flag |") for c in chunks)


@_SETTINGS
@given(
    st.lists(st.sampled_from(["para", "fence", "table", "indented"]), min_size=1, max_size=5),
    st.sampled_from(["- ", "1. ", "* "]),
    st.integers(30, 90),
)
def test_property_blocks_in_a_list_item_are_cut_around(kinds, marker, size):
    pad = " " * len(marker)
    parts = []
    for i, k in enumerate(kinds):
        if k == "para":
            parts.append(f"Paragraph {i} has a few words in it.")
        elif k == "fence":
            parts.append(f"```\nline {i} of code\n```")
        elif k == "table":
            parts.append(f"| a | b |\n|---|---|\n| {i} | cell |")
        else:
            parts.append(f"    indented {i}")
    body = ("\n\n".join(parts)).replace("\n", "\n" + pad)
    text = f"{marker}First line of the item.\n\n{pad}{body}\n"
    chunker = MarkdownChunker(chunk_size=size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    for c in chunks:  # no cut inside a word (every word fits)
        x, y = c.start_index, c.end_index
        assert not (text[x - 1].isalnum() and text[x].isalnum()), c.text
        assert not (y < len(text) and text[y - 1].isalnum() and text[y].isalnum()), c.text
    for b in MarkdownParser().parse(text).blocks:  # a block that fits is in one chunk
        if b.depth > 0 and b.kind in ("fence", "table", "code"):
            s, e = trim(text, b.start, b.end)
            if e - s <= size:
                assert len([c for c in chunks if c.start_index < e and c.end_index > s]) == 1


def test_rule_right_after_a_heading_is_not_text_of_its_own():
    # pyenv's README: `### A. Getting Pyenv` then `----` then `#### Linux/Unix`: the rule
    # does not make the empty heading a section of its own, and the checker reads the rule
    # as a line of its own (it used to join it to the blanked heading line before it)
    text = "# T\n\nintro text here.\n\n## Installation\n\n### A. Getting\n----\n#### Linux\n<details>\n\nThe body of the section, long enough.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=200)
    check_sections(text, chunks, MarkdownParser().parse(text).headings)
    last = [c for c in chunks if "Linux" in c.text][0]
    assert last.metadata["header_path"] == ["T", "Installation", "A. Getting", "Linux"]
    assert "The body" in last.text
