"""HTML tables with colspan and rowspan: each value stays in its column (the slots of the
HTML table model, a spanning cell's text in each slot it covers); multi-row headers tied by
spans are one header row; bad span values read as browsers read them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise

pytest.importorskip("lxml")


def _md(html: str) -> str:
    return chunkwise.parse(html, format="html").text


_REPORTED = (
    '<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr><tr><td colspan="2">Total</td><td>15</td></tr>'
    '<tr><td>A</td><td rowspan="2">3</td><td>9</td></tr><tr><td>B</td><td>7</td></tr></table>'
)


def test_spanned_cells_keep_every_value_in_its_column() -> None:
    assert _md(_REPORTED) == (
        "| Item | Qty | Price |\n|---|---|---|\n| Total | Total | 15 |\n| A | 3 | 9 |\n| B | 3 | 7 |\n"
    )
    doc = chunkwise.parse(_REPORTED, format="html")
    chunks = chunkwise.chunk(doc, strategy="table", row_format="kv", chunk_size=40)
    contexts = [c.to_dict().get("context") or "" for c in chunks]
    joined = "\n".join(contexts)
    assert "Price: 15" in joined and "Qty: 15" not in joined
    assert "Item: B; Qty: 3; Price: 7" in joined and "Qty: 7" not in joined
    for c in chunks:
        assert c.text == doc.text[c.start_index:c.end_index]


def test_multi_row_header_tied_by_spans_is_one_header_row() -> None:
    html = (
        "<table><tr><th rowspan=2>Name</th><th colspan=2>Score</th></tr><tr><th>Math</th><th>Art</th></tr>"
        "<tr><td>Ann</td><td>90</td><td>80</td></tr></table>"
    )
    assert _md(html) == "| Name | Score Math | Score Art |\n|---|---|---|\n| Ann | 90 | 80 |\n"
    # in a thead: all its rows; a rowspan in the thead stops at its end
    html = (
        "<table><thead><tr><th rowspan=5>Year</th><th colspan=2>Population</th></tr>"
        "<tr><th>Men</th><th>Women</th></tr></thead>"
        "<tbody><tr><td>2020</td><td>5</td><td>6</td></tr></tbody></table>"
    )
    assert _md(html) == "| Year | Population Men | Population Women |\n|---|---|---|\n| 2020 | 5 | 6 |\n"
    chunks = chunkwise.chunk(chunkwise.parse(html, format="html"), strategy="markdown", chunk_size=500)
    assert chunks[0].metadata["columns"] == ["Year", "Population Men", "Population Women"]


def test_header_rows_without_spans_are_as_before() -> None:
    # a second row of th cells, nothing spanning: the first row is the header, as before
    html = "<table><tr><th>A</th><th>B</th></tr><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert _md(html) == "| A | B |\n|---|---|\n| x | y |\n| 1 | 2 |\n"
    html = ("<table><thead><tr><th>A</th><th>B</th></tr><tr><td>x</td><td>y</td></tr></thead>"
            "<tr><td>1</td><td>2</td></tr></table>")
    assert _md(html) == "| A | B |\n|---|---|\n| x | y |\n| 1 | 2 |\n"
    # a thead of one row is the whole header, even when a cell of it spans columns
    html = ("<table><thead><tr><th colspan=2>AB</th></tr></thead>"
            "<tbody><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></tbody></table>")
    assert _md(html) == "| AB | AB |\n|---|---|\n| x | y |\n| 1 | 2 |\n"


def test_bad_span_values_read_as_browsers_read_them() -> None:
    head = "<table><tr><th>A</th><th>B</th><th>C</th></tr>"
    # 0, negative, not a number: 1; "2px": 2
    for bad in ("0", "-2", "x", "", " +1"):
        assert _md(head + f'<tr><td colspan="{bad}">1</td><td>2</td><td>3</td></tr></table>').endswith("| 1 | 2 | 3 |\n")
    assert _md(head + '<tr><td colspan="2px">1</td><td>3</td></tr></table>').endswith("| 1 | 1 | 3 |\n")
    # a huge colspan (clamped to 1000): no column made of its copies alone
    md = _md(head + '<tr><td colspan="10000">note</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>')
    assert md == "| A | B | C |\n|---|---|---|\n| note | note | note |\n| 1 | 2 | 3 |\n"
    # rowspan 0 and a huge rowspan: to the end of the row group, no row of copies alone
    for span in ("0", "10000", "99999999999999999999"):
        md = _md(head + f'<tbody><tr><td rowspan="{span}">k</td><td>1</td><td>2</td></tr>'
                 '<tr><td>3</td><td>4</td></tr></tbody><tbody><tr><td>5</td><td>6</td><td>7</td></tr></tbody></table>')
        assert md == "| A | B | C |\n|---|---|---|\n| k | 1 | 2 |\n| k | 3 | 4 |\n| 5 | 6 | 7 |\n"
    # a leading-zero span is its number
    assert _md(head + '<tr><td colspan="0000000002">1</td><td>3</td></tr></table>').endswith("| 1 | 1 | 3 |\n")


def test_ragged_and_overlapping_rows() -> None:
    # a short row leaves its last slots empty, as before
    assert _md("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td></tr></table>") == (
        "| A | B |\n|---|---|\n| 1 |  |\n"
    )
    # a cell placed after a rowspan from above goes to the next free slot
    html = ("<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>1</td><td rowspan=2>2</td><td>3</td></tr>"
            "<tr><td rowspan=1>4</td><td>6</td></tr></table>")
    assert _md(html).endswith("| 1 | 2 | 3 |\n| 4 | 2 | 6 |\n")


def test_nested_tables_and_captions_with_spans() -> None:
    html = (
        "<table><caption>Stock</caption><tr><th>K</th><th>V</th><th>W</th></tr>"
        "<tr><td>k</td><td colspan=2><table><tr><td>a</td><td>1</td></tr></table></td></tr></table>"
    )
    assert _md(html) == "Stock\n\n| K | V | W |\n|---|---|---|\n| k | a 1 | a 1 |\n"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(-2, 4), st.integers(-2, 4)), min_size=1, max_size=4),
                min_size=1, max_size=5))
def test_every_cell_text_is_in_the_table_and_rows_are_even(rows: list[list[tuple[int, int]]]) -> None:
    trs = []
    n = 0
    for row in rows:
        cells = []
        for cs, rs in row:
            cells.append(f'<td colspan="{cs}" rowspan="{rs}">c{n}</td>')
            n += 1
        trs.append("<tr>" + "".join(cells) + "</tr>")
    md = _md('<table><tr><th>h</th></tr>' + "".join(trs) + "</table>")
    lines = md.rstrip("\n").split("\n")
    widths = {line.count("|") for line in lines}
    assert len(widths) == 1  # every row has the same number of columns
    for i in range(n):
        assert f" c{i} " in md  # nothing lost
