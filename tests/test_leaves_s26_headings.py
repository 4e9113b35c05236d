"""A heading is never a chunk of its own while its section has text, in the hierarchical
and semantic strategies, for documents loaded from Markdown or HTML (the markdown
strategy's glue of a heading to the start of its body goes to the packer).

Hierarchical: every level (leaves and parents) keeps a heading with the start of its
section. Semantic: a breakpoint right after a heading moves before it, for every
threshold type, and the size cap does not cut there either. Text that is not Markdown
(a plain string) is chunked as before.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise import Document
from chunkwise.chunkers.hierarchical import HierarchicalChunker
from chunkwise.parsers.semantic import cuts_before_headings, heading_glue
from chunkwise.thresholds import THRESHOLD_TYPES

_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


def heading_only(text: str) -> bool:
    """Whether every non-blank line of ``text`` is an ATX heading."""
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(_HEADING.match(line) for line in lines)


def check_tiling(text: str, chunks) -> None:
    """Exact slices, in order, no empty chunk, nothing lost (one level)."""
    end = 0
    for c in chunks:
        assert c.text == text[c.start_index : c.end_index]
        assert c.text.strip()
        assert c.start_index >= end
        assert not text[end : c.start_index].strip()
        end = c.end_index
    assert not text[end:].strip()


# -- hierarchical -----------------------------------------------------------------------

GUIDE = (
    "# A guide to packing chunks of text\n\n"
    "Packing keeps a heading with its body. A chunk is never a title alone. "
    "Each level is packed inside its parent.\n\n"
    "## Sizes\n\n"
    "Every level has its own size. The leaves are the smallest of them all, and the "
    "parents hold them.\n"
)


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_hierarchical_leaves_keep_a_heading_with_its_section(fmt):
    doc = Document(GUIDE, metadata={"format": fmt})
    cs = HierarchicalChunker(chunk_sizes=[300, 60]).chunk(doc)
    leaves = [c for c in cs if c.metadata["leaf"]]
    assert not [c.text for c in leaves if heading_only(c.text)]
    first = leaves[0]
    assert first.text.startswith("# A guide to packing chunks of text\n\nPacking")
    assert first.size <= 60
    sizes = next(c for c in leaves if c.text.startswith("## Sizes"))
    assert "Every level" in sizes.text
    for level in (0, 1):
        check_tiling(GUIDE, [c for c in cs if c.metadata["level"] == level])


def test_hierarchical_parents_keep_a_heading_with_its_section():
    # the heading and its paragraph do not fit one parent: the parent still starts its body
    body = "Words of the body go on here. " * 8
    text = "# Title\n\nIntro text.\n\n## A second heading that is long\n\n" + body.strip() + "\n"
    doc = Document(text, metadata={"format": "markdown"})
    cs = HierarchicalChunker(chunk_sizes=[120, 60, 40], base="recursive").chunk(doc)
    assert not [(c.metadata["level"], c.text) for c in cs if heading_only(c.text)]
    for level in (0, 1, 2):
        got = [c for c in cs if c.metadata["level"] == level]
        check_tiling(text, got)
        assert all(c.size <= [120, 60, 40][level] for c in got)
        h = next(c for c in got if "## A second" in c.text)
        assert "## A second heading that is long\n\nWords" in h.text


def test_hierarchical_plain_text_is_not_read_as_markdown():
    # a str has no format: its headings are lines like any other (chunked as before)
    assert heading_glue(Document(GUIDE)) == ()
    cs = HierarchicalChunker(chunk_sizes=[300, 60]).chunk(GUIDE)
    assert cs[1].text == "# A guide to packing chunks of text"


WORD = st.text("abcdefghij", min_size=1, max_size=7)
TITLE = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
SENTENCE = st.lists(WORD, min_size=1, max_size=9).map(lambda ws: " ".join(ws).capitalize() + ".")
PARAGRAPH = st.lists(SENTENCE, min_size=1, max_size=4).map(" ".join)
SECTION = st.tuples(st.integers(1, 4), TITLE, st.lists(PARAGRAPH, min_size=1, max_size=3))
MARKDOWN = st.lists(SECTION, min_size=1, max_size=6).map(
    lambda secs: "".join(f"{'#' * lv} {t}\n\n" + "\n\n".join(ps) + "\n\n" for lv, t, ps in secs)
)


@settings(max_examples=60, deadline=None)
@given(text=MARKDOWN, leaf=st.integers(45, 90), base=st.sampled_from(["recursive", "sentence"]))
def test_hierarchical_no_heading_alone_property(text, leaf, base):
    doc = Document(text, metadata={"format": "markdown"})
    sizes = [leaf * 6, leaf * 2, leaf]
    cs = HierarchicalChunker(chunk_sizes=sizes, base=base).chunk(doc)
    assert not [(c.metadata["level"], c.text) for c in cs if heading_only(c.text)]
    for level, size in enumerate(sizes):
        got = [c for c in cs if c.metadata["level"] == level]
        check_tiling(text, got)
        assert all(c.size <= size or c.metadata.get("oversize") for c in got)


# -- semantic ---------------------------------------------------------------------------

np = pytest.importorskip("numpy")
from test_semantic_properties import HashEmbedder  # noqa: E402

from chunkwise.chunkers.semantic import SemanticChunker  # noqa: E402

# sentences point where their first word says (degrees): a toy embedder
ANGLES = {"Alpha": 0, "Beta": 90, "Gamma": 180, "Delta": 270, "Omega": 0}


def toy(texts):
    out = []
    for t in texts:
        a = math.radians(ANGLES[t.lstrip("# ").split()[0]])
        out.append([math.cos(a), math.sin(a)])
    return out


# a breakpoint before the heading and one right after it, for each threshold type
AFTER = "Alpha one. Alpha two. Alpha three.\n\n# Beta heading\n\nGamma one. Gamma two. Gamma three."
AFTER_GRADIENT = "Alpha one. Alpha two. Alpha three.\n\n# Omega heading\n\nGamma one. Delta two. Delta three."
THRESHOLDS = {"percentile": 60, "standard_deviation": 0.5, "interquartile": 0.5, "gradient": 60, "absolute": 0.5}


@pytest.mark.parametrize("threshold_type", THRESHOLD_TYPES)
@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_semantic_breakpoint_after_a_heading_moves_before_it(threshold_type, fmt):
    from chunkwise.thresholds import breakpoints

    text = AFTER_GRADIENT if threshold_type == "gradient" else AFTER
    doc = Document(text, metadata={"format": fmt})
    chunker = SemanticChunker(
        model=toy, threshold_type=threshold_type, threshold=THRESHOLDS[threshold_type], chunk_size=48
    )
    a = chunker.analyze(doc)
    # (the threshold does cut right after the heading, sentence 3)
    assert 3 in breakpoints(a.similarities, threshold_type, THRESHOLDS[threshold_type])
    assert 3 not in a.cuts and 2 in a.cuts
    cs = chunker.chunk(doc)
    assert [c.text for c in cs if heading_only(c.text)] == []
    head = next(c for c in cs if "heading" in c.text)
    assert head.text.startswith("# ") and "Gamma one." in head.text
    assert all(c.size <= 48 for c in cs)
    check_tiling(text, cs)


def test_semantic_size_cap_does_not_cut_after_a_heading():
    # no threshold cut (absolute -1); the weakest link in the second part is right after the heading
    angles = dict(ANGLES, Beta=180, Gamma=205)
    model = lambda texts: [[math.cos(math.radians(angles[t.lstrip("# ").split()[0]])),  # noqa: E731
                            math.sin(math.radians(angles[t.lstrip("# ").split()[0]]))] for t in texts]
    doc = Document(AFTER, metadata={"format": "markdown"})
    cs = SemanticChunker(model=model, threshold_type="absolute", threshold=-1, chunk_size=48).chunk(doc)
    assert [c.text for c in cs] == [
        "Alpha one. Alpha two. Alpha three.", "# Beta heading\n\nGamma one.", "Gamma two. Gamma three."
    ]


def test_semantic_plain_text_unchanged():
    # without a Markdown format the heading line is a sentence like any other
    cs = SemanticChunker(model=toy, threshold_type="absolute", threshold=0.5, chunk_size=48).chunk(AFTER)
    assert [c.text for c in cs] == [
        "Alpha one. Alpha two. Alpha three.", "# Beta heading", "Gamma one. Gamma two. Gamma three."
    ]


def test_cuts_before_headings():
    # "Text." "# One" "## Two" "Body." "More.": the two headings lead "Body."
    text = "Text.\n\n# One\n\n## Two\n\nBody. More."
    doc = Document(text, metadata={"format": "markdown"})
    glue = heading_glue(doc)
    assert glue and glue[0][0] == text.index("# One")
    sents = [(0, 5), (7, 12), (14, 20), (22, 27), (28, 33)]
    assert [text[s:e] for s, e in sents] == ["Text.", "# One", "## Two", "Body.", "More."]
    assert cuts_before_headings(sents, [1], glue) == [0]  # after "# One": before it
    assert cuts_before_headings(sents, [2, 3], glue) == [0, 3]  # after "## Two": before "# One"
    assert cuts_before_headings(sents, [0, 1, 2], glue) == [0]
    # a heading that opens the text: the cut is dropped
    assert cuts_before_headings(sents[1:], [0], [(7, 23)]) == []


@settings(max_examples=40, deadline=None)
@given(
    text=MARKDOWN,
    size=st.integers(45, 120),
    threshold_type=st.sampled_from(THRESHOLD_TYPES),
)
def test_semantic_no_heading_alone_property(text, size, threshold_type):
    doc = Document(text, metadata={"format": "markdown"})
    threshold = {"absolute": 0.9, "standard_deviation": 0.0, "interquartile": 0.0}.get(threshold_type, 30)
    chunker = SemanticChunker(model=HashEmbedder(), threshold_type=threshold_type, threshold=threshold, chunk_size=size)
    cs = chunker.chunk(doc)
    assert not [c.text for c in cs if heading_only(c.text)]
    check_tiling(text, cs)
    assert all(c.size <= size for c in cs)
