"""Markdown structure with exact offsets, from a CommonMark parser (markdown-it-py).

:class:`MarkdownParser` parses a Markdown text once and returns an
:class:`~chunkwise.parsers.outline.Outline`: ATX and setext headings with plain-text titles
(the closing ``#`` sequence of an ATX heading is not part of its title), and the blocks --
paragraphs, fenced code (``` or ~~~ of any length; an unclosed fence runs to the end of the
document, as CommonMark says), indented code, tables, lists and their items, block
quotes, thematic breaks, HTML blocks -- as character offsets of the original text. CRLF and
CR line ends are handled exactly like LF: markdown-it normalises them and reports line
numbers, which are mapped back to offsets of the original text here. YAML front matter
(a ``---`` line first, closed by ``---`` or ``...``) is parsed with PyYAML into
``Outline.metadata``.

Method:
    CommonMark 0.31 block structure via markdown-it-py (token ``map`` gives line ranges),
    with the GFM table extension; titles rendered from the inline parse of each heading.
"""

from __future__ import annotations

import gc
import logging
import re
from bisect import bisect_left
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from ..errors import MissingDependencyError
from .outline import Block, Heading, Outline, line_starts
from .table import pipe_table

__all__ = ["MarkdownOutline", "MarkdownParser", "front_matter_span", "parse_front_matter"]

logger = logging.getLogger(__name__)

_FM_OPEN = re.compile(r"\ufeff?---[ \t]*(?:\r\n?|\n)")  # (after a byte order mark too)
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*(?:\r\n?|\n|\Z)", re.MULTILINE)
# the first line of front matter: a key and a colon (``title:``, ``tags: [a]``)
_FM_KEY = re.compile(r"[A-Za-z_][\w.-]*[ \t]*:(?:[ \t]|\r|\n|$)")
# characters that may start inline markup (emphasis, code, links, HTML, entities, escapes)
_INLINE_SYNTAX = re.compile(r"[*_`\[\]<>&\\!]")
_BLOCK_KINDS = {
    "paragraph_open": "paragraph",
    "heading_open": "heading",
    "fence": "fence",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "hr": "hr",
    "html_block": "html",
}


def _markdown_it() -> Any:
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        raise MissingDependencyError("markdown-it-py", "markdown", "Markdown parsing") from None
    return MarkdownIt


def front_matter_span(text: str) -> tuple[int, int] | None:
    """The span of a ``---`` block at the start of ``text`` (delimiters only; whether it
    holds a YAML mapping is :func:`parse_front_matter`'s question)."""
    m = _FM_OPEN.match(text)
    if m is None:
        return None
    close = _FM_CLOSE.search(text, m.end())
    return None if close is None else (0, close.end())


def parse_front_matter(
    text: str, errors: list[str] | None = None
) -> tuple[tuple[int, int], dict[str, Any]] | None:
    """The YAML front matter at the start of ``text``: its span (from the opening ``---``
    to the end of the closing line) and the parsed mapping, or None when there is none (or
    when the block between the ``---`` lines is not a YAML mapping).

    A block whose first line looks like ``key:`` is front matter even when its YAML does
    not parse (``title: [unclosed``): its span with an empty mapping, and the YAML error
    appended to ``errors`` (so that the block is not read as a rule and a setext heading).

    Raises:
        MissingDependencyError: front matter present but PyYAML is not installed.
    """
    span = front_matter_span(text)
    if span is None:
        return None
    m = _FM_OPEN.match(text)
    close = _FM_CLOSE.search(text, m.end())  # type: ignore[union-attr]
    try:
        import yaml
    except ImportError:
        raise MissingDependencyError("pyyaml", "markdown", "YAML front matter") from None
    body = text[m.end() : close.start()]  # type: ignore[union-attr]
    try:
        data = yaml.load(body, Loader=_loader(yaml))  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        data, problem = None, _yaml_problem(exc, 1)  # the YAML starts on line 2
    except RecursionError:
        data, problem = None, "invalid YAML: nested too deeply"
    except Exception as exc:  # noqa: BLE001 - whatever else YAML raises: the same path
        data, problem = None, "invalid YAML: " + (" ".join(str(exc).split()) or type(exc).__name__)
    else:
        problem = _unusable(data) if isinstance(data, Mapping) else f"not a YAML mapping but {type(data).__name__}"
        if problem and isinstance(data, Mapping):
            data = None
    if not isinstance(data, Mapping):
        if not _FM_KEY.match(body):
            return None
        if errors is not None:
            errors.append(problem)
        return (0, close.end()), {}  # type: ignore[union-attr]
    from ..loaders.base import _key  # (a key as JSON writes it: null: is "null", as json_safe does)

    return (0, close.end()), {_key(k): v for k, v in data.items()}  # type: ignore[union-attr]



