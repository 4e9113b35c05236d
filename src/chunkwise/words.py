"""Word boundaries in scripts written without spaces: Thai, Lao, Khmer, Burmese, Chinese,
Japanese.

The merge engine cuts a piece that is too big at whitespace first (the ``word`` level of
:mod:`chunkwise.boundaries`); a run of these scripts has no whitespace inside a sentence,
so without a dictionary it would be cut at grapheme clusters, mid-word. :data:`DICTIONARY_WORDS`
is the level just below whitespace: the word boundaries that ICU's dictionary-based break
iterator finds, kept only where a character of those scripts touches the boundary (so a long
URL or identifier in Latin letters is still cut as before). The engine places it right after
the whitespace level of every strategy that has one.

It needs the optional ``icu4py`` package (``pip install 'chunkwise[words]'``): without it,
or on text ICU cannot read (a lone surrogate), the level yields no cut and the engine falls
back to grapheme clusters, as it always did.

Why ICU through ``icu4py`` (``benchmarks/bench_words.py``; figures in BENCHMARKS.md): one
library divides all six scripts with ICU's own dictionaries (Thai, Lao, Khmer, Burmese,
CJK); its wheel bundles ICU (PyICU has no wheel and needs the system's ICU headers); it was
the fastest by far (Thai: 18 MB/s on a loaded machine, 25x BudouX). BudouX (0.3 MB) covers
only Japanese, Chinese and Thai, and divides Japanese into phrases (41% of the word
boundaries); pythainlp covers Thai only (69 MB installed); uniseg applies the UAX #29 rules
without dictionaries, so it divides Thai between letters. The cost is size: 44 MB
installed, hence an extra.

Offsets: ICU counts UTF-16 code units; the boundaries here are summed from the lengths of
the segments ICU returns as Python strings, so they are ``str`` indices (code points) even
beyond the Basic Multilingual Plane.

Method:
    ICU ``BreakIterator`` word instance (Unicode UAX #29 word boundaries with ICU's
    dictionary break engines for Thai, Lao, Khmer, Burmese and CJK).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

__all__ = ["DICTIONARY_WORDS", "DictionaryWordLevel", "dictionary_word_cuts", "has_spaceless_script"]

# scripts written without spaces between words that ICU has dictionaries for
_SPACELESS = r"[\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Han}\p{Hiragana}\p{Katakana}]"


def _spaceless() -> Any:
    """The compiled class of those scripts (the ``regex`` module caches it)."""
    import regex

    return regex.compile(_SPACELESS)


def has_spaceless_script(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds a character of a script written without spaces
    (Thai, Lao, Khmer, Burmese, Han, Hiragana, Katakana)."""
    return _spaceless().search(text, start, len(text) if end is None else end) is not None


def _word_breaker() -> Any:
    """ICU's word break iterator class, or None when ``icu4py`` is not installed."""
    try:
        from icu4py.breakers import WordBreaker
    except ImportError:
        return None
    return WordBreaker


def dictionary_word_cuts(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Word boundaries inside ``text[start:end]`` that touch a character of a script
    written without spaces, as zero-width cuts ``(a, a)`` with ``start < a < end``, in
    order (``str`` offsets).

    Nothing when the span holds none of those scripts, when ``icu4py`` is missing, or
    when ICU cannot read the text (lone surrogates).

    Example (with ``icu4py`` installed):
        >>> text = "ภาษาไทยเป็นภาษา"
        >>> cuts = [a for a, _ in dictionary_word_cuts(text)]
        >>> [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
        ['ภาษา', 'ไทย', 'เป็น', 'ภาษา']
    """
    end = len(text) if end is None else end
    if start >= end or not has_spaceless_script(text, start, end):
        return
    breaker = _word_breaker()
    if breaker is None:
        return
    try:
        words = list(breaker(text[start:end], "und"))
    except (UnicodeError, ValueError):  # a lone surrogate: no dictionary cuts
        return
    spaceless = _spaceless().match
    for a in accumulate(map(len, words), initial=start):
        if start < a < end and (spaceless(text, a - 1) or spaceless(text, a)):
            yield a, a


@dataclass(frozen=True)
class DictionaryWordLevel:
    """The boundary level of :func:`dictionary_word_cuts`, named ``"word"`` (a chunk cut
    there ends at a word, as at a space).

    Not windowable: a dictionary reads a word from its context, so the engine reads the
    span from the chunk's start; with estimated sizes (tokens) it reads each piece once.
    """

    name: str = "word"
    windowable = False
    precompute = True

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        return dictionary_word_cuts(text, start, end)


DICTIONARY_WORDS = DictionaryWordLevel()
