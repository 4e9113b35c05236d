"""gzip-compressed files: ``NAME.EXT.gz`` decompressed and read as ``NAME.EXT``.

Debian and other systems install documentation compressed (``changelog.Debian.gz``,
``README.md.gz``, ``NEWS.gz``). The :class:`GzipLoader` is chosen by the ``.gz``
suffix (never by the gzip magic bytes alone: a ``.tgz`` or a file without that suffix is
an archive or a format of its own). It decompresses the bytes (:mod:`zlib`, gzip's own
engine, one call per gzip member) and hands
them to the loader that the name without ``.gz`` selects (``README.md.gz``: Markdown;
``NEWS.gz``: text, as ``NEWS`` would be), or the loader of ``format=``. The document
keeps the real file's ``source``, ``filename`` and id; ``metadata["compression"]`` is
``"gzip"``.

The decompressed size is limited (:data:`MAX_DECOMPRESSED_BYTES`) against decompression
bombs; a file over the limit, a damaged or truncated stream and a ``.gz`` file that is not
gzip data raise :class:`~chunkwise.loaders.base.FileFormatError` naming the file.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, ClassVar

from ..errors import ConfigError, UnsupportedFormatError
from ..types import Document
from .base import HEAD_BYTES, FileFormatError, Loader, detect_loader, get_loader, one_line, register_loader

__all__ = ["GZIP_MAGIC", "MAX_DECOMPRESSED_BYTES", "GzipLoader", "decompress", "inner_name", "is_gzip_name", "peek"]

GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of gzip data."""

MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024
"""The most bytes a compressed file may decompress to (256 MiB): past it, the file is
refused (a decompression bomb, or a document too large to chunk in memory)."""

SUFFIX = ".gz"
_STEP = 16 * 1024 * 1024  # decompressed bytes per zlib call


def is_gzip_name(name: str) -> bool:
    """Whether a file name ends with ``.gz`` (any case) after at least one character."""
    lower = PurePath(name).name.lower()
    return lower.endswith(SUFFIX) and len(lower) > len(SUFFIX)


def inner_name(name: str) -> str:
    """The name a compressed file had before compression: ``name`` without its ``.gz``.

    Example:
        >>> inner_name("doc/README.md.gz"), inner_name("NEWS.GZ"), inner_name("a.txt")
        ('doc/README.md', 'NEWS', 'a.txt')
    """
    return name[: -len(SUFFIX)] if is_gzip_name(name) else name


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def decompress(data: bytes, name: str = "<bytes>", limit: int | None = None) -> bytes:
    """The decompressed bytes of gzip ``data`` (every member, as ``gzip -d`` gives them).

    Args:
        data: the compressed bytes.
        name: the file, for messages.
        limit: the most bytes the result may hold (default :data:`MAX_DECOMPRESSED_BYTES`).

    Raises:
        FileFormatError: empty (kind ``"empty"``), not gzip data (``"wrong format"``),
            damaged or truncated (``"damaged"``), larger than ``limit`` once decompressed
            (``"oversize"``; decompression stops there).

    Example:
        >>> import gzip
        >>> decompress(gzip.compress(b"Hello"))
        b'Hello'
    """
    limit = MAX_DECOMPRESSED_BYTES if limit is None else limit
    if not data:
        raise FileFormatError(
            f"{name}: empty file (0 bytes), not gzip data", "leave it out or compress it again", "empty"
        )
    if not data.startswith(GZIP_MAGIC):
        raise FileFormatError(
            f"{name}: not gzip data (it does not start with the gzip header 1f 8b)",
            "rename it to its real format (without .gz), or leave it out",
            "wrong format",
        )
    parts: list[bytes] = []
    size = 0
    rest = data
    while rest:  # one gzip member at a time (concatenated members are one file)
        if not rest.startswith(GZIP_MAGIC):
            raise FileFormatError(
                f"{name}: damaged gzip data (bytes that are not gzip after byte {len(data) - len(rest)})",
                "copy or download it again (gzip -t tests it)",
                "damaged",
            )
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)  # checks the CRC and the length
        pending = rest
        while size <= limit:  # in steps, so that a bomb is stopped near the limit
            want = min(_STEP, limit + 1 - size)
            try:
                part = member.decompress(pending, want)
            except zlib.error as exc:
                raise FileFormatError(
                    f"{name}: damaged gzip data ({one_line(exc)})", "copy or download it again (gzip -t tests it)",
                    "damaged",
                ) from exc
            size += len(part)
            parts.append(part)
            pending = member.unconsumed_tail
            if member.eof or (not pending and len(part) < want):  # the end, or the input used up
                break
        if size > limit:
            break
        if not member.eof:
            raise FileFormatError(
                f"{name}: truncated gzip data (it ends inside the compressed stream)",
                "copy or download it again (gzip -t tests it)",
                "damaged",
            )
        rest = member.unused_data.lstrip(b"\0")  # gzip allows zero padding after a member
    if size > limit:
        raise FileFormatError(
            f"{name}: decompresses to more than {_mib(limit)} (the limit on a compressed file's size once "
            "decompressed, against decompression bombs)",
            "decompress it yourself and read the result, or leave it out",
            "oversize",
        )
    return parts[0] if len(parts) == 1 else b"".join(parts)


