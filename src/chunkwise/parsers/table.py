"""Tables with exact offsets: Markdown pipe tables (and HTML tables, which the HTML loader
renders as pipe tables) and delimited text (CSV, TSV).

One parser for every strategy that meets a table. A :class:`Table` records where the
table lies, the span of its header (one or more header rows, and a pipe table's
delimiter row ``|---|``), the start of every body row, and how its cells are delimited;
cells are read on demand (:meth:`Table.cells`, :meth:`Table.values`), so a table of a
million rows costs one offset per row until its cells are asked for.

* :func:`find_pipe_tables` finds GFM pipe tables in any text: a delimiter row under a
  header row with as many cells; pipe rows directly above the header row with that
  number of cells are header rows too (a two-row header). Body rows run to a blank line
  or a line without ``|``.
* :func:`pipe_table` reads a pipe table whose extent is known (the Markdown parser's).
* :func:`delimited_table` reads CSV or TSV: the dialect (delimiter, quote character) is
  sniffed with :class:`csv.Sniffer`; records may hold quoted line breaks; the first
  ``header_rows`` records are the header. A quote opens a quoted cell only at the start
  of a cell (after spaces), as Python's ``csv`` module reads it: a line with an odd
  number of quotes is read cell by cell to tell, and a quote inside an unquoted value
  (``5" pipe``, ``href="x``) is a plain character that joins no lines (a line with an
  even number of quotes is taken to close what it opens, and a line inside a quoted
  cell with an odd number to close it). A quote still open at the end
  of the text (:func:`unclosed_quote`) is read as a plain character: its record is its
  line, and every line after it is a record of its own (Python's ``csv`` module would
  read the rest of the file as one cell; in strict mode it raises "unexpected end of
  data").

Offsets are half-open ``str`` indices into the text; a row's span runs from its first
character to the start of the next row (its line end included).

Method:
    GFM table syntax (header row, delimiter row, body rows; ``\\|`` escapes a pipe in a
    cell); RFC 4180 records with the dialect of Python's :mod:`csv` sniffer.
"""

from __future__ import annotations

import csv
import re
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "Table", "delimited_table", "find_pipe_tables", "pipe_cells", "pipe_table", "sniff_dialect", "unclosed_quote"
]

_NEWLINE = re.compile(r"\r\n?|\n")
# a GFM delimiter row: cells of dashes with optional alignment colons, at least one pipe
_DELIM_ROW = re.compile(
    r"^[ \t]{0,3}(?=[^\n]*\|)\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\r?$", re.MULTILINE
)
_PIPE = re.compile(r"(?<!\\)\|")
_CONTAINER = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*")  # block quote markers before a nested row


