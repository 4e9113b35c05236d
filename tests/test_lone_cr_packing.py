"""A lone carriage return (classic Mac OS) is a line break for the one packer.

Unicode and ``str.splitlines`` read a ``"\\r"`` not followed by ``"\\n"`` as a line break.
The packer packs such a text as its twin with line feeds there (same length, same
offsets), so every strategy whose parser reads the text the same way cuts it exactly as
the twin. ``"\\r\\n"`` stays one break, and a text without a lone carriage return is
packed as before.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.boundaries import LINE, PARAGRAPH, WORD, line_feed_twin, separator_level
from chunkwise.packer import PackConfig, _names_cr, pack_segments
from chunkwise.segments import Segments
from chunkwise.sizers import CharSizer, WordSizer

NL = "\x00"  # a line break in a generated text: "\n" in the twin, "\r" in the classic text

_WORDS = [
    "word", "Another", "sentence.", "Title", "#", "##", "-", "1.", ">", "|", "Ende!", "é", "中文字", "x" * 30,
    "def", "f(a):", "return", "class", "K:", ",", "(", ")", "\t",
]
_BREAKS = [NL, NL, NL, NL + NL, NL + "  " + NL, NL + "    ", "\r\n", "\r\n\r\n", " ", ""]
_LINES = st.lists(
    st.tuples(st.sampled_from(["", "", "    "]), st.lists(st.sampled_from(_WORDS), max_size=6), st.sampled_from(_BREAKS)),
    min_size=1,
    max_size=25,
)

_LINE_BASED = [
    ("recursive", {}),
    ("recursive", {"separators": ["\n\n", "\n", " "]}),
    ("sentence", {}),
    ("markdown", {}),
    ("sections", {}),
    ("wikitext", {}),
    ("table", {}),
    ("fixed", {}),
    ("code", {"language": "python"}),
]


def _texts(lines: list[tuple[str, list[str], str]]) -> tuple[str, str]:
    """The classic text and its twin: ``NL`` is a lone "\\r" in one, "\\n" in the other."""
    joined = "".join(indent + " ".join(words) + end for indent, words, end in lines)
    return joined.replace(NL, "\r"), joined.replace(NL, "\n")


def _spans(chunks) -> list[tuple[int, int]]:
    return [(c.start_index, c.end_index) for c in chunks]


@settings(max_examples=60, deadline=None)
@given(
    lines=_LINES,
    size=st.integers(6, 120),
    overlap=st.sampled_from([0, 0, 3]),
    unit=st.sampled_from(["chars", "chars", "words"]),
)
def test_a_classic_mac_text_is_cut_as_its_line_feed_twin(lines, size, overlap, unit):
    cr, lf = _texts(lines)
    if not cr.strip():
        return
    if unit == "words":
        size = max(2, size // 8)
    overlap = min(overlap, size // 4)
    sizer = WordSizer() if unit == "words" else CharSizer()
    for strategy, extra in _LINE_BASED:
        kw = dict(extra, chunk_size=size, chunk_overlap=overlap, unit=unit)
        a = chunkwise.chunk(cr, strategy=strategy, **kw)
        b = chunkwise.chunk(lf, strategy=strategy, **kw)
        assert _spans(a) == _spans(b), strategy
        assert [c.size for c in a] == [c.size for c in b], strategy
        trimmed = strategy not in ("code", "fixed")
        check_invariants(cr, a, size, sizer, trimmed=trimmed, overlap_allowed=bool(overlap) or strategy == "fixed")


@settings(max_examples=30, deadline=None)
@given(lines=_LINES, size=st.integers(12, 100))
def test_hierarchical_levels_of_a_classic_mac_text_are_those_of_its_twin(lines, size):
    cr, lf = _texts(lines)
    for base in ("recursive", ["markdown", "code"]):
        kw = {"chunk_sizes": [4 * size, size], "base": base}
        if base != "recursive":
            kw["base_params"] = [{}, {"language": "python"}]
        a = chunkwise.chunk(cr, strategy="hierarchical", **kw)
        b = chunkwise.chunk(lf, strategy="hierarchical", **kw)
        assert [(c.metadata["level"], c.start_index, c.end_index) for c in a] == [
            (c.metadata["level"], c.start_index, c.end_index) for c in b
        ]
        assert all(c.text == cr[c.start_index : c.end_index] and c.text.strip() for c in a)
        leaves = [c for c in a if c.metadata["leaf"]]
        assert all(c.size <= size for c in leaves)


def test_hierarchical_over_code_cuts_classic_mac_lines():
    # the code strategy's leaves under a code parent: lines, not words, with a lone "\r"
    lf = "".join(f"def f{i}(a, b):\n    x = a + b\n    return x * {i}\n\n\n" for i in range(12))
    cr = lf.replace("\n", "\r")
    kw = {"chunk_sizes": [200, 40], "base": "code", "base_params": {"language": "python"}}
    a = chunkwise.chunk(cr, strategy="hierarchical", **kw)
    b = chunkwise.chunk(lf, strategy="hierarchical", **kw)
    assert _spans(a) == _spans(b)
    leaves = [c.text for c in a if c.metadata["leaf"]]
    assert "def f0(a, b):\r    x = a + b" in leaves
    assert all(c.metadata["boundary"] != "word" for c in a)


def test_the_packer_cuts_a_classic_mac_line_where_it_cuts_a_line_feed():
    sizer = CharSizer()
    config = PackConfig(chunk_size=12)
    segs = Segments(levels=(PARAGRAPH, LINE, WORD))
    for text in ("alpha beta\rgamma delta\r\repsilon zeta", "alpha beta\r\ngamma delta\r\r\nepsilon zeta"):
        twin = text.replace("\r\n", "\x01").replace("\r", "\n").replace("\x01", "\r\n")
        got = pack_segments(text, sizer.measure(text), segs, config)
        want = pack_segments(twin, sizer.measure(twin), segs, config)
        assert [(s.start, s.end, s.size, s.boundary) for s in got] == [(s.start, s.end, s.size, s.boundary) for s in want]
    got = pack_segments("alpha beta\rgamma", sizer.measure("alpha beta\rgamma"), segs, config)
    assert [(s.start, s.end, s.boundary) for s in got] == [(0, 10, "line"), (11, 16, "end")]


def test_indentation_is_kept_from_a_lone_carriage_return():
    lf = "class K:\n    def m(self):\n        return 1\n    def n(self):\n        return 2\n"
    cr = lf.replace("\n", "\r")
    for size in (20, 30, 45):
        a = chunkwise.chunk(cr, strategy="hierarchical", chunk_sizes=[200, size], base="code",
                            base_params={"language": "python"})
        b = chunkwise.chunk(lf, strategy="hierarchical", chunk_sizes=[200, size], base="code",
                            base_params={"language": "python"})
        assert _spans(a) == _spans(b)
    sizer = CharSizer()
    config = PackConfig(chunk_size=26, keep_indent=True)
    segs = Segments(levels=(LINE, WORD))
    got = pack_segments(cr, sizer.measure(cr), segs, config)
    starts = [s.start for s in got]
    assert all(k == 0 or cr[k - 1] == "\r" for k in starts), starts  # each chunk starts at its line's start
    assert starts == [s.start for s in pack_segments(lf, sizer.measure(lf), segs, config)]


def test_the_twin_is_made_only_for_a_lone_carriage_return():
    assert line_feed_twin("no carriage return\nhere") is None
    assert line_feed_twin("windows\r\nline\r\nends") is None
    assert line_feed_twin("classic\rmac") == "classic\nmac"
    assert line_feed_twin("mixed\r\nand\rlone\r\r\n") == "mixed\r\nand\nlone\n\r\n"


def test_a_separator_that_names_a_carriage_return_reads_the_text():
    # a user's "\r" separator is not read in the twin (where no lone "\r" is left)
    text = "one two\rthree four\rfive six"
    for sep in ("\r", re.compile(r"\r"), re.compile(r"[\r]+")):
        chunks = chunkwise.chunk(text, strategy="recursive", separators=[sep, " "], chunk_size=12)
        assert [c.text for c in chunks] == ["one two", "three four", "five six"], sep
        assert [c.metadata["boundary"] for c in chunks][:2] == [separator_level(sep).name] * 2
    # a line feed separator cuts at a lone carriage return too (the twin's line feed)
    chunks = chunkwise.chunk(text, strategy="recursive", separators=["\n", " "], chunk_size=12)
    assert [c.text for c in chunks] == ["one two", "three four", "five six"]
    assert [c.metadata["boundary"] for c in chunks] == ["separator:'\\n'", "separator:'\\n'", "end"]
    # which levels read the text: those whose pattern names a carriage return; an escaped
    # backslash before "r" is the letter r
    assert [_names_cr(separator_level(s)) for s in ("\r", "\r\n", "\n", re.compile(r"\r"), re.compile(r"\\r"))] == [
        True, True, False, True, False]
    assert not any(_names_cr(lv) for lv in (LINE, PARAGRAPH, WORD))


@pytest.mark.parametrize("size", [40, 100])
def test_a_classic_mac_text_in_tokens_keeps_each_chunk_within_the_budget(cl100k, size):
    lf = ("A line of prose that goes on.\nAnother one!\n\n- an item\n- another item\n\n" * 20)
    cr = lf.replace("\n", "\r")
    for strategy in ("recursive", "markdown", "sentence"):
        chunks = chunkwise.chunk(cr, strategy=strategy, chunk_size=size, unit=cl100k)
        check_invariants(cr, chunks, size, cl100k, trimmed=True, overlap_allowed=False)
        # the cuts are line breaks (the twin's), not words: each chunk ends at a line's end
        assert all(c.end_index == len(cr) or cr[c.end_index] == "\r" for c in chunks), strategy
