"""Guarded levels (``packer._guarded``): a parser's positions guarded in one loop give the
cuts the general filter gives, forwards and backwards, for any protected ranges."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise import merge, packer
from chunkwise.boundaries import LINE, FilteredLevel, PositionsLevel


def _filtered(level, starts, ends):
    """The general guard: every cut's two ends checked by bisection (the rule itself)."""

    def keep(text, a, b):
        for x in (a, b):
            k = bisect_right(starts, x) - 1
            if k >= 0 and starts[k] < x < ends[k]:
                return False
        return True

    return FilteredLevel(level, keep)


@st.composite
def cases(draw):
    n = draw(st.integers(1, 120))
    cut_starts = sorted(draw(st.lists(st.integers(0, n), max_size=30)))
    # mostly a <= b a few characters apart, sometimes b before a (a parser's odd pair)
    cut_ends = [a + draw(st.integers(-2, 6)) for a in cut_starts]
    ranges = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, 20)), max_size=8))
    protected = packer._merge_ranges([(s, s + w) for s, w in ranges])
    lo = draw(st.integers(-1, n))
    hi = draw(st.integers(lo, n + 3))
    return n, PositionsLevel("p", cut_starts, cut_ends), protected, lo, hi


@settings(max_examples=500, deadline=None)
@given(cases())
def test_guarded_positions_give_the_filtered_cuts(case):
    n, level, (ps, pe), lo, hi = case
    text = "x" * n
    fast = packer._guarded(level, ps, pe)
    slow = _filtered(level, ps, pe)
    if ps:
        assert type(fast) is packer._GuardedPositions
        assert (fast.name, fast.anchor, fast.windowable) == (slow.name, slow.anchor, slow.windowable)
    assert list(fast.cuts(text, lo, hi)) == list(slow.cuts(text, lo, hi))
    assert list(fast.cuts_reversed(text, lo, hi)) == list(slow.cuts_reversed(text, lo, hi))
    # the searches without generators: the first cut, and the last cut a piece can end at
    # (pieces trimmed: the text has spaces), as the engine's general search finds them
    spaced = ("ab  c " * n)[:n]
    assert merge._first_cut(spaced, fast, lo, hi) == merge._first_cut(spaced, slow, lo, hi)
    pos = max(lo, 0)
    for p in range(pos, min(hi, n) + 1):
        for trim_spans in (True, False):
            assert merge.last_cut(spaced, fast, pos, p, n, trim_spans) == merge.last_cut(
                spaced, slow, pos, p, n, trim_spans
            ), (pos, p, trim_spans)


def test_other_levels_keep_the_general_filter():
    guarded = packer._guarded(LINE, [3], [9])
    assert type(guarded) is FilteredLevel
    text = "ab\ncd\nef\ngh\nij"
    assert list(guarded.cuts(text, 0, len(text))) == [(2, 3), (11, 12)]
    assert packer._guarded(LINE, [], []) is LINE


def test_a_level_may_guard_itself():
    seen = []

    class Lazy:
        name = "lazy"

        def cuts(self, text, start, end):
            yield from ((a, a + 1) for a in (2, 5, 8) if start < a and a + 1 < end)

        def guarded(self, starts, ends):
            seen.append((list(starts), list(ends)))
            return _filtered(self, starts, ends)

    level = packer._guarded(Lazy(), [4], [7])
    assert seen == [([4], [7])]
    assert list(level.cuts("x" * 12, 0, 12)) == [(2, 3), (8, 9)]
    assert packer._guarded(Lazy(), [], []).name == "lazy" and seen == [([4], [7])]  # nothing to guard
