"""Numbered structure of plain text: statutes, contracts, standards.

:class:`NumberedSectionParser` recognises heading lines and gives them levels:

* keyword headings, in this order of strength: "Part 3" / "PART III", "Chapter IV",
  "Article 5" / "ARTICLE V", "Section 2.1(b)" / "Sec. 4" / "§ 12" (the number may be
  arabic, roman or a letter, with dotted parts and parenthesised sub-parts);
* numbered titles: "1.", "1.2", "1.2.3 Title" (deeper numbers are deeper levels).

A heading is a line that starts with such a label and is short: nothing after the label,
or a title of at most ``max_title_words`` words that does not read like a sentence (a
long line ending in a full stop is a numbered clause, not a heading). A keyword label
alone on its line takes the next line as its title when that line is short and has no
final full stop ("ARTICLE V" / "TERMINATION"). Levels are ranked over the kinds and
depths present in the document, so the strongest kind found is level 1 (at most 6).

Method:
    Rule-based recognition of the numbering conventions common in statutes, contracts
    and standards (Part / Chapter / Article / Section / section sign, dotted decimal
    numbers), line by line, with offsets of the original text.
"""

from __future__ import annotations

import re

from .outline import NEWLINE, Heading, Outline

__all__ = ["NumberedSectionParser"]

_ROMAN = r"(?:[IVXLCDM]+|[ivxlcdm]+)"
_NUM = r"(?:\d+(?:\.\d+)*[A-Za-z]?|" + _ROMAN + r"|[A-Z])(?:\s*\([0-9A-Za-z]{1,4}\))*"
_KINDS = (
    ("part", r"(?:PART|Part)"),
    ("chapter", r"(?:CHAPTER|Chapter)"),
    ("article", r"(?:ARTICLE|Article|ART\.|Art\.)"),
    ("section", r"(?:SECTION|Section|SEC\.|Sec\.|§{1,2})"),
)
_KIND_RANK = {k: i for i, (k, _) in enumerate(_KINDS)}
_KEYWORD = re.compile(
    r"[ \t]*(?P<kw>" + "|".join(f"(?P<{k}>{p})" for k, p in _KINDS) + r")[ \t]*(?P<num>" + _NUM + r")"
    r"(?P<rest>(?:[ \t]*[.:\-\u2013\u2014][ \t]*|[ \t]+)\S.*|[ \t]*[.:]?[ \t]*)$"
)
_NUMBERED = re.compile(r"[ \t]*(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?P<rest>[ \t]+\S.*|[ \t]*)$")
_SENTENCE_END = re.compile(r"[.;,]\s*$")
# after a label, a lower-case word reads as running text ("Section 6 states that ...")
_PROSE_AFTER_LABEL = re.compile(r"[ \t]+[a-z]")
_RUN_IN_SEPARATOR = re.compile(r"[ \t]*[.:\u2013\u2014-]")


def _run_in_title(rest: str, max_words: int) -> str:
    """The short first sentence of a clause ("Services" in "Services. Provider shall
    ..."), or "" when the clause starts with a long sentence."""
    head = re.match(r"([^.;:]{1,120}?)[.:](?:\s|$)", rest)
    if head is None:
        return ""
    title = head.group(1).strip()
    words = title.split()
    if not words or len(words) > max_words or not (words[0][0].isupper() or words[0][0].isdigit()):
        return ""
    return title


