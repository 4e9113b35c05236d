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
"""

from __future__ import annotations

import re

__all__ = ["ends_with_title", "title_start"]

_TITLE_END = frozenset(".!?;:,)]}\"'\u3002\uff01\uff1f")
_ATX = re.compile(r"[ ]{0,3}#{1,6}[ \t]")
_UNDERLINE = re.compile(r"[ ]{0,3}([=\-~^*#+])\1{2,}[ \t]*")
_UNDERLINE_FIRST = frozenset("=-~^*#+")
_MAX_TITLE = 100  # characters


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
    ls = text.rfind("\n", max(start, end - _MAX_TITLE - 1), end) + 1
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
        if text[end - 1] in _TITLE_END or (c.isspace() and not text[ls:end].strip()):
            return -1  # ends like a sentence, or a blank line
        return ls  # the two line breaks at ``k`` and ``ls - 1``: a blank line before it
    head = ls
    line = text[ls:end]
    if _is_underline(line):  # "Title" / "=====": the title is the line before
        head = text.rfind("\n", max(start, ls - _MAX_TITLE - 2), ls - 1) + 1
        if head <= start or not text[head : ls - 1].strip():
            return -1
    elif not _ATX.match(line) and (text[end - 1] in _TITLE_END or not line.strip()):
        return -1
    # a blank line before it: two line breaks with only whitespace between
    k, breaks = head - 1, 0
    while k >= start and text[k].isspace():
        breaks += text[k] == "\n"
        k -= 1
    return head if breaks >= 2 else -1


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
    k = end - 1
    while k >= 0 and text[k] in " \t\r":
        k -= 1
    if k < 0:
        return False
    if text[k] in _TITLE_END:
        # ends like a sentence (the common case): a title only on an ATX heading line,
        # which starts with "#" or a space (:func:`_atx_line`, its first character read)
        ls = text.rfind("\n", max(0, k - _MAX_TITLE), k + 1) + 1
        if ls > k or text[ls] not in "# " or _ATX.match(text, ls, k + 1) is None:
            return False
    if title_start(text, max(0, end - 300), end) >= 0:
        return True
    if end > 300:
        return False
    # a title at the very start of the text has no blank line before it
    ls = text.rfind("\n", 0, end) + 1
    if ls == 0 or not text[:ls].strip():
        return title_start("\n\n" + text[:end], 0, end + 2) >= 0
    return False


def _atx_line(text: str, end: int) -> bool:
    """Whether the line ending at ``end`` is an ATX heading (``# Title?``)."""
    ls = text.rfind("\n", max(0, end - _MAX_TITLE - 1), end) + 1
    return _ATX.match(text, ls, end) is not None