_LOADER: Any = None


def _loader(yaml: Any) -> Any:
    """PyYAML's ``SafeLoader``, except that a value its constructors reject (a date
    that does not exist, ``2024-13-45``; a time zone past 24 hours; an integer of more
    digits than Python converts; ``!!int abc``) is a ``ConstructorError`` at the value's
    line and column, as a syntax error is, not a bare ``ValueError``."""
    global _LOADER
    if _LOADER is None:

        class Loader(yaml.SafeLoader):  # type: ignore[misc,name-defined]
            def construct_object(self, node: Any, deep: bool = False) -> Any:
                try:
                    return super().construct_object(node, deep)
                except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError) as exc:
                    kind = str(node.tag).rsplit(":", 1)[-1]
                    value = node.value if isinstance(node.value, str) else ""
                    value = value if len(value) <= 40 else value[:40] + "..."
                    why = " ".join(str(exc).split())
                    raise yaml.constructor.ConstructorError(
                        None, None, f"invalid {kind} {value!r}" + (f" ({why})" if why else ""), node.start_mark
                    ) from None

        _LOADER = Loader
    return _LOADER


# front matter is a few fields: more values than this, once aliases are expanded (each
# alias is a copy in the metadata), is an alias bomb ("billion laughs"), not front matter
_MAX_VALUES = 100_000
# an integer too long for str() (Python's limit on decimal digits: 4300 by default)
_LONG_INT_BITS = 14_000
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unusable(data: Any) -> str | None:
    """Why the parsed front matter cannot be metadata, or None: an alias that contains
    itself (``a: &a [*a]``), more than ``_MAX_VALUES`` values once aliases are expanded,
    an integer too long to write as text, a string with a lone surrogate (no JSON line in
    UTF-8 could hold it)."""
    count = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    path: list[int] = []  # ids of the containers above the one visited
    while stack:
        value, depth = stack.pop()
        del path[depth:]
        count += 1
        if count > _MAX_VALUES:
            return f"invalid YAML: more than {_MAX_VALUES} values once its aliases are expanded"
        if isinstance(value, str):
            if _SURROGATE.search(value):  # ("\ud800" in double quotes): UTF-8 cannot hold it
                return f"invalid YAML: {value[:40]!r} holds a lone surrogate, which UTF-8 cannot hold"
        elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _LONG_INT_BITS:
            try:
                str(value)
            except ValueError:
                return f"invalid YAML: an integer of {value.bit_length()} bits, too long to write as text"
        elif isinstance(value, (dict, list, tuple, set, frozenset)):
            if id(value) in path:
                return "invalid YAML: an alias that contains itself"
            path.append(id(value))
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else list(value)
            stack.extend((v, depth + 1) for v in reversed(items))
    return None


def _yaml_problem(exc: Exception, before: int) -> str:
    """A one-line account of a YAML error (``before``: lines of the text above the YAML)."""
    problem = getattr(exc, "problem", None)
    if not problem:
        return "invalid YAML: " + " ".join(str(exc).split())
    context = getattr(exc, "context", None)
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1 + before}, column {mark.column + 1}" if mark is not None else ""
    return f"invalid YAML{where}: " + (f"{context}: " if context else "") + problem


def _plain(children: Any) -> str:
    parts: list[str] = []
    for t in children or ():
        if t.type in ("text", "code_inline"):
            parts.append(t.content)
        elif t.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif t.type == "image":
            parts.append(_plain(t.children))
    return " ".join("".join(parts).split())


