"""HTML: rendered to Markdown in reading order; offsets index the rendered text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ..types import Document
from .base import Loader, register_loader

__all__ = ["HtmlLoader"]

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(
    rb"""\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']""", re.IGNORECASE
)


class HtmlLoader(Loader):
    """HTML (``metadata["format"] == "html"``).

    The document's text is Markdown rendered from the page in reading order, without
    scripts, styles or navigation (:func:`chunkwise.parsers.html.html_to_markdown`); the
    page's title and language go to ``metadata["title"]`` and ``metadata["language"]``.
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
        meta.setdefault("format", self.format)
        return Document(rendered, id=id, source=source, metadata=meta)


register_loader(HtmlLoader())
