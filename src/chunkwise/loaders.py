"""Loading files into :class:`~chunkwise.types.Document` values, and finding them in folders."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import ConfigError, LoadError, MissingDependencyError
from .types import Document

__all__ = ["FORMATS", "SUFFIXES", "find_files", "load", "parse"]

logger = logging.getLogger(__name__)

FORMATS = ("text", "markdown", "html")
SUFFIXES = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
}


def parse(
    content: str | bytes,
    format: str = "text",
    *,
    source: str | None = None,
    metadata: dict[str, Any] | None = None,
    id: str = "",
) -> Document:
    """A :class:`Document` from content in a format.

    Args:
        content: the text (``str``), or UTF-8 bytes.
        format: ``"text"``, ``"markdown"`` (the text is kept as it is; the ``markdown``
            strategy reads its structure; YAML front matter is parsed into
            ``metadata["front_matter"]``, and its ``title`` into ``metadata["title"]``)
            or ``"html"`` (the document's text is Markdown rendered from the HTML in
            reading order, without scripts, styles or navigation; the page's title and
            language go to ``metadata["title"]`` and ``metadata["language"]``).
        source: where the content came from, if known.
        metadata: document metadata, copied onto every chunk.
        id: the document id (default: derived from ``source`` or the text).

    Raises:
        ConfigError: an unknown format.
        LoadError: bytes that are not UTF-8.
        MissingDependencyError: ``"html"`` without ``pip install 'chunkwise[html]'``, or
            Markdown front matter without ``pip install 'chunkwise[markdown]'``.

    Example:
        >>> doc = parse("<title>T</title><h1>Hi</h1><p>Text.</p>", format="html")
        >>> doc.text, doc.metadata["title"]
        ('# Hi\\n\\nText.\\n', 'T')
    """
    if isinstance(content, bytes):
        content = _decode(content, source or "<bytes>")
    fmt = format.lower()
    if fmt in ("md",):
        fmt = "markdown"
    elif fmt in ("htm",):
        fmt = "html"
    if fmt not in FORMATS:
        raise ConfigError(f"format {format!r} is unknown; choose one of: {', '.join(FORMATS)}")
    meta = dict(metadata or {})
    if fmt == "html":
        from .parsers.html import html_to_markdown

        content, found = html_to_markdown(content)
        for key, value in found.items():
            meta.setdefault(key, value)
    elif fmt == "markdown" and content.startswith("---"):
        from .parsers.markdown import parse_front_matter

        try:
            fm = parse_front_matter(content)
        except MissingDependencyError as exc:  # the text loads; only its metadata waits for PyYAML
            logger.warning("%s: front matter not read: %s", source or "<text>", exc)
            fm = None
        if fm is not None:
            meta.setdefault("front_matter", fm[1])
            title = fm[1].get("title")
            if isinstance(title, str):
                meta.setdefault("title", title)
    meta.setdefault("format", fmt)
    return Document(content, id=id, source=source, metadata=meta)


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(f"{source}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from exc


def load(
    path: str | os.PathLike[str], format: str | None = None, *, metadata: dict[str, Any] | None = None
) -> Document:
    """Read a file into a :class:`Document` (UTF-8; a byte-order mark is dropped).

    The format comes from the suffix (``.txt`` text, ``.md``/``.markdown`` Markdown,
    ``.html``/``.htm`` HTML) unless given. The document's ``source`` is the path as given and its id derives from it.

    Raises:
        LoadError: the file cannot be read or is not UTF-8.
        ConfigError: an unknown format.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise LoadError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    fmt = format or SUFFIXES.get(p.suffix.lower(), "text")
    meta = {"filename": p.name, **(metadata or {})}
    return parse(_decode(data, str(p)), fmt, source=p.as_posix(), metadata=meta)


def find_files(paths: Iterable[str | os.PathLike[str]], suffixes: Iterable[str] | None = None) -> Iterator[Path]:
    """Files named by ``paths``, with folders searched recursively for known suffixes.

    Files named directly are yielded whatever their suffix; folders yield, in sorted
    order, the files whose suffix is in ``suffixes`` (default: ``.txt``, ``.md``, ...).
    A path that does not exist is yielded too, so that the caller reports it.
    """
    wanted = {s.lower() for s in (suffixes or SUFFIXES)}
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file() and f.suffix.lower() in wanted:
                    yield f
        else:
            yield p