class MarkdownParser:
    """Parse Markdown into an :class:`Outline` of headings and blocks.

    Args:
        front_matter: recognise YAML front matter at the start of the text; ``"known"``:
            the loader already read it (a ``---`` block at the start is front matter,
            and its YAML is not parsed again).
        piece_chars: parse long texts in pieces of about this many characters (see
            :meth:`parse`); the outline does not depend on it.

    Raises:
        MissingDependencyError: markdown-it-py (or PyYAML, for front matter) is missing:
            ``pip install 'chunkwise[markdown]'``.

    Example:
        >>> o = MarkdownParser().parse("# A #\\n\\ntext\\n")
        >>> [(h.level, h.title, h.start) for h in o.headings]
        [(1, 'A', 0)]
    """

    def __init__(self, *, front_matter: bool | str = True, piece_chars: int = 1 << 16) -> None:
        self.front_matter = front_matter
        self.piece_chars = max(1, piece_chars)

    def parse(self, text: str) -> Outline:
        """The outline of ``text`` (offsets are ``str`` indices of ``text``).

        Long texts are parsed in pieces of about ``piece_chars`` characters, which keeps
        time linear in the length (one token list for a whole 16 MB document makes
        markdown-it-py markedly slower per megabyte). A piece ends before a line that
        starts at column 0 with a letter or ``#`` after a blank line: no CommonMark block
        can continue across it except a top-level fenced code or HTML block, and the parser
        confirms that none does (when one reaches the end of a piece, the piece is cut
        before it, or grown). The outline is the same as from one parse of the whole text.
        """
        # markdown-it-py makes a few objects per line, and the outline keeps a block per
        # paragraph: with the cyclic garbage collector on, its full collections walk
        # every one of them again and again, and a 2.6 MB text took 13x the time of a
        # 0.3 MB one (8.3x with the collector paused). Nothing made here needs it (no
        # cycles are made): it is paused while the outline is read, as it was before
        pausing = gc.isenabled()
        if pausing:
            gc.disable()
        try:
            return self._parse(text)
        finally:
            if pausing:
                gc.enable()

    def _parse(self, text: str) -> Outline:
        """:meth:`parse`, the collector paused."""
        markdown_it = _markdown_it()
        starts = line_starts(text)
        nlines = len(starts) - 1  # the last entry is len(text)
        errors: list[str] = []
        if self.front_matter == "known":
            span = front_matter_span(text)
            fm = (span, {}) if span is not None else None
        else:
            fm = parse_front_matter(text, errors) if self.front_matter else None
            if errors:  # as the loader does: the block stays front matter, the error is told
                logger.warning("front matter not read (%s); it stays a front matter chunk: correct its YAML", errors[0])
        blocks: list[Block] = []
        headings: list[Heading] = []
        item_spans: list[tuple[int, int]] = []
        meta: dict[str, Any] = {}
        fm_span = None
        pos = 0
        if fm is not None:
            fm_span, meta = fm
            blocks.append(Block("front_matter", 0, fm_span[1]))
            pos = bisect_left(starts, fm_span[1])  # parse from the line after it
        # a token's map may end one line past the last: pad so that lookups never fail
        starts.extend([len(text)] * 2)
        md = markdown_it("commonmark", {"maxNesting": 64}).enable("table")
        md.disable("inline")
        inline = markdown_it("commonmark")
        size = self.piece_chars
        while pos < nlines:
            end = nlines
            target = starts[pos] + size
            if target < len(text):
                m = _PIECE_BREAK.search(text, target)
                if m is not None:
                    end = bisect_left(starts, m.end(), pos)
            tokens = md.parse(text[starts[pos] : starts[end]])
            if end < nlines:
                cut = _open_block(tokens, end - pos)
                if cut is not None:
                    index, line = cut
                    if line == 0:  # the piece is one open block: grow it
                        size *= 2
                        continue
                    tokens = tokens[:index]
                    end = pos + line
            _collect(tokens, pos, text, starts, inline, headings, blocks, item_spans)
            pos = end
            size = self.piece_chars
        if errors:
            return MarkdownOutline(tuple(headings), tuple(blocks), fm_span, meta, tuple(item_spans), errors[0])
        return Outline(tuple(headings), tuple(blocks), fm_span, meta, tuple(item_spans))


@dataclass(frozen=True, slots=True)
class MarkdownOutline(Outline):
    """An outline whose front matter did not parse: ``front_matter_error`` says why (as
    the Markdown loader's ``metadata["front_matter_error"]``)."""

    front_matter_error: str = ""


