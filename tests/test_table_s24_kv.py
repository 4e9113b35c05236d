"""``row_format="kv"`` leaves out empty cells, as it leaves out the missing cells of a
short row: an empty TSV cell, an empty CSV cell, a short CSV row, an empty pipe-table cell
and an empty HTML table cell read the same (a ``column: `` line with no value is noise for
embedding)."""

from __future__ import annotations

import pytest
from invariants import check_invariants

import chunkwise
from chunkwise.sizers import CharSizer
from chunkwise.types import Document


def _parse(text: str, fmt: str = "csv") -> Document:
    return chunkwise.parse(text, format=fmt)


def _chunks(doc: Document, **kw):
    return chunkwise.make_chunker("table", **kw).chunk(doc)


def _kv_lines(chunks) -> list[str]:
    return [line for c in chunks for line in c.context.split("\n") if line]


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("a\tb\tc\n1\t\t3\n4\t\t\n", "tsv"),  # empty TSV cells
        ("a,b,c\n1,,3\n4,,\n", "csv"),  # empty CSV cells
        ('a,b,c\n1,"",3\n4," ",\n', "csv"),  # quoted empty cells
        ("a,b,c\n1,,3\n4\n", "csv"),  # a short row: its cells missing
    ],
)
def test_kv_leaves_out_empty_and_missing_cells_alike(text, fmt):
    chunks = _chunks(_parse(text, fmt), chunk_size=200, row_format="kv")
    assert _kv_lines(chunks) == ["a: 1; c: 3", "a: 4"]


def test_kv_a_row_without_a_value_has_no_line():
    text = "a,b\n1,2\n,\n3,4\n"
    chunks = _chunks(_parse(text), chunk_size=200, row_format="kv")
    assert chunks[0].context == "a: 1; b: 2\na: 3; b: 4"
    # a chunk of that row alone: no line to write
    small = _chunks(_parse(text), chunk_size=4, row_format="kv")
    check_invariants(text, small, 4, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [(c.text, c.context) for c in small if c.text == ","] == [(",", "")]


def test_kv_leaves_out_empty_cells_of_markdown_and_html_tables():
    md = "| a | b | c |\n|---|---|---|\n| 1 |  | 3 |\n| 4 | 5 |\n|  | \\| |  |\n"
    chunks = _chunks(_parse(md, "markdown"), chunk_size=200, row_format="kv")
    assert _kv_lines(chunks) == ["a: 1; c: 3", "a: 4; b: 5", "b: |"]
    pytest.importorskip("lxml")
    html = (
        "<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>1</td><td></td><td>3</td></tr>"
        "<tr><td></td><td>5</td></tr></table>"
    )
    doc = _parse(html, "html")
    assert "| 1 |  | 3 |" in doc.text
    assert _kv_lines(_chunks(doc, chunk_size=200, row_format="kv")) == ["a: 1; c: 3", "b: 5"]


def test_kv_parts_of_a_split_row_leave_out_empty_cells():
    text = "id,name,desc,extra\n," + "word " * 12 + ",,tail\n"
    chunks = _chunks(_parse(text), chunk_size=25, row_format="kv")
    check_invariants(text, chunks, 25, CharSizer(), trimmed=False, overlap_allowed=False)
    lines = _kv_lines(chunks)
    assert lines and all(line.startswith("name: word") for line in lines[:-1]), lines
    assert lines[-1].endswith("extra: tail") and not any(": ;" in x or x.endswith(": ") for x in lines), lines
