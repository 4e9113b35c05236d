"""Rule-based sentence segmentation with exact offsets, for every script.

:func:`sentence_cuts` finds sentence boundaries in ``text[start:end]`` and yields them as
cuts ``(a, b)``: the sentence before ends at ``a`` (after its terminator and any closing
quotes, brackets or bidirectional controls), the next begins at ``b`` (after the
whitespace). :class:`SentenceSegmenter` returns sentence spans.

Terminators come from Unicode, not from a hand list: every ``Sentence_Terminal``
character (``. ! ?``, the Devanagari and Bengali danda ``। ॥``, Arabic and Urdu ``؟ ۔``,
Armenian ``։``, Ethiopic ``። ፧``, Burmese ``။``, Khmer ``។``, Mongolian ``᠃``, CJK
``。！？``, ...), and the ``Terminal_Punctuation`` characters that end a sentence in their
script: Tibetan shads ``། ༎``, the Greek question mark (U+037E, and ``;`` after a Greek
letter, as Greek is written), the Hebrew sof pasuq ``׃``, Thai ``๚ ๛``. Two exceptions are
left out on purpose: the Burmese little section ``၊`` (a comma in use) and the fullwidth
full stop ``．`` (also a decimal point in fullwidth numbers) end a sentence only before
whitespace. Terminators of scripts written without spaces (CJK, Burmese, Khmer, Tibetan,
Thai, Lao, Balinese, Javanese) end a sentence with no whitespace after them; the others
need whitespace (or a line end) after them, as ``.`` does.

Rules for the full stop and ``! ?`` (chosen against pysbd's golden rules, see
``benchmarks/``): a sentence ends at ``. ! ? …`` (runs of them, and ``?!``) followed by
closing quotes/brackets and whitespace; also before a list item on a new line and at a
blank line. It does not end after a title or common abbreviation (Dr., Mr., e.g., i.e.,
vs., Fig., No. 5), after a single capital initial (J. K.), after a list number at the
start of a line, indented or not ("  0. Definitions."), inside a number (2.5 mg), URL or
e-mail address (no whitespace follows
their dots), or, after an ellipsis, ``!`` or ``?`` (any terminator but the full stop),
when the next word starts lower-case ("Wait... what"). Spaced dots (". . .") are one
ellipsis. A dot leader ends no sentence: four or more dots, spaced or not, before the page
numbers that end the line, as in a table of contents or an index ("Naming . . . . 3",
"Encodings ..... 4, 27"); the entry ends at that line end instead. A plain period ends a sentence
before a lower-case word too (lower-case prose is common in scraped corpora). Ambiguous
abbreviations (etc., Inc., St., U.S., p.m.) end a sentence only before a capitalised word
that commonly starts one (The, It, In, ...) or a line break. A number after a word that
takes one (section, §, chapter, article, item, note, figure, page, ...) ends a sentence
only before a word that is not lower-case ("see section 7. for" goes on; "section 7.
This" ends). Such a number wrapped onto the start of the next line ("under section\n
7.  This") is no list item: the line break is not a cut, unless the line before starts
with a list marker itself ("1. First item\n2. Second item" is a list).

The character classes are Unicode properties of the ``regex`` module (imported on first
use, so ``import chunkwise`` stays light; the module caches the compiled pattern).

Method:
    Unicode UAX #29 (sentence boundaries) for the terminator classes; the abbreviation
    rules follow pysbd's golden rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["SentenceSegmenter", "sentence_cuts", "split_sentences"]

# closing quotes and brackets, and the bidirectional controls that close an embedded
# run (LRM, RLM, PDF, PDI, ...): they stay with the sentence they close
_CLOSERS = "\"'”’»)\\]}」』】〕〉》\\p{Pe}\\p{Pf}\u200e\u200f\u202a-\u202e\u2066-\u2069"
_TERMINATORS = "\\p{Sentence_Terminal}\u0f0d-\u0f12\u0e5a\u0e5b\u037e\u05c3\u2026"
# scripts written without spaces between sentences (their blocks)
_TIGHT_BLOCKS = (
    "\\p{Block=CJK_Symbols_And_Punctuation}\\p{Block=Halfwidth_And_Fullwidth_Forms}"
    "\\p{Block=Vertical_Forms}\\p{Block=Myanmar}\\p{Block=Khmer}\\p{Block=Tibetan}"
    "\\p{Block=Thai}\\p{Block=Lao}\\p{Block=Balinese}\\p{Block=Javanese}"
)
_EXCLUDED = "\u104a\uff0e"  # Burmese little section (a comma); fullwidth full stop (decimals)
_TIGHT = f"[[{_TERMINATORS}]&&[{_TIGHT_BLOCKS}]--[{_EXCLUDED}]]"
_WEST = f"[[{_TERMINATORS}]--{_TIGHT}--[\u104a]]"


@lru_cache(maxsize=1)
def _candidates() -> re.Pattern[str]:
    """The candidate pattern, built once: the Unicode classes are listed with the
    ``regex`` module and written out as plain ``re`` sets, which the standard engine
    scans about twice as fast as the ``regex`` module scans its property sets.

    A candidate starts at a terminator, a ``;`` (Greek question mark) or a line break.
    The pattern begins with that character class, so the engine skips to the characters
    that can start a candidate with its fast character-set scan (about 3x faster than a
    leading lookahead, 10x faster than the bare alternation); the lookbehind after it
    says which kind it is.
    """
    import regex

    # every class here lies below U+20000; joined in blocks of 4096 characters, since one
    # join over all of them holds 131,072 one-character strings at once (12 MB, the peak
    # memory of chunking a 134-page PDF)
    every = "".join(["".join(map(chr, range(i, i + 0x1000))) for i in range(0, 0x20000, 0x1000)])

    def listed(cls: str) -> str:
        return "".join(re.escape(c) for c in regex.findall(f"(?V1){cls}", every))

    # the first set holds the terminators of the Basic Multilingual Plane and every
    # character beyond it as one range: a set that lists characters beyond the plane is
    # scanned 20x slower by ``re``; the lookbehinds say which of those are terminators
    def split(cls: str) -> str:  # the set's BMP part, then the rest as a second set
        bmp, rest = listed(f"[{cls}&&[\\x00-\\uffff]]"), listed(f"[{cls}--[\\x00-\\uffff]]")
        return f"[{bmp}]|[{rest}]" if rest else f"[{bmp}]"

    terminators = listed(f"[[{_TERMINATORS}]&&[\\x00-\\uffff]]")
    tight, west, closers = split(_TIGHT), split(_WEST), listed(f"[{_CLOSERS}]")
    return re.compile(
        f"[{terminators};\n\U00010000-\U0010ffff](?:"
        f"(?<=;|{west})(?P<west>(?:{west})*)[{closers}]*(?P<ws>\\s+|\\Z)"
        f"|(?<={tight})(?P<cjk>(?:{tight})*[{closers}]*\\s*)"
        "|(?<=\n)(?P<para>[^\\S\n]*\n\\s*)"
        "|(?<=\n)(?P<item>[^\\S\n]*(?=(?:[-*+•‣◦]|\\d{1,3}[.)]|[a-zA-Z][.)])[^\\S\n]))"
        ")"
    )


def _greek_before(text: str, pos: int) -> bool:
    """Whether a Greek letter (with any combining marks) comes right before ``pos``."""
    k = pos - 1
    while k >= 0 and "\u0300" <= text[k] <= "\u036f":
        k -= 1
    return k >= 0 and ("\u0370" <= text[k] <= "\u03ff" or "\u1f00" <= text[k] <= "\u1fff") and text[k].isalpha()


# never the end of a sentence
_NEVER = frozenset(
    """mr mrs ms mx dr prof sr jr rev hon gen col capt lt sgt cpl maj adm gov pres
    fr sen rep mt ft e.g i.e cf vs v viz al approx fig figs eq eqs ref refs vol vols ch chap
    sec sect art no nos pp p para ed eds dept est ca resp incl esp tel ext op""".split()
)
# end a sentence only before a word that commonly starts one ("U.S. Army" goes on,
# "in the U.S. The next" ends)
_MAYBE = frozenset("st etc inc ltd co corp llc plc bros u.s u.k u.n e.u a.m p.m jan feb mar apr jun jul aug sep sept oct nov dec".split())
_STARTERS = frozenset(
    """a an the this that these those there then thus however but it its he she
    they we i you his her their our my in on at for from as after before when while if
    although because since during what who why how where which one some many most all no
    yes also meanwhile today later finally first second next""".split()
)


# the next dot of a spaced run: a dot that whitespace, another dot or the end follows
_SPACED_DOT = re.compile("[.\u2026](?=[.\u2026]|\\s|\\Z)")
# the page numbers that end a line after a dot leader: 12, iv, A-3, 3-12, "4, 27, 31"
_PAGE = "(?:(?:[A-Z]-?)?\\d{1,4}(?:[-\u2013]\\d{1,4})?|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})"
_PAGE_NUMBER = re.compile(f"{_PAGE}(?:,[^\\S\\n]*{_PAGE})*[^\\S\\n]*(?:\\n|\\Z)")
_FILL = ". \t\u00a0\u2026"  # what a run of dots is made of
# what may stand between a leader's last dot and its line end: blanks and page numbers
_PAGE_CHARS = frozenset("0123456789ivxlcdmABCDEFGHIJKLMNOPQRSTUVWXYZ,-\u2013 \t\u00a0\r\f\v")
_SPACES = re.compile("\\s*")


def _dots_before(text: str, pos: int) -> int:
    """How many dots come right before ``pos``, spaces between them allowed (". . ."),
    up to a line break or another character; an ellipsis character counts as three.
    Counted up to 4 (what a leader needs), over 64 characters at most."""
    n = 0
    k = pos - 1
    stop = max(-1, pos - 65)
    while k > stop and n < 4:
        c = text[k]
        if c == ".":
            n += 1
        elif c == "\u2026":
            n += 3
        elif c not in _FILL:
            break
        k -= 1
    return n


def _line_end(text: str, e: int, end: int) -> tuple[int, int] | None:
    """The cut at the line break just before ``e`` (it takes the whitespace after it, as
    a blank line's cut does), or None at the end of the text or of the span."""
    if e > end or text[e - 1] != "\n":
        return None
    b = _SPACES.match(text, e, end).end()
    return (e - 1, b) if b < end else None


def _entry_before(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The end of a table of contents entry whose dot leader lies before ``start`` and
    whose page numbers reach it (a span that starts inside ``". . . . 12"``), or None: the
    cut :func:`_cut` finds at the leader's last dot, where the span cannot see it."""
    k = start - 1
    stop = max(-1, start - 65)
    while k > stop and text[k] in _PAGE_CHARS:
        k -= 1
    if k < 0 or text[k] not in ".\u2026":
        return None
    m = _candidates().match(text, k, end)
    if m is None or m.lastgroup != "ws":
        return None
    cut = _cut(text, m, start, end)
    return cut if cut is not None and cut[0] > start and text[cut[0]] == "\n" and cut[0] > m.end() else None


def _word_before(text: str, pos: int) -> str:
    """The run of non-whitespace before ``pos`` (at most 40 characters back)."""
    w = text[max(0, pos - 40) : pos]
    return "" if not w or w[-1].isspace() else w.rsplit(None, 1)[-1]


def _word_after(text: str, pos: int) -> str:
    """The letters at ``pos`` (at most 20)."""
    end = pos
    limit = min(len(text), pos + 20)
    while end < limit and text[end].isalpha():
        end += 1
    return text[pos:end]


# words that a number follows as part of a reference ("section 7", "§ 2", "Figure 3"):
# a number after one ends no sentence before a lower-case word, and one wrapped onto a
# new line after one is no list item
_REFERENCES = frozenset(
    """section sections sec sect subsection subsections § §§ ¶ chapter chapters chap article articles
    art item items paragraph paragraphs para subparagraph clause clauses part parts figure figures
    fig figs table tables page pages pp p step steps rule rules appendix appendices annex
    volume volumes vol note notes exhibit schedule version line lines title act""".split()
)
# what may also stand before a wrapped number of a reference ("sections 4 and\n 5.")
_JOINS = frozenset("and or to through of".split())
# a line that starts with a list marker
_LIST_LINE = re.compile("[^\\S\n]*(?:[-*+\u2022\u2023\u25e6]|\\d{1,3}[.)]|[a-zA-Z][.)])[^\\S\n]")


def _at_line_start(text: str, pos: int) -> bool:
    """Whether only spaces and tabs stand between the start of the line and ``pos``."""
    k = pos
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    return k == 0 or text[k - 1] in "\n\r"


def _word_ending(text: str, pos: int) -> str:
    """The word that ends before ``pos``, whitespace (line breaks too) before ``pos``
    skipped; lower-case, without the trailing punctuation of a word (at most 40
    characters back)."""
    k = pos
    stop = max(0, pos - 40)
    while k > stop and text[k - 1].isspace():
        k -= 1
    return _word_before(text, k).lower()


def _continues(text: str, pos: int) -> bool:
    """Whether the number at ``pos``, at the start of a line, carries on the line before:
    that line ends with a word a number follows ("section", "§", "and") and is no list
    item itself ("1. First item" then "2. Second item" is a list)."""
    k = pos
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    if k == 0:
        return False
    word = _word_ending(text, k)
    if word not in _REFERENCES and word not in _JOINS:
        return False
    k -= 1  # the line break
    if k > 0 and text[k] == "\n" and text[k - 1] == "\r":
        k -= 1
    line = text.rfind("\n", 0, k) + 1
    return _LIST_LINE.match(text, line, k) is None


def _reference_before(text: str, pos: int) -> bool:
    """Whether a word a number follows ("section", "§", "Figure") stands right before
    the number at ``pos``."""
    return _word_ending(text, pos) in _REFERENCES


def _cut(text: str, m: Any, start: int, end: int) -> tuple[int, int] | None:
    """The cut that the candidate ``m`` makes inside ``text[start:end]``, or None."""
    kind = m.lastgroup
    if kind == "ws":  # . ! ? … then whitespace
        a, b = m.span("ws")
        if b >= end:
            return None  # end of the span: nothing to cut
        west_start, west_end = m.start(), m.end("west")
        if text[west_start] == ";" and not _greek_before(text, west_start):
            if west_end - west_start == 1:
                return None  # a semicolon, except as the Greek question mark
            west_start += 1  # ";." : the terminators after it
        nxt = text[b]
        if nxt in ".\u2026" and "\n" not in text[a:b] and _SPACED_DOT.match(text, b):
            return None  # a run of spaced dots goes on: ". . . .", "Why? . . . . 3"
        if text[west_end - 1] in ".\u2026":  # the run ends with a dot: an ellipsis or a leader?
            if west_end - west_start > 1 or text[west_start - 1 : west_start] in _FILL:
                dots = _dots_before(text, west_end)
            else:
                dots = 3 if text[west_start] == "\u2026" else 1
            if dots >= 4 and a == west_end and "\n" not in text[a:b]:
                page = _PAGE_NUMBER.match(text, b)
                if page is not None:
                    # a dot leader ("Naming . . . . 3", "Contents ..... iv") ends no sentence:
                    # the entry of a table of contents ends at the end of its line
                    return _line_end(text, page.end(), end)
            if dots > 1 and west_end - west_start == 1:  # the last dot of ". . ." : an ellipsis
                return None if nxt.islower() else (a, b)
        if west_end - west_start != 1 or text[west_start] != ".":
            if nxt.islower():
                return None  # "Wait... what", "Yahoo! is"
            return a, b
        word = _word_before(text, west_start).lower().lstrip("\"'“‘([{")
        if word in _NEVER:
            return None
        if len(word) == 1 and word.isalpha():
            return None  # an initial: "J. K. Rowling"
        if word.isdigit():
            n_start = west_start - len(word)
            if len(word) <= 3 and _at_line_start(text, n_start) and not _continues(text, n_start):
                return None  # "1. First", "  0. Definitions." at the start of a line: a list number
            if nxt.islower() and _reference_before(text, n_start):
                return None  # "see section 7. for", "§ 2. a": a reference, not a sentence end
        if word in _MAYBE or ("." in word and word.replace(".", "").isalpha()):
            if "\n" not in text[a:b] and not (nxt.isupper() and _word_after(text, b).lower() in _STARTERS):
                return None
        return a, b
    if kind == "cjk":  # CJK terminator: the cut is after it and its closers
        a = b = m.end()
        while a > m.start() and text[a - 1].isspace():
            a -= 1
        return (a, b) if start < a and b < end else None
    # a blank line, or a line break before a list item
    a, b = m.span()
    if kind == "item" and text[b].isdigit() and _continues(text, b):
        return None  # "under section\n    7.  This": the number of a reference, wrapped
    return (a, b) if start < a and b < end else None


def sentence_cuts(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Sentence boundaries inside ``text[start:end]`` as cuts ``(a, b)``, in order.

    ``text[a:b]`` is the whitespace between two sentences (empty after a CJK terminator).

    Example:
        >>> t = "Dr. Lee paid 2.5 dollars. She left."
        >>> [(a, b) for a, b in sentence_cuts(t)]
        [(25, 26)]
    """
    end = len(text) if end is None else end
    last = start  # the last cut's start: a leader's cut and its line break's are one
    first = _entry_before(text, start, end) if start else None
    if first is not None:
        last = first[0]
        yield first
    for m in _candidates().finditer(text, start, end):
        cut = _cut(text, m, start, end)
        if cut is not None and cut[0] > last:
            last = cut[0]
            yield cut


def sentence_cuts_reversed(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """The cuts of :func:`sentence_cuts`, last first: the candidates are listed by the
    regular expression, and only those read before the caller stops are checked."""
    end = len(text) if end is None else end
    found = list(_candidates().finditer(text, start, end))
    last = end + 1  # the last cut's start: a leader's cut and its line break's are one
    for m in reversed(found):
        cut = _cut(text, m, start, end)
        if cut is not None and cut[0] < last:
            last = cut[0]
            yield cut
    first = _entry_before(text, start, end) if start else None
    if first is not None and first[0] < last:
        yield first


def split_sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` of ``text[start:end]``, trimmed of whitespace.

    Example:
        >>> t = "Ms. Ortiz paid 3.5 units. She left. 你好。再见！"
        >>> [t[a:b] for a, b in split_sentences(t)]
        ['Ms. Ortiz paid 3.5 units.', 'She left.', '你好。', '再见！']
    """
    from ._text import trim

    end = len(text) if end is None else end
    out: list[tuple[int, int]] = []
    prev = start
    for a, b in sentence_cuts(text, start, end):
        s, e = trim(text, prev, a)
        if s < e:
            out.append((s, e))
        prev = b
    s, e = trim(text, prev, end)
    if s < e:
        out.append((s, e))
    return out


@dataclass(frozen=True)
class SentenceSegmenter:
    """Sentence segmentation as a boundary level (name ``"sentence"``) for the engine."""

    name: str = "sentence"
    windowable = True  # a cut depends on the text around it, not on where the search starts
    precompute = True  # each candidate costs Python work: the engine reads a span once

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        return sentence_cuts(text, start, end)

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        return sentence_cuts_reversed(text, start, end)

    def split(self, text: str) -> list[tuple[int, int]]:
        """Sentence spans of the whole text."""
        return split_sentences(text)