class NumberedSectionParser:
    """Find numbered headings in plain text.

    Args:
        max_title_words: the longest title (in words) a heading line may carry.
        numbered: also recognise bare numbered titles ("1.2 Scope"), not only keywords.

    Example:
        >>> o = NumberedSectionParser().parse("ARTICLE I\\nDEFINITIONS\\nText.\\n\\nSection 1.1 Terms\\nMore.\\n")
        >>> [(h.level, h.title) for h in o.headings]
        [(1, 'ARTICLE I DEFINITIONS'), (2, 'Section 1.1 Terms')]
    """

    def __init__(self, *, max_title_words: int = 12, numbered: bool = True) -> None:
        self.max_title_words = max_title_words
        self.numbered = numbered

    def _title_ok(self, rest: str, numbered: bool) -> bool:
        words = rest.split()
        if len(words) > self.max_title_words:
            return False
        if numbered:
            # "1. The tenant shall pay." is a clause; "1. Definitions" a heading
            if not words or _SENTENCE_END.search(rest) or not (words[0][0].isupper() or words[0][0].isdigit()):
                return False
        elif _SENTENCE_END.search(rest) and len(words) > 6:
            return False
        return True

    def parse(self, text: str) -> Outline:
        """The headings of ``text`` (offsets of their lines, titles without line ends)."""
        lines: list[tuple[int, int, int]] = []  # start, end of content, start of next line
        pos = 0
        for m in NEWLINE.finditer(text):
            lines.append((pos, m.start(), m.end()))
            pos = m.end()
        if pos < len(text):
            lines.append((pos, len(text), len(text)))
        found: list[tuple[tuple[int, int], str, int, int]] = []
        bare: list[int] = []
        prev_blank = True
        i = 0
        while i < len(lines):
            s, e, nxt = lines[i]
            line = text[s:e]
            blank = not line.strip()
            rank: tuple[int, int] | None = None
            title = ""
            end = nxt
            m = _KEYWORD.match(line) if not blank and len(line) <= 200 else None
            if m is not None and _PROSE_AFTER_LABEL.match(m.group("rest")):
                m = None  # "Section 6 states ...": a reference in running text
            if m is not None:
                kind = next(k for k, _ in _KINDS if m.group(k))
                rest = m.group("rest").strip(" \t.:-\u2013\u2014")
                if not self._title_ok(rest, False) and _RUN_IN_SEPARATOR.match(m.group("rest")):
                    # "Section 1. The Congress shall ...": a clause headed by its label
                    run_in = _run_in_title(rest, self.max_title_words)
                    label = line[: m.start("rest")].strip()
                    rest, line = "", f"{label}. {run_in}" if run_in else label
                    s_title = line
                else:
                    s_title = None
                if self._title_ok(rest, False):
                    depth = m.group("num").count(".") + m.group("num").count("(")
                    rank = (_KIND_RANK[kind], depth)
                    title = s_title or line.strip()
                    if not rest and i + 1 < len(lines):
                        ns, ne, nn = lines[i + 1]
                        follow = text[ns:ne].strip()
                        is_title = (
                            follow
                            and len(follow.split()) <= self.max_title_words
                            and not _SENTENCE_END.search(follow)
                            and not _KEYWORD.match(text[ns:ne])
                            and not _NUMBERED.match(text[ns:ne])
                        )
                        if is_title:
                            title = f"{title} {follow}"
                            end = nn
                            i += 1
            elif self.numbered and not blank and prev_blank and len(line) <= 200:
                m = _NUMBERED.match(line)
                if m is not None and self._title_ok(m.group("rest"), True):
                    rank = (len(_KINDS), m.group("num").count("."))
                    title = line.strip()
                    run_in = _run_in_title(m.group("rest").strip(), 6)
                    if run_in and len(run_in) + 3 < len(m.group("rest").strip()):
                        title = f"{m.group('num')}{m.group('dot')} {run_in}"  # text follows its title
                    if not (m.group("dot") or "." in m.group("num")):
                        bare.append(len(found))  # "1 General": kept only beside "1.1 ..."
                elif m is not None and m.group("dot") and not m.group("rest").strip()[:1].islower():
                    # "2. Services. Provider shall ...": a clause with a run-in title
                    run_in = _run_in_title(m.group("rest").strip(), 6)
                    if run_in:
                        rank = (len(_KINDS), m.group("num").count("."))
                        title = f"{m.group('num')}. {run_in}"
            if rank is not None:
                found.append((rank, title, s, end))
            prev_blank = blank or rank is not None
            i += 1
        if bare and not any(r[0] == len(_KINDS) and r[1] > 0 for r, *_ in found):
            # a bare number ("1 General") heads a section only in a document that numbers
            # its sections with dotted numbers too ("1.1 Purpose")
            drop = set(bare)
            found = [f for k, f in enumerate(found) if k not in drop]
        ranks = sorted({r for r, *_ in found})
        level = {r: min(k + 1, 6) for k, r in enumerate(ranks)}
        heads = tuple(Heading(level[r], t, s, e) for r, t, s, e in found)
        return Outline(heads, ())
