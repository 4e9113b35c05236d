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

__all__ = ["WikitextParser"]

# a run of "=" signs, possibly spaced ("= = ="), then the title, then a run as long
_HEADING = re.compile(r"[ \t]*(?P<open>=(?:[ \t]*=){0,5})[ \t]*(?P<title>[^=\s](?:.*?[^=\s])?)[ \t]*(?P<close>=(?:[ \t]*=){0,5})[ \t]*")


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
