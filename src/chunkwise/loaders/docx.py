"""Word documents (``.docx``): rendered to Markdown in body order, read with :mod:`zipfile`
and lxml.

Heading styles (``Heading 1``..``Heading 9``, ``Title``, or a paragraph outline level) become
ATX headings (``#``..``######``), so the ``markdown`` strategy gives header paths; numbered
and bulleted paragraphs become list items (nested by their list level); tables become GFM
pipe tables (the table parser then chunks them by rows, its header repeated in
``context``); footnotes and endnotes become Markdown footnotes (``[^1]`` where they are
referenced, ``[^1]: text`` right after the paragraph or table that references them, so a
note stays in the chunk of its reference). Text boxes are read once (not their VML
fallback copy); deleted revisions, field codes, headers and footers are left out.

Pages: a DOCX holds no pages, but Word records where its layout turned a page when it last
saved the file (``w:lastRenderedPageBreak``); those marks, else the explicit page breaks
when the file has none (``w:br w:type="page"``; a paragraph whose properties, style or
the document defaults say "page break before", ``w:pageBreakBefore``, unless it is at the
top of a page already; a section break whose next section starts on a new page, ``nextPage``,
``oddPage`` or ``evenPage``, the blank page Word may add for the odd or even one not
counted), give the page map, so chunks carry ``page_number``/``page_end`` as Word showed them. One
such mark or break gives a page map even when all the text is on page 1 (a break at the
end, a "page break before" on the first paragraph). A file with neither (most files
written by libraries) has no page map. The core
properties (``title``, ``author``, ``created``, ``modified``, ``subject``, ``keywords``)
go to the document's metadata.

The package is read directly: the main document part named by the package relationships
(``word/document.xml``), and the styles, numbering, footnotes and endnotes parts its own
relationships name; no other part is opened. python-docx, which the loader used before,
opens every part and relationship of the package first: 10-20x the time of the whole
rendering on small files (``benchmarks/bench_office.py``). Files in the Strict variant of
the format (ISO/IEC 29500 Strict namespaces, which python-docx refuses) are read too.

Method:
    ECMA-376 / ISO/IEC 29500 Office Open XML: the OPC package (relationships parts,
    ``docProps/core.xml``) and WordprocessingML (body, runs, styles, numbering, notes).
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, ClassVar
from urllib.parse import unquote

from ..errors import MissingDependencyError
from ..types import Document
from ._blocks import PAGE_BREAK, BinaryLoader, MarkdownWriter, escape_line, pipe_table
from ._dates import iso_date
from .base import FileFormatError, register_loader

__all__ = ["DocxLoader"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_ORDERED_FORMATS = frozenset(
    ["decimal", "decimalZero", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman", "ordinal"]
)


_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
# the ISO/IEC 29500 Strict namespaces, read as their Transitional equivalents
_STRICT = (
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", _W[1:-1].encode()),
    (
        b"http://purl.oclc.org/ooxml/officeDocument/relationships",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    ),
)
_CORE_TAGS = {
    "title": "{http://purl.org/dc/elements/1.1/}title",
    "author": "{http://purl.org/dc/elements/1.1/}creator",
    "created": "{http://purl.org/dc/terms/}created",
    "modified": "{http://purl.org/dc/terms/}modified",
    "subject": "{http://purl.org/dc/elements/1.1/}subject",
    "keywords": "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}keywords",
    "last_modified_by": "{http://schemas.openxmlformats.org/package/2006/metadata/core-properties}lastModifiedBy",
}


def _etree() -> Any:
    try:
        from lxml import etree
    except ImportError:
        raise MissingDependencyError("lxml", "docx", "reading .docx files") from None
    return etree


_MENTIONS: dict[tuple[int, int, int, bytes], bool] = {}
"""What :meth:`_Package.mentions` found in the parts it read, by their CRC and sizes."""


class _Package:
    """The parts of an OPC package (a ZIP) by name, and their relationships.

    Part names are matched without regard to case (OPC part names are case-insensitive);
    a relationship's target is resolved against its source part's folder.
    """

    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        self.names = {n.lower(): n for n in zf.namelist()}
        etree = _etree()
        self.parser = etree.XMLParser(resolve_entities=False, no_network=True)
        self.etree = etree

    def read(self, part: str | None) -> bytes | None:
        """The bytes of a part (Strict namespaces made Transitional), or None when the
        package has no such part."""
        member = self.names.get((part or "").lower()) if part else None
        if member is None:
            return None
        data = self.zf.read(member)
        if b"http://purl.oclc.org/ooxml/" in data[:8192]:  # the namespaces are declared at the root
            for strict, transitional in _STRICT:
                data = data.replace(strict, transitional)
        return data

    def mentions(self, part: str | None, word: bytes) -> bool:
        """Whether the bytes of a part hold ``word``; known without reading the part for a
        part seen before (by its CRC and sizes: the files made from one template)."""
        member = self.names.get((part or "").lower()) if part else None
        if member is None:
            return False
        info = self.zf.getinfo(member)
        key = (info.CRC, info.file_size, info.compress_size, word)
        found = _MENTIONS.get(key)
        if found is None:
            if len(_MENTIONS) >= 64:
                _MENTIONS.clear()
            found = _MENTIONS[key] = word in (self.read(part) or b"")
        return found

    def xml(self, part: str | None) -> Any:
        """The root element of a part, or None when the package has no such part."""
        data = self.read(part)
        return None if data is None else self.etree.fromstring(data, self.parser)

    def rels(self, part: str) -> dict[str, str]:
        """The internal relationships of ``part`` (``""`` for the package): the last
        segment of each relationship type (``"officeDocument"``, ``"styles"``) -> the target
        part's name (the first of each type)."""
        folder, base = posixpath.split(part)
        root = self.xml(posixpath.join(folder, "_rels", base + ".rels"))
        out: dict[str, str] = {}
        if root is None:
            return out
        for rel in root.iter(_REL):
            if rel.get("TargetMode") == "External":
                continue
            kind = (rel.get("Type") or "").rstrip("/").rsplit("/", 1)[-1]
            target = unquote(rel.get("Target") or "")
            if not target or kind in out:
                continue
            path = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
            out[kind] = posixpath.normpath(path)
        return out



