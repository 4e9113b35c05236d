"""The exception tree of chunkwise.

Every error chunkwise raises on purpose derives from :class:`ChunkwiseError`, and the
two most common kinds also derive from the built-in class a caller would expect:
invalid configuration is a :class:`ValueError`, a missing optional dependency an
:class:`ImportError`.
"""

from __future__ import annotations

import os
import sys
import warnings

__all__ = [
    "ChunkwiseError",
    "ConfigError",
    "LoadError",
    "MissingDependencyError",
    "OversizeError",
    "ParseError",
    "UnsupportedFormatError",
    "warn_at_caller",
]


class ChunkwiseError(Exception):
    """Base class of every error chunkwise raises on purpose."""


class ConfigError(ChunkwiseError, ValueError):
    """A parameter is invalid: the message names the parameter, its value and the fix."""


class MissingDependencyError(ChunkwiseError, ImportError):
    """An optional dependency is not installed: the message gives the pip command.

    Args:
        package: the distribution to install (for example ``"tiktoken"``).
        extra: the chunkwise extra that brings it (for example ``"tokens"``).
        purpose: what needs it, for the message.
    """

    def __init__(self, package: str, extra: str, purpose: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{purpose} needs the package {package!r}, which is not installed; "
            f"install the extra: pip install 'chunkwise[{extra}]'"
        )


class LoadError(ChunkwiseError, OSError):
    """A file could not be read or decoded."""


class ParseError(LoadError):
    """A file decoded to text, but its format's parser failed on it (malformed HTML that
    lxml rejects, for example): the message names the file, the format and the fix."""


class UnsupportedFormatError(LoadError):
    """A file is in a format no loader handles (a PDF, a DOCX, an image, binary data).

    Attributes:
        path: the file, as given.
        format: the format recognised (``"pdf"``, ``"zip (docx, xlsx, epub, ...)"``), or
            ``"unknown"``.
    """

    def __init__(self, path: str, format: str, detail: str = "") -> None:
        self.path = path
        self.format = format
        self.detail = detail
        super().__init__(f"{path}: {format} is not a supported format" + (f" ({detail})" if detail else ""))

    def __reduce__(self) -> tuple[object, ...]:  # travels between processes intact
        return (type(self), (self.path, self.format, self.detail))


class OversizeError(ChunkwiseError, ValueError):
    """An atomic block (a code block, a table) is larger than chunk_size under
    ``oversize="raise"``."""


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """Warn with ``category``, attributed to the first caller outside chunkwise (the line
    that called ``chunkwise.load``, ``chunkwise.chunk`` or a chunker), however deep in the
    package the warning arose: the stack level is counted, not fixed (what Python 3.12's
    ``skip_file_prefixes`` does, by hand)."""
    level = 1
    frame = sys._getframe(0)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
