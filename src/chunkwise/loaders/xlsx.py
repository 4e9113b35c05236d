"""Excel workbooks (``.xlsx``, ``.xlsm``): one section per sheet, each a Markdown table,
read by openpyxl in read-only mode (rows streamed, so a large sheet costs its rows, not a
cell object each).

Each worksheet becomes ``## Sheet name`` followed by a GFM pipe table of its rows: the first
non-empty row is the header, empty rows are left out, trailing empty columns dropped.
Cells show their cached values (what Excel last computed for a formula; a workbook never
opened in Excel shows no value for a formula cell); dates as ISO 8601, whole numbers
without ``.0``. The ``table`` parser then chunks every sheet by rows with its header
repeated in ``context``, and the ``markdown`` strategy gives the sheet name as header path.
``metadata["sheets"]`` lists the sheet names; the core properties (``title``, ``author``,
``created``, ``subject``, ``keywords``) go to the metadata (not ``modified``: openpyxl
reports the time of reading for a file that does not say).

Method:
    ECMA-376 SpreadsheetML through openpyxl's read-only worksheets (``values_only`` rows).
"""

from __future__ import annotations

import datetime
import io
import math
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ..types import Document
from ._blocks import BinaryLoader, MarkdownWriter, core_metadata, pipe_table
from .base import register_loader

__all__ = ["XlsxLoader"]

_CORE = ("title", "creator", "created", "subject", "keywords")


def _openpyxl() -> Any:
    try:
        import openpyxl
    except ImportError:
        raise MissingDependencyError("openpyxl", "xlsx", "reading .xlsx files") from None
    return openpyxl


def cell_text(value: Any) -> str:
    """A cell value as text: ``""`` for none, whole floats without ``.0``, dates and times
    in ISO 8601, booleans as ``TRUE``/``FALSE`` (as Excel shows them).

    Example:
        >>> cell_text(3.0), cell_text(2.5), cell_text(None), cell_text(True)
        ('3', '2.5', '', 'TRUE')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime.datetime):
        if (value.hour, value.minute, value.second, value.microsecond) == (0, 0, 0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


class XlsxLoader(BinaryLoader):
    """Excel workbooks (``metadata["format"] == "xlsx"``): a ``## Sheet`` section and a
    Markdown table per worksheet.

    Needs ``pip install 'chunkwise[xlsx]'`` (openpyxl).

    Example:
        >>> import io, openpyxl
        >>> wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Stock"
        >>> ws.append(["item", "count"]); ws.append(["bolt", 12.0])
        >>> buf = io.BytesIO(); wb.save(buf)
        >>> print(XlsxLoader().load_bytes(buf.getvalue(), source="a.xlsx").text, end="")
        ## Stock
        <BLANKLINE>
        | item | count |
        |---|---|
        | bolt | 12 |
    """

    format: ClassVar[str] = "xlsx"
    suffixes: ClassVar[tuple[str, ...]] = (".xlsx", ".xlsm")
    mime_types: ClassVar[tuple[str, ...]] = (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.ms-excel.sheet.macroenabled.12",
    )
    aliases: ClassVar[tuple[str, ...]] = ("excel",)
    label: ClassVar[str] = "XLSX"
    package: ClassVar[str] = "openpyxl"
    extra: ClassVar[str] = "xlsx"
    members: ClassVar[tuple[bytes, ...]] = (b"xl/",)

    def read(self, data: bytes, *, name: str, source: str | None, metadata: dict[str, Any], id: str) -> Document:
        openpyxl = _openpyxl()
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            meta = metadata
            props = wb.properties
            core_metadata(props, meta, _CORE)
            if "creator" in meta:
                meta.setdefault("author", meta.pop("creator"))
            w = MarkdownWriter()
            names = []
            for ws in wb.worksheets:
                names.append(ws.title)
                rows: list[list[str]] = []
                ws.reset_dimensions()  # a writer's stored dimension (often "A1") is not trusted
                for values in ws.iter_rows(values_only=True):
                    cells = [cell_text(v) for v in values]
                    while cells and not cells[-1].strip():
                        cells.pop()
                    if cells:
                        rows.append(cells)
                w.add("## " + " ".join(ws.title.split()))
                w.add(pipe_table(rows))
            meta["sheets"] = names
        finally:
            wb.close()
        return Document(w.text(), id=id, source=source, metadata=meta)


register_loader(XlsxLoader())
