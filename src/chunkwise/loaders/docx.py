"""Word documents (``.docx``): rendered to Markdown by python-docx, in body order.

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
(``w:br w:type="page"``) when the file has none, give the page map, so chunks carry
``page_number``/``page_end`` as Word showed them. A file with neither (most files written by
libraries) has no page map. The core
properties (``title``, ``author``, ``created``, ``modified``, ``subject``, ``keywords``)
go to the document's metadata.

Method:
    ECMA-376 (Office Open XML) WordprocessingML: python-docx opens the package and
    resolves styles; the body, runs, numbering and notes parts are read as XML.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ..types import Document
from ._blocks import PAGE_BREAK, BinaryLoader, MarkdownWriter, core_metadata, escape_line, pipe_table
from .base import register_loader

__all__ = ["DocxLoader"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_ORDERED_FORMATS = frozenset(
    ["decimal", "decimalZero", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman", "ordinal"]
)
_CORE = ("title", "author", "created", "modified", "subject", "keywords", "last_modified_by")


def _docx() -> Any:
    try:
        import docx
    except ImportError:
        raise MissingDependencyError("python-docx", "docx", "reading .docx files") from None
    return docx


def _walk_runs(el: Any, out: list[str], notes: list[str], page: str | None = None) -> None:
    """The text of a paragraph's XML (runs, hyperlinks, insertions, text boxes), in order;
    footnote and endnote references as ``[^n]`` / ``[^en]`` (their ids into ``notes``); the
    elements of tag ``page`` as :data:`PAGE_BREAK`."""
    for child in el:
        tag = child.tag
        if not isinstance(tag, str) or tag == _MC_FALLBACK:
            continue
        if tag == page and (tag != _W + "br" or child.get(_W + "type") == "page"):
            out.append(PAGE_BREAK)
        elif tag == _W + "t":
            out.append(child.text or "")
        elif tag == _W + "tab" and el.tag == _W + "r":
            out.append("\t")
        elif tag in (_W + "br", _W + "cr"):
            out.append(" " if child.get(_W + "type") == "page" else "\n")
        elif tag == _W + "noBreakHyphen":
            out.append("-")
        elif tag == _W + "footnoteReference":
            out.append(f"[^{child.get(_W + 'id')}]")
            notes.append("f" + (child.get(_W + "id") or ""))
        elif tag == _W + "endnoteReference":
            out.append(f"[^e{child.get(_W + 'id')}]")
            notes.append("e" + (child.get(_W + "id") or ""))
        elif tag == _W + "p":  # a paragraph in a text box
            out.append("\n")
            _walk_runs(child, out, notes, page)
            out.append("\n")
        elif tag in (_W + "pPr", _W + "rPr", _W + "del", _W + "instrText", _W + "delText"):
            continue
        else:
            _walk_runs(child, out, notes, page)


def _paragraph_text(p_el: Any, notes: list[str], page: str | None = None) -> str:
    out: list[str] = []
    _walk_runs(p_el, out, notes, page)
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of a paragraph's text, white space collapsed, blank ones dropped (a page
    break on a blank line moves to the start of the next line, else to the end of the last)."""
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
    lead, rest = _lead(line)
    return lead + escape_line(rest)


class _Numbering:
    """List formats from the numbering part: ``(numId, level) -> ordered?``."""

    def __init__(self, document: Any) -> None:
        self.ordered: dict[tuple[str, int], bool] = {}
        try:
            root = document.part.numbering_part.element
        except Exception:  # noqa: BLE001 - no numbering part: every list is a bullet list
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


def _num_pr_of(holder: Any) -> tuple[str, int] | None | bool:
    """The ``(numId, level)`` a paragraph or style element sets, ``None`` when it switches
    numbering off (``numId`` 0), ``False`` when it says nothing."""
    ppr = holder.find(_W + "pPr")
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


def _outline_of(holder: Any) -> int | None:
    ppr = holder.find(_W + "pPr")
    outline = ppr.find(_W + "outlineLvl") if ppr is not None else None
    if outline is not None and (outline.get(_W + "val") or "").isdigit():
        return int(outline.get(_W + "val"))
    return None


class _Styles:
    """The paragraph styles of the styles part, read once: for a style id, its name (lower
    case), outline level and numbering, inherited along ``basedOn`` (python-docx looks a
    style up by an XPath query per paragraph, most of the loading time of a small file)."""

    def __init__(self, document: Any) -> None:
        self.styles: dict[str, tuple[str, int | None, Any, str | None]] = {}
        self.default: str | None = None
        try:
            root = document.styles.element
        except Exception:  # noqa: BLE001 - no or broken styles part: no styles
            return
        for st in root.iter(_W + "style"):
            if st.get(_W + "type") not in (None, "paragraph"):
                continue
            sid = st.get(_W + "styleId") or ""
            name_el = st.find(_W + "name")
            based = st.find(_W + "basedOn")
            name = (name_el.get(_W + "val") or "") if name_el is not None else ""
            self.styles[sid] = (
                " ".join(name.lower().split()),
                _outline_of(st),
                _num_pr_of(st),
                based.get(_W + "val") if based is not None else None,
            )
            if st.get(_W + "default") in ("1", "true", "on") and self.default is None:
                self.default = sid

    def of(self, p_el: Any) -> tuple[str, int | None, Any]:
        """``(name, outline level, numbering)`` of a paragraph's style; the outline level
        and numbering come from the nearest style along ``basedOn`` that sets them."""
        ppr = p_el.find(_W + "pPr")
        ref = ppr.find(_W + "pStyle") if ppr is not None else None
        sid = ref.get(_W + "val") if ref is not None else self.default
        entry = self.styles.get(sid or "")
        if entry is None:
            entry = self.styles.get(self.default or "")
        if entry is None:
            return "", None, False
        name, outline, num, based = entry
        seen = {sid}
        while based and based not in seen and (outline is None or num is False):
            seen.add(based)
            parent = self.styles.get(based)
            if parent is None:
                break
            outline = parent[1] if outline is None else outline
            num = parent[2] if num is False else num
            based = parent[3]
        return name, outline, num


