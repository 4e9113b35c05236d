"""A hierarchical leaf with inherited header paths is in the section its text starts in.

With the default base (``recursive``), no level finds headings itself: the leaves take
the document's headings. A leaf that starts at ``### Input`` and runs into
``### Strategy`` is in section Input (its text starts there, after its heading line), as
the ``markdown`` strategy says of that position -- not under the common path of both
sections. Hypothesis checks every leaf over generated Markdown against headings parsed
here, line by line.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import Document

pytest.importorskip("markdown_it")

# the structure of a build guide: a table of contents that runs into the first section,
# nested ### and #### headings, lists and a code block
GUIDE = """# Building Node.js

## Table of contents

* [Supported platforms](#supported-platforms)
  * [Input](#input)
  * [Strategy](#strategy)
* [Building](#building)

## Supported platforms

This list is current as of the branch.

### Input

Node.js relies on V8 and libuv.

### Strategy

There are three support tiers:

* **Tier 1**: most users, with full test coverage.
* **Tier 2**: smaller segments of the user base.

## Building on supported platforms

### Unix and macOS

#### Prerequisites

* gcc and g++ 12.2 or newer
* Python 3.8 or newer

#### Installing Node.js

To install this version of Node.js into a system directory:

```bash
make install
```
"""


def _leaves(text, sizes, **kw):
    doc = Document(text, metadata={"format": "markdown"})
    chunks = chunkwise.chunk(doc, strategy="hierarchical", chunk_sizes=sizes, unit="chars", **kw)
    return [c for c in chunks if c.metadata["leaf"]]


def test_a_leaf_that_runs_into_the_next_section_is_in_the_one_it_starts_in():
    leaves = _leaves(GUIDE, [400, 90])
    got = [(c.text.split("\n")[0], c.metadata["header_path"]) for c in leaves if c.text.startswith("#")]
    assert got == [
        ("# Building Node.js", ["Building Node.js", "Table of contents"]),
        ("## Supported platforms", ["Building Node.js", "Supported platforms"]),
        ("### Input", ["Building Node.js", "Supported platforms", "Input"]),
        ("## Building on supported platforms",
         ["Building Node.js", "Building on supported platforms", "Unix and macOS", "Prerequisites"]),
        ("#### Installing Node.js",
         ["Building Node.js", "Building on supported platforms", "Unix and macOS", "Installing Node.js"]),
    ]
    # the leaf that starts at "### Input" runs into "### Strategy"
    (inp,) = [c for c in leaves if c.text.startswith("### Input")]
    assert "### Strategy" in inp.text
    assert inp.context == "Building Node.js > Supported platforms > Input"
    assert inp.text_for_embedding().startswith("Building Node.js > Supported platforms > Input\n### Input")
    # the next leaf is in Strategy
    assert leaves[leaves.index(inp) + 1].metadata["header_path"] == ["Building Node.js", "Supported platforms", "Strategy"]


def test_the_end_of_the_contents_that_runs_into_a_section_is_in_the_contents():
    leaves = _leaves(GUIDE, [400, 120])
    (toc,) = [c for c in leaves if "## Supported platforms" in c.text]
    assert toc.text.startswith("* [Strategy](#strategy)\n* [Building](#building)\n\n## Supported platforms")
    assert toc.metadata["header_path"] == ["Building Node.js", "Table of contents"]
    assert toc.context == "Building Node.js > Table of contents"
    nxt = leaves[leaves.index(toc) + 1]
    assert nxt.text.startswith("### Input")
    assert nxt.metadata["header_path"] == ["Building Node.js", "Supported platforms", "Input"]


def test_a_leaf_that_starts_with_a_run_of_headings_is_in_the_last_ones_section():
    text = "# Guide\n\nIntro text here.\n\n## Setup\n\n### Linux\n\nInstall the package. Then run it.\n\n### Mac\n\nUse brew.\n"
    leaves = _leaves(text, [200, 60])
    heads = {c.text.split("\n")[0]: c.metadata["header_path"] for c in leaves}
    assert heads["## Setup"] == ["Guide", "Setup", "Linux"]
    assert [c.metadata["header_path"] for c in leaves][0] == ["Guide"]


def test_upper_levels_keep_the_common_path_of_their_sections():
    chunks = chunkwise.chunk(Document(GUIDE, metadata={"format": "markdown"}), strategy="hierarchical",
                             chunk_sizes=[400, 90], unit="chars")
    top = [c for c in chunks if c.metadata["level"] == 0]
    (p,) = [c for c in top if "### Input" in c.text]
    assert p.metadata["header_path"] == ["Building Node.js"]


# ---- Hypothesis: every leaf against the document's headings -------------------------

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", re.M)

TITLES = ["Input", "Strategy", "Unix and macOS", "Windows", "Prerequisites", "Tier 1"]
WORDS = ["Node.js", "relies", "on", "V8.", "Build", "with", "make", "install.", "The", "tests", "run", "fast."]


def _heading(level_title):
    level, title = level_title
    return "#" * level + " " + title


heading = st.tuples(st.integers(1, 4), st.sampled_from(TITLES)).map(_heading)
body = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=20).map(" ".join),  # a paragraph
    st.lists(st.sampled_from(TITLES), min_size=1, max_size=5).map(  # a table of contents
        lambda ts: "\n".join(f"* [{t}](#{t.lower().replace(' ', '-')})" for t in ts)
    ),
    st.just("```bash\nmake -j4\nmake install\n```"),
)
sep = st.sampled_from(["\n\n", "\n"])
# sections (a heading and up to two blocks of body, often none), maybe a text before them
section = st.tuples(heading, sep, st.lists(st.tuples(body, sep).map("".join), max_size=2).map("".join)).map("".join)
markdown_texts = st.tuples(
    st.lists(st.tuples(body, sep).map("".join), max_size=1).map("".join), st.lists(section, max_size=12).map("".join)
).map("".join).filter(lambda t: t.strip() != "")


def _headings(text):
    """``(start, line end, path)`` of every ATX heading outside a code fence."""
    out, stack, fenced, pos = [], [], False, 0
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else _ATX.match(line.rstrip("\n"))
        if m:
            level = len(m.group(1))
            stack = [(lv, t) for lv, t in stack if lv < level] + [(level, m.group(2))]
            out.append((pos, pos + len(line.rstrip("\n")), [t for _, t in stack]))
        pos += len(line)
    return out


def _expected_path(text, heads, start, end):
    """The headings' path at ``start`` after its leading heading lines (and the blank
    space between them); a leaf of heading lines alone: the last heading's path."""
    by_start = {h[0]: h for h in heads}
    p, last = start, None
    while p < end and p in by_start:
        last = by_start[p]
        p = last[1]
        while p < end and text[p].isspace():
            p += 1
    if p >= end:
        return last[2]
    before = [h for h in heads if h[0] <= p]
    return before[-1][2] if before else []


@settings(max_examples=150, deadline=None)
@given(
    text=markdown_texts,
    sizes=st.lists(st.integers(30, 300), min_size=1, max_size=3, unique=True).map(lambda v: sorted(v, reverse=True)),
)
def test_every_leafs_path_is_the_headings_path_at_its_start(text, sizes):
    leaves = _leaves(text, sizes)
    heads = _headings(text)
    assert leaves
    for c in leaves:
        path = c.metadata.get("header_path")
        if not heads:
            assert path is None and c.context == ""
            continue
        want = _expected_path(text, heads, c.start_index, c.end_index)
        assert path == want, (c.text, path, want)
        assert c.context == " > ".join(path)
