"""Source code by syntax tree: one chunk per top-level definition, split only where it must.

The parser (:mod:`chunkwise.parsers.code`, tree-sitter grammars from PyPI; Python also
through the standard library's :mod:`ast`) finds the file's definitions and statements;
the one packer packs them:

* each top-level definition that begins a line -- with its leading comments, decorators
  and attributes -- starts a chunk of its own (a region), however small (a definition
  is a unit, as a section under a heading is); the statements between definitions
  (imports, constants, a ``__main__`` block) are packed together, and so are the items
  that share a line (minified code; a lone ``;`` or ``,`` goes with the item before it);
  a small item of closing lines (``};``, ``}``, ``#endif``, ``#undef X``) goes with the
  item before where the two fit, or with the last chunk of an item too big for a chunk,
  and ``#ifndef X`` / ``#define X`` before an item too big for a chunk with its first;
* ``merge_small_definitions=True``: a top-level item (a definition, or a run of
  statements) under a quarter of ``chunk_size - chunk_overlap`` (under
  ``min_chunk_size`` when it is given) is packed with its neighbours: with the item
  before when the two fit together, else with the item after; items of that size or
  more are never packed together (each starts a chunk), and no definition that fits is
  cut for it; a small item that holds no definition also goes with an item too big for
  a chunk next to it;
* a definition is never cut while it fits (an atom, at every depth: a method that fits
  stays whole inside a class that does not); when it fits alone but not with the comment
  lines after its last line of code (Python's ``# else: ignore`` at the body's end), the
  atom leaves them out and they go with the code after it; when it fits alone but not
  with the comment lines above it, the atom leaves those out and a cut between them lets
  the packer put them with the chunk before (or alone). With an overlap, a definition
  larger than ``chunk_size - chunk_overlap`` that fits ``chunk_size`` (with its comments,
  else without them) is not cut either: the packer packs it whole, as its own chunk if
  need be. What ends its last line goes with it (``};``, ``} Name;``, ``} // end f``):
  one that fits only without it is cut between its lines, so no chunk starts with that
  tail;
* without an overlap, a compound statement (a loop, ``if``, ``try``, ``with``,
  ``switch``; Bash's ``case``, subshells and groups, and a Bash loop after a pipe or
  ``||`` on its line) that fits ``chunk_size`` from the start of its line, with the
  comment that ends its last line (``} // end for``), is never cut either (an atom,
  outermost only) -- unless it is the first statement of a definition too big for a chunk
  and does not fit with the header where the header fits with its first line: then the
  header keeps its first line and the statement is cut;
* a definition too big for a chunk, at any depth, is a region of its own: it starts a
  chunk (unless it is the first item of the definition around it, or of a block opened
  by the line above it, ``{`` or ``(function () {``: the chunk then starts at that header
  or line), and the chunk after it starts after it; no cut falls right after a
  definition's header (or the ``{`` that opens its body on the header's line) while the
  header and its first line fit together, nor between the lines of a header that fits,
  so no chunk ends with a header whose body could have started with it (a header whose
  first line is too long for a chunk goes with the start of that line, or, when it fits
  with the header around it, ends the chunk with that header);
* a field, property or local variable keeps the annotations on the lines above it
  (Java's ``@Inject``, Kotlin's ``@JvmField``, C#'s ``[JsonIgnore]``) as a definition
  keeps its decorators: they are cut apart only when nothing else fits;
* a definition too big is cut between its members (methods), then between the statements
  of its body (outer before inner), then between lines, then between tokens -- never
  inside a token while a token boundary fits;
* a text whose lines end with a lone carriage return (a classic Mac OS file) is read
  as its twin with line feeds, by the parser and by the packer: the same cuts (in
  characters and words; in tokens ``"\\r\\r"`` may be two tokens where ``"\\n\\n"`` is
  one, and the chunks are packed with the text's own sizes);
* where tree-sitter reports a syntax error (a macro it does not know, as in libstdc++'s
  headers), the chunker warns once per document (:class:`CodeWarning`, with the line);
  in C and C++ the classes and namespaces around the error are read from the text's
  braces (each branch of an ``#if`` from the braces open at it), so the chunks inside
  them keep their signatures in ``chunk.context`` and ``part_of``;
* a chunk starts at the beginning of its first line, so indentation is kept -- unless
  the chunk fills ``chunk_size`` without it and the indentation would take it over (the
  packer packs to the budget, then adds the indentation back where it fits).

Chunk metadata: ``language``, ``symbols`` (qualified names of the definitions that begin
in the chunk, ``Store.__init__``, and of the functions declared there without a body: a C
prototype, a method declared in a C++ class, a TypeScript interface's method),
``node_types`` (the outermost syntax nodes it holds), ``start_line``/``end_line``
(1-based), ``split_part`` (the chunk does not hold whole top-level items) and ``part_of``
(the innermost definition a split chunk belongs to).
``chunk.context`` of a chunk that continues a definition holds the signatures around it
(``class Store:`` then ``    def load(self, path):``: the header lines, without the
decorators, the docstring or the comment lines that open the body), and with
``include_imports`` the file's imports first. The context is counted in ``chunk_size``
only with ``include_context_in_size``.

Method:
    Syntax-tree chunking as in LlamaIndex's ``CodeSplitter`` and the ``text-splitter``
    crate's ``CodeSplitter`` (tree-sitter depth as boundary levels), with top-level
    definitions as hard boundaries (text-splitter issue #236) and leading comments kept
    with their definition (LangChain issue #8405), on chunkwise's one packer.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from itertools import compress, repeat
from operator import itemgetter, lt, sub
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ..boundaries import LINE, PARAGRAPH, WORD, FilteredLevel, Level, PositionsLevel, line_feed_twin
from ..errors import ConfigError, MissingDependencyError, warn_at_caller
from ..merge import Span, indent_start
from ..parsers.code import (
    _LINE_GAP,
    _line_gaps,
    CodeStructure,
    _at_line_start,
    _line_start,
    _rstrip_pos,
    _tail_end,
    grammar_available,
    parse_code,
)
from ..parsers.code_languages import LANGUAGES, resolve_language, unsupported_language
from ..registry import register
from ..segments import Atom, Label, Region, Segments
from ..sizers import CharSizer, Measure, _CharMeasure
from ..types import Document
from .base import BaseChunker

__all__ = ["CodeChunker", "CodeWarning", "supported_languages"]

_PARSERS = ("auto", "scan", "tree-sitter", "ast")
_INDENT = re.compile(r"^[ \t]+(?=\S)", re.M)
_TOKEN = WORD.name
"""The name of the level of cuts between two tokens on one line: the packer's word level
(``boundary: "word"``), so that evening out two chunks moves a cut to a token boundary
only where the cut was between tokens already -- never when a line boundary was there."""
_COMMENT_LINE = ("#", "//", "/*", "*", "--", "<!--")
_START = itemgetter(0)
_END = itemgetter(1)
# how a comment line starts, by language (a C "#" line is the preprocessor's)
_HASH_COMMENTS = ("#",)
_SLASH_COMMENTS = ("//", "/*", "*")
_STATEMENT_COMMENTS = {
    "python": _HASH_COMMENTS, "bash": _HASH_COMMENTS, "ruby": _HASH_COMMENTS,
    "php": ("#", "//", "/*", "*"), "sql": ("--", "/*", "*"),
}
_COMMENT_RUNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _comment_run(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """A run of comment lines starting with ``prefixes`` (not ``#[``), the first one's
    indentation in group 1."""
    run = _COMMENT_RUNS.get(prefixes)
    if run is None:
        mark = "(?:" + "|".join(re.escape(p) + ("(?!\\[)" if p == "#" else "") for p in prefixes) + ")"
        run = _COMMENT_RUNS[prefixes] = re.compile(
            rf"^([ \t]*){mark}[^\r\n]*(?:(?:\r\n|\r|\n)[ \t]*{mark}[^\r\n]*)*", re.M
        )
    return run

_NON_SPACE = re.compile(r"\S")


def _only_comments(text: str, start: int, end: int, prefixes: tuple[str, ...]) -> bool:
    """Whether ``text[start:end]`` holds comment lines (starting with ``prefixes``) and
    blank lines only, and at least one comment line."""
    first = _NON_SPACE.search(text, start, end)
    if first is None or not text.startswith(prefixes, first.start()) or text.startswith("#[", first.start()):
        return False  # (most regions: no comment first, no line read)
    seen = False
    for line in text[start:end].splitlines():
        line = line.strip()
        if not line:
            continue
        if not line.startswith(prefixes) or line.startswith("#["):
            return False
        seen = True
    return seen


def _after_comments(text: str, p: int, defs: Sequence[Any], parent: int,
                     fits: Callable[[int, int], bool], prefixes: tuple[str, ...]) -> int:
    """Where a region that would start at line start ``p`` starts: after the comment
    (and blank) lines there when a definition of ``parent`` follows them that fits
    without them but not with them (they go with the region before; the comment lines
    just above the definition stay with it where they fit), else ``p``."""
    r = p
    n = len(text)
    while r < n:
        eol = text.find("\n", r)
        eol = n if eol < 0 else eol + 1
        line = text[r:eol].strip()
        if line and (not line.startswith(prefixes) or line.startswith("#[")):
            break
        r = eol
    if r == p or r >= n:
        return p
    first = r
    while first < n and text[first] in " \t":
        first += 1
    for d in defs:
        if d.parent == parent and not d.container and d.start <= first <= d.head:
            if fits(p, d.end):
                break
            # (with the comment lines just above it where they fit, else without them)
            for q in (_line_start(text, d.start), _line_start(text, CodeChunker._own_start(text, d.start, d.head))):
                if p < q and fits(q, d.end):
                    return q
            break
    return p


_SPECIFIER = re.compile(r"[ \t]*(?:public|private|protected)(?:[ \t]+(?:slots|signals))?[ \t]*:[ \t]*$", re.M)


def _join_specifiers(text: str, starts: list[int], defs: Sequence[Any], fits: Callable[[int, int], bool],
                     prefixes: tuple[str, ...]) -> list[int]:
    """``starts`` (region starts) without those of the regions that hold a C++ access
    specifier line and comment lines only: such a region joins the region after it when
    it fits with the definition that starts that one, else the region before."""
    out: list[int] = []
    k = 0
    last = len(starts) - 1
    while k <= last:
        p = starts[k]
        if 0 < k < last and (m := _SPECIFIER.match(text, p)) is not None and (
            m.end() >= starts[k + 1] or _only_comments(text, m.end(), starts[k + 1], prefixes)
            or not text[m.end() : starts[k + 1]].strip()
        ):
            nxt = starts[k + 1]
            end = next((d.end for d in defs if _line_start(text, d.start) == _line_start(text, nxt) and d.start >= nxt), -1)
            if end > 0 and k + 1 < last and fits(p, end):
                out.append(p)  # (with the region after it)
                k += 2
                continue
            k += 1  # (with the region before it)
            continue
        out.append(p)
        k += 1
    return out


_READS_AS = frozenset({("c", "cpp"), ("javascript", "typescript"), ("javascript", "tsx"), ("typescript", "tsx")})
"""(a file's language, the ``language`` given) where the given one reads the file's own."""
MAX_NESTING = 64
"""Distinct indentations that get statement levels of their own; deeper statements share
the last one (code nested 600 deep exhausted the recursion limit)."""


class CodeWarning(UserWarning):
    """The code strategy cannot read a text as code (no language given or recorded), or
    not all of it (a syntax error)."""


class _AtomBlank:
    """An :class:`Atom` under construction: the same slots, without the frozen
    dataclass's ``__init__`` (a store through ``object.__setattr__`` per field); it
    becomes an ``Atom`` by assigning ``__class__`` (as the enrichment pass makes chunks).
    A file has one atom per definition."""

    __slots__ = ("start", "end", "kind", "cuts", "cut_name")


class _RegionBlank:
    """A :class:`Region` under construction (see :class:`_AtomBlank`)."""

    __slots__ = ("start", "end", "reserve", "end_boundary", "levels", "level")


def _swap_atom(start: int, end: int, kind: str) -> Atom:
    a = _AtomBlank()
    a.start = start
    a.end = end
    a.kind = kind
    a.cuts = ()
    a.cut_name = ""
    a.__class__ = Atom  # type: ignore[assignment]
    return a  # type: ignore[return-value]


def _swap_region(start: int, end: int, end_boundary: str) -> Region:
    r = _RegionBlank()
    r.start = start
    r.end = end
    r.reserve = 0
    r.end_boundary = end_boundary
    r.levels = None
    r.level = 0
    r.__class__ = Region  # type: ignore[assignment]
    return r  # type: ignore[return-value]


def _blanks_become_values() -> bool:
    """Whether :func:`_swap_atom` and :func:`_swap_region` give what the constructors give
    (checked once, at import; else the constructors are used)."""
    for cls, blank in ((Atom, _AtomBlank), (Region, _RegionBlank)):
        if tuple(f.name for f in fields(cls)) != blank.__slots__ or getattr(cls, "__slots__", None) != blank.__slots__:
            return False
    try:
        a, r = _swap_atom(1, 2, "k"), _swap_region(1, 2, "end")
    except TypeError:
        return False
    return type(a) is Atom and a == Atom(1, 2, "k") and type(r) is Region and r == Region(1, 2, 0, "end", None, 0)


if _blanks_become_values():
    _atom, _region = _swap_atom, _swap_region
else:  # pragma: no cover -- another layout of Atom or Region
    def _atom(start: int, end: int, kind: str) -> Atom:
        return Atom(start, end, kind)

    def _region(start: int, end: int, end_boundary: str) -> Region:
        return Region(start, end, 0, end_boundary, None, 0)


def _by_start_outer_first(a: Atom) -> tuple[int, int]:
    """The order of atoms: by start, the outer (longer) first."""
    return a.start, -a.end


def _warn(message: str) -> None:
    """Warn with a :class:`CodeWarning` attributed to the caller outside chunkwise."""
    warn_at_caller(message, CodeWarning)


def supported_languages() -> list[str]:
    """The canonical names of the languages ``strategy="code"`` reads, sorted."""
    return sorted(LANGUAGES)


def _positions(name: str, cuts: list[tuple[int, int]]) -> PositionsLevel:
    # (most lists come sorted without a duplicate: checked in one pass, not sorted again)
    if len(cuts) > 1 and not all(map(lt, cuts, cuts[1:])):
        cuts = sorted(set(cuts))
    return PositionsLevel(name, list(map(_START, cuts)), list(map(_END, cuts)))


class _LazyLevel:
    """Cuts read for the range asked: between lines (from the text) or tokens (from the
    syntax tree), needed only where a piece does not fit."""

    windowable = True

    def __init__(self, name: str, compute: Callable[[int, int], Iterator[tuple[int, int]]]) -> None:
        self.name = name
        self._compute = compute

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        for a, b in self._compute(start, end):
            if start < a and b < end:
                yield a, b

    def guarded(self, starts: Sequence[int], ends: Sequence[int]) -> _GuardedLazyLevel:
        """These cuts without those with an end strictly inside a range ``(starts[k],
        ends[k])`` (the packer's protected ranges), in one loop."""
        return _GuardedLazyLevel(self.name, self._compute, starts, ends)


class _GuardedLazyLevel:
    """A :class:`_LazyLevel` guarded (:meth:`_LazyLevel.guarded`): the cuts that
    ``FilteredLevel`` would keep, read without a rule called per cut."""

    windowable = True

    def __init__(self, name: str, compute: Callable[[int, int], Iterator[tuple[int, int]]],
                 starts: Sequence[int], ends: Sequence[int]) -> None:
        self.name = name
        self._compute = compute
        self._starts = starts
        self._ends = ends

    def cuts(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        ps, pe = self._starts, self._ends
        for a, b in self._compute(start, end):
            if start < a and b < end:
                r = bisect_right(ps, a) - 1
                if r >= 0 and ps[r] < a < pe[r]:
                    continue
                r = bisect_right(ps, b) - 1
                if r >= 0 and ps[r] < b < pe[r]:
                    continue
                yield a, b

    def cuts_reversed(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The cuts of :meth:`cuts`, last first."""
        return reversed(list(self.cuts(text, start, end)))


def _zone_test(starts: list[int], ends: list[int]) -> Callable[[int], bool]:
    """Whether a position ``p`` lies in ``(starts[k], ends[k]]`` for some ``k`` (the zones
    sorted by their start)."""

    def inside(p: int) -> bool:
        k = bisect_left(starts, p) - 1
        return k >= 0 and p <= ends[k]

    return inside


def _header_end(text: str, d: Any, comments: tuple[str, ...] = _COMMENT_LINE) -> int:
    """Where the header of definition ``d`` ends (after the last line of its signature),
    or -1 when it is not found. ``comments``: how the lines that may follow a header in
    its signature start, comment lines and the like (in Python ``#``, and ``@`` for the
    decorator of a first method that a signature read from the standard library's
    ``ast`` holds; not ``*``: a line of parameters may start with ``*args``)."""
    if d.signature.endswith("\u2026"):
        return -1  # (a signature cut short: where its header ends is not known)
    lines = d.signature.rstrip().splitlines()
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith(comments)):
        lines.pop()  # (comment lines after the header)
    if not lines:
        return -1
    last = lines[-1].strip()
    p = text.find(last, d.head, d.end)
    if p < 0:
        return -1
    p += len(last)
    # (a brace that opens the body on the header's line: "func f() {")
    q = p
    while q < d.end and text[q] in " \t":
        q += 1
    return q + 1 if q < d.end and text[q] == "{" else p


def _line_end(text: str, p: int) -> int:
    """The end of ``p``'s line (its line break, or the end of the text)."""
    m = _LINE_BREAK_AT.search(text, p)
    return m.start() if m is not None else len(text)


_LINE_BREAK_AT = re.compile(r"[\r\n]")
# lines that only close what a definition before them opened: brackets and a ``;`` or
# ``,``, or a preprocessor line that ends a conditional block or a macro (each perhaps
# with a comment after it; blank lines between)
# preprocessor lines that open a conditional block or define a guard
_OPENING_LINES = re.compile(r"(?:[ \t]*(?:#[ \t]*(?:ifndef|ifdef|if|define)\b[^\r\n]*)?[ \t]*(?:\r\n|\r|\n|\Z))+")
_CLOSING_LINES = re.compile(
    r"(?:[ \t]*(?:[)}\]]+[ \t]*[;,]?|;|#[ \t]*(?:endif|else|undef)\b[^\r\n]*)?[ \t]*(?://[^\r\n]*|/\*[^\r\n]*\*/)?[ \t]*(?:\r\n|\r|\n|\Z))+"
)
_WORDS_BEFORE = re.compile(r"[ \t]*((?:[A-Za-z_]\w*[ \t]+)+)")


def _comment_line(structure: CodeStructure) -> tuple[str, ...]:
    """How a line after a header in a signature of ``structure`` starts (a comment line;
    in Python also a decorator: see :func:`_header_end`)."""
    return ("#", "@") if structure.language == "python" else _COMMENT_LINE


def _line_breaks(gap: str) -> int:
    """How many line breaks ``gap`` holds (a CRLF counts once)."""
    return gap.count("\n") + gap.count("\r") - gap.count("\r\n")


def _unknown(language: Any) -> ConfigError:
    return ConfigError(f"language {language!r} is unknown; choose one of: {', '.join(supported_languages())}")


@dataclass(frozen=True)
class _Chunking:
    """What the enrichment pass needs per chunk (one value for the whole document)."""

    structure: CodeStructure
    text: str


@register("code")
@dataclass(frozen=True, kw_only=True)
class CodeChunker(BaseChunker):
    """Chunk source code along its syntax tree.

    Args:
        chunk_size, chunk_overlap, unit, tokenizer: see :class:`BaseChunker`.
        language: a language name or alias (``"python"``, ``"ts"``, ``"c++"``; see
            :func:`supported_languages`). Default: the document's ``metadata["language"]``
            (what :func:`chunkwise.load` records for a source file, by its suffix). A
            text with neither is split at blank lines and lines only, with a warning.
            Given, it is the language of every document, a source file of another
            language too (a folder run), with a :class:`CodeWarning` naming the file and
            both languages (none where ``language`` reads the file's own: C as C++,
            JavaScript as TypeScript or TSX, TypeScript as TSX).
        include_imports: put the file's top-level imports in ``chunk.context`` of every
            chunk that starts after the last of them.
        include_context_in_size: count ``chunk.context`` (and the line break after it)
            against ``chunk_size``. A context larger than half the budget loses the
            imports, then the outermost signatures, so the code keeps half the budget.
        merge_small_definitions: pack a top-level item (a definition or a run of
            statements) smaller than a quarter of ``chunk_size - chunk_overlap`` (or than
            ``min_chunk_size``) with its neighbours where they fit together. False (the
            default): each top-level definition starts a chunk, however small.
        min_chunk_size: the size, in ``unit``, under which an item counts as small
            (0: a quarter of ``chunk_size - chunk_overlap``); also the packer's floor for
            evening out a small chunk with its neighbour.
        parser: ``"auto"`` (Python: a structural scan by indentation, no syntax tree --
            tree-sitter, else the standard library's ``ast``, for a file the scan cannot
            vouch for; other languages: tree-sitter), ``"scan"`` (Python; the same),
            ``"tree-sitter"`` or ``"ast"`` (Python).

    Raises:
        ConfigError: an unknown language (the message lists the supported ones) or an
            invalid parameter.
        MissingDependencyError: the grammar of ``language`` is not installed:
            ``pip install 'chunkwise[code]'``.

    Example:
        >>> src = "import os\\n\\n\\ndef a():\\n    return 1\\n\\n\\nclass B:\\n    def c(self):\\n        return 2\\n"
        >>> chunks = CodeChunker(language="python", chunk_size=60).chunk(src)
        >>> [(c.text.splitlines()[0], c.metadata["symbols"]) for c in chunks]
        [('import os', []), ('def a():', ['a']), ('class B:', ['B', 'B.c'])]
        >>> chunks = CodeChunker(language="python", chunk_size=60, merge_small_definitions=True).chunk(src)
        >>> [(c.text.splitlines()[0], c.metadata["symbols"]) for c in chunks]
        [('import os', ['a']), ('class B:', ['B', 'B.c'])]
    """

    language: str | None = None
    include_imports: bool = False
    include_context_in_size: bool = False
    merge_small_definitions: bool = False
    min_chunk_size: int = 0
    parser: str = "auto"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.parser not in _PARSERS:
            raise ConfigError(f"parser must be one of {', '.join(map(repr, _PARSERS))}, not {self.parser!r}")
        if self.language is not None:
            canon = resolve_language(self.language)
            if canon is None:
                raise _unknown(self.language)
            self._check_parser(canon)
        for flag in ("include_imports", "include_context_in_size", "merge_small_definitions"):
            if not isinstance(getattr(self, flag), bool):
                raise ConfigError(f"{flag} must be True or False, not {getattr(self, flag)!r}")
        m = self.min_chunk_size
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise ConfigError(f"min_chunk_size must be an integer >= 0, not {m!r}")
        if m > self.chunk_size:
            raise ConfigError(f"min_chunk_size ({m}) must not exceed chunk_size ({self.chunk_size}); lower it")

    def _check_parser(self, language: str) -> None:
        if self.parser in ("ast", "scan") and language != "python":
            raise ConfigError(f"parser={self.parser!r} reads Python only, not {language!r}; use parser='auto'")
        if self.parser in ("ast", "scan") or (self.parser == "auto" and language == "python"):
            return
        if not grammar_available(language):
            spec = LANGUAGES[language]
            raise MissingDependencyError(
                "tree-sitter" if not grammar_available_base() else spec.package, "code", f"code chunking of {language}"
            )

    def language_of(self, document: str | Document) -> str | None:
        """The canonical language for ``document``: ``language``, else the document's
        ``metadata["language"]`` when it was loaded as source code, or when its metadata
        names no format and the language is one of :func:`supported_languages` (a
        ``Document`` built by hand), else None.

        Raises:
            ConfigError: the language of a document loaded as source code is not supported.
        """
        if self.language is not None:
            return resolve_language(self.language) or ""
        meta = getattr(document, "metadata", None) or {}
        given = meta.get("language")
        if not given:
            return None
        fmt = meta.get("format")
        if fmt == "code":
            canon = resolve_language(given)
            if canon is None:
                raise _unknown(given)
            return canon
        if fmt is None and isinstance(given, str):
            return resolve_language(given)
        return None

    def _warn_other_language(self, document: Document, lang: str) -> bool:
        """Warn that ``language`` is not the language of a source file's suffix or ``#!``;
        whether it warned."""
        meta = document.metadata or {}
        given = meta.get("language") if meta.get("format", "code") == "code" else None
        own = resolve_language(given) if isinstance(given, str) else None
        if own is None or own == lang or (own, lang) in _READS_AS:
            return False
        name = document.source or meta.get("filename") or document.id or "a document"
        _warn(
            f"strategy 'code' parses {name} as {lang} (language={self.language!r}) but the file is {own}; "
            f"leave language= out to parse each file in its own language"
        )
        return True

    # -- parse -----------------------------------------------------------------------

    def parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """Regions (top-level definitions and the statement runs between them), levels
        (members and statements by indentation, lines, tokens), atoms (every definition)
        and one label carrying the structure to the enrichment pass.

        A text whose lines end with a lone carriage return (a classic Mac OS file) is read
        as its twin with line feeds there (same length, same offsets), as the packer
        packs it; sizes are the text's own and the label carries the text itself (the
        imports of a context are read from it)."""
        twin = line_feed_twin(document.text)
        if twin is None:
            return self._parse(document, measure)
        segments = self._parse(replace(document, text=twin), measure)
        labels = tuple(
            replace(lb, value=_Chunking(lb.value.structure, document.text)) if isinstance(lb.value, _Chunking) else lb
            for lb in segments.labels
        )
        return replace(segments, labels=labels, twin=twin)

    def _parse(self, document: Document, measure: Measure | None = None) -> Segments:
        """:meth:`parse` of a text without a lone carriage return."""
        text = document.text
        lang = self.language_of(document)
        other = self.language is not None and lang and self._warn_other_language(document, lang)
        if lang is None:
            meta = document.metadata or {}
            name = document.source or meta.get("filename")
            other = unsupported_language(name if isinstance(name, str) else None, text)
            if other is not None:
                _warn(
                    f"strategy 'code' cannot parse {name or 'this text'}: it is {other[0]} (by {other[1]}), "
                    f"which it does not read (it reads: {', '.join(supported_languages())}); it is split at "
                    "blank lines and lines only"
                )
            else:
                _warn(
                    "strategy 'code' got a text without language= (one of: "
                    f"{', '.join(supported_languages())}); it is split at blank lines and lines only; give the "
                    "language (language=NAME, on the command line -p language=NAME)"
                )
            structure = CodeStructure(language="", parser="lines")
        else:
            self._check_parser(lang)
            structure = parse_code(text, lang, self.parser, self._fits(measure), self._keeps(measure))
            if structure.error_at >= 0 and not other:
                # (once per document: part of it is read without its syntax; not after the
                # warning that the file is of another language)
                meta = document.metadata or {}
                name = document.source or meta.get("filename")
                line = text.count("\n", 0, structure.error_at) + 1
                _warn(
                    f"strategy 'code' could not parse all of {name or 'this text'} as {lang} (a syntax error at "
                    f"line {line} that tree-sitter's {lang} grammar does not read: a macro, a dialect or tool "
                    "line, or code its grammar does not cover); around it, definitions may be read "
                    "apart from the class or function around them, without it in their context"
                )
            if structure.parser == "lines":  # (the standard library's ast met a syntax error)
                fix = "parser='auto'" if self.parser == "ast" else "installing tree-sitter-python"
                _warn(
                    f"strategy 'code' could not parse this {lang} text with the standard library's ast "
                    f"(parser={self.parser!r}: a syntax error, or nesting too deep); it is split at blank "
                    f"lines and lines only, with no symbols; {fix} recovers the definitions around the error"
                )
        n = len(text)
        label = Label(0, n, "_code", _Chunking(structure.described(), text), "overlap")
        if structure.parser == "lines":
            return Segments(levels=(PARAGRAPH, LINE), labels=(label,))
        indents = sorted({c[2] for c in structure.cuts})
        # past MAX_NESTING distinct indentations, the deeper ones share the last level (per
        # kind): a level per depth made the packer's descent as deep as the code
        deepest = indents[MAX_NESTING - 1] if len(indents) > MAX_NESTING else None
        # no cut between a definition's header and its body: the header would end a chunk
        # (a definition that surely fits is an atom the packer never cuts: no cut inside it
        # is read, so its header is not looked for)
        surely = self._fits(measure)
        # nor between a definition's decorators (attributes) and its header: the cuts
        # that start a piece after the first of them, up to the header, are a fallback
        # weaker than the header cuts (the comment lines above them may go)
        comment_line = _comment_line(structure)
        header_ends: dict[int, int] = {}  # definition (by index) -> where its header ends
        head_from: dict[int, int] = {}  # a header's end -> where its definition's own text starts
        parent_head: dict[int, int] = {}  # a header's end -> where its parent's header ends
        # where a definition with decorators or a header of more than one line starts ->
        # where its header ends
        deco_head: dict[int, int] = {}
        deco_s: list[int] = []
        deco_e: list[int] = []
        # (the headers of more than one line: the cuts between their lines go with the
        # header cuts, weaker than every line cut; a cut whose end lies in one of these
        # ranges or in the decorators before it is not a line cut)
        inner_s: list[int] = []
        inner_e: list[int] = []
        inner_own: list[int] = []
        out_s: list[int] = []
        out_e: list[int] = []
        lang = structure.language
        for i, d in enumerate(structure.definitions):
            if d.container:
                continue
            if surely is not None:
                e = d.end
                if e < n and text[e] not in "\r\n":  # (else no tail: its line ends there)
                    e = _tail_end(text, e, lang)
                if surely(d.start, e):
                    continue
            h = header_ends[i] = _header_end(text, d, comment_line)
            own = d.head
            if d.start < d.head:
                own = self._own_start(text, d.start, d.head)
                if own < d.head:
                    deco_s.append(own)
                    deco_e.append(d.head)
            zone = d.head if own < d.head else -1
            if h >= 0:
                head_from[h] = own
                if own < d.head:
                    deco_head[own] = h
                if ("\n" in d.signature or "\r" in d.signature) and (text.find("\n", d.head, h) >= 0 or text.find("\r", d.head, h) >= 0):
                    inner_s.append(d.head)
                    inner_e.append(h - 1)
                    inner_own.append(own)
                    deco_head[own] = h
                    zone = h - 1
                if d.parent >= 0 and header_ends.get(d.parent, -1) >= 0:
                    parent_head[h] = header_ends[d.parent]
            if zone >= 0:
                out_s.append(own)
                out_e.append(zone)
        if structure.annotated:
            # a field (property, local variable) with its annotations on the lines above
            # it: cut from them as a definition from its decorators (only when nothing else
            # fits), its first line of code standing for a header
            for start, head, first_end in structure.annotated:
                own = self._own_start(text, start, head)
                if own < head:
                    deco_s.append(own)
                    deco_e.append(head)
                    deco_head[own] = first_end
                    out_s.append(own)
                    out_e.append(head)
            if len(deco_s) > 1:
                deco_s, deco_e = map(list, zip(*sorted(zip(deco_s, deco_e))))
        # (a definition that is all header -- an interface's or abstract method, a
        # prototype: ``string Name();`` -- has no body to keep its header with: the cut
        # after it is a cut between members)
        defs = structure.definitions
        heads = {h for i, h in header_ends.items() if 0 <= h < defs[i].end}
        in_deco = _zone_test(deco_s, deco_e) if deco_s else None
        deco_cuts: list[tuple[int, int]] = []
        in_head = _zone_test(inner_s, inner_e) if inner_s else None
        inner_cuts: list[tuple[int, int]] = []
        # (the decorators and header lines of a definition, one range, marked: a cut's end
        # is looked up, not searched for)
        mask: bytearray | None = None
        if out_s:
            mask = bytearray(n + 1)
            for s0, e0 in zip(out_s, out_e):
                mask[s0 + 1 : e0 + 1] = b"\x01" * (e0 - s0)
        # ... except as the last resort before a cut inside a line: the header alone
        # rather than a header broken between its tokens
        header_cuts: dict[int, int] = {}
        # (keyed by ``indent * 4 + kind``: ordered as ``(indent, kind)``, no tuple per cut)
        by_rank: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
        clamp = deepest if deepest is not None else -1
        for a, b, indent, kind in structure.cuts:
            if a in heads:
                header_cuts[a] = min(b, header_cuts.get(a, b))
                continue
            if mask is not None and mask[b]:
                (deco_cuts if in_deco is not None and in_deco(b) else inner_cuts).append((a, b))
                continue
            if indent > clamp >= 0:
                indent = clamp
            by_rank[indent * 4 + kind].append((a, b))
        fits = self._fits_budget(measure)
        wide = self._fits_budget(measure, self.chunk_size)
        atoms, extra, trimmed, lifted = self._atoms(structure, text, fits, measure, wide)
        # (the compound statements that fit: never cut; sorted once with the statement
        # atoms below -- a stable sort of both lists at once orders ties as two sorts did)
        unsorted = atoms + tuple(_atom(s, e, "statement") for s, e in structure.whole) if structure.whole else None
        if fits is not None:
            more, cuts = self._statement_atoms(structure, text, fits, atoms if unsorted is None else unsorted)
            if more:
                unsorted = (atoms if unsorted is None else unsorted) + more
                for a, b, indent in cuts:  # (a statement cut, kind 1)
                    if deepest is not None and indent > deepest:
                        indent = deepest
                    by_rank.setdefault(indent * 4 + 1, []).append((a, b))
        if unsorted is not None:
            atoms = tuple(sorted(unsorted, key=_by_start_outer_first))
        for a, b, indent in extra:  # between a definition and the comments above it
            if deepest is not None and indent > deepest:
                indent = deepest
            by_rank.setdefault(indent * 4, []).append((a, b))
        levels: list[Level] = []
        for key in sorted(by_rank):
            indent, kind = divmod(key, 4)
            name = ("definition" if indent == 0 else "member", "statement", "clause")[kind]
            levels.append(_positions(name, by_rank[key]))
        if structure.lazy_lines is not None and not structure.line_cuts:
            lazy = structure.lazy_lines
            if heads or in_deco is not None:
                if mask is None:
                    def lazy_lines(s: int, e: int, lazy: Any = lazy) -> Iterator[tuple[int, int]]:
                        return ((a, b) for a, b in lazy(s, e) if a not in heads)
                else:
                    def lazy_lines(s: int, e: int, lazy: Any = lazy, out: bytearray = mask) -> Iterator[tuple[int, int]]:
                        return ((a, b) for a, b in lazy(s, e) if a not in heads and not out[b])
                lazy = lazy_lines
            levels.append(_LazyLevel("line", lazy))
            if in_deco is not None:
                for d0, d1 in zip(deco_s, deco_e):
                    deco_cuts += [c for c in structure.lazy_lines(d0, d1 + 1) if d0 < c[1] <= d1]
            for h in heads:
                if (m := _LINE_GAP.match(text, h)) is not None:
                    header_cuts[h] = min(m.end(), header_cuts.get(h, m.end()))
        else:
            line_cuts = []
            for a, b in structure.line_cuts:
                if a in heads:
                    header_cuts[a] = min(b, header_cuts.get(a, b))
                elif mask is not None and mask[b]:
                    (deco_cuts if in_deco is not None and in_deco(b) else inner_cuts).append((a, b))
                else:
                    line_cuts.append((a, b))
            levels.append(_positions("line", line_cuts))
        regions = self._regions(
            structure, n, text, fits, trimmed, header_ends, None if self.include_context_in_size else wide, lifted
        )
        if self.include_context_in_size:
            regions = tuple(replace(r, reserve=self._reserve(structure, text, r)) for r in regions)
        if measure is not None and len(regions) > 1:
            regions = self._join_small(structure, text, regions, measure, not self.merge_small_definitions)
        joined: set[int] = set()  # the headers kept with their first line: no cut after them
        given: set[int] = set()  # the headers that may end a chunk
        kept = self._kept(text, measure, regions) if header_cuts or deco_cuts or inner_s else None
        whole_deco = None  # whether a cut's end lies in decorators kept with their header
        if inner_s:
            # (the lines of a header that fits with its decorators are never cut: evening out
            # two chunks would take a cut between them; one that does not is cut between its
            # lines before its decorators are cut from it)
            big = [kept is None or not kept(d0, h1 + 1, True) for d0, h1 in zip(inner_own, inner_e)]
            if inner_cuts:
                inner_cuts = [c for c in inner_cuts if big[bisect_left(inner_s, c[1]) - 1]]
            if structure.lazy_lines is not None and not structure.line_cuts:
                for h0, h1, cut in zip(inner_s, inner_e, big):
                    if cut:
                        inner_cuts += [c for c in structure.lazy_lines(h0, h1 + 1) if h0 < c[1] <= h1]
        if header_cuts or inner_cuts:
            loosened: set[tuple[int, int]] = set()
            cuts = self._header_cuts(
                structure, text, header_cuts, fits, head_from, atoms, kept, parent_head, joined, deco_head, given,
                frozenset(structure.whole), loosened,
            ) if header_cuts else []
            levels.append(_positions("header", cuts + inner_cuts))
            if loosened:  # (compound statements cut after all: a header keeps its first line)
                atoms = tuple(a for a in atoms if (a.start, a.end) not in loosened)
        if deco_cuts and kept is not None:
            # (no cut between decorators and their header where the packer never needs
            # one: a header kept with its first line, or one that fits with its decorators,
            # whether its own cut is given or its first line is cut between its tokens;
            # evening out two chunks would take it)
            # (the code after a header on its line goes with it: a definition of one line,
            # ``template<...>`` above ``f() { ... }``, that fits without the line above it
            # but not with it is cut after that line, not between the tokens of its own)
            loose = set()
            for k, own in enumerate(deco_s):
                h = deco_head.get(own, -1)
                if h in joined or (h >= 0 and kept(own, _rstrip_pos(text, h, _line_end(text, h)), True)):
                    loose.add(k)
            if loose:
                deco_cuts = [c for c in deco_cuts if bisect_left(deco_s, c[1]) - 1 not in loose]
                whole_deco = _zone_test([deco_s[k] for k in sorted(loose)], [deco_e[k] for k in sorted(loose)])
        if deco_cuts:  # (weaker still: a decorator apart from its header only where they do not fit)
            levels.append(_positions("decorator", deco_cuts))
        # the lines inside multi-line strings and comments before the tokens of a line: a
        # statement with a multi-line string in it is cut at a line's start (not after a
        # header: the header level has those that may be cut)
        if heads or joined or whole_deco or in_head:
            levels.append(self._after_headers(text, heads | joined, whole_deco, in_head)[0])
        else:
            levels.append(LINE)
        if self.chunk_overlap and (heads or mask is not None):
            # (with an overlap: the line breaks after a header, between the lines of a
            # header and after its decorators -- kept out of the line levels so that no
            # chunk ends there while a cut elsewhere fits -- before the cuts inside a line:
            # an overlap that reaches into a header ends at the end of one of its lines,
            # not between two of its tokens where that line's end fits)
            if structure.lazy_lines is not None and not structure.line_cuts:
                lines = structure.lazy_lines

                def withheld(s: int, e: int, lines: Any = lines, out: bytearray | None = mask) -> Iterator[tuple[int, int]]:
                    return ((a, b) for a, b in lines(s, e) if a in heads or (out is not None and out[b]))

                levels.append(_LazyLevel("header_line", withheld))
            else:
                levels.append(_positions("header_line", [
                    (a, b) for a, b in structure.line_cuts if a in heads or (mask is not None and mask[b])
                ]))
        if structure.lazy_tokens is not None and not structure.token_cuts:
            levels.append(_LazyLevel(_TOKEN, structure.lazy_tokens))
        else:
            levels.append(_positions(_TOKEN, list(structure.token_cuts)))
        if structure.lazy_parts is not None:  # (inside SQL's "schema.func": after every token cut)
            levels.append(_LazyLevel("name_part", structure.lazy_parts))
        # inside multi-line strings and comments: lines, then words (given here: the packer
        # adds its word level only when no level has that name, and the token level has it)
        # (not after a header: a chunk would end with it where evening out two chunks or
        # lifting a comment line to the next chunk looks for a cut; the header level has
        # the cuts after headers that may be cut)
        if joined or whole_deco or in_head:
            levels += self._after_headers(text, joined, whole_deco, in_head)
        else:
            levels += [LINE, WORD]
        return Segments(levels=tuple(levels), regions=regions, atoms=atoms, labels=(label,))

    @staticmethod
    def _after_headers(text: str, heads: set[int], whole_deco: Callable[[int], bool] | None,
                       in_head: Callable[[int], bool] | None = None) -> list[Level]:
        """The lines and words of multi-line strings and comments (:data:`LINE`,
        :data:`WORD`), without the cuts right after a header of ``heads`` (only spaces
        and tabs between the header and the line break), those ending where
        ``whole_deco`` says (in decorators kept with their header) and the line breaks
        ending where ``in_head`` says (inside a header)."""
        n = len(text)
        breaks = set(heads)
        for h in heads:
            while h < n and text[h] in " \t\r":
                h += 1
            breaks.add(h)

        if whole_deco is None:
            def keep(_t: str, a: int, _b: int) -> bool:
                return a not in breaks
        else:
            def keep(_t: str, a: int, b: int) -> bool:
                return a not in breaks and not whole_deco(b)
        line_keep = keep
        if in_head is not None:
            def line_keep(t: str, a: int, b: int) -> bool:
                return keep(t, a, b) and not in_head(b)

        return [FilteredLevel(LINE, line_keep), FilteredLevel(WORD, keep)]

    @staticmethod
    def _header_cuts(
        structure: CodeStructure, text: str, header_cuts: Mapping[int, int], fits: Callable[[int, int], bool] | None,
        head_from: Mapping[int, int] | None = None, atoms: Sequence[Atom] = (),
        kept: Callable[[int, int, bool], bool] | None = None, parent_head: Mapping[int, int] | None = None,
        joined: set[int] | None = None, deco_head: Mapping[int, int] | None = None,
        given: set[int] | None = None, statements: frozenset[tuple[int, int]] = frozenset(),
        loosened: set[tuple[int, int]] | None = None,
    ) -> list[tuple[int, int]]:
        """The fallback cuts at the end of definition headers, weaker than every line cut
        and stronger than a cut inside a line: the header alone rather than a header
        broken between its tokens. A header's cut is given where the line after it fits
        alone (else that line is cut anyway, and the header goes with its start), and
        only where the header (with its decorators) and that first line do not fit
        together (``kept``, from ``head_from``: where each header's definition starts):
        so no chunk ends with a header that could have kept its first line, even where
        evening out two chunks looks for a cut. The first line reaches to the end of a
        definition kept whole that starts on it (``atoms`` that fit: a nested definition
        right after the header cannot be cut, so the header's cut is given when the two
        do not fit together). Where the line after it is a multi-line string or comment
        (a docstring), the line breaks inside that string come with it, stronger (the
        header goes with the string's first lines where they fit; balancing takes the
        most even of them); the header's own cut, after them, only where the header and
        the string's first line do not fit together. ``statements``: the compound
        statements kept whole (atoms); one on a header's first line that does not fit with
        the header, where the header fits with its first line, is added to ``loosened``
        (the caller cuts it: the header keeps its first line)."""
        n = len(text)
        if loosened is None:
            loosened = set()
        lazy = structure.lazy_lines if not structure.line_cuts else None
        line_starts = sorted(a for a, _ in structure.line_cuts) if lazy is None else []
        def_starts = sorted(d.start for d in structure.definitions)
        atom_starts = [a.start for a in atoms] if kept is not None and head_from else []
        out: list[tuple[int, int]] = []
        find = text.find
        piece: dict[int, int] = {}  # a header's end -> where the piece it ends starts
        # (filled: the headers whose cut is given, and those whose cut is withheld: kept
        # with their first line)
        if given is None:
            given = set()
        if joined is None:
            joined = set()

        def alone(h: int, b: int, e: int) -> bool:
            """Whether the header ending at ``h`` and what follows it up to ``e`` do not
            fit together (its first line, and a definition kept whole that starts on it),
            with the header around it when it is that header's first line and that
            header has no cut (a header chain: ``class A:`` then ``def f(self):``)."""
            if kept is None or not head_from or h not in head_from:
                return True
            s = head_from[h]
            ph = parent_head.get(h, -1) if parent_head else -1
            if ph in piece and ph not in given and header_cuts.get(ph) == s:
                s = piece[ph]
            piece[h] = s
            # decorators or a header of more than one line on the first line: it reaches
            # the end of that header (cut from it only after every header cut); atoms nest and
            # come in order of their start: one that starts before that end, reaches past
            # it and fits is kept whole, so the first line reaches its end
            first = reach = max(e, deco_head.get(b, e)) if deco_head else e
            k0 = k = bisect_left(atom_starts, h)
            held = False  # (a compound statement kept whole reaches past the first line)
            while k < len(atom_starts) and atom_starts[k] < reach:
                at = atoms[k]
                if at.end > reach and kept(at.start, at.end, False):
                    reach = at.end
                    held = held or (at.start, at.end) in statements
                k += 1
            if kept(s, reach, True):
                return False
            if held:
                # the header and the compound statement on its first line do not fit
                # together: the statement is cut (no longer kept whole) where the header
                # fits with its first line, as where no statement was kept whole
                reach, k = first, k0
                while k < len(atom_starts) and atom_starts[k] < reach:
                    at = atoms[k]
                    if at.end > reach and (at.start, at.end) not in statements and kept(at.start, at.end, False):
                        reach = at.end
                    k += 1
                if kept(s, reach, True):
                    k = k0
                    while k < len(atom_starts) and atom_starts[k] < reach:
                        at = atoms[k]
                        if at.end > reach and (at.start, at.end) in statements:
                            loosened.add((at.start, at.end))
                        k += 1
                    return False
            return True

        for h in sorted(header_cuts):  # (a header before those inside its definition)
            b = header_cuts[h]
            if not (0 < h and b < n):
                continue
            # the line item after the header: up to the next line cut
            if lazy is not None:
                nxt = next(iter(lazy(b, n)), None)
                e = nxt[0] if nxt is not None else n
            else:
                k = bisect_right(line_starts, b)
                e = line_starts[k] if k < len(line_starts) else n
            e = _rstrip_pos(text, b, e) if e > b else e
            k = bisect_right(def_starts, b - 1)
            if (find("\n", b, e) >= 0 or find("\r", b, e) >= 0) and not (k < len(def_starts) and def_starts[k] < e):
                # (a multi-line string or comment: its line breaks, then the header's; the
                # runs of line breaks come in order, apart: only the first may start at
                # ``b``, only the last end at ``e``)
                gaps = _line_gaps(text, b, e)
                if gaps and gaps[-1][1] >= e:
                    gaps.pop()
                if gaps and gaps[0][0] <= b:
                    del gaps[0]
                out += gaps
                if alone(h, b, gaps[0][0] if gaps else e):
                    out.append((h, b))
                    given.add(h)
                else:
                    joined.add(h)
            elif fits is None or fits(b, e):
                if alone(h, b, e):
                    out.append((h, b))
                    given.add(h)
                else:
                    joined.add(h)
            elif parent_head and head_from and (ph := parent_head.get(h, -1)) in joined and (
                header_cuts.get(ph) == head_from.get(h)
            ):
                # (a first line too long for a chunk is cut between its tokens, the header
                # with its start: the header around it, kept with this header as its first
                # line, may end a chunk rather than be cut between its tokens -- unless the
                # two headers fit together: then this one ends the chunk, and the one around
                # it keeps its first line)
                if kept is not None and kept(piece.get(ph, head_from.get(ph, h)), h, True):
                    out.append((h, b))
                    given.add(h)
                    continue
                joined.discard(ph)
                given.add(ph)
                out.append((ph, header_cuts[ph]))
        return out

    def _kept(self, text: str, measure: Measure | None, regions: Sequence[Region]
              ) -> Callable[[int, int, bool], bool] | None:
        """Whether ``text[s:e]`` fits the budget of the region it starts in (``chunk_size
        - chunk_overlap`` less the region's reserve for the context), as the packer
        decides whether a piece fits: with ``indent``, measured from the start of its line
        where the packer measures it so (:func:`indent_start`); without, as an atom is.
        None without a measure."""
        if measure is None:
            return None
        limit = self.chunk_size - self.chunk_overlap
        starts = [r.start for r in regions] if self.include_context_in_size else []
        reserves = [r.reserve for r in regions]
        if type(measure) is _CharMeasure and not starts:
            def kept_chars(s: int, e: int, indent: bool) -> bool:
                if indent and s and text[s - 1] in " \t":
                    s = indent_start(text, measure, s, limit)
                return e - s <= limit

            return kept_chars

        def kept(s: int, e: int, indent: bool) -> bool:
            budget = limit
            if starts:
                k = bisect_right(starts, s) - 1
                if k >= 0:
                    budget -= reserves[k]
            q = indent_start(text, measure, s, budget) if indent else s
            return measure.size(q, e) <= budget or measure.exact(q, e) <= budget

        return kept

    def _fits(self, measure: Measure | None) -> Callable[[int, int], bool] | None:
        """Whether a span surely fits a chunk, so that the syntax tree need not be read
        inside a definition that fits: at most the budget, measured on the document, with
        a margin for a measure that is not exact. None (read everything) when the context
        counts in the size (a region's reserve for it is known only after the parse) or
        with an overlap (it may start inside a definition, at a statement)."""
        if measure is None or self.include_context_in_size or self.chunk_overlap:
            return None
        return self._keeps(measure)

    def _keeps(self, measure: Measure | None) -> Callable[[int, int], bool] | None:
        """Whether a compound statement surely fits ``chunk_size`` (then kept whole: an
        atom), as :meth:`_fits` measures, also with a context counted in the size (a
        region whose reserve leaves less cuts it as an atom too big). None without a
        measure, and with an overlap: an overlap never ends inside an atom, so atoms of
        statements left a quarter more chunks without one and took a quarter more time."""
        if measure is None or self.chunk_overlap:
            return None
        limit = self.chunk_size - self.chunk_overlap
        if type(measure) is _CharMeasure:
            return lambda s, e: e - s <= limit  # (characters: the size is exact, e - s)
        if not getattr(measure, "is_exact", False):
            limit -= 8
        size = measure.size
        return lambda s, e: size(s, e) <= limit

    def _fits_budget(self, measure: Measure | None, size: int | None = None) -> Callable[[int, int], bool] | None:
        """Whether ``text[start:end]`` (trimmed) fits ``chunk_size - chunk_overlap`` exactly,
        as the packer decides whether an atom fits; None without a measure. With ``size``
        (``chunk_size``): whether it fits that, as the packer decides whether an atom
        larger than the budget is packed whole; None also without an overlap."""
        if measure is None or (size is not None and not self.chunk_overlap):
            return None
        limit = self.chunk_size - self.chunk_overlap if size is None else size
        if type(measure) is _CharMeasure:
            return lambda s, e: e - s <= limit  # (characters: size and exact size are e - s)

        def fits(s: int, e: int) -> bool:
            return measure.size(s, e) <= limit or measure.exact(s, e) <= limit

        return fits

    @staticmethod
    def _own_start(text: str, start: int, head: int) -> int:
        """Where a definition starts without the comment lines above it (its decorators and
        attributes kept): the first non-blank character of the first line of
        ``text[start:head]`` that is not a comment line, else ``head``. A block comment
        (``/* ... */``) counts as a whole, its lines that do not start with ``*`` too
        (zlib's style)."""
        p = start
        while p < head:
            eol = text.find("\n", p, head)
            line = text[p : eol if eol >= 0 else head].strip()
            close = text.find("*/", p, head) if eol >= 0 and line.startswith("/*") else -1
            if close > eol:  # a block comment over several lines
                eol = text.find("\n", close + 2, head)
                if text[close + 2 : eol if eol >= 0 else head].strip():
                    return p  # (code after it on its last line: the comment stays)
            elif line and not (line.startswith(_COMMENT_LINE) and not line.startswith(("#[", "#!["))):
                return p
            if eol < 0:
                break
            p = eol + 1
            while p < head and text[p] in " \t\f\v\r\n":
                p += 1
        return head

    @staticmethod
    def _code_end(text: str, d: Any, cut_starts: set[int]) -> tuple[int, int]:
        """``(end, p)``: where definition ``d`` ends without the comment lines after its last
        line of code (a Python block's ``# else: ignore``), and where the first of them
        starts; ``(d.end, d.end)`` when it ends with code. A comment line counts when the
        parser cut before it or before one above it in the run (``cut_starts``), or when
        it and those below it hold no quote (``#`` or ``//``): then no string ends on them,
        so none holds them."""
        e = d.end
        p = e
        plain = True
        while True:
            ls = _line_start(text, e)
            line = text[ls:e].lstrip()
            if not line.startswith(_COMMENT_LINE) or line.startswith(("#[", "#![")):
                break
            q = e - len(line)
            plain = plain and line.startswith(("#", "//")) and not any(ch in line for ch in "\"'`")
            if plain or q in cut_starts:
                p = q
            e = _rstrip_pos(text, d.head, ls)
            if e <= d.head:
                return d.end, d.end
        if p == d.end:
            return d.end, d.end
        return _rstrip_pos(text, d.head, _line_start(text, p)), p

    def _atoms(self, structure: CodeStructure, text: str, fits: Callable[[int, int], bool] | None,
               measure: Measure | None = None, wide: Callable[[int, int], bool] | None = None,
               ) -> tuple[tuple[Atom, ...], list[tuple[int, int, int]], dict[int, int], dict[int, int]]:
        """An atom per definition (never cut while it fits), the cuts ``(a, b, indent)``
        that take comment lines out of a definition's atom, the ends of the
        definitions whose atom leaves out their trailing comments (by index), and where
        the atom starts of those that fit the budget only without the comment lines
        above them (by index).

        A definition that does not fit with the comment lines around it but fits without
        them leaves them out of its atom: first the comment lines after its last line of
        code (a note on the body's end, read with the code after it), then the comment
        lines above it (its decorators and attributes kept), then both. A cut at the
        definition's own indentation lets the packer put them with the chunk next to it
        (or alone). ``measure``: the sizes ``fits`` reads (a definition whose estimate fits
        is passed over at once). ``wide`` (with an overlap): whether a span fits
        ``chunk_size``; a definition that fits no way within the budget is then kept
        whole where it fits ``chunk_size`` (the packer packs it whole), else left
        without its comments where that fits ``chunk_size``."""
        atoms: list[Atom] = []
        extra: list[tuple[int, int, int]] = []
        trimmed: dict[int, int] = {}
        lifted: dict[int, int] = {}
        cut_starts: set[int] | None = None
        shared: dict[int, int] = {}  # a trimmed end -> where its atom ends
        limit = self.chunk_size - self.chunk_overlap
        size = measure.size if measure is not None else (lambda s, e: limit + 1)  # (no estimate: ask fits)
        chars = measure is not None and isinstance(self._sizer, CharSizer)  # (the size is e - s)
        lang = structure.language
        semi = lang == "sql"
        n = len(text)
        for i, d in enumerate(structure.definitions):
            if d.container:
                continue
            s, e = d.start, d.end
            if shared and e in shared and s < shared[e]:
                # inside a definition whose trailing comments are its own too: not in its
                # atom either (atoms nest)
                e = trimmed[i] = shared[e]
            elif fits is not None and (e - s > limit if chars else size(s, e) > limit):  # (else it fits)
                trailing = text[_line_start(text, e) : e].lstrip().startswith(_COMMENT_LINE)
                if (d.start < d.head or trailing) and not fits(d.start, d.end):
                    code_end, p = e, e
                    if trailing:
                        if cut_starts is None:
                            cut_starts = {b for _a, b, _i, _k in structure.cuts}
                        code_end, p = self._code_end(text, d, cut_starts)
                    a, own = d.start, d.start
                    if d.start < d.head:
                        own = self._own_start(text, d.start, d.head)
                        ls = _line_start(text, own)
                        if own > d.start and not text[ls:own].strip():
                            a = _rstrip_pos(text, d.start, ls)
                    # (with an overlap, a definition that fits neither way within the budget
                    # but fits ``chunk_size`` is packed whole, as its own chunk if need be:
                    # kept whole, else without its comments when that fits ``chunk_size``)
                    for ok in (fits,) if wide is None else (fits, wide):
                        if ok is wide and wide(d.start, d.end):
                            break
                        for s2, e2 in ((d.start, code_end), (own, d.end), (own, code_end)):
                            if (s2, e2) == (d.start, d.end) or (s2 > d.start and a <= d.start):
                                continue
                            if ok(s2, e2):
                                s, e = s2, e2
                                break
                        if e < d.end or s > d.start:
                            break
                    if s > d.start:
                        extra.append((a, own, len(text[_line_start(text, own) : own].expandtabs(4))))
                        if fits(s, e):
                            lifted[i] = s
                    if e < d.end:
                        trimmed[i] = shared[d.end] = e
                        hl = _line_start(text, d.head)
                        if not text[hl : d.head].strip():
                            extra.append((e, p, len(text[hl : d.head].expandtabs(4))))
            if e == d.end and semi:
                # a ";" alone on the line after the definition ends it (SQL): in its atom
                q = e
                while q < len(text) and text[q] in " \t\r\n":
                    q += 1
                if q < len(text) and text[q] == ";" and _line_breaks(text[e:q]):
                    eol = text.find("\n", q)
                    if not text[q + 1 : eol if eol >= 0 else len(text)].strip():
                        e = q + 1
            elif e == d.end and fits is not None and e < n and text[e] not in "\r\n" and (
                tail := _tail_end(text, e, lang)) > e and (
                fits(s, e) or (wide is not None and lang != "python" and wide(s, e))
            ):
                # a ";" or "," that ends the definition's last line (C++'s ``};`` after a
                # method, ``} Name;`` after a C struct), or a comment that ends it (``} //
                # end f``), is in its atom where both fit, with the words before it on its
                # first line (``typedef``); where only the definition fits, it is cut
                # between its lines (the parser read them): never ``;`` or the comment
                # alone, nor ``Name;`` cut from its ``}``. (With an overlap, a definition
                # packed whole -- larger than the budget, fitting ``chunk_size`` -- the same,
                # by ``chunk_size``)
                ok = fits if fits(s, e) else wide
                ls = _line_start(text, s)
                if ls < s and (m := _WORDS_BEFORE.fullmatch(text, ls, s)) is not None:
                    s = m.start(1)
                if not ok(s, tail):  # type: ignore[misc]
                    continue
                e = tail
            atoms.append(_atom(s, e, d.node_type))
        return tuple(atoms), extra, trimmed, lifted

    def _statement_atoms(self, structure: CodeStructure, text: str, fits: Callable[[int, int], bool],
                         atoms: Sequence[Atom]) -> tuple[tuple[Atom, ...], list[tuple[int, int, int]]]:
        """An atom per statement (no definition) that fits without the comment lines above
        it but not with them, and the cuts ``(a, b, indent)`` between those comments and
        it: as a definition, the statement stays whole and the comments go with the chunk
        before (or alone)."""
        limit = self.chunk_size - self.chunk_overlap
        prefixes = _STATEMENT_COMMENTS.get(structure.language, _SLASH_COMMENTS)
        st = structure.statements
        # (the statements larger than the budget, picked without a loop in Python, that
        # start with a comment line)
        big = [
            x for x in compress(st, map(lt, repeat(limit), map(sub, map(_END, st), map(_START, st))))
            if text.startswith(prefixes, x[0]) and not text.startswith("#[", x[0])
        ]
        if not big:
            return (), []
        taken = {a.start for a in atoms} | {d.start for d in structure.definitions}
        out: list[Atom] = []
        cuts: list[tuple[int, int, int]] = []
        spans: list[tuple[int, int]] | None = None
        starts: list[int] = []
        for s, e, kind in big:
            if s in taken or kind == "comment":
                continue
            # (its first line that is no comment line)
            m = _comment_run(prefixes).match(text, _line_start(text, s))
            own = m.end() if m is not None else s
            while own < e and text[own].isspace():
                own += 1
            if not s < own < e or fits(s, e) or not fits(own, e):
                continue
            ls = _line_start(text, own)
            if text[ls:own].strip():
                continue
            # (never across an atom: a compound statement kept whole without the comment
            # lines after its code, those lines inside this block -- the two would leave no
            # cut between them, and the chunk would be cut inside a word)
            if spans is None:
                spans = sorted((a.start, a.end) for a in atoms)
                starts = [a for a, _b in spans]
            if any(a < own < b < e or own < a < e < b for a, b in spans[: bisect_left(starts, e)]):
                continue
            out.append(_atom(own, e, kind))
            cuts.append((_rstrip_pos(text, s, ls), own, len(text[ls:own].expandtabs(4))))
        return tuple(out), cuts

    @staticmethod
    def _regions(structure: CodeStructure, n: int, text: str = "",
                 fits: Callable[[int, int], bool] | None = None,
                 trimmed: Mapping[int, int] | None = None,
                 header_ends: Mapping[int, int] | None = None,
                 wide: Callable[[int, int], bool] | None = None,
                 lifted: Mapping[int, int] | None = None) -> tuple[Region, ...]:
        """A region per top-level definition (with the comments just above it) and per run
        of other statements between definitions; with ``fits``, also a region per nested
        definition too big for a chunk (it starts a chunk, and the chunk after it starts
        after it: no chunk holds the end of one definition and the header of another),
        except the first item of the definition around it (it stays with that header).
        A top-level item starts a region only where it begins a line.
        ``trimmed``: the definitions (by index) whose atom ends before their trailing
        comment lines because only so they fit (not too big: no region). ``header_ends``:
        where the headers of definitions (by index) end, as :func:`_header_end` finds them
        (those missing are found here). ``wide`` (with an overlap): whether a span fits
        ``chunk_size``; a definition inside one that fits it (an atom the packer packs
        whole) starts no region. ``lifted``: the definitions (by index) that fit only
        without the comment lines above them, and where they start without them: a
        nested one starts no region, and a top-level one starts its region there, so
        that the comments can go with the chunk before."""
        starts = [0]
        prefixes = _STATEMENT_COMMENTS.get(structure.language, _SLASH_COMMENTS)
        lifted_at: dict[int, int] = {}  # a top-level definition's start -> its start without its comments
        if lifted:
            defs = structure.definitions
            # (also one in a namespace, after its first member: the namespace's members are
            # its top-level items; its first member stays with the namespace's header)
            items = [s for s, _e, kind in structure.top if kind != "comment"]
            for i, p in lifted.items():
                d = defs[i]
                if d.parent >= 0:
                    c = defs[d.parent]
                    if not c.container:
                        continue
                    k = bisect_right(items, c.start)
                    if not (k < len(items) and items[k] < d.start):
                        continue
                lifted_at[d.start] = _line_start(text, p)
        if fits is not None:
            defs = structure.definitions
            for i, d in enumerate(defs):
                if d.container or (trimmed and i in trimmed) or (lifted and i in lifted) or fits(d.start, d.end):
                    continue
                if wide is not None:
                    p = d.parent
                    while p >= 0 and (defs[p].container or not wide(defs[p].start, defs[p].end)):
                        p = defs[p].parent
                    if p >= 0:
                        continue  # (inside a definition packed whole)
                ls = _line_start(text, d.start)
                if text[ls : d.start].strip() or (d.parent < 0 and ls == d.start):
                    continue  # (one that does not start its line; a top-level one: a region already)
                # the first item of the definition around it starts no region: its chunk
                # starts at that header (no chunk of a header alone)
                if d.parent < 0:
                    he = -1
                elif header_ends is not None and d.parent in header_ends:
                    he = header_ends[d.parent]
                else:
                    he = _header_end(text, defs[d.parent], _comment_line(structure))
                if not (0 <= he <= ls and not text[he:ls].strip()) and not (
                    # (nor the first item of a block that is no definition, a line ending
                    # with "{" above it: JavaScript's "{" or "(function () {" around the code)
                    d.parent < 0 and structure.language != "python" and text[:ls].rstrip().endswith("{")
                ):
                    starts.append(ls)
                # (after the comment that ends its last line: "} // end f")
                e = d.end if structure.language == "python" else _tail_end(text, d.end, structure.language, True)
                q = e
                while q < n and text[q].isspace():
                    q += 1
                stop = defs[d.parent].end if d.parent >= 0 else n
                # (not before the closing brace of the class around it alone)
                if q < n and ("\n" in text[e:q] or "\r" in text[e:q]) and any(
                    text[k].isalnum() for k in range(q, stop)
                ):
                    starts.append(_after_comments(text, _line_start(text, q), defs, d.parent, fits, prefixes))
        pending = -1
        prev = ""
        prev_at = prev_end = -1
        top = structure.top
        for i, (s, e, kind) in enumerate(top):
            if kind == "comment":
                if (
                    pending < 0
                    and prev == "definition"
                    and fits is not None
                    and _line_breaks(text[prev_end:s]) == 1
                    and (i + 1 == len(top) or _line_breaks(text[e : top[i + 1][0]]) > 1)
                    and fits(prev_at, e)
                ):
                    # comment lines right after a definition's last line, apart from what
                    # follows: they go with that definition when both fit
                    prev_end = e
                    continue
                if pending < 0:
                    pending = s
                continue
            if text and text[s] in ";," and not text[s:e].strip(" \t\r\n;,"):
                continue  # a lone ";" or ",": it ends the item before it
            at = pending if pending >= 0 else s
            if kind == "definition" and prev and fits is not None:
                if lifted_at and s in lifted_at:
                    at = lifted_at[s]  # (the comments above it go with the region before)
                elif at < s and not fits(at, e):
                    at = s  # (so do comment lines apart from it that do not fit with it)
            # a region starts only where its item starts a line (minified code: the items
            # of one line are packed together)
            if (kind == "definition" or prev == "definition") and (
                not text or _at_line_start(text, at) >= 0
            ):
                starts.append(at)
            prev = kind
            prev_at, prev_end = at, e
            pending = -1
        if structure.containers and text:
            starts = CodeChunker._container_starts(structure, starts, n, text, fits)
        starts = sorted(set(p for p in starts if 0 <= p <= n))
        if fits is not None and len(starts) > 2:
            # a region of comment lines only, between two others (a note between two
            # nested definitions too big for a chunk): it goes with the region before,
            # whose last chunk takes it where it fits
            last = len(starts) - 1
            starts = [
                p for k, p in enumerate(starts)
                # (a region that begins with code on its first line, at once)
                if k == 0 or k == last or (not text[p].isspace() and not text.startswith(prefixes, p))
                or not _only_comments(text, p, starts[k + 1], prefixes)
            ]
            if structure.language == "cpp" and len(starts) > 2:
                # a region of an access specifier (``public:``) and comment lines only: it
                # goes with the definition after it where they fit together, else with the
                # region before
                starts = _join_specifiers(text, starts, structure.definitions, fits, prefixes)
        regions = []
        for i, s in enumerate(starts):
            e = starts[i + 1] if i + 1 < len(starts) else n
            if e > s:
                regions.append(_region(s, e, "definition" if i + 1 < len(starts) else "end"))
        return tuple(regions)

    def _join_small(self, structure: CodeStructure, text: str, regions: Sequence[Region],
                    measure: Measure, closers: bool = False) -> tuple[Region, ...]:
        """``regions`` with each small one (under ``min_chunk_size``, else under a quarter
        of ``chunk_size - chunk_overlap``) joined with its neighbours, left to right: with
        the region before when the two fit together, else with the region after when they
        fit together. A small region that holds no definition's header (``};``,
        ``#endif``, ``#undef X``, a closing ``}``, ``#ifndef X``) also joins a region too
        big for a chunk next to it, the one before first: it goes with that region's last
        (first) chunk where it fits. Two regions that are not small are never joined (each
        starts a chunk), nor a small definition and a region too big for a chunk. With the
        context counted in the size, the larger reserve of the two counts.

        ``closers`` (``merge_small_definitions=False``, the default): every definition
        still starts a chunk; only a small region of closing lines (``}``, ``};``, ``)``,
        ``#endif``, ``#undef X``, ``#else``, each perhaps with a comment after it) joins
        the region before, where the two fit or that region is too big for a chunk (its
        last chunk), and a small region of opening preprocessor lines (``#ifndef X``,
        ``#define X``) joins a region too big for a chunk after it (its first chunk)."""
        limit = self.chunk_size - self.chunk_overlap
        small = self.min_chunk_size or limit // 4
        if small <= 0:
            return tuple(regions)
        chars = type(measure) is _CharMeasure
        size = measure.size
        heads = sorted(d.head for d in structure.definitions if not d.container)

        def span(s: int, e: int) -> tuple[int, int]:
            # (trimmed as the packer trims a region; measured from its first line's start)
            p = s
            while p < e and text[p].isspace():
                p += 1
            return max(s, _line_start(text, p)), _rstrip_pos(text, p, e)

        def measured(a: int, b: int) -> int:
            return b - a if chars else (size(a, b) if b > a else 0)

        out: list[list[Any]] = []  # [start, end, reserve, end boundary, trimmed size]
        for r in regions:
            a, b = span(r.start, r.end)
            n = measured(a, b)
            if closers and out:
                p = out[-1]
                plain = n < small and bisect_left(heads, r.start) == bisect_left(heads, r.end)
                if plain or (p[4] < small and n + r.reserve > limit):
                    pa = span(p[0], p[1])[0]
                    reserve = max(p[2], r.reserve)
                    both = measured(pa, b) if b > pa else 0
                    if (
                        plain
                        and (p[4] + p[2] > limit or both + reserve <= limit)
                        and _CLOSING_LINES.fullmatch(text, a, b) is not None
                    ) or (
                        # (a small item without a definition before a region too big for
                        # a chunk, "#ifndef X": with its first chunk)
                        p[4] < small
                        and n + r.reserve > limit
                        and bisect_left(heads, p[0]) == bisect_left(heads, p[1])
                        and _OPENING_LINES.fullmatch(text, pa, _rstrip_pos(text, pa, p[1])) is not None
                    ):
                        p[1], p[2], p[3], p[4] = r.end, reserve, r.end_boundary, both
                        continue
                out.append([r.start, r.end, r.reserve, r.end_boundary, n])
                continue
            if closers:
                out.append([r.start, r.end, r.reserve, r.end_boundary, n])
                continue
            if out:
                p = out[-1]
                if p[4] < small or n < small:
                    pa = span(p[0], p[1])[0]
                    reserve = max(p[2], r.reserve)
                    both = measured(pa, b) if b > pa else 0
                    if both + reserve <= limit or (
                        # (a small item without a definition next to a region too big for
                        # a chunk: with its last chunk, else with its first)
                        n < small and p[4] + p[2] > limit and bisect_left(heads, r.start) == bisect_left(heads, r.end)
                    ) or (
                        p[4] < small and n + r.reserve > limit and bisect_left(heads, p[0]) == bisect_left(heads, p[1])
                    ):
                        p[1], p[2], p[3], p[4] = r.end, reserve, r.end_boundary, both
                        continue
            out.append([r.start, r.end, r.reserve, r.end_boundary, n])
        if len(out) == len(regions):
            return tuple(regions)
        joined = []
        for s, e, reserve, boundary, _n in out:
            region = Region(s, e, reserve, boundary, None, 0)
            if self.include_context_in_size:
                region = replace(region, reserve=self._reserve(structure, text, region))
            joined.append(region)
        return tuple(joined)

    @staticmethod
    def _container_starts(structure: CodeStructure, starts: list[int], n: int, text: str,
                          fits: Callable[[int, int], bool] | None) -> list[int]:
        """``starts`` with the namespaces' (:attr:`CodeStructure.containers`): one that
        fits is a region of its own, whole (nothing inside it starts one; the code after
        it starts one); one too big starts at its header the region of its first member
        (the header never ends the chunk before it)."""
        starts = sorted(set(starts))
        items = [s for s, _e, kind in structure.top if kind != "comment"]
        whole_end = -1
        for cs, ce in structure.containers:
            if cs < whole_end or _at_line_start(text, cs) < 0:
                continue  # (inside a namespace kept whole; one that does not start its line)
            if fits is not None and fits(cs, ce):
                whole_end = ce
                starts = [p for p in starts if not cs < p < ce]
                q = ce
                while q < n and text[q].isspace():
                    q += 1
                if q < n and ("\n" in text[ce:q] or "\r" in text[ce:q]):
                    starts.append(_line_start(text, q))
                    starts = [p for p in starts if not ce <= p < _line_start(text, q)]
            else:
                # the first member: the first item that starts after the header
                k = bisect_right(items, cs)
                first = items[k] if k < len(items) and items[k] < ce else ce
                starts = [p for p in starts if not cs < p <= first]
            starts.append(cs)
            starts.sort()
        return starts

    def pack_options(self) -> dict[str, Any]:
        return {
            "keep_indent": True,
            "indent_overlap": True,
            "min_chunk_size": self.min_chunk_size,
            "merge_small_regions": False,  # (the chunker joins small regions: _join_small)
        }

    # -- enrich ----------------------------------------------------------------------

    def context(self, metadata: Mapping[str, Any], span: Span) -> str:
        """Sets the chunk's code metadata; returns the signatures of the definitions the
        chunk continues (outermost first), after the file's imports when
        ``include_imports`` is set."""
        if not isinstance(metadata, dict):
            return ""
        info = metadata.pop("_code", None)
        if not isinstance(info, _Chunking):
            return ""
        st, text = info.structure, info.text
        metadata["language"] = st.language or None
        signatures = st.describe_into(metadata, text, span.start, span.end)
        if not self.include_imports and not self.include_context_in_size:
            return "\n".join(signatures)
        parts: list[str] = []
        if self.include_imports and st.imports:
            # (a chunk before the imports -- a licence, a module comment -- does not use them)
            if span.start >= st.imports[-1][1]:
                parts.append(st.imports_text(text))
        parts.extend(signatures)
        return self._fit(parts)

    # (it reads the span and the label it is given only: the enrichment pass may call it
    # when a chunk's metadata or context is first read, see :func:`chunkwise.enrich.build_chunks`)
    context.lazy = True  # type: ignore[attr-defined]

    def _fit(self, parts: list[str]) -> str:
        """The context of ``parts`` (imports, then signatures outermost first); when it is
        counted in the size, shortened from the front to at most half the budget."""
        if not self.include_context_in_size:
            return "\n".join(parts)
        half = (self.chunk_size - self.chunk_overlap) // 2
        count = self._sizer.count
        parts = list(parts)
        while parts:
            c = "\n".join(parts)
            if count(c + "\n") <= half:
                return c
            parts.pop(0)
        return ""

    def _reserve(self, st: CodeStructure, text: str, region: Region) -> int:
        """The most any chunk of ``region`` can spend on its context: the imports and the
        signatures of the definitions around it, as :meth:`_fit` shortens them."""
        defs = st.definitions
        head = [st.imports_text(text)] if self.include_imports and st.imports else []
        candidates = [head]
        for i, d in enumerate(defs):
            if d.start < region.end and d.end > region.start:
                chain = []
                k = i
                while k >= 0:
                    if defs[k].signature:
                        chain.append(defs[k].signature)
                    k = defs[k].parent
                chain.reverse()
                candidates.append(head + chain)
        count = self._sizer.count
        most = 0
        for parts in candidates:
            c = self._fit(parts)
            if c:
                most = max(most, count(c + "\n"))
        if most:  # a chunk may grow by the indentation of its first line (keep_indent)
            indents = _INDENT.findall(text, region.start, region.end)
            most += count(max(indents, key=len)) if indents else 0
        return max(0, min(most, self.chunk_size - self.chunk_overlap - 1))


def grammar_available_base() -> bool:
    """Whether the ``tree_sitter`` package itself is installed."""
    import importlib.util

    return importlib.util.find_spec("tree_sitter") is not None
