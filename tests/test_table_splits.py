"""The table strategy at a row's edges: a split row starts its own chunk and its first
part holds more than its first cell, a later part of a row whose first cell is empty is
marked as that row's, and a TSV row keeps its empty last cells (in ``kv`` context and in
the chunk text while the chunk fits)."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.table import delimited_table
from chunkwise.sizers import CharSizer


def _doc(text: str, fmt: str = "csv") -> chunkwise.Document:
    return chunkwise.parse(text, format=fmt)


def _chunks(text: str, fmt: str = "csv", **kw):
    return chunkwise.make_chunker("table", **kw).chunk(_doc(text, fmt))


def _row_spans(text: str, t) -> list[tuple[int, int]]:
    out = []
    for k in range(len(t.rows)):
        s, e = t.row_span(k)
        while e > s and text[e - 1].isspace():
            e -= 1
        out.append((s, e))
    return out


def _check_rows(text: str, chunks, t) -> None:
    """``row_start``/``row_end`` name the rows whose text the chunk holds; a row split
    over chunks starts the first of them at its start (at the table's start when it is
    the first row, under the header rows), and none of them holds another row."""
    spans = _row_spans(text, t)
    for c in chunks:
        held = [k for k, (s, e) in enumerate(spans) if s < c.end_index and c.start_index < e]
        if held:
            assert (c.metadata["row_start"], c.metadata["row_end"]) == (held[0], held[-1] + 1), (c.text, held)
    for k, (s, e) in enumerate(spans):
        over = [c for c in chunks if c.start_index < e and s < c.end_index]
        if len(over) < 2:
            continue
        # (the first row's first part may hold the header rows above it)
        assert over[0].start_index in ((t.start, s) if k == 0 else (s,)), (k, over[0].text)
        assert all((c.metadata["row_start"], c.metadata["row_end"]) == (k, k + 1) for c in over[1:]), k
        if k:
            assert (over[0].metadata["row_start"], over[0].metadata["row_end"]) == (k, k + 1), over[0].text


# -- 1. a split row starts at its start, its first part holding more than its first cell --

BIG = "A" * 600
ITEM = f'id,name,note\n1,small,x\n2,"{BIG}",y\n3,small,z\n'


@pytest.mark.parametrize("row_format", ["text", "kv"])
def test_a_split_row_starts_its_own_chunk_with_its_first_cell(row_format):
    chunks = _chunks(ITEM, chunk_size=120, row_format=row_format)
    check_invariants(ITEM, chunks, 120, CharSizer(), trimmed=False, overlap_allowed=False)
    first, part, *rest = chunks
    assert first.text == "id,name,note\n1,small,x"
    assert (first.metadata["row_start"], first.metadata["row_end"]) == (0, 1)
    # the row's first part holds "2," and as much of the row as fits
    assert part.start_index == ITEM.index("2,") and part.text == '2,"' + "A" * 117
    assert (part.metadata["row_start"], part.metadata["row_end"]) == (1, 2)
    assert rest[-1].text == "3,small,z"
    if row_format == "text":
        assert part.context == "id,name,note"
        assert {c.context for c in rest[:-1]} == {"id,name,note\n2,"}
    _check_rows(ITEM, chunks, delimited_table(ITEM))


def test_a_split_first_row_stays_under_the_header_and_holds_more_than_its_first_cell():
    text = f'id,name,note\n2,"{BIG}",y\n3,small,z\n'
    chunks = _chunks(text, chunk_size=120)
    check_invariants(text, chunks, 120, CharSizer(), trimmed=False, overlap_allowed=False)
    assert not any(c.text.rstrip().endswith("2,") for c in chunks)
    part = next(c for c in chunks if "2," in c.text)
    assert part.text.startswith('2,"AAA') or part.text.startswith('id,name,note\n2,"AAA')
    _check_rows(text, chunks, delimited_table(text))


def test_a_next_cell_that_fits_alone_stays_whole():
    """The cut after the first cell stays where the next cell fits a chunk alone: a key
    column of long values keeps each value whole (the key is in the next part's context)."""
    text = "seed, value\n" + "".join(f"{i}, 0x{i:016x}\n" for i in range(4))
    chunks = _chunks(text, chunk_size=20)
    check_invariants(text, chunks, 20, CharSizer(), trimmed=False, overlap_allowed=False)
    for i in range(1, 4):
        assert any(c.text == f"0x{i:016x}" and c.context.endswith(f"\n{i},") for c in chunks), i
    _check_rows(text, chunks, delimited_table(text))


_word = st.sampled_from(["a", "bb", "ccc", "é", "dd,", "q\"\"x"])


@st.composite
def _csv_with_big_cells(draw):
    width = draw(st.integers(2, 4))
    rows = []
    for _ in range(draw(st.integers(1, 8))):
        row = []
        for _ in range(width):
            if draw(st.booleans()):
                row.append(draw(st.sampled_from(["", "x", "12", "Paris"])))
            else:
                row.append(" ".join(draw(st.lists(_word, min_size=1, max_size=30))))
        rows.append(row)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerows([["k", "v", "w", "z"][:width], *rows])
    return out.getvalue()


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@pytest.mark.parametrize("row_format", ["text", "kv"])
@given(text=_csv_with_big_cells(), size=st.integers(8, 80))
def test_split_rows_start_their_chunks_and_row_metadata_agree(request, kind, row_format, text, size):
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = _chunks(text, chunk_size=size, unit=sizer, row_format=row_format)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    t = delimited_table(text)
    if t is not None:
        _check_rows(text, chunks, t)


# -- 2. the empty last cells of a TSV file's last row in kv context --------------------


@pytest.mark.parametrize("ending", ["\n", "", "\r\n", "\n\n  \n"])
def test_kv_leaves_out_the_empty_last_cells_of_the_last_row(ending):
    text = "a\tb\tc\n1\t\t" + ending
    [c] = _chunks(text, "tsv", chunk_size=100, row_format="kv")
    assert c.context == "a: 1"  # (empty cells are left out, as a short row's missing cells are)
    t = delimited_table(text, delimiter="\t")
    assert text[t.row_span(0)[0] : t.end].rstrip("\r\n") == "1\t\t"


# -- 3. a later part of a row whose first cell is empty ----------------------------------


@pytest.mark.parametrize("lead", ["\t", "\t\t"])
def test_a_later_part_of_a_row_with_an_empty_first_cell_is_marked(lead):
    text = "a\tb\tc\n1\t2\t3\n" + lead + "word " * 40 + "\tz\n4\t5\t6\n"
    chunks = _chunks(text, "tsv", chunk_size=60)
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    row = text.index(lead + "word")
    later = [c for c in chunks if row < c.start_index < text.index("\n4\t")]
    assert len(later) >= 2
    assert all(c.context == "a\tb\tc\n\t" for c in later), [c.context for c in later]
    start = next(c for c in chunks if c.start_index == row)
    assert start.context == "a\tb\tc"  # the part that starts at the row's start: the header
    assert chunks[-1].text == "4\t5\t6" and chunks[-1].context == "a\tb\tc"


def test_a_later_part_of_a_csv_row_with_an_empty_first_cell_keeps_its_comma():
    text = 'a,b,c\n1,2,3\n,"' + "word " * 40 + '",z\n'
    chunks = _chunks(text, chunk_size=60)
    later = [c for c in chunks if c.start_index > text.index(',"word')]
    assert later and all(c.context == "a,b,c\n," for c in later)


# -- 4. the trailing tabs of a TSV row that ends a chunk ---------------------------------


def test_a_chunk_keeps_the_empty_last_cells_of_its_last_row_while_it_fits():
    text = "a\tb\tc\n1\t\t\n2\tx\ty\n3\t\t\n"
    assert [c.text for c in _chunks(text, "tsv", chunk_size=100)] == [text.rstrip("\n")]
    assert [c.text for c in _chunks(text, "tsv", chunk_size=9)] == ["a\tb\tc\n1\t\t", "2\tx\ty\n3\t\t"]
    # a row whose tabs do not fit: the chunk ends at its last value
    [first, *_] = _chunks(text, "tsv", chunk_size=8, row_format="kv")
    assert first.text == "a\tb\tc\n1" and first.context == "a: 1"  # (its empty cells left out)


def test_csv_rows_keep_their_trimmed_ends():
    """Only a space or tab delimiter keeps the row's end: a CSV row's trailing spaces
    hold no cell (its commas are in the text)."""
    text = "a,b\n1,   \n2,x\n"
    assert [c.text for c in _chunks(text, chunk_size=100)] == ["a,b\n1,   \n2,x"]
    assert _chunks(text, chunk_size=8)[0].text == "a,b\n1,"


@st.composite
def _tsv_docs(draw):
    width = draw(st.integers(1, 4))
    cell = st.one_of(st.just(""), st.text(alphabet=st.sampled_from("ab é1 "), min_size=1, max_size=8))
    rows = draw(st.lists(st.lists(cell, min_size=width, max_size=width), min_size=1, max_size=20))
    return "".join("\t".join(r) + "\n" for r in rows) + draw(st.sampled_from(["", "\n", " \n"]))


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@given(text=_tsv_docs(), size=st.integers(1, 60))
def test_tsv_chunks_end_at_their_rows_end_when_it_fits(request, kind, text, size):
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = _chunks(text, "tsv", chunk_size=size, unit=sizer)
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    for i, c in enumerate(chunks):
        e = c.end_index
        stop = e
        while stop < len(text) and text[stop] in " \t":
            stop += 1
        nxt = chunks[i + 1].start_index if i + 1 < len(chunks) else len(text)
        if stop == e or "\t" not in text[e:stop] or text[stop : stop + 1] not in ("", "\n") or stop > nxt:
            continue
        # the empty last cells left out: only because the chunk would not fit with them
        assert sizer.count(text[c.start_index : stop]) > size, (c.text, text[e:stop])
