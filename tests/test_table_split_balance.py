"""The parts of a split row are evened out: a small cell between a cell that fits and a
cell cut anyway is not a part of its own when the words of the cut cell give a more even
cut. Cuts between cells stay first; a cell that fits is never cut for it, and no word
is cut unless it alone is larger than the chunk."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.table import delimited_table
from chunkwise.sizers import CharSizer


def _chunks(text: str, fmt: str = "csv", **kw):
    return chunkwise.make_chunker("table", **kw).chunk(chunkwise.parse(text, format=fmt))


def _row_parts(text: str, chunks, t, k: int, header: bool = False):
    """The chunks of row ``k`` of ``t`` when it is split over two or more (else []); with
    ``header``, a chunk of the header rows alone above a split first row too."""
    s, e = t.row_span(k)
    parts = [c for c in chunks if c.start_index < e and s < c.end_index]
    if len(parts) < 2:
        return []
    if header and k == 0:
        parts = [c for c in chunks if t.start <= c.start_index and c.end_index <= s] + parts
    return parts


def _cells(text: str, t, k: int) -> list[tuple[int, int]]:
    """The cells of row ``k``, each trimmed of spaces."""
    s, e = t.row_span(k)
    out = []
    for a, b in t.cells(text, s, e):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        out.append((a, b))
    return out


def _size(text: str, a: int, b: int) -> int:
    return len(text[a:b].strip())


def _even_cut_exists(text: str, t, k: int, left, right, size: int) -> bool:
    """Whether a cut between two cells, or between two words of a cell (the first cell:
    only when it is larger than ``size``), leaves both parts at least a quarter of
    ``size`` (and within it)."""
    floor = size // 4
    cells = _cells(text, t, k)
    cuts = [a for a, _ in cells[2:]]  # (the cut after the first cell may be given up)
    for i, (a, b) in enumerate(cells):
        if i or _size(text, a, b) > size:
            cuts += [i for i in range(a + 1, b) if text[i].isspace() and not text[i - 1].isspace()]
    for c in cuts:
        if left.start_index < c < right.end_index:
            n1, n2 = _size(text, left.start_index, c), _size(text, c, right.end_index)
            if floor <= n1 <= size and floor <= n2 <= size:
                return True
    return False


# -- 1. the example: a small cell between a cell that fits and one cut anyway -----------

LOREM = " ".join(["lorem"] * 9)
IPSUM = " ".join(["ipsum dolor"] * 8)
NOKEY = f'id,alpha,beta,gamma\nk1,"{LOREM}",NoKey,"{IPSUM}"\n'


@pytest.mark.parametrize("row_format", ["text", "kv"])
def test_a_small_cell_joins_the_start_of_the_cell_cut_after_it(row_format):
    chunks = _chunks(NOKEY, chunk_size=60, row_format=row_format)
    check_invariants(NOKEY, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    assert [c.text for c in chunks] == [
        "id,alpha,beta,gamma",
        f'k1,"{LOREM}",',  # the cell that fits: whole
        'NoKey,"ipsum dolor ipsum dolor',  # was 'NoKey,' alone
        "ipsum dolor ipsum dolor ipsum dolor",
        'ipsum dolor ipsum dolor ipsum dolor"',
    ]
    parts = chunks[1:]
    assert all((c.metadata["row_start"], c.metadata["row_end"]) == (0, 1) for c in parts)
    assert [c.metadata["boundary"] for c in parts] == ["table_cell", "word", "word", "end"]
    if row_format == "kv":
        assert parts[1].context == "id: k1; beta: NoKey; gamma: ipsum dolor ipsum dolor"
        assert parts[2].context == "id: k1; gamma: ipsum dolor ipsum dolor ipsum dolor"
    else:
        assert all(c.context == "id,alpha,beta,gamma\nk1," for c in parts[1:])


def test_a_small_cell_between_two_cells_that_fit_joins_the_words_of_the_next():
    """No cell is cut anyway: the small one joins the start of the next cell (a cell that
    fits is cut only so), not a chunk of its own."""
    name, versions = "com.google.cloud:google-cloud-ftp-bom", "0.1.0 0.2.0 0.3.0 0.5.0 0.6.0 0.7.0"
    text = f"name\tstatus\tversions\tnote\n{name}\tuntested\t{versions}\tok\n"
    chunks = _chunks(text, "tsv", chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer(), trimmed=False, overlap_allowed=False)
    assert "untested" not in [c.text for c in chunks]  # (it was)
    assert all(c.size >= 10 for c in chunks), [c.text for c in chunks]
    assert any(c.text == name for c in chunks)  # the first cell whole (it is the key)
    assert any(c.text.startswith("untested\t0.1.0") for c in chunks)


def test_a_header_alone_above_a_split_first_row_is_evened_out_with_it():
    text = f'id,a,b,c\nk1,"{LOREM}",NoKey,"{IPSUM}"\n'
    chunks = _chunks(text, chunk_size=60)
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    assert chunks[0].text.startswith('id,a,b,c\nk1,"lorem')  # (was the header alone: 8 characters)
    assert chunks[0].context == "" and (chunks[0].metadata["row_start"], chunks[0].metadata["row_end"]) == (0, 1)
    assert all(c.size >= 15 for c in chunks), [c.text for c in chunks]
    assert all(c.context == "id,a,b,c\nk1," for c in chunks[1:])


def test_a_small_last_cell_after_a_cell_cut_anyway_is_evened_out_with_its_words():
    text = "k,a,b,c\n1,short," + "word " * 30 + ",tiny\n2,x,y,z\n"
    chunks = _chunks(text, chunk_size=40)
    check_invariants(text, chunks, 40, CharSizer(), trimmed=False, overlap_allowed=False)
    t = delimited_table(text)
    parts = _row_parts(text, chunks, t, 0)
    assert parts and all(c.size >= 10 for c in parts[1:]), [c.text for c in parts]
    assert chunks[-1].text == "2,x,y,z"


def test_a_cut_between_cells_is_kept_where_it_leaves_no_small_part():
    # the cells fit: the row is cut between them only, whatever the words would give
    text = "k,a,b\n1," + "alpha " * 8 + "," + "beta " * 9 + "\n"
    chunks = _chunks(text, chunk_size=60)
    t = delimited_table(text)
    parts = _row_parts(text, chunks, t, 0)
    assert [c.text.rstrip(",").strip() for c in parts] == ["k,a,b\n1," + ("alpha " * 8).strip(), ("beta " * 9).strip()]


def test_a_giant_word_is_cut_only_where_it_must_be():
    giant = "x" * 150
    text = "k,a,b\n1,NoKey,lead " + giant + " tail\n"
    chunks = _chunks(text, chunk_size=60)
    check_invariants(text, chunks, 60, CharSizer(), trimmed=False, overlap_allowed=False)
    joined = "".join(c.text for c in chunks if giant[:5] in c.text)
    assert giant in joined.replace("\n", "")
    # no cut inside a word other than the giant one
    words = {w for c in chunks for w in c.text.replace(",", " ").split()}
    assert {"NoKey", "lead", "tail"} <= words


# -- 2. properties over hostile cell text -----------------------------------------------

_WORDS = st.one_of(
    st.sampled_from(["a", "bb", "word", "NoKey", "12", "é", "e\u0301", "a\u0308\u0301"]),
    st.sampled_from(["😀", "👍🏽", "🇫🇷", "👨\u200d👩\u200d👧"]),
    st.sampled_from(["東京都", "日本の首都であり人口が最も多い", "한국어"]),
    st.text(alphabet=st.sampled_from("xyz,\""), min_size=1, max_size=12),
    st.integers(20, 160).map(lambda n: "g" * n),  # one giant word
)
_SEPS = st.sampled_from([" ", " ", " ", "  ", "\r\n", "\n"])


@st.composite
def _cell(draw):
    if draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["", "x", "NoKey", "12"]))
    words = draw(st.lists(_WORDS, min_size=1, max_size=25))
    out = words[0]
    for w in words[1:]:
        out += draw(_SEPS) + w
    return out


@st.composite
def _hostile_csv(draw):
    width = draw(st.integers(2, 5))
    rows = [[f"c{i}" for i in range(width)]]
    for k in range(draw(st.integers(1, 4))):
        rows.append([f"k{k}", *(draw(_cell()) for _ in range(width - 1))])
    out = io.StringIO()
    csv.writer(out, lineterminator=draw(st.sampled_from(["\n", "\r\n"]))).writerows(rows)
    return out.getvalue()


@settings(max_examples=150, deadline=None)
@given(text=_hostile_csv(), size=st.integers(16, 120), row_format=st.sampled_from(["text", "kv"]))
def test_no_small_part_of_a_split_row_where_a_more_even_cut_exists(text, size, row_format):
    chunks = _chunks(text, chunk_size=size, row_format=row_format)
    check_invariants(text, chunks, size, CharSizer(), trimmed=False, overlap_allowed=False)
    t = delimited_table(text)
    for k in range(len(t.rows)):
        parts = _row_parts(text, chunks, t, k, header=True)
        for c in parts:
            assert (c.metadata["row_start"], c.metadata["row_end"]) in ((k, k + 1), (0, 0)), c.text
        for i, c in enumerate(parts):
            if c.size >= size // 4 or c.metadata.get("oversize"):
                continue
            for j in (i - 1, i + 1):
                if 0 <= j < len(parts) and not parts[j].metadata.get("oversize"):
                    left, right = (parts[j], c) if j < i else (c, parts[j])
                    assert not _even_cut_exists(text, t, k, left, right, size), (c.text, parts[j].text)


@settings(max_examples=150, deadline=None)
@given(text=_hostile_csv(), size=st.integers(16, 120))
def test_a_cell_that_fits_is_cut_only_where_its_edges_would_leave_a_small_part(text, size):
    """Cuts between cells first: a cut inside a cell that fits (not at a line break in it)
    is one where a cut at the cell's start or end would leave a part under a quarter of
    ``size`` or over it."""
    chunks = _chunks(text, chunk_size=size)
    t = delimited_table(text)
    floor = size // 4
    for k in range(len(t.rows)):
        parts = _row_parts(text, chunks, t, k, header=True)
        cells = _cells(text, t, k)
        row_end = t.row_span(k)[1]
        for left, right in zip(parts, parts[1:]):
            pe, ns = left.end_index, right.start_index
            for i, (a, b) in enumerate(cells):
                if not (a < pe and ns < b) or _size(text, a, b) > size or "\n" in text[pe:ns]:
                    continue
                # (the cell after the first one, merged with it, is cut with it)
                if i == 1 and _size(text, cells[0][0], b) > size:
                    continue
                assert i > 0, (text[a:b], left.text, right.text)  # the first cell: never
                nxt = cells[i + 1][0] if i + 1 < len(cells) else row_end
                for c in (a, nxt):
                    n1, n2 = _size(text, left.start_index, c), _size(text, c, right.end_index)
                    assert not (floor <= n1 <= size and floor <= n2 <= size), (text[a:b], left.text, right.text, c)


@pytest.mark.parametrize("kind", ["chars", "tokens"])
@settings(max_examples=60, deadline=None)
@given(text=_hostile_csv(), size=st.integers(8, 100), overlap=st.integers(0, 6))
def test_invariants_hold_over_hostile_cells(request, kind, text, size, overlap):
    sizer = CharSizer() if kind == "chars" else request.getfixturevalue("cl100k")
    overlap = min(overlap, size // 4)
    chunks = _chunks(text, chunk_size=size, unit=sizer, chunk_overlap=overlap, row_format="kv")
    check_invariants(text, chunks, size, sizer, trimmed=False, overlap_allowed=bool(overlap))
    assert all(c.metadata["boundary"] != "table_cell_word" for c in chunks)
    t = delimited_table(text)
    for c in chunks:
        if "row_start" in c.metadata:
            spans = [t.row_span(k) for k in range(len(t.rows))]
            held = [k for k, (s, e) in enumerate(spans) if s < c.end_index and c.start_index < e]
            if held and not overlap:
                assert (c.metadata["row_start"], c.metadata["row_end"]) == (held[0], held[-1] + 1)


def test_a_row_that_fits_is_not_cut_to_even_out_a_header_alone(cl100k):
    """A row larger than the size in bytes but not in tokens is no split row: the header
    above it stays a chunk of its own, however small, and the row stays whole."""
    row = "1," + " ".join(["alpha beta gamma delta"] * 14)
    text = "id,note\n" + row + "\n"
    n = cl100k.count(row)
    size = n + 2
    assert len(row.encode()) > size + 1 and cl100k.count(text.strip()) > size and cl100k.count("id,note") < size // 4
    chunks = _chunks(text, chunk_size=size, unit=cl100k)
    assert [c.text for c in chunks] == ["id,note", row]


def test_a_cell_in_a_script_without_spaces_is_cut_and_evened_out_at_its_words():
    pytest.importorskip("icu4py")
    from chunkwise.words import dictionary_word_cuts

    cell = "東京都は日本の首都であり人口が最も多い都市です経済文化の中心地"
    text = f"k,a,b\n1,{cell},NoKey\n"
    chunks = _chunks(text, chunk_size=24)
    check_invariants(text, chunks, 24, CharSizer(), trimmed=False, overlap_allowed=False)
    assert all(c.size >= 6 for c in chunks), [c.text for c in chunks]  # (was the header alone)
    words = {a for a, _ in dictionary_word_cuts(text)}
    for c in chunks[:-1]:  # each cut inside the cell at one of its words (was 'で|す')
        if text.find(cell) < c.end_index < text.find(cell) + len(cell):
            assert c.end_index in words, c.text
