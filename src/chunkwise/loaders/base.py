"""The loader registry: which loader reads a file, chosen by suffix, MIME type or magic bytes.

A loader turns the bytes of one format into a :class:`~chunkwise.types.Document`: it
decodes them (:func:`chunkwise.loaders.decoding.decode`: decoding happens only in
loaders) and reads what the format says about itself (front matter, a page title, a page
map). Each format is one module of this package (``text``, ``markdown``, ``html``); a new
format (PDF, DOCX) is one more module registered with :func:`register_loader`.

Formats recognised but not handled yet (PDF, Office files, images, archives) raise
:class:`~chunkwise.errors.UnsupportedFormatError` naming the file and the format, whether
they are told by their magic bytes (``%PDF``, ``PK\\x03\\x04``) or by their suffix.
"""

from __future__ import annotations

import base64
import datetime
import json
import logging
import math
import mimetypes
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any, ClassVar

from ..errors import ChunkwiseError, ConfigError, ParseError, UnsupportedFormatError
from ..types import Document
from .decoding import decode, decode_text, looks_like_text

__all__ = [
    "FileFormatError",
    "Loader",
    "detect_loader",
    "get_loader",
    "json_safe",
    "register_loader",
    "registered_loaders",
    "unregister_loader",
    "unsupported_format",
]

logger = logging.getLogger(__name__)

HEAD_BYTES = 8192
"""How many bytes of a file detection reads."""

# formats recognised by their first bytes, not handled yet
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "pdf"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole2 (doc, xls, ppt, msg)"),
    (b"{\\rtf", "rtf"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"\x1f\x8b", "gzip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"\x7fELF", "elf executable"),
    (b"SQLite format 3\x00", "sqlite"),
    # page descriptions that look like text: their words are operators, not prose
    (b"%!PS", "postscript"),  # PostScript and EPS (%!PS-Adobe-3.0 EPSF-3.0)
    (b"\x04%!PS", "postscript"),  # as some printer drivers write it (a Ctrl-D first)
    (b"\xc5\xd0\xd3\xc6", "postscript"),  # EPS with a preview image (DOS EPS binary header)
    (b"\x1b%-12345X", "printer job (pjl)"),  # a print job, PostScript or PCL inside
    (b"\xf7\x02\x01\x83\x92\xc0\x1c\x3b", "dvi"),  # TeX's device-independent output
)
# ZIP containers named by their suffix
_ZIP_KINDS = {
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".pptx": "pptx",
    ".odt": "odt",
    ".ods": "ods",
    ".odp": "odp",
    ".epub": "epub",
}
# formats recognised by suffix (an empty or odd file of that name), not handled yet
_UNSUPPORTED_SUFFIXES = {
    ".pdf": "pdf",
    ".doc": "doc",
    ".xls": "xls",
    ".ppt": "ppt",
    ".rtf": "rtf",
    ".ps": "postscript",
    ".eps": "postscript",
    ".dvi": "dvi",
    ".png": "png",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
    ".gif": "gif",
    ".tif": "tiff",
    ".tiff": "tiff",
    ".webp": "webp",
    ".zip": "zip",
    ".gz": "gzip",
    ".tgz": "gzip",
    ".bz2": "bzip2",
    ".xz": "xz",
    ".7z": "7z",
    ".sqlite": "sqlite",
    ".db": "sqlite",
    # compiled code: Python bytecode, object files and libraries, Java classes, programs
    ".pyc": "python bytecode",
    ".pyo": "python bytecode",
    ".o": "object code",
    ".a": "static library",
    ".so": "shared library",
    ".dylib": "shared library",
    ".dll": "shared library",
    ".exe": "executable",
    ".class": "java class",
    **_ZIP_KINDS,
}
_UNSUPPORTED_MIME = {
    "application/pdf": "pdf",
    "application/msword": "doc",
    "application/rtf": "rtf",
    "application/postscript": "postscript",
    "application/x-dvi": "dvi",
    "application/zip": "zip",
    "application/epub+zip": "epub",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
}


def one_line(exc: BaseException) -> str:
    """An exception as one short line: ``"BadZipFile: File is not a zip file"`` (white
    space collapsed, cut at 160 characters)."""
    text = " ".join(str(exc).split()) or "no detail"
    if len(text) > 160:
        text = text[:157] + "..."
    return f"{type(exc).__name__}: {text}"


