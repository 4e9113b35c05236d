"""The "markdown" strategy: header paths of chunks that hold only leading headings, rules
before the first heading, and list markers glued to their item."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants, check_sections, path_offset, trailing_headings

import chunkwise
from chunkwise.chunkers.structure import MarkdownChunker
from chunkwise.parsers.markdown import MarkdownParser

pytest.importorskip("markdown_it")

from test_markdown import _expected_path, markdown_docs  # noqa: E402


def _rows(text, **kw):
    cs = MarkdownChunker(**kw).chunk(text)
    return [(c.text, c.metadata["header_path"]) for c in cs]


# -- a chunk that holds only headings with no body of their own ----------------------


def test_heading_only_chunk_of_siblings_gets_the_last_heading_path():
    # found by the property test at 400 examples: the first chunk got [] (the common
    # prefix of two sibling paths)
    text = "# alpha\n\n# beta\n\n# alpha\n\n```\n"
    chunker = MarkdownChunker(chunk_size=15)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 15, chunker.sizer)
    assert [(c.text, c.metadata["header_path"], c.context) for c in chunks] == [
        ("# alpha\n\n# beta", ["beta"], "beta"),
        ("# alpha\n\n```", ["alpha"], "alpha"),
    ]


def test_heading_only_chunk_of_parent_and_child_gets_the_child_path():
    assert _rows("# alpha\n\n## beta\n\n# alpha\n\n```\n", chunk_size=16) == [
        ("# alpha\n\n## beta", ["alpha", "beta"]),
        ("# alpha\n\n```", ["alpha"]),
    ]


def test_chunk_with_a_body_keeps_the_path_of_its_body():
    # the leading headings' paths count only where the chunk holds nothing else
    assert _rows("# alpha\n\n# beta\n\n# gamma\n\ntext text text text\n", chunk_size=15) == [
        ("# alpha\n\n# beta", ["beta"]),
        ("# gamma\n\ntext", ["gamma"]),
        ("text text text", ["gamma"]),
    ]
    assert _rows("# A\n\n## B\n\nBody.\n", chunk_size=100) == [("# A\n\n## B\n\nBody.", ["A", "B"])]


def test_heading_only_chunk_inside_a_section_of_split_level():
    # split_level=1: the h3 headings are inner boundaries of the h1 section
    text = "# Top\n\nIntro.\n\n### x1\n\n### x2\n\n### x3\n\nbody body body body body\n"
    chunks = MarkdownChunker(chunk_size=16, split_level=1).chunk(text)
    got = [(c.text, c.metadata["header_path"]) for c in chunks]
    assert ("### x1\n\n### x2", ["Top", "x2"]) in got or ("### x2\n\n### x3", ["Top", "x3"]) in got, got
    # a chunk that holds the body of Top and an empty heading keeps the path of Top
    for c in chunks:
        if "Intro." in c.text:
            assert c.metadata["header_path"] == ["Top"]


_SETTINGS = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(_SETTINGS, max_examples=400)
@given(markdown_docs(), st.integers(8, 200), st.sampled_from(["chars", "words"]), st.sampled_from(["split", "keep"]))
def test_property_header_paths_more_examples(doc, size, unit, policy):
    """The property of test_markdown.py's header path test, on more examples."""
    text, heads = doc
    chunker = MarkdownChunker(chunk_size=size, unit=unit, oversize=policy)
    chunks = chunker.chunk(text)
    if not any(c.metadata.get("oversize") for c in chunks):
        check_invariants(text, chunks, size, chunker.sizer)
    check_sections(text, chunks, MarkdownParser().parse(text).headings)
    starts = [at for _, _, at in heads]
    tail = trailing_headings(text, MarkdownParser().parse(text).headings)
    for c in chunks:
        at = path_offset(c, starts, tail)
        assert c.metadata["header_path"] == _expected_path(heads, at)


@st.composite
def heading_runs(draw):
    """Markdown with runs of headings that have no body of their own (and rules, short
    bodies, unclosed fences): a document and its headings, (level, title, offset)."""
    parts: list[str] = []
    heads: list[tuple[int, str, int]] = []
    pos = 0
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(["atx", "atx", "atx", "setext", "para", "hr", "fence", "item"]))
        if kind == "atx":
            level, title = draw(st.integers(1, 4)), draw(st.sampled_from(["alpha", "beta", "gamma d", "e"]))
            block = "#" * level + " " + title
            heads.append((level, title, pos))
        elif kind == "setext":
            title = draw(st.sampled_from(["alpha", "zeta"]))
            block = title + "\n" + draw(st.sampled_from(["===", "---"]))
            heads.append((1 if block.endswith("=") else 2, title, pos))
        elif kind == "para":
            block = draw(st.sampled_from(["text", "some more text here", "a b c d e f g h"]))
        elif kind == "hr":
            block = draw(st.sampled_from(["---", "***", "___"]))
        elif kind == "item":
            block = draw(st.sampled_from(["- one two", "1. three four five", "> quoted words"]))
        else:
            block = "```\n" + draw(st.sampled_from(["", "x = 1", "# not a heading"]))
            parts.append(block)
            break  # an unclosed fence runs to the end
        parts.append(block)
        pos += len(block) + 2
    return "\n\n".join(parts) + draw(st.sampled_from(["", "\n"])), heads


