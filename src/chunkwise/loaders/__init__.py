"""The load stage: files and bytes into :class:`~chunkwise.types.Document` values.

One loader per format, in one module each (:mod:`.text`, :mod:`.markdown`, :mod:`.html`,
:mod:`.csv`),
chosen by suffix, MIME type or magic bytes (:mod:`.base`); decoding happens only in
loaders (:mod:`.decoding`); :func:`find_files` finds documents in folders and the root
their ids are relative to (:mod:`.files`). :func:`load`, :func:`parse` and
:func:`chunkwise.evaluation.load_corpus` all go through the same loaders, so a file gives
the same text whichever reads it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import LoadError, UnsupportedFormatError
from ..types import Document, document_id_for, document_id_for_path
from . import code as _code
from . import csv as _csv
from . import html as _html
from . import markdown as _markdown
from . import text as _text
from .base import (
    HEAD_BYTES,
    Loader,
    detect_loader,
    get_loader,
    json_safe,
    register_loader,
    registered_loaders,
    unregister_loader,
    unsupported_format,
)
from .decoding import decode, looks_like_text
from .files import FoundFile, find_files, relative_id_path

__all__ = [
    "FORMATS",
    "SUFFIXES",
    "FoundFile",
    "Loader",
    "UnsupportedFormatError",
    "decode",
    "detect_loader",
    "find_files",
    "get_loader",
    "json_safe",
    "load",
    "looks_like_text",
    "parse",
    "register_loader",
    "registered_loaders",
    "relative_id_path",
    "unregister_loader",
]

FORMATS = ("text", "markdown", "html", "csv", "tsv", "code")
"""The formats of the built-in loaders."""

SUFFIXES = {
    s: ld.format
    for ld in (
        _text.TextLoader, _markdown.MarkdownLoader, _html.HtmlLoader, _csv.CsvLoader, _csv.TsvLoader, _code.CodeLoader
    )
    for s in ld.suffixes
}
"""File endings of the built-in loaders and their formats (``".md": "markdown"``)."""


def parse(
    content: str | bytes,
    format: str = "text",
    *,
    source: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    id: str = "",
    encoding: str | None = None,
) -> Document:
    """A :class:`Document` from content in a format, through that format's loader.

    Args:
        content: the text (``str``, kept exactly), or bytes, decoded as :func:`load`
            does (byte-order mark, UTF-8, then a detected legacy encoding; the encoding
            used goes to ``metadata["encoding"]``).
        format: a format name (``"text"``, ``"markdown"``, ``"html"``), alias
            (``"md"``), MIME type (``"text/markdown"``) or suffix (``".md"``).
            ``"markdown"`` keeps the text and parses YAML front matter into
            ``metadata["front_matter"]`` (JSON values) and its ``title`` into
            ``metadata["title"]``; ``"html"`` gives the Markdown rendered from the page in
            reading order, without scripts, styles or navigation, with the page's title
            and language in ``metadata["title"]`` and ``metadata["language"]``.
        source: where the content came from, if known.
        metadata: document metadata, copied onto every chunk.
        id: the document id (default: derived from ``source`` when it names a path or URL;
            without ``source``, or with a name in angle brackets such as ``"<stdin>"``,
            derived from the text, so two different contents never share an id).
        encoding: for bytes: a codec to use instead of detecting one.

    Raises:
        ConfigError: an unknown format or encoding.
        UnsupportedFormatError: a format recognised but not handled (``"pdf"``), or
            bytes of one (``%PDF``).
        LoadError: bytes that cannot be decoded.
        ParseError: content the format's parser rejects (a ``LoadError``).
        MissingDependencyError: ``"html"`` without ``pip install 'chunkwise[html]'``.

    Example:
        >>> doc = parse("<title>T</title><h1>Hi</h1><p>Text.</p>", format="html")
        >>> doc.text, doc.metadata["title"]
        ('# Hi\\n\\nText.\\n', 'T')
        >>> parse("a\\r\\nb").text
        'a\\r\\nb'
    """
    loader = get_loader(format)
    if isinstance(content, (bytes, bytearray)):
        data = bytes(content)
        found = unsupported_format("", data[:HEAD_BYTES])
        if found is not None:
            raise UnsupportedFormatError(source or "<bytes>", found, "no loader handles it yet")
        doc = loader.load_bytes(data, source=source, encoding=encoding, metadata=metadata, id=id)
    else:
        doc = loader.parse(content, source=source, metadata=metadata, id=id)
    if not id and source and source.startswith("<") and source.endswith(">"):
        # a stream's name (<stdin>), not a path: the id derives from the content
        doc = dataclasses.replace(doc, id=document_id_for(doc.text))
    return doc


def load(
    path: str | os.PathLike[str] | FoundFile,
    format: str | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    encoding: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Document:
    """Read a file into a :class:`Document` through the loader of its format.

    The format comes from ``format`` (a name, MIME type or suffix), else from the file:
    magic bytes, suffix (``.txt``/``.text``/``.rst``/``.rst.txt`` text,
    ``.md``/``.markdown`` Markdown, ``.html``/``.htm`` HTML), else text when its bytes look
    like text. The bytes are decoded without changing line ends (``\\r\\n`` stays two
    characters: offsets index the file's real text); a byte-order mark is dropped.

    Ids: the document id is :func:`~chunkwise.types.document_id_for_path` of the file's
    POSIX path relative to ``root`` (default: its parent folder, so the id derives from
    the file name): the same tree gives the same ids from any working directory, by
    relative or absolute path. A :class:`FoundFile` from :func:`find_files` carries its
    root and relative path (with the rule for duplicates and collisions of that module).
    ``source`` is the path as given (POSIX separators).

    Args:
        path: the file (or a :class:`FoundFile`).
        format: overrides the detected format.
        root: the folder ids are relative to (must contain ``path``).
        encoding: a codec to use instead of detecting one (strict).
        metadata: extra document metadata (wins over what the loader finds).

    Returns:
        The document, with ``metadata["filename"]``, ``["relative_path"]``,
        ``["format"]`` and ``["encoding"]`` (the codec used: ``"utf-8"``,
        ``"utf-8-sig"``, ``"utf-16-le"``, ``"cp1252"``, ...).

    Raises:
        LoadError: the file cannot be read or decoded (the message names the file; for a
            legacy encoding without charset-normalizer it suggests ``pip install
            'chunkwise[encodings]'`` or ``encoding=``).
        UnsupportedFormatError: a format no loader handles (PDF, DOCX, images, binary
            data): the message names the file and the format.
        ParseError: the text decoded, but its format's parser failed on it (a
            ``LoadError`` naming the file, the format and the fix; never a bare
            ``ValueError``).
        ConfigError: an unknown format or encoding, or ``path`` outside ``root``.

    Example:
        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
        >>> _ = p.write_bytes(b"one\\r\\ntwo\\r\\n")
        >>> doc = load(p)
        >>> len(doc.text), doc.metadata["encoding"], doc.id == document_id_for_path("a.txt")
        (10, 'utf-8', True)
    """
    if isinstance(path, FoundFile):
        p = path.path
        relative = relative_id_path(p, root) if root is not None else path.relative
    else:
        p = Path(path)
        relative = relative_id_path(p, root)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise LoadError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    loader = detect_loader(str(p), data[:HEAD_BYTES], format)
    meta: dict[str, Any] = {"filename": p.name, "relative_path": relative, **(metadata or {})}
    return loader.load_bytes(
        data, source=p.as_posix(), encoding=encoding, metadata=meta, id=document_id_for_path(relative)
    )
