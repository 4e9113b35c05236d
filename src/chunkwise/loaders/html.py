"""HTML: rendered to Markdown in reading order; offsets index the rendered text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ..types import Document
from .base import Loader, register_loader

__all__ = ["HtmlLoader", "page_dates"]

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(
    rb"""\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']""", re.IGNORECASE
)


_META_TAG = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_DATE_NAMES = {
    "created": ("article:published_time", "dcterms.created", "dc.date.created", "dcterms.date", "dc.date",
                "date", "pubdate", "publish_date", "og:published_time", "citation_publication_date"),
    "modified": ("article:modified_time", "dcterms.modified", "dc.date.modified", "og:updated_time",
                 "last-modified", "revised"),
}


def page_dates(html: str) -> dict[str, str]:
    """``created``/``modified`` from a page's ``<meta>`` tags (Open Graph's
    ``article:published_time``/``article:modified_time``, Dublin Core's ``DC.date``/
    ``dcterms.modified``, ``date``, ``last-modified`` in ``http-equiv``), in the one date
    format of the loaders (:mod:`chunkwise.loaders._dates`: UTC where the page gives a
    zone); the first of each name order wins, a value that is not a date is left out.

    Example:
        >>> page_dates('<meta property="article:published_time" content="2024-03-01T09:30:00+01:00">')
        {'created': '2024-03-01T08:30:00+00:00'}
    """
    from ._dates import iso_date

    head = html[: html.lower().find("<body")] if "<body" in html.lower()[:200_000] else html[:200_000]
    seen: dict[str, str] = {}
    for tag in _META_TAG.findall(head):
        attrs = {k.lower(): next((v for v in vals if v), "") for k, *vals in _ATTR.findall(tag)}
        name = (attrs.get("name") or attrs.get("property") or attrs.get("http-equiv") or attrs.get("itemprop") or "")
        if "content" in attrs and name:
            seen.setdefault(name.lower(), attrs["content"])
    found: dict[str, str] = {}
    for key, names in _DATE_NAMES.items():
        for name in names + (("datepublished",) if key == "created" else ("datemodified",)):
            value = iso_date(seen[name]) if name in seen else None
            if value:
                found[key] = value
                break
    return found


class HtmlLoader(Loader):
    """HTML (``metadata["format"] == "html"``).

    The document's text is Markdown rendered from the page in reading order, without
    scripts, styles or navigation (:func:`chunkwise.parsers.html.html_to_markdown`); the
    page's title and language go to ``metadata["title"]`` and ``metadata["language"]``,
    its dates from ``<meta>`` tags to ``["created"]``/``["modified"]`` (:func:`page_dates`).
    Bytes that are not UTF-8 are decoded with the encoding the page declares, in its XML
    declaration (XHTML: ``<?xml version="1.0" encoding="ISO-8859-1"?>``, removed before
    parsing) or its ``<meta charset>``. A page that lxml cannot parse raises
    :class:`~chunkwise.errors.ParseError` (a ``LoadError``) naming the file. Needs
    ``pip install 'chunkwise[html]'`` (lxml).
    """

    format: ClassVar[str] = "html"
    suffixes: ClassVar[tuple[str, ...]] = (".html", ".htm", ".xhtml")
    mime_types: ClassVar[tuple[str, ...]] = ("text/html", "application/xhtml+xml")
    aliases: ClassVar[tuple[str, ...]] = ("htm", "xhtml")
    magic: ClassVar[tuple[bytes, ...]] = (b"<!doctype html", b"<html")

    def declared_encoding(self, data: bytes) -> str | None:
        m = _XML_ENCODING.search(data[:1024]) or _META_CHARSET.search(data[:4096])
        return m.group(1).decode("ascii") if m else None

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        from ..parsers.html import html_to_markdown

        rendered, found = html_to_markdown(text)
        meta = dict(metadata or {})
        for key, value in found.items():
            meta.setdefault(key, value)
        for key, value in page_dates(text).items():
            meta.setdefault(key, value)
        meta.setdefault("format", self.format)
        return Document(rendered, id=id, source=source, metadata=meta)


register_loader(HtmlLoader())
