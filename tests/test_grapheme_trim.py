"""Trimming and hard cuts follow the UAX #29 grapheme cluster rules around whitespace.

A combining mark after a space (category Zs) belongs to the space's cluster (GB9), so a
chunk may start with that space. After a line break or another control character
(CR, LF, TAB, FF, NEL, U+2028, ...) UAX #29 always breaks (GB4/GB5): the mark starts a
cluster of its own, a visible one that must land in some chunk, and the line break is
trimmed away like any other whitespace. Texts built from line breaks, spaces, combining
marks, emoji ZWJ sequences and CR LF, through every core strategy and unit, keep the
whole chunk contract (:func:`invariants.check_invariants`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise._text import carries_marks, trim
from chunkwise.sizers import CharSizer, WordSizer, get_sizer

from invariants import check_invariants, cluster_boundaries

STRATEGIES = ["recursive", "markdown", "sentence", "fixed"]

PIECES = [
    "x", "word", "Ab", ".", ". ", "# H\n",
    "\n", "\n\n", "\n\n\n", "\r\n", "\r", "\r\n\r\n", "\t", "\f", "\x0b", "\x1c", "\x85", "\u2028", "\u2029",
    " ", "  ", "\u00a0", "\u3000", "\u2003",
    "\u0300", "\u0301", "\u0300\u0301\u0300\u0300", "\u093f", "\u20dd", "\u200d", "\ufe0f", "\U0001f3fd",
    "e\u0301", " \u0301", "\n\u0301",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f44d\U0001f3fd", "\u2764\ufe0f", "\U0001f1fa\U0001f1f8",
]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=40).map("".join)


def _sizer(unit):
    if unit == "tokens":
        pytest.importorskip("numpy")
        return get_sizer("tokens")
    return CharSizer() if unit == "chars" else WordSizer()


def _check(text, strategy, size, unit, overlap=0):
    sizer = _sizer(unit)
    chunks = chunkwise.chunk(text, strategy=strategy, chunk_size=size, chunk_overlap=overlap, unit=unit)
    check_invariants(text, chunks, size, sizer, trimmed=strategy != "fixed", overlap_allowed=True)
    return chunks


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_marks_after_a_line_break_are_a_cluster_of_their_own(strategy):
    text = "x\n\n\n\u0300\u0301\u0300\u0300"
    chunks = _check(text, strategy, 4, "chars")
    # the four marks are one cluster (GB9 joins them to each other, not to the line break)
    assert [c.text for c in chunks][-1] == "\u0300\u0301\u0300\u0300"
    assert chunks[-1].start_index == 4
    assert not any(c.metadata.get("oversize") for c in chunks)


@pytest.mark.parametrize("strategy", ["recursive", "markdown", "sentence"])
def test_a_mark_on_a_space_stays_with_the_space(strategy):
    text = "x\n\n \u0301 y"
    chunks = _check(text, strategy, 2, "chars")
    assert " \u0301" in [c.text for c in chunks]


def test_carries_marks_is_the_uax29_rule():
    import regex

    for ch in [" ", "\u00a0", "\u3000", "\u2003", "\u1680", "\n", "\r", "\t", "\f", "\x0b", "\x1c", "\x85", "\u2028", "\u2029"]:
        joined = len(regex.findall(r"\X", ch + "\u0301", flags=regex.DOTALL)) == 1
        assert carries_marks(ch) == joined, repr(ch)


def test_trim_keeps_the_mark_and_drops_the_line_break():
    assert trim("\n\u0301a", 0, 3) == (1, 3)
    assert trim("\r\n\u0301", 0, 3) == (2, 3)
    assert trim(" \u0301a", 0, 3) == (0, 3)
    assert trim("\n \u0301a", 0, 4) == (1, 4)
    # every trimmed start is a cluster boundary
    for t in ["\n\u0301", "\u2028\u0300\u0301", "\t\u200d\U0001f469", " \n\u0301x"]:
        s, e = trim(t, 0, len(t))
        assert s in cluster_boundaries(t) and e in cluster_boundaries(t)


@settings(max_examples=150, deadline=None)
@given(text=texts, strategy=st.sampled_from(STRATEGIES), size=st.integers(1, 12), unit=st.sampled_from(["chars", "words"]))
def test_line_breaks_spaces_and_marks_keep_the_contract(text, strategy, size, unit):
    _check(text, strategy, size, unit)


@settings(max_examples=60, deadline=None)
@given(text=texts, strategy=st.sampled_from(STRATEGIES), size=st.integers(2, 12))
def test_line_breaks_spaces_and_marks_keep_the_contract_with_overlap(text, strategy, size):
    _check(text, strategy, size, "chars", overlap=size // 2)


@settings(max_examples=40, deadline=None)
@given(text=texts, strategy=st.sampled_from(STRATEGIES), size=st.integers(1, 16))
def test_line_breaks_spaces_and_marks_keep_the_contract_in_tokens(text, strategy, size):
    _check(text, strategy, size, "tokens")
