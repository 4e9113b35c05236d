"""An atom that fits ``chunk_size`` is never cut, with an overlap too.

The packer packs at ``chunk_size - chunk_overlap`` and then extends each chunk into the
next. An atom (a table row, a fenced code block, a list item, a turn, a definition) larger
than that budget but within ``chunk_size`` starts a chunk of its own and is packed whole;
the overlap after it is shortened to what ``chunk_size`` leaves. Atoms larger than
``chunk_size`` are split as before.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import Document
from chunkwise.api import make_chunker
from chunkwise.errors import OversizeError
from invariants import check_invariants


def _atoms(chunker, text):
    """The parser's atoms of ``text``, trimmed: start, end, exact size, kind and the
    largest size a chunk of its region may have (``chunk_size`` less the room the
    region keeps for its context)."""
    segs = chunker.parse(Document(text))
    regions = segs.regions or ()
    out = []
    for a in segs.atoms:
        s, e = a.start, a.end
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            reserve = max((r.reserve for r in regions if r.start <= a.start and a.end <= r.end), default=0)
            out.append((s, e, chunker.sizer.count(text[s:e]), a.kind, chunker.chunk_size - max(reserve, 0)))
    return out


def _whole(chunks, s, e):
    return any(c.start_index <= s and e <= c.end_index for c in chunks)


def _check(strategy, text, size, overlap, **params):
    """Chunk ``text`` with and without ``overlap``; the contract holds; with the overlap,
    every atom that fits its region's chunks is whole in some chunk unless the same
    atom is cut without the overlap too (an atom that fits alone but not with its
    glued heading is split so that the heading goes with its first part). Returns the
    chunks and the atoms."""
    chunker = make_chunker(strategy, chunk_size=size, chunk_overlap=overlap, **params)
    chunks = chunker.chunk(text)
    check_invariants(text, chunks, size, chunker.sizer)
    plain = make_chunker(strategy, chunk_size=size, **params).chunk(text)
    atoms = _atoms(chunker, text)
    for s, e, n, kind, limit in atoms:
        if n <= limit and _whole(plain, s, e):
            assert _whole(chunks, s, e), f"{kind} {s}-{e} ({n} of {limit}) is cut: {[(c.start_index, c.end_index) for c in chunks]}"
    return chunks, atoms


def _row(i: int, width: int) -> str:
    """A pipe-table row of exactly ``width`` characters."""
    body = width - 7  # "| " + a + " | " + b + " |"
    a = body // 2
    return "| " + str(i % 10) * a + " | " + "b" * (body - a) + " |"


def _table(widths) -> str:
    return "| h1 | h2 |\n|---|---|\n" + "\n".join(_row(i, w) for i, w in enumerate(widths))


def test_markdown_row_between_budget_and_size_stays_whole():
    size, overlap = 100, 30
    text = "# Title\n\nSome intro text here that is a paragraph.\n\n" + _table([82] * 4) + "\n\nAfter text.\n"
    chunks, atoms = _check("markdown", text, size, overlap)
    rows = [(s, e) for s, e, n, kind, _ in atoms if kind == "table_row"]
    assert len(rows) == 4
    for s, e in rows:  # each row starts a chunk
        assert any(c.start_index == s and c.end_index >= e for c in chunks)


@pytest.mark.parametrize("intro", ["Intro.", "Intro paragraph of some length here, and a few more words to fill it."])
def test_markdown_code_block_between_budget_and_size_stays_whole(intro):
    size, overlap = 100, 30
    code = "```python\n" + "\n".join(f"value_{i} = {i} * 3" for i in range(5)) + "\n```"
    assert size - overlap < len(code) <= size
    text = intro + "\n\n" + code + "\n\nMore text after the code block goes here, with words.\n"
    chunks, _ = _check("markdown", text, size, overlap)
    start = text.index("```")
    owner = [c for c in chunks if c.start_index <= start and start + len(code) <= c.end_index]
    assert owner and owner[0].start_index == start
    assert owner[0].metadata.get("code_language") == "python"
    assert chunks[0].end_index < start + len(code)  # (the intro's chunk: the overlap after it is cut short)


def test_markdown_heading_goes_with_a_code_block_when_both_fit():
    size, overlap = 120, 40
    code = "```\n" + "\n".join(f"line number {i} here" for i in range(5)) + "\n```"
    text = "Intro paragraph of some length here, with more words.\n\n## Example\n\n" + code + "\n\nAfter.\n"
    assert size - overlap < len(code) <= size
    chunks, _ = _check("markdown", text, size, overlap)
    head = text.index("## Example")
    end = text.index("```", text.index("```") + 3) + 3
    assert any(c.start_index == head and c.end_index >= end for c in chunks)


def test_markdown_atom_larger_than_size_is_still_split():
    size, overlap = 100, 30
    code = "```\n" + "\n".join(f"value_{i} = compute({i})" for i in range(12)) + "\n```"
    assert len(code) > size
    text = "Intro.\n\n" + code + "\n\nAfter.\n"
    chunks, _ = _check("markdown", text, size, overlap)
    s = text.index("```")
    assert not _whole(chunks, s, s + len(code))
    assert all(c.size <= size for c in chunks)


@pytest.mark.parametrize("intro", ["Intro text.", "Intro text with a few more words in it to fill the chunk."])
@pytest.mark.parametrize("overlap", [20, 30, 40])
def test_markdown_list_item_between_budget_and_size_stays_whole(intro, overlap):
    size = 90
    item = "- " + "word " * 17 + "end"
    assert len(item) == size
    text = intro + "\n\n- short item\n" + item + "\n- another short one\n\nOutro text here.\n"
    chunks, _ = _check("markdown", text, size, overlap)
    s = text.index(item)
    assert _whole(chunks, s, s + len(item))


def test_raise_policy_does_not_raise_for_an_atom_that_fits_size():
    size, overlap = 100, 30
    code = "```\n" + "\n".join(f"x = {i}  # comment" for i in range(4)) + "\n```"
    text = "Intro.\n\n" + code + "\n\nAfter.\n"
    _check("markdown", text, size, overlap, oversize="raise")
    big = "```\n" + "\n".join(f"x = {i}  # comment here" for i in range(8)) + "\n```"
    with pytest.raises(OversizeError):
        chunkwise.chunk("Intro.\n\n" + big, strategy="markdown", chunk_size=size, chunk_overlap=overlap, oversize="raise")


def test_table_strategy_rows_between_budget_and_size_stay_whole():
    size, overlap = 100, 30
    text = _table([60, 82, 95, 40, 100, 75])
    chunks = chunkwise.chunk(Document(text, metadata={"format": "markdown"}), strategy="table", chunk_size=size, chunk_overlap=overlap)
    lines = text.split("\n")
    pos = 0
    for line in lines:
        s = text.index(line, pos)
        pos = s + len(line)
        if line.startswith("| h1") or line.startswith("|---"):
            continue
        assert _whole(chunks, s, s + len(line)), line


def test_conversation_turn_between_budget_and_size_stays_whole():
    size, overlap = 100, 30
    turns = ["Alice: hello there, how are you doing.", "Bob: " + "fine thanks " * 7 + "really.", "Alice: good to hear."]
    text = "\n".join(turns) + "\n"
    assert size - overlap < len(turns[1]) <= size
    chunks = chunkwise.chunk(text, strategy="conversation", chunk_size=size, chunk_overlap=overlap)
    s = text.index("Bob:")
    assert any(c.start_index == s and c.end_index >= s + len(turns[1]) for c in chunks)


@pytest.mark.parametrize(("overlap", "lines"), [(20, 6), (30, 5)])
def test_code_definition_between_budget_and_size_stays_whole(overlap, lines):
    size = 120
    fn = "def f(x):\n" + "".join(f"    y{i} = x + {i}\n" for i in range(lines)) + "    return x"
    text = "import os\n\n\n" + fn + "\n\n\ndef g():\n    return 1\n"
    assert size - overlap < len(fn) <= size
    doc = Document(text, metadata={"format": "code", "language": "python"})
    chunker = make_chunker("code", chunk_size=size, chunk_overlap=overlap)
    chunks = chunker.chunk(doc)
    check_invariants(text, chunks, size, chunker.sizer)
    s = text.index("def f")
    assert _whole(chunks, s, s + len(fn))


# -- properties ------------------------------------------------------------------------

_WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "x", "lorem", "ipsum", "a1", "zz"])


@st.composite
def _documents(draw):
    """A Markdown text of paragraphs, pipe tables and fenced code blocks whose sizes lie
    around ``size - overlap .. size``, and the sizes."""
    size = draw(st.integers(40, 160))
    overlap = draw(st.integers(1, size // 2))
    lo = size - overlap
    near = st.integers(max(8, lo - 6), size + 6)
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["para", "table", "code", "head"]))
        if kind == "para":
            n = draw(st.integers(1, 40))
            parts.append(" ".join(draw(st.lists(_WORDS, min_size=n, max_size=n))) + ".")
        elif kind == "head":
            parts.append("## " + draw(_WORDS))
        elif kind == "table":
            widths = draw(st.lists(near, min_size=1, max_size=4))
            parts.append(_table([max(w, 12) for w in widths]))
        else:
            n = draw(near)
            lines = []
            body = max(n - 8, 1)
            while body > 0:
                w = min(body, draw(st.integers(5, 30)))
                lines.append(("c" * w)[: max(w - 1, 1)])
                body -= w + 1
            parts.append("```\n" + "\n".join(lines) + "\n```")
    return "\n\n".join(parts) + "\n", size, overlap


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_property_markdown_atoms_that_fit_are_never_cut(doc):
    text, size, overlap = doc
    _check("markdown", text, size, overlap)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_property_markdown_words_unit(doc):
    text, size, overlap = doc
    size, overlap = max(size // 5, 4), max(overlap // 5, 1)
    if overlap >= size:
        overlap = size - 1
    _check("markdown", text, size, overlap, unit="words")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(40, 160).flatmap(lambda s: st.tuples(st.just(s), st.integers(1, s // 2), st.lists(st.integers(12, s + 6), min_size=1, max_size=8))))
def test_property_table_rows_that_fit_are_never_cut(args):
    size, overlap, widths = args
    text = _table(widths)
    chunker = make_chunker("table", chunk_size=size, chunk_overlap=overlap)
    chunks = chunker.chunk(Document(text, metadata={"format": "markdown"}))
    check_invariants(text, chunks, size, chunker.sizer)
    pos = text.index("\n", text.index("|---")) + 1
    for w in widths:
        if w <= size:
            assert _whole(chunks, pos, pos + w), (pos, w)
        pos += w + 1
