"""MediaWiki headings: ``= Title =``, ``== Section ==``, ... as an :class:`Outline`.

A heading is a line whose text is enclosed in runs of ``=`` of the same length on both
sides (``== History ==``); the run's length is the level (1 to 6). The tokenised form of
the WikiText-103 corpus (Merity et al. 2016, "Pointer Sentinel Mixture Models"), where the
signs are spaced (``= = History = =``), is read too. Everything else -- templates, links,
tables -- is left to the packer's inner boundaries (paragraphs, lines, sentences).
"""

from __future__ import annotations

import re

from .outline import NEWLINE, Heading, Outline

__all__ = ["WikitextParser", "looks_like_wikitext"]

# a run of "=" signs, possibly spaced ("= = ="), then the title, then a run as long
_HEADING = re.compile(r"[ \t]*(?P<open>=(?:[ \t]*=){0,5})[ \t]*(?P<title>[^=\s](?:.*?[^=\s])?)[ \t]*(?P<close>=(?:[ \t]*=){0,5})[ \t]*")


# a line that starts and ends with "=" (a candidate heading; _HEADING decides)
_CANDIDATE = re.compile(r"^[ \t]*=[^\r\n]*=[ \t]*$", re.MULTILINE)
# a Markdown ATX heading ("# Title")
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)", re.MULTILINE)


def _heading_level(line: str) -> int:
    """The level of a MediaWiki heading line, or 0 when the line is not one."""
    h = _HEADING.fullmatch(line)
    if h is None:
        return 0
    level = h.group("open").count("=")
    return level if level == h.group("close").count("=") and len(h.group("title")) < 200 else 0


def looks_like_wikitext(text: str, *, min_headings: int = 2) -> bool:
    """Whether ``text`` is MediaWiki markup: at least ``min_headings`` section headings of
    level 2 or deeper (``== Section ==``, or WikiText-103's spaced ``= = Section = =``),
    and more MediaWiki headings than Markdown ATX headings (``# Title``), so that a
    Markdown file quoting a wiki heading stays Markdown.

    A single ``= Title =`` line is not enough (a line such as ``= 5 =`` occurs in plain
    text); two ``==`` section lines are what every Wikipedia article of more than one
    section has. ``auto`` asks this of plain text and of Markdown files
    (:func:`chunkwise.registry.auto_strategy`): Wikipedia dumps are often saved as
    ``.txt`` or ``.md``.

    Cost: one regular expression over the text for lines that start and end with ``=``,
    and one for ``#`` headings; linear in the text.

    Example:
        >>> looks_like_wikitext(" = Owls = \\n = = Diet = = \\n Mice . \\n = = Range = = \\n Woods . \\n")
        True
        >>> looks_like_wikitext("# Owls\\n\\n== not a heading in Markdown ==\\n")
        False
    """
    if "=" not in text:
        return False
    levels = [_heading_level(m.group()) for m in _CANDIDATE.finditer(text)]
    sections = sum(1 for lv in levels if lv >= 2)
    if sections < min_headings:
        return False
    atx = sum(1 for _ in _ATX.finditer(text)) if "#" in text else 0
    return sum(1 for lv in levels if lv) > atx


class WikitextParser:
    """Find the MediaWiki headings of a text (see the module docstring).

    Method:
        MediaWiki's section syntax (``Help:Section``): ``=`` runs of equal length around
        the title, level = run length; a title of 200 characters or more is not a heading.
    """

    def parse(self, text: str) -> Outline:
        """The headings of ``text``: level, title (signs and spaces removed) and the span
        of the heading's line with its line end."""
        heads = []
        pos = 0
        for m in [*NEWLINE.finditer(text), None]:
            end = m.start() if m is not None else len(text)
            nxt = m.end() if m is not None else len(text)
            if end > pos:
                h = _HEADING.fullmatch(text, pos, end)
                if h is not None:
                    level = h.group("open").count("=")
                    title = h.group("title")
                    if level == h.group("close").count("=") and len(title) < 200:
                        heads.append(Heading(level, title, pos, nxt))
            pos = nxt
        return Outline(tuple(heads), ())
