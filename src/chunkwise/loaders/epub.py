"""E-books (``.epub``): the chapters in spine (reading) order, each rendered to Markdown by
the HTML path (:func:`chunkwise.parsers.html.html_to_markdown`).

The container (``META-INF/container.xml``) names the package document (OPF); its spine
gives the reading order of the XHTML documents in its manifest. Every such document is
rendered as the HTML loader renders a page (headings, lists, tables, code, without
navigation) and the chapters are joined by blank lines, so the ``markdown`` strategy gives
header paths from the chapters' own headings. Items outside the spine (styles, images)
are not read, and neither is a table of contents in the spine: the EPUB 3 navigation
document (``properties="nav"``), the EPUB 2 guide's ``toc`` reference, and a document
whose text is mostly links to the book's other documents (at least five, holding half its
characters or more; Debian's ``live-manual.en.epub`` opens with such a page, its entries
written as ``<h1>``-``<h6>``). Its headings would be chunked as headings of their own,
with no text under them, and lead the first chapter with a wrong header path; the
chapters hold the same titles. The book's Dublin Core ``title``, ``creator`` (as
``author``), ``language``, ``date`` (as ``created``, and EPUB 3's ``dcterms:modified`` as
``modified``, both in the one date format of the loaders: :mod:`chunkwise.loaders._dates`)
and ``publisher`` go to the metadata, with ``chapters`` (the number of spine documents that
hold text).

The package is read with :mod:`zipfile` and lxml rather than ebooklib: ebooklib 0.20
refused a real book of the test corpus (Debian's ``live-manual.en.epub``: a manifest
``href`` with a ``#fragment``, ``KeyError``) that e-book readers open, and the OPF is
small enough to read directly.

Method:
    EPUB 2/3 Open Container Format (OCF container, OPF manifest and spine).
"""

from __future__ import annotations

import html as _html
import io
import posixpath
import re
import zipfile
from typing import Any, ClassVar
from urllib.parse import unquote

from ..errors import MissingDependencyError
from ..types import Document
from ._blocks import BinaryLoader, MarkdownWriter
from ._dates import iso_date
from .base import FileFormatError, register_loader
from .decoding import decode_text
from .html import HtmlLoader

__all__ = ["EpubLoader", "is_contents_page"]

_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_DOCUMENT_TYPES = frozenset(["application/xhtml+xml", "text/html", "application/x-dtbook+xml"])
_DC_KEYS = ("title", "creator", "language", "date", "publisher")


def _etree() -> Any:
    try:
        from lxml import etree
    except ImportError:
        raise MissingDependencyError("lxml", "epub", "reading .epub files") from None
    return etree


def _xml(zf: zipfile.ZipFile, name: str) -> Any:
    etree = _etree()
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True)
    return etree.fromstring(zf.read(name), parser)