def _w3cdtf(text: str) -> str | None:
    """A W3CDTF date (``2014-06-10T11:09:00Z``, ``2003-12-31T10:14:55-08:00``, ``2003``)
    in the one date format of the loaders (:func:`chunkwise.loaders._dates.iso_date`: UTC
    for a moment; a zone left out is UTC, as OOXML says), or None.

    Example:
        >>> _w3cdtf("2003-12-31T10:14:55-08:00"), _w3cdtf("2014-06"), _w3cdtf("June")
        ('2003-12-31T18:14:55+00:00', '2014-06', None)
    """
    return iso_date(text, naive_is_utc=True)


def _core_properties(root: Any, meta: dict[str, Any]) -> None:
    """The core properties of ``docProps/core.xml`` into ``meta`` (dates as ISO 8601 in
    UTC), without replacing what the caller gave."""
    if root is None:
        return
    for key, tag in _CORE_TAGS.items():
        el = root.find(tag)
        text = (el.text or "") if el is not None else ""
        if key in ("created", "modified"):
            text = _w3cdtf(text) or ""
        if text.strip():
            meta.setdefault(key, text)


_NOTE_REFS = (_W + "footnoteReference", _W + "endnoteReference")
_TEXT_TAGS = tuple(
    _W + t
    for t in ("t", "tab", "br", "cr", "noBreakHyphen", "footnoteReference", "endnoteReference", "lastRenderedPageBreak")
)
"""The elements of a paragraph that give text, in the order :func:`_paragraph_text` tests them."""
_SKIPPED = frozenset(_W + t for t in ("pPr", "rPr", "del", "instrText", "delText")) | {_MC_FALLBACK}
"""Elements whose content is not the paragraph's text: properties, deleted revisions,
field codes, the fallback copy of alternate content."""
_WRAPPERS = (_W + "sdt", _W + "sdtContent", _W + "customXml", _W + "ins")
"""Elements looked through for the blocks, rows and cells they hold (content controls,
custom XML, inserted revisions)."""
_INTRICATE = (_W + "txbxContent", _W + "del", _MC_FALLBACK.replace("Fallback", "AlternateContent"))