class FileFormatError(ParseError):
    """A file that its loader cannot read, diagnosed: the message is ``"{problem}; {fix}"``.

    Attributes:
        problem: the file's name and what is wrong with it (one line).
        fix: what to do about it (one line); the command line prints it after ``fix:``.
        kind: a short name of the failure for summaries (``"empty"``, ``"damaged"``,
            ``"encrypted"``, ``"wrong format"``, ``"unparsable"``).
    """

    def __init__(self, problem: str, fix: str, kind: str = "unparsable") -> None:
        super().__init__(f"{problem}; {fix}")
        self.problem = problem
        self.fix = fix
        self.kind = kind

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.problem, self.fix, self.kind))


@contextmanager
def parse_failures(name: str, problem: str, fix: str) -> Iterator[None]:
    """Inside the block, any failure of a format's library (lxml's ``ValueError``, a
    ``BadZipFile``, a ``RecursionError`` on absurd nesting, ...) is raised as one
    :class:`FileFormatError` line, ``"{name}: {problem} (Type: detail); {fix}"``;
    chunkwise's own errors pass as they are.

    Raises:
        FileFormatError: the block raised anything but a chunkwise error.
    """
    try:
        yield
    except ChunkwiseError:
        raise
    except Exception as exc:  # noqa: BLE001 - any parser failure becomes a LoadError with a fix
        raise FileFormatError(f"{name}: {problem} ({one_line(exc)})", fix) from exc


