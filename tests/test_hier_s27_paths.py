"""Hierarchical levels whose base strategy gives no header path take their section's.

The leaves are what gets embedded: a leaf cut by ``sentence`` or ``recursive`` inside a
section carries that section's ``header_path`` and breadcrumb ``context``, as a level cut
by ``markdown`` does. Hypothesis checks that the paths never break the hierarchy: a
child's path extends its parent's, and the contract (tiling, containment) still holds.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hierarchical import STRUCTURED, check_hierarchy

import chunkwise
from chunkwise import Document
from chunkwise.chunkers.hierarchical import HierarchicalChunker
from chunkwise.sizers import CharSizer

pytest.importorskip("markdown_it")

README = """# Billing

Invoices are due in thirty days. Late fees apply after that.

## Refunds

Returns need a receipt. Store credit is offered for opened items.
"""


def test_sentence_leaves_under_markdown_parents_carry_the_breadcrumb():
    chunks = chunkwise.chunk(README, strategy="hierarchical", chunk_sizes=[200, 60], base=["markdown", "sentence"])
    got = [(c.metadata["level"], c.text, c.context, c.metadata["header_path"]) for c in chunks]
    assert got == [
        (0, "# Billing\n\nInvoices are due in thirty days. Late fees apply after that.", "Billing", ["Billing"]),
        (1, "# Billing\n\nInvoices are due in thirty days.", "Billing", ["Billing"]),
        (1, "Late fees apply after that.", "Billing", ["Billing"]),
        (0, "## Refunds\n\nReturns need a receipt. Store credit is offered for opened items.", "Billing > Refunds",
         ["Billing", "Refunds"]),
        (1, "## Refunds\n\nReturns need a receipt.", "Billing > Refunds", ["Billing", "Refunds"]),
        (1, "Store credit is offered for opened items.", "Billing > Refunds", ["Billing", "Refunds"]),
    ]
    leaf = chunks[2]
    assert leaf.text_for_embedding() == "Billing\nLate fees apply after that."


def test_recursive_levels_of_a_loaded_markdown_document_name_their_section():
    # no level's base finds headings: the document's own headings label every level
    doc = Document(README, metadata={"format": "markdown"})
    chunks = chunkwise.chunk(doc, strategy="hierarchical", chunk_sizes=[200, 60], base="recursive")
    leaves = [(c.text, c.context) for c in chunks if c.metadata["leaf"]]
    assert leaves == [
        ("# Billing\n\nInvoices are due in thirty days.", "Billing"),
        ("Late fees apply after that.", "Billing"),
        ("## Refunds\n\nReturns need a receipt.", "Billing > Refunds"),
        ("Store credit is offered for opened items.", "Billing > Refunds"),
    ]
    top = [c for c in chunks if c.metadata["level"] == 0]
    assert [c.metadata["header_path"] for c in top] == [["Billing"]]  # both sections: their common path


def test_a_plain_text_without_headings_stays_as_it_was():
    text = "One two three. Four five six.\n\nSeven eight nine. Ten eleven."
    chunks = HierarchicalChunker(chunk_sizes=[40, 20]).chunk(text)
    assert all("header_path" not in c.metadata and c.context == "" for c in chunks)


def test_the_base_strategys_own_context_follows_the_breadcrumb():
    text = "# Data\n\n| a | b |\n|---|---|\n" + "".join(f"| {i} | {i * 2} |\n" for i in range(30))
    doc = Document(text, metadata={"format": "markdown"})
    chunks = chunkwise.chunk(doc, strategy="hierarchical", chunk_sizes=[400, 60], base=["markdown", "table"])
    leaves = [c for c in chunks if c.metadata["leaf"]]
    assert len(leaves) > 2
    for c in leaves:
        assert c.metadata["header_path"] == ["Data"]
        assert c.context.split("\n")[0] == "Data"
    # a continued table's leaf keeps its header rows after the breadcrumb
    assert any("| a | b |" in c.context for c in leaves[1:])


@settings(max_examples=60, deadline=None)
@given(
    text=st.lists(st.sampled_from(STRUCTURED), max_size=60).map("".join),
    level_sizes=st.lists(st.integers(8, 160), min_size=2, max_size=3, unique=True).map(lambda v: sorted(v, reverse=True)),
    bases=st.sampled_from(["recursive", "sentence", ("markdown", "sentence", "recursive"), ("recursive", "markdown", "fixed")]),
)
def test_a_childs_path_extends_its_parents(text, level_sizes, bases):
    n = len(level_sizes)
    base = list(bases[:n]) if isinstance(bases, tuple) else bases
    if isinstance(base, list) and len(base) < n:
        base = base + ["sentence"] * (n - len(base))
    doc = Document(text, metadata={"format": "markdown"})
    chunks = HierarchicalChunker(chunk_sizes=level_sizes, unit=CharSizer(), base=base).chunk(doc)
    per_level = base if isinstance(base, list) else [base] * n
    check_hierarchy(text, chunks, level_sizes, CharSizer(), bases=per_level)
    by_id = {c.id: c for c in chunks}
    has_heading = any(c.metadata.get("header_path") for c in chunks)
    for c in chunks:
        path = c.metadata.get("header_path")
        if has_heading:
            assert path is not None
        if c.metadata["parent_id"] is not None and path is not None:
            parent_path = by_id[c.metadata["parent_id"]].metadata.get("header_path")
            assert parent_path is not None and path[: len(parent_path)] == parent_path
        if path and per_level[c.metadata["level"]] in ("recursive", "sentence", "fixed"):
            assert c.context == " > ".join(path)


@settings(max_examples=80, deadline=None)
@given(text=st.lists(st.sampled_from(STRUCTURED + ["Title\n=====\n", "Sub\n---\n\n", "<a id=\"x\"></a>\n"]), max_size=50).map("".join),
       fmt=st.sampled_from(["markdown", "html", "pdf", "text", None]))
def test_the_glue_from_the_one_parse_is_heading_glues(text, fmt):
    # the hierarchy parses the document's headings once for its glue and its paths: the
    # glue is the one every other strategy gets from heading_glue
    from chunkwise.chunkers.hierarchical import _document_headings
    from chunkwise.parsers.semantic import heading_glue

    doc = Document(text, metadata={"format": fmt} if fmt else {})
    glue, labels = _document_headings(doc)
    assert glue == heading_glue(doc)
    assert all(lb.key == "header_path" for lb in labels)
    if labels:
        assert any(lb.value for lb in labels)
