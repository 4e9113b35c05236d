"""``row_format="kv"`` for the parts of a split row: each part's line names the row's
first cell whole (the row's key, as the text format's marker repeats it) and the cells
whose text lies in that part, each with the piece of its value that the part holds. A
cell is named in the parts that hold its text: every cell of the row with a value in one of
them (an empty cell is left out, as a short row's missing cells are)."""

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


def _chunks(text: str, fmt: str = "csv", **kw):
    return chunkwise.make_chunker("table", **kw).chunk(chunkwise.parse(text, format=fmt))


def test_each_part_names_the_key_and_the_cells_it_holds():
    text = "id,name,desc,extra\n1," + "word " * 12 + ",tail,\n2,b,c,d\n"
    chunks = _chunks(text, chunk_size=25, row_format="kv")
    assert [(c.text, c.context) for c in chunks] == [
        ("id,name,desc,extra", ""),
        ("1,word word word word", "id: 1; name: word word word word"),
        ("word word word word word", "id: 1; name: word word word word word"),
        ("word word word ,tail,", "id: 1; name: word word word; desc: tail"),  # (extra: empty)
        ("2,b,c,d", "id: 2; name: b; desc: c; extra: d"),
    ]


def test_a_quoted_cell_is_named_by_its_unquoted_piece():
    text = 'id,note,n\n7,"say ""hi"" ' + "again " * 10 + '",x\n'
    chunks = _chunks(text, chunk_size=30, row_format="kv")
    check_invariants(text, chunks, 30, CharSizer(), trimmed=False, overlap_allowed=False)
    parts = [c for c in chunks if (c.metadata.get("row_start"), c.metadata.get("row_end")) == (0, 1)]
    assert len(parts) >= 2
    assert parts[0].context.startswith('id: 7; note: say "hi" again')
    assert all(c.context.startswith("id: 7; note: ") for c in parts)
    assert '"' not in "".join(c.context for c in parts[1:])
    assert parts[-1].context.endswith("; n: x")
    pieces = [c.context.split("; ")[1].removeprefix("note: ") for c in parts]
    assert " ".join(pieces).split() == ('say "hi" ' + "again " * 10).split()


def test_a_pipe_row_part_that_starts_at_a_pipe_names_no_cell_before_it():
    text = "| k | a | b |\n|---|---|---|\n| 1 | " + "x " * 20 + "| " + "y " * 20 + "|\n| 2 | p | q |\n"
    chunks = _chunks(text, "markdown", chunk_size=30, row_format="kv")
    check_invariants(text, chunks, 30, CharSizer(), overlap_allowed=False)
    for c in chunks:
        if (c.metadata.get("row_start"), c.metadata.get("row_end")) != (0, 1):
            continue
        names = [p.split(":")[0] for p in c.context.split("; ")]
        assert names[0] == "k" and c.context.startswith("k: 1")
        assert ("a" in names) == ("x" in c.text), (c.text, c.context)
        assert ("b" in names) == ("y" in c.text), (c.text, c.context)
    assert chunks[-1].context == "k: 2; a: p; b: q"


def test_kv_contexts_of_a_huge_cell_grow_with_its_parts_not_with_the_row():
    """A row of one 20,000-character cell in chunks of 500: the parts' contexts add up to
    about the row, not the row once per part."""
    text = "id,body,n\n1," + "lorem ipsum " * 1667 + ",9\n"
    chunks = _chunks(text, chunk_size=500, row_format="kv")
    total = sum(len(c.context) for c in chunks)
    assert len(chunks) > 30
    assert total < 1.2 * len(text), total


_word = st.sampled_from(["a", "bb", "ccc", "é", "dd,", 'q"x', "日本語", "x\ty"])


@st.composite
def _tables(draw):
    fmt = draw(st.sampled_from(["csv", "tsv"]))
    width = draw(st.integers(2, 5))
    rows = []
    for _ in range(draw(st.integers(1, 6))):
        row = []
        for _ in range(width):
            kind = draw(st.integers(0, 2))
            if kind == 0:
                row.append("")
            elif kind == 1:
                row.append(draw(st.sampled_from(["x", "12", "Paris"])))
            else:
                words = draw(st.lists(_word, min_size=1, max_size=30))
                if fmt == "tsv":
                    words = [w.replace("\t", " ").replace('"', "") for w in words]
                row.append(" ".join(words))
        rows.append(row)
    header = ["k", "v", "w", "z", "u"][:width]
    if fmt == "tsv":
        return fmt, "".join("\t".join(r) + "\n" for r in [header, *rows])
    out = io.StringIO()
    csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"]))).writerows([header, *rows])
    return fmt, out.getvalue()


def _pairs(line: str, columns: list[str]) -> list[tuple[int, str]]:
    """(column index, value) of a kv line whose columns come in order."""
    out, i, rest = [], 0, line
    while rest:
        while not rest.startswith(columns[i] + ": "):
            i += 1
        rest = rest[len(columns[i]) + 2 :]
        nxt = [rest.find("; " + c + ": ") for c in columns[i + 1 :]]
        cut = min((p for p in nxt if p >= 0), default=len(rest))
        out.append((i, rest[:cut]))
        rest = rest[cut + 2 :]
        i += 1
    return out


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@given(doc=_tables(), size=st.integers(6, 80))
def test_every_cell_of_a_split_row_is_named_in_a_part_that_holds_it(request, kind, doc, size):
    fmt, text = doc
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    chunks = _chunks(text, fmt, chunk_size=size, unit=sizer, row_format="kv")
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=False)
    t = delimited_table(text, delimiter="\t" if fmt == "tsv" else None)
    if t is None:
        return
    columns = list(t.columns)
    for k in range(len(t.rows)):
        rs, re_ = t.row_span(k)
        cells = t.cells(text, rs, re_)
        values = t.cell_values(text, cells)
        parts = [c for c in chunks if c.metadata.get("row_start") == k == c.metadata["row_end"] - 1]
        if len(parts) < 2 or any(c.start_index < rs for c in parts[1:]):
            continue
        named: dict[int, list[str]] = {}
        for c in parts:
            lines = [ln for ln in c.context.split("\n") if ln]
            assert len(lines) <= 1, c.context
            if not lines:  # a part without a value (its row's key is empty too): nothing to name
                assert not values[0], (c.text, values)
                assert not any(
                    text[max(cs, c.start_index) : min(ce, c.end_index)].strip('" \t') for cs, ce in cells
                ), (c.text, values)
                continue
            pairs = _pairs(lines[0], columns)
            # the key: the first cell whole, in every part (an empty one left out)
            if values[0]:
                assert pairs[0] == (0, values[0]), (c.text, c.context)
            else:
                pairs = [(0, "")] + pairs
                assert all(i > 0 for i, _v in pairs[1:]), (c.text, c.context)
            for i, v in pairs[1:]:
                assert v, (i, c.text, c.context)  # (no empty value is named)
                cs, ce = cells[i]
                # a cell named in a part has its text there (or is an empty cell at its edge)
                assert cs < c.end_index and c.start_index < ce or cs == ce, (i, c.text, c.context)
                assert len(v) <= len(c.text), (i, c.text, c.context)
                named.setdefault(i, []).append(v)
        # no cell missing: each with a value is named in a part, its pieces its whole value
        assert sorted(named) == [i for i in range(1, len(cells)) if values[i]], (named, values)
        for i, pieces in named.items():
            assert "".join("".join(pieces).split()) == "".join(values[i].split()), (i, pieces, values[i])