_LINK = re.compile(r"<a\b([^>]*)>(.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_HIDDEN = re.compile(r"<(script|style|head)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
CONTENTS_LINKS = 5
"""A spine document with fewer links to the book's other documents is never a table of contents."""
CONTENTS_SHARE = 0.5
"""The share of a spine document's characters (white space aside) in links to the book's
other documents from which it is a table of contents."""


def _chars(markup: str) -> int:
    """Characters of the text of ``markup`` (tags removed, entities read), white space aside."""
    return sum(1 for c in _html.unescape(_TAG.sub(" ", markup)) if not c.isspace())


def is_contents_page(markup: str, path: str, documents: set[str]) -> bool:
    """Whether the spine document ``markup`` (at ``path`` in the container) is a table of
    contents: :data:`CONTENTS_LINKS` links or more to other documents of the book
    (``documents``: their paths in the container), whose text holds at least
    :data:`CONTENTS_SHARE` of the document's characters (white space aside).

    Example:
        >>> toc = "<body><h1>Contents</h1>" + "".join(f'<h4><a href="c{i}.xhtml">{i}. Chapter {i}</a></h4>' for i in range(6))
        >>> is_contents_page(toc, "OEBPS/toc.xhtml", {f"OEBPS/c{i}.xhtml" for i in range(6)})
        True
        >>> is_contents_page("<body><p>See <a href='c1.xhtml'>chapter 1</a> for more.</p></body>", "OEBPS/x.xhtml", {"OEBPS/c1.xhtml"})
        False
    """
    if markup.lower().count("<a") < CONTENTS_LINKS:
        return False
    body = _HIDDEN.sub(" ", markup)
    folder = posixpath.dirname(path)
    links = 0
    linked = 0
    for m in _LINK.finditer(body):
        h = _HREF.search(m.group(1))
        href = (h.group(1) if h.group(1) is not None else h.group(2)) if h else ""
        target = unquote(href.split("#", 1)[0].strip())
        if not target or _SCHEME.match(target):
            continue
        if posixpath.normpath(posixpath.join(folder, target)) in documents:
            links += 1
            linked += _chars(m.group(2))
    return links >= CONTENTS_LINKS and linked >= CONTENTS_SHARE * max(_chars(body), 1)


def _opf_path(zf: zipfile.ZipFile, source: str) -> str:
    names = set(zf.namelist())
    if "META-INF/container.xml" in names:
        root = _xml(zf, "META-INF/container.xml")
        for rootfile in root.iter(_CONTAINER + "rootfile"):
            path = rootfile.get("full-path") or ""
            if path in names:
                return path
    found = sorted(n for n in names if n.lower().endswith(".opf"))
    if not found:
        raise FileFormatError(
            f"{source}: not an EPUB book (no package document .opf)", "check that it is an EPUB file", "wrong format"
        )
    return found[0]


class EpubLoader(BinaryLoader):
    """EPUB e-books (``metadata["format"] == "epub"``): chapters in reading order through
    the HTML renderer.

    Needs ``pip install 'chunkwise[epub]'`` (lxml).
    """

    format: ClassVar[str] = "epub"
    suffixes: ClassVar[tuple[str, ...]] = (".epub",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/epub+zip",)
    aliases: ClassVar[tuple[str, ...]] = ()
    label: ClassVar[str] = "EPUB"
    package: ClassVar[str] = "lxml"
    extra: ClassVar[str] = "epub"
    application: ClassVar[str] = "an e-book reader"
    members: ClassVar[tuple[bytes, ...]] = (b"mimetypeapplication/epub+zip", b"META-INF/container.xml")

    def read(self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str) -> Document:
        from ..parsers.html import html_to_markdown

        html_loader = HtmlLoader()
        meta = metadata
        w = MarkdownWriter()
        chapters = 0
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            opf_name = _opf_path(zf, name)
            opf = _xml(zf, opf_name)
            base = posixpath.dirname(opf_name)
            for key in _DC_KEYS:
                el = opf.find(f".//{_DC}{key}")
                text = " ".join((el.xpath("string()") if el is not None else "").split())
                if key == "date":  # the publication date, in the one date format of the loaders
                    text = iso_date(text) or ""
                if text:
                    meta.setdefault({"creator": "author", "date": "created"}.get(key, key), text)
            for el in opf.iter(_OPF + "meta"):  # EPUB 3: <meta property="dcterms:modified">
                if el.get("property") == "dcterms:modified":
                    modified = iso_date(" ".join(el.xpath("string()").split()))
                    if modified:
                        meta.setdefault("modified", modified)
            manifest: dict[str, tuple[str, str]] = {}
            # the tables of contents the package names: EPUB 3's navigation document, EPUB 2's guide
            contents: set[str] = set()
            for item in opf.iter(_OPF + "item"):
                href = unquote((item.get("href") or "").split("#", 1)[0])
                path = posixpath.normpath(posixpath.join(base, href))
                manifest[item.get("id") or ""] = (path, item.get("media-type") or "")
                if "nav" in (item.get("properties") or "").split():
                    contents.add(path)
            for ref in opf.iter(_OPF + "reference"):
                if (ref.get("type") or "").lower() == "toc":
                    href = unquote((ref.get("href") or "").split("#", 1)[0])
                    contents.add(posixpath.normpath(posixpath.join(base, href)))
            members = set(zf.namelist())
            documents = {p for p, media in manifest.values() if media in _DOCUMENT_TYPES}
            seen: set[str] = set()
            for ref in opf.iter(_OPF + "itemref"):
                path, media = manifest.get(ref.get("idref") or "", ("", ""))
                if not path or path in seen or path not in members or media not in _DOCUMENT_TYPES:
                    continue
                seen.add(path)
                if path in contents:
                    continue
                raw = zf.read(path)
                html, _used, _errors = decode_text(
                    raw, source=f"{name}:{path}", declared=html_loader.declared_encoding(raw)
                )
                if is_contents_page(html, path, documents - {path}):
                    continue
                rendered, _found = html_to_markdown(html)
                if rendered.strip():
                    chapters += 1
                    w.add(rendered)
        meta["chapters"] = chapters
        return Document(w.text(), id=id, source=source, metadata=meta)


register_loader(EpubLoader())
