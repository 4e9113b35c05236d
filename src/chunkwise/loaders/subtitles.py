"""Subtitles: SubRip (``.srt``) and WebVTT (``.vtt``), kept exactly as decoded.

The text is the file's own (cue numbers, timing lines and cue text, line ends as they
are), so chunk offsets index the file and every cue keeps its times: the
``conversation`` strategy reads each cue as a turn with its ``start_time`` and
``end_time``, and ``auto`` chooses it for both formats.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ..boundaries import line_feed_twin
from ..errors import warn_at_caller
from ..types import Document
from .base import Loader, register_loader

__all__ = ["SrtLoader", "SubtitleWarning", "VttLoader", "looks_like_subtitles"]

_MAX_WARNINGS = 10  # warnings printed per file (metadata["warnings"] lists every one)


class SubtitleWarning(UserWarning):
    """A subtitle cue whose timing line is malformed or out of range (its text is kept)."""


def _warn(message: str) -> None:
    """Warn with a :class:`SubtitleWarning` attributed to the caller outside chunkwise."""
    warn_at_caller(message, SubtitleWarning)


# the start of an SRT file: a cue number, then a timing line
_SRT_HEAD = re.compile(rb"\s*\d+[ \t]*(?:\r\n?|\n)[ \t]*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}[ \t]+-->")

_SRT_HEAD_TEXT = re.compile(_SRT_HEAD.pattern.decode())
_VTT_HEAD_TEXT = re.compile(r"\ufeff?WEBVTT(?=[ \t\r\n]|$)")


def looks_like_subtitles(text: str) -> bool:
    """Whether ``text`` starts like a SubRip file (a cue number, then a timing line) or a
    WebVTT file (``WEBVTT``): what ``auto`` asks of plain text (standard input read as
    text)."""
    return _SRT_HEAD_TEXT.match(text.lstrip("\ufeff")) is not None or _VTT_HEAD_TEXT.match(text) is not None


class SrtLoader(Loader):
    """SubRip subtitles (``metadata["format"] == "srt"``): numbered cues with
    ``00:00:01,000 --> 00:00:04,000`` timing lines; the text is kept as decoded.

    Example:
        >>> doc = SrtLoader().load_bytes(b"1\\r\\n00:00:01,000 --> 00:00:02,000\\r\\nHi.\\r\\n", source="a.srt")
        >>> doc.text == "1\\r\\n00:00:01,000 --> 00:00:02,000\\r\\nHi.\\r\\n", doc.metadata["format"]
        (True, 'srt')
    """

    format: ClassVar[str] = "srt"
    suffixes: ClassVar[tuple[str, ...]] = (".srt",)
    mime_types: ClassVar[tuple[str, ...]] = ("application/x-subrip", "text/srt")
    aliases: ClassVar[tuple[str, ...]] = ("subrip",)

    def sniff(self, head: bytes) -> bool:
        """Whether ``head`` starts like an SRT file (a cue number, then a timing line)."""
        return _SRT_HEAD.match(head.lstrip(b"\xef\xbb\xbf")) is not None

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        """The document of ``text``, kept as it is. A malformed or out-of-range timing line
        is reported: a :class:`SubtitleWarning` (printed on standard error by the CLI;
        attributed to the line of the caller outside chunkwise) and a line of
        ``metadata["warnings"]``; the ``conversation`` strategy reads that cue
        as a turn without times, its text kept."""
        from ..parsers.conversation import cue_problems

        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        problems = cue_problems(text)
        if problems:
            name = source or "<text>"
            lines = line_feed_twin(text) or text  # (a lone carriage return ends a line too)
            notes = [
                f"{name}: line {lines.count(chr(10), 0, off) + 1}: {line[:80]!r}: {why}; the cue is kept as text "
                "without times"
                for off, line, why in problems
            ]
            meta["warnings"] = [*meta.get("warnings", ()), *notes]
            for note in notes[:_MAX_WARNINGS]:
                _warn(note)
            if len(notes) > _MAX_WARNINGS:
                _warn(f"{name}: {len(notes) - _MAX_WARNINGS} more malformed timing lines")
        return Document(text, id=id, source=source, metadata=meta)


class VttLoader(SrtLoader):
    """WebVTT subtitles (``metadata["format"] == "vtt"``): a ``WEBVTT`` header, then cues
    (an optional identifier, ``00:01.000 --> 00:04.000`` with settings, text with
    ``<v Speaker>`` voice spans); the text is kept as decoded."""

    format: ClassVar[str] = "vtt"
    suffixes: ClassVar[tuple[str, ...]] = (".vtt",)
    mime_types: ClassVar[tuple[str, ...]] = ("text/vtt",)
    aliases: ClassVar[tuple[str, ...]] = ("webvtt",)
    magic: ClassVar[tuple[bytes, ...]] = (b"WEBVTT",)

    def sniff(self, head: bytes) -> bool:
        return Loader.sniff(self, head)


register_loader(SrtLoader())
register_loader(VttLoader())
