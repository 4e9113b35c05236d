"""Compressed files: ``NAME.EXT.gz``, ``NAME.EXT.bz2`` and ``NAME.EXT.xz`` decompressed and
read as ``NAME.EXT``.

Debian and other systems install documentation compressed (``changelog.Debian.gz``,
``README.md.gz``, ``NEWS.gz``); source releases and archives of notes often use bzip2 or
xz (``notes.md.xz``). A compressed file's loader (:class:`GzipLoader`,
:class:`Bzip2Loader`, :class:`XzLoader`, all a :class:`CompressedLoader`) is chosen by the
suffix ``.gz``, ``.bz2`` or ``.xz`` (never by the magic bytes alone: a ``.tgz`` or a file
without that suffix is an archive or a format of its own). It decompresses the bytes with
the standard library (:mod:`zlib`, one call per gzip member; :mod:`bz2`; :mod:`lzma`,
one stream after another) and hands them to the loader that the name without the suffix
selects (``README.md.gz``: Markdown; ``notes.md.xz``: Markdown; ``NEWS.gz``: text, as
``NEWS`` would be), or the loader of ``format=``. The document keeps the real file's
``source``, ``filename`` and id (the id derives from the compressed file's path,
``notes.md.xz``); ``metadata["compression"]`` is ``"gzip"``, ``"bzip2"`` or ``"xz"``.

The decompressed size is limited (:data:`MAX_DECOMPRESSED_BYTES`, 256 MiB, the same for
the three formats) against decompression bombs; the loader option ``max_decompressed``
(``-L max_decompressed=1G``, ``chunkwise.load(path, max_decompressed="1G")``) sets another
limit. Decompression is streamed: the first :data:`KEEP_BYTES` (16 MiB) are held; past
them the bytes are only counted, and the file is refused as soon as the count crosses the
limit, so a bomb never holds more than about 20 MiB; a file that ends under the limit is
then decompressed a second time and held whole.
A file over the limit, a damaged or truncated stream and a file that is not data of the
format its suffix names raise :class:`~chunkwise.loaders.base.FileFormatError` naming
the file (a folder's batch reports it and goes on).

Bytes without a name (standard input: ``gzip -c notes.md | chunkwise chunk - --format
markdown``; :func:`chunkwise.parse`) are told compressed by their magic bytes, whatever
format is given: the format given is the decompressed bytes' (``"text"``, the default:
their own format, told by their bytes, text when nothing else). When the decompressed
bytes cannot be read, the error says they were decompressed, the format they were read in
and whether it was given or told by the bytes.

Archives of many files are not read: a ``.tar.gz``, ``.tar.bz2`` or ``.tar.xz``
decompresses to a tar archive, which no loader reads (an
:class:`~chunkwise.errors.UnsupportedFormatError`: ``tar archive (xz-compressed)``;
gzip's keeps its earlier ``binary data (gzip-compressed)``), and ``.tgz``, ``.zip``,
``.7z`` are unsupported formats by their magic bytes. Extract them and chunk the folder.
"""

from __future__ import annotations

import bz2
import lzma
import re
import zlib
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, ClassVar

from ..errors import ConfigError, LoadError, UnsupportedFormatError
from ..types import Document
from .base import HEAD_BYTES, FileFormatError, Loader, detect_loader, get_loader, one_line, register_loader

__all__ = [
    "BZIP2_MAGIC",
    "COMPRESSIONS",
    "GZIP_MAGIC",
    "KEEP_BYTES",
    "MAX_DECOMPRESSED_BYTES",
    "XZ_MAGIC",
    "Bzip2Loader",
    "CompressedLoader",
    "GzipLoader",
    "XzLoader",
    "compression_of",
    "decompress",
    "inner_name",
    "is_compressed_name",
    "is_gzip_name",
    "parse_size",
    "peek",
]

GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of gzip data."""

BZIP2_MAGIC = b"BZh"
"""The first three bytes of bzip2 data (a digit, the block size, follows)."""

XZ_MAGIC = b"\xfd7zXZ\x00"
"""The first six bytes of xz data."""

MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024
"""The most bytes a compressed file (gzip, bzip2 or xz) may decompress to (256 MiB): past
it, the file is refused (a decompression bomb, or a document too large to chunk in memory)."""

KEEP_BYTES = 16 * 1024 * 1024
"""The decompressed bytes held on the first pass (16 MiB). A file that decompresses to more
is only counted past them (refused as soon as the count crosses the limit), then
decompressed again, held whole, when it ends under the limit."""

OPTION = "max_decompressed"
"""The loader option that sets the limit of a compressed file's decompressed size."""

SUFFIX = ".gz"
COMPRESSIONS = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}
"""The suffixes of compressed files and their formats."""

_STEP = 4 * 1024 * 1024  # decompressed bytes per call of the decompressor
_TOOLS = {"gzip": "gzip -t", "bzip2": "bzip2 -t", "xz": "xz -t"}  # what tests a file, for messages
_HEADERS = {"gzip": "1f 8b", "bzip2": "42 5a 68 (BZh)", "xz": "fd 37 7a 58 5a 00"}
_BZIP2_BLOCKS = (b"1AY&SY", b"\x17rE8P\x90")  # after BZh and its digit: a block, or the end of an empty stream


def _suffix(name: str) -> str | None:
    """The compressed-file suffix ``name`` ends with (any case) after at least one character."""
    lower = PurePath(name).name.lower()
    for suffix in COMPRESSIONS:
        if lower.endswith(suffix) and len(lower) > len(suffix):
            return suffix
    return None


def is_gzip_name(name: str) -> bool:
    """Whether a file name ends with ``.gz`` (any case) after at least one character."""
    return _suffix(name) == SUFFIX


def is_compressed_name(name: str) -> bool:
    """Whether a file name ends with ``.gz``, ``.bz2`` or ``.xz`` (any case) after at
    least one character: a file a :class:`CompressedLoader` reads.

    Example:
        >>> is_compressed_name("notes.md.xz"), is_compressed_name("NEWS.BZ2"), is_compressed_name(".xz")
        (True, True, False)
    """
    return _suffix(name) is not None


def inner_name(name: str) -> str:
    """The name a compressed file had before compression: ``name`` without its ``.gz``,
    ``.bz2`` or ``.xz``.

    Example:
        >>> inner_name("doc/README.md.gz"), inner_name("NEWS.GZ"), inner_name("notes.md.xz"), inner_name("a.txt")
        ('doc/README.md', 'NEWS', 'notes.md', 'a.txt')
    """
    suffix = _suffix(name)
    return name[: -len(suffix)] if suffix else name


def _starts(data: bytes, format: str) -> bool:
    """Whether ``data`` starts with the header of ``format``."""
    if format == "gzip":
        return data.startswith(GZIP_MAGIC)
    if format == "bzip2":
        return data.startswith(BZIP2_MAGIC) and len(data) > 3 and 0x31 <= data[3] <= 0x39
    return data.startswith(XZ_MAGIC)


def compression_of(data: bytes) -> str | None:
    """The compression that ``data`` starts with (``"gzip"``, ``"bzip2"``, ``"xz"``), told by
    its magic bytes (bzip2: the header and its first block's), or None.

    Example:
        >>> import bz2, lzma
        >>> compression_of(bz2.compress(b"a")), compression_of(lzma.compress(b"a")), compression_of(b"BZh1 text")
        ('bzip2', 'xz', None)
    """
    if data.startswith(GZIP_MAGIC):
        return "gzip"
    if _starts(data, "bzip2") and data[4:10] in _BZIP2_BLOCKS:
        return "bzip2"
    if data.startswith(XZ_MAGIC):
        return "xz"
    return None


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def _damaged(name: str, format: str, what: str) -> FileFormatError:
    return FileFormatError(f"{name}: {what}", f"copy or download it again ({_TOOLS[format]} tests it)", "damaged")


def _hold(parts: list[bytes], part: bytes, size: int, keep: int | None) -> None:
    """``part`` into ``parts`` while ``size`` (with it) is at most ``keep``; past ``keep``,
    ``parts`` is emptied once and receives nothing more (the bytes are only counted)."""
    if keep is None or size <= keep:
        parts.append(part)
    elif parts:
        parts.clear()


