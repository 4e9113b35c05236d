"""The packer's fast paths give the spans of the general search they stand in for.

* :func:`chunkwise.merge._last_run_cut` (the paragraph and line levels, searched back
  from the budget by one regular expression) against the same levels read through the
  general whitespace search (an equal pattern that is not the same object takes it), for
  whole packs, with and without ``avoid`` (a paragraph break right after a title);
* :func:`chunkwise.titles.ends_with_title` and :func:`~chunkwise.titles.title_start`
  against the rule as first written (kept here as the oracle), and the underline test
  against its regular expression.
"""

from __future__ import annotations

import re
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from chunkwise import merge, titles
from chunkwise.boundaries import LINE, PARAGRAPH, RegexLevel
from chunkwise.chunkers.recursive import DEFAULT_LEVELS, RecursiveChunker
from chunkwise.sizers import get_sizer
from chunkwise.titles import ends_with_title, title_start

PIECES = [
    "a", "word", "Word", " ", "  ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", " \n \n ", "\n\t\n",
    "\u3000", "\u00a0", "\x1c", "\f", "\n\f\n", "\u2028", ".", ". ", "! ", "? ", ":", ") ", "e\u0301", " \u0301",
    "Title\n=====\n\n", "Sub\n---\n\n", "  ===\n", "# Head\n\n", "## Head?\n\n", "   # x\n", "Install\n\n",
    "dbus (1.14) unstable; urgency=medium\n\n", "+++\n", "x" * 30, "y " * 20, "\n" * 9, " " * 70,
]
texts = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)


def _clone(level: RegexLevel) -> RegexLevel:
    """The same level with an equal pattern that is another object: the general search."""
    twin = re.compile(level.pattern.pattern + "(?:)", level.pattern.flags)
    assert twin is not level.pattern
    return replace(level, pattern=twin)


def _general(levels):
    return [_clone(lv) if type(lv) is RegexLevel and lv.pattern in (PARAGRAPH.pattern, LINE.pattern) else lv for lv in levels]


def test_the_default_levels_take_the_fast_path():
    paragraph = DEFAULT_LEVELS[1]
    assert merge._runs_of(paragraph, True) is merge._BLANK_RUNS
    assert merge._runs_of(LINE, True) is merge._LINE_RUNS
    assert merge._runs_of(LINE, False) is None  # untrimmed spans: the general search
    assert merge._runs_of(_clone(paragraph), True) is None


@given(text=texts, budget=st.integers(1, 120), unit=st.sampled_from(["chars", "words"]))
def test_packs_match_the_general_search(text, budget, unit):
    measure = get_sizer(unit).measure(text)
    for levels in (DEFAULT_LEVELS, (PARAGRAPH, LINE), (replace(PARAGRAPH, avoid=ends_with_title), LINE)):
        fast = merge.pack(text, measure, budget, levels)
        assert fast == merge.pack(text, measure, budget, _general(levels))
        for s in fast:
            assert s.start < s.end and not text[s.start : s.end].isspace()


@given(text=texts, chunk_size=st.integers(8, 300), overlap=st.integers(0, 4))
def test_recursive_chunks_match_the_general_search(text, chunk_size, overlap):
    overlap = chunk_size * overlap // 10
    fast = RecursiveChunker(chunk_size=chunk_size, chunk_overlap=overlap)
    general = RecursiveChunker(chunk_size=chunk_size, chunk_overlap=overlap)
    object.__setattr__(general, "_levels", tuple(_general(DEFAULT_LEVELS)))
    got = fast.chunk(text)
    assert [(c.start_index, c.end_index, c.metadata["boundary"], c.id) for c in got] == [
        (c.start_index, c.end_index, c.metadata["boundary"], c.id) for c in general.chunk(text)
    ]
    for c in got:
        assert c.text == text[c.start_index : c.end_index]


# -- titles ------------------------------------------------------------------------------

_UNDERLINE = re.compile(r"[ ]{0,3}([=\-~^*#+])\1{2,}[ \t]*")


def _title_start_as_written(text: str, start: int, end: int) -> int:
    """:func:`title_start` as it was first written (one branch for every kind of line)."""
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    if end <= start:
        return -1
    ls = text.rfind("\n", max(start, end - 101), end) + 1
    if ls <= start:
        return -1
    head = ls
    underline = text[ls] in "=-~^*#+" or text[ls] == " "
    if not underline:
        k = ls - 2
        while k >= start and text[k] in " \t\r":
            k -= 1
        if k >= start and text[k] != "\n":
            return -1
    line = text[ls:end]
    if underline and _UNDERLINE.fullmatch(line):
        head = text.rfind("\n", max(start, ls - 102), ls - 1) + 1
        if head <= start or not text[head : ls - 1].strip():
            return -1
    elif not titles._ATX.match(line) and (text[end - 1] in titles._TITLE_END or not line.strip()):
        return -1
    k, breaks = head - 1, 0
    while k >= start and text[k].isspace():
        breaks += text[k] == "\n"
        k -= 1
    return head if breaks >= 2 else -1


