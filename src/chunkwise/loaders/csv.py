"""Delimited tables: CSV (``.csv``) and TSV (``.tsv``, ``.tab``), kept exactly as decoded.

A file that ends inside a quote (a closing quote lost) is reported: a :class:`CsvWarning`
and a line of ``metadata["warnings"]`` naming the line of the quote. The table parser
reads that quote as a plain character, and every line after it as a row of its own (see
:func:`chunkwise.parsers.table.unclosed_quote`); the text is kept as it is. The loader
looks for it in a file with an odd number of quote characters (a count, no parsing);
the ``table`` strategy reports one that the loader did not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import warn_at_caller
from ..types import Document
from .base import Loader, register_loader

__all__ = ["CsvLoader", "CsvWarning", "TsvLoader", "unclosed_quote_note"]


class CsvWarning(UserWarning):
    """A CSV or TSV file ends inside a quote: that quote is read as a plain character,
    every line after it as a row of its own (nothing of the text is dropped)."""


def unclosed_quote_note(text: str, offset: int, source: str | None = None) -> str:
    """The warning for the quote left open at the end of ``text`` in the record that
    starts at ``offset``: the file, the line number and the line."""
    line = re.split(r"\r\n?|\n", text[offset : offset + 200], maxsplit=1)[0]
    number = text.count("\n", 0, offset) + text.count("\r", 0, offset) - text.count("\r\n", 0, offset) + 1
    return (
        f"{source or '<text>'}: line {number}: {line[:80]!r}: a quote that is never "
        "closed; read as a plain character, each line from here on a row of its own"
    )


class CsvLoader(Loader):
    """CSV (``metadata["format"] == "csv"``): the text is kept exactly as decoded (line
    ends, quotes and all), so chunk offsets index the file's real text; the ``table``
    strategy reads its rows (the dialect is sniffed there), and ``auto`` chooses it.

    Example:
        >>> doc = CsvLoader().load_bytes(b"a,b\\r\\n1,2\\r\\n", source="t.csv")
        >>> doc.text, doc.metadata["format"]
        ('a,b\\r\\n1,2\\r\\n', 'csv')
    """

    format: ClassVar[str] = "csv"
    suffixes: ClassVar[tuple[str, ...]] = (".csv",)
    mime_types: ClassVar[tuple[str, ...]] = ("text/csv", "application/csv", "text/comma-separated-values")
    aliases: ClassVar[tuple[str, ...]] = ()

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        """The document of ``text``, kept as it is. A quote still open at the end of the
        text is reported: a :class:`CsvWarning` (printed on standard error by the CLI;
        attributed to the line of the caller outside chunkwise) and a line of
        ``metadata["warnings"]``."""
        from ..parsers.table import unclosed_quote

        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        # (an odd number of quotes, counted in C: most files are not parsed here)
        odd = text.count('"') & 1 or text.count("'") & 1
        offset = unclosed_quote(text, "\t" if self.format == "tsv" else None) if odd else -1
        if offset >= 0:
            note = unclosed_quote_note(text, offset, source)
            meta["warnings"] = [*meta.get("warnings", ()), note]
            warn_at_caller(note, CsvWarning)
        return Document(text, id=id, source=source, metadata=meta)


class TsvLoader(CsvLoader):
    """TSV (``metadata["format"] == "tsv"``): tab-separated cells, text kept as decoded."""

    format: ClassVar[str] = "tsv"
    suffixes: ClassVar[tuple[str, ...]] = (".tsv", ".tab")
    mime_types: ClassVar[tuple[str, ...]] = ("text/tab-separated-values",)
    aliases: ClassVar[tuple[str, ...]] = ()


register_loader(CsvLoader())
register_loader(TsvLoader())