@dataclass(frozen=True, eq=False)
class Table:
    """A table of a text.

    Attributes:
        start, end: the table's span (from its first header row to the end of its last
            row, line end included).
        header: the span of the header rows (with a pipe table's delimiter row);
            ``(start, start)`` when the table has no header.
        rows: the start of every body row, sorted (row ``k`` runs to ``rows[k + 1]``, the
            last to ``end``).
        kind: ``"pipe"`` (Markdown) or ``"delimited"`` (CSV, TSV).
        delimiter, quotechar: how cells are delimited (``"|"`` for pipe tables; the CSV
            dialect's delimiter and quote character, ``""`` for none).
        columns: the column names, read from the header (header rows joined per column
            by a space; an empty name is ``"column N"``, counting from 1).
        header_starts: the start of each header row (the delimiter row included).
        unclosed: the start of the record whose quote is still open at the end of the
            text (-1: none): that record is its own line, read with the open quote as a
            plain character (see :func:`unclosed_quote`).
    """

    start: int
    end: int
    header: tuple[int, int]
    rows: Sequence[int]
    kind: str = "pipe"
    delimiter: str = "|"
    quotechar: str = ""
    columns: tuple[str, ...] = ()
    header_starts: tuple[int, ...] = field(default=())
    unclosed: int = -1

    def row_span(self, k: int) -> tuple[int, int]:
        """The span of body row ``k`` (line end included)."""
        rows = self.rows
        return rows[k], rows[k + 1] if k + 1 < len(rows) else self.end

    def row_at(self, offset: int) -> int:
        """The index of the body row holding ``offset`` (-1: the header)."""
        return bisect_right(self.rows, offset) - 1

    def cells(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """The spans of the cells of the row ``[start, end)`` (delimiters, the pipes at a
        pipe row's edges and the line end excluded; quotes and spaces kept)."""
        if self.kind == "pipe":
            return pipe_cells(text, start, _line_end(text, start, end))
        return _delimited_cells(
            text, start, _record_end(text, start, end), self.delimiter, self.quotechar, start == self.unclosed
        )

    def values(self, text: str, start: int, end: int) -> list[str]:
        """The values of the cells of the row ``[start, end)``: spaces stripped, CSV quotes
        removed (``""`` read as ``"``), ``\\|`` read as ``|``."""
        return self.cell_values(text, self.cells(text, start, end))

    def cell_values(self, text: str, cells: Sequence[tuple[int, int]]) -> list[str]:
        """The values (as :meth:`values` reads them) of cells whose spans are known."""
        out = []
        for s, e in cells:
            v = text[s:e].strip()
            if self.kind == "pipe":
                v = v.replace("\\|", "|")
            elif self.quotechar and len(v) >= 2 and v[0] == self.quotechar and v[-1] == self.quotechar:
                q = self.quotechar
                v = v[1:-1].replace(q + q, q)
            out.append(v)
        return out

    def cell_cuts(self, text: str, start: int, end: int) -> list[int]:
        """Where the row ``[start, end)`` may be cut between cells: the start of every cell
        after the first (a pipe row: at the pipe before the cell; delimited: after the
        delimiter)."""
        cells = self.cells(text, start, end)
        if self.kind == "pipe":
            return [text.rfind("|", start, s) for s, _e in cells[1:]]
        return [s for s, _e in cells[1:]]

    def first_cell_end(self, text: str, start: int, end: int) -> int:
        """The end of the row's first cell with its delimiter (``"| Widget 5 |"``,
        ``"Widget 5,"``): what a chunk that starts inside the row repeats of it."""
        cells = self.cells(text, start, end)
        if not cells:
            return start
        e = cells[0][1]
        if e < end and text[e] == self.delimiter:
            e += 1
        return e


def _line_end(text: str, start: int, end: int) -> int:
    m = _NEWLINE.search(text, start, end)
    return m.start() if m else end


def _record_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return end


def pipe_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The cell spans of the pipe row ``text[start:end]`` (one line): split at pipes not
    escaped by a backslash; the pipes at the row's edges open and close it."""
    m = _CONTAINER.match(text, start, end)
    s = m.end() if m else start
    e = end
    while e > s and text[e - 1] in " \t\r\n":
        e -= 1
    if s < e and text[s] == "|":
        s += 1
    if e > s and text[e - 1] == "|" and not (e - 2 >= s and text[e - 2] == "\\"):
        e -= 1
    out = []
    pos = s
    for p in _PIPE.finditer(text, s, e):
        out.append((pos, p.start()))
        pos = p.end()
    out.append((pos, e))
    return out


def _delimited_cells(
    text: str, start: int, end: int, delimiter: str, quote: str, plain_open: bool = False
) -> list[tuple[int, int]]:
    """The cell spans of the record ``text[start:end]``; ``plain_open``: a quote that opens
    a cell and is not closed in the record is a plain character (the cell ends at the next
    delimiter), else the cell runs to the record's end."""
    out = []
    pos = start
    find = text.find
    while True:
        s = pos
        while s < end and text[s] in " \t" and text[s] != delimiter:
            s += 1
        if quote and s < end and text[s] == quote:
            q = s + 1
            while True:  # the closing quote: a quote not doubled
                q = find(quote, q, end)
                if q < 0:
                    q = s if plain_open else end  # (plain: the delimiter search starts at the quote)
                    break
                if q + 1 < end and text[q + 1] == quote:
                    q += 2
                    continue
                break
            d = find(delimiter, min(q + 1, end), end)
        else:
            d = find(delimiter, pos, end)
        if d < 0:
            out.append((pos, end))
            return out
        out.append((pos, d))
        pos = d + len(delimiter)


def _names(rows: list[list[str]]) -> tuple[str, ...]:
    width = max((len(r) for r in rows), default=0)
    names = []
    for i in range(width):
        parts = [r[i] for r in rows if i < len(r) and r[i]]
        names.append(" ".join(parts) or f"column {i + 1}")
    return tuple(names)


# -- pipe tables -----------------------------------------------------------------------


def _prev_line(text: str, floor: int, start: int) -> tuple[int, int] | None:
    """The line before the line starting at ``start`` (its start and end, line end
    excluded), not starting before ``floor``; None when there is none."""
    e = start
    if e > floor and text[e - 1] == "\n":
        e -= 1
    if e > floor and text[e - 1] == "\r":
        e -= 1
    if e == start:
        return None
    s = max(text.rfind("\n", floor, e), text.rfind("\r", floor, e)) + 1
    return max(s, floor), e


def _is_pipe_row(text: str, start: int, end: int) -> bool:
    line = text[start:end].strip()
    return bool(line) and "|" in line


def pipe_table(
    text: str, start: int, end: int, delimiter_row: int, *, above: int | None = None
) -> Table:
    """A pipe table whose extent is known: ``[start, end)`` from its header row to the end
    of its last row, ``delimiter_row`` the start of its ``|---|`` line.

    Args:
        above: where the header may begin at the earliest: pipe rows directly above the
            header row, from ``above`` on, with as many cells as the delimiter row, are
            header rows too (``None``: do not look above ``start``).
    """
    width = len(pipe_cells(text, delimiter_row, _line_end(text, delimiter_row, end)))
    if above is not None:
        while (prev := _prev_line(text, above, start)) is not None:
            ps, pe = prev
            if not (
                text[ps:pe].lstrip(" \t")[:1] == "|"
                and len(pipe_cells(text, ps, pe)) == width
                and not _DELIM_ROW.match(text, ps, pe)
            ):
                break
            start = ps
    header_starts = [start]
    pos = start
    while pos < delimiter_row:
        m = _NEWLINE.search(text, pos, delimiter_row + 1)
        if m is None or m.end() > delimiter_row:
            break
        pos = m.end()
        header_starts.append(pos)
    d_end = _NEWLINE.search(text, delimiter_row, end)
    body = d_end.end() if d_end else end
    rows = _offsets(end)
    pos = body
    while pos < end:
        rows.append(pos)
        m = _NEWLINE.search(text, pos, end)
        if m is None:
            break
        pos = m.end()
    head_rows = [
        [v.strip().replace("\\|", "|") for v in (text[s:e] for s, e in pipe_cells(text, h, _line_end(text, h, end)))]
        for h in header_starts[:-1]
    ]
    return Table(
        start, end, (start, body), rows, "pipe", "|", "", _names(head_rows), tuple(header_starts)
    )


_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)


