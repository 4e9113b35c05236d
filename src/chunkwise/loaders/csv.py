"""Delimited tables: CSV (``.csv``) and TSV (``.tsv``, ``.tab``), kept exactly as decoded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..types import Document
from .base import Loader, register_loader

__all__ = ["CsvLoader", "TsvLoader"]


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
        meta = dict(metadata or {})
        meta.setdefault("format", self.format)
        return Document(text, id=id, source=source, metadata=meta)


class TsvLoader(CsvLoader):
    """TSV (``metadata["format"] == "tsv"``): tab-separated cells, text kept as decoded."""

    format: ClassVar[str] = "tsv"
    suffixes: ClassVar[tuple[str, ...]] = (".tsv", ".tab")
    mime_types: ClassVar[tuple[str, ...]] = ("text/tab-separated-values",)
    aliases: ClassVar[tuple[str, ...]] = ()


register_loader(CsvLoader())
register_loader(TsvLoader())