def _num_pr(p_el: Any, style: tuple[str, int | None, Any]) -> tuple[str, int] | None:
    """``(numId, level)`` of a list paragraph (its own numbering, else its style's)."""
    own = _num_pr_of(p_el)
    if own is not False:
        return own  # type: ignore[return-value]
    return style[2] or None


def _heading_level(p_el: Any, style: tuple[str, int | None, Any]) -> int:
    """1..6 for a heading paragraph (by style name or outline level), 0 otherwise."""
    name = style[0]
    if name == "title":
        return 1
    if name.startswith("heading "):
        rest = name[len("heading ") :].strip()
        if rest.isdigit() and 1 <= int(rest) <= 9:
            return min(int(rest), 6)
    level = _outline_of(p_el)
    if level is None:
        level = style[1]
    if level is not None and level < 9:  # 9 is body text
        return min(level + 1, 6)
    return 0


def _notes(document: Any, kind: str) -> dict[str, str]:
    """The text of every footnote (``kind="footnotes"``) or endnote, by id."""
    from lxml import etree

    out: dict[str, str] = {}
    tag = _W + ("footnote" if kind == "footnotes" else "endnote")
    for rel in document.part.rels.values():
        if rel.is_external or not rel.reltype.endswith("/" + kind):
            continue
        root = etree.fromstring(rel.target_part.blob)
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
    ``pip install 'chunkwise[docx]'`` (python-docx).

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
    package: ClassVar[str] = "python-docx"
    extra: ClassVar[str] = "docx"
    members: ClassVar[tuple[bytes, ...]] = (b"word/",)

    def read(self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str) -> Document:
        docx = _docx()
        document = docx.Document(io.BytesIO(data))
        meta = metadata
        core_metadata(document.core_properties, meta, _CORE)
        notes = {"f" + k: v for k, v in _notes(document, "footnotes").items()}
        notes.update({"e" + k: v for k, v in _notes(document, "endnotes").items()})
        w = MarkdownWriter()
        numbering = _Numbering(document)
        styles = _Styles(document)
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
            write_notes(refs)

        body = document.element.body
        # the page breaks Word laid out when it last saved the file, else the explicit ones
        rendered = next(body.iter(_W + "lastRenderedPageBreak"), None) is not None
        page = _W + "lastRenderedPageBreak" if rendered else _W + "br"
        w.begin_page(1)
        for block in _body(document):
            refs: list[str] = []
            if block.tag == _W + "tbl":
                flush_list()
                w.add(_table(_table_rows(block, refs, page)))
                add_notes(refs)
                continue
            text = _paragraph_text(block, refs, page)
            lines = _lines(text)
            if not lines:
                continue
            if not "".join(lines).replace(PAGE_BREAK, ""):
                w.add("".join(lines))  # only page breaks: they start the next page
                continue
            style = styles.of(block)
            level = _heading_level(block, style)
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
            num = _num_pr(block, style)
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
        pages = tuple(w.pages) if len(w.pages) > 1 else ()  # one page says nothing
        return Document(text, id=id, source=source, metadata=meta, pages=pages)


def _body(document: Any) -> Iterator[Any]:
    """The ``w:p`` and ``w:tbl`` elements of the body, in order (content controls
    ``w:sdt`` opened: a cover page or table of contents is content too)."""

    def walk(el: Any) -> Iterator[Any]:
        for child in el:
            if child.tag in (_W + "p", _W + "tbl"):
                yield child
            elif child.tag in (_W + "sdt", _W + "sdtContent", _W + "customXml", _W + "ins"):
                yield from walk(child)

    yield from walk(document.element.body)


def _owned(el: Any, tag: str, owner: Any) -> Iterator[Any]:
    """The ``tag`` descendants of ``owner`` that are not inside a nested one (the rows of
    this table, not of a table in one of its cells; content controls looked through)."""
    for child in el:
        if child.tag == tag:
            yield child
        elif child.tag in (_W + "sdt", _W + "sdtContent", _W + "customXml", _W + "ins"):
            yield from _owned(child, tag, owner)


def _table_rows(tbl: Any, refs: list[str], page: str | None = None) -> list[list[str]]:
    rows: list[list[str]] = []
    for tr in _owned(tbl, _W + "tr", tbl):
        cells = []
        for tc in _owned(tr, _W + "tc", tr):
            parts = [" ".join(_lines(_paragraph_text(p, refs, page))) for p in tc.iter(_W + "p")]
            cells.append(" ".join(x for x in parts if x))
        rows.append(cells)
    return rows


def _table(rows: list[list[str]]) -> str:
    """A pipe table of ``rows``; a row that holds a page break starts the next page (the
    break moves to the start of its line)."""
    broken = [any(PAGE_BREAK in c for c in row) for row in rows]
    table = pipe_table([[c.replace(PAGE_BREAK, "") for c in row] for row in rows])
    if not table or not any(broken):
        return table
    lines = table.split("\n")
    for k, b in enumerate(broken):
        if b:
            line = 0 if k == 0 else k + 1  # the delimiter row follows the header
            lines[line] = PAGE_BREAK + lines[line]
    return "\n".join(lines)


register_loader(DocxLoader())