def _gunzip(data: bytes, name: str, limit: int, parts: list[bytes], keep: int | None = None) -> int:
    """Every gzip member of ``data`` into ``parts``, up to just past ``limit`` bytes: the size.
    With ``keep``, ``parts`` holds them only while the size is at most ``keep`` (see
    :func:`_hold`)."""
    size = 0
    rest = data
    while rest:  # one gzip member at a time (concatenated members are one file)
        if not rest.startswith(GZIP_MAGIC):
            at = len(data) - len(rest)
            raise _damaged(name, "gzip", f"damaged gzip data (bytes that are not gzip after byte {at})")
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)  # checks the CRC and the length
        pending = rest
        while size <= limit:  # in steps, so that a bomb is stopped near the limit
            want = min(_STEP, limit + 1 - size)
            try:
                part = member.decompress(pending, want)
            except zlib.error as exc:
                raise _damaged(name, "gzip", f"damaged gzip data ({one_line(exc)})") from exc
            size += len(part)
            _hold(parts, part, size, keep)
            pending = member.unconsumed_tail
            if member.eof or (not pending and len(part) < want):  # the end, or the input used up
                break
        if size > limit:
            break
        if not member.eof:
            raise _damaged(name, "gzip", "truncated gzip data (it ends inside the compressed stream)")
        rest = member.unused_data.lstrip(b"\0")  # gzip allows zero padding after a member
    return size


def _unstream(data: bytes, name: str, limit: int, parts: list[bytes], format: str, keep: int | None = None) -> int:
    """Every bzip2 or xz stream of ``data`` (concatenated streams are one file, as
    ``bzip2 -d`` and ``xz -d`` read them) into ``parts``, up to just past ``limit`` bytes:
    the size. With ``keep``, ``parts`` holds them only while the size is at most ``keep``
    (see :func:`_hold`)."""
    size = 0
    rest = data
    while rest:
        if not _starts(rest, format):
            raise _damaged(
                name, format, f"damaged {format} data (bytes that are not {format} after byte {len(data) - len(rest)})"
            )
        engine: Any = bz2.BZ2Decompressor() if format == "bzip2" else lzma.LZMADecompressor(lzma.FORMAT_XZ)
        pending = rest
        while size <= limit:  # in steps, so that a bomb is stopped near the limit
            try:
                part = engine.decompress(pending, min(_STEP, limit + 1 - size))
            except (OSError, EOFError, ValueError, lzma.LZMAError) as exc:  # bz2: OSError; xz: LZMAError
                raise _damaged(name, format, f"damaged {format} data ({one_line(exc)})") from exc
            pending = b""
            size += len(part)
            _hold(parts, part, size, keep)
            if engine.eof or engine.needs_input:  # the end, or the input used up
                break
        if size > limit:
            break
        if not engine.eof:
            raise _damaged(name, format, f"truncated {format} data (it ends inside the compressed stream)")
        rest = engine.unused_data.lstrip(b"\0")  # xz allows zero padding after a stream
    return size


