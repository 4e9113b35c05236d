"""The PDF loader: a PDF's text layer as Markdown-like text with a page map.

PDFium (through ``pypdfium2``, BSD/Apache, ``pip install 'chunkwise[pdf]'``) gives each
page's text lines in the file's order with their position, font size and weight;
:func:`chunkwise.parsers.pdf.layout_pages` orders them (two columns column by column),
makes headings of larger or bold lines, removes running headers, footers and page
numbers, and joins hyphenated words. The document's ``pages`` map each page to its
characters, so every chunk gets ``page_number`` and ``page_end``.

pypdfium2 was chosen by measurement against pypdf and pdfplumber (pdfminer.six) on
Debian's PDF manuals: the text of all pages in 0.04-0.10 s where pypdf takes 0.2-0.9 s and
pdfplumber 1.2-7 s (``benchmarks/bench_pdf.py --libraries``); PyMuPDF is AGPL.

Loader options (``chunkwise.load(path, password=...)``, ``chunkwise chunk -L KEY=VALUE``):

* ``password``: the password of an encrypted PDF;
* ``pages``: the pages to read, ``"1-5,8"`` (1-based, inclusive; ``"7-"`` to the last
  page; the page numbers of the page map stay those of the file; a page past the last one
  is an error, not clamped). The other pages of the file (:func:`_context_pages`) are
  laid out too, not written: the part gets the running heads, heading
  levels and title the file gives it. Its id is the file's with the pages chosen
  (``#pages=1-5,8``): each part of a file is a document of its own;
* ``ocr``: ``true`` (or a Tesseract language, ``"eng+fra"``): a page without a text layer
  is rendered at 300 dpi and read by the ``tesseract`` program (Debian's ``tesseract-ocr``;
  Pillow from ``pip install 'chunkwise[ocr]'``); its words' boxes make the lines, so the
  layout rules apply (font size: the height of the words).

Errors name the file and the fix (a :class:`PdfError`, a
:class:`~chunkwise.errors.ParseError` with a ``fix`` attribute): an empty file, a file that
is not a PDF (HTML saved as ``.pdf``), a damaged or truncated one, an encrypted one without
(or with a wrong) password, and a PDF without a text layer (scanned pages: add one with an
OCR tool such as ``ocrmypdf`` first).
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import ConfigError, MissingDependencyError
from ..parsers.pdf import PdfLine, PdfPage, layout_pages
from ..types import Document, document_id_for
from ._dates import iso_date
from ._pdf_ocr import ocr_language, ocr_page
from .base import FileFormatError, Loader, register_loader

__all__ = ["PdfError", "PdfLoader", "page_ranges", "parse_page_ranges"]

_EXCLUDE = "or leave it out with --exclude"
_SPACES = re.compile(r"\s+")
_MONO_NAME = re.compile(r"mono|courier|consol|(?:cm|sf|lm|ec)tt|typewriter", re.IGNORECASE)
GAP = 1.1
"""A gap between two runs of a line wider than this many font sizes separates them (table
cells, columns); a word space is about a quarter of the size, a stretched one under one."""


class PdfError(FileFormatError):
    """A PDF that cannot be read: the message names the file and the problem, ``fix`` says
    what to do (see :class:`~chunkwise.loaders.base.FileFormatError`)."""

    def __init__(self, message: str, fix: str, kind: str = "unreadable") -> None:
        super().__init__(message, fix, kind)


def page_ranges(spec: Any) -> list[tuple[int, int | None]]:
    """The ranges of a ``pages`` option, checked for syntax alone (no document needed):
    ``"1-5,8, 7-"`` -> ``[(1, 5), (8, 8), (7, None)]`` (None: to the last page).

    Raises:
        ConfigError: empty, not pages and ranges, a page 0, or a range that runs backwards.

    Example:
        >>> page_ranges("1-3,8, 7-")
        [(1, 3), (8, 8), (7, None)]
    """
    if isinstance(spec, int) and not isinstance(spec, bool):
        spec = str(spec)
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"pages={spec!r} is not a page range; give pages like '1-5,8'")
    ranges: list[tuple[int, int | None]] = []
    for part in spec.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?", part)
        if not m:
            raise ConfigError(f"pages={spec!r}: {part.strip()!r} is not a page or range; give pages like '1-5,8'")
        first = int(m.group(1))
        last = (int(m.group(3)) if m.group(3) else None) if m.group(2) else first
        if first < 1:
            raise ConfigError(f"pages={spec!r}: pages are numbered from 1; give pages like '1-5,8'")
        if last is not None and last < first:
            raise ConfigError(f"pages={spec!r}: {part.strip()!r} runs backwards; give it as '{last}-{first}'")
        ranges.append((first, last))
    return ranges


def parse_page_ranges(spec: Any, count: int) -> list[int]:
    """The page numbers of ``spec`` (``"1-5,8"``, ``3``, ``"7-"``), 1-based, sorted, within
    ``1..count``. A page past the last one is an error, whether alone (``99``) or as the
    end of a range (``1-100``): ``7-`` reads to the last page.

    Raises:
        ConfigError: a malformed range (:func:`page_ranges`), or one past the last page.

    Example:
        >>> parse_page_ranges("1-3,8, 2", 10)
        [1, 2, 3, 8]
    """
    chosen: set[int] = set()
    for first, last in page_ranges(spec):
        end = count if last is None else last
        if max(first, end) > count:
            raise ConfigError(
                f"pages={spec!r} runs past the last page (the document has {count} "
                f"page{'s' if count != 1 else ''}); give pages within 1-{count}, or an open range such as "
                f"'{min(first, max(count, 1))}-' to read to the last page"
            )
        chosen.update(range(first, end + 1))
    return sorted(chosen)


_SUFFIX_OF = {"HTML": ".html", "XML or HTML": ".html or .xml", "a ZIP archive": ".docx, .xlsx, .pptx, .epub"}


def _looks_like(head: bytes) -> str:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if start.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in start[:512]:
        return "HTML"
    if start.startswith(b"<"):
        return "XML or HTML"
    if start.startswith(b"pk\x03\x04"):
        return "a ZIP archive"
    return ""


class PdfLoader(Loader):
    """PDF (``metadata["format"] == "pdf"``), read with pypdfium2.

    The document's text is the Markdown-like text of :func:`~chunkwise.parsers.pdf.layout_pages`
    (the PDF's characters, never escaped); ``pages`` its page map. Metadata: ``title``
    (else the first page's largest line), ``author``, ``created`` (ISO 8601) when the file
    says them, ``page_count`` (pages in the file), ``pages_read`` (when ``pages`` chose
    some), ``pages_without_text`` (pages with no text layer), ``page_labels`` (the page
    number printed on each page read, one per entry of the page map, when any was found),
    ``page_furniture`` (running headers and footers removed), ``two_column_pages``,
    ``ocr_pages`` (pages whose text OCR read), ``heading_context`` (a part of a file: the
    headings ``[[level, title], ...]`` in force where it starts, which the ``markdown``
    strategy puts at the head of its header paths, no text added). The lists stay on the document
    (:data:`chunkwise.enrich.DOCUMENT_ONLY`): a chunk gets ``page_label`` and
    ``page_label_end``, its own pages' printed numbers.
    """

    format: ClassVar[str] = "pdf"
    suffixes: ClassVar[tuple[str, ...]] = (".pdf",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/pdf",)
    magic: ClassVar[tuple[bytes, ...]] = (b"%PDF-",)
    options: ClassVar[tuple[str, ...]] = ("password", "pages", "ocr")

    def sniff(self, head: bytes) -> bool:
        return head.startswith(b"%PDF-")

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Check the options' syntax before any file is read (``pages``: :func:`page_ranges`;
        ``ocr``: a boolean or Tesseract language codes).

        Raises:
            ConfigError: a malformed value, named with the fix.
        """
        if "pages" in options:
            page_ranges(options["pages"])
        if "ocr" in options:
            ocr_language(options["ocr"])

    def load_bytes(
        self,
        data: bytes,
        *,
        source: str | None = None,
        encoding: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
        options: Mapping[str, Any] | None = None,
    ) -> Document:
        """Read a PDF's text layer (``encoding`` does not apply to PDF and is not used).

        Raises:
            PdfError: an empty file, not a PDF, damaged, encrypted (no or a wrong
                ``password``), or without a text layer (the message names the file and the fix).
            ConfigError: an unknown option, or a malformed ``pages``.
            MissingDependencyError: without ``pip install 'chunkwise[pdf]'``.
        """
        opts = self.check_options(options, source)
        name = source or "<bytes>"
        if not data:
            raise PdfError(f"{name}: the file is empty (0 bytes)", f"export or download it again, {_EXCLUDE}", "empty")
        if b"%PDF-" not in data[:1024]:
            kind = _looks_like(data[:1024])
            if kind:
                raise PdfError(
                    f"{name}: not a PDF: its content is {kind}",
                    f"rename it with the suffix of its real format ({_SUFFIX_OF.get(kind, '.html')}) to read it "
                    f"as such, {_EXCLUDE}",
                    "not a PDF",
                )
            raise PdfError(f"{name}: not a PDF (no %PDF- header)", f"check the file, {_EXCLUDE}", "not a PDF")
        try:
            import pypdfium2 as pdfium
        except ImportError as exc:
            raise MissingDependencyError("pypdfium2", "pdf", "reading PDF files") from exc
        password = opts.get("password")
        if password is not None and not isinstance(password, str):
            password = str(password)
        try:
            pdf = pdfium.PdfDocument(data, password=password)
        except pdfium.PdfiumError as exc:
            text = str(exc)
            pdf = None
            if password and "password" in text.lower():
                # an owner-password-only PDF opens with the empty user password: a password
                # given for it (the owner's, or any) does not make it unreadable
                try:
                    pdf = pdfium.PdfDocument(data, password="")
                except pdfium.PdfiumError:
                    pdf = None
        if pdf is None:
            if "password" in text.lower():
                if password is None:
                    raise PdfError(
                        f"{name}: the PDF is encrypted",
                        "give its password with -L password=... (password=... in Python)",
                        "encrypted",
                    ) from None
                raise PdfError(
                    f"{name}: the password given does not open this PDF", "check the password", "encrypted"
                ) from None
            raise PdfError(
                f"{name}: damaged or truncated PDF ({text.rstrip('.')})",
                f"download or export it again (or repair it with qpdf), {_EXCLUDE}",
                "damaged",
            ) from None
        try:
            return self._read(pdf, pdfium, name, opts, source=source, metadata=metadata, id=id)
        finally:
            pdf.close()

    def _read(
        self,
        pdf: Any,
        pdfium: Any,
        name: str,
        opts: dict[str, Any],
        *,
        source: str | None,
        metadata: Mapping[str, Any] | None,
        id: str,
    ) -> Document:
        count = len(pdf)
        numbers = parse_page_ranges(opts["pages"], count) if "pages" in opts else list(range(1, count + 1))
        subset = len(numbers) < count
        pages: list[PdfPage] = []
        empty: list[int] = []
        recognised: list[int] = []
        language = ocr_language(opts.get("ocr"))
        try:
            for number in numbers:
                page = pdf[number - 1]
                try:
                    read = _page_lines(page, number, pdfium.raw)
                    if not read.lines and language:
                        read = ocr_page(page, number, language, name)
                        if read.lines:
                            recognised.append(number)
                finally:
                    page.close()
                if not read.lines:
                    empty.append(number)
                pages.append(read)
        except pdfium.PdfiumError as exc:
            raise PdfError(
                f"{name}: damaged or truncated PDF ({str(exc).rstrip('.')})",
                f"download or export it again (or repair it with qpdf), {_EXCLUDE}",
                "damaged",
            ) from None
        if count == 0:
            raise PdfError(f"{name}: the PDF has no page", f"export it again, {_EXCLUDE}", "empty")
        if len(empty) == len(pages):
            which = "its pages have" if "pages" not in opts else "the pages asked for have"
            raise PdfError(
                f"{name}: no text layer ({which} no text: scanned or image-only)",
                "read it with OCR: -L ocr=true (ocr=True in Python; needs the tesseract program and "
                f"pip install 'chunkwise[ocr]'), or add a text layer first (ocrmypdf), {_EXCLUDE}"
                if not language
                else f"OCR found no text either: check the scan, {_EXCLUDE}",
                "no text layer",
            )
        context: list[PdfPage] = []
        if subset:  # the running heads, heading sizes and title of the file, from pages around
            try:
                for number in _context_pages(numbers, count):
                    page = pdf[number - 1]
                    try:
                        context.append(_page_lines(page, number, pdfium.raw))
                    finally:
                        page.close()
            except pdfium.PdfiumError:
                context = []  # a damaged page elsewhere: the pages asked for stand alone
        layout = layout_pages(pages, context)
        meta: dict[str, Any] = {}
        if subset and numbers[0] > 1:  # the headings above the part, as the whole file has them
            ancestors = _heading_context(pdf, pdfium, numbers[0], pages, context)
            if ancestors:
                meta["heading_context"] = [[level, title] for level, title in ancestors]
        info = pdf.get_metadata_dict(skip_empty=True)
        for key, field in (("Title", "title"), ("Author", "author"), ("Subject", "subject")):
            value = info.get(key, "").strip()
            if value and value.lower() not in _PLACEHOLDERS:  # ReportLab's "untitled", "anonymous"
                meta[field] = value
        if "title" not in meta and layout.title:  # the file says none: the first page's largest line
            meta["title"] = layout.title
        for key, field in (("CreationDate", "created"), ("ModDate", "modified")):
            when = iso_date(info.get(key, ""))  # one date format for every loader
            if when:
                meta[field] = when
        meta["page_count"] = count
        if "pages" in opts:
            meta["pages_read"] = numbers
        if empty:
            meta["pages_without_text"] = empty
        if recognised:
            meta["ocr_pages"] = recognised
        if any(label is not None for label in layout.page_labels):
            meta["page_labels"] = list(layout.page_labels)
        if layout.furniture:
            meta["page_furniture"] = list(layout.furniture[:20])
        if layout.two_column_pages:
            meta["two_column_pages"] = list(layout.two_column_pages)
        meta.update(metadata or {})
        meta.setdefault("format", self.format)
        if subset and (id or source):  # another part of the file is another document
            id = document_id_for("", f"{id or source}#pages={_ranges(numbers)}")
        return Document(layout.text, id=id, source=source, metadata=meta, pages=layout.pages)

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        """Refused: a PDF is bytes (use ``chunkwise.load(path)`` or ``load(data, format="pdf")``).

        Raises:
            ConfigError: always.
        """
        raise ConfigError("a PDF is read from bytes or a file, not from a str: use chunkwise.load(path_or_bytes)")


def _context_pages(numbers: list[int], count: int) -> list[int]:
    """The pages read besides ``numbers`` (a part of a file of ``count`` pages), for its
    running heads and heading sizes (the first page too, for the title): every other page
    of the file, in order. Heading levels rank the font sizes of the whole file, so a part
    read with fewer pages around it (the 12 nearest were tried) could rank a section
    heading a level lower than the whole file does and give its chunks another section's
    header path; laying out every page costs time, not correctness.

    Example:
        >>> _context_pages([3, 4], 6), _context_pages([1, 2], 2)
        ([1, 2, 5, 6], [])
    """
    chosen = set(numbers)
    return [n for n in range(1, count + 1) if n not in chosen]


_PLACEHOLDERS = frozenset({"untitled", "anonymous", "unspecified", "(unspecified)", "unknown", "(anonymous)"})
"""Title, author and subject values that writers put in when the document gave none
(ReportLab: ``untitled``, ``anonymous``, ``unspecified``): not the document's."""


def _bookmark_pages(pdf: Any, first: int) -> set[int]:
    """The pages of the bookmarks in force at page ``first`` (the last bookmark of each
    level before it, in the outline's order); empty without bookmarks."""
    stack: list[tuple[int, int]] = []
    try:
        for item in pdf.get_toc(max_depth=16):
            dest = item.get_dest()
            index = dest.get_index() if dest is not None else None
            if index is None or index + 1 >= first:
                continue
            while stack and stack[-1][0] >= item.level:
                stack.pop()
            stack.append((item.level, index + 1))
    except Exception:  # noqa: BLE001 - a damaged outline: the context pages alone
        return set()
    return {number for _, number in stack}


def _heading_context(
    pdf: Any, pdfium: Any, first: int, pages: list[PdfPage], context: list[PdfPage]
) -> list[tuple[int, str]]:
    """The headings in force where a part of a file (``pages=``) starts at page ``first``:
    the Markdown headings (level, title) that the layout of the pages before it gives --
    the context pages before it, and the pages of the bookmarks in force there (the
    PDF's outline) --, each kept while no later heading of its level or stronger ends it.
    The levels are the whole file's (the same heading sizes), so the part's chunks get
    the header paths of the whole file's chunks. Empty when nothing before is known."""
    have = {p.number: p for p in context if p.number < first}
    for number in sorted(_bookmark_pages(pdf, first) - set(have)):
        try:
            page = pdf[number - 1]
            try:
                have[number] = _page_lines(page, number, pdfium.raw)
            finally:
                page.close()
        except pdfium.PdfiumError:
            continue
    if not have:
        return []
    before = [have[n] for n in sorted(have)]
    others = [p for p in (*context, *pages) if p.number not in have]
    text = layout_pages(before, others).text
    try:
        from ..parsers.markdown import MarkdownParser

        heads = [(h.level, h.title) for h in MarkdownParser(front_matter=False).parse(text).headings]
    except ImportError:  # without markdown-it-py: the layout's own ATX heading lines
        heads = [(len(m.group(1)), m.group(2).strip()) for m in re.finditer(r"(?m)^(#{1,6}) +(.+)$", text)]
    stack: list[tuple[int, str]] = []
    for level, title in heads:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
    return [(level, title) for level, title in stack if title]


def _ranges(numbers: list[int]) -> str:
    """Sorted page numbers as ranges: ``[1, 2, 3, 8]`` -> ``"1-3,8"``."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(parts)


def _font(textpage: Any, index: int, raw: Any) -> tuple[str, int]:
    """The name and flags of the font of a character (PDFium's FPDFText_GetFontInfo)."""
    flags = ctypes.c_int(0)
    buffer = ctypes.create_string_buffer(128)
    raw.FPDFText_GetFontInfo(textpage, index, buffer, 128, ctypes.byref(flags))
    return buffer.value.decode("utf-8", "replace"), flags.value


def _fixed_pitch(textpage: Any, index: int, raw: Any) -> bool:
    """Whether the font of a character is monospaced (the PDF font descriptor's FixedPitch
    flag, or a name such as Courier, ...Mono, TeX's cmtt/SFTT)."""
    name, flags = _font(textpage, index, raw)
    return bool(flags & 1) or bool(_MONO_NAME.search(name))


_CONTROL = re.compile("[\x00\x01\x03-\x08\x0b-\x1f\x7f]")  # not \x02: PDFium's hyphenation mark
_CMSY = "\u2212\u00b7\u00d7\u2217\u00f7\u22c4\u00b1\u2213\u2295\u2296\u2297\u2298\u2299\u25ef\u25e6\u2022" + (
    "\u224d\u2261\u2286\u2287\u2264\u2265\u2aaf\u2ab0\u223c\u2248\u2282\u2283\u226a\u226b\u227a\u227b"
)
"""The symbols of TeX's math symbol font (cmsy) at codes 0-31, which a PDF made by TeX
often leaves without a Unicode mapping: PDFium gives the codes (control characters)."""


_SPACING_ACCENTS = "\u00a8\u00b4\u02c6\u02dc\u02c7\u02da\u00af\u02d8\u02d9\u02dd"  # ¨ ´ ˆ ˜ ˇ ˚ ¯ ˘ ˙ ˝
_ACCENT = re.compile(f"([{_SPACING_ACCENTS}])([^\\W\\d_])")
_COMBINING = dict(zip(_SPACING_ACCENTS, "\u0308\u0301\u0302\u0303\u030c\u030a\u0304\u0306\u0307\u030b"))


def _accented(m: re.Match[str]) -> str:
    """A spacing accent before a letter as the accented letter (TeX sets ``\\"o`` as the
    diaeresis drawn over the ``o``, which the text layer gives as ``¨o``): ``ö`` when Unicode
    has the letter, else the two characters as they were."""
    composed = unicodedata.normalize("NFC", m.group(2) + _COMBINING[m.group(1)])
    return composed if len(composed) == 1 else m.group(0)


def _symbols(line: str, first: int, textpage: Any, units: list[int] | None, raw: Any) -> str:
    """``line`` (the characters from ``first`` of the page's text) without control
    characters: those of TeX's symbol font become its symbols (``\\r`` is the large circle,
    and the circle over ``c`` of TeX's ``\\copyright`` is ``©``), any other is dropped."""
    out = []
    for k, ch in enumerate(line):
        if _CONTROL.match(ch):
            name, _ = _font(textpage, units[first + k] if units else first + k, raw)
            if "cmsy" in name.lower():
                out.append(_CMSY[ord(ch)] if ord(ch) < 32 else "")
        else:
            out.append(ch)
    return "".join(out).replace("\u25efc", "\u00a9")


def _page_lines(page: Any, number: int, raw: Any) -> PdfPage:
    """The text lines of one page, from PDFium's text page (its line breaks ``\\r\\n``)."""
    width, height = page.get_size()
    textpage = page.get_textpage()
    try:
        text = textpage.get_text_range()
        if len(text) != textpage.count_chars():  # characters outside the BMP: index by UTF-16 units
            units = [0]
            for ch in text:
                units.append(units[-1] + (2 if ord(ch) > 0xFFFF else 1))
        else:
            units = None
        box = raw.FS_RECTF()
        ref = ctypes.byref(box)

        def edges(k: int) -> tuple[float, float, float, float]:
            raw.FPDFText_GetLooseCharBox(textpage, units[k] if units else k, ref)
            return box.left, box.right, height - box.top, height - box.bottom

        def listing(gap: float, left: int, right: int) -> bool:
            """Spaces between monospaced characters that keep to their character grid (a
            gap a whole number of characters wide): a code listing's alignment, not cells."""
            x0, x1, _, _ = edges(left)
            cells = gap / max(x1 - x0, 0.01)
            return abs(cells - round(cells)) < 0.03 and all(
                _fixed_pitch(textpage, units[k] if units else k, raw) for k in (left, right)
            )

        lines: list[PdfLine] = []
        pos = 0
        for piece in text.split("\r\n"):
            start = pos
            pos += len(piece) + 2
            if not piece.strip():
                continue
            # the line's runs of text, split where a gap wider than GAP font sizes separates
            # them (table cells, or two columns that the file writes row by row)
            a = start + len(piece) - len(piece.lstrip())
            ua = units[a] if units else a
            size = raw.FPDFText_GetFontSize(textpage, ua)
            b = start + len(piece.rstrip()) - 1
            runs: list[tuple[int, int]] = []
            first = a
            # only a line wider than its characters would make it can hold such a gap
            if edges(b)[1] - edges(a)[0] > (0.5 * (b - a + 1) + GAP) * size:
                gaps = []
                for m in _SPACES.finditer(piece.strip()):
                    left, right = a + m.start() - 1, a + m.end()
                    gaps.append((edges(right)[0] - edges(left)[1], left, right))
                widths = [g[0] for g in gaps]
                # a justified line stretches every space alike: not cells
                justified = len(gaps) >= 3 and max(widths) < 1.5 * max(min(widths), 0.01)
                for gap, left, right in gaps:
                    if gap > GAP * size and not justified and not listing(gap, left, right):
                        runs.append((first, left))
                        first = right
            runs.append((first, b))
            for i, j in runs:
                x0, _, top0, bottom0 = edges(i)
                _, x1, top1, bottom1 = edges(j)
                ui, uj = (units[i], units[j]) if units else (i, j)
                # PDFium joins a word hyphenated across lines into one line: it ends lower down
                top, bottom = min(top0, bottom0, top1, bottom1), max(top0, bottom0, top1, bottom1)
                bold = raw.FPDFText_GetFontWeight(textpage, ui) >= 600 and raw.FPDFText_GetFontWeight(textpage, uj) >= 600
                run = text[i : j + 1]
                if _CONTROL.search(run):
                    run = _symbols(run, i, textpage, units, raw)
                if _ACCENT.search(run):
                    run = _ACCENT.sub(_accented, run)
                lines.append(PdfLine(run, x0, max(x1, x0), top, bottom, size, bold))
    finally:
        textpage.close()
    return PdfPage(number, width, height, tuple(lines))


register_loader(PdfLoader())