def _ends_with_title_as_written(text: str, end: int) -> bool:
    k = end - 1
    while k >= 0 and text[k] in " \t\r":
        k -= 1
    if k < 0:
        return False
    if text[k] in titles._TITLE_END:
        ls = text.rfind("\n", max(0, k - 100), k + 1) + 1
        if titles._ATX.match(text, ls, k + 1) is None:
            return False
    if _title_start_as_written(text, max(0, end - 300), end) >= 0:
        return True
    if end > 300:
        return False
    ls = text.rfind("\n", 0, end) + 1
    if ls == 0 or not text[:ls].strip():
        return _title_start_as_written("\n\n" + text[:end], 0, end + 2) >= 0
    return False


def _same(got, oracle, *args) -> None:
    """``got(*args) == oracle(*args)``; where the oracle raised IndexError (an empty last
    line at the very end of the text, whose first character it read), no title."""
    try:
        expected = oracle(*args)
    except IndexError:
        expected = -1 if oracle is _title_start_as_written else False
    assert got(*args) == expected, args[1:]


@given(text=texts, data=st.data())
def test_titles_match_the_rule_as_written(text, data):
    end = data.draw(st.integers(0, len(text)))
    start = data.draw(st.integers(0, end))
    _same(ends_with_title, _ends_with_title_as_written, text, end)
    _same(title_start, _title_start_as_written, text, start, end)
    # every line end and every cut a pack makes, as the packer asks
    ends = [m.start() for m in re.finditer(r"\n", text)]
    ends += [s.end for s in merge.pack(text, get_sizer("chars").measure(text), 40, DEFAULT_LEVELS)]
    for e in ends:
        _same(ends_with_title, _ends_with_title_as_written, text, e)
        _same(title_start, _title_start_as_written, text, max(0, e - 300), e)


def test_an_empty_last_line_is_no_title():
    assert title_start("\n\n\n", 0, 3) == -1
    assert ends_with_title("\n\n", 1) is False


@given(line=st.text(alphabet=" \t=-~^*#+x\u00a0\r", max_size=12))
def test_underline_matches_its_regular_expression(line):
    assert titles._is_underline(line) == bool(_UNDERLINE.fullmatch(line))


# -- a cut inside the cluster that starts a piece -----------------------------------------


def _in_time(seconds, fn, *args):
    """``fn(*args)``, failing (not hanging) when it runs past ``seconds``."""
    import signal

    if not hasattr(signal, "SIGALRM"):  # (no alarm on this platform: no time limit)
        return fn(*args)

    def stop(signum, frame):
        raise AssertionError(f"still packing after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        return fn(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@given(
    text=st.lists(st.sampled_from(["x", "word", " ", "\n", "\n\n", "    code line\n", "\n\u0300\u0301", "\u0300"]), max_size=30)
    .map("".join)
    .map(lambda t: "x\n\n" + t),
    chunk_size=st.integers(4, 40),
    strategy=st.sampled_from(["markdown", "recursive"]),
)
def test_a_mark_on_the_whitespace_at_a_cut_does_not_stop_packing(text, chunk_size, strategy):
    # an indented code block's line cuts fall right after a line break followed by a
    # combining mark; trimming once kept the mark with its line break, so the piece after
    # the cut started where the piece before it did, and packing read that cut forever (in
    # the level's search, and in the cut between grapheme clusters below every level).
    # UAX #29 breaks after a line break (GB4/GB5): the marks are a cluster of their own.
    from chunkwise import chunk
    from chunkwise.sizers import CharSizer

    from invariants import check_invariants

    chunks = _in_time(20, lambda: chunk(text, strategy=strategy, chunk_size=chunk_size))
    check_invariants(text, chunks, chunk_size, CharSizer())


def test_the_mark_case_that_looped():
    from chunkwise import chunk

    text = "x\n\n    code one\n\u0300\u0301 combining at start word\n    code two\n"
    got = _in_time(20, lambda: [c.text for c in chunk(text, strategy="markdown", chunk_size=10)])
    assert got == [c.text for c in chunk(text, strategy="recursive", chunk_size=10)]
    assert "\u0300\u0301" in got  # the marks after the line break: a cluster of their own
    assert not any(t[0].isspace() for t in got)