def _text_elements(el: Any) -> Iterator[Any]:
    """The text elements (:data:`_TEXT_TAGS`) of a paragraph's XML in document order, past
    the elements of :data:`_SKIPPED`; a paragraph nested in a text box given before and
    after its own (each time as the ``w:p`` element: a line end)."""
    for child in el:
        tag = child.tag
        if not isinstance(tag, str) or tag in _SKIPPED:
            continue
        if tag in _TEXT_TAGS:
            yield child
        elif tag == _W + "p":  # a paragraph in a text box
            yield child
            yield from _text_elements(child)
            yield child
        else:
            yield from _text_elements(child)


def _paragraph_text(p_el: Any, notes: list[str], page: str | None = None, plain: bool = False) -> str:
    """The text of a paragraph's XML (runs, hyperlinks, insertions, text boxes), in order;
    footnote and endnote references as ``[^n]`` / ``[^en]`` (their ids into ``notes``); the
    elements of tag ``page`` as :data:`PAGE_BREAK` (a typed break ``w:br`` of type
    ``page``, or Word's ``w:lastRenderedPageBreak``); a paragraph of a text box on lines of
    its own.

    The elements come from :func:`_text_elements`, a walk that leaves out what is not text
    (:data:`_SKIPPED`); ``plain``: the document has none of those but properties and field
    codes (no text box, alternate content or deleted revision, :data:`_INTRICATE`), so
    lxml's own iteration over the text elements gives the same ones (3x faster)."""
    out: list[str] = []
    for el in p_el.iter(_TEXT_TAGS) if plain else _text_elements(p_el):
        tag = el.tag
        if tag == _W + "t":
            out.append(el.text or "")
        elif tag == page and (tag != _W + "br" or el.get(_W + "type") == "page"):
            if tag == _W + "br":  # a typed page break also ends the line (Word's rendered mark does not)
                out.append("\n")
            out.append(PAGE_BREAK)
        elif tag == _W + "tab":
            if el.getparent().tag == _W + "r":  # not a tab stop of the paragraph's properties
                out.append("\t")
        elif tag == _W + "br" or tag == _W + "cr":
            out.append(" " if el.get(_W + "type") == "page" else "\n")
        elif tag == _W + "noBreakHyphen":
            out.append("-")
        elif tag == _W + "footnoteReference":
            out.append(f"[^{el.get(_W + 'id')}]")
            notes.append("f" + (el.get(_W + "id") or ""))
        elif tag == _W + "endnoteReference":
            out.append(f"[^e{el.get(_W + 'id')}]")
            notes.append("e" + (el.get(_W + "id") or ""))
        elif tag == _W + "p":  # the start or end of a text box's paragraph
            out.append("\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of a paragraph's text, white space collapsed, blank ones dropped (a page
    break on a blank line moves to the start of the next line, else to the end of the last)."""
    if "\n" not in text and PAGE_BREAK not in text:  # most paragraphs: one line
        line = " ".join(text.split())
        return [line] if line else []
    out: list[str] = []
    carry = ""
    for raw in text.split("\n"):
        line = " ".join(raw.split())
        if not line.replace(PAGE_BREAK, "").strip():
            carry += PAGE_BREAK * line.count(PAGE_BREAK)
            continue
        out.append(carry + line)
        carry = ""
    if carry and out:
        out[-1] += carry
    elif carry:
        out.append(carry)
    return out


def _lead(line: str) -> tuple[str, str]:
    """``line`` split into its leading page breaks and the rest."""
    rest = line.lstrip(PAGE_BREAK)
    return line[: len(line) - len(rest)], rest


def _escaped(line: str) -> str:
    """:func:`escape_line` past the line's leading page breaks."""
    if not line.startswith(PAGE_BREAK):
        return escape_line(line)
    lead, rest = _lead(line)
    return lead + escape_line(rest)


