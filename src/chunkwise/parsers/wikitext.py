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


# a Markdown ATX heading ("# Title")
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
# a Markdown code fence ("```" or "~~~", indented at most 3 spaces)
_FENCE = re.compile(r" {0,3}(?P<run>`{3,}|~{3,})")
# the share of the text (outside code) that must lie from the first heading on
_MIN_SHARE_UNDER_HEADINGS = 1 / 3
# MediaWiki markup besides headings: an internal link ("[[Little Rock]]", "[[Category:X]]"),
# bold ("'''Arsenal'''"), a template or parser function ("{{Infobox", "{{#if:"), a
# reference ("<ref>", "<ref name=a/>"), a table ("{|" at the start of a line)
_MARKUP = re.compile(
    r"\[\[(?=[^\W\d_])[^\[\]\n]+\]\]|'''[^'\n]+'''|\{\{(?:[^\W\d_]|#[a-z]+:)|<ref[\s>/]|^[ \t]*\{\|",
    re.MULTILINE,
)
# how many of those marks make a text with ``min_headings`` section headings MediaWiki
# markup; with fewer, the headings alone must make an outline (see looks_like_wikitext)
_MIN_MARKUP = 2
# an all-capitals title of this many letters or more is a banner ("FAILURES", "ERRORS"),
# not a section title (see _titled); shorter ones may be initialisms ("DVD", "NBA")
_BANNER_LETTERS = 4


def _heading_level(line: str) -> int:
    """The level of a MediaWiki heading line, or 0 when the line is not one."""
    h = _HEADING.fullmatch(line)
    if h is None:
        return 0
    level = h.group("open").count("=")
    return level if level == h.group("close").count("=") and len(h.group("title")) < 200 else 0


def _titled(title: str) -> bool:
    """Whether a heading's title is written as a section title: its first letter not a
    small one and, when it has :data:`_BANNER_LETTERS` letters or more, not all capitals.

    MediaWiki's sections follow the Manual of Style (``MOS:HEADINGS``: sentence case, the
    first letter a capital: ``Early life``, ``See also``; WikiText-103 keeps it); the
    banners of a test log are set all in small letters (pytest's ``test session starts``,
    ``warnings summary``, ``short test summary info``) or all in capitals (``FAILURES``,
    ``ERRORS``, ``PASSES``). A title whose script has no capitals (Chinese, Japanese)
    passes, as does one that opens with a digit (``1990s``)."""
    first = next((c for c in title if c.isalnum()), "")
    if first.islower():
        return False
    letters = [c for c in title if c.isalpha()]
    return len(letters) < _BANNER_LETTERS or not all(c.isupper() for c in letters)


def _prose_lines(text: str) -> list[str]:
    """The lines of ``text`` outside fenced (```` ``` ````, ``~~~``) and indented (4 spaces
    or a tab) code blocks, line ends removed."""
    out: list[str] = []
    fence = ""
    for line in text.splitlines():
        if fence:
            f = _FENCE.match(line)
            run, rest = (f.group("run"), line[f.end() :]) if f is not None else ("", "")
            if run[:1] == fence[0] and len(run) >= len(fence) and not rest.strip():
                fence = ""
            continue
        f = _FENCE.match(line)
        if f is not None:
            fence = f.group("run")
            continue
        if line.startswith(("    ", "\t")) and line.strip():
            continue
        out.append(line)
    return out


