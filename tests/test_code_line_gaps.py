"""The line-gap search of the code parsers: the same spans as the regular expression it
replaces, found faster."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.parsers.code import _LINE_GAP, _line_cuts, _line_gaps

_TEXT = st.text(alphabet=" \t\f\v\r\n\x1c\x85\u2028\u00a0ab#\"'", max_size=40)


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.data())
def test_line_gaps_are_the_regex_matches(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert _line_gaps(text, start, end) == [m.span() for m in _LINE_GAP.finditer(text, start, end)]


def test_line_gaps_keep_the_spaces_before_a_break() -> None:
    text = "a  \n\n  b \r\n c\rd"
    assert _line_gaps(text, 0, len(text)) == [(1, 7), (8, 12), (13, 14)]
    # not before the start of the search
    assert _line_gaps(text, 2, len(text)) == [(2, 7), (8, 12), (13, 14)]
    # the whitespace after a break stops at the end
    assert _line_gaps(text, 0, 5) == [(1, 5)]


def _reference_cuts(text: str, opaque: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The line cuts as read with the regular expression's search."""
    from bisect import bisect_right

    dark = sorted((s, e, e > 0 and not text[e - 1].isspace()) for s, e in opaque)
    starts = [d[0] for d in dark]
    out = []
    pos = start
    while (m := _LINE_GAP.search(text, pos, end)) is not None:
        a, b = m.span()
        pos = b
        k = bisect_right(starts, a) - 1
        if k >= 0 and dark[k][0] < a < dark[k][1]:
            if dark[k][2]:
                pos = max(b, dark[k][1])
            continue
        if b >= end:
            break
        if a > start:
            out.append((a, b))
    return out


def test_line_cuts_skip_strings_as_before() -> None:
    text = 'x = 1  \n\ns = """doc\n  more \n"""\n  \ny = 2\n\tz = 3 \r\n'
    opaque = [(text.index('"""'), text.rindex('"""') + 3)]
    cuts = _line_cuts(text, opaque)
    for start in range(len(text) + 1):
        for end in range(start, len(text) + 1):
            assert list(cuts(start, end)) == _reference_cuts(text, opaque, start, end)
    assert list(cuts(0, len(text))) == [(5, 9), (31, 35), (40, 42)]
