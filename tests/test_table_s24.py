"""CSV and TSV files that end inside a quote: the file is reported (a ``CsvWarning`` and
a line of ``metadata["warnings"]`` naming the line), that quote is read as a plain
character and every line after it is a row of its own: nothing merged, nothing lost,
offsets exact."""

from __future__ import annotations

import csv
import io
import pickle
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.loaders.csv import CsvWarning
from chunkwise.parsers.table import delimited_table, unclosed_quote
from chunkwise.sizers import CharSizer
from chunkwise.types import Document

UNCLOSED = 'a,b,c\n1,2,3\n11,"unclosed,12\n13,14,15\n16,17,18\n'


def _parse(text: str, fmt: str = "csv", **kw) -> Document:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CsvWarning)
        return chunkwise.parse(text, format=fmt, **kw)


def _chunks(doc: Document, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CsvWarning)
        return chunkwise.make_chunker("table", **kw).chunk(doc)


def _kv_lines(chunks) -> list[str]:
    return [line for c in chunks for line in c.context.split("\n") if line]


# -- 1. a quote that is never closed ---------------------------------------------------


def test_an_unclosed_quote_does_not_swallow_the_rest_of_the_file():
    t = delimited_table(UNCLOSED)
    assert t.unclosed == UNCLOSED.index("11,")
    # every line is a record: the header and four body rows (not two)
    assert [UNCLOSED[s:e] for s, e in map(t.row_span, range(len(t.rows)))] == [
        "1,2,3\n", '11,"unclosed,12\n', "13,14,15\n", "16,17,18\n",
    ]
    # the open quote is a plain character: its cell ends at the next comma
    assert t.values(UNCLOSED, *t.row_span(1)) == ["11", '"unclosed', "12"]
    chunks = _chunks(_parse(UNCLOSED), chunk_size=200, row_format="kv")
    check_invariants(UNCLOSED, chunks, 200, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [c.metadata["row_end"] for c in chunks] == [4]
    assert _kv_lines(chunks) == [
        "a: 1; b: 2; c: 3", 'a: 11; b: "unclosed; c: 12', "a: 13; b: 14; c: 15", "a: 16; b: 17; c: 18",
    ]


def test_an_unclosed_quote_in_small_chunks_keeps_its_rows_apart():
    chunks = _chunks(_parse(UNCLOSED), chunk_size=20)
    check_invariants(UNCLOSED, chunks, 20, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [(c.text, c.context, c.metadata["row_start"], c.metadata["row_end"]) for c in chunks] == [
        ("a,b,c\n1,2,3", "", 0, 1),
        ('11,"unclosed,12', "a,b,c", 1, 2),
        ("13,14,15\n16,17,18", "a,b,c", 2, 4),
    ]


def test_the_loader_reports_the_line_of_the_unclosed_quote():
    with pytest.warns(CsvWarning, match=r"<text>: line 3: '11,\"unclosed,12': a quote that is never closed"):
        doc = chunkwise.parse(UNCLOSED, format="csv")
    [note] = doc.metadata["warnings"]
    assert note.startswith("<text>: line 3: ") and "never closed" in note
    assert doc.text == UNCLOSED  # the text is kept as it is
    # the loader reported it: chunking the document does not warn again
    with warnings.catch_warnings():
        warnings.simplefilter("error", CsvWarning)
        chunks = chunkwise.chunk(doc, strategy="table", chunk_size=50)
    assert "warnings" not in chunks[0].metadata  # (a document's list, not copied onto chunks)


def test_a_file_with_an_unclosed_quote_is_named_in_the_warning(tmp_path):
    path = tmp_path / "people.csv"
    path.write_bytes(UNCLOSED.replace("\n", "\r\n").encode())
    with pytest.warns(CsvWarning, match=r"people\.csv: line 3: "):
        doc = chunkwise.load(path)
    assert doc.text == UNCLOSED.replace("\n", "\r\n")


def test_a_document_not_made_by_the_loader_is_reported_by_the_chunker():
    doc = Document(UNCLOSED, metadata={"format": "csv"})
    with pytest.warns(CsvWarning, match="line 3: .*never closed"):
        chunks = chunkwise.make_chunker("table", chunk_size=200).chunk(doc)
    assert chunks[0].metadata["row_end"] == 4


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_line_number_counts_every_kind_of_line_end(newline):
    text = UNCLOSED.replace("\n", newline)
    assert unclosed_quote(text) == text.index("11,")
    with pytest.warns(CsvWarning, match="line 3: "):
        chunkwise.parse(text, format="csv")


def test_an_unclosed_quote_in_the_header_or_on_the_last_line():
    head = 'a,"b,c\n1,2,3\n4,5,6\n'
    t = delimited_table(head)
    assert t.unclosed == 0 and t.columns == ("a", '"b', "c") and len(t.rows) == 2
    last = 'a,b\n1,2\n3,"x,4'  # (no line end: the last record only)
    t = delimited_table(last)
    assert t.unclosed == last.index("3,") and t.values(last, *t.row_span(1)) == ["3", '"x', "4"]
    with pytest.warns(CsvWarning, match="line 3: "):
        chunkwise.parse(last, format="csv")


def test_a_tsv_file_with_an_unclosed_quote():
    text = 'a\tb\tc\n1\t"open\t\n2\t3\t4\n'
    with pytest.warns(CsvWarning, match="line 2: "):
        doc = chunkwise.parse(text, format="tsv")
    chunks = _chunks(doc, chunk_size=200, row_format="kv")
    lines = _kv_lines(chunks)
    assert len(lines) == 2 and lines[0].startswith('a: 1; b: "open') and lines[1] == "a: 2; b: 3; c: 4"
    # the row's empty last cell is kept while it fits (its quote is a plain character)
    assert [c.text for c in _chunks(doc, chunk_size=14)] == ['a\tb\tc\n1\t"open\t', "2\t3\t4"]


def test_quotes_that_close_and_other_quote_characters_are_not_reported():
    for text in ['a,b\n1,"x\ny"\n2,3\n', "a,b\nit's,1\n2,3\n", 'a,b\n1,"say ""hi"""\n']:
        with warnings.catch_warnings():
            warnings.simplefilter("error", CsvWarning)
            doc = chunkwise.parse(text, format="csv")
        assert "warnings" not in doc.metadata and unclosed_quote(text) == -1
        assert delimited_table(text).unclosed == -1


def test_a_table_with_an_unclosed_quote_pickles():
    t = delimited_table(UNCLOSED)
    u = pickle.loads(pickle.dumps(t))
    assert u.unclosed == t.unclosed and list(u.rows) == list(t.rows)


_cell = st.sampled_from(["x", "12", "Paris", "a b", "dd,ee", 'q"x', "", "日本語"])


@st.composite
def _unclosed_files(draw):
    """A CSV of one-line records (quoted by csv.writer where it must) with a line whose
    quote is never closed inserted among them."""
    width = draw(st.integers(2, 4))
    rows = [[draw(_cell) for _ in range(width)] for _ in range(draw(st.integers(1, 8)))]
    end = draw(st.sampled_from(["\n", "\r\n"]))
    out = io.StringIO()
    csv.writer(out, lineterminator=end).writerows([["k", "v", "w", "z"][:width], *rows])
    lines = out.getvalue().split(end)[:-1]
    at = draw(st.integers(1, len(lines)))
    bad = draw(st.sampled_from(['7,"open', '7,"open,8', '"open,8', '7, "open and, more']))
    lines.insert(at, bad)
    return end.join(lines) + draw(st.sampled_from([end, ""])), at, bad


@pytest.mark.parametrize("row_format", ["text", "kv"])
@given(doc=_unclosed_files(), size=st.integers(8, 80), overlap=st.sampled_from([0, 3]))
def test_no_line_is_merged_after_an_unclosed_quote(row_format, doc, size, overlap):
    text, at, bad = doc
    t = delimited_table(text)
    lines = text.splitlines(keepends=True)
    assert t.unclosed == sum(map(len, lines[:at]))
    # one row a line: the line of the open quote and every line after it too
    assert len(t.rows) == len(lines) - 1
    assert [text[s:e] for s, e in map(t.row_span, range(len(t.rows)))] == lines[1:]
    # the open quote is a plain character: the line's cells end at its commas
    assert t.values(text, *t.row_span(at - 1)) == [v.strip() for v in bad.split(",")]
    for k in range(len(t.rows)):  # the other rows read as Python's csv module reads them
        if k != at - 1:
            [expected] = csv.reader([lines[k + 1]])
            assert t.values(text, *t.row_span(k)) == expected
    chunks = _chunks(_parse(text), chunk_size=size, chunk_overlap=min(overlap, size // 4), row_format=row_format)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False)
    for c in chunks:
        assert c.metadata["row_end"] - c.metadata["row_start"] <= c.text.count("\n") + 1, c.text
        if row_format == "kv":
            assert "\n" not in c.context or len(c.context.split("\n")) <= c.text.count("\n") + 1


def test_an_unclosed_quote_before_quoted_cells_merges_none_of_them():
    text = 'id,desc\n1,"desc a"\n2,"broken\n3,"desc c"\n4,"desc, d"\n'
    t = delimited_table(text)
    assert t.unclosed == text.index("2,")
    assert [t.values(text, *t.row_span(k)) for k in range(len(t.rows))] == [
        ["1", "desc a"], ["2", '"broken'], ["3", "desc c"], ["4", "desc, d"],
    ]
