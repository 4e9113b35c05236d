"""Python source by a structural scan: statements by indentation, without a syntax tree.

:func:`scan_python` gives the same :class:`~chunkwise.parsers.code.CodeStructure` as the
tree-sitter grammar (definitions with decorators, leading comments, qualified names and
signatures; statement cuts ranked by indentation; line and token cuts) from what Python's
own tokenizer decides by (the language reference's "Line structure"): strings and
comments are masked by one regular expression, a logical line starts where the bracket
depth is 0 and the line before does not end with a backslash, and blocks are read from
indentation. Nothing inside a definition that fits the budget is read but the
definitions inside it.

It returns None -- the caller then parses with tree-sitter or the standard library's
:mod:`ast` -- when the file is not plainly well formed: an unterminated string, brackets
that do not balance, an indentation that no block explains (an unexpected indent, a
dedent to no open level, a block header without a block), tabs or form feeds in
indentation, a lone carriage return as a line break, a decorator or clause (``else``,
``except``) in the wrong place.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from .code import (
    _CLAUSE, CodeStructure, Definition, _line_cuts, _line_start, _link_parents, _Node, _signature, _token_cut,
)

__all__ = ["scan_python"]

_Child = tuple[int, int, Any, int, Any, int]  # see _Scanner.kids

_STRING = (  # unrolled loops: linear, also where a string does not end
    r"'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'"
    r'|"[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"'
)
# comments, strings (any prefix: only the quotes matter), backslash continuations, and a
# quote that opens no string (the file is not well formed)
# (every alternative begins with a literal character, so that the engine skips to the next
# "#", quote or backslash instead of trying each position: 5x faster than groups)
_LEX = re.compile(rf"#[^\r\n]*|{_STRING}|\\(?:\r\n|\n)|'|\"")
_BAD_INDENT = re.compile(r"^ *[\t\f]", re.M)
_KIND = re.compile(
    r"(?:async[ \t]+)?(def|class|if|elif|else|for|while|try|except|finally|with|match|case|import|from|return|raise"
    r"|pass|break|continue|del|global|nonlocal|assert)(?!\w)"
)
_TYPES = {
    "def": "function_definition", "class": "class_definition", "if": "if_statement", "elif": "elif_clause",
    "else": "else_clause", "for": "for_statement", "while": "while_statement", "try": "try_statement",
    "except": "except_clause", "finally": "finally_clause", "with": "with_statement", "match": "match_statement",
    "case": "case_clause", "import": "import_statement", "from": "import_from_statement",
    "return": "return_statement", "raise": "raise_statement", "pass": "pass_statement",
    "break": "break_statement", "continue": "continue_statement", "del": "delete_statement",
    "global": "global_statement", "nonlocal": "nonlocal_statement", "assert": "assert_statement",
}
_CLAUSES = frozenset({"elif", "else", "except", "finally"})
_SOFT = frozenset({"match", "case"})  # keywords only as block headers
_NAME = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
# (a line break, not "^": the engine then skips to the next line break at once)
_INNER_DEF = re.compile(r"\n( +)(?:async[ \t]+)?(?:def|class)[ \t]")
_HEADER = re.compile(r"[():]")
_TOKEN = re.compile(
    rf"{_STRING}|#[^\r\n]*|(?:\d|\.\d)(?:[eE][+-]|[\w.])*|\w+(?:{_STRING})?"
    r"|\*\*=?|//=?|>>=?|<<=?|->|:=|[-+*/%&|^@<>=!]=|\.\.\.|\S"
)
_IMPORTS = frozenset({"import_statement", "import_from_statement", "future_import_statement"})
# the types before which a statement cut is a clause cut (kind 2), as the analysis decides
_CLAUSE_TYPES = frozenset(t for t in [*_TYPES.values(), "future_import_statement"] if _CLAUSE.search(t))


class _Fail(Exception):
    """The scan does not explain the file: another parser reads it."""


class _Scanner:
    def __init__(self, text: str, masked: str, fits: Callable[[int, int], bool] | None) -> None:
        self.text = text
        self.masked = masked
        self.fits = fits
        self.starts: list[int] = []  # logical lines with code: first character
        self.inds: list[int] = []  # indentation (spaces)
        self.ends: list[int] = []  # end of the line (a comment on it included)
        self.code_ends: list[int] = []  # end of its code
        self.cstarts: list[int] = []  # comment lines
        self.cends: list[int] = []
        self.cinds: list[int] = []
        self.ops: list[bool] = []  # the logical line ends with ":" (a block header)
        self.nxt: list[int] = []
        self.closed: list[tuple[int, int]] = []
        self._kinds: dict[int, str] = {}
        self.defs: list[Definition] = []
        self.statements: list[tuple[int, int, str]] = []
        self.cuts: dict[tuple[int, int], tuple[int, int]] = {}

    # -- lines ------------------------------------------------------------------------

    def lines(self) -> None:
        starts, inds, ends = self.starts, self.inds, self.ends
        cstarts, cends, cinds, ops, code_ends = self.cstarts, self.cends, self.cinds, self.ops, self.code_ends
        pos = 0
        depth = 0
        for line in self.masked.split("\n"):
            r = line.rstrip(" \t\f\r#")
            if not r:
                if not depth and "#" in line:
                    ls = line.lstrip(" ")
                    cstarts.append(pos + len(line) - len(ls))
                    cends.append(pos + len(line.rstrip()))
                    cinds.append(len(line) - len(ls))
            else:
                if not depth:
                    code = r.lstrip(" ")
                    ind = len(r) - len(code)
                    starts.append(pos + ind)
                    inds.append(ind)
                    ends.append(pos + len(line.rstrip()))
                    code_ends.append(pos + len(r))
                    ops.append(r[-1] == ":")
                else:
                    ends[-1] = pos + len(line.rstrip())
                    code_ends[-1] = pos + len(r)
                    ops[-1] = r[-1] == ":"
                if "(" in r or ")" in r:
                    depth += r.count("(") - r.count(")")
                    if depth < 0:
                        raise _Fail
            pos += len(line) + 1
        if depth:
            raise _Fail
        # the next line at the same or a lower indentation; blocks checked
        n = len(starts)
        nxt = [n] * n
        stack: list[int] = []
        ops = self.ops
        prev = -1
        for j in range(n):
            ij = inds[j]
            last = -1
            while stack and inds[stack[-1]] >= ij:
                last = stack.pop()
                nxt[last] = j
            if prev < 0:
                if ij:
                    raise _Fail  # an unexpected indent
            else:
                p = inds[prev]
                opener = ops[prev]
                if ij > p:
                    if not opener:
                        raise _Fail  # an unexpected indent
                elif opener or (ij < p and inds[last] != ij):
                    raise _Fail  # a header without a block, or a dedent to no open level
            stack.append(j)
            prev = j
        if n and ops[-1]:
            raise _Fail
        self.nxt = nxt

    def kind(self, k: int) -> str:
        """The first keyword of logical line ``k`` ("@" for a decorator, "" for others)."""
        v = self._kinds.get(k)
        if v is None:
            s = self.starts[k]
            if self.text[s] == "@":
                v = "@"
            else:
                m = _KIND.match(self.text, s)
                v = m.group(1) if m else ""
                if v in _SOFT and not self.ops[k]:
                    v = ""
            self._kinds[k] = v
        return v

    # -- nodes ------------------------------------------------------------------------

    def header_end(self, head: int, k: int) -> int:
        """Where the body of the definition at ``head`` (logical line ``k``) begins: after
        the colon that closes its header, past a comment on that line."""
        depth = 0
        end = self.ends[k]
        for m in _HEADER.finditer(self.masked, head, end):
            c = m.group()
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0:
                p = m.end()
                if self.masked[p:end].strip(" \t\r#") == "" and k + 1 < len(self.starts):
                    return self.starts[k + 1]  # a block on the lines below: it starts there
                while p < end and self.text[p] in " \t":
                    p += 1
                return p
        raise _Fail

    def stop(self, k: int) -> int:
        """Where the statement of line ``k`` ends: its code; after a block, the end of its
        last line and the comment lines indented into it that follow it (the grammar's
        block holds them)."""
        nxt = self.nxt[k]
        if nxt == k + 1:
            return self.code_ends[k]
        e = self.ends[nxt - 1]
        cstarts = self.cstarts
        c = bisect_left(cstarts, self.starts[nxt] if nxt < len(self.starts) else len(self.text)) - 1
        while c >= 0 and cstarts[c] > e:
            if self.cinds[c] > self.inds[k]:
                return self.cends[c]
            c -= 1
        return e

    def definition(self, k: int, start: int, kw: str) -> _Node:
        s = self.starts[k]
        node = _Node("decorated_definition" if start < s else _TYPES[kw], start, self.stop(k))
        m = _NAME.match(self.text, s)
        if m is None:
            raise _Fail
        node.name = m.group(1)
        node.def_type = _TYPES[kw]
        node.head = s
        node.head_end = self.header_end(s, k)
        return node

    # -- the walk ---------------------------------------------------------------------
    #
    # The syntax tree is not built: each node's children are listed as tuples when the
    # walk reaches it, and the analysis of the tree-sitter and ``ast`` readings
    # (``parsers.code._analyze``: groups, statement cuts, definitions) is done on them
    # there, with the same results. A child is ``(start, end, type, k, extra, indent)``:
    # ``type`` None for a comment; ``k`` its logical line (for a block: the line of its
    # header); ``extra`` a definition's node, or a compound statement's clauses (children
    # too); ``indent`` the spaces before it on its line (-1: it does not start its line).

    def kids(self, i: int, j: int) -> list[_Child]:
        """The statements of lines ``[i, j)`` (one indentation level); a compound
        statement's clauses (``elif``, ``else``, ``except``, ``finally``) are its own."""
        nxt, kinds, starts, inds, stop = self.nxt, self.kind, self.starts, self.inds, self.stop
        code_ends = self.code_ends
        kids: list[_Child] = []
        append = kids.append
        k = i
        while k < j:
            kw = kinds(k)
            if kw == "@":
                d0 = starts[k]
                while kw == "@":
                    k = nxt[k]
                    if k >= j or inds[k] != inds[i]:
                        raise _Fail
                    kw = kinds(k)
                if kw not in ("def", "class"):
                    raise _Fail
                node = self.definition(k, d0, kw)
                append((node.start, node.end, node.type, k, node, inds[k]))
            elif kw == "def" or kw == "class":
                node = self.definition(k, starts[k], kw)
                append((node.start, node.end, node.type, k, node, inds[k]))
            elif kw in _CLAUSES:
                raise _Fail  # a clause without its statement
            else:
                t = _TYPES.get(kw, "expression_statement")
                if kw == "from" and self.text.startswith("__future__", _skip(self.text, starts[k] + 4)):
                    t = "future_import_statement"
                s = starts[k]
                c = nxt[k]
                if c < j and inds[c] == inds[k] and kinds(c) in _CLAUSES:
                    first = k
                    clauses = []
                    while c < j and inds[c] == inds[k] and (ck := kinds(c)) in _CLAUSES:
                        clauses.append((starts[c], code_ends[c] if nxt[c] == c + 1 else stop(c), _TYPES[ck], c, None,
                                        inds[c]))
                        k = c
                        c = nxt[c]
                    append((s, clauses[-1][1], t, first, clauses, inds[first]))
                else:
                    append((s, code_ends[k] if c == k + 1 else stop(k), t, k, None, inds[k]))
            k = nxt[k]
        return kids

    def header(self, k: int) -> list[_Child]:
        """The comment lines between the header on line ``k`` and the first statement of
        its block, then the block (the grammar's children of a compound statement)."""
        cstarts, cends, cinds = self.cstarts, self.cends, self.cinds
        i = k + 1
        out: list[_Child] = [
            (cstarts[c], cends[c], None, -1, None, cinds[c])
            for c in range(bisect_left(cstarts, self.ends[k]), bisect_left(cstarts, self.starts[i]))
        ]
        out.append((self.starts[i], self.stop(k), "block", k, None, self.inds[i]))
        return out

    def listed(self, kids: list[_Child], lo: int, end: int) -> list[_Child]:
        """``kids`` with the comments after a statement on its line and the comment lines
        in ``[lo, end]`` that no kid holds, in order."""
        nxt, ends, code_ends = self.nxt, self.ends, self.code_ends
        out = kids
        extra = [
            (self.masked.index("#", code_ends[k]), ends[k], None, -1, None, -1)
            for _s, _e, _t, k, x, _i in kids
            if nxt[k] == k + 1 and ends[k] > code_ends[k] and not (x is not None and x.__class__ is list)
        ]
        if extra:
            out = sorted(kids + extra, key=_first)
        cstarts = self.cstarts
        ci, cj = bisect_left(cstarts, lo), bisect_right(cstarts, end)
        if ci < cj:  # comment lines not inside a kid (a kid reads its own)
            cends, cinds = self.cends, self.cinds
            merged: list[_Child] = []
            x = 0
            n = len(out)
            for c in range(ci, cj):
                p = cstarts[c]
                while x < n and out[x][1] <= p:
                    merged.append(out[x])
                    x += 1
                if x < n and out[x][0] <= p:
                    continue
                merged.append((p, cends[c], None, -1, None, cinds[c]))
            merged.extend(out[x:])
            out = merged
        return out

    def walk(self, children: list[_Child], node_start: int, listing: bool, parent: int,
             prefix: str, attached: bool, keep: list[tuple[int, int, Any]] | None = None) -> None:
        """The analysis of one node's ``children``, in one pass: its groups (comments go
        with the node right below them, a comment after a node on its line with that
        node), the statements it lists, the cuts between its groups and the definitions;
        each child's own children right after its group. ``attached``: the children of a
        block (or the module), where a definition that fits with the comments right
        above it is left closed. ``keep``: a list that gets the groups ``(start, end,
        child)``."""
        text, defs, statements, cuts, nxt, fits = self.text, self.defs, self.statements, self.cuts, self.nxt, self.fits
        n = len(children)
        i = gi = 0
        prev_def = False
        pending = pind = lead = -1
        while i < n:
            c = children[i]
            i += 1
            if c[2] is None:  # a comment: with the node below it unless a blank line follows
                if lead < 0:
                    lead = c[0]
                if pending < 0:
                    pending = c[0]
                    pind = c[5]
                if i < n:
                    gap = text[c[1] : children[i][0]]
                    if gap.count("\n") + gap.count("\r") - gap.count("\r\n") <= 1:
                        continue
                gs, ge, ind, group = pending, c[1], pind, -1
                pending = -1
                c = None
            else:
                if pending >= 0:
                    gs, ind = pending, pind
                    pending = -1
                else:
                    gs, ind = c[0], c[5]
                group = lead if lead >= 0 else c[0]  # (where a definition's comments start)
                lead = -1
                ge = c[1]
                while i < n and children[i][2] is None:  # comments after it on its line
                    m = children[i]
                    gap = text[ge : m[0]]
                    if "\n" in gap or "\r" in gap:
                        break
                    if lead < 0:
                        lead = m[0]
                    if m[1] > ge:
                        ge = m[1]
                    i += 1
            is_def = c is not None and c[4].__class__ is _Node
            if ind >= 0:  # the group starts its line (after ``ind`` spaces: no tabs in indentation)
                if listing:
                    statements.append((gs, ge, c[4].def_type if is_def else (c[2] if c is not None else "comment")))
                if gs > 0:
                    a = gs - ind
                    while a > 0 and text[a - 1].isspace():
                        a -= 1
                    if a > 0 and (gi > 0 or a > node_start):
                        kind = 0 if is_def or prev_def else (2 if c is not None and c[2] in _CLAUSE_TYPES else 1)
                        key = (a, gs)
                        old = cuts.get(key)
                        cuts[key] = (ind, kind if old is None or kind < old[1] else old[1])
            prev_def = is_def
            gi += 1
            if keep is not None:
                keep.append((gs, ge, c))
            if c is None:
                continue
            k = c[3]
            if is_def:
                node = c[4]
                name = node.name
                qual = f"{prefix}.{name}" if prefix else name
                sig = _signature(text, node)
                defs.append(Definition(gs, node.head, node.end, name, qual, node.def_type, sig, parent))
                idx = len(defs) - 1
                if attached and fits is not None and fits(_line_start(text, group), node.end):
                    self.closed.append((node.start, node.end))
                    self.inner(node, k)
                    if node.children:
                        self.record_closed(node, idx, qual)
                elif nxt[k] > k + 1:
                    self.body(k, node.start, None, False, idx, qual)
                continue
            typ = c[2]
            if typ == "block":
                j = k + 1
                self.walk(self.listed(self.kids(j, nxt[k]), self.starts[j], c[1]), c[0], True, parent, prefix, True)
            elif nxt[k] > k + 1:
                self.body(k, c[0], c[4], typ.endswith("clause"), parent, prefix)
            elif c[4] is not None:
                self.walk(c[4], c[0], typ.endswith("clause"), parent, prefix, False)

    def body(self, k: int, node_start: int, clauses: Any, listing: bool, parent: int, prefix: str) -> None:
        """The children of the node whose header is line ``k`` (followed by its block):
        the comment lines above the block's first statement, the block, its ``clauses``.
        Without comments or clauses (most nodes), the block alone: its group, its cut and
        its statements, as :meth:`walk` gives them, without a walk of one child."""
        cstarts = self.cstarts
        i = k + 1
        bs = self.starts[i]
        c0 = bisect_left(cstarts, self.ends[k])
        if clauses is not None or (c0 < len(cstarts) and cstarts[c0] < bs):
            sub = self.header(k)
            if clauses is not None:
                sub.extend(clauses)
            self.walk(sub, node_start, listing, parent, prefix, False)
            return
        text = self.text
        be = self.stop(k)
        ind = self.inds[i]
        if listing:
            self.statements.append((bs, be, "block"))
        a = bs - ind
        while a > 0 and text[a - 1].isspace():
            a -= 1
        if a > node_start:  # (a cut between statements, kind 1, unless a cut there is stronger)
            key = (a, bs)
            old = self.cuts.get(key)
            self.cuts[key] = (ind, 1 if old is None or old[1] > 1 else old[1])
        self.walk(self.listed(self.kids(i, self.nxt[k]), bs, be), bs, True, parent, prefix, True)

    def record_closed(self, node: _Node, parent: int, prefix: str) -> None:
        """The definitions inside the closed definition ``node`` (found by :meth:`inner`)."""
        text, defs = self.text, self.defs
        for c in node.children:
            name = c.name
            qual = f"{prefix}.{name}" if prefix else name
            defs.append(Definition(c.start, c.head, c.end, name, qual, c.def_type, _signature(text, c), parent))
            if c.children:
                self.record_closed(c, len(defs) - 1, qual)

    def inner(self, node: _Node, k: int) -> None:
        """The definitions inside the closed definition ``node`` (line ``k``), nested."""
        starts, inds = self.starts, self.inds
        chain: list[_Node] = [node]
        for m in _INNER_DEF.finditer(self.masked, starts[k], node.end):
            s = m.end(1)
            i = bisect_left(starts, s)
            if i >= len(starts) or starts[i] != s:
                continue  # not a statement (inside brackets)
            d = i
            while d > k + 1 and self.text[starts[d - 1]] == "@" and inds[d - 1] == inds[i]:
                d -= 1
            kw = self.kind(i)
            if kw not in ("def", "class"):
                continue
            inner = self.definition(i, starts[d], kw)
            inner.closed = True
            while len(chain) > 1 and chain[-1].end <= inner.start:
                chain.pop()
            chain[-1].children.append(inner)
            chain.append(inner)