class _Numbering:
    """List formats from the numbering part: ``(numId, level) -> ordered?``."""

    def __init__(self, root: Any) -> None:
        self.ordered: dict[tuple[str, int], bool] = {}
        if root is None:  # no numbering part: every list is a bullet list
            return
        abstract: dict[str, dict[int, bool]] = {}
        for an in root.iter(_W + "abstractNum"):
            levels: dict[int, bool] = {}
            for lvl in an.iter(_W + "lvl"):
                fmt = lvl.find(_W + "numFmt")
                value = fmt.get(_W + "val") if fmt is not None else "bullet"
                levels[int(lvl.get(_W + "ilvl") or 0)] = value in _ORDERED_FORMATS
            abstract[an.get(_W + "abstractNumId") or ""] = levels
        for num in root.iter(_W + "num"):
            ref = num.find(_W + "abstractNumId")
            if ref is None:
                continue
            for level, ordered in abstract.get(ref.get(_W + "val") or "", {}).items():
                self.ordered[(num.get(_W + "numId") or "", level)] = ordered


def _num_pr_of(ppr: Any) -> tuple[str, int] | None | bool:
    """The ``(numId, level)`` that a paragraph's or style's properties (``w:pPr``, or None)
    set, ``None`` when they switch numbering off (``numId`` 0), ``False`` when they say nothing."""
    num = ppr.find(_W + "numPr") if ppr is not None else None
    if num is None:
        return False
    num_id = num.find(_W + "numId")
    ilvl = num.find(_W + "ilvl")
    nid = num_id.get(_W + "val") if num_id is not None else None
    if nid in (None, "0"):
        return None
    level = int(ilvl.get(_W + "val")) if ilvl is not None and (ilvl.get(_W + "val") or "").isdigit() else 0
    return nid, level


def _toggle(el: Any) -> bool | None:
    """A toggle property's value (``<w:pageBreakBefore/>`` is on, ``w:val="0"``, ``"false"``
    or ``"off"`` off), or None when the element is absent."""
    if el is None:
        return None
    return el.get(_W + "val") not in ("0", "false", "off")


def _break_of(ppr: Any) -> bool | None:
    """Whether a paragraph's or style's properties (``w:pPr``, or None) start it on a new
    page (``w:pageBreakBefore``), None when they say nothing."""
    return _toggle(ppr.find(_W + "pageBreakBefore")) if ppr is not None else None


_Style = tuple[str, int | None, Any, bool | None]
"""A paragraph style as :meth:`_Styles.of` gives it: ``(name, outline level, numbering,
page break before)``."""


def _outline_of(ppr: Any) -> int | None:
    outline = ppr.find(_W + "outlineLvl") if ppr is not None else None
    if outline is not None and (outline.get(_W + "val") or "").isdigit():
        return int(outline.get(_W + "val"))
    return None


