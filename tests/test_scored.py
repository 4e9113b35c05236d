"""The scored size-cap split (chunkwise.scored): properties against a naive reference."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from hypothesis import given
from hypothesis import strategies as st

from chunkwise._text import trim
from chunkwise.merge import Span
from chunkwise.scored import split_scored
from chunkwise.segments import ScoredCuts
from chunkwise.sizers import CharSizer

NAME = "weakest"


class WordEstimate:
    """A toy inexact measure: ``size`` counts the words a span touches (read from offsets,
    like the token measure), ``exact`` counts the words of the slice itself."""

    is_exact = False

    def __init__(self, text):
        self.text = text
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        self.starts = [a for a, _ in spans]
        self.ends = [b for _, b in spans]

    def size(self, start, end):
        return bisect_left(self.starts, end) - bisect_right(self.ends, start)

    def exact(self, start, end):
        return len(self.text[start:end].split())

    def advance(self, start, end, budget):  # pragma: no cover - not used here
        raise NotImplementedError


def _measure(kind, text):
    return CharSizer().measure(text) if kind == "chars" else WordEstimate(text)


def _exact(m, s, e):
    return m.size(s, e) if m.is_exact else m.exact(s, e)


def _rest(text, m, budget):
    """Toy fallback: greedy whole words; a word over the budget is a span of its own."""

    def rest(s, e, boundary):
        words = [(s + a.start(), s + a.end()) for a in re.finditer(r"\S+", text[s:e])]
        out, i = [], 0
        while i < len(words):
            j = i
            while j + 1 < len(words) and _exact(m, words[i][0], words[j + 1][1]) <= budget:
                j += 1
            out.append(Span(words[i][0], words[j][1], _exact(m, words[i][0], words[j][1]), "rest"))
            i = j + 1
        if out:
            out[-1].boundary = boundary
        return out

    return rest


def _reference(text, m, budget, s, e, scored, min_size, rest, boundary):
    """The specification, written plainly (quadratic)."""
    s, e = trim(text, s, e)
    if s >= e:
        return []
    n = _exact(m, s, e)
    if n <= budget:
        return [Span(s, e, n, boundary)]
    ks = [k for k in range(len(scored.starts)) if s < scored.starts[k] and scored.ends[k] < e]
    if not ks:
        return rest(s, e, boundary)
    sides = {k: (m.size(s, scored.starts[k]), m.size(scored.ends[k], e)) for k in ks}
    ok = [k for k in ks if min(sides[k]) >= min_size]
    if ok:
        k = min(ok, key=lambda k: (scored.scores[k], k))
    else:  # the smaller side as large as possible
        k = min(ks, key=lambda k: (-min(sides[k]), scored.scores[k], k))
    left = _reference(text, m, budget, s, scored.starts[k], scored, min_size, rest, scored.name)
    return left + _reference(text, m, budget, scored.ends[k], e, scored, min_size, rest, boundary)


WORDS = ["a", "bb", "ccc", "dddd", "eeeeeeeee", "ünï", "🚀"]
sentences = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=14)


@st.composite
def documents(draw):
    """A text of sentences, a scored cut between each two, and a range to pack."""
    sents = draw(sentences)
    gaps = draw(st.lists(st.sampled_from([" ", "  ", "\n", "\n\n "]), min_size=len(sents), max_size=len(sents)))
    text, starts, ends = " " * draw(st.integers(0, 2)), [], []
    for i, words in enumerate(sents):
        if i:
            starts.append(len(text))
            text += gaps[i]
            ends.append(len(text))
        text += " ".join(words) + "."
    text += gaps[0]
    scores = draw(st.lists(st.sampled_from([0.1, 0.2, 0.5, 0.5, 0.9]), min_size=len(starts), max_size=len(starts)))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    return text, ScoredCuts(NAME, tuple(starts), tuple(ends), tuple(scores)), start, end


@given(doc=documents(), kind=st.sampled_from(["chars", "words"]), budget=st.integers(1, 60), floor=st.integers(0, 30))
def test_split_scored_matches_the_reference(doc, kind, budget, floor):
    text, scored, start, end = doc
    m = _measure(kind, text)
    rest = _rest(text, m, budget)
    got = split_scored(text, m, budget, start, end, scored, min_size=floor, pack_rest=rest, end_boundary="end")
    assert got == _reference(text, m, budget, start, end, scored, floor, rest, "end")
    # the contract, checked directly
    prev = start
    cut_ends = set(scored.starts)
    for sp in got:
        assert prev <= sp.start < sp.end <= end
        assert trim(text, sp.start, sp.end) == (sp.start, sp.end)
        assert sp.size == _exact(m, sp.start, sp.end)
        assert sp.size <= budget or len(text[sp.start : sp.end].split()) == 1  # only a lone word is over
        assert text[prev : sp.start].strip() == ""  # nothing lost
        if sp.boundary == NAME:
            assert sp.end in cut_ends
        prev = sp.end
    assert text[prev:end].strip() == ""
    if got:
        assert got[-1].boundary == "end"


@given(doc=documents(), budget=st.integers(1, 60))
def test_a_range_that_fits_is_one_span(doc, budget):
    text, scored, start, end = doc
    m = _measure("chars", text)
    s, e = trim(text, start, end)
    rest = _rest(text, m, budget)
    got = split_scored(text, m, budget, start, end, scored, min_size=0, pack_rest=rest, end_boundary="x")
    if s < e and e - s <= budget:
        assert got == [Span(s, e, e - s, "x")]


def test_weakest_cut_that_keeps_the_floor_wins():
    # the weakest link (0.0) would leave "Hi." alone; with a floor of 10 the next weakest
    # (0.4) is taken
    text = "Hi. Alpha beta gamma. Delta epsilon zeta. Eta theta."
    starts = tuple(m.start() + 1 for m in re.finditer(r"\. ", text))
    scored = ScoredCuts(NAME, starts, tuple(p + 1 for p in starts), (0.0, 0.4, 0.6))
    m = _measure("chars", text)
    rest = _rest(text, m, 40)

    def texts(floor):
        spans = split_scored(text, m, 40, 0, len(text), scored, min_size=floor, pack_rest=rest, end_boundary="end")
        return [text[s.start : s.end] for s in spans]

    assert texts(0) == ["Hi.", "Alpha beta gamma.", "Delta epsilon zeta. Eta theta."]
    assert texts(10) == ["Hi. Alpha beta gamma.", "Delta epsilon zeta. Eta theta."]
    # no cut keeps both sides over 30: the cut whose smaller side is largest
    assert texts(30) == ["Hi. Alpha beta gamma.", "Delta epsilon zeta. Eta theta."]


def test_a_giant_sentence_does_not_crumble_its_neighbours_into_runts():
    # short sentences before a sentence over the budget: no cut keeps both sides at the
    # floor; the short ones stay together instead of one chunk each
    giant = " ".join(["word"] * 30)
    text = f"A. B. C. D. {giant}."
    starts = tuple(m.start() + 1 for m in re.finditer(r"\. ", text))
    scored = ScoredCuts(NAME, starts, tuple(p + 1 for p in starts), (0.1, 0.2, 0.3, 0.9))
    m = _measure("chars", text)
    rest = _rest(text, m, 40)
    spans = split_scored(text, m, 40, 0, len(text), scored, min_size=10, pack_rest=rest, end_boundary="end")
    assert text[spans[0].start : spans[0].end] == "A. B. C. D."


def test_first_minimum_on_ties_and_fallback_for_a_piece_without_cuts():
    text = "One two three. Four five six. Seven eight nine."
    starts = tuple(m.start() + 1 for m in re.finditer(r"\. ", text))
    scored = ScoredCuts(NAME, starts, tuple(p + 1 for p in starts), (0.5, 0.5))
    m = _measure("chars", text)
    rest = _rest(text, m, 15)
    spans = split_scored(text, m, 15, 0, len(text), scored, min_size=0, pack_rest=rest, end_boundary="end")
    assert [(text[s.start : s.end], s.boundary) for s in spans] == [
        ("One two three.", NAME),
        ("Four five six.", NAME),
        ("Seven eight", "rest"),
        ("nine.", "end"),
    ]


def test_long_monotone_region_is_iterative():
    # 3000 cuts with rising scores: the weakest cut is always the first one (deep recursion
    # for a recursive implementation)
    text = " ".join(f"S{i}." for i in range(3001))
    starts = tuple(m.start() + 1 for m in re.finditer(r"\. ", text))
    scored = ScoredCuts(NAME, starts, tuple(p + 1 for p in starts), tuple(float(i) for i in range(len(starts))))
    m = _measure("chars", text)
    rest = _rest(text, m, 8)
    spans = split_scored(text, m, 8, 0, len(text), scored, min_size=0, pack_rest=rest, end_boundary="end")
    assert len(spans) == 3001 and spans[0].boundary == NAME and spans[-1].boundary == "end"
