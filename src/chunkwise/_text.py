"""Small text helpers shared by every stage: whitespace trimming and grapheme clusters.

Offsets are Python ``str`` indices (code points). A *grapheme cluster* is a
user-perceived character (Unicode UAX #29 extended grapheme cluster): an emoji ZWJ
sequence, a letter with its combining marks, CR LF. Chunk boundaries never fall inside
one. Clusters are found with the ``regex`` module's ``\\X``, only around the places where
a cut is made, so long documents are never segmented whole.
"""

from __future__ import annotations

import unicodedata
from typing import Any

_EXTEND_CATEGORIES = frozenset({"Mn", "Me", "Mc"})


def is_extender(ch: str) -> bool:
    """Whether ``ch`` attaches to the character before it (no cluster boundary before it).

    True for combining marks (Mn, Me, Mc), ZERO WIDTH JOINER, emoji skin-tone modifiers
    and the variation selectors (which are Mn).
    """
    if ch < "\u0300":
        return False
    if ch == "\u200d" or "\U0001f3fb" <= ch <= "\U0001f3ff":
        return True
    return unicodedata.category(ch) in _EXTEND_CATEGORIES


def carries_marks(ch: str) -> bool:
    """Whether a combining mark after the whitespace ``ch`` attaches to it (UAX #29 GB9).

    True for the space separators (category Zs: SPACE, NO-BREAK SPACE, ...). False for
    the whitespace that is a line break or a control character (CR, LF, TAB, FF, VT,
    U+001C..U+001F, NEL, LINE/PARAGRAPH SEPARATOR): UAX #29 GB4/GB5 always break after
    those, so a mark that follows one starts a cluster of its own.
    """
    return ch == " " or (ch > "\x7f" and unicodedata.category(ch) == "Zs")


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` to begin and end on a non-whitespace grapheme cluster.

    Only offsets move, never text. Returns ``(start, end)`` with ``start >= end`` when the
    span holds only whitespace. A whitespace character that carries a combining mark is
    the base of a visible cluster and is kept, unless it is a line break or control
    character, after which the mark begins a cluster of its own (:func:`carries_marks`).
    """
    while start < end and text[start].isspace():
        start += 1
    if start < end and start > 0 and carries_marks(text[start - 1]) and is_extender(text[start]):
        start -= 1  # the mark sits on the whitespace before it: keep the cluster whole
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def trim_end(text: str, start: int, end: int) -> int:
    """``end`` moved back over whitespace, not below ``start`` (where a piece that a cut
    at ``end`` closes really ends)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _cluster_pattern() -> Any:
    """``\\X``: UAX #29 extended grapheme clusters (the regex module caches compiled
    patterns itself)."""
    import regex

    return regex.compile(r"\X", regex.DOTALL)


def _safe_boundary(text: str, i: int) -> bool:
    """A cheap sufficient test: two ASCII characters other than CR LF never share a cluster."""
    a, b = text[i - 1], text[i]
    return a < "\x80" and b < "\x80" and not (a == "\r" and b == "\n")


def grapheme_floor(text: str, pos: int, low: int) -> int:
    """The largest grapheme cluster boundary ``b`` with ``low <= b <= pos``.

    ``low`` must itself be a cluster boundary. Runs in time proportional to ``pos - low``
    at worst, and in constant time where ``pos`` sits between two ASCII characters.
    """
    if pos >= len(text):
        return len(text)
    if pos <= low:
        return low
    if _safe_boundary(text, pos):
        return pos
    scan = pos - 1  # walk back to a place that is surely a boundary, then segment forward
    while scan > low and not _safe_boundary(text, scan):
        scan -= 1
    best = scan
    for m in _cluster_pattern().finditer(text, scan, len(text)):
        if m.end() > pos:
            break
        best = m.end()
    return best


def grapheme_ceil(text: str, pos: int, high: int) -> int:
    """The smallest grapheme cluster boundary ``b`` with ``pos <= b``, capped at ``high``."""
    if pos >= high:
        return high
    if pos <= 0 or _safe_boundary(text, pos):
        return max(pos, 0)
    scan = pos - 1
    while scan > 0 and not _safe_boundary(text, scan):
        scan -= 1
    for m in _cluster_pattern().finditer(text, scan, len(text)):
        if m.end() >= pos:
            return min(m.end(), high)
    return high


def first_cluster_end(text: str, start: int, end: int) -> int:
    """End of the grapheme cluster that begins at ``start`` (at most ``end``)."""
    if start + 1 < len(text) and _safe_boundary(text, start + 1):
        return min(start + 1, end)
    m = _cluster_pattern().match(text, start, len(text))
    return min(m.end() if m else start + 1, end)
