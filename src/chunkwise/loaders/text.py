"""Plain text: ``.txt``, ``.text``, AsciiDoc, Org, and text without a suffix (reStructuredText has
its own loader, :mod:`.rst`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..types import Document, form_feed_pages
from .base import Loader, register_loader

__all__ = ["TextLoader"]


class TextLoader(Loader):
    """Plain text, kept exactly as decoded (``metadata["format"] == "text"``); form feeds
    separate pages (the page map, and so ``page_number`` on chunks).

    Lightly marked-up text (AsciiDoc, Org) is text too: the recursive and sentence
    strategies read it well, and no markup is removed. reStructuredText is rendered as
    Markdown by :mod:`chunkwise.loaders.rst` (``format="text"`` still reads it as text).

    Example:
        >>> TextLoader().load_bytes(b"one\\r\\ntwo", source="a.txt").text
        'one\\r\\ntwo'
    """

    format: ClassVar[str] = "text"
    suffixes: ClassVar[tuple[str, ...]] = (
        ".txt",
        ".text",
        ".adoc",
        ".asciidoc",
        ".org",
    )
    mime_types: ClassVar[tuple[str, ...]] = (
        "text/plain",
        "text/asciidoc",
        "text/x-org",
    )
    aliases: ClassVar[tuple[str, ...]] = ("txt", "plain", "asciidoc", "org")

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        return Document(text, id=id, source=source, metadata=meta, pages=form_feed_pages(text))


register_loader(TextLoader())