class Loader:
    """The base of a loader: one format, its suffixes, MIME types and magic bytes.

    Subclasses set the class attributes and implement :meth:`parse_text`; the base
    decodes bytes (:meth:`load_bytes`) and records the encoding in
    ``metadata["encoding"]``.

    Attributes:
        format: the format's name (``"text"``, ``"markdown"``, ``"html"``), also the
            document's ``metadata["format"]``.
        suffixes: file name endings, lower case, with the dot (``".md"``, ``".rst.txt"``).
        mime_types: MIME types (``"text/markdown"``).
        aliases: other names accepted for ``format=`` (``"md"``).
        magic: byte prefixes that identify the format in a file of unknown suffix
            (compared case-insensitively, after a byte-order mark and leading white space).
    """

    format: ClassVar[str] = ""
    suffixes: ClassVar[tuple[str, ...]] = ()
    mime_types: ClassVar[tuple[str, ...]] = ()
    aliases: ClassVar[tuple[str, ...]] = ()
    magic: ClassVar[tuple[bytes, ...]] = ()
    options: ClassVar[tuple[str, ...]] = ()
    """The loader options it accepts (``chunkwise.load(path, password=...)``, the CLI's
    ``-L KEY=VALUE``); any other raises :class:`~chunkwise.errors.ConfigError`."""

    def check_options(self, options: Mapping[str, Any] | None, source: str | None = None) -> dict[str, Any]:
        """``options`` as a dict, after checking that this loader accepts each of them.

        Raises:
            ConfigError: an option the loader does not accept, named with the ones it does.
        """
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            accepted = ", ".join(self.options) if self.options else "none"
            where = f"{source}: " if source else ""
            raise ConfigError(
                f"{where}the {self.format} loader has no option {', '.join(map(repr, unknown))} "
                f"(its options: {accepted}); leave it out for this format"
            )
        return given

    def sniff(self, head: bytes) -> bool:
        """Whether ``head`` (the first bytes of a file) is in this format, by its magic."""
        if not self.magic:
            return False
        start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return any(start.startswith(m.lower()) for m in self.magic)

    def declared_encoding(self, data: bytes) -> str | None:
        """The encoding the document declares about itself, if the format can (HTML)."""
        return None

    def load_bytes(
        self,
        data: bytes,
        *,
        source: str | None = None,
        encoding: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        id: str = "",
    ) -> Document:
        """Decode ``data`` and parse it (see :func:`chunkwise.loaders.decoding.decode`):
        ``metadata["encoding"]`` is the codec used, and ``metadata["decoding_errors"]`` the
        number of bad bytes replaced by U+FFFD in text that is UTF-8 but for a few of them.

        Raises:
            LoadError: the bytes cannot be decoded.
            ConfigError: an unknown ``encoding``.
        """
        text, used, errors = decode_text(
            data, source=source or "<bytes>", encoding=encoding, declared=None if encoding else self.declared_encoding(data)
        )
        meta = dict(metadata or {})
        meta["encoding"] = used
        if errors:
            meta["decoding_errors"] = errors
        return self.parse(text, source=source, metadata=meta, id=id)

    def parse(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        """:meth:`parse_text`, with any failure of the format's parser (lxml's
        ``ValueError``, a ``RecursionError`` on absurd nesting, ...) raised as
        :class:`~chunkwise.errors.ParseError` (a ``LoadError``) that names the source, the
        format and the fix; chunkwise's own errors pass as they are.

        Raises:
            ParseError: the text does not parse as this format.
        """
        with parse_failures(
            source or "<text>",
            f"cannot be parsed as {self.format}",
            f"check that it is valid {self.format}, or read it as plain text (--format text on the "
            "command line, format='text' in Python)",
        ):
            return self.parse_text(text, source=source, metadata=metadata, id=id)
        raise AssertionError("unreachable")  # pragma: no cover - the block returns or raises

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        """A :class:`Document` from decoded text (the text is kept exactly)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


_REGISTRY: list[Loader] = []


def register_loader(loader: Loader, *, first: bool = False) -> Loader:
    """Add a loader to the registry (a new format, or one that replaces a built-in).

    Args:
        loader: the loader instance.
        first: consulted before the loaders already registered (to override a suffix).

    Returns:
        ``loader``.

    Raises:
        ConfigError: ``loader.format`` is empty.

    Example:
        >>> from chunkwise.loaders.text import TextLoader
        >>> class LogLoader(TextLoader):
        ...     format, suffixes, mime_types, aliases = "log", (".log",), (), ()
        >>> _ = register_loader(LogLoader())
        >>> get_loader("log").format
        'log'
        >>> unregister_loader("log")
    """
    if not loader.format:
        raise ConfigError(f"loader {loader!r} has no format name")
    if first:
        _REGISTRY.insert(0, loader)
    else:
        _REGISTRY.append(loader)
    return loader


def unregister_loader(format: str) -> None:
    """Remove every registered loader of ``format``."""
    _REGISTRY[:] = [ld for ld in _REGISTRY if ld.format != format]


def registered_loaders() -> tuple[Loader, ...]:
    """The registered loaders, in the order they are consulted."""
    return tuple(_REGISTRY)


def _unsupported_name(name: str) -> str | None:
    key = name.lower().strip()
    if key in _UNSUPPORTED_MIME:
        return _UNSUPPORTED_MIME[key]
    if ("." + key) in _UNSUPPORTED_SUFFIXES:
        return _UNSUPPORTED_SUFFIXES["." + key]
    return None


def get_loader(format: str) -> Loader:
    """The loader of a format name (``"markdown"``, ``"md"``), MIME type
    (``"text/markdown"``) or suffix (``".md"``).

    Raises:
        UnsupportedFormatError: a format recognised but not handled (``"pdf"``,
            ``"application/pdf"``).
        ConfigError: an unknown format.
    """
    key = format.lower().strip()
    mime = key.split(";", 1)[0].strip()
    for loader in _REGISTRY:
        if key == loader.format or key in loader.aliases or mime in loader.mime_types or key in loader.suffixes:
            return loader
    known = _unsupported_name(mime) or _unsupported_name(key.lstrip("."))
    if known:
        raise UnsupportedFormatError(f"format={format!r}", known, "no loader handles it yet")
    names = ", ".join(ld.format for ld in _REGISTRY)
    raise ConfigError(f"format {format!r} is unknown; choose one of: {names} (or a MIME type or suffix of one)")


def _suffix_match(name: str) -> Loader | None:
    lower = name.lower()
    best: tuple[int, Loader] | None = None
    for loader in _REGISTRY:
        for suffix in loader.suffixes:
            if lower.endswith(suffix) and len(lower) > len(suffix) and (best is None or len(suffix) > best[0]):
                best = (len(suffix), loader)
    return best[1] if best else None


def _container_loader(name: str, head: bytes) -> Loader | None:
    """The loader of a file whose magic bytes name a container (a ZIP: DOCX, XLSX, EPUB)
    or a binary format that a registered loader reads: the loader of its suffix when that
    loader's ``magic`` starts the file, else the first whose :meth:`Loader.sniff` accepts it."""
    by_suffix = _suffix_match(PurePath(name).name) if name else None
    if by_suffix is not None and any(head.startswith(m) for m in by_suffix.magic):
        return by_suffix
    return next((ld for ld in _REGISTRY if ld.magic and ld.sniff(head)), None)


def unsupported_format(name: str, head: bytes) -> str | None:
    """The format of a file that no loader handles, from its magic bytes (first) or its
    suffix, or None when nothing says it is such a format (or a loader reads it)."""
    if _container_loader(name, head) is not None:
        return None
    suffix = PurePath(name).suffix.lower()
    for magic, fmt in _MAGIC:
        if head.startswith(magic):
            if fmt == "zip":
                return _ZIP_KINDS.get(suffix, "zip (docx, xlsx, pptx, epub, odt, ...)")
            return fmt
    if _suffix_match(name) is None:
        return _UNSUPPORTED_SUFFIXES.get(suffix)
    return None


def detect_loader(name: str, head: bytes, format: str | None = None) -> Loader:
    """The loader for a file.

    Args:
        name: the file's name or path (its suffix counts, ``.rst.txt`` included).
        head: its first bytes (:data:`HEAD_BYTES` are enough).
        format: a format name, MIME type or suffix that overrides detection.

    Order: ``format``; magic bytes of a format not handled (a PDF named ``.txt`` is
    still a PDF); the suffix; the loaders' own magic (``<!doctype html``); a suffix of a
    format not handled; the MIME type guessed from the name; then text, for bytes that
    look like text (:func:`~chunkwise.loaders.decoding.looks_like_text`).

    Raises:
        UnsupportedFormatError: a format no loader handles, or binary data.
        ConfigError: an unknown ``format``.
    """
    if format:
        return get_loader(format)
    magic = next((fmt for m, fmt in _MAGIC if head.startswith(m)), None)
    if magic is None and head.startswith(b"BZh") and head[4:10] == b"1AY&SY":
        magic = "bzip2"
    if magic is not None:
        loader = _container_loader(name, head)
        if loader is not None:
            return loader
        raise UnsupportedFormatError(name, unsupported_format(name, head) or magic, "no loader handles it yet")
    loader = _suffix_match(PurePath(name).name)
    if loader is not None:
        return loader
    for candidate in _REGISTRY:
        if candidate.sniff(head):
            return candidate
    fmt = unsupported_format(name, head)
    if fmt is not None:
        raise UnsupportedFormatError(name, fmt, "no loader handles it yet")
    mime, _ = mimetypes.guess_type(PurePath(name).name, strict=False)
    if mime:
        for candidate in _REGISTRY:
            if mime in candidate.mime_types:
                return candidate
    if looks_like_text(head):
        return get_loader("text")
    raise UnsupportedFormatError(name, "binary data", "it does not look like text" + (f"; {mime}" if mime else ""))


def _key(value: Any) -> str:
    if isinstance(value, str):
        return value
    safe = json_safe(value)
    return safe if isinstance(safe, str) else json.dumps(safe, sort_keys=True)


def _set_order(value: Any) -> Any:
    return json.dumps(value, sort_keys=True)


def json_safe(value: Any) -> Any:
    """``value`` with only JSON types, for front matter, metadata and every JSON line
    written (the one conversion of the library and the CLI; ``chunkwise.export.jsonable``
    is this function):

    * ``None``, booleans, integers, strings and finite floats as they are;
    * NaN and the infinities as the strings ``"nan"``, ``"inf"``, ``"-inf"`` (JSON has no
      such numbers; ``json.dumps`` would write ``NaN``, which strict parsers reject);
    * dates and times as ISO 8601 strings (YAML front matter reads ``date: 2024-01-02``
      as a date);
    * mappings as objects with string keys (a key that is not a string: its JSON text,
      ``1`` -> ``"1"``, ``True`` -> ``"true"``, as ``json.dumps`` writes keys);
    * lists and tuples as lists; sets as lists, sorted (by value when the values compare,
      else by their JSON text);
    * bytes as base64 text (lossless: YAML's ``!!binary`` is base64 in the file too);
    * objects with ``tolist()`` (numpy arrays and scalars) as what it returns;
    * anything else as ``str(value)``.

    Example:
        >>> import datetime
        >>> json_safe({"date": datetime.date(2024, 1, 2), 1: (True, None), "x": float("nan")})
        {'date': '2024-01-02', '1': [True, None], 'x': 'nan'}
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (datetime.date, datetime.time)):  # a datetime is a date
        return value.isoformat()
    if isinstance(value, Mapping):
        return {_key(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [json_safe(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=_set_order)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if hasattr(value, "tolist"):
        try:
            listed = value.tolist()
        except Exception:  # noqa: BLE001 - not a numpy-like tolist: fall back to its text
            return str(value)
        return json_safe(listed)
    return str(value)