def decompress(data: bytes, name: str = "<bytes>", limit: int | None = None, format: str = "gzip") -> bytes:
    """The decompressed bytes of ``data`` (every gzip member or bzip2/xz stream, as
    ``gzip -d``, ``bzip2 -d`` and ``xz -d`` give them).

    Args:
        data: the compressed bytes.
        name: the file, for messages.
        limit: the most bytes the result may hold (default :data:`MAX_DECOMPRESSED_BYTES`).
        format: ``"gzip"``, ``"bzip2"`` or ``"xz"``.

    Raises:
        FileFormatError: empty (kind ``"empty"``), not data of ``format`` (``"wrong
            format"``; data of another compression is named), damaged or truncated
            (``"damaged"``), larger than ``limit`` once decompressed (``"oversize"``; decompression stops there).
        ValueError: an unknown ``format``.

    Example:
        >>> import bz2, gzip, lzma
        >>> decompress(gzip.compress(b"Hello")), decompress(lzma.compress(b"Hi"), format="xz")
        (b'Hello', b'Hi')
        >>> decompress(bz2.compress(b"a") + bz2.compress(b"b"), format="bzip2")
        b'ab'
    """
    if format not in _TOOLS:
        raise ValueError(f"format: {format!r} is not a compression chunkwise reads (gzip, bzip2, xz)")
    limit = MAX_DECOMPRESSED_BYTES if limit is None else limit
    suffix = next(s for s, f in COMPRESSIONS.items() if f == format)
    if not data:
        raise FileFormatError(
            f"{name}: empty file (0 bytes), not {format} data", "leave it out or compress it again", "empty"
        )
    found = compression_of(data)
    if found is not None and found != format:
        # another compression's data (``--format gzip`` on xz data, a ``.gz`` file that is
        # xz): named, not "not gzip data" nor an unsupported format
        right = f"{PurePath(inner_name(name)).name}{next(s for s, f in COMPRESSIONS.items() if f == found)}"
        raise FileFormatError(
            f"{name}: {found} data, not {format} (it starts with the {found} header {_HEADERS[found]})",
            f"give the format {found} (format='{found}', --format {found})"
            if name.startswith("<")  # a stream (<stdin>, <bytes>): its format is given, not told by a name
            else f"rename it to {right} (a file's suffix names its compression; standard input takes --format {found})",
            "wrong format",
        )
    if not _starts(data, format):
        raise FileFormatError(
            f"{name}: not {format} data (it does not start with the {format} header {_HEADERS[format]})",
            f"rename it to its real format (without {suffix}), or leave it out",
            "wrong format",
        )
    parts: list[bytes] = []
    keep = {"keep": KEEP_BYTES} if KEEP_BYTES < limit else {}  # (past KEEP_BYTES: counted, not held)
    if format == "gzip":
        size = _gunzip(data, name, limit, parts, **keep)
    else:
        size = _unstream(data, name, limit, parts, format, **keep)
    if size > limit:
        raise FileFormatError(
            f"{name}: decompresses to more than {_mib(limit)} (the limit on a compressed file's size once "
            "decompressed, against decompression bombs)",
            f"raise the limit with the loader option {OPTION} (-L {OPTION}={_next_limit(limit)}; "
            f"chunkwise.load(path, {OPTION}='{_next_limit(limit)}')), or leave it out",
            "oversize",
        )
    if keep and size > KEEP_BYTES:  # under the limit, but only counted: decompressed again, held
        parts = []
        if format == "gzip":
            _gunzip(data, name, limit, parts)
        else:
            _unstream(data, name, limit, parts, format)
    return parts[0] if len(parts) == 1 else b"".join(parts)


_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def _next_limit(limit: int) -> str:
    """A limit to suggest above ``limit``: the next power of two of a GiB or of a MiB."""
    size = 1024 * 1024
    while size <= limit:
        size *= 2
    return f"{size // 1024**3}G" if size >= 1024**3 else f"{size // 1024**2}M"


def parse_size(value: int | str) -> int:
    """A size in bytes from ``value``: an int, or a number with an optional unit ``K``,
    ``M``, ``G``, ``T`` (powers of 1024; ``KiB``, ``MB`` and ``MiB`` mean the same).

    Raises:
        ConfigError: not a size, or not positive (naming :data:`OPTION`).

    Example:
        >>> parse_size(1000), parse_size("512M"), parse_size("1GiB"), parse_size("1.5k")
        (1000, 536870912, 1073741824, 1536)
    """
    if isinstance(value, bool):
        n = None
    elif isinstance(value, int):
        n = value
    else:
        match = _SIZE.fullmatch(str(value))
        n = int(float(match.group(1)) * _UNITS[match.group(2).lower()]) if match else None
    if n is None or n < 1:
        raise ConfigError(
            f"{OPTION}: {value!r} is not a size (a number of bytes above 0, or with a unit: 512M, 1G, 2GiB)"
        )
    return n


