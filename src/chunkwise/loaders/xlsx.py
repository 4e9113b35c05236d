"""Excel workbooks (``.xlsx``, ``.xlsm``): one section per sheet, each a Markdown table,
read by openpyxl in read-only mode (rows streamed, so a large sheet costs its rows, not a
cell object each).

Each worksheet becomes ``## Sheet name`` followed by its tables: the blocks of cells that
blank rows and blank columns separate (a sheet often holds several tables, or a title and
notes beside its table) are found by cutting the sheet recursively along fully blank rows,
then fully blank columns (:func:`cell_blocks`), and each block becomes a GFM pipe table
whose header is the first row of its densest run of rows (:func:`split_notes`: notes
written above or below a table without a blank row between are paragraphs before and after
it), in reading order (top to bottom, then left to right within a band of rows). A block
of one row (a title, a note) is a paragraph, not a table.
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
from ._blocks import BinaryLoader, MarkdownWriter, core_metadata, escape_line, pipe_table
from ._dates import core_dates
from .base import register_loader

__all__ = ["XlsxLoader", "cell_blocks", "split_notes"]

_CORE = ("title", "creator", "subject", "keywords")


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


def cell_blocks(rows: list[list[str]]) -> list[list[list[str]]]:
    """The blocks of a sheet's cells that fully blank rows and columns separate, in reading
    order, each as its rows of cells (trimmed: no blank outer row or column).

    A recursive XY-cut: the cells are cut along every fully blank row into bands of rows;
    a band without such a row is cut along every fully blank column; each part is cut
    again until neither cut applies. Bands come top to bottom, the parts of a band left to
    right. ``rows`` may be ragged; a cell of white space only is blank.

    Example:
        >>> cell_blocks([["a", "b", "", "x"], ["1", "2", "", "y"], [], ["Note"]])
        [[['a', 'b'], ['1', '2']], [['x'], ['y']], [['Note']]]
    """
    filled = [[bool(c.strip()) for c in r] for r in rows]
    out: list[list[list[str]]] = []

    def runs(flags: list[bool], start: int) -> list[tuple[int, int]]:
        """The runs of True in ``flags`` as half-open ranges offset by ``start``."""
        found, begin = [], None
        for k, flag in enumerate(flags + [False]):
            if flag and begin is None:
                begin = k
            elif not flag and begin is not None:
                found.append((start + begin, start + k))
                begin = None
        return found

    def cut(r0: int, r1: int, c0: int, c1: int) -> None:
        bands = runs([any(filled[r][c0:c1]) for r in range(r0, r1)], r0)
        if len(bands) > 1:
            for a, b in bands:
                cut(a, b, c0, c1)
            return
        if not bands:
            return
        top, bottom = bands[0]
        used = [any(c < len(filled[r]) and filled[r][c] for r in range(top, bottom)) for c in range(c0, c1)]
        columns = runs(used, c0)
        if len(columns) > 1:
            for a, b in columns:
                cut(top, bottom, a, b)
            return
        left, right = columns[0]
        out.append([[(r[c] if c < len(r) else "") for c in range(left, right)] for r in rows[top:bottom]])

    cut(0, len(rows), 0, max((len(r) for r in rows), default=0))
    return out


def split_notes(block: list[list[str]]) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    """A block of cells as ``(notes above, table, notes below)``: the header row is the
    first row of the densest contiguous run of rows, so a title or notes written above
    the table (``deaths.xlsx`` of readxl: "Lots of people / simply cannot resist writing /
    at the top of their spreadsheets") are not taken for its header.

    A row is dense when at least three quarters of the block's widest row's cells (and at
    least two) are filled; the table starts at the longest run of dense rows (the first of
    the longest). Rows above it are notes; below it, the rows to the end that fill at most
    half of the widest row (of a table three cells wide or more) are notes too. A run of fewer than
    two dense rows: the whole block is the table, its first row the header (as before).
    A block of one column is notes (a title and a subtitle), unless it has four rows or
    more of at most four words each (a one-column list under its header).

    Example:
        >>> split_notes([["Stock, 1 March", ""], ["item", "count"], ["bolt", "12"]])
        ([['Stock, 1 March', '']], [['item', 'count'], ['bolt', '12']], [])
    """
    fills = [sum(1 for c in row if c.strip()) for row in block]
    widest = max(fills, default=0)
    if widest <= 1:
        listing = len(block) >= 4 and all(len(c.split()) <= 4 for row in block for c in row)
        return ([], block, []) if listing else (block, [], [])
    need = max(2, math.ceil(0.75 * widest))
    best, start = (0, 0), None
    for k, fill in enumerate(fills + [0]):
        if fill >= need and start is None:
            start = k
        elif fill < need and start is not None:
            if k - start > best[1] - best[0]:
                best = (start, k)
            start = None
    top, bottom = best
    if bottom - top < 2:
        return [], block, []
    end = len(block)
    if widest >= 3:
        while end > bottom and fills[end - 1] * 2 <= widest:
            end -= 1
    return block[:top], block[top:end], block[end:]


def _note(row: list[str]) -> str:
    return escape_line(" ".join(" ".join(c.split()) for c in row if c.strip()))


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
            core_dates(props, meta, ("created",))  # UTC, the one date format of the loaders
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
                    rows.append(cells)
                w.add("## " + " ".join(ws.title.split()))
                for block in cell_blocks(rows):
                    above, table, below = split_notes(block)
                    for row in above:  # a title or a note: a paragraph
                        w.add(_note(row))
                    if len(table) == 1:
                        w.add(_note(table[0]))
                    elif table:
                        w.add(pipe_table(table))
                    for row in below:
                        w.add(_note(row))
            meta["sheets"] = names
        finally:
            wb.close()
        return Document(w.text(), id=id, source=source, metadata=meta)


register_loader(XlsxLoader())