class _Styles:
    """The paragraph styles of the styles part, read once: for a style id, its name (lower
    case), outline level, numbering and page break before, inherited along ``basedOn``
    (python-docx looks a
    style up by an XPath query per paragraph, most of the loading time of a small file).
    Without a styles part, a style id stands for its name (``Heading1`` is "heading 1", as
    Word's built-in styles are named)."""

    def __init__(self, root: Any) -> None:
        self.styles: dict[str, tuple[str, int | None, Any, str | None, bool | None]] = {}
        self.default: str | None = None
        self.missing = root is None
        self.cache: dict[str | None, _Style] = {}
        self.numbered = False  # whether a style numbers its paragraphs
        self.breaking = False  # whether a style starts its paragraphs on a new page
        self.base_break: bool | None = None  # the document defaults' page break before
        if root is None:
            return
        defaults = root.find(f"{_W}docDefaults/{_W}pPrDefault/{_W}pPr")
        self.base_break = _break_of(defaults)
        self.breaking = bool(self.base_break)
        for st in root.iterchildren(_W + "style"):
            if st.get(_W + "type") not in (None, "paragraph"):
                continue
            sid = st.get(_W + "styleId") or ""
            name_el = st.find(_W + "name")
            based = st.find(_W + "basedOn")
            name = (name_el.get(_W + "val") or "") if name_el is not None else ""
            self.styles[sid] = (
                " ".join(name.lower().split()),
                _outline_of(st.find(_W + "pPr")),
                _num_pr_of(st.find(_W + "pPr")),
                based.get(_W + "val") if based is not None else None,
                _break_of(st.find(_W + "pPr")),
            )
            if st.get(_W + "default") in ("1", "true", "on") and self.default is None:
                self.default = sid
            self.numbered = self.numbered or bool(self.styles[sid][2])
            self.breaking = self.breaking or bool(self.styles[sid][4])

    def of(self, ppr: Any) -> _Style:
        """``(name, outline level, numbering, page break before)`` of the style of a
        paragraph (given its properties ``w:pPr``, or None); all but the name come from the
        nearest style along ``basedOn`` that sets them."""
        ref = ppr.find(_W + "pStyle") if ppr is not None else None
        sid = ref.get(_W + "val") if ref is not None else self.default
        found = self.cache.get(sid)
        if found is None:
            found = self.cache[sid] = self._resolve(sid)
        return found

    def _resolve(self, sid: str | None) -> _Style:
        entry = self.styles.get(sid or "")
        if entry is None and self.missing and sid:
            name = sid.lower()
            if name.startswith("heading") and name[7:].strip().isdigit():
                name = "heading " + name[7:].strip()
            return name, None, False, None
        if entry is None:
            entry = self.styles.get(self.default or "")
        if entry is None:
            return "", None, False, self.base_break
        name, outline, num, based, brk = entry
        seen = {sid}
        while based and based not in seen and (outline is None or num is False or brk is None):
            seen.add(based)
            parent = self.styles.get(based)
            if parent is None:
                break
            outline = parent[1] if outline is None else outline
            num = parent[2] if num is False else num
            brk = parent[4] if brk is None else brk
            based = parent[3]
        return name, outline, num, self.base_break if brk is None else brk


@lru_cache(maxsize=4)
def _styles_of(data: bytes | None) -> _Styles:
    """The paragraph styles of a styles part's bytes, kept for the next files with the same
    part: the files made from one template share it, and parsing it is most of the time of
    loading a small file (python-docx's template: 438 KB)."""
    if data is None:
        return _Styles(None)
    return _Styles(_etree().fromstring(data, _etree().XMLParser(resolve_entities=False, no_network=True)))


def _num_pr(ppr: Any, style: _Style) -> tuple[str, int] | None:
    """``(numId, level)`` of a list paragraph (its own numbering, else its style's), from
    its properties ``w:pPr`` (or None)."""
    own = _num_pr_of(ppr)
    if own is not False:
        return own  # type: ignore[return-value]
    return style[2] or None


def _heading_level(ppr: Any, style: _Style) -> int:
    """1..6 for a heading paragraph (by style name or outline level, from its properties
    ``w:pPr`` or None), 0 otherwise."""
    name = style[0]
    if name == "title":
        return 1
    if name.startswith("heading "):
        rest = name[len("heading ") :].strip()
        if rest.isdigit() and 1 <= int(rest) <= 9:
            return min(int(rest), 6)
    level = _outline_of(ppr)
    if level is None:
        level = style[1]
    if level is not None and level < 9:  # 9 is body text
        return min(level + 1, 6)
    return 0