def looks_like_wikitext(text: str, *, min_headings: int = 2, markdown: bool = False) -> bool:
    """Whether ``text`` is MediaWiki markup. Lines inside fenced (```` ``` ````, ``~~~``)
    or indented (4 spaces, a tab) code blocks are ignored; of the rest, all of these must hold:

    - at least ``min_headings`` *distinct* section titles of level 2 or deeper, each on a
      line of its own with ``=`` runs of equal length (``== Section ==``, or WikiText-103's
      spaced ``= = Section = =``), so a log repeating ``== Results ==`` is not wiki markup;
    - at least ``min_headings`` of those headings followed by a line of text before the
      next heading (a section with prose, not a row of banners);
    - at least a third of the text (in characters) from the first heading on;
    - more MediaWiki headings than Markdown ATX headings (``# Title``); with
      ``markdown=True`` (a ``.md`` file) no ATX heading at all, so a Markdown file quoting
      wiki headings stays Markdown;
    - other MediaWiki markup (two marks or more: ``[[links]]``, ``'''bold'''``,
      ``{{templates}}``, ``<ref>``, ``{|`` tables), or, without it, headings that make an
      outline of their own: one more distinct section title with text under it
      (``min_headings + 1``, three by default), each written as MediaWiki's section titles
      are (sentence case: not opening with a small letter, not all capitals, see
      :func:`_titled`), and a heading of level 1 or 2 (the level of MediaWiki's sections).
      A test log with two ``== Tests result: FAILURE ==`` lines, pytest's report with
      short ``== FAILURES ==``, ``== warnings summary ==`` banners and a changelog of
      ``=== release 1.22.0 ===`` lines are not wiki markup; WikiText-103's articles
      (``= Title =``, ``= = Section = =``, no other markup left) are.

    A single ``= Title =`` line is not enough (a line such as ``= 5 =`` occurs in plain
    text); two ``==`` section lines are what every Wikipedia article of more than one
    section has. ``auto`` asks this of plain text and of Markdown files
    (:func:`chunkwise.registry.auto_strategy`): Wikipedia dumps are often saved as
    ``.txt`` or ``.md``.

    Cost: one pass over the lines; linear in the text.

    Example:
        >>> looks_like_wikitext(" = Owls = \\n = = Diet = = \\n Mice . \\n = = Range = = \\n Woods . \\n"
        ...                     " = = Calls = = \\n Hoots . \\n")
        True
        >>> looks_like_wikitext("# Owls\\n\\n== not a heading in Markdown ==\\n")
        False
    """
    if "=" not in text:
        return False
    lines = _prose_lines(text)
    titles: set[str] = set()
    named: set[str] = set()  # titles written as section titles (_titled), with text under them
    named_title = ""  # the open section's title when it is written as one
    shallowest = 7  # the lowest level of a MediaWiki heading
    headings = 0  # MediaWiki headings of any level
    with_prose = 0  # section headings followed by a line of text
    open_section = False  # a section heading seen, no text after it yet
    first_at = -1  # characters before the first heading
    total = 0
    atx = 0
    for line in lines:
        stripped = line.strip()
        level = _heading_level(line) if stripped.startswith("=") and stripped.endswith("=") else 0
        if level:
            headings += 1
            shallowest = min(shallowest, level)
            if first_at < 0:
                first_at = total
            if level >= 2:
                h = _HEADING.fullmatch(line)
                title = " ".join(h.group("title").split())  # type: ignore[union-attr]
                titles.add(title.casefold())
                named_title = title.casefold() if _titled(title) else ""
                open_section = True
        elif stripped:
            if open_section:
                with_prose += 1
                open_section = False
                if named_title:
                    named.add(named_title)
            if _ATX.match(line):
                atx += 1
        total += len(stripped)
    if len(titles) < min_headings or with_prose < min_headings:
        return False
    if total - first_at < _MIN_SHARE_UNDER_HEADINGS * total:
        return False
    if not (atx == 0 if markdown else headings > atx):
        return False
    if len(named) > min_headings and shallowest <= 2:
        return True  # an outline of its own
    return _markup_marks(lines) >= _MIN_MARKUP


def _markup_marks(lines: list[str], enough: int = _MIN_MARKUP) -> int:
    """How many marks of MediaWiki markup other than headings ``lines`` hold (see
    :data:`_MARKUP`), counted up to ``enough``."""
    found = 0
    for line in lines:
        if ("[" in line or "'" in line or "{" in line or "<" in line) and _MARKUP.search(line):
            found += len(_MARKUP.findall(line))
            if found >= enough:
                break
    return found


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
