"""Heading-like lines in any text: where a chunk should start, never end.

Plain text, reStructuredText, changelogs and Markdown read by a non-Markdown strategy
all have titles: an ATX heading line (``# Title``), a title with an underline
(``Title`` / ``=====``), or a short line alone in its paragraph that does not end like a
sentence (``dbus (1.14.10-1) unstable; urgency=medium``). A cut right after one leaves a
chunk that ends with the title of the next one.

Two mechanisms use these rules, at two moments, and neither does the other's work:

* while cutting: the ``recursive`` strategy's paragraph level has ``avoid=ends_with_title``
  (:class:`chunkwise.boundaries.RegexLevel`), so the packer takes a paragraph break right
  after a title only when no other cut of that level fits -- one strategy, one level,
  every region, with or without ``balance``;
* after cutting: ``packer._lift_headings`` moves a title that still ends a chunk to the
  start of the next one when that one can take it -- every strategy whose chunks are
  evened out (``balance``, trimmed spans), whatever level made the cut, using
  :func:`ends_with_title` as a cheap filter and :func:`title_start` (the title inside
  the chunk, after a blank line) for where to cut.

Both are asked at every paragraph break the packer weighs, so the common answers come
first, from a few characters: a line that ends like a sentence and has no ``#`` near its
start is no title; a line that cannot be an underline (it does not end with a mark)
right after a blank line is one. The rest goes through the whole rule.
``tests/test_titles_oracle.py`` holds the rule as it was before these shortcuts and
compares both answers at every line end of real documents and every position of
generated text.
"""

from __future__ import annotations

import re

__all__ = ["ends_with_title", "title_start"]

_TITLE_END = frozenset(".!?;:,)]}\"'\u3002\uff01\uff1f")
_ATX = re.compile(r"[ ]{0,3}#{1,6}[ \t]")
_UNDERLINE = re.compile(r"[ ]{0,3}([=\-~^*#+])\1{2,}[ \t]*")
_UNDERLINE_FIRST = frozenset("=-~^*#+")
_MAX_TITLE = 100  # characters
_SPACED_HASH = ("#", " #", "  #")  # after a space: an ATX heading's start


def title_start(text: str, start: int, end: int) -> int:
    """Where a heading-like paragraph that ends ``text[start:end]`` begins, or -1.

    ``end`` is the end of the paragraph (trailing whitespace excluded); the title must
    be preceded by a blank line inside ``[start, end)`` (so a text that is all title
    gives -1).

    Example:
        >>> text = "Some text.\\n\\nInstall\\n\\nRun it."
        >>> title_start(text, 0, 19), title_start(text, 0, 10)
        (12, -1)
    """
    while end > start and text[end - 1] in " \t\r":
        end -= 1
    if end <= start:
        return -1
    # a title line is short: look for its start no further back than that
    lo = end - _MAX_TITLE - 1 if end - _MAX_TITLE - 1 > start else start
    last = text[end - 1]
    if last in _TITLE_END and text.find("#", lo, end) < 0:
        return -1  # ends like a sentence, and no ATX heading (it has a "#") can be there
    ls = text.rfind("\n", lo, end) + 1
    if ls <= start or ls == end:  # (an empty last line: no title)
        return -1
    c = text[ls]
    if c not in _UNDERLINE_FIRST and c != " ":
        # neither an underline nor an ATX heading (both start with one of those): the
        # common rejection first, the line before is not blank
        k = ls - 2
        while k >= start and text[k] in " \t\r":
            k -= 1
        if k < start or text[k] != "\n":
            # a blank line before the title needs a second line break inside the span
            return -1
        if last in _TITLE_END or (c.isspace() and text[ls:end].isspace()):
            return -1  # ends like a sentence, or a blank line
        return ls  # the two line breaks at ``k`` and ``ls - 1``: a blank line before it
    if last in _UNDERLINE_FIRST:
        head = _underline_title(text, start, ls, end, last)
        if head != -2:
            return head
    # no underline: the line itself is the title, after a blank line
    k = ls - 2
    if k < start or not text[k].isspace():
        return -1  # the common rejection first: the line before is not blank
    if last in _TITLE_END:
        # ends like a sentence: a title only on an ATX heading line ("#" after up to
        # three spaces, looked for before the regular expression is run)
        if (c != "#" and not text.startswith(_SPACED_HASH, ls + 1)) or _ATX.match(text, ls, end) is None:
            return -1
    elif last.isspace() and text[ls:end].isspace():
        return -1  # a blank line (no ATX heading: that has a "#")
    return ls if _blank_before(text, start, k) else -1