def _notes(root: Any, kind: str) -> dict[str, str]:
    """The text of every footnote (``kind="footnotes"``) or endnote of a notes part, by id."""
    out: dict[str, str] = {}
    tag = _W + ("footnote" if kind == "footnotes" else "endnote")
    if root is not None:
        for note in root.iter(tag):
            if note.get(_W + "type") not in (None, "normal"):
                continue  # separators
            paras = []
            for p in note.iter(_W + "p"):
                text = " ".join(_lines(_paragraph_text(p, []))).replace(PAGE_BREAK, "")
                if text:
                    paras.append(text)
            out[note.get(_W + "id") or ""] = " ".join(paras)
    return out


class DocxLoader(BinaryLoader):
    """Word documents (``metadata["format"] == "docx"``), rendered as Markdown.

    See the module's description for what becomes what. Needs
    ``pip install 'chunkwise[docx]'`` (lxml; the example builds a file with python-docx).

    Example:
        >>> import io, docx
        >>> d = docx.Document(); _ = d.add_heading("Intro", 1); _ = d.add_paragraph("Hello.")
        >>> buf = io.BytesIO(); d.save(buf)
        >>> DocxLoader().load_bytes(buf.getvalue(), source="a.docx").text
        '# Intro\\n\\nHello.\\n'
    """

    format: ClassVar[str] = "docx"
    suffixes: ClassVar[tuple[str, ...]] = (".docx", ".docm")
    mime_types: ClassVar[tuple[str, ...]] = (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.ms-word.document.macroenabled.12",
    )
    aliases: ClassVar[tuple[str, ...]] = ("word",)
    label: ClassVar[str] = "DOCX"
    package: ClassVar[str] = "lxml"
    extra: ClassVar[str] = "docx"
    members: ClassVar[tuple[bytes, ...]] = (b"word/",)

    def read(self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str) -> Document:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            package = _Package(zf)
            top = package.rels("")
            main = top.get("officeDocument") or "word/document.xml"
            root = package.xml(main)
            if root is None or root.tag != _W + "document":
                found = f"its main part is {main}" if root is not None else f"no {main} part"
                raise FileFormatError(
                    f"{name}: not a DOCX file (a ZIP container without a Word document: {found})",
                    "rename it to its real format (.xlsx, .pptx, .epub, .zip) or leave it out",
                    "wrong format",
                )
            meta = metadata
            _core_properties(package.xml(top.get("core-properties")), meta)
            parts = package.rels(main)
            body = root.find(_W + "body")
            # parts are parsed only when the body needs them (the styles part of a Word
            # template is 15-450 KB: most of the time of loading a small file)
            used = {el.tag for el in (body.iter(_W + "pStyle", _W + "numPr", *_NOTE_REFS) if body is not None else ())}
            if _W + "pStyle" in used:
                styles = _styles_of(package.read(parts.get("styles")))
            elif body is not None and package.mentions(parts.get("styles"), b"pageBreakBefore"):
                # every paragraph has the default style: only its "page break before" matters
                styles = _styles_of(package.read(parts.get("styles")))
            else:
                styles = _Styles(None)
            numbering = _Numbering(
                package.xml(parts.get("numbering")) if _W + "numPr" in used or styles.numbered else None
            )
            notes: dict[str, str] = {}
            for kind, tag in (("footnotes", _W + "footnoteReference"), ("endnotes", _W + "endnoteReference")):
                if tag in used:
                    notes.update({kind[0] + k: v for k, v in _notes(package.xml(parts.get(kind)), kind).items()})
        return self._render(root, styles, numbering, notes, meta, source=source, id=id)

    def _render(
        self,
        root: Any,
        styles: _Styles,
        numbering: _Numbering,
        notes: dict[str, str],
        meta: dict[str, Any],
        *,
        source: str | None,
        id: str,
    ) -> Document:
        w = MarkdownWriter()
        body = root.find(_W + "body")
        if body is None:
            return Document("", id=id, source=source, metadata=meta)
        items: list[str] = []  # the list being written
        item_refs: list[str] = []  # the notes its items cite: written after the list
        counters: dict[tuple[str, int], int] = {}
        title_seen = False

        def write_notes(refs: list[str]) -> None:
            lines = []
            for ref in dict.fromkeys(refs):
                text = notes.get(ref)
                if text:
                    label = ref[1:] if ref[0] == "f" else "e" + ref[1:]
                    lines.append(f"[^{label}]: {text}")
            if lines:
                w.add("\n".join(lines))

        def flush_list() -> None:
            if items:
                w.add("\n".join(items))
                items.clear()
                counters.clear()
                write_notes(item_refs)
                item_refs.clear()

        def add_notes(refs: list[str]) -> None:
            flush_list()
            if refs:
                write_notes(refs)

        # the page breaks Word laid out when it last saved the file, else the explicit ones
        rendered = next(body.iter(_W + "lastRenderedPageBreak"), None) is not None
        page = _W + "lastRenderedPageBreak" if rendered else _W + "br"
        plain = next(body.iter(_INTRICATE), None) is None
        # "page break before" counts where the explicit breaks do (no rendered breaks)
        breaking = not rendered and (styles.breaking or next(body.iter(_W + "pageBreakBefore"), None) is not None)
        # a section break that starts the next section on a new page, by its paragraph
        sections = set() if rendered else _page_sections(body)
        breaking = breaking or bool(sections)
        # an explicit page turn says the file has pages, even one (all its text on page 1)
        paged = rendered or bool(sections) or next(
            (b for b in body.iter(_W + "br") if b.get(_W + "type") == "page"), None
        ) is not None
        section = False  # the paragraph before ended a section: this block starts a page
        # a paragraph of the Title style is the root of the breadcrumbs: one level above
        # Heading 1, whose level (and every heading's) goes one down
        shift = int(any(
            block.tag == _W + "p" and styles.of(block.find(_W + "pPr"))[0] == "title" for block in _body(body)
        ))
        w.begin_page(1)
        top = True  # nothing laid out on the page yet: a break before a paragraph turns no page
        for block in _body(body):
            refs: list[str] = []
            if block.tag == _W + "tbl":
                flush_list()
                if section:
                    w.add(PAGE_BREAK)  # written before the table: its page starts at it
                    section = False
                table = _table(_table_rows(block, refs, page, plain))
                w.add(table)
                top = top and not table.strip()
                add_notes(refs)
                continue
            text = _paragraph_text(block, refs, page, plain)
            ppr = style = None
            if breaking:
                if section:
                    text = PAGE_BREAK + text
                    section = False
                elif not top or not paged:
                    ppr = block.find(_W + "pPr")
                    style = styles.of(ppr)
                    brk = _break_of(ppr)
                    if brk if brk is not None else style[3]:  # "page break before", its own or its style's
                        paged = True
                        if not top:
                            text = PAGE_BREAK + text
                # an empty paragraph takes a line too; a page break at its end leaves the page's top
                top = PAGE_BREAK in text and text.rstrip().endswith(PAGE_BREAK)
                if sections and block in sections:
                    # the next section starts a page; its mark is on a line of its own,
                    # after a page break too (the blank page Word shows then)
                    section = top = True
            lines = _lines(text)
            if not lines:
                continue
            if not "".join(lines).replace(PAGE_BREAK, ""):
                flush_list()  # the list written so far is on the page this break ends
                w.add("".join(lines))  # only page breaks: they start the next page
                continue
            if style is None:
                ppr = block.find(_W + "pPr")
                style = styles.of(ppr)
            level = _heading_level(ppr, style)
            if level and shift and style[0] != "title":
                level = min(level + 1, 6)
            if level:
                flush_list()
                lead, heading = _lead(" ".join(lines))
                w.add(lead + "#" * level + " " + heading)
                heading = heading.replace(PAGE_BREAK, "")
                if not title_seen and level == 1:
                    meta.setdefault("title", heading)
                    title_seen = True
                add_notes(refs)
                continue
            num = _num_pr(ppr, style)
            if num is not None:
                nid, lvl = num
                for key in [k for k in counters if k[1] > lvl]:
                    del counters[key]
                ordered = numbering.ordered.get((nid, lvl), False)
                counters[(nid, lvl)] = counters.get((nid, lvl), 0) + 1
                marker = f"{counters[(nid, lvl)]}. " if ordered else "- "
                pad = " " * (4 * lvl)
                lead, first = _lead(lines[0])
                items.append(lead + pad + marker + escape_line(first))
                items.extend(pad + " " * len(marker) + _escaped(x) for x in lines[1:])
                item_refs.extend(refs)
                continue
            flush_list()
            w.add("\n".join(_escaped(x) for x in lines))
            add_notes(refs)
        flush_list()
        text = w.text()
        pages = tuple(w.pages) if paged or len(w.pages) > 1 else ()  # one page says nothing unless turned
        return Document(text, id=id, source=source, metadata=meta, pages=pages)