def _fenced(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the fenced code blocks of ``text[start:end]`` (an unclosed fence runs
    to the end)."""
    out = []
    pos = start
    while (m := _FENCE.search(text, pos, end)) is not None:
        fence = m.group(1)
        close = re.compile(r"^[ \t]{0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*\r?$", re.MULTILINE)
        nl = _NEWLINE.search(text, m.end(), end)
        c = close.search(text, nl.end(), end) if nl else None
        stop = c.end() if c else end
        out.append((m.start(), stop))
        pos = stop
    return out


def find_pipe_tables(text: str, start: int = 0, end: int | None = None) -> list[Table]:
    """The GFM pipe tables of ``text[start:end]``, in order.

    A table is a header row and a delimiter row with as many cells, then body rows up to
    a blank line or a line without a pipe; pipe rows directly above the header row with
    as many cells are header rows too. Pipe rows inside fenced code (```` ``` ```` or
    ``~~~``) are code, not tables.

    Example:
        >>> t = find_pipe_tables("Intro\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n")[0]
        >>> t.columns, len(t.rows), t.start
        (('a', 'b'), 1, 7)
    """
    end = len(text) if end is None else end
    out: list[Table] = []
    floor = start
    fences = _fenced(text, start, end) if ("```" in text or "~~~" in text) else []
    fi = 0
    for m in _DELIM_ROW.finditer(text, start, end):
        d = m.start()
        if d <= floor:
            continue
        while fi < len(fences) and fences[fi][1] <= d:
            fi += 1
        if fi < len(fences) and fences[fi][0] <= d:
            continue  # inside fenced code
        # a table neither starts in the fence before it nor runs into the next
        lo = max(floor, fences[fi - 1][1]) if fi > 0 else floor
        hi = fences[fi][0] if fi < len(fences) else end
        prev = _prev_line(text, lo, d)
        if prev is None:
            continue
        h, hend = prev
        if not _is_pipe_row(text, h, hend):
            continue
        dend = _line_end(text, d, end)
        if len(pipe_cells(text, h, hend)) != len(pipe_cells(text, d, dend)):
            continue
        # body rows: up to a blank line or a line without a pipe
        pos = m.end()
        nl = _NEWLINE.match(text, pos, end)
        pos = nl.end() if nl else end
        tend = pos
        while pos < hi:
            nl = _NEWLINE.search(text, pos, hi)
            lend = nl.start() if nl else hi
            if not _is_pipe_row(text, pos, lend):
                break
            pos = nl.end() if nl else hi
            tend = pos
        out.append(pipe_table(text, h, tend, d, above=lo))
        floor = tend
    return out


# -- delimited text (CSV, TSV) ---------------------------------------------------------

_SAMPLE = 1 << 13  # what the csv sniffer reads (its regular expressions are slow on more)


def sniff_dialect(text: str, delimiter: str | None = None) -> tuple[str, str]:
    """The delimiter and quote character of CSV text (``("," , '"')`` when the sniffer
    cannot tell); ``delimiter`` forces the delimiter (TSV: a tab)."""
    sample = text[:_SAMPLE]
    if len(text) > _SAMPLE:  # whole lines only
        cut = max(sample.rfind("\n"), 0)
        sample = sample[:cut] or sample
    try:
        d = csv.Sniffer().sniff(sample, delimiters=delimiter or ",;\t|")
        found, quote = d.delimiter, d.quotechar or '"'
    except csv.Error:  # the sniffer wants regular samples: count per line instead
        found, quote = _count_delimiter(sample), '"'
    if delimiter is not None:
        found = delimiter
    elif found not in sample:
        found = ","
    return found, quote


def delimited_table(
    text: str, *, delimiter: str | None = None, header_rows: int = 1, start: int = 0, end: int | None = None
) -> Table | None:
    """The CSV or TSV table of ``text[start:end]`` (None when it has no record).

    Args:
        delimiter: the cell delimiter (default: sniffed among ``, ; tab |``).
        header_rows: how many records, from the first, are the header (0: none).
    """
    end = len(text) if end is None else end
    d, q = sniff_dialect(text[start:end] if (start or end < len(text)) else text, delimiter)
    starts, unclosed = _records(text, start, end, q, d)
    if not starts:
        return None
    h = min(max(header_rows, 0), len(starts))
    tstart = starts[0]
    tend = end
    while tend > tstart and text[tend - 1].isspace():
        tend -= 1
    # the last line's spaces and tabs are its row's (a TSV row's empty last cells)
    while tend < end and text[tend] in " \t":
        tend += 1
    nl = _NEWLINE.match(text, tend, end)
    tend = nl.end() if nl else tend
    body = starts[h] if h < len(starts) else tend
    header_starts = tuple(starts[:h])
    del starts[:h]  # the body rows, in place (a slice would copy every offset)
    table = Table(tstart, tend, (tstart, body), starts, "delimited", d, q, (), header_starts, unclosed)
    hs = (*header_starts, body)
    head = [table.values(text, hs[k], hs[k + 1]) for k in range(h)]
    if not head:  # no header: columns named by number, as many as the first row has
        first = table.values(text, *table.row_span(0)) if len(table.rows) else []
        head = [[""] * len(first)]
    return Table(tstart, tend, (tstart, body), starts, "delimited", d, q, _names(head), header_starts, unclosed)


_QUOTED = re.compile(r'"(?:[^"]|"")*"')


def _count_delimiter(sample: str) -> str:
    """The candidate delimiter found the same number of times (at least once) on the most
    of the sample's first lines, quoted text left out; ``","`` when none is found."""
    lines = [x for x in _QUOTED.sub("", sample).splitlines()[:50] if x.strip()]
    best, score = ",", 0
    for d in ",\t;|":
        counts = [x.count(d) for x in lines]
        nonzero = [c for c in counts if c]
        if not nonzero:
            continue
        mode = max(set(nonzero), key=nonzero.count)
        n = counts.count(mode)
        if n > score:
            best, score = d, n
    return best


def _offsets(end: int) -> array:
    """An empty array for offsets up to ``end``: 4 bytes an offset where they fit, else 8."""
    small = array("i")
    return small if small.itemsize >= 4 and end < 2**31 else array("q")


def unclosed_quote(text: str, delimiter: str | None = None) -> int:
    """The start of the record of the CSV or TSV ``text`` whose quote is still open at the
    end of the text, -1 when every quote is closed.

    A file that ends inside a quote has lost a closing quote; read as quoted, the rest of
    the file from that quote on would be one cell. The table parser reads that quote as a
    plain character instead: the record is its own line, and every line after it is a
    record of its own.

    Example:
        >>> text = 'a,b\\n1,2\\n3,"open,4\\n5,6\\n'
        >>> text[unclosed_quote(text):]
        '3,"open,4\\n5,6\\n'
    """
    d, q = sniff_dialect(text, delimiter)
    if not q or q not in text:
        return -1
    return _records(text, 0, len(text), q, d)[1]


def _opens(text: str, start: int, end: int, quote: str, delimiter: str) -> bool:
    """Whether the line ``text[start:end]``, read from outside quotes, ends inside a quoted
    cell. A quote opens a cell only at the cell's start (after spaces and tabs), as
    Python's ``csv`` module reads it: elsewhere it is a plain character; in a quoted cell
    a doubled quote is a quote, and a single one closes it."""
    find = text.find
    p = find(quote, start, end)
    if find(quote, p + 1, end) < 0:  # the line's one quote: it opens a cell if it starts one
        while p > start and text[p - 1] in " \t" and text[p - 1] != delimiter:
            p -= 1
        return p == start or text[p - 1] == delimiter
    pos = start
    while True:
        s = pos
        while s < end and text[s] in " \t" and text[s] != delimiter:
            s += 1
        if s < end and text[s] == quote:  # a quoted cell: to its closing quote
            q = find(quote, s + 1, end)
            while 0 <= q < end - 1 and text[q + 1] == quote:
                q = find(quote, q + 2, end)
            if q < 0:
                return True
            s = q + 1
        d = find(delimiter, s, end)
        if d < 0:
            return False
        pos = d + 1


def _records(text: str, start: int, end: int, quote: str, delimiter: str = ",") -> tuple[array, int]:
    """The start of every non-blank record of ``text[start:end]``: a line break inside a
    quoted cell does not end a record (4-byte offsets while the text allows them); and the
    start of the record whose quote is still open at ``end`` (-1: none), whose line is
    then a record, as is every line after it.

    Outside quotes, a line with an odd number of quotes opens a quoted cell when a quote
    at the start of a cell is left open (:func:`_opens`): a quote inside an unquoted
    value (``5" pipe``) opens nothing; a line with an even number of quotes is taken to
    close what it opens (no cost for the usual one-line quoted cells). Inside a quoted
    cell, a line with an odd number of quotes closes it."""
    out = _offsets(end)
    count = text.count
    find = text.find
    quoted = bool(quote) and find(quote, start, end) >= 0
    inside = False
    rec = -1  # the start of the record being read
    pos = start
    append = out.append
    for m in _NEWLINE.finditer(text, start, end):
        a = m.start()
        if rec < 0 and (pos < a and not text[pos:a].isspace()):
            rec = pos
        if quoted and count(quote, pos, a) & 1:
            if inside:
                inside = False
            else:  # (the usual opening line: its one quote right after a delimiter)
                q = find(quote, pos, a)
                inside = (q == pos or text[q - 1] == delimiter) and find(quote, q + 1, a) < 0 or _opens(
                    text, pos, a, quote, delimiter
                )
        pos = m.end()
        if not inside and rec >= 0:
            append(rec)
            rec = -1
    if rec < 0 and pos < end and not text[pos:end].isspace():
        rec = pos
    if quoted and count(quote, pos, end) & 1:  # (the last line, without a line end)
        inside = False if inside else _opens(text, pos, end, quote, delimiter)
    if inside:
        # the quote of ``rec`` is never closed: its line is a record, and so is every line
        # after it (none closed the record)
        append(rec)
        nl = _NEWLINE.search(text, rec, end)
        pos = nl.end() if nl else end
        for m in _NEWLINE.finditer(text, pos, end):
            a = m.start()
            if pos < a and not text[pos:a].isspace():
                append(pos)
            pos = m.end()
        if pos < end and not text[pos:end].isspace():
            append(pos)
        return out, rec
    if rec >= 0:
        append(rec)
    return out, -1