def _blank_before(text: str, start: int, k: int) -> bool:
    """Whether the whitespace that ends at ``k`` (inside ``[start, ...)``) holds a line
    break, which with the one after ``k`` makes a blank line."""
    if k < start or not text[k].isspace():
        return False
    if text[k] == "\n":
        return True
    while k >= start and text[k].isspace():
        if text[k] == "\n":
            return True
        k -= 1
    return False


def _underline_title(text: str, start: int, ls: int, end: int, mark: str) -> int:
    """When ``text[ls:end]`` is an underline (up to three spaces, then ``mark``, which is
    ``text[end - 1]``, three times or more), the start of the title line above it when
    that line is not blank and a blank line comes before it, else -1; -2 when the line
    is no underline. Read without a copy of the line."""
    i = ls
    while text[i] == " " and i - ls < 4:
        i += 1
    if i - ls > 3 or end - i < 3 or text.count(mark, i, end) != end - i:
        return -2
    # "Title" / "=====": the title is the line before
    head = text.rfind("\n", ls - _MAX_TITLE - 2 if ls - _MAX_TITLE - 2 > start else start, ls - 1) + 1
    if head <= start or head == ls - 1:
        return -1
    if text[ls - 2].isspace() and not text[head : ls - 1].strip():
        return -1  # (a title line that ends with no space is not blank: read at once)
    k = head - 2
    if k < start:
        return -1
    c = text[k]
    if c == "\n":
        return head  # (the common case: a blank line at once)
    return head if c.isspace() and _blank_before(text, start, k) else -1


def _is_underline(line: str) -> bool:
    """``_UNDERLINE.fullmatch(line)`` without the regular expression (a back-reference
    repeated is slow to match): up to three spaces, one of ``=-~^*#+`` three times or
    more, spaces and tabs."""
    body = line.lstrip(" ")
    if len(line) - len(body) > 3:
        return False
    body = body.rstrip(" \t")
    return len(body) >= 3 and body[0] in _UNDERLINE_FIRST and not body.strip(body[0])


def ends_with_title(text: str, end: int) -> bool:
    """Whether the paragraph ending at ``end`` is a title (heading-like, see the module
    docstring), at the start of the text or after a blank line.

    Example:
        >>> ends_with_title("Install\\n\\nRun it.", 7), ends_with_title("Run it.", 7)
        (True, False)
    """
    if end <= 0:
        return False
    k = end - 1
    last = text[k]
    if last in " \t\r":
        while k >= 0 and text[k] in " \t\r":
            k -= 1
        if k < 0:
            return False
        last = text[k]
    if last in _TITLE_END:
        # ends like a sentence (the common case): a title only on an ATX heading line,
        # which has a "#" after up to three spaces (looked for before the regular
        # expression is run): none in the window read, none there (a window without a
        # line break reads the text's first line, then finds no title: no line start)
        lo = k - _MAX_TITLE if k > _MAX_TITLE else 0
        if text.find("#", lo, k + 1) < 0:
            return False
        ls = text.rfind("\n", lo, k + 1) + 1
        c = text[ls]
        if c != "#" and (c != " " or not text.startswith(_SPACED_HASH, ls + 1)):
            return False
        if _ATX.match(text, ls, k + 1) is None:
            return False
    # title_start(text, start, end), the trailing spaces already skipped
    start = end - 300 if end > 300 else 0
    if k >= start:
        ls = text.rfind("\n", k - _MAX_TITLE if k - _MAX_TITLE > start else start, k + 1) + 1
        if start < ls <= k:
            # the common cases first (:func:`title_start` decides the others): a last
            # line that cannot be an underline (its last character is no mark) is a
            # title only after a blank line, and it surely is one after a second line
            # break at once, unless it may be blank (a last character that is a space)
            j = ls - 2
            head = _underline_title(text, start, ls, k + 1, last) if last in _UNDERLINE_FIRST else -2
            if head >= 0:
                return True
            if head == -2 and j >= start:
                p = text[j]
                if p == "\n":
                    if not last.isspace() or title_start(text, start, k + 1) >= 0:
                        return True
                elif p.isspace() and title_start(text, start, k + 1) >= 0:
                    return True
    if end > 300:
        return False
    # a title at the very start of the text has no blank line before it
    ls = text.rfind("\n", 0, end) + 1
    if ls == 0 or not text[:ls].strip():
        return title_start("\n\n" + text[:end], 0, end + 2) >= 0
    return False