def _first(item: tuple[Any, ...]) -> Any:
    return item[0]


def _skip(text: str, p: int) -> int:
    while p < len(text) and text[p] in " \t":
        p += 1
    return p


def _mask(text: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The text with strings as ``_``, comments as ``#``, backslash continuations as
    spaces and brackets as ``(``/``)`` (same length); the multi-line strings."""
    parts: list[str] = []
    opaque: list[tuple[int, int]] = []
    prev = 0
    for m in _LEX.finditer(text):
        s, e = m.span()
        c = text[s]
        parts.append(text[prev:s])
        if c == "#":
            parts.append("#" * (e - s))
        elif c == "\\":
            parts.append(" " * (e - s))
        elif e - s == 1:
            return None  # a quote that opens no string
        else:
            parts.append("_" * (e - s))
            if "\n" in m.group() or "\r" in m.group():
                opaque.append((s, e))
        prev = e
    parts.append(text[prev:])
    # (four replacements, each a search for one character: 10x faster than translate)
    masked = "".join(parts).replace("[", "(").replace("{", "(").replace("]", ")").replace("}", ")")
    return masked, opaque


def _tokens(text: str, opaque: list[tuple[int, int]], closed: list[tuple[int, int]]) -> Any:
    """A function ``(start, end) -> cuts`` between the tokens of ``text[start:end]`` on one
    line (a string, a comment and a definition left closed are one token each)."""
    dark = sorted(opaque + closed)
    dstarts = [a for a, _ in dark]

    def cuts(start: int, end: int) -> Iterator[tuple[int, int]]:
        pos = start
        prev = -1
        k = bisect_right(dstarts, pos) - 1
        if k >= 0 and dark[k][0] < pos < dark[k][1]:  # begun inside a string or a closed definition
            prev = pos = dark[k][1]
        search = _TOKEN.search
        while pos < end:
            m = search(text, pos, end)
            if m is None:
                return
            s, e = m.span()
            k = bisect_left(dstarts, s)
            if k < len(dark) and dstarts[k] == s:  # a closed definition is one token
                e = max(e, dark[k][1])
            if prev > 0 and s >= prev and (cut := _token_cut(text, prev, s)) is not None:
                yield cut
            prev = max(prev, e)
            pos = e
    return cuts


def scan_python(text: str, fits: Callable[[int, int], bool] | None = None) -> CodeStructure | None:
    """The structure of the Python source ``text``, or None when the scan cannot vouch for
    it (see the module docstring): the caller parses it another way.

    Args:
        text: Python source.
        fits: ``(start, end) -> bool``, whether ``text[start:end]`` fits a chunk: a
            definition that fits with its comments is not read inside (only the
            definitions in it). None: every statement is read.

    Returns:
        A :class:`~chunkwise.parsers.code.CodeStructure` with ``parser="scan"`` (line and
        token cuts read when asked), or None.
    """
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return None  # a lone carriage return ends a line for Python, not for the scan
    masked = _mask(text)
    if masked is None:
        return None
    mtext, opaque = masked
    if ("\t" in mtext or "\f" in mtext) and _BAD_INDENT.search(mtext):
        return None
    sc = _Scanner(text, mtext, fits)
    try:
        sc.lines()
        n = len(text)
        groups: list[tuple[int, int, Any]] = []
        sc.walk(sc.listed(sc.kids(0, len(sc.starts)), 0, n), 0, True, -1, "", True, groups)
    except (_Fail, IndexError, ValueError, RecursionError):  # (nesting deeper than the stack)
        return None
    closed = sorted(sc.closed)
    defs = sc.defs
    _link_parents(defs)
    top = tuple(
        (g[0], g[1], "comment" if g[2] is None else ("definition" if g[2][4].__class__ is _Node else "statement"))
        for g in groups
    )
    items = tuple((g[0], g[1]) for g in groups)
    imports = tuple((c[0], c[1]) for g in groups if (c := g[2]) is not None and c[2] in _IMPORTS)
    cuts = tuple(sorted((a, b, ind, kind) for (a, b), (ind, kind) in sc.cuts.items() if a < b and text[a:b].isspace()))
    # (statements, like cuts and definitions, are found in document order, outer first)
    return CodeStructure(
        language="python",
        parser="scan",
        definitions=tuple(defs),
        top=top,
        items=items,
        statements=tuple(sc.statements),
        cuts=cuts,
        imports=imports,
        lazy_tokens=_tokens(text, opaque, closed),
        lazy_lines=_line_cuts(text, opaque, closed),
    )

