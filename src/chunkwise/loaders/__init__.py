"""The load stage: files and bytes into :class:`~chunkwise.types.Document` values.

One loader per format, in one module each (:mod:`.text`, :mod:`.markdown`, :mod:`.html`,
:mod:`.csv`, :mod:`.rst`, :mod:`.docx`, :mod:`.pptx`, :mod:`.xlsx`, :mod:`.epub`),
chosen by suffix, MIME type or magic bytes (:mod:`.base`); ``NAME.EXT.gz`` decompressed
and read by the loader of ``NAME.EXT`` (:mod:`.compressed`); decoding happens only in
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

from ..errors import ConfigError, LoadError, UnsupportedFormatError
from ..types import Document, document_id_for, document_id_for_path
from . import chat as _chat
from . import code as _code
from . import compressed as _compressed
from . import csv as _csv
from . import docx as _docx
from . import epub as _epub
from . import html as _html
from . import markdown as _markdown
from . import pdf as _pdf
from . import pptx as _pptx
from . import rst as _rst
from . import subtitles as _subtitles
from . import text as _text
from . import xlsx as _xlsx
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
from .files import FoundFile, display_path, find_files, relative_id_path

__all__ = [
    "FORMATS",
    "SUFFIXES",
    "FoundFile",
    "Loader",
    "UnsupportedFormatError",
    "check_loader_options",
    "decode",
    "detect_loader",
    "find_files",
    "get_loader",
    "json_safe",
    "load",
    "loader_options",
    "looks_like_text",
    "parse",
    "register_loader",
    "registered_loaders",
    "relative_id_path",
    "unregister_loader",
]

FORMATS = (
    "text", "markdown", "html", "csv", "tsv", "code", "rst", "docx", "pptx", "xlsx", "epub", "json", "jsonl", "chat",
    "srt", "vtt", "pdf",
)
"""The formats of the built-in loaders."""

SUFFIXES = {
    s: ld.format
    for ld in (
        _text.TextLoader, _markdown.MarkdownLoader, _html.HtmlLoader, _csv.CsvLoader, _csv.TsvLoader, _code.CodeLoader,
        _rst.RstLoader, _docx.DocxLoader, _pptx.PptxLoader, _xlsx.XlsxLoader, _epub.EpubLoader,
        _chat.JsonLoader, _chat.JsonlLoader, _subtitles.SrtLoader, _subtitles.VttLoader, _pdf.PdfLoader,
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
    **options: Any,
) -> Document:
    """A :class:`Document` from content in a format, through that format's loader.

    Args:
        content: the text (``str``, kept exactly), or bytes, decoded as :func:`load`
            does (byte-order mark, UTF-8, then a detected legacy encoding; the encoding
            used goes to ``metadata["encoding"]``).
        format: a format name (``"text"``, ``"markdown"``, ``"html"``), alias
            (``"md"``), MIME type (``"text/markdown"``) or suffix (``".md"``).
            ``"text"``, the default, with bytes that start as a PDF (``%PDF``), an
            office file's ZIP, or an HTML page (``<!doctype html`` or ``<html``, after a
            byte-order mark and white space) reads them with that format's loader.
            Bytes that start as gzip, bzip2 or xz data are decompressed first, whatever
            ``format`` names, and read in ``format`` (``"text"``: in the decompressed
            bytes' own format, told as above); ``metadata["compression"]`` names it.
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
        **options: loader options (``"pdf"``: ``password``, ``pages``, ``ocr``;
            compressed bytes: ``max_decompressed``); an option of another format's loader
            is ignored.

    Raises:
        ConfigError: an unknown format or encoding, or an option no loader takes.
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
    if isinstance(content, (bytes, bytearray)) and loader.format == "text" and (
        content[:4] in (b"%PDF", b"PK\x03\x04")
        or bytes(content[:64]).lstrip(b"\xef\xbb\xbf \t\r\n").lower().startswith((b"<!doctype html", b"<html"))
    ):
        # text is the default, not a claim: a PDF's, an office ZIP's or an HTML page's
        # bytes (standard input) go to the loader their magic bytes name
        loader = detect_loader("", bytes(content[:HEAD_BYTES]))
    inner: str | None = None
    packed = _compressed.compression_of(content) if isinstance(content, (bytes, bytearray)) else None
    if packed and not isinstance(loader, _compressed.CompressedLoader) and not any(
        content.startswith(m) for m in loader.magic
    ):
        # compressed bytes (gzip -c notes.md | chunkwise chunk - --format markdown): told by
        # their magic bytes, decompressed, then read in the format given -- the decompressed
        # bytes' format, as format= of a NAME.EXT.gz file; "text", the default, is no claim:
        # the decompressed bytes' own format (magic bytes; else text) is read
        inner = None if loader.format == "text" else loader.format
        loader = get_loader(packed)
    opts = _options_for(loader, options, source)
    if isinstance(content, (bytes, bytearray)):
        data = bytes(content)
        own = any(data.startswith(m) for m in loader.magic)  # a DOCX's ZIP, given format="docx"
        found = None if own else unsupported_format("", data[:HEAD_BYTES])
        if found is not None:
            raise UnsupportedFormatError(source or "<bytes>", found, "no loader handles it yet")
        doc = _load_bytes(
            loader, data, source=source, encoding=encoding, metadata=metadata, id=id, options=opts, format=inner
        )
    else:
        doc = loader.parse(content, source=source, metadata=metadata, id=id)
    if not id and source and source.startswith("<") and source.endswith(">"):
        # a stream's name (<stdin>), not a path: the id derives from the content
        doc = dataclasses.replace(doc, id=document_id_for(doc.text))
    return doc


def loader_options() -> dict[str, tuple[str, ...]]:
    """The options each registered loader takes, by format (loaders without options left
    out): ``{"pdf": ("password", "pages", "ocr")}``."""
    return {ld.format: ld.options for ld in registered_loaders() if ld.options}


def check_loader_options(options: Mapping[str, Any]) -> None:
    """Raise :class:`~chunkwise.errors.ConfigError` for an option no registered loader
    takes (a misspelling), naming it and the options there are; the CLI's ``-L`` is
    checked so before any file is read."""
    known = {o for opts in loader_options().values() for o in opts}
    unknown = sorted(set(options) - known)
    if unknown:
        there = "; ".join(f"{fmt}: {', '.join(opts)}" for fmt, opts in loader_options().items()) or "none"
        raise ConfigError(
            f"no option {', '.join(map(repr, unknown))} in any loader (the loader options: {there}); "
            "correct its name or leave it out"
        )
    for ld in registered_loaders():  # the values' syntax (pages=abc), before any file is read
        validate = getattr(ld, "validate_options", None)
        taken = {k: v for k, v in options.items() if k in ld.options}
        if validate is not None and taken:
            validate(taken)


def _options_for(loader: Loader, options: Mapping[str, Any], source: str | None) -> dict[str, Any]:
    """The options ``loader`` takes among ``options``: an option of another format's
    loader is ignored (``password=`` for the PDFs of a folder does not stop its Markdown
    files); one no loader takes raises :class:`~chunkwise.errors.ConfigError`."""
    if not options:
        return {}
    check_loader_options(options)
    if isinstance(loader, _compressed.CompressedLoader):  # passes them on to the loader of the decompressed file
        return dict(options)
    return loader.check_options({k: v for k, v in options.items() if k in loader.options}, source)


def _load_bytes(
    loader: Loader, data: bytes, *, options: dict[str, Any], format: str | None = None, **kwargs: Any
) -> Document:
    """``loader.load_bytes``, with the options when the loader declares some (a loader
    without options never receives them: :meth:`Loader.check_options` refused them); a
    compressed file's loader gets them all and ``format``, the decompressed file's."""
    if isinstance(loader, _compressed.CompressedLoader):
        return loader.load_bytes(data, options=options, format=format, **kwargs)
    if loader.options:
        return loader.load_bytes(data, options=options, **kwargs)  # type: ignore[call-arg]
    return loader.load_bytes(data, **kwargs)


def load(
    path: str | os.PathLike[str] | FoundFile | bytes,
    format: str | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    encoding: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    **options: Any,
) -> Document:
    """Read a file (or bytes) into a :class:`Document` through the loader of its format.

    The format comes from ``format`` (a name, MIME type or suffix), else from the file:
    magic bytes, suffix (``.txt``/``.text``/``.rst``/``.rst.txt`` text,
    ``.md``/``.markdown`` Markdown, ``.html``/``.htm`` HTML), else text when its bytes look
    like text. ``NAME.EXT.gz``, ``.bz2`` or ``.xz`` is decompressed
    (:mod:`chunkwise.loaders.compressed`; at most 256 MiB, or the loader option
    ``max_decompressed``: ``max_decompressed="1G"``) and read as ``NAME.EXT``
    (``format`` then names the decompressed file's format); its ``metadata["compression"]``
    is ``"gzip"``, ``"bzip2"`` or ``"xz"``. The bytes are decoded without
    changing line ends (``\\r\\n`` stays two
    characters: offsets index the file's real text); a byte-order mark is dropped.

    Ids: the document id is :func:`~chunkwise.types.document_id_for_path` of the file's
    POSIX path relative to ``root`` (default: its parent folder, so the id derives from
    the file name): the same tree gives the same ids from any working directory, by
    relative or absolute path. Symbolic links do not change it: the path is the file's
    real path relative to the root's real path when the real file is under the real root
    (a link that leads out of the root: the path as seen under the root); without
    ``root``, a link's id derives from the name of the file it leads to
    (:func:`relative_id_path`). A :class:`FoundFile` from :func:`find_files` carries its
    root and relative path (with the rule for duplicates and collisions of that module).
    ``source`` and ``metadata["filename"]`` are the path and name as given (POSIX
    separators); ``metadata["relative_path"]`` is the path the id derives from.

    Args:
        path: the file (or a :class:`FoundFile`), or the file's bytes (the format from
            ``format``, else from the magic bytes, else text; the id from the content).
        format: overrides the detected format.
        root: the folder ids are relative to (must contain ``path``).
        encoding: a codec to use instead of detecting one (strict).
        metadata: extra document metadata (wins over what the loader finds).
        **options: loader options, for the loaders that take them (PDF: ``password``
            for an encrypted file, ``pages="1-5,8"`` to read only those pages); the
            loader of another format ignores them (the same options serve a folder).

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
        ConfigError: an unknown format or encoding, ``path`` outside ``root``, or a
            loader option that no loader takes (named in the message).

    Example:
        >>> import tempfile, pathlib
        >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
        >>> _ = p.write_bytes(b"one\\r\\ntwo\\r\\n")
        >>> doc = load(p)
        >>> len(doc.text), doc.metadata["encoding"], doc.id == document_id_for_path("a.txt")
        (10, 'utf-8', True)
    """
    if isinstance(path, (bytes, bytearray)):
        data = bytes(path)
        if format is None and _compressed.compression_of(data):
            return parse(data, _compressed.compression_of(data), encoding=encoding, metadata=metadata, **options)
        found = detect_loader("<bytes>", data[:HEAD_BYTES], format)
        return parse(data, found.format, encoding=encoding, metadata=metadata, **options)
    if isinstance(path, FoundFile):
        p = path.path
        relative = relative_id_path(p, root) if root is not None else path.relative
    else:
        p = Path(path)
        relative = relative_id_path(p, root)
    try:
        data = p.read_bytes()
    except IsADirectoryError as exc:
        raise LoadError(
            f"{p}: a folder, not a file; load reads one file: load each of "
            "chunkwise.loaders.find_files([folder]), or chunk the folder with chunkwise chunk FOLDER"
        ) from exc
    except OSError as exc:
        raise LoadError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    # NAME.EXT.gz (.bz2, .xz): the compressed file's loader, which reads the decompressed file in ``format``
    compressed = _compressed.is_compressed_name(p.name)
    loader = detect_loader(str(p), data[:HEAD_BYTES], None if compressed else format)
    if compressed and format and not isinstance(loader, _compressed.CompressedLoader):
        loader = get_loader(format)  # a loader registered for the whole name, overridden
    opts = _options_for(loader, options, p.as_posix())
    # the path as valid UTF-8 (a name's undecodable bytes as \\xNN); the id hashes the path itself
    meta: dict[str, Any] = {
        "filename": display_path(p.name), "relative_path": display_path(relative), **(metadata or {})
    }
    return _load_bytes(
        loader, data, source=display_path(p.as_posix()), encoding=encoding, metadata=meta,
        id=document_id_for_path(relative), options=opts, format=format if compressed else None,
    )
