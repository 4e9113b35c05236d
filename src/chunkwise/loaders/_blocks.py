"""What the loaders that render a format as Markdown share (DOCX, PPTX, XLSX, EPUB,
reStructuredText, and the HTML renderer): escaped lines (and :func:`misread`: the lines
that would be misread as a heading, which the PDF loader guards), pipe tables, a writer that keeps
the page map while it writes, and the base of the loaders of binary formats.

A rendered Markdown text is what every such loader gives: headings as ATX headings
(``#``..``######``) so the ``markdown`` strategy gives header paths, tables as GFM pipe
tables so the table parser (:mod:`chunkwise.parsers.table`) chunks them by rows, and
every other line escaped where it would start a Markdown block by accident.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..errors import ConfigError
from ..types import Document, PageRange
from .base import FileFormatError, Loader, one_line, parse_failures
from .decoding import looks_like_text

__all__ = [
    "PAGE_BREAK", "BinaryLoader", "MarkdownWriter", "escape_line", "guard_line", "misread", "one_line", "pipe_table",
    "starts_block",
]

# what would make a rendered line start a Markdown block: an ATX heading, a block quote, a
# list item, a code fence, a table row, a thematic break or setext underline, an ordered
# list item (``1.``), a link reference definition (``[a]: b``, which CommonMark removes), an
# HTML block (``<div>``, ``<!--``); anything else (an inline code span, ``*emphasis*``)
# stays as written
_LINE_START = re.compile(
    r"^(?:#{1,6}(?:[ \t]|$)|>|[-+*](?:[ \t]|$)|`{3,}|~{3,}|\||=+[ \t]*$|-+[ \t]*$|(?:[-*_][ \t]*){3,}$"
    r"|\[[^\]]*\]:|<[A-Za-z/!?])"
)
_ORDERED = re.compile(r"^(\d{1,9})(?=[.)](?:[ \t]|$))")
_WS = re.compile(r"\s+")
_STARTERS = frozenset("#>-+*`~|=_[<0123456789")  # the first characters _LINE_START and _ORDERED can match


def escape_line(line: str) -> str:
    """``line`` escaped where it would start a Markdown block (``"1. x"`` -> ``"1\\. x"``,
    ``"# x"`` -> ``"\\# x"``); a line that would not (an inline code span ```x```,
    ``*emphasis*``) is returned as it is.

    Example:
        >>> escape_line("# not a heading"), escape_line("`code` first")
        ('\\\\# not a heading', '`code` first')
    """
    if line[:1] not in _STARTERS:  # most lines: no pattern can match
        return line
    m = _ORDERED.match(line)
    if m is not None:
        return m.group(1) + "\\" + line[m.end() :]
    if _LINE_START.match(line):
        return "\\" + line
    return line


# what in a line of literal text would change the outline a CommonMark parser reads: an
# ATX heading (also inside a block quote or a list item: ``> # x``, ``- # x``), a code fence
# (it runs to its closing fence, or to the end, swallowing headings), an HTML block of the
# kinds that end only at their closing marker (``<pre``, ``<!--``, ...), and -- after a
# line of the same paragraph -- a setext underline (``===``, ``---``)
_GUARDED = re.compile(r"^((?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+)*)(#{1,6}(?:[ \t]|$)|`{3,}|~{3,})")
_HTML_OPENERS = re.compile(r"^<(?:(script|pre|style|textarea)(?=[\s>]|$)|(!--)|(\?)|(![A-Za-z])|(!\[CDATA\[))", re.IGNORECASE)
_HTML_CLOSERS = ("", "-->", "?>", ">", "]]>")
_UNDERLINE = re.compile(r"^((?:>[ \t]?)*)(?:=+|-+)[ \t]*$")


def misread(line: str, continues: bool = False) -> bool:
    """Whether ``line``, literal text, would be read by a CommonMark parser as a heading or
    as the start of a block that swallows the lines after it -- what a loader that writes
    its own headings must keep from happening (``"1. x"``, ``"> x"``, ``"- x"``,
    ``"| x"`` are not: they make lists, quotes or paragraphs, never headings).

    ``continues``: the line follows a line of the same paragraph (joined by a single line
    break), where a line of ``=`` or ``-`` would underline it into a heading.

    Misread: an ATX heading (``"# x"``, also after a quote or list marker: ``"- # x"``),
    a code fence (```` ``` ````, ``~~~``), an HTML block that ends only at its closing
    marker (``<pre``, ``<script``, ``<style``, ``<textarea``, ``<!--``, ``<?``, ``<!X``,
    ``<![CDATA[``) unless the marker closes it on the same line, and a setext underline
    (also inside a quote, ``> ---``) after a paragraph line.

    Example:
        >>> misread("# comment"), misread("1. Introduction"), misread("> quoted"), misread("#hashtag")
        (True, False, False, False)
        >>> misread("---", continues=True), misread("---")
        (True, False)
    """
    return guard_line(line, continues) != line


def guard_line(line: str, continues: bool = False) -> str:
    """``line`` with one backslash where :func:`misread` says a CommonMark parser would
    read a heading or a swallowing block, and nowhere else.

    Example:
        >>> guard_line("# comment"), guard_line("- # x"), guard_line("1. Introduction")
        ('\\\\# comment', '- \\\\# x', '1. Introduction')
    """
    if line[:1] not in _GUARD_STARTERS and not line[:1].isdigit():
        return line
    m = _GUARDED.match(line)
    if m is not None:
        at = m.start(2)
        return line[:at] + "\\" + line[at:]
    if continues:
        u = _UNDERLINE.match(line)
        if u is not None:  # also inside a block quote: ``> ---`` under ``> text``
            return line[: u.end(1)] + "\\" + line[u.end(1) :]
    h = _HTML_OPENERS.match(line)
    if h is not None:
        kind = next(k for k in range(5) if h.group(k + 1) is not None)
        closer = f"</{h.group(1).lower()}>" if kind == 0 else _HTML_CLOSERS[kind]
        if closer not in line[h.end() :].lower():
            return "\\" + line
    return line


_GUARD_STARTERS = frozenset("#>-+*`~=<")


def starts_block(line: str) -> bool:
    """Whether ``line`` would start a Markdown block other than a paragraph (what
    :func:`escape_line` escapes)."""
    return bool(_ORDERED.match(line) or _LINE_START.match(line))


def pipe_table(rows: Sequence[Sequence[str]]) -> str:
    """A GFM pipe table of ``rows`` (the first is the header): cells on one line each
    (white space collapsed, ``|`` escaped), short rows padded; ``""`` when every cell is
    empty.

    Example:
        >>> print(pipe_table([["k", "v"], ["a|b", "1"], ["c"]]))
        | k | v |
        |---|---|
        | a\\|b | 1 |
        | c |  |
    """
    clean = [[_WS.sub(" ", c or "").strip().replace("|", "\\|") for c in r] for r in rows]
    clean = [r for r in clean if r]
    if not clean or not any(c for r in clean for c in r):
        return ""
    width = max(len(r) for r in clean)
    clean = [r + [""] * (width - len(r)) for r in clean]
    lines = ["| " + " | ".join(clean[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in clean[1:]]
    return "\n".join(lines)


def _a(label: str) -> str:
    """``label`` with its article: "a DOCX", "an XLSX", "an EPUB"."""
    return ("an " if label[:1] in "AEIOX" else "a ") + label


PAGE_BREAK = "\ue000"
"""A page break inside a block given to :meth:`MarkdownWriter.add` (a private-use
character, removed from the text): the next page starts there."""


class MarkdownWriter:
    """Markdown blocks joined by blank lines, with the page map kept as they are written.

    :meth:`begin_page` opens a page: it starts at the next block written and ends where
    the next page starts (the blank line between two pages belongs to neither) or at the
    end of the text. A :data:`PAGE_BREAK` inside a block ends the current page there and
    starts the next one (numbered one more) at the following character; at the end of a
    block, at the next block. A page without any text is not in the map.

    Example:
        >>> w = MarkdownWriter()
        >>> w.begin_page(1); w.add("# One"); w.begin_page(2); w.add("two" + PAGE_BREAK + " three")
        >>> w.text(), w.pages
        ('# One\\n\\ntwo three\\n', [(1, 0, 5), (2, 7, 10), (3, 10, 16)])
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.pages: list[PageRange] = []
        self._page: int | None = None
        self._page_start: int | None = None
        self._pending = 0  # page breaks that start the next page at the next block
        self._has_text = False  # whether the open page holds more than white space

    def add(self, block: str) -> None:
        """Append a block (leading and trailing line ends dropped; a blank block is not
        written, its page breaks kept for the next block)."""
        block = block.strip("\n")
        if not self._pending and PAGE_BREAK not in block:  # most blocks: no page break to place
            if block.strip():
                if self.parts:
                    self.parts.append("\n\n")
                    self.length += 2
                if self._page is not None and self._page_start is None:
                    self._page_start = self.length
                self.parts.append(block)
                self.length += len(block)
                self._has_text = True
            return
        if not block.replace(PAGE_BREAK, "").strip():
            self._pending += block.count(PAGE_BREAK)
            return
        if self.parts:
            self.parts.append("\n\n")
            self.length += 2
        pieces = block.split(PAGE_BREAK)
        lead = 0
        while lead < len(pieces) - 1 and not pieces[lead]:
            lead += 1  # breaks before any text: at the block's start
        for _ in range(self._pending + lead):
            self._next_page(self.length)
        self._pending = 0
        if self._page is not None and self._page_start is None:
            self._page_start = self.length
        for k, piece in enumerate(pieces[lead:]):
            if k:
                if k == len(pieces) - lead - 1 and not piece.strip():
                    self._pending += 1  # a break after the block's text: at the next block
                    piece = piece.rstrip()
                else:
                    self._next_page(self.length)
            self.parts.append(piece)
            self.length += len(piece)
            self._has_text = self._has_text or bool(piece.strip())

    def _next_page(self, at: int) -> None:
        number = (self._page or 0) + 1
        self._close_page(at)
        self._page, self._page_start = number, None
        if self.parts:
            self._page_start = at

    def _close_page(self, end: int | None = None) -> None:
        end = self.length if end is None else end
        if self._page is not None and self._page_start is not None and end > self._page_start and self._has_text:
            self.pages.append((self._page, self._page_start, end))
        self._page, self._page_start, self._has_text = None, None, False

    def begin_page(self, number: int) -> None:
        """Start page ``number`` (1-based) at the next block."""
        self._close_page()
        self._page = number

    def text(self) -> str:
        """The text written (ending in one line end), the open page closed."""
        self._close_page()
        return ("".join(self.parts) + "\n") if self.parts else ""


class BinaryLoader(Loader):
    """The base of a loader of a binary format read by a library (DOCX by python-docx,
    ...): bytes in, never decoded as text.

    Subclasses set ``format``, ``suffixes``, ``mime_types``, ``label`` (the format's name
    in messages), ``package`` and ``extra`` (what to install), ``members`` (ZIP member
    names that appear in the first bytes of such a file, for detection without a suffix)
    and implement :meth:`read`. :meth:`load_bytes` turns every failure of the library on a
    bad file (truncated, not a ZIP, a missing part) into one
    :class:`~chunkwise.loaders.base.FileFormatError` (a ``ParseError``) line that names the
    file and the fix.
    """

    label: ClassVar[str] = ""
    package: ClassVar[str] = ""
    extra: ClassVar[str] = ""
    zip_container: ClassVar[bool] = True
    application: ClassVar[str] = "an office application"
    """What opens such a file, for the fix in messages."""
    members: ClassVar[tuple[bytes, ...]] = ()
    magic: ClassVar[tuple[bytes, ...]] = (b"PK\x03\x04",)

    def sniff(self, head: bytes) -> bool:
        """A ZIP whose first member names say this format (``word/`` for DOCX)."""
        return head.startswith(b"PK\x03\x04") and any(m in head for m in self.members)

    def load_bytes(
        self,
        data: bytes,
        *,
        source: str | None = None,
        encoding: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
    ) -> Document:
        """Read the file's bytes (``encoding`` does not apply: the format says its own).

        Raises:
            ParseError: the bytes are not a readable file of the format (empty,
                truncated, text, another format): one line naming the file and the fix.
            MissingDependencyError: the format's library is not installed.
        """
        name = source or "<bytes>"
        label = self.label or self.format
        if not data:
            raise FileFormatError(
                f"{name}: empty file (0 bytes), not {_a(label)} file", "leave it out or save it again", "empty"
            )
        if self.zip_container:
            self._check_zip(data, name, label)
        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        with parse_failures(
            name, f"cannot be read as {label}", f"check that it opens in {self.application} and save it again"
        ):
            return self.read(data, name=name, source=source, metadata=meta, id=id)
        raise AssertionError("unreachable")  # pragma: no cover - the block returns or raises

    def _check_zip(self, data: bytes, name: str, label: str) -> None:
        if zipfile.is_zipfile(io.BytesIO(data)):
            return
        kind = "wrong format"
        if data.startswith(b"PK\x03\x04"):
            why = "a truncated or damaged ZIP container"
            fix = "copy or download it again"
            kind = "damaged"
        elif looks_like_text(data[:8192]):
            why = "text, not a ZIP container"
            fix = "rename it to its real format (.txt, .md, .html) or read it as text (--format text, format='text')"
        else:
            why = "not a ZIP container"
            fix = "check its real format"
        raise FileFormatError(f"{name}: not {_a(label)} file ({why})", fix, kind)

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        raise ConfigError(
            f"{self.format} content is binary: pass the file's bytes (chunkwise.parse(data, format={self.format!r})) "
            "or its path (chunkwise.load(path)), not a str"
        )

    def read(
        self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str
    ) -> Document:  # pragma: no cover - every subclass implements it
        """The document of a file's bytes (``name``: the file in messages)."""
        raise NotImplementedError


def core_metadata(props: Any, meta: dict[str, Any], keys: Sequence[str]) -> None:
    """Copy the non-empty core properties ``keys`` of an OOXML file (``title``,
    ``author``, ``created``...) into ``meta`` (dates as ISO 8601 text), without replacing
    what the caller gave."""
    for key in keys:
        try:
            value = getattr(props, key, None)
        except Exception:  # noqa: BLE001 - a malformed property is left out, not fatal
            continue
        if value is None or value == "":
            continue
        if hasattr(value, "isoformat"):
            value = value.isoformat()
        meta.setdefault(key, value if isinstance(value, (str, int, float)) else str(value))