def _body(body: Any) -> Iterator[Any]:
    """The ``w:p`` and ``w:tbl`` elements of the body, in order (content controls
    ``w:sdt`` opened: a cover page or table of contents is content too)."""

    def walk(el: Any) -> Iterator[Any]:
        for child in el.iterchildren(_W + "p", _W + "tbl", *_WRAPPERS):
            if child.tag in (_W + "p", _W + "tbl"):
                yield child
            else:
                yield from walk(child)

    yield from walk(body)


_NEW_PAGE_SECTIONS = frozenset(["nextPage", "oddPage", "evenPage"])


def _page_sections(body: Any) -> set[Any]:
    """The paragraphs that end a section (a ``w:sectPr`` in their properties) after which
    the next section starts on a new page: the next section's own ``w:sectPr`` (the next
    paragraph's, or the body's for the last section) says how that section starts (its
    ``w:type``: ``nextPage``, the default, ``oddPage`` or ``evenPage``; ``continuous`` and
    ``nextColumn`` turn no page)."""
    ends = [
        sect for sect in body.iter(_W + "sectPr")
        if sect.getparent().tag == _W + "body" or (
            sect.getparent().tag == _W + "pPr" and sect.getparent().getparent().tag == _W + "p"
        )
    ]
    out = set()
    for k, sect in enumerate(ends):
        if sect.getparent().tag == _W + "body":
            continue
        kind = None
        if k + 1 < len(ends):
            el = ends[k + 1].find(_W + "type")
            kind = el.get(_W + "val") if el is not None else None
        if kind is None or kind in _NEW_PAGE_SECTIONS:
            out.add(sect.getparent().getparent())
    return out