def peek(head: bytes, size: int = HEAD_BYTES) -> bytes | None:
    """The first ``size`` decompressed bytes of the first bytes of a gzip file (for format
    detection), or None when they are not gzip data or are damaged."""
    if not head.startswith(GZIP_MAGIC):
        return None
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, size)
    except zlib.error:
        return None


class GzipLoader(Loader):
    """``NAME.EXT.gz``: decompressed, then read by the loader ``NAME.EXT`` selects (see
    the module's documentation). It takes every loader option and passes on those of the
    loader it hands the bytes to (``-L password=...`` for a ``.pdf.gz``)."""

    format: ClassVar[str] = "gzip"
    suffixes: ClassVar[tuple[str, ...]] = (SUFFIX,)
    mime_types: ClassVar[tuple[str, ...]] = ("application/gzip", "application/x-gzip")
    aliases: ClassVar[tuple[str, ...]] = ("gz",)
    magic: ClassVar[tuple[bytes, ...]] = (GZIP_MAGIC,)

    def sniff(self, head: bytes) -> bool:
        """Never by the magic bytes alone: only a ``.gz`` name (or ``format="gzip"``)
        chooses this loader; a ``.tgz`` stays a tar archive, not handled."""
        return False

    def inner(self, name: str, head: bytes, format: str | None = None) -> Loader:
        """The loader of the decompressed file: of ``format`` when given (unless it names
        gzip), else detected from ``name`` without ``.gz`` and the decompressed ``head``.

        Raises:
            UnsupportedFormatError: no loader reads the decompressed file (a ``.tar.gz``,
                gzip inside gzip), naming the compressed file.
            ConfigError: an unknown ``format``.
        """
        loader = get_loader(format) if format else None
        if loader is None or loader.format == self.format:
            plain = inner_name(PurePath(name).name) if name and not name.startswith("<") else ""
            try:
                loader = detect_loader(plain, head)
            except UnsupportedFormatError as exc:
                raise UnsupportedFormatError(name or "<bytes>", f"{exc.format} (gzip-compressed)", exc.detail) from None
        if loader.format == self.format:
            raise UnsupportedFormatError(name or "<bytes>", "gzip inside gzip", "decompress the outer layer first")
        return loader

    def load_bytes(  # type: ignore[override]
        self,
        data: bytes,
        *,
        source: str | None = None,
        encoding: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
        options: Mapping[str, Any] | None = None,
        format: str | None = None,
    ) -> Document:
        """Decompress ``data`` and read it with the loader of the decompressed file.

        Args:
            format: the format of the decompressed file (default: detected from the name
                without ``.gz`` and the decompressed bytes).
            options: loader options; those the decompressed file's loader takes are
                passed to it, the others ignored.

        Raises:
            FileFormatError: see :func:`decompress`.
            UnsupportedFormatError: see :meth:`inner`.
        """
        name = source or "<bytes>"
        raw = decompress(data, name)
        loader = self.inner(source or "", raw[:HEAD_BYTES], format)
        meta = dict(metadata or {})
        meta.setdefault("compression", "gzip")
        if loader.format == "code" and "language" not in meta and source:
            # the code loader tells the language by the file's suffix: the one under .gz
            from ..parsers.code_languages import language_for_suffix

            language = language_for_suffix(inner_name(PurePath(source).name))
            if language:
                meta["language"] = language
        kwargs: dict[str, Any] = {"source": source, "encoding": encoding, "metadata": meta, "id": id}
        if loader.options:
            taken = loader.check_options({k: v for k, v in (options or {}).items() if k in loader.options}, source)
            return loader.load_bytes(raw, options=taken, **kwargs)  # type: ignore[call-arg]
        return loader.load_bytes(raw, **kwargs)

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        raise ConfigError(
            "gzip content is binary: pass the file's bytes (chunkwise.parse(data, format='gzip')) "
            "or its path (chunkwise.load(path)), not a str"
        )


register_loader(GzipLoader())
