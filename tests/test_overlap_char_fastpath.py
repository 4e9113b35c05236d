"""The overlap pass for sizes in characters gives the spans of the general pass.

* :func:`chunkwise.merge.add_overlap` with a character measure (``_char_extender``)
  against the extension loop as first written (kept here as the oracle), which asks
  :func:`chunkwise.merge._overlap_end` for every span;
* :func:`chunkwise.merge._last_hard_line_cut` (the line-break rule read only where it
  decides) against the function as first written (kept here as the oracle).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from chunkwise import merge
from chunkwise.boundaries import LINE, PARAGRAPH, WORD, _meant
from chunkwise.chunkers.recursive import CLAUSE, DEFAULT_LEVELS, PAGE
from chunkwise.merge import Span
from chunkwise.sizers import get_sizer
from chunkwise.titles import ends_with_title

PIECES = [
    "a", "word", "Word", " ", "  ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", " \n \n ", "\n\t\n",
    "\u3000", "\u00a0", "\f", "\n\f\n", "\u2028", ".", ". ", "! ", "? ", ":", ") ", "e\u0301", " \u0301",
    "Title\n=====\n\n", "# Head\n\n", "- item\n", "  indented\n", "1. first\n", "x" * 30, "y " * 20,
    "\u4e2d\u6587\u3002", "\u3001", "\U0001f600", "\U0001f44d\U0001f3fd", "Dr. Lee paid 2.5 dollars. ",
]
texts = st.lists(st.sampled_from(PIECES), max_size=90).map("".join)

LEVEL_SETS = [
    list(DEFAULT_LEVELS),
    [PARAGRAPH, LINE],
    [replace(PARAGRAPH, avoid=ends_with_title), LINE, CLAUSE],
    [PAGE, WORD],
]


def _add_overlap_as_written(text, measure, spans, chunk_size, chunk_overlap, levels, trim_spans=True):
    """:func:`chunkwise.merge.add_overlap` as first written: every extension asked of
    :func:`chunkwise.merge._overlap_end`."""
    if chunk_overlap <= 0 or len(spans) < 2:
        return spans
    all_levels = list(levels)
    if levels and not any(lv.name == WORD.name for lv in all_levels):
        all_levels.append(WORD)
    k = next((i for i, lv in enumerate(all_levels) if lv is WORD), -1)
    if k >= 0:
        all_levels.insert(k + 1, merge.DICTIONARY_WORDS)
    out = []
    last_end = spans[-1].end

    def extended(cur, nxt):
        if cur.oversize:
            return cur
        found = merge._overlap_end(
            text, measure, cur, nxt, last_end, chunk_size, chunk_overlap, all_levels, trim_spans
        )
        return cur if found is None else Span(cur.start, found[0], found[2], found[1])

    for i, cur in enumerate(spans):
        if i + 1 < len(spans):
            cur = extended(cur, spans[i + 1])
        if out and cur.end <= out[-1].end:
            if i + 1 < len(spans):
                further = extended(out[-1], spans[i + 1])
                if further.end > out[-1].end:
                    out[-1] = further
            continue
        out.append(cur)
        if cur.end >= last_end:
            break
    return out


@given(
    text=texts,
    size=st.integers(4, 200),
    ratio=st.sampled_from([1, 10, 20, 50, 90]),
    which=st.integers(0, len(LEVEL_SETS) - 1),
    trim=st.booleans(),
)
def test_char_overlap_matches_the_general_pass(text, size, ratio, which, trim):
    measure = get_sizer("chars").measure(text)
    assert type(measure) is merge._CharMeasure  # the fast pass is the one under test
    overlap = max(1, size * ratio // 100)
    if overlap >= size:
        overlap = size - 1
    if overlap < 1:
        return
    levels = LEVEL_SETS[which]
    spans = merge.pack(text, measure, size - overlap, levels, trim_spans=trim)
    key = lambda out: [(s.start, s.end, s.size, s.boundary, s.oversize) for s in out]  # noqa: E731
    fast = merge.add_overlap(text, measure, [replace(s) for s in spans], size, overlap, levels, trim_spans=trim)
    oracle = _add_overlap_as_written(text, measure, [replace(s) for s in spans], size, overlap, levels, trim)
    assert key(fast) == key(oracle)
    for s in fast:
        assert s.size == s.end - s.start <= size or s.oversize


def test_a_weaker_cut_past_half_the_overlap_wins():
    # the paragraph break gives 7 of the 16 characters asked (under half), the last line
    # break that fits gives 14: the extension ends at the line break
    text = "a" * 20 + "\n\n" + "b" * 7 + "\n\n" + "c c c\nc c\n" + "d" * 30
    measure = get_sizer("chars").measure(text)
    spans = [Span(0, 20, 20, "paragraph"), Span(22, 60, 38, "end")]
    out = merge.add_overlap(text, measure, spans, 40, 16, [PARAGRAPH, LINE])
    assert (out[0].start, out[0].end, out[0].size, out[0].boundary) == (0, 36, 36, "line")
    assert out == _add_overlap_as_written(text, measure, spans, 40, 16, [PARAGRAPH, LINE])


def _last_hard_line_cut_as_written(text, pos, p, hi):
    """:func:`chunkwise.merge._last_hard_line_cut` as first written (the rule read at
    every run reached)."""
    window = (p - pos) >> 2
    if window < 64:
        window = 64
    while True:
        lo = p - window
        if lo < pos:
            lo = pos
        stop = hi
        while True:
            k = text.rfind("\n", lo, stop)
            if k < 0:
                break
            a = rs = k
            while rs > lo and text[rs - 1].isspace():
                rs -= 1
                if text[rs] == "\n":
                    a = rs
            if a <= lo:
                break
            b = merge._SPACES.match(text, k, hi).end()
            if b < hi and _meant(text, lo, a, b):
                e = rs
                while e > pos and text[e - 1].isspace():
                    e -= 1
                if e <= p:
                    if e > pos:
                        return e, b
                    break
            stop = rs
        if lo <= pos:
            return None
        window <<= 2


@given(text=texts, data=st.data())
def test_hard_line_cut_matches_the_rule_as_written(text, data):
    n = len(text)
    pos = data.draw(st.integers(0, n))
    p = data.draw(st.integers(pos, n))
    hi = data.draw(st.integers(p, n))
    assert merge._last_hard_line_cut(text, pos, p, hi) == _last_hard_line_cut_as_written(text, pos, p, hi)


SAMPLES = [
    "Intro line.\nTitle\n=====\n\nA short paragraph. It has two sentences.\n\n- item one\n- item two\n"
    "  continued here\n\nLast words of the text, and some more words to pack.\n",
    "word " * 40 + "\n\n" + "\u4e2d\u6587\u53e5\u5b50\u3002" * 12 + "\r\n\r\nEnd. " * 6,
    "\f".join(["page text. " * 6] * 3) + "x" * 70 + " e\u0301 \U0001f44d\U0001f3fd tail",
]


def test_every_overlap_of_a_few_documents_matches_the_general_pass():
    # every overlap from 1 to size - 1: cuts exactly at half the overlap, at the limit
    # and at the chunk size are all reached
    for text in SAMPLES:
        measure = get_sizer("chars").measure(text)
        for levels in LEVEL_SETS:
            for size in (12, 33, 80):
                for overlap in range(1, size):
                    spans = merge.pack(text, measure, size - overlap, levels)
                    fast = merge.add_overlap(text, measure, [replace(s) for s in spans], size, overlap, levels)
                    oracle = _add_overlap_as_written(text, measure, [replace(s) for s in spans], size, overlap, levels)
                    assert fast == oracle, (text[:20], size, overlap)