def peek(head: bytes, size: int = HEAD_BYTES, format: str = "gzip") -> bytes | None:
    """The first ``size`` decompressed bytes of the first bytes of a compressed file (for
    format detection), or None when they are not data of ``format`` or are damaged."""
    if not _starts(head, format):
        return None
    try:
        if format == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, size)
        engine: Any = bz2.BZ2Decompressor() if format == "bzip2" else lzma.LZMADecompressor(lzma.FORMAT_XZ)
        return engine.decompress(head, size)
    except (zlib.error, OSError, EOFError, ValueError, lzma.LZMAError):
        return None


def _tar(name: str, head: bytes) -> bool:
    """Whether a decompressed file is a tar archive: its name ends with ``.tar`` or its
    first header has the ``ustar`` mark."""
    return name.lower().endswith(".tar") or head[257:262] == b"ustar"


_ALL_MAGIC = (GZIP_MAGIC, BZIP2_MAGIC, XZ_MAGIC)


class CompressedLoader(Loader):
    """``NAME.EXT`` + the suffix of a compression: decompressed, then read by the loader
    ``NAME.EXT`` selects (see the module's documentation). It takes every loader option
    and passes on those of the loader it hands the bytes to (``-L password=...`` for a
    ``.pdf.gz``). Subclasses name the compression (:attr:`format`) and its suffix."""

    suffix: ClassVar[str] = ""
    """Each subclass's :attr:`magic` is its compression's magic bytes, then the other two
    compressions': data of another one (``--format gzip`` on xz data, a ``.gz`` file that
    is xz) reaches the loader, which names it (:func:`decompress`), rather than an
    unsupported format."""
    options: ClassVar[tuple[str, ...]] = (OPTION,)
    """``max_decompressed``: the limit of the decompressed size (:func:`parse_size`: ``"1G"``,
    ``"512M"``, bytes; default :data:`MAX_DECOMPRESSED_BYTES`). The decompressed file's
    loader takes its own options besides (see :meth:`load_bytes`)."""

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Check ``max_decompressed`` before any file is read."""
        if OPTION in options:
            parse_size(options[OPTION])

    def sniff(self, head: bytes) -> bool:
        """Never by the magic bytes alone: only the suffix (or ``format=``) chooses this
        loader; a ``.tgz`` stays a tar archive, not handled."""
        return False

    def peek(self, head: bytes, size: int = HEAD_BYTES) -> bytes | None:
        """The first ``size`` decompressed bytes of a file's first bytes, or None (see
        :func:`peek`)."""
        return peek(head, size, self.format)

    def inner(self, name: str, head: bytes, format: str | None = None) -> Loader:
        """The loader of the decompressed file: of ``format`` when given (unless it names
        this compression), else detected from ``name`` without the suffix and the
        decompressed ``head``.

        Raises:
            UnsupportedFormatError: no loader reads the decompressed file (a ``.tar.gz``,
                a compressed file inside another), naming the compressed file.
            ConfigError: an unknown ``format``.
        """
        loader = get_loader(format) if format else None
        if loader is None or loader.format == self.format:
            plain = inner_name(PurePath(name).name) if name and not name.startswith("<") else ""
            try:
                loader = detect_loader(plain, head)
            except UnsupportedFormatError as exc:
                if self.format != "gzip" and _tar(plain, head):
                    # (gzip's message is the one it had before bzip2 and xz were read)
                    raise UnsupportedFormatError(
                        name or "<bytes>", f"tar archive ({self.format}-compressed)",
                        "an archive of many files: extract it and chunk its folder",
                    ) from None
                raise UnsupportedFormatError(
                    name or "<bytes>", f"{exc.format} ({self.format}-compressed)", exc.detail
                ) from None
        if isinstance(loader, CompressedLoader):
            raise UnsupportedFormatError(
                name or "<bytes>", f"{loader.format} inside {self.format}", "decompress the outer layer first"
            )
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
                without the suffix and the decompressed bytes).
            options: loader options: ``max_decompressed`` (the limit, see
                :func:`parse_size`); those the decompressed file's loader takes are
                passed to it, the others ignored.

        Raises:
            FileFormatError: see :func:`decompress`.
            UnsupportedFormatError: see :meth:`inner`.
        """
        name = source or "<bytes>"
        given = (options or {}).get(OPTION)
        raw = decompress(data, name, None if given is None else parse_size(given), format=self.format)
        loader = self.inner(source or "", raw[:HEAD_BYTES], format)
        meta = dict(metadata or {})
        meta.setdefault("compression", self.format)
        if loader.format == "code" and "language" not in meta and source:
            # the code loader tells the language by the file's suffix: the one under .gz
            from ..parsers.code_languages import language_for_suffix

            language = language_for_suffix(inner_name(PurePath(source).name))
            if language:
                meta["language"] = language
        kwargs: dict[str, Any] = {"source": source, "encoding": encoding, "metadata": meta, "id": id}
        taken = None
        if loader.options:
            taken = loader.check_options({k: v for k, v in (options or {}).items() if k in loader.options}, source)
        try:
            if taken is not None:
                return loader.load_bytes(raw, options=taken, **kwargs)  # type: ignore[call-arg]
            return loader.load_bytes(raw, **kwargs)
        except LoadError as exc:
            if source and not source.startswith("<"):
                raise  # a file: its name says what it was read as
            raise self._assumed(exc, name, loader.format, format) from exc

    def _assumed(self, exc: LoadError, name: str, read_as: str, given: str | None) -> LoadError:
        """The error of the decompressed bytes of a stream (standard input), saying that they
        were decompressed and in which format they were read, and why (given or told by
        their bytes)."""
        how = (
            f"decompressed from {self.format} and read as {read_as}, "
            + ("the format given" if given and get_loader(given).format == read_as
               else "told by the decompressed bytes (give the format to read them in another: --format, format=)")
        )
        if isinstance(exc, FileFormatError):
            problem = exc.problem[len(name) + 2 :] if exc.problem.startswith(f"{name}: ") else exc.problem
            return FileFormatError(f"{name}: {problem} ({how})", exc.fix, exc.kind)
        text = str(exc)
        text = text[len(name) + 2 :] if text.startswith(f"{name}: ") else text
        problem, sep, rest = text.partition("; ")  # (what is wrong; what to do)
        return LoadError(f"{name}: {problem} ({how}){sep}{rest}")

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        raise ConfigError(
            f"{self.format} content is binary: pass the file's bytes (chunkwise.parse(data, format='{self.format}')) "
            "or its path (chunkwise.load(path)), not a str"
        )


