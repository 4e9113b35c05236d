"""Source code: ``.py``, ``.js``/``.ts``/``.tsx``, ``.java``, ``.go``, ``.rs``, ``.c``/``.h``,
``.cpp``, ``.cs``, ``.rb``, ``.php``, ``.kt``, ``.swift``, ``.sh``, ``.sql`` and scripts with a
``#!`` line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any, ClassVar

from ..parsers.code_languages import LANGUAGES, language_for_suffix, resolve_language
from ..types import Document
from .base import Loader, register_loader

__all__ = ["CodeLoader"]

_SHEBANG = re.compile(r"#![ \t]*(?:\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?([A-Za-z]+)")
_CPP_HEADER = re.compile(r"^[ \t]*(?:class[ \t]+\w+[^;\n]*\{?$|namespace\b|template[ \t]*<)", re.M)
_INTERPRETERS = {
    "python": "python", "python3": "python", "python2": "python", "node": "javascript", "nodejs": "javascript",
    "deno": "typescript", "ruby": "ruby", "php": "php", "bash": "bash", "sh": "bash", "zsh": "bash",
    "ksh": "bash", "dash": "bash",
}


# an editor's mode line: Emacs ``-*- C++ -*-`` or ``-*- mode: c++; ... -*-`` (on the first line,
# or the second after a ``#!`` line), Vim ``vim: set ft=cpp:`` (in the first lines)
_EMACS_MODE = re.compile(r"-\*-[ \t]*(?:(?:.*?;)?[ \t]*mode:[ \t]*)?([\w+#-]+)[ \t]*(?:;.*?)?-\*-", re.I)
_VIM_MODE = re.compile(r"\b(?:vim?|ex):.*?\b(?:ft|filetype)=([\w+#-]+)")
_MODES = {"shell-script": "bash", "c#": "csharp", "js": "javascript"}


def _mode_line_language(text: str) -> str | None:
    """The language an editor's mode line in the first lines of ``text`` names, if supported."""
    lines = text[:2000].splitlines()[:5]
    for i, line in enumerate(lines):
        m = _EMACS_MODE.search(line) if i < 2 else None
        if m is None:
            m = _VIM_MODE.search(line)
        if m is not None:
            word = m.group(1).lower()
            return resolve_language(_MODES.get(word, word))
    return None


def _shebang_language(text: str) -> str | None:
    m = _SHEBANG.match(text)
    if m is None:
        return None
    word = m.group(1).lower()
    return _INTERPRETERS.get(word) or _INTERPRETERS.get(word.rstrip("0123456789."))


class CodeLoader(Loader):
    """Source files, kept exactly as decoded (``metadata["format"] == "code"``), with the
    language in ``metadata["language"]``: the one given in ``metadata``, else the one of
    the file's suffix (a ``.h`` file with classes, namespaces or templates is C++), else of
    its ``#!`` line. ``strategy="code"`` (and ``auto``) read it.

    Example:
        >>> doc = CodeLoader().load_bytes(b"def f():\\n    return 1\\n", source="src/a.py")
        >>> doc.metadata["format"], doc.metadata["language"]
        ('code', 'python')
    """

    format: ClassVar[str] = "code"
    suffixes: ClassVar[tuple[str, ...]] = tuple(s for spec in LANGUAGES.values() for s in spec.suffixes)
    mime_types: ClassVar[tuple[str, ...]] = (
        "text/x-python",
        "text/x-script.python",
        "application/x-python-code",
        "application/javascript",
        "text/javascript",
        "application/typescript",
        "text/x-typescript",
        "text/x-java",
        "text/x-java-source",
        "text/x-go",
        "text/x-rust",
        "text/x-c",
        "text/x-csrc",
        "text/x-chdr",
        "text/x-c++src",
        "text/x-c++hdr",
        "text/x-csharp",
        "text/x-ruby",
        "application/x-ruby",
        "application/x-php",
        "text/x-php",
        "text/x-kotlin",
        "text/x-swift",
        "application/x-sh",
        "text/x-sh",
        "text/x-shellscript",
        "application/sql",
        "text/x-sql",
    )
    aliases: ClassVar[tuple[str, ...]] = ("source", "source-code", "program")
    magic: ClassVar[tuple[bytes, ...]] = tuple(
        f"#!{prefix}{word}".encode()
        for prefix in ("/usr/bin/env ", "/usr/bin/", "/bin/", "/usr/local/bin/")
        for word in ("python", "node", "ruby", "php", "bash", "sh", "zsh")
    )

    def sniff(self, head: bytes) -> bool:
        """Whether ``head`` (the first bytes of a file) starts with a ``#!`` line naming an
        interpreter of a supported language (``#!/bin/sh``, ``#! /usr/bin/env python3``,
        ``#!/usr/local/bin/python3.11``)."""
        start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if start.startswith(b"#!") and _shebang_language(start.split(b"\n", 1)[0].decode("latin-1")):
            return True
        top = start[:2000]
        return (b"-*-" in top or b"ft=" in top) and _mode_line_language(top.decode("latin-1")) is not None

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        language = resolve_language(meta["language"]) if isinstance(meta.get("language"), str) else None
        if language is None:
            for name in (source, meta.get("filename")):
                if isinstance(name, str) and (language := language_for_suffix(PurePath(name).name)):
                    break
            if language == "c" and str(name).lower().endswith(".h") and _CPP_HEADER.search(text):  # C++
                language = "cpp"
        if language is None:
            language = _shebang_language(text.lstrip("\ufeff")) or _mode_line_language(text.lstrip("\ufeff"))
        if language is not None:
            meta["language"] = language
        return Document(text, id=id, source=source, metadata=meta)


register_loader(CodeLoader())
