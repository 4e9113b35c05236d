"""Bytes to text: the one place where chunkwise decodes a file.

Order of detection (:func:`decode`):

1. ``encoding=`` given: that codec, strictly.
2. A byte-order mark: UTF-8, UTF-16 LE/BE or UTF-32 LE/BE.
3. Valid UTF-8 (ASCII included).
4. An encoding the format declares (an HTML ``<meta charset>``), when it decodes.
5. charset-normalizer (the ``encodings`` extra) for legacy encodings (cp1252, latin-1,
   cp1251, Shift JIS, ...), with a preference for cp1252 among the Western single-byte
   code pages that decode the bytes equally well.

A leading U+FEFF (a byte-order mark) is removed from the text in every case; nothing else
is changed: line ends stay as they are (``\\r\\n`` is two characters), so offsets index the
file's real text.
"""

from __future__ import annotations

import codecs
import logging
import unicodedata

from ..errors import ConfigError, LoadError

__all__ = ["decode", "looks_like_text"]

logger = logging.getLogger(__name__)

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# single-byte code pages of Latin script that charset-normalizer confuses on short text
_LATIN_FAMILY = frozenset(
    "cp1250 cp1252 cp1254 cp1257 cp775 cp850 cp437 latin_1 iso8859_2 iso8859_3 iso8859_4 iso8859_9 "
    "iso8859_10 iso8859_13 iso8859_14 iso8859_15 iso8859_16 mac_latin2 mac_roman mac_iceland mac_turkish".split()
)
_WESTERN_PUNCT = frozenset("\u00a0“”‘’‚„–—…«»‹›€£¥¢°§©®™·•×÷¿¡ºª¹²³µ¶¼½¾†‡‰ˆ˜¨´¸¯¦¬±")


def bom_encoding(data: bytes) -> str | None:
    """The encoding named by a byte-order mark at the start of ``data``, or None."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    return None


def looks_like_text(head: bytes) -> bool:
    """Whether the first bytes of a file look like text rather than binary data.

    True for a byte-order mark, for UTF-8 (a sequence cut at the end of ``head`` allowed),
    and for bytes without NUL whose control characters (other than tab, line ends, form
    feed and escape) are under 1 % (legacy 8-bit text).

    Example:
        >>> looks_like_text(b"plain words\\n"), looks_like_text(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
        (True, False)
    """
    if not head or bom_encoding(head):
        return True
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3 and exc.reason == "unexpected end of data":
            return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27, 8))
    return controls <= len(head) // 100


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise ConfigError(f"encoding {name!r} is unknown; give a Python codec name such as 'utf-8' or 'cp1252'") from None


def _strict(data: bytes, encoding: str, source: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise LoadError(
            f"{source}: cannot be decoded as {encoding} ({exc.reason} at byte {exc.start}); "
            "give another encoding= or leave it out to detect it"
        ) from exc


def _western(text: str) -> bool:
    for ch in text:
        if ch < "\x80" or ch in _WESTERN_PUNCT:
            continue
        if not unicodedata.name(ch, "").startswith("LATIN"):
            return False
    return True


def _detect(data: bytes, source: str) -> tuple[str, str]:
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        raise LoadError(
            f"{source}: not valid UTF-8, and detecting a legacy encoding needs the package "
            "'charset-normalizer': pip install 'chunkwise[encodings]', or give the encoding "
            "(encoding='cp1252', --encoding cp1252)"
        ) from None
    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise LoadError(
            f"{source}: not valid UTF-8, nor text in any encoding charset-normalizer knows (binary data?); "
            "give the encoding (encoding=...) if it is text"
        )
    name = codecs.lookup(best.encoding).name
    if name in _LATIN_FAMILY and name != "cp1252":
        try:
            western = data.decode("cp1252")
        except UnicodeDecodeError:
            western = None
        if western is not None:
            rival = next((r for r in results if codecs.lookup(r.encoding).name == "cp1252"), None)
            same = western == str(best)
            if same or (rival is not None and rival.chaos <= best.chaos + 0.1 and _western(western)):
                logger.debug("%s: %s read as cp1252 (decodes as well, more common)", source, name)
                return western, "cp1252"
    return str(best), name


def decode(
    data: bytes, *, source: str = "<bytes>", encoding: str | None = None, declared: str | None = None
) -> tuple[str, str]:
    """Decode the bytes of a document.

    Args:
        data: the raw bytes.
        source: names the data in error messages.
        encoding: a codec to use instead of detecting one (strict; a leading byte-order
            mark is still removed).
        declared: an encoding the document declares (an HTML ``<meta charset>``), tried
            after the byte-order mark and UTF-8.

    Returns:
        ``(text, encoding)``: the text, exactly as decoded but without a leading byte-order
        mark, and the Python name of the codec used (``"utf-8"``, ``"utf-8-sig"``,
        ``"utf-16-le"``, ``"cp1252"``, ...).

    Raises:
        ConfigError: ``encoding`` is not a known codec.
        LoadError: the bytes do not decode with ``encoding``; or they are not UTF-8 and
            charset-normalizer is not installed (``pip install 'chunkwise[encodings]'``)
            or finds no encoding.

    Example:
        >>> decode("café".encode("utf-16"))
        ('café', 'utf-16-le')
        >>> decode(b"caf\\xe9", encoding="latin-1")
        ('café', 'iso8859-1')
    """
    if encoding:
        name = _codec(encoding)
        if name == "utf-8" and data.startswith(codecs.BOM_UTF8):
            name = "utf-8-sig"
        text = _strict(data, name, source)
    else:
        name = bom_encoding(data) or ""
        if name:
            bom = next(b for b, n in _BOMS if n == name)
            try:
                text = data[len(bom) :].decode(name) if name != "utf-8-sig" else data.decode(name)
            except UnicodeDecodeError as exc:
                raise LoadError(
                    f"{source}: not valid UTF-8, nor valid {name} as its byte-order mark says "
                    f"({exc.reason} at byte {exc.start + len(bom)}); give the encoding (encoding=...) if it is text"
                ) from exc
        else:
            try:
                text, name = data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                text = ""
                if declared:
                    try:
                        name = codecs.lookup(declared).name
                        text = data.decode(name)
                    except (LookupError, UnicodeDecodeError):
                        name = ""
                if not name:
                    text, name = _detect(data, source)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, name
