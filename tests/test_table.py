"""Tables by rows: the table parser, the ``table`` strategy, the CSV/TSV loader, ``auto``
and the markdown strategy's tables."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.errors import ConfigError, OversizeError
from chunkwise.parsers.table import delimited_table, find_pipe_tables, pipe_cells
from chunkwise.sizers import CharSizer, WordSizer
from chunkwise.types import _raw_dict

PRICES = "# Prices\n\n| Item | Unit | Price |\n|---|---|---|\n" + "".join(
    f"| Widget {i} | box | {i}.99 |\n" for i in range(1, 9)
)


def _csv(text: str, fmt: str = "csv") -> chunkwise.Document:
    return chunkwise.parse(text, format=fmt)


def _rows_whole(text: str, chunks, rows: list[tuple[int, int]]) -> None:
    for s, e in rows:
        assert any(c.start_index <= s and e <= c.end_index for c in chunks), f"row {text[s:e]!r} is split"


def _row_spans(text: str, table) -> list[tuple[int, int]]:
    out = []
    for k in range(len(table.rows)):
        s, e = table.row_span(k)
        while e > s and text[e - 1].isspace():
            e -= 1
        while s < e and text[s].isspace():
            s += 1
        out.append((s, e))
    return out


# -- the parser --------------------------------------------------------------------------


def _check_starts(text: str, chunks) -> None:
    """A delimited table's chunk starts on a non-space character, or at its line's start
    with only spaces and tabs before one there (the empty first cells of a row); it ends
    on a non-space character, or at its line's end with only spaces and tabs, a tab among
    them, after one there (the empty last cells of a TSV row)."""
    for c in chunks:
        if c.text[-1].isspace():
            tail = c.text[len(c.text.rstrip(" \t")) :]
            assert "\t" in tail and text[c.end_index : c.end_index + 1] in ("", "\n", "\r"), c
            assert c.text.rstrip(" \t")[-1:] not in ("", "\n", "\r"), c
        if c.text[0].isspace():
            assert c.start_index == 0 or text[c.start_index - 1] in "\r\n", c
            head = c.text[: len(c.text) - len(c.text.lstrip(" \t"))]
            assert c.text[len(head)] not in "\r\n", c


def _check_table_metadata(text: str, chunks, tables, header_in_context: bool = True) -> None:
    """Every chunk that overlaps a table names the first one (``table_index``, ``columns``)
    and the body rows it overlaps (``row_start``, ``row_end``); one that continues the
    table past its header has the header rows in ``context``. Others carry none of it."""
    for c in chunks:
        over = [k for k, t in enumerate(tables) if t.start < c.end_index and c.start_index < t.end]
        if not over:
            assert "row_start" not in c.metadata and "table_index" not in c.metadata
            continue
        k = over[0]
        t = tables[k]
        assert c.metadata["table_index"] == k and c.metadata["columns"] == list(t.columns)
        held = [i for i in range(len(t.rows)) if t.row_span(i)[0] < c.end_index and c.start_index < t.row_span(i)[1]]
        if held:
            assert (c.metadata["row_start"], c.metadata["row_end"]) == (held[0], held[-1] + 1)
        else:  # the header only
            assert c.metadata["row_start"] == c.metadata["row_end"] == 0
        hs, he = t.header
        header = text[hs:he].rstrip("\r\n")
        if header_in_context and hs < he:
            assert (header in c.context) == (c.start_index >= he), (c.context, header)


def test_pipe_table_header_rows_body_rows_and_columns():
    [t] = find_pipe_tables(PRICES)
    assert PRICES[t.start :].startswith("| Item")
    assert PRICES[t.header[0] : t.header[1]] == "| Item | Unit | Price |\n|---|---|---|\n"
    assert t.columns == ("Item", "Unit", "Price")
    assert len(t.rows) == 8 and PRICES[t.rows[0] :].startswith("| Widget 1 |")
    s, e = t.row_span(7)
    assert PRICES[s:e] == "| Widget 8 | box | 8.99 |\n" and e == t.end == len(PRICES)
    assert t.values(PRICES, s, e) == ["Widget 8", "box", "8.99"]


def test_two_row_header_above_the_delimiter_row():
    text = "Intro.\n\n| Region | Q1 | Q2 |\n| | Jan-Mar | Apr-Jun |\n|---|---|---|\n| North | 1 | 2 |\n"
    [t] = find_pipe_tables(text)
    assert text[t.header[0] : t.header[1]] == "| Region | Q1 | Q2 |\n| | Jan-Mar | Apr-Jun |\n|---|---|---|\n"
    assert t.columns == ("Region", "Q1 Jan-Mar", "Q2 Apr-Jun")
    assert len(t.header_starts) == 3


def test_escaped_pipes_blank_lines_and_non_tables():
    text = "| a | b |\n|:--|--:|\n| x \\| y | 2 |\n\nnot | a table\n\n| c |\n|---|\n| 1 |\n"
    t1, t2 = find_pipe_tables(text)
    s, e = t1.row_span(0)
    assert t1.values(text, s, e) == ["x | y", "2"] and t1.end == text.index("\n\nnot") + 1
    assert t2.columns == ("c",)
    assert find_pipe_tables("a | b\n---\ntext\n") == []  # a setext heading, not a table (no pipe in ---)
    assert find_pipe_tables("| a | b |\n|---|\n| 1 | 2 |\n") == []  # cell counts differ
    assert pipe_cells("| a | b |", 0, 9) == [(1, 4), (5, 8)]
    fenced = "```md\n| a | b |\n|---|---|\n```\n\n| c | d |\n|---|---|\n| 3 | 4 |\n~~~\n| e |\n|---|\n"
    assert [t.columns for t in find_pipe_tables(fenced)] == [("c", "d")]  # code is not a table


def test_csv_dialect_quotes_and_line_breaks_inside_cells():
    text = 'name;city;note\r\nAnn;Paris;"a; ""b""\r\nc"\r\n\r\nBob;Rome;ok\r\n'
    t = delimited_table(text)
    assert t.delimiter == ";" and t.columns == ("name", "city", "note")
    assert len(t.rows) == 2
    s, e = t.row_span(0)
    assert t.values(text, s, e) == ["Ann", "Paris", 'a; "b"\r\nc']
    assert text[s : t.first_cell_end(text, s, e)] == "Ann;"
    s, e = t.row_span(1)
    assert text[s:e] == "Bob;Rome;ok\r\n"


def test_tsv_and_header_rows():
    text = "a\tb\nx\ty\n1\t2\n3\t4\n"
    t = delimited_table(text, delimiter="\t", header_rows=2)
    assert t.columns == ("a x", "b y") and len(t.rows) == 2
    t0 = delimited_table(text, delimiter="\t", header_rows=0)
    assert t0.columns == ("column 1", "column 2") and len(t0.rows) == 4


# -- the table strategy ------------------------------------------------------------------


def test_rows_atomic_header_in_context_and_row_metadata():
    chunks = chunkwise.chunk(PRICES, strategy="table", chunk_size=60)
    [t] = find_pipe_tables(PRICES)
    _rows_whole(PRICES, chunks, _row_spans(PRICES, t))
    table_chunks = [c for c in chunks if "table_index" in c.metadata]
    assert chunks[0].text == "# Prices" and "table_index" not in chunks[0].metadata
    first, *rest = table_chunks
    assert first.text.startswith("| Item") and first.context == ""
    assert rest and all(c.context == "| Item | Unit | Price |\n|---|---|---|" for c in rest)
    assert all(c.metadata["columns"] == ["Item", "Unit", "Price"] for c in table_chunks)
    assert all(c.metadata["table_index"] == 0 for c in table_chunks)
    assert table_chunks[0].metadata["row_start"] == 0
    assert table_chunks[-1].metadata["row_end"] == 8
    for a, b in zip(table_chunks, table_chunks[1:]):
        assert a.metadata["row_end"] == b.metadata["row_start"]
    for c in table_chunks:
        k0, k1 = c.metadata["row_start"], c.metadata["row_end"]
        assert [f"Widget {k + 1} " in c.text for k in range(k0, k1)] == [True] * (k1 - k0)


def test_a_row_too_big_is_split_between_cells_with_header_and_first_cell_in_context():
    text = "id,name,notes\n1,Ann,short\n2,Bob," + "word " * 30 + "end,more,cells,here\n3,Cy,ok\n"
    chunks = chunkwise.chunk(_csv(text), strategy="table", chunk_size=60)
    check_invariants(text, chunks, 60, CharSizer())
    row = text.index("2,Bob")
    inside = [c for c in chunks if row < c.start_index < text.index("\n3,Cy")]
    assert len(inside) >= 2  # the row is cut, between cells first, then between words
    assert all(c.context == "id,name,notes\n2," for c in inside)
    assert all(c.metadata["row_start"] == 1 for c in inside)
    assert any("1,Ann,short" in c.text for c in chunks) and any("3,Cy,ok" in c.text for c in chunks)


def test_oversize_keep_and_raise():
    text = "a,b\n1," + "x" * 100 + "\n2,y\n"
    [kept, *_] = [c for c in chunkwise.chunk(_csv(text), strategy="table", chunk_size=30, oversize="keep") if c.metadata.get("oversize")]
    assert kept.text.endswith("1," + "x" * 100) and "2,y" not in kept.text
    with pytest.raises(OversizeError):
        chunkwise.chunk(_csv(text), strategy="table", chunk_size=30, oversize="raise")


def test_kv_rows_in_context_text_unchanged():
    doc = _csv("Item,Price\nWidget 1,1.99\nWidget 2,2.99\nWidget 3,3.99\n")
    text_chunks = chunkwise.chunk(doc, strategy="table", chunk_size=30)
    kv = chunkwise.chunk(doc, strategy="table", chunk_size=30, row_format="kv")
    assert [(c.start_index, c.end_index) for c in kv] == [(c.start_index, c.end_index) for c in text_chunks]
    assert kv[0].context == "Item: Widget 1; Price: 1.99"
    assert kv[-1].context.splitlines()[-1] == "Item: Widget 3; Price: 3.99"
    assert kv[-1].text_for_embedding().startswith("Item: ")


def test_text_around_tables_is_packed_like_recursive_and_apart_from_tables():
    text = "Intro paragraph one.\n\nIntro two.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nOutro text here.\n"
    chunks = chunkwise.chunk(text, strategy="table", chunk_size=200)
    assert [c.text for c in chunks] == [
        "Intro paragraph one.\n\nIntro two.",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "Outro text here.",
    ]
    assert chunks[1].metadata["row_start"] == 0 and chunks[1].metadata["row_end"] == 1
    assert chunkwise.chunk("no table at all.", strategy="table") [0].text == "no table at all."


def test_overlap_repeats_whole_rows():
    doc = _csv("k,v\n" + "".join(f"{i},value {i}\n" for i in range(20)))
    chunks = chunkwise.chunk(doc, strategy="table", chunk_size=40, chunk_overlap=12)
    check_invariants(doc.text, chunks, 40, CharSizer(), overlap_allowed=True)
    assert any(a.end_index > b.start_index for a, b in zip(chunks, chunks[1:]))
    for c in chunks[1:]:
        assert c.text.split("\n")[0].count(",") == 1 and c.context == "k,v"


def test_invalid_parameters():
    for bad in ({"row_format": "json"}, {"oversize": "drop"}, {"header_rows": -1}, {"delimiter": ",,"}):
        with pytest.raises(ConfigError):
            chunkwise.make_chunker("table", **bad)


_cell = st.text(alphabet=st.sampled_from("ab cé,\"\n1;"), max_size=12)


@st.composite
def _csv_docs(draw):
    width = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(_cell, min_size=width, max_size=width), min_size=1, max_size=25))
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"]))).writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize("kind", ["chars", "words", "tokens"])
@given(text=_csv_docs(), size=st.integers(1, 60))
def test_csv_contract_and_rows_whole_when_they_fit(request, kind, text, size):
    sizer = {"chars": CharSizer(), "words": WordSizer()}.get(kind) or request.getfixturevalue("cl100k")
    doc = _csv(text)
    chunks = chunkwise.make_chunker("table", chunk_size=size, unit=sizer).chunk(doc)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    _check_starts(text, chunks)
    t = delimited_table(text)
    if t is None:
        return
    # token sizes are estimated from the document's tokens first, which may be off by a
    # token at a span's edges (a token across the row's end): a row that fits with room
    slack = 2 if kind == "tokens" else 0
    fitting = [(s, e) for s, e in _row_spans(text, t) if s < e and sizer.count(text[s:e]) + slack <= size]
    _rows_whole(text, chunks, fitting)


def test_a_quoted_cell_with_a_blank_line_stays_whole():
    text = ',,,\n,,"\n\n",1\n,,,\n'
    chunks = chunkwise.chunk(_csv(text), strategy="table", chunk_size=8)
    _rows_whole(text, chunks, _row_spans(text, delimited_table(text)))


# -- loader, auto, CLI -------------------------------------------------------------------


def test_csv_and_tsv_files_load_exactly_and_auto_picks_table(tmp_path):
    (tmp_path / "t.csv").write_bytes(b"a,b\r\n1,2\r\n3,4\r\n")
    (tmp_path / "t.tsv").write_bytes(b"a\tb\n1\t2\n")
    doc = chunkwise.load(tmp_path / "t.csv")
    assert doc.text == "a,b\r\n1,2\r\n3,4\r\n" and doc.metadata["format"] == "csv"
    assert chunkwise.load(tmp_path / "t.tsv").metadata["format"] == "tsv"
    auto = chunkwise.make_chunker("auto", chunk_size=8, row_format="kv")
    assert auto.chunker_for(doc).name == "table"
    chunks = auto.chunk(doc)
    assert chunks[0].metadata["columns"] == ["a", "b"]
    assert chunkwise.chunk(doc, strategy="auto", chunk_size=100)[0].metadata["row_end"] == 2
    assert auto.chunker_for("a,b\n1,2\n").name == "recursive"


def test_cli_chunks_a_csv_file_with_the_table_strategy(tmp_path):
    import json

    from click.testing import CliRunner

    from chunkwise.cli import cli

    (tmp_path / "t.csv").write_text("name,city\n" + "".join(f"n{i},c{i}\n" for i in range(50)), encoding="utf-8")
    out = tmp_path / "o.jsonl"
    result = CliRunner().invoke(cli, ["chunk", str(tmp_path / "t.csv"), "--chunk-size", "40", "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 1 and all(x["context"] == "name,city" for x in lines[1:])


def test_html_tables_arrive_as_pipe_tables():
    pytest.importorskip("lxml")
    page = chunkwise.parse(
        "<h1>T</h1><table><tr><th>Item</th><th>Price</th></tr>"
        + "".join(f"<tr><td>Widget {i}</td><td>{i}</td></tr>" for i in range(10))
        + "</table>",
        format="html",
    )
    [t] = find_pipe_tables(page.text)
    assert t.columns == ("Item", "Price") and len(t.rows) == 10
    chunks = chunkwise.chunk(page, strategy="table", chunk_size=60)
    _rows_whole(page.text, chunks, _row_spans(page.text, t))
    assert all(c.context.startswith("| Item | Price |") for c in chunks if "row_start" in c.metadata and not c.text.startswith("| Item"))


# -- the markdown strategy's tables ------------------------------------------------------


def test_markdown_strategy_reads_tables_with_the_table_parser():
    pytest.importorskip("markdown_it")
    text = "# Sales\n\n| Region | Q1 |\n| | Jan |\n|---|---|\n" + "".join(f"| R{i} | {i} |\n" for i in range(12))
    chunks = chunkwise.chunk(text, strategy="markdown", chunk_size=50)
    [t] = find_pipe_tables(text)
    _rows_whole(text, chunks, _row_spans(text, t))
    later = [c for c in chunks if c.text.startswith("| R")]
    assert later and all("| Region | Q1 |\n| | Jan |\n|---|---|" in c.context for c in later)
    from chunkwise.parsers.markdown import MarkdownParser

    [block] = [b for b in MarkdownParser().parse(text).blocks if b.kind == "table"]
    assert block.start == t.start and block.header == t.header and block.table.columns == ("Region", "Q1 Jan")


_pipe_cell = st.text(alphabet=st.sampled_from("ab cé1.|"), max_size=10).map(lambda c: c.replace("|", "\\|"))


@st.composite
def _pipe_docs(draw):
    width = draw(st.integers(1, 4))
    head = draw(st.integers(1, 2))
    rows = draw(st.lists(st.lists(_pipe_cell, min_size=width, max_size=width), min_size=head, max_size=20))
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(head, "|" + "---|" * width)
    before = draw(st.sampled_from(["", "Intro text.\n\n", "# Title\n\n"]))
    after = draw(st.sampled_from(["", "\nAfter the table.\n"]))
    return before + "\n".join(lines) + "\n" + after


@pytest.mark.parametrize("strategy", ["table", "markdown"])
@pytest.mark.parametrize("kind", ["chars", "tokens"])
@given(text=_pipe_docs(), size=st.integers(1, 80))
def test_pipe_tables_contract_and_rows_whole_when_they_fit(request, strategy, kind, text, size):
    if strategy == "markdown":
        pytest.importorskip("markdown_it")
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = chunkwise.make_chunker(strategy, chunk_size=size, unit=sizer).chunk(text)
    check_invariants(text, chunks, size, sizer, overlap_allowed=False)
    _check_table_metadata(text, chunks, _tables_of(strategy, text))
    slack = 2 if kind == "tokens" else 0
    for t in find_pipe_tables(text):
        fitting = [(s, e) for s, e in _row_spans(text, t) if s < e and sizer.count(text[s:e]) + slack <= size]
        _rows_whole(text, chunks, fitting)


def _tables_of(strategy: str, text: str):
    """The tables a strategy reads: the table parser's search, or the Markdown parser's."""
    if strategy == "table":
        return find_pipe_tables(text)
    from chunkwise.parsers.markdown import MarkdownParser

    return [b.table for b in MarkdownParser().parse(text).blocks if b.kind == "table" and b.table is not None]


CORPUS = Path(__file__).parent / "corpus" / "structure"


@pytest.mark.parametrize("name", ["sqlite-fileformat2.md", "sqlite-cli.md", "sqlite-fts3.html"])
@pytest.mark.parametrize("kind,size", [("chars", 300), ("tokens", 64)])
def test_markdown_strategy_gives_real_tables_the_table_metadata(request, name, kind, size):
    """Real tables (the SQLite documentation, public domain; HTML tables rendered as pipe
    tables): chunks of the markdown strategy carry the metadata of table chunks, and the
    chunks that continue a split table have its header in context, as CSV chunks do."""
    pytest.importorskip("markdown_it")
    doc = chunkwise.load(CORPUS / name)
    text = doc.text
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = chunkwise.make_chunker("markdown", chunk_size=size, unit=sizer).chunk(doc)
    check_invariants(text, chunks, size, sizer, overlap_allowed=False)
    tables = _tables_of("markdown", text)
    # (the Markdown parser also finds tables in block quotes)
    assert {(t.start, t.header) for t in find_pipe_tables(text)} <= {(t.start, t.header) for t in tables}
    _check_table_metadata(text, chunks, tables)
    continued = [
        c for c in chunks if "row_start" in c.metadata and c.start_index >= tables[c.metadata["table_index"]].header[1]
    ]
    assert continued, "some table is split"
    for c in continued:  # the breadcrumb, then the header rows (and a cut row's first cell)
        t = tables[c.metadata["table_index"]]
        head = text[t.header[0] : t.header[1]].rstrip("\n")
        assert c.context.startswith(" > ".join(c.metadata["header_path"]) + "\n" + head)
    # every row of a split table is in some chunk that names it
    for k, t in enumerate(tables):
        named = set()
        for c in chunks:
            if c.metadata.get("table_index") == k:
                named.update(range(c.metadata["row_start"], c.metadata["row_end"]))
        assert named == set(range(len(t.rows))) or not t.rows


def test_body_row_offsets_are_compact_and_header_rows_apart():
    """The row offsets of a CSV are one compact array (4 bytes an offset for any text
    under 2**31 characters) holding the body rows only; each names its record."""
    text = 'h1,h2\nsub1,sub2\n1,"a\nb"\n2,c\n\n3,d\n'
    t = delimited_table(text, header_rows=2)
    assert t.rows.itemsize == 4
    assert list(t.rows) == [text.index("1,\""), text.index("2,c"), text.index("3,d")]
    assert t.header_starts == (0, text.index("sub1"))
    assert t.columns == ("h1 sub1", "h2 sub2")
    assert [t.values(text, *t.row_span(k)) for k in range(3)] == [["1", "a\nb"], ["2", "c"], ["3", "d"]]


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_chunks_of_one_table_share_its_header_context_and_columns(fmt):
    """The header context and the column list are made once per table, not per chunk
    (equal values; thousands of chunks of a big table hold one copy)."""
    rows = [(str(i), f"value {i}") for i in range(60)]
    if fmt == "csv":
        doc = chunkwise.parse("id,name\n" + "".join(f"{a},{b}\n" for a, b in rows), format="csv")
        header = "id,name"
    else:
        doc = chunkwise.parse("| id | name |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b in rows), format="markdown")
        header = "| id | name |\n|---|---|"
    chunks = chunkwise.chunk(doc, strategy="table", chunk_size=60, unit="chars")
    later = chunks[1:]
    assert len(later) > 5
    assert all(c.context == header for c in later)
    assert len({id(c.context) for c in later}) == 1
    assert all(c.metadata["columns"] == ["id", "name"] for c in chunks)
    # (held once for all chunks; each read is a copy)
    assert len({id(_raw_dict(c.metadata)["columns"]) for c in chunks}) == 1
    check_invariants(doc.text, chunks, 60, CharSizer())


LEAD_TSV = "name\tcity\tnote\n" + "".join(
    f"\tBerlin{i}\tnote {i}\n" if i % 2 else f"Ann{i}\tParis\t\n" for i in range(12)
)


@pytest.mark.parametrize("unit, size", [("chars", 20), ("tokens", 12)])
def test_a_tsv_row_with_an_empty_first_cell_keeps_its_columns(request, unit, size):
    sizer = CharSizer() if unit == "chars" else request.getfixturevalue("cl100k")
    chunks = chunkwise.make_chunker("table", chunk_size=size, unit=sizer).chunk(_csv(LEAD_TSV, "tsv"))
    check_invariants(LEAD_TSV, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    _check_starts(LEAD_TSV, chunks)
    berlin = [c for c in chunks if "Berlin" in c.text]
    assert berlin
    for c in berlin:
        assert c.context == "name\tcity\tnote"
        # the row's empty first cell stays: Berlin is the second value, under "city"
        assert c.text.split("\n")[0].split("\t")[1].startswith("Berlin"), c.text
    kv = chunkwise.make_chunker("table", chunk_size=size, unit=sizer, row_format="kv").chunk(_csv(LEAD_TSV, "tsv"))
    assert [c.text for c in kv] == [c.text for c in chunks]
    # (the empty name is left out of the kv line; Berlin stays under "city")
    berlin_kv = [c for c in kv if "Berlin" in c.text]
    assert berlin_kv and all(
        any(line.startswith("city: Berlin") for line in c.context.split("\n")) for c in berlin_kv
    ), [c.context for c in berlin_kv]
    assert not any("name: ;" in c.context or c.context.endswith(": ") for c in kv), [c.context for c in kv]


@pytest.mark.parametrize("size", [7, 40])
def test_kv_names_the_value_of_a_row_whose_first_cells_are_empty(size):
    text = "a\tb\tc\n\t\tonly_c\nx\ty\tz\n"
    chunks = chunkwise.make_chunker("table", chunk_size=size, row_format="kv").chunk(_csv(text, "tsv"))
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    lines = [line for c in chunks for line in c.context.split("\n")]
    # a chunk that starts after the tabs (too wide to keep at size 7) still holds the row;
    # its empty cells are left out (as a short row's missing cells are)
    assert "c: only_c" in lines, lines
    assert not any(line.startswith(("a: ;", "b: ;")) or line.endswith(": ") for line in lines), lines


@pytest.mark.parametrize("size", [14, 40])
def test_kv_is_the_same_whether_a_chunk_end_trimmed_the_empty_last_cells_off(size):
    text = "city\tcountry\tnote\nParis\tFrance\t\nBerlin\tGermany\tbig\nRome\t\t\nOslo\tNorway\tcold\n"
    chunks = chunkwise.make_chunker("table", chunk_size=size, row_format="kv").chunk(_csv(text, "tsv"))
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    lines = [line for c in chunks for line in c.context.split("\n")]
    # (empty cells are left out of kv lines, as a short row's missing cells are)
    assert "city: Paris; country: France" in lines, lines
    assert "city: Rome" in lines, lines
    assert not any(line.endswith(": ") or ": ;" in line for line in lines), lines
    if size == 40:
        assert "city: Berlin; country: Germany; note: big" in lines, lines
    else:  # the row is split between its cells: a part does not name a cell of the next part
        assert "city: Berlin; country: Germany" in lines and "city: Berlin; note: big" in lines, lines


def test_csv_rows_with_leading_spaces_start_at_the_row():
    text = "name,city,note\n" + "".join(f"  Ann{i},Paris,n{i}\n" if i % 2 else f",Berlin{i},x{i}\n" for i in range(20))
    chunks = chunkwise.make_chunker("table", chunk_size=40).chunk(_csv(text))
    check_invariants(text, chunks, 40, CharSizer(), trimmed=False, overlap_allowed=False)
    _check_starts(text, chunks)
    assert any(c.text.startswith("  Ann") for c in chunks)


def test_pipe_tables_and_text_keep_trimmed_starts():
    """Only CSV and TSV documents keep a row's leading spaces: a Markdown document's
    chunks still start on a non-space character."""
    text = "Intro.\n\n    indented line of prose here\n\n| a | b |\n|---|---|\n" + "".join(
        f"| {i} | v {i} |\n" for i in range(12)
    )
    chunks = chunkwise.make_chunker("table", chunk_size=30).chunk(text)
    check_invariants(text, chunks, 30, CharSizer(), overlap_allowed=False)


@st.composite
def _tsv_docs(draw):
    width = draw(st.integers(1, 4))
    cell = st.one_of(st.just(""), st.text(alphabet=st.sampled_from("ab é1 "), min_size=1, max_size=8))
    rows = draw(st.lists(st.lists(cell, min_size=width, max_size=width), min_size=1, max_size=25))
    return "".join("\t".join(r) + "\n" for r in rows)


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@pytest.mark.parametrize("row_format", ["text", "kv"])
@given(text=_tsv_docs(), size=st.integers(1, 60))
def test_tsv_with_empty_leading_cells_contract_and_columns(request, kind, row_format, text, size):
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = chunkwise.make_chunker("table", chunk_size=size, unit=sizer, row_format=row_format).chunk(
        _csv(text, "tsv")
    )
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    _check_starts(text, chunks)


def _check_split_rows_alone(text: str, chunks) -> None:
    """A chunk that starts inside a row (a later part of a split row) holds no other row."""
    t = delimited_table(text)
    if t is None:
        return
    for c in chunks:
        if "row_start" not in c.metadata or c.start_index < t.header[1]:
            continue
        k = t.row_at(c.start_index)
        rs, _ = t.row_span(k)
        if text[rs : c.start_index].strip():
            assert (c.metadata["row_start"], c.metadata["row_end"]) == (k, k + 1), (c.text, c.metadata)


@pytest.mark.parametrize("row_format", ["text", "kv"])
def test_rows_after_a_split_row_start_a_chunk_with_the_header_alone(row_format):
    text = "id,text,n\n" + "".join(
        f"{i}," + ('"' + " ".join(f"w{j}" for j in range(18)) + '"' if i == 2 else f"short {i}") + f",{i}\n"
        for i in range(6)
    )
    chunks = chunkwise.make_chunker("table", chunk_size=60, row_format=row_format).chunk(_csv(text))
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    _check_split_rows_alone(text, chunks)
    last = chunks[-1]
    assert last.text == "3,short 3,3\n4,short 4,4\n5,short 5,5"
    assert (last.metadata["row_start"], last.metadata["row_end"]) == (3, 6)
    # the split row starts its own chunk: the rows before it end theirs
    assert chunks[0].text == "id,text,n\n0,short 0,0\n1,short 1,1" and chunks[1].text.startswith('2,"w0 w1')
    if row_format == "text":
        assert last.context == "id,text,n" and chunks[1].context == "id,text,n"
        assert [c.context for c in chunks[2:-1]] == ["id,text,n\n2,"] * (len(chunks) - 3)


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@given(text=_csv_docs(), size=st.integers(1, 60), overlap=st.integers(0, 3))
def test_csv_split_rows_hold_no_other_row(request, kind, text, size, overlap):
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    overlap = min(overlap, size - 1)
    chunks = chunkwise.make_chunker("table", chunk_size=size, chunk_overlap=overlap, unit=sizer).chunk(_csv(text))
    check_invariants(text, chunks, size, sizer, trimmed=False)
    if not overlap:
        _check_split_rows_alone(text, chunks)


def test_packed_spans_are_let_go_while_the_chunks_are_built():
    """Above the chunks it returns, chunking a CSV holds the row offsets (4 bytes a row)
    and little else: the packed spans (~80 bytes a chunk) are dropped one by one as the
    chunks are built, not held beside the finished list."""
    import tracemalloc

    rows = 20000
    doc = _csv("a,b,c\n" + "".join(f"{i},{i % 7},x{i}\n" for i in range(rows)))
    chunkwise.chunk(doc, strategy="table", chunk_size=60)  # imports and caches
    tracemalloc.start()
    try:
        chunks = chunkwise.chunk(doc, strategy="table", chunk_size=60)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(chunks) > 4000
    assert all(c.text == doc.text[c.start_index : c.end_index] for c in chunks)
    assert peak - held < 4 * rows + 20 * len(chunks), (peak - held, len(chunks))