@_SETTINGS
@given(heading_runs(), st.integers(4, 60))
def test_property_header_paths_of_heading_runs(doc, size):
    text, heads = doc
    chunker = MarkdownChunker(chunk_size=size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    check_sections(text, chunks, MarkdownParser().parse(text).headings)
    starts = [at for _, _, at in heads]
    tail = trailing_headings(text, MarkdownParser().parse(text).headings)
    for c in chunks:
        at = path_offset(c, starts, tail)
        assert c.metadata["header_path"] == _expected_path(heads, at)


# -- thematic breaks before the first heading ---------------------------------------


@pytest.mark.parametrize("rule", ["---", "***", "___", "* * *", "<hr>", "---\n\n***"])
def test_rule_before_the_first_heading_goes_with_the_first_section(rule):
    text = f"{rule}\n\n# Title\n\nBody text here.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=200)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [(text.rstrip("\n"), ["Title"])]


def test_rule_before_headings_that_lead_a_body():
    text = "---\n\n# Guide\n\n## Install\n\nRun it.\n"
    assert _rows(text, chunk_size=200) == [(text.rstrip("\n"), ["Guide", "Install"])]


def test_rule_before_the_first_heading_crlf():
    text = "***\r\n\r\n# Title\r\n\r\nBody text here.\r\n"
    assert _rows(text, chunk_size=200) == [(text.rstrip("\r\n"), ["Title"])]


def test_rule_before_a_section_too_big_is_packed_with_its_first_chunk():
    body = " ".join(f"word{i}" for i in range(60))
    text = f"---\n\n# Title\n\n{body}\n"
    chunker = MarkdownChunker(chunk_size=100)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 100, chunker.sizer)
    assert chunks[0].text.startswith("---\n\n# Title\n\nword0")
    assert all(c.text.strip("-* \n") for c in chunks)
    assert all(c.metadata["header_path"] == ["Title"] for c in chunks)


def test_rule_alone_when_it_cannot_fit_with_the_heading():
    # the rule, the heading and the first word of the body do not fit: nothing is lost
    text = "---\n\n# Title\n\nBody text here.\n"
    chunker = MarkdownChunker(chunk_size=12)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 12, chunker.sizer)
    assert chunks[0].text == "---"


def test_front_matter_is_unaffected():
    text = "---\ntitle: x\n---\n\n# Title\n\nBody text here.\n"
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=200)
    assert [(c.text, c.metadata["header_path"], c.metadata.get("is_front_matter")) for c in chunks] == [
        ("---\ntitle: x\n---", [], True),
        ("# Title\n\nBody text here.", ["Title"], None),
    ]
    assert chunks[1].metadata["front_matter"] == {"title": "x"}


def test_rule_after_front_matter_goes_with_the_first_section():
    text = "---\ntitle: x\n---\n\n---\n\n# Title\n\nBody text here.\n"
    assert _rows(text, chunk_size=200) == [
        ("---\ntitle: x\n---", []),
        ("---\n\n# Title\n\nBody text here.", ["Title"]),
    ]


def test_rules_and_text_before_the_first_heading_stay_a_part_of_their_own():
    text = "Intro para.\n\n---\n\n# Title\n\nBody.\n"
    assert _rows(text, chunk_size=200) == [("Intro para.\n\n---", []), ("# Title\n\nBody.", ["Title"])]
    text = "---\n\nText only, no heading.\n"
    assert _rows(text, chunk_size=200) == [(text.rstrip("\n"), [])]


def test_rule_between_sections_stays_with_the_section_above():
    text = "# A\n\nBody a.\n\n---\n\n# B\n\nBody b.\n"
    assert _rows(text, chunk_size=200) == [("# A\n\nBody a.\n\n---", ["A"]), ("# B\n\nBody b.", ["B"])]


def test_rule_preamble_with_heading_context():
    doc = chunkwise.Document("---\n\n## Sub\n\nBody.\n", metadata={"heading_context": [[1, "Top"]]})
    chunks = MarkdownChunker(chunk_size=200).chunk(doc)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [("---\n\n## Sub\n\nBody.", ["Top", "Sub"])]


# -- a list marker stays with its item -----------------------------------------------


@pytest.mark.parametrize("marker", ["-", "*", "+", "1.", "2)", ">", "> -"])
def test_heading_glued_past_the_marker_of_its_first_item(marker):
    # the headings and the item do not fit together: the item is split, and its first
    # part goes with the headings -- never its marker alone
    title = "## [3.0.0b2](https://example.com/compare/3.0.0b1...3.0.0b2) (2022-08-21)"
    item = f"{marker} `normalizer --version` now tells whether this version has the extra speedup"
    text = f"{title}\n\n### Added\n{item}\n\n### Removed\n- Breaking\n"
    chunker = MarkdownChunker(chunk_size=150)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 150, chunker.sizer)
    first = chunks[0].text
    assert first.startswith(title) and "### Added\n" in first
    # past the markers, some of the item's text is in the chunk
    assert re.sub(r"^[-+*>\d.) ]+", "", first.split("### Added\n")[1]).startswith("`normalizer"), first


