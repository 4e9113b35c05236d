"""Source code by syntax tree: definitions, statements and token boundaries with exact offsets.

:func:`parse_code` reads a source file with a tree-sitter grammar from PyPI
(``tree-sitter-python``, ``tree-sitter-typescript``, ...; see
:mod:`chunkwise.parsers.code_languages`) -- or, for Python without tree-sitter, with the
standard library's :mod:`ast` and :mod:`tokenize` -- and returns a
:class:`CodeStructure`: what the ``code`` strategy needs to cut a file where a reader would.

* definitions (functions, classes, methods, ...) with their leading comments, decorators
  and attributes, their qualified names (``Store.__init__``) and signatures;
* the top-level items in order (imports, constants, definitions), namespaces opened;
* statement cuts: between sibling statements (or members) that start a line, ranked by the
  indentation of the line they start (a class's methods before the statements inside
  them), with cuts next to a definition ranked above plain statement cuts;
* line cuts between tokens (never inside a multi-line string or comment) and token cuts
  (between two tokens on one line).

Nothing here knows sizes; all offsets are Python ``str`` indices (tree-sitter's byte
offsets are converted).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from ..errors import ChunkwiseError, ConfigError, MissingDependencyError
from .code_languages import LANGUAGES, LanguageSpec

__all__ = ["CodeStructure", "Definition", "grammar_available", "parse_code", "tree_sitter_parser"]

_NAME_TYPES = frozenset(
    {
        "identifier", "type_identifier", "constant", "name", "word", "simple_identifier", "field_identifier",
        "property_identifier", "namespace_identifier", "scope_resolution", "qualified_identifier",
        "object_reference", "user_type", "operator_name", "destructor_name",
    }
)
_BODY_TYPES = frozenset(
    {
        "block", "body", "class_body", "function_body", "enum_class_body", "declaration_list", "compound_statement",
        "field_declaration_list", "body_statement", "statement_block", "protocol_body", "enum_body",
        "interface_body", "enum_variant_list", "object_type", "statement_list",
    }
)
_BODY_ENDINGS = ("body", "block", "statements", "program", "module", "clause", "unit", "file")
_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function", "class", "class_expression"}
)
_CLAUSE = re.compile(r"(?:^|_)(?:clause|else|elif|elsif|except|catch|finally|rescue|ensure|when|case)(?:_|$)")
_NEEDS_BODY = frozenset({"struct_specifier", "union_specifier", "enum_specifier", "class_specifier"})
_ATTRIBUTE_LINE = re.compile(r"\s*(?:@|#\[|\[)")
# a line that is a comment only: "#" (not "#[" or "#!" attributes, nor a C preprocessor
# line) or "//"
_COMMENT_ONLY = re.compile(
    r"(?://|#(?![\[!]|(?:if|ifdef|ifndef|elif|else|endif|define|undef|include|pragma|line|error|warning)\b))"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"\r(?!\n)")
_INDENTATION = re.compile(r"[ \t\f\v]*")


class Definition(NamedTuple):
    """A named definition of the file (immutable; equal to another ``Definition`` with the
    same fields only).

    Attributes:
        start: where its group starts (leading comments, decorators, attributes).
        head: where its own text starts (the keyword or modifiers).
        end: where it ends (its last non-whitespace character + 1).
        name, qualname: its name and the dotted names of the definitions around it.
        node_type: the syntax node type (``"function_definition"``).
        signature: its header (``"class Store:"``, ``"    def load(self, path):"``), indented
            as in the file.
        parent: the index of the enclosing definition, -1 at top level.
        container: a namespace (its members count as top level; never kept whole).
    """

    # (a named tuple: built in about a quarter of the time of a frozen dataclass -- a file has one
    # per function; compared only with another Definition, and not ordered, as before)

    start: int
    head: int
    end: int
    name: str
    qualname: str
    node_type: str
    signature: str
    parent: int
    container: bool = False

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Definition:
            return tuple.__eq__(self, other)  # type: ignore[arg-type]
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = tuple.__hash__

    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__


@dataclass(frozen=True)
class CodeStructure:
    """What :func:`parse_code` found in one source text.

    Attributes:
        language: the canonical language name.
        parser: ``"scan"`` (Python read by indentation, no syntax tree), ``"tree-sitter"``,
            ``"ast"`` (Python's standard library) or ``"lines"`` (the text could not be
            parsed: only line cuts).
        has_errors: the parser recovered from syntax errors.
        definitions: in document order (a parent before its members).
        top: the top-level items after opening namespaces: ``(start, end, kind)`` with kind
            ``"definition"``, ``"statement"`` or ``"comment"``.
        items: the top-level items of the file as written (a namespace is one item).
        statements: ``(start, end, node_type)`` of every statement-like item that starts a
            line, at every depth, sorted by start (outer first).
        cuts: ``(a, b, indent, kind)``: a statement cut ends a piece at ``a`` and starts
            the next at ``b`` (``text[a:b]`` is whitespace); kind 0 next to a definition,
            1 between statements, 2 before a clause of a compound statement (``else``,
            ``except``, ``catch``).
        line_cuts, token_cuts: ``(a, b)`` between two tokens on different lines / one line.
        imports: ``(start, end)`` of the top-level imports.
        annotated: ``(start, head, end)`` of the statements that are no definitions (a
            field, a property, a local variable) whose annotations or attributes come on
            lines above their own text (Java's ``@Inject`` above ``private Foo foo;``): where
            the annotations start, where the statement's own text starts, and where the
            first line of that text ends (tree-sitter only).
        whole: ``(start, end)`` of the compound statements to keep whole (loops, ``if``,
            ``try``, ``with``, ``switch``; Bash's ``case``, subshells, groups and the pipes
            and lists around them) that fit a chunk (``keep`` of :func:`parse_code`) from
            the start of their line, or from their own start when code comes before them on
            it (Bash only: ``find . | while read f``); outermost only. Empty without
            ``keep``.
        declared: see the attribute below.
        containers: ``(start, end)`` of the namespaces whose members count as top level,
            outer first; ``start`` where the comments right above one start (not C's
            ``extern "C"`` blocks nor the preprocessor's ``#if`` blocks).
    """

    language: str
    parser: str
    has_errors: bool = False
    definitions: tuple[Definition, ...] = ()
    top: tuple[tuple[int, int, str], ...] = ()
    items: tuple[tuple[int, int], ...] = ()
    statements: tuple[tuple[int, int, str], ...] = ()
    cuts: tuple[tuple[int, int, int, int], ...] = ()
    line_cuts: tuple[tuple[int, int], ...] = ()
    token_cuts: tuple[tuple[int, int], ...] = ()
    imports: tuple[tuple[int, int], ...] = ()
    annotated: tuple[tuple[int, int, int], ...] = ()
    containers: tuple[tuple[int, int], ...] = ()
    whole: tuple[tuple[int, int], ...] = ()
    error_at: int = -1
    """Where the first syntax error tree-sitter reports starts (-1: none, or not known)."""
    declared: tuple[tuple[int, str], ...] = ()
    """``(where its name is, qualified name)`` of the functions and methods declared
    without a body (a C prototype, ``int getch();`` in a C++ class, a TypeScript
    interface's method), by where their name is: symbols, not
    definitions (nothing starts a chunk or is kept whole for them; tree-sitter only)."""
    lazy_tokens: Any = field(default=None, repr=False, compare=False)
    """A function ``(start, end) -> token cuts`` of a range, read on demand (tree-sitter:
    ``token_cuts`` is then empty)."""
    lazy_lines: Any = field(default=None, repr=False, compare=False)
    """A function ``(start, end) -> line cuts`` of a range, read on demand (tree-sitter:
    ``line_cuts`` is then empty)."""
    lazy_parts: Any = field(default=None, repr=False, compare=False)
    """A function ``(start, end) -> cuts`` inside the names that the token cuts keep whole
    (SQL's ``schema.func``), weaker than every token cut; None when there are none."""
    _index: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # -- per chunk ---------------------------------------------------------------------

    def described(self) -> CodeStructure:
        """A copy that holds only what :meth:`describe_into` and :meth:`imports_text` read
        (the definitions, the top-level items, the statements, the imports and the
        functions declared without a body): what a chunk whose metadata is computed when
        first read keeps alive -- not the cuts, nor a syntax tree that the lazy cuts read."""
        if self.parser == "lines":
            return self
        return replace(
            self, top=(), cuts=(), line_cuts=(), token_cuts=(), annotated=(), containers=(), whole=(),
            lazy_tokens=None, lazy_lines=None, lazy_parts=None, _index={},
        )

    def _prepare(self, text: str) -> dict[str, Any]:
        ix = self._index
        if "describe" not in ix:
            # line numbers: counted from the last chunk's end (chunks come in order), or
            # from a list of line starts when a carriage return can end a line
            lines = [0] + [m.end() for m in _LINE_BREAK.finditer(text)] if "\r" in text else None
            defs = self.definitions
            # symbols: the definitions that are not namespaces, by where their name is in
            # their header (else where their own text starts): a chunk that ends inside a
            # header, before the name, leaves the symbol to the chunk with the name
            named = sorted((_name_at(text, d), i) for i, d in enumerate(defs) if not d.container)
            heads = [h for h, _ in named]
            qualnames = [defs[i].qualname for _, i in named]
            if self.declared:  # (functions declared without a body: by where their name is too)
                both = sorted([*zip(heads, qualnames), *self.declared], key=lambda x: x[0])
                heads = [h for h, _ in both]
                qualnames = [q for _, q in both]
            # the statements by start, the outer first (the scan lists them in this order
            # already), as three lists
            st = self.statements if self.parser == "scan" else sorted(self.statements, key=lambda x: (x[0], -x[1]))
            ix["at"] = (0, 1)  # an offset and the line it is on (one value: replaced whole)
            ix["imports"] = "\n".join(text[s:e] for s, e in self.imports)
            # (last: a thread that finds it finds the keys above)
            ix["describe"] = (
                lines,
                heads,
                qualnames,
                [d.start for d in defs],
                [s for s, _ in self.items],
                self.items,
                list(map(_FIRST, st)),
                list(map(_SECOND, st)),
                list(map(_THIRD, st)),
            )
        return ix

    def describe(self, text: str, start: int, end: int) -> dict[str, Any]:
        """Metadata of the chunk ``text[start:end]``: ``start_line``/``end_line`` (1-based),
        ``symbols`` (qualified names of the definitions that begin in it, and of the
        functions declared in it without a body: :attr:`declared`), ``node_types``
        (of the outermost statements it holds whole, else of the statement it lies in),
        ``split_part`` (it does not hold whole top-level items), ``part_of`` (the
        innermost definition it is a part of, when split) and ``_signatures`` (the headers
        of the definitions it continues, outermost first)."""
        meta: dict[str, Any] = {}
        meta["_signatures"] = self.describe_into(meta, text, start, end)
        return meta

    def describe_into(self, meta: dict[str, Any], text: str, start: int, end: int) -> list[str]:
        """:meth:`describe`'s keys stored into ``meta`` (in the same order); returns the
        signatures instead of storing them. Chunks come in order: the line count goes on
        from the end of the chunk before."""
        ix = self._index
        if "describe" not in ix:
            ix = self._prepare(text)
        lines, heads, qualnames, def_starts, item_starts, items, starts, ends, types_of = ix["describe"]
        if lines is not None:
            first, last = bisect_right(lines, start), bisect_right(lines, max(start, end - 1))
        else:
            # (one value replaced whole: chunks described at once from two threads still
            # read a true offset and line)
            p, line = ix["at"]
            first = line + text.count("\n", p, start) if start >= p else line - text.count("\n", start, p)
            q = end - 1 if end - 1 > start else start
            last = first + text.count("\n", start, q)
            ix["at"] = (q, last)
        meta["start_line"] = first
        meta["end_line"] = last
        # a chunk may begin with the indentation of its first line: what it holds starts
        # at its first non-whitespace character
        if start < end and text[start] in " \t\f\v":
            start = _INDENTATION.match(text, start, end).end()  # type: ignore[union-attr]
        meta["symbols"] = qualnames[bisect_left(heads, start) : bisect_left(heads, end)]
        # node types: the outermost whole statements, else the innermost one around
        k = bisect_left(starts, start)
        hi = bisect_left(starts, end, k)
        types: list[str] = []
        while k < hi:
            e = ends[k]
            if e <= end:
                t = types_of[k]
                if t not in types:
                    types.append(t)
                k = bisect_left(starts, e, k + 1)  # (the statements inside it are not outermost)
            else:
                k += 1
        if not types:  # the last statement (in order) around the chunk
            for k in range(bisect_right(starts, start) - 1, -1, -1):
                if ends[k] >= end:
                    types.append(types_of[k])
                    break
        meta["node_types"] = types
        # split parts: a chunk starting or ending strictly inside a top-level item
        k = bisect_right(item_starts, start) - 1
        split = k >= 0 and item_starts[k] < start < items[k][1]
        if not split:
            k = bisect_right(item_starts, end, k if k > 0 else 0) - 1
            split = k >= 0 and item_starts[k] < end < items[k][1]
        meta["split_part"] = split
        # the definitions the chunk continues (starts inside) or leaves unfinished: the
        # last one starting before it, then its parents (definitions nest or are apart)
        defs = self.definitions
        cont = []
        k = bisect_left(def_starts, start) - 1
        while k >= 0:
            d = defs[k]
            if d.start < start < d.end:
                cont.append(k)
            k = d.parent
        if split:
            # the innermost around its start or end: the one starting last, named first (a
            # namespace only when no other is around); those around its start, then those
            # around its end (as :meth:`_enclosing` lists them), in one pass
            best = any_ = None
            for k in cont:
                d = defs[k]
                if any_ is None or d.start > any_.start:
                    any_ = d
                if not d.container and (best is None or d.start > best.start):
                    best = d
            k = bisect_left(def_starts, end) - 1
            while k >= 0:
                d = defs[k]
                if d.start < end < d.end:
                    if any_ is None or d.start > any_.start:
                        any_ = d
                    if not d.container and (best is None or d.start > best.start):
                        best = d
                k = d.parent
            if best is None:
                best = any_
            if best is not None:
                meta["part_of"] = best.qualname
        if not cont:
            return []
        # (a chunk cut between a definition's doc comment and its header holds the header;
        # the context leaves out the annotations on a header's line, "@Test func f()")
        return [
            _without_annotations(d.signature)
            for d in map(defs.__getitem__, reversed(cont))
            if d.signature and d.head < start
        ]

    def _enclosing(self, p: int, starts: list[int]) -> list[int]:
        """The definitions ``d`` with ``d.start < p < d.end``, innermost first: the last one
        starting before ``p``, then its parents (definitions nest or are apart)."""
        defs = self.definitions
        k = bisect_left(starts, p) - 1
        out = []
        while k >= 0:
            d = defs[k]
            if d.start < p < d.end:
                out.append(k)
            k = d.parent
        return out

    def imports_text(self, text: str) -> str:
        """The top-level imports, one per line."""
        return self._prepare(text)["imports"]


# -- the shared analysis --------------------------------------------------------------


_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)
_NAME_PART = re.compile(r"[^\s.<>]+")


def _name_at(text: str, d: Definition) -> int:
    """Where the name of definition ``d`` (its last part: ``Run`` of ``Client.Run``, ``b`` of
    ``a.b``, without template arguments) is in its header, else where its own text
    starts (a C ``typedef struct {...} name``)."""
    name = d.name
    if not name.isidentifier():
        lt = name.find("<")
        if lt > 0:
            name = name[:lt]
        parts = _NAME_PART.findall(name)
        if not parts:
            return d.head
        name = parts[-1]
    p = text.find(name, d.head, min(d.end, d.head + len(d.signature) + 1))
    return p if p >= 0 else d.head


class _Node:
    """A syntax node, as both parsers give it to the analysis."""

    __slots__ = ("type", "start", "end", "children", "name", "def_type", "head", "head_end", "container", "trivia",
                 "comment", "closed")

    def __init__(self, type: str, start: int, end: int) -> None:
        self.type = type
        self.start = start
        self.end = end
        self.children: list[_Node] = []
        self.name: str | None = None
        self.def_type = ""
        self.head = start
        self.head_end = -1
        self.container = False
        self.trivia = False
        self.comment = False
        self.closed = False  # not opened (it fits): its children are its inner definitions only


class _Group:
    __slots__ = ("start", "end", "node")

    def __init__(self, start: int, end: int, node: _Node | None) -> None:
        self.start = start
        self.end = end
        self.node = node


def _rstrip_pos(text: str, lo: int, p: int) -> int:
    while p > lo and text[p - 1].isspace():
        p -= 1
    return p


# what may end the line of a definition's last line after it: a ";" or "," (C++'s
# ``};`` after a method, ``},`` in a list), after the names a C ``typedef struct {...}``
# gives it (``} Name, *NamePtr;``, ``} *aConstraint;``)
_TAIL = re.compile(r"[ \t]*(?:[A-Za-z_*][\w \t,*\[\]]*)?[;,](?=[ \t]*(?:[\r\n]|\Z))")


# the same, or a comment that ends the line (after the ";" or "," if any), by how a line
# comment starts in the language: ``} // end for``, ``}; /* Foo */``, ``end # class``
_SLASH_TAIL = r"//[^\r\n]*|/\*(?:[^*\r\n]|\*(?!/))*\*/"
_TAIL_COMMENT = r"[ \t]*(?:(?:[A-Za-z_*][\w \t,*\[\]]*)?[;,][ \t]*)?(?:{})(?=[ \t]*(?:[\r\n]|\Z))"
_TAIL_SLASH = re.compile(_TAIL_COMMENT.format(_SLASH_TAIL))
_TAIL_COMMENTS: dict[str, re.Pattern[str]] = {
    **dict.fromkeys(
        ("javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp", "csharp", "kotlin", "swift"), _TAIL_SLASH
    ),
    "php": re.compile(_TAIL_COMMENT.format(_SLASH_TAIL + r"|#(?!\[)[^\r\n]*")),
    "ruby": re.compile(_TAIL_COMMENT.format(r"#[^\r\n]*")),
    "bash": re.compile(_TAIL_COMMENT.format(r"#[^\r\n]*")),
}


def _tail_end(text: str, e: int, language: str = "", comments: bool = False) -> int:
    """Where the ";" or "," that ends the line after ``e`` (a definition's end) ends,
    with the names before it: the definition goes with them (a chunk holds the line
    ``} Name;`` whole, never ``;`` alone); with ``language`` (not Python), where the
    comment that ends that line ends (``} // end for``: a chunk holds it with its line,
    never the comment alone); ``e`` when its line goes on otherwise. ``comments``: only
    a tail that ends with a comment (``} Name;`` alone is ``e``)."""
    if e >= len(text) or text[e] in "\r\n":
        return e  # (the line ends there: no tail; most definitions)
    m = None if comments else _TAIL.match(text, e)
    if m is not None:
        return m.end()
    pattern = _TAIL_COMMENTS.get(language) if language else None
    if pattern is None or (m := pattern.match(text, e)) is None:
        return e
    return _rstrip_pos(text, e, m.end())


def _at_line_start(text: str, p: int) -> int:
    """The start of ``p``'s line when only spaces and tabs come before ``p`` on it, else -1."""
    i = p
    while i > 0 and text[i - 1] in " \t\f\v":
        i -= 1
    return i if i == 0 or text[i - 1] in "\n\r" else -1


def _groups(text: str, children: list[_Node]) -> list[_Group]:
    """Children grouped: comments and attached nodes (decorators, attributes) go with the
    node right below them (no blank line between); a comment on the line where the node
    before it ends goes with that node."""
    out: list[_Group] = []
    pending = -1
    n = len(children)
    for i, c in enumerate(children):
        if c.trivia:
            if c.comment and pending < 0 and out and "\n" not in text[out[-1].end : c.start] and "\r" not in text[
                out[-1].end : c.start
            ]:
                out[-1].end = max(out[-1].end, c.end)
                continue
            if pending < 0:
                pending = c.start
            if i + 1 < n:
                gap = text[c.end : children[i + 1].start]
                if not c.comment or gap.count("\n") + gap.count("\r") - gap.count("\r\n") <= 1:
                    continue
            out.append(_Group(pending, c.end, None))
            pending = -1
        else:
            out.append(_Group(pending if pending >= 0 else c.start, c.end, c))
            pending = -1
    return out


def _signature(text: str, node: _Node) -> str:
    head, end = node.head, node.head_end
    if end <= head:
        nl = _LINE_BREAK.search(text, head, node.end)
        end = nl.start() if nl else node.end
    ls = _line_start(text, head)
    if text[ls:head].strip():
        ls = head
    lines = text[ls:end].rstrip().splitlines()
    while len(lines) > 1 and _ATTRIBUTE_LINE.match(lines[0]) and _after_inline_annotations(lines[0]) is None:
        lines.pop(0)  # (a line of annotations only; one with the header after them is the header)
    # not the comment lines between the header and the body's first statement ("def f():"
    # then "    # why"): the body starts after them in the syntax tree
    while len(lines) > 1:
        last = lines[-1].strip()
        if not last:
            lines.pop()
        elif _COMMENT_ONLY.match(last) and '"""' not in last and "'''" not in last:
            lines.pop()
        elif last.endswith("*/"):  # a block comment: from the line that opens it
            k = len(lines) - 1
            while k > 0 and "/*" not in lines[k]:
                k -= 1
            if k == 0 or not lines[k].lstrip().startswith("/*"):
                break
            del lines[k:]
        else:
            break
    sig = "\n".join(line.rstrip() for line in lines)
    return sig if len(sig) <= _SIGNATURE_MAX else _shorten(sig)


_SIGNATURE_MAX = 400
_ANNOTATION_NAME = re.compile(r"@[A-Za-z_][\w.:]*")
_CLOSING = {"(": ")", "[": "]"}


def _balanced(line: str, p: int) -> int:
    """The end of the bracketed text opening at ``line[p]`` (``(`` or ``[``, nested, strings
    skipped), or -1 when it does not close on the line."""
    stack: list[str] = []
    q = p
    n = len(line)
    while q < n:
        ch = line[q]
        if ch in "([":
            stack.append(_CLOSING[ch])
        elif ch in ")]":
            if not stack or stack.pop() != ch:
                return -1
            if not stack:
                return q + 1
        elif ch in "\"'":
            q += 1
            while q < n and line[q] != ch:
                q += 2 if line[q] == "\\" else 1
        q += 1
    return -1


def _without_annotations(signature: str) -> str:
    """``signature`` without the annotations that open its first line (see
    :func:`_after_inline_annotations`)."""
    if not _ATTRIBUTE_LINE.match(signature):
        return signature
    first, nl, rest = signature.partition("\n")
    own = _after_inline_annotations(first)
    return signature if own is None else own + nl + rest


def _after_inline_annotations(line: str) -> str | None:
    """A header line without the annotations, attributes or decorators that open it
    (``@Test func f()`` is ``func f()``, ``[Test] public void F()`` is ``public void F()``,
    ``#[inline] fn f()`` is ``fn f()``; the indentation kept), or None when nothing but
    them is on the line, or when what follows them does not start with a word (a
    computed name, ``[Symbol.iterator]() {``)."""
    indent = len(line) - len(line.lstrip())
    p = indent
    n = len(line)
    while p < n:
        if line[p] == "@":
            m = _ANNOTATION_NAME.match(line, p)
            if m is None:
                return None
            p = m.end()
            if p < n and line[p] == "(":
                p = _balanced(line, p)
                if p < 0:
                    return None
        elif line.startswith(("#[", "#!["), p) or line[p] == "[":
            p = _balanced(line, line.index("[", p))
            if p < 0:
                return None
        else:
            break
        while p < n and line[p] in " \t":
            p += 1
    if p == indent or p >= n or not (line[p].isalpha() or line[p] == "_"):
        return None
    return line[:indent] + line[p:]


def _char_class(ch: str) -> int:
    return 0 if ch.isspace() else 1 if ch.isalnum() or ch in "_$" else 2


def _shorten(sig: str) -> str:
    """A signature longer than :data:`_SIGNATURE_MAX` characters cut short, `` \u2026`` after
    it: at the last token boundary within the limit (a space, or between a word and a
    sign: ``user=None, gr`` ends ``user=None,``); inside a token only when the limit falls
    in the first one."""
    cut = _SIGNATURE_MAX
    a = _char_class(sig[cut - 1])
    b = _char_class(sig[cut])
    while cut > 0 and a == b and a:
        cut -= 1
        a, b = (_char_class(sig[cut - 1]) if cut else 0), a
    if not sig[:cut].strip():
        cut = _SIGNATURE_MAX
    return sig[:cut].rstrip() + " \u2026"


def _expand(nodes: list[_Node], text: str, opened: list[tuple[int, int]] | None = None) -> list[_Node]:
    """Top-level nodes with namespaces opened: a container gives its members (``opened``
    gets the span of each namespace, outer first: no ``extern "C"`` or ``#if`` block)."""
    out: list[_Node] = []
    for c in nodes:
        if not c.container:
            out.append(c)
            continue
        if (opened is not None and not c.type.startswith(("preproc", "linkage"))
                and any(k.type in _BODY_TYPES for k in c.children)):  # (not PHP's "namespace A;")
            opened.append((c.start, c.end))
        first_line_end = _LINE_BREAK.search(text, c.start, c.end)
        fle = first_line_end.start() if first_line_end else c.end
        for k in c.children:
            if k.container:
                out.extend(_expand([k], text, opened))
            elif k.type in _BODY_TYPES and k.children:
                out.extend(_expand(k.children, text, opened))
            elif k.start < fle and k.end <= fle:
                continue  # the container's own header (its name)
            else:
                out.append(k)
    return out


def _leaf_gaps(text: str, leaves: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Line cuts and token cuts: the gaps between consecutive tokens (``leaves``)."""
    line_cuts: list[tuple[int, int]] = []
    token_cuts: list[tuple[int, int]] = []
    leaves.sort()
    prev_end = -1
    for s, e in leaves:
        if s >= e:
            continue
        if prev_end > 0 and s >= prev_end:
            gap = text[prev_end:s]
            if not gap:
                if text[prev_end - 1] < "\x80" and text[s] < "\x80" and not _glued(
                    text, s, text[prev_end - 1], text[s]
                ):
                    token_cuts.append((s, s))
            elif gap.isspace():
                if "\n" in gap or "\r" in gap:
                    line_cuts.append((prev_end, s))
                else:
                    token_cuts.append((prev_end, s))
        prev_end = max(prev_end, e)
    return line_cuts, token_cuts


def _token_cut(text: str, prev: int, s: int) -> tuple[int, int] | None:
    """The cut between a token ending at ``prev`` and the next starting at ``s`` on the same
    line: the spaces between them, or the empty cut between two ASCII tokens that touch;
    None across a line break or between touching non-ASCII characters."""
    gap = text[prev:s]
    if not gap:
        a, b = text[prev - 1], text[s]
        return (s, s) if a < "\x80" and b < "\x80" and not _glued(text, prev, a, b) else None
    if gap.isspace() and "\n" not in gap and "\r" not in gap:
        return prev, s
    return None


def _glued(text: str, p: int, a: str, b: str) -> bool:
    """Whether the tokens that touch at ``p`` (``a`` before, ``b`` after) read as one: an
    annotation's or decorator's ``@`` and its name (``@Override``), the ``#[`` (``#![``)
    that opens an attribute and the name after it (``#[derive``), the ``[`` that opens a
    line of attributes and its name (C#'s ``[Test]``, ``[Test] [Category``)."""
    if a == "@":
        return b.isalpha() or b == "_"
    if a == "[" and (b.isalpha() or b == "_"):
        q = p - 1  # (the "[")
        if q > 0 and text[q - 1] == "#" or (q > 1 and text[q - 1] == "!" and text[q - 2] == "#"):
            return True
        while q > 0 and text[q - 1] in " \t":
            q -= 1
        return q == 0 or text[q - 1] in "\n\r]"
    if b == "[":
        return a == "#" or (a == "!" and p > 1 and text[p - 2] == "#")
    return a == "#" and b == "!" and text.startswith("[", p + 1)


_LINE_GAP = re.compile(r"[ \t\f\v]*(?:\r\n|\r|\n)\s*")
_BREAK_RUN = re.compile(r"[\r\n]\s*")
"""A line break and the whitespace after it: :data:`_LINE_GAP` without the spaces before
the break, found faster (the search skips to a line break instead of trying a match at
every character); :func:`_line_gaps` adds those spaces back."""
_LF_RUN = re.compile(r"\n\s*")
""":data:`_BREAK_RUN` for a text without a carriage return: its first character a
literal, found faster still."""


def _line_gaps(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of ``_LINE_GAP.finditer(text, start, end)``: each line break with the
    spaces and tabs before it (not before ``start`` or the gap before) and the whitespace
    after it (up to ``end``)."""
    out: list[tuple[int, int]] = []
    pos = start
    search = (_BREAK_RUN if text.find("\r", start, end) >= 0 else _LF_RUN).search
    while (m := search(text, pos, end)) is not None:
        a, b = m.span()
        while a > pos and text[a - 1] in " \t\f\v":
            a -= 1
        out.append((a, b))
        pos = b
    return out


def _line_cuts(text: str, opaque: Sequence[tuple[int, int]], closed: Sequence[tuple[int, int]] = ()) -> Any:
    """A function ``(start, end) -> cuts``: the line breaks ``(a, b)`` with ``start < a``
    and ``b < end``, outside the multi-line strings and comments ``opaque`` and the
    definitions left ``closed`` (atoms that fit, never cut: the search jumps over them),
    read from the text when asked (the packer asks only where a piece does not fit)."""
    # (the search jumps over a string or comment too, to its end, when that end is not
    # whitespace: then no line break run reaches past it, and the search from there
    # finds the line break runs that reading the lines inside one by one finds)
    dark = sorted([(s, e, e > 0 and not text[e - 1].isspace()) for s, e in opaque] + [(s, e, True) for s, e in closed])
    starts = [d[0] for d in dark]
    search = (_BREAK_RUN if "\r" in text else _LF_RUN).search

    def cuts(start: int, end: int) -> Iterator[tuple[int, int]]:
        pos = start
        while (m := search(text, pos, end)) is not None:
            # (the leftmost _LINE_GAP match: the spaces before the line break join it)
            a, b = m.span()
            while a > pos and text[a - 1] in " \t\f\v":
                a -= 1
            pos = b
            k = bisect_right(starts, a) - 1
            if k >= 0 and dark[k][0] < a < dark[k][1]:
                if dark[k][2]:
                    pos = max(b, dark[k][1])
                continue
            if b >= end:
                return
            if a > start:
                yield a, b

    return cuts


def _link_parents(defs: list[Definition]) -> None:
    """Sort ``defs`` in document order (outer first) and set each one's ``parent``, the
    index of the enclosing definition (-1 at the top), in place: definitions nest or lie
    apart, so the enclosing one is on a stack of the open ones."""
    defs.sort(key=lambda d: (d.start, -d.end))
    open_defs: list[int] = []
    for i, d in enumerate(defs):
        while open_defs and defs[open_defs[-1]].end <= d.start:
            open_defs.pop()
        parent = open_defs[-1] if open_defs else -1
        if parent != d.parent:
            defs[i] = d._replace(parent=parent)
        open_defs.append(i)


def _analyze(text: str, language: str, parser: str, root: _Node, leaves: list[tuple[int, int]] | None,
             has_errors: bool, import_types: frozenset[str], all_lists: bool = False,
             opaque: list[tuple[int, int]] | None = None, lazy_tokens: Any = None,
             closed: Sequence[tuple[int, int]] = (),
             annotated: Sequence[tuple[int, int, int]] = (),
             whole: Sequence[tuple[int, int]] = ()) -> CodeStructure:
    defs: list[Definition] = []
    cuts: dict[tuple[int, int], tuple[int, int]] = {}
    statements: list[tuple[int, int, str]] = []
    tab = 4
    stack: list[tuple[_Node, int, str]] = [(root, -1, "")]
    while stack:
        node, parent, prefix = stack.pop()
        if not node.children:
            continue
        if node.closed:  # a node that fits: the definitions inside it, no cuts or statements
            for c in node.children:
                name = c.name or ""
                qual = f"{prefix}.{name}" if prefix and name else (name or prefix)
                sig = _signature(text, c) if not (c.container and not name) else ""
                defs.append(Definition(c.start, c.head, c.end, name, qual, c.def_type or c.type, sig, parent,
                                       c.container))
                stack.append((c, len(defs) - 1, qual))
            continue
        groups = _groups(text, node.children)
        prev_def = False
        listing = all_lists or node is root or node.type in _BODY_TYPES or node.type.endswith(_BODY_ENDINGS)
        for gi, g in enumerate(groups):
            c = g.node
            is_def = c is not None and c.name is not None
            i = g.start  # (_at_line_start, inlined)
            while i > 0 and text[i - 1] in " \t\f\v":
                i -= 1
            ls = i if i == 0 or text[i - 1] in "\n\r" else -1
            if ls >= 0 and listing:
                statements.append((g.start, g.end, (c.def_type or c.type) if c is not None else "comment"))
            if ls >= 0 and g.start > 0:
                a = _rstrip_pos(text, 0, ls)
                # before the first child only past the node's own header ("{"): a cut at
                # the node's start is its parent's to make (or inside its group: a doc
                # comment above it)
                if a > 0 and (gi > 0 or a > node.start):
                    indent = len(text[ls : g.start].expandtabs(tab))
                    key = (a, g.start)
                    old = cuts.get(key)
                    if is_def or prev_def:
                        kind = 0
                    elif c is not None and _CLAUSE.search(c.type):
                        kind = 2
                    else:
                        kind = 1
                        if (c is not None and (c.type in _BODY_TYPES or c.type == "do_group") and node is not root
                                and not node.container):
                            # a body on a line of its own at the statement's indentation (Bash's
                            # "for x" then "do", C's "if (x)" then "{"): weaker than the cuts
                            # around the statement, as a body more indented would be
                            ns = _line_start(text, node.start)
                            outer = len(_INDENTATION.match(text, ns).group().expandtabs(tab))  # type: ignore[union-attr]
                            if indent <= outer:
                                indent = outer + 1
                    cuts[key] = (indent, min(kind, old[1]) if old else kind)
            prev_def = is_def
            if c is None:
                continue
            if is_def:
                name = c.name or ""
                qual = f"{prefix}.{name}" if prefix and name else (name or prefix)
                idx = len(defs)
                sig = _signature(text, c) if not (c.container and not name) else ""
                kind = c.def_type or c.type
                defs.append(Definition(g.start, c.head, c.end, name, qual, kind, sig, parent, c.container))
                stack.append((c, idx, qual))
            elif c.children:
                stack.append((c, parent, prefix))
    _link_parents(defs)
    opened: list[tuple[int, int]] = []
    top_nodes = _expand(root.children, text, opened)
    top: list[tuple[int, int, str]] = []
    for g in _groups(text, top_nodes):
        kind = "comment" if g.node is None else ("definition" if g.node.name is not None else "statement")
        top.append((g.start, g.end, kind))
    root_groups = _groups(text, root.children)
    items = [(g.start, g.end) for g in root_groups]
    if opened:  # (a namespace at the top starts with the comments right above it)
        group_of = {g.node.start: g.start for g in root_groups if g.node is not None and g.node.container}
        opened = [(group_of.get(a, a), b) for a, b in opened]
    imports = [(c.start, c.end) for c in top_nodes if c.type in import_types]
    lazy_lines = None
    if leaves is None:  # tree-sitter: lines from the text, tokens from the tree, when asked
        lazy_lines = _line_cuts(text, opaque or [], closed)
        line_cuts: list[tuple[int, int]] = []
        token_cuts: list[tuple[int, int]] = []
    else:
        line_cuts, token_cuts = _leaf_gaps(text, leaves)
    good_cuts = tuple(
        sorted((a, b, ind, flag) for (a, b), (ind, flag) in cuts.items() if a < b and text[a:b].isspace())
    )
    return CodeStructure(
        language=language,
        parser=parser,
        has_errors=has_errors,
        definitions=tuple(defs),
        top=tuple(top),
        items=tuple(items),
        statements=tuple(statements),
        cuts=good_cuts,
        line_cuts=tuple(line_cuts),
        token_cuts=tuple(token_cuts),
        imports=tuple(imports),
        annotated=tuple(annotated),
        containers=tuple(opened),
        whole=_outermost(whole) if whole else (),
        lazy_tokens=lazy_tokens,
        lazy_lines=lazy_lines,
    )


def _outermost(spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The spans of ``spans`` inside no other, in order."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans, key=lambda x: (x[0], -x[1])):
        if not out or e > out[-1][1]:
            out.append((s, e))
    return tuple(out)


# -- tree-sitter ----------------------------------------------------------------------

_PARSERS: dict[str, Any] = {}


def grammar_available(language: str) -> bool:
    """Whether tree-sitter and the grammar package of ``language`` are installed."""
    import importlib.util

    spec = LANGUAGES[language]
    return importlib.util.find_spec("tree_sitter") is not None and importlib.util.find_spec(spec.module) is not None


def tree_sitter_parser(language: str) -> Any:
    """A tree-sitter ``Parser`` for ``language`` (cached per process).

    Raises:
        MissingDependencyError: tree-sitter or the grammar package is not installed.
    """
    parser = _PARSERS.get(language)
    if parser is not None:
        return parser
    import importlib

    spec = LANGUAGES[language]
    try:
        import tree_sitter
    except ImportError:
        raise MissingDependencyError("tree-sitter", "code", f"code chunking of {language}") from None
    try:
        module = importlib.import_module(spec.module)
    except ImportError:
        raise MissingDependencyError(spec.package, "code", f"code chunking of {language}") from None
    try:
        parser = tree_sitter.Parser(tree_sitter.Language(getattr(module, spec.function)()))
    except (ValueError, TypeError, AttributeError) as exc:  # a grammar built for another tree-sitter
        raise ChunkwiseError(
            f"the grammar of {language} ({spec.package}) does not load with this tree-sitter ({exc}); "
            f"upgrade both: pip install -U tree-sitter {spec.package}"
        ) from exc
    _PARSERS[language] = parser
    return parser


class _Offsets:
    """UTF-8 byte offsets to ``str`` offsets."""

    def __init__(self, text: str, data: bytes) -> None:
        self.identity = len(data) == len(text)
        self.after: list[int] = []  # byte offset after each non-ASCII character
        self.extra: list[int] = []  # extra bytes up to and including it
        self.chars: list[int] = []  # the str offset of each non-ASCII character
        if not self.identity:
            total = 0
            for m in re.finditer(r"[^\x00-\x7f]", text):
                ch = m.group()
                n = len(ch.encode("utf-8", "surrogatepass")) - 1
                total += n
                self.after.append(m.start() + total + 1)
                self.extra.append(total)
                self.chars.append(m.start())

    def to_byte(self, c: int) -> int:
        """The UTF-8 offset of ``str`` offset ``c``."""
        if self.identity:
            return c
        k = bisect_left(self.chars, c) - 1
        return c + (self.extra[k] if k >= 0 else 0)

    def __call__(self, b: int) -> int:
        """The ``str`` offset of UTF-8 offset ``b``."""
        if self.identity:
            return b
        k = bisect_right(self.after, b) - 1
        c = b - (self.extra[k] if k >= 0 else 0)
        if k + 1 < len(self.chars) and c > self.chars[k + 1]:
            # a byte inside a character (tree-sitter reads the bytes of a lone surrogate,
            # not UTF-8, one by one): the character's start, not a place past it
            return self.chars[k + 1]
        return c


_OPAQUE: dict[str, bool] = {}
_SQL_NAMES = frozenset({"object_reference"})
# Bash's compound statements (and the pipes, lists and redirections around one): one that
# fits is kept whole (the packer evening out a short chunk next to it took the cuts
# between its lines)
_SHELL_COMPOUND = frozenset({
    "for_statement", "c_style_for_statement", "while_statement", "if_statement", "case_statement",
    "subshell", "compound_statement", "redirected_statement", "pipeline", "list",
})
# the other languages' compound statements (loops, conditionals, try, with, switch) -- by
# grammar: Python, C, C++, C#, Go, Java, JavaScript, TypeScript, Kotlin, PHP, Ruby, Rust,
# Swift: one that starts its line and fits is kept whole
_COMPOUND = frozenset({
    "for_statement", "while_statement", "do_statement", "if_statement", "switch_statement", "try_statement",
    "with_statement", "match_statement", "for_in_statement", "for_range_loop", "foreach_statement",
    "using_statement", "lock_statement", "fixed_statement", "checked_statement", "expression_switch_statement",
    "type_switch_statement", "select_statement", "enhanced_for_statement", "try_with_resources_statement",
    "synchronized_statement", "switch_expression", "do_while_statement", "if_expression", "when_expression",
    "try_expression", "for_expression", "while_expression", "loop_expression", "match_expression",
    "guard_statement", "repeat_while_statement", "if", "unless", "while", "until", "for", "case", "case_match",
    "begin",
})


def _is_opaque(t: str) -> bool:
    """Whether nodes of type ``t`` are read as one token (strings, comments, heredocs)."""
    v = _OPAQUE.get(t)
    if v is None:
        v = _OPAQUE[t] = ("comment" in t or "heredoc" in t or ("string" in t and "concatenated" not in t)
                          or t in ("regex", "regex_literal"))
    return v


def _node_text(data: bytes, node: Any) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


# what comes before the name of the object an SQL "CREATE" statement defines
_SQL_CREATE_HEAD = re.compile(
    r"(?i)\s*CREATE(?:\s+(?:OR\s+REPLACE|OR\s+ALTER|TEMP|TEMPORARY|UNLOGGED|GLOBAL|LOCAL|MATERIALIZED|RECURSIVE"
    r"|UNIQUE|CLUSTERED|NONCLUSTERED|CONCURRENTLY|CONSTRAINT|TRUSTED|PROCEDURAL|DEFINER\s*=\s*\S+"
    r"|ALGORITHM\s*=\s*\w+|SQL\s+SECURITY\s+\w+))*"
    r"\s+(?:TABLE|VIEW|FUNCTION|PROCEDURE|PROC|INDEX|TYPE|TRIGGER|SCHEMA|SEQUENCE|EXTENSION|DATABASE|ROLE|USER)"
    r"(?:\s+IF\s+NOT\s+EXISTS)?\s*"
)


def _name_of(node: Any, data: bytes) -> str | None:
    t = node.type
    n = node.child_by_field_name("name")
    if t == "type_declaration":  # Go: type T struct {...}
        for c in node.named_children:
            if c.type in ("type_spec", "type_alias"):
                n = c.child_by_field_name("name")
                break
    if t == "impl_item":
        n = node.child_by_field_name("type")
    if t.startswith("create_") and n is not None and n.type != "object_reference":
        # SQL: "CREATE TYPE cube (INTERNALLENGTH = ...)" names its properties "name" too;
        # the object created comes first
        ref = next((c for c in node.named_children if c.type == "object_reference"), None)
        if ref is not None and ref.start_byte < n.start_byte:
            n = ref
    if t == "companion_object" and n is None:
        return "Companion"
    if n is None:
        d = node.child_by_field_name("declarator")
        if d is not None and t == "function_definition":
            if node.has_error:
                d = _declarator_before_macro(node, d)
            elif (split := _split_declaration(node)) is not None:
                d = split
        n = _declarator_name(d, data, node.has_error)
    if n is None:
        n = next((c for c in node.named_children if c.type in _NAME_TYPES), None)
    if n is None:
        return None
    if node.has_error:
        # text the grammar could not read, over lines, before the name: the name is not
        # this definition's (C++'s "_GLIBCXX_BEGIN_NAMESPACE_VERSION" then a class read as
        # a function named "false")
        for ch in node.children:
            if ch.start_byte >= n.start_byte or ch.end_byte > n.start_byte:  # (or the node holding it)
                break
            if ch.type == "ERROR" and data.find(b"\n", ch.start_byte, ch.end_byte) >= 0:
                return None
    if t.startswith("create_") and node.has_error:
        # a statement the grammar misread ("CREATE OPERATOR CLASS c DEFAULT FOR TYPE t" as
        # "CREATE TYPE t"): a definition only when "CREATE ... KIND" comes before its name
        words = data[node.start_byte : n.start_byte].decode("utf-8", "replace")
        if not _SQL_CREATE_HEAD.fullmatch(words):
            return None
    name = _node_text(data, n).strip()
    name = name.replace("::", ".").replace("\\", ".")
    name = re.sub(r"\s+", " ", name)
    if t == "impl_item":
        name = re.sub(r"<.*>$", "", name)
    if t == "method_declaration":  # Go: func (t *T) M() -> T.M
        recv = node.child_by_field_name("receiver")
        if recv is not None:
            m = re.search(r"([A-Za-z_][A-Za-z_0-9]*)\s*(?:\[[^\]]*\])?\s*\)\s*$", _node_text(data, recv))
            if m:
                name = f"{m.group(1)}.{name}"
    return name or None


# a macro's name, by convention (``THROWS``, ``__NTH``, ``_GLIBCXX_NOEXCEPT``)
_MACRO_NAME = re.compile(r"_*[A-Z][A-Z0-9_]*")


def _declarator_before_macro(node: Any, d: Any) -> Any:
    """The declarator of a C++ function whose grammar read a macro after its parameters
    as the declarator (``~A() THROWS(E) {``, ``size() const _GLIBCXX_NOEXCEPT {``: the
    function's own declarator then lies in an ERROR node before the macro, ending on the
    macro's line): that one, else ``d`` (the declarator read)."""
    found = d
    for ch in node.children:
        if ch.start_byte >= d.start_byte:
            break
        if ch.type == "ERROR":
            f = next((x for x in ch.named_children if x.type == "function_declarator"), None)
            if f is not None and f.end_point[0] == d.start_point[0]:
                found = f
    return found


def _split_declaration(node: Any) -> Any:
    """The function declarator of the node before ``node`` when the grammar split one
    declaration or definition in two at a macro after its parameters (``void f(int e)
    const THROW2(A, B) {`` read as ``void f(int e) const`` missing its ``;``, then a
    function ``THROW2`` starting on that line), else None: that node has a syntax error
    and ends on the line where ``node`` starts, with no type before its declarator."""
    prev = node.prev_named_sibling
    if (prev is None or not prev.has_error or prev.end_point[0] != node.start_point[0]
            or node.child_by_field_name("type") is not None):
        return None
    x = prev  # (its last node, ending the declaration: "protected:\n  void f(int e) const" too)
    while x is not None and x.type != "function_declarator":
        x = x.named_children[-1] if x.named_child_count else None
    return x


def _declarator_name(d: Any, data: bytes, errors: bool = False) -> Any:
    """The node that names the C or C++ declarator ``d`` (the identifier inside pointer,
    reference and function declarators), or None. A declarator misread around a macro
    names its function by the macro call (``UNDEF(box)`` of ``int UNDEF(box)(WINDOW *w)``:
    a function declarator returning a function is no C) or by the name the macro wraps
    (``atoi`` of glibc's ``__NTH (atoi (const char *__nptr))``). ``errors``: the
    definition has a syntax error; a declarator read in an ERROR node before a macro
    (``*\n  _M_data() const _GLIBCXX_NOEXCEPT``) is the one that names it."""
    while d is not None and d.type not in _NAME_TYPES:
        if errors and d.has_error and d.type != "function_declarator":
            inner = d.child_by_field_name("declarator")
            if inner is not None and (f := _declarator_before_macro(d, inner)) is not inner:
                d = f
                continue
        if d.type == "function_declarator":
            inner = d.child_by_field_name("declarator")
            if inner is not None and inner.type == "function_declarator" and _macro_call(inner, data):
                return inner
            wrapped = _wrapped_name(d, inner, data)
            if wrapped is not None:
                return wrapped
        d = d.child_by_field_name("declarator") or next(
            (c for c in d.named_children if c.type in _NAME_TYPES or c.type.endswith("declarator")), None
        )
    return d


def _macro_call(d: Any, data: bytes) -> bool:
    """Whether the function declarator ``d`` is a macro's call: a macro's name and its
    arguments only (``UNDEF(box)``; not ``f (int) __THROW``)."""
    inner = d.child_by_field_name("declarator")
    return (d.named_child_count == 2 and inner is not None and inner.type in ("identifier", "field_identifier")
            and _MACRO_NAME.fullmatch(_node_text(data, inner)) is not None)


def _wrapped_name(d: Any, inner: Any, data: bytes) -> Any:
    """The name a macro wraps in the function declarator ``d`` (``__NTH (atoi (const char
    *__nptr))``, read as a function ``__NTH`` of one parameter of a function type
    ``atoi``), or None: a macro's name (``inner``) and one parameter, a type name and the
    parameter list after it only."""
    if inner is None or inner.type != "identifier" or not _MACRO_NAME.fullmatch(_node_text(data, inner)):
        return None
    params = d.child_by_field_name("parameters")
    if params is None or params.named_child_count != 1:
        return None
    kids = params.named_children[0].named_children
    if (params.named_children[0].type == "parameter_declaration" and len(kids) == 2
            and kids[0].type == "type_identifier" and kids[1].type == "abstract_function_declarator"):
        return kids[0]
    return None


def _body_of(node: Any) -> Any:
    body = node.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.named_children if c.type in _BODY_TYPES), None)
    return body


def _definition(node: Any, spec: LanguageSpec, data: bytes) -> tuple[str, Any, Any] | None:
    """``(name, definition node, body node)`` when ``node`` defines something."""
    t = node.type
    if t in ("lexical_declaration", "variable_declaration"):
        decls = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(decls) != 1:
            return None
        value = decls[0].child_by_field_name("value")
        if value is None or value.type not in _FUNCTION_VALUES:
            return None
        name = decls[0].child_by_field_name("name")
        return (_node_text(data, name) if name is not None else None) or None, node, _body_of(value)
    if t == "assignment_expression":  # CommonJS: exports.f = function () {...}
        value = node.child_by_field_name("right")
        if value is None or value.type not in _FUNCTION_VALUES:
            return None
        name = _exported_name(node.child_by_field_name("left"), value, data)
        return (name, node, _body_of(value)) if name else None
    if t in _NEEDS_BODY and node.child_by_field_name("body") is None:
        return None
    name = _name_of(node, data)
    if name is None:
        return None
    return name, node, _body_of(node)


# a property path: names joined by dots (``Foo.prototype.bar``, ``res.send``), spaces and
# line breaks around the dots allowed
_MEMBER_PATH = re.compile(r"[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)+")
_SPACES = re.compile(r"\s+")
# what a property path's name leaves out: the CommonJS export objects, ``this``
_PATH_PREFIX = re.compile(r"(?:module\.exports|exports|this)\.")


def _exported_name(left: Any, value: Any, data: bytes) -> str | None:
    """The name of a class or function ``value`` assigned to the property ``left``: the
    property path without the CommonJS export object (``exports.f`` and
    ``module.exports.f`` are ``f``, as ``const f = function g`` is named ``f``) or
    ``this`` (``this.f`` is ``f``), else the whole path (``Foo.prototype.bar``,
    ``res.send``); the value's own name for ``module.exports = class B``; None for any
    other assignment (to a variable, ``a[k]``, ``f().x``)."""
    if left is None or left.type != "member_expression":
        return None
    target = _node_text(data, left)
    if target == "module.exports":
        own = value.child_by_field_name("name")
        return _node_text(data, own) if own is not None else None
    if not _MEMBER_PATH.fullmatch(target):
        return None
    if "\n" in target or " " in target or "\t" in target or "\r" in target:
        target = _SPACES.sub("", target)
    m = _PATH_PREFIX.match(target)
    return target[m.end() :] if m is not None else target


# nodes that define something when tree-sitter recovers them inside an ERROR node
# (after a syntax error, "class A {...}" may be read as a class expression)
_RECOVERED_DEFS = frozenset({"class", "function_expression", "generator_function"})
# the nodes whose right side such a node may be after a syntax error ("const B = class {"
# read as an assignment, or as a default value of an object pattern)
_ASSIGNMENTS = frozenset({"assignment_expression", "object_assignment_pattern", "assignment_pattern"})


def _assigned_name(c: Any, data: bytes) -> str | None:
    """The name a class or function expression ``c`` is assigned to, when tree-sitter read
    its declaration inside an ERROR node as an assignment (``const B = class {`` after a
    syntax error): the last identifier of the node just before ``=`` on its line."""
    left = c.prev_named_sibling
    if left is None or left.end_point[0] != c.start_point[0]:
        return None
    if left.type == "member_expression":  # exports.B = class {
        left = left.child_by_field_name("property")
    while left is not None and left.type not in ("identifier", "property_identifier"):
        left = next((x for x in reversed(left.named_children)), None)
    return _node_text(data, left) if left is not None else None


# what may come before a class expression on its line for it to be a declaration
_ASSIGNMENT_HEAD = re.compile(
    r"[ \t\f\v]*(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[ \t]*=[ \t]*"
)


def _claim_line(text: str, k: _Node, node: _Node, owner: _Node | None, touched: list[_Node]) -> int:
    """A class or function expression ``k`` recovered on the right side of the assignment
    ``node`` (a child of ``owner``): when only ``const B =`` (or ``a.b =``) comes before it
    on its line, it starts at its line's start, as its declaration would, and becomes a
    child of ``owner`` in the assignment's place, with the comments right above it (the
    assignment keeps what comes before them: the text tree-sitter read into it after the
    syntax error). Returns where ``k`` starts."""
    ls = _line_start(text, k.start)
    if ls == k.start or not _ASSIGNMENT_HEAD.fullmatch(text, ls, k.start):
        return k.start
    ls = _INDENTATION.match(text, ls).end()  # type: ignore[union-attr]
    if ls == k.start:
        return k.start
    kids = node.children
    j = len(kids) - 1  # (k, the last child read)
    while j > 0 and kids[j - 1].start >= ls:  # the name and the keyword before "=": now k's
        j -= 1
    if j > 0 and kids[j - 1].end > ls:  # (a node read across that line: k stays as read)
        return k.start
    del kids[j:]
    k.start = k.head = ls
    if owner is None:
        kids.append(k)
        return ls
    moved = [k]
    while kids and kids[-1].comment:  # the comments right above it go with it
        moved.insert(0, kids.pop())
    if node.start >= moved[0].start:
        owner.children.remove(node)
    else:
        node.end = _rstrip_pos(text, node.start, moved[0].start)
    owner.children.extend(moved)
    touched.append(owner)
    return ls


# a class header alone in an ERROR node ("class Later {" read inside an object literal
# after a syntax error above it: "function f( {")
_CLASS_HEAD = re.compile(r"class[ \t]+([A-Za-z_$][\w$]*)(?:[ \t]+extends[ \t]+[^{}\n]*?)?[ \t]*\{")


def _recover_class_heads(text: str, root: _Node) -> None:
    """A class whose header tree-sitter read into an ERROR node (its members then read as
    the members of the node around it, an object literal, the first ones maybe in the
    ERROR node) becomes a class again: from that header to the end of the node around it
    when that node ends with a closing brace, the nodes after the header its members.
    In place."""
    work = [root]
    while work:
        node = work.pop()
        kids = node.children
        for j, c in enumerate(kids):
            if c.type != "ERROR" or c.name is not None or node is root:
                continue
            m = _CLASS_HEAD.match(text, c.start, c.end)
            if m is None or not text[node.start : node.end].rstrip().endswith("}"):
                continue
            k = _Node("class_declaration", c.start, _rstrip_pos(text, c.start, node.end))
            k.name = m.group(1)
            k.def_type = "class_declaration"
            k.head_end = m.end() - 1
            # (the first members may be read into the ERROR node, after the header)
            k.children = [x for x in c.children if x.start >= m.end()] + kids[j + 1 :]
            del kids[j:]
            kids.append(k)
            break
        work.extend(kids)


def _in_error(node: Any) -> bool:
    """Whether ``node`` lies inside an ERROR node."""
    while node is not None:
        if node.type == "ERROR":
            return True
        node = node.parent
    return False


def _mark(c: Any, k: _Node, spec: LanguageSpec, data: bytes, off: _Offsets, consumed: set[int],
          recovered: bool = False, assigned: Any = None) -> None:
    """Records on ``k`` what the syntax node ``c`` defines (a definition, itself or the one
    it wraps, or a container), if anything. ``recovered``: ``c`` is a node of
    ``_RECOVERED_DEFS`` inside an ERROR node, read as a definition; named, when it has no
    name, by ``assigned`` (a name read from the text before it: see :func:`_assigned_name`)."""
    t = c.type
    defs, wrappers = spec.definitions, spec.wrappers
    found = None
    if t in wrappers:
        for w in c.named_children:
            wt = w.type
            if wt in defs or wt == "assignment_expression":
                found = _definition(w, spec, data)
            elif wt in wrappers:
                inner = next((x for x in w.named_children if x.type in defs), None)
                found = _definition(inner, spec, data) if inner is not None else None
            if found is not None:
                if found[1].id in consumed:  # (read already, through the node it wraps)
                    found = None
                break
    elif (recovered or t in defs) and c.id not in consumed:
        found = _definition(c, spec, data)
        if found is None and assigned is not None:
            found = (assigned, c, _body_of(c))
    elif t in spec.containers:
        k.container = True
        if not t.startswith("preproc"):
            nm = c.child_by_field_name("name")
            if nm is not None:
                k.name = _node_text(data, nm).strip().replace("::", ".").replace("\\", ".")
        k.def_type = t
        k.head = k.start
        body = _body_of(c)
        k.head_end = off(body.start_byte) if body is not None else -1
    if found is not None:
        name, dnode, body = found
        consumed.add(dnode.id)
        k.name = name
        k.def_type = dnode.type
        k.head = off(dnode.start_byte)
        if spec.annotations:
            own = _after_annotations(dnode, spec.annotations)
            if own > dnode.start_byte:
                k.head = _own_line_head(data, off, dnode.start_byte, own, k.head)
        k.head_end = off(body.start_byte) if body is not None else -1


def _after_annotations(dnode: Any, annotations: frozenset[str]) -> int:
    """The byte offset where definition ``dnode``'s own text starts after the annotations
    its grammar reads inside it (``@Override``, ``[Test]``, ``#[Route]``, a decorator; in
    a ``modifiers`` node too, with the comments between them); its start when none
    comes first."""
    c = dnode.child(0)
    skipped = False
    while c is not None:
        t = c.type
        if t in annotations or (skipped and "comment" in t):
            skipped = True
        elif t == "modifiers" and c.child_count:
            m = c.child(0)
            while m is not None and (m.type in annotations or (skipped and "comment" in m.type)):
                skipped = skipped or m.type in annotations
                m = m.next_sibling
            if m is not None:
                return m.start_byte if skipped else dnode.start_byte
        else:
            return c.start_byte if skipped else dnode.start_byte
        c = c.next_sibling
    return dnode.start_byte


def _own_line_head(data: bytes, off: _Offsets, start: int, own: int, head: int) -> int:
    """The head of a definition starting at byte ``start`` whose own text starts at byte
    ``own``, after its annotations: the first non-blank character of ``own``'s line (an
    annotation on the header's line stays in the header), not before ``start``."""
    ls = max(data.rfind(b"\n", 0, own), data.rfind(b"\r", 0, own)) + 1
    if ls <= start:
        return head
    while data[ls : ls + 1] in (b" ", b"\t", b"\f", b"\v"):
        ls += 1
    return off(ls)


def _misread_annotation(c: Any, spec: LanguageSpec, marks: frozenset[str]) -> bool:
    """Whether ``c``, an ``annotated_expression``, is the annotations of the definition
    below it that the grammar read as a statement of their own (Kotlin's
    ``@JvmName("f")`` above the first function after the imports): annotations only
    (with their arguments read as a parenthesized expression), ending on a line above
    the next node, a definition. Several annotations are read as annotated expressions
    nested in each other (``@JvmOverloads`` then ``@JvmName("size")``: the second is the
    last child of the first), so only the outermost one is followed by the definition."""
    if not _annotations_only(c, spec):
        return False
    nxt = c.next_named_sibling
    while nxt is not None and "comment" in nxt.type:
        nxt = nxt.next_named_sibling
    return nxt is not None and nxt.type in marks and nxt.start_point[0] > c.end_point[0]


# Kotlin's class modifiers that the grammar reads as a name, with ``class`` as an infix
# function, after annotations on the lines above (``@Retention(...)`` then ``annotation
# class Marker``)
_KOTLIN_CLASS_WORDS = frozenset({"annotation", "data", "enum", "sealed", "inner", "value", "open", "abstract"})


def _kotlin_annotation_class(c: Any, k: _Node, data: bytes, off: _Offsets) -> None:
    """Names ``k`` after the class that the Kotlin grammar misread as annotations over an
    infix call (``@Target(...)`` then ``annotation class Marker``: ``annotation`` called
    ``class`` on ``Marker``): annotations nested as annotated expressions, the innermost
    holding ``WORD class NAME`` on a line below the first annotation."""
    node = c
    while node.type == "annotated_expression" and node.named_child_count >= 2:
        node = node.named_children[-1]
    if node.type != "infix_expression" or node.start_point[0] <= c.start_point[0]:
        return
    parts = node.named_children
    if len(parts) != 3 or any(p.type != "identifier" for p in parts):
        return
    words = [_node_text(data, p) for p in parts]
    if words[1] != "class" or words[0] not in _KOTLIN_CLASS_WORDS:
        return
    k.name = words[2]
    k.def_type = "class_declaration"
    k.head = _own_line_head(data, off, c.start_byte, node.start_byte, off(node.start_byte))
    k.head_end = -1


def _annotations_only(c: Any, spec: LanguageSpec) -> bool:
    """Whether the annotated expression ``c`` holds annotations only: an annotation first,
    then annotations nested as annotated expressions, their arguments read as a
    parenthesized expression, and comments."""
    kids = c.named_children
    if not kids or kids[0].type not in spec.annotations:
        return False
    for k in kids[1:]:
        if k.type == "annotated_expression":
            if not _annotations_only(k, spec):
                return False
        elif k.type != "parenthesized_expression" and "comment" not in k.type:
            return False
    return True


def _line_start(text: str, p: int) -> int:
    """The start of ``p``'s line (after the last ``\n`` or ``\r`` before it)."""
    n = text.rfind("\n", 0, p)
    # a carriage return after that line feed, if any (not searched back to the file's start)
    r = text.rfind("\r", n + 1, p)
    return (r if r > n else n) + 1


_QUERIES: dict[str, Any] = {}


def _definition_query(spec: LanguageSpec, language: Any) -> Any:
    """A query for every node that may define something (definitions, wrappers,
    containers), cached per language."""
    q = _QUERIES.get(spec.name)
    if q is None:
        import tree_sitter

        kinds = sorted(
            t for t in spec.definitions | spec.wrappers | spec.containers if language.id_for_node_kind(t, True)
        )
        q = _QUERIES[spec.name] = tree_sitter.Query(language, "[" + " ".join(f"({t})" for t in kinds) + "] @d")
    return q


def _inner_definitions(closed: list[tuple[Any, _Node]], spec: LanguageSpec, data: bytes, text: str, off: _Offsets,
                       consumed: set[int], rootts: Any, language: Any) -> None:
    """The definitions inside the nodes left closed, found by one tree-sitter query (in C)
    rather than a walk: each becomes a child of the innermost one around it."""
    import tree_sitter

    query = _definition_query(spec, language)
    cursor = tree_sitter.QueryCursor(query)
    found = sorted(cursor.captures(rootts).get("d", ()), key=lambda n: (n.start_byte, -n.end_byte))
    starts = [n.start_byte for n in found]
    for c, k in closed:
        lo, hi = c.start_byte, c.end_byte
        chain: list[tuple[_Node, int]] = [(k, hi)]
        for i in range(bisect_left(starts, lo), bisect_left(starts, hi)):
            n = found[i]
            if n.end_byte > hi or n.id == c.id or n.id in consumed:
                continue
            s, e = off(n.start_byte), off(n.end_byte)
            inner = _Node(n.type, s, _rstrip_pos(text, s, e))
            _mark(n, inner, spec, data, off, consumed)
            if inner.name is None:  # (a container without a name, "#ifdef", defines nothing)
                continue
            inner.closed = True
            while chain[-1][1] <= n.start_byte:
                chain.pop()
            chain[-1][0].children.append(inner)
            chain.append((inner, n.end_byte))


def _merge_error_runs(children: list[_Node], errors: list[tuple[int, int]]) -> list[_Node]:
    """The top-level nodes with each run of the nodes of an ERROR node opened in place that
    define nothing (between the definitions recovered in it) made one ``ERROR`` node; the
    first run starts where the ERROR node starts."""
    spans: list[tuple[int, int]] = []
    for a, b in sorted(errors):  # the outermost ones
        if not spans or a >= spans[-1][1]:
            spans.append((a, b))
    starts = [a for a, _b in spans]
    out: list[_Node] = []
    run: _Node | None = None
    run_span = -1
    for k in children:
        i = bisect_right(starts, k.start) - 1
        inside = i >= 0 and k.end <= spans[i][1]
        if not inside or k.name is not None or k.container or k.trivia:
            run = None
            out.append(k)
            if inside:
                run_span = i
            continue
        if run is None:
            # (the first run from the ERROR node's start, unless a comment is there)
            first = run_span != i and (not out or out[-1].end <= spans[i][0])
            run = _Node("ERROR", spans[i][0] if first else k.start, k.end)
            run_span = i
            out.append(run)
        run.end = k.end
        run.children.append(k)
    return out


_SQL_DOLLAR = re.compile(r"\$(?:[A-Za-z_\u0080-\U0010ffff][\w\u0080-\U0010ffff]*)?\$")
_SQL_SPECIAL = re.compile(r"[;()'\"$]|--|/\*")


def _sql_statement_ends(text: str, start: int, end: int) -> list[int]:
    """Where the SQL statements of ``text[start:end]`` end: after each ``;`` at the top
    (outside strings, quoted names, dollar quotes, comments and parentheses, as psql reads
    a script), none at ``end``."""
    out: list[int] = []
    depth = 0
    p = start
    search = _SQL_SPECIAL.search
    while (m := search(text, p, end)) is not None:
        tok = m.group()
        p = m.end()
        if tok == ";":
            if depth == 0 and _rstrip_pos(text, start, end) > p:
                out.append(p)
        elif tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif tok == "--":
            q = _LINE_BREAK.search(text, p, end)
            p = q.end() if q else end
        elif tok == "/*":  # (nested, as PostgreSQL reads them)
            nest = 1
            while nest and p < end:
                a, b = text.find("/*", p, end), text.find("*/", p, end)
                if b < 0:
                    p = end
                elif 0 <= a < b:
                    nest, p = nest + 1, a + 2
                else:
                    nest, p = nest - 1, b + 2
        elif tok == "$":
            d = _SQL_DOLLAR.match(text, m.start(), end)
            if d is not None and not (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")):
                q = text.find(d.group(), d.end(), end)
                p = q + len(d.group()) if q >= 0 else end
        else:  # a string or a quoted name: a doubled quote inside it is one quote
            while True:
                q = text.find(tok, p, end)
                if q < 0:
                    p = end
                    break
                if text.startswith(tok, q + 1):
                    p = q + 2
                    continue
                p = q + 1
                break
    return out


def _sql_statements(text: str, ts_node: Any, ends: list[int], spec: LanguageSpec) -> list[_Node]:
    """The statements of a node that the SQL grammar misread across ``;`` (``CREATE
    OPERATOR CLASS`` read as the start of the ``CREATE FUNCTION`` after it), each read by
    the grammar on its own: a definition where it is one, else a statement. The comment
    lines that open a statement are nodes of their own (they go with it). Its
    ``ts_node``'s bounds in ``text``: from the first to the last of the nodes."""
    parser = tree_sitter_parser(spec.name)
    start, end = ts_node[0], ts_node[1]
    out: list[_Node] = []
    bounds = [start, *ends, end]
    for a, b in zip(bounds, bounds[1:]):
        b = _rstrip_pos(text, a, b)
        while a < b:  # (the blank lines and comment lines that open it)
            while a < b and text[a].isspace():
                a += 1
            if text.startswith("--", a):
                q = _LINE_BREAK.search(text, a, b)
                ce = q.start() if q else b
            elif text.startswith("/*", a) and (q2 := text.find("*/", a + 2, b)) >= 0:
                ce = q2 + 2
            else:
                break
            k = _Node("comment", a, _rstrip_pos(text, a, ce))
            k.trivia = k.comment = True
            out.append(k)
            a = ce
        if a >= b:
            continue
        piece = text[a:b]
        data = piece.encode("utf-8", "surrogatepass")
        root = parser.parse(data).root_node
        poff = _Offsets(piece, data)
        k = _Node("statement", a, b)
        first = next((c for c in root.named_children if "comment" not in c.type and c.type != "marginalia"), None)
        if first is not None:
            k.type = first.type if len(root.named_children) == 1 else "ERROR"
            _mark(first, k, spec, data, lambda x, a=a, poff=poff: a + poff(x), set())
            if k.name is not None and k.container:
                k.name = None
        out.append(k)
    return out


def _first_child_ending_after(node: Any, byte: int) -> Any:
    """The first child of ``node`` that ends after ``byte``, or None: a binary search over
    the children, whose ends never decrease. (The tree-sitter library's own
    ``first_child_for_byte`` faults -- a segmentation fault, tree-sitter 0.26 -- on an ERROR
    node when ``byte`` falls in text that none of its children holds, text skipped in error
    recovery: C# or SQL read from prose. Nor is the cursor's ``goto_first_child_for_byte``
    used: it finds no child there.)"""
    lo, hi = 0, node.child_count
    while lo < hi:
        mid = (lo + hi) // 2
        if node.child(mid).end_byte > byte:
            hi = mid
        else:
            lo = mid + 1
    return node.child(lo) if lo < node.child_count else None


def _from_tree_sitter(text: str, spec: LanguageSpec, fits: Any = None, keep: Any = None) -> CodeStructure:
    parser = tree_sitter_parser(spec.name)
    data = text.encode("utf-8", "surrogatepass")
    tree = parser.parse(data)
    off = _Offsets(text, data)
    ident = off.identity
    rootts = tree.root_node
    root = _Node(rootts.type, 0, len(text))
    attached = spec.attached
    consumed: set[int] = set()
    closed: list[tuple[Any, _Node]] = []  # nodes that fit, left closed
    one_line: list[tuple[Any, _Node]] = []  # definitions on one line that fit (not opened)
    errors: list[tuple[int, int]] = []  # ERROR nodes at the top, opened in place
    opaque: list[tuple[int, int]] = []  # multi-line strings and comments
    touched: list[_Node] = [root]
    owners: dict[int, _Node] = {}  # the node each opened assignment is a child of
    annotations = spec.annotations
    annotated: list[tuple[int, int, int]] = []  # fields with their annotations above them
    stack: list[tuple[Any, _Node]] = [(rootts, root)]
    # only nodes over several lines are opened: a node on one line holds no statement that
    # starts a line (its tokens are read when a line must be cut, see lazy_tokens)
    marks = spec.definitions | spec.wrappers | spec.containers
    find = data.find
    sql = spec.name == "sql"
    shell = spec.name == "bash"
    compound = None if keep is None or sql else _SHELL_COMPOUND if shell else _COMPOUND
    whole: list[tuple[int, int]] = []  # the compound statements that fit
    trimmed: list[tuple[int, int]] = []  # those kept whole without their trailing comment lines
    indented = spec.name == "python"
    dark_types = _OPAQUE
    while stack:
        ts_node, node = stack.pop()
        lead = -1  # where the comments and attached nodes right before ``c`` start
        for c in ts_node.children:
            if not c.is_named:  # punctuation and keywords, unless one with children
                if c.child_count and find(b"\n", c.start_byte, c.end_byte) >= 0 and not _is_opaque(c.type):
                    stack.append((c, node))  # an anonymous node with children: open it in place
                    touched.append(node)
                continue
            sb, eb = c.start_byte, c.end_byte
            if eb <= sb:
                continue
            s, e = (sb, eb) if ident else (off(sb), off(eb))
            t = c.type
            multi = find(b"\n", sb, eb) >= 0
            if sql and node is root and multi and t != "ERROR" and c.has_error and (
                ends := _sql_statement_ends(text, s, e)
            ):
                # a node the grammar read across the end of a statement: each statement on
                # its own (no name is given to the text of another statement)
                node.children.extend(_sql_statements(text, (s, e), ends, spec))
                lead = -1
                continue
            if t == "ERROR" and node is root and multi:
                # a syntax error at the top: what tree-sitter recovered in it are top-level
                # items (a definition after the error starts its own chunk)
                stack.append((c, node))
                errors.append((off(sb), off(eb)))
                continue
            dark = dark_types.get(t)
            if dark is None:
                dark = _is_opaque(t)
            k = _Node(t, s, e if not text[e - 1].isspace() else _rstrip_pos(text, s, e))
            node.children.append(k)
            if dark:
                if "comment" in t:
                    k.trivia = k.comment = True
                    if lead < 0:
                        lead = s
                if multi:
                    # (a string or comment over several lines, Bash's quoted arguments and
                    # here-documents too: its line breaks are cut before the tokens of a
                    # line, after the line breaks of the code around it)
                    opaque.append((s, e))
                continue
            if t in attached or (t == "annotated_expression" and _misread_annotation(c, spec, marks)):
                k.trivia = True
            group = lead if lead >= 0 else s
            lead = group if k.trivia else -1
            if not c.child_count:
                continue
            if t in marks:
                _mark(c, k, spec, data, off, consumed)
            elif t == "annotated_expression" and multi and spec.name == "kotlin" and ts_node.type != t:
                _kotlin_annotation_class(c, k, data, off)
            elif t in _RECOVERED_DEFS and ts_node.type == "ERROR":
                _mark(c, k, spec, data, off, consumed, recovered=True)
            elif (t in _RECOVERED_DEFS and ts_node.type in _ASSIGNMENTS and ts_node.id not in consumed
                  and _in_error(ts_node)):
                # after a syntax error, "const B = class {" may be read as an assignment
                # whose right side is a class expression: the class is a definition, from
                # the start of its line when only "const B =" comes before it there
                _mark(c, k, spec, data, off, consumed, recovered=True, assigned=_assigned_name(c, data))
                if k.name is not None:
                    group = _claim_line(text, k, node, owners.get(id(node)), touched)
            if multi and annotations and k.name is None and node.name is None and not k.trivia and t != "modifiers":
                # a field (a property, a local variable) with its annotations on the lines
                # above it: no definition, but kept with them as a definition with its
                # decorators is
                first = c.child(0)
                if first.type == "modifiers" and first.child_count:
                    first = first.child(0)
                if first.type in annotations:
                    own = _after_annotations(c, annotations)
                    if own > sb:
                        head = _own_line_head(data, off, sb, own, s)
                        if head > s:
                            m = _LINE_BREAK.search(text, head, k.end)
                            annotated.append((s, head, _rstrip_pos(text, head, m.start()) if m else k.end))
            if multi:
                # a definition that fits with the comments above it is an atom: the packer
                # never cuts inside it, so nothing inside it but its definitions is read
                # (with the ";" that ends its last line: C++'s ``};``, C's ``} Name;``)
                if (
                    fits is not None and k.name is not None and not k.container
                    and fits(_line_start(text, group), _tail_end(text, e, spec.name))
                ):
                    k.closed = True
                    closed.append((c, k))
                else:
                    if compound is not None and t in compound:
                        # (a compound statement that fits: kept whole, as a definition is;
                        # not Bash's function body, cut from its header only where the
                        # function does not fit; a Bash loop after a pipe or "||" on its
                        # line, from its own start)
                        ls = _at_line_start(text, s)
                        if ls < 0 and shell:
                            ls = s
                        # (with the comment or ";" that ends its last line: ``} // end for``)
                        tail = _tail_end(text, k.end, spec.name)
                        if ls >= 0 and (not shell or node.name is None) and not (
                            trimmed and any(a <= s < b for a, b in trimmed)
                        ):
                            if keep(ls, tail):
                                whole.append((s, tail))
                            elif indented and (ce := _code_end_ts(c, text, off)) < k.end and keep(ls, ce):
                                # (Python: one that fits without the comment lines after
                                # its last line of code, indented into its block: kept
                                # whole without them, as a definition is)
                                whole.append((s, ce))
                                trimmed.append((s, ce))
                    stack.append((c, k))
                    if t in _ASSIGNMENTS:
                        owners[id(k)] = node
            elif k.name is not None and not k.container:
                # a definition on one line ("class A { m() {} }"): its inner definitions, as
                # for one left closed (it holds no statement that starts a line); one that
                # does not fit is cut between tokens, its inner definitions kept whole
                one_line.append((c, k))
    if closed or one_line:
        for _c, k in one_line:
            k.closed = True
        _inner_definitions(closed + one_line, spec, data, text, off, consumed, rootts, tree.language)
    for node in touched:
        node.children.sort(key=lambda n: n.start)
    if rootts.has_error and "class_declaration" in spec.definitions:
        _recover_class_heads(text, root)
    if errors:
        root.children = _merge_error_runs(root.children, errors)
    opaque.sort()

    closed_ids = {c.id for c, _k in closed}
    # (one token: SQL's qualified names, "schema.func", cut only where nothing else fits)
    whole_names = _SQL_NAMES if sql else frozenset()
    closed_spans = sorted((k.start, k.end) for _c, k in closed)  # apart (the walk is depth first)
    closed_starts = [a for a, _b in closed_spans]

    def tokens(start: int, end: int, parts: bool = False) -> Iterator[tuple[int, int]]:
        """The gaps between the tokens of ``text[start:end]``, in order, read from the tree
        as they are asked for (only where a line must be cut); a definition left closed
        (an atom that fits: the packer never cuts it) is read as one token, and so is an
        SQL qualified name. ``parts``: only the gaps inside those names (``schema.`` then
        ``func``), a weaker level."""
        k = bisect_right(closed_starts, start) - 1
        if k >= 0 and end <= closed_spans[k][1]:
            return
        bs, be = off.to_byte(start), off.to_byte(end)
        top = rootts.descendant_for_byte_range(bs, be) or rootts
        work = [top]
        prev = -1
        while work:
            n = work.pop()
            if n.child_count == 0 or _is_opaque(n.type) or n.id in closed_ids or n.type in whole_names:
                if n.end_byte <= n.start_byte:
                    continue
                s, e = off(n.start_byte), off(n.end_byte)
                if parts:
                    if n.type in whole_names:
                        yield from _leaf_cuts(text, n, off)
                    continue
                if prev > 0 and s >= prev and (cut := _token_cut(text, prev, s)) is not None:
                    yield cut
                prev = max(prev, e)
                continue
            kids = []
            c = _first_child_ending_after(n, bs) if n.start_byte < bs else n.child(0)
            while c is not None and c.start_byte < be:
                if c.end_byte > bs:
                    kids.append(c)
                c = c.next_sibling
            kids.reverse()
            work.extend(kids)

    found = _analyze(text, spec.name, "tree-sitter", root, None, rootts.has_error, spec.imports,
                     opaque=opaque, lazy_tokens=tokens, closed=closed_spans, annotated=sorted(annotated),
                     whole=whole)
    if spec.name in _DECLARED:
        declared = _declared(text, rootts, data, off, spec, tree.language, found.definitions)
        if declared:
            found = replace(found, declared=declared)
    if spec.name == "php" and "namespace" in text:
        found = _php_namespace_statements(text, found)
    if rootts.has_error:
        found = replace(found, error_at=_first_error(rootts, off))
        if spec.name in ("c", "cpp"):
            found = _recover_braced_classes(text, found, opaque)
    if sql:
        found = replace(found, lazy_parts=lambda start, end: tokens(start, end, True))
    return found


# C and C++: a class header at the start of its line ("class list : protected _Base<_Tp>"
# then "{" on that line or the next), its keyword in group 1, its name in group 2
_BRACED_CLASS = re.compile(
    r"^[ \t]*(class|struct|union)[ \t]+([A-Za-z_]\w*)(?:[ \t]+final)?\s*(?::[^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)?\{",
    re.M,
)
# C++: a namespace header at the start of its line, a macro after its name maybe
# ("namespace std _GLIBCXX_VISIBILITY(default)" then "{"), its name in group 1
_BRACED_NAMESPACE = re.compile(r"^[ \t]*namespace[ \t]+([A-Za-z_][\w:]*)[ \t]*(?:[A-Za-z_]\w*\([^;{}()\n]*\))?\s*\{", re.M)
_TEMPLATE_LINE = re.compile(r"[ \t]*template[ \t]*<[^;{}]*>[ \t]*$")
# what brace matching reads: comments, strings and character literals (skipped), the
# preprocessor's conditionals and the braces
_BRACE_TOKENS = re.compile(
    r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n]){1,4}'"
    r"|^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b[^\n]*|[{}]",
    re.S | re.M,
)


def _brace_pairs(text: str) -> dict[int, int]:
    """Where each ``{`` of a C or C++ text is closed (``{``'s offset -> ``}``'s), read from
    the text: comments, strings and character literals skipped. Each branch of a
    preprocessor conditional is read from the braces open at its ``#if``, and after its
    ``#endif`` the braces open at the end of its first branch are (the branches often
    repeat a header with its ``{``: ``#if`` then ``struct A : B {``, ``#else`` then
    ``struct A {``)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    # per open "#if": the braces open at it, and those open at the end of its first branch
    # (None while that branch is read)
    saved: list[tuple[list[int], list[int] | None]] = []
    for m in _BRACE_TOKENS.finditer(text):
        d = m.group(1)
        if d is not None:
            if d.startswith("if"):
                saved.append((stack[:], None))
            elif not saved:
                continue
            elif d == "endif":
                at, first = saved.pop()
                if first is not None:
                    stack = first
            else:  # "#elif", "#else": from the braces open at the "#if"
                at, first = saved[-1]
                if first is None:
                    saved[-1] = (at, stack)
                stack = at[:]
            continue
        c = m.group()
        if c == "{":
            stack.append(m.start())
        elif c == "}" and stack:
            pairs[stack.pop()] = m.start()
    return pairs


def _recover_braced_classes(text: str, found: CodeStructure, opaque: Sequence[tuple[int, int]]) -> CodeStructure:
    """``found`` with the C++ classes (structs, unions) and namespaces that tree-sitter
    could not read -- a macro it does not know before or inside them,
    ``_GLIBCXX_VISIBILITY(default)``, ``_GLIBCXX_NOEXCEPT`` -- recovered from the text: a
    header at the start of its line that no definition has, the body to the ``}`` that
    closes its ``{`` (braces matched in the text), becomes a definition, the definitions
    inside it its members (qualified by its name); a class is one top-level item where its
    members were read as top-level items (a namespace's members stay top-level items). A
    class whose end falls inside an item read across it is left as it was."""
    known = {d.head for d in found.definitions} | {_line_start(text, d.head) for d in found.definitions}
    ostarts = [a for a, _b in opaque]
    pairs: dict[int, int] | None = None
    new: list[Definition] = []
    defs = list(found.definitions)
    by_head = {d.head: i for i, d in enumerate(defs) if d.container}
    for m in _BRACED_NAMESPACE.finditer(text):
        head = m.start() + len(m.group()) - len(m.group().lstrip())
        k = bisect_right(ostarts, head) - 1
        if (k >= 0 and head < opaque[k][1]) or ((head in known or m.start() in known) and head not in by_head):
            continue
        if pairs is None:
            pairs = _brace_pairs(text)
        close = pairs.get(m.end() - 1, -1)
        if close < 0:
            continue
        if head in by_head:
            # a namespace tree-sitter ended early, at an error inside it: to its "}"
            i = by_head[head]
            if defs[i].end < close + 1:
                new.append(defs[i]._replace(end=close + 1))
                defs[i] = new[-1]
            continue
        name = m.group(1).replace("::", ".")
        sig = text[head : m.end() - 1].rstrip()
        new.append(Definition(head, head, close + 1, name, name, "namespace_definition", sig, -1, True))
    namespaces = len(new)
    def_starts = [d.start for d in found.definitions]
    spans_of: dict[str, list[tuple[int, int]]] = {}
    for d in found.definitions:
        spans_of.setdefault(d.name, []).append((d.start, d.end))
    for m in _BRACED_CLASS.finditer(text):
        head = m.start() + len(m.group()) - len(m.group().lstrip())
        k = bisect_right(ostarts, head) - 1
        if k >= 0 and head < opaque[k][1]:
            continue  # (in a comment or a string)
        ls = m.start()
        # a "template<...>" line above it is part of its header
        prev = text.rfind("\n", 0, max(0, ls - 1)) + 1 if ls else 0
        if ls and _TEMPLATE_LINE.match(text, prev, ls - 1) is not None:
            start = prev + len(text[prev:ls]) - len(text[prev:ls].lstrip())
        else:
            start = head
        if head in known or start in known or ls in known or _line_start(text, start) in known:
            continue
        if any(a <= head < b for a, b in spans_of.get(m.group(2), ())):
            continue  # (read by tree-sitter, with what comes before it: "__BEGIN_DECLS")
        first_line = text[head : _line_end(text, head)].strip()
        if any(first_line in found.definitions[k].signature for k in _around(found.definitions, def_starts, head)):
            continue  # (in the header of a definition tree-sitter misread: "__BEGIN_DECLS struct a {")
        if pairs is None:
            pairs = _brace_pairs(text)
        brace = m.end() - 1
        close = pairs.get(brace, -1)
        if close < 0:
            continue
        end = close + 1
        sig = text[_line_start(text, start) : brace].rstrip()
        if "\n" in sig:  # (the header's lines, without the comment lines inside it)
            sig = "\n".join(line.rstrip() for line in sig.splitlines() if line.strip())
        new.append(Definition(start, start, end, m.group(2), m.group(2), f"{m.group(1)}_specifier", sig, -1))
    if not new:
        return found
    # (one top-level item per recovered class that lies at the top, its members' items in
    # it; none where an item is read across its start or its end)
    top, items = list(found.top), list(found.items)
    kept: list[Definition] = new[:namespaces]
    outer = -1  # (where the last class kept ends)
    for d in sorted(new[namespaces:], key=lambda d: (d.start, -d.end)):
        if d.start < outer:
            kept.append(d)  # (inside a recovered class: a member)
            continue
        new_top = _collapse(top, d.start, d.end, text, "definition")
        if new_top is None:
            continue  # (an item read across its end)
        top, s0 = new_top
        new_items = _collapse(items, d.start, d.end, text)
        if new_items is not None:
            items = new_items[0]
        kept.append(d._replace(start=s0))
        outer = d.end
    if not kept:
        return found
    defs += [d for d in kept if d not in defs]
    _link_parents(defs)
    # the definitions inside a recovered class: qualified by its name
    recovered = {(d.start, d.end, d.name) for d in kept}
    renamed: set[int] = set()
    for i, d in enumerate(defs):
        p = d.parent
        if p >= 0 and ((defs[p].start, defs[p].end, defs[p].name) in recovered or p in renamed):
            parent = defs[p]
            qual = f"{parent.qualname}.{d.name}" if d.name else parent.qualname
            if (d.start, d.end, d.name) in recovered or qual != d.qualname:
                defs[i] = d._replace(qualname=qual)
                renamed.add(i)
    return replace(found, definitions=tuple(defs), top=tuple(top), items=tuple(items))


def _around(defs: Sequence[Definition], starts: Sequence[int], p: int) -> list[int]:
    """The definitions (by index) that are not namespaces and hold ``p``: the last one
    starting before it, then its parents (definitions nest or lie apart)."""
    out = []
    k = bisect_right(starts, p) - 1
    while k >= 0:
        d = defs[k]
        if d.start <= p < d.end and not d.container:
            out.append(k)
        k = d.parent
    return out


def _line_end(text: str, p: int) -> int:
    """The end of ``p``'s line (before its line break, or the end of the text)."""
    m = _LINE_BREAK.search(text, p)
    return m.start() if m is not None else len(text)


def _collapse(entries: list[Any], start: int, end: int, text: str, kind: str | None = None
              ) -> tuple[list[Any], int] | None:
    """``entries`` (items ``(start, end)``, or ``(start, end, kind)`` with ``kind``, sorted)
    with those that overlap ``[start, end)`` made one, and where it starts: from the
    comments above ``start`` that the first of them holds, the code before those left an
    entry of its own. None when one of them reaches past ``end``."""
    inside = [t for t in entries if t[1] > start and t[0] < end]
    if not inside or any(t[1] > end for t in inside):
        return None
    first = inside[0]
    s0 = start
    before: list[Any] = []
    if first[0] < start:
        if _comments_only(text, first[0], start):
            s0 = first[0]
        else:
            s0 = max(first[0], _comments_above(text, start))
            cut = _rstrip_pos(text, first[0], s0)
            if cut > first[0]:
                before = [(first[0], cut, *first[2:])]
    out = [t for t in entries if not (t[1] > start and t[0] < end)]
    k = bisect_left(out, (s0,))
    out[k:k] = [*before, (s0, end) if kind is None else (s0, end, kind)]
    return out, s0


def _comments_above(text: str, p: int) -> int:
    """Where the comment lines right above ``p``'s line start (their first non-blank
    character; no blank line between them and it), else ``p`` (C and C++)."""
    ls = _line_start(text, p)
    best = p
    while ls > 0:
        prev = _line_start(text, ls - 1)
        line = text[prev:ls].strip()
        if not line or not (line.startswith(("//", "/*", "*")) or line.endswith("*/")):
            break
        best = prev + len(text[prev:ls]) - len(text[prev:ls].lstrip())
        ls = prev
    return best


def _comments_only(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds comments and whitespace only (C and C++)."""
    rest = re.sub(r"//[^\n]*|/\*.*?\*/", "", text[start:end], flags=re.S)
    return not rest.strip()


def _first_error(rootts: Any, off: Any) -> int:
    """Where the first ERROR or MISSING node of the tree starts (the root when none is
    found below it)."""
    node = rootts
    while True:
        nxt = None
        for c in node.children:
            if c.type == "ERROR" or c.is_missing:
                return int(off(c.start_byte))
            if c.has_error:
                nxt = c
                break
        if nxt is None:
            return int(off(node.start_byte))
        node = nxt


def _code_end_ts(node: Any, text: str, off: Any) -> int:
    """Where the Python statement ``node`` (tree-sitter) ends without the comment lines
    after its last line of code (a block holds those indented into it): the end of that
    line, a comment after the code on it included."""
    n = node
    while n.child_count:
        c = n.child(n.child_count - 1)
        while c is not None and c.type == "comment":
            c = c.prev_sibling
        if c is None:
            break
        n = c
    e = off(n.end_byte)
    if (m := _TRAILING_COMMENT.match(text, e)) is not None:
        e = m.end()
    return e


# the functions declared without a body, by language: C and C++ by their function
# declarators (see :func:`_declared`), the others by these nodes (with a name field)
_DECLARED: dict[str, tuple[str, ...]] = {"c": (), "cpp": (), "typescript": ("method_signature",), "tsx": ("method_signature",)}
# where a C or C++ function declarator names a declared function: it lies in a declaration
# (a prototype, a method of a class), through these declarators only
_AROUND_DECLARATOR = frozenset({
    "pointer_declarator", "reference_declarator", "attributed_declarator", "parenthesized_declarator",
    "function_declarator",
})
_DECLARATIONS = frozenset({"declaration", "field_declaration"})
# what comes before the declarator of a prototype that the grammar read into an ERROR node
# (``extern int atoi (const char *__nptr) __THROW ...;``)
_DECLARATION_HEAD = frozenset({
    "storage_class_specifier", "type_qualifier", "primitive_type", "type_identifier", "sized_type_specifier",
    "virtual", "function_specifier", "attribute_specifier", "ms_declspec_modifier", "comment",
})
# no declaration of a function lies in these (a body, a parameter list, an expression)
_NOT_DECLARING = frozenset({
    "compound_statement", "function_definition", "parameter_list", "argument_list", "lambda_expression",
    "initializer_list", "template_argument_list", "field_expression", "call_expression",
})
_DECLARED_QUERIES: dict[str, Any] = {}


def _declared(text: str, rootts: Any, data: bytes, off: _Offsets, spec: LanguageSpec, language: Any,
              defs: Sequence[Definition]) -> tuple[tuple[int, str], ...]:
    """``(where its name is, qualified name)`` of each function declared without a body:
    a C or C++ declaration whose declarator is a function's (``extern FILE *fopen (...)
    ;``, ``int getch();`` in a class; not a pointer to a function, ``int (*fp)(int);``,
    nor a declaration in a body or a parameter list), a TypeScript interface's method.
    Named inside the definitions around it (``NCursesWindow.getch``).
    A declaration that the grammar split in two at a macro after its parameters
    (``virtual ~A() THROWS(E);``) names its function once, by the part before the macro."""
    import tree_sitter

    q = _DECLARED_QUERIES.get(spec.name)
    if q is None:
        kinds = _DECLARED[spec.name] or ("function_declarator",)
        kinds = tuple(k for k in kinds if language.id_for_node_kind(k, True))
        if not kinds:
            return ()
        q = _DECLARED_QUERIES[spec.name] = tree_sitter.Query(language, "[" + " ".join(f"({k})" for k in kinds) + "] @f")
    nodes = tree_sitter.QueryCursor(q).captures(rootts).get("f", ())
    c_like = not _DECLARED[spec.name]
    found: list[tuple[int, str]] = []
    for f in nodes:
        if c_like:
            name = _declared_c_name(f, data)
        else:
            name = f.child_by_field_name("name")
            if name is not None and any(a.type in _NOT_DECLARING for a in _ancestors(f)):
                name = None
        if name is None:
            continue
        found.append((off(name.start_byte), re.sub(r"\s+", " ", _node_text(data, name).strip().replace("::", "."))))
    if not found:
        return ()
    found.sort()
    starts = [d.start for d in defs]
    out: list[tuple[int, str]] = []
    for p, name in found:
        k = bisect_right(starts, p) - 1  # the innermost definition around it
        while k >= 0 and not defs[k].start <= p < defs[k].end:
            k = defs[k].parent
        prefix = defs[k].qualname if k >= 0 else ""
        out.append((p, f"{prefix}.{name}" if prefix else name))
    return tuple(out)


def _ancestors(node: Any) -> Iterator[Any]:
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def _declared_c_name(f: Any, data: bytes) -> Any:
    """The node that names the function a C or C++ function declarator ``f`` declares
    without a body (see :func:`_declared`), or None."""
    d = f.child_by_field_name("declarator")
    if d is None:
        return None
    p = f.parent
    if (p is not None and p.type == "function_declarator" and p.child_by_field_name("declarator") == f
            and _macro_call(f, data)):
        return None  # (the "UNDEF(box)" of "int UNDEF(box)(int a);": the declarator around it names it)
    if d.type == "function_declarator":
        if not _macro_call(d, data):
            return None  # (attributes read as parameters, "f (int) __attribute__ ((...))": "f" names it)
        name = d  # ("UNDEF(box)": a macro call names it)
    elif d.type in _DECLARED_NAMES:
        name = _wrapped_name(f, d, data) or d
    else:
        return None  # (a pointer to a function, "(*fp)(int)"; an array of them)
    top = p
    while top is not None and top.type in _AROUND_DECLARATOR:
        top = top.parent
    if top is None:
        return None
    macro = _MACRO_NAME.fullmatch(_node_text(data, name)) is not None
    if macro and (f.has_error or top.type == "ERROR"):
        # a macro's arguments (glibc's "__REDIRECT (fopen, (...), fopen64)"), a macro
        # before the type in an ERROR node (expat's "XMLPARSEAPI(void *)" on its own line)
        return None
    if top.type == "ERROR":
        # a prototype the grammar read into an ERROR node: only its type before the
        # declarator (a macro call too: expat's "XMLPARSEAPI(void)" read as a function
        # declarator), no function declarator after it
        if f.parent != top:
            return None
        for x in top.named_children:
            if x.start_byte < f.start_byte:
                if x.type not in _DECLARATION_HEAD and not (
                    x.type == "function_declarator" and _MACRO_NAME.fullmatch(_node_text(data, x.children[0]))
                ):
                    return None
            elif x.start_byte > f.start_byte and x.type == "function_declarator":
                return None
    elif top.type not in _DECLARATIONS:
        return None
    elif top.child_by_field_name("type") is None and name.type == "identifier" and (
        top.parent is None or top.parent.type != "field_declaration_list"
    ):
        # no type, outside a class (where a constructor has none): a macro called at the
        # top (gmpxx.h's "__GMPXX_DECLARE_COMMON_TYPE(signed char);")
        return None
    elif macro and top.type == "field_declaration" and top.parent is not None and top.parent.parent is not None and (
        top.parent.parent.type in ("struct_specifier", "union_specifier")
    ):
        return None  # (a field named by a macro: regex.h's "struct re_dfa_t *__REPB_PREFIX(buffer);")
    else:
        # split in two at a macro after the parameters ("virtual ~A() THROWS(E);" read as
        # "virtual ~A()" missing its ";", then "THROWS(E);"): the first part names it;
        # the second, and the first when a definition ("THROWS(E) {...}") follows, not
        prev = top.prev_named_sibling
        if macro and prev is not None and prev.has_error and prev.end_point[0] == top.start_point[0]:
            return None
        nxt = top.next_named_sibling
        if (top.has_error and nxt is not None and nxt.start_point[0] == top.end_point[0]
                and nxt.type == "function_definition"):
            return None
    for a in _ancestors(top):
        if a.type == "compound_statement" and _misread_class(a.parent):
            break  # (a class's body: "class EXPORT_MACRO Name {...}" read as a function)
        if a.type in _NOT_DECLARING:
            return None
    return name


def _misread_class(node: Any) -> bool:
    """Whether ``node`` is a C++ class the grammar read as a function definition (``class
    NCURSES_CXX_IMPEXP NCursesWindow {...}``: the class named by the macro, its name a
    declarator that declares no function, its body a function's body)."""
    if node is None or node.type != "function_definition":
        return False
    kind = node.child_by_field_name("type")
    d = node.child_by_field_name("declarator")
    return (kind is not None and kind.type in ("class_specifier", "struct_specifier")
            and kind.child_by_field_name("body") is None and d is not None and d.type == "identifier")


_DECLARED_NAMES = frozenset({
    "identifier", "field_identifier", "qualified_identifier", "operator_name", "destructor_name",
})


def _leaf_cuts(text: str, node: Any, off: Any) -> Iterator[tuple[int, int]]:
    """The cuts between the tokens (leaves) of ``node``, in order."""
    prev = -1
    work = [node]
    while work:
        n = work.pop()
        if n.child_count:
            work.extend(reversed(n.children))
            continue
        if n.end_byte <= n.start_byte:
            continue
        s, e = off(n.start_byte), off(n.end_byte)
        if prev > 0 and s >= prev and (cut := _token_cut(text, prev, s)) is not None:
            yield cut
        prev = max(prev, e)


def _php_namespace_statements(text: str, st: CodeStructure) -> CodeStructure:
    """``st`` with the definitions after a PHP namespace statement (``namespace App;``, no
    braces) named inside it, up to the next namespace: ``App.User``, ``App.User.name``."""
    defs = list(st.definitions)
    ns = [(d.end, d.qualname) for d in defs
          if d.container and d.parent < 0 and d.node_type == "namespace_definition" and d.qualname
          and "{" not in text[d.head : d.end]]
    if not ns:
        return st
    starts = sorted(d.start for d in defs if d.container and d.parent < 0)
    changed = False
    for end, name in ns:
        k = bisect_right(starts, end)
        stop = starts[k] if k < len(starts) else len(text) + 1
        for i, d in enumerate(defs):
            if end <= d.start < stop and not d.container:
                defs[i] = d._replace(qualname=f"{name}.{d.qualname}")
                changed = True
    if not changed:
        return st
    return replace(st, definitions=tuple(defs))


# -- Python's standard library ---------------------------------------------------------

_AST_TYPES = {
    "FunctionDef": "function_definition",
    "AsyncFunctionDef": "function_definition",
    "ClassDef": "class_definition",
    "Import": "import_statement",
    "ImportFrom": "import_from_statement",
    "Expr": "expression_statement",
    "Assign": "expression_statement",
    "AugAssign": "expression_statement",
    "AnnAssign": "expression_statement",
    "TypeAlias": "type_alias_statement",
    "ExceptHandler": "except_clause",
    "match_case": "case_clause",
}


def _ast_type(node: Any) -> str:
    name = type(node).__name__
    if name in _AST_TYPES:
        return _AST_TYPES[name]
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return snake if snake.endswith("_clause") else snake + "_statement"


# the standard library's compound statements (``elif`` is an ``If`` inside one)
_AST_COMPOUND = ("For", "AsyncFor", "While", "If", "With", "AsyncWith", "Try", "TryStar", "Match")


_TRAILING_COMMENT = re.compile(r"[ \t\f]*#[^\r\n]*")


def _clause_keyword(text: str, p: int, kw: str) -> int:
    """Where the clause keyword ``kw`` (``else``, ``finally``) that follows position ``p``
    (the end of the block before it) starts, past blank lines, comments and backslash
    continuations; -1 when it is not the next word there."""
    n = len(text)
    while p < n:
        ch = text[p]
        if ch in " \t\f\r\n":
            p += 1
        elif ch == "#":
            while p < n and text[p] not in "\r\n":
                p += 1
        elif ch == "\\" and text.startswith(("\\\n", "\\\r"), p):
            p += 2
        else:
            break
    if text.startswith(kw, p) and (p + len(kw) == n or not (text[p + len(kw)].isalnum() or text[p + len(kw)] == "_")):
        return p
    return -1


def _from_ast(text: str, keep: Any = None) -> CodeStructure:
    import ast
    import io
    import tokenize

    tree = ast.parse(text)
    line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    lines_b: dict[int, bytes] = {}

    def pos(lineno: int, col: int) -> int:
        ls = line_starts[lineno - 1]
        if col == 0:
            return ls
        le = line_starts[lineno] if lineno < len(line_starts) else len(text)
        line = text[ls:le]
        if line.isascii():
            return ls + col
        b = lines_b.get(lineno)
        if b is None:
            b = lines_b[lineno] = line.encode("utf-8", "surrogatepass")
        return ls + len(b[:col].decode("utf-8", "surrogatepass"))

    leaves: list[tuple[int, int]] = []
    comments: list[_Node] = []
    try:
        depth = 0
        fstart = 0
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            s = line_starts[tok.start[0] - 1] + tok.start[1]
            e = line_starts[tok.end[0] - 1] + tok.end[1]
            name = tokenize.tok_name.get(tok.type, "")
            if name == "FSTRING_START":
                if depth == 0:
                    fstart = s
                depth += 1
                continue
            if name == "FSTRING_END":
                depth -= 1
                if depth == 0:
                    leaves.append((fstart, e))
                continue
            if depth:
                continue
            leaves.append((s, e))
            if tok.type == tokenize.COMMENT:
                k = _Node("comment", s, e)
                k.trivia = k.comment = True
                comments.append(k)
    except (tokenize.TokenError, SyntaxError, IndentationError, IndexError):
        leaves = []
        comments = []
    if "\r" in text.replace("\r\n", ""):  # tokenize reads lines at "\n" only, ast at "\r" too
        leaves = []
        comments = []

    def convert(st: Any) -> _Node:
        s = pos(st.lineno, st.col_offset)
        e = pos(st.end_lineno, st.end_col_offset)
        if (m := _TRAILING_COMMENT.match(text, e)) is not None:
            e = m.end()  # (a comment after the statement on its last line is part of it)
        k = _Node(_ast_type(st), s, _rstrip_pos(text, s, e))
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            k.name = st.name
            k.def_type = k.type
            k.head = s
            if st.decorator_list:
                d0 = st.decorator_list[0]
                at = text.rfind("@", 0, pos(d0.lineno, d0.col_offset))
                if at >= 0:
                    k.start = min(k.start, at)
            if st.body:
                # (the first statement's decorators are no part of the header)
                first = st.body[0]
                b0 = pos(first.lineno, first.col_offset)
                for d in getattr(first, "decorator_list", ()):
                    at = text.rfind("@", s, pos(d.lineno, d.col_offset))
                    if at >= 0:
                        b0 = min(b0, at)
                k.head_end = _rstrip_pos(text, s, b0)
        return k

    root = _Node("module", 0, len(text))
    work: list[tuple[Any, _Node]] = [(tree, root)]
    nodes: list[_Node] = []
    compound = tuple(getattr(ast, n) for n in _AST_COMPOUND if hasattr(ast, n)) if keep is not None else None
    whole: list[tuple[int, int]] = []  # the compound statements that fit
    while work:
        st, node = work.pop()
        for fname in ("body", "orelse", "finalbody", "handlers", "cases"):
            v = getattr(st, fname, None)
            if not isinstance(v, list) or not v:
                continue
            holder = node
            elif_ = False
            if fname in ("orelse", "finalbody") and hasattr(v[0], "lineno"):
                # (``else:`` and ``finally:`` with their block: a clause, as the other
                # parsers read it, cut before its line; ``elif`` is an ``If`` in ``orelse``)
                first = v[0]
                elif_ = (fname == "orelse" and len(v) == 1 and isinstance(first, ast.If)
                         and text.startswith("elif", pos(first.lineno, first.col_offset)))
                if not elif_:
                    before = (st.orelse if fname == "finalbody" and st.orelse else None) or getattr(
                        st, "handlers", None) or st.body
                    kw = "else" if fname == "orelse" else "finally"
                    q = _clause_keyword(text, pos(before[-1].end_lineno, before[-1].end_col_offset), kw)
                    if q >= 0:
                        holder = _Node(f"{kw}_clause", q, q)
                        node.children.append(holder)
                        nodes.append(holder)
            for child in v:
                if not hasattr(child, "lineno"):
                    if hasattr(child, "body") and hasattr(child, "pattern"):  # match_case
                        child.lineno, child.col_offset = child.pattern.lineno, child.pattern.col_offset
                        last = child.body[-1]
                        child.end_lineno, child.end_col_offset = last.end_lineno, last.end_col_offset
                    else:
                        continue
                k = convert(child)
                if elif_:
                    k.type = "elif_clause"
                holder.children.append(k)
                nodes.append(k)
                work.append((child, k))
                if (compound is not None and isinstance(child, compound) and child.end_lineno > child.lineno
                        and (ls := _at_line_start(text, k.start)) >= 0 and not elif_
                        and keep(ls, k.end)):
                    whole.append((k.start, k.end))
            if holder is not node and holder.children:
                holder.end = holder.children[-1].end
    # comments go into the innermost node that holds them
    for cm in comments:
        holder = root
        while True:
            inner = next((c for c in holder.children if c.start <= cm.start < c.end and not c.comment), None)
            if inner is None:
                break
            holder = inner
        holder.children.append(cm)
    for k in [root, *nodes]:
        k.children.sort(key=lambda n: n.start)
    imports = frozenset({"import_statement", "import_from_statement"})
    return _analyze(text, "python", "ast", root, leaves, False, imports, all_lists=True, whole=whole)


# -- entry point ----------------------------------------------------------------------


def parse_code(text: str, language: str, parser: str = "auto", fits: Any = None, keep: Any = None) -> CodeStructure:
    """The structure of ``text`` in ``language`` (a canonical name of
    :data:`~chunkwise.parsers.code_languages.LANGUAGES`).

    Args:
        parser: ``"auto"`` (Python: the structural scan of
            :mod:`chunkwise.parsers.code_scan`, else tree-sitter when its grammar is
            installed, else the standard library; other languages: tree-sitter),
            ``"scan"`` (Python only; the same), ``"tree-sitter"`` or ``"ast"`` (Python only).
        fits: ``(start, end) -> bool``, whether ``text[start:end]`` fits a chunk
            (tree-sitter only): a node that fits, from the start of its line, is not
            opened -- no statements, cuts or multi-line strings are read inside it, only
            its inner definitions (one tree-sitter query for the file). None: every node
            over several lines is opened.
        keep: ``(start, end) -> bool``, whether a compound statement ``text[start:end]``
            fits a chunk: the outermost that fit are listed in
            :attr:`CodeStructure.whole` (statements to keep whole). Default: ``fits``;
            None (and no ``fits``): none are listed.

    Raises:
        MissingDependencyError: no parser for ``language`` is installed.
        ConfigError: ``parser="ast"`` or ``"scan"`` for a language other than Python.
    """
    spec = LANGUAGES[language]
    if keep is None:
        keep = fits
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        # a lone carriage return ends a line (classic Mac OS files; Python's own reading):
        # the parsers read a copy with line feeds there, of the same length, so every
        # offset holds for the text itself
        text = _LONE_CR.sub("\n", text)
    if parser == "ast" and language != "python":
        raise ConfigError(f"parser='ast' reads Python only, not {language!r}; use parser='tree-sitter'")
    if parser in ("auto", "scan") and language == "python":
        from .code_scan import scan_python

        found = scan_python(text, fits, keep)
        if found is not None:
            return found
        parser = "auto"  # the scan cannot vouch for this file: a parser reads it
    elif parser == "scan":
        raise ConfigError(f"parser='scan' reads Python only, not {language!r}; use parser='auto'")
    if parser == "auto" and language == "python":
        if grammar_available("python"):
            try:
                return _from_tree_sitter(text, spec, fits, keep)
            except ChunkwiseError:  # a grammar that does not load: the standard library reads Python
                pass
        parser = "ast"
    if parser == "ast":
        try:
            return _from_ast(text, keep)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return CodeStructure(language=language, parser="lines", has_errors=True)
    return _from_tree_sitter(text, spec, fits, keep)