class GzipLoader(CompressedLoader):
    """``NAME.EXT.gz``: gzip data, decompressed with :mod:`zlib`."""

    format: ClassVar[str] = "gzip"
    suffix: ClassVar[str] = SUFFIX
    suffixes: ClassVar[tuple[str, ...]] = (SUFFIX,)
    mime_types: ClassVar[tuple[str, ...]] = ("application/gzip", "application/x-gzip")
    aliases: ClassVar[tuple[str, ...]] = ("gz",)
    magic: ClassVar[tuple[bytes, ...]] = (GZIP_MAGIC,) + tuple(m for m in _ALL_MAGIC if m != GZIP_MAGIC)


class Bzip2Loader(CompressedLoader):
    """``NAME.EXT.bz2``: bzip2 data, decompressed with :mod:`bz2`."""

    format: ClassVar[str] = "bzip2"
    suffix: ClassVar[str] = ".bz2"
    suffixes: ClassVar[tuple[str, ...]] = (".bz2",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/x-bzip2", "application/x-bzip")
    aliases: ClassVar[tuple[str, ...]] = ("bz2",)
    magic: ClassVar[tuple[bytes, ...]] = (BZIP2_MAGIC,) + tuple(m for m in _ALL_MAGIC if m != BZIP2_MAGIC)


class XzLoader(CompressedLoader):
    """``NAME.EXT.xz``: xz data, decompressed with :mod:`lzma`."""

    format: ClassVar[str] = "xz"
    suffix: ClassVar[str] = ".xz"
    suffixes: ClassVar[tuple[str, ...]] = (".xz",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/x-xz",)
    aliases: ClassVar[tuple[str, ...]] = ()
    magic: ClassVar[tuple[bytes, ...]] = (XZ_MAGIC,) + tuple(m for m in _ALL_MAGIC if m != XZ_MAGIC)


register_loader(GzipLoader())
register_loader(Bzip2Loader())
register_loader(XzLoader())