def test_empty_list_item_after_a_heading():
    text = "# T\n\n-\n- item\n"
    chunker = MarkdownChunker(chunk_size=200)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 200, chunker.sizer)
    assert [c.text for c in chunks] == ["# T\n\n-\n- item"]


# -- a thematic break that closes a section -------------------------------------------


def _rule_only(chunks):
    return [c.text for c in chunks if not c.text.strip("-*_ \r\n<hr>")]


@pytest.mark.parametrize(
    "text",
    [
        "# A\n\nBody a.\n\n---\n\n# B\n\nBody b.\n",
        "# A\n\nBody a.\n\n***\n\n## B\n\nBody b.\n",
        "# A\n\nBody a.\n\n---\n",
        "# A\n\nBody a.\n\n---\n\n***\n\n# B\n\nBody b.\n",
        "Intro para.\n\n---\n\n# Title\n\nBody.\n",
        "# A\r\n\r\nBody a.\r\n\r\n<hr>\r\n\r\n# B\r\n\r\nBody b.\r\n",
    ],
)
@pytest.mark.parametrize("size", [12, 16, 30])
def test_rule_that_closes_a_section_stays_with_the_paragraph_above(text, size):
    chunker = MarkdownChunker(chunk_size=size)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    check_sections(text, chunks, MarkdownParser().parse(text).headings)
    assert _rule_only(chunks) == []
    for c in chunks:  # the rule ends the chunk of the paragraph above it
        if "---" in c.text or "***" in c.text or "<hr>" in c.text:
            assert c.text.endswith(("---", "***", "<hr>")) and ("a." in c.text or "para." in c.text), c.text


def test_rule_after_a_code_block_does_not_split_it():
    text = "# A\n\n```\ncode code code\n```\n\n---\n\n# B\n\nBody b.\n"
    chunker = MarkdownChunker(chunk_size=30)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 30, chunker.sizer)
    assert "```\ncode code code\n```" in chunks[0].text


def test_rule_inside_a_section_is_not_glued():
    # the packer puts it with the text above or below it, as before
    text = "# A\n\nPara one is here.\n\n---\n\nPara two is longer than the rest of it.\n"
    assert [c.text for c in MarkdownChunker(chunk_size=40).chunk(text)] == [
        "# A\n\nPara one is here.\n\n---",
        "Para two is longer than the rest of it.",
    ]
    assert [c.text for c in MarkdownChunker(chunk_size=50).chunk(text)] == [
        "# A\n\nPara one is here.",
        "---\n\nPara two is longer than the rest of it.",
    ]


# -- link targets under a heading or before the first one ----------------------------


def test_heading_with_only_an_anchor_leads_the_section_after_it():
    # the anchor names the heading after it: "## Codes" has no text of its own
    text = '## Codes\n\n<a id="ABORT_ERR"></a>\n\n### `ABORT_ERR`\n\nUsed when an operation has been aborted.\n'
    chunks = MarkdownChunker(chunk_size=100).chunk(text)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [(text.rstrip("\n"), ["Codes", "ABORT_ERR"])]


@pytest.mark.parametrize(
    "target", ["(label)=", '<a id="top"></a>', "<a name='top'></a>", '<a id="top"/>', '<a id="a"></a>\n<a id="b"></a>']
)
def test_link_targets_before_the_first_heading_lead_the_first_section(target):
    text = f"{target}\n\n# Title\n\nBody text here.\n"
    chunker = MarkdownChunker(chunk_size=200)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 200, chunker.sizer)
    assert [(c.text, c.metadata["header_path"]) for c in chunks] == [(text.rstrip("\n"), ["Title"])]


@pytest.mark.parametrize("text", ['<a id="x">a link</a>\n\n# T\n\nBody.\n', '<a href="#x"></a>\n\n# T\n\nBody.\n', "(a) b\n\n# T\n\nBody.\n"])
def test_other_text_before_the_first_heading_stays_a_part_of_its_own(text):
    chunks = MarkdownChunker(chunk_size=200).chunk(text)
    assert [c.metadata["header_path"] for c in chunks] == [[], ["T"]]


def test_many_html_rules_on_a_line_take_linear_time():
    # spaces between <hr> tags could be matched two ways: exponential before
    text = "# T\n\n" + "<hr>    " * 40 + "x\n\n## U\n\nBody.\n"
    chunker = MarkdownChunker(chunk_size=200)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, 200, chunker.sizer)
    text = "# T\n\nBody.\n\n" + "<hr>  " * 40 + "\n\n## U\n\nBody.\n"
    assert [c.metadata["header_path"] for c in MarkdownChunker(chunk_size=60).chunk(text)][-1] == ["T", "U"]
