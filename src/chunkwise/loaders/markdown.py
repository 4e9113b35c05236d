"""Markdown: the text is kept as it is; YAML front matter is read once, here."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ..types import Document
from ._dates import front_matter_dates
from .base import Loader, json_safe, register_loader

__all__ = ["MarkdownLoader"]

logger = logging.getLogger(__name__)


class MarkdownLoader(Loader):
    """Markdown (``metadata["format"] == "markdown"``), with its YAML front matter.

    The text is not changed: the ``markdown`` strategy reads its structure. A YAML block
    between ``---`` lines at the very start is parsed once, here, into
    ``metadata["front_matter"]`` (JSON values only: ``date: 2024-01-02`` becomes the
    string ``"2024-01-02"``), its string ``title`` into ``metadata["title"]`` and its
    dates (``date``/``created``/``published``, ``modified``/``updated``/``lastmod``) into
    ``metadata["created"]``/``["modified"]`` in the one date format of the loaders
    (:mod:`chunkwise.loaders._dates`; metadata given by the caller wins). Without PyYAML (``pip install
    'chunkwise[markdown]'``) the text still loads and a warning is logged. A ``---`` block
    at the very start whose first line looks like ``key:`` is front matter even when its
    YAML does not parse: it stays the front matter (its own chunk, not a rule and a made-up
    heading), the YAML error goes to ``metadata["front_matter_error"]`` and a warning is
    logged. So does YAML that parses into what cannot be metadata: a date that does not
    exist (``date: 2024-13-45``), a time zone past 24 hours, ``!!int abc``, an integer
    too long to write, an alias that contains itself or expands past 100,000 values, a
    lone surrogate (``"\\ud800"``).

    Example:
        >>> doc = MarkdownLoader().parse_text("---\\ntitle: T\\ndate: 2024-01-02\\n---\\n# Hi\\n")
        >>> doc.metadata["title"], doc.metadata["front_matter"]["date"], doc.metadata["created"]
        ('T', '2024-01-02', '2024-01-02')
    """

    format: ClassVar[str] = "markdown"
    suffixes: ClassVar[tuple[str, ...]] = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
    mime_types: ClassVar[tuple[str, ...]] = ("text/markdown", "text/x-markdown")
    aliases: ClassVar[tuple[str, ...]] = ("md",)

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        meta = dict(metadata or {})
        if text.startswith(("---", "\ufeff---")):
            from ..parsers.markdown import parse_front_matter

            errors: list[str] = []
            try:
                found = parse_front_matter(text, errors)
            except MissingDependencyError as exc:  # the text loads; only its metadata waits for PyYAML
                logger.warning("%s: front matter not read: %s", source or "<text>", exc)
                found = None
            if errors:  # a front matter block whose YAML does not parse: kept as such, reported
                meta.setdefault("front_matter_error", errors[0])
                logger.warning(
                    "%s: front matter not read (%s); it stays a front matter chunk: correct its YAML",
                    source or "<text>",
                    errors[0],
                )
            elif found is not None:
                front = json_safe(found[1])
                meta.setdefault("front_matter", front)
                title = front.get("title")
                if isinstance(title, str):
                    meta.setdefault("title", title)
                front_matter_dates(front, meta)  # created/modified in the one date format
        meta.setdefault("format", self.format)
        return Document(text, id=id, source=source, metadata=meta)


register_loader(MarkdownLoader())