def _owned(el: Any, tag: str, owner: Any) -> Iterator[Any]:
    """The ``tag`` descendants of ``owner`` that are not inside a nested one (the rows of
    this table, not of a table in one of its cells; content controls looked through)."""
    for child in el.iterchildren(tag, *_WRAPPERS):
        if child.tag == tag:
            yield child
        else:
            yield from _owned(child, tag, owner)


def _table_rows(tbl: Any, refs: list[str], page: str | None = None, plain: bool = False) -> list[list[str]]:
    rows: list[list[str]] = []
    for tr in _owned(tbl, _W + "tr", tbl):
        cells = []
        for tc in _owned(tr, _W + "tc", tr):
            parts = [" ".join(_lines(_paragraph_text(p, refs, page, plain))) for p in tc.iter(_W + "p")]
            cells.append(" ".join(x for x in parts if x))
        rows.append(cells)
    return rows


def _table(rows: list[list[str]]) -> str:
    """A pipe table of ``rows``; a row that holds a page break starts the next page (the
    break moves to the start of its line)."""
    if not any(PAGE_BREAK in "".join(row) for row in rows):
        return pipe_table(rows)
    broken = [PAGE_BREAK in "".join(row) for row in rows]
    table = pipe_table([[c.replace(PAGE_BREAK, "") for c in row] for row in rows])
    if not table:
        return table
    lines = table.split("\n")
    for k, b in enumerate(broken):
        if b:
            line = 0 if k == 0 else k + 1  # the delimiter row follows the header
            lines[line] = PAGE_BREAK + lines[line]
    return "\n".join(lines)


register_loader(DocxLoader())
