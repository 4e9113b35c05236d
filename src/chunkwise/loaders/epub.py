"""E-books (``.epub``): the chapters in spine (reading) order, each rendered to Markdown by
the HTML path (:func:`chunkwise.parsers.html.html_to_markdown`).

The container (``META-INF/container.xml``) names the package document (OPF); its spine
gives the reading order of the XHTML documents in its manifest. Every such document is
rendered as the HTML loader renders a page (headings, lists, tables, code, without
navigation) and the chapters are joined by blank lines, so the ``markdown`` strategy gives
header paths from the chapters' own headings. Items outside the spine (the navigation
document, styles, images) are not read. The book's Dublin Core ``title``, ``creator`` (as
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

import io
import posixpath
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

__all__ = ["EpubLoader"]

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
            for item in opf.iter(_OPF + "item"):
                href = unquote((item.get("href") or "").split("#", 1)[0])
                path = posixpath.normpath(posixpath.join(base, href))
                manifest[item.get("id") or ""] = (path, item.get("media-type") or "")
            members = set(zf.namelist())
            seen: set[str] = set()
            for ref in opf.iter(_OPF + "itemref"):
                path, media = manifest.get(ref.get("idref") or "", ("", ""))
                if not path or path in seen or path not in members or media not in _DOCUMENT_TYPES:
                    continue
                seen.add(path)
                raw = zf.read(path)
                html, _used, _errors = decode_text(
                    raw, source=f"{name}:{path}", declared=html_loader.declared_encoding(raw)
                )
                rendered, _found = html_to_markdown(html)
                if rendered.strip():
                    chapters += 1
                    w.add(rendered)
        meta["chapters"] = chapters
        return Document(w.text(), id=id, source=source, metadata=meta)


register_loader(EpubLoader())
