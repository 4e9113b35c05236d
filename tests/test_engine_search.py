"""The engine's shortcuts give the same cuts as the plain forward search they replace."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from chunkwise import merge
from chunkwise.boundaries import (
    HARD_LINE,
    LINE,
    PARAGRAPH,
    WORD,
    FilteredLevel,
    RegexLevel,
    required_character,
    separator_level,
)
from chunkwise.sentences import SentenceSegmenter, sentence_cuts, sentence_cuts_reversed

PIECES = [
    "a", "word", " ", "  ", "\t", "\n", "\n\n", "\r\n", " \n \n ", "\u3000", "\u00a0", "\x1c", "\f", " \f ",
    ".", ". ", "! ", "? ", "...", "?!", "Dr. ", "e.g. ", "U.S. The ", "1. ", "- ", "\u201d", ") ", "。", "！",
    "。」", "，", ", ", "; ", "e\u0301", "Title\n=====\n\n", "# Head\n\n", "x" * 30,
]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)

LEVELS = [
    PARAGRAPH,
    HARD_LINE,
    SentenceSegmenter(),
    LINE,
    WORD,
    RegexLevel("clause", re.compile(r"[，、；：,;](?!\s)"), keep_separator="end"),
    RegexLevel("page", re.compile(r"\s*\f\s*"), whitespace=True),
    separator_level(". "),
    separator_level("\n\n"),
    FilteredLevel(PARAGRAPH, lambda text, a, b: not text[:a].endswith("a")),
]


def _plain_cuts(level, text, start, end):
    """The level's cuts from a plain forward scan (no anchor, no skipping)."""
    if type(level) is RegexLevel and level.whitespace:
        for m in level.pattern.finditer(text, start, end):
            a, b = m.span()
            if start < a and b < end:
                yield a, b
    else:
        yield from level.cuts(text, start, end)


def _plain_last_cut(text, level, pos, p, end, trim_spans):
    """``merge.last_cut`` as a forward scan of growing windows."""
    hi = min(end, p + 64)
    window = max(64, (p - pos) >> 2)
    while True:
        lo = max(pos, p - window)
        best = None
        for a, b in _plain_cuts(level, text, lo, hi):
            e = a
            while trim_spans and e > pos and text[e - 1].isspace():
                e -= 1
            if e > p:
                break
            if e > pos:
                best = (e, b)
        if best is not None or lo <= pos:
            return best
        window *= 4


def _bounds(text, data):
    pos = data.draw(st.integers(0, len(text)))
    p = data.draw(st.integers(pos, len(text)))
    end = data.draw(st.integers(p, len(text)))
    return pos, p, end


@given(text=texts, data=st.data())
def test_cuts_reversed_and_first_cut_match_the_forward_scan(text, data):
    start, _, end = _bounds(text, data)
    for level in LEVELS:
        forward = list(_plain_cuts(level, text, start, end))
        assert list(level.cuts(text, start, end)) == forward, level.name
        assert list(level.cuts_reversed(text, start, end)) == forward[::-1], level.name
        assert merge._first_cut(text, level, start, end) == (forward[0] if forward else None), level.name


@given(text=texts, data=st.data(), trim_spans=st.booleans())
def test_last_cut_matches_the_forward_search(text, data, trim_spans):
    pos, p, end = _bounds(text, data)
    for level in LEVELS:
        expected = _plain_last_cut(text, level, pos, p, end, trim_spans)
        assert merge.last_cut(text, level, pos, p, end, trim_spans) == expected, level.name


@given(text=texts, data=st.data())
def test_sentence_cuts_reversed(text, data):
    start, _, end = _bounds(text, data)
    assert list(sentence_cuts_reversed(text, start, end)) == list(sentence_cuts(text, start, end))[::-1]


def test_required_character():
    assert required_character(re.compile(r"\s*\f\s*")) == "\f"
    assert required_character(re.compile(r"\n[^\S\n]*\n\s*")) == "\n"
    assert required_character(re.compile(r"(?:\n\n)+")) == "\n"
    assert required_character(re.compile(r"x{0,3}y")) == "y"
    # nothing sure: optional parts, alternatives, lookarounds, classes, ignored case
    for pattern in (r"\s+", r"a|b", r"(?=\n)", r"[,;]", r"a?", r"(?:ab)*"):
        assert required_character(re.compile(pattern)) == "", pattern
    assert required_character(re.compile("x", re.IGNORECASE)) == ""
    assert PARAGRAPH.anchor == LINE.anchor == HARD_LINE.anchor == "\n"
    assert WORD.anchor == ""