# A place where a piece may end: a blank line, then a line at column 0 that starts with a
# letter or "#" (a paragraph, a heading, a table); the parser confirms it.
_PIECE_BREAK = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)(?=[#A-Za-z])")


def _open_block(tokens: Any, nlines: int) -> tuple[int, int] | None:
    """The last top-level token, when it is a fenced code or HTML block that runs to the
    end of the piece (and might go on after it): its index and first line."""
    for i in range(len(tokens) - 1, -1, -1):
        t = tokens[i]
        if t.level == 0 and t.map:
            if t.type in ("fence", "html_block") and t.map[1] >= nlines:
                return i, t.map[0]
            return None
    return None


def _collect(
    tokens: Any,
    base: int,
    text: str,
    starts: Any,
    inline: Any,
    headings: list[Heading],
    blocks: list[Block],
    item_spans: list[tuple[int, int]],
) -> None:
    """Headings, blocks and list items from the tokens of a piece starting at line ``base``."""

    def off(line: int) -> int:
        return starts[line + base]  # type: ignore[no-any-return]

    rows: list[int] = []  # first lines of the rows of the table being read
    table_at = 0  # its index in blocks
    kinds = _BLOCK_KINDS
    for i, t in enumerate(tokens):
        ttype = t.type
        kind = kinds.get(ttype)
        if kind is None:
            if ttype == "list_item_open" and t.map:
                item_spans.append((off(t.map[0]), off(t.map[1])))
            elif ttype == "tr_open" and t.map:
                rows.append(t.map[0])
            elif ttype == "table_close" and rows:
                b = blocks[table_at]
                # the table parser reads it (header rows, delimiter row, body rows); pipe
                # rows of a paragraph right above the header row are header rows too
                above = None
                if b.depth == 0 and table_at > 0:
                    p = blocks[table_at - 1]
                    if p.kind == "paragraph" and p.end == b.start:
                        above = p.start
                t = pipe_table(text, b.start, b.end, off(rows[0] + 1), above=above)
                if t.start < b.start:  # the paragraph above gave header rows
                    p = blocks[table_at - 1]
                    if p.start < t.start:
                        blocks[table_at - 1] = Block(p.kind, p.start, t.start, p.depth)
                    else:
                        del blocks[table_at - 1]
                        table_at -= 1
                # the header rows and separator stay with the first body row
                cuts = tuple(t.rows[1:])
                blocks[table_at] = Block("table", t.start, b.end, b.depth, "", cuts, t.header, t)
                rows = []
            continue
        if not t.map:
            continue
        l0, l1 = t.map
        s, e = off(l0), off(l1)
        if kind == "paragraph":
            if t.level == 0:  # nested paragraphs are not boundaries of their own
                blocks.append(Block(kind, s, e, 0))
        elif kind == "heading" and t.level == 0:  # a heading in a quote or list is not a section
            content = tokens[i + 1].content if i + 1 < len(tokens) else ""
            if _INLINE_SYNTAX.search(content):
                title = _plain(inline.parseInline(content)[0].children)
            else:  # plain text: the inline parse would only collapse its whitespace
                title = " ".join(content.split())
            headings.append(Heading(int(t.tag[1]), title, s, e))
            blocks.append(Block(kind, s, e, 0))
        elif kind == "fence":
            closed = l1 - l0 >= 2 and _closes(text[off(l1 - 1) : off(l1)], t.markup)
            inner_end = l1 - 1 if closed else l1
            # no cut after the opening line or before the closing one: the fence stays
            # with the code it opens and closes
            cuts = tuple(off(k) for k in range(l0 + 2, inner_end))
            blocks.append(Block(kind, s, e, t.level, t.info.strip(), cuts))
        elif kind == "code":
            blocks.append(Block(kind, s, e, t.level, "", tuple(off(k) for k in range(l0 + 1, l1))))
        elif kind == "table":
            table_at = len(blocks)
            rows = []
            blocks.append(Block(kind, s, e, t.level))
        elif t.level == 0:
            blocks.append(Block(kind, s, e, 0))


def _closes(line: str, markup: str) -> bool:
    s = line.strip()
    return bool(s) and len(s) >= len(markup) and set(s) == {markup[0]}
